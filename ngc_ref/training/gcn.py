"""The two-layer GCN of Kipf & Welling (2017) with pygcn's settings, trained by hand in NumPy.

.. math::

    Z_1 = \\hat A (X W_1) + b_1,\\quad H_1 = \\mathrm{drop}(\\mathrm{ReLU}(Z_1)),\\quad
    \\mathrm{logits} = \\hat A (H_1 W_2) + b_2,

    \\mathcal{L} = -\\frac{1}{m}\\sum_{i\\in\\mathrm{train}}
    \\log\\mathrm{softmax}(\\mathrm{logits}_i)_{y_i},

with Â = D̃^{-1/2}(A+I)D̃^{-1/2} (``norm="sym"``, the GCN paper's renormalisation trick;
``"rw"``: D̃^{-1}(A+I), what pygcn's loader builds) from :func:`ngc_ref.normalized_adjacency`,
a sparse matrix that is only ever multiplied with thin n x h or n x c arrays: Â X W₁ is
computed as Â(XW₁), nothing n x n is formed. The gradients, with G = ∂L/∂logits (zero outside
the training rows) and M the dropout mask:

.. math::

    \\partial_{W_2} = H_1^\\top(\\hat A^\\top G),\\quad \\partial_{b_2} = \\mathbf 1^\\top G,\\quad
    G_1 = [(\\hat A^\\top G) W_2^\\top \\odot M] \\odot [Z_1 > 0],\\quad
    \\partial_{W_1} = X^\\top(\\hat A^\\top G_1),\\quad \\partial_{b_1} = \\mathbf 1^\\top G_1,

written with Âᵀ so that they hold for a non-symmetric Â too (Âᵀ = Â for ``"sym"``).

pygcn's settings (``tkipf/pygcn``, ``train.py``/``models.py``/``layers.py``): hidden 16,
ReLU, dropout 0.5 on the hidden layer only (``F.dropout`` between the two graph convolutions;
the input features are not dropped — Kipf's TensorFlow code also drops the input, available
here as ``input_dropout``), Adam with lr 0.01 and L2-style weight decay 5e-4 on every
parameter (``torch.optim.Adam(model.parameters(), weight_decay=...)``), 200 full-batch epochs,
the model after the last epoch (no early stopping), and the initialisation of
``GraphConvolution.reset_parameters``: W and b ~ U(−1/√h_out, 1/√h_out) with h_out the layer's
output width (``init="glorot"``: Glorot-uniform W and zero b, as Kipf's TensorFlow code).

The softmax cross-entropy, the dropout masks and Adam are those of the linear/MLP classifier
(:mod:`ngc_ref.training._nn`, :mod:`ngc_ref.training.optim`). float32 features are kept in
float32 throughout (Â is cast to the features' dtype), as the classifier does.

References
----------
.. [1] T. N. Kipf and M. Welling, "Semi-Supervised Classification with Graph Convolutional
   Networks", ICLR 2017, Eq. (8)-(9).
.. [2] T. N. Kipf, pygcn, https://github.com/tkipf/pygcn (the PyTorch reference code).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .._docs import fill_doc
from .._memory import check_memory
from .._validation import (DEPRECATED, as_generator, check_features, check_norm, check_option,
                           check_scalar, renamed_keyword)
from ..normalize import normalized_adjacency
from . import _nn
from .optim import OPTIMIZERS, descend, make_optimizer

#: pygcn's defaults (``train.py``): the GCN and MLP rows of the paper's baselines.
PYGCN_SETTINGS = dict(hidden=16, dropout=0.5, lr=0.01, weight_decay=5e-4, epochs=200)

#: Initialisations: pygcn's ``reset_parameters`` or Glorot-uniform (Kipf's TensorFlow code).
INITS = ("pygcn", "glorot")

#: Keyword arguments of :func:`train_gcn` that are training settings (the runner's filter).
GCN_KEYS = ("hidden", "dropout", "input_dropout", "lr", "epochs", "weight_decay", "optimizer",
            "norm", "init")


@dataclass
class GCNResult:
    """Parameters, history and final predictions of one :func:`train_gcn` run.

    Attributes
    ----------
    params : list of ndarray
        ``[W_1, b_1, W_2, b_2]``.
    %(loss_history)s
    logits : ndarray, shape (n, c)
        Logits of every node after the last epoch, without dropout (evaluation mode).
    epochs : int
        The number of epochs asked for.
    settings : dict
        The keyword arguments of the run, ``norm`` and ``init`` included.
    """

    params: list
    loss_history: np.ndarray
    logits: np.ndarray
    epochs: int
    settings: dict = field(default_factory=dict)

    def predict(self):
        """The predicted class of every node."""
        return np.argmax(self.logits, axis=1)

    def accuracy(self, y, nodes=None):
        """Accuracy on ``nodes`` (a boolean mask or indices; all nodes by default) against the
        labels ``y`` of all n nodes; NaN when ``nodes`` selects none."""
        y = np.asarray(y)
        if y.shape != (self.logits.shape[0],):
            raise ValueError(f"y must hold one label per node ({self.logits.shape[0]}), got "
                             f"shape={y.shape}")
        idx = np.arange(y.size) if nodes is None else _node_index(nodes, y.size, "nodes")
        return float(np.mean(self.predict()[idx] == y[idx])) if idx.size else float("nan")


fill_doc(GCNResult)


def init_gcn_params(d, hidden, c, seed=None, dtype=np.float64, init="pygcn", *, rng=DEPRECATED):
    """``[W_1, b_1, W_2, b_2]`` for widths d → hidden → c (see the module docstring).

    Parameters
    ----------
    d, hidden, c : int
        The input, hidden and output widths.
    %(seed)s
        :func:`train_gcn` passes its Generator, which then goes on to the dropout masks.
    dtype : numpy dtype
        Of the parameters (float64 by default).
    init : {"pygcn", "glorot"}
        See the module docstring.
    rng : numpy.random.Generator
        Deprecated: the former name of ``seed`` (one name for the seed across the library),
        still accepted, with a DeprecationWarning, until the next release.

    Returns
    -------
    list of ndarray
        W_1 (d, hidden), b_1 (hidden,), W_2 (hidden, c), b_2 (c,).

    Examples
    --------
    >>> from ngc_ref.training.gcn import init_gcn_params
    >>> [p.shape for p in init_gcn_params(4, 3, 2, seed=0)]
    [(4, 3), (3,), (3, 2), (2,)]
    """
    rng = as_generator(renamed_keyword("init_gcn_params", "rng", "seed", rng, seed))
    params = []
    for fan_in, fan_out in ((d, hidden), (hidden, c)):
        if init == "pygcn":
            bound = 1.0 / math.sqrt(fan_out)
            params.append(rng.uniform(-bound, bound, size=(fan_in, fan_out)).astype(dtype))
            params.append(rng.uniform(-bound, bound, size=fan_out).astype(dtype))
        else:
            bound = math.sqrt(6.0 / (fan_in + fan_out))
            params.append(rng.uniform(-bound, bound, size=(fan_in, fan_out)).astype(dtype))
            params.append(np.zeros(fan_out, dtype=dtype))
    return params


fill_doc(init_gcn_params)


def _drop_input(X, mask):
    if mask is None:
        return X
    if sp.issparse(X):   # Kipf's sparse_dropout: only the stored entries are dropped
        Xd = X.copy()
        Xd.data = Xd.data * mask
        return Xd
    return X * mask


def gcn_forward(params, An, X, masks=None):
    """Logits of every node and the cache for :func:`gcn_backward`.

    ``masks`` is ``None`` (evaluation) or ``(input_mask, hidden_mask)``, each ``None`` or an
    inverted-dropout mask: the input mask has ``X``'s shape (dense X) or one entry per stored
    entry of ``X.data`` (sparse X); the hidden mask is n x hidden.
    """
    W1, b1, W2, b2 = params
    m_in, m_hid = (None, None) if masks is None else masks
    Xd = _drop_input(X, m_in)
    Z1 = An @ (Xd @ W1)
    Z1 += b1
    H1 = np.maximum(Z1, 0.0)
    if m_hid is not None:
        H1 *= m_hid
    logits = An @ (H1 @ W2)
    logits += b2
    return logits, (Xd, Z1, H1)


def gcn_backward(params, An, cache, dlogits, masks=None, AnT=None):
    """Gradients ``[∂W_1, ∂b_1, ∂W_2, ∂b_2]`` given ∂L/∂logits (formulas in the module
    docstring); ``AnT`` is Âᵀ, computed when not given."""
    W1, b1, W2, b2 = params
    Xd, Z1, H1 = cache
    AnT = An.T if AnT is None else AnT
    m_hid = None if masks is None else masks[1]
    P2 = AnT @ dlogits                   # ∂L/∂(H_1 W_2)
    dW2 = H1.T @ P2
    db2 = dlogits.sum(axis=0)
    G1 = P2 @ W2.T
    if m_hid is not None:
        G1 *= m_hid
    G1 *= Z1 > 0
    P1 = AnT @ G1                        # ∂L/∂(X W_1)
    dW1 = Xd.T @ P1
    db1 = G1.sum(axis=0)
    return [np.asarray(dW1), db1, dW2, db2]


def gcn_loss_and_grad(params, An, X, y, nodes, masks=None, AnT=None):
    """Mean cross-entropy of the GCN on ``nodes`` (indices) with labels ``y[nodes]`` (``y``:
    labels of all n nodes) and its gradient (no weight decay)."""
    logits, cache = gcn_forward(params, An, X, masks)
    loss, G_nodes = _nn.softmax_cross_entropy(logits[nodes], y[nodes])
    G = np.zeros_like(logits)
    G[nodes] = G_nodes
    return loss, gcn_backward(params, An, cache, G, masks, AnT)


def _node_index(nodes, n, name):
    """Sorted unique node indices from a boolean mask or an integer index array."""
    nodes = np.asarray(nodes)
    if nodes.dtype == bool:
        if nodes.shape != (n,):
            raise ValueError(f"{name} as a boolean mask must have one entry per node ({n}), "
                             f"got shape={nodes.shape}")
        return np.flatnonzero(nodes)
    if nodes.ndim != 1 or (nodes.size and nodes.dtype.kind not in "iu"):
        raise ValueError(f"{name} must be a boolean mask of length {n} or a 1-D array of node "
                         f"indices, got dtype={nodes.dtype}, shape={nodes.shape}")
    idx = nodes.astype(np.intp)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError(f"{name} holds node indices outside [0, {n}): min={idx.min()}, "
                         f"max={idx.max()}")
    uniq = np.unique(idx)
    if uniq.size != idx.size:
        raise ValueError(f"{name} repeats node indices ({idx.size - uniq.size} repeats)")
    return uniq


def _gcn_memory(n, d, h, c, nnz_A, X, input_dropout, itemsize):
    """Bytes of train_gcn's buffers beyond X itself (an estimate of the peak)."""
    n_params = d * h + h + h * c + c
    total = 4 * n_params * itemsize                  # params, gradients, Adam's two moments
    total += (7 * n * h + 5 * n * c) * itemsize      # activations and backward temporaries
    total += 2 * nnz_A * (itemsize + 8) + 2 * (n + 1) * 8     # Â and Âᵀ (CSR)
    if input_dropout > 0:
        entries = X.nnz if sp.issparse(X) else n * d
        total += entries * (8 + 2 * itemsize)        # uniform draws, the mask, the dropped X
    return total


def train_gcn(A, X, y, train_mask, n_classes=None, *, hidden=16, dropout=0.5,
              input_dropout=0.0, lr=0.01, epochs=200, weight_decay=5e-4, optimizer="adam",
              norm="sym", init="pygcn", seed=None, weight="weight", nodelist=None):
    """Train the two-layer GCN (pygcn settings by default) on the training nodes, full batch.

    .. math::

        \\min_{W_1,b_1,W_2,b_2}\\; -\\frac{1}{m}\\sum_{i\\in\\mathrm{train}}
        \\log\\mathrm{softmax}\\big(\\hat A\\,\\mathrm{ReLU}(\\hat A X W_1 + b_1) W_2 + b_2\\big)_{
        i, y_i} \\;(+\\tfrac{w}{2}\\|\\theta\\|^2 \\text{ through Adam's weight decay})

    Parameters
    ----------
    A : sparse matrix, ndarray or networkx.Graph
        Symmetric non-negative adjacency of n nodes (self-loops are replaced by Ã = A + I).
    X : ndarray or sparse matrix, shape (n, d)
        Node features. float32 is kept (Â, the parameters and the activations are float32);
        other dtypes become float64. Sparse X stays sparse.
    y : array_like of int, shape (n,)
        Labels of all nodes; only those of the training nodes are read (others may be -1).
    train_mask : array_like of bool, shape (n,), or of int
        The training nodes, as a mask or as indices.
    n_classes : int, optional
        Number of classes (default ``max(y) + 1``).
    hidden : int
        Width of the hidden layer (pygcn: 16).
    dropout : float in [0, 1)
        Dropout probability on the hidden layer (pygcn: 0.5).
    input_dropout : float in [0, 1)
        Dropout probability on the input features (pygcn: 0; Kipf's TensorFlow GCN: 0.5, on
        the stored entries of a sparse X).
    lr, epochs, weight_decay :
        Adam's step size, the number of full-batch epochs and the L2-style weight decay
        (pygcn: 0.01, 200, 5e-4).
    optimizer : {"adam", "gd"}
    %(norm)s
        Here Â = D̃^{-1/2}(A+I)D̃^{-1/2} (the GCN paper's) or D̃^{-1}(A+I) (pygcn's loader).
    init : {"pygcn", "glorot"}
        See the module docstring.
    %(seed)s
        Initialisation and dropout randomness, drawn in this order from one stream: the
        parameters (:func:`init_gcn_params`), then in every epoch the input mask (when
        ``input_dropout > 0``) and the hidden mask (when ``dropout > 0``), each an
        inverted-dropout mask of ``training._nn.dropout_mask`` (entries 0, or 1/(1-p) with
        probability 1-p).
    weight, nodelist :
        For a networkx graph, as in :func:`ngc_ref.normalized_adjacency`.

    Returns
    -------
    GCNResult

    Raises
    ------
    ValueError
        A wrong shape or value (named), buffers beyond the memory budget
        (``NGC_REF_MEMORY_BUDGET``), or a diverging training (lower ``lr``).
    TypeError
        A wrong type (named).

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.graphs import contextual_sbm
    >>> from ngc_ref.training import train_gcn
    >>> cs = contextual_sbm(300, 3, 0.05, 0.002, 8, signal=1.0, noise_std=1.0, seed=0)
    >>> train = np.zeros(300, bool); train[::10] = True            # 30 labelled nodes
    >>> res = train_gcn(cs.adjacency, cs.X, cs.labels, train, seed=0)
    >>> res.logits.shape, res.accuracy(cs.labels, ~train) > 0.9
    ((300, 3), True)
    """
    An = normalized_adjacency(A, norm=check_norm(norm), weight=weight, nodelist=nodelist)
    n = An.shape[0]
    X = check_features(X, n, name="X", allow_sparse=True, what="train_gcn")
    dtype = X.dtype
    y = np.asarray(y)
    if y.shape != (n,) or y.dtype.kind not in "iu":
        raise ValueError(f"y must be a 1-D array of integer labels, one per node ({n}), got "
                         f"dtype={y.dtype}, shape={y.shape}")
    idx = _node_index(train_mask, n, "train_mask")
    if idx.size == 0:
        raise ValueError("train_mask selects no nodes")
    if y[idx].min() < 0:
        raise ValueError("train_mask selects unlabelled nodes (label < 0)")
    if n_classes is None:
        n_classes = int(y.max()) + 1
    n_classes = check_scalar(n_classes, "n_classes", min_val=1, integer=True)
    if y[idx].max() >= n_classes:
        raise ValueError(f"y has label {int(y[idx].max())} >= n_classes={n_classes}")
    hidden = check_scalar(hidden, "hidden", min_val=1, integer=True)
    dropout = check_scalar(dropout, "dropout", min_val=0.0, max_val=1.0, include_max=False)
    input_dropout = check_scalar(input_dropout, "input_dropout", min_val=0.0, max_val=1.0,
                                 include_max=False)
    epochs = check_scalar(epochs, "epochs", min_val=0, integer=True)
    check_option(optimizer, "optimizer", OPTIMIZERS)
    check_option(init, "init", INITS)
    opt = make_optimizer(optimizer, lr, weight_decay)
    rng = as_generator(seed)
    d = X.shape[1]
    check_memory(_gcn_memory(n, d, hidden, n_classes, An.nnz, X, input_dropout, dtype.itemsize),
                 "train_gcn", "use fewer hidden units, a float32 X or no input_dropout",
                 detail=f"an estimate: parameters and Adam state for {d} → {hidden} → "
                        f"{n_classes}, activations of {n} nodes, Â and Âᵀ")
    An = An.astype(dtype, copy=False)
    AnT = An.T.tocsr()       # equal to Â for norm="sym"; kept general (and in CSR for speed)
    params = init_gcn_params(d, hidden, n_classes, rng, dtype, init)
    n_in = X.nnz if sp.issparse(X) else X.shape

    def loss_and_grad():
        m_in = (_nn.dropout_mask(n_in, input_dropout, rng, dtype) if input_dropout > 0
                else None)
        m_hid = _nn.dropout_masks(params, n, dropout, rng, dtype)
        masks = (m_in, None if m_hid is None else m_hid[0])
        return gcn_loss_and_grad(params, An, X, y, idx, masks, AnT)

    # Overflow is detected below and reported as divergence, not as floating-point warnings.
    with np.errstate(over="ignore", invalid="ignore"):
        history = descend(opt, params, epochs, loss_and_grad)
        logits = gcn_forward(params, An, X)[0]
    if not (np.all(np.isfinite(history)) and np.all(np.isfinite(logits))):
        raise ValueError(f"training diverged (the loss or the logits overflowed) with "
                         f"lr={lr!r}; lower lr")
    settings = dict(hidden=hidden, dropout=dropout, input_dropout=input_dropout, lr=lr,
                    epochs=epochs, weight_decay=weight_decay, optimizer=optimizer, norm=norm,
                    init=init, n_classes=n_classes)
    return GCNResult(params=params, loss_history=history, logits=logits, epochs=epochs,
                     settings=settings)


fill_doc(train_gcn)


__all__ = ["GCNResult", "GCN_KEYS", "INITS", "PYGCN_SETTINGS", "gcn_backward", "gcn_forward",
           "gcn_loss_and_grad", "init_gcn_params", "train_gcn"]
