"""Linear feature propagations by name: NGC, RNGC and the baselines, computed the same way.

Every entry maps ``(A, X, **params) -> H`` (an n x d array) and is applied once before a
classifier is trained on H, so all models share the same classifier and training loop and
differ only in the propagation. With T̃ = D̃^{-1/2}(A+I)D̃^{-1/2} (``norm="sym"``, the
experiments' choice) or D̃^{-1}(A+I) (``"rw"``):

==========  ================================================================  ================
name        H                                                                 defaults
==========  ================================================================  ================
``raw``     X (MLP without graph)                                             —
``ngc``     Ã_S X = (λ+1)^{-1} Σ_{s=0}^{S} (r T̃)^s X, r = λ/(λ+1) (Eq. 4)     λ=32, S=16
``rngc``    (λ+1)^{-1} Σ_s [r(T̃ − εXXᵀ/‖XXᵀ‖_F)]^s X (Eq. 17)                 λ=32, S=16, ε=1
``gsd``     (I + λL̃)⁻¹ X, NGC with S = ∞ (Eq. 2, via gsd_solve)                λ=32
``sgc``     T̃^K X (Wu et al. 2019)                                            K=2
``s2gc``    α X + (1−α)/K Σ_{k=1}^{K} T̃^k X (Zhu & Koniusz 2021, Eq. 8)       K=16, α=0.05
``appnp``   Z⁰ = X, Z^{k+1} = (1−α) T̃ Z^k + α X, H = Z^K (Gasteiger et al.)    K=10, α=0.1
==========  ================================================================  ================

S²GC is written as in its paper, x̂ = (1/K) Σ_{k=1}^{K} ((1−α) T̃^k x + α x), which equals the
form above and the reference code's ``emb = αX; emb += (1−α) T̃^k X / K`` (allenhaozhu/SSGC,
``sgc_precompute``); K = 16, α = 0.05 are that code's citation-graph defaults.
APPNP's propagation is used here without its MLP in front (predict-then-propagate is not a
linear propagation of X), i.e. APPNP-style smoothing of the features; K=10, α=0.1 as in the
APPNP paper.

References
----------
.. [1] S. Liu et al., "How Powerful is Implicit Denoising in Graph Neural Networks", Eq. (2),
   (4), (17) (the GSD solution, NGC, RNGC).
.. [2] F. Wu et al., "Simplifying Graph Convolutional Networks", ICML 2019.
.. [3] H. Zhu and P. Koniusz, "Simple Spectral Graph Convolution", ICLR 2021, Eq. (8).
.. [4] J. Gasteiger, A. Bojchevski, S. Günnemann, "Predict then Propagate", ICLR 2019.

Examples
--------
>>> import numpy as np, networkx as nx
>>> from ngc_ref.training import propagate
>>> G = nx.path_graph(4); X = np.eye(4)
>>> np.allclose(propagate("ngc", G, X, lam=2.0, S=3),
...             propagate("rngc", G, X, lam=2.0, S=3, eps=0.0))
True
>>> float(propagate("sgc", G, X, K=0).sum())
4.0
"""

from __future__ import annotations

from dataclasses import dataclass, field


from .._docs import fill_doc
from .._validation import check_adjacency, check_features, check_norm, check_order, check_scalar
from ..normalize import normalized_adjacency


@dataclass(frozen=True)
class Propagation:
    """A registered propagation: its function, default parameters and reference."""

    name: str
    func: object
    defaults: dict = field(default_factory=dict)
    reference: str = ""

    def __call__(self, A, X, *, weight="weight", nodelist=None, **params):
        unknown = set(params) - set(self.defaults) - {"norm"}
        if unknown:
            raise TypeError(f"propagation {self.name!r} got unexpected parameter(s) "
                            f"{sorted(unknown)}; it takes {sorted(self.defaults) + ['norm']}")
        kw = {**self.defaults, **params}
        # Read a networkx graph here, once, so that every propagation honours weight= and
        # nodelist= alike; the functions below then see a matrix.
        A = check_adjacency(A, weight=weight, nodelist=nodelist)
        H = self.func(A, X, **kw)
        # H is n x d, a 1-D signal included (the NGC functions keep a signal 1-D).
        return H[:, None] if H.ndim == 1 else H


def _prepare(A, X, norm):
    """(Ã_norm, X) in X's float dtype: float32 features are propagated in float32, as NGC's
    (SciPy would otherwise promote Ã_norm @ X to float64 for a float64 Ã_norm)."""
    norm = check_norm(norm)
    An = normalized_adjacency(A, norm=norm)
    X = check_features(X, An.shape[0])
    return (An.astype(X.dtype) if An.dtype != X.dtype else An), X


def _raw(A, X, norm="sym"):
    check_norm(norm)   # unused (no graph), but a wrong value is refused as by the others
    n = check_adjacency(A).shape[0]
    return check_features(X, n).copy()


def _ngc(A, X, lam=32.0, S=16, norm="sym"):
    from ..neumann import neumann_propagate
    return neumann_propagate(A, X, lam, S, norm=norm)


def _rngc(A, X, lam=32.0, S=16, eps=1.0, mode="full", norm="sym"):
    from ..robust import robust_propagate
    return robust_propagate(A, X, lam, S, eps, norm=norm, mode=mode)


def _gsd(A, X, lam=32.0, method="auto", rtol=1e-10, norm="sym"):
    from ..solve import gsd_solve
    return gsd_solve(A, X, lam, norm=norm, method=method, rtol=rtol)


def _sgc(A, X, K=2, norm="sym"):
    K = check_order(K, "K")
    An, H = _prepare(A, X, norm)
    H = H.copy()  # check_features may hand back the caller's array
    for _ in range(K):
        H = An @ H
    return H


def _s2gc(A, X, K=16, alpha=0.05, norm="sym"):
    K = check_scalar(K, "K", min_val=1, integer=True)
    alpha = check_scalar(alpha, "alpha", min_val=0.0, max_val=1.0)
    An, X = _prepare(A, X, norm)
    out = alpha * X
    H = X
    for _ in range(K):
        H = An @ H
        out += ((1.0 - alpha) / K) * H
    return out


def _appnp(A, X, K=10, alpha=0.1, norm="sym"):
    K = check_order(K, "K")
    alpha = check_scalar(alpha, "alpha", min_val=0.0, max_val=1.0)
    An, X = _prepare(A, X, norm)
    Z = X.copy()
    for _ in range(K):
        Z = (1.0 - alpha) * (An @ Z) + alpha * X
    return Z


#: name -> :class:`Propagation`.
PROPAGATIONS = {
    "raw": Propagation("raw", _raw, {}, "MLP without graph: H = X"),
    "ngc": Propagation("ngc", _ngc, {"lam": 32.0, "S": 16}, "paper Eq. 4"),
    "rngc": Propagation("rngc", _rngc, {"lam": 32.0, "S": 16, "eps": 1.0, "mode": "full"},
                        "paper Eq. 17"),
    "gsd": Propagation("gsd", _gsd, {"lam": 32.0, "method": "auto", "rtol": 1e-10},
                       "paper Eq. 2 (NGC with S = infinity)"),
    "sgc": Propagation("sgc", _sgc, {"K": 2}, "Wu et al. 2019"),
    "s2gc": Propagation("s2gc", _s2gc, {"K": 16, "alpha": 0.05}, "Zhu & Koniusz 2021, Eq. 8"),
    "appnp": Propagation("appnp", _appnp, {"K": 10, "alpha": 0.1}, "Gasteiger et al. 2019"),
}


def get_propagation(name):
    """The registered :class:`Propagation` called ``name`` (ValueError lists the valid ones).

    Examples
    --------
    >>> from ngc_ref.training import get_propagation
    >>> get_propagation("sgc").defaults
    {'K': 2}
    """
    if not isinstance(name, str) or name not in PROPAGATIONS:
        raise ValueError(f"propagation must be one of {', '.join(map(repr, PROPAGATIONS))}; "
                         f"got {name!r}")
    return PROPAGATIONS[name]


def propagate(name, A, X, *, weight="weight", nodelist=None, **params):
    """H for the propagation ``name`` (see the module table); unknown parameters raise TypeError.

    Parameters
    ----------
    name : str
        A key of :data:`PROPAGATIONS`.
    A : sparse matrix, ndarray or networkx.Graph
        Symmetric non-negative adjacency of n nodes.
    X : array_like or sparse, shape (n, d)
    %(weight)s
    %(nodelist)s
        Here the rows of ``X`` and of H.
    **params
        The propagation's parameters (``lam``, ``S``, ``eps``, ``K``, ``alpha``, ... as in the
        module table; registry defaults for the rest). ``lam`` is validated by the NGC
        functions; ``norm`` defaults to ``"sym"`` for all.

    Returns
    -------
    H : ndarray, shape (n, d)
        float32 if ``X`` is float32 (propagated in float32), else float64, for every
        propagation.

    Examples
    --------
    SGC with K = 1 is one product with Ã_sym:

    >>> import numpy as np, networkx as nx
    >>> from ngc_ref.training import propagate
    >>> propagate("sgc", nx.path_graph(3), np.eye(3), K=1).round(3)
    array([[0.5  , 0.408, 0.   ],
           [0.408, 0.333, 0.408],
           [0.   , 0.408, 0.5  ]])
    """
    return get_propagation(name)(A, X, weight=weight, nodelist=nodelist, **params)


fill_doc(propagate)


__all__ = ["PROPAGATIONS", "Propagation", "get_propagation", "propagate"]
