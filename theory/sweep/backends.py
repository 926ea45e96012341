"""Execution backends: joblib on the local cores, or a Dask cluster (``dask.distributed``).

Both run :func:`execute_cell` on workers and yield its records *as cells finish* (any order);
the driver alone writes the store. Dask is imported only when a scheduler is given.
"""

from __future__ import annotations

import datetime
import os
import platform
import threading
import time
import traceback

from ..kit.claim import format_exception
from ..output.provenance import versions
from .tasks import CellSeeds


def execute_cell(fn, cell):
    """Run one cell; returns its record, or ``{"error": ..., "id": ...}`` if the task raised.

    Exceptions are returned, not raised, so that one bad cell does not stop the others;
    ``KeyboardInterrupt`` and ``SystemExit`` still propagate.
    """
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        result = fn(dict(cell.params), CellSeeds(cell.sweep_seed, cell.seed))
    except Exception as exc:  # noqa: BLE001 - reported per cell, the sweep goes on
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        return {"id": cell.id, "task": cell.task, "params": cell.params,
                "error": format_exception(exc), "traceback": "".join(tb[-3:]).strip()}
    return {"id": cell.id, "task": cell.task, "params": cell.params,
            "sweep_seed": cell.sweep_seed, "seed": cell.seed, "result": result,
            "seconds": round(time.perf_counter() - t0, 6),
            "cpu_seconds": round(time.process_time() - c0, 6), "started": started,
            "host": platform.node(), "pid": os.getpid(), "versions": versions()}


def exit_with_parent(parent_pid, interval=1.0):
    """Worker initializer: a daemon thread that ends this process when ``parent_pid`` is no
    longer its parent (the sweep died, even by SIGKILL, and the worker was re-parented)."""
    def watch():
        while os.getppid() == parent_pid:
            time.sleep(interval)
        os._exit(1)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class LocalBackend:
    """joblib (loky processes); ``n_jobs=1`` runs in this process, in order."""

    def __init__(self, n_jobs=-1):
        self.n_jobs = n_jobs
        self.description = f"joblib n_jobs={n_jobs}"
        self._executor, self._pending = None, {}

    def open(self):
        return self

    def run(self, jobs):
        """``jobs``: list of (fn, cell). Yields records as they finish."""
        if self.n_jobs == 1 or len(jobs) <= 1:
            for fn, cell in jobs:
                yield execute_cell(fn, cell)
            return
        from concurrent.futures import as_completed

        from joblib import effective_n_jobs
        from joblib.externals.loky import get_reusable_executor
        # loky's reusable workers otherwise outlive a killed (kill -9) sweep by their idle
        # timeout (5 min): each worker watches its parent and leaves when it is gone, and idle
        # workers leave after 10 s.
        ex = get_reusable_executor(max_workers=effective_n_jobs(self.n_jobs), timeout=10,
                                   initializer=exit_with_parent, initargs=(os.getpid(),))
        self._executor = ex
        futures = [ex.submit(execute_cell, fn, cell) for fn, cell in jobs]
        self._pending = dict.fromkeys(futures)
        try:
            for f in as_completed(futures):
                self._pending.pop(f, None)
                yield f.result()
        finally:
            for f in futures:
                f.cancel()

    def interrupted(self):
        """After a Ctrl-C: the records of cells that finished but were not yet handed out (to
        be stored), then the workers are stopped at once, so a cell running in a long C call
        (which never sees the signal) does not hold the exit until it ends."""
        done = [f.result() for f in self._pending if f.done() and not f.cancelled()
                and f.exception() is None]
        self._pending = {}
        if self._executor is not None:
            self._executor.shutdown(wait=False, kill_workers=True)
            self._executor = None
        return done

    def close(self):
        pass


class DaskBackend:
    """Submits every cell to a ``dask.distributed`` scheduler (an address or a ``Client``)."""

    def __init__(self, scheduler, timeout=10):
        self.scheduler = scheduler
        self.timeout = timeout
        self.client = None
        self._own = False
        self.description = f"dask {scheduler if isinstance(scheduler, str) else 'client'}"

    def open(self):
        try:
            from dask.distributed import Client
        except ImportError:
            raise ValueError("--scheduler needs dask.distributed: pip install "
                             "'ngc_ref[cluster]' (or 'dask[distributed]')") from None
        if isinstance(self.scheduler, str):
            if not self.scheduler.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
                raise ValueError(f"scheduler must be an address like tcp://HOST:PORT, got "
                                 f"{self.scheduler!r}")
            try:
                self.client = Client(self.scheduler, timeout=self.timeout,
                                     set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise ValueError(f"cannot connect to the Dask scheduler at "
                                 f"{self.scheduler!r}: {exc}") from None
            self._own = True
        else:
            self.client = self.scheduler
        return self

    def run(self, jobs):
        from dask.distributed import as_completed
        futures = {self.client.submit(execute_cell, fn, cell, pure=False,
                                      key=f"ngc-ref-cell-{cell.id}-{os.urandom(4).hex()}"): cell
                   for fn, cell in jobs}
        try:
            with self.client.as_current():
                done = as_completed(list(futures))
            for fut in done:
                try:
                    rec = fut.result()
                except Exception as exc:  # noqa: BLE001 - worker died (KilledWorker), ...
                    cell = futures[fut]
                    rec = {"id": cell.id, "task": cell.task, "params": cell.params,
                           "error": f"{type(exc).__name__}: {exc}"}
                fut.release()
                yield rec
        finally:
            self.client.cancel([f for f in futures if not f.done()])

    def interrupted(self):
        """After a Ctrl-C: nothing to hand out (the futures are cancelled on the cluster)."""
        return []

    def close(self):
        if self._own and self.client is not None:
            self.client.close()
        self.client = None


def make_backend(n_jobs=-1, scheduler=None):
    if scheduler is not None:
        return DaskBackend(scheduler)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (-1: all cores), got {n_jobs!r}")
    return LocalBackend(n_jobs)
