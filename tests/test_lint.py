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


#: An absolute path of one machine: a home folder, root's, or this project's work folder.
MACHINE_PATH = r"(?<![\w.~$/-])/(?:work|root|home/[A-Za-z0-9_.-]+|Users/[A-Za-z0-9_.-]+)/"
#: Tracked files that may name such paths, and why.
MACHINE_PATH_ALLOWED = {
    "tests/test_lint.py": "the pattern and its tests",
}


def _tracked_text_files():
    try:
        proc = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                              timeout=60)
    except OSError:
        proc = None
    if proc is None or proc.returncode != 0:
        pytest.skip("not a git checkout: the tracked files are unknown")
    for name in proc.stdout.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" not in data[:8192]:            # text, not a figure or an archive
            yield name, data.decode("utf-8", errors="replace")


def test_no_absolute_path_of_one_machine_in_the_tree():
    """Data, output and example paths are NGC_REF_DATA, the default data folder, a relative
    path or a placeholder (/path/to/data), never the folder of the machine that wrote them."""
    import re
    found = [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
             for name, text in _tracked_text_files() if name not in MACHINE_PATH_ALLOWED
             for m in re.finditer(MACHINE_PATH, text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("text, machine", [
    ("root='/work/shared/data'", True), ("NGC_REF_DATA=/home/ana/data", True),
    ('"/root/.cache/x"', True), ("/Users/bo/x", True), ("/path/to/data", False),
    ("../shared/data", False), ("~/.cache/ngc_ref/data", False), ("$HOME/work/x", False),
    ("https://example.org/work/x", False), ("./work/x", False)])
def test_the_machine_path_pattern(text, machine):
    import re
    assert bool(re.search(MACHINE_PATH, text)) is machine
