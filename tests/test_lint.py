"""ruff and mypy run clean on the library and the checker (configuration in pyproject.toml)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("tool,args", [("ruff", ["check", "ngc_ref", "theory"]),
                                       ("mypy", ["ngc_ref", "theory"])])
def test_lint_and_types(tool, args):
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} not installed (pip install '.[test]' installs it)")
    cmd = [sys.executable, "-m", tool, *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
