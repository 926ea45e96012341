import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from ngc_ref import neumann_partial_sums, neumann_propagate, robust_propagate
from ngc_ref.strategies import graphs_with_signals, lams, norms, orders

from . import _reference as ref


@pytest.mark.parametrize("mode", ["full", "edges"])
@given(graphs_with_signals(max_nodes=9, weighted=True), lams(1e-2, 1e2), orders(12), norms(),
       st.floats(0.0, 2.0))
def test_matches_dense_reference(mode, AX, lam, S, norm, eps):
    # "edges" keeps the −εXXᵀ/‖XXᵀ‖_F term on the edges of Ã only: the reference's mask.
    A, X = AX
    mask = (ref.tilde(A) != 0).astype(float) if mode == "edges" else None
    want = ref.rngc(A, X, lam, S, eps, norm, mask=mask)
    got = robust_propagate(A, X, lam, S, eps, norm=norm, mode=mode)
    scale = max(1.0, np.abs(want).max(), np.abs(X).max())
    assert_allclose(got, want, rtol=1e-9, atol=1e-10 * scale)


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(), orders(20), norms())
def test_eps_zero_is_ngc(AX, lam, S, norm):
    A, X = AX
    for mode in ("full", "edges"):
        assert_allclose(robust_propagate(A, X, lam, S, 0.0, norm=norm, mode=mode),
                        neumann_propagate(A, X, lam, S, norm=norm), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_edges_equals_full_on_complete_graph(norm):
    X = np.random.default_rng(0).standard_normal((8, 3))
    G = nx.complete_graph(8)
    assert_allclose(robust_propagate(G, X, 4.0, 10, 0.7, norm=norm, mode="edges"),
                    robust_propagate(G, X, 4.0, 10, 0.7, norm=norm, mode="full"), rtol=1e-12)


def test_edges_differs_from_full_on_sparse_graph():
    X = np.random.default_rng(0).standard_normal((8, 3))
    G = nx.cycle_graph(8)
    diff = robust_propagate(G, X, 4.0, 10, 0.7, mode="edges") - robust_propagate(G, X, 4.0, 10, 0.7)
    assert np.abs(diff).max() > 1e-6


def test_zero_features_and_sparse_features():
    G = nx.path_graph(5)
    assert_allclose(robust_propagate(G, np.zeros((5, 2)), 1.0, 4, 1.0), 0.0)
    Xs = sp.random(5, 3, density=0.5, random_state=0, format="csr")
    assert_allclose(robust_propagate(G, Xs, 1.0, 4, 1.0),
                    robust_propagate(G, Xs.toarray(), 1.0, 4, 1.0))


def test_bad_eps_and_mode():
    G = nx.path_graph(3)
    with pytest.raises(ValueError, match="eps must be >= 0"):
        robust_propagate(G, np.ones((3, 1)), 1.0, 2, -0.1)
    with pytest.raises(ValueError, match="mode must be one of 'full', 'edges'"):
        robust_propagate(G, np.ones((3, 1)), 1.0, 2, 0.1, mode="masked")


@pytest.mark.parametrize("mode", ["full", "edges"])
@pytest.mark.parametrize("scale, dtype", [(1e-170, np.float64), (1e170, np.float64),
                                          (1e20, np.float32), (1e-20, np.float32)])
def test_extreme_feature_scales_keep_the_perturbation(mode, scale, dtype):
    # XXᵀ/‖XXᵀ‖_F does not depend on the scale of X, so H(cX) = c·H(X) exactly in real
    # arithmetic. ‖XᵀX‖_F over- or underflows at these scales; ε must not silently become 0.
    X = np.random.default_rng(3).standard_normal((8, 3))
    G = nx.cycle_graph(8)
    want = robust_propagate(G, X, 4.0, 10, 0.7, mode=mode)
    assert np.abs(want - neumann_propagate(G, X, 4.0, 10)).max() > 1e-3   # ε matters here
    got = robust_propagate(G, (X * scale).astype(dtype), 4.0, 10, 0.7, mode=mode)
    assert got.dtype == dtype
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert_allclose(got / scale, want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("mode", ["full", "edges"])
def test_a_series_that_overflows_is_refused_naming_eps_and_lam(mode):
    # ρ(r(Ã − εP)) = 0.001/1.001·(1e6 − 1) ≈ 999 > 1: the terms reach 999^16 ≈ 1e48, beyond
    # float32. Before: NaN (full) or inf (edges) was returned.
    A = sp.coo_array((1, 1), dtype=bool)
    with pytest.raises(ValueError, match=r"eps.*lam|lam.*eps"):
        robust_propagate(A, np.float32([[.1257]]), 0.001, 16, 1e6, mode=mode)
    # In float64 the same terms are representable and returned as computed.
    H = robust_propagate(A, np.float64([[.1257]]), 0.001, 16, 1e6, mode=mode)
    r = 0.001 / 1.001
    m = r * (1.0 - 1e6)
    assert_allclose(H, [[.1257 * sum(m**s for s in range(17)) / 1.001]], rtol=1e-10)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_one_dimensional_signal_stays_one_dimensional(norm):
    G = nx.cycle_graph(6)
    x = np.random.default_rng(5).standard_normal(6)
    want = ref.rngc(nx.to_numpy_array(G), x[:, None], 2.0, 5, 0.3, norm)[:, 0]
    h = robust_propagate(G, x, 2.0, 5, 0.3, norm=norm)
    assert h.shape == (6,)
    assert_allclose(h, want, rtol=1e-12)
    assert robust_propagate(G, x[:, None], 2.0, 5, 0.3, norm=norm, mode="edges").shape == (6, 1)
    assert robust_propagate(G, np.zeros(6), 2.0, 5, 0.3, norm=norm).shape == (6,)


# --- the building blocks, on their own (survivors of tools/mutation.py) ---------------------

def test_edge_gram_is_the_masked_gram_matrix_in_the_features_dtype():
    # A pattern whose last node has no entry: the shape must come from the pattern, not from
    # the largest index present. float32 features give a float32 matrix.
    from ngc_ref.robust import edge_gram
    P = sp.csr_array(np.array([[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]], float))
    X = np.random.default_rng(0).standard_normal((4, 3))
    for dtype in (np.float64, np.float32):
        G = edge_gram(P, X.astype(dtype))
        assert G.shape == (4, 4) and G.dtype == dtype
        want = (X @ X.T) * (P.toarray() != 0)
        assert_allclose(G.toarray(), want, rtol=1e-6 if dtype == np.float32 else 1e-13)


def test_gram_frobenius_norm_of_dense_and_sparse_features():
    from ngc_ref.robust import gram_frobenius_norm
    X = np.random.default_rng(1).standard_normal((6, 3))
    X[X < 0.3] = 0.0
    want = np.linalg.norm(X @ X.T)
    assert gram_frobenius_norm(X) == pytest.approx(want, rel=1e-13)
    assert gram_frobenius_norm(sp.csr_array(X)) == pytest.approx(want, rel=1e-13)


@pytest.mark.parametrize("c", [0.0, 0.5, 1.0])
def test_perturbed_operator_applies_a_minus_c_xxt(c):
    from ngc_ref.robust import _PerturbedOperator
    rng = np.random.default_rng(2)
    A = sp.csr_array(rng.random((5, 5)))
    Xs, V = rng.standard_normal((5, 2)), rng.standard_normal((5, 3))
    want = (A.toarray() - c * Xs @ Xs.T) @ V
    assert_allclose(_PerturbedOperator(A, Xs, c) @ V, want, rtol=1e-12)


# --- robust_propagate's defaults and pass-through (mutated since fb418bb) --------------------

@pytest.mark.filterwarnings("ignore:A is a networkx graph whose nodes are not in sorted")
def test_defaults_sym_full_weights_and_graph_order():
    # norm="sym", mode="full", weight="weight", G's node order by default; nodelist reorders.
    G = nx.Graph()
    G.add_weighted_edges_from([(2, 0, 3.0), (0, 1, 0.5), (1, 3, 2.0), (3, 2, 1.0)])
    X = np.random.default_rng(1).standard_normal((4, 3))
    for order in (None, [3, 1, 0, 2]):
        A = nx.to_numpy_array(G, nodelist=order if order else list(G), weight="weight")
        want = ref.rngc(A, X, 1.5, 5, 0.7, "sym")
        assert_allclose(robust_propagate(G, X, 1.5, 5, 0.7, nodelist=order), want, rtol=1e-10)
    A1 = nx.to_numpy_array(G, nodelist=list(G), weight=None)   # weight=None: every edge 1
    assert_allclose(robust_propagate(G, X, 1.5, 5, 0.7, weight=None, nodelist=list(G)),
                    ref.rngc(A1, X, 1.5, 5, 0.7, "sym"), rtol=1e-10)
    with pytest.raises(ValueError, match="symmetri"):
        robust_propagate(np.array([[0.0, 1.0], [0.0, 0.0]]), np.ones((2, 1)), 1.0, 2, 0.1)
    directed = np.array([[0.0, 1.0], [0.0, 0.0]])
    assert_allclose(robust_propagate(directed, np.eye(2), 1.0, 2, 0.1, symmetrize=True),
                    ref.rngc(directed + directed.T, np.eye(2), 1.0, 2, 0.1, "sym"), rtol=1e-12)


def test_memory_budget_counts_four_work_arrays_and_names_robust_propagate(exact_budget):
    # "Work arrays besides X: its scaled copy, H, and the two terms of each product": 4 n x d.
    n, d = 40, 5
    A = nx.to_scipy_sparse_array(nx.cycle_graph(n))
    X = np.ones((n, d))
    assert exact_budget(4 * n * d * 8, lambda: robust_propagate(A, X, 1.0, 2, 0.1),
                        r"^robust_propagate would need .*4 dense 40 x 5").shape == (n, d)


def test_float32_features_are_propagated_in_float32():
    # Documented: float32 X is propagated in float32 (error ~ eps32·(λ+1)(1 − r^(S+1))), so
    # the result is not the float64 result rounded once (which is within half an ulp of it).
    A = nx.to_scipy_sparse_array(nx.connected_watts_strogatz_graph(30, 4, 0.3, seed=1))
    X = np.random.default_rng(2).standard_normal((30, 4))
    for mode in ("full", "edges"):
        H64 = robust_propagate(A, X, 50.0, 40, 0.5, mode=mode)
        H32 = robust_propagate(A, X.astype(np.float32), 50.0, 40, 0.5, mode=mode)
        assert H32.dtype == np.float32
        err = np.abs(H32.astype(np.float64) - H64)
        ulps = err / np.spacing(np.abs(H64).astype(np.float32)).astype(np.float64)
        assert ulps.max() > 1.0
        bound = 10 * float(np.finfo(np.float32).eps) * 51 * np.abs(H64).max()
        assert err.max() <= bound


def test_no_feature_columns_and_a_perturbation_weight_of_exactly_one():
    A = nx.to_scipy_sparse_array(nx.path_graph(3))
    assert robust_propagate(A, np.zeros((3, 0)), 1.0, 2, 0.5).shape == (3, 0)
    # x = (1/2, 0, 1/2): ‖xxᵀ‖_F = 1/2, so ε = 1/2 gives ε/‖xxᵀ‖_F = 1 exactly; "edges" keeps
    # the perturbation on Ã's pattern only (xxᵀ's (0, 2) entry is not an edge).
    x = np.array([[0.5], [0.0], [0.5]])
    mask = (ref.tilde(A) != 0).astype(float)
    for norm in ("sym", "rw"):
        assert_allclose(robust_propagate(A, x, 1.0, 3, 0.5, mode="edges", norm=norm),
                        ref.rngc(A, x, 1.0, 3, 0.5, norm, mask=mask), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dtype, big, tail", [(np.float32, 3e38, ", or float64 features"),
                                              (np.float64, 1.7e308, "")])
def test_a_result_beyond_the_dtype_is_refused(dtype, big, tail):
    # The series itself runs on X scaled into [1/2, 1) and stays finite; scaling back overflows:
    # under "sym" the hub of a star with 20 leaves sums its leaves with weights 1/√(2·21), so
    # its entry of Ã_S X is about √(20/2)·max|X|, beyond the largest float of the dtype.
    A = nx.to_scipy_sparse_array(nx.star_graph(20))
    X = np.full((21, 1), big, dtype=dtype)
    with pytest.raises(ValueError, match=rf"^robust_propagate: the result is not "
                                         rf"representable in {np.dtype(dtype).name}: .*"
                                         rf"a smaller S{tail}$"):
        robust_propagate(A, X, 1.0, 2, 0.1, norm="sym")


# --- neumann_partial_sums: every depth from one forward pass (moved from theory/reproduce) ----

@given(graphs_with_signals(max_nodes=9, weighted=True), lams(1e-2, 1e2),
       st.lists(orders(10), min_size=1, max_size=4), norms(),
       st.one_of(st.none(), st.floats(0.0, 2.0)))
def test_partial_sums_match_the_dense_reference_at_every_depth(AX, lam, S_values, norm, eps):
    A, X = AX
    got = neumann_partial_sums(A, X, lam, S_values, eps=eps, norm=norm)
    assert sorted(got) == sorted(set(S_values))
    for S, H in got.items():
        want = ref.rngc(A, X, lam, S, 0.0 if eps is None else eps, norm)
        scale = max(1.0, np.abs(want).max(), np.abs(X).max())
        assert_allclose(H, want, rtol=1e-9, atol=1e-10 * scale)


@pytest.mark.parametrize("shape, density, path", [
    ((80, 120), 0.005, "sparse"),      # clean bag of words: X stays sparse
    ((80, 120), 0.5, "gram"),          # n < d, dense enough: (XXᵀ)V
    ((80, 30), None, "lowrank"),       # n > d: X(XᵀV)
])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_partial_sums_take_each_xxt_path_and_agree_with_horner(shape, density, path, dtype):
    from ngc_ref.graphs import erdos_renyi
    from ngc_ref.robust import xxt_product
    A = erdos_renyi(shape[0], 0.06, seed=3)
    if density is None:
        X = np.random.default_rng(1).standard_normal(shape).astype(dtype)
    else:
        X = sp.random(*shape, density=density, random_state=2, format="csr", dtype=dtype)
    assert xxt_product(*shape, X.nnz if sp.issparse(X) else None, 8) == path
    Xd = X.toarray() if sp.issparse(X) else X
    rtol = 1e-10 if dtype == np.float64 else 2e-5
    for eps in (None, 1.0):
        fast = neumann_partial_sums(A, X, 32.0, (8, 0, 3, 1, 3), eps=eps)
        assert sorted(fast) == [0, 1, 3, 8]
        for S, H in fast.items():
            assert H.dtype == dtype and H.shape == shape
            want = (neumann_propagate(A, Xd, 32.0, S) if eps is None
                    else robust_propagate(A, Xd, 32.0, S, eps))
            assert_allclose(H, want, rtol=rtol, atol=rtol * np.abs(want).max())


def test_partial_sums_refuse_a_diverging_series_and_bad_depths():
    from ngc_ref.graphs import erdos_renyi
    A = erdos_renyi(40, 0.2, seed=0)
    X = np.random.default_rng(0).standard_normal((40, 5))
    with pytest.raises(ValueError, match=r"^neumann_partial_sums: .*not representable.*"
                                         r"eps=1000000\.0 and lam=32\.0"):
        neumann_partial_sums(A, X, 32.0, (5000,), eps=1e6)
    with pytest.raises(TypeError, match=r"^S_values must be a sequence of depths S >= 0, got "
                                        r"int 4$"):
        neumann_partial_sums(A, X, 32.0, 4)
    with pytest.raises(ValueError, match=r"^S_values must hold at least one depth S >= 0, got "
                                         r"none$"):
        neumann_partial_sums(A, X, 32.0, ())
    with pytest.raises(ValueError, match=r"S_values\[1\]"):
        neumann_partial_sums(A, X, 32.0, (2, -1))
    with pytest.raises(ValueError, match="eps"):
        neumann_partial_sums(A, X, 32.0, (2,), eps=-1.0)
    with pytest.raises(ValueError, match=r"^X must have one row per node: expected 40 rows, got "
                                         r"shape=\(30, 5\)$"):
        neumann_partial_sums(A, X[:30], 32.0, (2,))


def test_partial_sums_of_zero_features_are_zero():
    H = neumann_partial_sums(nx.cycle_graph(5), np.zeros((5, 2), np.float32), 2.0, (0, 3), eps=1.0)
    assert sorted(H) == [0, 3]
    assert all(h.dtype == np.float32 and not h.any() for h in H.values())


def test_partial_sums_memory_budget_counts_the_depths_and_the_gram_matrix(exact_budget):
    # X's scaled copy, the running sum, a term, the next, and one array per depth: 4 + 2.
    n, d = 40, 5
    A = nx.to_scipy_sparse_array(nx.cycle_graph(n))
    X = np.ones((n, d))
    assert len(exact_budget((4 + 2) * n * d * 8,
                            lambda: neumann_partial_sums(A, X, 1.0, (1, 2), eps=0.1),
                            r"^neumann_partial_sums would need .*6 dense 40 x 5")) == 2
    # n < d: XXᵀ (n x n) is formed, and counted.
    Xw = np.random.default_rng(0).standard_normal((n, 200))
    assert len(exact_budget((n * n + 5 * n * 200) * 8,
                            lambda: neumann_partial_sums(A, Xw, 1.0, (1,), eps=0.1),
                            r"^neumann_partial_sums would need 325 KiB \(XXᵀ \(40 x 40\) and 5 "
                            r"dense 40 x 200 work arrays\) but only 325 KiB is available \(.*\); "
                            r"pass fewer feature columns at a time\. Set NGC_REF_MEMORY_BUDGET "
                            )) == 1


def test_partial_sums_memory_budget_counts_the_dense_copy_of_sparse_features(exact_budget):
    # Sparse X is densified for the series, as robust_propagate's: that copy is counted too,
    # besides the scaled copy, the running sum, a term, the next and one array per depth.
    n, d = 40, 5
    A = nx.to_scipy_sparse_array(nx.cycle_graph(n))
    X = sp.random(n, d, density=0.5, random_state=0, format="csr")
    assert len(exact_budget((1 + 4 + 2) * n * d * 8,
                            lambda: neumann_partial_sums(A, X, 1.0, (1, 2), eps=0.1),
                            r"^neumann_partial_sums would need .*\(7 dense 40 x 5 arrays of 8 "
                            r"bytes per entry: the dense copy of the sparse X and "
                            r"neumann_partial_sums's work arrays\)")) == 2
    # n < d, dense enough for XXᵀ to be formed (n²·d < 10·2·nnz·d): XXᵀ and 1 + 4 + 1 arrays.
    Xw = sp.random(n, 200, density=0.5, random_state=1, format="csr")
    assert len(exact_budget((n * n + 6 * n * 200) * 8,
                            lambda: neumann_partial_sums(A, Xw, 1.0, (1,), eps=0.1),
                            r"^neumann_partial_sums would need .* \(XXᵀ \(40 x 40\) and 6 dense "
                            r"40 x 200 work arrays\) but only")) == 1


def test_perturbed_operator_with_the_gram_matrix_formed():
    from ngc_ref.robust import _PerturbedOperator
    rng = np.random.default_rng(2)
    A = sp.csr_array(rng.random((5, 5)))
    Xs, V = rng.standard_normal((5, 2)), rng.standard_normal((5, 3))
    want = (A.toarray() - 0.5 * Xs @ Xs.T) @ V
    assert_allclose(_PerturbedOperator(A, None, 0.5, G=Xs @ Xs.T) @ V, want, rtol=1e-12)


# --- neumann_partial_sums' XXᵀ paths, costs and step count (survivors of tools/mutation.py) --

def test_xxt_product_costs_at_their_boundaries():
    # The documented costs per step, written out here: X(XᵀV) 2·n·d², (XXᵀ)V n²·d (only when
    # n < d and the n x n XXᵀ fits 512 MiB), sparse X 10·2·nnz·d. On a tie the first of
    # lowrank, gram, sparse is taken.
    from ngc_ref.robust import GRAM_BYTES, SPARSE_PENALTY, xxt_product
    assert GRAM_BYTES == 512 * 2**20 and SPARSE_PENALTY == 10.0
    # n < d, not n <= d: at n = d the n x n product would cost half of X(XᵀV), yet is not formed.
    assert xxt_product(99, 100, None, 8) == "gram"
    assert xxt_product(100, 100, None, 8) == "lowrank"
    assert xxt_product(101, 100, None, 8) == "lowrank"
    # XXᵀ of exactly 512 MiB = 2²⁹ bytes is formed, one row more is not (8192² · 8 = 2²⁹; in
    # float32, 11585 is the largest n with n² · 4 <= 2²⁹).
    for n, itemsize in ((8192, 8), (11585, 4)):
        assert n * n * itemsize <= 2**29 < (n + 1) ** 2 * itemsize
        assert xxt_product(n, 10**5, None, itemsize) == "gram"
        assert xxt_product(n + 1, 10**5, None, itemsize) == "lowrank"
    # sparse against X(XᵀV): n = 1000, d = 50: 2·n·d² = 5e6 = 20·nnz·d at nnz = 5000.
    assert xxt_product(1000, 50, 4999, 8) == "sparse"
    assert xxt_product(1000, 50, 5000, 8) == "lowrank"
    assert xxt_product(1000, 50, 5001, 8) == "lowrank"
    # sparse against (XXᵀ)V: n = 100, d = 5000: n²·d = 5e7 = 20·nnz·d at nnz = 500.
    assert xxt_product(100, 5000, 499, 8) == "sparse"
    assert xxt_product(100, 5000, 500, 8) == "gram"
    assert xxt_product(100, 5000, 501, 4) == "gram"
    # nnz=None: X is dense, never "sparse" (even an empty X).
    assert xxt_product(1000, 50, None, 8) == "lowrank"
    assert xxt_product(1000, 50, 0, 8) == "sparse"


class _OperatorSpy:
    """Stands in for ngc_ref.robust._PerturbedOperator: records what each operator is built
    from (``made``) and counts its applications, each a product of the series."""

    def __init__(self, real, made):
        self.real, self.made = real, made

    def __call__(self, An, X, c, G=None):
        self.made.append({"An": An, "X": X, "c": c, "G": G, "products": 0})
        return _Counted(self.real(An, X, c, G), self.made[-1])


class _Counted:
    def __init__(self, op, record):
        self.op, self.record = op, record

    def __matmul__(self, V):
        self.record["products"] += 1
        return self.op @ V


@pytest.fixture
def operators(monkeypatch):
    import ngc_ref.robust
    made = []
    monkeypatch.setattr(ngc_ref.robust, "_PerturbedOperator",
                        _OperatorSpy(ngc_ref.robust._PerturbedOperator, made))
    return made


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_partial_sums_apply_xxt_by_the_documented_path(operators, dtype):
    # xxt_product's three paths, seen from the operator the pass is built with: X(XᵀV) on the
    # dense scaled X; (XXᵀ)V with XXᵀ formed when n < d; sparse X kept sparse (a clean bag of
    # words). Each on X·2^-k with max|X·2^-k| in [1/2, 1), exactly (a power of two), with
    # c = ε/‖XsXsᵀ‖_F and Ã in the features' dtype.
    from ngc_ref.graphs import erdos_renyi
    rng = np.random.default_rng(4)
    cases = [("lowrank", rng.standard_normal((30, 6)) * 40.0),
             ("gram", rng.standard_normal((30, 50)) * 40.0),
             ("sparse", sp.random(30, 50, density=0.02, random_state=5, format="csr") * 40.0),
             ("gram", sp.random(30, 50, density=0.6, random_state=6, format="csr") * 40.0),
             ("lowrank", sp.random(30, 6, density=0.6, random_state=7, format="csr") * 40.0),
             # A dense X with as few nonzeros is dense for xxt_product (nnz=None): not kept sparse.
             ("gram", sp.random(30, 50, density=0.02, random_state=5).toarray() * 40.0),
             ("lowrank", sp.random(30, 6, density=0.02, random_state=8).toarray() * 40.0)]
    A = erdos_renyi(30, 0.2, seed=1)
    for path, X in cases:
        X = X.astype(dtype)
        Xd = X.toarray() if sp.issparse(X) else X
        Xs = Xd * 2.0 ** -math.frexp(float(np.abs(Xd).max()))[1]
        assert 0.5 <= np.abs(Xs).max() < 1.0
        operators.clear()
        neumann_partial_sums(A, X, 3.0, (2, 5), eps=0.5)
        (op,) = operators
        assert op["An"].dtype == dtype
        X64 = Xs.astype(np.float64)
        assert op["c"] == pytest.approx(0.5 / np.linalg.norm(X64 @ X64.T), rel=1e-5)
        if path == "gram":
            assert op["G"].shape == (30, 30) and op["G"].dtype == dtype
            assert_allclose(op["G"], Xs @ Xs.T, rtol=1e-5)
        else:
            assert op["G"] is None
            assert sp.issparse(op["X"]) == (path == "sparse")
            Xt = op["X"].toarray() if path == "sparse" else op["X"]
            assert Xt.dtype == dtype
            assert_array_equal(Xt, Xs)
    # NGC (eps=None) and ε = 0: Ã alone, nothing of XXᵀ formed.
    for eps in (None, 0.0):
        operators.clear()
        neumann_partial_sums(A, cases[1][1].astype(dtype), 3.0, (2,), eps=eps)
        assert operators[0]["c"] == 0.0 and operators[0]["G"] is None


def test_partial_sums_make_max_s_products(operators):
    # "one pass to max(S_values) gives every H_S for max(S_values) products".
    A, X = nx.cycle_graph(7), np.random.default_rng(0).standard_normal((7, 2))
    for S_values, products in (((8, 0, 3, 1, 3), 8), ((0,), 0), ((1,), 1), ((2, 5), 5)):
        for eps in (None, 0.5):
            operators.clear()
            assert sorted(neumann_partial_sums(A, X, 2.0, S_values, eps=eps)) == \
                sorted(set(S_values))
            assert [op["products"] for op in operators] == [products]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("mode", ["full", "edges"])
def test_robust_propagate_runs_its_operator_in_the_locality_order_and_dtype(operators, dtype, mode):
    # The series runs on Xs = X·2^-k in X's dtype, with Ã in X's dtype; with reorder="rcm" in
    # the locality order: P(Ã − cXXᵀ)Pᵀ = PÃPᵀ − c(PX)(PX)ᵀ, i.e. on PXs and PÃPᵀ for one row
    # permutation P (read off Xs's rows here); with reorder=None in the caller's order.
    from ngc_ref.graphs import grid
    rng = np.random.default_rng(6)
    p = rng.permutation(30)
    A = sp.csr_array(grid(5, 6)[p][:, p])
    X = (rng.standard_normal((30, 3)) * 100.0).astype(dtype)
    Xs = X * 2.0 ** -math.frexp(float(np.abs(X).max()))[1]
    An = ref.norm_adj(A, "sym")
    for reorder in (None, "rcm"):
        operators.clear()
        robust_propagate(A, X, 2.0, 3, 0.5, mode=mode, reorder=reorder)
        (op,) = operators
        assert op["X"].dtype == dtype and op["An"].dtype == dtype
        row = {v: i for i, v in enumerate(Xs[:, 0])}
        perm = np.array([row[v] for v in op["X"][:, 0]])
        assert_array_equal(op["X"], Xs[perm])
        assert (perm == np.arange(30)).all() == (reorder is None)
        want = An[perm][:, perm]
        if mode == "edges":      # Ã − c·(XsXsᵀ on Ã's pattern), c = ε/‖XsXsᵀ‖_F
            G = Xs.astype(np.float64) @ Xs.T.astype(np.float64)
            want = want - 0.5 / np.linalg.norm(G) * np.where(want != 0, G[perm][:, perm], 0.0)
        assert_allclose(op["An"].toarray(), want, rtol=1e-5 if dtype == np.float32 else 1e-12,
                        atol=1e-6 if dtype == np.float32 else 1e-14)


def test_robust_propagate_budget_counts_x_in_the_locality_order(monkeypatch):
    # reorder="rcm": X in the locality order (a new n x d array) and the four work arrays
    # besides it: 5 arrays, one more than in the caller's order (4).
    n, d = 40, 50
    A = nx.to_scipy_sparse_array(nx.cycle_graph(n))
    X = np.random.default_rng(0).standard_normal((n, d))
    need = 5 * n * d * 8
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(need))
    assert robust_propagate(A, X, 1.0, 2, 0.1, reorder="rcm").shape == (n, d)
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(need - 1))
    assert robust_propagate(A, X, 1.0, 2, 0.1, reorder=None).shape == (n, d)
    with pytest.raises(ValueError, match=r"^robust_propagate would need 78\.1 KiB \(5 dense 40 x "
                                         r"50 arrays of 8 bytes per entry: X in the locality order "
                                         r"and the product's buffers\) but only .*; pass "
                                         r"reorder=None\."):
        robust_propagate(A, X, 1.0, 2, 0.1, reorder="rcm")


def test_the_overflow_messages_name_the_dtype_eps_lam_r_and_s():
    # ρ(r(Ã − εP)) ≈ 999 (see above): the whole message, with the numbers of the call.
    A = sp.coo_array((1, 1), dtype=bool)
    with pytest.raises(ValueError) as exc:
        robust_propagate(A, np.float32([[.1257]]), 0.001, 16, 1e6)
    assert str(exc.value) == (
        "robust_propagate: the result is not representable in float32: with eps=1000000.0 and "
        "lam=0.001 the terms of the series grow (the spectral radius of r(Ã − eps·XXᵀ/‖XXᵀ‖_F) "
        "exceeds 1, r = lam/(lam+1) = 0.000999) and overflow within S=16 steps; use a smaller "
        "eps, a larger lam or a smaller S, or float64 features")
    from ngc_ref.graphs import erdos_renyi
    A = erdos_renyi(40, 0.2, seed=0)
    X = np.random.default_rng(0).standard_normal((40, 5))
    with pytest.raises(ValueError) as exc:
        neumann_partial_sums(A, X, 32.0, (7, 5000), eps=1e6)   # S: the largest depth asked
    assert str(exc.value) == (
        "neumann_partial_sums: the result is not representable in float64: with eps=1000000.0 "
        "and lam=32.0 the terms of the series grow (the spectral radius of "
        "r(Ã − eps·XXᵀ/‖XXᵀ‖_F) exceeds 1, r = lam/(lam+1) = 0.97) and overflow within S=5000 "
        "steps; use a smaller eps, a larger lam or a smaller S")


def test_partial_sums_dtypes():
    # float32 (float16 too: read as float32) is propagated in float32, other dtypes in float64.
    A = nx.cycle_graph(6)
    X = np.arange(12).reshape(6, 2) - 5
    for Xt, dtype in ((X, np.float64), (X > 0, np.float64), (X.astype(np.float16), np.float32)):
        H = neumann_partial_sums(A, Xt, 2.0, (3,), eps=0.5)[3]
        assert H.dtype == dtype
        want = neumann_partial_sums(A, Xt.astype(np.float64), 2.0, (3,), eps=0.5)[3]
        assert_allclose(H, want, rtol=1e-12 if dtype == np.float64 else 1e-5)
