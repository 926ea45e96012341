"""Feature noise models of the paper and the row normalisation applied after them.

* :func:`gaussian_noise` -- X + ξη with η i.i.d. N(0, 1) (Sec. 5, the default experiment);
* :func:`subgaussian_noise` / :func:`add_subgaussian_noise` -- Gaussian, Rademacher or uniform
  noise together with its sub-Gaussian parameter σ in the sense of Assumption 1;
* :func:`flip_features` -- Bernoulli flipping of binary features (Sec. 5, Table 4);
* :func:`row_normalize` -- PyG 2.0.3 ``NormalizeFeatures`` (the paper's default, Sec. 5 and
  Appendix "Analysis on Row Normalization") and the l1 / l2 variants;
* :func:`corrupt` -- the whole pipeline in one call.

Every function takes ``seed=None | int | numpy.random.Generator`` where it draws random numbers,
never modifies its input and returns new arrays.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from . import _memory
from ._sampling import bernoulli_positions
from ._validation import (_check_real_dtype, as_generator, check_array, check_option,
                          check_scalar)

SUBGAUSSIAN_KINDS = ("gaussian", "rademacher", "uniform")
PROXIES = ("hoeffding", "optimal")
ROW_NORMS = ("pyg", "pyg_shift", "l1", "l2")
CORRUPTIONS = ("gaussian", "flip", "rademacher", "uniform")


# ----------------------------------------------------------------------------- input handling

def _sparse_like(out, X):
    """``out`` in the sparse format and class (``*_array`` vs ``*_matrix``) of ``X``."""
    return out if type(out) is type(X) else type(X)(out)


def _check_shape(shape):
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, tuple):
        raise TypeError(f"shape must be an int or a tuple of ints, got {type(shape).__name__}")
    return tuple(check_scalar(s, "shape", min_val=0, integer=True) for s in shape)


def _draw(shape, kind, scale, rng):
    """``scale`` times a unit draw of ``kind``; always float64 so that one seed gives the same
    numbers whatever the dtype of the data they are added to."""
    if kind == "gaussian":
        eta = rng.standard_normal(shape)
    elif kind == "rademacher":
        eta = 2.0 * rng.integers(0, 2, size=shape).astype(np.float64) - 1.0
    else:
        eta = rng.uniform(-1.0, 1.0, size=shape)
    eta *= scale
    return eta


def _sigma(kind, scale, proxy):
    if kind == "uniform" and proxy == "optimal":
        return scale / math.sqrt(3.0)
    return scale


# ------------------------------------------------------------------------------ noise models

def gaussian_noise(X, xi, seed=None):
    """The paper's noisy features X + ξη, with η i.i.d. standard Gaussian.

    .. math::

        \\tilde X = X + \\xi\\,\\eta,\\qquad \\eta_{ij} \\overset{iid}{\\sim} N(0, 1),

    so every noise entry is sub-Gaussian with parameter σ = ξ (Assumption 1).

    Parameters
    ----------
    X : array_like or scipy sparse matrix, shape (n, d) or (n,)
        Clean features. Sparse input is densified (an n x d array: the noise fills every entry).
    xi : float
        Noise level ξ >= 0.
    seed : None, int or numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        Same shape as ``X``; float32 if ``X`` is float32, else float64.

    Raises
    ------
    ValueError
        If ``xi`` is negative or not finite, or ``X`` has a wrong shape or non-finite entries;
        if the noisy features are not representable in X's dtype (float32 X with ξ = 1e200);
        or if the noise (a float64 n x d draw) does not fit the memory budget of
        :mod:`ngc_ref._memory`.
    TypeError
        If ``X`` has a complex/object dtype, or ``xi``/``seed`` has a wrong type.

    References
    ----------
    .. [1] Paper, Sec. 5 ("X + ξη where η is sampled from standard i.i.d. Gaussian") and
       Appendix "Analysis on Row Normalization".

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.noise import gaussian_noise
    >>> gaussian_noise(np.zeros((2, 2)), 0.0, seed=0)
    array([[0., 0.],
           [0., 0.]])
    >>> Xn = gaussian_noise(np.zeros((1000, 100)), 0.5, seed=0)
    >>> round(float(Xn.std()), 2)
    0.5
    """
    xi = check_scalar(xi, "xi", min_val=0.0)
    return _add_noise(X, "gaussian", xi, seed, "xi", "gaussian_noise")


def _add_noise(X, kind, scale, seed, name, what):
    """X + scale·η (η a unit draw of ``kind``) in X's float dtype, for the public functions.

    The draw is float64 (one seed, the same numbers for every dtype) and X is added to it in
    place, so the work is one float64 n x d array (and its float32 copy for float32 X), checked
    against the memory budget of :mod:`ngc_ref._memory` first. Noise that the dtype cannot
    represent (float32 X with scale 1e200) is refused with a ValueError naming ``name``, the
    caller ``what``'s argument, instead of being returned as ±inf.
    """
    if scale == 0 and sp.issparse(X):
        # No noise, nothing to densify: X as given (its format and class; float32 kept, other
        # dtypes float64, as below), so a sparse X stays as cheap to propagate as it came.
        return _sparse_like(check_array(X, accept_sparse=True, ensure_2d=False), X)
    # 1-D stays 1-D: a draw of shape (n,) has the same numbers as one of shape (n, 1).
    Xd = check_array(X, ensure_2d=False)
    _memory.check_dense_work(Xd.shape if Xd.ndim == 2 else (Xd.shape[0], 1),
                             8 if Xd.dtype == np.float64 else 12, 1, what,
                             "pass X a block of columns at a time",
                             detail="the noise draw (float64) and its cast to X's dtype")
    with np.errstate(over="ignore", invalid="ignore"):
        out = _draw(Xd.shape, kind, scale, as_generator(seed)).astype(Xd.dtype, copy=False)
        out += Xd
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{what}: {name}={scale!r} gives noise that {Xd.dtype} cannot "
                         f"represent (it overflows to ±inf beyond "
                         f"{float(np.finfo(Xd.dtype).max):.3g}); use a smaller {name}"
                         + (" or float64 features" if Xd.dtype == np.float32 else ""))
    return out


def subgaussian_noise(shape, kind="gaussian", scale=1.0, seed=None, *, proxy="hoeffding"):
    """Centred i.i.d. sub-Gaussian noise and its sub-Gaussian parameter σ (Assumption 1).

    Assumption 1 asks that every entry satisfy
    :math:`\\mathbb E[e^{t\\eta}] \\le e^{\\sigma^2 t^2/2}` for all real t (the paper calls σ a
    "variance"; it is the sub-Gaussian parameter, the standard deviation in the Gaussian case).

    ==============  =====================  ==============  ==========================
    kind            entries                variance        σ returned
    ==============  =====================  ==============  ==========================
    ``gaussian``    N(0, s²)               s²              s (exact)
    ``rademacher``  ±s with prob. 1/2      s²              s (cosh(st) <= e^{s²t²/2})
    ``uniform``     Uniform[-s, s]         s²/3            s (Hoeffding's lemma), or
                                                           s/√3 with ``proxy="optimal"``
    ==============  =====================  ==============  ==========================

    For the uniform law Hoeffding's lemma (range 2s) gives σ = s, valid but loose: since
    sinh(x)/x <= exp(x²/6), the uniform law is strictly sub-Gaussian and σ = s/√3, its standard
    deviation, is the smallest valid parameter. Both are valid in Lemma 1; the optimal one
    gives a bound three times smaller in σ².

    Parameters
    ----------
    shape : int or tuple of int
    kind : {"gaussian", "rademacher", "uniform"}
    scale : float
        The ``s`` of the table, ``>= 0``.
    seed : None, int or numpy.random.Generator
    proxy : {"hoeffding", "optimal"}
        Which σ to report for ``kind="uniform"`` (no effect on the other kinds).

    Returns
    -------
    eta : numpy.ndarray of float64
    sigma : float

    Raises
    ------
    ValueError
        Unknown ``kind``/``proxy``, negative ``scale`` or shape entry.

    References
    ----------
    .. [1] Paper, Sec. 3, Assumption 1; Appendix, proof of Lemma 1 (general Hoeffding
       inequality).

    Examples
    --------
    >>> from ngc_ref.noise import subgaussian_noise
    >>> eta, sigma = subgaussian_noise((2, 3), "rademacher", 0.5, seed=0)
    >>> sorted(set(eta.ravel().tolist())), sigma
    ([-0.5, 0.5], 0.5)
    >>> subgaussian_noise(4, "uniform", 3.0, seed=0, proxy="optimal")[1]
    1.7320508075688774
    """
    shape = _check_shape(shape)
    check_option(kind, "kind", SUBGAUSSIAN_KINDS)
    check_option(proxy, "proxy", PROXIES)
    scale = check_scalar(scale, "scale", min_val=0.0)
    return _draw(shape, kind, scale, as_generator(seed)), _sigma(kind, scale, proxy)


def add_subgaussian_noise(X, kind="gaussian", scale=1.0, seed=None, *, proxy="hoeffding"):
    """``X + eta`` with ``eta`` from :func:`subgaussian_noise`; returns ``(X_noisy, sigma)``.

    With ``kind="gaussian"`` and the same seed this equals ``gaussian_noise(X, scale, seed)``.
    Sparse ``X`` is densified; float32 is kept.

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.noise import add_subgaussian_noise, gaussian_noise
    >>> X = np.ones((3, 2))
    >>> Xn, sigma = add_subgaussian_noise(X, "gaussian", 0.1, seed=3)
    >>> bool(np.array_equal(Xn, gaussian_noise(X, 0.1, seed=3))), sigma
    (True, 0.1)
    """
    check_option(kind, "kind", SUBGAUSSIAN_KINDS)
    check_option(proxy, "proxy", PROXIES)
    scale = check_scalar(scale, "scale", min_val=0.0)
    return (_add_noise(X, kind, scale, seed, "scale", "add_subgaussian_noise"),
            _sigma(kind, scale, proxy))


def flip_features(X, p, seed=None):
    """Flip every entry of a binary feature matrix independently with probability ``p``.

    .. math::

        \\tilde X_{ij} = X_{ij} \\oplus B_{ij} = |X_{ij} - B_{ij}|,\\qquad
        B_{ij} \\overset{iid}{\\sim} \\mathrm{Bernoulli}(p),

    the paper's "flipping perturbation" (Sec. 5, Table 4). The perturbation ``X̃ - X`` takes
    values in {-1, 0, 1} and is bounded, hence sub-Gaussian (but not centred: its mean is
    ``p (1 - 2 X)``).

    The flip positions are sampled directly (geometric skipping over the ``n d`` entries in
    row-major order, O(p n d) time), never as an n x d random matrix, so the same seed flips
    the same entries for dense and sparse input. Sparse input gives sparse output of the same
    format and class, built as X + B - 2 X∘B in O(nnz(X) + nnz(B)) without densifying; note
    that its density becomes ``p + (1 - 2p) density(X)``, so for large ``p`` a dense matrix is
    usually the better container.

    Parameters
    ----------
    X : array_like or scipy sparse matrix
        Entries in {0, 1} (any real dtype, bool included; explicit sparse zeros allowed).
    p : float
        Flip probability, ``0 <= p <= 1``.
    seed : None, int or numpy.random.Generator

    Returns
    -------
    numpy.ndarray or scipy sparse matrix
        Same shape, dtype, and (for sparse) format and class as ``X``.

    Raises
    ------
    ValueError
        If ``X`` has an entry other than 0 or 1, or ``p`` is outside [0, 1].
    TypeError
        If ``X`` has a complex/object dtype, or ``seed`` has a wrong type.

    References
    ----------
    .. [1] Paper, Sec. 5 "Denoising Performance on Feature Flipping Perturbation", Table 4.

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.noise import flip_features
    >>> flip_features(np.array([[0, 1], [1, 0]]), 1.0)
    array([[1, 0],
           [0, 1]])
    >>> Xf = flip_features(np.zeros((100, 100), dtype=bool), 0.1, seed=0)
    >>> Xf.dtype, int(Xf.sum())
    (dtype('bool'), 983)
    """
    p = check_scalar(p, "p", min_val=0.0, max_val=1.0)
    rng = as_generator(seed)
    if sp.issparse(X):
        _check_real_dtype(X.dtype, "X")
        Xc = sp.csr_array(X, dtype=np.float64, copy=True)
        _check_binary(Xc.data)
        n, d = Xc.shape
        pos = bernoulli_positions(n * d, p, rng)
        B = sp.csr_array((np.ones(pos.size), (pos // d, pos % d)), shape=(n, d))
        out = Xc + B - 2.0 * Xc.multiply(B)
        out = sp.csr_array(out)
        out.eliminate_zeros()
        out.sort_indices()
        return _sparse_like(out.astype(X.dtype), X)
    if X is None or isinstance(X, (str, bytes)):
        raise TypeError(f"X must be a NumPy array or SciPy sparse matrix, got {type(X).__name__}")
    arr = np.asarray(X)
    _check_real_dtype(arr.dtype, "X")
    _check_binary(arr)
    out = np.array(arr, copy=True, order="C")
    flat = out.reshape(-1)
    pos = bernoulli_positions(flat.size, p, rng)
    flat[pos] = ~flat[pos] if out.dtype == np.bool_ else 1 - flat[pos]
    return out


def _check_binary(values):
    ok = (values == 0) | (values == 1)
    if not np.all(ok):
        bad = np.asarray(values)[~ok].ravel()[:3]
        raise ValueError(f"X must be binary (entries 0 or 1) for flipping; found "
                         f"{bad.tolist()} among its entries")


# --------------------------------------------------------------------------- normalisation

def _row_sums(M):
    return np.asarray(M.sum(axis=1)).ravel()


def _scale_rows(M, v):
    if sp.issparse(M):
        return sp.csr_array(sp.dia_array((v[None, :], [0]), shape=(v.size, v.size)) @ M)
    return M * v[:, None]


def _row_divisor(Xv, method):
    """Per-row divisor for dense or sparse ``Xv``; it is 0 only for all-zero rows."""
    if method in ("pyg", "pyg_shift"):
        return np.maximum(_row_sums(Xv), 1.0)
    A = abs(Xv)
    if method == "l1":
        return _row_sums(A)
    # ||x|| = m ||x / m|| with m = max|x_j|: squaring tiny entries must not underflow to 0.
    if sp.issparse(A):
        m = A.max(axis=1).toarray().ravel()
    else:
        m = A.max(axis=1) if A.shape[1] else np.zeros(A.shape[0], A.dtype)
    Y = _scale_rows(Xv, 1.0 / np.where(m > 0, m, 1.0))
    return m * np.sqrt(_row_sums(Y * Y))


def row_normalize(X, method="pyg"):
    """Row-normalise a feature matrix, by default exactly as PyG 2.0.3 ``NormalizeFeatures``.

    ``method="pyg"`` (default, the paper's setting: PyG 2.0.3)

    .. math::

        \\tilde x_i = x_i / \\max\\Big(\\sum_j x_{ij},\\, 1\\Big),

    i.e. ``x / x.sum(-1, keepdim=True).clamp(min=1)``. Rows whose sum is at least 1 then sum to
    exactly 1; rows whose sum is below 1 -- all-zero rows, rows with a small positive sum, and
    *every row with a negative sum* -- are returned unchanged (divided by 1). After Gaussian
    noise X + ξη with ξ√d comparable to the clean row sums, a large share of the rows has a
    negative or tiny sum and keeps its raw noisy values: the transform never amplifies a row
    and never produces NaN or inf, but it does not put rows on a common scale either.

    ``method="pyg_shift"``: newer PyG releases first subtract the global minimum of the
    matrix, ``x = x - x.min()``, and then apply the rule above (all entries become >= 0).
    For sparse input this is only allowed when the minimum is 0 (otherwise the shift would
    fill every entry).

    ``method="l1"``: :math:`x_i / \\sum_j |x_{ij}|` (rows have unit l1 norm).
    ``method="l2"``: :math:`x_i / \\|x_i\\|_2` (rows have unit Euclidean norm; computed with
    max-scaling so tiny rows do not underflow).

    All-zero rows stay zero under every method.

    Parameters
    ----------
    X : array_like or scipy sparse matrix, shape (n, d) or (n,)
        Features; a 1-D input is a single feature column.
    method : {"pyg", "pyg_shift", "l1", "l2"}

    Returns
    -------
    numpy.ndarray or scipy sparse matrix
        Same shape; sparse in gives sparse out (same format and class); float32 kept, other
        dtypes become float64.

    Raises
    ------
    ValueError
        Unknown ``method``, non-finite entries, or ``"pyg_shift"`` on sparse input with a
        non-zero minimum.
    TypeError
        If ``X`` has a complex/object dtype.

    References
    ----------
    .. [1] Paper, Sec. 5 ("we apply row normalization for data after adding the Gaussian
       noise") and Appendix "Analysis on Row Normalization" (Table 5).
    .. [2] PyTorch Geometric 2.0.3, ``torch_geometric.transforms.NormalizeFeatures``.

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.noise import row_normalize
    >>> X = np.array([[1.0, 3.0], [0.2, 0.3], [-2.0, 1.0], [0.0, 0.0]])
    >>> row_normalize(X)
    array([[ 0.25,  0.75],
           [ 0.2 ,  0.3 ],
           [-2.  ,  1.  ],
           [ 0.  ,  0.  ]])
    >>> row_normalize(X, "l1")
    array([[ 0.25      ,  0.75      ],
           [ 0.4       ,  0.6       ],
           [-0.66666667,  0.33333333],
           [ 0.        ,  0.        ]])
    """
    check_option(method, "method", ROW_NORMS)
    Xv = check_array(X, accept_sparse=True, ensure_2d=False)
    was_1d = Xv.ndim == 1
    if was_1d:
        Xv = Xv[:, None]
    if method == "pyg_shift":
        lo = Xv.min() if Xv.size else 0.0
        if sp.issparse(Xv) and lo != 0:
            raise ValueError(f"method='pyg_shift' on sparse X would subtract its minimum "
                             f"{lo!r} from every entry and fill the matrix; pass "
                             f"X.toarray() instead")
        Xv = Xv - lo if lo != 0 else Xv
    div = _row_divisor(Xv, method)
    if sp.issparse(Xv):
        inv = np.divide(1.0, div, out=np.zeros_like(div), where=div > 0).astype(Xv.dtype)
        out = _scale_rows(Xv, inv)
        out.sort_indices()
        return _sparse_like(out, X)
    out = np.divide(Xv, div[:, None], out=np.zeros_like(Xv), where=div[:, None] > 0)
    return out.ravel() if was_1d else out


# ------------------------------------------------------------------------------- pipeline

def corrupt(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
    """The paper's feature corruption in one call: noise, then (by default) row normalisation.

    =============  =================  =============================================
    kind           level              noise
    =============  =================  =============================================
    ``gaussian``   ξ >= 0             :func:`gaussian_noise`, X + ξη (Sec. 5)
    ``flip``       p in [0, 1]        :func:`flip_features` (binary X, Table 4)
    ``rademacher`` s >= 0             X ± s (:func:`add_subgaussian_noise`)
    ``uniform``    s >= 0             X + Uniform[-s, s]
    =============  =================  =============================================

    Then, if ``normalize``, :func:`row_normalize` with ``normalize_method`` (default
    ``"pyg"``, PyG 2.0.3 ``NormalizeFeatures``, as in the paper's experiments).

    Parameters
    ----------
    X : array_like or scipy sparse matrix
        Clean features. Additive noise (level > 0) densifies sparse input; level 0 and
        flipping keep it sparse, in its format.
    kind : {"gaussian", "flip", "rademacher", "uniform"}
    level : float
        ξ, p or s as in the table.
    seed : None, int or numpy.random.Generator
    normalize : bool
        Apply row normalisation after the noise (the paper's default: True).
    normalize_method : {"pyg", "pyg_shift", "l1", "l2"}

    Returns
    -------
    numpy.ndarray or scipy sparse matrix
        The corrupted (and normalised) features; ``X`` itself is not modified. float32 is
        kept, other dtypes become float64 (``"flip"`` without normalisation keeps ``X``'s
        dtype, bool included).

    Raises
    ------
    ValueError
        Unknown ``kind`` or ``normalize_method``, ``level`` out of range, non-binary ``X`` for
        ``"flip"``.
    TypeError
        If ``normalize`` is not a bool, or ``X``/``level``/``seed`` has a wrong type.

    References
    ----------
    .. [1] Paper, Sec. 5 (Gaussian noise and row normalisation), Table 4 (flipping),
       Appendix "Analysis on Row Normalization".

    Examples
    --------
    Without noise only the rows are normalised; flipping every entry of binary features:

    >>> import numpy as np
    >>> from ngc_ref.noise import corrupt
    >>> X = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    >>> corrupt(X, "gaussian", 0.0)
    array([[0.5, 0.5, 0. ],
           [0. , 0.5, 0.5]])
    >>> corrupt(X, "flip", 1.0, normalize=False)
    array([[0., 0., 1.],
           [1., 0., 0.]])
    """
    check_option(kind, "kind", CORRUPTIONS)
    if not isinstance(normalize, (bool, np.bool_)):
        raise TypeError(f"normalize must be a bool, got {type(normalize).__name__} "
                        f"{normalize!r}")
    check_option(normalize_method, "normalize_method", ROW_NORMS)
    # Checked here so that the message names this function's argument, ``level``.
    check_scalar(level, "level", min_val=0.0, max_val=1.0 if kind == "flip" else None)
    if kind == "flip":
        out = flip_features(X, level, seed=seed)
    else:   # gaussian_noise / add_subgaussian_noise, with errors that name ``level``
        out = _add_noise(X, kind, level, seed, "level", "corrupt")
    return row_normalize(out, normalize_method) if normalize else out


__all__ = [
    "CORRUPTIONS", "PROXIES", "ROW_NORMS", "SUBGAUSSIAN_KINDS", "add_subgaussian_noise",
    "corrupt", "flip_features", "gaussian_noise", "row_normalize", "subgaussian_noise",
]
