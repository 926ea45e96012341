"""Softmax/MLP gradients by finite differences, Adam/GD semantics, determinism."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from ngc_ref.training import Adam, GradientDescent, train_classifier
from ngc_ref.training import _nn


def _fd_grads(params, loss_fn, h=1e-6):
    out = []
    for p in params:
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + h
            lp = loss_fn()
            p[i] = old - h
            lm = loss_fn()
            p[i] = old
            g[i] = (lp - lm) / (2 * h)
        out.append(g)
    return out


def _rel_err(g, f):
    """‖g − f‖ / max(‖g‖, ‖f‖): the relative error of a gradient against finite differences."""
    scale = max(np.linalg.norm(g), np.linalg.norm(f), 1e-12)
    return np.linalg.norm(g - f) / scale


def test_softmax_cross_entropy_gradient_matches_finite_differences():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((6, 4)) * 3
    y = np.array([0, 3, 1, 1, 2, 0])
    loss, G = _nn.softmax_cross_entropy(Z, y)
    (fd,) = _fd_grads([Z], lambda: _nn.softmax_cross_entropy(Z, y)[0])
    assert_allclose(G, fd, rtol=1e-6, atol=1e-8)
    p = np.exp(Z - Z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    assert loss == pytest.approx(-np.mean(np.log(p[np.arange(6), y])))


def test_log_softmax_is_stable_for_large_logits():
    Z = np.array([[1000.0, 0.0], [-1000.0, 1000.0]])
    loss, G = _nn.softmax_cross_entropy(Z, np.array([0, 1]))
    assert np.isfinite(loss) and loss == pytest.approx(0.0) and np.all(np.isfinite(G))


@pytest.mark.parametrize("hidden", [0, 5, (4, 3)])
@pytest.mark.parametrize("dropout", [0.0, 0.4])
def test_network_gradient_matches_finite_differences(hidden, dropout):
    rng = np.random.default_rng(1)
    H = rng.standard_normal((7, 3))
    y = rng.integers(0, 3, 7)
    params = _nn.init_params(_nn.layer_sizes(3, hidden, 3), rng)
    masks = _nn.dropout_masks(params, 7, dropout, rng)   # fixed masks: a deterministic loss
    loss, grads = _nn.loss_and_grad(params, H, y, masks)
    fd = _fd_grads(params, lambda: _nn.loss_and_grad(params, H, y, masks)[0])
    for g, f in zip(grads, fd):
        assert_allclose(g, f, rtol=1e-5, atol=1e-8)
        assert _rel_err(g, f) < 1e-6


def test_dropout_masks_are_inverted_and_absent_for_linear_model():
    rng = np.random.default_rng(2)
    params = _nn.init_params([4, 50, 2], rng)
    (m,) = _nn.dropout_masks(params, 400, 0.5, rng)
    assert set(np.unique(m)) == {0.0, 2.0}
    assert m.mean() == pytest.approx(1.0, abs=0.05)
    assert _nn.dropout_masks(_nn.init_params([4, 2], rng), 10, 0.5, rng) is None


def test_adam_matches_pytorch_update_rule_with_l2_weight_decay():
    # Two steps by hand with torch.optim.Adam's formulas: g <- g + wd*theta.
    theta = [np.array([1.0, -2.0])]
    opt = Adam(lr=0.1, weight_decay=0.5)
    g1 = np.array([0.3, 0.1])
    opt.step(theta, [g1])
    t0 = np.array([1.0, -2.0])
    ge = g1 + 0.5 * t0
    m, v = 0.1 * ge, 0.001 * ge**2
    expect = t0 - 0.1 * (m / 0.1) / (np.sqrt(v / 0.001) + 1e-8)
    assert_allclose(theta[0], expect, rtol=1e-12)
    g2 = np.array([-0.2, 0.4])
    opt.step(theta, [g2])
    ge2 = g2 + 0.5 * expect
    m = 0.9 * m + 0.1 * ge2
    v = 0.999 * v + 0.001 * ge2**2
    expect2 = expect - 0.1 * (m / (1 - 0.9**2)) / (np.sqrt(v / (1 - 0.999**2)) + 1e-8)
    assert_allclose(theta[0], expect2, rtol=1e-12)


def test_gradient_descent_step():
    theta = [np.array([1.0, 2.0])]
    GradientDescent(lr=0.5, weight_decay=0.1).step(theta, [np.array([1.0, -1.0])])
    assert_allclose(theta[0], [1.0 - 0.5 * 1.1, 2.0 - 0.5 * (-1.0 + 0.2)])


def _blobs(seed=0, m=60, d=5, c=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, c, m)
    return rng.standard_normal((c, d))[y] * 2 + 0.5 * rng.standard_normal((m, d)), y


@pytest.mark.parametrize("optimizer,lr", [("adam", 0.2), ("gd", 0.5)])
@pytest.mark.parametrize("hidden,dropout", [(0, 0.0), (16, 0.5)])
def test_training_fits_separable_data(optimizer, lr, hidden, dropout):
    H, y = _blobs()
    res = train_classifier(H, y, hidden=hidden, dropout=dropout, optimizer=optimizer, lr=lr,
                           epochs=100, seed=0)
    assert res.accuracy(H, y) >= 0.95
    assert res.loss_history[-5:].mean() < 0.5 * res.loss_history[0]


def test_plain_gd_decreases_the_loss_monotonically_for_a_small_step():
    H, y = _blobs(1)
    res = train_classifier(H, y, optimizer="gd", lr=0.05, epochs=50, weight_decay=0.0, seed=1)
    assert np.all(np.diff(res.loss_history) <= 1e-12)


def test_determinism_dtype_and_seed_dependence():
    H, y = _blobs(2)
    a = train_classifier(H, y, hidden=8, dropout=0.3, epochs=20, seed=3)
    b = train_classifier(H, y, hidden=8, dropout=0.3, epochs=20, seed=3)
    c = train_classifier(H, y, hidden=8, dropout=0.3, epochs=20, seed=4)
    for p, q in zip(a.params, b.params):
        assert_allclose(p, q, rtol=0, atol=0)
    assert not np.allclose(a.params[0], c.params[0])
    f32 = train_classifier(H.astype(np.float32), y, epochs=5, seed=0)
    assert all(p.dtype == np.float32 for p in f32.params)


def test_training_validation_errors():
    H, y = _blobs()
    with pytest.raises(ValueError, match="dropout"):
        train_classifier(H, y, dropout=1.0)
    with pytest.raises(ValueError, match="optimizer"):
        train_classifier(H, y, optimizer="sgd")
    with pytest.raises(ValueError, match="y"):
        train_classifier(H, y[:-1])
    with pytest.raises(ValueError, match="n_classes"):
        train_classifier(H, y, n_classes=2)
    with pytest.raises(ValueError, match="lr"):
        train_classifier(H, y, lr=0.0)
