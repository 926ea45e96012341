"""The input checks of ngc_ref, public for code built on it (the checker ``ngc_ref_theory``).

Every public function of :mod:`ngc_ref` validates its arguments with these, so code that wants
the same rules and the same messages (naming the argument, what was expected and what arrived)
uses them too rather than reaching into the private module that implements them:

* :func:`check_scalar` -- a real number or an integer, finite, within bounds;
* :func:`check_array` -- features, signals and matrices (dtype, shape, rows, finiteness;
  NumPy/SciPy and CuPy alike);
* :func:`check_adjacency` -- a graph as a symmetric CSR adjacency with non-negative weights;
* :func:`check_option` -- one of a list of string options;
* :func:`as_generator` -- a seed as a :class:`numpy.random.Generator`.

Examples
--------
>>> from ngc_ref.validation import check_scalar
>>> check_scalar(3, "trials", min_val=1, integer=True)
3
>>> check_scalar(0.0, "sigma", min_val=0.0, include_min=False)
Traceback (most recent call last):
...
ValueError: sigma must be > 0.0, got 0.0
"""

from ._validation import as_generator, check_adjacency, check_array, check_option, check_scalar

__all__ = ["as_generator", "check_adjacency", "check_array", "check_option", "check_scalar"]
