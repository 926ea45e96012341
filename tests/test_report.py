"""The report as a file set: staged and moved into place whole, never mixed across runs; a claim
that cannot run is recorded and the others go on; --only ids; provenance in meta."""

import json

import pytest

from ngc_ref_theory import Context, cli, registry, run_checks
from ngc_ref_theory.kit.claim import statement_ids
from ngc_ref_theory.output.report import render_markdown

CHEAP = ["row-sum", "case-study"]


def _run(out, *extra, only=CHEAP):
    return cli.main(["check", "--only", *only, "--out", str(out), "--no-progress", *extra])


def test_only_accepts_statement_ids_and_keeps_only_them():
    res = run_checks(Context(seed=0), only=["row-sum-corrected", "case-study:3"], progress=False)
    assert [(r.id, r.norm) for r in res] == [("row-sum-corrected", "sym"),
                                             ("case-study:3", "sym"), ("case-study:3", "rw")]
    both = run_checks(Context(seed=0), only=["row-sum"], progress=False)
    assert {r.id for r in both} == {"row-sum", "row-sum-corrected"}


def test_help_lists_every_statement_id(capsys):
    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    text = capsys.readouterr().out
    for sid in statement_ids():
        assert sid in text


def test_statement_ids_are_unique_and_name_their_claim():
    for sid, c in statement_ids().items():
        assert sid == c.id or sid.startswith((c.id + ":", c.id + "-corrected"))
        st = c.statements[sid]
        assert st.text and (st.corrects is None or st.corrects in c.statements)


def test_results_are_in_table_order_sym_before_rw():
    res = run_checks(Context(seed=0), only=["case-study", "row-sum"], progress=False)
    order = list(statement_ids())
    keys = [(order.index(r.id), r.norm == "rw") for r in res]
    assert keys == sorted(keys) and res[0].id == "row-sum"


def test_unknown_id_leaves_no_output_folder(tmp_path, capsys):
    out = tmp_path / "never"
    assert cli.main(["check", "--only", "nope", "--out", str(out), "--no-progress"]) == 2
    assert "unknown claim id" in capsys.readouterr().err and not out.exists()


def test_negative_seed_is_refused_naming_it(tmp_path, capsys):
    assert cli.main(["check", "--seed", "-1", "--out", str(tmp_path / "r")]) == 2
    assert "--seed must be a non-negative integer" in capsys.readouterr().err


def test_meta_records_provenance(tmp_path):
    assert _run(tmp_path / "r") == 0
    meta = json.loads((tmp_path / "r" / "report.json").read_text())["meta"]
    assert set(meta["source"]) == {"commit", "dirty", "version"}
    assert meta["numpy"] and meta["scipy"] and meta["networkx"] and meta["cpus"] >= 1
    if meta["source"]["commit"] is not None:        # run from a checkout (CI, editable)
        assert len(meta["source"]["commit"]) == 40
    md = (tmp_path / "r" / "report.md").read_text()
    assert (meta["source"]["commit"] or meta["source"]["version"])[:12] in md


def test_a_crashing_claim_is_recorded_and_the_run_goes_on(tmp_path, monkeypatch, capsys):
    c = registry()["row-sum"]

    def boom(ctx, norm):
        raise RuntimeError("planted failure")
    monkeypatch.setattr(c, "_check", boom)
    assert _run(tmp_path / "r") == 1
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    errors = [r for r in doc["results"] if r["verdict"] == "error"]
    assert [(r["id"], r["norm"]) for r in errors] == [("row-sum", "sym"), ("row-sum", "rw")]
    assert "planted failure" in errors[0]["evidence"]["error"]
    assert any(r["claim"] == "case-study" and r["verdict"] == "holds" for r in doc["results"])
    assert sum(c["error"] for c in doc["counts"].values()) == 2
    assert "could not run" in capsys.readouterr().err


def test_interrupted_run_leaves_the_previous_report_and_figures(tmp_path, monkeypatch):
    out = tmp_path / "r"
    assert _run(out, only=["row-sum"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert any(name.endswith(".png") for name in before)
    c = registry()["row-sum"]
    real = c._check

    def interrupted(ctx, norm):
        real(ctx, norm)          # writes this norm's figure into the staging folder ...
        raise KeyboardInterrupt  # ... and is interrupted before the report is written
    monkeypatch.setattr(c, "_check", interrupted)
    assert _run(out, only=["row-sum"]) == 130
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_stale_figures_of_the_previous_report_are_removed(tmp_path):
    out = tmp_path / "r"
    assert _run(out, only=["gsd-closed-form"]) == 0       # its figures: rw
    figs = {f for r in json.loads((out / "report.json").read_text())["results"]
            for f in r["figures"]}
    assert figs
    (out / "notes.txt").write_text("mine")           # a user's file is never touched
    assert _run(out, "--force") == 0                 # another selection: replaced on purpose
    names = {p.name for p in out.iterdir()}
    assert not figs & names and "notes.txt" in names


def test_markdown_quotes_each_statement_once():
    res = run_checks(Context(seed=0), only=["row-sum", "case-study"], progress=False)
    text = render_markdown(res, {"seed": 0})
    for r in res:
        assert text.count(f"\n> {r.statement}\n") == 1, r.id


def test_skipped_data_is_said_in_the_terminal_and_the_report(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("NGC_REF_DATA", raising=False)
    out = tmp_path / "r"
    assert _run(out, only=["row-normalization"]) == 0
    line = "skipped: Cora (row-normalization) — NGC_REF_DATA is not set"
    assert line in capsys.readouterr().out
    assert line in (out / "report.md").read_text()
    meta = json.loads((out / "report.json").read_text())["meta"]
    assert meta["skipped"] == [{"claim": "row-normalization", "norm": norm, "what": "Cora",
                                "why": "NGC_REF_DATA is not set"} for norm in ("sym", "rw")]


def test_a_data_folder_without_the_files_is_a_skip_not_an_abort(tmp_path, empty_data_folder,
                                                                capsys):
    out = tmp_path / "r"
    assert _run(out, only=["row-normalization", "denoising-accuracy"]) == 0
    doc = json.loads((out / "report.json").read_text())
    assert {r["claim"] for r in doc["results"]} == {"row-normalization", "denoising-accuracy"}
    assert all(r["verdict"] != "error" for r in doc["results"])
    whats = {s["what"] for s in doc["meta"]["skipped"]}
    assert "Cora" in whats and any(w.startswith("Cora (cora gaussian") for w in whats)
    assert "could not load it from" in capsys.readouterr().out
