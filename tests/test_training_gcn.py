"""The NumPy GCN (pygcn settings): dense reference, a synthetic graph where it must beat the MLP,
Cora's Planetoid split when the data are there, dtype, determinism and validation."""

import os
import re

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from ngc_ref.graphs import contextual_sbm
from ngc_ref.training import PYGCN_SETTINGS, GCNResult, train_classifier, train_gcn
from ngc_ref.training.gcn import gcn_forward, init_gcn_params

from ._reference import norm_adj


@pytest.fixture(scope="module")
def csbm():
    # Features barely informative (SNR 0.4 per node), a strongly homophilous graph.
    cs = contextual_sbm(600, 3, 0.04, 0.002, 16, signal=1.0, noise_std=2.5, seed=1)
    train = np.zeros(600, bool)
    train[np.arange(0, 600, 15)] = True                  # 40 labelled nodes
    return cs, train


def test_forward_matches_the_dense_formula():
    rng = np.random.default_rng(0)
    cs = contextual_sbm(30, 3, 0.3, 0.05, 4, noise_std=0.5, seed=0)
    X = cs.X
    params = init_gcn_params(4, 5, 3, rng)
    for norm in ("sym", "rw"):
        from ngc_ref import normalized_adjacency
        An = normalized_adjacency(cs.adjacency, norm=norm)
        T = norm_adj(cs.adjacency, norm)
        W1, b1, W2, b2 = params
        expect = T @ np.maximum(T @ X @ W1 + b1, 0.0) @ W2 + b2
        assert_allclose(gcn_forward(params, An, X)[0], expect, rtol=1e-12, atol=1e-12)


def test_pygcn_initialisation_bounds():
    rng = np.random.default_rng(0)
    W1, b1, W2, b2 = init_gcn_params(500, 16, 7, rng)
    # GraphConvolution.reset_parameters: U(-1/sqrt(out), 1/sqrt(out)) for W and b.
    assert np.abs(W1).max() <= 0.25 and np.abs(W1).max() > 0.24
    assert np.abs(b1).max() <= 0.25
    assert np.abs(W2).max() <= 1 / np.sqrt(7)
    G = init_gcn_params(500, 16, 7, rng, init="glorot")
    assert np.abs(G[0]).max() <= np.sqrt(6 / 516) and not G[1].any() and not G[3].any()


def test_gcn_beats_the_graph_free_mlp_on_a_homophilous_graph(csbm):
    cs, train = csbm
    test = ~train
    gcn = [train_gcn(cs.adjacency, cs.X, cs.labels, train, seed=s).accuracy(cs.labels, test)
           for s in range(2)]
    mlp = [train_classifier(cs.X[train], cs.labels[train], 3, seed=s, **PYGCN_SETTINGS)
           .accuracy(cs.X[test], cs.labels[test]) for s in range(2)]
    # Measured: GCN 0.79, MLP 0.38 (chance 1/3).
    assert np.mean(gcn) > 0.7
    assert np.mean(gcn) > np.mean(mlp) + 0.3


def test_loss_decreases_and_result_fields(csbm):
    cs, train = csbm
    res = train_gcn(cs.adjacency, cs.X, cs.labels, train, epochs=50, seed=0)
    assert isinstance(res, GCNResult) and res.epochs == 50
    assert res.loss_history.shape == (50,)
    assert res.loss_history[-5:].mean() < 0.7 * res.loss_history[0]
    assert res.logits.shape == (600, 3) and res.predict().shape == (600,)
    assert res.accuracy(cs.labels, np.flatnonzero(train)) == res.accuracy(cs.labels, train)
    assert np.isnan(res.accuracy(cs.labels, np.zeros(600, bool)))
    assert res.settings["hidden"] == 16 and res.settings["norm"] == "sym"


def test_determinism_dtype_and_sparse_input(csbm):
    cs, train = csbm
    kw = dict(epochs=20, seed=3)
    a = train_gcn(cs.adjacency, cs.X, cs.labels, train, **kw)
    b = train_gcn(cs.adjacency, cs.X, cs.labels, train, **kw)
    c = train_gcn(cs.adjacency, cs.X, cs.labels, train, epochs=20, seed=4)
    for p, q in zip(a.params, b.params):
        assert_allclose(p, q, rtol=0, atol=0)
    assert not np.allclose(a.params[0], c.params[0])
    rng = np.random.default_rng(3)                        # a Generator is accepted and advanced
    train_gcn(cs.adjacency, cs.X, cs.labels, train, epochs=2, seed=rng)
    assert rng.random() != np.random.default_rng(3).random()
    f32 = train_gcn(cs.adjacency, cs.X.astype(np.float32), cs.labels, train, **kw)
    assert all(p.dtype == np.float32 for p in f32.params) and f32.logits.dtype == np.float32
    assert_allclose(f32.logits, a.logits, rtol=1e-3, atol=1e-3)
    Xs = sp.csr_array(np.where(np.abs(cs.X) > 1.0, cs.X, 0.0))
    dense = train_gcn(cs.adjacency, Xs.toarray(), cs.labels, train, **kw)
    sparse = train_gcn(cs.adjacency, Xs, cs.labels, train, **kw)
    assert_allclose(sparse.logits, dense.logits, rtol=1e-10, atol=1e-10)
    drop = train_gcn(cs.adjacency, Xs, cs.labels, train, input_dropout=0.5, **kw)
    assert np.all(np.isfinite(drop.logits))


def test_labels_outside_training_may_be_unlabelled(csbm):
    cs, train = csbm
    y = np.where(train, cs.labels, -1)
    res = train_gcn(cs.adjacency, cs.X, y, train, n_classes=3, epochs=5, seed=0)
    assert res.logits.shape == (600, 3)
    with pytest.raises(ValueError, match="unlabelled"):
        train_gcn(cs.adjacency, cs.X, y, ~train, n_classes=3, epochs=1)


def test_validation_errors(csbm):
    cs, train = csbm
    A, X, y = cs.adjacency, cs.X, cs.labels
    bad = [
        (ValueError, "X", dict(X=X[:-1])),
        (ValueError, "X", dict(X=np.where(train[:, None], np.nan, X))),
        (TypeError, "X", dict(X="features")),
        (ValueError, "y", dict(y=y[:-1])),
        (ValueError, "y", dict(y=y.astype(float))),
        (ValueError, "train_mask", dict(train_mask=train[:-1])),
        (ValueError, "train_mask", dict(train_mask=np.zeros(600, bool))),
        (ValueError, "train_mask", dict(train_mask=np.array([0, 0, 1]))),
        (ValueError, "train_mask", dict(train_mask=np.array([600]))),
        (ValueError, "n_classes", dict(n_classes=2)),
        (ValueError, "hidden", dict(hidden=0)),
        (TypeError, "hidden", dict(hidden=16.0)),
        (ValueError, "dropout", dict(dropout=1.0)),
        (ValueError, "input_dropout", dict(input_dropout=-0.1)),
        (ValueError, "lr", dict(lr=0.0)),
        (ValueError, "weight_decay", dict(weight_decay=-1.0)),
        (ValueError, "epochs", dict(epochs=-1)),
        (ValueError, "norm", dict(norm="left")),
        (ValueError, "init", dict(init="xavier")),
        (ValueError, "optimizer", dict(optimizer="sgd")),
        (ValueError, "seed", dict(seed=-1)),
        (TypeError, "seed", dict(seed="s")),
    ]
    for exc, name, kw in bad:
        args = dict(A=A, X=X, y=y, train_mask=train, epochs=1)
        args.update(kw)
        with pytest.raises(exc, match=name):
            train_gcn(**args)
    with pytest.raises(ValueError, match="A"):
        train_gcn(A[:, :-1], X, y, train)


def test_memory_guard_refuses_with_the_numbers(csbm, monkeypatch):
    cs, train = csbm
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", "10KiB")
    with pytest.raises(ValueError, match="train_gcn would need"):
        train_gcn(cs.adjacency, cs.X, cs.labels, train, epochs=1)


def test_divergence_is_reported():
    cs = contextual_sbm(40, 2, 0.3, 0.05, 4, noise_std=0.5, seed=0)
    train = np.arange(40) % 4 == 0
    with pytest.raises(ValueError, match="diverged"):
        train_gcn(cs.adjacency, cs.X * 1e150, cs.labels, train, lr=1e150, optimizer="gd",
                  epochs=5, seed=0)


@pytest.mark.skipif(not os.environ.get("NGC_REF_DATA"), reason="NGC_REF_DATA not set")
def test_pygcn_settings_reach_the_published_accuracy_on_cora():
    # Kipf & Welling report 81.5% on Cora's Planetoid split; pygcn's features are row-normalised.
    from ngc_ref.datasets import load_dataset
    from ngc_ref.noise import row_normalize
    ds = load_dataset("cora")
    X = row_normalize(ds.features)
    accs = [train_gcn(ds.adjacency, X, ds.labels, ds.train_mask, seed=s)
            .accuracy(ds.labels, ds.test_mask) for s in range(3)]
    assert np.mean(accs) >= 0.78, accs


# --- initialisation, dropout, ReLU at 0, settings, messages, the memory estimate --------------

def _path6():
    import networkx as nx
    return nx.path_graph(6)


def test_initialisations_fill_their_whole_range_in_the_features_dtype():
    # pygcn: W, b ~ U(−1/√h_out, 1/√h_out); Glorot: W ~ U(−√(6/(h_in+h_out)), +...), b = 0.
    rng = np.random.default_rng(1)
    W1, b1, W2, b2 = init_gcn_params(400, 300, 200, rng, np.float32)
    for p, bound in ((W1, 1 / np.sqrt(300)), (b1, 1 / np.sqrt(300)), (W2, 1 / np.sqrt(200)),
                     (b2, 1 / np.sqrt(200))):
        assert p.dtype == np.float32
        assert -bound <= p.min() < -0.95 * bound and 0.95 * bound < p.max() <= bound
    G = init_gcn_params(400, 300, 200, rng, np.float32, init="glorot")
    for W, bound in ((G[0], np.sqrt(6 / 700)), (G[2], np.sqrt(6 / 500))):
        assert W.dtype == np.float32
        assert -bound <= W.min() < -0.95 * bound and 0.95 * bound < W.max() <= bound
    assert G[1].dtype == G[3].dtype == np.float32 and not G[1].any() and not G[3].any()
    f32 = train_gcn(_path6(), np.ones((6, 2), np.float32), np.arange(6) % 2, [0, 1],
                    init="glorot", epochs=0, seed=0)
    assert all(p.dtype == np.float32 for p in f32.params)
    assert not f32.params[1].any() and np.ptp(f32.params[0]) > 0


def test_forward_applies_both_dropout_masks_like_the_dense_formula():
    rng = np.random.default_rng(2)
    cs = contextual_sbm(20, 2, 0.3, 0.05, 4, noise_std=0.5, seed=0)
    T = norm_adj(cs.adjacency, "rw")
    from ngc_ref import normalized_adjacency
    An = normalized_adjacency(cs.adjacency, norm="rw")
    W1, b1, W2, b2 = params = init_gcn_params(4, 5, 2, rng)
    m_in = rng.choice([0.0, 2.0], size=(20, 4))
    m_hid = rng.choice([0.0, 2.0], size=(20, 5))
    expect = T @ (np.maximum(T @ (cs.X * m_in) @ W1 + b1, 0.0) * m_hid) @ W2 + b2
    assert_allclose(gcn_forward(params, An, cs.X, (m_in, m_hid))[0], expect, rtol=1e-12,
                    atol=1e-12)
    Xs = sp.csr_array(np.where(np.abs(cs.X) > 0.3, cs.X, 0.0))
    m_data = rng.choice([0.0, 2.0], size=Xs.nnz)          # one entry per stored entry
    Xd = Xs.copy()
    Xd.data = Xd.data * m_data
    expect = T @ (np.maximum(T @ Xd.toarray() @ W1 + b1, 0.0) * m_hid) @ W2 + b2
    assert_allclose(gcn_forward(params, An, Xs, (m_data, m_hid))[0], expect, rtol=1e-12,
                    atol=1e-12)


def _dense_gcn_loss(params, T, X, y, train, m_in=None, m_hid=None):
    W1, b1, W2, b2 = params
    Xd = X if m_in is None else X * m_in
    H1 = np.maximum(T @ Xd @ W1 + b1, 0.0)
    if m_hid is not None:
        H1 = H1 * m_hid
    Z = (T @ H1 @ W2 + b2)[train]
    Z = Z - Z.max(axis=1, keepdims=True)
    return -float(np.mean(Z[np.arange(len(Z)), y[train]] - np.log(np.exp(Z).sum(axis=1))))


@pytest.mark.parametrize("sparse_X", [False, True])
def test_one_training_step_uses_the_masks_the_seed_draws(sparse_X):
    # The documented stream: the parameters, then this epoch's input mask and hidden mask.
    from ngc_ref.training import _nn
    from .test_training_classifier import _fd_grads, _rel_err
    cs = contextual_sbm(16, 2, 0.4, 0.1, 3, noise_std=0.5, seed=3)
    X = sp.csr_array(np.where(np.abs(cs.X) > 0.4, cs.X, 0.0)) if sparse_X else cs.X
    train = np.arange(16) % 3 == 0
    kw = dict(hidden=4, dropout=0.5, input_dropout=0.4, optimizer="gd", lr=0.2,
              weight_decay=0.0, norm="rw", seed=7)
    res = train_gcn(cs.adjacency, X, cs.labels, train, 2, epochs=1, **kw)
    rng = np.random.default_rng(7)
    p0 = init_gcn_params(3, 4, 2, rng)
    assert all(np.array_equal(a, b) for a, b in zip(
        p0, train_gcn(cs.adjacency, X, cs.labels, train, 2, epochs=0, **kw).params))
    m_in = _nn.dropout_mask(X.nnz if sparse_X else X.shape, 0.4, rng)
    m_hid = _nn.dropout_mask((16, 4), 0.5, rng)
    if sparse_X:
        Xd = X.copy()
        Xd.data = Xd.data * m_in
        Xd, m_in = Xd.toarray(), None
    else:
        Xd = X
    assert set(np.unique(m_hid)) == {0.0, 2.0}
    T = norm_adj(cs.adjacency, "rw")
    work = [p.copy() for p in p0]
    fd = _fd_grads(work, lambda: _dense_gcn_loss(work, T, Xd, cs.labels, train, m_in, m_hid))
    for name, a, b, g in zip(("W1", "b1", "W2", "b2"), p0, res.params, fd):
        assert _rel_err((a - b) / 0.2, g) < 1e-6, name


def test_relu_has_derivative_zero_at_zero():
    # As PyTorch's ReLU (pygcn): a hidden unit at exactly 0 passes no gradient. With Glorot's
    # zero biases, node 5 (no edges, zero features) has Z₁ = 0 in every unit.
    from ngc_ref import normalized_adjacency
    from ngc_ref.training.gcn import gcn_loss_and_grad
    A = np.zeros((6, 6))
    A[0, 1] = A[1, 0] = A[1, 2] = A[2, 1] = A[3, 4] = A[4, 3] = 1.0
    X = np.random.default_rng(0).standard_normal((6, 3))
    X[5] = 0.0
    params = init_gcn_params(3, 4, 2, np.random.default_rng(1), init="glorot")
    y, nodes = np.array([0, 1, 0, 1, 0, 1]), np.array([0, 3, 5])
    An = normalized_adjacency(A)
    _, (dW1, db1, dW2, db2) = gcn_loss_and_grad(params, An, X, y, nodes)
    W1, b1, W2, b2 = params
    T = norm_adj(A, "sym")
    Z1 = T @ X @ W1 + b1
    assert np.all(Z1[5] == 0.0)
    P = np.exp(T @ np.maximum(Z1, 0) @ W2 + b2)
    P /= P.sum(1, keepdims=True)
    G = np.zeros((6, 2))
    G[nodes] = (P[nodes] - np.eye(2)[y[nodes]]) / 3
    G1 = (T.T @ G @ W2.T) * (Z1 > 0)
    assert_allclose(db1, G1.sum(0), rtol=1e-12, atol=1e-15)
    assert_allclose(dW1, X.T @ T.T @ G1, rtol=1e-12, atol=1e-15)


def test_defaults_are_pygcns_and_settings_record_the_run():
    import inspect
    sig = inspect.signature(train_gcn).parameters
    assert {k: sig[k].default for k in PYGCN_SETTINGS} == PYGCN_SETTINGS
    assert (sig["input_dropout"].default, sig["optimizer"].default, sig["norm"].default,
            sig["init"].default, sig["weight"].default) == (0.0, "adam", "sym", "pygcn", "weight")
    cs = contextual_sbm(12, 2, 0.4, 0.1, 3, noise_std=0.5, seed=3)
    res = train_gcn(cs.adjacency, cs.X, cs.labels, [0, 1, 2], hidden=3, dropout=0.2,
                    input_dropout=0.1, lr=0.05, epochs=2, weight_decay=0.001, optimizer="gd",
                    norm="rw", init="glorot", seed=0)
    assert res.settings == dict(hidden=3, dropout=0.2, input_dropout=0.1, lr=0.05, epochs=2,
                                weight_decay=0.001, optimizer="gd", norm="rw", init="glorot",
                                n_classes=2)


def test_boundary_values_are_accepted():
    cs = contextual_sbm(12, 2, 0.4, 0.1, 3, noise_std=0.5, seed=3)
    y0 = np.zeros(12, int)
    res = train_gcn(cs.adjacency, cs.X, y0, [0, 1], n_classes=1, hidden=1, dropout=0.0,
                    input_dropout=0.0, epochs=1, seed=0)
    assert res.logits.shape == (12, 1) and res.params[0].shape == (3, 1)


def test_weighted_networkx_graph_in_nodelist_order():
    import networkx as nx
    G = nx.Graph()
    G.add_nodes_from([3, 0, 2, 1])
    G.add_edge(0, 1, weight=4.0, w=1.0)
    G.add_edge(1, 2, weight=1.0, w=3.0)
    G.add_edge(2, 3, weight=2.0, w=1.0)
    X = np.random.default_rng(0).standard_normal((4, 2))
    y = np.array([0, 1, 0, 1])
    for kw, attr in ((dict(), "weight"), (dict(weight="w"), "w")):
        A = nx.to_numpy_array(G, nodelist=[0, 1, 2, 3], weight=attr)
        res = train_gcn(G, X, y, [0, 1], epochs=0, seed=0, nodelist=[0, 1, 2, 3], **kw)
        assert_allclose(res.logits, gcn_forward(res.params, norm_adj(A, "sym"), X)[0],
                        rtol=1e-12)


def test_divergence_in_the_last_update_is_reported():
    # The loss before the one update is finite; the update itself overflows the logits.
    cs = contextual_sbm(12, 2, 0.4, 0.1, 3, noise_std=0.5, seed=3)
    with pytest.raises(ValueError, match=r"^training diverged .* with lr=1e\+300; lower lr$"):
        train_gcn(cs.adjacency, cs.X, cs.labels, [0, 1, 2], lr=1e300, optimizer="gd",
                  epochs=1, seed=0)


def test_argument_messages_name_the_argument(csbm):
    cs, train = csbm
    A, X, y = cs.adjacency, cs.X, cs.labels
    bad = [
        (r"^hidden must be >= 1, got 0$", dict(hidden=0)),
        (r"^dropout must be >= 0.0, got -0.1$", dict(dropout=-0.1)),
        (r"^dropout must be < 1.0, got 1.0$", dict(dropout=1.0)),
        (r"^input_dropout must be < 1.0, got 1.0$", dict(input_dropout=1.0)),
        (r"^input_dropout must be >= 0.0, got -0.1$", dict(input_dropout=-0.1)),
        (r"^epochs must be >= 0, got -1$", dict(epochs=-1)),
        (r"^n_classes must be >= 1, got 0$", dict(n_classes=0)),
        (r"^optimizer must be one of 'adam', 'gd'; got 'sgd'$", dict(optimizer="sgd")),
        (r"^init must be one of 'pygcn', 'glorot'; got 'xavier'$", dict(init="xavier")),
        (r"^train_mask selects no nodes$", dict(train_mask=np.zeros(600, bool))),
        (r"^train_mask selects unlabelled nodes \(label < 0\)$",
         dict(y=np.where(train, -1, y))),
        (r"^train_mask must be a boolean mask of length 600 or a 1-D array of node indices, "
         r"got dtype=float64, shape=\(2,\)$", dict(train_mask=np.array([0.0, 1.0]))),
        (r"^train_mask must be a boolean mask of length 600 or a 1-D array of node indices, "
         r"got dtype=int64, shape=\(1, 2\)$", dict(train_mask=np.array([[0, 1]]))),
        (r"^train_mask repeats node indices \(2 repeats\)$",
         dict(train_mask=np.array([0, 0, 0, 1]))),
        (r"^y must be a 1-D array of integer labels", dict(y=y.astype(float))),
        (r"^X must have one row per node", dict(X=X[:-1])),
    ]
    for pattern, kw in bad:
        args = dict(A=A, X=X, y=y, train_mask=train, epochs=1)
        args.update(kw)
        with pytest.raises(ValueError, match=pattern):
            train_gcn(**args)


def test_accuracy_reads_nodes_and_checks_labels(csbm):
    cs, train = csbm
    res = train_gcn(cs.adjacency, cs.X, cs.labels, train, epochs=1, seed=0)
    pred = res.predict()
    assert res.accuracy(cs.labels) == np.mean(pred == cs.labels)
    assert res.accuracy(cs.labels, [3, 1]) == np.mean(pred[[1, 3]] == cs.labels[[1, 3]])
    with pytest.raises(ValueError, match=r"^y must hold one label per node \(600\), got "
                                         r"shape=\(599,\)$"):
        res.accuracy(cs.labels[:-1])
    with pytest.raises(ValueError, match=r"^nodes repeats node indices \(1 repeats\)$"):
        res.accuracy(cs.labels, [2, 2])


def _documented_estimate(n, d, h, c, nnz, itemsize, dropped_entries=0):
    # train_gcn's peak, term by term as its code documents it: parameters, gradients and
    # Adam's two moments; 7 n x h and 5 n x c activations and temporaries; Â and Âᵀ in CSR
    # (values, int64 indices, index pointers); for input dropout, per (stored) entry of X a
    # float64 draw, the mask and the dropped copy.
    n_params = d * h + h + h * c + c
    return (4 * n_params * itemsize + (7 * n * h + 5 * n * c) * itemsize
            + 2 * nnz * (itemsize + 8) + 2 * (n + 1) * 8
            + dropped_entries * (8 + 2 * itemsize))


@pytest.mark.parametrize("sparse_X,input_dropout,dtype", [
    (False, 0.0, np.float64), (True, 0.5, np.float64), (False, 0.5, np.float32)])
def test_memory_estimate_covers_the_measured_peak(sparse_X, input_dropout, dtype, monkeypatch):
    import tracemalloc
    from ngc_ref import normalized_adjacency
    from ngc_ref._memory import format_bytes
    n, d, h, c = 500, 40, 16, 4
    cs = contextual_sbm(n, c, 0.03, 0.002, d, noise_std=1.0, seed=0)
    X = cs.X.astype(dtype)
    if sparse_X:
        X = sp.csr_array(np.where(np.abs(X) > 1.0, X, 0.0).astype(dtype))
    train = np.arange(n) % 5 == 0
    nnz = normalized_adjacency(cs.adjacency).nnz
    dropped = (X.nnz if sparse_X else n * d) if input_dropout else 0
    est = _documented_estimate(n, d, h, c, nnz, np.dtype(dtype).itemsize, dropped)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        train_gcn(cs.adjacency, X, cs.labels, train, hidden=h, epochs=2,
                  input_dropout=input_dropout, seed=0)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak <= est <= 3 * peak, (peak, est)
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", "1000")
    with pytest.raises(ValueError, match=(
            rf"^train_gcn would need {re.escape(format_bytes(est))} \(an estimate: parameters "
            rf"and Adam state for {d} → {h} → {c}, activations of {n} nodes, Â and Âᵀ\) but "
            r"only 1000 B is available .*; use fewer hidden units, a float32 X or no "
            r"input_dropout\.")):
        train_gcn(cs.adjacency, X, cs.labels, train, hidden=h, epochs=1,
                  input_dropout=input_dropout)


def test_memory_estimate_counts_index_pointers_exactly():
    # Â and Âᵀ in CSR hold n + 1 index pointers each (8 bytes): the count to the byte.
    from ngc_ref.training.gcn import _gcn_memory
    X = np.ones((7, 3))
    assert _gcn_memory(7, 3, 5, 2, 19, X, 0.0, 8) == _documented_estimate(7, 3, 5, 2, 19, 8)
    Xs = sp.csr_array(np.eye(7, 3))
    assert _gcn_memory(7, 3, 5, 2, 19, Xs, 0.5, 4) == _documented_estimate(7, 3, 5, 2, 19, 4, 3)


def test_converting_x_is_guarded_under_train_gcns_name(monkeypatch):
    cs = contextual_sbm(12, 2, 0.4, 0.1, 3, noise_std=0.5, seed=3)
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", "100")
    with pytest.raises(ValueError, match=r"^train_gcn would need 288 B \(a dense 12 x 3 array of "
                                         r"8 bytes per entry: train_gcn's work arrays\)"):
        train_gcn(cs.adjacency, np.ones((12, 3), dtype=np.int64), cs.labels, [0, 1])


def test_pygcn_settings_by_default():
    # The defaults in use (a mutated default is invisible to inspect.signature under mutmut).
    res = train_gcn(_path6(), np.eye(6, 2), np.arange(6) % 2, [0, 1], seed=0)
    assert res.epochs == 200 and res.loss_history.shape == (200,)
    assert res.params[0].shape == (2, 16)
    assert res.settings == dict(hidden=16, dropout=0.5, input_dropout=0.0, lr=0.01, epochs=200,
                                weight_decay=5e-4, optimizer="adam", norm="sym", init="pygcn",
                                n_classes=2)
