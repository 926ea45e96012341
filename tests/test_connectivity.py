import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from numpy.testing import assert_allclose

from ngc_ref import connectivity_factor
from ngc_ref.strategies import adjacency_matrices, lams, norms, orders

from . import _reference as ref
from ._spy import record_calls


@given(adjacency_matrices(max_nodes=10, weighted=True), lams(1e-2, 1e3), orders(30), norms(),
       st.integers(1, 12))
def test_exact_matches_dense_reference(A, lam, S, norm, block):
    res = connectivity_factor(A, lam, S, norm=norm, block_size=block)
    want = ref.tau_i(A, lam, S, norm)
    assert_allclose(res.tau_i, want, rtol=1e-9)
    assert_allclose(res.tau, want.max(), rtol=1e-9)
    assert_allclose(res.row_sums, ref.neumann(A, lam, S, norm).sum(axis=1), rtol=1e-10, atol=1e-14)
    dense = connectivity_factor(A, lam, S, norm=norm, method="dense")
    assert_allclose(dense.tau_i, want, rtol=1e-9)


@given(adjacency_matrices(max_nodes=12), lams(1e-2, 1e3), orders(30))
def test_rw_tau_in_one_to_n(A, lam, S):
    # Remark 1 for rw: row sums equal 1 − r^{S+1} and entries are >= 0, so 1 <= τ_i <= n.
    res = connectivity_factor(A, lam, S, norm="rw")
    n = A.shape[0]
    assert np.all(res.tau_i >= 1 - 1e-9) and np.all(res.tau_i <= n * (1 + 1e-9))


def test_closed_forms_figure1():
    assert_allclose(connectivity_factor(nx.empty_graph(4), 64, 64).tau, 4.0, rtol=1e-12)
    # complete graph K_n: Ã_rw = J/n, Ã_S = (I + (mass−1/(λ+1)) J/n... ) -> τ → 1 as λ, S grow
    tau_k4 = connectivity_factor(nx.complete_graph(4), 64, 64).tau
    assert 1.0 <= tau_k4 < 1.01
    assert connectivity_factor(nx.star_graph(3), 64, 64).tau > tau_k4


def test_complete_graph_closed_form():
    # For K_n with self-loops, Ã_rw = J/n, so (rÃ)^s = r^s J/n for s >= 1 and
    # Ã_S = (I + (r + ... + r^S) J/n)/(λ+1).
    n, lam, S = 7, 3.0, 5
    r = lam / (lam + 1)
    M = (np.eye(n) + sum(r ** s for s in range(1, S + 1)) * np.ones((n, n)) / n) / (lam + 1)
    want = n * (M ** 2).sum(axis=1) / (1 - r ** (S + 1)) ** 2
    assert_allclose(connectivity_factor(nx.complete_graph(n), lam, S).tau_i, want, rtol=1e-12)


def test_node_subset_and_argmax():
    G = nx.barbell_graph(5, 3)
    full = connectivity_factor(G, 4.0, 6)
    sub = connectivity_factor(G, 4.0, 6, nodes=np.array([0, 6, 7]))
    assert_allclose(sub.tau_i, full.tau_i[[0, 6, 7]], rtol=1e-12)
    assert full.tau_i[full.argmax] == full.tau
    with pytest.raises(ValueError, match=r"nodes must lie in \[0, 12\]"):
        connectivity_factor(G, 4.0, 6, nodes=np.array([13]))
    with pytest.raises(TypeError, match="nodes must be a 1-D array of integer"):
        connectivity_factor(G, 4.0, 6, nodes=np.array([0.5]))


def test_blockwise_on_a_few_thousand_nodes_matches_small_blocks():
    rng = np.random.default_rng(0)
    n = 3000
    i, j = rng.integers(0, n, 6 * n), rng.integers(0, n, 6 * n)
    A = sp.coo_array((np.ones(6 * n), (i, j)), shape=(n, n)).tocsr()
    A = ((A + A.T) > 0).astype(float)
    big = connectivity_factor(A, 32, 16, norm="rw")
    nodes = np.array([0, 17, big.argmax, n - 1])
    small = connectivity_factor(A, 32, 16, norm="rw", nodes=nodes, block_size=1)
    assert_allclose(small.tau_i, big.tau_i[nodes], rtol=1e-12)
    assert big.tau_log_n_over_n == pytest.approx(big.tau * np.log(n) / n)


def test_dense_method_guard():
    with pytest.raises(ValueError, match="max_nodes"):
        connectivity_factor(nx.path_graph(30), 1.0, 2, method="dense", max_nodes=10)
    with pytest.raises(ValueError, match="method must be one of 'exact', 'dense'"):
        connectivity_factor(nx.path_graph(3), 1.0, 2, method="approx")


# --- method="estimate": its χ² bracket, by formula and by coverage ------------------------

def _estimate_by_hand(A, lam, S, nodes, m, confidence, max_candidates, seed):
    """The estimator of connectivity_factor's Notes, recomputed with dense references: the
    probes Z (drawn from ``seed`` in blocks of 64 columns), q_i = ‖(Ã_S Z)_i‖², the Bonferroni
    χ²_m bracket at δ/(2k) per side (k = len(nodes)), the candidates and the bounds on τ."""
    from scipy.stats import chi2
    n = A.shape[0]
    M = ref.neumann(A, lam, S, "rw")
    exact = ref.tau_i(A, lam, S, "rw")[nodes]
    rng = np.random.default_rng(seed)
    Z = np.hstack([rng.standard_normal((n, min(64, m - s))) for s in range(0, m, 64)])
    q = ((M @ Z)[nodes] ** 2).sum(axis=1)
    r = lam / (lam + 1)
    c = n / (1 - r ** (S + 1)) ** 2
    k, delta = len(nodes), 1 - confidence
    lower = c * q / chi2.isf(delta / (2 * k), df=m)    # the upper δ/2k quantile of χ²_m
    upper = c * q / chi2.ppf(delta / (2 * k), df=m)
    cand = np.flatnonzero(upper >= lower.max())
    cand = cand[np.argsort(-upper[cand], kind="stable")][:max_candidates]
    rest = np.setdiff1d(np.arange(k), cand)
    tau = exact[cand].max()
    tau_upper = max(tau, upper[rest].max()) if rest.size and upper[rest].max() >= lower.max() \
        else tau
    tau_i = c * q / m
    tau_i[cand] = exact[cand]
    return dict(tau=tau, tau_upper=tau_upper, tau_i=tau_i, lower=lower, upper=upper,
                n_exact=len(cand), candidates=nodes[cand], row_square_sums=tau_i / c,
                mass=1 - r ** (S + 1), row_sums=M.sum(axis=1))


@pytest.mark.parametrize("graph, nodes", [
    ("barbell", None), ("barbell", [0, 3, 5, 6, 9, 12]), ("star", None)])
@pytest.mark.parametrize("m, confidence", [(48, 0.99), (5, 0.9), (150, 0.95)])
def test_estimate_equals_its_stated_formula(graph, nodes, m, confidence):
    # Every number the estimator returns, recomputed from its Notes with dense Ã_S and the same
    # probes: a bracket with δ/2 per side (no multiple-comparison correction) or m − 1 degrees
    # of freedom gives other bounds. max_candidates=2 leaves most nodes to the bracket.
    G = nx.barbell_graph(5, 3) if graph == "barbell" else nx.star_graph(12)
    A = nx.to_scipy_sparse_array(G, dtype=float)
    nodes = np.arange(A.shape[0]) if nodes is None else np.array(nodes)
    res = connectivity_factor(A, 3.0, 5, method="estimate", nodes=nodes, n_samples=m,
                              confidence=confidence, max_candidates=2, seed=11)
    want = _estimate_by_hand(A, 3.0, 5, nodes, m, confidence, 2, seed=11)
    assert_allclose(res.tau_i_lower, want["lower"], rtol=1e-9)
    assert_allclose(res.tau_i_upper, want["upper"], rtol=1e-9)
    assert_allclose(res.tau_i, want["tau_i"], rtol=1e-9)
    assert_allclose([res.tau, res.tau_lower, res.tau_upper],
                    [want["tau"], want["tau"], want["tau_upper"]], rtol=1e-9)
    assert res.n_exact == want["n_exact"] and res.confidence == confidence
    # argmax: a recomputed node attaining τ (symmetric nodes tie to rounding).
    assert res.argmax in want["candidates"] and np.array_equal(res.nodes, nodes)
    assert ref.tau_i(A, 3.0, 5, "rw")[res.argmax] == pytest.approx(res.tau, rel=1e-9)
    assert_allclose(res.row_square_sums, want["row_square_sums"], rtol=1e-9)
    assert_allclose(res.row_sums, want["row_sums"], rtol=1e-12)
    assert (res.n, res.lam, res.S, res.norm, res.method) == (A.shape[0], 3.0, 5, "rw",
                                                             "estimate")
    assert res.mass == pytest.approx(want["mass"], rel=1e-14)


def _components_graph(kind, copies, seed):
    """``copies`` disjoint 5-node graphs (block diagonal), so the rows of Ã_S — and the
    sketch's q_i — of nodes in different components are independent."""
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(copies):
        G = (nx.path_graph(5) if kind == "paths" else nx.star_graph(4) if kind == "stars" else
             nx.connected_watts_strogatz_graph(5, 2, 0.5, seed=int(rng.integers(2**31))))
        parts.append(nx.to_scipy_sparse_array(G, dtype=float))
    return sp.csr_array(sp.block_diag(parts)), 5 * np.arange(copies)


def test_estimate_bracket_covers_at_its_stated_rate_and_no_more():
    # Each node's bracket misses its exact τ_i with probability exactly δ/k (q_i/‖b_i‖² is
    # χ²_m, the quantiles are exact), so all k hold with probability >= 1 − δ (Bonferroni).
    # The first node of each component gives independent trials (the components share no
    # rows of Ã_S): their miss count is Binomial(N, δ/k), checked two-sided — fewer misses
    # would mean a bracket wider than it needs to be. Bounds at the 1e-6 tails of the binomial
    # (the seeds are fixed, so the test is deterministic). Many seeds, three graph families.
    from scipy.stats import binom
    lam, S, m, confidence, copies = 2.0, 4, 2, 0.5, 40
    delta, k = 1 - confidence, 5 * copies
    trials = misses_any = misses_tau = first_misses = 0
    for g, kind in enumerate(("paths", "stars", "small-worlds")):
        A, firsts = _components_graph(kind, copies, seed=g)
        exact = ref.tau_i(A, lam, S, "rw")
        for seed in range(100):
            res = connectivity_factor(A, lam, S, method="estimate", n_samples=m,
                                      confidence=confidence, seed=1000 * g + seed)
            miss = ((exact < res.tau_i_lower * (1 - 1e-12))
                    | (exact > res.tau_i_upper * (1 + 1e-12)))
            trials += 1
            misses_any += bool(miss.any())
            misses_tau += not (res.tau_lower <= exact.max() * (1 + 1e-12)
                               and exact.max() <= res.tau_upper * (1 + 1e-12))
            first_misses += int(miss[firsts].sum())
    assert misses_any <= binom.isf(1e-6, trials, delta)
    assert misses_tau <= binom.isf(1e-6, trials, delta)
    n_first, p_first = trials * copies, delta / k
    lo, hi = binom.ppf(1e-6, n_first, p_first), binom.isf(1e-6, n_first, p_first)
    assert lo <= first_misses <= hi, (first_misses, n_first * p_first, lo, hi)


@pytest.mark.parametrize("kw, exc, msg", [
    (dict(n_samples=0), ValueError, r"^n_samples must be >= 1, got 0$"),
    (dict(n_samples=1.5), TypeError, r"^n_samples must be an integer, got float 1.5$"),
    (dict(confidence=0.0), ValueError, r"^confidence must be > 0.0, got 0.0$"),
    (dict(confidence=1.0), ValueError, r"^confidence must be < 1.0, got 1.0$"),
    (dict(confidence=-0.5), ValueError, r"^confidence must be > 0.0, got -0.5$"),
    (dict(confidence=1.5), ValueError, r"^confidence must be < 1.0, got 1.5$"),
    (dict(max_candidates=0), ValueError, r"^max_candidates must be >= 1, got 0$"),
    (dict(max_candidates=2.5), TypeError, r"^max_candidates must be an integer, got float 2.5$"),
])
def test_estimate_options_are_validated_by_name(kw, exc, msg):
    with pytest.raises(exc, match=msg):
        connectivity_factor(nx.path_graph(5), 1.0, 2, method="estimate", seed=0, **kw)


def test_estimate_with_one_probe_and_one_candidate():
    # The smallest valid options: one probe (χ²_1 bracket), one exact recomputation.
    res = connectivity_factor(nx.path_graph(5), 1.0, 2, method="estimate", seed=0,
                              n_samples=1, max_candidates=1, confidence=0.5)
    assert res.n_exact == 1 and res.tau_lower <= res.tau_upper


def test_estimate_memory_guards_at_their_exact_need(monkeypatch):
    # The probes: Z, Ã_S Z and a Horner temporary, 3 x (300 x 64) float64 = 460800 bytes: a
    # budget of exactly that goes through, one byte less is refused with the numbers.
    from ngc_ref import _memory
    G = nx.cycle_graph(300)
    opts = dict(method="estimate", n_samples=64, max_candidates=8, workers=1, seed=0)
    monkeypatch.setenv(_memory.ENV_VAR, "460800")
    assert connectivity_factor(G, 1.0, 2, **opts).n_exact == 8
    # One byte less is refused; so is the exact recomputation of 64 candidates in one block of
    # 64 (460800 bytes again), by name and without suggesting the estimate the caller uses.
    need = r"^connectivity_factor\(method='estimate'\) would need .* \("
    for budget, kw, message in [
            ("460799", opts, r"3 blocks of 300 x 64 float64\) but only .*; pass a smaller "
                             r"n_samples\. Set NGC_REF_MEMORY_BUDGET"),
            ("100000", {**opts, "n_samples": 1, "max_candidates": 64, "block_size": 64},
             r"1 worker\(s\) x 3 blocks of 300 x 64 float64\) .*; pass a smaller block_size "
             r"\(or fewer workers\)\. Set")]:
        monkeypatch.setenv(_memory.ENV_VAR, budget)
        with pytest.raises(ValueError, match=need + message):
            connectivity_factor(G, 1.0, 2, **kw)


def test_exact_memory_guard_at_its_exact_need(exact_budget):
    # 2 workers x 3 blocks of 300 x 64 float64 = 921600 bytes: that budget goes through, one
    # byte less is refused, naming the method and suggesting the estimate.
    G = nx.cycle_graph(300)
    assert exact_budget(921600, lambda: connectivity_factor(G, 1.0, 2, block_size=64, workers=2),
                        r"^connectivity_factor\(method='exact'\) would need .*\(2 worker\(s\) x "
                        r"3 blocks of 300 x 64 float64\).*; pass a smaller block_size \(or fewer "
                        r"workers\), or use method='estimate'\. Set").n_exact == 300


# --- connectivity_factor's defaults and pass-through (mutated since fb418bb) -----------------

@pytest.mark.filterwarnings("ignore:A is a networkx graph whose nodes are not in sorted")
def test_defaults_rw_exact_weights_and_graph_order():
    # norm="rw" (the paper's τ), method="exact", weight="weight", G's node order by default.
    G = nx.Graph()
    G.add_weighted_edges_from([(2, 0, 3.0), (0, 1, 0.5), (1, 3, 2.0), (3, 2, 1.0), (4, 1, 1.5)])
    for order in (None, [3, 1, 0, 4, 2]):
        A = nx.to_numpy_array(G, nodelist=order if order else list(G), weight="weight")
        want = ref.tau_i(A, 2.0, 4, "rw")
        res = connectivity_factor(G, 2.0, 4, nodelist=order)
        assert res.method == "exact" and res.norm == "rw" and res.confidence == 1.0
        assert_allclose(res.tau_i, want, rtol=1e-12)
        assert res.tau == pytest.approx(want.max(), rel=1e-12)
        assert res.argmax == int(np.argmax(want)) and res.n_exact == 5
    with pytest.raises(ValueError, match="symmetri"):
        connectivity_factor(np.array([[0.0, 1.0], [0.0, 0.0]]), 1.0, 2)
    directed = np.array([[0.0, 1.0], [0.0, 0.0]])
    assert_allclose(connectivity_factor(directed, 1.0, 2, symmetrize=True).tau_i,
                    ref.tau_i(directed + directed.T, 1.0, 2, "rw"), rtol=1e-12)
    with pytest.raises(ValueError, match="max_nodes"):
        connectivity_factor(G, 1.0, 2, method="dense", max_nodes=4)
    assert_allclose(connectivity_factor(G, 1.0, 2, method="dense", max_nodes=5,
                                        nodelist=list(G)).tau_i,
                    ref.tau_i(nx.to_numpy_array(G), 1.0, 2, "rw"), rtol=1e-12)


def test_estimate_defaults_256_probes_and_at_most_256_exact_rows_and_weight_none():
    # n_samples=256 and max_candidates=256 by default: the default run is the explicit one
    # (bitwise: same seed, same inputs), and with every node a candidate (two probes give a
    # bracket too wide to rule any out) exactly 256 rows are recomputed.
    G = nx.random_regular_graph(3, 300, seed=0)
    a = connectivity_factor(G, 1.0, 3, method="estimate", seed=0)
    b = connectivity_factor(G, 1.0, 3, method="estimate", seed=0, n_samples=256,
                            max_candidates=256)
    assert np.array_equal(a.tau_i_lower, b.tau_i_lower) and a.tau == b.tau
    wide = connectivity_factor(G, 1.0, 3, method="estimate", seed=0, n_samples=2)
    assert wide.n_exact == 256
    # weight=None: every edge counts 1, whatever its attribute.
    H = nx.path_graph(4)
    nx.set_edge_attributes(H, {(0, 1): 5.0, (1, 2): 0.5, (2, 3): 2.0}, "weight")
    assert_allclose(connectivity_factor(H, 2.0, 3, weight=None).tau_i,
                    ref.tau_i(nx.to_numpy_array(H, weight=None), 2.0, 3, "rw"), rtol=1e-12)


def test_exact_result_fields_and_refusals(exact_budget):
    # Every field of an exact result against the dense reference M = Ã_S: the rows asked for,
    # their Σ_j M_ij², the mass 1 − r^(S+1), and a degenerate bracket [τ, τ] at confidence 1.
    A = nx.to_numpy_array(nx.connected_watts_strogatz_graph(12, 4, 0.3, seed=2))
    M = ref.neumann(A, 2.0, 3, "rw")
    nodes = np.array([7, 2, 5])
    for method in ("exact", "dense"):
        res = connectivity_factor(A, 2.0, 3, method=method, nodes=nodes)
        assert res.method == method and np.array_equal(res.nodes, nodes)
        assert_allclose(res.row_square_sums, (M[nodes] ** 2).sum(axis=1), rtol=1e-12)
        assert res.lam == 2.0 and res.S == 3 and res.n == 12
        assert res.mass == pytest.approx(1 - (2 / 3) ** 4, rel=1e-15)
        assert res.tau_lower == res.tau == res.tau_upper and res.confidence == 1.0
        assert res.n_exact == 3
    with pytest.raises(ValueError, match="^nodes must not be empty$"):
        connectivity_factor(A, 1.0, 2, nodes=np.array([], dtype=int))
    with pytest.raises(ValueError, match="^A has no nodes; τ is undefined for an empty graph$"):
        connectivity_factor(np.zeros((0, 0)), 1.0, 2)
    with pytest.raises(ValueError, match="^block_size must be >= 1"):
        connectivity_factor(A, 1.0, 2, block_size=0)
    # method="dense" counts 4 dense n x n float64 arrays against the memory budget.
    assert exact_budget(4 * 12 * 12 * 8, lambda: connectivity_factor(A, 1.0, 2, method="dense"),
                        r"^connectivity_factor\(method='dense'\) would need .*4 dense 12 x 12"
                        ).n == 12


def test_workers_and_reorder_reach_the_filter(monkeypatch):
    # The values do not depend on them (blocks and locality order change speed only), so only a
    # spy on the filter shows that the caller's choice is the one used.
    from ngc_ref import connectivity
    seen = record_calls(monkeypatch, connectivity, "NeumannFilter", "workers", "reorder")
    A = nx.to_scipy_sparse_array(nx.path_graph(6), format="csr")
    for workers, reorder in ((1, None), (2, "rcm"), (None, "auto")):
        connectivity_factor(A, 2.0, 3, workers=workers, reorder=reorder)
    # workers=None is resolved first (the machine's count), reorder is passed as given
    assert seen == [(1, None), (2, "rcm"), (connectivity.resolve_workers(None), "auto")]
