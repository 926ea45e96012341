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
