import inspect
import math

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from hypothesis import given, strategies as st
from numpy.testing import assert_allclose

from ngc_ref import (NeumannFilter, gsd_solve, neumann_matrix, neumann_order, neumann_propagate,
                     series_mass)
from ngc_ref.strategies import graphs_with_signals, lams, norms, orders

from . import _reference as ref


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(), orders(25), norms())
def test_propagate_matches_dense_series(AX, lam, S, norm):
    A, X = AX
    want = ref.neumann(A, lam, S, norm) @ X
    got = neumann_propagate(A, X, lam, S, norm)
    assert got.shape == X.shape
    assert_allclose(got, want, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(X).max()))


@given(graphs_with_signals(max_nodes=9), lams(), orders(20), norms())
def test_matrix_matches_dense_series(AX, lam, S, norm):
    A, _ = AX
    assert_allclose(neumann_matrix(A, lam, S, norm), ref.neumann(A, lam, S, norm),
                    rtol=1e-10, atol=1e-12)


@given(graphs_with_signals(max_nodes=12, weighted=True), lams(), orders(40))
def test_rw_row_sums_are_one_minus_r_power(AX, lam, S):
    A, _ = AX
    rows = NeumannFilter(A, lam, S, "rw").row_sums()
    r = lam / (lam + 1)
    assert_allclose(rows, 1 - r ** (S + 1), rtol=1e-12)


@given(graphs_with_signals(max_nodes=12, weighted=True), lams(), orders(40))
def test_sym_degree_weighted_row_sums(AX, lam, S):
    # Ã_sym D̃^{1/2} 1 = D̃^{1/2} 1, so Σ_j [Ã_S]_ij sqrt(d̃_j) = (1 − r^{S+1}) sqrt(d̃_i).
    A, _ = AX
    filt = NeumannFilter(A, lam, S, "sym")
    sq = np.sqrt(filt.degrees)
    assert_allclose((filt @ sq).ravel(), series_mass(lam, S) * sq, rtol=1e-11)


def test_sym_plain_row_sums_differ_from_rw_identity():
    # The star graph has unequal degrees: plain row sums of the sym series are not 1 − r^{S+1}.
    A = np.zeros((4, 4))
    A[0, 1:] = A[1:, 0] = 1
    rows = NeumannFilter(A, 2.0, 5, "sym").row_sums()
    assert np.ptp(rows) > 1e-3


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(1e-2, 1e2), orders(30), norms())
def test_truncation_error_within_r_power(AX, lam, S, norm):
    A, _ = AX
    err = neumann_matrix(A, lam, S, norm) - ref.gsd_inverse(A, lam, norm)
    nrm = np.linalg.norm(err, ord=np.inf if norm == "rw" else 2)
    r = lam / (lam + 1)
    assert nrm <= r ** (S + 1) * (1 + 1e-9) + 1e-12


@given(graphs_with_signals(max_nodes=10), lams(1e-2, 20.0), norms())
def test_series_converges_to_gsd_solve(AX, lam, norm):
    A, X = AX
    exact = gsd_solve(A, X, lam, norm, method="dense")
    errs = []
    for S in (0, 5, 20, neumann_order(lam, 1e-12)):
        errs.append(np.linalg.norm(neumann_propagate(A, X, lam, S, norm) - exact))
    floor = 1e-12 * max(1.0, np.linalg.norm(X))   # rounding level of the comparison
    assert all(b <= a + floor for a, b in zip(errs, errs[1:]))   # monotone for these S
    assert errs[-1] <= 1e-10 * max(1.0, np.linalg.norm(X)) * math.sqrt(A.shape[0])


def test_linear_operator_in_scipy_solvers():
    rng = np.random.default_rng(0)
    A = sp.random(60, 60, density=0.1, random_state=1)
    A = ((A + A.T) > 0).astype(float)
    filt = NeumannFilter(A, 3.0, 10, "sym")
    op = filt.as_linear_operator()
    b = rng.standard_normal(60)
    # SciPy < 1.12 calls the relative tolerance "tol" (the declared floor is 1.10).
    tol = "rtol" if "rtol" in inspect.signature(spla.cg).parameters else "tol"
    x, info = spla.cg(op, b, atol=0, **{tol: 1e-12})   # Ã_S (sym) is SPD for r < 1
    assert info == 0
    assert_allclose(filt @ x, b[:, None], atol=1e-9)
    top = spla.eigsh(op, k=1, which="LA", return_eigenvectors=False)[0]
    assert_allclose(top, series_mass(3.0, 10), rtol=1e-9)


@given(graphs_with_signals(max_nodes=9), lams(), orders(12), norms())
def test_adjoint_is_transpose(AX, lam, S, norm):
    A, X = AX
    op = NeumannFilter(A, lam, S, norm).as_linear_operator()
    M = ref.neumann(A, lam, S, norm)
    assert_allclose(op.rmatmat(X), M.T @ X, rtol=1e-10, atol=1e-10 * max(1, np.abs(X).max()))
    assert_allclose(op.matmat(X), M @ X, rtol=1e-10, atol=1e-10 * max(1, np.abs(X).max()))


def test_float32_in_float32_out():
    A = sp.random(30, 30, density=0.2, random_state=0)
    A = A + A.T
    X = np.random.default_rng(0).standard_normal((30, 3))
    H32 = neumann_propagate(A, X.astype(np.float32), 4.0, 8)
    H64 = neumann_propagate(A, X, 4.0, 8)
    assert H32.dtype == np.float32 and H64.dtype == np.float64
    assert_allclose(H32, H64, rtol=1e-5, atol=1e-5)


def test_one_dimensional_signal_and_sparse_features():
    A = np.array([[0, 1.0], [1.0, 0]])
    x = np.array([1.0, 3.0])
    assert neumann_propagate(A, x, 1.0, 3).shape == (2, 1)
    assert_allclose(neumann_propagate(A, sp.csr_array(x[:, None]), 1.0, 3),
                    neumann_propagate(A, x, 1.0, 3))


def test_features_not_modified():
    A = np.array([[0, 1.0], [1.0, 0]])
    X = np.array([[1.0], [2.0]])
    neumann_propagate(A, X, 1.0, 3)
    assert_allclose(X, [[1.0], [2.0]])


def test_matrix_size_guard():
    A = sp.identity(50, format="csr") * 0
    with pytest.raises(ValueError, match="max_nodes=10.*pass max_nodes=50"):
        neumann_matrix(A, 1.0, 2, max_nodes=10)
    assert neumann_matrix(A, 1.0, 2, max_nodes=50).shape == (50, 50)


@given(lams(1e-3, 1e4), st.floats(1e-14, 0.5))
def test_neumann_order_is_smallest(lam, tol):
    S = neumann_order(lam, tol)
    r = lam / (lam + 1)
    assert r ** (S + 1) <= tol * (1 + 1e-12)
    if S > 0:
        assert r ** S > tol * (1 - 1e-12)


def test_series_mass_extreme_lambda():
    # 1 − r^{S+1} with r = 1 − 1/(λ+1): for λ = 1e12, S = 10 it is ≈ 11e-12, not 0.
    assert_allclose(series_mass(1e12, 10), 11e-12, rtol=1e-9)
    assert series_mass(1e20, 3) > 0


@pytest.mark.parametrize("kw, exc, msg", [
    (dict(lam=0.0), ValueError, "lam must be > 0"),
    (dict(lam=-1.0), ValueError, "lam must be > 0"),
    (dict(lam=float("nan")), ValueError, "lam must be > 0 and finite, got nan"),
    (dict(lam=float("inf")), ValueError, "lam must be > 0 and finite, got inf"),
    (dict(lam="1"), TypeError, "lam must be a real number"),
    (dict(S=-1), ValueError, "S must be >= 0"),
    (dict(S=2.0), TypeError, "S must be an integer"),
    (dict(S=2.5), TypeError, "S must be an integer"),
    (dict(S=True), TypeError, "S must be"),
    (dict(norm="lap"), ValueError, "norm must be one of"),
    (dict(X=np.ones((3, 2))), ValueError, r"X must have one row per node: expected 4 rows"),
    (dict(X=np.array([[np.nan]] * 4)), ValueError, "X contains non-finite"),
    (dict(X=np.ones((4, 2, 2))), ValueError, "X must be 1-D or 2-D"),
    (dict(X=np.ones((4, 2), dtype=complex)), TypeError, "X must have a real numeric"),
    (dict(X=None), TypeError, "X must be"),
])
def test_bad_arguments(kw, exc, msg):
    args = dict(A=np.ones((4, 4)), X=np.ones((4, 2)), lam=1.0, S=3, norm="sym")
    args.update(kw)
    with pytest.raises(exc, match=msg):
        neumann_propagate(**args)
