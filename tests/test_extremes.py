"""Numerical extremes are right, not just survived: huge and tiny λ with long series, float32,
and a star with a million leaves, against closed forms and dense references."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

import ngc_ref
from ngc_ref import graphs


@pytest.mark.parametrize("lam,S", [(1e12, 10_000), (1e-12, 10_000), (1e6, 0), (1.0, 10_000)])
def test_extreme_lam_and_S_match_dense_and_keep_the_identity_term(lam, S):
    A = graphs.ring(50)
    X = np.random.default_rng(0).standard_normal((50, 3))
    H = ngc_ref.neumann_propagate(A, X, lam, S, norm="rw")
    dense = ngc_ref.neumann_matrix(A, lam, S, norm="rw") @ X
    assert np.allclose(H, dense, rtol=1e-10, atol=1e-14 * np.abs(dense).max())
    # rw rows sum to 1 − r^{S+1} (Eq. 6), computed without cancellation by series_mass.
    ones = ngc_ref.neumann_propagate(A, np.ones(50), lam, S, norm="rw")
    assert np.allclose(ones, ngc_ref.series_mass(lam, S), rtol=1e-10, atol=0)
    # The s = 0 term X/(λ+1) is never lost, even when r^s underflows or r ≈ 1.
    if S == 0:
        assert np.allclose(H, X / (lam + 1), rtol=1e-15)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_float32_error_against_float64(norm):
    A = graphs.erdos_renyi(300, 0.03, seed=1)
    X = np.random.default_rng(1).standard_normal((300, 4))
    h64 = ngc_ref.neumann_propagate(A, X, 32, 64, norm=norm)
    h32 = ngc_ref.neumann_propagate(A, X.astype(np.float32), 32, 64, norm=norm)
    assert h32.dtype == np.float32
    # Achievable accuracy in float32: a few units of eps32 (1.2e-7) per product, 65 products.
    rel = np.abs(h32 - h64).max() / np.abs(h64).max()
    assert rel < 65 * 4 * np.finfo(np.float32).eps


@pytest.mark.slow
def test_star_with_a_million_leaves():
    A = graphs.star(1_000_001)
    mass = ngc_ref.series_mass(32, 16)
    H = ngc_ref.neumann_propagate(A, np.ones((A.shape[0], 1)), 32, 16, norm="rw")
    # Rounding bound: each product sums up to d_max = 10⁶ terms (relative error ≤ d_max·eps),
    # over S = 16 products. Measured: 1.2e-11.
    assert np.allclose(H, mass, rtol=16 * 1e6 * np.finfo(float).eps, atol=0)
    # τ of the centre and two leaves, exactly, without touching the other 999,998 rows.
    res = ngc_ref.connectivity_factor(A, 32, 16, norm="rw", nodes=[0, 1, 2])
    # Leaves are interchangeable; their τ_i sum 10⁶ squares, so they agree to the same rounding
    # bound as above (the threaded blocks round the two leaves differently: measured 7.6e-12).
    assert res.tau_i.shape == (3,)
    assert res.tau_i[1] == pytest.approx(res.tau_i[2], rel=16 * 1e6 * np.finfo(float).eps)
    assert 1 <= res.tau_i.min() and res.tau_i.max() <= A.shape[0]
    F = ngc_ref.gsd_solve(A, np.ones((A.shape[0], 1)), 32, norm="rw", method="cg", rtol=1e-10)
    assert np.allclose(F, 1.0, rtol=1e-8)   # (I + λL̃_rw)·1 = 1: constants are fixed points


def test_dense_guard_says_how_much_memory_and_what_to_do():
    with pytest.raises(ValueError, match=r"GiB.*max_nodes=.*sparse") as info:
        ngc_ref.neumann_matrix(graphs.ring(6000), 1.0, 2)
    assert "6000 x 6000" in str(info.value)


def test_float32_warns_when_its_error_would_exceed_1e3():
    # The float32 Horner series loses about eps32 per effective term, and there are
    # Σ_{s<=S} r^s = (λ+1)(1 − r^{S+1}) of them: 2.3e-2 measured at λ = 1e6, S = 3e6.
    A = graphs.ring(20)
    X = np.random.default_rng(0).standard_normal((20, 2)).astype(np.float32)
    with pytest.warns(UserWarning, match="float32.*float64"):
        H = ngc_ref.neumann_propagate(A, X, 1e6, 20_000)
    assert H.dtype == np.float32
    with pytest.warns(UserWarning, match="float32.*float64"):
        ngc_ref.robust_propagate(A, X, 1e6, 20_000, 0.1)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ngc_ref.neumann_propagate(A, X, 32.0, 64)                # ~33 terms: 4e-6, no warning
        ngc_ref.neumann_propagate(A, X.astype(float), 1e6, 20_000)   # float64: no warning
        ngc_ref.gsd_solve(A, X, 1e6)       # solved in float64: only the final rounding to float32


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_weights_near_the_float_maximum(norm):
    # Degrees of weights ~1e308 overflow; the normalised adjacency of the path with weights w
    # tends to [.5, 0, .5] in the middle row (rw) as w → ∞. Before: 0 instead of 0.5.
    w = 1e308
    A = sp.csr_array(np.array([[0, w, 0], [w, 0, w], [0, w, 0]]))
    An = ngc_ref.normalized_adjacency(A, norm=norm).toarray()
    scaled = sp.csr_array(A / 2.0**1023)
    # Reference: the same Ã with the weights and the self-loop scaled alike, 2^-1023 each.
    At = scaled.toarray() + 2.0**-1023 * np.eye(3)
    d = At.sum(axis=1)
    want = At / np.sqrt(np.outer(d, d)) if norm == "sym" else At / d[:, None]
    assert_allclose(An, want, rtol=1e-14, atol=0)
    if norm == "rw":
        assert_allclose(An[1], [0.5, 0.0, 0.5], atol=1e-300)
    X = np.array([[1.0], [2.0], [4.0]])
    H = ngc_ref.neumann_propagate(A, X, 2.0, 3, norm=norm)
    assert_allclose(H, ref_neumann(want, 2.0, 3) @ X, rtol=1e-13)
    F = ngc_ref.gsd_solve(A, X, 2.0, norm=norm)
    assert_allclose(F, np.linalg.solve(np.eye(3) + 2.0 * (np.eye(3) - want), X), rtol=1e-12)
    # The degrees themselves are not representable: asking for them is refused, naming A.
    with pytest.raises(ValueError, match=r"\bA\b.*overflow"):
        ngc_ref.normalized_adjacency(A, norm=norm, return_degrees=True)


def ref_neumann(An, lam, S):
    r = lam / (lam + 1)
    return sum(np.linalg.matrix_power(r * An, s) for s in range(S + 1)) / (lam + 1)


@pytest.mark.parametrize("lam", [1e-17, 1e-200, 5e-324])
def test_tiny_lam(lam):
    # Ã_S → I/(λ+1) as λ → 0; before: "math domain error" from log1p(-1/(λ+1)) = log1p(-1).
    r = lam / (lam + 1)
    assert ngc_ref.series_mass(lam, 4) == pytest.approx(1 - r**5, rel=1e-15)
    assert ngc_ref.series_mass(lam, 0) == pytest.approx(1 / (1 + lam), rel=1e-15)
    assert ngc_ref.neumann_order(lam, 1e-6) == 0
    S = ngc_ref.neumann_order(lam, 1e-300)        # smallest S with r^(S+1) <= 1e-300
    log_r = math.log(lam) - math.log1p(lam)
    assert (S + 1) * log_r <= math.log(1e-300) and (S == 0 or S * log_r > math.log(1e-300))
    res = ngc_ref.connectivity_factor(graphs.ring(6), lam, 4)
    assert_allclose(res.tau_i, 6.0, rtol=1e-12)   # Ã_S ≈ I/(λ+1): τ_i = n·1/1
    assert_allclose(res.row_sums, 1 - r**5, rtol=1e-15)


def test_tiny_lam_series_mass_accuracy():
    # 1 − r^{S+1} with r = λ/(λ+1) for λ = 1e-8, S = 1: r² ≈ 1e-16 must not be lost.
    lam = 1e-8
    r = lam / (lam + 1)
    assert ngc_ref.series_mass(lam, 1) == pytest.approx(1 - r * r, rel=1e-16)


def test_noise_too_large_for_float32_names_the_noise_scale():
    from ngc_ref import noise
    X = np.ones((4, 3), dtype=np.float32)
    with pytest.raises(ValueError, match=r"\bxi\b.*float32"):
        noise.gaussian_noise(X, 1e200, seed=0)
    with pytest.raises(ValueError, match=r"\blevel\b.*float32"):
        noise.corrupt(X, "gaussian", 1e200, seed=0)
    with pytest.raises(ValueError, match=r"\bscale\b.*float32"):
        noise.add_subgaussian_noise(X, "uniform", 1e200, seed=0)
    with pytest.raises(ValueError, match=r"\bxi\b.*float64"):
        noise.gaussian_noise(np.ones((100, 3)), 1e308, seed=0)   # |η| > 1.8 somewhere
    # Representable noise still goes through.
    assert np.isfinite(noise.gaussian_noise(X, 1e30, seed=0)).all()


def test_least_squares_with_no_features_and_huge_targets():
    # Z with no columns: W is empty and the objective is ‖Y‖² = 1e598, not representable.
    # Before: an overflow RuntimeWarning (an error under this test configuration).
    from ngc_ref import training
    with pytest.raises(ValueError, match=r"\bY\b"):
        training.least_squares(np.zeros((1, 0)), np.array([[1e299]]))
    res = training.least_squares(np.zeros((2, 0)), np.array([[3.0], [4.0]]))
    assert res.W.shape == (0, 1) and res.objective == 25.0


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_tau_of_a_float32_graph_is_computed_in_float64(norm):
    # τ is a measurement of the paper's theory: a float32 adjacency (its weights read exactly)
    # must not put float32 rounding into it. Before: rows of Ã_rw rounded to float32 sum to
    # 1 − 6e-8, and over S = 10⁴ steps τ_i fell to 0.99985 < 1, against Remark 1.
    A32 = sp.csr_array(np.array([[0, 0.3, 0], [0.3, 0, 0.7], [0, 0.7, 0]], dtype=np.float32))
    got = ngc_ref.connectivity_factor(A32, 1e6, 10_000, norm=norm)
    want = ngc_ref.connectivity_factor(A32.astype(np.float64), 1e6, 10_000, norm=norm)
    assert_allclose(got.tau_i, want.tau_i, rtol=1e-12)
    assert_allclose(got.row_sums, want.row_sums, rtol=1e-12)
    if norm == "rw":
        assert np.all(got.tau_i >= 1 - 1e-9)
