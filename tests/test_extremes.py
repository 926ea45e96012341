"""Numerical extremes are right, not just survived: huge and tiny λ with long series, float32,
and a star with a million leaves, against closed forms and dense references."""

import numpy as np
import pytest

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
