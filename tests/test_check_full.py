"""The full default ``ngc-ref check`` (the README's main command) runs in CI.

It takes a few minutes; with ``NGC_REF_DATA`` set it also covers the real datasets.
"""

import json

import pytest

from ngc_ref_theory import VERDICTS, registry
from ngc_ref_theory import cli


@pytest.mark.slow
def test_full_default_check_completes_with_a_verdict_for_every_claim(tmp_path, capsys):
    out = tmp_path / "report"
    assert cli.main(["check", "--out", str(out), "--no-progress"]) == 0
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    results = doc["results"]
    ids = {r["id"].split(":")[0].removesuffix("-corrected") for r in results}
    assert ids == set(registry())
    for r in results:
        assert r["verdict"] in VERDICTS
        assert r["summary"] and r["evidence"]
        if r["verdict"] == "fails":
            assert r["counterexample"]["rerun"].startswith("ngc-ref check --only ")
        for f in r["figures"]:
            assert (out / f).is_file()
    assert sum(doc["counts"].values()) == len(results)
    text = (out / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# ngc_ref theory check")
    # Nothing half-written is left behind (atomic writes use hidden temporary files).
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    assert "report:" in capsys.readouterr().out
