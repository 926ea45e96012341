"""Run the registered checks with a progress bar and collect their results.

A thorough run with a store (``ngc-ref check --thorough``, :attr:`Context.store`) first runs
every selected claim's work as sweep cells (:func:`thorough_plan`, :func:`run_thorough_cells`):
the cells a claim declares with ``@CLAIM.plan``, and for a claim without a plan one ``check``
cell per norm that runs its whole check. They run claim by claim on the sweep runner (joblib on
the local cores, or the Dask cluster of ``--scheduler``) into the crash-safe store, so a run
that is stopped continues where it stopped. The checks then run as always: a planned claim
reads its records back and judges, a ``check`` cell's results (and figures) are taken from its
record.
"""

from __future__ import annotations

import base64
import dataclasses
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path

from .kit.claim import Context, Result, format_exception, match_id, registry, statement_ids
from .output.files import data_origin_line
from .sweep.cost import format_seconds, plural, vary_lines as _vary
from .output.report import sort_results
from .sweep import Param, cell_seconds, make_cell, register_task, run_sweep
from .sweep.backends import make_backend
from .sweep.store import finished, read_records

#: The task of a claim without a plan: its whole check, in one normalisation, in one cell.
CHECK_TASK = "check"


def resolve_ids(only):
    """The ids of ``--only`` as registered (any letter case is accepted: ``Lemma-1``), or
    ``None`` for none; an unknown id raises ``ValueError`` suggesting the closest ones."""
    if not only:
        return None
    index, ids, problems = statement_ids(), [], []
    for name in only:
        try:
            ids.append(match_id(name, index, "claim id"))
        except ValueError as exc:
            problems.append(str(exc))
    if problems:
        raise ValueError("; ".join(problems) + " (`ngc-ref check --help` lists every id)")
    return list(dict.fromkeys(ids))


def select(only=None):
    """The claims to run for ``--only`` and the statement ids to keep (``None``: all).

    ``only`` may name claims (``lemma-1``: all its statements) or single statements
    (``lemma-1-corrected:frobenius``, ``case-study:3``), in any letter case; an unknown id
    raises ``ValueError`` suggesting the closest ones (:func:`resolve_ids`).
    """
    claims = registry()
    only = resolve_ids(only)
    if not only:
        return claims, None
    index = statement_ids()
    keep = set()
    for i in only:
        keep.update(claims[i].statements if i in claims else [i])
    wanted = {index[i].id for i in only}
    return {k: c for k, c in claims.items() if k in wanted}, keep


def data_notice(ctx, claims):
    """The lines a run prints before it starts: the paper's data sets that the selected
    ``claims`` will skip (:attr:`.Claim.data_sets`) and why. Without ``ctx.data_root`` that is
    all of them; with it, each one that does not load (loading them takes well under a second).
    """
    users = {}
    for c in claims.values():
        for name in c.data_sets:
            users.setdefault(name, []).append(c.id)
    if not users:
        return []
    if ctx.data_root is None:
        return [f"ngc-ref: NGC_REF_DATA is not set: skipping the paper's data sets "
                f"{', '.join(users)} (used by {', '.join(dict.fromkeys(sum(users.values(), [])))}"
                "); `ngc-ref data fetch` downloads them, or set NGC_REF_DATA to the data folder"]
    from ngc_ref import datasets
    lines = [line for line in [data_origin_line(ctx.data_root)] if line]
    for name, ids in users.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # e.g. Pubmed's partial features: the
                datasets.load_dataset(name, root=ctx.data_root)    # claims say so themselves
        except (OSError, ValueError) as exc:
            lines.append(f"ngc-ref: skipping {name} (used by {', '.join(ids)}): could not load "
                         f"it from {ctx.data_root}: {exc}")
    return lines


def check_context(ctx, c):
    """The context ``c``'s check runs with: below ``--scale`` 1 a claim without a plan runs
    its default grid (its thorough one has no size knob)."""
    if ctx.thorough and ctx.scale < 1 and not c.planned:
        return dataclasses.replace(ctx, thorough=False)
    return ctx


def run_checks(ctx, only=None, progress=True, raise_errors=False, on_cell=None):
    """Run every claim (or those ``only`` selects) in each of its norms; returns the results in
    report order.

    A check that raises does not stop the run: it becomes an ``error`` result of the claim
    (the message and the last lines of the traceback are its evidence), because one claim's
    missing data or crash must not throw away the others. ``raise_errors=True`` (``--debug``)
    lets the exception through instead. ``KeyboardInterrupt`` always propagates.

    In a thorough run with ``ctx.store`` the claims' cells run first
    (:func:`run_thorough_cells`; ``on_cell(record)`` is called as each lands); without a store
    everything runs in this process.
    """
    claims, keep = select(only)
    jobs = [(c, norm) for c in claims.values() for norm in c.norms]
    cells = {}
    thorough = ctx.thorough and ctx.store is not None
    if thorough:
        cells = run_thorough_cells(ctx, claims, progress=progress, raise_errors=raise_errors,
                                   on_cell=on_cell)
    elif _parallel(ctx, jobs, raise_errors):
        cells = run_default_cells(ctx, jobs, progress=progress)
    judged = {}
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=len(jobs), unit="check", dynamic_ncols=True)
    results = []
    try:
        for c, norm in jobs:
            if bar is not None:
                bar.set_description(f"{c.id} [{norm}]")
            ctx.current = (c.id, norm)
            t0 = time.perf_counter()
            spent = 0.0
            try:
                outcome = cells.get((c.id, norm))
                if outcome is not None and outcome["error"] is not None:
                    out = [_error_result(c, norm, outcome["error"], outcome["traceback"])]
                elif outcome is not None and outcome["record"] is not None:
                    out = _from_check_cell(ctx, outcome["record"])
                    spent = outcome["seconds"]
                else:
                    out = c.run(check_context(ctx, c), norm)
                    spent = outcome["seconds"] if outcome is not None else 0.0
            except Exception as exc:  # noqa: BLE001 - recorded as this claim's outcome
                if raise_errors:
                    raise
                out = [_error_result(c, norm, format_exception(exc), _traceback(exc))]
            finally:
                ctx.current = (None, None)
            for r in out:
                r.seconds = round(time.perf_counter() - t0 + spent, 3)
            results.extend(r for r in out if keep is None or r.id in keep)
            if bar is not None:
                bar.update(1)
            judged[c.id] = judged.get(c.id, 0.0) + time.perf_counter() - t0
            if thorough and not progress and norm == c.norms[-1]:
                print(f"ngc-ref: {c.id}: judged in {format_seconds(judged[c.id])}",
                      file=sys.stderr, flush=True)
    finally:
        if bar is not None:
            bar.close()
    return sort_results(results, claims)


def _traceback(exc):
    tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
    return "".join(tb[-3:]).strip()


def _error_result(c, norm, message, tb):
    return c.result(norm, "error", {"error": message, "traceback": tb},
                    f"could not run: {message}")


# ---------------------------------------------------------------------------------- thorough

def check_seconds(params):
    """The cost model of a ``check`` cell: what the claim declares its check takes per norm
    (``claim(..., seconds=(default, thorough))``), its thorough grid's or its default one's."""
    default, thorough = registry()[params["claim"]].seconds
    return thorough if params["thorough"] else default


@register_task(CHECK_TASK, {
    "claim": Param(str, doc="claim id"),
    "norm": Param(str, choices=("sym", "rw"), doc="normalisation"),
    "run_seed": Param(int, 0, min=0, doc="the check's run seed (--seed)"),
    "thorough": Param(bool, True, doc="the claim's thorough grid (False: its default one)"),
    "data_root": Param(str, "", doc="NGC_REF_DATA of the run ('' : none)"),
}, cost=check_seconds)
def check_cell(params, seeds):
    """One claim's whole check in one normalisation: its results, skips and figures."""
    c = registry()[params["claim"]]
    norm = params["norm"]
    with tempfile.TemporaryDirectory(prefix="ngc-ref-check-") as tmp:
        ctx = Context(seed=params["run_seed"], thorough=params["thorough"], out_dir=Path(tmp),
                      data_root=Path(params["data_root"]) if params["data_root"] else None)
        ctx.current = (c.id, norm)
        results = c.run(ctx, norm)
        figures = {name: base64.b64encode((Path(tmp) / name).read_bytes()).decode("ascii")
                   for r in results for name in r.figures}
    return {"results": [r.to_dict() for r in results], "skipped": list(ctx.skipped),
            "figures": figures}


def _from_check_cell(ctx, record):
    """The results of a ``check`` cell's record; its figures are written to ``ctx.out_dir``
    and its skips noted in ``ctx``."""
    res = record["result"]
    if ctx.out_dir is not None:
        for name, data in res["figures"].items():
            (Path(ctx.out_dir) / Path(name).name).write_bytes(base64.b64decode(data))
    for entry in res["skipped"]:
        if entry not in ctx.skipped:
            ctx.skipped.append(entry)
    return [Result(**r) for r in res["results"]]


def check_params(ctx, c, norm, thorough):
    """The parameters of claim ``c``'s ``check`` cell in ``norm``: the run's seed and data
    folder, and whether the claim's thorough grid runs (``thorough``)."""
    return {"claim": c.id, "norm": norm, "run_seed": ctx.seed, "thorough": thorough,
            "data_root": str(ctx.data_root or "")}


def _parallel(ctx, jobs, raise_errors):
    """Whether a default run's checks go to local workers: ``check -j`` asked for it, there is
    more than one check and more than one worker, and nothing lives only in this process (a
    user's ``--family`` functions; ``--debug``, which lets a check's exception through here)."""
    return (ctx.parallel and not ctx.thorough and not ctx.families and not raise_errors
            and ctx.scheduler is None and len(jobs) > 1 and _workers(ctx) > 1)


def run_default_cells(ctx, jobs, progress=True):
    """A default run's checks on ``ctx.n_jobs`` local workers (``check -j``): one ``check``
    cell per claim and norm (its default grid, no store), the longest first, so the last
    checks do not leave cores idle.

    Returns the outcomes of :func:`run_thorough_cells` (``{(claim id, norm): {"record",
    "error", "traceback", "seconds"}}``). A cell runs the same ``Claim.run`` with the same
    seeds as the in-process run (:func:`check_cell`), so the results are the same.
    """
    cells = {(c.id, norm): make_cell(CHECK_TASK, check_params(ctx, c, norm, False), ctx.seed,
                                     f"{c.id} [{norm}]")
             for c, norm in jobs}
    order = sorted(cells.values(), key=lambda cl: -cell_seconds(cl.task, cl.params))
    recs = {r["id"]: r for r in run_sweep(order, None, n_jobs=ctx.n_jobs, seed=ctx.seed,
                                          progress=progress, desc="check",
                                          raise_errors=False)}
    outcomes = {}
    for key, cell in cells.items():
        rec = recs[cell.id]
        bad = "error" in rec
        outcomes[key] = {"record": None if bad else rec, "error": rec["error"] if bad else None,
                         "traceback": rec.get("traceback", "") if bad else None,
                         "seconds": 0.0 if bad else rec.get("seconds", 0.0)}
    return outcomes


def thorough_plan(ctx, claims):
    """``{claim id: {norm: [Cell, ...]}}``: every cell of a thorough run, claim by claim."""
    plan = {}
    for c in claims.values():
        plan[c.id] = {}
        for norm in c.norms:
            if c.planned:
                pairs = c.cells(ctx, norm)
            else:
                pairs = [(CHECK_TASK, check_params(ctx, c, norm,
                                                   check_context(ctx, c).thorough))]
            plan[c.id][norm] = [make_cell(task, params, ctx.seed, f"{c.id} [{norm}]")
                                for task, params in pairs]
    return plan


def estimate(cells):
    """Estimated seconds of ``cells`` on one core (each task's cost model:
    :func:`.sweep.cell_seconds`)."""
    return sum(cell_seconds(c.task, c.params) for c in cells)


def _unique(cells):
    seen, out = set(), []
    for c in cells:
        if c.id not in seen:
            seen.add(c.id)
            out.append(c)
    return out


def run_thorough_cells(ctx, claims, progress=True, raise_errors=False, on_cell=None, log=None):
    """Run the cells of every claim in ``claims`` into ``ctx.store``, claim by claim.

    Returns ``{(claim id, norm): {"record", "error", "traceback", "seconds"}}``: a ``check``
    cell's record, or the first error among the norm's cells, and the seconds its cells took.
    Finished cells are read from the store, never run again. With ``progress`` each claim gets
    a bar (cells done / total, ETA); without, one line per claim on stderr (``log``).
    """
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    plan = thorough_plan(ctx, claims)
    backend, scheduler = None, ctx.scheduler
    if isinstance(scheduler, str):   # one connection for the whole run
        backend = make_backend(ctx.n_jobs, scheduler).open()
        scheduler = backend.client
    store = Path(ctx.store)
    store.parent.mkdir(parents=True, exist_ok=True)
    before = set(finished(read_records(store)))
    outcomes = {}
    try:
        for cid, by_norm in plan.items():
            cells = _unique([cell for cs in by_norm.values() for cell in cs])
            # Longest first, so the last cells of a claim do not leave cores idle.
            order = sorted(cells, key=lambda cl: -cell_seconds(cl.task, cl.params))
            t0 = time.perf_counter()
            recs = run_sweep(order, store, n_jobs=ctx.n_jobs, scheduler=scheduler,
                             seed=ctx.seed, progress=progress, desc=cid, raise_errors=False,
                             on_record=on_cell)
            by_id = {r["id"]: r for r in recs}
            errors = [r for r in recs if "error" in r]
            if errors and raise_errors:
                first = errors[0]
                raise RuntimeError(f"{cid}: cell {first['task']} {first['params']} failed: "
                                   f"{first['error']}\n{first.get('traceback', '')}")
            reused = sum(c.id in before for c in cells)
            if not progress:
                log(f"ngc-ref: {cid}: {plural(len(cells), 'cell')}"
                    + (f" ({reused} from the store)" if reused else "")
                    + f" in {format_seconds(time.perf_counter() - t0)}"
                    + (f"; {len(errors)} failed" if errors else ""))
            for norm, cs in by_norm.items():
                norm_recs = [by_id[c.id] for c in cs]
                bad = next((r for r in norm_recs if "error" in r), None)
                single = len(cs) == 1 and cs[0].task == CHECK_TASK
                outcomes[(cid, norm)] = {
                    "record": norm_recs[0] if single and bad is None else None,
                    "error": None if bad is None else (
                        bad["error"] if single else
                        f"{sum('error' in r for r in norm_recs)} of {plural(len(cs), 'cell')} "
                        "failed "
                        f"(first: {bad['task']} {bad['params']}: {bad['error']}); re-run the "
                        "same command to retry them"),
                    "traceback": None if bad is None else bad.get("traceback", ""),
                    "seconds": sum(r.get("seconds", 0.0) for r in norm_recs
                                   if "error" not in r)}
    finally:
        if backend is not None:
            backend.close()
    return outcomes


def dry_run(ctx, claims, store=None):
    """The lines ``--dry-run`` prints: per claim its cells, what they vary and the estimated
    time, then the total on the run's workers; nothing runs."""
    plan = thorough_plan(ctx, claims) if ctx.thorough else {
        c.id: {norm: [make_cell(CHECK_TASK, check_params(ctx, c, norm, False))]
               for norm in c.norms}
        for c in claims.values()}
    done = set(finished(read_records(store))) if store is not None else set()
    lines, total, total_left, longest, n_cells, n_done = [], 0.0, 0.0, 0.0, 0, 0
    for cid, by_norm in plan.items():
        cells = _unique([cell for cs in by_norm.values() for cell in cs])
        est = estimate(cells)
        left = estimate([c for c in cells if c.id not in done])
        k_done = sum(c.id in done for c in cells)
        total, total_left = total + est, total_left + left
        longest = max([longest] + [cell_seconds(c.task, c.params) for c in cells])
        n_cells, n_done = n_cells + len(cells), n_done + k_done
        head = (f"{cid}: {plural(len(cells), 'cell')}"
                + (f" ({k_done} finished in the store)" if k_done else "")
                + f", ~{format_seconds(est)} on one core")
        lines.append(head)
        lines.extend(f"    {line}" for line in _vary(cells))
    workers = _workers(ctx)
    wall = max(total_left / workers, longest if total_left else 0.0)
    lines.append(f"total: {plural(n_cells, 'cell')} ({n_done} finished), "
                 f"~{format_seconds(total)} of "
                 f"compute; ~{format_seconds(wall)} left on {workers} worker(s)"
                 + (" (Dask cluster: divide by its workers)" if ctx.scheduler else ""))
    return lines


def _workers(ctx):
    if ctx.scheduler:
        return 1
    from joblib import effective_n_jobs
    return max(1, effective_n_jobs(ctx.n_jobs))
