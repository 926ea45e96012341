"""The library's docstrings: shared paragraphs filled in, a See Also section for every public
function and class (from the one table ngc_ref/_see_also.py, in numpydoc's order, naming
objects that exist), and an Examples section for every public function."""

import importlib
import inspect
import re

import pytest

import ngc_ref
import ngc_ref.training  # noqa: F401  (imported on first use: its See Also sections too)
from ngc_ref._docs import PARAMS, fill_doc, with_see_also
from ngc_ref._see_also import SEE_ALSO

PACKAGES = ("ngc_ref", "ngc_ref.graphs", "ngc_ref.noise", "ngc_ref.datasets",
            "ngc_ref.training", "ngc_ref.validation")


def _public():
    """``{"module.qualname": (package, object)}`` for every function and class in an
    ``__all__`` of the public packages (an alias such as ``cycle = ring`` counted once)."""
    found = {}
    for package in PACKAGES:
        mod = importlib.import_module(package)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found.setdefault(f"{obj.__module__}.{obj.__qualname__}", (package, obj))
    return found


PUBLIC = _public()


def _section(doc, title):
    """Line index of the numpydoc section header ``title`` in ``doc`` (None if absent)."""
    lines = doc.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == title and re.fullmatch(r"\s*-{3,}\s*", lines[i + 1]):
            return i
    return None


def _resolve(name, package, obj):
    """The object a See Also name stands for, looked up as numpydoc does: in the object's
    module or public package, or as a full dotted path."""
    for base in (obj.__module__, package, "ngc_ref"):
        target = importlib.import_module(base)
        for part in name.split("."):
            target = getattr(target, part, None)
            if target is None:
                break
        if target is not None:
            return target
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def test_the_public_objects_are_found():
    # A guard for the tests below: the collection sees the library's public API.
    assert {"ngc_ref.neumann.NeumannFilter", "ngc_ref.graphs.stochastic.sbm",
            "ngc_ref.training.least_squares.theory_trajectory"} <= set(PUBLIC)
    assert len(PUBLIC) >= 70


def test_every_public_object_has_an_entry_in_the_see_also_table():
    missing = sorted(set(PUBLIC) - set(SEE_ALSO))
    assert not missing, f"add these to ngc_ref/_see_also.py: {missing}"


def test_every_table_entry_is_a_public_object():
    stale = sorted(set(SEE_ALSO) - set(PUBLIC))
    assert not stale, f"ngc_ref/_see_also.py lists objects that are not public: {stale}"


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_see_also_section_is_written_in_numpydoc_order(key):
    _, obj = PUBLIC[key]
    doc = obj.__doc__
    at = _section(doc, "See Also")
    assert at is not None, f"{key} has no See Also section"
    for later in ("Notes", "References", "Examples"):
        j = _section(doc, later)
        assert j is None or j > at, f"{key}: See Also must come before {later}"
    for name, _ in SEE_ALSO[key]:
        assert re.search(rf"^\s*{re.escape(name)} : \S", doc, re.M), (key, name)


@pytest.mark.parametrize("key", sorted(SEE_ALSO))
def test_every_see_also_name_resolves(key):
    package, obj = PUBLIC[key]
    for name, text in SEE_ALSO[key]:
        target = _resolve(name, package, obj)
        assert target is not obj, f"{key} names itself"
        assert text and not text.endswith("."), (key, name)   # the section adds the period


@pytest.mark.parametrize("key", sorted(k for k, (_, o) in PUBLIC.items() if inspect.isfunction(o)))
def test_every_public_function_has_examples(key):
    assert _section(PUBLIC[key][1].__doc__, "Examples") is not None, key


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_no_placeholder_is_left_unfilled(key):
    # A "%(name)s" line in a docstring without a fill_doc call after its definition.
    assert not re.search(r"^\s*%\(\w+\)s\s*$", PUBLIC[key][1].__doc__, re.M), key


def test_with_see_also_goes_at_the_end_without_a_later_section():
    doc = "Summary.\n\n    Parameters\n    ----------\n    x : int\n    "
    out = with_see_also(doc, [("f", "Its twin")])
    assert out == ("Summary.\n\n    Parameters\n    ----------\n    x : int\n\n"
                   "    See Also\n    --------\n    f : Its twin.\n    ")
    assert with_see_also(out, [("g", "Another")]) == out      # written once
    assert with_see_also(None, [("f", "Its twin")]) is None    # python -OO


def test_graph_options_is_the_three_paragraphs_in_order():
    def f():
        """Doc.

        Parameters
        ----------
        %(graph_options)s
        """

    fill_doc(f)
    names = [line.split(" : ")[0].strip() for line in f.__doc__.splitlines() if " : " in line]
    assert names == ["symmetrize", "weight", "nodelist"]
    assert all(PARAMS[k] in PARAMS["graph_options"] for k in ("symmetrize", "weight", "nodelist"))
