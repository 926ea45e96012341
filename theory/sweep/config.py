"""Sweep configurations: a TOML or JSON file (or a dict) expanded into a list of cells.

A configuration names one task, a sweep seed, fixed parameters and a grid::

    task = "tau"          # a name from theory.sweep.tasks
    seed = 0              # the sweep seed (default 0)
    reps = 1              # replicates per grid point: adds rep = 0 .. reps-1 (default 1)
    out = "tau.jsonl"     # optional default output, relative to the config file

    [params]              # the same for every cell
    lam = 32.0

    [grid]                # Cartesian product of these lists
    family = ["ring", "er_avgdeg_2logn"]
    n = [100, 200, 400]

``grid`` may also be a list of tables (``[[grid]]`` in TOML): the cells are then the union of
the products, in order. Cells keep the order of the expansion (last grid key varies fastest).

A numeric parameter (and a ``graph_params`` entry) may be an expression of n, evaluated per
cell with a whitelist of arithmetic and ``log, sqrt, ceil, floor, min, max, ...``
(:mod:`.expressions`); the record keeps it in ``exprs``, and the summary draws one line per
expression::

    family = "erdos_renyi"
    graph_params = {p = "3*log(n)/n"}
    lam = "sqrt(n)"

``family`` may be your own ``"package.module:function"`` (a function ``(n, seed) -> graph``).
"""

from __future__ import annotations

import itertools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .tasks import canonical, get_task, stable_hash

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10: the same parser, published as tomli
    import tomli as tomllib

TOP_KEYS = ("task", "seed", "reps", "out", "params", "grid", "description")


@dataclass(frozen=True)
class Cell:
    """One unit of work: a task, its coerced parameters and the sweep seed.

    ``id`` (16 hex digits) and ``seed`` are hashes of (task, params, sweep seed) only.
    """

    task: str
    params: dict
    sweep_seed: int = 0
    id: str = field(init=False)
    seed: int = field(init=False)

    def __post_init__(self):
        key = {"task": self.task, "params": self.params, "sweep_seed": self.sweep_seed}
        object.__setattr__(self, "id", f"{stable_hash(['id', key], bits=64):016x}")
        object.__setattr__(self, "seed", stable_hash(["seed", key], bits=63))


def make_cell(task, params, sweep_seed=0, where=""):
    """A :class:`Cell` with parameters checked and completed by the task's declaration."""
    t = get_task(task)
    return Cell(t.name, t.coerce(dict(params), where), int(sweep_seed))


@dataclass
class Sweep:
    task: str
    seed: int
    cells: list
    out: Path | None = None
    source: str = ""


def read_config(path):
    """The raw mapping of a ``.toml`` or ``.json`` config file."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise ValueError(f"config {str(path)!r}: expected a .toml or .json file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read config {str(path)!r}: {exc.strerror}") from None
    try:
        if suffix == ".toml":
            return tomllib.loads(raw.decode("utf-8"))
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"config {str(path)!r} is not valid {suffix[1:].upper()}: {msg}") from None


def _int(value, name, where, min_val=0):
    if isinstance(value, bool) or not isinstance(value, int) or value < min_val:
        raise ValueError(f"{where}: {name} must be an integer >= {min_val}, got {value!r}")
    return value


def expand(grid, where):
    """Dicts of the Cartesian product of a grid table (values: lists, or one scalar)."""
    if not isinstance(grid, dict):
        raise TypeError(f"{where}: grid must be a table of lists, got {type(grid).__name__}")
    keys = list(grid)
    values = []
    for k in keys:
        v = grid[k]
        v = v if isinstance(v, list) else [v]
        if not v:
            raise ValueError(f"{where}: grid.{k} is an empty list")
        values.append(v)
    return [dict(zip(keys, combo)) for combo in itertools.product(*values)]


def parse_config(cfg, *, source="<config>", base_dir=None):
    """Expand a config mapping into a :class:`Sweep`; every cell's parameters are checked.

    Raises ``ValueError``/``TypeError`` naming the config, the cell and the problem.
    """
    if not isinstance(cfg, dict):
        raise TypeError(f"{source}: the config must be a table/object, got {type(cfg).__name__}")
    unknown = sorted(set(cfg) - set(TOP_KEYS))
    if unknown:
        raise ValueError(f"{source}: unknown key(s) {unknown}; valid: {list(TOP_KEYS)}")
    if "task" not in cfg:
        raise ValueError(f"{source}: missing 'task'")
    # The cells are made under the name given, so that an alias's defaults and renamed
    # parameters apply; the sweep is named after the task it stands for.
    task = get_task(cfg["task"]).name
    seed = _int(cfg.get("seed", 0), "seed", source)
    reps = _int(cfg.get("reps", 1), "reps", source, min_val=1)
    fixed = cfg.get("params", {})
    if not isinstance(fixed, dict):
        raise TypeError(f"{source}: params must be a table, got {type(fixed).__name__}")
    grids = cfg.get("grid", {})
    grids = grids if isinstance(grids, list) else [grids]
    points = []
    for g, grid in enumerate(grids):
        where = f"{source}: grid" + (f" #{g + 1}" if len(grids) > 1 else "")
        clash = sorted(set(grid) & set(fixed)) if isinstance(grid, dict) else []
        if clash:
            raise ValueError(f"{where}: {clash} given both in params and in grid")
        points.extend(expand(grid, where))
    cells, seen = [], set()
    for k, point in enumerate(points):
        for rep in range(reps):
            params = {**fixed, **point}
            if reps > 1:
                if "rep" in params:
                    raise ValueError(f"{source}: give either reps or a 'rep' parameter, not both")
                params["rep"] = rep
            where = f"{source}: cell {k + 1} ({canonical(point)})"
            cell = make_cell(cfg["task"], params, seed, where)
            if cell.id not in seen:  # overlapping [[grid]] tables: one cell, run once
                seen.add(cell.id)
                cells.append(cell)
    if not cells:
        raise ValueError(f"{source}: the grid has no cells")
    out = cfg.get("out")
    if out is not None:
        if not isinstance(out, str) or not out:
            raise TypeError(f"{source}: out must be a file name, got {out!r}")
        out = Path(base_dir or ".") / out
    return Sweep(task, seed, cells, out, source)


def load_config(path):
    """Read and expand a config file (see the module docstring)."""
    path = Path(path)
    return parse_config(read_config(path), source=str(path), base_dir=path.parent)


def as_cells(spec, seed=0):
    """Cells from a :class:`Sweep`, a config mapping, a path, or a list of cells/mappings.

    List items may be :class:`Cell` objects, ``{"task": ..., "params": {...}}`` mappings or
    ``(task, params)`` pairs; ``seed`` is the sweep seed for the latter two.
    """
    if isinstance(spec, Sweep):
        return list(spec.cells)
    if isinstance(spec, (str, Path)):
        return load_config(spec).cells
    if isinstance(spec, dict):
        return parse_config(spec).cells
    cells = []
    for k, item in enumerate(spec):
        if isinstance(item, Cell):
            cells.append(item)
        elif isinstance(item, dict):
            cells.append(make_cell(item["task"], item.get("params", {}), seed, f"cell {k}"))
        else:
            task, params = item
            cells.append(make_cell(task, params, seed, f"cell {k}"))
    return cells
