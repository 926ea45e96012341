"""Lemma 1's Pareto front of minimal (n, d) (issue 33): for each feature dimension d, the fewest
nodes on which Eq. 11 fails for Gaussian η, both ends certified.

**Below the front: no graph fails, by a theorem.** With Gaussian η, ‖Ã_Sη‖_F²/σ² = Σ_k μ_k χ²_d
(μ_k the eigenvalues of Ã_SᵀÃ_S), a Gaussian quadratic form of rank ≤ nd and mean dΣ_iρ_i.
Eq. 11's bound over that mean is y = 2·max_iρ_i(4 log n + log 2d)/(dΣ_iρ_i) ≥ y_n =
2(4 log n + log 2d)/(dn) (the largest row energy is at least the mean one). By Székely &
Bakirov (2003) every such form has P(Q > y·EQ) ≤ max_{k ≤ nd} P(χ²_k > k·y)
(:func:`.._chisq.extremal_sf`), so when that maximum at y_n is ≤ 1/d, Eq. 11 holds on every graph
with n nodes, every λ, every S, both normalisations. The front's n for d is the first n where
this bound exceeds 1/d — and a graph that fails there, found by a walk certified with the exact
probability (:func:`..exact.certificates.certify_lemma_1_exact`), makes it the minimum.

**The witness walk** at (n, d): graphs with n nodes and no isolated node (the atlas in its
order for n ≤ 7; beyond it a perfect matching — or a matching and one path on three nodes —,
the cycle C_n and K_n), then S = 1, 2, …, then λ by simplicity; a case whose own bound
max_k P(χ²_k > k·y) is below 1/d by 10⁻⁶ is skipped (it holds by the theorem), every other one
is certified exactly, until one fails.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
from scipy import stats

from ..exact.atlas import NON_DEGENERATE, S_MAX, adjacency, graph, simplicity, stacks
from ..exact.chisq import DPS, extremal_sf
from ..kit.evidence import dense_norm_adj, dense_series
from ..exact.certificates import certify_lemma_1_exact

#: Largest n the front's lower end is searched to, and the margin of the float screen.
MAX_N = 40
SCREEN_MARGIN = 1e-6


def y_n(n, d):
    """Eq. 11's bound over E‖Ã_Sη‖_F² at its smallest, 2(4 log n + log 2d)/(dn) (mpmath)."""
    with mp.workdps(DPS):
        return 2 * (4 * mp.log(n) + mp.log(2 * d)) / (d * n)


def lower_n(d, max_n=MAX_N):
    """The first n ≥ 2 where the extremal bound max_{k ≤ nd} P(χ²_k > k·y_n) exceeds 1/d, with
    the bounds of every smaller n (each ≤ 1/d: Eq. 11 holds there on every graph)."""
    below = []
    for n in range(2, max_n + 1):
        p, k = extremal_sf(y_n(n, d), n * d)
        row = {"n": n, "bound": mp.nstr(p, 12), "k": k}
        if p > mp.mpf(1) / d:
            return n, row, below
        below.append(row)
    return None, None, below


def _family_graphs(n):
    """Beyond the atlas: fewest edges first — a perfect matching (a matching and one P3 for odd
    n), the cycle C_n, the complete K_n."""
    pairs = [[2 * i, 2 * i + 1] for i in range(n // 2 - (n % 2))]
    if n % 2:
        pairs += [[n - 3, n - 2], [n - 2, n - 1]]
    cycle = [[i, (i + 1) % n] for i in range(n)]
    complete = [[i, j] for i in range(n) for j in range(i + 1, n)]
    return [("matching" if n % 2 == 0 else "matching + P3", pairs), (f"C{n}", cycle),
            (f"K{n}", complete)]


def candidates(n):
    """(name, edge list) of the witness walk's graphs with n nodes, in its order."""
    if n <= 7:
        st = next(s for s in stacks() if s.n == n)
        ok = NON_DEGENERATE.graphs(st)
        order = sorted(np.nonzero(ok)[0], key=lambda g: (int(st.edges[g]), int(st.index[g])))
        return [(f"atlas G{int(st.index[g])}", graph(int(st.index[g]))[1]) for g in order]
    return _family_graphs(n)


def _screen(edges, n, lam, S, d, norm):
    """The case's own extremal bound in float64: max_{k ≤ nd} P(χ²_k > k·y), y = bound/E."""
    M = dense_series(lam / (lam + 1.0) * dense_norm_adj(adjacency(n, edges), norm), S)
    rho = (M ** 2).sum(axis=1)
    y = 2 * rho.max() * (4 * math.log(n) + math.log(2 * d)) / (d * rho.sum())
    k = np.arange(1, n * d + 1)
    return float(stats.chi2.sf(k * y, k).max())


def witness(n, d, norm, lams, limit=200):
    """The first failing case at (n, d) in the walk's order, with the exact probability, and
    what was passed on the way (screened by the bound, certified to hold)."""
    screened = certified = 0
    for name, edges in candidates(n):
        for S in range(1, S_MAX + 1):
            for lam in sorted(lams, key=simplicity):
                if _screen(edges, n, float(lam), S, d, norm) < 1 / d - SCREEN_MARGIN:
                    screened += 1
                    continue
                if certified >= limit:
                    return None, screened, certified
                # a loose series tolerance first (rigorous, wider bracket); full if undecided
                cert = certify_lemma_1_exact(n, edges, float(lam), S, d, norm, tol=1e-6)
                if cert["fails"] is None:
                    cert = certify_lemma_1_exact(n, edges, float(lam), S, d, norm)
                certified += 1
                if cert["fails"]:     # the reported bracket at the full tolerance
                    cert = certify_lemma_1_exact(n, edges, float(lam), S, d, norm)
                    return ({"graph": name, "n": n, "edges": edges, "d": d, "lam": float(lam),
                             "S": S, "P": cert["exact"]["P(‖Ã_Sη‖_F² > bound)"],
                             "shows": cert["shows"], "certified": cert["certified"]},
                            screened, certified)
    return None, screened, certified


def pareto_front(norm, lams, max_d=16):
    """The minimal (n, d) pairs on which Eq. 11 fails: for d = 2, 3, … the fewest nodes (the
    extremal bound below it, a certified witness at it), until a d reaches n = 2 (every larger
    d is then dominated); points dominated by a smaller d with no more nodes are dropped."""
    points = []
    for d in range(2, max_d + 1):
        n, at, below = lower_n(d)
        if n is None:
            continue
        w, screened, certified = witness(n, d, norm, lams)
        points.append({"d": d, "n": n, "bound_at_n": at, "holds_below": below,
                       "witness": w, "screened": screened, "certified_holding": certified - 1
                       if w else certified})
        if n == 2 and w is not None:
            break
    return front_of(points), points


def front_of(points):
    """The Pareto front of ``points`` (dicts with ``n``, ``d``, ``witness``): those with a
    witness that no other point with a witness dominates — a smaller d on no more nodes.

    Examples
    --------
    >>> w = {"graph": "G"}
    >>> pts = [{"n": 5, "d": 2, "witness": w}, {"n": 5, "d": 3, "witness": w},
    ...        {"n": 3, "d": 4, "witness": w}, {"n": 2, "d": 5, "witness": None}]
    >>> [(p["n"], p["d"]) for p in front_of(pts)]
    [(5, 2), (3, 4)]
    """
    return [p for p in points
            if p["witness"] and not any(q["witness"] and q["n"] <= p["n"] and q["d"] < p["d"]
                                        for q in points)]


def describe(front):
    """'(n, d): graph, λ, S, P(exceed) = p > 1/d' for each point of the front, smallest d
    first; the probability rounded (its exact bracket is in the evidence)."""
    return "; ".join(f"(n={p['n']}, d={p['d']}): {p['witness']['graph']}, λ={p['witness']['lam']:g}"
                     f", S={p['witness']['S']}, {p['witness']['shows']}" for p in front)
