"""gsd-trace: the appendix's edge-sum form of tr(FᵀL̃F) holds for sym and not for rw (path-3 with
F = e_0: 1/2 against 5/12); agsd-stationarity: Eq. 11 is ∇ρ = 0 only for a symmetric L̃, and for
rw ρ can be unbounded below."""

import numpy as np
import pytest

from ngc_ref_theory.claims import eq1_details as eq

from ._claims import run_claims




def test_trace_verdicts_and_the_hand_checkable_counterexample():
    res = run_claims("gsd-trace")
    assert res["gsd-trace", "sym"].verdict == "holds"
    rw = res["gsd-trace", "rw"]
    assert rw.verdict == "fails" and rw.scope == "as-stated"
    ce = rw.counterexample
    assert ce["graph"]["edges"] == [[0, 1], [1, 2]]
    assert ce["trace"] == pytest.approx(0.5) and ce["appendix_half_double_sum"] == pytest.approx(
        5 / 12)
    assert res["gsd-trace-corrected", "rw"].verdict == "holds"
    regular = {c["graph"] for c in rw.evidence["cases"] if c["rel_diff_half_double_sum"] < 1e-10}
    assert {"ring-8", "complete-6", "isolated-5"} <= regular


def test_stationarity_verdicts():
    res = run_claims("agsd-stationarity")
    assert res["agsd-stationarity", "sym"].verdict == "holds"
    assert res["agsd-stationarity", "rw"].verdict == "fails"
    for norm in ("sym", "rw"):
        assert res["agsd-stationarity-corrected", norm].verdict == "holds"
        assert res["agsd-stationarity", norm].evidence[
            "gradient_vs_central_differences_max_rel_error"] < 1e-6
        assert res["agsd-stationarity", norm].scope == "as-stated"
    assert res["agsd-stationarity:minimum", "sym"].verdict == "holds"
    m = res["agsd-stationarity:minimum", "rw"]
    assert m.verdict == "fails"
    values = list(m.counterexample["rho_along_t_v_e1"].values())
    assert values[-1] < values[-2] < 0                       # ρ → −∞ along the direction


def test_gradient_formula_against_finite_differences():
    rng = np.random.default_rng(1)
    L = rng.standard_normal((6, 6))
    F, X, V = (rng.standard_normal((6, 2)) for _ in range(3))
    g = eq.grad_rho(F, X, L, 3.0, 0.7)
    h = 1e-6
    num = (eq.rho(F + h * V, X, L, 3.0, 0.7) - eq.rho(F - h * V, X, L, 3.0, 0.7)) / (2 * h)
    assert num == pytest.approx(float((g * V).sum()), rel=1e-6)


def test_planted_asymmetric_sym_laplacian_fails(monkeypatch):
    real = eq.dense_laplacian

    def skewed(A, norm):
        L = real(A, norm)
        L[0, -1] += 0.3                                        # no longer symmetric
        return L
    monkeypatch.setattr(eq, "dense_laplacian", skewed)
    res = run_claims("gsd-trace", "agsd-stationarity")
    assert res["gsd-trace", "sym"].verdict == "fails"
    assert res["agsd-stationarity", "sym"].verdict == "fails"
    assert res["agsd-stationarity-corrected", "sym"].verdict == "holds"
