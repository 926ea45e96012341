"""inner-max's judges at their thresholds (hand-made gaps) and its headline numbers against the
Cauchy–Schwarz closed form of the inner maximum, max_{‖δ‖_F ≤ ε} tr(Fᵀ(L̃ + δ)F) =
tr(FᵀL̃F) + ε‖FFᵀ‖_F, written here."""

import numpy as np
import pytest

from ngc_ref_theory._common import EXACT_RTOL
from ngc_ref_theory.claims import inner_max as im

from ._claims import run_claims

UP = np.inf


def test_judge_at_its_thresholds():
    ex, pg = im.EXCESS_TOL, im.PGD_TOL
    assert (ex, pg) == (1e-12, 1e-8)
    assert im.judge(ex, pg) == "holds"                             # ≤ at both thresholds
    assert im.judge(np.nextafter(ex, UP), 0.0) == "fails"          # just above either one
    assert im.judge(0.0, np.nextafter(pg, UP)) == "fails"
    assert im.judge(np.nextafter(ex, -UP), np.nextafter(pg, -UP)) == "holds"
    assert im.judge(-1.0, 0.0) == "holds"                          # δ* strictly better


def test_value_verdict_at_its_threshold():
    assert float(EXACT_RTOL) == 1e-10
    assert im.value_verdict(1e-10) == "holds"
    assert im.value_verdict(np.nextafter(1e-10, UP)) == "fails"
    assert im.value_verdict(np.nextafter(1e-10, -UP)) == "holds"


def _laplacian(A, norm):
    """L̃ = I − Ã of A + I, written here (rw: D̃⁻¹Ã, sym: D̃^{-1/2}ÃD̃^{-1/2})."""
    At = A + np.eye(len(A))
    d = At.sum(axis=1)
    An = At / d[:, None] if norm == "rw" else At / np.sqrt(np.outer(d, d))
    return np.eye(len(A)) - An


def test_closed_form_and_value_gap_against_cauchy_schwarz():
    rng = np.random.default_rng(5)
    A = np.array([[0, 1, 1, 0], [1, 0, 0, 0], [1, 0, 0, 1], [0, 0, 1, 0]], float)
    for norm in ("rw", "sym"):
        L = _laplacian(A, norm)
        F = rng.standard_normal((4, 3))
        for eps in (1e-3, 1.0, 10.0):
            best = float(np.trace(F.T @ L @ F)) + eps * np.linalg.norm(F @ F.T)
            d = im.closed_form(F, eps)
            assert np.linalg.norm(d) == pytest.approx(eps, rel=1e-14, abs=0)
            assert im.objective(F, L, d) == pytest.approx(best, rel=1e-13, abs=0)
            assert im.value_gap(F, L, 32.0, eps) < 1e-14
            # the planted wrong maximiser εFᵀF-shaped (the paper's written pairing) is not it
            D = rng.standard_normal((4, 4))
            assert im.objective(F, L, eps * D / np.linalg.norm(D)) < best


def test_headline_numbers_of_a_run():
    """On every case the excess of a feasible δ over δ* is ≤ 0 up to rounding (Cauchy–Schwarz:
    ⟨δ, FFᵀ⟩ ≤ ε‖FFᵀ‖_F), projected ascent lands on the closed form, and the plugged-in value
    is the same number (exactly equal in real arithmetic)."""
    res = run_claims("inner-max")
    for norm in ("sym", "rw"):
        r = res["inner-max", norm]
        assert r.verdict == "holds"
        ev = r.evidence
        assert ev["max_relative_excess_of_a_random_delta_over_delta_star"] < 0
        assert ev["relative_gap_projected_ascent_vs_delta_star"] < 1e-12
        v = res["inner-max:value", norm]
        assert v.verdict == "holds" and v.evidence["max_relative_difference"] < 1e-13
        assert res["inner-max:dimensions", norm].verdict == "fails"
