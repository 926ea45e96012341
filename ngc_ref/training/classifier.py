"""Full-batch training of the linear / "+MLP" softmax classifier on propagated features.

This is the second half of the paper's NGC/RNGC models (Eq. 4 and Eq. 17 with W): the features
are propagated once, H = Ã_S X, and a classifier softmax(H W + b) (hidden = 0) or a ReLU MLP
(hidden > 0, the appendix tables' "+MLP") is trained with softmax cross-entropy on the
training nodes, full batch, by Adam (PyTorch semantics, L2-style ``weight_decay``) or plain
gradient descent. The model after the last epoch is returned (no early stopping or model
selection on the validation set; the appendix tables give a fixed number of epochs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import scipy.sparse as sp

from .._docs import fill_doc
from .._memory import check_memory
from .._validation import (_as_real_array, as_generator, check_features, check_option,
                           check_per_row, check_scalar)
from . import _nn
from .optim import OPTIMIZERS, descend, make_optimizer


@dataclass
class TrainResult:
    """Parameters and history of one :func:`train_classifier` run.

    Attributes
    ----------
    params : list of ndarray
        ``[W_1, b_1, ..., W_L, b_L]``.
    %(loss_history)s
    epochs : int
        The number of epochs asked for (training stops early only by raising).
    settings : dict
        The keyword arguments of the run: hidden, dropout, optimizer, lr, epochs,
        weight_decay and n_classes.
    """

    params: list
    loss_history: np.ndarray
    epochs: int
    settings: dict = field(default_factory=dict)

    def logits(self, H):
        return _nn.forward(self.params, np.asarray(H, dtype=self.params[0].dtype))[0]

    def predict(self, H):
        return np.argmax(self.logits(H), axis=1)

    def accuracy(self, H, y):
        y = np.asarray(y)
        return float(np.mean(self.predict(H) == y)) if y.size else float("nan")


fill_doc(TrainResult)


def train_classifier(H, y, n_classes=None, *, hidden=0, dropout=0.0, optimizer="adam", lr=0.2,
                     epochs=100, weight_decay=1e-5, seed=None):
    """Train softmax(H W + b) (or a ReLU MLP) by full-batch Adam or gradient descent.

    .. math::

        \\min_{\\theta}\\; -\\frac{1}{m}\\sum_{i} \\log\\mathrm{softmax}(f_\\theta(H_i))_{y_i}
        \\;(+\\tfrac{w}{2}\\|\\theta\\|^2 \\text{ through the optimiser's weight decay})

    Parameters
    ----------
    H : ndarray, shape (m, d)
        Features of the training nodes (already propagated).
    y : array_like of int, shape (m,)
        Labels in ``[0, n_classes)``.
    n_classes : int, optional
        Number of classes (default ``max(y) + 1``).
    hidden : int or sequence of int
        0 for the linear model; widths of the hidden layers otherwise.
    dropout : float in [0, 1)
        Dropout probability after each hidden ReLU (training only).
    optimizer : {"adam", "gd"}
    lr, epochs, weight_decay :
        As in the appendix tables (paper defaults 0.2, 100, 1e-5).
    %(seed)s
        Initialisation and dropout randomness.

    Returns
    -------
    TrainResult

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.training import train_classifier
    >>> H = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]]); y = [0, 0, 1, 1]
    >>> res = train_classifier(H, y, epochs=50, seed=0)
    >>> res.accuracy(H, y), bool(res.loss_history[-1] < res.loss_history[0])
    (1.0, True)
    """
    if isinstance(H, (str, bytes)) or H is None or sp.issparse(H):
        raise TypeError(f"H must be a dense (m, d) array, got {type(H).__name__}")
    H = _as_real_array(H, np, "H")
    if H.ndim != 2:
        raise ValueError(f"H must be 2-D (m x d), got shape={H.shape}")
    H = check_features(H, H.shape[0], name="H")
    dtype = H.dtype
    y = check_per_row(y, H.shape[0], "y", per="row of H")
    if y.size == 0:
        raise ValueError("y is empty: no training nodes")
    if y.dtype.kind not in "iu" or y.min() < 0:
        raise ValueError(f"y must hold non-negative integer class labels, got dtype={y.dtype}"
                         + (f", min={y.min()}" if y.dtype.kind in "iu" else ""))
    if n_classes is None:
        n_classes = int(y.max()) + 1
    n_classes = check_scalar(n_classes, "n_classes", min_val=1, integer=True)
    if y.max() >= n_classes:
        raise ValueError(f"y has label {int(y.max())} >= n_classes={n_classes}")
    dropout = check_scalar(dropout, "dropout", min_val=0.0, max_val=1.0, include_max=False)
    epochs = check_scalar(epochs, "epochs", min_val=0, integer=True)
    check_option(optimizer, "optimizer", OPTIMIZERS)
    rng = as_generator(seed)
    sizes = _nn.layer_sizes(H.shape[1], hidden, n_classes)
    n_params = sum((a + 1) * b for a, b in zip(sizes[:-1], sizes[1:]))
    # Parameters, gradients and Adam's two moments; activations of the m training rows.
    check_memory(dtype.itemsize * (4 * n_params + 2 * H.shape[0] * sum(sizes[1:])),
                 "train_classifier", "use fewer hidden units or classes (hidden, n_classes)",
                 detail=f"layers {sizes}")
    params = _nn.init_params(sizes, rng, dtype)
    opt = make_optimizer(optimizer, lr, weight_decay)

    def loss_and_grad():
        masks = _nn.dropout_masks(params, H.shape[0], dropout, rng, dtype)
        return _nn.loss_and_grad(params, H, y, masks)

    # Overflow is detected below and reported as divergence, not as floating-point warnings.
    history = descend(opt, params, epochs, loss_and_grad)
    try:   # predicting on H must not overflow either (ReLU can hide an inf as a 0)
        with np.errstate(over="raise", invalid="raise"):
            finite = bool(np.all(np.isfinite(history))
                          and np.all(np.isfinite(_nn.forward(params, H)[0])))
    except FloatingPointError:
        finite = False
    if not finite:
        raise ValueError(f"training diverged (the loss or the logits overflowed) with "
                         f"lr={lr!r}; lower lr")
    settings = dict(hidden=hidden, dropout=dropout, optimizer=optimizer, lr=lr, epochs=epochs,
                    weight_decay=weight_decay, n_classes=n_classes)
    return TrainResult(params=params, loss_history=history, epochs=epochs, settings=settings)


fill_doc(train_classifier)
