"""The mutation tool's tables (tools/mutation.py) name things that exist.

The tool is a developer command, not run in CI; its tables are plain dictionaries, so a merge
can leave an entry under the wrong table (a module's test list among the unmutated patterns)
or a test file renamed away, and nothing fails until someone runs a pass. These checks are
static and take milliseconds.
"""

import importlib.util
import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")    # the tool reads its toml with Python >= 3.11

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("_mutation_tool", ROOT / "tools" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_module_and_test_file_exists(tool):
    for module, tests in tool.MODULES.items():
        folder, _, target = tool._source(module)
        assert (ROOT / folder / target.split("/", 1)[1]).is_file(), module
        files = [t for t in tests if t.startswith("tests/")]
        assert files, f"{module} has no test file"
        for test in files:
            assert (ROOT / test).is_file(), f"{module}: {test}"


def test_unmutated_patterns_belong_to_listed_modules(tool):
    for module, patterns in tool.NOT_MUTATED.items():
        assert module in tool.MODULES, f"NOT_MUTATED[{module!r}] is not a module of MODULES"
        assert isinstance(patterns, dict), f"NOT_MUTATED[{module!r}] maps pattern -> why"
        for pattern, why in patterns.items():
            re.compile(pattern)
            assert isinstance(why, str) and why, pattern


def test_every_named_equivalent_is_of_a_listed_module(tool):
    # mutmut names a mutant <import path>.x_<function>__mutmut_<k> (a method: .xǁClassǁ...).
    by_import = {}
    for module in tool.MODULES:
        _, package, target = tool._source(module)
        by_import[target[:-len(".py")].replace("/", ".")] = module
    named = tomllib.loads(tool.EQUIVALENT_FILE.read_text(encoding="utf-8"))
    assert named
    for name, reason in named.items():
        path = re.split(r"\.x[_ǁ]", name, maxsplit=1)[0]
        assert path in by_import, f"{name}: no module {path} in MODULES"
        assert re.search(r"__mutmut_\d+$", name), name
        assert isinstance(reason, str) and len(reason) > 10, f"{name}: no reason"


# --- a named survivor is valid only for the code it was named for -----------------------------

def test_function_key_reads_mutmuts_names(tool):
    assert tool.function_key("ngc_ref._spmm.x_horner__mutmut_52") == "ngc_ref._spmm:horner"
    assert tool.function_key("ngc_ref_theory.output.paper_md.x__body__mutmut_10") == \
        "ngc_ref_theory.output.paper_md:_body"
    assert tool.function_key("ngc_ref._spmm.xǁHornerKernelǁ__init____mutmut_5") == \
        "ngc_ref._spmm:HornerKernel.__init__"
    assert tool.function_key("ngc_ref._order.xǁOrderingǁ_rows__mutmut_1") == \
        "ngc_ref._order:Ordering._rows"
    assert tool.function_key("not a mutant") is None


SOURCE = '''
def f(x):
    """Doc."""
    return x + 1   # a comment


class C:
    def m(self):
        return 2
'''


def test_fingerprint_sees_code_not_docstrings_comments_or_layout(tool):
    fp = tool.fingerprint(SOURCE, "f")
    assert fp == tool.fingerprint(SOURCE.replace('"""Doc."""', '"""Other words."""'), "f")
    assert fp == tool.fingerprint(SOURCE.replace("   # a comment", ""), "f")
    assert fp == tool.fingerprint(SOURCE.replace("x + 1", "x+1"), "f")
    assert fp != tool.fingerprint(SOURCE.replace("x + 1", "x - 1"), "f")
    assert tool.fingerprint(SOURCE, "C.m") != tool.fingerprint(SOURCE.replace("2", "3"), "C.m")
    assert tool.fingerprint(SOURCE, "C.m") == tool.fingerprint(SOURCE.replace("x + 1", "0"), "C.m")
    assert tool.fingerprint(SOURCE, "g") is None and tool.fingerprint(SOURCE, "C") is None


def test_a_name_for_changed_code_is_a_survivor_again(tool, tmp_path, monkeypatch):
    # The statuses of a run: two survivors named, one killed. horner's lock entry is today's
    # code, take_rows' is not: its named survivor counts as a survivor, marked as stale.
    names = {"ngc_ref._spmm.x_horner__mutmut_52": "survived",
             "ngc_ref._spmm.x_take_rows__mutmut_39": "survived",
             "ngc_ref._spmm.x_horner__mutmut_1": "killed"}
    monkeypatch.setattr(tool, "_merged_statuses", lambda work: names)
    equivalent = {n: "reason" for n in names}
    lock = {"ngc_ref._spmm:horner": tool.current_fingerprint("ngc_ref._spmm:horner"),
            "ngc_ref._spmm:take_rows": "0" * 16}
    row = tool.summarize("_spmm", tmp_path, equivalent, lock)
    assert (row["killed"], row["equivalent"], row["survivors"]) == (1, 1, 1)
    assert row["survivor_names"] == {"ngc_ref._spmm.x_take_rows__mutmut_39":
                                     "named for older code"}
    # Unlocked counts as stale too; relock records today's code for the reviewed names.
    assert tool.summarize("_spmm", tmp_path, equivalent, {})["equivalent"] == 0
    relocked = tool.relock(lock, list(names))
    assert tool.summarize("_spmm", tmp_path, equivalent, relocked)["equivalent"] == 2


def test_the_lock_holds_only_functions_that_exist(tool):
    import json
    lock = json.loads(tool.LOCK_FILE.read_text(encoding="utf-8"))
    assert lock
    for key, fp in lock.items():
        assert re.fullmatch(r"[0-9a-f]{16}", fp), key
        path, _, func = key.partition(":")
        assert tool._module_path(path).is_file(), key
        assert tool.current_fingerprint(key) is not None, f"{key}: no such function any more"


# --- code left unmutated: the whole statement, not its first line --------------------------

PLOTS = '''
def _plot(records,
          path):
    """Draw."""
    x = 1 + 2
    return x


def numbers(plot_path=None):
    y = 3 * 4
    if plot_path is not None:   # draw
        _plot(y, plot_path)
    return y
'''


def test_skip_blocks_marks_the_header_line_of_each_matching_statement(tool):
    text, marked = tool.skip_blocks(PLOTS, [r"^def _plot\(", r"^    if plot_path is not None:",
                                            r"^def absent\("])
    assert marked == {r"^def _plot\(": 1, r"^    if plot_path is not None:": 1,
                      r"^def absent\(": 0}
    tagged = [line for line in text.splitlines() if "# pragma: no mutate block" in line]
    # The colon's line of the two-line signature; after the if's own comment (mutmut reads
    # "# pragma: ... no mutate block" anywhere in a line's comment).
    assert tagged == ["          path):  # pragma: no mutate block",
                      "    if plot_path is not None:   # draw  # pragma: no mutate block"]
    # Nothing else changes: the same lines otherwise, the same code.
    assert text.replace("  # pragma: no mutate block", "") == PLOTS


def test_every_unmutated_pattern_marks_a_statement_of_its_module(tool):
    for module, patterns in tool.NOT_MUTATED.items():
        folder, _, target = tool._source(module)
        source = (ROOT / folder / target.split("/", 1)[1]).read_text(encoding="utf-8")
        _, marked = tool.skip_blocks(source, patterns)
        assert all(marked.values()), f"{module}: {marked}"
