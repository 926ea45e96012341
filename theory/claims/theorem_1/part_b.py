"""Part (b): the optimisation part e(k) = g(W^(k)) − g(W_f*) decays at least as 1/k (the
O(1/(2kα)) term): the log-log slope of its tail envelope E(k) = max_{j≥k} |e(j)| is ≤ −1, per
run of the fixed-λ setting, judged by the 95% t-interval of the mean slope over runs."""

from __future__ import annotations

import numpy as np

from ...kit.evidence import counterexample
from ...kit.stats import CONFIDENCE, mean_ci
from .fixed_lambda import graph_of, where
from .statements import PART_B

#: E(k) below this fraction of g(W_g*) + 1 is rounding, not optimisation error.
ENVELOPE_FLOOR = 1e-9


def envelope_exponent(k, env, g_star, floor_frac=ENVELOPE_FLOOR):
    """Slope of log E(k) vs log k on a geometric k grid from 1 to the last k above rounding.

    Returns (slope, number of grid points, k_end); slope is nan with fewer than 4 points.
    ``k_end`` equal to the last k means E never reached rounding (GD not converged).
    """
    tol = floor_frac * (abs(g_star) + 1.0)
    above = np.nonzero(env > tol)[0]
    k_end = int(k[above[-1]]) if above.size else 0
    if k_end < 4:
        return float("nan"), 0, k_end
    grid = np.unique(np.round(np.geomspace(1, k_end, 25)).astype(int))
    grid = grid[env[grid] > tol]
    if grid.size < 4:
        return float("nan"), int(grid.size), k_end
    slope = np.polyfit(np.log(grid), np.log(env[grid]), 1)[0]
    return float(slope), int(grid.size), k_end


def judge_exponents(slopes, conf=CONFIDENCE):
    """(b): "decays at least as 1/k" ⇔ slope ≤ −1. Verdict from the t-interval of the mean."""
    mu, (lo, hi) = mean_ci(slopes, conf)
    if hi <= -1.0:
        return "holds", mu, (lo, hi)
    if lo > -1.0:
        return "fails", mu, (lo, hi)
    return "inconclusive", mu, (lo, hi)


def decay_result(ctx, norm, rows, common):
    expo = [envelope_exponent(r["k"], r["envelope"], r["g_star"]) for r in rows]
    slopes = [s for s, _, _ in expo if np.isfinite(s)]
    C1 = [float(np.max(r["envelope"][1:] * 2 * r["k"][1:] * r["alpha"] / r["dist0_sq"]))
          for r in rows]
    if len(slopes) < 2:
        verdict, mu, ci = "inconclusive", float("nan"), (float("nan"), float("nan"))
    else:
        verdict, mu, ci = judge_exponents(slopes)
    ev = dict(common, reading="E(k) = max_{j≥k} |g(W^j) − g(W_f*)|; slope of log E vs log k on a "
              "geometric grid of ≤ 25 k from 1 to the last k with E(k) > "
              f"{ENVELOPE_FLOOR:g}·(g(W_g*)+1); 'at least 1/k' ⇔ slope ≤ −1; 95% t-interval of "
              "the mean slope over runs",
              exponent_mean=mu, exponent_ci=ci, runs_fitted=len(slopes),
              per_run=[{"n": r["n"], "graph_seed": r["graph_seed"], "noise_seed": r["noise_seed"],
                        "slope": s, "grid_points": g, "k_end": ke, "C1_needed": c1,
                        "cond_Z": r["cond_Z"]} for r, (s, g, ke), c1 in zip(rows, expo, C1)],
              runs_not_converged=sum(ke >= r["k"][-1] for r, (_, _, ke) in zip(rows, expo)),
              C1_needed_max=max(C1),
              C1_note="max_k E(k)·2kα/‖W⁰−W_g*‖²: the constant the first term needs for "
                      "g − g(W_f*) (the proof's constant is 1, for f − f(W_g*))")
    ce = None
    if verdict == "fails":
        r = rows[int(np.argmax([s if np.isfinite(s) else -np.inf for s, _, _ in expo]))]
        ce = counterexample(PART_B.id, ctx, graph=graph_of(r), **where(r), exponent_ci=ci)
    return PART_B.result(
        norm, verdict, ev,
        f"(b) tail of g(W^k) − g(W_f*) ~ k^{mu:.2f}, 95% CI [{ci[0]:.2f}, {ci[1]:.2f}] over "
        f"{len(slopes)} runs (≤ −1 needed); constant needed by ‖W⁰−W_g*‖²/(2kα): "
        f"{max(C1):.2g}", ce)
