"""scikit-learn estimators: a NumPy softmax/MLP classifier and a graph-bound propagation step.

Design: how the graph enters
----------------------------
Node classification on one graph is transductive: the propagation Ã_S X mixes the features of
*all* n nodes, including the test nodes, and only the loss is restricted to the training nodes.
A scikit-learn ``X`` of shape (m, d) cannot carry that, so the graph and the full feature matrix
are *parameters* of :class:`GraphPropagation`, and the samples that flow through
``fit``/``predict``/``cross_val_score`` are **node indices**, an (m, 1) integer column::

    nodes = np.arange(n)[:, None]
    model = make_pipeline(GraphPropagation(A, X, propagation="ngc", lam=32, S=16),
                          SoftmaxClassifier(lr=0.2, epochs=100, weight_decay=1e-5))
    model.fit(nodes[train], y[train]); model.score(nodes[test], y[test])
    cross_val_score(model, nodes[labelled], y[labelled], cv=5)
    GridSearchCV(model, {"graphpropagation__lam": [8, 32], "graphpropagation__S": [4, 16]})

``GraphPropagation.transform(nodes)`` returns the rows of the propagated matrix (computed once
per ``fit`` on all n nodes, as in the paper), so any scikit-learn classifier can follow it, and
CV folds, grid search and cloning behave as usual. :class:`SoftmaxClassifier` is an ordinary
estimator on an (m, d) matrix and passes ``sklearn.utils.estimator_checks``.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._docs import fill_doc
from . import _nn
from .classifier import train_classifier
from .propagations import get_propagation


def _as_seed(random_state):
    if random_state is None or isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, numbers.Integral):
        return int(random_state)
    # A legacy RandomState: draw a seed from it (what sklearn does for its own sub-seeds).
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def _checked(where, func, *args, **kwargs):
    """Run a scikit-learn validator; name the arguments in its messages when they do not.

    scikit-learn's own wording is kept (its estimator checks match on it) and the place is
    appended, e.g. "Found array with dim 3 ... (checking X of SoftmaxClassifier.predict)".
    """
    try:
        return func(*args, **kwargs)
    except ValueError as exc:
        if type(exc) is not ValueError:   # NotFittedError and the like: leave alone
            raise
        raise ValueError(f"{exc} (checking {where})") from None


class SoftmaxClassifier(ClassifierMixin, BaseEstimator):
    """Softmax regression (hidden=0) or a ReLU MLP trained full batch by Adam or GD, in NumPy.

    .. math::

        \\min_\\theta -\\frac{1}{m}\\sum_i \\log\\mathrm{softmax}(f_\\theta(x_i))_{y_i}
        \\quad (+\\tfrac{w}{2}\\|\\theta\\|^2 \\text{ via the optimiser's weight decay})

    The defaults are the paper's NGC/RNGC classifier on citation graphs (appendix,
    tab:citation_hyper: lr 0.2, 100 epochs, weight decay 1e-5, hidden 0, dropout 0).

    Parameters
    ----------
    hidden : int or tuple of int
        0: linear model; otherwise the widths of the hidden ReLU layers ("+MLP").
    dropout : float in [0, 1)
        Dropout after every hidden ReLU during training.
    optimizer : {"adam", "gd"}
    lr : float
    epochs : int
    weight_decay : float
        PyTorch-style L2 weight decay (added to the gradient), applied to all parameters.
    random_state : None, int, numpy.random.Generator or RandomState
        Initialisation and dropout.

    Attributes
    ----------
    classes_ : ndarray
    coefs_ : list of ndarray
        Weight matrices, input to output.
    intercepts_ : list of ndarray
    loss_curve_ : ndarray
        Training loss at each epoch (before its update).
    n_iter_ : int
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.training import SoftmaxClassifier
    >>> X = np.array([[0.0, 1.0], [0.1, 0.9], [1.0, 0.0], [0.9, 0.2]]); y = ["a", "a", "b", "b"]
    >>> SoftmaxClassifier(epochs=30, random_state=0).fit(X, y).predict([[0.05, 0.95]])
    array(['a'], dtype='<U1')
    """

    def __init__(self, *, hidden=0, dropout=0.0, optimizer="adam", lr=0.2, epochs=100,
                 weight_decay=1e-5, random_state=None):
        self.hidden = hidden
        self.dropout = dropout
        self.optimizer = optimizer
        self.lr = lr
        self.epochs = epochs
        self.weight_decay = weight_decay
        self.random_state = random_state

    def fit(self, X, y):
        """Train on (X, y); returns ``self``."""
        X, y = _checked("X and y of SoftmaxClassifier.fit", validate_data, self, X, y,
                        dtype=[np.float64, np.float32])
        _checked("y of SoftmaxClassifier.fit", check_classification_targets, y)
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        res = train_classifier(X, y_enc, len(self.classes_), hidden=self.hidden,
                               dropout=self.dropout, optimizer=self.optimizer, lr=self.lr,
                               epochs=self.epochs, weight_decay=self.weight_decay,
                               seed=_as_seed(self.random_state))
        self.coefs_ = res.params[0::2]
        self.intercepts_ = res.params[1::2]
        self.loss_curve_ = res.loss_history
        self.n_iter_ = res.epochs
        return self

    def _params(self):
        out = []
        for W, b in zip(self.coefs_, self.intercepts_):
            out += [W, b]
        return out

    def _logits(self, X):
        check_is_fitted(self)
        X = _checked("X of SoftmaxClassifier", validate_data, self, X,
                     dtype=[np.float64, np.float32], reset=False)
        # Compute in the wider of the two dtypes: float64 inputs to a model fitted in float32
        # may be far outside float32's range, and a cast would turn them into ±inf.
        dtype = np.result_type(X.dtype, self.coefs_[0].dtype)
        params = [p.astype(dtype, copy=False) for p in self._params()]
        return _nn.forward(params, X.astype(dtype, copy=False))[0]

    def decision_function(self, X):
        """Logits, shape (m, n_classes); for two classes the margin logit₁ − logit₀, shape (m,)
        (positive means ``classes_[1]``, the scikit-learn convention)."""
        Z = self._logits(X)
        return Z[:, 1] - Z[:, 0] if Z.shape[1] == 2 else Z

    def predict_proba(self, X):
        return np.exp(_nn.log_softmax(self._logits(X)))

    def predict_log_proba(self, X):
        return _nn.log_softmax(self._logits(X))

    def predict(self, X):
        idx = np.argmax(self._logits(X), axis=1)
        return self.classes_[idx]


class GraphPropagation(TransformerMixin, BaseEstimator):
    """Propagated node features, indexed by node: X (node indices) → rows of H = P(A, features).

    ``fit`` computes H for all n nodes once with the registered propagation ``propagation``
    (see :mod:`ngc_ref.training.propagations`); ``transform`` takes node indices and returns
    their rows. See the module docstring for why the samples are node indices.

    Parameters
    ----------
    adjacency : sparse matrix, ndarray or networkx.Graph
        The graph (n nodes).
    features : array_like or sparse, shape (n, d)
        Features of all n nodes (e.g. the noisy X).
    propagation : str
        A key of ``PROPAGATIONS``: "raw", "ngc", "rngc", "gsd", "sgc", "s2gc", "appnp".
    lam, S, eps, K, alpha : optional
        Parameters of the propagation; ``None`` takes the registry default, and parameters the
        chosen propagation does not use are ignored (like ``SVC(kernel="linear", gamma=...)``).
    %(norm)s
    %(weight)s
    %(nodelist)s
        Here the rows of ``features``: node index i (the samples) is ``nodelist[i]``.

    Attributes
    ----------
    propagated_ : ndarray, shape (n, d)
        H for all nodes.
    n_nodes_ : int
    n_features_in_ : int
        1 (a column of node indices).

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref.training import GraphPropagation
    >>> gp = GraphPropagation(nx.path_graph(3), np.eye(3), propagation="sgc", K=1).fit()
    >>> gp.transform([[0], [2]]).round(3)
    array([[0.5  , 0.408, 0.   ],
           [0.   , 0.408, 0.5  ]])
    """

    _PARAM_NAMES = ("lam", "S", "eps", "K", "alpha")

    def __init__(self, adjacency=None, features=None, *, propagation="ngc", lam=None, S=None,
                 eps=None, K=None, alpha=None, norm="sym", weight="weight", nodelist=None):
        self.adjacency = adjacency
        self.features = features
        self.propagation = propagation
        self.lam = lam
        self.S = S
        self.eps = eps
        self.K = K
        self.alpha = alpha
        self.norm = norm
        self.weight = weight
        self.nodelist = nodelist

    def propagation_params(self):
        """The keyword arguments passed to the propagation (registry defaults filled in)."""
        prop = get_propagation(self.propagation)
        kw = {name: getattr(self, name) for name in self._PARAM_NAMES
              if name in prop.defaults and getattr(self, name) is not None}
        return {**prop.defaults, **kw, "norm": self.norm}

    def fit(self, X=None, y=None):
        """Compute H for all nodes; ``X`` (node indices) is only checked, ``y`` ignored."""
        if self.adjacency is None or self.features is None:
            raise ValueError("GraphPropagation needs adjacency= and features= (the graph and "
                             "the n x d features of all nodes)")
        prop = get_propagation(self.propagation)
        H = prop(self.adjacency, self.features, weight=self.weight, nodelist=self.nodelist,
                 **self.propagation_params())
        self.propagated_ = np.asarray(H)
        self.n_nodes_ = self.propagated_.shape[0]
        self.n_features_in_ = 1
        if X is not None:
            self._nodes(X)
        return self

    def _nodes(self, X):
        arr = np.asarray(X)
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr[:, 0]
        if arr.ndim != 1:
            raise ValueError(f"X must be node indices, shape (m,) or (m, 1); got shape="
                             f"{np.shape(X)}")
        if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"X must hold integer node indices, got dtype={arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() >= self.n_nodes_):
            where = (f"in [0, {self.n_nodes_ - 1}]" if self.n_nodes_
                     else "absent: the graph has no nodes")
            raise ValueError(f"X must hold node indices {where}, got min={arr.min()}, "
                             f"max={arr.max()}")
        return arr

    def transform(self, X):
        """Rows of H for the node indices in ``X``."""
        check_is_fitted(self)
        return self.propagated_[self._nodes(X)]


fill_doc(GraphPropagation)


def make_node_classifier(adjacency, features, propagation="ngc", *, lam=None, S=None, eps=None,
                         K=None, alpha=None, norm="sym", weight="weight", nodelist=None,
                         **classifier_params):
    """``make_pipeline(GraphPropagation(...), SoftmaxClassifier(...))`` on node indices.

    Parameters
    ----------
    adjacency, features, propagation, lam, S, eps, K, alpha :
        Passed to :class:`GraphPropagation`.
    %(norm)s
        Passed to :class:`GraphPropagation`.
    %(weight)s
    %(nodelist)s
        Here the rows of ``features``: node index i (the samples) is ``nodelist[i]``.
    **classifier_params
        Passed to :class:`SoftmaxClassifier`.

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref.training import make_node_classifier
    >>> G = nx.barbell_graph(5, 0); X = np.eye(10); y = np.repeat([0, 1], 5)
    >>> clf = make_node_classifier(G, X, "ngc", lam=4.0, S=8, epochs=50, random_state=0)
    >>> nodes = np.arange(10)[:, None]
    >>> float(clf.fit(nodes[[0, 9]], y[[0, 9]]).score(nodes, y))
    1.0
    """
    from sklearn.pipeline import make_pipeline
    return make_pipeline(
        GraphPropagation(adjacency, features, propagation=propagation, lam=lam, S=S, eps=eps,
                         K=K, alpha=alpha, norm=norm, weight=weight, nodelist=nodelist),
        SoftmaxClassifier(**classifier_params))


fill_doc(make_node_classifier)
