"""The exact GSD solution F = (I + λL̃)⁻¹ X (paper Eq. 2), by CG, sparse LU or dense solve.

Both normalisations are solved through a symmetric positive definite system:

* ``"sym"``: ((1+λ) I − λ Ã_sym) F = X, eigenvalues in [1, 1+2λ);
* ``"rw"``: (I + λ(I − D̃⁻¹Ã)) F = X is not symmetric, so we solve the equivalent
  ((1+λ) D̃ − λ Ã) F = D̃ X (multiply by D̃), which is SPD.

Large λ. Formed as written, these matrices lose the identity against λ: past λ ≈ 1/eps
(≈ 4.5e15) 1 + λ rounds to λ and the matrix is singular to rounding (before, the error of the
answer already grows like λ·eps). So every method splits F = F∞ + Z, where F∞ is the projection
of X onto the null space of L̃ (per connected component C: D̃^{1/2}1_C for ``sym``, 1_C for
``rw``) — the exact λ → ∞ limit, computed directly — and Z solves the system for the rest of X
with the matrix scaled by 1/λ (a·mass + b·Lap with (a, b) = (1/λ, 1) for λ > 1, and Lap formed
explicitly), constrained to have no part in the null space. The accuracy then does not depend
on λ: about eps over the spectral gap of the graph, for λ = 1e-12 ... 1e300.
"""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import _backend, _memory
from ._docs import fill_doc
from ._spmm import SparseProduct
from ._validation import (DEFAULT_MAX_DENSE_NODES, check_array, check_dense_size, check_lam,
                          check_norm, check_option, check_scalar)
from .normalize import _normalized_adjacency

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
        Whether the stopping rule ‖x_j − (I + λL̃) f_j‖ <= max(rtol·‖x_j‖, atol) of the
        caller's equation holds for every column, up to rounding (100·eps·(‖b_j‖ + ‖M‖·‖z_j‖)
        of the SPD system, divided by min d̃/max d̃ for ``rw``), checked on the returned
        solution after every method, iterative or not; when it does not, a
        :class:`ConvergenceWarning` says so. A result is never reported converged only because
        the method stopped.
    iterations : int or None
        CG or Chebyshev iterations (None for direct/dense).
    residual : float
        max over columns of ‖x_j − (I + λL̃) f_j‖ / ‖x_j‖ for the *original* system, computed
        once after solving (0 for an all-zero column). It is computed as the residual of the
        split system (see the module docstring), which uses L̃F∞ = 0 exactly: formed directly,
        (I + λL̃)F would carry a rounding error of λ·eps·‖F‖.
    residual_history : list of float
        For CG and Chebyshev: max over columns of the relative residual ‖x_j − (I + λL̃) f_j‖ /
        ‖x_j‖ of the caller's equation after each iteration, as the iteration's recurrence
        tracks it (for ``rw`` the SPD residual is D̃/max d̃ times it and is weighted back).
    factor_nnz : int or None
        Nonzeros of the sparse LU factors (direct only): the fill-in.
    """

    method: str
    converged: bool
    iterations: int | None = None
    residual: float = float("nan")
    residual_history: list = field(default_factory=list)
    factor_nnz: int | None = None


def gsd_solve(A, X, lam, *, norm="sym", method="auto", rtol=1e-10, atol=0.0, maxiter=None,
              return_info=False, symmetrize=False, weight="weight", nodelist=None,
              max_nodes=DEFAULT_MAX_DENSE_NODES, workers=None):
    """F = (I + λL̃)⁻¹ X, the exact minimiser of the GSD objective (paper Eq. 1-2).

    .. math::

        F = \\arg\\min_F \\|F - X\\|_F^2 + \\lambda\\,\\mathrm{tr}(F^\\top \\tilde L F)
          = (I + \\lambda \\tilde L)^{-1} X, \\qquad \\tilde L = I - \\tilde{\\mathcal{A}}.

    (For ``norm="rw"`` L̃ is not symmetric and the closed form is the stationary point of the
    paper's Eq. 1 with L̃ as written; see the module docstring for the SPD system solved.)

    Parameters
    ----------
    %(A)s
    X : array_like or sparse, shape (n,) or (n, d)
    lam : float
        λ > 0.
    %(norm)s
    method : {"auto", "cg", "direct", "dense", "chebyshev"}
        ``"cg"``: Jacobi-preconditioned conjugate gradients on the SPD system, run on all d
        columns at once (one sparse x dense product per iteration for the whole block; each
        column keeps its own step sizes and stops on its own). ``"chebyshev"``: Chebyshev
        iteration on the Jacobi-preconditioned system, whose eigenvalues lie in the known
        interval [1, 1 + 2λ] (those of (1+λ)I − λÃ_norm, as Ã_norm has spectrum in [−1, 1]):
        no inner products, one sparse product per iteration, error reduced by about
        (√κ − 1)/(√κ + 1), κ = 1 + 2λ, per iteration (so at huge λ it runs out of
        iterations and says so). ``"direct"``: sparse LU (SuperLU, partial pivoting) of the SPD
        matrix bordered by one constraint row and column per connected component (the
        null-space condition, which keeps it non-singular for every λ); refused when the
        estimated factors (:func:`direct_factor_estimate`, ~n² entries on random graphs)
        exceed the memory budget. ``"dense"``: ``numpy.linalg.solve`` on the dense I + λL̃,
        lifted along the null space (refused above ``max_nodes`` or when two n x n float64
        arrays exceed the memory budget).
        ``"auto"``: direct up to 5000 nodes when its factors fit the budget, else CG.
        The memory budget is the available memory, or the environment variable
        ``NGC_REF_MEMORY_BUDGET`` (bytes, or e.g. ``"4GiB"``; see :mod:`ngc_ref._memory`).
    rtol, atol : float
        CG stops a column (Chebyshev stops when every column meets it) when
        ‖x_j − (I + λL̃) f_j‖ <= max(rtol·‖x_j‖, atol): the residual of the caller's equation,
        for both normalisations (for ``rw`` the SPD system's residual, D̃/max d̃ times it, is
        weighted back by max d̃/D̃ before its norm is taken, so hubs do not hide it). Every
        method's result is checked against the same rule (up to rounding) before it is
        reported as converged (:attr:`SolveInfo.converged`).
    maxiter : int, optional
        CG/Chebyshev iteration cap (default 10·n). Hitting it warns with
        :class:`ConvergenceWarning`.
    return_info : bool
        Also return a :class:`SolveInfo` with iterations and the achieved residual.
    %(symmetrize)s
    %(weight)s
    %(nodelist)s
    max_nodes : int
        Size guard for ``method="dense"``.
    workers : int or None
        CPU threads for the sparse product of CG and Chebyshev (row blocks; ``None``: the cores
        this process may use). Results do not depend on it.

    Returns
    -------
    F : ndarray, shape of ``X``: (n,) or (n, d)
        Same float dtype as X (float32 kept; the solve itself runs in float64).
    info : SolveInfo, only if ``return_info``

    Notes
    -----
    Every λ > 0 is solved accurately, up to λ → ∞ where F tends to the projection of X onto
    the null space of L̃ (the mean of X over each connected component, weighted by D̃ for
    ``rw`` and in the D̃^{1/2} direction for ``sym``): that part is computed exactly and the
    rest of X is solved for with the matrix scaled by 1/λ, so the error does not grow with λ
    (see the module docstring). Formed directly, (I + λL̃) has an error of λ·eps64 relative,
    which before made the answer wrong by O(1) at λ ≈ 1e16.

    float32 X is solved in float64 and rounded once at the end, so its error is that of
    float32 (≈ 6e-8), whatever λ; contrast :func:`ngc_ref.neumann_propagate`, whose float32
    series has an error growing like eps(float32)·(λ+1). Memory: about 10 (CG, Chebyshev) or
    6 (direct, dense) float64 n x d arrays besides the matrices; they must fit the memory
    budget of :mod:`ngc_ref._memory` (sparse X is densified too).

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref import gsd_solve
    >>> F, info = gsd_solve(nx.path_graph(4), np.arange(4.0), lam=1.0, return_info=True)
    >>> F.round(4), info.method, info.residual < 1e-12
    (array([0.2941, 1.0805, 2.0421, 2.5558]), 'direct', True)
    """
    lam = check_lam(lam)
    norm = check_norm(norm)
    An, d, _ = _normalized_adjacency(A, norm, symmetrize=symmetrize, weight=weight,
                                     nodelist=nodelist)
    return _gsd_solve_normalized(An, d, X, lam, norm, method=method, rtol=rtol, atol=atol,
                                 maxiter=maxiter, return_info=return_info, max_nodes=max_nodes,
                                 workers=workers)


fill_doc(gsd_solve)


def _gsd_solve_normalized(An, d, X, lam, norm, *, method="auto", rtol=1e-10, atol=0.0,
                          maxiter=None, return_info=False, max_nodes=DEFAULT_MAX_DENSE_NODES,
                          workers=None):
    """:func:`gsd_solve` on Ã_norm and ``d``, the degrees d̃ or any common multiple of them
    (only their ratios are used): validate, resolve ``"auto"``, split off the null space, call
    one of the ``_solve_*`` functions on the SPD system, and check its answer."""
    method = check_option(method, "method", METHODS)
    rtol = check_scalar(rtol, "rtol", min_val=0.0)
    atol = check_scalar(atol, "atol", min_val=0.0)
    if rtol == 0.0 and atol == 0.0:
        raise ValueError("rtol and atol cannot both be 0: the stopping rule could never be met")
    n = An.shape[0]
    if maxiter is None:
        maxiter = max(10 * n, 100)
    maxiter = check_scalar(maxiter, "maxiter", min_val=1, integer=True)
    X = check_array(X, n_rows=n, ensure_2d=False, what=f"gsd_solve(method={method!r})")
    vector = X.ndim == 1
    if vector:
        X = X[:, None]
    gpu = _backend.on_gpu(An, X)
    out_dtype = X.dtype
    xp, _ = _backend.namespaces(gpu)
    method = _resolve_method(method, n, An.nnz, gpu)
    if not gpu:
        # float64 n x d arrays alive at the peak: X, B, F∞, B⊥, the solution and, for CG, its
        # five recurrence buffers.
        _memory.check_dense_work(X.shape, 8, 10 if method in ("cg", "chebyshev") else 6,
                                 f"gsd_solve(method={method!r})",
                                 "pass X a block of columns at a time (each column is solved "
                                 "on its own)", detail="the solution and the solver's buffers")
    if n == 0 or X.shape[1] == 0:
        F, info = X.astype(out_dtype, copy=True), SolveInfo(method, converged=True, residual=0.0)
        F = F.ravel() if vector else F
        return (F, info) if return_info else F
    X64 = X.astype(np.float64, copy=False)
    sysm = _spd_system(An.astype(np.float64), d.astype(np.float64), lam, norm, gpu)
    # F = F∞ + Z: F∞, the projection of X onto null(L̃) (the λ → ∞ limit), exactly; Z solves
    # M Z = B⊥ with the part of the right-hand side outside the null space (see _spd_system).
    F_inf = sysm.project(X64)
    F_inf[sysm.single] = X64[sysm.single]
    B_perp = X64 - F_inf
    if norm == "rw":
        B_perp *= sysm.mass[:, None]
    B_perp[sysm.single] = 0.0
    B = X64 * sysm.mass[:, None] if norm == "rw" else X64
    # rtol and atol are stated for the caller's (I + λL̃)F = X: the rw system's residual is
    # mass·(X − (I + λL̃)F), so its rows are weighted back by 1/mass before the norm is taken
    # (bounding it by the unweighted norm would let a hub's row hide small-degree rows).
    bnorm = xp.sqrt(_coldot(X64, X64, xp))
    rscale = 1.0 / sysm.mass if norm == "rw" else None
    if method == "cg":
        Z, info = _solve_cg(sysm.M, B_perp, sysm.Minv_diag, rtol=rtol, atol=atol,
                            maxiter=maxiter, bnorm=bnorm, workers=workers, rscale=rscale)
    elif method == "chebyshev":
        # Precondition with D̃ (rw) or nothing (sym), not Jacobi: then the spectrum is exactly
        # that of a·I + b·L̃, inside [a, a + 2b].
        Z, info = _solve_chebyshev(sysm.M, B_perp, 1.0 / sysm.mass if norm == "rw" else None,
                                   sysm.a, sysm.a + 2.0 * sysm.b, rtol=rtol, atol=atol,
                                   maxiter=maxiter, bnorm=bnorm, workers=workers,
                                   rscale=rscale)
    elif method == "direct":
        Z, info = _solve_direct(sysm.M, B_perp, list(sysm.nontrivial_components()),
                                sysm.norm_M)
    else:
        # The matrix and the LU copy that solve makes of it.
        check_dense_size(n, max_nodes, "gsd_solve(method='dense')", arrays=2)
        Z, info = _solve_dense(sysm.M, B_perp, list(sysm.nontrivial_components()),
                               sysm.norm_M)
    if not info.converged:
        name = "CG" if method == "cg" else "Chebyshev"
        warnings.warn(f"gsd_solve: {name} did not reach rtol={rtol:g} in maxiter={maxiter} "
                      f"iterations (final max relative residual "
                      f"{info.residual_history[-1]:.3e})", ConvergenceWarning, stacklevel=3)
    Z -= sysm.project(Z)
    Z[sysm.single] = 0.0
    # Check the answer on the system itself: M Z = B⊥ is (I + λL̃)F = X (times D̃/max d̃ for
    # rw, weighted back here) with L̃F∞ = 0 used exactly, so nothing of size λ is rounded
    # against 1.
    R = B_perp - sysm.M @ Z
    slack = _rounding_slack(sysm, B, Z, xp)
    if norm == "rw":
        R /= sysm.mass[:, None]
        slack = slack / float(sysm.mass.min())
    rnorm = xp.sqrt(_coldot(R, R, xp))
    allowed = xp.maximum(xp.maximum(rtol * bnorm, atol), slack)
    if info.converged and bool((rnorm > allowed).any()):
        info.converged = False
        worst = float(xp.max(rnorm / xp.where(bnorm > 0, bnorm, 1.0)))
        warnings.warn(f"gsd_solve(method={method!r}): the residual of the solution, "
                      f"max_j ‖x_j − (I + λL̃) f_j‖/‖x_j‖ = {worst:.3e}, exceeds "
                      f"rtol={rtol:g} (and atol={atol:g}) beyond rounding; the result is not "
                      f"accurate",
                      ConvergenceWarning, stacklevel=3)
    info.residual = _relative_column_norms(R, X64, xp)
    F = F_inf
    F += sysm.a * Z
    F = F.astype(out_dtype, copy=False)
    F = F.ravel() if vector else F
    return (F, info) if return_info else F


def _resolve_method(method, n, nnz, gpu):
    """The method to run: ``"auto"`` resolved, and ``"direct"`` refused where it cannot run.

    ``"auto"``: ``"direct"`` up to :data:`AUTO_DIRECT_MAX_NODES` nodes on the CPU when the
    estimated LU factors (:func:`direct_factor_estimate`) fit the memory budget, else ``"cg"``.
    """
    factor_bytes, factor_entries, dbar = direct_factor_estimate(n, nnz)
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
    return method


def _rounding_slack(sysm, B, Z, xp):
    """Per column, the residual that rounding alone can leave: 100·eps·(‖b‖ + ‖M‖·‖z‖)."""
    eps = np.finfo(np.float64).eps
    return 100.0 * eps * (xp.sqrt(_coldot(B, B, xp)) + sysm.norm_M * xp.sqrt(_coldot(Z, Z, xp)))


def _relative_column_norms(R, X, xp):
    """max_j ‖r_j‖ / ‖x_j‖ (‖r_j‖ where x_j = 0)."""
    xn = xp.linalg.norm(X, axis=0)
    rn = xp.linalg.norm(R, axis=0)
    rel = xp.where(xn > 0, rn / xp.where(xn > 0, xn, 1.0), rn)
    return float(rel.max()) if rel.size else 0.0


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


class _SPDSystem:
    """The GSD equation as an SPD system with its null space split off (see ``_spd_system``).

    Attributes: ``M`` (CSR), ``a``, ``b`` (M = a·mass + b·Lap), ``mass`` (1 for sym, d̃/max d̃
    for rw), ``Minv_diag``, ``single`` (isolated nodes), ``norm_M`` (‖M‖_∞), ``labels``,
    ``n_components`` and the null basis ``basis`` with its weights ``weight``.
    """

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def project(self, Y):
        """The projection of Y onto null(L̃) along range(L̃): per component C,
        basis_C (weight_Cᵀ Y_C) / (weight_Cᵀ basis_C)."""
        coef = (self.E @ (self.weight[:, None] * Y)) / self.denom[:, None]
        return self.basis[:, None] * coef[self.labels]

    def nontrivial_components(self):
        """(member indices, constraint vector) of each component with more than one node."""
        labels = _backend.to_numpy(self.labels)
        order = np.argsort(labels, kind="stable")
        cuts = np.flatnonzero(np.diff(labels[order])) + 1
        weight = _backend.to_numpy(self.weight)
        for idx in np.split(order, cuts):
            if idx.size > 1:
                yield idx, weight[idx]


def _spd_system(An, d, lam, norm, gpu):
    """The SPD system equivalent to (I + λL̃)F = X, scaled so that no entry exceeds O(1).

    With mass = I (sym) or D̃ (rw, divided by max d̃) and Lap = mass − mass·Ã_norm
    (= L̃_sym, or the combinatorial Laplacian of Ã, scaled), the equation reads
    (mass + λ Lap) F = mass X. It is solved as M Z' = B⊥ with M = a·mass + b·Lap,
    (a, b) = (1, λ) for λ <= 1 and (1/λ, 1) above, so Z = a·Z', and B⊥ = mass (X − F∞) where
    F∞ is the projection of X onto null(Lap) (per connected component: D̃^{1/2}1_C for sym,
    1_C for rw). Then M is never formed with 1 + λ rounded to λ, and the right-hand side has no
    part in the direction that M barely resolves when λ is huge. Isolated nodes (F = X there)
    get the diagonal (a + b)·mass and a zero right-hand side.
    """
    xp, xsp = _backend.namespaces(gpu)
    n = An.shape[0]
    if lam <= 1.0:
        a, b = 1.0, lam
    else:
        a, b = 1.0 / lam, 1.0
    if norm == "sym":
        mass = xp.ones(n)
        W = An
        basis = xp.sqrt(d / d.max()) if n else xp.ones(0)
        weight = basis
    else:
        mass = d / d.max() if n else xp.ones(0)
        W = xsp.diags(mass) @ An
        W = (W + W.T) * 0.5  # remove the rounding asymmetry of D̃·(D̃⁻¹Ã)
        basis = xp.ones(n)
        weight = mass
    w_diag = W.diagonal()
    lap_diag = mass - w_diag
    single = xp.asarray(_backend.to_numpy(An.indptr[1:] - An.indptr[:-1]) == 1)
    diag = a * mass + b * lap_diag
    diag[single] = (a + b) * mass[single]
    M = xsp.diags(diag) - b * (W - xsp.diags(w_diag))
    M = _backend.csr_type(gpu)(M)
    M.sort_indices()
    n_comp, labels = _components(An, gpu)
    labels = xp.asarray(labels)
    E = _backend.csr_type(gpu)((xp.ones(n), (labels, xp.arange(n))), shape=(n_comp, n))
    norm_M = float(abs(M).sum(axis=1).max()) if n else 0.0
    return _SPDSystem(M=M, a=a, b=b, mass=mass, Minv_diag=1.0 / diag,
                      single=single,
                      norm_M=norm_M, labels=labels, n_components=n_comp, basis=basis,
                      weight=weight, E=E, denom=E @ (weight * basis))


def _components(An, gpu):
    """(number, labels) of the connected components of the graph of ``An``."""
    from scipy.sparse.csgraph import connected_components
    if gpu:
        # CuPy has no graph search without pylibcugraph: the pattern (indices only, O(nnz)
        # integers) goes to the host for the labels, which come back with the caller.
        An = sp.csr_array((np.ones(An.nnz, dtype=np.int8), An.indices.get(), An.indptr.get()),
                          shape=An.shape)
    return connected_components(An, directed=False)


def _solve_direct(M, B, constraints, scale):
    """Z with M Z = B and c_Cᵀ Z = 0 per component C, by sparse LU of the bordered system

    .. math:: \\begin{pmatrix} M & C \\\\ C^\\top & 0 \\end{pmatrix}
              \\begin{pmatrix} Z \\\\ \\kappa \\end{pmatrix} =
              \\begin{pmatrix} B \\\\ 0 \\end{pmatrix}

    (κ = 0 at the solution, as 1_Cᵀ B = 0). It is non-singular for every λ, while M alone is
    singular to rounding past λ ≈ 1/eps, so SuperLU's partial pivoting never divides by a
    rounding error. ``constraints``: (member indices, constraint vector c_C) per component of
    more than one node; ``scale`` (‖M‖_∞) sizes the border. Returns (Z, SolveInfo) with the
    nonzeros of the LU factors (the fill-in)."""
    n = M.shape[0]
    rows, cols, vals = [], [], []
    scale = scale if scale > 0 else 1.0
    for k, (idx, c) in enumerate(constraints):
        rows.append(idx)
        cols.append(np.full(idx.size, k))
        vals.append(c * (scale / np.abs(c).max()))
    k = len(rows)
    if k == 0:
        K, rhs = sp.csc_matrix(M), np.asarray(B)
    else:
        C = sp.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(n, k))
        K = sp.csc_matrix(sp.bmat([[M, C], [C.T, None]], format="csc"))
        rhs = np.vstack([np.asarray(B), np.zeros((k, B.shape[1]))])
    lu = spla.splu(K, permc_spec="MMD_AT_PLUS_A")
    Z = np.ascontiguousarray(lu.solve(rhs)[:n])
    return Z, SolveInfo("direct", converged=True, factor_nnz=int(lu.L.nnz + lu.U.nnz))


def _solve_dense(M, B, constraints, scale):
    """Z with M Z = B by a dense LU (``numpy.linalg.solve``) of the lifted matrix

    .. math:: M + \\sum_C \\sigma\\, c_C c_C^\\top

    (c_C the unit constraint vector of component C, σ = ``scale`` = ‖M‖_∞). The exact Z
    satisfies c_Cᵀ Z = 0, so it solves the lifted system too; the lift only moves the
    eigenvalue a·mass of the null direction (which is 0 to rounding for λ past 1/eps) up to σ,
    so the LU never meets a (numerically) singular matrix. Returns (Z, SolveInfo)."""
    xp, _ = _backend.namespaces(_backend.on_gpu(M))
    Md = M.toarray()
    for idx, c in constraints:
        c = c / np.linalg.norm(c)
        idx_x, c_x = xp.asarray(idx), xp.asarray(c)
        for j, cj in zip(idx, c):   # column by column: no |C| x |C| temporary
            Md[idx_x, int(j)] += (scale * float(cj)) * c_x
    return xp.linalg.solve(Md, B), SolveInfo("dense", converged=True)


def _solve_cg(M, B, Minv_diag, *, rtol, atol, maxiter, bnorm=None, workers=None, rscale=None):
    """Z with M Z = B by Jacobi-preconditioned CG on all columns at once (:func:`_block_cg`).

    ``workers``: CPU threads of the sparse product; ``bnorm``, ``rscale``: see
    :func:`_stopping_rule`. Returns (Z, SolveInfo) with the iterations, the residual history
    and whether the stopping rule was met."""
    gpu = _backend.on_gpu(M)
    xp, _ = _backend.namespaces(gpu)
    with _product(M, gpu, workers) as mul:
        Z, it, history, converged = _block_cg(mul, B, Minv_diag, rtol, atol, maxiter, xp,
                                               bnorm=bnorm, rscale=rscale)
    return Z, SolveInfo("cg", converged, iterations=it, residual_history=history)


def _solve_chebyshev(M, B, Minv_diag, lmin, lmax, *, rtol, atol, maxiter, bnorm=None,
                     workers=None, rscale=None):
    """Z with M Z = B by Chebyshev iteration (:func:`_chebyshev`), the eigenvalues of
    diag(Minv_diag)·M in [lmin, lmax] (``Minv_diag`` None: no preconditioner).

    Returns (Z, SolveInfo) as :func:`_solve_cg`."""
    gpu = _backend.on_gpu(M)
    xp, _ = _backend.namespaces(gpu)
    with _product(M, gpu, workers) as mul:
        Z, it, history, converged = _chebyshev(mul, B, Minv_diag, lmin, lmax, rtol, atol,
                                               maxiter, xp, bnorm=bnorm, rscale=rscale)
    return Z, SolveInfo("chebyshev", converged, iterations=it, residual_history=history)


def _coldot(U, V, xp):
    """Column-wise inner products Σ_i U_ij V_ij without an n x k temporary."""
    return xp.einsum("ij,ij->j", U, V)


def _stopping_rule(B, rtol, atol, xp, bnorm=None, rscale=None):
    """(‖r0_j‖, the per-column threshold max(rtol·‖b_j‖, atol), ‖b_j‖ with 0 replaced by 1).

    ``B`` is the right-hand side the iteration starts from (its initial residual r0); ``bnorm``
    the norms ‖b_j‖ of the system's own right-hand side when that differs (the deflated solve
    iterates on B⊥ but keeps the stopping rule of the whole system), default ‖B_j‖.
    ``rscale``: row weights w (or None) under which residual norms are taken, ‖w ∘ r_j‖: the
    rw system's residual weighted back to the caller's equation.
    """
    r0 = _residual_norms(B, rscale, xp)
    bnorm = r0 if bnorm is None else bnorm
    return r0, xp.maximum(rtol * bnorm, atol), xp.where(bnorm > 0, bnorm, 1.0)


def _residual_norms(R, rscale, xp, out=None):
    """‖w ∘ r_j‖ per column (w = ``rscale``, or 1 for None); ``out`` a scratch array like R."""
    if rscale is not None:
        R = xp.multiply(R, rscale[:, None], out=out)
    return xp.sqrt(_coldot(R, R, xp))


def _block_cg(mul, B, Minv_diag, rtol, atol, maxiter, xp, bnorm=None, rscale=None):
    """Jacobi-preconditioned CG on every column of B at once.

    ``mul(P, Q)`` writes M @ P into Q. Each column has its own α, β (independent
    recurrences), so columns that are linearly dependent cannot break the iteration the way a
    true block-Krylov method can; converged columns drop out of the active set. Every update is
    in place into preallocated buffers: one sparse product and a few streaming passes per
    iteration, no allocation. Residual norms are taken under the row weights ``rscale`` (see
    :func:`_stopping_rule`). Returns (F, iterations, max-residual history, converged).
    """
    n, k = B.shape
    F = xp.zeros_like(B)
    r0, thresh, safe_b = _stopping_rule(B, rtol, atol, xp, bnorm, rscale)
    active = xp.flatnonzero(r0 > thresh)
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
        rnorm = _residual_norms(Ra, rscale, xp, out=T)
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


def _chebyshev(mul, B, Minv_diag, lmin, lmax, rtol, atol, maxiter, xp, bnorm=None,
               rscale=None):
    """Preconditioned Chebyshev iteration for M F = B (Saad, Alg. 12.1).

    ``mul(D, Q)`` writes M @ D into Q; ``Minv_diag`` is the diagonal preconditioner, or None
    for none. The eigenvalues of diag(Minv_diag)·M must lie in [lmin, lmax]. Stops when every
    column has ‖b_j − M f_j‖ <= max(rtol·‖b_j‖, atol) (the recurrence's residual, updated
    exactly; its norms under the row weights ``rscale``, see :func:`_stopping_rule`). Returns
    (F, iterations, max-residual history, converged).
    """
    theta = 0.5 * (lmax + lmin)
    delta = 0.5 * (lmax - lmin)
    sigma = theta / delta
    F = xp.zeros_like(B)
    R = B.copy()
    r0, thresh, safe_b = _stopping_rule(B, rtol, atol, xp, bnorm, rscale)
    history = []
    if not bool((r0 > thresh).any()):
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
        rnorm = _residual_norms(R, rscale, xp, out=T)
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
