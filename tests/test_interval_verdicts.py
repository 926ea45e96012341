"""A per-family (per-series) verdict rests on its interval: ``_stats.interval_verdict`` is the one
rule, used by ``decay_verdict`` (assumption-2-corrected, noise-vanishing-corrected, the sweep
summary) and Theorem 1's ratio trends. Tested at, just above and just below each threshold,
against an independent OLS interval, and by simulation for its error rate at a fixed seed."""

import math

import numpy as np
import pytest
from scipy.stats import t as t_dist

from ngc_ref_theory.kit.stats import (CONFIDENCE, SLOPE_DECAY, SLOPE_FLAT, clopper_pearson,
                                      decay_verdict, interval_verdict, sizes_to_decide,
                                      tau_decay_verdict)

EPS = 1e-12


@pytest.mark.parametrize("ci, verdict", [
    ((-0.5, SLOPE_DECAY), "holds"),                        # at the threshold: holds (≤)
    ((-0.5, SLOPE_DECAY - EPS), "holds"),                  # just below
    ((-0.5, SLOPE_DECAY + EPS), "inconclusive"),           # just above
    ((SLOPE_FLAT, 0.3), "inconclusive"),                   # at: fails needs strictly above
    ((SLOPE_FLAT + EPS, 0.3), "fails"),
    ((SLOPE_FLAT - EPS, 0.3), "inconclusive"),
    ((-0.8, 0.17), "inconclusive"),                        # straddles both
    (None, "inconclusive"), ((math.nan, math.nan), "inconclusive"),
])
def test_interval_verdict_at_and_around_each_threshold(ci, verdict):
    assert interval_verdict(ci, holds_at_most=SLOPE_DECAY, fails_above=SLOPE_FLAT) == verdict


def _ols_interval(ns, values, conf=CONFIDENCE):
    """The t-interval of the log-log slope from the normal equations (an independent
    reference for loglog_slope_ci)."""
    x, y = np.log(ns), np.log(values)
    X = np.column_stack([np.ones_like(x), x])
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    r = y - X @ beta
    se = math.sqrt(r @ r / (len(x) - 2) / ((x - x.mean()) @ (x - x.mean())))
    half = t_dist.ppf(0.5 + conf / 2, len(x) - 2) * se
    return beta[1], (beta[1] - half, beta[1] + half)


def test_a_point_slope_below_the_threshold_with_a_wide_interval_is_inconclusive():
    """The issue's case: slope ≈ −0.31, interval ≈ [−0.75, +0.14] over n = 100..800, values
    decreasing at every step. The point rule said holds; the interval says inconclusive."""
    ns = np.array([100, 200, 400, 800])
    values = [0.2845, 0.1784, 0.1514, 0.1482]
    slope, ci = _ols_interval(ns, values)
    assert slope < SLOPE_DECAY < ci[1] and np.all(np.diff(values) < 0)
    trend = decay_verdict(ns, values)
    assert trend.verdict == "inconclusive" and trend.decreasing
    assert np.allclose(trend.ci, ci) and math.isclose(trend.slope, slope)
    assert trend.to_decide.startswith("n up to ≈ ")
    rows = [{"n": n, "tau_over_n": v, "isolated_nodes": 0} for n, v in zip(ns, values)]
    assert tau_decay_verdict(rows).verdict == "inconclusive"


def test_sizes_to_decide_is_the_first_grid_whose_interval_excludes_the_threshold():
    ns = np.array([100, 200, 400, 800])
    values = [0.2845, 0.1784, 0.1514, 0.1482]
    n_max, K = sizes_to_decide(ns, values, SLOPE_DECAY)
    slope, ci = _ols_interval(ns, values)
    x, y = np.log(ns), np.log(values)
    resid = y - np.polyval(np.polyfit(x, y, 1), x)
    s = math.sqrt(resid @ resid / 2)

    def half(k):   # half-width on k sizes of the same doubling grid, same residual sd
        xs = np.log(100.0 * 2.0 ** np.arange(k))
        return t_dist.ppf(0.975, k - 2) * s / math.sqrt(((xs - xs.mean()) ** 2).sum())
    assert n_max == 100 * 2 ** (K - 1)
    assert half(K) < abs(slope - SLOPE_DECAY) <= half(K - 1)


def test_at_the_threshold_the_rule_says_holds_at_its_nominal_rate():
    """Simulated log-linear series with slope exactly SLOPE_DECAY and Gaussian scatter (the OLS
    model): 'holds' (interval at or below the threshold) must come out at the nominal one-sided
    rate 2.5%, where the point-slope rule says 'holds' half the time; below the threshold the
    rule finds the decay. Fixed seed: the counts are deterministic."""
    rng = np.random.default_rng(0)
    ns = np.array([100, 200, 400, 800, 1600])
    reps = 4000
    x = np.log(ns) - np.log(ns).mean()
    t = t_dist.ppf(0.975, ns.size - 2)

    def rates(slope):
        # the OLS slope and its t-interval of every replicate at once (the normal equations)
        y = slope * np.log(ns) + rng.normal(0.0, 0.1, (reps, ns.size))
        b = (y - y.mean(axis=1, keepdims=True)) @ x / (x @ x)
        r = y - y.mean(axis=1, keepdims=True) - np.outer(b, x)
        half = t * np.sqrt((r * r).sum(axis=1) / (ns.size - 2) / (x @ x))
        holds = sum(interval_verdict((lo, hi), holds_at_most=SLOPE_DECAY) == "holds"
                    for lo, hi in zip(b - half, b + half))
        return holds, int((b <= SLOPE_DECAY).sum())
    holds, point = rates(SLOPE_DECAY)
    lo, hi = clopper_pearson(holds, reps, conf=0.999)
    assert lo <= 0.025 <= hi                      # the interval rule's error rate: nominal
    assert clopper_pearson(point, reps, conf=0.999)[0] > 0.4   # the point rule's: about half
    found, _ = rates(-0.4)
    assert found / reps > 0.95                    # a clear decay is found


def test_the_summary_of_a_sweep_gives_the_interval_verdict_and_what_would_decide_it():
    from ngc_ref_theory.sweep.summary import tau_verdicts
    values = [0.2845, 0.1784, 0.1514, 0.1482]
    recs = [{"params": {"family": "mine", "n": n, "schedule": "sqrt_n"},
             "result": {"n": n, "tau_over_n": v, "isolated_nodes": 0, "max_degree_share":
                        4.0 / n, "floor": 1.0 / n, "method": "exact"}}
            for n, v in zip((100, 200, 400, 800), values)]
    [(label, verdict, slope, ci, note)] = tau_verdicts(recs)
    assert verdict == "inconclusive" and ci[0] < SLOPE_DECAY < ci[1]
    assert "to decide: n up to" in note
