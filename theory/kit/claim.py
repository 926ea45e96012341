"""Claims, statements, results and the run context of the theory checker.

A :class:`Claim` is one numbered item of the paper (a lemma, an equation, a remark). It holds one
or more :class:`Statement` objects, each with its own id and words: the claim's own statement,
its parts (``"theorem-1:a"``), and the corrected statements the checker proposes where the
paper's fails (``"row-sum-corrected"``, which names the statement it corrects). A check is a
function ``check(ctx, norm) -> Result | list[Result]`` registered with :meth:`Claim.checker`;
each result is made by the statement it is about (:meth:`Statement.result`), so its id, words and
the claim it belongs to cannot disagree.

The verdict comes from the check's own measurement, never from the paper: ``holds`` (measured
within a stated tolerance everywhere searched), ``fails`` (a concrete counterexample was found;
it is stored with everything needed to re-run it), ``inconclusive`` (the measurement cannot
decide, e.g. a confidence interval straddles the bound) or ``error`` (the check itself could not
run: missing data, a crash; the message is the evidence).
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import math
import pkgutil
import re
import shlex
import traceback
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from .text import number

VERDICTS = ("holds", "fails", "inconclusive", "error")
#: The verdicts from worst to best: the one order in which verdicts combine (a statement made
#: of parts, a claim judged per family, per comparison, per reading). A counterexample
#: (``fails``) outweighs a part that could not run (``error``), which outweighs one the
#: measurement cannot decide (``inconclusive``); ``holds`` only where every part holds.
WORST_FIRST = ("fails", "error", "inconclusive", "holds")


def severity(verdict):
    """How bad ``verdict`` is in :data:`WORST_FIRST` order: 0 for ``holds`` up to 3 for
    ``fails`` (a sort key: the larger, the worse).

    >>> [severity(v) for v in ("holds", "inconclusive", "error", "fails")]
    [0, 1, 2, 3]
    """
    if verdict not in WORST_FIRST:
        raise ValueError(f"verdict must be one of {WORST_FIRST}, got {verdict!r}")
    return len(WORST_FIRST) - 1 - WORST_FIRST.index(verdict)


def worst_verdict(verdicts):
    """The worst of ``verdicts`` (:data:`WORST_FIRST`): ``fails`` if one part fails, else
    ``error`` if one could not run, else ``inconclusive`` if one is undecided, else ``holds``;
    ``inconclusive`` where there is no part (nothing judged, so nothing holds).

    Parameters
    ----------
    verdicts : iterable of str
        The parts' verdicts, each one of :data:`VERDICTS`.

    Examples
    --------
    >>> worst_verdict(["holds", "inconclusive"]), worst_verdict(["inconclusive", "fails"])
    ('inconclusive', 'fails')
    >>> worst_verdict(["holds", "holds"]), worst_verdict([])
    ('holds', 'inconclusive')
    """
    return max(verdicts, key=severity, default="inconclusive")
#: What a result is about: the paper's statement under its own hypotheses and normalisation
#: (``as-stated``), our generalisation or correction (``extension``: the other normalisation
#: where the paper restricts itself to one, settings beyond its hypotheses, constructed
#: adversarial graphs, corrected statements), or a typo whose intended statement is clear
#: (``erratum``). The headline counts are the ``as-stated`` ones.
SCOPES = ("as-stated", "extension", "erratum")


@dataclass(frozen=True)
class Scope:
    """A result's scope and why, quoting the paper's words that decide it."""

    name: str
    why: str

    def __post_init__(self):
        if self.name not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, got {self.name!r}")
        if not self.why:
            raise ValueError("a scope needs its reason (quote the paper)")


def as_stated(why):
    return Scope("as-stated", why)


def extension(why):
    return Scope("extension", why)


def erratum(why):
    return Scope("erratum", why)


#: Default scope of a claim's own statement and its parts.
PAPER_STATEMENT = as_stated("the paper's statement, checked under its own hypotheses")
#: Default scope of a corrected statement.
CORRECTED_STATEMENT = extension("a corrected statement proposed by the checker, not the paper's")


def figure_name_ok(name, claim, norm):
    """Whether a figure's file name is ``<claim id>[-what]-<norm>.png``: the claim's id, lowercase
    words joined by hyphens, its norm; one pattern, so a reader finds every figure of a claim.

    >>> figure_name_ok("lemma-1-minimal-rw.png", "lemma-1", "rw")
    True
    >>> figure_name_ok("neumann_truncation_rw.png", "neumann-truncation", "rw")
    False
    """
    return re.fullmatch(re.escape(claim) + r"(-[a-z0-9]+)*-" + re.escape(norm) + r"\.png",
                        name) is not None


@dataclass
class Result:
    """The outcome of one statement in one normalisation."""

    id: str
    claim: str
    paper_ref: str
    statement: str
    norm: str
    verdict: str
    evidence: dict
    summary: str = ""
    figures: list = field(default_factory=list)
    counterexample: dict | None = None
    #: Id of the statement this corrected statement replaces (None for the paper's own).
    corrects: str | None = None
    scope: str = "as-stated"
    scope_reason: str = ""
    #: What was enumerated or sampled (e.g. ``{"atlas": ..., "grid": ..., "sampled": ...}``).
    search: dict | None = None
    #: The smallest counterexample found by exhaustive search, with its exact values and
    #: ``certified`` ("exact" or "interval").
    minimal_counterexample: dict | None = None
    #: The proof's displayed steps checked numerically: ``[{"step", "text", "verdict",
    #: "worst_ratio", "where"}, ...]``, in the proof's order.
    steps: list | None = None
    # Wall time of the check call (one claim in one norm) that produced this result.
    seconds: float | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == "fails" and not self.counterexample:
            raise ValueError(f"{self.id}: a 'fails' verdict needs a counterexample")
        if self.scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, got {self.scope!r}")
        for name in self.figures:
            if not figure_name_ok(name, self.claim, self.norm):
                raise ValueError(f"{self.id}: figure {name!r} is not named "
                                 f"'{self.claim}[-what]-{self.norm}.png' (the claim id, "
                                 "lowercase words joined by hyphens, the norm)")

    def to_dict(self):
        return _jsonable(asdict(self))

    @property
    def said(self):
        """The summary without the ``scope: `` prefix :meth:`Statement.result` gives it (for
        a table or record that names the scope itself).

        >>> r = Result("c:a", "c", "Table 9", "w", "sym", "holds", {}, summary="as-stated: ok")
        >>> r.said
        'ok'
        """
        return self.summary.removeprefix(f"{self.scope}: ")


class Tolerance(float):
    """A numerical tolerance of the checker (a float, e.g. ``EXACT_RTOL = Tolerance(1e-10)``):
    how close float64 must come to an exact identity, never a side of the paper's statement.

    :class:`Violation` refuses one as the statement's side: a relative gradient of 0.3 is
    "0.3 where the statement says 0", not "3e9 times the tolerance". Every value declared
    this way is remembered (:data:`TOLERANCES`), so the refusal also catches a copy of it.

    Examples
    --------
    >>> t = Tolerance(1e-10)
    >>> t == 1e-10, 2 * t
    (True, 2e-10)
    """

    def __new__(cls, value):
        self = super().__new__(cls, value)
        if not (math.isfinite(self) and self >= 0):
            raise ValueError(f"a tolerance must be finite and >= 0, got {value!r}")
        TOLERANCES.add(float(self))
        return self


#: The values of every :class:`Tolerance` declared so far (what :class:`Violation` refuses as
#: a bound).
TOLERANCES: set = set()

#: How a statement relates its measured side to its other side (``→``: a limit as n grows).
RELATIONS = ("≤", "<", "≥", ">", "=", "→")


@dataclass(frozen=True)
class Violation:
    """How far a failing statement is from holding, in the statement's own units: the measured
    side against the statement's other side, where it was measured.

    The summary states it as "[τ_RNGC/τ_NGC 1.04 on cora; the statement says < 1]" or
    "[P(exceed) ≥ 0.982 on ring n=1000; the statement says ≤ 1/d = 0.125 (7.85×)]": the
    measured value, and for a non-zero side the ratio of the two sides; for a quantity the
    statement claims to be 0 (a gradient, a limit) the measured value itself. A numerical
    tolerance is never a side (:class:`Tolerance`; ``ValueError``), and a bare number is
    refused by :meth:`Statement.result`, so no violation reads as a ratio to a tolerance.

    Parameters
    ----------
    quantity : str
        What was measured, in the statement's words ("relative gradient", "τ/n").
    measured : float
        Its value where the statement fails (with ``measured_is`` "≥": a lower end, e.g. of
        a confidence interval, or a floor that holds everywhere).
    relation : str
        The statement's relation, measured ``relation`` bound: one of :data:`RELATIONS`.
    bound : float
        The statement's other side (0 for a quantity claimed to vanish).
    bound_name : str, optional
        The other side in the paper's notation ("1/d", "1 − r^(S+1)"); its value follows.
    case : str, optional
        Where it was measured ("star-41, λ=0.5"); required beside a minimal counterexample.
    measured_is : str
        "=" (the value), "≥" or "≤" (a bound on it).

    Examples
    --------
    >>> Violation("relative gradient", 0.3, "=", 0, case="star-41, λ=0.5").text()
    'relative gradient 0.3 on star-41, λ=0.5; the statement says 0'
    >>> Violation("P(exceed)", 0.982, "≤", 0.125, "1/d", measured_is="≥").text()
    'P(exceed) ≥ 0.982; the statement says ≤ 1/d = 0.125 (7.86×)'
    >>> Violation("relative gradient", 0.3, "≤", Tolerance(1e-10))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Violation bound=1e-10 is a numerical tolerance, not a side of the statement...
    """

    quantity: str
    measured: float
    relation: str
    bound: float
    bound_name: str | None = None
    case: str | None = None
    measured_is: str = "="

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise ValueError(f"Violation relation must be one of {RELATIONS}, got "
                             f"{self.relation!r}")
        if self.measured_is not in ("=", "≥", "≤"):
            raise ValueError(f"Violation measured_is must be '=', '≥' or '≤', got "
                             f"{self.measured_is!r}")
        for name in ("measured", "bound"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"Violation {name} must be a real number, got "
                                f"{type(v).__name__}")
            if not math.isfinite(v):
                raise ValueError(f"Violation {name} must be finite, got {float(v)}")
        if isinstance(self.bound, Tolerance) or (self.bound != 0
                                                 and float(self.bound) in TOLERANCES):
            raise ValueError(
                f"Violation bound={float(self.bound):g} is a numerical tolerance, not a side "
                f"of the statement: state the measured {self.quantity} against the statement's "
                "own side (0 for a quantity it claims to vanish)")

    @property
    def ratio(self):
        """measured / bound, the two sides' ratio (None for a side of 0 or 1, where the
        measured value says it all)."""
        return None if self.bound in (0, 1) else float(self.measured) / float(self.bound)

    def text(self):
        """The violation in words (the summary puts it in brackets)."""
        on = f" on {self.case}" if self.case else ""
        value = number(self.measured)
        shown = f"{self.quantity} {value}" if self.measured_is == "=" else (
            f"{self.quantity} {self.measured_is} {value}")
        side = number(self.bound)
        if self.bound_name:
            side = f"{self.bound_name} = {side}"
        says = side if self.relation == "=" else f"{self.relation} {side}"
        ratio = f" ({number(self.ratio)}×)" if self.ratio is not None else ""
        return f"{shown}{on}; the statement says {says}{ratio}"


@dataclass(frozen=True)
class Statement:
    """One checkable statement of a claim: its id, its words, what it corrects, its scope.

    ``scope`` applies in every normalisation except those named in ``norm_scopes`` (a tuple
    of ``(norm, Scope)`` pairs), e.g. the paper states its row sums for ``rw`` only, so their
    ``sym`` results are an ``extension``.
    """

    id: str
    text: str
    claim: str
    paper_ref: str
    corrects: str | None = None
    scope: Scope = PAPER_STATEMENT
    norm_scopes: tuple = ()

    def scope_for(self, norm):
        return dict(self.norm_scopes).get(norm, self.scope)

    def result(self, norm, verdict, evidence, summary, counterexample=None, figures=(), *,
               scope=None, violation=None, search=None, minimal_counterexample=None,
               steps=None):
        """A :class:`Result` of this statement in ``norm``.

        ``scope`` overrides the statement's scope for this result (e.g. one setting of a
        claim lies outside the paper's hypotheses). ``violation`` (a :class:`Violation`, for
        a ``fails``: the measured side against the statement's own side, never a bare ratio)
        is stated at the end of the summary in brackets: "[relative gradient 0.3 on star-41,
        λ=0.5; the statement says 0]". A summary that also names a minimal counterexample
        names two cases, so there the violation's case is required (``ValueError``): the
        number must not read as the minimal case's. The summary starts with the scope.
        """
        sc = scope or self.scope_for(norm)
        if violation is not None:
            if not isinstance(violation, Violation):
                raise TypeError(f"{self.id}: violation must be a Violation naming the "
                                "statement's two sides (quantity, measured, relation, bound), "
                                f"got {type(violation).__name__}")
            if violation.case is None and minimal_counterexample is not None:
                raise ValueError(f"{self.id}: name the case of the violation "
                                 f"({violation.quantity}; case=): the summary also names a "
                                 "minimal counterexample")
            summary = f"{summary} [{violation.text()}]"
        return Result(id=self.id, claim=self.claim, paper_ref=self.paper_ref,
                      statement=self.text, corrects=self.corrects, norm=norm, verdict=verdict,
                      evidence=evidence, summary=f"{sc.name}: {summary}",
                      counterexample=counterexample, figures=list(figures), scope=sc.name,
                      scope_reason=sc.why, search=search,
                      minimal_counterexample=minimal_counterexample, steps=steps)


#: The cost of a check that declares none (``claim(..., seconds=)``): (default, thorough)
#: CPU seconds per norm.
UNMEASURED_SECONDS = (5.0, 30.0)


def _seconds(claim_id, seconds):
    """``seconds`` as a (default, thorough) pair of finite numbers >= 0; ValueError naming the
    claim otherwise."""
    try:
        pair = tuple(float(x) for x in seconds)
    except (TypeError, ValueError):
        pair = ()
    if len(pair) != 2 or not all(math.isfinite(x) and x >= 0 for x in pair):
        raise ValueError(f"claim {claim_id!r}: seconds must be (default, thorough) CPU seconds "
                         f"per norm, two finite numbers >= 0, got {seconds!r}")
    return pair


class Claim:
    """A claim of the paper and the statements checked for it.

    Parameters
    ----------
    id : str
        The claim's id (``--only`` accepts it and every statement id).
    paper_ref : str
        Where the paper makes it (equation, lemma, section).
    statement : str
        The claim as checked, in words.
    norms : tuple of str
        Normalisations the check runs in.
    order : int
        Position in the report (the README's table order).
    data_sets : tuple of str
        The paper's data sets the check reads from ``ctx.data_root`` (``NGC_REF_DATA``), by
        their ``ngc_ref.datasets`` names; it skips them when the folder is not set. A claim
        that declares them gets ``NGC_REF_DATA=...`` in its rerun commands, and the run names
        the ones it will skip when it starts.
    families : bool or tuple of str
        Which statements run on ``ngc-ref check --family``'s graph families instead of the
        claim's own (``ctx.families``): ``True`` all of them, or their ids. ``--family`` is
        refused for a run whose statements take none, and printed only in the reruns of
        those that do (:meth:`uses_families`).
    rule : str
        The claim's kind under the paper's normalisation rule
        (:data:`ngc_ref_theory.paper.words.NORMALISATION_RULE`): ``"generic"``, ``"theory"``,
        ``"experiments"`` or ``"free"`` (:data:`~ngc_ref_theory.paper.words.RULE_SCOPES` gives
        each kind's scopes in sym and rw; ``tests/test_scopes.py`` holds every statement of a
        registered claim to them).
    seconds : (float, float)
        CPU seconds per norm of its check run in one cell, (default grid, thorough grid),
        measured on the README's idle 2-core machine (a cell's ``cpu_seconds``, the first
        cell of a worker including its imports): the cost model of a ``check`` cell
        (``--dry-run``, the order of ``check -j``). A planned claim's thorough work is its
        cells, so its thorough entry is 0. Default :data:`UNMEASURED_SECONDS`.
    doc : str
        What is checked, in one line: the claim's row of the claim table in docs/checker.md
        (written from the declarations: ``python tools/claim_table.py``).
    """

    def __init__(self, id, paper_ref, statement, norms=("sym", "rw"), order=0, *,
                 scope=PAPER_STATEMENT, norm_scopes=None, data_sets=(), families=False,
                 rule=None, seconds=None, doc=""):
        self.id, self.paper_ref, self.norms, self.order = id, paper_ref, tuple(norms), order
        if rule is not None and not isinstance(rule, str):
            raise TypeError(f"claim {id!r}: rule must be a str (a kind of the normalisation "
                            f"rule), got {type(rule).__name__}")
        self.rule = rule
        self.seconds = _seconds(id, UNMEASURED_SECONDS if seconds is None else seconds)
        if not isinstance(doc, str):
            raise TypeError(f"claim {id!r}: doc must be a str, got {type(doc).__name__}")
        self.doc = doc
        self.scope, self.norm_scopes = scope, dict(norm_scopes or {})
        if isinstance(data_sets, str):
            raise TypeError(f"data_sets must be a tuple of data set names, got {data_sets!r}")
        self.data_sets = tuple(data_sets)
        if not isinstance(families, (bool, tuple)):
            raise TypeError(f"families must be True/False or a tuple of statement ids, got "
                            f"{families!r}")
        self.families = families
        self.statements: dict[str, Statement] = {}
        self.own = self._add(id, statement, None, scope, self.norm_scopes)
        self._check: Callable | None = None
        self._plan: Callable | None = None

    def _add(self, sid, text, corrects, scope, norm_scopes):
        if sid in self.statements:
            raise ValueError(f"statement {sid!r} declared twice")
        st = Statement(sid, text, self.id, self.paper_ref, corrects, scope,
                       tuple(sorted(norm_scopes.items())))
        self.statements[sid] = st
        return st

    @property
    def statement(self):
        return self.own.text

    @property
    def needs_data(self):
        """Whether the check reads the paper's data sets (``NGC_REF_DATA``) when it is set."""
        return bool(self.data_sets)

    def uses_families(self, statement_id=None):
        """Whether ``statement_id`` (default: any statement of the claim; the claim's id: any
        of its statements) runs on ``--family``'s families."""
        if self.families is True or self.families is False:
            return self.families
        if statement_id is None or statement_id == self.id:
            return bool(self.families)
        return statement_id in self.families

    def part(self, key, text, *, scope=None, norm_scopes=None):
        """A sub-statement checked separately, id ``"<claim>:<key>"``; its scope defaults to
        the claim's."""
        return self._add(f"{self.id}:{key}", text, None, scope or self.scope,
                         self.norm_scopes if norm_scopes is None else norm_scopes)

    def corrected(self, text, key=None, corrects=None, *, scope=CORRECTED_STATEMENT):
        """The corrected statement of ``corrects`` (default: the claim's own), id
        ``"<claim>-corrected"`` or ``"<claim>-corrected:<key>"``; an ``extension``."""
        sid = f"{self.id}-corrected" + (f":{key}" if key else "")
        return self._add(sid, text, corrects or self.id, scope, {})

    def result(self, norm, verdict, evidence, summary, counterexample=None, figures=(),
               **kwargs):
        """A result of the claim's own statement."""
        return self.own.result(norm, verdict, evidence, summary, counterexample, figures,
                               **kwargs)

    def erratum(self, key, text, why):
        """A part (:meth:`part`) that is a typo whose intended statement is clear: an
        ``erratum`` in every normalisation, ``why`` quoting the paper and saying what is
        meant."""
        return self.part(key, text, scope=Scope("erratum", why), norm_scopes={})

    def _hook(self, attr, fn, what):
        if getattr(self, attr) is not None:
            raise ValueError(f"claim {self.id!r} has two {what}")
        setattr(self, attr, fn)
        return fn

    def checker(self, fn):
        """Decorator: ``fn(ctx, norm)`` is this claim's check."""
        return self._hook("_check", fn, "checks")

    def plan(self, fn):
        """Decorator: ``fn(ctx, norm) -> [(task, params), ...]`` is the claim's ``--thorough``
        work as sweep cells (:mod:`ngc_ref_theory.sweep`).

        The runner collects the cells of every planned claim first and runs them on the sweep
        runner (local cores or a Dask cluster, into the run's crash-safe store, resumable);
        the check then reads the finished records of the same cells
        (``sweep.run_planned(ctx, cells)``) and only judges. A plan is consulted in thorough
        runs only; a claim without one runs its check in one cell per norm.
        """
        return self._hook("_plan", fn, "plans")

    @property
    def planned(self):
        """Whether the claim declares its thorough work as sweep cells (:meth:`plan`)."""
        return self._plan is not None

    def cells(self, ctx, norm):
        """The claim's planned cells in ``norm`` (``[]`` outside a thorough run or without a
        plan), as ``(task, params)`` pairs."""
        if self._plan is None or not ctx.thorough:
            return []
        return list(self._plan(ctx, norm))

    def run(self, ctx, norm):
        """Run the check in ``norm``; always a list of results."""
        if self._check is None:
            raise ValueError(f"claim {self.id!r} has no check (decorate one with .checker)")
        out = self._check(ctx, norm)
        return [out] if isinstance(out, Result) else list(out)


@dataclass
class Context:
    """Settings shared by every check in one run."""

    seed: int = 0
    thorough: bool = False
    out_dir: object = None
    data_root: object = None
    #: What the run did not check and why (see :meth:`skip`), in the order it was noted.
    skipped: list = field(default_factory=list)
    #: (claim id, norm) of the check now running; set by the runner.
    current: tuple = (None, None)
    #: ``--scale`` of a thorough run: multiplies the sizes (and, below 1, the trial counts) of
    #: every planned grid; below 1 a claim without a plan runs its default grid.
    scale: float = 1.0
    #: The sweep store of a thorough run (``OUT/.thorough/store.jsonl``): planned cells are
    #: read from it, and run into it when missing. None: run them without a store.
    store: object = None
    #: Where planned cells run: joblib workers on this machine (-1: all cores) or a Dask
    #: scheduler address (``--scheduler``).
    n_jobs: int = -1
    scheduler: object = None
    #: A default (not thorough) run's checks on ``n_jobs`` local workers, one per claim and
    #: norm (``check -j``); False: one after another in this process.
    parallel: bool = False
    #: ``--family``: the graph families the asymptotic claims run on instead of their own
    #: (registered names or ``package.module:function``); empty: the claims' own families.
    families: tuple = ()

    def rng(self, *key):
        """A Generator seeded from the run seed and a key, independent of execution order."""
        words = [self.seed] + [_stable_int(k) for k in key]
        return np.random.default_rng(words)

    def rerun_words(self, statement_id):
        """The words after ``ngc-ref`` of the command that re-runs ``statement_id`` with this
        run's settings (:func:`rerun_command` adds the rest): ``check --only ID --seed S``, and
        ``--thorough --scale X`` in a thorough run. A run of another command (``ngc-ref
        reproduce``'s context) states its own."""
        words = ["check", "--only", statement_id, "--seed", str(self.seed)]
        if self.thorough:
            words += ["--thorough", "--scale", repr(float(self.scale))]
        return words

    def claim_of(self, statement_id):
        """The claim ``statement_id`` belongs to among this run's claims (None: unknown)."""
        return statement_ids().get(statement_id)

    def figure_path(self, name):
        if self.out_dir is None:
            return None
        return self.out_dir / name

    def skip(self, what, why):
        """Note that ``what`` (e.g. ``"Cora, Citeseer"``) was not checked, and ``why``.

        The report lists every skip under its claim and in the summary; a statement stays
        what it is, so a reader sees which of its settings the verdict rests on.
        """
        entry = {"claim": self.current[0], "norm": self.current[1], "what": what, "why": why}
        if entry not in self.skipped:
            self.skipped.append(entry)
        return entry


_REGISTRY: dict[str, Claim] = {}


def claim(id, paper_ref, statement, norms=("sym", "rw"), order=0, **options):
    """Declare and register a :class:`Claim` (``scope=``, ``norm_scopes=``, ``data_sets=``,
    ``families=``, ``rule=``, ``seconds=``, ``doc=`` as there): everything the checker, the
    cost model and the docs read of a claim is declared here."""
    if id in _REGISTRY:
        raise ValueError(f"claim {id!r} registered twice")
    c = Claim(id, paper_ref, statement, norms, order, **options)
    _REGISTRY[id] = c
    return c


def registry():
    """All claims in report order, importing every module of :mod:`ngc_ref_theory.claims`."""
    from .. import claims
    for mod in pkgutil.iter_modules(claims.__path__):
        if not mod.name.startswith("_"):
            importlib.import_module(f"{claims.__name__}.{mod.name}")
    return dict(sorted(_REGISTRY.items(), key=lambda kv: (kv[1].order, kv[0])))


def statement_ids():
    """Every id ``--only`` accepts, in report order, mapped to its claim."""
    out = {}
    for c in registry().values():
        for sid in c.statements:
            out[sid] = c
    return out


def match_id(name, choices, what="id"):
    """The entry of ``choices`` that ``name`` is up to letter case; otherwise ``ValueError``
    ``unknown <what> '<name>'`` with the closest entries (``difflib``) as a suggestion.

    Examples
    --------
    >>> match_id("Lemma-1", ["lemma-1", "theorem-1"])
    'lemma-1'
    >>> match_id("lemma1", ["lemma-1", "theorem-1"], "claim id")
    Traceback (most recent call last):
    ...
    ValueError: unknown claim id 'lemma1'; did you mean 'lemma-1'?
    """
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str, got {type(name).__name__}")
    folded = {}
    for c in choices:
        folded.setdefault(c.lower(), c)
    if name.lower() in folded:
        return folded[name.lower()]
    close = difflib.get_close_matches(name.lower(), list(folded), n=3, cutoff=0.6)
    hint = "; did you mean " + " or ".join(repr(folded[c]) for c in close) + "?" if close else ""
    raise ValueError(f"unknown {what} {name!r}{hint}")


#: Where a printed rerun command writes: a folder of its own per statement, never the report
#: it came from (``--out ngc_ref_rerun/<statement id>``).
RERUN_DIR = "ngc_ref_rerun"


def rerun_command(statement_id, ctx, needs_data=None, families=None):
    """The shell command that re-runs ``statement_id`` as the run of ``ctx`` ran it.

    The command and its settings are the run's (:meth:`Context.rerun_words`: ``ngc-ref
    check``, its seed, ``--thorough --scale`` of a thorough run); it adds the run's ``--family``
    values where the statement runs on them (:meth:`Claim.uses_families`; ``families``
    overrides), an output folder of its
    own (``ngc_ref_rerun/<id>``: a rerun never replaces the report it is printed in), and, for
    a claim that reads the paper's data sets (:attr:`Claim.needs_data`; ``needs_data``
    overrides) in a run that had them, ``NGC_REF_DATA=<the absolute folder the run used>``.
    Every word is shell-quoted, so the line runs as printed.

    Examples
    --------
    >>> rerun_command("theorem-1:a", Context(seed=3))
    'ngc-ref check --only theorem-1:a --seed 3 --out ngc_ref_rerun/theorem-1_a'
    """
    words = ["ngc-ref", *ctx.rerun_words(statement_id)]
    c = ctx.claim_of(statement_id)
    if families is None:
        families = c is not None and c.uses_families(statement_id)
    for family in ctx.families if families else ():   # rerun on the same families
        words += ["--family", family]
    words += ["--out", f"{RERUN_DIR}/{re.sub(r'[^A-Za-z0-9._-]+', '_', statement_id)}"]
    line = " ".join(shlex.quote(w) for w in words)
    if needs_data is None:
        needs_data = c is not None and c.needs_data
    if needs_data and ctx.data_root is not None:
        line = f"NGC_REF_DATA={shlex.quote(str(ctx.data_root))} {line}"
    return line


def format_exception(exc):
    """``Type: message`` of an exception, on one line (a check's or a cell's error record)."""
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


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
        return _jsonable(float(x))
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x
