"""NGC and RNGC at every depth S of a grid in one pass (the depth figures).

The library evaluates Ã_S X by Horner's rule, one pass per S. The depth figures need the same
series at S = 1, 2, 4, ..., S_max; summed forward, the partial sums are all of them:

.. math::

    V_0 = X,\\quad V_{s+1} = M V_s,\\quad H_S = \\frac{1}{\\lambda+1}\\sum_{s=0}^{S} V_s,

with M = rÃ (NGC, Eq. 4) or M = r(Ã − εXXᵀ/‖XXᵀ‖_F) (RNGC, Eq. 17, the exact 'full' mode:
the XXᵀ term applied at its cheapest, :func:`xxt_product`, and X scaled by a power of two to
max|X| ≈ 1 as :func:`ngc_ref.robust_propagate` does). One pass to S_max costs S_max products
instead of ΣS. ``ngc-ref reproduce`` also evaluates every exact-mode RNGC with it
(``S_values = (S,)``), for the cheaper XXᵀ products. :func:`partial_sums_reference` calls the
library once per S; the tests check that both agree (to rounding: the summation order
differs).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from ngc_ref import neumann_propagate, normalized_adjacency, robust_propagate
from ngc_ref.robust import gram_frobenius_norm


#: Largest XXᵀ (bytes) formed for the n < d shortcut.
GRAM_BYTES = 512 * 2**20
#: A multiply-add of SciPy's sparse x dense kernel costs about this many of BLAS's.
SPARSE_PENALTY = 10.0


def xxt_product(n, d, nnz, itemsize):
    """How XXᵀV is applied, by its cost per step: ``"lowrank"`` X(XᵀV) (2·n·d²), ``"gram"``
    (XXᵀ)V with XXᵀ formed once (n²·d; when n < d and XXᵀ fits :data:`GRAM_BYTES`), or
    ``"sparse"`` with X kept sparse (2·nnz·d, times :data:`SPARSE_PENALTY`)."""
    costs = {"lowrank": 2.0 * n * d * d}
    if n < d and n * n * itemsize <= GRAM_BYTES:
        costs["gram"] = float(n) * n * d
    if nnz is not None:
        costs["sparse"] = SPARSE_PENALTY * 2.0 * nnz * d
    return min(costs, key=costs.get)


def partial_sums(A, X, lam, S_values, *, eps=None, norm="sym"):
    """``{S: H_S}`` for every S in ``S_values``: NGC (``eps=None``) or RNGC (full mode)."""
    Xsp = sp.csr_array(X) if sp.issparse(X) else None
    X = X.toarray() if Xsp is not None else np.asarray(X)
    if X.dtype not in (np.float32, np.float64):
        X = X.astype(np.float64)
    wanted = sorted(set(int(s) for s in S_values))
    An = normalized_adjacency(A, norm=norm).astype(X.dtype)
    r = lam / (lam + 1.0)
    amax = float(np.abs(X).max()) if X.size else 0.0
    if amax == 0.0:
        return {S: np.zeros_like(X) for S in wanted}
    k = math.frexp(amax)[1]
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
            G = Xs @ Xs.T
    out = {}
    V = Xs
    P = Xs.copy()
    scale = 1.0 / (lam + 1.0)
    if 0 in wanted:
        out[0] = np.ldexp(P * scale, k).astype(X.dtype, copy=False)
    with np.errstate(over="ignore", invalid="ignore"):   # a diverging series: see below
        for s in range(1, wanted[-1] + 1):
            W = An @ V
            if c:
                W -= c * (G @ V if G is not None else Xt @ (Xt.T @ V))
            W *= r
            V = W
            P += V
            if s in wanted:
                out[s] = np.ldexp(P * scale, k).astype(X.dtype, copy=False)
    if not all(np.isfinite(H).all() for H in out.values()):
        raise ValueError(f"the series is not representable in {X.dtype}: with eps={eps!r} "
                         f"and lam={lam!r} its terms grow (the spectral radius of "
                         f"r(Ã − eps·XXᵀ/‖XXᵀ‖_F) exceeds 1); use a smaller eps or S")
    return out


def partial_sums_reference(A, X, lam, S_values, *, eps=None, norm="sym"):
    """The same through the library, one propagation per S."""
    if eps is None:
        return {S: neumann_propagate(A, X, lam=lam, S=S, norm=norm) for S in S_values}
    return {S: robust_propagate(A, X, lam=lam, S=S, eps=eps, norm=norm) for S in S_values}


__all__ = ["partial_sums", "partial_sums_reference", "xxt_product"]
