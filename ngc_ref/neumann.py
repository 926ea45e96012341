"""The truncated Neumann series Ã_S of the GSD solution (paper Eq. 3-4).

.. math::

    \\tilde{\\mathcal{A}}_S = \\frac{1}{\\lambda+1}\\sum_{s=0}^{S} (r\\tilde{\\mathcal{A}})^s,
    \\qquad r = \\frac{\\lambda}{\\lambda+1},

which truncates (I + λL̃)⁻¹ = (1/(λ+1)) (I − rÃ)⁻¹. It is applied in Horner form,
H ← X + r Ã H repeated S times, so Ã_S X costs S sparse x dense products and Ã_S itself is
never formed.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.sparse.linalg import LinearOperator

from . import _backend
from ._docs import fill_doc
from ._order import Reorder, check_reorder
from ._spmm import HornerKernel, horner
from ._validation import (DEFAULT_MAX_DENSE_NODES, check_array, check_dense_size, check_lam,
                          check_norm, check_order, check_scalar)
from .exceptions import PrecisionWarning    # defined there; importable from here as before
from .normalize import _degrees_from_scaled, _normalized_adjacency


def series_ratio(lam):
    """r = λ/(λ+1), the ratio of the geometric series (paper Eq. 3).

    Examples
    --------
    >>> from ngc_ref import series_ratio
    >>> series_ratio(3.0)
    0.75
    """
    lam = check_lam(lam)
    return lam / (lam + 1.0)


def series_mass(lam, S):
    """1 − r^{S+1}: the row sum of Ã_S for ``norm="rw"`` (paper Eq. 6).

    Computed as ``-expm1((S+1) log r)`` with log r = −log1p(1/λ), so it stays accurate (and
    positive) when r is within rounding of 1, i.e. for λ beyond ~1e15, where ``1 - r**(S+1)``
    would cancel to 0, and defined for every λ > 0, however small (λ → 0 gives 1).

    Examples
    --------
    >>> from ngc_ref import series_mass
    >>> series_mass(1.0, 2)           # 1 - (1/2)^3
    0.875
    >>> series_mass(1e20, 0)          # 1 - r with r within rounding of 1: not 0
    1e-20
    """
    lam = check_lam(lam)
    S = check_order(S)
    return -math.expm1((S + 1) * _log_ratio(lam))


def _log_ratio(lam):
    """log r = log(λ/(λ+1)) = −log1p(1/λ): accurate for λ → ∞ (−1/λ) and λ → 0 (log λ), and
    −inf, not an error, where 1/λ overflows (r = 0 to double precision)."""
    return -math.log1p(1.0 / lam)


def neumann_order(lam, tol, *, norm="sym"):
    """Smallest S whose truncation bound r^{S+1} is <= ``tol``.

    .. math:: \\|\\tilde{\\mathcal{A}}_S - (I+\\lambda\\tilde L)^{-1}\\| \\le r^{S+1},

    in the 2-norm for ``"sym"`` and the ∞-norm for ``"rw"`` (the norms in which ‖Ã‖ = 1),
    so the same S serves both. S grows like (λ+1)·ln(1/tol).

    Parameters
    ----------
    %(lam)s
    tol : float in (0, 1]
        The truncation error r^{S+1} to reach.
    %(norm)s
        Here it is only validated, for symmetry with the other functions: S is the same for
        both.

    Returns
    -------
    int

    Examples
    --------
    >>> from ngc_ref import neumann_order
    >>> neumann_order(32, 1e-6)     # ln(1e-6)/ln(32/33) = 448.97, so S + 1 = 449
    448
    """
    lam = check_lam(lam)
    tol = check_scalar(tol, "tol", min_val=0.0, max_val=1.0, include_min=False)
    check_norm(norm)
    log_r = _log_ratio(lam)
    S = max(0, math.ceil(math.log(tol) / log_r) - 1)
    # Guard against rounding in the logarithms: step to the exact smallest S.
    while S > 0 and (S * log_r) <= math.log(tol):
        S -= 1
    while (S + 1) * log_r > math.log(tol):
        S += 1
    return S


fill_doc(neumann_order)


#: Warn when the expected relative rounding error of a float32 series exceeds this.
FLOAT32_ERROR_WARN = 1e-3


def float32_error_estimate(lam, S):
    """Expected relative rounding error of Ã_S X computed in float32.

    Each Horner step rounds its terms once (relative eps(float32) = 1.2e-7), and a rounding
    error made at step s is carried on by the remaining steps with weight r^s, so the errors
    add up over the Σ_{s<=S} r^s = (λ+1)(1 − r^{S+1}) ≈ min(S+1, λ+1) effective terms:

    .. math:: \\text{error} \\approx \\varepsilon_{32}\\,(\\lambda+1)(1 - r^{S+1}).

    This is an estimate of the typical error (measured: 2.3e-2 at λ = 1e6, S = 3e6, where it
    gives 0.12), not a bound. float64 has the same growth from eps(float64) = 2.2e-16.
    """
    return float(np.finfo(np.float32).eps) * (lam + 1.0) * series_mass(lam, S)


def _warn_float32(dtype, lam, S, what, stacklevel=3):
    """Warn (PrecisionWarning) when a float32 series of this λ, S would be inaccurate.

    ``stacklevel`` as for ``warnings.warn``, counted from this function: the default, 3, names
    the caller of the function that calls it.
    """
    if np.dtype(dtype) != np.float32:
        return
    err = float32_error_estimate(lam, S)
    if err > FLOAT32_ERROR_WARN:
        import warnings
        warnings.warn(f"{what} in float32 with lam={lam:g}, S={S}: its relative rounding error "
                      f"is about {err:.1e} (eps(float32) times the (lam+1)(1 - r^(S+1)) = "
                      f"{err / float(np.finfo(np.float32).eps):.3g} effective terms of the "
                      f"series), above {FLOAT32_ERROR_WARN:g}; pass float64 features for an "
                      f"accurate result", PrecisionWarning, stacklevel=stacklevel)


class NeumannFilter(LinearOperator):
    """The NGC filter Ã_S for one graph, with the normalisation computed once.

    .. math::

        \\tilde{\\mathcal{A}}_S = \\frac{1}{\\lambda+1}\\sum_{s=0}^{S}
        (r\\tilde{\\mathcal{A}})^s,\\qquad r = \\frac{\\lambda}{\\lambda+1}.

    A filter keeps its definition (graph, λ, S, norm) apart from how it is applied: ``filt @ X``
    runs the Horner series, :meth:`matrix` forms Ã_S densely (small graphs only), and
    :meth:`exact` applies the untruncated (I + λL̃)⁻¹ through :func:`ngc_ref.gsd_solve`. It is
    a :class:`scipy.sparse.linalg.LinearOperator`, so it goes into ``cg``, ``eigsh``, ``svds``
    and ``gmres`` as it is; products stay lazy (each one runs the series) and the adjoint is
    exact for both normalisations (for ``"rw"``, which is not symmetric, it is the same
    polynomial in Ã_rwᵀ = Ã D̃⁻¹).

    Parameters
    ----------
    %(A)s
        Normalised once, when the filter is made; every product reuses Ã_norm.
    %(lam)s
    %(S)s
    %(norm)s
    %(graph_options)s
    %(workers)s
    %(reorder)s
        A filter decides once per shape of X and keeps the permutation (and P Ã Pᵀ) for every
        later product.

    Attributes
    ----------
    A_norm : csr_array
        Ã_norm, in the caller's node order.
    degrees : ndarray
        d̃ = Ã 1.
    r : float
        λ/(λ+1).
    n : int
    shape, dtype :
        (n, n) and the dtype of Ã_norm (float32 for a float32 graph, else float64), as for
        every ``LinearOperator``.

    Examples
    --------
    A filter on a ring; with ``norm="rw"`` every row of Ã_S sums to 1 − r^{S+1}:

    >>> import numpy as np, networkx as nx
    >>> from ngc_ref import NeumannFilter
    >>> filt = NeumannFilter(nx.cycle_graph(6), lam=2.0, S=3, norm="rw")
    >>> (filt @ np.ones(6)).round(6)   # rows sum to 1 - r^(S+1)
    array([0.802469, 0.802469, 0.802469, 0.802469, 0.802469, 0.802469])

    The filter is a SciPy ``LinearOperator``:

    >>> from scipy.sparse.linalg import eigsh
    >>> filt = NeumannFilter(nx.complete_graph(5), lam=1.0, S=4)
    >>> round(float(eigsh(filt, k=1, which="LA", return_eigenvectors=False)[0]), 6)  # 1 - r^5
    0.96875
    """

    def __init__(self, A, lam, S, *, norm="sym", symmetrize=False, weight="weight",
                 nodelist=None, workers=None, reorder="auto"):
        self.lam = check_lam(lam)
        self.S = check_order(S)
        self.norm = check_norm(norm)
        # Degrees up to a power-of-two scale (exact even when d̃ itself would overflow).
        self.A_norm, self._degrees_scaled, self._degree_exp = _normalized_adjacency(
            A, norm, symmetrize=symmetrize, weight=weight, nodelist=nodelist)
        self.n = self.A_norm.shape[0]
        self.r = self.lam / (self.lam + 1.0)
        self._gpu = _backend.on_gpu(self.A_norm)
        self._cast = {}
        self.workers = workers
        self._kernels = {}
        self.reorder = check_reorder(reorder)
        # The locality order of the products, decided and computed once (ngc_ref._order).
        self._order = Reorder(self.A_norm, self.reorder, gpu=self._gpu)
        super().__init__(dtype=np.dtype(self.A_norm.dtype), shape=(self.n, self.n))

    @property
    def degrees(self):
        """d̃ = Ã 1 (ValueError where weights near the float maximum make it overflow)."""
        return _degrees_from_scaled(self._degrees_scaled, self._degree_exp)

    def _operator_for(self, dtype, order=None):
        """Ã_norm in ``dtype`` (float32 features are propagated in float32), and in the
        locality order ``order`` (an :class:`ngc_ref._order.Ordering`, or None): P Ã_norm Pᵀ.
        Each is made once and kept."""
        dtype = np.dtype(dtype)
        if dtype == self.A_norm.dtype and order is None:
            return self.A_norm
        if (dtype, order is not None) not in self._cast:
            self._cast[dtype, order is not None] = (
                self.A_norm.astype(dtype) if order is None else
                self._order.matrix(self._operator_for(dtype), f"NeumannFilter(reorder="
                                                              f"{self.reorder!r})"))
        return self._cast[dtype, order is not None]

    def _series_operator(self, dtype, transpose, order):
        """What :func:`~ngc_ref._spmm.horner` multiplies by: Ã_norm, or Ã_normᵀ for the
        transposed ``"rw"`` series (Ã_sym is symmetric), in ``order``; on the CPU as the fused
        threaded kernel (made once per orientation and order), on a GPU as the matrix in
        ``dtype``."""
        flip = bool(transpose and self.norm == "rw")
        if self._gpu:
            M = self._operator_for(dtype, order)
            return M.T if flip else M
        key = (flip, order is not None)
        if key not in self._kernels:
            M = self._operator_for(self.A_norm.dtype, order)
            self._kernels[key] = HornerKernel(M.T.tocsr() if flip else M, self.r,
                                              workers=self.workers)
        return self._kernels[key]

    def apply(self, X, *, transpose=False, workers=None):
        """Ã_S X (or Ã_Sᵀ X) with S sparse x dense products.

        ``X`` may be 1-D (a signal) or 2-D (n x d); the result has the same shape, float32 if
        ``X`` is float32, else float64. The series runs in :func:`ngc_ref._spmm.horner`: on
        the CPU in its fused threaded kernel (``workers`` overrides the filter's setting for
        this call), which equals the plain Horner steps to within float rounding; in the
        filter's locality order when its ``reorder`` says so (X permuted in, the result back).

        float32 features are propagated in float32, whose relative error grows like
        eps(float32)·(λ+1)(1 − r^{S+1}) (:func:`float32_error_estimate`; 2.3e-2 measured at
        λ = 1e6, S = 3e6): a :class:`PrecisionWarning` (a UserWarning) says so when that
        exceeds 1e-3. The CPU kernel needs two n x d buffers besides X (and X itself when it
        is sparse, and X in the locality order when it reorders); they must fit the memory
        budget of :mod:`ngc_ref._memory`.
        """
        X, vector = self._columns(X, "neumann_propagate", work_arrays=2)
        order = self._order.ordering(self.S, X.shape[1], X.dtype.itemsize)
        M = self._series_operator(X.dtype, transpose, order)
        if order is not None:
            X = order.take(X, "neumann_propagate", work_arrays=2)
        H = horner(M, X, self.r, self.S, workers=workers)
        H *= 1.0 / (self.lam + 1.0)
        if order is not None:
            H = order.restore(H)
        return H.ravel() if vector else H

    def _columns(self, X, what, work_arrays):
        """``(X, vector)``: ``X`` checked for this graph as an n x d array, and whether it was 1-D.

        The one entry check of the series that run on this filter (:meth:`apply`,
        :func:`ngc_ref.robust_propagate`): :func:`ngc_ref.validation.check_array` with n rows and
        room for ``work_arrays`` more n x d arrays, on the filter's device, and the float32
        warning of ``what`` (pointing at the caller of the method or function that called this
        one).
        """
        X = check_array(X, n_rows=self.n, ensure_2d=False, what=what, work_arrays=work_arrays)
        _backend.on_gpu(self.A_norm, X)
        _warn_float32(X.dtype, self.lam, self.S, what, stacklevel=4)
        vector = X.ndim == 1
        return (X[:, None] if vector else X), vector

    def __matmul__(self, X):
        # Arrays of any kind (sparse, CuPy) go to apply; operators compose lazily.
        if isinstance(X, LinearOperator) or np.isscalar(X):
            return super().__matmul__(X)
        return self.apply(X)

    def _matvec(self, x):
        return self.apply(x)

    def _matmat(self, X):
        return self.apply(X)

    def _rmatvec(self, x):
        return self.apply(x, transpose=True)

    def _rmatmat(self, X):
        return self.apply(X, transpose=True)

    def _adjoint(self):
        # Ã_S is symmetric for "sym"; for "rw" the adjoint applies the transposed series.
        return self if self.norm == "sym" else super()._adjoint()

    _transpose = _adjoint    # a real operator

    def row_sums(self):
        """Ã_S 1 (equal to 1 − r^{S+1} for every row when ``norm="rw"``)."""
        xp, _ = _backend.namespaces(self._gpu)
        return self.apply(xp.ones(self.n, dtype=self.A_norm.dtype))

    def matrix(self, *, max_nodes=DEFAULT_MAX_DENSE_NODES):
        """Ã_S as a dense array (refused above ``max_nodes`` nodes; raise it to insist)."""
        # The identity, the result and the Horner temporary are alive together.
        check_dense_size(self.n, max_nodes, "NeumannFilter.matrix", arrays=3,
                         itemsize=np.dtype(self.A_norm.dtype).itemsize, gpu=self._gpu)
        xp, _ = _backend.namespaces(self._gpu)
        return self.apply(xp.eye(self.n, dtype=self.A_norm.dtype))

    def exact(self, X, **kwargs):
        """(I + λL̃)⁻¹ X, the S = ∞ limit, via :func:`ngc_ref.solve.gsd_solve_normalized` on
        this filter's Ã_norm (the keywords of :func:`ngc_ref.gsd_solve`)."""
        from .solve import gsd_solve_normalized
        kwargs.setdefault("reorder", self.reorder)
        return gsd_solve_normalized(self.A_norm, self._degrees_scaled, X, self.lam,
                                    norm=self.norm, **kwargs)

    def __repr__(self):
        return (f"NeumannFilter(n={self.n}, lam={self.lam!r}, S={self.S}, "
                f"norm={self.norm!r}, reorder={self.reorder!r})")


fill_doc(NeumannFilter)


def neumann_propagate(A, X, lam, S, *, norm="sym", symmetrize=False, weight="weight",
                      nodelist=None, workers=None, reorder="auto"):
    """Ã_S X, the NGC propagation (paper Eq. 4 without W).

    .. math::

        \\tilde{\\mathcal{A}}_S X = \\frac{1}{\\lambda+1}\\sum_{s=0}^{S}
        \\Big(\\frac{\\lambda}{\\lambda+1}\\tilde{\\mathcal{A}}\\Big)^s X

    computed with S sparse x dense products in Horner form; Ã_S is never formed.

    Parameters
    ----------
    %(A)s
    %(X)s
    %(lam)s
    %(S)s
        S = 0 gives X/(λ+1).
    %(norm)s
    %(graph_options)s
    %(workers)s
    %(reorder)s

    Returns
    -------
    ndarray, shape of ``X``: (n,) or (n, d)
        float32 when ``X`` is float32, else float64 (CuPy array for CuPy input). In float32 the
        relative error grows like eps(float32)·(λ+1)(1 − r^{S+1}), i.e. like λ·1.2e-7 for long
        series (2.3e-2 measured at λ = 1e6, S = 3e6; :func:`float32_error_estimate`); float64
        features keep it near λ·2.2e-16.

    Raises
    ------
    ValueError
        Non-square, non-symmetric or negative/NaN adjacency (or ``weight`` attribute); X with
        the wrong number of rows or non-finite values; lam <= 0 or non-finite; S < 0; unknown
        norm; a ``nodelist`` that is not a permutation of the graph's nodes; X and the two
        n x d buffers of the series beyond the memory budget (:mod:`ngc_ref._memory`).
    TypeError
        Non-integer S, non-numeric inputs or ``weight`` attribute values.

    Warns
    -----
    UserWarning
        ``A`` is a networkx graph whose nodes are 0..n−1 out of order and no ``nodelist`` was
        given: the rows follow insertion order.
    PrecisionWarning
        (a UserWarning) float32 ``X`` whose expected error, eps(float32)·(λ+1)(1 − r^{S+1}),
        exceeds 1e-3: pass float64 features.

    References
    ----------
    .. [1] S. Liu et al., "How Powerful is Implicit Denoising in Graph Neural Networks",
       Eq. (3)-(4) (the Neumann series and NGC).

    Examples
    --------
    With ``norm="rw"`` and λ = 1 (r = 1/2) the rows of Ã_S sum to 1 − (1/2)^{S+1}:

    >>> import numpy as np, networkx as nx
    >>> from ngc_ref import neumann_propagate
    >>> H = neumann_propagate(nx.star_graph(3), np.eye(4), lam=1.0, S=2, norm="rw")
    >>> H.sum(axis=1).round(6)      # 1 - (1/2)^3
    array([0.875, 0.875, 0.875, 0.875])

    The rows of ``X`` follow ``nodelist`` (default: the order nodes were added):

    >>> G = nx.Graph([("c", "a"), ("a", "b")])                       # nodes c, a, b
    >>> x = np.array([1.0, 0.0, 0.0])                                # a signal on "a"
    >>> neumann_propagate(G, x, lam=1.0, S=1, norm="rw", nodelist=["a", "b", "c"])
    array([0.58333333, 0.125     , 0.125     ])
    """
    return NeumannFilter(A, lam, S, norm=norm, symmetrize=symmetrize, weight=weight,
                         nodelist=nodelist, workers=workers, reorder=reorder).apply(X)


fill_doc(neumann_propagate)


def neumann_matrix(A, lam, S, *, norm="sym", symmetrize=False, weight="weight", nodelist=None,
                   max_nodes=DEFAULT_MAX_DENSE_NODES):
    """Ã_S as a dense n x n array, for small graphs.

    Refuses (ValueError) above ``max_nodes`` nodes (default 5000, 200 MB in float64); pass a
    larger ``max_nodes`` to insist.

    Parameters
    ----------
    %(A)s
    %(lam)s
    %(S)s
        Forming Ã_S applies the series to the n x n identity: S sparse x dense products.
    %(norm)s
    %(graph_options)s
    max_nodes : int
        Refuse above this many nodes (default 5000); the memory budget of
        :mod:`ngc_ref._memory` is checked too.

    Examples
    --------
    >>> import networkx as nx
    >>> from ngc_ref import neumann_matrix
    >>> # isolated nodes: (1 + r)/(λ+1) on the diagonal
    >>> neumann_matrix(nx.empty_graph(2), lam=1.0, S=1)
    array([[0.75, 0.  ],
           [0.  , 0.75]])
    """
    return NeumannFilter(A, lam, S, norm=norm, symmetrize=symmetrize, weight=weight,
                         nodelist=nodelist).matrix(max_nodes=max_nodes)


fill_doc(neumann_matrix)
