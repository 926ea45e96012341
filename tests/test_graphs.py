"""Tests of ngc_ref.graphs: structure, closed forms, exact sampling statistics, determinism.

Statistical assertions use 5-sigma margins around exact means (false-failure probability below
1e-6 per assertion) and fixed seeds, so the suite is deterministic.
"""

import importlib
import math
import re

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from ngc_ref import graphs
from ngc_ref._sampling import bernoulli_positions, lower_triangle_pairs
from ngc_ref.graphs import (GRAPH_FAMILIES, barabasi_albert, block_sizes, complete,
                            contextual_sbm, cycle, edge_homophily, erdos_renyi, family_params,
                            figure1, figure1_graphs, grid, isolated, make_graph, path,
                            random_regular, ring, sbm, star, torus)
from ngc_ref.graphs.stochastic import sbm_degree_probabilities, sbm_degrees

SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=30)

# Small parameter sets that give every registered family n = 12 nodes.
FAMILY_PARAMS = {
    "isolated": {}, "star": {}, "complete": {}, "ring": {}, "cycle": {}, "path": {},
    "grid": {}, "erdos_renyi": {"p": 0.3}, "sbm": {"k": 3, "p_in": 0.6, "p_out": 0.1},
    "barabasi_albert": {"m": 2}, "random_regular": {"d": 3},
}
RANDOM_FAMILIES = [f for f in GRAPH_FAMILIES if FAMILY_PARAMS[f]]  # the ones with parameters


def assert_simple_graph(A, n):
    """Symmetric float64 csr_array, 0/1, no self-loops, canonical (sorted, no duplicates)."""
    assert isinstance(A, sp.csr_array)
    assert A.dtype == np.float64
    assert A.shape == (n, n)
    assert (A != A.T).nnz == 0
    assert not A.diagonal().any()
    assert np.all(A.data == 1.0)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(A.indptr))
    key = rows * n + A.indices
    assert np.all(np.diff(key) > 0), "indices unsorted or duplicated"


def same_graph(A, B):
    return (A.shape == B.shape and np.array_equal(A.indptr, B.indptr)
            and np.array_equal(A.indices, B.indices) and np.array_equal(A.data, B.data))


def degrees(A):
    return np.asarray(A.sum(axis=1)).ravel()


# ------------------------------------------------------------------------ private samplers

def test_lower_triangle_pairs_matches_tril_order():
    n = 60
    i, j = lower_triangle_pairs(np.arange(n * (n - 1) // 2))
    ti, tj = np.tril_indices(n, k=-1)
    np.testing.assert_array_equal(i, ti)
    np.testing.assert_array_equal(j, tj)


def test_lower_triangle_pairs_exact_for_huge_indices():
    # Around the largest index of a 10^7-node graph, where a float-only inverse could be off.
    n = 10**7
    N = n * (n - 1) // 2
    k = np.array([0, 1, 2, N // 3, N - 2, N - 1] + [m * (m - 1) // 2 + off for m in
                  (10**6, 10**7 - 1) for off in (-1, 0, 1)], dtype=np.int64)
    i, j = lower_triangle_pairs(k)
    assert np.all((j >= 0) & (j < i) & (i < n))
    np.testing.assert_array_equal(i * (i - 1) // 2 + j, k)


def test_bernoulli_positions_marginals_and_count():
    rng = np.random.default_rng(0)
    N, p, reps = 12, 0.3, 20000
    hits = np.zeros(N)
    counts = np.empty(reps)
    for r in range(reps):
        pos = bernoulli_positions(N, p, rng)
        assert np.all(np.diff(pos) > 0) and (pos.size == 0 or (pos[0] >= 0 and pos[-1] < N))
        hits[pos] += 1
        counts[r] = pos.size
    sd = math.sqrt(reps * p * (1 - p))
    assert np.all(np.abs(hits - reps * p) < 5 * sd)
    # The count is Binomial(N, p): variance v = N p q, fourth central moment
    # v^2 (3 + (1 - 6pq) / v), so the sample variance has sd sqrt((mu4 - v^2) / reps).
    q = 1 - p
    var = N * p * q
    mu4 = var**2 * (3 + (1 - 6 * p * q) / var)
    assert abs(counts.mean() - N * p) < 5 * math.sqrt(var / reps)
    assert abs(counts.var() - var) < 5 * math.sqrt((mu4 - var**2) / reps)


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_bernoulli_positions_edge_probabilities(p):
    pos = bernoulli_positions(7, p, np.random.default_rng(0))
    np.testing.assert_array_equal(pos, np.arange(7) if p == 1.0 else [])


# ------------------------------------------------------------------ deterministic families

def test_figure1_graphs():
    G = figure1_graphs()
    assert list(G) == ["G1", "G2", "G3", "G4"]
    for name, A in G.items():
        assert_simple_graph(A, 8 if name == "G4" else 4)
        assert same_graph(A, figure1(name))
    assert G["G1"].nnz == 0
    np.testing.assert_array_equal(degrees(G["G2"]), [3, 1, 1, 1])  # centre v1 = node 0
    np.testing.assert_array_equal(G["G3"].toarray(), 1 - np.eye(4))
    np.testing.assert_array_equal(degrees(G["G4"]), np.full(8, 2))
    assert G["G4"][0, 1] == G["G4"][0, 7] == 1  # a ring, not two squares


def test_figure1_unknown_name_lists_valid():
    with pytest.raises(ValueError, match="name must be one of 'G1', 'G2', 'G3', 'G4'"):
        figure1("G5")


@SETTINGS
@given(st.integers(1, 40))
def test_closed_form_degrees(n):
    assert_simple_graph(isolated(n), n)
    assert isolated(n).nnz == 0
    K = complete(n)
    assert_simple_graph(K, n)
    np.testing.assert_array_equal(degrees(K), np.full(n, n - 1))
    S = star(n)
    assert_simple_graph(S, n)
    np.testing.assert_array_equal(degrees(S), [n - 1] + [1] * (n - 1))
    P = path(n)
    assert_simple_graph(P, n)
    assert P.nnz == 2 * (n - 1)
    if n >= 3:
        R = ring(n)
        assert_simple_graph(R, n)
        np.testing.assert_array_equal(degrees(R), np.full(n, 2))
        assert same_graph(R, cycle(n))


@SETTINGS
@given(st.integers(1, 12), st.integers(1, 12))
def test_grid_edge_count_and_degrees(rows, cols):
    A = grid(rows, cols)
    assert_simple_graph(A, rows * cols)
    assert A.nnz // 2 == rows * (cols - 1) + cols * (rows - 1)
    assert degrees(A).max(initial=0) <= 4
    if rows >= 3 and cols >= 3:
        assert degrees(A)[cols + 1] == 4  # an interior node


def test_complete_size_guard():
    with pytest.raises(ValueError, match=r"^complete\(n\) would form a dense 10 x 10 array .*"
                                         r"above max_nodes=5"):
        complete(10, max_nodes=5)


@pytest.mark.parametrize("p", [3, 4, 5])
def test_torus_is_networkx_periodic_lattice(p):
    """C_p □ C_p with node (r, c) = index r * p + c, against networkx's periodic grid: 4-regular
    (p >= 3), 2 p² edges."""
    G = nx.grid_2d_graph(p, p, periodic=True)
    ref = nx.to_scipy_sparse_array(G, nodelist=sorted(G), format="csr", dtype=np.float64)
    ref.sort_indices()
    A = torus(p)
    assert_simple_graph(A, p * p)
    assert same_graph(A, ref)
    np.testing.assert_array_equal(degrees(A), np.full(p * p, 4))
    assert A.nnz // 2 == 2 * p * p


@pytest.mark.parametrize("rows,cols,match", [(0, 3, "^rows must be >= 1"),
                                             (3, 0, "^cols must be >= 1"),
                                             (3, 2.5, "^cols must be an integer")])
def test_grid_bad_sides_named(rows, cols, match):
    with pytest.raises((ValueError, TypeError), match=match):
        grid(rows, cols)


# ------------------------------------------------------------------------- random families

@pytest.mark.parametrize("family", GRAPH_FAMILIES)
def test_make_graph_structure(family):
    A = make_graph(family, 12, seed=0, **FAMILY_PARAMS[family])
    assert_simple_graph(A, 12)


@pytest.mark.parametrize("family", RANDOM_FAMILIES)
def test_seed_determinism(family):
    params = FAMILY_PARAMS[family]
    n = 40
    A = make_graph(family, n, seed=7, **params)
    assert same_graph(A, make_graph(family, n, seed=7, **params))
    assert same_graph(A, make_graph(family, n, seed=np.random.default_rng(7), **params))
    assert not same_graph(A, make_graph(family, n, seed=8, **params))


def test_sbm_labels_and_determinism():
    A1, y1 = sbm(50, 4, 0.3, 0.05, seed=3)
    A2, y2 = sbm(50, 4, 0.3, 0.05, seed=3)
    assert same_graph(A1, A2) and np.array_equal(y1, y2)
    assert not same_graph(A1, sbm(50, 4, 0.3, 0.05, seed=4)[0])
    assert y1.dtype == np.int64
    np.testing.assert_array_equal(np.bincount(y1), [13, 13, 12, 12])
    assert np.all(np.diff(y1) >= 0)


def test_block_sizes_remainder_goes_to_first_blocks():
    np.testing.assert_array_equal(block_sizes(10, 3), [4, 3, 3])
    np.testing.assert_array_equal(block_sizes(9, 3), [3, 3, 3])
    np.testing.assert_array_equal(block_sizes(5, 5), [1] * 5)


def test_sbm_with_one_block_is_erdos_renyi():
    A, y = sbm(100, 1, 0.1, 0.9, seed=5)
    assert same_graph(A, erdos_renyi(100, 0.1, seed=5))
    assert not y.any()


@pytest.mark.parametrize("n,p,seed", [(2000, 0.005, 0), (3000, 0.001, 1), (150, 0.5, 2),
                                      (60, 0.95, 3)])
def test_erdos_renyi_edge_count_binomial(n, p, seed):
    A = erdos_renyi(n, p, seed=seed)
    assert_simple_graph(A, n)
    N = n * (n - 1) // 2
    assert abs(A.nnz // 2 - N * p) < 5 * math.sqrt(N * p * (1 - p))


def test_erdos_renyi_pair_marginals_uniform():
    # Every pair must be equally likely: count how often each of the 45 pairs of a 10-node
    # graph appears over many draws.
    rng = np.random.default_rng(11)
    n, p, reps = 10, 0.2, 4000
    counts = np.zeros((n, n))
    for _ in range(reps):
        counts += erdos_renyi(n, p, seed=rng).toarray()
    iu = np.triu_indices(n, 1)
    sd = math.sqrt(reps * p * (1 - p))
    assert np.all(np.abs(counts[iu] - reps * p) < 5 * sd)


def test_erdos_renyi_extremes():
    assert erdos_renyi(30, 0.0, seed=0).nnz == 0
    assert same_graph(erdos_renyi(30, 1.0, seed=0), complete(30))
    assert erdos_renyi(1, 0.5, seed=0).shape == (1, 1)


def test_sbm_block_densities():
    n, k, p_in, p_out = 600, 3, 0.1, 0.02
    A, y = sbm(n, k, p_in, p_out, seed=0)
    assert_simple_graph(A, n)
    coo = sp.triu(A, k=1, format="coo")
    same = y[coo.row] == y[coo.col]
    s = n // k
    n_in, n_out = k * s * (s - 1) // 2, k * (k - 1) // 2 * s * s
    assert abs(same.sum() - n_in * p_in) < 5 * math.sqrt(n_in * p_in * (1 - p_in))
    assert abs((~same).sum() - n_out * p_out) < 5 * math.sqrt(n_out * p_out * (1 - p_out))
    # Each specific off-diagonal block pair separately.
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        m = ((y[coo.row] == a) & (y[coo.col] == b)) | ((y[coo.row] == b) & (y[coo.col] == a))
        assert abs(m.sum() - s * s * p_out) < 5 * math.sqrt(s * s * p_out * (1 - p_out))


def test_barabasi_albert_edge_count():
    for n, m in [(30, 1), (100, 3)]:
        A = barabasi_albert(n, m, seed=0)
        assert_simple_graph(A, n)
        assert A.nnz // 2 == m * (n - m)


@pytest.mark.parametrize("n,d", [(10, 3), (50, 4), (7, 0), (8, 7)])
def test_random_regular_degrees(n, d):
    A = random_regular(n, d, seed=0)
    assert_simple_graph(A, n)
    np.testing.assert_array_equal(degrees(A), np.full(n, d))


# --------------------------------------------------------------------------- contextual SBM

def test_contextual_sbm_fields():
    data = contextual_sbm(90, 3, 0.2, 0.02, 5, signal=2.0, noise_std=0.5, seed=0)
    assert (data.n, data.k, data.d) == (90, 3, 5)
    assert_simple_graph(data.adjacency, 90)
    np.testing.assert_array_equal(data.Y, np.eye(3)[data.labels])
    np.testing.assert_array_equal(data.X_clean, 2.0 * np.eye(3, 5)[data.labels])
    np.testing.assert_allclose(np.linalg.norm(data.X_clean, axis=1), 2.0)
    assert data.snr == 4.0
    np.testing.assert_allclose(data.eta, data.X - data.X_clean)
    # Same seed: same graph and labels as the plain SBM stream, whatever the noise.
    quiet = contextual_sbm(90, 3, 0.2, 0.02, 5, signal=2.0, noise_std=0.0, seed=0)
    assert same_graph(quiet.adjacency, data.adjacency)
    np.testing.assert_array_equal(quiet.X, quiet.X_clean)
    assert quiet.snr == np.inf


def test_contextual_sbm_noise_statistics():
    data = contextual_sbm(400, 2, 0.05, 0.01, 50, noise_std=1.5, seed=1)
    eta = data.eta.ravel()
    N = eta.size
    assert abs(eta.mean()) < 5 * 1.5 / math.sqrt(N)
    assert abs(eta.var() - 1.5**2) < 5 * 1.5**2 * math.sqrt(2 / N)


def test_contextual_sbm_random_means_and_determinism():
    a = contextual_sbm(30, 4, 0.5, 0.1, 2, means="random", noise_std=0.1, seed=2)
    b = contextual_sbm(30, 4, 0.5, 0.1, 2, means="random", noise_std=0.1, seed=2)
    c = contextual_sbm(30, 4, 0.5, 0.1, 2, means="random", noise_std=0.1, seed=3)
    np.testing.assert_allclose(np.linalg.norm(a.class_means, axis=1), 1.0)
    assert same_graph(a.adjacency, b.adjacency) and np.array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)


def test_contextual_sbm_onehot_needs_d_at_least_k():
    with pytest.raises(ValueError, match="means='random'"):
        contextual_sbm(10, 3, 0.5, 0.1, 2)
    with pytest.raises(ValueError, match="means must be one of"):
        contextual_sbm(10, 2, 0.5, 0.1, 2, means="gaussian")
    with pytest.raises(ValueError, match="noise_std"):
        contextual_sbm(10, 2, 0.5, 0.1, 2, noise_std=-1.0)


# ---------------------------------------------------------------------------- homophily

def test_edge_homophily():
    assert edge_homophily(path(4), [0, 0, 1, 1]) == pytest.approx(2 / 3)
    A, y = sbm(60, 3, 0.3, 0.0, seed=0)
    assert edge_homophily(A, y) == 1.0
    A, y = sbm(60, 3, 0.0, 0.3, seed=0)
    assert edge_homophily(A, y) == 0.0
    assert math.isnan(edge_homophily(isolated(3), [0, 1, 2]))
    # Self-loops are not edges for homophily.
    assert edge_homophily(path(2) + sp.csr_array(sp.identity(2)), [0, 1]) == 0.0
    with pytest.raises(ValueError, match="labels"):
        edge_homophily(path(4), [0, 1])


def test_edge_homophily_tracks_block_probabilities():
    n, k, p_in, p_out = 900, 3, 0.05, 0.01
    A, y = sbm(n, k, p_in, p_out, seed=4)
    s = n // k
    e_in, e_out = k * s * (s - 1) / 2 * p_in, 3 * s * s * p_out
    assert edge_homophily(A, y) == pytest.approx(e_in / (e_in + e_out), abs=0.03)


# ------------------------------------------------------- stochastic: references and arguments

@pytest.mark.parametrize("seed", [2, 4])
def test_networkx_families_are_networkx_graphs_for_the_drawn_seed(seed):
    """barabasi_albert / random_regular are networkx's constructions, run with an int seed
    drawn from the Generator (int(rng.integers(2**63 - 1))), node i = row i."""
    def nx_ref(G, n):
        ref = nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr", dtype=np.float64)
        ref.sort_indices()
        return ref
    s = int(np.random.default_rng(seed).integers(2**63 - 1))
    assert same_graph(barabasi_albert(30, 2, seed=seed),
                      nx_ref(nx.barabasi_albert_graph(30, 2, seed=s), 30))
    assert same_graph(random_regular(20, 3, seed=seed),
                      nx_ref(nx.random_regular_graph(3, 20, seed=s), 20))


def test_the_smallest_barabasi_albert_graph_is_one_edge():
    assert same_graph(barabasi_albert(2, 1, seed=0), path(2))   # m (n - m) = 1 edge


@pytest.mark.parametrize("call,exc,match", [
    (lambda: block_sizes(10, 0), ValueError, "^k must be >= 1, got 0"),
    (lambda: sbm(10, 2, -0.1, 0.1), ValueError, "^p_in must be >= 0"),
    (lambda: sbm(10, 2, 0.1, 2), ValueError, "^p_out must be <= 1"),
    (lambda: barabasi_albert(1, 1), ValueError, "^n must be >= 2, got 1"),
    (lambda: barabasi_albert(5, 0), ValueError, "^m must be >= 1, got 0"),
    (lambda: random_regular(6, -2), ValueError, "^d must be >= 0, got -2"),
    (lambda: contextual_sbm(10, 2, 0.5, 0.1, 0), ValueError, "^d must be >= 1, got 0"),
    (lambda: contextual_sbm(10, 2, 0.5, 0.1, 2, signal=-1.0), ValueError,
     "^signal must be >= 0"),
    (lambda: contextual_sbm(10, 2, 0.5, 0.1, 2, noise_std=-1.0), ValueError,
     "^noise_std must be >= 0"),
    (lambda: sbm_degree_probabilities(10, 0, 1.0, 1.0), ValueError, "^k must be >= 1, got 0"),
    (lambda: sbm_degree_probabilities(10, 11, 1.0, 1.0), ValueError, "^k must be <= 10"),
    (lambda: sbm_degree_probabilities(10, 2.0, 1.0, 1.0), TypeError, "^k must be an integer"),
    (lambda: sbm_degree_probabilities(0, 1, 1.0, 1.0), ValueError, "^n must be >= 1, got 0"),
    (lambda: sbm_degree_probabilities(10, 2, -1.0, 1.0), ValueError, "^deg_in must be >= 0"),
    (lambda: sbm_degree_probabilities(10, 2, 1.0, -1.0), ValueError, "^deg_out must be >= 0"),
    (lambda: sbm_degree_probabilities(10, 2, "1", 1.0), TypeError,
     "^deg_in must be a real number"),
    (lambda: sbm_degree_probabilities(10, 2, 1.0, "1"), TypeError,
     "^deg_out must be a real number"),
])
def test_stochastic_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("what,build,edges", [
    # G(200, 1/2): 0.5 * 200 * 199 / 2 = 9950 expected edges.
    ("erdos_renyi(n=200, p=0.5)", lambda: erdos_renyi(200, 0.5, seed=0), 9950),
    # two blocks of 100: 2 * 0.5 * 4950 inside + 0.25 * 100 * 100 between = 7450.
    ("sbm(n=200, k=2)", lambda: sbm(200, 2, 0.5, 0.25, seed=0), 7450),
])
def test_memory_guard_counts_the_expected_edges(exact_budget, what, build, edges):
    """Refused exactly when 96 bytes per expected edge + 8 per node exceed the budget
    (NGC_REF_MEMORY_BUDGET), the message naming the call."""
    detail = f"(about {edges:.3g} edges at 96 bytes each while they are sampled and assembled)"
    exact_budget(96 * edges + 8 * 200, build,
                 f"^{re.escape(what)} would need .* {re.escape(detail)} but only .*; use a "
                 "smaller n or smaller edge probabilities\\. Set ")


def test_contextual_sbm_defaults_streams_and_fields():
    """signal 1 and no noise by default; with noise, X - X* is noise_std times the third child
    stream of the seed, the graph the SBM of the first; class_means is k x d (one-hot: the
    first k rows of the identity, d = k allowed); p_in / p_out kept."""
    plain = contextual_sbm(30, 3, 0.5, 0.1, 3)
    assert plain.signal == 1.0 and plain.noise_std == 0.0
    np.testing.assert_array_equal(plain.X, plain.X_clean)
    np.testing.assert_array_equal(plain.X_clean, np.eye(3)[plain.labels])
    n, k, d, seed = 40, 2, 5, 9
    data = contextual_sbm(n, k, 0.4, 0.05, d, signal=0.5, noise_std=0.3, seed=seed)
    graph_rng, _, noise_rng = np.random.default_rng(seed).spawn(3)
    A, y = sbm(n, k, 0.4, 0.05, seed=graph_rng)
    assert same_graph(data.adjacency, A) and np.array_equal(data.labels, y)
    np.testing.assert_allclose(data.X - data.X_clean,
                               0.3 * noise_rng.standard_normal((n, d)), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(data.class_means, np.eye(k, d))
    np.testing.assert_array_equal(data.X_clean, 0.5 * np.eye(k, d)[y])
    assert (data.p_in, data.p_out) == (0.4, 0.05)
    _, means_rng, _ = np.random.default_rng(seed).spawn(3)
    M = means_rng.standard_normal((k, d))
    M /= np.linalg.norm(M, axis=1, keepdims=True)
    rnd = contextual_sbm(n, k, 0.4, 0.05, d, means="random", seed=seed)
    np.testing.assert_array_equal(rnd.class_means, M)


def test_edge_homophily_reads_weights_and_nodelist_of_a_networkx_graph():
    """A zero 'weight' removes the edge (the default attribute); labels follow nodelist."""
    G = nx.path_graph(4)                      # 0-1-2-3, labels 0 0 1 1: h = 2/3
    G.edges[0, 1]["weight"] = 0.0             # drops 0-1: h = 1/2
    assert edge_homophily(G, [0, 0, 1, 1]) == 0.5
    assert edge_homophily(G, [0, 0, 1, 1], weight=None) == pytest.approx(2 / 3)
    H = nx.Graph([("a", "b"), ("b", "c"), ("c", "d")])
    # In the order a, c, b, d: a=0, c=1, b=0, d=1: a-b and c-d agree, b-c does not.
    assert edge_homophily(H, [0, 1, 0, 1], nodelist=["a", "c", "b", "d"]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="^adjacency "):
        edge_homophily(np.ones((2, 3)), [0, 1])
    with pytest.raises(ValueError, match="^labels "):
        edge_homophily(path(4), [0, 1])


@pytest.mark.parametrize("n,k,deg_in,deg_out,p_in,p_out", [
    (301, 3, 6.0, 2.0, 6.0 / 99, 2.0 / 200),   # m = 100: deg_in/(m-1), deg_out/(m(k-1))
    (40, 4, 3.0, 0.0, 3.0 / 9, 0.0),
    (8, 4, 50.0, 50.0, 1.0, 1.0),              # capped at 1
    (5, 5, 0.5, 2.0, 0.5, 0.5),                # m = 1: inside denominator 0 read as 1
    (7, 1, 3.0, 0.5, 0.5, 0.5),                # k = 1: outside denominator 0 read as 1
    (6, 3, 0.5, 0.5, 0.5, 0.125),
])
def test_sbm_degree_probabilities_closed_form(n, k, deg_in, deg_out, p_in, p_out):
    assert sbm_degree_probabilities(n, k, deg_in, deg_out) == (p_in, p_out)


def test_sbm_degrees_is_sbm_on_k_times_n_over_k_nodes():
    for n, k, deg_in, deg_out, seed in [(301, 3, 6.0, 2.0, 4), (10, 3, 2.0, 1.0, 0)]:
        A, y = sbm_degrees(n, k, deg_in, deg_out, seed=seed)
        m = n // k
        B, z = sbm(k * m, k, deg_in / (m - 1), deg_out / (m * (k - 1)), seed=seed)
        assert same_graph(A, B) and np.array_equal(y, z)

# ------------------------------------------------------------------------------ make_graph

def test_make_graph_registry_and_errors():
    assert {"ring", "cycle", "sbm", "erdos_renyi", "grid"} <= set(GRAPH_FAMILIES)
    with pytest.raises(ValueError, match="family must be one of .*'ring'"):
        make_graph("moebius", 10)
    with pytest.raises(TypeError, match="missing 'p'"):
        make_graph("erdos_renyi", 10)
    with pytest.raises(TypeError, match="unexpected 'p'"):
        make_graph("ring", 10, p=0.1)
    assert family_params("grid") == ((), ("cols",))


def test_make_graph_parameter_errors_list_them_all():
    with pytest.raises(TypeError, match=r"^make_graph\('sbm'\): missing 'p_in', 'p_out'; its "
                                        r"parameters are: k, p_in, p_out$"):
        make_graph("sbm", 10, k=2)
    with pytest.raises(TypeError, match=r"^make_graph\('ring'\): unexpected 'a', 'b'; its "
                                        r"parameters are: none$"):
        make_graph("ring", 10, a=1, b=2)


def test_make_graph_grid_shapes():
    assert make_graph("grid", 12).nnz // 2 == 3 * 3 + 4 * 2     # 3 x 4
    assert make_graph("grid", 7).nnz // 2 == 6                  # prime: 1 x 7 path
    assert make_graph("grid", 12, cols=6).nnz // 2 == 2 * 5 + 6  # 2 x 6
    with pytest.raises(ValueError, match="divisible"):
        make_graph("grid", 12, cols=5)


def test_make_graph_matches_direct_calls():
    assert same_graph(make_graph("erdos_renyi", 50, seed=1, p=0.1), erdos_renyi(50, 0.1, seed=1))
    assert same_graph(make_graph("sbm", 50, seed=1, k=2, p_in=0.2, p_out=0.05),
                      sbm(50, 2, 0.2, 0.05, seed=1)[0])
    assert same_graph(make_graph("star", 6), star(6))


# ------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("call,exc,match", [
    (lambda: erdos_renyi(0, 0.1), ValueError, "n must be >= 1"),
    (lambda: erdos_renyi(10.0, 0.1), TypeError, "n must be an integer"),
    (lambda: erdos_renyi(10, 1.5), ValueError, "p must be <= 1"),
    (lambda: erdos_renyi(10, float("nan")), ValueError, "p must be finite"),
    (lambda: erdos_renyi(10, 0.1, seed="x"), TypeError, "seed"),
    (lambda: erdos_renyi(10, 0.1, seed=-1), ValueError, "seed"),
    (lambda: sbm(10, 11, 0.1, 0.1), ValueError, "k must be <= 10"),
    (lambda: sbm(10, 2, -0.1, 0.1), ValueError, "p_in"),
    (lambda: sbm(10, 2, 0.1, 2), ValueError, "p_out"),
    (lambda: ring(2), ValueError, "n must be >= 3"),
    (lambda: grid(0, 3), ValueError, "rows"),
    (lambda: star(True), TypeError, "n must be an integer"),
    (lambda: random_regular(5, 3), ValueError, "even"),
    (lambda: random_regular(5, 5), ValueError, "d must be <= 4"),
    (lambda: barabasi_albert(5, 5), ValueError, "m must be <= 4"),
    (lambda: make_graph("ring", 10, seed="x"), TypeError, "seed"),
    (lambda: torus(2), ValueError, "^p must be >= 3, got 2$"),
    (lambda: torus(3.0), TypeError, "^p must be an integer"),
])
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_module_all_names_exist():
    for name in graphs.__all__:
        assert hasattr(graphs, name)


# ------------------------------------------------------------- the registry's built-in table

#: make_graph's table, written out: family -> (required, optional) parameters, in the order
#: graph_families() lists them (the library's basic families; the theory checker registers its
#: n-scaled ones itself: tests/test_user_families.py).
DOCUMENTED_FAMILIES = {
    "isolated": ((), ()), "star": ((), ()), "complete": ((), ("max_nodes",)),
    "ring": ((), ()), "cycle": ((), ()), "path": ((), ()), "grid": ((), ("cols",)),
    "erdos_renyi": (("p",), ()), "sbm": (("k", "p_in", "p_out"), ()),
    "barabasi_albert": (("m",), ()), "random_regular": (("d",), ()),
}


def test_the_builtin_table_registers_the_documented_families(monkeypatch):
    """The package's table of built-ins, run again in an empty registry (the import ran it
    before any test, so only a fresh run exercises it): every documented family, in order,
    with its parameters, its declared properties and its builder, and none replaceable."""
    from ngc_ref.graphs import _registry
    saved = dict(vars(graphs))
    monkeypatch.setattr(_registry, "_FAMILIES", {})
    monkeypatch.setattr(_registry, "BUILTIN", set())
    try:
        importlib.reload(graphs)
        assert graphs.graph_families() == tuple(DOCUMENTED_FAMILIES)
        assert graphs.GRAPH_FAMILIES == tuple(DOCUMENTED_FAMILIES)
        for name, params in DOCUMENTED_FAMILIES.items():
            assert graphs.family_params(name) == params, name
            with pytest.raises(ValueError, match=f"{name!r} is built in"):
                graphs.register_family(name, lambda n, seed: None, replace=True)
        star_ = graphs.family_info("star")
        assert star_.hub and star_.local and star_.description == "centre is node 0"
        assert not any(graphs.family_info(f).hub for f in DOCUMENTED_FAMILIES if f != "star")
        assert same_graph(graphs.make_graph("star", 5), star(5))
        # The theory checker's default families, in its order, are the ones tagged
        # checker_order (ngc_ref_theory.kit.graphs.default_families; docs/sweeps.md): of the
        # library's, these four (the checker tags its own n-scaled families itself).
        order = {f: graphs.family_info(f).tag("checker_order") for f in DOCUMENTED_FAMILIES}
        assert sorted((f for f in order if order[f] is not None), key=order.get) == [
            "ring", "path", "complete", "star"]
        assert same_graph(graphs.make_graph("grid", 6, cols=2), grid(3, 2))
    finally:
        vars(graphs).clear()
        vars(graphs).update(saved)


def test_make_graph_grid_default_is_the_most_square_factorisation():
    """rows * cols = n with rows <= cols as close as possible (a prime n: one row), against
    networkx's lattice (node (r, c) = index r * cols + c)."""
    for n in range(1, 31):
        rows = max(r for r in range(1, n + 1) if n % r == 0 and r * r <= n)
        G = nx.grid_2d_graph(rows, n // rows)
        ref = nx.to_scipy_sparse_array(G, nodelist=sorted(G), format="csr", dtype=np.float64)
        ref.sort_indices()
        assert same_graph(make_graph("grid", n), ref), n


@pytest.mark.parametrize("cols,exc,match", [(0, ValueError, "cols must be >= 1"),
                                            (2.5, TypeError, "cols must be an integer")])
def test_make_graph_grid_bad_cols_named(cols, exc, match):
    with pytest.raises(exc, match=match):
        make_graph("grid", 12, cols=cols)


@pytest.mark.parametrize("n", [8, 12, 20])
def test_sbm_4_blocks_deg8_small_n_has_complete_blocks(n):
    """Below 24 nodes the within-block probability 6 / (n // 4) is capped at 1: four
    complete blocks of n // 4 contiguous nodes (and the graph still builds)."""
    A = make_graph("sbm_4_blocks_deg8", n, seed=0)
    s = n // 4
    assert_simple_graph(A, 4 * s)
    D = A.toarray()
    for b in range(4):
        blk = D[b * s:(b + 1) * s, b * s:(b + 1) * s]
        np.testing.assert_array_equal(blk, 1 - np.eye(s))


def test_make_graph_takes_an_unregistered_spec_and_refuses_a_non_string(tmp_path):
    """A "path/file.py:function" family not registered yet is imported by make_graph itself
    (not refused as an unknown name); a non-string family is a TypeError naming the argument;
    an unknown name's message repeats it."""
    f = tmp_path / "fam_make_graph.py"
    f.write_text("import networkx as nx\ndef cyc(n, seed):\n    return nx.cycle_graph(n)\n")
    spec = f"{f}:cyc"
    assert spec not in graphs.graph_families()
    assert same_graph(make_graph(spec, 9, seed=0), ring(9))
    with pytest.raises(TypeError, match="family must be a family name"):
        make_graph(5, 10)
    with pytest.raises(ValueError, match="got 'moebius'"):
        make_graph("moebius", 10)
