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
from ._spy import record_calls


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(), orders(25), norms())
def test_propagate_matches_dense_series(AX, lam, S, norm):
    A, X = AX
    want = ref.neumann(A, lam, S, norm) @ X
    got = neumann_propagate(A, X, lam, S, norm=norm)
    assert got.shape == X.shape
    assert_allclose(got, want, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(X).max()))


@given(graphs_with_signals(max_nodes=9), lams(), orders(20), norms())
def test_matrix_matches_dense_series(AX, lam, S, norm):
    A, _ = AX
    assert_allclose(neumann_matrix(A, lam, S, norm=norm), ref.neumann(A, lam, S, norm),
                    rtol=1e-10, atol=1e-12)


@given(graphs_with_signals(max_nodes=12, weighted=True), lams(), orders(40))
def test_rw_row_sums_are_one_minus_r_power(AX, lam, S):
    A, _ = AX
    rows = NeumannFilter(A, lam, S, norm="rw").row_sums()
    r = lam / (lam + 1)
    assert_allclose(rows, 1 - r ** (S + 1), rtol=1e-12)


@given(graphs_with_signals(max_nodes=12, weighted=True), lams(), orders(40))
def test_sym_degree_weighted_row_sums(AX, lam, S):
    # Ã_sym D̃^{1/2} 1 = D̃^{1/2} 1, so Σ_j [Ã_S]_ij sqrt(d̃_j) = (1 − r^{S+1}) sqrt(d̃_i).
    A, _ = AX
    filt = NeumannFilter(A, lam, S, norm="sym")
    sq = np.sqrt(filt.degrees)
    assert_allclose((filt @ sq).ravel(), series_mass(lam, S) * sq, rtol=1e-11)


def test_sym_plain_row_sums_differ_from_rw_identity():
    # The star graph has unequal degrees: plain row sums of the sym series are not 1 − r^{S+1}.
    A = np.zeros((4, 4))
    A[0, 1:] = A[1:, 0] = 1
    rows = NeumannFilter(A, 2.0, 5, norm="sym").row_sums()
    assert np.ptp(rows) > 1e-3


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(1e-2, 1e2), orders(30), norms())
def test_truncation_error_within_r_power(AX, lam, S, norm):
    A, _ = AX
    err = neumann_matrix(A, lam, S, norm=norm) - ref.gsd_inverse(A, lam, norm)
    nrm = np.linalg.norm(err, ord=np.inf if norm == "rw" else 2)
    r = lam / (lam + 1)
    assert nrm <= r ** (S + 1) * (1 + 1e-9) + 1e-12


@given(graphs_with_signals(max_nodes=10), lams(1e-2, 20.0), norms())
def test_series_converges_to_gsd_solve(AX, lam, norm):
    A, X = AX
    exact = gsd_solve(A, X, lam, norm=norm, method="dense")
    errs = []
    for S in (0, 5, 20, neumann_order(lam, 1e-12)):
        errs.append(np.linalg.norm(neumann_propagate(A, X, lam, S, norm=norm) - exact))
    floor = 1e-12 * max(1.0, np.linalg.norm(X))   # rounding level of the comparison
    assert all(b <= a + floor for a, b in zip(errs, errs[1:]))   # monotone for these S
    assert errs[-1] <= 1e-10 * max(1.0, np.linalg.norm(X)) * math.sqrt(A.shape[0])


def _rtol_keyword(solver):
    # SciPy < 1.12 calls the relative tolerance "tol" (the declared floor is 1.10).
    return "rtol" if "rtol" in inspect.signature(solver).parameters else "tol"


def _random_graph(n=60, seed=1):
    A = sp.random(n, n, density=0.1, random_state=seed)
    return ((A + A.T) > 0).astype(float)


def test_filter_is_a_linear_operator_in_scipy_solvers():
    A = _random_graph()
    b = np.random.default_rng(0).standard_normal(60)
    filt = NeumannFilter(A, 3.0, 10, norm="sym")
    assert isinstance(filt, spla.LinearOperator)
    assert filt.shape == (60, 60) and filt.dtype == np.float64
    M = ref.neumann(A, 3.0, 10, "sym")
    # Ã_S (sym) is SPD for r < 1: the filter itself goes into cg.
    x, info = spla.cg(filt, b, atol=0, **{_rtol_keyword(spla.cg): 1e-12})
    assert info == 0
    assert_allclose(filt @ x, b, atol=1e-9)
    assert_allclose(x, np.linalg.solve(M, b), rtol=1e-8, atol=1e-8)
    top = spla.eigsh(filt, k=3, which="LA", return_eigenvectors=False)
    assert_allclose(np.sort(top), np.linalg.eigvalsh(M)[-3:], rtol=1e-9)
    assert_allclose(top.max(), series_mass(3.0, 10), rtol=1e-9)


def test_rw_filter_in_gmres_and_svds():
    # Ã_S (rw) is not symmetric: gmres and svds (which uses the adjoint) against dense.
    A = _random_graph(seed=2)
    b = np.random.default_rng(1).standard_normal(60)
    filt = NeumannFilter(A, 3.0, 10, norm="rw")
    M = ref.neumann(A, 3.0, 10, "rw")
    x, info = spla.gmres(filt, b, atol=0, restart=60, **{_rtol_keyword(spla.gmres): 1e-12})
    assert info == 0
    assert_allclose(x, np.linalg.solve(M, b), rtol=1e-8, atol=1e-8)
    s = spla.svds(filt, k=2, return_singular_vectors=False,
                  v0=np.ones(60))   # a fixed start vector: ARPACK is otherwise seeded randomly
    assert_allclose(np.sort(s), np.linalg.svd(M, compute_uv=False)[:2][::-1], rtol=1e-9)


@given(graphs_with_signals(max_nodes=9), lams(), orders(12), norms())
def test_adjoint_is_transpose(AX, lam, S, norm):
    A, X = AX
    filt = NeumannFilter(A, lam, S, norm=norm)
    M = ref.neumann(A, lam, S, norm)
    tol = dict(rtol=1e-10, atol=1e-10 * max(1, np.abs(X).max()))
    assert_allclose(filt.rmatmat(X), M.T @ X, **tol)
    assert_allclose(filt.matmat(X), M @ X, **tol)
    assert_allclose(filt.H @ X, M.T @ X, **tol)
    assert_allclose(filt.T.matmat(X), M.T @ X, **tol)
    assert_allclose(filt.rmatvec(X[:, 0]), M.T @ X[:, 0], **tol)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_adjoint_identity(norm):
    # <A x, y> = <x, Aᵀ y>; for rw the filter is not symmetric, and Aᵀ is not A.
    A = _random_graph(40, seed=3)
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal(40), rng.standard_normal(40)
    filt = NeumannFilter(A, 5.0, 12, norm=norm)
    lhs, rhs = (filt @ x) @ y, x @ filt.rmatvec(y)
    assert_allclose(lhs, rhs, rtol=1e-12)
    if norm == "rw":
        assert not np.allclose(filt.rmatvec(y), filt @ y)
    else:
        assert filt.H is filt


def test_as_linear_operator_shim_is_removed():
    # The filter is itself a LinearOperator; the 0.x deprecation shim is gone (#28 item 7).
    assert not hasattr(NeumannFilter(np.ones((3, 3)), 1.0, 2), "as_linear_operator")


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
    assert neumann_propagate(A, x, 1.0, 3).shape == (2,)
    assert neumann_propagate(A, x[:, None], 1.0, 3).shape == (2, 1)
    assert_allclose(neumann_propagate(A, sp.csr_array(x[:, None]), 1.0, 3),
                    neumann_propagate(A, x, 1.0, 3)[:, None])


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_filter_keeps_the_dimensionality_of_its_input(norm):
    # 1-D in, 1-D out; (n, 1) in, (n, 1) out: for every way of applying the filter.
    A = _random_graph(20, seed=5)
    x = np.random.default_rng(6).standard_normal(20)
    filt = NeumannFilter(A, 2.0, 4, norm=norm)
    M = ref.neumann(A, 2.0, 4, norm)
    for apply, dense in ((lambda v: filt @ v, M), (filt.apply, M), (filt.matvec, M),
                         (lambda v: filt.apply(v, transpose=True), M.T), (filt.rmatvec, M.T),
                         (lambda v: neumann_propagate(A, v, 2.0, 4, norm=norm), M),
                         (lambda v: filt.exact(v, method="dense"),
                          ref.gsd_inverse(A, 2.0, norm))):
        assert apply(x).shape == (20,)
        assert apply(x[:, None]).shape == (20, 1)
        assert_allclose(apply(x), dense @ x, rtol=1e-10, atol=1e-12)
    assert filt.row_sums().shape == (20,)


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


# --- scalar helpers, exactly (survivors of the neumann.py mutation pass) --------------------

@pytest.mark.parametrize("lam", [0.3, 1.0, 7.0, 64.0, 1e4])
@pytest.mark.parametrize("tol", [0.5, 1e-3, 1e-9])
def test_neumann_order_is_the_smallest_s_with_r_power_below_tol(lam, tol):
    # Against a direct search in exact-enough arithmetic (r^{S+1} by logarithms in float64).
    from ngc_ref.neumann import series_ratio
    r = series_ratio(lam)
    assert r == pytest.approx(lam / (lam + 1), rel=1e-15)
    S = neumann_order(lam, tol)
    assert (S + 1) * math.log(r) <= math.log(tol) * (1 - 1e-12)
    assert S == 0 or S * math.log(r) > math.log(tol) * (1 + 1e-12)


def test_neumann_order_validates_its_arguments():
    with pytest.raises(ValueError, match=r"^tol must be > 0"):
        neumann_order(2.0, 0.0)
    with pytest.raises(ValueError, match=r"^tol must be <= 1"):
        neumann_order(2.0, 1.5)
    with pytest.raises(ValueError, match="lam"):
        neumann_order(0.0, 0.1)
    with pytest.raises(ValueError, match="norm"):
        neumann_order(2.0, 0.1, norm="lap")
    assert neumann_order(2.0, 1.0) == 0


def test_float32_error_estimate_formula_and_warning():
    from ngc_ref.neumann import FLOAT32_ERROR_WARN, PrecisionWarning, float32_error_estimate
    lam, S = 50.0, 30
    r = lam / (lam + 1)
    want = float(np.finfo(np.float32).eps) * (lam + 1) * (1 - r ** (S + 1))
    assert float32_error_estimate(lam, S) == pytest.approx(want, rel=1e-12)
    A = sp.csr_array(np.array([[0.0, 1.0], [1.0, 0.0]]))
    X = np.ones((2, 1), dtype=np.float32)
    big, S_big = 1e5, 20000       # error ≈ eps32·(λ+1)(1 − r^{S+1}) = 2.2e-3 > 1e-3
    assert float32_error_estimate(big, S_big) > FLOAT32_ERROR_WARN
    with pytest.warns(PrecisionWarning, match=r"float32 with lam=100000, S=20000"):
        neumann_propagate(A, X, big, S_big)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        neumann_propagate(A, X, 2.0, 5)                      # small λ: no warning
        neumann_propagate(A, X.astype(np.float64), big, S_big)   # float64: no warning


@pytest.mark.parametrize("lam, tol", [
    (0.3, 5.2639618288153315e-09),   # log(tol)/log r rounds up past 13: the first guess is 13
    (1.0, 1.1641532182693481e-10),   # ... rounds down below 33: the first guess is 32
    (0.3, 0.23076923076923075),      # tol = r to rounding: S = 0 exactly on the boundary
])
def test_neumann_order_steps_past_rounding_in_its_first_guess(lam, tol):
    # The closed-form first guess ceil(log tol / log r) − 1 is off by one at these λ, tol (found
    # by search); the two correcting loops must land on the smallest S with
    # (S+1)·log r <= log tol, here found by a plain linear search in the same arithmetic.
    log_r = -math.log1p(1.0 / lam)
    S = 0
    while (S + 1) * log_r > math.log(tol):
        S += 1
    assert neumann_order(lam, tol) == S


# --- the filter's plumbing: defaults, dtypes, messages, budgets -----------------------------

def test_filter_defaults_weights_and_symmetry():
    import networkx as nx
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, {(0, 1): 3.0, (1, 2): 1.0, (2, 3): 0.5}, "weight")
    nx.set_edge_attributes(G, {(0, 1): 1.0, (1, 2): 4.0, (2, 3): 1.0}, "w")
    x = np.arange(4.0)
    W = nx.to_numpy_array(G, weight="weight")
    Ww = nx.to_numpy_array(G, weight="w")
    # Default weight="weight" reads the attribute; weight="w" another one.
    assert_allclose(NeumannFilter(G, 2.0, 3) @ x, ref.neumann(W, 2.0, 3, "sym") @ x, rtol=1e-12)
    assert_allclose(NeumannFilter(G, 2.0, 3, weight="w") @ x, ref.neumann(Ww, 2.0, 3, "sym") @ x,
                    rtol=1e-12)
    # nodelist reorders the rows.
    order = [3, 1, 0, 2]
    got = NeumannFilter(G, 2.0, 3, nodelist=order) @ x
    assert_allclose(got, ref.neumann(W[np.ix_(order, order)], 2.0, 3, "sym") @ x, rtol=1e-12)
    # A directed (non-symmetric) adjacency is refused unless symmetrize=True.
    D = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="symmetri"):
        NeumannFilter(D, 1.0, 2)
    filt = NeumannFilter(D, 1.0, 2, symmetrize=True)          # max(D, Dᵀ)
    assert_allclose(filt.matrix(), ref.neumann(np.maximum(D, D.T), 1.0, 2, "sym"), rtol=1e-12,
                    atol=1e-15)


def test_filter_dtype_follows_the_graph():
    # A float32 graph gives a float32 operator, matrix and row sums (small λ: no warning).
    A = sp.csr_array(np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
                              dtype=np.float32))
    filt = NeumannFilter(A, 1.0, 2)
    assert filt.dtype == np.float32
    assert filt.matrix().dtype == np.float32 and filt.row_sums().dtype == np.float32
    assert_allclose(filt.matrix(), ref.neumann(A.toarray().astype(float), 1.0, 2, "sym"),
                    rtol=1e-6)


def test_filter_composes_lazily_and_refuses_scalars():
    A = _random_graph(12, seed=3)
    x = np.random.default_rng(4).standard_normal(12)
    filt = NeumannFilter(A, 1.5, 3)
    M = ref.neumann(A, 1.5, 3, "sym")
    both = filt @ filt
    assert isinstance(both, spla.LinearOperator) and not isinstance(both, NeumannFilter)
    assert_allclose(both @ x, M @ (M @ x), rtol=1e-10)
    with pytest.raises(ValueError, match="Scalar operands"):
        filt @ 2.0


def test_exact_passes_its_keywords_to_gsd_solve():
    filt = NeumannFilter(_random_graph(10, seed=2), 1.0, 3)
    with pytest.raises(ValueError, match="method"):
        filt.exact(np.ones(10), method="no-such-method")


def _from_this_file(w):
    # The warning names the test's line. Under mutmut each library call runs through its
    # trampoline, one frame more per call, so the frame named is one of the library's or
    # mutmut's own: any frame is accepted there only (the plain test run checks the caller).
    import sys
    return w.filename == __file__ or "mutmut.mutation.trampoline" in sys.modules


def test_float32_warning_text_threshold_and_caller():
    from ngc_ref import neumann as nm
    A = sp.csr_array(np.array([[0.0, 1.0], [1.0, 0.0]]))
    X = np.ones((2, 1), dtype=np.float32)
    lam, S = 1e5, 20000
    err = nm.float32_error_estimate(lam, S)
    terms = err / float(np.finfo(np.float32).eps)
    filt = NeumannFilter(A, lam, S)
    with pytest.warns(nm.PrecisionWarning) as rec:
        filt.apply(X)
    (w,) = rec
    # Attributed to the caller of apply (stacklevel=3), and saying what, how much, why.
    assert _from_this_file(w)
    assert str(w.message).startswith(f"neumann_propagate in float32 with lam=100000, S={S}: "
                                     f"its relative rounding error is about {err:.1e}")
    assert f"{terms:.3g} effective terms" in str(w.message)
    # The threshold is strict: an estimate equal to it does not warn.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        saved = nm.FLOAT32_ERROR_WARN
        try:
            nm.FLOAT32_ERROR_WARN = err
            filt.apply(X)
        finally:
            nm.FLOAT32_ERROR_WARN = saved


def test_memory_budget_counts_the_two_horner_buffers(exact_budget):
    # apply needs X's two n x d work buffers within NGC_REF_MEMORY_BUDGET (X float64: no copy).
    n, d = 40, 5
    filt = NeumannFilter(_random_graph(n, seed=7), 1.0, 2)
    X = np.ones((n, d))
    assert exact_budget(2 * n * d * 8, lambda: filt.apply(X),
                        r"^neumann_propagate would need .*2 dense 40 x 5").shape == (n, d)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_memory_budget_of_matrix_counts_three_n_by_n_arrays(exact_budget, dtype):
    n = 30
    A = sp.csr_array(_random_graph(n, seed=8), dtype=dtype)
    filt = NeumannFilter(A, 1.0, 2)
    assert exact_budget(3 * n * n * np.dtype(dtype).itemsize, filt.matrix,
                        r"^NeumannFilter\.matrix would need .*3 dense 30 x 30").shape == (n, n)


# --- the public wrappers, mutated since fb418bb: defaults and pass-through -----------------

def _weighted_graph_in_odd_order():
    import networkx as nx
    G = nx.Graph()
    G.add_weighted_edges_from([(2, 0, 3.0), (0, 1, 0.5), (1, 3, 2.0), (3, 2, 1.0), (4, 1, 1.5)])
    return G


@pytest.mark.filterwarnings("ignore:A is a networkx graph whose nodes are not in sorted")
def test_wrappers_default_to_sym_weights_and_graph_order():
    # norm="sym", weight="weight" and G's own node order by default; nodelist reorders rows.
    import networkx as nx
    G = _weighted_graph_in_odd_order()
    X = np.random.default_rng(0).standard_normal((5, 2))
    for order in (None, [3, 1, 0, 4, 2]):
        A = nx.to_numpy_array(G, nodelist=order if order else list(G), weight="weight")
        want = ref.neumann(A, 2.0, 4, "sym")
        assert_allclose(neumann_matrix(G, 2.0, 4, nodelist=order), want, rtol=1e-12)
        assert_allclose(neumann_propagate(G, X, 2.0, 4, nodelist=order), want @ X, rtol=1e-12)
    # No symmetrisation by default: a directed adjacency is refused.
    directed = np.array([[0.0, 1.0], [0.0, 0.0]])
    for call in (lambda: neumann_matrix(directed, 1.0, 2),
                 lambda: neumann_propagate(directed, np.ones(2), 1.0, 2)):
        with pytest.raises(ValueError, match="symmetri"):
            call()
    assert_allclose(neumann_propagate(directed, np.ones(2), 1.0, 2, symmetrize=True),
                    ref.neumann(directed + directed.T, 1.0, 2, "sym") @ np.ones(2), rtol=1e-12)
    assert_allclose(neumann_matrix(directed, 1.0, 2, symmetrize=True),
                    ref.neumann(directed + directed.T, 1.0, 2, "sym"), rtol=1e-12)
    # weight=None: every edge counts 1, whatever its attribute.
    A1 = nx.to_numpy_array(G, nodelist=list(G), weight=None)
    assert_allclose(neumann_matrix(G, 2.0, 4, weight=None, nodelist=list(G)),
                    ref.neumann(A1, 2.0, 4, "sym"), rtol=1e-12)
    assert_allclose(neumann_propagate(G, X, 2.0, 4, weight=None, nodelist=list(G)),
                    ref.neumann(A1, 2.0, 4, "sym") @ X, rtol=1e-12)


def test_neumann_matrix_passes_max_nodes():
    with pytest.raises(ValueError, match="max_nodes"):
        neumann_matrix(np.ones((4, 4)) - np.eye(4), 1.0, 2, max_nodes=3)
    assert neumann_matrix(np.ones((4, 4)) - np.eye(4), 1.0, 2, max_nodes=4).shape == (4, 4)


def test_propagate_passes_reorder_and_workers_to_its_filter(monkeypatch):
    # Neither changes a value (the locality order and the threads change speed only), so only
    # a spy on the filter shows that the caller's choice is the one used.
    from ngc_ref import neumann as nm
    seen = record_calls(monkeypatch, nm, "NeumannFilter", "workers", "reorder")
    A = sp.csr_array(nx_path(5))
    X = np.arange(10.0).reshape(5, 2)
    for workers, reorder in ((1, None), (2, "rcm"), (None, "auto")):
        neumann_propagate(A, X, 2.0, 3, workers=workers, reorder=reorder)
    assert seen == [(1, None), (2, "rcm"), (None, "auto")]


def nx_path(n):
    A = np.zeros((n, n))
    A[np.arange(n - 1), np.arange(1, n)] = A[np.arange(1, n), np.arange(n - 1)] = 1.0
    return A


def test_reordered_apply_guards_at_its_exact_needs(monkeypatch):
    # reorder="rcm": X in the locality order and two Horner buffers, 3 n x d float64 arrays,
    # must fit (one array more is refused); the adjacency in the locality order is guarded
    # under the filter's own name.
    n, d = 40, 6
    A = sp.csr_array(nx_path(n))
    X = np.random.default_rng(0).standard_normal((n, d))
    want = NeumannFilter(A, 2.0, 5, reorder=None).apply(X)
    need = 3 * n * d * 8
    An = NeumannFilter(A, 2.0, 5, reorder=None).A_norm
    matrix_need = An.nnz * (8 + 4 * An.indices.itemsize) + 8 * (n + 1)
    assert matrix_need < need
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(need))
    assert_allclose(NeumannFilter(A, 2.0, 5, reorder="rcm").apply(X), want, rtol=1e-12)
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(matrix_need - 1))
    with pytest.raises(ValueError, match=r"NeumannFilter\(reorder=.rcm.\) would need"):
        NeumannFilter(A, 2.0, 5, reorder="rcm").apply(X[:, :1])


def test_operators_are_made_once_and_kept():
    f = NeumannFilter(sp.csr_array(nx_path(6)), 2.0, 3, reorder="rcm")
    assert f._operator_for(np.float64) is f.A_norm
    a32 = f._operator_for(np.float32)
    assert a32.dtype == np.float32 and f._operator_for(np.float32) is a32
    order = f._order.ordering(10 ** 6, 1, 8)
    assert order is not None                         # "rcm": always in the locality order
    b = f._operator_for(np.float64, order)
    assert f._operator_for(np.float64, order) is b and b is not f.A_norm
    assert f._operator_for(np.float32, order) is f._operator_for(np.float32, order)
