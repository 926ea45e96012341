"""Robust Neumann Graph Convolution (RNGC, paper Eq. 17, without W).

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

import math

import numpy as np

from . import _backend
from ._docs import fill_doc
from ._spmm import horner
from ._validation import check_eps, check_option
from .neumann import NeumannFilter

MODES = ("full", "edges")

# Edge inner products are computed in chunks of this many (edge, feature) pairs.
_EDGE_CHUNK_ELEMENTS = 2**24


def gram_frobenius_norm(X):
    """‖XXᵀ‖_F computed as ‖XᵀX‖_F (d x d), for dense or sparse X.

    XᵀX over- or underflows for entries beyond ~1e±154 (float64) or ~1e±19 (float32): scale X
    to max|X| ≈ 1 first, as :func:`robust_propagate` does.
    """
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


class _PerturbedOperator:
    """Ã − c·XsXsᵀ, applied as Ã V − c·Xs(XsᵀV) (XsXsᵀ is never formed; c = 0: Ã alone)."""

    def __init__(self, An, Xs, c):
        self.An, self.Xs, self.c = An, Xs, c

    def __matmul__(self, V):
        out = self.An @ V
        if self.c != 0.0:
            T = self.Xs @ (self.Xs.T @ V)
            T *= self.c
            out -= T
        return out


def robust_propagate(A, X, lam, S, eps, *, norm="sym", mode="full", symmetrize=False,
                     weight="weight", nodelist=None, reorder="auto"):
    """RNGC propagation H of paper Eq. 17 (without the weight matrix W).

    Parameters
    ----------
    %(A)s
        With ``mode="edges"``, its pattern (edges and self-loops) masks XXᵀ.
    %(X)s
        The features define both the signal and the perturbation XXᵀ.
    %(lam)s
    %(S)s
    eps : float
        ε >= 0; ε = 0 gives NGC exactly.
    %(norm)s
    mode : {"full", "edges"}
        ``"full"``: the exact Eq. 17 with a low-rank XXᵀ. ``"edges"``: XXᵀ masked to the
        pattern of Ã (the paper's scalable variant).
    %(graph_options)s
    %(reorder)s
        The low-rank term XXᵀ is permuted with X (P X XᵀPᵀ), so it holds in either order.

    Returns
    -------
    ndarray, shape of ``X``: (n,) or (n, d)

    Notes
    -----
    For X = 0 the perturbation direction XXᵀ/‖XXᵀ‖_F is undefined (0/0); it is taken as 0,
    which gives H = 0 as for NGC. The series converges only if the spectral radius of
    r(Ã − εXXᵀ/‖XXᵀ‖_F) is below 1, which the paper does not guarantee for ε > 0; for large ε the
    terms may grow, and the result is returned as computed (check the spectral radius first)
    unless it is not representable in the features' dtype: then ValueError (naming eps and lam)
    instead of inf or NaN.

    The operator does not depend on the scale of X, so the series runs on X scaled by a power of
    two to max|X| ≈ 1 and the result is scaled back: features of any representable scale
    (1e-170, or 1e20 in float32) give H(cX) = c·H(X) to rounding. float32 features are
    propagated in float32, with a relative error of about eps(float32)·(λ+1)(1 − r^{S+1}) (see
    :func:`ngc_ref.neumann.float32_error_estimate`); a ``PrecisionWarning`` (a UserWarning) is
    emitted when that exceeds 1e-3. Besides X, four n x d arrays are needed; they must fit the
    memory budget of :mod:`ngc_ref._memory` (sparse X is densified, and counted, too).

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
    filt = NeumannFilter(A, lam, S, norm=norm, symmetrize=symmetrize, weight=weight,
                         nodelist=nodelist, reorder=reorder)
    # Work arrays besides X: its scaled copy, H, and the two terms of each product.
    X, vector = filt._columns(X, "robust_propagate", work_arrays=4)
    xp, _ = _backend.namespaces(filt._gpu)
    amax = float(xp.abs(X).max()) if X.size else 0.0
    if amax == 0.0:
        H = xp.zeros_like(X)
        return H.ravel() if vector else H
    # XXᵀ/‖XXᵀ‖_F does not change when X is scaled, and for a fixed operator H is linear in X:
    # so the series runs on Xs = X·2^-k with max|Xs| in [1/2, 1) (a power of two: exact) and
    # is scaled back at the end. ‖XᵀX‖_F of X itself over- or underflows far sooner than the
    # result (X·1e-170, float32 X·1e20), which would silently turn ε into 0.
    k = math.frexp(amax)[1]
    # The series in the filter's locality order: P(Ã − cXXᵀ)Pᵀ = PÃPᵀ − c(PX)(PX)ᵀ.
    order = filt._order.ordering(filt.S, X.shape[1], X.dtype.itemsize)
    if order is not None:
        X = order.take(X, "robust_propagate", work_arrays=4)
    Xs = xp.ldexp(X, -k).astype(X.dtype, copy=False)
    An = filt._operator_for(X.dtype, order)
    c = eps / gram_frobenius_norm(Xs)    # ‖XsᵀXs‖_F >= max|Xs|² >= 1/4
    if mode == "edges" and c != 0.0:
        An = An - c * edge_gram(An, Xs)
        c = 0.0

    with np.errstate(over="ignore", invalid="ignore"):
        H = horner(_PerturbedOperator(An, Xs, c), Xs, filt.r, filt.S)
        H *= 1.0 / (filt.lam + 1.0)
        finite = bool(xp.isfinite(H).all())
        if finite:
            H = xp.ldexp(H, k).astype(X.dtype, copy=False)
            if order is not None:
                H = order.restore(H)
    if not (finite and bool(xp.isfinite(H).all())):
        raise ValueError(
            f"robust_propagate: the result is not representable in {X.dtype}: with eps={eps!r} "
            f"and lam={filt.lam!r} the terms of the series grow (the spectral radius of "
            f"r(Ã − eps·XXᵀ/‖XXᵀ‖_F) exceeds 1, r = lam/(lam+1) = {filt.r:.3g}) and overflow "
            f"within S={filt.S} steps; use a smaller eps, a larger lam or a smaller S"
            + ("" if X.dtype == np.float64 else ", or float64 features"))
    return H.ravel() if vector else H


fill_doc(robust_propagate)
