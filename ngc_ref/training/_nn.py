"""Softmax cross-entropy, a linear layer and a ReLU MLP with hand-derived gradients (NumPy).

The model is the one of the paper's experiments after propagation (hidden = 0: one linear
layer; hidden > 0: the "+MLP" variant):

.. math::

    h_0 = H,\\quad h_\\ell = \\mathrm{drop}(\\mathrm{ReLU}(h_{\\ell-1} W_\\ell + b_\\ell)),\\quad
    \\mathrm{logits} = h_{L-1} W_L + b_L,

    \\mathcal{L} = -\\frac{1}{m}\\sum_{i=1}^{m} \\log \\mathrm{softmax}(\\mathrm{logits}_i)_{y_i},

with inverted dropout after every hidden ReLU (as in the OGB ``mlp.py`` the paper cites; no batch
norm). Parameters are a list ``[W_1, b_1, ..., W_L, b_L]``. Dropout masks are passed in
explicitly so the gradient is a deterministic function that finite differences can check.
"""

from __future__ import annotations

import math

import numpy as np


def log_softmax(Z):
    """Row-wise log-softmax, shifted by the row max for stability."""
    Z = Z - Z.max(axis=1, keepdims=True)
    return Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))


def softmax_cross_entropy(logits, y):
    """Mean cross-entropy of integer labels ``y`` and its gradient with respect to ``logits``.

    .. math:: \\partial\\mathcal{L}/\\partial Z = (\\mathrm{softmax}(Z) - \\mathrm{onehot}(y))/m

    Returns
    -------
    loss : float
    dlogits : ndarray, same shape as ``logits``
    """
    m = logits.shape[0]
    logp = log_softmax(logits)
    loss = -float(logp[np.arange(m), y].mean())
    G = np.exp(logp)
    G[np.arange(m), y] -= 1.0
    G /= m
    return loss, G


def layer_sizes(d, hidden, c):
    """[d, h_1, ..., h_k, c] from ``hidden`` (None / 0 / positive int / sequence of them)."""
    from .._validation import check_scalar
    if hidden is None:
        return [d, c]
    if isinstance(hidden, (str, bytes)) or not (np.isscalar(hidden)
                                                 or isinstance(hidden, (list, tuple))):
        raise TypeError(f"hidden must be 0, a positive int or a sequence of them, got "
                        f"{type(hidden).__name__} {hidden!r}")
    if np.isscalar(hidden):
        h = check_scalar(hidden, "hidden", min_val=0, integer=True)
        return [d, c] if h == 0 else [d, h, c]
    hs = [check_scalar(h, f"hidden[{i}]", min_val=1, integer=True)
          for i, h in enumerate(hidden)]
    return [d, *hs, c]


def init_params(sizes, rng, dtype=np.float64):
    """PyTorch ``nn.Linear`` default init: W, b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
        params.append(rng.uniform(-bound, bound, size=(fan_in, fan_out)).astype(dtype))
        params.append(rng.uniform(-bound, bound, size=fan_out).astype(dtype))
    return params


def dropout_mask(shape, p, rng, dtype=np.float64):
    """One inverted-dropout mask: entries 0 (with probability p) or 1/(1-p)."""
    keep = 1.0 - p
    return (rng.random(shape) < keep).astype(dtype) / keep


def dropout_masks(params, m, p, rng, dtype=np.float64):
    """Inverted-dropout masks (entries 0 or 1/(1-p)) for every hidden layer; None when p = 0."""
    n_hidden = len(params) // 2 - 1
    if p <= 0 or n_hidden == 0:
        return None
    return [dropout_mask((m, params[2 * i].shape[1]), p, rng, dtype) for i in range(n_hidden)]


def forward(params, H, masks=None):
    """Logits and the cache needed by :func:`backward`."""
    acts = [H]
    pre = []
    h = H
    n_layers = len(params) // 2
    for i in range(n_layers):
        W, b = params[2 * i], params[2 * i + 1]
        z = h @ W + b
        if i == n_layers - 1:
            return z, (acts, pre)
        pre.append(z)
        h = np.maximum(z, 0.0)
        if masks is not None:
            h = h * masks[i]
        acts.append(h)
    raise AssertionError("unreachable")  # pragma: no cover


def backward(params, cache, dlogits, masks=None):
    """Gradients of the loss with respect to ``params`` given ∂L/∂logits."""
    acts, pre = cache
    grads = [None] * len(params)
    g = dlogits
    for i in range(len(params) // 2 - 1, -1, -1):
        grads[2 * i] = acts[i].T @ g
        grads[2 * i + 1] = g.sum(axis=0)
        if i > 0:
            g = g @ params[2 * i].T
            if masks is not None:
                g = g * masks[i - 1]
            g = g * (pre[i - 1] > 0)
    return grads


def loss_and_grad(params, H, y, masks=None):
    """Mean softmax cross-entropy of the network on (H, y) and its gradient (no weight decay)."""
    logits, cache = forward(params, H, masks)
    loss, G = softmax_cross_entropy(logits, y)
    return loss, backward(params, cache, G, masks)
