"""Validation at the public boundary: one coercion point for every accepted input.

Every public function of :mod:`ngc_ref` passes its arguments through these helpers, so the
error messages are uniform: they name the argument, say what was expected and what arrived.
Inside the library the data are then trusted.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import scipy.sparse as sp

from . import _backend
from ._docs import fill_doc

#: Largest number of nodes for which an n x n dense array is formed by default (200 MB in float64).
DEFAULT_MAX_DENSE_NODES = 5000

NORMS = ("sym", "rw")


def _plain(x):
    """``x`` as a message shows it: a NumPy scalar as the Python number it holds (``-1.0``, not
    ``np.float64(-1.0)``), anything else by its ``repr``."""
    return repr(x.item()) if isinstance(x, np.generic) else repr(x)


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

    Examples
    --------
    >>> from ngc_ref.validation import check_scalar
    >>> check_scalar(0.5, "p", min_val=0.0, max_val=1.0)
    0.5
    >>> check_scalar(1.5, "S", integer=True)
    Traceback (most recent call last):
    ...
    TypeError: S must be an integer, got float 1.5
    """
    if isinstance(x, (bool, np.bool_)):
        kind = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {kind}, got bool {_plain(x)}")
    if integer:
        if not isinstance(x, numbers.Integral):
            if isinstance(x, numbers.Real) and float(x).is_integer():
                raise TypeError(f"{name} must be an integer, got {type(x).__name__} {_plain(x)}; "
                                f"pass int({_plain(x)})")
            raise TypeError(f"{name} must be an integer, got {type(x).__name__} {_plain(x)}")
        x = int(x)
    else:
        if not isinstance(x, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {type(x).__name__} {_plain(x)}")
        x = float(x)
        if not np.isfinite(x):
            raise ValueError(f"{name} must be finite, got {_plain(x)}")
    if min_val is not None:
        if (x < min_val) if include_min else (x <= min_val):
            op = ">=" if include_min else ">"
            raise ValueError(f"{name} must be {op} {min_val}, got {_plain(x)}")
    if max_val is not None:
        if (x > max_val) if include_max else (x >= max_val):
            op = "<=" if include_max else "<"
            raise ValueError(f"{name} must be {op} {max_val}, got {_plain(x)}")
    return x


def _check_real_in(x, name, rule, ok):
    """``x`` as a float if it is a real number for which ``ok(float(x))`` holds.

    Every value that misses the rule gets the same message, ``"{name} must be {rule}, got
    {x!r}"``, whether it is negative, zero, NaN or infinite: one rule, stated once, rather than
    a bound for the sign and another for finiteness (which read as if they disagreed).
    """
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        check_scalar(x, name)   # the TypeError for bools, strings, None, complex, ...
    try:
        value = float(x)
    except OverflowError:   # an int beyond the float range
        value = math.inf
    if not (math.isfinite(value) and ok(value)):
        raise ValueError(f"{name} must be {rule}, got {_plain(x)}")
    return value


def check_lam(lam):
    """λ: a finite real number > 0 (``ValueError: lam must be > 0 and finite, got ...``)."""
    return _check_real_in(lam, "lam", "> 0 and finite", lambda v: v > 0.0)


def check_order(S, name="S"):
    """Expansion order S: a non-negative integer."""
    return check_scalar(S, name, min_val=0, integer=True)


def check_eps(eps):
    """ε: a finite real number >= 0 (``ValueError: eps must be >= 0 and finite, got ...``)."""
    return _check_real_in(eps, "eps", ">= 0 and finite", lambda v: v >= 0.0)


def check_option(value, name, options):
    """``value`` if it is one of ``options`` (strings), else a ValueError naming ``name`` and
    listing the valid ones.

    Examples
    --------
    >>> from ngc_ref.validation import check_option
    >>> check_option("rw", "norm", ("sym", "rw"))
    'rw'
    >>> check_option("lap", "norm", ("sym", "rw"))
    Traceback (most recent call last):
    ...
    ValueError: norm must be one of 'sym', 'rw'; got 'lap'
    """
    if not isinstance(value, str) or value not in options:
        valid = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {valid}; got {value!r}")
    return value


def check_norm(norm):
    return check_option(norm, "norm", NORMS)


def check_dense_size(n, max_nodes, what, *, arrays=1, itemsize=8, gpu=False):
    """Refuse to form an n x n dense array when n exceeds ``max_nodes`` or it cannot fit.

    Two guards: ``max_nodes`` (a deliberate opt-in above 5000 nodes), and the memory budget of
    :mod:`ngc_ref._memory` (free memory, or ``NGC_REF_MEMORY_BUDGET``; with ``gpu``, the GPU's
    free memory, or ``NGC_REF_GPU_MEMORY_BUDGET``): ``arrays`` n x n arrays of ``itemsize``
    bytes (the result and the temporaries alive with it) must fit, so a raised ``max_nodes``
    cannot make the operating system kill the process (or CuPy run out of device memory)
    instead.
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
                 detail=detail, gpu=gpu)


def as_generator(seed):
    """Turn ``seed`` into a :class:`numpy.random.Generator`: the one coercion point for seeds.

    Accepted: ``None`` (fresh entropy from the OS), a non-negative integer (Python or NumPy),
    a :class:`numpy.random.SeedSequence` or ``BitGenerator`` (as :func:`numpy.random.default_rng`
    takes them), or a ``Generator``, returned as is so that the caller's stream advances. A
    negative integer is refused here, by name, instead of by NumPy's unnamed "expected
    non-negative integer".

    Examples
    --------
    >>> from ngc_ref.validation import as_generator
    >>> rng = as_generator(0)
    >>> as_generator(rng) is rng      # a Generator goes through: its stream advances
    True
    >>> as_generator(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative integer, got -1
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (np.random.SeedSequence, np.random.BitGenerator)):
        return np.random.default_rng(seed)
    if seed is None or (isinstance(seed, numbers.Integral)
                        and not isinstance(seed, (bool, np.bool_))):
        if seed is not None and seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        return np.random.default_rng(seed)
    raise TypeError(f"seed must be None, a non-negative int, a numpy.random.SeedSequence or a "
                    f"numpy.random.Generator, got {type(seed).__name__} {seed!r}")


class _Deprecated:
    """The default of a keyword's old name, kept for one release after a rename (scikit-learn
    uses the string ``"deprecated"``): an object no caller passes by accident."""

    def __repr__(self):
        return "'deprecated'"


#: The default of a renamed keyword's old name: see :func:`renamed_keyword`.
DEPRECATED = _Deprecated()


def renamed_keyword(func, old, new, old_value, new_value, new_default=None):
    """The value of a keyword renamed from ``old`` to ``new``, whichever name the caller used.

    A function keeps the old name for one release as a keyword-only parameter defaulting to
    :data:`DEPRECATED`; passing it gives a DeprecationWarning that names the new keyword (at
    the caller's line), passing both names a TypeError.

    Examples
    --------
    >>> import warnings
    >>> from ngc_ref._validation import DEPRECATED, renamed_keyword
    >>> def f(seed=None, *, rng=DEPRECATED):
    ...     return renamed_keyword("f", "rng", "seed", rng, seed)
    >>> f(seed=3)
    3
    >>> with warnings.catch_warnings(record=True) as rec:
    ...     warnings.simplefilter("always")
    ...     f(rng=3)
    3
    >>> rec[0].category.__name__, str(rec[0].message).split(";")[0]
    ('DeprecationWarning', 'f(): the keyword rng= was renamed to seed=')
    """
    if old_value is DEPRECATED:
        return new_value
    if new_value is not new_default:
        raise TypeError(f"{func}() got both {new}= and its former name {old}=; pass {new}= only")
    _warn(f"{func}(): the keyword {old}= was renamed to {new}=; {old}= will be removed in the "
          f"next release. Pass {new}= instead.", DeprecationWarning)
    return old_value


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


def _as_real_array(X, xp, name):
    """``xp.asarray(X)`` with a real numeric dtype, or TypeError naming ``name``."""
    try:
        arr = xp.asarray(X)
    except Exception as exc:  # ragged nested lists and the like
        raise TypeError(f"{name} could not be read as an array: {exc}") from None
    _check_real_dtype(arr.dtype, name)
    return arr


def check_adjacency(A, *, symmetrize=False, name="A", weight="weight", nodelist=None):
    """Coerce a graph to a symmetric CSR adjacency with non-negative finite weights.

    Accepted: any SciPy sparse matrix or array, a 2-D NumPy array (or array-like), a
    :class:`networkx.Graph` (see ``weight`` and ``nodelist``), or a CuPy/cupyx matrix (the
    result then stays on the GPU; the same rules and messages apply). The diagonal is returned
    as stored; callers that add self-loops replace it.

    Parameters
    ----------
    A : sparse matrix, ndarray, networkx.Graph or CuPy/cupyx matrix
    name : str
        The argument's name in error messages.
    %(graph_options)s

    Returns
    -------
    scipy.sparse.csr_array (or cupyx csr_matrix), float32 if the input was float32, else float64.

    Warns
    -----
    UserWarning
        For a networkx graph whose node order differs from its sorted labels (see
        ``nodelist``), and for a ``MultiGraph`` with parallel edges, whose weights are added up
        into one entry of the adjacency (the warning names a few of the node pairs).

    Examples
    --------
    >>> from ngc_ref.validation import check_adjacency
    >>> check_adjacency([[0, 1], [1, 0]]).toarray()
    array([[0., 1.],
           [1., 0.]])
    >>> check_adjacency([[0, 2], [1, 0]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: A is not symmetric (the paper's graphs are undirected); pass symmetrize=True ...
    """
    return _check_adjacency(A, symmetrize=symmetrize, name=name, weight=weight,
                            nodelist=nodelist)[0]


fill_doc(check_adjacency)


def _check_adjacency(A, *, symmetrize=False, name="A", weight="weight", nodelist=None):
    """:func:`check_adjacency` and the node of each row: ``(A, labels)``, with ``labels`` the
    networkx graph's nodes in row order, or None for a matrix (row i is node i)."""
    labels = None
    if weight is not None and not isinstance(weight, str):
        raise TypeError(f"weight must be the name (a str) of an edge attribute, or None for "
                        f"weight 1 on every edge; got {type(weight).__name__} {weight!r}")
    is_graph = _is_networkx_graph(A)
    if nodelist is not None and not is_graph:
        raise ValueError(f"nodelist orders the nodes of a networkx graph only; {name} is a "
                         f"matrix ({type(A).__name__}) whose rows are already in order: to "
                         f"reorder it pass A[p][:, p] (and X[p]) for a permutation p, or leave "
                         f"nodelist=None")
    if isinstance(symmetrize, str):
        check_option(symmetrize, "symmetrize", ("max", "mean"))
    elif not isinstance(symmetrize, (bool, np.bool_)):
        raise TypeError(f"symmetrize must be a bool or one of 'max', 'mean'; got {symmetrize!r}")
    gpu = _backend.is_cupy_sparse(A) or _backend.is_cupy_array(A)
    xp, _ = _backend.namespaces(gpu)
    csr = _backend.csr_type(gpu)
    if is_graph:
        A, labels = _networkx_to_csr(A, weight=weight, nodelist=nodelist,
                                     symmetrize=symmetrize, name=name)
    elif sp.issparse(A) or _backend.is_cupy_sparse(A):
        _check_real_dtype(A.dtype, name)
        # A copy (never mutate the caller's matrix) that also sums duplicates of COO input.
        A = csr(A, dtype=float_dtype(A.dtype), copy=True)
    else:
        if isinstance(A, (str, bytes)) or A is None or np.isscalar(A):
            raise TypeError(f"{name} must be a SciPy sparse matrix, a 2-D NumPy array or a "
                            f"networkx.Graph, got {type(A).__name__}")
        arr = _as_real_array(A, xp, name)
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 2-D (an n x n adjacency), got ndim={arr.ndim} "
                             f"with shape={arr.shape}")
        A = csr(arr.astype(float_dtype(arr.dtype)))
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square adjacency matrix, but got shape={A.shape}")
    A.sum_duplicates()
    if A.nnz:
        if not bool(xp.isfinite(A.data).all()):
            raise ValueError(f"{name} has non-finite (NaN or inf) edge weights")
        lowest = A.data.min()
        if lowest < 0:
            raise ValueError(f"{name} has negative edge weights (min {float(lowest):g}); "
                             f"the normalisations need non-negative weights")
    A.eliminate_zeros()
    if symmetrize:
        # Aᵀ as CSR: CuPy's csr_matrix.maximum takes a CSR matrix only (NotImplementedError
        # for the CSC matrix that .T is).
        A = csr(A.maximum(A.T.tocsr()) if symmetrize in (True, "max") else (A + A.T) * 0.5)
    elif not is_symmetric(A):
        raise ValueError(f"{name} is not symmetric (the paper's graphs are undirected); pass "
                         f"symmetrize=True (max(A, A.T)) or symmetrize='mean' ((A + A.T)/2)")
    A.sort_indices()
    return A, labels


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


def _networkx_to_csr(G, *, weight, nodelist, symmetrize, name):
    """``(A, order)``: the float64 CSR adjacency of a networkx graph, rows and columns in
    ``order`` (``nodelist``, or ``G.nodes()`` when it is None).

    The weights and the order are checked here rather than left to
    ``networkx.to_scipy_sparse_array``, which reports a bad weight as NumPy's "could not convert
    string to float" and treats a short ``nodelist`` as a request for a subgraph.
    """
    import networkx as nx
    if G.is_directed() and not symmetrize:
        raise ValueError(f"{name} is a directed networkx graph; pass symmetrize=True to use "
                         f"its undirected version, or convert it with G.to_undirected()")
    if nodelist is None:
        order = list(G)
        _warn_if_not_in_label_order(order, name)
    else:
        order = _check_nodelist(nodelist, G, name)
    if weight is not None:
        _check_edge_weights(G, weight, name)
    if G.is_multigraph():
        _warn_if_parallel_edges(G, weight, name)
    if G.number_of_nodes() == 0:   # networkx refuses to convert the null graph
        return sp.csr_array((0, 0), dtype=np.float64), order
    return nx.to_scipy_sparse_array(G, nodelist=order, weight=weight, format="csr",
                                    dtype=np.float64), order


def _preview(items, k=5):
    items = list(items)
    return repr(items) if len(items) <= k else f"[{', '.join(map(repr, items[:k]))}, ...]"


def _warn_if_not_in_label_order(nodes, name):
    # Row i is the i-th node of G.nodes() (networkx's rule), not the i-th label. Where the two
    # differ, features indexed by label (X[0] for node 0, or rows sorted by name) are silently
    # misaligned, whatever the label type. Labels that do not sort (1 and "a") have no label
    # order to confuse with: nothing to say.
    try:
        by_label = sorted(nodes)
    except TypeError:
        return
    if by_label == nodes:
        return
    _warn(f"{name} is a networkx graph whose nodes are not in sorted label order: rows and "
          f"columns (and the rows of X and of the result) follow G.nodes(), i.e. insertion "
          f"order {_preview(nodes)}, not the sorted labels {_preview(by_label)}. Pass "
          f"nodelist=sorted(G) for label order, or nodelist=list(G) to keep G's order without "
          f"this warning", UserWarning)


def _warn_if_parallel_edges(G, weight, name):
    """Say that a multigraph's parallel edges are added up (networkx's conversion does it)."""
    parallel, seen = [], set()
    for u, nbrs in G.adj.items():
        for v, keys in nbrs.items():
            if len(keys) > 1 and (G.is_directed() or (v, u) not in seen):
                seen.add((u, v))
                parallel.append(f"({u!r}, {v!r}): {len(keys)} edges")
    if not parallel:
        return
    what = ("edges (weight=None: 1 each) are counted" if weight is None else
            f"{weight!r} weights are added up")
    _warn(f"{name} is a networkx {type(G).__name__} with parallel edges between "
          f"{len(parallel)} node pair(s), e.g. {'; '.join(parallel[:3])}: their {what} "
          f"into one entry of the adjacency. Pass nx.Graph(G) to keep one edge per pair "
          f"(networkx keeps the last edge's attributes), or build a Graph with the weights "
          f"you mean, to make the choice without this warning", UserWarning)


def _check_nodelist(nodelist, G, name):
    n = G.number_of_nodes()
    order = None
    if not isinstance(nodelist, (str, bytes)):
        try:
            order = list(nodelist)
        except TypeError:   # not iterable: the message below
            pass
    if order is None:
        raise TypeError(f"nodelist must be a sequence of the {n} nodes of {name}, got "
                        f"{type(nodelist).__name__} {nodelist!r}")
    try:
        seen = set(order)
    except TypeError as exc:
        raise TypeError(f"nodelist must hold the nodes of {name}, which are hashable; "
                        f"got {exc}") from None
    if len(seen) == len(order) == n and all(v in G for v in order):
        return order
    problems = []
    missing = [v for v in G if v not in seen]
    if missing:
        problems.append(f"missing: {_preview(missing)}")
    extra = [v for v in order if v not in G]
    if extra:
        problems.append(f"not in {name}: {_preview(extra)}")
    counted = set()
    repeated = [v for v in order if v in counted or counted.add(v)]
    if repeated:
        problems.append(f"repeated: {_preview(dict.fromkeys(repeated))}")
    raise ValueError(f"nodelist must list each of the {n} nodes of {name} exactly once (it "
                     f"orders the rows and columns); got {len(order)} entries, "
                     + "; ".join(problems))


def _check_edge_weights(G, weight, name):
    """Refuse, by edge, a ``weight`` attribute that is not a finite non-negative number."""
    vals = [w for _, _, w in G.edges(data=weight, default=1)]
    try:
        arr = np.asarray(vals)
    except (TypeError, ValueError):   # ragged sequences among the values
        arr = None
    # Fast path: one vectorised check when every value is a plain number.
    if arr is not None and arr.ndim == 1 and arr.dtype.kind in "biuf":
        if arr.dtype.kind == "b" or (np.isfinite(arr).all() and arr.min(initial=0) >= 0):
            return
    for u, v, w in G.edges(data=weight, default=1):
        if _is_edge_weight(w):
            continue
        where = f"the {weight!r} attribute of edge ({u!r}, {v!r}) of {name} is {w!r}"
        fix = ("edge weights must be finite non-negative numbers: fix the attribute, pass "
               "weight= another attribute, or weight=None for weight 1 on every edge")
        if isinstance(w, numbers.Real):
            raise ValueError(f"weight: {where}; {fix}")
        raise TypeError(f"weight: {where} ({type(w).__name__}); {fix}")


def _is_edge_weight(w):
    if isinstance(w, (bool, np.bool_)):   # as for bool matrices: True weighs 1
        return True
    if not isinstance(w, numbers.Real):
        return False
    try:
        return math.isfinite(w) and w >= 0
    except OverflowError:   # an int beyond the float range
        return False


def _warn(message, category):
    """``warnings.warn`` pointing at the first caller outside ngc_ref, however deep the call."""
    import os
    import sys
    import warnings
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame, level = sys._getframe(0), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


#: The way out named by the memory guard of :func:`check_array`.
_FEATURES_MEMORY_HINT = ("pass X a block of columns at a time (the propagations, solves and "
                         "noise models treat each column on its own)")


def check_array(X, *, name="X", n_rows=None, accept_sparse=False, ensure_2d=True, what=None,
                work_arrays=0):
    """Coerce an array argument (features, a signal, a matrix) by the library's one set of rules.

    The rules, for NumPy/SciPy and CuPy/cupyx input alike (the result stays on the device it
    came from): a real numeric dtype (bool, int or float; TypeError otherwise), 1-D or 2-D
    (sparse: 2-D), ``n_rows`` rows if given, finite entries (ValueError otherwise). float32 is
    kept (float16 becomes float32); everything else becomes float64. Every message names the
    argument ``name``, says what was expected and what arrived.

    Parameters
    ----------
    X : array_like, sparse matrix, or CuPy/cupyx array
    name : str
        The argument's name in error messages.
    n_rows : int, optional
        The number of rows required (one per node).
    accept_sparse : bool
        Return sparse input as CSR (``False``: densify it, an n x d array, never n x n).
    ensure_2d : bool
        Return a 1-D input as an (n, 1) column (``False``: keep it 1-D).
    what : str, optional
        The operation, for the memory guard's message (default: converting ``name``).
    work_arrays : int
        n x d arrays of the result's dtype that the caller is about to allocate besides it.

    Returns
    -------
    ndarray, CSR matrix or CuPy array
        The caller's array is never modified: the result is a new array unless the input
        already had the right dtype and layout, in which case it is returned as is and must
        be treated as read-only.

    Notes
    -----
    Every n x d array made here (the densified sparse input, a dtype conversion) and the
    ``work_arrays`` further ones must fit the memory budget of :mod:`ngc_ref._memory` (the
    GPU's for CuPy input), checked before any of them is allocated; otherwise ValueError with
    the numbers.

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.validation import check_array
    >>> check_array([1, 2, 3]).T
    array([[1., 2., 3.]])
    >>> check_array(np.ones((2, 2)), n_rows=3)
    Traceback (most recent call last):
    ...
    ValueError: X must have one row per node: expected 3 rows, got shape=(2, 2)
    """
    gpu = _backend.is_cupy_array(X) or _backend.is_cupy_sparse(X)
    xp, _ = _backend.namespaces(gpu)
    if sp.issparse(X) or _backend.is_cupy_sparse(X):
        _check_real_dtype(X.dtype, name)
        dtype = float_dtype(X.dtype)
        if len(X.shape) != 2:
            raise ValueError(f"{name} must be 2-D, got shape={X.shape}")
        _check_rows(X.shape, n_rows, name)
        _check_features_memory(X.shape, dtype, work_arrays + (not accept_sparse), name, what,
                               densified=not accept_sparse, gpu=gpu)
        Xc = _backend.csr_type(gpu)(X, dtype=dtype, copy=True)
        if Xc.nnz and not bool(xp.isfinite(Xc.data).all()):
            raise ValueError(f"{name} contains non-finite values (NaN or inf)")
        return Xc if accept_sparse else Xc.toarray()
    if X is None or isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a NumPy array or SciPy sparse matrix, got "
                        f"{type(X).__name__}")
    arr = _as_real_array(X, xp, name)
    if arr.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D or 2-D (n x d), got ndim={arr.ndim} with "
                         f"shape={arr.shape}")
    if ensure_2d and arr.ndim == 1:
        arr = arr[:, None]
    _check_rows(arr.shape, n_rows, name)
    dtype = float_dtype(arr.dtype)
    shape2 = arr.shape if arr.ndim == 2 else (arr.shape[0], 1)
    _check_features_memory(shape2, dtype, work_arrays + (arr.dtype != dtype), name, what,
                           gpu=gpu)
    arr = xp.asarray(arr, dtype=dtype)
    if not bool(xp.isfinite(arr).all()):
        raise ValueError(f"{name} contains non-finite values (NaN or inf)")
    return arr


def check_per_row(v, n, name, *, per="node"):
    """``v`` as a 1-D array with one entry per node (``n`` of them, or per ``per``).

    A ValueError naming ``name`` otherwise; the dtype is the caller's to check.
    """
    v = np.asarray(v)
    if v.ndim != 1 or v.shape[0] != n:
        raise ValueError(f"{name} must be a 1-D array with one entry per {per} ({n}), got "
                         f"shape={v.shape}")
    return v


def _check_rows(shape, n_rows, name):
    if n_rows is not None and shape[0] != n_rows:
        raise ValueError(f"{name} must have one row per node: expected {n_rows} rows, got "
                         f"shape={shape}")


def check_features(X, n, *, name="X", allow_sparse=False, what=None, work_arrays=0):
    """Node features: :func:`check_array` with ``n`` rows, 2-D (a 1-D signal becomes (n, 1))."""
    return check_array(X, name=name, n_rows=n, accept_sparse=allow_sparse, ensure_2d=True,
                       what=what, work_arrays=work_arrays)


def _check_features_memory(shape, dtype, arrays, name, what, densified=False, gpu=False):
    """The memory guard of :func:`check_array`: ``arrays`` n x d arrays of ``dtype`` (device
    memory when ``gpu``)."""
    if not arrays:
        return
    from ._memory import check_dense_work
    parts = [f"the dense copy of the sparse {name}"] if densified else []
    if what is None:
        what = f"densifying the sparse {name}" if densified else f"converting {name}"
    elif arrays > densified:
        parts.append(f"{what}'s work arrays")
    check_dense_work(shape, np.dtype(dtype).itemsize, arrays, what, _FEATURES_MEMORY_HINT,
                     detail=" and ".join(parts), gpu=gpu)
