import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from numpy.testing import assert_allclose

from ngc_ref import connectivity_factor
from ngc_ref.strategies import adjacency_matrices, lams, norms, orders

from . import _reference as ref


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
