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
import scipy.sparse as sp

from . import _backend, _memory
from ._docs import fill_doc
from ._spmm import horner
from ._validation import check_array, check_eps, check_lam, check_option, check_order
from .neumann import NeumannFilter
from .normalize import normalized_adjacency

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


#: Largest XXᵀ (bytes) :func:`neumann_partial_sums` forms for its n < d shortcut.
GRAM_BYTES = 512 * 2**20
#: A multiply-add of SciPy's sparse x dense kernel costs about this many of BLAS's.
SPARSE_PENALTY = 10.0


def xxt_product(n, d, nnz, itemsize):
    """How XXᵀV is applied, by its cost per step: ``"lowrank"`` X(XᵀV) (2·n·d²), ``"gram"``
    (XXᵀ)V with XXᵀ formed once (n²·d; when n < d and XXᵀ fits :data:`GRAM_BYTES`), or
    ``"sparse"`` with X kept sparse (2·nnz·d, times :data:`SPARSE_PENALTY`; ``nnz=None``: X
    is dense).

    >>> xxt_product(100, 5000, None, 8), xxt_product(10**5, 64, None, 8)
    ('gram', 'lowrank')
    >>> xxt_product(2708, 1433, 49216, 4)     # Cora's bag of words, kept sparse
    'sparse'
    """
    costs = {"lowrank": 2.0 * n * d * d}
    if n < d and n * n * itemsize <= GRAM_BYTES:
        costs["gram"] = float(n) * n * d
    if nnz is not None:
        costs["sparse"] = SPARSE_PENALTY * 2.0 * nnz * d
    return min(costs, key=costs.get)


class _PerturbedOperator:
    """Ã − c·XXᵀ applied to V as Ã V − c·X(XᵀV), or Ã V − c·G V with G = XXᵀ formed (``G``);
    the n x n XXᵀ is otherwise never formed; c = 0: Ã alone. ``X`` may be sparse."""

    def __init__(self, An, X, c, G=None):
        self.An, self.X, self.c, self.G = An, X, c, G

    def __matmul__(self, V):
        out = self.An @ V
        if self.c != 0.0:
            T = self.G @ V if self.G is not None else self.X @ (self.X.T @ V)
            T *= self.c
            out -= T
        return out


def _binary_exponent(X, xp):
    """k with max|X|·2^-k in [1/2, 1) (None for X = 0): the series runs on X·2^-k.

    XXᵀ/‖XXᵀ‖_F does not change when X is scaled, and for a fixed operator H is linear in X:
    so the series runs on Xs = X·2^-k (a power of two: exact) and is scaled back at the end.
    ‖XᵀX‖_F of X itself over- or underflows far sooner than the result (X·1e-170, float32
    X·1e20), which would silently turn ε into 0.
    """
    amax = float(xp.abs(X).max()) if X.size else 0.0
    return None if amax == 0.0 else math.frexp(amax)[1]


def _not_representable(dtype, eps, lam, r, S):
    """The ValueError of a series whose terms overflow ``dtype`` (RNGC with ε too large)."""
    return ValueError(
        f"the result is not representable in {dtype}: with eps={eps!r} and lam={lam!r} the "
        f"terms of the series grow (the spectral radius of r(Ã − eps·XXᵀ/‖XXᵀ‖_F) exceeds 1, "
        f"r = lam/(lam+1) = {r:.3g}) and overflow within S={S} steps; use a smaller eps, a "
        f"larger lam or a smaller S" + ("" if dtype == np.float64 else ", or float64 features"))


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
    k = _binary_exponent(X, xp)
    if k is None:
        H = xp.zeros_like(X)
        return H.ravel() if vector else H
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
        exc = _not_representable(X.dtype, eps, filt.lam, filt.r, filt.S)
        raise ValueError(f"robust_propagate: {exc}")
    return H.ravel() if vector else H


fill_doc(robust_propagate)


def neumann_partial_sums(A, X, lam, S_values, *, eps=None, norm="sym"):
    """The NGC or RNGC propagation at every depth S of ``S_values``, from one pass of the series.

    .. math::

        V_0 = X,\\quad V_{s+1} = M V_s,\\quad
        H_S = \\frac{1}{\\lambda+1}\\sum_{s=0}^{S} V_s,

    with M = rÃ (NGC, paper Eq. 4; ``eps=None``) or M = r(Ã − εXXᵀ/‖XXᵀ‖_F) (RNGC, Eq. 17,
    the exact ``mode="full"`` of :func:`robust_propagate`). Summed forward, one pass to
    max(S_values) gives every H_S for max(S_values) products, where a call per S costs ΣS. The
    XXᵀ term is applied at its cheapest (:func:`xxt_product`: X(XᵀV); (XXᵀ)V when n < d;
    sparse X kept sparse), on X scaled by a power of two to max|X| ≈ 1 as
    :func:`robust_propagate` does. The summation order differs from the Horner rule of
    :func:`neumann_propagate` and :func:`robust_propagate`: the results agree to rounding.

    Parameters
    ----------
    %(A)s
    X : array or scipy.sparse matrix, shape (n, d)
        Features (sparse X is densified for the series and kept sparse for XXᵀ when that is
        cheaper). float32 (and float16, read as float32) is propagated in float32; other dtypes
        in float64.
    %(lam)s
    S_values : sequence of int
        The depths S >= 0 wanted (in any order; repeats are ignored).
    eps : float or None
        ε >= 0 of RNGC; None: NGC.
    %(norm)s

    Returns
    -------
    dict
        ``{S: H_S}`` for every S of ``S_values``, each an (n, d) array.

    Raises
    ------
    ValueError
        When the terms of the RNGC series overflow (ε too large for λ: the spectral radius of
        r(Ã − εXXᵀ/‖XXᵀ‖_F) exceeds 1), rather than returning inf or NaN.

    Notes
    -----
    NumPy/SciPy input only (CuPy input: ValueError; :func:`neumann_propagate` and
    :func:`robust_propagate` run on the GPU, one S per call). Besides X: its scaled copy, the
    running sum, one term and the next, and one array per depth returned (and XXᵀ in the n < d
    case) must fit the memory budget of :mod:`ngc_ref._memory` (sparse X is densified, and
    counted, too). The normalised adjacency is computed in the features' dtype.

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref import neumann_partial_sums, neumann_propagate
    >>> G = nx.cycle_graph(6); X = np.arange(12.0).reshape(6, 2)
    >>> H = neumann_partial_sums(G, X, 2.0, (1, 4))
    >>> sorted(H), np.allclose(H[4], neumann_propagate(G, X, 2.0, 4))
    ([1, 4], True)
    """
    what = "neumann_partial_sums"
    if _backend.on_gpu(A, X):
        raise ValueError("neumann_partial_sums is CPU only; use neumann_propagate or "
                         "robust_propagate (one S per call) for CuPy input")
    lam = check_lam(lam)
    if isinstance(S_values, (str, bytes)) or not hasattr(S_values, "__iter__"):
        raise TypeError(f"S_values must be a sequence of depths S >= 0, got "
                        f"{type(S_values).__name__} {S_values!r}")
    wanted = sorted({check_order(S, f"S_values[{i}]") for i, S in enumerate(S_values)})
    if not wanted:
        raise ValueError("S_values must hold at least one depth S >= 0, got none")
    eps = None if eps is None else check_eps(eps)
    An = normalized_adjacency(A, norm=norm)
    Xsp = sp.csr_array(X) if sp.issparse(X) else None
    # Besides X: its scaled copy, the running sum, a term, the next and one array per depth;
    # check_array counts its own copy of X too (sparse X densified, another dtype converted),
    # and gives float32 (float16 read as float32) or float64.
    work = 4 + len(wanted)
    given, X = X, check_array(X, n_rows=An.shape[0], what=what, work_arrays=work)
    dense = work + (X is not given)       # the n x d arrays besides the caller's X
    An = An.astype(X.dtype)
    k = _binary_exponent(X, np)
    if k is None:
        return {S: np.zeros_like(X) for S in wanted}
    Xs = np.ldexp(X, -k).astype(X.dtype, copy=False)
    c = 0.0 if not eps else eps / gram_frobenius_norm(Xs)
    n, d = Xs.shape
    Xt, G = Xs, None
    if c:
        how = xxt_product(n, d, None if Xsp is None else Xsp.nnz, Xs.itemsize)
        if how == "sparse":     # clean bag-of-words features: O(nnz(X)·d) per step
            Xt = Xsp.astype(X.dtype)
            Xt.data = np.ldexp(Xt.data, -k).astype(X.dtype, copy=False)
        elif how == "gram":
            # XXᵀ besides the arrays check_array counted above.
            _memory.check_memory((n * n + dense * n * d) * Xs.itemsize, what,
                                 "pass fewer feature columns at a time",
                                 detail=f"XXᵀ ({n} x {n}) and {dense} dense {n} x {d} work arrays")
            G = Xs @ Xs.T
    M = _PerturbedOperator(An, Xt, c, G)
    r, scale = lam / (lam + 1.0), 1.0 / (lam + 1.0)
    out = {}
    V, P = Xs, Xs.copy()
    if 0 in wanted:
        out[0] = np.ldexp(P * scale, k).astype(X.dtype, copy=False)
    with np.errstate(over="ignore", invalid="ignore"):   # a diverging series: see below
        for s in range(1, wanted[-1] + 1):
            V = M @ V
            V *= r
            P += V
            if s in wanted:
                out[s] = np.ldexp(P * scale, k).astype(X.dtype, copy=False)
    if not all(np.isfinite(H).all() for H in out.values()):
        raise ValueError(f"{what}: {_not_representable(X.dtype, eps, lam, r, wanted[-1])}")
    return out


fill_doc(neumann_partial_sums)
