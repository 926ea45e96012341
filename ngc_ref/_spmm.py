"""The Horner recursion H ← X + r M H, and the fast CPU kernel that runs it (pure NumPy/SciPy).

:func:`horner` is the one place the recursion is written: the NGC filter and its transpose
(:class:`ngc_ref.NeumannFilter`), the blocks of τ (:func:`ngc_ref.connectivity_factor`) and the
RNGC series (:func:`ngc_ref.robust_propagate`) all call it, on the CPU and on a GPU.

The plain step ``H = M @ H; H *= r; H += X`` allocates a fresh n x d result for every product
(page faults on first touch), then makes two more passes over memory. The fused step of a
:class:`HornerKernel`

* folds r into the stored values once (rÃ) and lets SciPy's CSR x dense kernel *accumulate*
  into a buffer that already holds X, so one step is a memcpy plus one sparse product;
* ping-pongs between two preallocated buffers (no allocation inside the loop);
* splits the rows into ``workers`` contiguous ranges of about equal nnz and runs them on
  threads: SciPy's sparsetools kernels release the GIL, and a row range only writes its own
  rows of the output. The row ranges index the full ``indices``/``data`` arrays through a
  slice of ``indptr``, so nothing is copied.

Every output entry is accumulated in the same order as ``A @ H`` (row by row, stored order), so
the fused steps agree with the plain ones to within one rounding of ``r·a_ij`` (the scaled
values are rounded once instead of the products).

It uses ``scipy.sparse._sparsetools.csr_matvecs``, which is private; if it is missing or its
signature changes, :func:`_accumulate_rows` falls back to the public ``A[a:b] @ H`` (same
numbers, slower).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp

try:  # private, stable since SciPy 0.x; guarded so a SciPy change only costs speed
    from scipy.sparse._sparsetools import csr_matvecs as _csr_matvecs
except ImportError:  # pragma: no cover
    _csr_matvecs = None

#: Below this many output elements (n·d) per step, threads cost more than they save.
MIN_ELEMENTS_PER_THREAD = 1 << 16


def default_workers():
    """Cores this process may run on (``os.sched_getaffinity``), at most 8."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    return max(1, min(8, n))


def resolve_workers(workers):
    """``None``/0 -> :func:`default_workers`; negative -> cores + 1 + workers (joblib style)."""
    if workers is None or workers == 0:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)):
        raise TypeError(f"workers must be an int or None, got {type(workers).__name__}")
    workers = int(workers)
    if workers < 0:
        workers = max(1, default_workers() + 1 + workers)
    return workers


def _row_ranges(indptr, parts):
    """``parts`` contiguous row ranges with about equal nnz (and at least one row each)."""
    n = len(indptr) - 1
    parts = max(1, min(parts, n))
    cuts = np.searchsorted(indptr, np.linspace(0, indptr[-1], parts + 1)[1:-1])
    bounds = np.unique(np.concatenate([[0], np.clip(cuts, 0, n), [n]]))
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def take_rows(X, index, *, workers=None):
    """``X[index]`` for a NumPy array ``X`` (1-D or 2-D) and an index array of valid row
    positions (a permutation's), gathered on threads into one new array.

    NumPy's ``np.take(..., out=...)`` releases the GIL, so contiguous slices of ``index`` run
    in parallel; on a 2-core machine this halves the gather of the locality order's X in and
    result out (Pubmed, d = 128: 4.7 -> 2.7 ms each). The values are copies, so the result
    equals ``X[index]`` bitwise. Small arrays (fewer than 2 x :data:`MIN_ELEMENTS_PER_THREAD`
    elements) take the one-thread path.

    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> take_rows(X, np.array([2, 0, 3, 1]))[:, 0]
    array([6., 0., 9., 3.])
    """
    X = np.asarray(X)
    w = max(1, min(resolve_workers(workers), X.size // MIN_ELEMENTS_PER_THREAD))
    if w <= 1 or len(index) < 2:
        return X[index]
    out = np.empty((len(index),) + X.shape[1:], dtype=X.dtype)
    cuts = np.linspace(0, len(index), w + 1).astype(np.intp)

    def part(k):
        a, b = cuts[k], cuts[k + 1]
        # mode="wrap": "raise" buffers the output (a second pass); the positions are valid.
        np.take(X, index[a:b], axis=0, out=out[a:b], mode="wrap")

    with ThreadPoolExecutor(w) as pool:
        list(pool.map(part, range(w)))
    return out


def _accumulate_rows(A, H, Y, a, b):
    """Y[a:b] += A[a:b] @ H in place (Y, H C-contiguous 2-D, same dtype as A)."""
    k = H.shape[1]
    if _csr_matvecs is not None:
        try:
            _csr_matvecs(b - a, A.shape[1], k, A.indptr[a:b + 1], A.indices, A.data,
                         H.reshape(-1), Y[a:b].reshape(-1))
            return
        except (TypeError, ValueError):  # pragma: no cover - SciPy changed the private API
            pass
    Y[a:b] += A[a:b] @ H


def _kernel_csr(A):
    """A as the CSR the kernel reads: sorted indices, one index dtype (no copy if it is)."""
    A = sp.csr_array(A)
    if not A.has_sorted_indices:
        A = A.sorted_indices()
    if A.indices.dtype != A.indptr.dtype:
        A = sp.csr_array((A.data, A.indices.astype(np.int64), A.indptr.astype(np.int64)),
                         shape=A.shape)
    return A


class SparseProduct:
    """Y = A @ H (or Y = B + A @ H) into a preallocated Y, row ranges on threads.

    Use it as a context manager so the thread pool lives as long as the loop that calls it::

        with SparseProduct(A, workers=2) as mul:
            for _ in range(k):
                mul(H, Y)          # Y = A @ H, no allocation

    Parameters
    ----------
    A : scipy.sparse matrix, shape (n, m)
        Converted to CSR with sorted indices and one index dtype (no copy when it already is).
    workers : int or None
        Threads (``None``: the cores this process may use; capped so that every thread gets at
        least :data:`MIN_ELEMENTS_PER_THREAD` output elements).
    """

    def __init__(self, A, *, workers=None):
        self.A = _kernel_csr(A)
        self.workers = resolve_workers(workers)
        self._pool = None
        self._ranges = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _ranges_for(self, d):
        n = self.A.shape[0]
        w = max(1, min(self.workers, (n * d) // MIN_ELEMENTS_PER_THREAD))
        if w not in self._ranges:
            self._ranges[w] = _row_ranges(self.A.indptr, w)
        return self._ranges[w]

    def __call__(self, H, Y, B=None):
        """Y[:] = B + A @ H (B = None: zero). H, Y, B: C-contiguous (·, d), A's dtype."""
        A = self.A

        def rows(rng):
            a, b = rng
            if B is None:
                Y[a:b] = 0
            else:
                Y[a:b] = B[a:b]
            _accumulate_rows(A, H, Y, a, b)

        ranges = self._ranges_for(H.shape[1]) if A.shape[0] else []
        if len(ranges) <= 1:
            for rng in ranges:
                rows(rng)
            return Y
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers)
        # list() waits for every range: a barrier before Y is read.
        list(self._pool.map(rows, ranges))
        return Y


class HornerKernel:
    """A SciPy CSR matrix A prepared for the fused steps of :func:`horner` on CPU threads.

    It keeps rA (r folded into the stored values) per dtype and ratio, so repeated series on
    the same graph scale A once.

    Parameters
    ----------
    A : scipy.sparse CSR matrix, shape (n, n)
    r : float
        The default ratio of :meth:`__call__`.
    workers : int or None
        Threads (``None``: the cores this process may use).
    """

    def __init__(self, A, r, *, workers=None):
        self.A = _kernel_csr(A)
        self.r = float(r)
        self.workers = resolve_workers(workers)
        self._scaled = {}

    def _scaled_for(self, dtype, r=None):
        """rA in ``dtype`` (r rounded into each stored value once, in float64)."""
        r = self.r if r is None else float(r)
        key = (np.dtype(dtype), r)
        if key not in self._scaled:
            A = self.A
            data = (A.data.astype(np.float64) * r).astype(dtype)
            self._scaled[key] = sp.csr_array((data, A.indices, A.indptr), shape=A.shape)
        return self._scaled[key]

    def __call__(self, X, S, *, workers=None, H0=None):
        """Σ_{s=0}^{S} (rA)^s X for 2-D ``X`` with the kernel's own r: :func:`horner`."""
        return horner(self, X, self.r, S, workers=workers, H0=H0)


def horner(M, X, r, S, *, H0=None, workers=None):
    """Σ_{s=0}^{S} (rM)^s X by Horner's rule: H ← X + r M H, S times, from H = X.

    The one implementation of the recursion of the Neumann series (paper Eq. 3-4); the factor
    1/(λ+1) is the caller's.

    Parameters
    ----------
    M : HornerKernel, or any matrix or operator with ``@``
        A :class:`HornerKernel` (a SciPy CSR matrix prepared for it) runs each step fused on
        CPU threads: Y = X + (rM) H accumulated into a preallocated buffer that holds X.
        Anything else (a SciPy or CuPy/cupyx matrix, the RNGC operator with its low-rank term,
        a sparse H) runs the plain steps ``H = M @ H; H *= r; H += X``: the slow, obviously
        correct reference on the CPU and the path on a GPU.
    X : array, shape (n, d)
        Any array ``M @`` accepts (for the kernel: NumPy, float32 stays float32).
    r : float
    S : int
        Steps, S >= 0 (S = 0 returns a copy of X, or ``H0``).
    H0 : array, optional
        A partial sum Σ_{s=0}^{t} (rM)^s X computed elsewhere (e.g. sparsely): the recursion
        then runs S more steps from it and returns the sum up to s = t + S. It is used in place
        by the kernel (not copied).
    workers : int or None
        Threads of the kernel for this call (default: its own setting); the plain steps ignore
        it. Results do not depend on it.
    """
    fused = isinstance(M, HornerKernel)
    if fused:
        X = np.ascontiguousarray(X)
    if S == 0 or (fused and X.size == 0):   # nothing to propagate (or to hand a thread)
        return X.copy() if H0 is None else H0
    if not fused:
        H = X.copy() if H0 is None else H0
        for _ in range(S):
            H = M @ H
            H *= r
            H += X
        return H
    # The first step reads X itself as H (no copy of X: one pass less); the second buffer is
    # made when a step first needs it, so S = 1 holds one n x d array besides X.
    H = X if H0 is None else H0
    Y = np.empty_like(X)
    workers = M.workers if workers is None else resolve_workers(workers)
    with SparseProduct(M._scaled_for(X.dtype, r), workers=workers) as mul:
        for _ in range(S):
            mul(H, Y, X)            # Y = X + rM H
            H, Y = Y, (np.empty_like(X) if H is X else H)
    return H
