"""Parameter sweeps over the paper's asymptotic claims, on local cores or a Dask cluster.

``run_sweep(config_or_cells, out=None, n_jobs=-1, scheduler=None, progress=False)`` expands a
grid of cells (a registered task and its parameters, :mod:`.tasks`), runs the unfinished ones
with joblib or ``dask.distributed`` (:mod:`.backends`), appends one JSON line per finished cell
to a crash-safe store (:mod:`.store`) and returns the records in cell order. :mod:`.summary`
turns a store into a table and the usual plots; :mod:`.thorough_tasks` holds the τ and Lemma 1
tasks of ``ngc-ref check --thorough`` at large n, :mod:`.theorem1` Theorem 1's graphs and
task, :mod:`.classification` the node-classification task (each task declares its cost model
and its summary where it is registered; every module of the package is imported, so a new
task is one module here), and :func:`run_planned` reads a claim's planned cells
back from a thorough run's store.
Configs, output, seeds and the cluster set-up are documented in docs/sweeps.md.
"""

import importlib
import pkgutil

from .config import Cell, Sweep, as_cells, load_config, make_cell, parse_config
from .driver import SweepError, run_planned, run_sweep
from .store import read_records
from .tasks import CellSeeds, Param, cell_seconds, describe, get_task, register_task, tasks


def load_task_modules():
    """Import every module of this package: a task's module registers it, with its cost model
    and summary, by being here (as a claim's module does in ``claims/``: ``kit.claim.registry``),
    so a new task is one module and nothing lists it."""
    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")


load_task_modules()

__all__ = ["Cell", "CellSeeds", "Param", "Sweep", "SweepError", "as_cells", "cell_seconds",
           "describe", "get_task", "load_config", "load_task_modules", "make_cell",
           "parse_config", "read_records", "register_task", "run_planned", "run_sweep", "tasks"]
