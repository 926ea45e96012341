"""Propagations against dense references (the paper's hyper-parameter tables: the checker's,
tests/test_paper_hyperparams.py)."""

import networkx as nx
import numpy as np
import pytest
from numpy.testing import assert_allclose

from ngc_ref import neumann_matrix
from ngc_ref.training import PROPAGATIONS, propagate


def _dense_T(G, norm):
    A = nx.to_numpy_array(G) + np.eye(G.number_of_nodes())
    d = A.sum(1)
    return A / np.sqrt(np.outer(d, d)) if norm == "sym" else A / d[:, None]


@pytest.fixture
def graph():
    G = nx.gnp_random_graph(25, 0.15, seed=3)
    X = np.random.default_rng(0).random((25, 4))
    return G, X


@pytest.fixture(params=["sym", "rw"])
def normalised(graph, request):
    """``(G, X, norm, T)``: the graph, its signal, the normalisation and the dense T."""
    G, X = graph
    return G, X, request.param, _dense_T(G, request.param)


def test_baselines_match_dense_references(normalised):
    G, X, norm, T = normalised
    assert_allclose(propagate("sgc", G, X, norm=norm), T @ T @ X, atol=1e-12)
    assert_allclose(propagate("sgc", G, X, K=3, norm=norm), T @ T @ T @ X, atol=1e-12)
    K, a = 5, 0.2
    s2 = sum((1 - a) * np.linalg.matrix_power(T, k) @ X + a * X for k in range(1, K + 1)) / K
    assert_allclose(propagate("s2gc", G, X, K=K, alpha=a, norm=norm), s2, atol=1e-12)
    Z = X.copy()
    for _ in range(7):
        Z = (1 - a) * T @ Z + a * X
    assert_allclose(propagate("appnp", G, X, K=7, alpha=a, norm=norm), Z, atol=1e-12)
    # APPNP's fixed point: α (I − (1−α)T)⁻¹ X.
    fix = a * np.linalg.solve(np.eye(25) - (1 - a) * T, X)
    assert_allclose(propagate("appnp", G, X, K=400, alpha=a, norm=norm), fix, atol=1e-10)


@pytest.mark.parametrize("name", sorted(PROPAGATIONS))
def test_every_propagation_keeps_the_features_dtype(graph, name):
    # float32 in, float32 out (and computed in float32: within float32 rounding of float64).
    G, X = graph
    params = {"lam": 2.0, "S": 4} if name in ("ngc", "rngc") else {}
    H64 = propagate(name, G, X, **params)
    H32 = propagate(name, G, X.astype(np.float32), **params)
    assert H64.dtype == np.float64 and H32.dtype == np.float32, (H64.dtype, H32.dtype)
    assert_allclose(H32, H64, rtol=1e-4, atol=1e-5)


def test_ngc_rngc_gsd_match_dense_references(normalised):
    G, X, norm, T = normalised
    assert_allclose(propagate("ngc", G, X, lam=3.0, S=6, norm=norm),
                    neumann_matrix(G, 3.0, 6, norm=norm) @ X, atol=1e-12)
    L = np.eye(25) - T
    assert_allclose(propagate("gsd", G, X, lam=3.0, norm=norm),
                    np.linalg.solve(np.eye(25) + 3.0 * L, X), atol=1e-8)
    assert_allclose(propagate("rngc", G, X, lam=3.0, S=6, eps=0.0, norm=norm),
                    propagate("ngc", G, X, lam=3.0, S=6, norm=norm), atol=1e-12)
    P = X @ X.T
    M = 0.75 * (T - 0.5 * P / np.linalg.norm(P))
    H = sum(np.linalg.matrix_power(M, s) for s in range(7)) @ X / 4.0
    assert_allclose(propagate("rngc", G, X, lam=3.0, S=6, eps=0.5, norm=norm), H, atol=1e-12)


def test_gsd_is_ngc_with_infinite_S(graph):
    G, X = graph
    assert_allclose(propagate("ngc", G, X, lam=2.0, S=300), propagate("gsd", G, X, lam=2.0),
                    atol=1e-9)


def test_raw_returns_a_copy(graph):
    G, X = graph
    H = propagate("raw", G, X)
    assert_allclose(H, X) and H is not X
    H0 = propagate("sgc", G, X, K=0)
    H0[0, 0] = 99.0
    assert X[0, 0] != 99.0


@pytest.mark.parametrize("name", sorted(PROPAGATIONS))
def test_every_propagation_refuses_an_unknown_norm(graph, name):
    # "raw" uses no graph operator, but a misspelt norm is an error there too (it used to be
    # accepted silently by "raw" alone).
    G, X = graph
    with pytest.raises(ValueError, match="^norm must be one of 'sym', 'rw'; got 'left'"):
        propagate(name, G, X, norm="left")


def test_registry_errors(graph):
    G, X = graph
    with pytest.raises(ValueError, match="'ngc'"):
        propagate("gcn", G, X)
    with pytest.raises(TypeError, match="unexpected parameter"):
        propagate("sgc", G, X, lam=2.0)
    with pytest.raises(ValueError, match="K"):
        propagate("s2gc", G, X, K=0)
    assert set(PROPAGATIONS) == {"raw", "ngc", "rngc", "gsd", "sgc", "s2gc", "appnp"}


def test_parameters_are_checked_by_name(graph):
    G, X = graph
    for name in ("sgc", "appnp"):
        with pytest.raises(ValueError, match=r"^K must be >= 0, got -1"):
            propagate(name, G, X, K=-1)
    with pytest.raises(ValueError, match=r"^K must be >= 1, got 0"):
        propagate("s2gc", G, X, K=0)
    for name in ("s2gc", "appnp"):
        with pytest.raises(ValueError, match=r"^alpha must be >= 0.0, got -0.1"):
            propagate(name, G, X, alpha=-0.1)
        with pytest.raises(ValueError, match=r"^alpha must be <= 1.0, got 1.5"):
            propagate(name, G, X, alpha=1.5)
    with pytest.raises(ValueError, match=r"^method must be one of"):
        propagate("gsd", G, X, method="nope")
    with pytest.raises(ValueError, match=r"^rtol must be"):
        propagate("gsd", G, X, rtol=-1.0)
    with pytest.raises(ValueError, match=r"^mode must be one of"):
        propagate("rngc", G, X, mode="nope")


def test_boundary_parameters_are_accepted(normalised):
    # The ends of each range are valid: S²GC with K = 1 and α = 1 or 0, APPNP with α = 1 and 0.
    G, X, norm, T = normalised
    assert_allclose(propagate("s2gc", G, X, K=1, alpha=0.3, norm=norm), 0.3 * X + 0.7 * T @ X,
                    atol=1e-12)
    assert_allclose(propagate("s2gc", G, X, K=3, alpha=1.0, norm=norm), X, atol=1e-12)
    assert_allclose(propagate("appnp", G, X, K=3, alpha=1.0, norm=norm), X, atol=1e-12)
    assert_allclose(propagate("appnp", G, X, K=3, alpha=0.0, norm=norm), T @ T @ T @ X,
                    atol=1e-12)


@pytest.mark.parametrize("name", sorted(PROPAGATIONS))
def test_rows_of_x_are_checked_and_a_signal_becomes_a_column(graph, name):
    G, X = graph
    params = {"lam": 2.0, "S": 3} if name in ("ngc", "rngc") else {}
    with pytest.raises(ValueError, match=r"^X must have one row per node: expected 25 rows"):
        propagate(name, G, X[:-1], **params)
    H = propagate(name, G, X[:, 1], **params)
    assert H.shape == (25, 1)
    assert_allclose(H, propagate(name, G, X[:, [1]], **params), atol=1e-12)


def test_rngc_edges_mode_masks_xxt_with_the_graph_pattern(normalised):
    # mode="edges": XXᵀ/‖XXᵀ‖_F kept on the edges and self-loops only (Eq. 12's sparse variant).
    from ._reference import rngc
    G, X, norm, _ = normalised
    mask = (nx.to_numpy_array(G) + np.eye(25)) > 0
    assert_allclose(propagate("rngc", G, X, lam=3.0, S=4, eps=0.5, mode="edges", norm=norm),
                    rngc(nx.to_scipy_sparse_array(G), X, 3.0, 4, 0.5, norm, mask=mask),
                    atol=1e-12)


def test_weights_and_node_order_of_a_networkx_graph(graph):
    # The edge attribute "weight" by default (another by weight=), the rows in nodelist order.
    _, X = graph
    G = nx.Graph()
    G.add_nodes_from([2, 0, 1, 3])                        # insertion order is not label order
    G.add_edge(0, 1, weight=3.0, w=0.5)
    G.add_edge(1, 2, weight=1.0, w=2.0)
    G.add_edge(2, 3, weight=2.0, w=1.0)
    order = [0, 1, 2, 3]
    X4 = X[:4]

    def T(attr):
        A = np.zeros((4, 4))
        for u, v, data in G.edges(data=True):
            A[u, v] = A[v, u] = data[attr]
        A += np.eye(4)
        d = A.sum(1)
        return A / np.sqrt(np.outer(d, d))

    assert_allclose(propagate("sgc", G, X4, K=1, nodelist=order), T("weight") @ X4, atol=1e-12)
    assert_allclose(PROPAGATIONS["sgc"](G, X4, K=1, nodelist=order), T("weight") @ X4,
                    atol=1e-12)
    assert_allclose(propagate("sgc", G, X4, K=1, weight="w", nodelist=order), T("w") @ X4,
                    atol=1e-12)
    assert_allclose(PROPAGATIONS["sgc"](G, X4, K=1, weight="w", nodelist=order), T("w") @ X4,
                    atol=1e-12)


def test_registry_messages_list_the_choices(graph):
    G, X = graph
    with pytest.raises(ValueError, match=r"^propagation must be one of 'raw', 'ngc', 'rngc', "
                                         r"'gsd', 'sgc', 's2gc', 'appnp'; got 'gcn'$"):
        propagate("gcn", G, X)
    with pytest.raises(TypeError, match=r"^propagation 'sgc' got unexpected parameter\(s\) "
                                        r"\['lam'\]; it takes \['K', 'norm'\]$"):
        propagate("sgc", G, X, lam=2.0)
