"""Validation at the public boundary: one coercion point for every accepted input.

Every public function of :mod:`ngc_ref` passes its arguments through these helpers, so the
error messages are uniform: they name the argument, say what was expected and what arrived.
Inside the library the data are then trusted.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from . import _backend

#: Largest number of nodes for which an n x n dense array is formed by default (200 MB in float64).
DEFAULT_MAX_DENSE_NODES = 5000

NORMS = ("sym", "rw")


def check_scalar(x, name, *, min_val=None, max_val=None, include_min=True, include_max=True,
                 integer=False):
    """Return ``x`` as a Python float (or int) after checking type, finiteness and range.

    Parameters
    ----------
    x : object
        The value to check.
    name : str
        Argument name used in error messages.
    min_val, max_val : float, optional
        Bounds; ``include_min``/``include_max`` say whether they are attained.
    integer : bool
        Require an integral value (``numbers.Integral`` or an integral NumPy scalar).
    """
    if isinstance(x, (bool, np.bool_)):
        kind = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {kind}, got bool {x!r}")
    if integer:
        if not isinstance(x, numbers.Integral):
            if isinstance(x, numbers.Real) and float(x).is_integer():
                raise TypeError(f"{name} must be an integer, got {type(x).__name__} {x!r}; "
                                f"pass int({x!r})")
            raise TypeError(f"{name} must be an integer, got {type(x).__name__} {x!r}")
        x = int(x)
    else:
        if not isinstance(x, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {type(x).__name__} {x!r}")
        x = float(x)
        if not np.isfinite(x):
            raise ValueError(f"{name} must be finite, got {x!r}")
    if min_val is not None:
        if (x < min_val) if include_min else (x <= min_val):
            op = ">=" if include_min else ">"
            raise ValueError(f"{name} must be {op} {min_val}, got {x!r}")
    if max_val is not None:
        if (x > max_val) if include_max else (x >= max_val):
            op = "<=" if include_max else "<"
            raise ValueError(f"{name} must be {op} {max_val}, got {x!r}")
    return x


def check_lam(lam):
    """λ > 0, finite."""
    return check_scalar(lam, "lam", min_val=0.0, include_min=False)


def check_order(S, name="S"):
    """Expansion order S: a non-negative integer."""
    return check_scalar(S, name, min_val=0, integer=True)


def check_eps(eps):
    """ε >= 0, finite."""
    return check_scalar(eps, "eps", min_val=0.0)


def check_option(value, name, options):
    """``value`` must be one of ``options`` (strings); the message lists the valid ones."""
    if not isinstance(value, str) or value not in options:
        valid = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {valid}; got {value!r}")
    return value


def check_norm(norm):
    return check_option(norm, "norm", NORMS)


def check_dense_size(n, max_nodes, what, *, arrays=1, itemsize=8):
    """Refuse to form an n x n dense array when n exceeds ``max_nodes`` or it cannot fit.

    Two guards: ``max_nodes`` (a deliberate opt-in above 5000 nodes), and the memory budget of
    :mod:`ngc_ref._memory` (free memory, or ``NGC_REF_MEMORY_BUDGET``): ``arrays`` n x n arrays
    of ``itemsize`` bytes (the result and the temporaries alive with it) must fit, so a raised
    ``max_nodes`` cannot make the operating system kill the process instead.
    """
    max_nodes = check_scalar(max_nodes, "max_nodes", min_val=1, integer=True)
    one = n * n * itemsize
    if n > max_nodes:
        raise ValueError(
            f"{what} would form a dense {n} x {n} array ({one / 2**30:.2f} GiB in float64), "
            f"above max_nodes={max_nodes}; pass max_nodes={n} (or larger) if you really want "
            f"it, or use the sparse/blockwise functions instead")
    from ._memory import check_memory
    detail = (f"{arrays} dense {n} x {n} arrays of {itemsize} bytes per entry" if arrays > 1
              else f"a dense {n} x {n} array of {itemsize} bytes per entry")
    check_memory(arrays * one, what,
                 "use the sparse/blockwise functions instead (neumann_propagate, "
                 "gsd_solve(method='cg'), connectivity_factor(method='exact' or 'estimate'))",
                 detail=detail)


def as_generator(seed):
    """Turn ``seed`` (None, int, or Generator) into a :class:`numpy.random.Generator`."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (isinstance(seed, numbers.Integral) and not isinstance(seed, bool)):
        if seed is not None and seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        return np.random.default_rng(seed)
    raise TypeError(f"seed must be None, a non-negative int or a numpy.random.Generator, "
                    f"got {type(seed).__name__}")


def float_dtype(*dtypes):
    """float32 when every given dtype is float32 (or narrower float), else float64."""
    if dtypes and all(np.dtype(d) in (np.dtype(np.float32), np.dtype(np.float16)) for d in dtypes):
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def _check_real_dtype(dtype, name):
    dtype = np.dtype(dtype)
    if dtype.kind not in "biuf":
        raise TypeError(f"{name} must have a real numeric (bool, int or float) dtype, got {dtype}")
    return dtype


def check_adjacency(A, *, symmetrize=False, name="A"):
    """Coerce a graph to a symmetric CSR adjacency with non-negative finite weights.

    Accepted: any SciPy sparse matrix or array, a 2-D NumPy array (or array-like), a
    :class:`networkx.Graph` (edge attribute ``weight`` if present), or a CuPy/cupyx matrix (the
    result then stays on the GPU). The diagonal is returned as stored; callers that add
    self-loops replace it.

    Parameters
    ----------
    symmetrize : bool or {"max", "mean"}
        ``False`` (default) rejects a non-symmetric input with a ValueError. ``True`` or
        ``"max"`` takes max(A, Aᵀ) (the union of the edges); ``"mean"`` takes (A + Aᵀ)/2.

    Returns
    -------
    scipy.sparse.csr_array (or cupyx csr_matrix), float32 if the input was float32, else float64.
    """
    if _backend.is_cupy_sparse(A) or _backend.is_cupy_array(A):
        return _backend.check_adjacency_gpu(A, symmetrize=symmetrize, name=name)
    if isinstance(symmetrize, str):
        check_option(symmetrize, "symmetrize", ("max", "mean"))
    elif not isinstance(symmetrize, (bool, np.bool_)):
        raise TypeError(f"symmetrize must be a bool or one of 'max', 'mean'; got {symmetrize!r}")
    if _is_networkx_graph(A):
        import networkx as nx
        if A.is_directed() and not symmetrize:
            raise ValueError(f"{name} is a directed networkx graph; pass symmetrize=True to use "
                             f"its undirected version, or convert it with G.to_undirected()")
        if A.number_of_nodes() == 0:   # networkx refuses to convert the null graph
            A = sp.csr_array((0, 0), dtype=np.float64)
        else:
            A = nx.to_scipy_sparse_array(A, weight="weight", format="csr", dtype=np.float64)
    elif sp.issparse(A):
        _check_real_dtype(A.dtype, name)
        # A copy (never mutate the caller's matrix) that also sums duplicates of COO input.
        A = sp.csr_array(A, dtype=float_dtype(A.dtype), copy=True)
    else:
        if isinstance(A, (str, bytes)) or A is None or np.isscalar(A):
            raise TypeError(f"{name} must be a SciPy sparse matrix, a 2-D NumPy array or a "
                            f"networkx.Graph, got {type(A).__name__}")
        try:
            arr = np.asarray(A)
        except Exception as exc:  # ragged lists and the like
            raise TypeError(f"{name} could not be read as an array: {exc}") from None
        _check_real_dtype(arr.dtype, name)
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 2-D (an n x n adjacency), got ndim={arr.ndim} "
                             f"with shape={arr.shape}")
        A = sp.csr_array(arr.astype(float_dtype(arr.dtype)))
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square adjacency matrix, but got shape={A.shape}")
    A.sum_duplicates()
    if A.nnz:
        if not np.all(np.isfinite(A.data)):
            raise ValueError(f"{name} has non-finite (NaN or inf) edge weights")
        if A.data.min() < 0:
            raise ValueError(f"{name} has negative edge weights (min {A.data.min()!r}); "
                             f"the normalisations need non-negative weights")
    A.eliminate_zeros()
    if symmetrize:
        A = sp.csr_array(A.maximum(A.T) if symmetrize in (True, "max") else (A + A.T) * 0.5)
    elif not is_symmetric(A):
        raise ValueError(f"{name} is not symmetric (the paper's graphs are undirected); pass "
                         f"symmetrize=True (max(A, A.T)) or symmetrize='mean' ((A + A.T)/2)")
    A.sort_indices()
    return A


def is_symmetric(A, rtol=1e-12):
    """Symmetric up to rounding: |A - Aᵀ| <= rtol * max|A| entrywise."""
    diff = abs(A - A.T)
    if diff.nnz == 0:
        return True
    scale = abs(A).max() if A.nnz else 0.0
    return bool(diff.max() <= rtol * scale)


def _is_networkx_graph(G):
    try:
        import networkx as nx
    except ImportError:  # pragma: no cover - networkx is a dependency
        return False
    return isinstance(G, nx.Graph)


def check_features(X, n, *, name="X", allow_sparse=False):
    """Coerce node features to a 2-D float array with ``n`` rows and finite entries.

    A 1-D signal of length ``n`` is accepted and returned as an (n, 1) array. SciPy sparse
    input is densified (an n x d array, never n x n) unless ``allow_sparse`` is set, in which case
    a CSR array is returned. float32 is kept; everything else becomes float64. The caller's
    array is never modified: the result is a new array unless it already had the right dtype
    and layout, in which case it is returned as is and must be treated as read-only.
    """
    if _backend.is_cupy_array(X) or _backend.is_cupy_sparse(X):
        return _backend.check_features_gpu(X, n, name=name)
    if sp.issparse(X):
        _check_real_dtype(X.dtype, name)
        dtype = float_dtype(X.dtype)
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got shape={X.shape}")
        if X.shape[0] != n:
            raise ValueError(f"{name} must have one row per node: expected {n} rows, "
                             f"got shape={X.shape}")
        Xc = sp.csr_array(X, dtype=dtype, copy=True)
        if Xc.nnz and not np.all(np.isfinite(Xc.data)):
            raise ValueError(f"{name} contains non-finite values (NaN or inf)")
        return Xc if allow_sparse else Xc.toarray()
    if X is None or isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a NumPy array or SciPy sparse matrix, got "
                        f"{type(X).__name__}")
    try:
        arr = np.asarray(X)
    except Exception as exc:
        raise TypeError(f"{name} could not be read as an array: {exc}") from None
    _check_real_dtype(arr.dtype, name)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 1-D or 2-D (n x d), got ndim={arr.ndim}")
    if arr.shape[0] != n:
        raise ValueError(f"{name} must have one row per node: expected {n} rows, got "
                         f"shape={arr.shape}")
    arr = np.asarray(arr, dtype=float_dtype(arr.dtype))
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains non-finite values (NaN or inf)")
    return arr
