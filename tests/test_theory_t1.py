"""Tests of the theorem-1 and denoising-accuracy checks: each judge on numbers whose answer is
known by construction (a planted violation must be reported ``fails``, a planted compliant case
``holds``), plus one fast end-to-end run of each check."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from ngc_ref import connectivity_factor
from ngc_ref_theory import Context
from ngc_ref_theory._core import Result
from ngc_ref_theory.claims import denoising_accuracy as da
from ngc_ref_theory.claims import theorem_1 as t1

# ---------------------------------------------------------------------------------------------
# theorem-1


def test_envelope_exponent_recovers_planted_power_laws():
    k = np.arange(0, 1001)
    for p in (0.5, 1.0, 2.0):
        env = np.where(k > 0, 3.0 * np.maximum(k, 1) ** -p, 3.0)
        slope, points, k_end = t1.envelope_exponent(k, env, g_star=0.0)
        assert abs(slope + p) < 1e-9 and points >= 4 and k_end == 1000


def test_envelope_exponent_stops_at_rounding():
    k = np.arange(0, 201)
    env = 0.5 ** k                    # reaches 1e-9 at k ≈ 30
    slope, points, k_end = t1.envelope_exponent(k, env, g_star=0.0)
    assert k_end < 40 and slope < -1.0


@pytest.mark.parametrize("slopes, expected", [
    ([-2.1, -1.9, -2.0, -2.2], "holds"),       # faster than 1/k
    ([-0.5, -0.45, -0.55, -0.5], "fails"),     # planted: slower than 1/k
    ([-1.5, -0.5, -1.2, -0.7], "inconclusive"),
])
def test_judge_exponents(slopes, expected):
    assert t1.judge_exponents(slopes)[0] == expected


def _floor_case(floor_of_n, reps=3, seed=0):
    rng = np.random.default_rng(seed)
    ns = [200, 400, 800, 1600, 3200]
    tln = [4.0 * math.log(n) / n for n in ns]            # τ = 4: τ log n / n decreasing
    floors = [floor_of_n(n, t) * math.exp(0.05 * rng.standard_normal()) for n, t in zip(ns, tln)]
    return ns, floors, tln


def test_judge_floor_planted_linear_floor_fails():
    ns, floors, tln = _floor_case(lambda n, t: 0.05 * n)
    verdict, slope, ci = t1.judge_floor(ns, floors, tln)
    assert verdict == "fails" and ci[0] > 0 and abs(slope - (1 + 1 - 0.2)) < 0.5


def test_judge_floor_within_the_stated_form_holds():
    ns, floors, tln = _floor_case(lambda n, t: 7.0 * t / n**0.3)
    assert t1.judge_floor(ns, floors, tln)[0] == "holds"


def test_judge_floor_rejects_zero_floor():
    with pytest.raises(ValueError, match="positive"):
        t1.judge_floor([100, 200, 400], [1.0, 0.0, 2.0], [0.1, 0.1, 0.1])


def _rows(floor_of_n):
    rows = []
    for n in (200, 400, 800, 1600):
        t = 4.0 * math.log(n) / n
        floor = floor_of_n(n, t)
        k = np.arange(0, 11)
        opt = np.where(k > 0, 100.0 / np.maximum(k, 1), np.inf)
        rows.append({"n": n, "floor": floor, "tau_log_n_over_n": t, "k": k,
                     "g_gap": np.full(11, floor), "opt_term": opt})
    return rows


def test_fitted_constant_violation_found_for_growing_floor():
    C2, row, k, meas, bound = t1.fitted_constant_violation(_rows(lambda n, t: 0.05 * n))
    # C2 fitted on n ≤ 400, then at n = 1600: 80 > 10 + C2 · τ log n / n.
    assert row["n"] == 1600 and k == 10 and meas > bound
    assert math.isclose(bound, 10.0 + C2 * row["tau_log_n_over_n"])


def test_fitted_constant_no_violation_when_floor_is_the_stated_term():
    C2, row, k, meas, bound = t1.fitted_constant_violation(_rows(lambda n, t: 50.0 * t))
    assert math.isclose(C2, 50.0) and meas <= bound


def _small_run(n, sigma, norm="rw", steps=300):
    data = t1.draw_graph(n, 7)
    tau = connectivity_factor(data.adjacency, t1.LAM, t1.S, norm=norm).tau
    eta = sigma * np.random.default_rng(3).standard_normal((n, t1.D))
    return t1.run_one(data, eta, norm, tau, steps)


@pytest.mark.parametrize("norm", ["rw", "sym"])
def test_run_one_exact_inequalities_hold(norm):
    r = _small_run(120, 1.0, norm)
    assert r["a_max_slack"] <= t1.EXACT_RTOL * r["scale"]
    assert r["corr_max_slack"] <= t1.EXACT_RTOL * r["scale"]
    assert r["closed_form_holds"] and r["floor"] > 0
    # Planted: without the noise terms the bound is violated once GD has converged.
    assert r["g_gap"][-1] > r["opt_term"][-1]


def test_run_one_without_noise_has_no_floor():
    """η = 0: f = g, W_f* = W_g*, so the floor is 0 and (a) is the classical GD bound on g."""
    r = _small_run(120, 0.0)
    assert abs(r["floor"]) <= 1e-9 * r["scale"]
    assert np.all(r["g_gap"][1:] <= r["opt_term"][1:] + 1e-9 * r["scale"])


def test_theorem_1_check_end_to_end(monkeypatch):
    monkeypatch.setattr(t1, "design", lambda ctx: ((100, 200, 400), (2, 1, 1), 2, 300))
    out = t1.check(Context(seed=0), "rw")
    assert [r.id for r in out] == ["theorem-1:a", "theorem-1:b", "theorem-1:c",
                                   "theorem-1-corrected"]
    assert all(isinstance(r, Result) for r in out)
    assert out[0].verdict == "holds" and out[3].verdict == "holds"
    for r in out:
        assert (r.verdict == "fails") == (r.counterexample is not None)


# ---------------------------------------------------------------------------------------------
# denoising-accuracy


def _acc(ngc, raw, mlp, runs=4, sd=0.005, seed=0):
    rng = np.random.default_rng(seed)
    return {m: np.clip(np.asarray(v)[None, :] + sd * rng.standard_normal((runs, len(v))), 0, 1)
            for m, v in (("ngc", ngc), ("raw", raw), ("mlp", mlp))}


LEVELS = (0.1, 0.3, 0.5)


def test_judge_beats_holds_when_ngc_is_clearly_better():
    acc = _acc([0.8, 0.75, 0.7], [0.5, 0.3, 0.2], [0.55, 0.35, 0.2])
    v, rows, _ = da.judge_beats(acc, LEVELS)
    assert v == "holds" and len(rows) == 6


def test_judge_beats_planted_loss_at_one_level_fails():
    acc = _acc([0.8, 0.75, 0.3], [0.5, 0.3, 0.2], [0.55, 0.35, 0.6])
    v, _, worst = da.judge_beats(acc, LEVELS)
    assert v == "fails" and worst["baseline"] == "mlp" and worst["level"] == 0.5


def test_judge_beats_tie_is_inconclusive():
    acc = _acc([0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], sd=0.02)
    assert da.judge_beats(acc, LEVELS)[0] == "inconclusive"


def test_judge_slower():
    slow = _acc([0.8, 0.75, 0.7], [0.6, 0.4, 0.2], [0.6, 0.4, 0.25])
    assert da.judge_slower(slow, LEVELS, n_classes=7)[0] == "holds"
    # Planted: the baselines sit at chance (cannot drop), NGC drops 30 points.
    fast = _acc([0.8, 0.65, 0.5], [0.15, 0.15, 0.15], [0.15, 0.14, 0.15])
    v, _, w = da.judge_slower(fast, LEVELS, n_classes=7)
    assert v == "fails" and w["drop_ngc"] > 0.25


def test_accuracy_table_reads_records():
    recs = [{"model": m, "run": r, "level": lv, "test_acc": 0.1 * r + lv + (m == "ngc")}
            for m in da.MODELS for r in range(2) for lv in LEVELS]
    res = SimpleNamespace(records=recs, settings={"runs": 2})
    acc = da.accuracy_table(res, LEVELS)
    assert acc["ngc"].shape == (2, 3) and acc["raw"][1, 2] == pytest.approx(0.6)
    assert acc["ngc"][0, 0] == pytest.approx(1.1)


def test_denoising_accuracy_check_end_to_end(monkeypatch):
    monkeypatch.setattr(da, "CSBM_LEVELS", (0.5, 4.0))
    out = da.check(Context(seed=0), "sym")      # no data root: the synthetic setting only
    assert [r.id for r in out] == ["denoising-accuracy:i:csbm-gaussian",
                                   "denoising-accuracy:ii:csbm-gaussian"]
    assert out[0].evidence["levels"] == [0.5, 4.0]
    # Known case: at ξ = 0.5 and 4 on this CSBM, aggregation separates the classes far better.
    assert out[0].verdict == "holds"
    for r in out:
        assert (r.verdict == "fails") == (r.counterexample is not None)
