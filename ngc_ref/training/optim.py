"""Full-batch optimisers in NumPy with PyTorch's semantics.

``weight_decay`` is the L2-style decay of ``torch.optim.Adam`` / ``SGD``: the gradient of every
parameter is replaced by g + wd·θ before the update (equivalently the loss gains (wd/2)‖θ‖²).
This is *not* AdamW's decoupled decay.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_scalar

OPTIMIZERS = ("adam", "gd")


class Adam:
    """Adam (Kingma & Ba 2015) exactly as ``torch.optim.Adam(amsgrad=False)``.

    .. math::

        g_t = \\nabla_\\theta\\mathcal{L} + w\\,\\theta_{t-1},\\quad
        m_t = \\beta_1 m_{t-1} + (1-\\beta_1) g_t,\\quad
        v_t = \\beta_2 v_{t-1} + (1-\\beta_2) g_t^2,

        \\theta_t = \\theta_{t-1} - \\mathrm{lr}\\,
        \\frac{m_t/(1-\\beta_1^t)}{\\sqrt{v_t/(1-\\beta_2^t)} + \\epsilon}.
    """

    def __init__(self, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        self.lr = check_scalar(lr, "lr", min_val=0.0, include_min=False)
        self.b1 = check_scalar(betas[0], "betas[0]", min_val=0.0, max_val=1.0, include_max=False)
        self.b2 = check_scalar(betas[1], "betas[1]", min_val=0.0, max_val=1.0, include_max=False)
        self.eps = check_scalar(eps, "eps", min_val=0.0)
        self.weight_decay = check_scalar(weight_decay, "weight_decay", min_val=0.0)
        self.t = 0
        self._m = self._v = None

    def step(self, params, grads):
        """Update ``params`` in place."""
        if self._m is None:
            self._m = [np.zeros_like(p) for p in params]
            self._v = [np.zeros_like(p) for p in params]
        self.t += 1
        c1 = 1.0 - self.b1 ** self.t
        c2 = 1.0 - self.b2 ** self.t
        for p, g, m, v in zip(params, grads, self._m, self._v):
            if self.weight_decay:
                g = g + self.weight_decay * p
            m *= self.b1
            m += (1.0 - self.b1) * g
            v *= self.b2
            v += (1.0 - self.b2) * (g * g)
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


class GradientDescent:
    """Plain full-batch gradient descent θ ← θ − lr (∇L + wd·θ).

    As ``torch.optim.SGD`` without momentum."""

    def __init__(self, lr=0.1, weight_decay=0.0):
        self.lr = check_scalar(lr, "lr", min_val=0.0, include_min=False)
        self.weight_decay = check_scalar(weight_decay, "weight_decay", min_val=0.0)
        self.t = 0

    def step(self, params, grads):
        self.t += 1
        for p, g in zip(params, grads):
            if self.weight_decay:
                g = g + self.weight_decay * p
            p -= self.lr * g


def descend(opt, params, epochs, loss_and_grad):
    """Full-batch training: ``epochs`` updates ``opt.step(params, grads)``, in place.

    ``loss_and_grad()`` returns ``(loss, grads)`` at the current ``params`` (drawing its own
    dropout masks, in the caller's order). Returns the loss before each update; a non-finite
    loss ends the loop before its update (the entries after it are left unset), so the caller
    reports the divergence instead of training on inf/NaN. Overflow inside is not warned
    about: the returned history shows it.
    """
    history = np.empty(epochs)
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(epochs):
            loss, grads = loss_and_grad()
            history[t] = loss
            if not np.isfinite(loss):
                break
            opt.step(params, grads)
    return history


def make_optimizer(name, lr, weight_decay):
    from .._validation import check_option
    check_option(name, "optimizer", OPTIMIZERS)
    return Adam(lr, weight_decay=weight_decay) if name == "adam" else GradientDescent(
        lr, weight_decay=weight_decay)
