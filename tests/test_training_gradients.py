"""Hand-derived gradients against central finite differences (float64), and the SGC / S²GC
propagations in front of the softmax classifier against dense references written here.

The softmax cross-entropy and the linear / MLP classifier of ``_nn`` are checked in
``test_training_classifier.py``; here: the GCN (every parameter, dropout masks fixed, a
symmetric and a non-symmetric Â, dense and sparse X) and the SGC / S²GC pipelines.
"""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from ngc_ref import normalized_adjacency
from ngc_ref.training import _nn, propagate
from ngc_ref.training.gcn import gcn_loss_and_grad, init_gcn_params

from ._reference import norm_adj
from .test_training_classifier import _fd_grads, _rel_err

RTOL = 1e-6


@pytest.mark.parametrize("norm", ["sym", "rw"])      # "rw": Â is not symmetric, Âᵀ ≠ Â
@pytest.mark.parametrize("sparse_X", [False, True])
@pytest.mark.parametrize("dropout", [0.0, 0.5])
def test_gcn_gradient_matches_finite_differences(norm, sparse_X, dropout):
    rng = np.random.default_rng(7)
    G = nx.gnp_random_graph(14, 0.25, seed=2)
    n, d, h, c = 14, 5, 4, 3
    An = normalized_adjacency(G, norm=norm)
    X = rng.standard_normal((n, d))
    if sparse_X:
        X = sp.csr_array(np.where(rng.random((n, d)) < 0.5, X, 0.0))
    y = rng.integers(0, c, n)
    nodes = np.array([0, 2, 3, 7, 11])
    params = init_gcn_params(d, h, c, rng)
    masks = None
    if dropout:
        m_in = _nn.dropout_mask(X.data.shape if sparse_X else X.shape, dropout, rng)
        m_hid = _nn.dropout_mask((n, h), dropout, rng)
        masks = (m_in, m_hid)
    loss, grads = gcn_loss_and_grad(params, An, X, y, nodes, masks)
    fd = _fd_grads(params, lambda: gcn_loss_and_grad(params, An, X, y, nodes, masks)[0])
    for name, g, f in zip(("W1", "b1", "W2", "b2"), grads, fd):
        assert g.shape == f.shape
        assert _rel_err(g, f) < RTOL, name


def _sgc_reference(T, X, K):
    return np.linalg.matrix_power(T, K) @ X


def _s2gc_reference(T, X, K, alpha):
    # Zhu & Koniusz (2021), Eq. 8: x̂ = (1/K) Σ_{k=1}^{K} ((1 − α) T^k x + α x).
    return sum((1 - alpha) * np.linalg.matrix_power(T, k) @ X + alpha * X
               for k in range(1, K + 1)) / K


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("name,params", [("sgc", dict(K=2)), ("sgc", dict(K=5)),
                                         ("s2gc", dict(K=4, alpha=0.05)),
                                         ("s2gc", dict(K=16, alpha=0.3))])
def test_propagation_then_softmax_gradient(norm, name, params):
    rng = np.random.default_rng(3)
    G = nx.gnp_random_graph(20, 0.2, seed=5)
    X = rng.standard_normal((20, 6))
    y = rng.integers(0, 3, 20)
    T = norm_adj(nx.to_scipy_sparse_array(G), norm)
    ref = (_sgc_reference(T, X, params["K"]) if name == "sgc"
           else _s2gc_reference(T, X, params["K"], params["alpha"]))
    H = propagate(name, G, X, norm=norm, **params)
    assert_allclose(H, ref, rtol=1e-12, atol=1e-13)
    weights = _nn.init_params([6, 3], rng)
    loss, grads = _nn.loss_and_grad(weights, H, y)
    fd = _fd_grads(weights, lambda: _nn.loss_and_grad(weights, ref, y)[0])
    for g, f in zip(grads, fd):
        assert _rel_err(g, f) < RTOL
    # The closed form of the linear model: ∂W = Hᵀ(P − Y)/m, ∂b = 1ᵀ(P − Y)/m.
    Z = H @ weights[0] + weights[1]
    P = np.exp(Z - Z.max(1, keepdims=True))
    P /= P.sum(1, keepdims=True)
    R = (P - np.eye(3)[y]) / 20
    assert_allclose(grads[0], H.T @ R, rtol=1e-12, atol=1e-15)
    assert_allclose(grads[1], R.sum(0), rtol=1e-12, atol=1e-15)
