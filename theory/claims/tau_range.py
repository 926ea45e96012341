"""Remark 1: τ ∈ [1, n]; τ → 1 for complete graphs and τ = n for isolated nodes."""

import networkx as nx
import numpy as np

import ngc_ref

from .._atlas import (atlas_counterexample, atlas_minimal, combine_search, lam_grid,
                      scan)
from .._common import counterexample
from .._core import claim
from .._paper import THEORY_RW_SCOPES
from .._graphs import lam_S_grid, small_graphs

ID = "tau-range"
STATEMENT = ("τ ∈ [1, n]; τ = n when all nodes are isolated, and τ → 1 for a complete graph "
             "(high connectivity).")
TOL = 1e-9
CLAIM = claim(ID, "Remark 1", STATEMENT, order=60, **THEORY_RW_SCOPES)


def all_isolated(c):
    """Atlas cells (:class:`~ngc_ref_theory._atlas.Cells`): which graphs have only isolated
    nodes (Remark 1's case τ = n), broadcast over the (λ, S) axis."""
    return (c.stack.A.sum(axis=2) == 0).all(axis=1)[None]


def _range_test(c):
    """Atlas test of 1 ≤ τ ≤ n, and τ = n on graphs whose nodes are all isolated."""
    t, n = c.tau, c.n
    bad = (t < 1 - TOL) | (t > n * (1 + TOL)) | (all_isolated(c) & (np.abs(t / n - 1) > TOL))
    return bad, np.maximum(1.0 / t, t / n)


@CLAIM.checker
def check(ctx, norm):
    lo, hi = (np.inf, None), (-np.inf, None)
    for name, A in small_graphs(ctx).items():
        n = A.shape[0]
        for lam, S in lam_S_grid(ctx):
            res = ngc_ref.connectivity_factor(A, lam, S, norm=norm)
            tmin = float(res.tau_i.min())
            if tmin < lo[0]:
                lo = (tmin, (name, A, lam, S, int(res.tau_i.argmin())))
            if res.tau / n > hi[0]:
                hi = (res.tau / n, (name, A, lam, S, res.argmax))
    iso = [ngc_ref.connectivity_factor(nx.empty_graph(n), 64, 64, norm=norm).tau / n
           for n in (2, 5, 50)]
    kn_seq = [(k, ngc_ref.connectivity_factor(nx.complete_graph(8), k, k, norm=norm).tau)
              for k in (1, 4, 16, 64, 256, 1024)]
    taus = [t for _, t in kn_seq]
    ev = {"graphs": list(small_graphs(ctx)), "lam_S": lam_S_grid(ctx),
          "min_tau_i": lo[0], "max_tau_over_n": hi[0], "isolated_tau_over_n": iso,
          "complete_K8_tau_at_lam_eq_S": kn_seq, "tolerance": TOL,
          "complete_at_scale": "τ(K_n) = 1 + (n − 1)/((λ+1)(1 − r^{S+1}))²: τ → 1 as λ, S grow "
                               "at fixed n, but grows linearly in n at fixed λ, S "
                               "(tau-at-scale)",
          "note": "τ is a max over rows: the bound τ ≥ 1 needs every τ_i ≥ 1 only for max_i; "
                  "min τ_i is reported as well because Remark 1's argument is per row (Eq. 7)."}
    problems = []
    if hi[0] > 1 + TOL:
        problems.append(("tau > n", hi))
    if max(abs(x - 1) for x in iso) > TOL:
        problems.append(("isolated tau != n", (None, None)))
    if not (all(b <= a + TOL for a, b in zip(taus, taus[1:])) and taus[-1] < 1.01):
        problems.append(("complete graph tau does not decrease to 1", (None, None)))
    # τ = max_i τ_i ≥ 1 always holds when some row reaches the average; check it directly.
    tau_min_over_cases = _min_tau(ctx, norm)
    ev["min_tau_over_cases"] = tau_min_over_cases
    if tau_min_over_cases < 1 - TOL:
        problems.append(("tau < 1", (None, None)))
    atlas = scan(norm, _range_test, lams=lam_grid(ctx), ratio="max(1/τ, τ/n)")
    sampled = {"graphs": list(small_graphs(ctx)), "lam_S": lam_S_grid(ctx),
               "isolated_n": [2, 5, 50], "complete_K8_lam_eq_S": [k for k, _ in kn_seq]}
    search = combine_search(atlas, sampled)
    mc = atlas_minimal(atlas, None, norm)
    if not problems and mc is None:
        return [CLAIM.result(norm, "holds", ev,
                             f"1 ≤ τ ≤ n on all cases (τ/n ≤ {hi[0]:.4f}, min τ = "
                             f"{tau_min_over_cases:.4f}); isolated τ = n; K8 τ → {taus[-1]:.5f} "
                             f"as λ = S → {kn_seq[-1][0]} (fixed n; at fixed λ, S, τ grows with "
                             f"n even on K_n: see tau-at-scale); {atlas.describe()}",
                             search=search)]
    if not problems:
        ce = atlas_counterexample(ctx, ID, mc)
        return [CLAIM.result(norm, "fails", ev, f"sampled graphs hold; {atlas.describe()}", ce,
                             search=search, minimal_counterexample=mc)]
    what, case = problems[0]
    extra = {}
    if case[0] is not None:
        name, A, lam, S, i = case[1]
        extra = dict(graph=(name, A), lam=lam, S=S, node=i, tau_over_n=case[0])
    ce = counterexample(ID, ctx, violations=[p[0] for p in problems], **extra)
    return [CLAIM.result(norm, "fails", ev, "; ".join(p[0] for p in problems), ce,
                         search=search, minimal_counterexample=mc)]


def _min_tau(ctx, norm):
    return min(ngc_ref.connectivity_factor(A, lam, S, norm=norm).tau
               for A in small_graphs(ctx).values() for lam, S in lam_S_grid(ctx))
