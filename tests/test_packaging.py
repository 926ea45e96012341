"""What the wheel installs and declares: every package listed, no generic top-level name, the
license file and typing marker shipped, floors that the minimum-versions job can test.

The floors themselves are tested by ``.ci/min-versions`` (run by ``.ci/run``), which installs
exactly the oldest declared versions on the oldest declared Python.
"""

import configparser
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CFG = configparser.ConfigParser()
CFG.read(ROOT / "setup.cfg")
OPTIONS = CFG["options"]


def _listed(key):
    return [x.strip() for x in OPTIONS[key].strip().splitlines() if x.strip()]


def test_every_package_folder_is_installed_under_a_distinct_name():
    mapping = dict(line.split(" = ") for line in _listed("package_dir"))
    assert mapping == {"ngc_ref_theory": "theory"}
    expected = set()
    for top, folder in (("ngc_ref", "ngc_ref"), ("ngc_ref_theory", "theory")):
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            expected.add(".".join((top, *rel)))
    packages = set(_listed("packages"))
    assert packages == expected
    assert not any(p == "theory" or p.startswith("theory.") for p in packages)
    entry = CFG["options.entry_points"]["console_scripts"].strip()
    assert entry == "ngc-ref = ngc_ref_theory.cli:main"


def test_license_typing_marker_and_classifiers():
    meta = CFG["metadata"]
    assert meta["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert (ROOT / "ngc_ref" / "py.typed").exists() and (ROOT / "theory" / "py.typed").exists()
    floor = re.fullmatch(r">=(\d+\.\d+)", OPTIONS["python_requires"]).group(1)
    assert f"Programming Language :: Python :: {floor}" in meta["classifiers"]


def test_every_data_file_of_the_checker_is_package_data():
    """A file the checker reads at run time (the paper's sentence map) ships in the wheel: every
    non-Python file of theory/ is listed in package_data under its own package (the deepest
    folder with an __init__.py), and the map loads as a resource."""
    from ngc_ref_theory.paper.sentence_map import load_map
    listed = {}
    for key, value in CFG["options.package_data"].items():
        listed[key] = {x.strip() for x in value.split(",")}
    missing = []
    for p in (ROOT / "theory").rglob("*"):
        if not p.is_file() or p.suffix in (".py", ".pyc") or "__pycache__" in p.parts:
            continue
        pkg = p.parent
        while not (pkg / "__init__.py").exists():
            pkg = pkg.parent
        key = ".".join(["ngc_ref_theory", *pkg.relative_to(ROOT / "theory").parts])
        if p.relative_to(pkg).as_posix() not in listed.get(key, set()):
            missing.append(f"{p.relative_to(ROOT)} (package {key})")
    assert missing == []
    assert "paper_map.toml" in listed["ngc_ref_theory.paper"] and load_map()


def test_every_requirement_has_a_floor_and_tomllib_has_its_backport():
    out = subprocess.run([sys.executable, str(ROOT / ".ci" / "min_requirements.py"), "test"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    names = {re.split(r"[=\[;]", line)[0] for line in out}
    assert {"numpy", "scipy", "networkx", "scikit-learn", "tomli", "hypothesis"} <= names
    numpy_floor = next(line for line in out if line.startswith("numpy=="))
    # numpy.random.Generator.spawn (used to derive independent streams) needs NumPy 1.25.
    assert tuple(map(int, numpy_floor.split("==")[1].split("."))) >= (1, 25)
    assert any(line.startswith("tomli==") and 'python_version < "3.11"' in line for line in out)
