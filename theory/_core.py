"""Claims, results and the run context of the theory checker.

A claim is a function ``check(ctx, norm) -> Result | list[Result]`` registered with
:func:`claim`. The verdict comes from the check's own measurement, never from the paper:
``holds`` (measured within a stated tolerance everywhere searched), ``fails`` (a concrete
counterexample was found; it is stored with everything needed to re-run it) or ``inconclusive``
(the measurement cannot decide, e.g. a confidence interval straddles the bound).
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

VERDICTS = ("holds", "fails", "inconclusive")


@dataclass
class Result:
    """The outcome of one claim in one normalisation (or one sub-case)."""

    id: str
    paper_ref: str
    statement: str
    norm: str
    verdict: str
    evidence: dict
    summary: str = ""
    figures: list = field(default_factory=list)
    counterexample: dict | None = None
    # Wall time of the check call (one claim in one norm) that produced this result.
    seconds: float | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == "fails" and not self.counterexample:
            raise ValueError(f"{self.id}: a 'fails' verdict needs a counterexample")

    def to_dict(self):
        return _jsonable(asdict(self))


@dataclass
class Claim:
    id: str
    paper_ref: str
    statement: str
    check: Callable
    norms: tuple = ("sym", "rw")
    order: int = 0


@dataclass
class Context:
    """Settings shared by every check in one run."""

    seed: int = 0
    thorough: bool = False
    out_dir: object = None
    data_root: object = None

    def rng(self, *key):
        """A Generator seeded from the run seed and a key, independent of execution order."""
        words = [self.seed] + [_stable_int(k) for k in key]
        return np.random.default_rng(words)

    def figure_path(self, name):
        if self.out_dir is None:
            return None
        return self.out_dir / name


_REGISTRY: dict[str, Claim] = {}


def claim(id, paper_ref, statement, norms=("sym", "rw"), order=0):
    """Register ``check(ctx, norm)`` as the check of claim ``id``."""
    def deco(fn):
        if id in _REGISTRY:
            raise ValueError(f"claim {id!r} registered twice")
        _REGISTRY[id] = Claim(id, paper_ref, statement, fn, tuple(norms), order)
        return fn
    return deco


def registry():
    """All claims, importing every module of :mod:`theory.claims` once."""
    from . import claims
    for mod in pkgutil.iter_modules(claims.__path__):
        importlib.import_module(f"{claims.__name__}.{mod.name}")
    return dict(sorted(_REGISTRY.items(), key=lambda kv: (kv[1].order, kv[0])))


def make_result(c: Claim, norm, verdict, evidence, summary, counterexample=None, figures=(),
                id=None):
    return Result(id=id or c.id, paper_ref=c.paper_ref, statement=c.statement, norm=norm,
                  verdict=verdict, evidence=evidence, summary=summary,
                  counterexample=counterexample, figures=list(figures))


def _stable_int(k):
    if isinstance(k, (int, np.integer)):
        return int(k) & 0xFFFFFFFF
    return int(hashlib.sha256(str(k).encode()).hexdigest()[:8], 16)


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if isinstance(x, float) and not np.isfinite(x):
        return str(x)
    return x
