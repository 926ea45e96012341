"""The exact GSD solution F = (I + λL̃)⁻¹ X (paper Eq. 2), by CG, sparse LU or dense solve.

Both normalisations are solved through a symmetric positive definite system:

* ``"sym"``: ((1+λ) I − λ Ã_sym) F = X, eigenvalues in [1, 1+2λ);
* ``"rw"``: (I + λ(I − D̃⁻¹Ã)) F = X is not symmetric, so we solve the equivalent
  ((1+λ) D̃ − λ Ã) F = D̃ X (multiply by D̃), which is SPD. Only the equation is weighted:
  the unknown F, an initial guess ``x0`` and the iterates a ``callback`` sees are the caller's.

Large λ. Formed as written, these matrices lose the identity against λ: past λ ≈ 1/eps
(≈ 4.5e15) 1 + λ rounds to λ and the matrix is singular to rounding (before, the error of the
answer already grows like λ·eps). So every method splits F = F∞ + Z, where F∞ is the projection
of X onto the null space of L̃ (per connected component C: D̃^{1/2}1_C for ``sym``, 1_C for
``rw``) — the exact λ → ∞ limit, computed directly — and Z solves the system for the rest of X
with the matrix scaled by 1/λ (a·mass + b·Lap with (a, b) = (1/λ, 1) for λ > 1, and Lap formed
explicitly), constrained to have no part in the null space. The accuracy then does not depend
on λ: about eps over the spectral gap of the graph, for λ = 1e-12 ... 1e300.

A solve runs in four steps, one function each: validate the arguments (:func:`_validate`),
split off the null space (:func:`_split`), run the method's solver from :data:`SOLVERS`, and
verify the answer on the caller's equation (:func:`_verify`). A new method is one entry of
:data:`SOLVERS`: a function ``(system, problem) -> (Z, SolveInfo)`` solving M Z = B for the
:class:`_SPDSystem` and :class:`_Problem` records.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field, replace

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import _backend, _memory, exceptions
from ._docs import fill_doc
from ._order import Reorder, check_reorder
from ._spmm import SparseProduct
from ._validation import (DEFAULT_MAX_DENSE_NODES, check_array, check_dense_size, check_lam,
                          check_norm, check_option, check_scalar, _warn)
from .normalize import _normalized_adjacency

#: ``method="auto"`` uses the sparse LU factorisation up to this many nodes, CG above it.
AUTO_DIRECT_MAX_NODES = 5000

#: Fill of SuperLU (MMD on AᵀA + A) measured on Erdős–Rényi graphs with n = 1000 ... 8000:
#: nnz(L + U)/n² ≈ 0.021, 0.089, 0.26 for mean degree 3, 5, 10, flat in n (separators of
#: size Θ(n)). The estimate takes 0.033·(d̄ − 2) for that ratio, just above each measurement.
_FILL_PER_DEGREE = 0.033

#: Tolerance of the check that ``A_norm`` and ``degrees`` belong together: Ã_sym D̃^{1/2}1 =
#: D̃^{1/2}1 and Ã_rw 1 = 1 hold to a few float32 roundings per entry (all terms positive).
_CONSISTENCY_RTOL = 1e-5


def __getattr__(name):
    # The former home of ConvergenceWarning, kept: the class lives in ngc_ref.exceptions and is
    # made there on first use (it subclasses scikit-learn's, which import ngc_ref does not load).
    if name == "ConvergenceWarning":
        return exceptions.ConvergenceWarning
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


_SOLVE_PARAMS = """\
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
        The methods are the keys of :data:`SOLVERS` (besides ``"auto"``).
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
    x0 : array_like, shape of ``X``, optional
        Initial guess for F, in the caller's scale (for ``rw`` too: only the equation is
        weighted, not the unknown), as ``x0`` of :func:`scipy.sparse.linalg.cg`. CG and
        Chebyshev start from it (a column it already solves to the tolerance takes no
        iteration); the direct methods have no use for a guess and ignore it (it is still
        validated). Default: start from F∞, the null-space part, which every method computes
        exactly.
    callback : callable, optional
        Called as ``callback(fk)`` after each iteration of CG or Chebyshev, as in SciPy's
        solvers, with ``fk`` the current iterate in the caller's scale, shape and dtype (for
        ``rw`` too): F∞ + a·Z_k, whose residual ‖x_j − (I + λL̃) f_j‖/‖x_j‖ is the one
        recorded in :attr:`SolveInfo.residual_history`. The returned F is the last iterate
        with its component in the null space of L̃ removed (the exact F has none; the Jacobi
        preconditioner of CG leaves one of the order of the tolerance). The direct methods
        call it once, with the solution. Each call costs one n x d array.
    return_info : bool
        Also return a :class:`SolveInfo` with iterations and the achieved residual.
"""

_SOLVE_TAIL = """\
    max_nodes : int
        Size guard for ``method="dense"``.
    workers : int or None
        CPU threads for the sparse product of CG and Chebyshev (row blocks; ``None``: the cores
        this process may use). Results do not depend on it.
    %(reorder)s
        CG and Chebyshev only (the direct methods order the matrix themselves): the system,
        X, ``x0`` and the iterates ``callback`` sees are permuted with it (``callback`` sees
        them in the caller's order). ``"auto"`` counts Chebyshev's a-priori iterations for the
        interval [1, 1 + 2λ] and ``rtol`` (at most ``maxiter``) as the call's products.

    Returns
    -------
    F : ndarray, shape of ``X``: (n,) or (n, d)
        Same float dtype as X (float32 kept; the solve itself runs in float64).
    info : SolveInfo, only if ``return_info``
"""


def gsd_solve(A, X, lam, *, norm="sym", method="auto", rtol=1e-10, atol=0.0, maxiter=None,
              x0=None, callback=None, return_info=False, symmetrize=False, weight="weight",
              nodelist=None, max_nodes=DEFAULT_MAX_DENSE_NODES, workers=None, reorder="auto"):
    """F = (I + λL̃)⁻¹ X, the exact minimiser of the GSD objective (paper Eq. 1-2).

    .. math::

        F = \\arg\\min_F \\|F - X\\|_F^2 + \\lambda\\,\\mathrm{tr}(F^\\top \\tilde L F)
          = (I + \\lambda \\tilde L)^{-1} X, \\qquad \\tilde L = I - \\tilde{\\mathcal{A}}.

    (For ``norm="rw"`` L̃ is not symmetric and the closed form is the stationary point of the
    paper's Eq. 1 with L̃ as written; see the module docstring for the SPD system solved.)

    Parameters
    ----------
    %(A)s
    X : array_like or sparse matrix of shape (n,) or (n, d)
        The signal, one row per node (the right-hand side).
    lam : float
        λ > 0, the weight of the smoothness term.
    %(norm)s
    %(solve_options)s
    %(symmetrize)s
    %(weight)s
    %(nodelist)s
    %(solve_tail)s

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
    >>> import networkx as nx
    >>> import numpy as np
    >>> from ngc_ref import gsd_solve
    >>> F, info = gsd_solve(nx.path_graph(4), np.arange(4.0), lam=1.0, return_info=True)
    >>> F.round(4), info.method, info.residual < 1e-12
    (array([0.2941, 1.0805, 2.0421, 2.5558]), 'direct', True)

    CG from a warm start, watching the residual of each iterate:

    >>> G, X = nx.cycle_graph(50), np.linspace(0.0, 1.0, 50)
    >>> seen = []
    >>> F = gsd_solve(G, X, 8.0, method="cg", x0=X, callback=seen.append)
    >>> len(seen) > 0 and np.allclose(seen[-1], F)
    True
    """
    lam = check_lam(lam)
    norm = check_norm(norm)
    An, d, _ = _normalized_adjacency(A, norm, symmetrize=symmetrize, weight=weight,
                                     nodelist=nodelist)
    return _solve(An, d, X, lam, norm, dict(
        method=method, rtol=rtol, atol=atol, maxiter=maxiter, x0=x0, callback=callback,
        max_nodes=max_nodes, workers=workers, reorder=reorder), return_info)


def gsd_solve_normalized(A_norm, degrees, X, lam, *, norm="sym", method="auto", rtol=1e-10,
                         atol=0.0, maxiter=None, x0=None, callback=None, return_info=False,
                         max_nodes=DEFAULT_MAX_DENSE_NODES, workers=None, reorder="auto"):
    """:func:`gsd_solve` for a normalised adjacency already built: F = (I + λL̃)⁻¹ X.

    .. math::

        (I + \\lambda \\tilde L) F = X, \\qquad \\tilde L = I - \\tilde{\\mathcal{A}},

    with Ã_norm and d̃ as :func:`ngc_ref.normalized_adjacency` returns them, so that one
    normalisation serves many solves (several λ, blocks of columns). Everything else is
    :func:`gsd_solve`'s.

    Parameters
    ----------
    A_norm : sparse matrix, shape (n, n)
        Ã_norm = D̃^{-1/2} Ã D̃^{-1/2} (``norm="sym"``) or D̃⁻¹Ã (``"rw"``), self-loops
        stored (``normalized_adjacency(A, norm=norm, return_degrees=True)[0]``).
    degrees : array_like, shape (n,)
        d̃ = Ã1, or any positive multiple of it (only ratios are used). ValueError when it
        does not belong to ``A_norm``: Ã_sym d̃^{1/2} = d̃^{1/2} and Ã_rw 1 = 1 are checked
        (relative tolerance 1e-5).
    X : array_like or sparse matrix of shape (n,) or (n, d)
        The right-hand side, one row per node.
    lam : float
        λ > 0.
    %(norm)s
        Here: the normalisation ``A_norm`` was built with.
    %(solve_options)s
    %(solve_tail)s

    See Also
    --------
    gsd_solve : the same from the adjacency.
    ngc_ref.normalized_adjacency : builds ``A_norm`` and ``degrees``.

    Examples
    --------
    >>> import numpy as np
    >>> from networkx import path_graph
    >>> from ngc_ref import normalized_adjacency
    >>> from ngc_ref.solve import gsd_solve_normalized
    >>> An, d = normalized_adjacency(path_graph(4), norm="rw", return_degrees=True)
    >>> [gsd_solve_normalized(An, d, np.arange(4.0), lam, norm="rw").round(3)
    ...  for lam in (1.0, 1e6)]
    [array([0.353, 1.059, 1.941, 2.647]), array([1.5, 1.5, 1.5, 1.5])]
    """
    return _solve(A_norm, degrees, X, lam, norm, dict(
        method=method, rtol=rtol, atol=atol, maxiter=maxiter, x0=x0, callback=callback,
        max_nodes=max_nodes, workers=workers, reorder=reorder), return_info,
        check_operator=True)


def _fill_solve_doc(func):
    """Put the parameter paragraphs both solve functions share into ``func.__doc__``, then
    :func:`~ngc_ref._docs.fill_doc` the library-wide ones."""
    if func.__doc__:
        func.__doc__ = (func.__doc__.replace("    %(solve_options)s\n", _SOLVE_PARAMS)
                        .replace("    %(solve_tail)s\n", _SOLVE_TAIL))
    return fill_doc(func)


_fill_solve_doc(gsd_solve)
_fill_solve_doc(gsd_solve_normalized)


def _solve(An, d, X, lam, norm, options, return_info, check_operator=False):
    """Validate, split, solve, verify (see the module docstring), in the locality order
    of :func:`_reordered` when it pays."""
    req = _validate(An, d, X, lam, norm, options, check_operator)
    if req.X.shape[0] == 0 or req.X.shape[1] == 0:
        info = SolveInfo(req.method, converged=True, residual=0.0)
        F = _shape_like_caller(req, req.X.astype(req.out_dtype, copy=True))
        return (F, info) if return_info else F
    An, d, req, order = _reordered(An, d, req, options["reorder"])
    system = _spd_system(An.astype(np.float64), d.astype(np.float64), req.lam, req.norm,
                         req.gpu)
    problem, F_inf = _split(system, req)
    Z, info = SOLVERS[req.method](system, problem)
    F = _verify(system, problem, req, F_inf, Z, info)
    if order is not None:
        F = order.restore(F)
    return (F, info) if return_info else F


def _reordered(An, d, req, reorder):
    """``(An, d, req, order)``: the problem in the locality order of :mod:`ngc_ref._order`
    (P Ã_norm Pᵀ, P d̃, P X, P x0, a callback that sees Pᵀ F_k) for CG and Chebyshev when
    ``reorder`` asks for it, else unchanged with ``order`` None."""
    if reorder is None or req.method not in ("cg", "chebyshev"):
        return An, d, req, None
    An = _backend.csr_type(req.gpu)(An)
    order = Reorder(An, reorder, gpu=req.gpu).ordering(_iterations(req), req.X.shape[1], 8)
    if order is None:
        return An, d, req, None
    what = f"gsd_solve(method={req.method!r}, reorder={reorder!r})"
    step = req.callback
    req = replace(req, X=order.take(req.X, what, work_arrays=10),
                  x0=None if req.x0 is None else order.take(req.x0, what),
                  callback=None if step is None else (lambda fk: step(order.restore(fk))))
    return order.matrix(An, what), d[order.perm], req, order


def _iterations(req):
    """The products an iterative solve is expected to make: Chebyshev's a-priori count for
    the interval [1, 1 + 2λ] (κ = 1 + 2λ, error reduced by (√κ − 1)/(√κ + 1) per iteration)
    to ``rtol``, at most ``maxiter`` (CG needs at most about as many)."""
    root = math.sqrt(1.0 + 2.0 * req.lam)
    rate = math.log1p(2.0 / (root - 1.0)) if root > 1.0 else math.inf
    if rate == 0.0:
        return req.maxiter
    steps = math.log(2.0 / max(req.rtol, np.finfo(np.float64).eps)) / rate
    return int(min(req.maxiter, max(1, math.ceil(steps))))


# --- validate ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Request:
    """The validated arguments of one solve: X as 2-D (``vector``: it came 1-D), the resolved
    method, the tolerances, ``x0`` as 2-D float64 or None, and the rest as given."""

    X: object
    vector: bool
    out_dtype: object
    gpu: bool
    lam: float
    norm: str
    method: str
    rtol: float
    atol: float
    maxiter: int
    x0: object
    callback: object
    max_nodes: int
    workers: object


def _validate(An, d, X, lam, norm, options, check_operator):
    """The :class:`_Request` for these arguments; TypeError/ValueError naming a bad one."""
    lam, norm = check_lam(lam), check_norm(norm)
    if check_operator:
        An, d = _check_operator(An, d, norm)
    n = An.shape[0]
    rtol, atol, maxiter = _check_tolerances(options["rtol"], options["atol"],
                                            options["maxiter"], n)
    method = options["method"]
    what = f"gsd_solve(method={method!r})"
    X = check_array(X, n_rows=n, ensure_2d=False, what=what)
    vector = X.ndim == 1
    X = X[:, None] if vector else X
    gpu = _backend.on_gpu(An, X)
    method = _resolve_method(method, n, An.nnz, gpu)
    # float64 n x d arrays alive at the peak: X, B⊥, F∞, the solution and the check's residual
    # and product (the iterative solvers check for their buffers too); on the device for CuPy.
    _memory.check_dense_work(X.shape, 8, 6, f"gsd_solve(method={method!r})", _COLUMNS_HINT,
                             detail="the solution and the solver's buffers", gpu=gpu)
    x0 = _check_x0(options["x0"], X.shape, vector, gpu)
    check_reorder(options["reorder"])
    callback = options["callback"]
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable (called as callback(fk) after each "
                        f"iteration) or None; got {type(callback).__name__}")
    return _Request(X=X, vector=vector, out_dtype=X.dtype, gpu=gpu, lam=lam, norm=norm,
                    method=method, rtol=rtol, atol=atol, maxiter=maxiter, x0=x0,
                    callback=callback, max_nodes=options["max_nodes"],
                    workers=options["workers"])


_COLUMNS_HINT = "pass X a block of columns at a time (each column is solved on its own)"


def _check_tolerances(rtol, atol, maxiter, n):
    """(rtol, atol, maxiter) checked; maxiter None becomes max(10·n, 100)."""
    rtol = check_scalar(rtol, "rtol", min_val=0.0)
    atol = check_scalar(atol, "atol", min_val=0.0)
    if rtol == 0.0 and atol == 0.0:
        raise ValueError("rtol and atol cannot both be 0: the stopping rule could never be met")
    if maxiter is None:
        maxiter = max(10 * n, 100)
    return rtol, atol, check_scalar(maxiter, "maxiter", min_val=1, integer=True)


def _check_x0(x0, shape, vector, gpu):
    """``x0`` as a 2-D float64 array of ``shape`` (the 2-D X), or None."""
    if x0 is None:
        return None
    x0 = check_array(x0, name="x0", ensure_2d=False)
    want = shape[:1] if vector else shape
    if x0.shape != want:
        raise ValueError(f"x0 must have the shape of X, {want}; got shape={x0.shape}")
    if _backend.on_gpu(x0) != gpu:
        raise TypeError("x0 must be on the same device as X and the graph (NumPy for "
                        "NumPy/SciPy input, CuPy for CuPy input)")
    x0 = x0.astype(np.float64, copy=False)
    return x0[:, None] if vector else x0


def _check_operator(An, d, norm):
    """``(A_norm as CSR, degrees as an array)``; ValueError unless they belong together."""
    gpu = _backend.is_cupy_sparse(An)
    if not (sp.issparse(An) or gpu) or An.ndim != 2 or An.shape[0] != An.shape[1]:
        raise TypeError(f"A_norm must be a square sparse matrix (Ã_norm from "
                        f"normalized_adjacency); got {type(An).__name__} of shape "
                        f"{getattr(An, 'shape', None)}")
    An = _backend.csr_type(gpu)(An)
    n = An.shape[0]
    d = check_array(d, name="degrees", n_rows=n, ensure_2d=False)
    _backend.on_gpu(An, d)    # both on one device, or TypeError
    if d.ndim != 1 or not bool((d > 0).all()):
        raise ValueError(f"degrees must be the n = {n} positive degrees d̃ = Ã1; got shape "
                         f"{d.shape}" + ("" if d.ndim != 1 else ", not all positive"))
    xp, _ = _backend.namespaces(gpu)
    u = d.astype(np.float64) ** 0.5 if norm == "sym" else xp.ones(n)
    err = xp.abs(An.astype(np.float64) @ u - u) / u
    if n and float(err.max()) > _CONSISTENCY_RTOL:
        raise ValueError(f"A_norm and degrees are not Ã_{norm} and d̃ of one graph: "
                         f"{'Ã_sym d̃^(1/2) = d̃^(1/2)' if norm == 'sym' else 'Ã_rw 1 = 1'} "
                         f"fails by {float(err.max()):.3g} (relative); build both with "
                         f"normalized_adjacency(A, norm={norm!r}, return_degrees=True)")
    return An, d


def _resolve_method(method, n, nnz, gpu):
    """The method to run: one of :data:`SOLVERS`, with ``"auto"`` resolved to ``"direct"`` up
    to :data:`AUTO_DIRECT_MAX_NODES` nodes on the CPU when the estimated LU factors
    (:func:`direct_factor_estimate`) fit the memory budget, else ``"cg"``."""
    method = check_option(method, "method", ("auto", *SOLVERS))
    if method != "auto":
        return method
    fits = n <= AUTO_DIRECT_MAX_NODES and not gpu and _memory.fits(
        direct_factor_estimate(n, nnz)[0])
    return "direct" if fits else "cg"


# --- split ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Problem:
    """What a solver of :data:`SOLVERS` solves: M Z = ``B`` (B⊥, n x d float64) for the
    :class:`_SPDSystem` it is given, under the stopping rule ‖w ∘ r_j‖ <= max(rtol·‖x_j‖,
    atol) (``bnorm`` = ‖x_j‖, w = ``rscale``, None for 1; see :func:`_stopping_rule`).

    ``Z0``: the initial guess (None: zero); ``step``: called with each iterate Z_k (None:
    nothing to call); ``maxiter``, ``workers``, ``max_nodes``: the caller's settings."""

    B: object
    Z0: object
    bnorm: object
    rscale: object
    rtol: float
    atol: float
    maxiter: int
    workers: object
    max_nodes: int
    step: object


def _split(system, req):
    """(:class:`_Problem`, F∞): F = F∞ + a·Z with F∞ the projection of X onto null(L̃) (the
    λ → ∞ limit), exactly, and Z to solve from M Z = B⊥ = mass·(X − F∞) (see
    :func:`_spd_system`); ``x0`` and ``callback`` translated to Z's scale."""
    xp, _ = _backend.namespaces(req.gpu)
    X64 = req.X.astype(np.float64, copy=False)
    F_inf = system.project(X64)
    F_inf[system.single] = X64[system.single]
    B_perp = X64 - F_inf
    if req.norm == "rw":
        B_perp *= system.mass[:, None]
    B_perp[system.single] = 0.0
    # rtol and atol are stated for the caller's (I + λL̃)F = X: the rw system's residual is
    # mass·(X − (I + λL̃)F), so its rows are weighted back by 1/mass before the norm is taken
    # (bounding it by the unweighted norm would let a hub's row hide small-degree rows).
    rscale = 1.0 / system.mass if req.norm == "rw" else None
    Z0 = None if req.x0 is None else _clean(system, (req.x0 - F_inf) / system.a)
    step = None
    if req.callback is not None:
        def step(Z):
            req.callback(_assemble(system, req, F_inf, Z))
    return _Problem(B=B_perp, Z0=Z0, bnorm=xp.sqrt(_coldot(X64, X64, xp)), rscale=rscale,
                    rtol=req.rtol, atol=req.atol, maxiter=req.maxiter, workers=req.workers,
                    max_nodes=req.max_nodes, step=step), F_inf


def _clean(system, Z):
    """Z without its part in null(L̃) and zero on isolated nodes (a new array): what the
    constraint of the split asks, and what rounding in a solver may have left."""
    Z = Z - system.project(Z)
    Z[system.single] = 0.0
    return Z


def _assemble(system, req, F_inf, Z):
    """F = F∞ + a·Z in the caller's dtype and shape."""
    F = F_inf + system.a * Z
    return _shape_like_caller(req, F.astype(req.out_dtype, copy=False))


def _shape_like_caller(req, F):
    return F.ravel() if req.vector else F


# --- verify --------------------------------------------------------------------------------

def _verify(system, problem, req, F_inf, Z, info):
    """F from the solver's Z, with ``info`` (a :class:`SolveInfo`) completed: the residual of
    the caller's equation, and ``converged`` False, with a :class:`ConvergenceWarning`, when
    it exceeds the stopping rule beyond rounding."""
    xp, _ = _backend.namespaces(req.gpu)
    Z = _clean(system, Z)
    # Check the answer on the system itself: M Z = B⊥ is (I + λL̃)F = X (times D̃/max d̃ for
    # rw, weighted back here) with L̃F∞ = 0 used exactly, so nothing of size λ is rounded
    # against 1.
    R = problem.B - system.M @ Z
    bnorm = problem.bnorm
    if req.norm == "rw":
        X64 = req.X.astype(np.float64, copy=False)
        slack = _rounding_slack(system, _residual_norms(X64, system.mass, xp), Z, xp)
        R /= system.mass[:, None]
        slack = slack / float(system.mass.min())
    else:
        slack = _rounding_slack(system, bnorm, Z, xp)
    rnorm = xp.sqrt(_coldot(R, R, xp))
    allowed = xp.maximum(xp.maximum(req.rtol * bnorm, req.atol), slack)
    if info.converged and bool((rnorm > allowed).any()):
        info.converged = False
        worst = float(xp.max(rnorm / xp.where(bnorm > 0, bnorm, 1.0)))
        _warn(f"gsd_solve(method={req.method!r}): the residual of the solution, "
              f"max_j ‖x_j − (I + λL̃) f_j‖/‖x_j‖ = {worst:.3e}, exceeds rtol={req.rtol:g} "
              f"(and atol={req.atol:g}) beyond rounding; the result is not accurate",
              exceptions.ConvergenceWarning)
    rel = xp.where(bnorm > 0, rnorm / xp.where(bnorm > 0, bnorm, 1.0), rnorm)
    info.residual = float(rel.max())
    return _assemble(system, req, F_inf, Z)


def _rounding_slack(system, bnorm, Z, xp):
    """Per column, the residual that rounding alone can leave: 100·eps·(‖b‖ + ‖M‖·‖z‖), with
    ``bnorm`` = ‖b‖ the norms of the SPD system's right-hand side (mass·x)."""
    eps = np.finfo(np.float64).eps
    return 100.0 * eps * (bnorm + system.norm_M * xp.sqrt(_coldot(Z, Z, xp)))


# --- the SPD system ------------------------------------------------------------------------

@dataclass(frozen=True)
class _SPDSystem:
    """The GSD equation as an SPD system with its null space split off (see
    :func:`_spd_system`), immutable once built.

    Attributes
    ----------
    M : CSR matrix
        a·mass + b·Lap, SPD, entries O(1).
    a, b : float
        (1, λ) for λ <= 1, (1/λ, 1) above.
    mass : ndarray
        1 for sym, d̃/max d̃ for rw.
    Minv_diag : ndarray
        1/diag(M), the Jacobi preconditioner.
    single : ndarray of bool
        The isolated nodes (F = X there).
    norm_M : float
        ‖M‖_∞.
    labels, n_components : ndarray, int
        The connected components.
    basis, weight : ndarray
        The null basis (D̃^{1/2}1 for sym, 1 for rw, per component) and the weights of the
        projection onto it (basis for sym, mass for rw).
    E, denom : CSR matrix, ndarray
        The component indicator (n_components x n) and weight_Cᵀ basis_C per component.
    """

    M: object
    a: float
    b: float
    mass: object
    Minv_diag: object
    single: object
    norm_M: float
    labels: object
    n_components: int
    basis: object
    weight: object
    E: object
    denom: object

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
    get the diagonal (a + b)·mass and a zero right-hand side. Returns an :class:`_SPDSystem`.
    """
    xp, xsp = _backend.namespaces(gpu)
    n = An.shape[0]
    a, b = (1.0, lam) if lam <= 1.0 else (1.0 / lam, 1.0)
    mass, W, basis, weight = _mass_and_weights(An, d, norm, xp, xsp)
    w_diag = W.diagonal()
    single = xp.asarray(_backend.to_numpy(An.indptr[1:] - An.indptr[:-1]) == 1)
    diag = a * mass + b * (mass - w_diag)
    diag[single] = (a + b) * mass[single]
    M = _backend.csr_type(gpu)(xsp.diags(diag) - b * (W - xsp.diags(w_diag)))
    M.sort_indices()
    n_comp, labels = _components(An, gpu)
    labels = xp.asarray(labels)
    E = _backend.csr_type(gpu)((xp.ones(n), (labels, xp.arange(n))), shape=(n_comp, n))
    return _SPDSystem(M=M, a=a, b=b, mass=mass, Minv_diag=1.0 / diag, single=single,
                      norm_M=float(abs(M).sum(axis=1).max()) if n else 0.0, labels=labels,
                      n_components=n_comp, basis=basis, weight=weight, E=E,
                      denom=E @ (weight * basis))


def _mass_and_weights(An, d, norm, xp, xsp):
    """(mass, W = mass·Ã_norm symmetric, null basis, projection weights) for ``norm``."""
    n = An.shape[0]
    if norm == "sym":
        basis = xp.sqrt(d / d.max()) if n else xp.ones(0)
        return xp.ones(n), An, basis, basis
    mass = d / d.max() if n else xp.ones(0)
    W = xsp.diags(mass) @ An
    W = (W + W.T) * 0.5  # remove the rounding asymmetry of D̃·(D̃⁻¹Ã)
    return mass, W, xp.ones(n), mass


def _components(An, gpu):
    """(number, labels) of the connected components of the graph of ``An``."""
    from scipy.sparse.csgraph import connected_components
    if gpu:
        # CuPy has no graph search without pylibcugraph: the pattern (indices only, O(nnz)
        # integers) goes to the host for the labels, which come back with the caller.
        An = sp.csr_array((np.ones(An.nnz, dtype=np.int8), An.indices.get(), An.indptr.get()),
                          shape=An.shape)
    return connected_components(An, directed=False)


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


# --- solve: the solver table ---------------------------------------------------------------

def _solve_cg(system, problem):
    """Jacobi-preconditioned CG on all columns at once (:func:`_block_cg`)."""
    return _iterate("cg", "CG", _block_cg, system, problem, system.Minv_diag)


def _solve_chebyshev(system, problem):
    """Chebyshev iteration (:func:`_chebyshev`) on the interval [a, a + 2b]."""
    # Precondition with D̃ (rw) or nothing (sym), not Jacobi: then the spectrum is exactly
    # that of a·I + b·L̃, inside [a, a + 2b].
    # (for rw those are the row weights 1/mass of the stopping rule).
    pre = problem.rscale
    return _iterate("chebyshev", "Chebyshev", _chebyshev, system, problem, pre,
                    system.a, system.a + 2.0 * system.b)


def _iterate(name, label, kernel, system, problem, Minv_diag, *interval):
    """Run an iterative ``kernel`` on M Z = B with the threaded sparse product; warn when it
    stops at ``maxiter``. Returns (Z, SolveInfo) with the iterations and residual history."""
    gpu = _backend.on_gpu(system.M)
    # float64 n x d arrays alive at the peak: X, B⊥, F∞, the solution and the iteration's
    # recurrence buffers (on the device for CuPy).
    _memory.check_dense_work(problem.B.shape, 8, 10, f"gsd_solve(method={name!r})",
                             _COLUMNS_HINT, detail="the solution and the solver's buffers",
                             gpu=gpu)
    xp, _ = _backend.namespaces(gpu)
    with _product(system.M, gpu, problem.workers) as mul:
        Z, it, history, converged = kernel(mul, problem, Minv_diag, *interval, xp=xp)
    if not converged:
        _warn(f"gsd_solve: {label} did not reach rtol={problem.rtol:g} in "
              f"maxiter={problem.maxiter} iterations (final max relative residual "
              f"{history[-1]:.3e})", exceptions.ConvergenceWarning)
    return Z, SolveInfo(name, converged, iterations=it, residual_history=history)


def _solve_direct(system, problem):
    """Z with M Z = B and c_Cᵀ Z = 0 per component C, by sparse LU of the bordered system

    .. math:: \\begin{pmatrix} M & C \\\\ C^\\top & 0 \\end{pmatrix}
              \\begin{pmatrix} Z \\\\ \\kappa \\end{pmatrix} =
              \\begin{pmatrix} B \\\\ 0 \\end{pmatrix}

    (κ = 0 at the solution, as 1_Cᵀ B = 0). It is non-singular for every λ, while M alone is
    singular to rounding past λ ≈ 1/eps, so SuperLU's partial pivoting never divides by a
    rounding error. The border is scaled by ‖M‖_∞. Refused on the GPU and when the estimated
    factors cannot fit the memory budget. Returns (Z, SolveInfo) with the nonzeros of the LU
    factors (the fill-in); ``callback`` is called once, with the solution."""
    if _backend.on_gpu(system.M):
        raise ValueError("method='direct' is CPU only; use method='cg' for CuPy input")
    _check_direct_memory(system.M.shape[0], system.M.nnz)
    K, rhs = _bordered(system, problem.B)
    lu = spla.splu(K, permc_spec="MMD_AT_PLUS_A")
    Z = np.ascontiguousarray(lu.solve(rhs)[:problem.B.shape[0]])
    _report_once(problem, Z)
    return Z, SolveInfo("direct", converged=True, factor_nnz=int(lu.L.nnz + lu.U.nnz))


def _check_direct_memory(n, nnz):
    factor_bytes, factor_entries, dbar = direct_factor_estimate(n, nnz)
    _memory.check_memory(
        factor_bytes, "gsd_solve(method='direct')",
        "use method='cg' or method='chebyshev' (memory O(nnz + n·d))",
        detail=f"an estimated {factor_entries:.3g} nonzeros in the sparse LU factors of a "
               f"graph of {n} nodes with mean degree {dbar:.1f}; the fill grows like n² "
               f"on graphs without small separators")


def _bordered(system, B):
    """(K, rhs): M bordered by one constraint column c_C·‖M‖_∞/max|c_C| per component of more
    than one node, as CSC, and B with zero rows below."""
    M, n = system.M, system.M.shape[0]
    scale = system.norm_M if system.norm_M > 0 else 1.0
    rows, cols, vals = [], [], []
    for k, (idx, c) in enumerate(system.nontrivial_components()):
        rows.append(idx)
        cols.append(np.full(idx.size, k))
        vals.append(c * (scale / np.abs(c).max()))
    k = len(rows)
    if k == 0:
        return sp.csc_matrix(M), np.asarray(B)
    C = sp.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                     shape=(n, k))
    K = sp.csc_matrix(sp.bmat([[M, C], [C.T, None]], format="csc"))
    return K, np.vstack([np.asarray(B), np.zeros((k, B.shape[1]))])


def _solve_dense(system, problem):
    """Z with M Z = B by a dense LU (``numpy.linalg.solve``) of the lifted matrix

    .. math:: M + \\sum_C \\sigma\\, c_C c_C^\\top

    (c_C the unit constraint vector of component C, σ = ‖M‖_∞). The exact Z satisfies
    c_Cᵀ Z = 0, so it solves the lifted system too; the lift only moves the eigenvalue a·mass
    of the null direction (which is 0 to rounding for λ past 1/eps) up to σ, so the LU never
    meets a (numerically) singular matrix. Refused above ``max_nodes`` nodes or when the two
    n x n arrays cannot fit. Returns (Z, SolveInfo); ``callback`` is called once."""
    n = system.M.shape[0]
    # The matrix and the LU copy that solve makes of it.
    gpu = _backend.on_gpu(system.M)
    check_dense_size(n, problem.max_nodes, "gsd_solve(method='dense')", arrays=2, gpu=gpu)
    xp, _ = _backend.namespaces(gpu)
    Md = system.M.toarray()
    for idx, c in system.nontrivial_components():
        c = c / np.linalg.norm(c)
        idx_x, c_x = xp.asarray(idx), xp.asarray(c)
        for j, cj in zip(idx, c):   # column by column: no |C| x |C| temporary
            Md[idx_x, int(j)] += (system.norm_M * float(cj)) * c_x
    Z = xp.linalg.solve(Md, problem.B)
    _report_once(problem, Z)
    return Z, SolveInfo("dense", converged=True)


def _report_once(problem, Z):
    """A direct method's one "iteration": the callback sees the solution."""
    if problem.step is not None:
        problem.step(Z)


#: The methods of :func:`gsd_solve`, name -> solver ``(system, problem) -> (Z, SolveInfo)``
#: solving M Z = B for an :class:`_SPDSystem` and a :class:`_Problem` (the null space is
#: split off and the answer verified around it). A new method is one entry here; ``"auto"``
#: picks ``"direct"`` or ``"cg"`` (:func:`_resolve_method`). Its order is that of the
#: error message for an unknown method.
SOLVERS = {"cg": _solve_cg, "direct": _solve_direct, "dense": _solve_dense,
           "chebyshev": _solve_chebyshev}

#: The accepted values of ``method`` at import time (the live list is ``("auto", *SOLVERS)``).
METHODS = ("auto", *SOLVERS)


# --- the iterations ------------------------------------------------------------------------

def _product(M, gpu, workers):
    """A context giving ``mul(P, Q)``: Q = M @ P in place (threaded rows on the CPU)."""
    if not gpu:
        return SparseProduct(M, workers=workers)

    def mul(P, Q):
        Q[...] = M @ P

    return contextlib.nullcontext(mul)


def _coldot(U, V, xp):
    """Column-wise inner products Σ_i U_ij V_ij without an n x k temporary."""
    return xp.einsum("ij,ij->j", U, V)


def _stopping_rule(R, problem, xp):
    """(‖r0_j‖, the per-column threshold max(rtol·‖x_j‖, atol), ‖x_j‖ with 0 replaced by 1).

    ``R`` is the residual the iteration starts from (B − M Z0); the threshold is stated for
    the caller's right-hand side, ``problem.bnorm`` (the deflated solve iterates on B⊥ but
    keeps the stopping rule of the whole system). Norms are taken under the row weights
    ``problem.rscale``, ‖w ∘ r_j‖: the rw system's residual weighted back to the caller's
    equation.
    """
    r0 = _residual_norms(R, problem.rscale, xp)
    bnorm = problem.bnorm
    return r0, xp.maximum(problem.rtol * bnorm, problem.atol), xp.where(bnorm > 0, bnorm, 1.0)


def _residual_norms(R, rscale, xp, out=None):
    """‖w ∘ r_j‖ per column (w = ``rscale``, or 1 for None); ``out`` a scratch array like R."""
    if rscale is not None:
        R = xp.multiply(R, rscale[:, None], out=out)
    return xp.sqrt(_coldot(R, R, xp))


def _start(mul, problem, xp):
    """(Z0, R0 = B − M Z0) of an iteration: zero and B itself (not a copy) without a guess."""
    B = problem.B
    if problem.Z0 is None:
        return xp.zeros_like(B), B
    Q = xp.empty_like(B)
    mul(problem.Z0, Q)
    return problem.Z0.copy(), B - Q


def _block_cg(mul, problem, Minv_diag, xp):
    """Jacobi-preconditioned CG on every column of B at once.

    ``mul(P, Q)`` writes M @ P into Q. Each column has its own α, β (independent
    recurrences), so columns that are linearly dependent cannot break the iteration the way a
    true block-Krylov method can; converged columns drop out of the active set. Every update is
    in place into preallocated buffers: one sparse product and a few streaming passes per
    iteration, no allocation. Starts from ``problem.Z0`` (zero if None) and calls
    ``problem.step`` with each iterate. Returns (Z, iterations, max-residual history,
    converged).
    """
    F, R = _start(mul, problem, xp)
    r0, thresh, safe_b = _stopping_rule(R, problem, xp)
    active = xp.flatnonzero(r0 > thresh)
    history = []
    if active.size == 0:
        return F, 0, history, True
    Pre = Minv_diag[:, None]
    Ra = xp.ascontiguousarray(R[:, active])
    Fa = xp.ascontiguousarray(F[:, active])
    Z = Pre * Ra
    P = Z.copy()
    Q, T = xp.empty_like(P), xp.empty_like(P)
    rz = _coldot(Ra, Z, xp)
    it, converged = 0, False
    while it < problem.maxiter:
        it += 1
        mul(P, Q)
        alpha = rz / _coldot(P, Q, xp)
        Fa += xp.multiply(P, alpha, out=T)
        Ra -= xp.multiply(Q, alpha, out=T)
        rnorm = _residual_norms(Ra, problem.rscale, xp, out=T)
        history.append(float(xp.max(rnorm / safe_b[active])))
        _report_block(problem, F, active, Fa)
        still = rnorm > thresh[active]
        if not bool(still.any()):
            converged = True
            break
        if not bool(still.all()):
            # Write the converged columns out and shrink every buffer to the active ones.
            F[:, active[~still]] = Fa[:, ~still]
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


def _report_block(problem, F, active, Fa):
    """Call ``problem.step`` with the whole iterate: the converged columns of F and the
    active ones of Fa."""
    if problem.step is not None:
        Z = F.copy()
        Z[:, active] = Fa
        problem.step(Z)


def _chebyshev(mul, problem, Minv_diag, lmin, lmax, xp):
    """Preconditioned Chebyshev iteration for M F = B (Saad, Alg. 12.1).

    ``mul(D, Q)`` writes M @ D into Q; ``Minv_diag`` is the diagonal preconditioner, or None
    for none. The eigenvalues of diag(Minv_diag)·M must lie in [lmin, lmax]. Stops when every
    column meets the stopping rule of :func:`_stopping_rule` (on the recurrence's residual,
    updated exactly). Starts from ``problem.Z0`` (zero if None) and calls ``problem.step``
    with each iterate. Returns (F, iterations, max-residual history, converged).
    """
    theta = 0.5 * (lmax + lmin)
    delta = 0.5 * (lmax - lmin)
    sigma = theta / delta
    F, R = _start(mul, problem, xp)
    if problem.Z0 is None:
        R = R.copy()    # updated in place below; B⊥ is needed again to verify the answer
    r0, thresh, safe_b = _stopping_rule(R, problem, xp)
    history = []
    if not bool((r0 > thresh).any()):
        return F, 0, history, True
    Q, T = xp.empty_like(R), xp.empty_like(R)
    rho = 1.0 / sigma
    D = R.copy() if Minv_diag is None else Minv_diag[:, None] * R
    D /= theta
    it = 0
    while it < problem.maxiter:
        it += 1
        F += D
        mul(D, Q)
        R -= Q
        rnorm = _residual_norms(R, problem.rscale, xp, out=T)
        history.append(float(xp.max(rnorm / safe_b)))
        _report_once(problem, F)
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
