"""The task registry: what one cell of a sweep computes, and which parameters it takes.

A task is a function ``fn(params, seeds) -> dict`` registered with :func:`register_task` together
with a declaration of its parameters (:class:`Param`), its cost model (``cost(params) ->
seconds`` on one idle core, what ``--dry-run`` prints: :func:`cell_seconds`) and its summary
(``summary(records, plot_path) -> (table, figure paths)``, what ``ngc-ref sweep --summary``
prints). The declaration is the single point where config values are checked and coerced
(``lam = 32`` becomes ``32.0``), so that two configs that mean the same cell hash to the same
cell id. ``seeds`` (:class:`CellSeeds`) hands out the cell's random streams; a task never uses
global randomness. A new task is one module that registers it (imported by the sweep package,
or named to a worker as ``package.module``).

Built-in tasks (see :func:`describe` for their parameters):

``tau``                 τ and τ/n of Ã_S for a graph family at n (Assumption 2, Eq. 5): exact
                        or the estimator's bracket by the cost model (:mod:`.thorough_tasks`).
``lemma1``              one Monte-Carlo exceedance trial batch of Lemma 1 (Eq. 11)
                        (:mod:`.thorough_tasks`; ``lemma1_trials`` is its draws-only alias).
``theorem1``            Theorem 1's gradient descent on one graph: a contextual SBM at fixed λ,
                        or a λ = √n family with its τ and a batch of noise draws
                        (:mod:`.theorem1`; ``theorem1_hyp`` is its λ = √n alias).
``node_classification`` one noisy-feature node-classification run (Sec. 5)
                        (:mod:`.classification`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ngc_ref.validation import check_scalar

from ..paper.bounds import grown_lam_S
from ..kit.graphs import graph_family
from .cost import DEFAULT_CELL_SECONDS
from .expressions import substitute

_REQUIRED = object()
#: The record's parameter that keeps the expressions of n a config gave (name -> text).
EXPRS = "exprs"


#: What a config gives for a parameter of each non-numeric kind (the error's words).
_EXPECTED = {bool: "true or false", str: "a string", dict: "a table/object"}


@dataclass(frozen=True)
class Param:
    """One parameter of a task: its type (int, float, str, bool or dict), default, choices.

    ``default=None`` makes the parameter optional with "not given" meaning a derived value
    (e.g. a graph seed derived from the sweep seed).
    """

    kind: type
    default: object = _REQUIRED
    choices: tuple = ()
    min: float | None = None
    doc: str = ""
    #: ``min`` itself is excluded (e.g. λ > 0).
    exclusive_min: bool = False

    @property
    def required(self):
        return self.default is _REQUIRED

    def coerce(self, value, name):
        if value is None and self.default is None:
            return None
        if self.kind in (int, float):
            return check_scalar(value, name, min_val=self.min, integer=self.kind is int,
                                include_min=not self.exclusive_min)
        if self.kind not in _EXPECTED:
            raise TypeError(f"unsupported parameter kind {self.kind}")  # pragma: no cover
        if not isinstance(value, self.kind):
            raise TypeError(f"{name} must be {_EXPECTED[self.kind]}, got "
                            f"{type(value).__name__} {value!r}")
        if self.choices and value not in self.choices:
            raise ValueError(f"{name} must be one of {list(self.choices)}, got {value!r}")
        return {str(k): v for k, v in sorted(value.items())} if self.kind is dict else value


@dataclass(frozen=True)
class CellSeeds:
    """The random streams of one cell.

    ``cell_seed`` is derived from the sweep seed, the task and *all* its parameters;
    :meth:`derived` gives a seed from the sweep seed and a chosen subset of them (e.g. the graph
    of (family, n, rep), shared by every cell that varies only the noise). Neither depends on
    the order in which cells run or on the number of workers.
    """

    sweep_seed: int
    cell_seed: int

    def rng(self):
        return np.random.default_rng(self.cell_seed)

    def derived(self, *key):
        """A 31-bit seed (valid for networkx too) from the sweep seed and ``key``."""
        return stable_hash([self.sweep_seed, "derived", *key], bits=31)


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


def stable_hash(obj, bits=63):
    """An integer from the sha256 of the canonical JSON of ``obj`` (same on every machine)."""
    digest = hashlib.sha256(canonical(obj).encode("utf-8")).hexdigest()
    return int(digest[:16], 16) >> (64 - bits)


@dataclass
class Task:
    name: str
    fn: Callable
    params: dict
    doc: str = ""
    validate: Callable | None = None
    resolve: Callable | None = None
    #: A former parameter name -> the name it now has (an alias's, :func:`register_alias`).
    renamed: dict = dataclasses.field(default_factory=dict)
    #: ``cost(params) -> seconds`` of one cell on one idle core (None: DEFAULT_CELL_SECONDS).
    cost: Callable | None = None
    #: ``summary(records, plot_path) -> (table text, [figure paths])`` (None: no summary).
    summary: Callable | None = None

    def coerce(self, params, where=""):
        """Checked, coerced and completed parameters, sorted by name: what the cell will run.

        Defaults are filled in, then the task's ``resolve`` replaces derived values (e.g. λ and
        S of a ``sqrt_n`` schedule) and drops parameters that do not apply to the cell (e.g.
        the contextual-SBM sizes of a real-data cell), so a record's ``params`` say exactly
        what ran and two configs meaning the same cell hash to the same id."""
        where = where or f"task {self.name!r}"
        if not isinstance(params, dict):
            raise TypeError(f"{where}: parameters must be a table, got {type(params).__name__}")
        params = {self.renamed.get(k, k): v for k, v in params.items()}
        # Expressions of n (a config's p = "3*log(n)/n") become their values here; the record
        # keeps them in ``exprs`` (absent when there are none, so other cells' ids stay put).
        exprs = params.get(EXPRS) or {}
        params, more = substitute({k: v for k, v in params.items() if k != EXPRS},
                                  {k: p.kind for k, p in self.params.items()}, where)
        exprs = {**exprs, **more}
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(f"{where}: unknown parameter(s) {unknown}; valid: "
                             f"{sorted(self.params)}")
        missing = sorted(k for k, p in self.params.items() if p.required and k not in params)
        if missing:
            raise ValueError(f"{where}: missing required parameter(s) {missing}")
        out = {}
        for k, p in sorted(self.params.items()):
            v = params.get(k, p.default)
            try:
                out[k] = p.coerce(v, k)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{where}: {exc}") from None
        try:
            if self.validate is not None:
                self.validate(out)
            if self.resolve is not None:
                out = dict(sorted(self.resolve(out).items()))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{where}: {exc}") from None
        if exprs:
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in exprs.items()):
                raise TypeError(f"{where}: {EXPRS} must map parameter names to expressions")
            out = dict(sorted({**out, EXPRS: dict(sorted(exprs.items()))}.items()))
        return out


_TASKS: dict[str, Task] = {}
#: Former task names -> (the task they stand for, its other defaults) (:func:`register_alias`).
_ALIASES: dict[str, tuple] = {}

#: Parameters every task accepts: ``rep`` numbers independent replicates of a cell.
COMMON = {"rep": Param(int, 0, min=0, doc="replicate number (only changes the seeds)")}


def register_task(name, params, *, doc="", validate=None, resolve=None, cost=None,
                  summary=None, replace=False):
    """Register ``fn(params, seeds) -> dict`` as task ``name`` (a decorator).

    ``params`` maps names to :class:`Param`; ``rep`` is added to every task. ``validate(params)``
    raises on a bad combination; ``resolve(params) -> params`` makes the parameters say what
    the cell runs (see :meth:`Task.coerce`). ``cost(params) -> seconds`` is the cell's
    estimated CPU seconds on one idle core from its coerced parameters (``--dry-run``, the
    longest-first order; built from :mod:`ngc_ref_theory.sweep.cost`'s pieces; without one a
    cell counts :data:`~ngc_ref_theory.sweep.cost.DEFAULT_CELL_SECONDS`).
    ``summary(records, plot_path) -> (table, [figure paths])`` is what ``ngc-ref sweep
    --summary`` prints for the task's records (``plot_path`` None: no figure). The function
    must be importable by name (module level) so that process and cluster workers can run it.
    """
    for what, value in (("cost", cost), ("summary", summary)):
        if value is not None and not callable(value):
            raise TypeError(f"task {name!r}: {what} must be callable, got "
                            f"{type(value).__name__}")

    def deco(fn):
        if name in _TASKS and not replace:
            raise ValueError(f"task {name!r} registered twice")
        _TASKS[name] = Task(name, fn, {**params, **COMMON}, doc or (fn.__doc__ or "").strip(),
                            validate=validate, resolve=resolve, cost=cost, summary=summary)
        return fn
    return deco


def register_alias(old, name, renamed=None, **defaults):
    """Let ``old`` (a task's former name, e.g. in a config) stand for task ``name``, with
    other ``defaults`` for some of its parameters (what the former task did) and ``renamed``
    ({former parameter name: its name now}) for parameters the former task called otherwise."""
    task = get_task(name)
    renamed = dict(renamed or {})
    unknown = sorted((set(defaults) | set(renamed.values())) - set(task.params))
    if unknown:
        raise ValueError(f"alias {old!r}: {name!r} has no parameter(s) {unknown}")
    _ALIASES[old] = (name, defaults, renamed)


def get_task(name):
    """The task registered as ``name`` (or as the task an alias stands for)."""
    if not isinstance(name, str):
        raise TypeError(f"task must be a string, got {type(name).__name__}")
    if name in _ALIASES:
        target, defaults, renamed = _ALIASES[name]
        task = _TASKS[target]
        return dataclasses.replace(task, renamed=renamed, params={
            **task.params, **{k: dataclasses.replace(task.params[k], default=v)
                              for k, v in defaults.items()}})
    if name not in _TASKS:
        raise ValueError(f"unknown task {name!r}; valid tasks: {sorted(_TASKS)}")
    return _TASKS[name]


def tasks():
    return dict(_TASKS)


def cell_seconds(task, params):
    """Estimated seconds of one cell of ``task`` with (coerced) ``params`` on one idle core:
    the task's declared cost model (:func:`register_task`'s ``cost``).

    Examples
    --------
    >>> cell_seconds("tau", get_task("tau").coerce({"family": "complete", "n": 100}))
    0.05
    """
    cost = get_task(task).cost
    return DEFAULT_CELL_SECONDS if cost is None else cost(params)


def describe(name):
    """A short text listing the parameters of a task."""
    t = get_task(name)
    lines = [f"{t.name}: {t.doc.splitlines()[0] if t.doc else ''}"]
    for k, p in sorted(t.params.items()):
        default = "required" if p.required else f"default {p.default!r}"
        choices = f", one of {list(p.choices)}" if p.choices else ""
        lines.append(f"  {k} ({p.kind.__name__}, {default}{choices}) {p.doc}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ graphs

def _check_family(params):
    """A task's ``validate``: the family exists and takes the given ``graph_params``."""
    graph_family(params["family"], params.get("graph_params"))


def _graph_seed(params, seeds):
    if params.get("graph_seed") is not None:
        return params["graph_seed"]
    return seeds.derived("graph", params["family"], params["n"], params.get("graph_params", {}),
                         params["rep"])


GRAPH_PARAMS = {
    "family": Param(str, doc="a registered family (ngc_ref.graphs.graph_families(), e.g. "
                             "'er_avgdeg_2logn') or your own as 'package.module:function'"),
    "n": Param(int, min=2, doc="number of nodes (some families round it)"),
    "graph_params": Param(dict, {}, doc="make_graph parameters, e.g. {d = 4}"),
    "graph_seed": Param(int, None, min=0, doc="default: derived from (seed, family, n, rep)"),
}
def _sbm_params(n, k, deg_in, deg_out, *, n_min, what):
    """Defaults of the size parameters of an SBM with equal classes (``what`` opens each doc)."""
    return {"n": Param(int, n, min=n_min, doc=f"{what}nodes"),
            "k": Param(int, k, min=2, doc=f"{what}classes"),
            "deg_in": Param(float, deg_in, min=0.0, doc=f"{what}expected degree inside the class"),
            "deg_out": Param(float, deg_out, min=0.0,
                             doc=f"{what}expected degree to other classes")}


FILTER_PARAMS = {
    "lam": Param(float, 32.0, min=0.0, exclusive_min=True, doc="λ"),
    "S": Param(int, 16, min=0, doc="expansion order"),
    "norm": Param(str, "rw", choices=("rw", "sym"), doc="normalisation of Ã"),
}


# ------------------------------------------------------------------------------ tau
# The tau task itself is in .thorough_tasks (one implementation with tau_large).

def _schedule(params):
    """A ``sqrt_n`` cell runs at λ = √n (the requested n), S = ⌈2λ⌉: record those."""
    if params["schedule"] == "sqrt_n":
        params["lam"], params["S"] = grown_lam_S(params["n"])
    return params


# ------------------------------------------------------------------------------ lemma 1
# The lemma1 task is in .thorough_tasks (one implementation with lemma1_trials).

# ------------------------------------------------------------------------------ theorem 1
# The theorem1 task is in .theorem1 (with Theorem 1's graphs; theorem1_hyp is its alias).
