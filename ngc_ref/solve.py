"""The exact GSD solution F = (I + λL̃)⁻¹ X (paper Eq. 2), by CG, sparse LU or dense solve.

Both normalisations are solved through a symmetric positive definite system:

* ``"sym"``: ((1+λ) I − λ Ã_sym) F = X, eigenvalues in [1, 1+2λ);
* ``"rw"``: (I + λ(I − D̃⁻¹Ã)) F = X is not symmetric, so we solve the equivalent
  ((1+λ) D̃ − λ Ã) F = D̃ X (multiply by D̃), which is SPD.
"""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import _backend, _memory
from ._spmm import SparseProduct
from ._validation import (DEFAULT_MAX_DENSE_NODES, check_dense_size, check_features, check_lam,
                          check_norm, check_option, check_scalar)
from .normalize import normalized_adjacency

METHODS = ("auto", "cg", "direct", "dense", "chebyshev")

#: ``method="auto"`` uses the sparse LU factorisation up to this many nodes, CG above it.
AUTO_DIRECT_MAX_NODES = 5000

#: Fill of SuperLU (MMD on AᵀA + A) measured on Erdős–Rényi graphs with n = 1000 ... 8000:
#: nnz(L + U)/n² ≈ 0.021, 0.089, 0.26 for mean degree 3, 5, 10, flat in n (separators of
#: size Θ(n)). The estimate takes 0.033·(d̄ − 2) for that ratio, just above each measurement.
_FILL_PER_DEGREE = 0.033


class ConvergenceWarning(UserWarning):
    """An iterative method stopped at ``maxiter`` before meeting its tolerance."""


@dataclass
class SolveInfo:
    """What a GSD solve did and how accurate it is.

    Attributes
    ----------
    method : str
        The method actually used (``"auto"`` is resolved).
    converged : bool
        Whether the stopping rule was met for every column (always True for direct/dense).
    iterations : int or None
        CG or Chebyshev iterations (None for direct/dense).
    residual : float
        max over columns of ‖x_j − (I + λL̃) f_j‖ / ‖x_j‖ for the *original* system, computed
        once after solving (0 for an all-zero column).
    residual_history : list of float
        For CG and Chebyshev: max over columns of the relative residual of the SPD system after
        each iteration.
    factor_nnz : int or None
        Nonzeros of the sparse LU factors (direct only): the fill-in.
    """

    method: str
    converged: bool
    iterations: int | None = None
    residual: float = float("nan")
    residual_history: list = field(default_factory=list)
    factor_nnz: int | None = None


def gsd_solve(A, X, lam, norm="sym", method="auto", rtol=1e-10, *, atol=0.0, maxiter=None,
              return_info=False, symmetrize=False, max_nodes=DEFAULT_MAX_DENSE_NODES,
              workers=None):
    """F = (I + λL̃)⁻¹ X, the exact minimiser of the GSD objective (paper Eq. 1-2).

    .. math::

        F = \\arg\\min_F \\|F - X\\|_F^2 + \\lambda\\,\\mathrm{tr}(F^\\top \\tilde L F)
          = (I + \\lambda \\tilde L)^{-1} X, \\qquad \\tilde L = I - \\tilde{\\mathcal{A}}.

    (For ``norm="rw"`` L̃ is not symmetric and the closed form is the stationary point of the
    paper's Eq. 1 with L̃ as written; see the module docstring for the SPD system solved.)

    Parameters
    ----------
    A : sparse matrix, ndarray or networkx.Graph
    X : array_like or sparse, shape (n,) or (n, d)
    lam : float
        λ > 0.
    norm : {"sym", "rw"}
    method : {"auto", "cg", "direct", "dense", "chebyshev"}
        ``"cg"``: Jacobi-preconditioned conjugate gradients on the SPD system, run on all d
        columns at once (one sparse x dense product per iteration for the whole block; each
        column keeps its own step sizes and stops on its own). ``"chebyshev"``: Chebyshev
        iteration on the Jacobi-preconditioned system, whose eigenvalues lie in the known
        interval [1, 1 + 2λ] (those of (1+λ)I − λÃ_norm, as Ã_norm has spectrum in [−1, 1]):
        no inner products, one sparse product per iteration, error reduced by about
        (√κ − 1)/(√κ + 1), κ = 1 + 2λ, per iteration. ``"direct"``: sparse LU
        (SuperLU) of the SPD matrix; refused when the estimated factors
        (:func:`direct_factor_estimate`, ~n² entries on random graphs) exceed the memory
        budget. ``"dense"``: ``numpy.linalg.solve`` on the dense I + λL̃ (refused above
        ``max_nodes`` or when two n x n float64 arrays exceed the memory budget).
        ``"auto"``: direct up to 5000 nodes when its factors fit the budget, else CG.
        The memory budget is the available memory, or the environment variable
        ``NGC_REF_MEMORY_BUDGET`` (bytes, or e.g. ``"4GiB"``; see :mod:`ngc_ref._memory`).
    rtol, atol : float
        CG stops a column (Chebyshev stops when every column meets it) when
        ‖b_j − M f_j‖ <= max(rtol·‖b_j‖, atol) for the SPD system M F = B.
    maxiter : int, optional
        CG/Chebyshev iteration cap (default 10·n). Hitting it warns with
        :class:`ConvergenceWarning`.
    return_info : bool
        Also return a :class:`SolveInfo` with iterations and the achieved residual.
    symmetrize : bool or {"max", "mean"}
    max_nodes : int
        Size guard for ``method="dense"``.
    workers : int or None
        CPU threads for the sparse product of CG and Chebyshev (row blocks; ``None``: the cores
        this process may use). Results do not depend on it.

    Returns
    -------
    F : ndarray, shape (n, d)
        Same float dtype as X (float32 kept; the solve itself runs in float64).
    info : SolveInfo, only if ``return_info``

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref import gsd_solve
    >>> F, info = gsd_solve(nx.path_graph(4), np.arange(4.0), lam=1.0, return_info=True)
    >>> F.ravel().round(4), info.method, info.residual < 1e-12
    (array([0.2941, 1.0805, 2.0421, 2.5558]), 'direct', True)
    """
    lam = check_lam(lam)
    norm = check_norm(norm)
    An, d = normalized_adjacency(A, norm=norm, symmetrize=symmetrize, return_degrees=True)
    return _gsd_solve_normalized(An, d, X, lam, norm, method=method, rtol=rtol, atol=atol,
                                 maxiter=maxiter, return_info=return_info, max_nodes=max_nodes,
                                 workers=workers)


def _gsd_solve_normalized(An, d, X, lam, norm, *, method="auto", rtol=1e-10, atol=0.0,
                          maxiter=None, return_info=False, max_nodes=DEFAULT_MAX_DENSE_NODES,
                          workers=None):
    method = check_option(method, "method", METHODS)
    rtol = check_scalar(rtol, "rtol", min_val=0.0)
    atol = check_scalar(atol, "atol", min_val=0.0)
    if rtol == 0.0 and atol == 0.0:
        raise ValueError("rtol and atol cannot both be 0: the stopping rule could never be met")
    n = An.shape[0]
    if maxiter is None:
        maxiter = max(10 * n, 100)
    maxiter = check_scalar(maxiter, "maxiter", min_val=1, integer=True)
    X = check_features(X, n)
    gpu = _backend.on_gpu(An, X)
    out_dtype = X.dtype
    xp, _ = _backend.namespaces(gpu)
    An64 = An.astype(np.float64)
    X64 = X.astype(np.float64)
    factor_bytes, factor_entries, dbar = direct_factor_estimate(n, An.nnz)
    if method == "auto":
        method = ("direct" if (n <= AUTO_DIRECT_MAX_NODES and not gpu
                               and _memory.fits(factor_bytes)) else "cg")
    if gpu and method == "direct":
        raise ValueError("method='direct' is CPU only; use method='cg' for CuPy input")
    if method == "direct":
        _memory.check_memory(
            factor_bytes, "gsd_solve(method='direct')",
            "use method='cg' or method='chebyshev' (memory O(nnz + n·d))",
            detail=f"an estimated {factor_entries:.3g} nonzeros in the sparse LU factors of a "
                   f"graph of {n} nodes with mean degree {dbar:.1f}; the fill grows like n² "
                   f"on graphs without small separators")

    M, B, Minv_diag = _spd_system(An64, d.astype(np.float64), X64, lam, norm, gpu)
    info = SolveInfo(method=method, converged=True)
    if method in ("cg", "chebyshev"):
        with _product(M, gpu, workers) as mul:
            if method == "cg":
                F, info.iterations, info.residual_history, info.converged = _block_cg(
                    mul, B, Minv_diag, rtol, atol, maxiter, xp)
            else:
                # Precondition with D̃ (rw) or nothing (sym), not Jacobi: then the spectrum is
                # exactly that of (1+λ)I − λÃ_norm, inside [1, 1 + 2λ].
                pre = xp.asarray(1.0 / d.astype(np.float64)) if norm == "rw" else None
                F, info.iterations, info.residual_history, info.converged = _chebyshev(
                    mul, B, pre, 1.0, 1.0 + 2.0 * lam, rtol, atol, maxiter, xp)
        if not info.converged:
            name = "CG" if method == "cg" else "Chebyshev"
            warnings.warn(f"gsd_solve: {name} did not reach rtol={rtol:g} in maxiter={maxiter} "
                          f"iterations (final max relative residual "
                          f"{info.residual_history[-1]:.3e})", ConvergenceWarning, stacklevel=3)
    elif method == "direct":
        lu = spla.splu(sp.csc_matrix(M), permc_spec="MMD_AT_PLUS_A")
        F = lu.solve(np.asarray(B))
        info.factor_nnz = int(lu.L.nnz + lu.U.nnz)
    else:
        # The matrix and the LU copy that solve makes of it.
        check_dense_size(n, max_nodes, "gsd_solve(method='dense')", arrays=2)
        Md = An64.toarray()
        Md *= -lam
        Md[xp.arange(n), xp.arange(n)] += 1.0 + lam
        F = xp.linalg.solve(Md, X64)
    info.residual = _original_residual(An64, F, X64, lam)
    F = F.astype(out_dtype, copy=False)
    return (F, info) if return_info else F


def _product(M, gpu, workers):
    """A context giving ``mul(P, Q)``: Q = M @ P in place (threaded rows on the CPU)."""
    if not gpu:
        return SparseProduct(M, workers=workers)

    def mul(P, Q):
        Q[...] = M @ P

    return contextlib.nullcontext(mul)


def direct_factor_estimate(n, nnz):
    """(bytes, entries, mean degree) estimated for the sparse LU factors of the GSD system.

    The system has the sparsity of Ã (with its self-loops, ``nnz`` entries). On graphs without
    small separators (random, expander-like: most real networks) the factors fill in like n²:
    nnz(L + U) ≈ nnz + c(d̄)·n², c(d̄) = min(1, 0.033·(d̄ − 2)) with d̄ the mean number of
    neighbours (fitted on Erdős–Rényi graphs; a Pubmed-size graph, d̄ ≈ 4.5, gets ~1600 entries
    per factor row). Planar and mesh-like graphs fill far less, so this over-estimates them.
    Each entry costs 12 bytes (a float64 value and an int32 index).
    """
    dbar = max(0.0, nnz / max(n, 1) - 1.0)
    density = min(1.0, _FILL_PER_DEGREE * max(0.0, dbar - 2.0))
    entries = min(float(n) * n, nnz + density * float(n) * n)
    return 12.0 * entries, entries, dbar


def _spd_system(An, d, X, lam, norm, gpu):
    """(M, B, 1/diag(M)) of the SPD system M F = B equivalent to (I + λL̃) F = X."""
    _, xsp = _backend.namespaces(gpu)
    n = An.shape[0]
    if norm == "sym":
        M = (1.0 + lam) * xsp.identity(n, format="csr") - lam * An
        B = X
        diag = (1.0 + lam) - lam * An.diagonal()
    else:
        # D̃ Ã_rw = Ã, so (1+λ)D̃ − λÃ = D̃ ((1+λ)I − λÃ_rw) is symmetric.
        Dm = xsp.diags(d)
        M = (1.0 + lam) * Dm - lam * (Dm @ An)
        M = (M + M.T) * 0.5  # remove the rounding asymmetry of D̃·(D̃⁻¹Ã)
        B = d[:, None] * X
        diag = (1.0 + lam) * d - lam * d * An.diagonal()
    return _backend.csr_type(gpu)(M), B, 1.0 / diag


def _coldot(U, V, xp):
    """Column-wise inner products Σ_i U_ij V_ij without an n x k temporary."""
    return xp.einsum("ij,ij->j", U, V)


def _stopping_rule(B, rtol, atol, xp):
    """(‖b_j‖, the per-column threshold max(rtol·‖b_j‖, atol), ‖b_j‖ with 0 replaced by 1)."""
    bnorm = xp.sqrt(_coldot(B, B, xp))
    return bnorm, xp.maximum(rtol * bnorm, atol), xp.where(bnorm > 0, bnorm, 1.0)


def _block_cg(mul, B, Minv_diag, rtol, atol, maxiter, xp):
    """Jacobi-preconditioned CG on every column of B at once.

    ``mul(P, Q)`` writes M @ P into Q. Each column has its own α, β (independent
    recurrences), so columns that are linearly dependent cannot break the iteration the way a
    true block-Krylov method can; converged columns drop out of the active set. Every update is
    in place into preallocated buffers: one sparse product and a few streaming passes per
    iteration, no allocation. Returns (F, iterations, max-residual history, converged).
    """
    n, k = B.shape
    F = xp.zeros_like(B)
    bnorm, thresh, safe_b = _stopping_rule(B, rtol, atol, xp)
    active = xp.flatnonzero(bnorm > thresh)
    history = []
    if active.size == 0:
        return F, 0, history, True
    Pre = Minv_diag[:, None]
    Ra = xp.ascontiguousarray(B[:, active])
    Fa = xp.zeros_like(Ra)
    Z = Pre * Ra
    P = Z.copy()
    Q, T = xp.empty_like(P), xp.empty_like(P)
    rz = _coldot(Ra, Z, xp)
    it, converged = 0, False
    while it < maxiter:
        it += 1
        mul(P, Q)
        alpha = rz / _coldot(P, Q, xp)
        Fa += xp.multiply(P, alpha, out=T)
        Ra -= xp.multiply(Q, alpha, out=T)
        rnorm = xp.sqrt(_coldot(Ra, Ra, xp))
        history.append(float(xp.max(rnorm / safe_b[active])))
        still = rnorm > thresh[active]
        if not bool(still.any()):
            converged = True
            break
        if not bool(still.all()):
            # Write the converged columns out and shrink every buffer to the active ones.
            done = ~still
            F[:, active[done]] = Fa[:, done]
            active, rz = active[still], rz[still]
            Fa, Ra, P = (xp.ascontiguousarray(U[:, still]) for U in (Fa, Ra, P))
            Z, Q, T = xp.empty_like(P), xp.empty_like(P), xp.empty_like(P)
        xp.multiply(Ra, Pre, out=Z)
        rz_new = _coldot(Ra, Z, xp)
        P *= rz_new / rz
        P += Z
        rz = rz_new
    F[:, active] = Fa
    return F, it, history, converged


def _chebyshev(mul, B, Minv_diag, lmin, lmax, rtol, atol, maxiter, xp):
    """Preconditioned Chebyshev iteration for M F = B (Saad, Alg. 12.1).

    ``mul(D, Q)`` writes M @ D into Q; ``Minv_diag`` is the diagonal preconditioner, or None
    for none. The eigenvalues of diag(Minv_diag)·M must lie in [lmin, lmax]. Stops when every
    column has ‖b_j − M f_j‖ <= max(rtol·‖b_j‖, atol) (the recurrence's residual, updated
    exactly). Returns (F, iterations, max-residual history, converged).
    """
    theta = 0.5 * (lmax + lmin)
    delta = 0.5 * (lmax - lmin)
    sigma = theta / delta
    F = xp.zeros_like(B)
    R = B.copy()
    bnorm, thresh, safe_b = _stopping_rule(B, rtol, atol, xp)
    history = []
    if not bool((bnorm > thresh).any()):
        return F, 0, history, True
    Q, T = xp.empty_like(B), xp.empty_like(B)

    rho = 1.0 / sigma
    D = R.copy() if Minv_diag is None else Minv_diag[:, None] * R
    D /= theta
    it = 0
    while it < maxiter:
        it += 1
        F += D
        mul(D, Q)
        R -= Q
        rnorm = xp.sqrt(_coldot(R, R, xp))
        history.append(float(xp.max(rnorm / safe_b)))
        if not bool((rnorm > thresh).any()):
            return F, it, history, True
        rho_new = 1.0 / (2.0 * sigma - rho)
        D *= rho_new * rho
        if Minv_diag is None:
            xp.multiply(R, 2.0 * rho_new / delta, out=T)
        else:
            xp.multiply(R, Minv_diag[:, None], out=T)
            T *= 2.0 * rho_new / delta
        D += T
        rho = rho_new
    return F, it, history, False


def _original_residual(An, F, X, lam):
    """max_j ‖x_j − (I + λL̃) f_j‖ / ‖x_j‖, with (I + λL̃)F = (1+λ)F − λ Ã F."""
    xp = _backend.namespaces(_backend.on_gpu(An))[0]
    R = X - ((1.0 + lam) * F - lam * (An @ F))
    xn = xp.linalg.norm(X, axis=0)
    rn = xp.linalg.norm(R, axis=0)
    rel = xp.where(xn > 0, rn / xp.where(xn > 0, xn, 1.0), rn)
    return float(rel.max()) if rel.size else 0.0
