"""gsd-closed-form:gradient-meant: the erratum's meant gradient 2λL̃F + 2(F − X) is the gradient
of q for the symmetric L̃ (sym) and is still not for rw, where it needs λ(L̃ + L̃ᵀ)F; the minimal
rw counterexample is the 3-node path, certified exactly."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.kit.graphs import small_graphs
from ngc_ref_theory.claims import gsd_closed_form as gcf

from . import _reference as ref
from ._claims import claim_fixture


res = claim_fixture("gsd-closed-form")


def test_meant_gradient_holds_for_sym_and_fails_for_rw(res):
    sym, rw = res["gsd-closed-form:gradient-meant", "sym"], res["gsd-closed-form:gradient-meant",
                                                                 "rw"]
    assert sym.verdict == "holds" and sym.scope == "erratum"
    assert rw.verdict == "fails" and rw.scope == "erratum"
    assert "∇q(F) = 2L̃F + 2(F − X)" in rw.scope_reason           # the written words
    assert rw.evidence["meant"] == "∇q(F) = 2λL̃F + 2(F − X)"
    mc = rw.minimal_counterexample
    assert mc["certified"] == "exact" and mc["n"] == 3 and len(mc["edges"]) == 2
    assert rw.counterexample["rerun"]
    # the written gradient (without λ) stays an erratum that fails in both norms
    assert {res["gsd-closed-form:gradient", n].verdict for n in ("sym", "rw")} == {"fails"}


def test_certificate_is_exact_on_the_path():
    # P3 centred at 0: d̃ = (3, 2, 2); L̃_rw,01 = −1/3, L̃_rw,10 = −1/2
    out = gcf.certify_meant_gradient(3, [(0, 1), (0, 2)], 2.0)
    assert out["fails"] and out["exact"]["λ(L̃ − L̃ᵀ)_01"] == str(2 * Fraction(1, 6))
    assert not gcf.certify_meant_gradient(2, [(0, 1)], 2.0)["fails"]    # regular: symmetric


# ---------------------------------------------------------------------------------------------
# the judges at their thresholds and the headline numbers against dense computations written here

UP, DOWN = np.inf, -np.inf
T = 1e-10                                                  # EXACT_RTOL


def _w(grad=0.0, drop=0.0, curv=1.0):
    return {"grad_rel": grad, "worst_relative_drop": drop, "min_curvature": curv}


def test_ok_at_its_thresholds():
    assert gcf._ok(_w(T, T, 1e-300))                              # ≤ tol, curvature > 0
    assert not gcf._ok(_w(np.nextafter(T, UP)))
    assert not gcf._ok(_w(drop=np.nextafter(T, UP)))
    assert not gcf._ok(_w(curv=0.0))                               # a flat direction: no minimum
    assert gcf._ok(_w(np.nextafter(T, DOWN), np.nextafter(T, DOWN)))


def _cells(L, lam):
    """A one-case stack of the atlas's cells (what the vectorised tests read: L̃, λ, n)."""
    L = np.asarray(L, float)[None]
    n = L.shape[1]
    return SimpleNamespace(laplacian=L, lam=np.array([lam]), n=n)


def test_atlas_gradient_tests_at_their_thresholds():
    """paper − true = (2L̃ − λ(L̃ + L̃ᵀ))F is L̃ − L̃ᵀ at λ = 1 and counts above EXACT_RTOL·(1 + λ)
    = 2e-10 there; meant − true = λ(L̃ − L̃ᵀ)F likewise."""
    def one(x):
        return np.array([[0.0, x], [0.0, 0.0]])
    S = np.array([[0.5, -0.5], [-0.5, 0.5]])
    assert not gcf._gradient_test(_cells(S, 1.0))[0][0]
    bad, D = gcf._gradient_test(_cells(one(2 * T), 1.0))
    assert D[0] == 2 * T and not bad[0]                            # at the threshold: passes
    assert gcf._gradient_test(_cells(one(np.nextafter(2 * T, UP)), 1.0))[0][0]
    assert not gcf._meant_gradient_test(_cells(S, 5.0))[0][0]
    assert not gcf._meant_gradient_test(_cells(one(2 * T), 1.0))[0][0]
    assert gcf._meant_gradient_test(_cells(one(np.nextafter(2 * T, UP)), 1.0))[0][0]


def test_outside_test_at_its_threshold():
    """Not positive definite ⟺ λ_min(I + λ(L̃ + L̃ᵀ)/2) ≤ 1e-12: L̃ = −(1 − c)I at λ = 1 gives
    λ_min = c up to 1e-16 (exactly 1e-12 is not reachable as 1 − (1 − c): ≤ and < agree)."""
    for c, outside in ((0.99e-12, True), (1.01e-12, False), (0.0, True), (-1.0, True),
                       (0.5, False)):
        bad, ratio = gcf._outside_test(_cells(-(1 - c) * np.eye(2), 1.0))
        assert bad[0] == outside and ratio[0] == pytest.approx(-c, abs=1e-15)


def _rw_laplacian(A):
    At = np.asarray(A, float) + np.eye(len(A))
    return np.eye(len(A)) - At / At.sum(axis=1)[:, None]


def test_rw_minimal_counterexamples_against_dense_numbers(res):
    """The 3-node path centred at 0 (atlas G6), λ = 1, X = I: ∇q at (I + L̃)⁻¹ has
    ‖∇q‖_F² = 23/338, ∇q_00 = −1/13, and q there exceeds min q (at (I + (L̃ + L̃ᵀ)/2)⁻¹) by
    19/2015; the same path has no minimiser beyond λ* = −1/λ_min((L̃ + L̃ᵀ)/2) = 42 + 6√51."""
    P3 = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]])
    L = _rw_laplacian(P3)
    I = np.eye(3)

    def q(F):
        return float(((F - I) ** 2).sum() + np.trace(F.T @ L @ F))
    F = np.linalg.inv(I + L)
    grad = 2 * (F - I) + (L + L.T) @ F
    mc = res["gsd-closed-form", "rw"].minimal_counterexample
    assert (mc["atlas_index"], mc["lam"]) == (6, 1.0)
    assert float(Fraction(mc["exact"]["‖∇q(F)‖_F²"])) == pytest.approx((grad ** 2).sum(),
                                                                        rel=1e-12, abs=0)
    assert (grad ** 2).sum() == pytest.approx(23 / 338, rel=1e-12, abs=0)
    assert float(Fraction(mc["exact"]["∇q(F)_00"])) == pytest.approx(grad[0, 0], rel=1e-12, abs=0)
    gap = q(F) - q(np.linalg.inv(I + (L + L.T) / 2))
    assert mc["exact"]["q((I+λL̃)⁻¹) − min q"].startswith("19/2015")
    assert gap == pytest.approx(19 / 2015, rel=1e-10)
    lam_star = -1 / np.linalg.eigvalsh((L + L.T) / 2)[0]
    assert lam_star == pytest.approx(42 + 6 * np.sqrt(51), rel=1e-12, abs=0)
    out = res["gsd-closed-form-corrected", "rw"].evidence["outside_the_hypothesis_atlas"]
    lo, hi = (float(x) for x in out["minimal"]["exact"][
        "λ* (positive definite below, not at or above)"][4:-1].split(", "))
    assert lo <= lam_star <= hi and hi - lo < 1e-6
    # K2 at λ = 2 (the gradient erratum's minimal case): 2L̃ − λ(L̃ + L̃ᵀ) = −2L̃, entry 00 = −1
    for norm in ("sym", "rw"):
        ex = res["gsd-closed-form:gradient", norm].minimal_counterexample["exact"]
        assert ex["(2L̃ − λ(L̃ + L̃ᵀ))_00"] == "-1" and ex["L̃_00"] == "1/2"


def _sampled_worst(norm, key, paper_minus_true):
    """The sampled search of the gradient statements done here, densely: on the checker's small
    graphs (the input, in its order) and λ ∈ {0.5, 1, 32}, X, F ~ N(0, 1) of shape (n, 3) drawn
    together from the stream the claim documents, ``ctx.rng(ID, norm, key)`` at seed 0; the
    relative difference of a gradient formula from the true gradient 2(F − X) + λ(L̃ + L̃ᵀ)F of
    q, with L̃ = I − Ã from tests/_reference and the difference (formula − true) as its own
    closed form ``paper_minus_true(L̃, λ)`` @ F. Returns (largest, graph name, λ)."""
    ctx = Context(seed=0)
    rng = ctx.rng("gsd-closed-form", norm, key)
    worst = (-1.0, None, None)
    for name, A in small_graphs(ctx).items():
        L = np.eye(A.shape[0]) - ref.norm_adj(A, norm)
        for lam in (0.5, 1.0, 32.0):
            X, F = rng.standard_normal((2, A.shape[0], 3))
            true = 2 * F - 2 * X + lam * (L @ F) + lam * (L.T @ F)
            rel = np.linalg.norm(paper_minus_true(L, lam) @ F) / np.linalg.norm(true)
            if rel > worst[0]:
                worst = (rel, name, lam)
    return worst


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_sampled_gradient_differences_against_a_dense_computation(res, norm):
    """The headline number of the gradient statements (``max_relative_difference``) and where
    it is reached, recomputed: Sec. 2's 2L̃F + 2(F − X) is off the true gradient by
    (2L̃ − λ(L̃ + L̃ᵀ))F; the meant 2λL̃F + 2(F − X) by λ(L̃ − L̃ᵀ)F, zero for the symmetric
    L̃_sym up to rounding."""
    rel, name, lam = _sampled_worst(norm, "gradient", lambda L, lam: 2 * L - lam * (L + L.T))
    r = res["gsd-closed-form:gradient", norm]
    assert r.evidence["max_relative_difference"] == pytest.approx(rel, rel=1e-12, abs=0)
    assert rel > 0.5                                # far from 0: the erratum is no rounding
    ce = r.counterexample
    assert (ce["graph"]["name"], ce["lam"]) == (name, lam)
    assert ce["relative_difference"] == r.evidence["max_relative_difference"]
    assert f"at λ={lam:g} ({name})" in r.summary
    rel, name, lam = _sampled_worst(norm, "gradient-meant", lambda L, lam: lam * (L - L.T))
    r = res["gsd-closed-form:gradient-meant", norm]
    if norm == "sym":
        assert rel <= 1e-15 and r.evidence["max_relative_difference"] <= 1e-15
    else:
        assert r.evidence["max_relative_difference"] == pytest.approx(rel, rel=1e-12, abs=0)
        assert rel > 0.1 and f"at λ={lam:g} ({name})" in r.summary
