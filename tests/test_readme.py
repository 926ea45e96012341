"""The README's Python examples run as written (a user copies them first)."""

import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_readme_example_runs(k):
    code = BLOCKS[k]
    if ("load_dataset(" in code or "run_experiment(" in code) and not os.environ.get(
            "NGC_REF_DATA"):
        pytest.skip("example reads the real datasets; set NGC_REF_DATA")
    exec(compile(code, f"README.md python block {k}", "exec"), {})
