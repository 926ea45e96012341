"""The structure-only control: a model's accuracy on signal-free features (what the graph alone
gives).

A graph model that beats a graph-free baseline on noisy features has shown that the *graph* is
informative, not that it *denoised the features*: on a homophilous graph a propagation of pure
noise already separates the classes (on Cora NGC of pure noise reaches about two thirds
accuracy). The control replaces the noisy features by features that carry no signal but have
the same shape and the same overall scale,

.. math::

    X_{\\mathrm{control}} = \\frac{\\|X_{\\mathrm{noisy}}\\|_F}{\\|Z\\|_F}\\, Z,
    \\qquad Z_{ij} \\overset{iid}{\\sim} N(0, 1),\\ Z \\in \\mathbb{R}^{n\\times d},

and runs the same model (same propagation, classifier, split and initialisation) on it. The
scale is the Frobenius norm of the noisy features *as the model gets them*, i.e. after the row
normalisation where the setting has one. Rows of pure noise are not row-normalised themselves:
their row sums scatter around 0, and dividing by them would make the scale arbitrary.

This is the one definition of the control used by
:func:`ngc_ref.training.run_experiment` (models ``"<name>/control"``) and by the checker's
claim on Fig. 2 (``theory/claims/denoising_accuracy.py``, part iii).

Examples
--------
>>> import numpy as np
>>> from ngc_ref.training.controls import frobenius_norm, signal_free_features
>>> X = np.arange(6.0).reshape(3, 2)
>>> Z = signal_free_features(X, seed=0)
>>> Z.shape, bool(np.isclose(frobenius_norm(Z), frobenius_norm(X)))
((3, 2), True)
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse import linalg as spla

from .._docs import fill_doc
from .._memory import check_dense_work
from .._validation import DEPRECATED, as_generator, float_dtype, renamed_keyword


def frobenius_norm(X):
    """‖X‖_F of a dense array or a SciPy sparse matrix (float).

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.training import frobenius_norm
    >>> frobenius_norm(np.array([[3.0, 4.0]]))
    5.0
    """
    return float(spla.norm(X)) if sp.issparse(X) else float(np.linalg.norm(X))


def match_frobenius(Z, target=None, *, norm=DEPRECATED):
    """``Z`` rescaled to Frobenius norm ``target`` (a new array; zeros stay zeros).

    Parameters
    ----------
    Z : ndarray or sparse matrix
    target : float
        The Frobenius norm of the result.
    norm : float
        Deprecated: the former name of ``target`` (``norm`` names the normalisation of Ã
        everywhere else in the library), still accepted, with a DeprecationWarning, until the
        next release.

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.training import match_frobenius
    >>> match_frobenius(np.array([[3.0, 4.0]]), 10.0)
    array([[6., 8.]])
    """
    target = renamed_keyword("match_frobenius", "norm", "target", norm, target)
    if target is None:
        raise TypeError("match_frobenius() missing the Frobenius norm of the result: target")
    z = frobenius_norm(Z)
    return Z * (float(target) / z) if z > 0 else Z * 0.0


def signal_free_features(X, seed=None, *, dtype=None):
    """Z ~ N(0, 1) of ``X``'s shape, rescaled to ``‖X‖_F``: the structure-only control's
    features (see the module docstring).

    Parameters
    ----------
    X : ndarray or sparse matrix, shape (n, d)
        The noisy features as the model gets them; only their shape and Frobenius norm are
        used.
    %(seed)s
        The stream of Z. Same seed, same Z (whatever the scale), so one draw per run can be
        shared by the noise levels of that run.
    dtype : numpy dtype, optional
        Default: float32 when ``X`` is float32 (Z is then drawn in float32, half the memory),
        else float64.

    Returns
    -------
    ndarray, shape (n, d)

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.training import frobenius_norm, signal_free_features
    >>> Z = signal_free_features(np.ones((4, 3)), seed=0)
    >>> Z.shape, round(frobenius_norm(Z), 6)        # the norm of X: sqrt(12)
    ((4, 3), 3.464102)
    """
    shape = getattr(X, "shape", None)
    if shape is None or len(shape) != 2:
        raise ValueError(f"X must be a 2-D (n, d) array, got shape={shape}")
    dtype = float_dtype(X.dtype) if dtype is None else np.dtype(dtype)
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"dtype must be float32 or float64, got {dtype}")
    check_dense_work(shape, dtype.itemsize, 1, "signal_free_features",
                     "use a smaller data set or a float32 X",
                     detail="the control features Z")
    Z = as_generator(seed).standard_normal(shape, dtype=dtype)
    z = frobenius_norm(Z)
    if z > 0:
        Z *= dtype.type(frobenius_norm(X) / z)
    return Z


fill_doc(signal_free_features)


__all__ = ["frobenius_norm", "match_frobenius", "signal_free_features"]
