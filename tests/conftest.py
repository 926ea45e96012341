"""Hypothesis profiles: ``ci`` (deterministic, used by .ci/run) and ``thorough`` (for a person).

Choose with ``--hypothesis-profile=NAME`` or the environment variable ``HYPOTHESIS_PROFILE``;
the default is ``ci``.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

from ngc_ref_theory.paper.source import paper_source

settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", deadline=None, print_blob=True, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _isolate_from_the_default_data_folder():
    """The tests read the paper's data only through NGC_REF_DATA: when the user's default data
    folder (``ngc-ref data fetch``) holds data, point XDG_CACHE_HOME (inherited by the CLI runs
    in subprocesses) at an empty folder, so a run without NGC_REF_DATA stays one without data."""
    import tempfile

    from ngc_ref.datasets import default_root
    from ngc_ref.datasets._root import holds_data
    if holds_data(default_root()):
        os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="ngc-ref-tests-cache-")


_isolate_from_the_default_data_folder()


@pytest.fixture(scope="session")
def tex():
    """The text of the paper's LaTeX (``NGC_REF_PAPER``, else ``../shared/paper/`` beside the
    checkout, as in CI: ``ngc_ref_theory.paper.source``); skips the test when it is not
    available. Another version of the paper is an error naming both checksums, not a skip."""
    source = paper_source()
    if not source.available:
        pytest.skip(source.why)
    return source.text


@pytest.fixture
def exact_budget(monkeypatch):
    """``exact_budget(need, call, match)``: ``call()`` runs within a memory budget
    (NGC_REF_MEMORY_BUDGET) of exactly ``need`` bytes and is refused one byte below it, with a
    ValueError matching ``match``; returns what ``call()`` returned within the budget."""
    def check(need, call, match):
        monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(need))
        out = call()
        monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(need - 1))
        with pytest.raises(ValueError, match=match):
            call()
        return out
    return check


@pytest.fixture
def empty_data_folder(tmp_path, monkeypatch):
    """NGC_REF_DATA naming a folder that exists but holds no data set."""
    empty = tmp_path / "empty-data"
    empty.mkdir()
    monkeypatch.setenv("NGC_REF_DATA", str(empty))
    return empty


def pytest_terminal_summary(terminalreporter):
    """Report how many fuzz cases each public function was given (tests/test_fuzz.py)."""
    import sys
    mod = sys.modules.get("tests.test_fuzz") or sys.modules.get("test_fuzz")
    cases = getattr(mod, "CASES", None)
    if cases:
        terminalreporter.write_sep("-", f"fuzz: {sum(cases.values())} cases")
        ok = getattr(mod, "RETURNED", {})
        terminalreporter.write_line(", ".join(f"{k} {v} ({ok.get(k, 0)} returned)"
                                              for k, v in sorted(cases.items())))
