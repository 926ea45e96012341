"""The run of ``ngc-ref reproduce``: plan the cells, run them through the sweep store, judge,
write ``reproduce.json`` and ``reproduce.md``.

Each target is a claim whose cells are its plan (:meth:`.targets.Target.planned_cells`): the
run collects the selected targets' cells (:func:`.cells.plan`) and runs them as a claim's
``--thorough`` cells run, through :func:`..sweep.run_planned` into the run's store,
``OUT/reproduce.jsonl`` (the crash-safe JSON-lines store of :mod:`..sweep`): an interrupted
run keeps its finished cells and the same command resumes without repeating them.
The cells run on ``jobs`` joblib workers (or a Dask cluster), longest first (see
:func:`.cells.plan`): the Coauthor cells (dense noisy 18,333 x 6,805 and 34,493 x 8,415
float32 features, a few GB each while they run) start first, one of each data set side by
side, and the small cells fill the cores around them.

OUT is locked for the run, and the report is written into a staging folder inside it and moved
into place by atomic renames (figures, then ``reproduce.json``, then ``reproduce.md``), so it
is never half-written (:func:`..output.files.staged_output`, shared with ``ngc-ref check``).
"""

from __future__ import annotations

import datetime
import json
import sys
import time
from pathlib import Path

from ..output.files import atomic_write_text, data_origin_line, data_root, staged_output
from ..output.provenance import machine, source, versions
from ..sweep import run_planned
from ..sweep.store import encode
from .cells import dataset, plan
from .tables import build, figures, markdown, shown_reading, terminal_lines
from .scale import run_scale
from .targets import NOT_RUN, TARGETS, RunContext, parse_only, parse_sentences, run_counts

STORE = "reproduce.jsonl"
SCALE = "scale.json"


def select(only):
    """``{target: datasets or None}`` for ``--only`` (None: every runnable target)."""
    if not only:
        return {k: None for k in TARGETS}
    return parse_only(only)


def reproduce(*, only=None, runs=None, full=False, out="ngc_ref_reproduce", jobs=-1,
              scheduler=None, seed=0, progress=True, scale=False, command="ngc-ref reproduce",
              echo=print):
    """Run (or resume) the selected experiments and write the report; returns (report, meta).

    Raises ValueError before anything is created for bad arguments or missing data.
    """
    _check_settings(runs, seed, jobs)
    selection = select(only)
    scale = scale or "scale" in selection
    runnable = {k: v for k, v in selection.items() if k in TARGETS}
    root = data_root("ngc-ref reproduce" if runnable else None)
    if data_origin_line(root):
        print(data_origin_line(root), file=sys.stderr)
    out = Path(out)
    ctx = RunContext(seed=seed, data_root=root, store=out / STORE, n_jobs=jobs,
                     scheduler=scheduler, runs=runs, full=full, chosen=runnable,
                     sentences=parse_sentences(only) if only else {})
    cells = plan(ctx)
    _check_data(sorted({params["dataset"] for _, params in cells}), root)
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    with staged_output(out) as staged:
        records = []
        if cells:
            records = run_planned(ctx, cells, progress=progress, raise_errors=False)
        scale_result = _scale(out, echo) if scale else None
        done = [r for r in records if r is not None and "error" not in r]
        report = build(done, ctx)
        meta = {"command": command, "started": started,
                "seconds": round(time.perf_counter() - t0, 1), "seed": seed,
                "only": only, "runs": runs, "full": full, "source": source(), **versions(),
                **machine(), "data_root": root,
                "run_counts": _run_counts(runnable, report["timing"], runs=runs, full=full),
                "not_run": [{"target": k, "reason": v} for k, v in NOT_RUN.items()],
                "cell_failures": [{"params": f["params"], "error": f["error"]} for f in records
                                  if f is not None and "error" in f],
                "scale": scale_result, "cells_span": _span(done)}
        if not scale:
            meta["skipped_targets"] = ["the synthetic ogbn-products-size scale run was not run "
                                       "(it takes several minutes: add --scale-run)"]
        staged.commit(_write(staged.dir, report, meta))
    for line in _terminal_summary(report):
        echo(line)
    return report, meta


def _check_settings(runs, seed, jobs):
    """``ValueError`` for a run count, seed or worker count the command line would refuse
    (the Python API's values are not parsed by argparse)."""
    if runs is not None and (isinstance(runs, bool) or not isinstance(runs, int) or runs < 1):
        raise ValueError(f"--runs must be a positive integer, got {runs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {seed!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs == 0:
        raise ValueError(f"-j/--jobs must be a non-zero integer (-1: all cores), got {jobs!r}")


def _check_data(names, root):
    """Load each data set once: a missing or damaged file stops the run here, with the
    loader's message, before anything is created (the cells would otherwise each fail with
    it)."""
    for name in names:
        try:
            dataset(name, 0)
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot load {name!r} from {root}: "
                             f"{exc}") from None


def _run_counts(runnable, timing, *, runs, full):
    """Per selected (target, data set): our run count, the paper's, and the cells' wall and
    CPU seconds (``timing``: the report's ``"target | dataset"`` sums)."""
    counts = []
    for key, chosen in runnable.items():
        for ds, n in run_counts(key, runs=runs, full=full).items():
            if chosen is None or ds in chosen:
                spent = timing.get(f"{key} | {ds}", {})
                counts.append({"target": key, "dataset": ds, "runs": n,
                               "paper_runs": TARGETS[key].paper_runs,
                               "seconds": spent.get("seconds", 0.0),
                               "cpu_seconds": spent.get("cpu_seconds", 0.0)})
    return counts


def _write(stage, report, meta):
    """Write the figures, ``reproduce.json`` and ``reproduce.md`` into ``stage``; returns
    their names in the order they move into place (``reproduce.md`` last)."""
    figs = figures(report, stage)
    payload = {"schema_version": 1, "meta": meta, **report}
    # strict JSON (NaN -> null, as the store writes it), indented for reading
    text = json.dumps(json.loads(encode(payload)), indent=1, ensure_ascii=False)
    (stage / "reproduce.json").write_text(text + "\n", encoding="utf-8")
    (stage / "reproduce.md").write_text(markdown(report, meta, figs), encoding="utf-8")
    return [*(f for fs in figs.values() for f in fs), "reproduce.json", "reproduce.md"]


def _terminal_summary(report):
    """What the command prints: cell by cell, the claims, the unstated choices, what was
    not run."""
    lines = terminal_lines(report)
    for c in report["claims"]:
        rd = f" [{c['reading']}]" if shown_reading(c) else ""
        lines.append(f"claim {c['target']} {c['claim']}{rd}: {c['verdict']} — {c['summary']}")
    for r in report["readings"]:
        lines.append(f"unstated choice in {r['target']} ({r['choice']}): closer to the paper: "
                     f"{r['matches_paper']}")
    lines += [f"not run: {k}: {v}" for k, v in NOT_RUN.items()]
    return lines


def _span(records):
    """When the cells of this report ran: first start, last end, wall and CPU seconds."""
    if not records:
        return None
    starts = [datetime.datetime.fromisoformat(r["started"]) for r in records]
    ends = [t + datetime.timedelta(seconds=r["seconds"]) for t, r in zip(starts, records)]
    return {"first_start": min(starts).isoformat(timespec="seconds"),
            "last_end": max(ends).isoformat(timespec="seconds"),
            "seconds": round((max(ends) - min(starts)).total_seconds(), 1),
            "cpu_seconds": round(sum(r["result"].get("cpu_seconds", 0.0) for r in records), 1)}


def _scale(out, echo):
    """The scale run, cached in OUT/scale.json (it is the same every time)."""
    path = out / SCALE
    try:
        cached = json.loads(path.read_text(encoding="utf-8"))
        if "error" not in cached:
            return cached
    except (OSError, ValueError):
        pass
    echo("scale run: NGC/RNGC on a synthetic graph of ogbn-products' size (a few minutes)")
    result = run_scale()
    atomic_write_text(path, encode(result).decode("utf-8"))
    return result


__all__ = ["STORE", "reproduce", "select"]
