import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from numpy.testing import assert_allclose

from ngc_ref import ConvergenceWarning, gsd_solve
from ngc_ref.strategies import graphs_with_signals, lams, norms

from . import _reference as ref


def _random_graph(n, avg_deg, seed):
    rng = np.random.default_rng(seed)
    m = n * avg_deg // 2
    i, j = rng.integers(0, n, m), rng.integers(0, n, m)
    A = sp.coo_array((np.ones(m), (i, j)), shape=(n, n)).tocsr()
    A = ((A + A.T) > 0).astype(float)
    A.setdiag(0)
    A.eliminate_zeros()
    return A


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(), norms())
def test_methods_agree_with_numpy_solve(AX, lam, norm):
    A, X = AX
    eye = np.eye(A.shape[0])
    want = np.linalg.solve(eye + lam * (eye - ref.norm_adj(A, norm)), X)
    scale = max(1.0, np.abs(X).max())
    for method in ("dense", "direct", "cg", "auto"):
        F, info = gsd_solve(A, X, lam, norm, method=method, rtol=1e-12, return_info=True)
        assert info.converged
        assert_allclose(F, want, rtol=1e-9, atol=1e-9 * scale, err_msg=method)
        assert info.residual <= 1e-9


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(), norms())
def test_closed_form_is_stationary_point_of_gsd_objective(AX, lam, norm):
    # ∇q(F) = 2(F − X) + 2λ L̃ F = 0 at F = (I + λL̃)⁻¹X (paper Eq. 2, L̃ as written).
    A, X = AX
    F = gsd_solve(A, X, lam, norm, method="direct")
    L = np.eye(A.shape[0]) - ref.norm_adj(A, norm)
    grad = 2 * (F - X) + 2 * lam * L @ F
    assert np.abs(grad).max() <= 1e-9 * max(1.0, lam) * max(1.0, np.abs(X).max())


def test_cg_on_larger_graph_reports_iterations_and_residual():
    A = _random_graph(3000, 8, 0)
    X = np.random.default_rng(1).standard_normal((3000, 4))
    for norm in ("sym", "rw"):
        F_cg, info = gsd_solve(A, X, 32.0, norm, method="cg", rtol=1e-10, return_info=True)
        F_lu = gsd_solve(A, X, 32.0, norm, method="direct")
        assert info.converged and 0 < info.iterations < 300
        assert len(info.residual_history) == info.iterations
        assert info.residual_history[-1] <= 1e-10
        assert info.residual <= 1e-8
        assert_allclose(F_cg, F_lu, rtol=1e-7, atol=1e-8)


def test_cg_iterations_grow_with_lambda():
    A = _random_graph(2000, 6, 2)
    X = np.random.default_rng(3).standard_normal((2000, 2))
    its = [gsd_solve(A, X, lam, "sym", method="cg", rtol=1e-8, return_info=True)[1].iterations
           for lam in (1.0, 100.0)]
    assert its[0] < its[1]


def test_nonconvergence_warns_and_says_so():
    A = _random_graph(500, 6, 4)
    X = np.random.default_rng(5).standard_normal((500, 2))
    with pytest.warns(ConvergenceWarning, match="did not reach rtol"):
        F, info = gsd_solve(A, X, 100.0, method="cg", rtol=1e-12, maxiter=2, return_info=True)
    assert not info.converged and info.iterations == 2


def test_zero_columns_and_float32():
    A = _random_graph(100, 4, 6)
    X = np.zeros((100, 2), dtype=np.float32)
    X[:, 1] = 1.0
    F, info = gsd_solve(A, X, 5.0, "rw", method="cg", return_info=True)
    assert F.dtype == np.float32 and info.converged
    assert_allclose(F[:, 0], 0.0)
    assert_allclose(F[:, 1], 1.0, rtol=1e-6)   # constants are fixed points for rw


def test_dense_guard_and_bad_options():
    A = _random_graph(100, 4, 7)
    X = np.ones((100, 1))
    with pytest.raises(ValueError, match="max_nodes"):
        gsd_solve(A, X, 1.0, method="dense", max_nodes=50)
    with pytest.raises(ValueError, match="method must be one of 'auto', 'cg', 'direct', 'dense'"):
        gsd_solve(A, X, 1.0, method="chol")
    with pytest.raises(ValueError, match="rtol must be >= 0"):
        gsd_solve(A, X, 1.0, rtol=-1)
    with pytest.raises(ValueError, match="both be 0"):
        gsd_solve(A, X, 1.0, rtol=0.0)
    with pytest.raises(ValueError, match="lam must be > 0"):
        gsd_solve(A, X, 0.0)


def test_input_untouched():
    A = _random_graph(50, 4, 8)
    A0 = A.copy()
    X = np.random.default_rng(0).standard_normal((50, 2))
    X0 = X.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gsd_solve(A, X, 3.0, method="cg")
    assert_allclose(X, X0)
    assert (A != A0).nnz == 0
