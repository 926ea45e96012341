"""Exhaustive search over every graph with at most 7 nodes (the networkx graph atlas).

The atlas (:func:`networkx.graph_atlas_g`) lists all 1,253 graphs with 0 to 7 nodes up to
isomorphism, ordered by node count, then edge count, then degree sequence. The graphs of one
size are stacked into dense ``(G, n, n)`` arrays, once per process, and every quantity of the
paper — Ã, its powers, Ã_S for S = 0..S_MAX, row sums, row square sums ρ_i, τ_i, ‖Ã_S‖_F² — is
computed for a whole stack at once (batched matmul, cumulative sums over S, batched inverses).

A check hands :func:`scan` a vectorised test ``test(cells) -> (bad, ratio)`` over the cells of
one stack and one λ (arrays of shape ``(S_MAX + 1, G)``, or ``(G,)`` for a statement without S);
the scan visits every stack and every λ of the grid and returns a :class:`Scan`: what was
searched, how many cells failed, the worst ratio and the **minimal** failing case — fewest
nodes, then fewest edges, then smallest S, then the simplest λ (smallest height max(|p|, q) of
λ = p/q, integers before fractions of the same height), then the extra parameter (e.g. d) in
its grid order, then the atlas order.

A statement declares its **non-degenerate range** (:class:`Range`, e.g. :data:`NON_DEGENERATE`:
S ≥ 1, n ≥ 2, no isolated node, d ≥ 2): the scan then counts cases and failures inside the
range, takes the minimal failing case there, and reports the degenerate cases (S = 0, where
Ã_0 = I/(λ+1) on every graph; a single node; an isolated node; d = 1, where "1 − 1/d" = 0)
beside them, with their own minimum labelled as such. Without a range every case is in range.

The null graph (G0, no nodes) is visited vacuously: every statement about rows holds on it.
"""

from __future__ import annotations

import heapq
import textwrap
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ..kit.evidence import counterexample
from ..output.figures import save_figure, subplots

#: Every graph with at most 7 nodes, the null graph included.
N_ATLAS = 1253
MAX_NODES = 7
#: λ grid: small, 1/2, 1, 2, the paper's 32 and 64, large.
LAMS = (0.01, 0.5, 1.0, 2.0, 32.0, 64.0, 1024.0)
#: Extra λ of ``--thorough``.
LAMS_THOROUGH = (0.1, 3.0, 10.0, 100.0, 10000.0)
#: S grid: 0..S_MAX.
S_MAX = 64
#: Failing cases kept in minimal order (the exact certificate walks them until one holds up).
CANDIDATES = 64


@dataclass(frozen=True)
class Range:
    """The non-degenerate range of a statement: the cases its headline counterexample and
    failure counts are taken from (the others are reported beside, as degenerate).

    ``min_S``: smallest S (1 leaves out S = 0, where Ã_0 = I/(λ+1) for every graph);
    ``min_n``: fewest nodes; ``isolated``: whether graphs with an isolated node belong to the
    range (True for a statement about isolated nodes); ``min_extra``: smallest value of the
    scan's extra parameter (d ≥ 2 where "with probability 1 − 1/d" is vacuous at d = 1).

    >>> NON_DEGENERATE.describe("d")
    'S ≥ 1, n ≥ 2, no isolated node, d ≥ 2'
    >>> EVERYTHING.everything
    True
    """

    min_S: int = 0
    min_n: int = 1
    isolated: bool = True
    min_extra: float | None = None

    @property
    def everything(self):
        return self == EVERYTHING

    def describe(self, extra_name=None):
        parts = []
        if self.min_S:
            parts.append(f"S ≥ {self.min_S}")
        if self.min_n > 1:
            parts.append(f"n ≥ {self.min_n}")
        if not self.isolated:
            parts.append("no isolated node")
        if self.min_extra is not None and extra_name:
            parts.append(f"{extra_name} ≥ {self.min_extra:g}")
        return ", ".join(parts) or "every case"

    def graphs(self, st):
        """``(G,)``: which graphs of the stack lie in the range."""
        ok = np.full(st.size, st.n >= self.min_n)
        if not self.isolated:
            ok &= ~(st.A.sum(axis=2) == 0).any(axis=1)
        return ok

    def cases(self, st, with_S, x=None):
        """``(S_MAX + 1, G)`` (``(1, G)`` without S): which cells lie in the range."""
        g = self.graphs(st)
        if self.min_extra is not None and x is not None and float(x) < self.min_extra:
            g = np.zeros_like(g)
        if not with_S:
            return g[None]
        return (np.arange(S_MAX + 1) >= self.min_S)[:, None] & g[None]

    def contains(self, where, extra_name=None):
        """Whether a case record (``n``, ``edges``, ``S``, the extra parameter) lies in the
        range."""
        n, edges = where["n"], where["edges"]
        if n < self.min_n or where.get("S", self.min_S) < self.min_S:
            return False
        if not self.isolated and len({v for e in edges for v in e}) < n:
            return False
        x = where.get(extra_name) if extra_name else None
        return not (self.min_extra is not None and x is not None and x < self.min_extra)


#: Every case (the default: counts and minimum over the whole grid).
EVERYTHING = Range()
#: S ≥ 1, n ≥ 2, no isolated node, d ≥ 2 (the extra parameter, where there is one).
NON_DEGENERATE = Range(min_S=1, min_n=2, isolated=False, min_extra=2)
#: Why a case outside a range is degenerate (for the evidence).
DEGENERATE_WHY = ("S = 0: Ã_0 = I/(λ+1) on every graph (no propagation); n = 1: no graph; an "
                  "isolated node: a component without edges (unless the statement is about "
                  "isolated nodes); d = 1: 'with probability 1 − 1/d' promises probability 0")


def lam_grid(ctx=None):
    """The λ grid of a run (``--thorough`` adds :data:`LAMS_THOROUGH`), in increasing order."""
    extra = LAMS_THOROUGH if ctx is not None and ctx.thorough else ()
    return tuple(sorted(LAMS + extra))


def exact_lam(lam):
    """The grid value as a fraction: its shortest decimal (0.01 → 1/100)."""
    return Fraction(repr(float(lam)))


def simplicity(lam):
    """Sort key of 'the simplest λ': height max(|p|, q) of λ = p/q, then the denominator (an
    integer before a fraction of the same height), then the value."""
    f = exact_lam(lam)
    return (max(abs(f.numerator), f.denominator), f.denominator, f)


@dataclass(frozen=True)
class Stack:
    """The atlas graphs with ``n`` nodes: ``A`` is ``(G, n, n)``, ``index`` their atlas numbers
    (G<index> in the atlas), ``edges`` their edge counts."""

    n: int
    index: np.ndarray
    A: np.ndarray
    edges: np.ndarray

    @property
    def size(self):
        return len(self.index)

    @cached_property
    def degrees(self):
        """d̃ = degree + 1 (the self-loop), ``(G, n)``."""
        return self.A.sum(axis=2) + 1.0


@lru_cache(maxsize=1)
def _atlas_graphs():
    graphs = nx.graph_atlas_g()
    if len(graphs) != N_ATLAS:   # the count is the point of the search: never run on fewer
        raise RuntimeError(f"networkx graph atlas has {len(graphs)} graphs, expected {N_ATLAS}")
    return tuple(graphs)


@lru_cache(maxsize=1)
def stacks():
    """The atlas stacked by size, n = 1..7 (built once per process)."""
    by_n: dict = {}
    for k, G in enumerate(_atlas_graphs()):
        if G.number_of_nodes():
            by_n.setdefault(G.number_of_nodes(), []).append((k, G))
    out = []
    for n, items in sorted(by_n.items()):
        A = np.zeros((len(items), n, n))
        for g, (_k, G) in enumerate(items):
            for u, v in G.edges():
                A[g, u, v] = A[g, v, u] = 1.0
        out.append(Stack(n, np.array([k for k, _ in items]), A,
                         np.array([G.number_of_edges() for _, G in items])))
    return tuple(out)


def graph(index):
    """(n, edge list) of atlas graph ``index``."""
    G = _atlas_graphs()[index]
    return G.number_of_nodes(), sorted([min(u, v), max(u, v)] for u, v in G.edges())


def _component_name(C):
    """'K3', 'P4', 'C5', 'star K1,3' for a connected graph of one of those kinds, else None."""
    m, e = C.number_of_nodes(), C.number_of_edges()
    deg = sorted(d for _, d in C.degree())
    if e == m * (m - 1) // 2:
        return f"K{m}"
    if e == m - 1 and deg[-1] <= 2:
        return f"P{m}"
    if e == m and deg[0] == deg[-1] == 2:
        return f"C{m}"
    if e == m - 1 and deg[-1] == m - 1:
        return f"star K1,{m - 1}"
    return None


def graph_name(index):
    """A reader's name of atlas graph ``index``: its components by kind (complete K_m, path P_m,
    cycle C_m, star K1,m; 2K1 for two of a kind), joined by '+', and where it sits in the
    atlas; a graph with another component is named by its atlas number only.

    >>> graph_name(3), graph_name(5)
    ('K2 (atlas G3, n = 2, 1 edge)', 'K2 + K1 (atlas G5, n = 3, 1 edge)')
    >>> graph_name(13), graph_name(17)
    ('star K1,3 (atlas G13, n = 4, 3 edges)', 'atlas G17 (n = 4, 5 edges)')
    """
    G = _atlas_graphs()[index]
    parts = [_component_name(G.subgraph(c)) for c in
             sorted(nx.connected_components(G), key=lambda c: (-len(c), min(c)))]
    e = G.number_of_edges()
    where = f"atlas G{index}, n = {G.number_of_nodes()}, {e} edge{'' if e == 1 else 's'}"
    if parts and all(parts):
        counts = {p: parts.count(p) for p in parts}          # in order: largest first
        return " + ".join(f"{c if c > 1 else ''}{p}" for p, c in counts.items()) + f" ({where})"
    return f"atlas G{index} ({where[len(f'atlas G{index}, '):]})"


def visited():
    """Atlas numbers of the graphs a scan visits (all of them; G0 vacuously)."""
    return [0] + sorted(int(k) for st in stacks() for k in st.index)


def normalized(st, norm):
    """Ã of every graph of the stack: D̃^{-1/2}(A+I)D̃^{-1/2} (sym) or D̃⁻¹(A+I) (rw)."""
    At = st.A + np.eye(st.n)
    d = st.degrees
    if norm == "sym":
        s = 1.0 / np.sqrt(d)
        return s[:, :, None] * At * s[:, None, :]
    if norm == "rw":
        return At / d[:, :, None]
    raise ValueError(f"norm must be 'sym' or 'rw', got {norm!r}")


@lru_cache(maxsize=2)
def powers(norm):
    """Ã^s for s = 0..S_MAX+1 of every stack: a tuple of ``(S_MAX + 2, G, n, n)`` arrays."""
    out = []
    for st in stacks():
        An = normalized(st, norm)
        P = np.empty((S_MAX + 2, st.size, st.n, st.n))
        P[0] = np.eye(st.n)
        for s in range(1, S_MAX + 2):
            P[s] = P[s - 1] @ An
        out.append(P)
    return tuple(out)


class Cells:
    """Every (graph, S) cell of one stack at one λ; quantities computed on first use and kept
    (they are ``(S_MAX + 1, G[, n])`` reductions; Ã_S itself, ``(S_MAX + 1, G, n, n)``, is
    rebuilt when asked for rather than kept, so that a run holds every λ's reductions at once).
    Get one with :func:`cells` (cached per process, so every claim shares them)."""

    def __init__(self, k, norm, lam):
        self.k, self.stack, self.norm, self.lam = k, stacks()[k], norm, float(lam)
        self.n = self.stack.n
        self.r = self.lam / (self.lam + 1.0)
        self.S = np.arange(S_MAX + 1)

    @property
    def An(self):
        return powers(self.norm)[self.k][1]

    @cached_property
    def mass(self):
        """1 − r^{S+1}, ``(S_MAX + 1,)``."""
        return 1.0 - self.r ** (self.S + 1.0)

    @property
    def M(self):
        """Ã_S, ``(S_MAX + 1, G, n, n)``: cumulative sums of r^s Ã^s/(λ+1) (not kept)."""
        P = powers(self.norm)[self.k][:S_MAX + 1]
        w = self.r ** self.S / (self.lam + 1.0)
        return np.cumsum(w[:, None, None, None] * P, axis=0)

    @cached_property
    def _sums(self):
        M = self.M
        return M.sum(axis=3), (M ** 2).sum(axis=3), (M > 0).sum(axis=3)

    @property
    def row_sums(self):
        """Σ_j [Ã_S]_ij, ``(S_MAX + 1, G, n)``."""
        return self._sums[0]

    @property
    def rho(self):
        """Row square sums ρ_i = Σ_j [Ã_S]_ij², ``(S_MAX + 1, G, n)``."""
        return self._sums[1]

    @property
    def positives(self):
        """How many entries of each row of Ã_S are > 0, ``(S_MAX + 1, G, n)``: exact in float64
        (each entry is a sum of non-negative terms, so it is 0 only when every term is)."""
        return self._sums[2]

    @cached_property
    def fro2(self):
        return self.rho.sum(axis=2)

    @property
    def tau_i(self):
        return self.n * self.rho / self.mass[:, None, None] ** 2

    @cached_property
    def tau(self):
        return self.n * self.rho.max(axis=2) / self.mass[:, None] ** 2

    @cached_property
    def gram_fro2(self):
        """‖Ã_SᵀÃ_S‖_F², ``(S_MAX + 1, G)``."""
        M = self.M
        return ((np.swapaxes(M, 2, 3) @ M) ** 2).sum(axis=(2, 3))

    @cached_property
    def laplacian(self):
        return np.eye(self.n) - self.An

    @cached_property
    def inverse(self):
        """(I + λL̃)⁻¹, ``(G, n, n)``."""
        return np.linalg.inv(np.eye(self.n) + self.lam * self.laplacian)


@lru_cache(maxsize=None)
def cells(k, norm, lam):
    """The :class:`Cells` of stack ``k`` in ``norm`` at ``lam`` (one per process)."""
    return Cells(k, norm, float(lam))


@dataclass
class Scan:
    """What a scan searched and found (see :func:`scan`).

    ``cases``, ``failing_cases``, ``failing_graphs``, ``worst``, ``minimal`` and ``candidates``
    are those inside the statement's :class:`Range` (``within``); ``degenerate`` holds the same
    for the cases outside it (None when the range is everything)."""

    norm: str
    lams: tuple
    with_S: bool
    extra: tuple | None = None
    ratio_is: str = "measured / bound"
    within: Range = EVERYTHING
    graphs: int = 0
    cases: int = 0
    failing_cases: int = 0
    failing_graphs: set = field(default_factory=set)
    worst_ratio: float = -np.inf
    worst: dict | None = None
    minimal: dict | None = None
    #: The failing cases in minimal order, as (key, where) — the first :data:`CANDIDATES`
    #: (one per graph, λ and extra value: its smallest failing S).
    candidates: list = field(default_factory=list)
    #: Outside the range: {"cases", "failing_cases", "failing_graphs" (set),
    #: "graphs_failing_only_there" (set), "candidates", "minimal"}.
    degenerate: dict | None = None

    @property
    def holds(self):
        return self.failing_cases == 0

    @property
    def extra_name(self):
        return self.extra[0] if self.extra else None

    def search(self):
        """The ``search`` record of a result."""
        grid = {"lams": list(self.lams)}
        if self.with_S:
            grid["S"] = f"0..{S_MAX}"
        if self.extra is not None:
            grid[self.extra[0]] = list(self.extra[1])
        out = {"atlas": f"all {N_ATLAS:,} graphs with ≤ {MAX_NODES} nodes (networkx "
                        "graph_atlas_g; the null graph vacuously)",
               "graphs_visited": self.graphs, "grid": grid, "cases": self.cases,
               "failing_cases": self.failing_cases,
               "failing_graphs": len(self.failing_graphs),
               "worst_ratio": self.worst_ratio, "worst_ratio_is": self.ratio_is,
               "worst": self.worst,
               "minimal_order": "fewest nodes, fewest edges, smallest S, simplest λ "
                                "(height of p/q)" + (f", smallest {self.extra_name}"
                                                     if self.extra else "")
                                + ", then atlas order"}
        if self.degenerate is not None:
            dg = self.degenerate
            out["range"] = (f"{self.within.describe(self.extra_name)} (the statement's "
                            "non-degenerate range: cases, failures, worst and minimal above "
                            "are counted inside it)")
            out["degenerate"] = {
                "why": DEGENERATE_WHY, "cases": dg["cases"],
                "failing_cases": dg["failing_cases"],
                "failing_graphs": len(dg["failing_graphs"]),
                "graphs_failing_only_there": len(dg["graphs_failing_only_there"]),
                "minimal": dg["minimal"]}
        return out

    def describe(self):
        """One line for a summary."""
        dg = self.degenerate
        if self.holds and (dg is None or not dg["failing_cases"]):   # nothing fails anywhere
            total = self.cases + (dg["cases"] if dg else 0)
            return f"atlas: no failure in {total:,} cases ({self.graphs:,} graphs × grid)"
        rng = ("" if dg is None else f" in range ({self.within.describe(self.extra_name)})")
        if self.holds:
            line = f"atlas: no failure in {self.cases:,} cases{rng} ({self.graphs:,} graphs × grid)"
        else:
            line = (f"atlas: {self.failing_cases:,}/{self.cases:,} cases{rng} fail on "
                    f"{len(self.failing_graphs)} graphs; minimal: {self._where(self.minimal)}")
        if dg is not None and dg["failing_cases"]:
            line += (f" (degenerate cases outside the range: {dg['failing_cases']:,} more fail"
                     + (f", minimal {self._where(dg['minimal'])}" if dg["minimal"] else "")
                     + ")")
        return line

    def _where(self, m):
        return f"n={m['n']}, edges {m['edges']}, λ={m['lam']:g}" + (
            f", S={m['S']}" if m.get("S") is not None else "") + (
            f", {self.extra[0]}={m[self.extra[0]]}" if self.extra else "")


def scan(norm, test, *, lams=LAMS, with_S=True, extra=None, ratio="measured / bound",
         within=None):
    """Run ``test`` over every atlas graph × λ (× S when ``with_S``) (× ``extra`` values).

    ``test(cells)`` — or ``test(cells, x)`` for each ``x`` of ``extra = (name, values)`` —
    returns ``(bad, ratio)``: boolean and float arrays of shape ``(S_MAX + 1, G)`` (``(G,)``
    without S). ``ratio`` is the measured/bound (or similar) value whose maximum is reported.
    ``within`` (a :class:`Range`) is the statement's non-degenerate range: counts, worst and
    minimal are taken inside it, the rest is reported under ``degenerate``.
    """
    rng = EVERYTHING if within is None else within
    lams = tuple(sorted(lams, key=float))
    res = Scan(norm, lams, with_S, extra, ratio_is=ratio, within=rng)
    res.graphs = N_ATLAS
    dg = None if rng.everything else {"cases": 0, "failing_cases": 0, "failing_graphs": set()}
    xs = [None] if extra is None else list(extra[1])
    lam_rank = {lam: r for r, lam in enumerate(sorted(lams, key=simplicity))}
    pending, pending_out = [], []
    for k, st in enumerate(stacks()):
        for lam in lams:
            c = cells(k, norm, lam)
            for xi, x in enumerate(xs):
                bad, ratio = test(c) if extra is None else test(c, x)
                bad = np.asarray(bad, dtype=bool)
                ratio = np.broadcast_to(np.asarray(ratio, dtype=float), bad.shape)
                if not with_S:
                    bad, ratio = bad[None], ratio[None]
                inside = np.broadcast_to(rng.cases(st, with_S, x), bad.shape)
                res.cases += int(inside.sum())
                finite = np.where(np.isfinite(ratio) & inside, ratio, -np.inf)
                if finite.size and finite.max() > res.worst_ratio:
                    s, g = np.unravel_index(int(finite.argmax()), finite.shape)
                    res.worst_ratio = float(finite[s, g])
                    res.worst = _where(st, g, lam, s if with_S else None, x, extra=extra)
                if dg is not None:
                    dg["cases"] += int((~inside).sum())
                if not bad.any():
                    continue
                for part, mask, store in ((res, inside, pending), (dg, ~inside, pending_out)):
                    if part is None:
                        continue
                    b = bad & mask
                    if not b.any():
                        continue
                    if part is res:
                        res.failing_cases += int(b.sum())
                    else:
                        dg["failing_cases"] += int(b.sum())
                    hit = b.any(axis=0)
                    (res.failing_graphs if part is res else dg["failing_graphs"]).update(
                        int(i) for i in st.index[hit])
                    first_S = b.argmax(axis=0)
                    for g in np.nonzero(hit)[0]:
                        S = int(first_S[g]) if with_S else None
                        key = (st.n, int(st.edges[g]), S or 0, lam_rank[lam], xi,
                               int(st.index[g]))
                        store.append((key, (st, g, lam, S, x)))
                if len(pending) > 4 * CANDIDATES:
                    pending = heapq.nsmallest(CANDIDATES, pending, key=lambda t: t[0])
                if len(pending_out) > 4 * CANDIDATES:
                    pending_out = heapq.nsmallest(CANDIDATES, pending_out, key=lambda t: t[0])
    res.candidates = [(key, _where(*args, extra=extra)) for key, args in
                      heapq.nsmallest(CANDIDATES, pending, key=lambda t: t[0])]
    res.minimal = res.candidates[0][1] if res.candidates else None
    if dg is not None:
        dg["candidates"] = [(key, _where(*args, extra=extra)) for key, args in
                            heapq.nsmallest(CANDIDATES, pending_out, key=lambda t: t[0])]
        dg["minimal"] = dg["candidates"][0][1] if dg["candidates"] else None
        dg["graphs_failing_only_there"] = dg["failing_graphs"] - res.failing_graphs
        res.degenerate = dg
    return res


def _where(st, g, lam, S, x, *, extra):
    index = int(st.index[g])
    out = {"atlas_index": index, "n": st.n, "edges": graph(index)[1], "lam": float(lam)}
    if S is not None:
        out["S"] = int(S)
    if extra is not None:
        out[extra[0]] = x
    return out


def certified_minimal(result, certify, keep=None, candidates=None):
    """The first failing case of ``result`` (in minimal order; only those ``keep(where)``
    accepts, when given) that ``certify(where)`` confirms in exact or interval arithmetic, as
    ``where`` plus the certificate; None when none of the kept candidates is confirmed.
    ``candidates`` (default: ``result.candidates``, those in range) lets the degenerate ones
    be walked the same way.

    The certificate's ``fails`` decides: a float failure that exact arithmetic refutes is
    skipped and recorded under ``refuted``.
    """
    refuted = []
    for _key, where in (result.candidates if candidates is None else candidates):
        if keep is not None and not keep(where):
            continue
        cert = certify(where)
        if cert["fails"]:
            out = dict(where, **{k: v for k, v in cert.items() if k != "fails"})
            if refuted:
                out["refuted_float_candidates"] = refuted
            return out
        refuted.append(where)
    return None


def atlas_minimal(result, certify, norm):
    """The minimal counterexample record of a scan: certified by ``certify(n, edges, ...)``
    through :func:`certified_minimal`, or, with ``certify=None`` (a quantity with no exact
    form), the float64 minimal marked as such. None when the atlas holds or every float
    candidate is refuted by exact arithmetic.

    With a :class:`Range`, the record is the minimum inside it; the minimum among the
    degenerate cases, if any fails, is added under ``degenerate_minimal`` (labelled)."""
    if result.holds:
        return None
    if certify is None:
        mc = dict(result.minimal, norm=norm,
                  certified="none: float64 search only (no exact form for this quantity)")
    else:
        mc = certified_minimal(result, certify)
        if mc is None:
            return None
        mc = dict(mc, norm=norm)
    dg = result.degenerate
    if dg is not None and dg["candidates"]:
        if certify is None:
            low = dict(dg["minimal"], certified=mc["certified"])
        else:
            low = certified_minimal(result, certify, candidates=dg["candidates"])
        if low is not None:
            mc["degenerate_minimal"] = dict(
                low, norm=norm, label=f"degenerate: outside the statement's range "
                                      f"({result.within.describe(result.extra_name)})")
    if dg is not None:
        mc["range"] = result.within.describe(result.extra_name)
    return mc


def walk_minimal(certify, *, lams, extra, within=None, limit=400):
    """The minimal failing case by certificates alone: walk the cases inside ``within`` (a
    :class:`Range`) in minimal order (fewest nodes, fewest edges, smallest S, simplest λ, the
    extra values in the order given, atlas order) and certify each with ``certify(where)``
    until one fails.

    For a statement whose float screen can miss failures (a probability known only through a
    lower bound), this makes the minimum minimal: every case before it is certified to hold.
    ``certify`` returns a dict whose ``fails`` is True, False or None (undecided: the walk stops
    there and says so). Returns ``{"minimal": record or None, "holding_before": [(where,
    short certificate)], "stopped": why}``; at most ``limit`` certificates are made.
    """
    rng = EVERYTHING if within is None else within
    name, values = extra
    lam_order = sorted(lams, key=simplicity)
    groups: dict = {}
    for st in stacks():
        ok = rng.graphs(st)
        for g in np.nonzero(ok)[0]:
            groups.setdefault((st.n, int(st.edges[g])), []).append(int(st.index[g]))
    holding, made = [], 0
    for (n, _e), indices in sorted(groups.items()):
        for S in range(rng.min_S, S_MAX + 1):
            for lam in lam_order:
                for x in values:
                    if rng.min_extra is not None and x < rng.min_extra:
                        continue
                    for index in indices:
                        where = {"atlas_index": index, "n": n, "edges": graph(index)[1],
                                 "lam": float(lam), "S": S, name: x}
                        if made >= limit:
                            return {"minimal": None, "holding_before": holding,
                                    "stopped": f"after {limit} certificates, none failing"}
                        cert = certify(where)
                        made += 1
                        if cert["fails"] is None:
                            return {"minimal": None, "holding_before": holding,
                                    "stopped": f"undecided at {where}"}
                        if cert["fails"]:
                            out = dict(where, **{k: v for k, v in cert.items() if k != "fails"})
                            return {"minimal": out, "holding_before": holding,
                                    "stopped": "first certified failure"}
                        holding.append(where)
    return {"minimal": None, "holding_before": holding, "stopped": "every case holds"}


def adjacency(n, edges):
    """The CSR adjacency of an edge list (for counterexample records)."""
    A = sp.lil_array((n, n))
    for u, v in edges:
        A[u, v] = A[v, u] = 1.0
    return A.tocsr()


def atlas_counterexample(ctx, statement_id, mc, **fields):
    """The ``counterexample`` record of an atlas minimal counterexample."""
    keys = ("lam", "S", "d")
    return counterexample(statement_id, ctx,
                          graph=(f"atlas-G{mc['atlas_index']}", adjacency(mc["n"], mc["edges"])),
                          source="exhaustive atlas search (minimal counterexample)",
                          atlas_index=mc["atlas_index"], norm=mc.get("norm"),
                          **{k: mc[k] for k in keys if k in mc}, **fields)


def minimal_figure(ctx, name, mc, title, node_text=None, caption=None):
    """``[file name]`` of the drawing of ``mc`` (saved only when the run makes figures)."""
    path = ctx.figure_path(name)
    if path is None or mc is None:
        return []
    return [draw_graph(path, mc["n"], mc["edges"], title, node_text, caption)]


def exact_line(mc, key_end):
    """'key = value' of the first exact value whose name ends with ``key_end``; a long exact
    fraction is shown by its decimal (the exact value stays in the record)."""
    for k, v in mc.get("exact", {}).items():
        if k.endswith(key_end):
            if len(v) > 60 and "≈" in v:
                v = "≈ " + v.split("≈")[-1].strip() + " (exact fraction in report.json)"
            else:
                v = f"= {v}"
            return f"{k} {v}"
    return ""


def setting(mc):
    """'atlas G6 (n=3, edges [[0, 1], [0, 2]]), λ=1, S=1' for a summary."""
    extra = "".join(f", {k}={mc[k]}" for k in ("S", "d") if k in mc)
    return (f"atlas G{mc['atlas_index']} (n={mc['n']}, edges {mc['edges']}), "
            f"λ={mc['lam']:g}{extra}")


def combine_search(scan_result, sampled):
    """The ``search`` of a result: the atlas scan and the claim's own sampled graphs."""
    out = scan_result.search() if isinstance(scan_result, Scan) else dict(scan_result)
    out["sampled"] = sampled
    out["what"] = (f"all {N_ATLAS:,} graphs with ≤ {MAX_NODES} nodes × the grid, and the "
                   "sampled larger graphs")
    return out


def draw_graph(path, n, edges, title, node_text=None, caption=None):
    """The minimal counterexample as a small labelled drawing; returns the file name.

    ``node_text`` maps a node to a second label line (e.g. its exact row sum); ``caption`` goes
    under the drawing."""
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(map(tuple, edges))
    pos = nx.circular_layout(G) if n > 2 else {i: (float(i), 0.0) for i in range(n)}
    fig, ax = subplots(figsize=(5.2, 4.4))
    nx.draw_networkx_edges(G, pos, ax=ax, width=1.6)
    nx.draw_networkx_nodes(G, pos, ax=ax, node_color="#cde", edgecolors="k", node_size=650)
    nx.draw_networkx_labels(G, pos, ax=ax, font_size=11)
    if node_text:
        for i, text in node_text.items():
            x, y = pos[i]
            ax.annotate(text, (x, y), xytext=(0, -26), textcoords="offset points",
                        ha="center", va="top", fontsize=8, color="C3")
    ax.set_title(title, fontsize=9)
    if caption:
        ax.text(0.5, -0.04, textwrap.fill(caption, 80), transform=ax.transAxes, ha="center",
                va="top", fontsize=8)
    ax.margins(0.3)
    ax.set_axis_off()
    return save_figure(fig, path)
