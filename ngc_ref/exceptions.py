"""The warnings ngc_ref issues, in one module (as :mod:`sklearn.exceptions` holds scikit-learn's).

* :class:`ConvergenceWarning` -- an iterative method (CG, Chebyshev, the power iteration of
  :func:`ngc_ref.training.lipschitz_constant`) stopped before meeting its tolerance, or a
  solve's answer failed the stopping rule it was checked against. A subclass of
  :class:`sklearn.exceptions.ConvergenceWarning`, so one filter silences (or raises) both
  libraries' convergence warnings.
* :class:`PrecisionWarning` -- a float32 computation whose expected rounding error exceeds
  :data:`ngc_ref.neumann.FLOAT32_ERROR_WARN` (pass float64 features for an accurate result).

Both are UserWarnings. Their former homes, ``ngc_ref.solve.ConvergenceWarning`` and
``ngc_ref.neumann.PrecisionWarning``, still name the same classes.

Importing scikit-learn takes about a second, which ``import ngc_ref`` does not pay (the
operators and solvers do not need it): :class:`ConvergenceWarning` is therefore made on first
use, by the module's ``__getattr__`` (PEP 562), and is the same class every time.

Examples
--------
>>> import warnings
>>> import numpy as np, networkx as nx, sklearn.exceptions
>>> from ngc_ref import gsd_solve
>>> from ngc_ref.exceptions import ConvergenceWarning
>>> issubclass(ConvergenceWarning, sklearn.exceptions.ConvergenceWarning)
True
>>> with warnings.catch_warnings():
...     warnings.simplefilter("error", sklearn.exceptions.ConvergenceWarning)
...     gsd_solve(nx.path_graph(50), np.ones(50), lam=1e3, method="cg", maxiter=1)
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ngc_ref.exceptions.ConvergenceWarning: gsd_solve: CG did not reach rtol=1e-10 in maxiter=1 ...
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

#: Two threads warning at once must make one class, or a filter on it misses the other's.
_LOCK = threading.Lock()


class PrecisionWarning(UserWarning):
    """A float32 computation whose expected rounding error exceeds ``FLOAT32_ERROR_WARN``.

    The estimate is :func:`ngc_ref.neumann.float32_error_estimate`,
    eps(float32)·(λ+1)(1 − r^{S+1}); the series functions (:func:`ngc_ref.neumann_propagate`,
    :class:`ngc_ref.NeumannFilter`, :func:`ngc_ref.robust_propagate`) warn with it.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref import neumann_propagate
    >>> from ngc_ref.exceptions import PrecisionWarning
    >>> X = np.ones((5, 2), dtype=np.float32)
    >>> with warnings.catch_warnings(record=True) as rec:
    ...     warnings.simplefilter("always", PrecisionWarning)
    ...     H = neumann_propagate(nx.path_graph(5), X, lam=1e6, S=10000)   # error ~1.2e-3
    >>> [w.category.__name__ for w in rec]
    ['PrecisionWarning']
    """


_CONVERGENCE_DOC = """\
An iterative method stopped before meeting its tolerance (or its answer failed the check).

A subclass of :class:`sklearn.exceptions.ConvergenceWarning` (itself a UserWarning): a filter
on scikit-learn's class applies to ngc_ref's too.

Examples
--------
>>> import warnings, sklearn.exceptions
>>> from ngc_ref.exceptions import ConvergenceWarning
>>> with warnings.catch_warnings(record=True) as rec:
...     warnings.simplefilter("ignore", sklearn.exceptions.ConvergenceWarning)
...     warnings.warn("did not converge", ConvergenceWarning)
>>> rec
[]
"""


def _make_convergence_warning():
    # scikit-learn is imported here, not at the top: see the module docstring.
    from sklearn.exceptions import ConvergenceWarning as SklearnConvergenceWarning

    from ._docs import add_see_also
    with _LOCK:
        cls = globals().get("ConvergenceWarning")
        if cls is None:
            cls = type("ConvergenceWarning", (SklearnConvergenceWarning,),
                       {"__module__": __name__, "__doc__": _CONVERGENCE_DOC})
            globals()["ConvergenceWarning"] = cls   # made once: later look-ups find it here
            add_see_also(__name__)
    return cls


def __getattr__(name):
    if name == "ConvergenceWarning":
        return _make_convergence_warning()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:   # what type checkers see; at run time the class is made on first use
    from sklearn.exceptions import ConvergenceWarning as _SklearnConvergenceWarning

    class ConvergenceWarning(_SklearnConvergenceWarning):
        pass


__all__ = ["ConvergenceWarning", "PrecisionWarning"]
