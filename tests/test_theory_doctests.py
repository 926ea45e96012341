"""The checker's docstring examples run as doctests, from its installed modules.

pytest's ``--doctest-modules`` (setup.cfg) collects the library's examples by path: ``ngc_ref/``
is importable from the checkout under its own name. The checker's folder ``theory/`` installs as
``ngc_ref_theory``; collected by path it would be imported a second time, as a top-level package
``theory`` beside the one the tests use (a second registry of claims and a second copy of every
class, so an example mixing ``ngc_ref_theory`` objects with its own module's would compare across
copies), under a name the packaging deliberately leaves unclaimed (setup.cfg). Its examples are
found here instead, in the modules the tests themselves import, editable install or not, and run
with pytest's default doctest flag (ELLIPSIS).
"""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import ngc_ref_theory

#: Every module of the installed checker, the package itself first.
MODULES = ["ngc_ref_theory", *sorted(m.name for m in pkgutil.walk_packages(
    ngc_ref_theory.__path__, "ngc_ref_theory."))]


def _examples(name):
    """The docstrings with examples of module ``name`` (its own objects only, as pytest)."""
    return [t for t in doctest.DocTestFinder().find(importlib.import_module(name)) if t.examples]


def test_every_module_of_the_package_is_searched():
    """A module walk_packages skips (an ImportError it swallows) would lose its examples."""
    root = Path(ngc_ref_theory.__file__).parent
    files = {".".join(("ngc_ref_theory", *p.relative_to(root).with_suffix("").parts))
             .removesuffix(".__init__") for p in root.rglob("*.py")}
    assert files == set(MODULES)
    assert any(t.name.endswith("inner_max.judge") for t in _examples(
        "ngc_ref_theory.claims.inner_max"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    report = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in _examples(name):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
