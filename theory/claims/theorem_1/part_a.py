"""Part (a): the proof's optimisation step f(W^(k)) − f(W_g*) ≤ ‖W⁰ − W_g*‖²/(2kα) for every
k ≥ 1, an exact inequality of convex gradient descent, checked in every run of the fixed-λ
setting with relative tolerance 1e-9 of the run's largest loss (rounding)."""

from __future__ import annotations

from ..._common import counterexample
from .fixed_lambda import graph_of, where
from .statements import EXACT_RTOL, PART_A


def optimisation_step_result(ctx, norm, rows, common, figs):
    worst = max(rows, key=lambda r: r["a_max_slack"] / r["scale"])
    ok = all(r["a_max_slack"] <= EXACT_RTOL * r["scale"] for r in rows)
    ev = dict(common, tolerance=f"slack ≤ {EXACT_RTOL:g}·max loss of the run",
              runs=[{k: r[k] for k in ("n", "graph_seed", "noise_seed", "a_max_ratio",
                                       "a_max_slack", "cond_Z")} for r in rows])
    ce = None if ok else counterexample(PART_A.id, ctx, graph=graph_of(worst), **where(worst),
                                        max_slack=worst["a_max_slack"])
    return PART_A.result(
        norm, "holds" if ok else "fails", ev,
        f"(a) f(W^k) − f(W_g*) ≤ ‖W⁰−W_g*‖²/(2kα) for k = 1..{common['steps']} in all "
        f"{len(rows)} runs: {'yes' if ok else 'NO'}; max lhs/rhs "
        f"{max(r['a_max_ratio'] for r in rows):.3g}", ce, figs)
