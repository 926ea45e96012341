"""The public API's uniform rules, checked by introspection over every public callable.

* ``norm`` is keyword-only, and its default is the one rule written in
  ``ngc_ref._docs.PARAMS["norm"]``, the paragraph every such docstring shows;
* randomness comes from one keyword, ``seed`` (scikit-learn estimators: ``random_state``); a
  renamed keyword keeps working one release, with a DeprecationWarning naming the new one;
* the library's warnings live in ``ngc_ref.exceptions``, and one scikit-learn filter catches
  both libraries' ConvergenceWarning.

"Public callable": every function and class (and its public methods) in the ``__all__`` of a
public module of ngc_ref, or, for a public module without ``__all__``, defined there under a
public name (``ngc_ref.solve.gsd_solve_normalized``).
"""

import importlib
import inspect
import pkgutil
import re
import sys
import warnings

import networkx as nx
import numpy as np
import pytest
import sklearn.base
import sklearn.exceptions
from numpy.testing import assert_array_equal

import ngc_ref
from ngc_ref import exceptions
from ngc_ref._docs import PARAMS
from ngc_ref._validation import DEPRECATED


def _modules(public_only):
    names = ["ngc_ref"] + [m.name for m in pkgutil.walk_packages(ngc_ref.__path__, "ngc_ref.")]
    return [importlib.import_module(name) for name in names
            if not public_only or not any(p.startswith("_") for p in name.split(".")[1:])]


def _public_callables():
    """``{"module.qualname": (object, signature)}`` of the public callables (see above)."""
    found = {}

    def add(obj):
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):      # a builtin's, e.g. a Warning's __init__
            return
        found.setdefault(f"{obj.__module__}.{obj.__qualname__}", (obj, sig))

    for mod in _modules(public_only=True):
        names = getattr(mod, "__all__", None)
        if names is None:
            names = [n for n, o in vars(mod).items()
                     if not n.startswith("_") and getattr(o, "__module__", None) == mod.__name__]
        for name in names:
            obj = getattr(mod, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if not obj.__module__.startswith("ngc_ref"):
                continue
            add(obj)
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if not attr.startswith("_") and inspect.isfunction(member):
                        add(member)
    return found


PUBLIC = _public_callables()
#: The public callables with a ``norm`` parameter (not a deprecated alias), and it.
NORM = {key: sig.parameters["norm"] for key, (_, sig) in PUBLIC.items()
        if "norm" in sig.parameters and sig.parameters["norm"].default is not DEPRECATED}


def _named_in_the_rule():
    """The objects the rule paragraph names (``:func:`...```): those that default to "rw"."""
    named = []
    for path in re.findall(r":(?:func|class):`([\w.]+)`", PARAMS["norm"]):
        module, _, attr = path.rpartition(".")
        named.append(getattr(importlib.import_module(module), attr))
    return named


def _flat(text):
    return " ".join(text.split())


def test_the_public_callables_are_found():
    # A guard for the tests below: the collection sees the whole public API.
    assert {"ngc_ref.normalize.normalized_adjacency", "ngc_ref.solve.gsd_solve_normalized",
            "ngc_ref.training.gcn.init_gcn_params", "ngc_ref.training.gcn.train_gcn",
            "ngc_ref.connectivity.ConnectivityResult", "ngc_ref.neumann.NeumannFilter.exact",
            "ngc_ref.graphs.stochastic.sbm_degrees"} <= set(PUBLIC)
    assert len(NORM) >= 14


@pytest.mark.parametrize("key", sorted(NORM))
def test_norm_is_keyword_only(key):
    assert NORM[key].kind is inspect.Parameter.KEYWORD_ONLY, (
        f"{key}: norm must be keyword-only (after the *)")


@pytest.mark.parametrize("key", sorted(k for k, p in NORM.items()
                                       if p.default is not inspect.Parameter.empty))
def test_norm_default_is_the_one_rule_shown_in_the_docstring(key):
    obj, _ = PUBLIC[key]
    want = "rw" if any(obj is named for named in _named_in_the_rule()) else "sym"
    assert NORM[key].default == want, f"{key}: the rule of PARAMS['norm'] says {want!r}"
    assert _flat(PARAMS["norm"]) in _flat(obj.__doc__), (
        f"{key}: its docstring must show the rule (a '%(norm)s' line and fill_doc)")


def test_the_rule_names_the_rw_defaults():
    named = _named_in_the_rule()
    assert [f.__name__ for f in named] == ["connectivity_factor", "theory_trajectory"]
    # A norm without default is a record's field (the setting it was computed in).
    for key, p in NORM.items():
        if p.default is inspect.Parameter.empty:
            assert key == "ngc_ref.connectivity.ConnectivityResult", key


def test_a_positional_norm_is_a_type_error():
    with pytest.raises(TypeError, match="positional"):
        ngc_ref.normalized_adjacency(nx.path_graph(3), "rw")
    with pytest.raises(TypeError, match="positional"):
        ngc_ref.neumann_order(2.0, 1e-3, "rw")


#: The names a parameter that is a source of randomness goes by (not a flag such as
#: GraphFamily's int_seed, which says what kind of seed a builder takes).
_SEEDLIKE = re.compile(r"seed|rng|prng|random_state|random_seed|generator|rs|random")


def test_one_name_for_the_seed():
    seen, wrong = 0, []
    for key, (obj, sig) in PUBLIC.items():
        estimator = inspect.isclass(obj) and issubclass(obj, sklearn.base.BaseEstimator)
        want = "random_state" if estimator else "seed"
        for p in sig.parameters.values():
            if _SEEDLIKE.fullmatch(p.name) and p.default is not DEPRECATED:
                seen += 1
                if p.name != want:
                    wrong.append(f"{key}({p.name}=), want {want}=")
    assert not wrong, wrong
    assert seen >= 15


def _from_here(record):
    # mutmut's trampoline adds a frame of its own; the caller's line is what matters here.
    return record.filename == __file__ or "mutmut.mutation.trampoline" in sys.modules


def test_a_renamed_keyword_works_one_more_release_with_a_warning_naming_the_new_one():
    from ngc_ref.training import match_frobenius
    from ngc_ref.training.gcn import init_gcn_params
    new = init_gcn_params(4, 3, 2, seed=np.random.default_rng(5))
    with pytest.warns(DeprecationWarning,
                      match=r"^init_gcn_params\(\): the keyword rng= was renamed to seed=") as rec:
        old = init_gcn_params(4, 3, 2, rng=np.random.default_rng(5))
    assert _from_here(rec[0])
    for a, b, c in zip(old, new, init_gcn_params(4, 3, 2, seed=5)):    # same seed, same numbers
        assert_array_equal(a, b)
        assert_array_equal(a, c)
    with pytest.raises(TypeError, match="both seed= and its former name rng="):
        init_gcn_params(4, 3, 2, seed=0, rng=np.random.default_rng(0))
    with pytest.warns(DeprecationWarning,
                      match=r"^match_frobenius\(\): the keyword norm= was renamed to target="):
        assert_array_equal(match_frobenius(np.array([[3.0, 4.0]]), norm=10.0), [[6.0, 8.0]])
    with pytest.raises(TypeError, match=r"^match_frobenius\(\) missing the Frobenius norm of "
                                        r"the result: target$"):
        match_frobenius(np.array([[3.0, 4.0]]))


def test_every_warning_class_of_the_library_is_in_exceptions():
    exceptions.ConvergenceWarning   # noqa: B018  (made on first use: make it now)
    found = {obj for mod in _modules(public_only=False) for obj in vars(mod).values()
             if inspect.isclass(obj) and issubclass(obj, Warning)
             and obj.__module__.startswith("ngc_ref")}
    assert {c.__module__ for c in found} == {"ngc_ref.exceptions"}, found
    assert sorted(c.__name__ for c in found) == sorted(exceptions.__all__)
    for name in exceptions.__all__:
        assert name in ngc_ref.__all__
        assert getattr(ngc_ref, name) is getattr(exceptions, name)
    # Their former homes name the same classes.
    from ngc_ref.neumann import PrecisionWarning
    from ngc_ref.solve import ConvergenceWarning
    assert ConvergenceWarning is exceptions.ConvergenceWarning
    assert PrecisionWarning is exceptions.PrecisionWarning


def _convergence_warnings(ignore=None):
    """The categories recorded from ngc_ref's ConvergenceWarning (CG stopped at maxiter) and
    scikit-learn's, with ``ignore`` filtered out."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        if ignore is not None:
            warnings.simplefilter("ignore", ignore)
        _, info = ngc_ref.gsd_solve(nx.path_graph(50), np.ones(50), lam=1e3, method="cg",
                                    maxiter=1, return_info=True)
        warnings.warn("lbfgs failed to converge", sklearn.exceptions.ConvergenceWarning,
                      stacklevel=1)
    assert not info.converged
    return [w.category for w in rec]


def test_one_filter_catches_both_convergence_warnings():
    assert _convergence_warnings() == [ngc_ref.ConvergenceWarning,
                                       sklearn.exceptions.ConvergenceWarning]
    assert _convergence_warnings(ignore=sklearn.exceptions.ConvergenceWarning) == []


def test_convergence_warning_is_made_once_on_first_use(monkeypatch):
    """The class is made by the first look-up (scikit-learn imported only then) and found by
    every later one; run here on a fresh module state (the process made it already), so the
    factory itself is exercised, not a cached class."""
    made = exceptions.ConvergenceWarning
    monkeypatch.delitem(vars(exceptions), "ConvergenceWarning")
    assert "ConvergenceWarning" not in vars(exceptions)
    first = exceptions.ConvergenceWarning            # through the module's __getattr__
    assert vars(exceptions)["ConvergenceWarning"] is first      # kept for later look-ups
    assert exceptions.ConvergenceWarning is first
    assert exceptions._make_convergence_warning() is first
    assert first is not made                          # a new class: the factory ran
    assert first.__name__ == "ConvergenceWarning" and first.__module__ == "ngc_ref.exceptions"
    assert first.__bases__ == (sklearn.exceptions.ConvergenceWarning,)
    assert first.__doc__.startswith("An iterative method stopped before meeting its tolerance")
    assert "See Also" in first.__doc__ or "See also" in first.__doc__
    with pytest.raises(AttributeError, match="module 'ngc_ref.exceptions' has no attribute "
                                             "'Missing'"):
        exceptions.Missing    # noqa: B018
    # dir() lists the module's own names and the one made on first use.
    assert set(vars(exceptions)) | {"ConvergenceWarning"} <= set(dir(exceptions))
