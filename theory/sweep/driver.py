"""The driver: skip finished cells, run the rest on a backend, append each record as it lands."""

from __future__ import annotations

from pathlib import Path

from ..output.provenance import source
from .cost import plural
from .backends import make_backend
from .config import as_cells
from .store import SCHEMA_VERSION, Store, check_writable, encode, finished, read_records
from .tasks import get_task


class SweepError(RuntimeError):
    """Some cells raised; every other cell finished (and is in the store, if any)."""

    def __init__(self, failures, total):
        self.failures = failures
        first = failures[0]
        super().__init__(f"{len(failures)} of {plural(total, 'cell')} failed (first: task "
                         f"{first['task']!r} {first['params']}: {first['error']})")


def run_sweep(spec, out=None, *, n_jobs=-1, scheduler=None, progress=False, seed=0,
              raise_errors=True, desc=None, on_record=None):
    """Run a sweep; returns one record per cell, **in cell order**.

    Parameters
    ----------
    spec : Sweep, config mapping, path of a .toml/.json config, or list of cells
        See :func:`theory.sweep.config.as_cells`.
    out : path, optional
        JSON-lines store. Cells already in it are not run again (resume); each cell that
        finishes is appended at once. ``None``: nothing is written.
    n_jobs : int
        joblib workers on this machine (-1: all cores; 1: in this process).
    scheduler : str or dask.distributed.Client, optional
        Run on this Dask cluster (``"tcp://HOST:PORT"``) instead of joblib.
    progress : bool
        A tqdm bar with the ETA.
    seed : int
        Sweep seed for cells given as ``(task, params)``; a config carries its own.
    raise_errors : bool
        After all other cells finished, raise :class:`SweepError` if any cell raised; if
        False, their entries in the returned list are the error records (key ``"error"``).
    desc : str, optional
        The progress bar's label (default: ``sweep TASK``).
    on_record : callable, optional
        Called with each record (or error record) as it lands, after it is stored.

    Returns
    -------
    list of dict
        Records: ``id, task, params, sweep_seed, seed, result, seconds, started, host, pid,
        versions, commit, schema``. ``[r["result"] for r in records]`` gives the numbers.

    Notes
    -----
    A cell's seed is a hash of (sweep seed, task, parameters), so the results do not depend
    on the backend, the number of workers or the order of completion.
    """
    cells = as_cells(spec, seed)
    jobs_fn = {c.task: get_task(c.task).fn for c in cells}
    if out is not None:
        out = Path(out)
        check_writable(out)
        # An unreadable store fails here, before anything is started; a store that holds every
        # cell already needs no backend, no lock and no cluster connection.
        stored = finished(read_records(out))
        # (a store whose last record lacks its newline goes through Store, which repairs it)
        if all(c.id in stored for c in cells) and _ends_with_newline(out):
            return [stored[c.id] for c in cells]
    backend = make_backend(n_jobs, scheduler)
    backend.open()   # a bad scheduler address fails here, before the store is created
    store = None
    bar = None
    try:
        done = {}
        if out is not None:
            store = Store(out)   # locks, and drops a partial last line left by a crash
            done = finished(read_records(out))
        wanted = {c.id for c in cells}
        done = {k: v for k, v in done.items() if k in wanted}
        todo, queued = [], set()
        for c in cells:
            if c.id not in done and c.id not in queued:
                queued.add(c.id)
                todo.append((jobs_fn[c.task], c))
        if progress:
            from tqdm.auto import tqdm
            bar = tqdm(total=len(wanted), initial=len(done), unit="cell", dynamic_ncols=True,
                       desc=desc or f"sweep {'/'.join(sorted(jobs_fn))}", smoothing=0.1)
        failures = {}
        commit = source()["commit"]

        def land(rec):
            """Store one finished cell (or note its failure), advance the bar, report it."""
            if "error" in rec:
                failures[rec["id"]] = rec
            else:
                rec["commit"] = commit
                rec["schema"] = SCHEMA_VERSION
                try:
                    encode(rec)
                except (TypeError, ValueError) as exc:
                    rec = dict(rec, error=f"result is not JSON: {exc}")
                    failures[rec["id"]] = rec
                else:
                    if store is not None:
                        store.append(rec)
                    done[rec["id"]] = rec
            if bar is not None:
                bar.update(1)
                if failures:
                    bar.set_postfix(failed=len(failures))
            if on_record is not None:
                on_record(rec)

        try:
            for rec in backend.run(todo):
                land(rec)
        except KeyboardInterrupt:
            # Keep what finished meanwhile, then stop the workers and go (exit in seconds).
            for rec in backend.interrupted():
                land(rec)
            raise
    finally:
        if bar is not None:
            bar.close()
        if store is not None:
            store.close()
        backend.close()
    if failures and raise_errors:
        raise SweepError(list(failures.values()), len(wanted))
    return [done.get(c.id) or failures[c.id] for c in cells]


def run_planned(ctx, cells, **options):
    """The records of a claim's planned cells (:meth:`ngc_ref_theory.Claim.plan`), in order.

    In a thorough run the runner has already run them into ``ctx.store``, so they are read
    back; cells not there (a check run on its own, a cell that failed earlier) run now, on
    the run's workers or cluster (``ctx.n_jobs``, ``ctx.scheduler``), into the same store, in
    the order given. ``options`` are :func:`run_sweep`'s (``progress``, ``desc``,
    ``raise_errors``, ``on_record``): ``ngc-ref reproduce`` runs its targets' cells this way,
    with a bar and its failed cells returned as error records.
    """
    return run_sweep(cells, ctx.store, n_jobs=ctx.n_jobs, scheduler=ctx.scheduler,
                     seed=ctx.seed, **options)


def _ends_with_newline(path):
    """Whether the store at ``path`` is absent, empty or ends with a newline."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            if f.tell() == 0:
                return True
            f.seek(-1, 2)
            return f.read(1) == b"\n"
    except FileNotFoundError:
        return True
