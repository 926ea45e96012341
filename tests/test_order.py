"""The locality order (``reorder=``, ngc_ref._order): the caller's node order and the unreordered
numbers to rounding from every operator; the permutation itself; the decisions of "auto" at,
above and below their thresholds. No timings: the speed is benchmarks/run.py's."""

import math

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


# --- the rule of "auto", written out from the module docstring --------------------------------

FIT = "the rows of X fit in the cache: every order reads them from it"
FEW = "too few products: even the best order would not pay for the permutation"
MEASURING = "too few products: measuring the order would cost more than 5% of them"
RANDOM = "a random graph: no order has short gaps"
NO_GAIN = "RCM does not improve the locality enough to pay"


def documented_rule(n, nnz, products, row_bytes, learnt, gaps, verdict):
    """The Decision of "auto" as the module docstring states it (its cost model and steps 1-4),
    as a dict of the fields it sets. ``learnt``: what the operator knows already (measured,
    order, matrix); ``gaps``: the reuse gaps in the caller's order and in RCM's; ``verdict``:
    the random-graph test's (random, cycles, expansion)."""
    C = _order.COSTS
    if products < 1:
        return dict(reorder=False, reason="no products: nothing to reorder for")
    if n * row_bytes <= 2 ** 20:                                         # step 1: 1 MiB
        return dict(reorder=False, reason=FIT)
    product = nnz * (row_bytes + C["base"])                  # one product, caller's order
    cost = C["rows"] * n * row_bytes + (0.0 if learnt["matrix"] else C["matrix"] * nnz)
    ahead = cost + (0.0 if learnt["order"] else C["rcm"] * nnz)        # RCM too, if not kept
    if products * product < ahead:                       # step 3, every read made a hit
        return dict(reorder=False, reason=FEW, saving=products * product, cost=ahead)
    entries = (min(n, 2048) + 4 * 256) * nnz / n          # the sample and the four balls
    share = 0.05 * products * product
    if not learnt["measured"] and C["measure"] * entries > share:
        return dict(reorder=False, reason=MEASURING, saving=share, cost=C["measure"] * entries)
    window = max(1, int(2 ** 20 / (row_bytes * nnz / n)))
    before = float(np.mean(gaps[0] <= window))
    seen = dict(window=window, before=before, cycles=verdict[1], expansion=verdict[2])
    if verdict[0]:                                                      # step 2
        return dict(reorder=False, reason=RANDOM, **seen)
    best = products * product * (1.0 - before)
    if best < ahead:                                                    # step 3
        return dict(reorder=False, reason=FEW, saving=best, cost=ahead, **seen)
    after = float(np.mean(gaps[1] <= window))
    saving = products * product * (after - before)
    if after - before < 0.1 or saving < cost:                           # step 4
        return dict(reorder=False, reason=NO_GAIN, after=after, saving=saving, cost=cost, **seen)
    return dict(reorder=True, reason="RCM pays", after=after, saving=saving, cost=cost, **seen)


def assert_decision(got, want):
    assert got.reorder is want["reorder"] and got.reason == want["reason"], (got, want)
    assert got.window == want.get("window", 0)
    for field in ("before", "after", "cycles", "expansion", "saving", "cost"):
        value = getattr(got, field)
        if field in want:
            assert value == pytest.approx(want[field], rel=1e-13, abs=0), (field, got, want)
        else:
            assert np.isnan(value), (field, got)


@pytest.fixture(scope="module")
def ring():
    """A ring of 2^10 nodes and 2^11 nonzeros: 256 float64 columns are 2 MiB (out of the
    cache), and with 256 columns every cost of the model is an integer or an integer over a
    power of two (exact in float64), so a threshold can be met exactly."""
    return sp.csr_array(graphs.ring(1024))


def run_rule(A, calls, gaps, verdict, monkeypatch):
    """Each call of ``calls`` ((products, columns, itemsize), or "matrix": P A Pᵀ is made) on
    one "auto" operator, its Decision against :func:`documented_rule`; the measurements are
    the given ``gaps`` and ``verdict`` (so their values are exact), each taken at most once
    and only where the rule measures, RCM computed only where it reaches step 4."""
    taken = []

    def reuse_gaps(indptr, indices, order=None):
        taken.append("before" if order is None else "after")
        return np.asarray(gaps[order is not None])

    def random_like(indptr, indices):
        taken.append("random")
        return verdict

    monkeypatch.setattr(_order, "reuse_gaps", reuse_gaps)
    monkeypatch.setattr(_order, "random_like", random_like)
    r = _order.Reorder(A, "auto")
    assert r.decision is None                       # nothing decided before the first call
    learnt = dict(measured=False, order=False, matrix=False)
    n, nnz = A.shape[0], A.nnz
    for call in calls:
        if call == "matrix":
            r.matrix(A, "test")
            learnt["matrix"] = True
            continue
        products, columns, itemsize = call
        got = r.ordering(products, columns, itemsize)
        want = documented_rule(n, nnz, products, columns * itemsize, learnt, gaps, verdict)
        assert_decision(r.decision, want)
        assert (got is not None) is want["reorder"]
        learnt["measured"] |= "before" in want
        learnt["order"] |= "after" in want
        assert (r.order is not None) is learnt["order"]
        assert sorted(taken) == sorted(["before", "random"] * learnt["measured"]
                                       + ["after"] * learnt["order"])
    return r


SHORT, LONG = 1, 10 ** 6            # a gap inside every window, one outside all of them


def gaps_with(short, long):
    return np.array([SHORT] * short + [LONG] * long)


LOCAL = (False, 0.2, 0.1)           # the random-graph test's verdict: not random


def _product(A, row_bytes=2048):
    return A.nnz * (row_bytes + _order.COSTS["base"])


def _rows_for(A, target, products=20, *, with_rcm=True, row_bytes=2048):
    """COSTS["rows"] that puts ``target`` (a function of the product's cost) exactly on the
    cost (``with_rcm=False``) or the cost ahead (RCM included) of a fresh operator:
    n · row_bytes = 2^21, so the division is exact."""
    C, nnz, scale = _order.COSTS, A.nnz, A.shape[0] * row_bytes
    fixed = C["matrix"] * nnz + (C["rcm"] * nnz if with_rcm else 0.0)
    want = target(products * _product(A, row_bytes))
    rows = (want - fixed) / scale
    assert rows * scale + C["matrix"] * nnz + (C["rcm"] * nnz if with_rcm else 0.0) == want
    return rows


@pytest.mark.parametrize("name, calls, gaps, verdict, costs", [
    ("no products", [(0, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL, {}),
    # Step 1: X of n · columns · itemsize bytes against the 1 MiB cache.
    ("X is the cache", [(64, 128, 8), (64, 256, 4)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL,
     {}),
    ("X one column more", [(64, 129, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL, {}),
    # Step 3 before measuring: products · product against RCM + P A Pᵀ + X in and out.
    ("a perfect order just pays", [(20, 256, 8)], (gaps_with(0, 4), gaps_with(2, 2)), LOCAL,
     {"rows": lambda A: _rows_for(A, lambda p: p)}),
    ("a perfect order just does not pay", [(20, 256, 8)], (gaps_with(0, 4), gaps_with(2, 2)),
     LOCAL, {"rows": lambda A: _rows_for(A, lambda p: p + 1)}),
    # The measurement against MEASURE_SHARE of the products: 19 and 20 products here.
    ("measuring costs more than 5 %", [(19, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL,
     {}),
    ("measuring costs less than 5 %", [(20, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL,
     {}),
    ("measuring costs exactly 5 %", [(20, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL,
     {"measure": lambda A: 0.05 * 20 * _product(A) / 4096}),      # 4096 entries measured
    ("measuring costs just over 5 %", [(20, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL,
     {"measure": lambda A: np.nextafter(0.05 * 20 * _product(A) / 4096, np.inf)}),
    # Step 2.
    ("a random graph", [(20, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), (True, 0.01, 0.8), {}),
    # Step 3 after measuring: the best case saves the misses 1 - before.
    ("the best case just pays", [(20, 256, 8)], (gaps_with(1, 1), gaps_with(2, 0)), LOCAL,
     {"rows": lambda A: _rows_for(A, lambda p: 0.5 * p)}),
    ("the best case just does not pay", [(20, 256, 8)], (gaps_with(1, 1), gaps_with(2, 0)),
     LOCAL, {"rows": lambda A: _rows_for(A, lambda p: 0.5 * p + 1)}),
    # Step 4: the saving (after - before) against P A Pᵀ and X in and out (RCM spent).
    ("the saving just pays", [(20, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL,
     {"rows": lambda A: _rows_for(A, lambda p: 0.5 * p, with_rcm=False)}),
    ("the saving just does not pay", [(20, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL,
     {"rows": lambda A: _rows_for(A, lambda p: 0.5 * p + 1, with_rcm=False)}),
    # What an operator keeps: RCM, then P A Pᵀ, are not paid for again; the measurements are
    # not taken again, nor their cost weighed (10 products alone would not measure).
    ("kept: RCM, then P A Pᵀ", [(20, 256, 8), (1, 256, 8), "matrix", (1, 256, 8), (3, 256, 8),
                                (20, 256, 8)], (gaps_with(1, 3), gaps_with(3, 1)), LOCAL, {}),
    ("kept: the measurements only", [(20, 256, 8), (10, 256, 8)],
     (gaps_with(9, 1), gaps_with(10, 0)), LOCAL, {}),
    ("kept: a random graph's", [(20, 256, 8), (10, 256, 8)],
     (gaps_with(1, 3), gaps_with(3, 1)), (True, 0.0, 0.5), {}),
    # The window W = CACHE_BYTES / (row bytes · nnz/n) rows, an integer, at least 1.
    ("W = 218.45 rows", [(20, 300, 8)], (np.array([218, 219, LONG, 1]), np.array([1, 1, 1, 1])),
     LOCAL, {}),
    ("W below one row", [(20, 2 ** 16, 8)], (np.array([1, 2, 2, LONG]), np.array([1, 1, 1, 2])),
     LOCAL, {}),
])
def test_auto_follows_its_documented_rule(ring, monkeypatch, name, calls, gaps, verdict, costs):
    """Each threshold of "auto" at, just above and just below it, on a ring whose measured
    localities are given (so they are exact) and whose cost constants are moved to put a
    threshold exactly on the call's numbers where needed."""
    for key, value in costs.items():
        monkeypatch.setitem(_order.COSTS, key, value(ring))
    run_rule(ring, calls, gaps, verdict, monkeypatch)


def test_auto_on_a_gpu_keeps_the_callers_order(grid128):
    """On a GPU "auto" never reorders (the model is measured on CPU caches), whatever the call."""
    r = _order.Reorder(grid128, "auto", gpu=True)
    assert r.ordering(64, 16, 8) is None and r.order is None
    assert r.decision.reorder is False
    assert r.decision.reason == "on a GPU (the cost model is measured on CPU caches)"


# --- the permutation's memory, its edge cases, SciPy's RCM ------------------------------------

def _budget(monkeypatch, nbytes, gpu=False):
    monkeypatch.setenv("NGC_REF_GPU_MEMORY_BUDGET" if gpu else "NGC_REF_MEMORY_BUDGET",
                       str(int(nbytes)))


@pytest.mark.parametrize("shape, work_arrays", [((45,), 0), ((45, 3), 0), ((45, 3), 2),
                                                ((45,), 4)])
def test_take_needs_x_and_its_work_arrays_in_the_budget(small, monkeypatch, shape, work_arrays):
    """P X and ``work_arrays`` more n x d arrays (d = 1 for a 1-D X) must fit the budget: at
    exactly their bytes it runs, one byte less is refused, naming the call and the way out."""
    order = _order.rcm(small)
    X = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    need = (1 + work_arrays) * X.size * 4
    kwargs = {"work_arrays": work_arrays} if work_arrays else {}
    _budget(monkeypatch, need)
    assert_array_equal(order.take(X, "my_call", **kwargs), X[order.perm])
    _budget(monkeypatch, need - 1)
    with pytest.raises(ValueError, match=r"^my_call would need .*: X in the locality order and "
                                         r"the product's buffers\) .*; pass reorder=None\. "):
        order.take(X, "my_call", **kwargs)


def test_take_and_restore_gather_the_rows_on_cpu_threads(small, monkeypatch):
    """P X and Pᵀ Y of NumPy arrays go through the threaded gather (ngc_ref._spmm.take_rows,
    tested in tests/test_spmm.py); the GPU's through CuPy's indexing (tests/test_gpu.py)."""
    calls = []
    real = _order.take_rows
    monkeypatch.setattr(_order, "take_rows", lambda X, i: calls.append(X.shape) or real(X, i))
    order = _order.rcm(small)
    X = np.random.default_rng(0).standard_normal((small.shape[0], 3))
    P = order.take(X, "t")
    assert_array_equal(P, X[order.perm])
    assert_array_equal(order.restore(P), X)
    assert calls == [X.shape, X.shape]


def test_the_permuted_matrix_needs_its_bytes_in_the_budget(small, monkeypatch):
    """P A Pᵀ: its values and indices and the O(nnz) indices that build it, nnz · (value +
    4 index bytes) + 8 (n + 1), through the guard and through an operator's Reorder."""
    A = sp.csr_array(small, dtype=np.float32)
    A.indices = A.indices.astype(np.int32)
    n, nnz = A.shape[0], A.nnz
    need = nnz * (4 + 4 * 4) + 8 * (n + 1)
    order = _order.rcm(A)
    _budget(monkeypatch, need)
    assert_array_equal(order.matrix(A, "my_call").toarray(),
                       A.toarray()[order.perm][:, order.perm])
    _budget(monkeypatch, need - 1)
    message = (rf"^my_call would need .* \(the adjacency in the locality order \({nnz} "
               r"nonzeros\)\) .*; pass reorder=None\. ")
    with pytest.raises(ValueError, match=message):
        order.matrix(A, "my_call")
    with pytest.raises(ValueError, match=message):
        _order.Reorder(A, "rcm").matrix(A, "my_call")


def test_on_a_gpu_the_device_budget_counts(small, monkeypatch):
    """An Ordering on the GPU checks X's and P A Pᵀ's bytes against the device's budget,
    not the host's (the refusal says "on the GPU")."""
    order = _order.rcm(small)
    gpu = _order.Ordering(order.perm, order.inv, gpu=True)
    X = features(45)
    _budget(monkeypatch, 1)                        # the host's: not the one that counts
    _budget(monkeypatch, X.nbytes, gpu=True)
    assert_array_equal(gpu.take(X, "my_call"), X[order.perm])
    _budget(monkeypatch, 1, gpu=True)
    for call in (lambda: gpu.take(X, "my_call"), lambda: gpu.matrix(small, "my_call")):
        with pytest.raises(ValueError, match=r"^my_call would need .* on the GPU"):
            call()


@pytest.mark.parametrize("n", [1, 2, 3])
def test_rcm_of_a_graph_without_edges_is_a_permutation(n):
    """No entries at all (no self-loops either): still a permutation of the n nodes. (n = 0
    is left out: SciPy's RCM fails on it, and an operator never asks, below two nodes.)"""
    order = _order.rcm(sp.csr_array((n, n)))
    assert_array_equal(np.sort(order.perm), np.arange(n))
    assert_array_equal(order.inv[order.perm], np.arange(n))


def test_rcm_is_kept_down_to_two_nodes():
    """"rcm" permutes every graph of two nodes or more; with fewer there is nothing to do."""
    for n, orders in [(0, False), (1, False), (2, True)]:
        r = _order.Reorder(sp.csr_array(graphs.path(n) if n else sp.csr_array((0, 0))), "rcm")
        got = r.ordering(1, 1, 8)
        assert (got is not None) is orders
        assert r.decision is None                   # "rcm" decides nothing
        if orders:
            assert_array_equal(np.sort(got.perm), np.arange(n))


def test_rcm_narrows_the_band_as_scipy_does(small):
    """The band of P A Pᵀ is the band of SciPy's own reverse Cuthill–McKee on the same pattern
    (the matrix sorted as every operator's Ã_norm is)."""
    from scipy.sparse.csgraph import reverse_cuthill_mckee
    for A in (small, shuffled_grid(9, 31, isolated=2, seed=3)):
        A = sp.csr_array(A)
        A.sort_indices()
        p = reverse_cuthill_mckee(sp.csr_matrix(A), symmetric_mode=True)
        assert bandwidth(_order.rcm(A).matrix(A, "test")) == bandwidth(A[p][:, p])


# --- what "auto" measures: the sample, the entries, the balls ---------------------------------

@pytest.mark.parametrize("n", [1, 2, 50, 100, 2048, 2049, 10_000])
def test_the_sample_is_every_column_or_2048_evenly_spaced(n):
    got = _order._sample(n)
    if n <= _order.SAMPLE_ROWS:
        assert_array_equal(got, np.arange(n))                       # all of them
    else:
        step = (n - 1) / (_order.SAMPLE_ROWS - 1)
        assert len(got) == _order.SAMPLE_ROWS and got[0] == 0 and got[-1] == n - 1
        assert set(np.diff(got)) <= {math.floor(step), math.ceil(step)}


def test_reuse_gaps_of_a_graph_larger_than_fifty(small):
    """Every column of a 100-node graph: the gaps read directly from the dense matrix."""
    A = shuffled_grid(10, 10, seed=4)
    dense = A.toarray()
    want = np.concatenate([np.diff(np.flatnonzero(dense[:, j])) for j in range(100)])
    assert_array_equal(np.sort(_order.reuse_gaps(A.indptr, A.indices)), np.sort(want))


@pytest.mark.parametrize("n, nnz", [(0, 0), (1, 1), (1, 3), (1000, 5000), (5000, 30_000)])
def test_measured_entries(n, nnz):
    """The sampled columns (at most 2048) and the four balls of 256 nodes, each of mean degree
    nnz / n."""
    want = (min(n, 2048) + 4 * 256) * nnz / n if n else 0.0
    assert _order.measured_entries(n, nnz) == pytest.approx(want, rel=1e-15)


def balls_reference(A, ball_nodes, levels=64, seeds=4):
    """``random_like`` written out with Python sets: breadth-first balls from the seeds
    k·n/4 + n/8 (k = 0..3, each quotient rounded down), each level's new nodes taken in
    increasing label until the ball has ``ball_nodes``; cycles = (off-diagonal entries of its
    rows inside it − 2(size − 1)) / (all of them − 2(size − 1)), expansion = entries leaving /
    all, summed over the balls, 0 where there is nothing to divide."""
    n = A.shape[0]
    row = [set(A.indices[A.indptr[i]:A.indptr[i + 1]].tolist()) - {i} for i in range(n)]
    inside = spare = leaving = volume = 0
    for k in range(seeds):
        seed = k * n // seeds + n // (2 * seeds)
        ball, front = {seed}, [seed]
        for _ in range(levels):
            if len(ball) >= ball_nodes or not front:
                break
            front = sorted(set().union(*(row[i] for i in front)) - ball)[:ball_nodes - len(ball)]
            ball.update(front)
        entries = [j in ball for i in ball for j in row[i]]
        tree = 2 * (len(ball) - 1)
        inside += sum(entries) - tree
        spare += len(entries) - tree
        leaving += len(entries) - sum(entries)
        volume += len(entries)
    cycles = inside / spare if spare else 0.0
    expansion = leaving / volume if volume else 0.0
    return cycles < _order.CYCLE_MIN and expansion > _order.EXPANSION_MIN, cycles, expansion


@pytest.mark.parametrize("name, A, ball_nodes, levels", [
    ("Erdős–Rényi, degree 8, balls of 256", graphs.erdos_renyi(3001, 8 / 3001, seed=3), 256, 64),
    ("Erdős–Rényi, degree 4, balls of 7", graphs.erdos_renyi(301, 4 / 301, seed=5), 7, 64),
    ("shuffled grid, balls of 20, 3 levels", shuffled_grid(20, 21, seed=2), 20, 3),
    ("a ring smaller than a ball: the balls overlap", graphs.ring(30), 256, 64),
    ("a grid with self-loops",
     sp.csr_array(graphs.grid(7, 9) + sp.csr_array(sp.identity(63))), 256, 64),
    ("a tree: nothing beyond its spanning tree", graphs.path(11), 256, 64),
    ("no edges", sp.csr_array((10, 10)), 256, 64),
])
def test_random_like_against_the_balls_written_out(name, A, ball_nodes, levels, monkeypatch):
    monkeypatch.setattr(_order, "BALL_NODES", ball_nodes)
    monkeypatch.setattr(_order, "BALL_LEVELS", levels)
    A = sp.csr_array(A)
    want = balls_reference(A, ball_nodes, levels)
    got = _order.random_like(A.indptr, A.indices)
    assert got[0] is want[0] and got[1:] == want[1:], name
