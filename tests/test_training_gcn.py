"""The NumPy GCN (pygcn settings): dense reference, a synthetic graph where it must beat the MLP,
Cora's Planetoid split when the data are there, dtype, determinism and validation."""

import os

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
