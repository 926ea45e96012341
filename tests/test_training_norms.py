"""Every trainer with ``norm="sym"`` and ``norm="rw"``, end to end, against dense references.

Each trainer builds its own operator from the adjacency and ``norm`` (nothing is passed in by
the test), takes one or two plain gradient-descent steps, and is compared with a dense,
obviously-correct computation written here from the dense T = D̃^{-1/2} Ã D̃^{-1/2} or
D̃^{-1} Ã of ``tests/_reference.py``: the propagated features, the gradient (read off one GD
step: θ₀ − θ₁ = lr (∇L(θ₀) + wd θ₀)) and the loss after the step. The graph has unequal
degrees, so the two normalisations differ and the rw operator is not symmetric (Tᵀ ≠ T): an
ignored ``norm``, a transpose dropped from a gradient or an operator applied from the wrong
side changes the numbers.

Trainers: the least-squares trajectory of Theorem 1, the two-layer GCN, every registered
propagation followed by the softmax classifier (through the scikit-learn pipeline), and the
runner's models (a propagation + classifier, the GCN, a propagation + GCN).
"""

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from ngc_ref.training import (ModelSpec, make_node_classifier, run_experiment, theory_trajectory,
                              train_classifier, train_gcn)

from ._reference import dense, gsd_inverse, neumann, norm_adj, rngc, tau_i
from .test_training_classifier import _fd_grads, _rel_err

NORMS = ("sym", "rw")
N, D, C = 8, 3, 2


def _graph():
    """8 nodes, degrees 1 to 4 (a triangle with a tail, a hub, a pendant)."""
    edges = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (3, 5), (3, 6), (6, 7)]
    u, v = np.array(edges).T
    A = sp.coo_array((np.ones(len(u)), (u, v)), shape=(N, N)).tocsr()
    return A + A.T


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(11)
    A = _graph()
    X = rng.standard_normal((N, D))
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    train = np.zeros(N, bool)
    train[[0, 1, 3, 4, 6]] = True
    return A, X, y, train


def test_the_graph_tells_the_normalisations_apart():
    T_sym, T_rw = norm_adj(_graph(), "sym"), norm_adj(_graph(), "rw")
    assert not np.allclose(T_sym, T_rw) and not np.allclose(T_rw, T_rw.T)


# --- dense references ------------------------------------------------------------------------

def _cross_entropy(logits, y):
    """−(1/m) Σ_i log softmax(logits_i)_{y_i}, written out."""
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return -float(np.mean(np.log(p[np.arange(len(y)), y])))


def _gcn_logits(params, T, X):
    W1, b1, W2, b2 = params
    return T @ np.maximum(T @ X @ W1 + b1, 0.0) @ W2 + b2


def _gcn_loss(params, T, X, y, train):
    return _cross_entropy(_gcn_logits(params, T, X)[train], y[train])


def _mlp_logits(params, H):
    h = H
    for i in range(0, len(params) - 2, 2):
        h = np.maximum(h @ params[i] + params[i + 1], 0.0)
    return h @ params[-2] + params[-1]


def _fd_gradient(params, loss):
    """Central differences of ``loss(params)`` (on copies: the given arrays are not touched)."""
    work = [p.copy() for p in params]
    return _fd_grads(work, lambda: loss(work))


def _gd_step(params, grads, lr, wd=0.0):
    return [p - lr * (g + wd * p) for p, g in zip(params, grads)]


def _propagated(name, A, X, norm, params):
    """H of each registered propagation, from its paper's formula with the dense T."""
    T = norm_adj(A, norm)
    if name == "raw":
        return X.copy()
    if name == "ngc":
        return neumann(A, params["lam"], params["S"], norm) @ X
    if name == "rngc":
        return rngc(A, X, params["lam"], params["S"], params["eps"], norm)
    if name == "gsd":
        return gsd_inverse(A, params["lam"], norm) @ X
    K = params["K"]
    if name == "sgc":
        return np.linalg.matrix_power(T, K) @ X
    if name == "s2gc":
        a = params["alpha"]
        return sum((1 - a) * np.linalg.matrix_power(T, k) @ X + a * X
                   for k in range(1, K + 1)) / K
    assert name == "appnp"
    a, Z = params["alpha"], X.copy()
    for _ in range(K):                                    # Z ← (1 − α) T Z + α X
        Z = (1 - a) * T @ Z + a * X
    return Z


PROPAGATION_PARAMS = {
    "raw": {}, "ngc": dict(lam=3.0, S=5), "rngc": dict(lam=3.0, S=5, eps=0.4),
    "gsd": dict(lam=3.0), "sgc": dict(K=3), "s2gc": dict(K=4, alpha=0.2),
    "appnp": dict(K=5, alpha=0.3),
}


# --- the least-squares trajectory (Theorem 1) ------------------------------------------------

@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("tau_norm", NORMS)
def test_least_squares_trajectory_per_norm(problem, norm, tau_norm):
    A, X, _, _ = problem
    rng = np.random.default_rng(5)
    eta, Y = 0.3 * rng.standard_normal((N, D)), rng.standard_normal((N, C))
    lam, S, l2, steps = 2.0, 4, 0.1, 6
    M = neumann(A, lam, S, norm)                          # Ã_S, dense
    Zs, Z = M @ X, M @ (X + eta)
    L = 2 * np.linalg.norm(Z, 2) ** 2 + 2 * l2
    W0 = np.full((D, C), 0.25)
    tr = theory_trajectory(A, X, eta, Y, lam, S, norm=norm, steps=steps, W0=W0, l2=l2,
                           tau_norm=tau_norm, lipschitz_method="dense")
    grad = lambda V: 2 * Z.T @ (Z @ V - Y) + 2 * l2 * V    # noqa: E731  ∇(‖ZV − Y‖² + l2‖V‖²)
    Ws = [W0]
    for _ in range(steps):
        Ws.append(Ws[-1] - grad(Ws[-1]) / L)              # α = 1/L, the default step
    assert tr.L == pytest.approx(L, rel=1e-12)
    assert_allclose(tr.grad_norm, [np.linalg.norm(grad(V)) for V in Ws], rtol=1e-10)
    assert_allclose(tr.W, Ws[-1], rtol=1e-10)
    assert tr.noise_norm_sq == pytest.approx(np.sum((M @ eta) ** 2), rel=1e-12)
    assert_allclose(tr.W_g_star, np.linalg.lstsq(Zs, Y, rcond=None)[0], rtol=1e-9)
    assert tr.tau == pytest.approx(tau_i(A, lam, S, tau_norm).max(), rel=1e-12)


# --- the two-layer GCN -----------------------------------------------------------------------

GCN_KW = dict(hidden=4, dropout=0.0, optimizer="gd", lr=0.3, weight_decay=0.01)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("sparse_X", [False, True])
def test_gcn_gradient_and_logits_per_norm(problem, norm, sparse_X):
    A, X, y, train = problem
    Xin = sp.csr_array(np.where(np.abs(X) > 0.5, X, 0.0)) if sparse_X else X
    Xd = dense(Xin)
    T = norm_adj(A, norm)
    kw = dict(GCN_KW, norm=norm, seed=4)
    p0 = train_gcn(A, Xin, y, train, C, epochs=0, **kw).params
    res = train_gcn(A, Xin, y, train, C, epochs=1, **kw)
    g = _fd_gradient(p0, lambda p: _gcn_loss(p, T, Xd, y, train))
    for name, a, b, ref in zip(("W1", "b1", "W2", "b2"), p0, res.params, g):
        got = (a - b) / kw["lr"] - kw["weight_decay"] * a
        assert _rel_err(got, ref) < 1e-6, name
    assert res.loss_history[0] == pytest.approx(_gcn_loss(p0, T, Xd, y, train), rel=1e-12)
    assert_allclose(res.logits, _gcn_logits(res.params, T, Xd), rtol=1e-12, atol=1e-12)


# --- a propagation, then the softmax classifier (the scikit-learn pipeline) -----------------

@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", sorted(PROPAGATION_PARAMS))
def test_propagation_then_classifier_per_norm(problem, name, norm):
    A, X, y, train = problem
    params = PROPAGATION_PARAMS[name]
    H = _propagated(name, A, X, norm, params)
    nodes = np.arange(N)[:, None]
    lr, wd = 0.5, 0.01

    def fitted(epochs):
        model = make_node_classifier(A, X, name, norm=norm, **params, optimizer="gd", lr=lr,
                                     weight_decay=wd, epochs=epochs, random_state=2)
        return model.fit(nodes[train], y[train])

    start, one = fitted(0), fitted(1)
    assert_allclose(one[0].propagated_, H, rtol=1e-9, atol=1e-9)
    W0, b0 = start[-1].coefs_[0], start[-1].intercepts_[0]
    W1, b1 = one[-1].coefs_[0], one[-1].intercepts_[0]
    # The softmax regression's gradient: ∂W = Hᵀ(P − Y)/m, ∂b = 1ᵀ(P − Y)/m on the train rows.
    Ht = H[train]
    Z = Ht @ W0 + b0
    P = np.exp(Z - Z.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    R = (P - np.eye(C)[y[train]]) / train.sum()
    assert_allclose((W0 - W1) / lr - wd * W0, Ht.T @ R, rtol=1e-7, atol=1e-10)
    assert_allclose((b0 - b1) / lr - wd * b0, R.sum(axis=0), rtol=1e-7, atol=1e-10)
    assert_allclose(one.predict_proba(nodes)[:, 1],
                    1 / (1 + np.exp(-(H @ (W1[:, 1] - W1[:, 0]) + b1[1] - b1[0]))),
                    rtol=1e-9)


# --- the runner's models ---------------------------------------------------------------------

def _identity_noise(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
    return np.array(X, dtype=np.float64)


def _dataset(problem):
    A, X, y, train = problem
    test = ~train
    return SimpleNamespace(adjacency=A, features=X, labels=y, train_mask=train,
                           val_mask=np.zeros(N, bool), test_mask=test, num_classes=C,
                           name="toy")


def _init_seed(seed):
    """The seed of a run's initialisation stream (run 0, the first level), as the runner's
    module docstring describes it."""
    run = np.random.SeedSequence(seed).spawn(1)[0]
    return int(run.spawn(2)[1].generate_state(1)[0])


def _run(problem, spec, seed=3):
    res = run_experiment(_dataset(problem), levels=(0.0,), models={"m": spec}, runs=1,
                         seed=seed, normalize=False, noise_fn=_identity_noise)
    (rec,) = res.records
    return rec


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["ngc", "rngc", "gsd", "sgc", "s2gc", "appnp"])
def test_runner_propagation_and_classifier_per_norm(problem, name, norm):
    A, X, y, train = problem
    lr, wd = 0.5, 0.01
    clf = dict(optimizer="gd", lr=lr, weight_decay=wd, epochs=2, hidden=0)
    rec = _run(problem, ModelSpec(name, dict(PROPAGATION_PARAMS[name], norm=norm), clf))
    H = _propagated(name, A, X, norm, PROPAGATION_PARAMS[name])
    p = train_classifier(H[train], y[train], C, epochs=0, seed=_init_seed(3)).params
    losses = []
    for _ in range(2):
        loss = lambda q: _cross_entropy(_mlp_logits(q, H[train]), y[train])   # noqa: E731
        losses.append(loss(p))
        p = _gd_step(p, _fd_gradient(p, loss), lr, wd)
    assert rec["final_loss"] == pytest.approx(losses[-1], rel=1e-8)
    test = ~train
    assert rec["test_acc"] == np.mean(np.argmax(_mlp_logits(p, H[test]), axis=1) == y[test])


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("front", [None, "sgc"])
def test_runner_gcn_per_norm(problem, norm, front):
    # The GCN as a runner model: on X itself, or on an SGC propagation of X (its own norm).
    A, X, y, train = problem
    kw = dict(GCN_KW, norm=norm, epochs=2)
    spec = (ModelSpec("raw", {}, kw, trainer="gcn") if front is None else
            ModelSpec("sgc", dict(K=1, norm=norm), kw, trainer="gcn"))
    rec = _run(problem, spec)
    T = norm_adj(A, norm)
    H = X if front is None else T @ X
    p = train_gcn(A, H, y, train, C, **dict(kw, epochs=0), seed=_init_seed(3)).params
    loss = lambda q: _gcn_loss(q, T, H, y, train)                              # noqa: E731
    p = _gd_step(p, _fd_gradient(p, loss), kw["lr"], kw["weight_decay"])
    assert rec["final_loss"] == pytest.approx(loss(p), rel=1e-8)
