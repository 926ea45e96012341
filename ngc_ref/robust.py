"""Robust Neumann Graph Convolution (RNGC, paper Eq. 12, without W).

.. math::

    H = \\frac{1}{\\lambda+1}\\sum_{s=0}^{S}
        \\Big[r\\Big(\\tilde{\\mathcal{A}}
        - \\varepsilon\\frac{XX^\\top}{\\|XX^\\top\\|_F}\\Big)\\Big]^s X.

The n x n term XXᵀ/‖XXᵀ‖_F is never formed. In ``mode="full"`` it is applied as the low-rank
product X (Xᵀ V) / ‖XᵀX‖_F (note ‖XXᵀ‖_F = ‖XᵀX‖_F, a d x d computation). In ``mode="edges"``
(the paper's scalable variant, Sec. 4.2 "Scalability") only the entries ⟨X_i, X_j⟩ on the
sparsity pattern of Ã (edges and self-loops) are kept, at O(|E|·d) extra cost; the scale is still
the full ‖XXᵀ‖_F, so that on a complete graph both modes coincide.
"""

from __future__ import annotations


from . import _backend
from ._validation import check_eps, check_features, check_option
from .neumann import NeumannFilter

MODES = ("full", "edges")

# Edge inner products are computed in chunks of this many (edge, feature) pairs.
_EDGE_CHUNK_ELEMENTS = 2**24


def gram_frobenius_norm(X):
    """‖XXᵀ‖_F computed as ‖XᵀX‖_F (d x d), for dense or sparse X."""
    G = X.T @ X
    if hasattr(G, "toarray"):
        G = G.toarray()
    xp = _backend.namespaces(_backend.on_gpu(G))[0]
    return float(xp.linalg.norm(G))


def edge_gram(A_pattern, X):
    """The sparse matrix with entries ⟨X_i, X_j⟩ on the pattern of ``A_pattern``."""
    gpu = _backend.on_gpu(A_pattern)
    xp, xsp = _backend.namespaces(gpu)
    C = A_pattern.tocoo()
    rows, cols = C.row, C.col
    d = X.shape[1]
    vals = xp.empty(rows.shape[0], dtype=X.dtype)
    step = max(1, _EDGE_CHUNK_ELEMENTS // max(d, 1))
    for s in range(0, rows.shape[0], step):
        r, c = rows[s:s + step], cols[s:s + step]
        vals[s:s + step] = xp.einsum("ij,ij->i", X[r], X[c])
    G = xsp.coo_matrix((vals, (rows, cols)), shape=A_pattern.shape)
    return _backend.csr_type(gpu)(G)


def robust_propagate(A, X, lam, S, eps, norm="sym", *, mode="full", symmetrize=False):
    """RNGC propagation H of paper Eq. 12 (without the weight matrix W).

    Parameters
    ----------
    A : sparse matrix, ndarray or networkx.Graph
    X : array_like or sparse, shape (n, d)
        Features; they define both the signal and the perturbation XXᵀ.
    lam : float
        λ > 0.
    S : int
        S >= 0.
    eps : float
        ε >= 0; ε = 0 gives NGC exactly.
    norm : {"sym", "rw"}
    mode : {"full", "edges"}
        ``"full"``: the exact Eq. 12 with a low-rank XXᵀ. ``"edges"``: XXᵀ masked to the
        pattern of Ã (the paper's scalable variant).

    Returns
    -------
    ndarray, shape (n, d)

    Notes
    -----
    For X = 0 the perturbation direction XXᵀ/‖XXᵀ‖_F is undefined (0/0); it is taken as 0,
    which gives H = 0 as for NGC. The series converges only if the spectral radius of
    r(Ã − εXXᵀ/‖XXᵀ‖_F) is below 1, which the paper does not guarantee for ε > 0; for large ε the
    terms may grow, and the result is returned as computed (check the spectral radius first).

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref import robust_propagate, neumann_propagate
    >>> G = nx.cycle_graph(5); X = np.arange(10.0).reshape(5, 2)
    >>> np.allclose(robust_propagate(G, X, 2.0, 4, eps=0.0), neumann_propagate(G, X, 2.0, 4))
    True
    """
    eps = check_eps(eps)
    mode = check_option(mode, "mode", MODES)
    filt = NeumannFilter(A, lam, S, norm, symmetrize=symmetrize)
    X = check_features(X, filt.n)
    _backend.on_gpu(filt.A_norm, X)
    An = filt._operator_for(X.dtype)
    nrm = gram_frobenius_norm(X)
    c = eps / nrm if nrm > 0 else 0.0
    if mode == "edges" and c != 0.0:
        An = An - c * edge_gram(An, X)
        c = 0.0

    def apply_M(V):
        out = An @ V
        if c != 0.0:
            out -= c * (X @ (X.T @ V))
        return out

    H = X.copy()
    for _ in range(filt.S):
        H = apply_M(H)
        H *= filt.r
        H += X
    H *= 1.0 / (filt.lam + 1.0)
    return H
