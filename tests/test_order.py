"""The locality order (``reorder=``, ngc_ref._order): the caller's node order and the unreordered
numbers to rounding from every operator; the permutation itself; the decisions of "auto" at,
above and below their thresholds. No timings: the speed is benchmarks/run.py's."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

import ngc_ref
from ngc_ref import _order, graphs
from ngc_ref.neumann import float32_error_estimate

from . import _reference as ref


def shuffled_grid(rows, cols, isolated=0, seed=0):
    """A rows x cols grid plus ``isolated`` isolated nodes, in a random node order (so RCM
    changes it)."""
    A = sp.block_diag([graphs.grid(rows, cols), sp.csr_array((isolated, isolated))],
                      format="csr")
    p = np.random.default_rng(seed).permutation(A.shape[0])
    return sp.csr_array(A[p][:, p])


def features(n, d=3, seed=1, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal((n, d)).astype(dtype)


def bandwidth(A):
    C = sp.coo_array(A)
    return int(np.abs(C.row - C.col).max())


def assert_rounding(got, want, dtype=np.float64, lam=1.0, S=1):
    """Equal to rounding: 1e-12 relative in float64, the float32 estimate in float32."""
    scale = max(1.0, float(np.abs(want).max(initial=0.0)))
    tol = 1e-12 if dtype == np.float64 else 10 * float32_error_estimate(lam, S)
    assert_allclose(got, want, rtol=0, atol=tol * scale)


@pytest.fixture(scope="module")
def small():
    """A shuffled 6 x 7 grid with 3 isolated nodes: 45 nodes."""
    return shuffled_grid(6, 7, isolated=3)


# --- the permutation -----------------------------------------------------------------------

def test_rcm_is_a_permutation_that_narrows_the_band(small):
    order = _order.rcm(small)
    n = small.shape[0]
    assert_array_equal(np.sort(order.perm), np.arange(n))
    assert_array_equal(order.inv[order.perm], np.arange(n))
    dense = small.toarray()
    B = order.matrix(small, "test")
    assert B.has_sorted_indices
    assert_array_equal(B.toarray(), dense[order.perm][:, order.perm])   # P A Pᵀ, exactly
    assert bandwidth(B) < bandwidth(small) // 2      # what RCM is for (grid: about its side)
    X = features(n)
    assert_array_equal(order.take(X, "test"), X[order.perm])
    assert_array_equal(order.restore(order.take(X, "test")), X)
    nodes = np.array([4, 0, 44])
    assert_array_equal(order.perm[order.positions(nodes)], nodes)


def test_reorder_values_are_checked():
    A, X = shuffled_grid(3, 3), features(9)
    calls = [lambda r: ngc_ref.neumann_propagate(A, X, 1.0, 2, reorder=r),
             lambda r: ngc_ref.NeumannFilter(A, 1.0, 2, reorder=r),
             lambda r: ngc_ref.gsd_solve(A, X, 1.0, method="cg", reorder=r),
             lambda r: ngc_ref.robust_propagate(A, X, 1.0, 2, 0.1, reorder=r),
             lambda r: ngc_ref.connectivity_factor(A, 1.0, 2, reorder=r)]
    for call in calls:
        for bad in ("RCM", "none", 1, True):
            with pytest.raises(ValueError, match=r"reorder must be one of 'auto', 'rcm' or None"):
                call(bad)


# --- every operator: the caller's order, the unreordered numbers ----------------------------

@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_propagation_in_rcm_order(small, norm, dtype):
    X = features(45, dtype=dtype)
    M = ref.neumann(small, 3.0, 6, norm)
    for reorder in (None, "rcm"):
        filt = ngc_ref.NeumannFilter(small, 3.0, 6, norm=norm, reorder=reorder)
        got = filt @ X
        assert got.dtype == dtype
        assert_rounding(got, M @ X, dtype, 3.0, 6)
        assert_rounding(filt.apply(X, transpose=True), M.T @ X, dtype, 3.0, 6)
        assert_rounding(filt @ X[:, 0], M @ X[:, 0], dtype, 3.0, 6)        # a 1-D signal
        assert_rounding(ngc_ref.neumann_propagate(small, X, 3.0, 6, norm=norm,
                                                  reorder=reorder), M @ X, dtype, 3.0, 6)
    iso = np.flatnonzero(np.diff(small.indptr) == 0)
    assert len(iso) == 3
    assert_rounding(got[iso], X[iso] * (1 - 0.75 ** 7), dtype, 3.0, 6)    # isolated nodes
    assert (filt._order.order is not None) and filt.reorder == "rcm"


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("mode", ["full", "edges"])
def test_robust_in_rcm_order(small, norm, mode):
    X = features(45, d=4)
    mask = (ref.tilde(small) != 0) if mode == "edges" else None
    want = ref.rngc(small, X, 2.0, 5, 0.3, norm, mask=mask)
    for reorder in (None, "rcm"):
        got = ngc_ref.robust_propagate(small, X, 2.0, 5, 0.3, norm=norm, mode=mode,
                                       reorder=reorder)
        assert_rounding(got, want)
    got32 = ngc_ref.robust_propagate(small, X.astype(np.float32), 2.0, 5, 0.3, norm=norm,
                                     mode=mode, reorder="rcm")
    assert got32.dtype == np.float32
    assert_rounding(got32, want, np.float32, 2.0, 5)


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("method", ["cg", "chebyshev"])
def test_solve_in_rcm_order(small, norm, method):
    X = features(45)
    want = ref.gsd_inverse(small, 4.0, norm) @ X
    plain = ngc_ref.gsd_solve(small, X, 4.0, norm=norm, method=method, rtol=1e-13,
                              reorder=None)
    F, info = ngc_ref.gsd_solve(small, X, 4.0, norm=norm, method=method, rtol=1e-13,
                                reorder="rcm", return_info=True)
    assert info.converged and info.method == method
    assert_allclose(F, want, rtol=0, atol=1e-11)
    assert_allclose(F, plain, rtol=0, atol=1e-11)
    F32 = ngc_ref.gsd_solve(small, X.astype(np.float32), 4.0, norm=norm, method=method,
                            reorder="rcm")
    assert F32.dtype == np.float32
    assert_allclose(F32, want, rtol=0, atol=1e-5)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_solve_guess_and_callback_in_callers_order(small, norm):
    X = features(45)
    F = ngc_ref.gsd_solve(small, X, 4.0, norm=norm, method="cg", rtol=1e-12, reorder=None)
    seen = []
    F2, info = ngc_ref.gsd_solve(small, X, 4.0, norm=norm, method="cg", rtol=1e-12,
                                 reorder="rcm", callback=seen.append, return_info=True)
    assert len(seen) == info.iterations > 0
    assert_allclose(seen[-1], F2, rtol=0, atol=1e-12)     # the iterate as the caller sees it
    # The answer as a guess is already solved: x0 reached the solver in the same order as X.
    _, info = ngc_ref.gsd_solve(small, X, 4.0, norm=norm, method="cg", rtol=1e-8, x0=F,
                                reorder="rcm", return_info=True)
    assert info.iterations == 0
    # The direct methods order the matrix themselves: "rcm" leaves them as they are.
    assert_allclose(ngc_ref.gsd_solve(small, X, 4.0, norm=norm, method="direct",
                                      reorder="rcm"), F, rtol=0, atol=1e-10)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_tau_in_rcm_order(small, norm):
    want = ref.tau_i(small, 5.0, 7, norm)
    nodes = np.array([44, 3, 17, 0])
    for method in ("exact", "dense"):
        res = ngc_ref.connectivity_factor(small, 5.0, 7, norm=norm, method=method,
                                          reorder="rcm")
        assert_allclose(res.tau_i, want, rtol=1e-12)
        assert res.argmax == int(np.argmax(want))
        assert_allclose(res.row_sums, ref.neumann(small, 5.0, 7, norm).sum(axis=1),
                        rtol=1e-12)
    for block_size in (1, 3):
        res = ngc_ref.connectivity_factor(small, 5.0, 7, norm=norm, nodes=nodes,
                                          block_size=block_size, reorder="rcm", workers=2)
        assert_array_equal(res.nodes, nodes)
        assert_allclose(res.tau_i, want[nodes], rtol=1e-12)
        assert res.argmax == nodes[int(np.argmax(want[nodes]))]
    est = ngc_ref.connectivity_factor(small, 5.0, 7, norm=norm, method="estimate", seed=0,
                                      reorder="rcm")
    assert est.tau_lower * (1 - 1e-12) <= want.max() <= est.tau_upper * (1 + 1e-12)


@pytest.mark.parametrize("n", [0, 1, 2])
@pytest.mark.parametrize("reorder", ["rcm", "auto"])
def test_tiny_and_edgeless_graphs(n, reorder):
    A, X = sp.csr_array((n, n)), features(n)
    mass = 1 - 0.5 ** 4                     # Ã_S x = (1 − r^{S+1}) x on an isolated node
    assert_rounding(ngc_ref.neumann_propagate(A, X, 1.0, 3, reorder=reorder), X * mass)
    assert_rounding(ngc_ref.gsd_solve(A, X, 1.0, method="cg", reorder=reorder), X)
    assert_rounding(ngc_ref.robust_propagate(A, X, 1.0, 3, 0.5, reorder=reorder),
                    ref.rngc(A, X, 1.0, 3, 0.5, "sym") if n else X)
    if n:
        tau = ngc_ref.connectivity_factor(A, 1.0, 3, reorder=reorder).tau
        assert tau == pytest.approx(n)      # isolated nodes: τ_i = n


def test_a_filter_computes_its_permutation_once(small, monkeypatch):
    calls = []
    real = _order.rcm
    monkeypatch.setattr(_order, "rcm", lambda *a, **k: calls.append(1) or real(*a, **k))
    filt = ngc_ref.NeumannFilter(small, 2.0, 3, norm="rw", reorder="rcm")
    X = features(45)
    first = filt @ X
    assert_array_equal(filt @ X, first)                      # the same kernel, the same sums
    filt.apply(X, transpose=True)
    filt @ X.astype(np.float32)
    assert len(calls) == 1


def test_the_permuted_matrix_goes_through_the_memory_guard(monkeypatch):
    A = shuffled_grid(40, 40)                      # 1600 nodes, ~7800 nonzeros
    x = features(1600, d=1)
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", "150KiB")    # x and its buffers fit, P Ã Pᵀ not
    assert ngc_ref.neumann_propagate(A, x, 1.0, 2, reorder=None).shape == x.shape
    with pytest.raises(ValueError, match=r"adjacency in the locality order.*reorder=None"):
        ngc_ref.neumann_propagate(A, x, 1.0, 2, reorder="rcm")
    with pytest.raises(ValueError, match=r"adjacency in the locality order.*reorder=None"):
        ngc_ref.gsd_solve(A, x, 1.0, method="cg", reorder="rcm")


# --- what "auto" measures --------------------------------------------------------------------

def test_reuse_gaps_against_the_columns_read_directly(small):
    n = small.shape[0]
    order = _order.rcm(small)
    for perm in (None, order):
        M = small.toarray() if perm is None else small.toarray()[order.perm][:, order.perm]
        want = []
        for j in range(n):                          # every column: the sample is all of them
            rows = np.flatnonzero(M[:, j])
            want.extend(np.diff(rows))
        got = _order.reuse_gaps(small.indptr, small.indices, perm)
        assert_array_equal(np.sort(got), np.sort(want))
    gaps = np.array([1, 2, 2, 5])
    assert [_order.locality(gaps, w) for w in (0, 1, 2, 4, 5)] == [0.0, 0.25, 0.75, 0.75, 1.0]
    assert _order.locality(np.array([], dtype=int), 3) == 1.0     # no gaps: nothing to gain


def _random_verdict(A):
    A = sp.csr_array(A)
    return _order.random_like(A.indptr, A.indices)


@pytest.mark.parametrize("name, A, random", [
    ("Erdős–Rényi, degree 8", graphs.erdos_renyi(20000, 8 / 20000, seed=1), True),
    ("random 3-regular", graphs.random_regular(20000, 3, seed=1), True),
    ("shuffled grid", shuffled_grid(60, 60), False),
    ("path (a tree: no cycles, no expansion)", graphs.path(4000), False),
    ("complete graph", graphs.complete(300), False),
])
def test_random_graphs_are_told_from_local_ones(name, A, random):
    assert _random_verdict(A)[0] is random, name


def test_random_graph_thresholds(monkeypatch):
    er = graphs.erdos_renyi(20000, 8 / 20000, seed=1)
    verdict, cycles, expansion = _random_verdict(er)
    assert verdict
    for cmin, emin, want in [(cycles, _order.EXPANSION_MIN, False),           # at: not below
                             (cycles + 1e-9, _order.EXPANSION_MIN, True),
                             (_order.CYCLE_MIN, expansion, False),            # at: not above
                             (_order.CYCLE_MIN, expansion - 1e-9, True)]:
        monkeypatch.setattr(_order, "CYCLE_MIN", cmin)
        monkeypatch.setattr(_order, "EXPANSION_MIN", emin)
        assert _random_verdict(er)[0] is want


@pytest.fixture(scope="module")
def grid128():
    """A shuffled 128 x 128 grid: 2^14 nodes, so 8 float64 columns are exactly 1 MiB."""
    return sp.csr_array(ngc_ref.normalized_adjacency(shuffled_grid(128, 128), norm="sym"))


def test_auto_reorders_a_shuffled_grid_only_when_x_leaves_the_cache(grid128):
    r = _order.Reorder(grid128, "auto")
    assert r.ordering(64, 8, 8) is None                       # n · 8 · 8 bytes = CACHE_BYTES
    assert "fit in the cache" in r.decision.reason and r.order is None
    order = r.ordering(64, 9, 8)                              # one column more
    assert order is not None and r.decision.reorder
    assert r.decision.after - r.decision.before >= _order.MIN_GAIN
    assert r.decision.saving >= r.decision.cost


def test_auto_spends_nothing_on_a_random_graph():
    A = sp.csr_array(ngc_ref.normalized_adjacency(graphs.erdos_renyi(20000, 8 / 20000, seed=2),
                                                  norm="sym"))
    r = _order.Reorder(A, "auto")
    assert r.ordering(1000, 64, 8) is None
    assert r.decision.reason.startswith("a random graph") and r.order is None


def test_auto_needs_enough_products(grid128):
    r = _order.Reorder(grid128, "auto")
    assert r.ordering(1, 16, 8) is None                       # one product cannot pay for RCM
    assert r.decision.reason.startswith("too few products") and r.order is None
    assert r.decision.saving < r.decision.cost
    assert np.isnan(r.decision.before)          # not even sampled: a perfect order would not pay
    assert r.ordering(64, 16, 8) is not None


def test_auto_with_no_products_says_so(grid128):
    """S = 0 makes no product: the caller's order, and the reason is that, not the cache (16
    float64 columns of 2^14 nodes are 2 MiB, twice the cache)."""
    r = _order.Reorder(grid128, "auto")
    assert r.ordering(0, 16, 8) is None and r.order is None
    assert r.decision.reorder is False
    assert r.decision.reason == "no products: nothing to reorder for"


def test_auto_measures_only_where_it_costs_a_small_share_of_the_call(grid128, monkeypatch):
    """The sample and the balls cost ``COSTS['measure']`` per entry they read; "auto" measures
    only where that is at most MEASURE_SHARE of the call's products (the model of the module
    docstring, written out here), so a small call that keeps the caller's order is not slowed
    by the decision. Once measured, an operator does not pay again."""
    n, nnz, columns = grid128.shape[0], grid128.nnz, 16
    product = nnz * (columns * 8 + _order.COSTS["base"])
    ahead = (_order.COSTS["rows"] * n * columns * 8
             + (_order.COSTS["matrix"] + _order.COSTS["rcm"]) * nnz)
    entries = (min(n, _order.SAMPLE_ROWS) + _order.BALL_SEEDS * _order.BALL_NODES) * nnz / n
    measure = _order.COSTS["measure"] * entries
    low = next(p for p in range(1, 10_000) if p * product >= ahead)    # a perfect order pays
    high = next(p for p in range(1, 10_000) if measure <= _order.MEASURE_SHARE * p * product)
    assert low < high                       # the case below exists on this graph

    def not_measured(*args):
        raise AssertionError("the graph was measured")
    for name in ("reuse_gaps", "random_like"):
        monkeypatch.setattr(_order, name, not_measured)
    r = _order.Reorder(grid128, "auto")
    assert r.ordering(high - 1, columns, 8) is None
    assert r.decision.reason.startswith("too few products") and "measuring" in r.decision.reason
    assert np.isnan(r.decision.before) and r.order is None
    monkeypatch.undo()
    assert r.ordering(high, columns, 8) is not None and r.decision.reorder   # measured: pays
    # Measured and RCM computed: a call of `low` products is judged on the rest of the model.
    r.ordering(low, columns, 8)
    assert not np.isnan(r.decision.before)


def test_auto_leaves_a_good_order_alone():
    A = sp.csr_array(ngc_ref.normalized_adjacency(graphs.grid(128, 128), norm="sym"))  # row-major
    r = _order.Reorder(A, "auto")
    assert r.ordering(1000, 16, 8) is None
    assert r.decision.before == 1.0 and r.order is None       # every gap is short already


def test_min_gain_threshold(grid128, monkeypatch):
    r = _order.Reorder(grid128, "auto")
    r.ordering(64, 16, 8)
    gain = r.decision.after - r.decision.before
    for at, want in [(gain + 1e-12, False), (gain, True), (gain - 1e-12, True)]:
        monkeypatch.setattr(_order, "MIN_GAIN", at)
        assert (r.ordering(64, 16, 8) is not None) == want == r.decision.reorder


def test_auto_results_equal_the_callers_order():
    A = shuffled_grid(128, 128)
    X = features(A.shape[0], d=32)
    filt = ngc_ref.NeumannFilter(A, 8.0, 16, reorder="auto")
    got = filt @ X
    assert filt._order.decision.reorder                       # it did reorder
    want = ngc_ref.NeumannFilter(A, 8.0, 16, reorder=None) @ X
    assert_rounding(got, want)
