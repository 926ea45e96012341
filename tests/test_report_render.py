"""``report.py``'s pieces on hand-made results (no checks run): the order of the results, the
terminal table, skips, the JSON document, the evidence digest (scalars and short items in
full, bulk as a pointer into report.json), counterexample and minimal-counterexample lines,
proof steps, the first clause of a summary, and a claim's section. The expected text is
written out here; the lists and counts of every verdict and scope are in
tests/test_report_findings.py."""

import json


from ngc_ref_theory import registry
from ngc_ref_theory.kit.claim import Result
from ngc_ref_theory.output import report as R


def res(id, norm="rw", verdict="holds", scope="as-stated", summary=None, claim=None, **kw):
    ce = kw.pop("counterexample", {"rerun": f"ngc-ref check --only {id}"}
                if verdict == "fails" else None)
    return Result(id=id, claim=claim or id, paper_ref="Eq. 9", statement="s", norm=norm,
                  verdict=verdict, evidence=kw.pop("evidence", {}),
                  summary=summary or f"{scope}: {verdict}", scope=scope, scope_reason="quoted",
                  counterexample=ce, **kw)


def test_results_in_table_order_statements_in_declaration_order_sym_before_rw():
    claims = {c.id: c for c in registry().values() if c.id in ("row-sum", "theorem-1")}
    t1 = claims["theorem-1"]
    first, second = list(t1.statements)[:2]
    got = [res(second, "rw"), res("zzz-unknown", "sym"), res(first, "rw"), res(first, "sym"),
           res("row-sum", "rw"), res("row-sum", "sym"), res(first, "x")]
    order = [(r.id, r.norm) for r in R.sort_results(got, claims)]
    expected_claims = [c for c in claims]                       # registry (table) order
    rs = [("row-sum", "sym"), ("row-sum", "rw")]
    th = [(first, "sym"), (first, "rw"), (first, "x"), (second, "rw")]
    assert order == (rs + th if expected_claims[0] == "row-sum" else th + rs) + [
        ("zzz-unknown", "sym")]
    same = [res("row-sum", "rw", summary="as-stated: a"), res("row-sum", "rw",
                                                               summary="as-stated: b")]
    assert [r.summary for r in R.sort_results(same, claims)] == ["as-stated: a", "as-stated: b"]


def test_the_terminal_table_cuts_long_evidence_at_its_width():
    rows = [res("row-sum", summary="as-stated: " + "x" * 80), res("a", summary="short")]
    lines = R.format_table(rows, width=30).splitlines()
    assert lines[0].split() == ["id", "paper", "norm", "verdict", "evidence"]
    assert lines[0].startswith("id       paper  norm  verdict  evidence")
    assert set(lines[1]) == {"-"} and len(lines[1]) == 7 + 5 + 4 + 7 + 8 + 30
    assert lines[2].endswith("as-stated: " + "x" * 18 + "…") and len(lines[2].split("  ")[-1]) == 30
    assert lines[3].endswith("  short")
    assert len(R.format_table(rows[1:]).splitlines()[1]) == 2 + 5 + 4 + 7 + 8 + 8   # "evidence"


def test_skips_are_merged_by_what_and_why():
    skipped = [{"claim": "a", "what": "Cora", "why": "no data"},
               {"claim": "b", "what": "Cora", "why": "no data"},
               {"claim": "a", "what": "Cora", "why": "no data"},
               {"claim": "", "what": "Pubmed", "why": "too big"}]
    assert R.skipped_lines(skipped) == ["skipped: Cora (a, b) — no data",
                                        "skipped: Pubmed () — too big"]


def test_the_json_document_and_both_files(tmp_path):
    r = [res("row-sum", evidence={"x": 1.5})]
    doc = R.report_document(r, {"seed": 3})
    assert doc == {"schema_version": R.SCHEMA_VERSION, "meta": {"seed": 3},
                   "counts": R.counts(r), "results": [r[0].to_dict()]}
    R.write_report(r, tmp_path, {"seed": 3}, claims={})
    assert json.loads((tmp_path / "report.json").read_text()) == doc
    assert (tmp_path / "report.md").read_text() == R.render_markdown(r, {"seed": 3}, {})
    assert (tmp_path / "report.json").read_text().endswith("}\n")


def test_the_digest_keeps_scalars_and_short_items_and_points_to_the_bulk():
    long_text = "w" * (R.TEXT_CHARS + 5)
    ev = {"ratio": 0.123456789, "flag": True, "none": None, "name": "ring",
          "text": long_text, "small": [1, 2.5, "ab"], "table": {"a": 1, "b": [1, 2]},
          "words": ["one", "two"], "rows": [{"n": k, "x": 0.5} for k in range(40)],
          "nested": {"deep": {"k": [1] * 100}, "v": 2},
          "many": list(range(200)), "inf": float("inf")}
    lines = R.digest(ev, "results[0].evidence")
    assert lines[0] == "- **ratio**: 0.123457"
    assert lines[1:4] == ["- **flag**: true", "- **none**: null", "- **name**: ring"]
    assert lines[4] == f"- **text**: {'w' * R.TEXT_CHARS}… (full text in report.json)"
    assert lines[5] == '- **small**: [1, 2.5, "ab"]'
    assert lines[6] == "- **table**: {a: 1, b: [1, 2]}"
    assert lines[7] == '- **words**: ["one", "two"]'
    assert ("- **rows**: 40 records with fields n, x — `report.json` results[0].evidence.rows"
            in lines)
    i = lines.index("- **nested**:")
    assert lines[i + 1] == ("  - **deep**: a table of 1 entries (k) — `report.json` "
                            "results[0].evidence.nested.deep")
    assert lines[i + 2] == "  - **v**: 2"
    assert "- **many**: a list of 200 items — `report.json` results[0].evidence.many" in lines
    assert lines[-1] == "- **inf**: inf"


def test_the_digest_of_text_lists_wide_tables_and_many_fields():
    words = ["a" * 70, "b" * 70]                       # too long to inline: one per line
    assert R.digest({"why": words}, "w") == ["- **why**:", f"  - {'a' * 70}", f"  - {'b' * 70}"]
    flat = {f"k{i}": i for i in range(31)}             # > 30 scalars: not one line
    assert R.digest({"t": flat}, "w") == [
        "- **t**: a table of 31 entries (k0, k1, k2, k3, k4, k5, …) — `report.json` w.t"]
    mixed = {"a": 1.0, "b": [1, 2]}
    assert R.digest({"t": {f"k{i}": list(range(i + 40)) for i in range(2)} | mixed}, "w")[0] \
        .startswith("- **t**: ")
    fields = [{f"f{i}": 1 for i in range(10)}]
    assert R.digest({"r": fields * 30}, "w") == [
        "- **r**: 30 records with fields f0, f1, f2, f3, f4, f5, f6, f7, … (10 fields) — "
        "`report.json` w.r"]
    assert R._describe(3.5) == "float"


def test_counterexample_and_minimal_counterexample_lines():
    graph = {"name": "p3", "n": 3, "n_edges": 2, "edges_sha256": "ab" * 32, "edges": [[0, 1]]}
    lines = R._counterexample_lines({"rerun": "ngc-ref check --only x", "graph": graph,
                                     "lam": 2.0}, "results[1].counterexample")
    assert lines == ["- **rerun**: `ngc-ref check --only x`",
                     "- **graph**: p3 (n = 3, 2 edges, sha256 abababababab…); edges [[0, 1]]",
                     "- **lam**: 2"]
    big = dict(graph, edges=[[0, k] for k in range(1, 22)])
    assert R._counterexample_lines({"graph": big}, "w")[0].endswith(
        "; edge list in `report.json` w.graph")
    nolist = dict(graph)
    del nolist["edges"]
    assert R._counterexample_lines({"graph": nolist}, "w")[0].endswith("in `report.json` w.graph")
    mc = {"certified": "exact", "edges": [[0, 1]], "n": 2, "lam": 1.0,
          "exact": {"P": "1/4", "Q": "3/4"}}
    assert R._minimal_lines(mc, "w") == ["- **certified**: exact", "- **graph**: n = 2, edges "
                                         "[[0, 1]]", "- **n**: 2", "- **lam**: 1",
                                         "- **exact values**:", "  - P = `1/4`", "  - Q = `3/4`"]
    assert R._minimal_lines({"lam": 1.0}, "w") == ["- **lam**: 1"]


def test_proof_steps_and_the_first_false_one():
    steps = [{"step": "a", "verdict": "holds", "worst_ratio": 0.5, "where": "K3", "text": "x|y"},
             {"step": "b", "verdict": "fails", "worst_ratio": None, "text": "z"},
             {"step": "c", "verdict": "fails", "text": "later"}]
    lines = R._steps_lines(steps)
    assert lines[:2] == ["| step | verdict | worst ratio | where | the paper's step |",
                         "|---|---|---|---|---|"]
    assert lines[2] == "| a | **holds** | 0.5 | K3 | x\\|y |"
    assert lines[3] == "| b | **fails** |  |  | z |"
    assert lines[-1] == "First false step: **b** — z"
    assert R._steps_lines(steps[:1])[-1].startswith("| a ")


def test_the_first_clause_of_a_summary():
    assert R._first_clause("a; b") == "a"
    assert R._first_clause("f(x; y) [p; q] {r; s}; rest") == "f(x; y) [p; q] {r; s}"
    assert R._first_clause("no clause") == "no clause"
    assert R._first_clause("x" * 300) == "x" * 219 + "…"
    assert R._first_clause("x" * 30, limit=10) == "x" * 9 + "…"
    assert R._first_clause("x" * 10, limit=10) == "x" * 10


def test_a_minimal_case_in_one_line():
    m = {"atlas_index": 5, "n": 3, "edges": [[0, 1]], "lam": 1.0, "S": None, "d": 4,
         "case": "rows", "shows": "x > 1", "certified": "exact"}
    assert R._case(m) == "atlas G5 (n=3, edges [[0, 1]]), λ=1, d=4, rows: x > 1 (exact)"
    assert R._case({"case": "c"}) == "c" and R._atlas_graph({"n": 2}) == ""
    assert R._atlas_graph({"atlas_index": 1}) == "atlas G1 "


def test_the_paper_md_line():
    assert R.paper_lines(None) == [] and R.paper_lines({}) == []
    assert R.paper_lines({"file": "paper.md"}) == [
        "- The paper sentence by sentence, each claim with its verdicts from this run: "
        "[paper.md](paper.md)."]
    assert R.paper_lines({"why": "no LaTeX"}) == ["- skipped: paper.md — no LaTeX"]


def test_the_run_lines_name_the_code_and_the_mode():
    meta = {"seed": 4, "thorough": True, "started": "t0", "seconds": 9,
            "source": {"commit": "0123456789abcdef", "dirty": True}}
    head = R._run_lines([], meta)
    assert head[2] == ("Paper: *How Powerful is Implicit Denoising in Graph Neural Networks*. "
                       "Run: seed 4, thorough mode, commit `0123456789ab` (with local changes), "
                       "t0, 9 s.")
    meta = {"seed": 4, "source": {"version": "0.1"}, "rerun": "R"}
    head = R._run_lines([], meta)
    assert "default mode, ngc_ref 0.1," in head[2]
    assert head[6].startswith("Re-run one statement with `R`; ")
    assert "ngc_ref 0.2" in R._run_lines([], {"version": "0.2"})[2]


def test_a_claims_section_quotes_its_words_skips_results_and_figures():
    claims = {c.id: c for c in registry().values() if c.id == "theorem-1"}
    cl = claims["theorem-1"]
    sids = list(cl.statements)
    corrected = next((s for s in sids if cl.statements[s].corrects), None)
    rs = [res(sids[1], claim="theorem-1", figures=["theorem-1-rw.png"], minimal_counterexample=
              {"case": "c"}, steps=[{"step": "s", "verdict": "holds", "text": "t"}],
              search={"grid": [1, 2]}),
          res(sids[1], claim="theorem-1", figures=["theorem-1-rw.png"])]
    if corrected:
        rs.append(res(corrected, claim="theorem-1"))
    text = R.render_markdown(rs, {"seed": 0, "skipped": [
        {"claim": "theorem-1", "what": "Cora", "why": "no data"}]}, claims)
    assert f"## theorem-1 — {cl.paper_ref}" in text and f"> {cl.statement}" in text
    assert "*skipped: Cora (theorem-1) — no data*" in text
    assert f"### {sids[1]}" in text and f"> {cl.statements[sids[1]].text}" in text
    assert f"#### {sids[1]}, norm = rw: **holds** (as-stated)" in text
    assert text.count(f"![{sids[1]} rw](theorem-1-rw.png)") == 1
    assert "Figure: `theorem-1-rw.png` (shown above)." in text
    assert "Searched:" in text and "Minimal counterexample:" in text and "Proof steps:" in text
    other = next(s for s in sids[1:] if s not in (sids[1], corrected))
    assert f"\n### {other}\n" not in text                    # no result: no section
    if corrected:
        assert (f"Corrected statement (corrects `{cl.statements[corrected].corrects}`, the "
                f"paper's):") in text
    assert R._claim_lines(cl, {}, {}, {}, set()) == []
    _blocks_are_separated(text)
    lines = text.split("\n")
    assert lines.count(f"#### {sids[1]}, norm = rw: **holds** (as-stated)") == 2
    k = lines.index("Figure: `theorem-1-rw.png` (shown above).")
    assert lines[k - 1] == ""
    if corrected:
        k = next(i for i, line in enumerate(lines) if line.startswith("Corrected statement"))
        assert lines[k + 1] == "" and lines[k + 2].startswith("> ")


def test_links_and_anchors():
    assert R._anchor("theorem-1:a") == "s-theorem-1-a" and R._anchor("x.y z") == "s-x-y-z"
    r = res("theorem-1:a", summary="as-stated: it holds")
    assert R._link(r) == "[`theorem-1:a`](#s-theorem-1-a)" and r.said == "it holds"
    assert res("b", summary="extension: it").said == "extension: it"   # not its scope


def test_the_head_of_report_md_word_for_word():
    """The title, the run, the counts by scope, how to rerun and what the scopes mean, the
    skips and the paper.md line: the text a reader meets first, written out."""
    meta = {"seed": 4, "started": "t0", "seconds": 9, "source": {"commit": "0123456789abcdef"},
            "skipped": [{"claim": "a", "what": "Cora", "why": "no data"}],
            "paper": {"file": "paper.md"}}
    assert R._run_lines([res("a", verdict="fails")], meta) == [
        "# ngc_ref theory check",
        "",
        "Paper: *How Powerful is Implicit Denoising in Graph Neural Networks*. Run: seed 4, "
        "default mode, commit `0123456789ab`, t0, 9 s.",
        "",
        "**The paper's statements as stated: 0 holds, 1 fails, 0 inconclusive.** Our "
        "extensions and corrections: 0 holds, 0 fails, 0 inconclusive. Errata (typos whose "
        "intended statement is clear): 0 holds, 0 fails, 0 inconclusive.",
        "",
        "Re-run one statement with `ngc-ref check --only ID --seed N`; every number below is "
        "in `report.json`. Scopes: *as-stated* — the paper's statement under its own "
        "hypotheses and normalisation; *extension* — our generalisation (the other "
        "normalisation, settings beyond the hypotheses, constructed graphs) or a corrected "
        "statement; *erratum* — a typo whose intended statement is clear.",
        "",
        "- skipped: Cora (a) — no data",
        "- The paper sentence by sentence, each claim with its verdicts from this run: "
        "[paper.md](paper.md)."]


# --- the whole document: Markdown blocks, section labels, pointers into report.json ---------

def _blocks_are_separated(text):
    """Markdown renders a heading, an anchor, a quote, a list, a table or an image as its own
    block only with blank lines around it: every such line is preceded by a blank line or a
    line of the same kind (a list or table continues), and followed likewise."""
    lines = text.split("\n")
    assert text.endswith("\n")

    def kind(line):
        for prefix, k in (("#", "heading"), ("<a id=", "anchor"), ("> ", "quote"),
                          ("- ", "list"), ("  - ", "list"), ("|", "table"), ("![", "image"),
                          ("*skipped", "skip")):
            if line.startswith(prefix):
                return k
        return "text" if line else ""
    for k, line in enumerate(lines[:-1]):
        mine = kind(line)
        if mine in ("", "text"):
            continue
        before = kind(lines[k - 1]) if k else ""
        after = kind(lines[k + 1])
        same = mine if mine in ("list", "table") else None
        assert before in ("", same), (lines[k - 1], line)
        assert after in ("", same), (line, lines[k + 1])


def test_a_whole_report_is_well_formed_markdown_with_its_sections_labelled():
    claims = {c.id: c for c in registry().values() if c.id in ("theorem-1", "row-sum")}
    cl = claims["theorem-1"]
    sid = list(cl.statements)[1]
    bulk = {"rows": [{"n": k} for k in range(20)], "ok": 1.5}
    full = res(sid, verdict="fails", claim="theorem-1", evidence=bulk,
               search={"grid": list(range(100))},
               minimal_counterexample={"case": "c", "cells": list(range(100)),
                                       "exact": {"P": "1/4"}},
               steps=[{"step": "s", "verdict": "fails", "text": "t"}],
               counterexample={"rerun": "ngc-ref check --only x", "draws": list(range(100))},
               figures=["theorem-1-rw.png"])
    a2 = res("assumption-2", verdict="fails", evidence={"lam": 1.0, "S": 2,
                                                        "floor_tau_over_n": 0.5},
             counterexample={"rerun": "r"})
    rows = [res("row-sum"), full, a2]
    meta = {"seed": 0}                               # no "skipped" key: nothing skipped
    text = R.render_markdown(rows, meta, claims)
    _blocks_are_separated(text)
    lines = text.split("\n")
    assert lines.count("Evidence:") == 2                       # one per result
    for label in ("Searched:", "Minimal counterexample:", "Proof steps:", "Counterexample:"):
        assert lines.count(label) == 1, label
    where = "results[1]"
    for pointer in (f"`report.json` {where}.evidence.rows", f"`report.json` {where}.search.grid",
                    f"`report.json` {where}.minimal_counterexample.cells",
                    f"`report.json` {where}.counterexample.draws"):
        assert pointer in text, pointer
    assert "First false step: **s** — t" in lines
    for label in ("Evidence:", "Searched:", "Minimal counterexample:", "Proof steps:",
                  "Counterexample:"):
        k = lines.index(label)
        assert lines[k - 1] == "" and lines[k + 1] == "", label
    k = lines.index(f"#### {sid}, norm = rw: **fails** (as-stated)")
    assert lines[k + 1:k + 7] == ["", "as-stated: fails", "", "*Scope: as-stated* — quoted",
                                  "", "Evidence:"]
    assert f"#### {sid}, norm = rw: **fails** (as-stated)" in lines
    assert "| id | paper | norm | scope | verdict | evidence |" in lines
    assert "|---|---|---|---|---|---|" in lines
    assert f"| [`{sid}`](#{R._anchor(sid)}) | Eq. 9 | rw | as-stated | **fails** | fails |" in lines
    assert lines.index("## What fails as stated") < lines.index("| id | paper | norm | scope | "
                                                                 "verdict | evidence |")
    assert "\n\n**At fixed λ no graph family" in text
    assert text.index("**At fixed λ") < text.index("## What fails as stated")
    assert R.render_markdown(rows, meta) == R.render_markdown(rows, meta, registry())
    assert "\n## row-sum — " in text and "\n## row-sum — " not in R.render_markdown(rows, meta,
                                                                                      {})


def test_what_fails_and_the_structural_finding_word_for_word():
    r = res("a", verdict="fails", summary="as-stated: x; more",
            counterexample={"rerun": "r", "graph": {"name": "g", "n": 2, "n_edges": 1,
                                                     "edges_sha256": "0" * 64},
                            "lam": 1.0, "S": 2, "d": 3, "eps": 0.5, "p": 0.1,
                            "noise": "gaussian", "xi": 2.0, "n": 7, "flag": True})
    assert R.what_fails_lines([r]) == [
        "## What fails as stated", "",
        "1 of the paper's statements fail under their own hypotheses (the minimal "
        "counterexample is the smallest inside the statement's non-degenerate range; sections "
        "below give the evidence):", "",
        "- [`a`](#s-a) (rw): x — counterexample: g (n = 2, 1 edges), λ=1, S=2, d=3, ε=0.5, "
        "p=0.1, noise=gaussian, ξ=2 — rerun `r`"]
    norerun = res("c", verdict="fails", counterexample={"no_graph": "noise"})
    assert R.what_fails_lines([norerun])[-1].endswith("rerun `ngc-ref check --only c`")
    bare = res("b", verdict="fails", counterexample={"family": "ring", "n": 7, "lam": 1.0,
                                                     "S": 2, "d": 3, "eps": 0.5, "p": 0.1,
                                                     "noise": "uniform", "xi": 2.0})
    assert R._headline_case(bare) == (f"{R.NO_GRAPH_RECORDED}, family=ring, n=7, λ=1, S=2, d=3, "
                                      "ε=0.5, p=0.1, noise=uniform, ξ=2")
    a2 = res("assumption-2", verdict="fails", evidence={
        "lam": 1.0, "S": 2, "floor_tau_over_n": 0.5, "families": {"x": {"verdict": "fails"},
                                                                  "y": {"verdict": "holds"}}},
        counterexample={"rerun": "r", "family": "x", "tau_over_n": 0.75, "n": 10})
    grown = res("g", evidence={"why_lambda_sqrt_n": "w"})
    grown2 = res("g", norm="sym", scope="extension", evidence={"why_lambda_sqrt_n": "w"})
    (para,) = R.structural_finding_lines([a2, grown, grown2])
    assert para == (
        "**At fixed λ no graph family meets Assumption 2.** Every diagonal entry of 𝒜̃_S is at "
        "least 1/(λ+1) (its s = 0 term; no term is negative), so τ_i ≥ n/((λ+1)²(1−r^{S+1})²) "
        "on every graph, and τ/n stays above a positive floor whatever n: at λ = 1, S = 2, "
        "1/(λ+1) = 0.5 and τ/n ≥ 0.5 ([`assumption-2`](#s-assumption-2), rw: 1 of 2 families "
        "stay above it; closest, x: τ/n = 0.75 at n = 10). Lemma 1 and Theorem 1 assume "
        "Assumption 2, so under their stated hypotheses they are vacuous unless λ grows with n. "
        "The results that need Assumption 2 therefore run at λ = √n, S = ⌈2λ⌉: [`g`](#s-g) "
        "(rw as-stated: holds, sym extension: holds).")
    a2.counterexample = {"rerun": "r", "family": "x", "n": 10}       # no τ/n: no 'closest'
    del a2.evidence["families"]
    (para,) = R.structural_finding_lines([a2])
    assert "), rw: 0 of 0 families stay above it). Lemma 1" in para


def test_digest_and_its_helpers_at_their_limits():
    assert R._inline("x" * 60) == f'"{"x" * 60}"' and R._inline(["x" * 61]) is None
    s = ["y" * 50, "z" * 52]                                   # '["…", "…"]' = 110 chars
    assert R._inline(s) is not None
    assert R._inline({"a": "x" * 61}) is None and R._inline({"a": [None]}) == "{a: [null]}"
    at = [10] + [1] * 52                                       # "[10, 1, …]" = 160 chars
    assert len(R._inline(at)) == R.INLINE_CHARS and R._inline(at + [1]) is None
    assert R._is_scalar("x" * 199) and not R._is_scalar("x" * 200) and R._is_scalar(3)
    assert R._is_text_list(["x" * 100]) and not R._is_text_list([])
    assert R._is_text_list(["a"] * 12) and not R._is_text_list(["a"] * 13)
    assert R._is_text_list(["x" * 700] * 3)
    assert not R._is_text_list(["x" * 700, "x" * 701, "x" * 700])
    assert R._describe([{f"f{i}": 1 for i in range(8)}]).endswith("f6, f7")
    assert R._describe([{f"f{i}": 1 for i in range(9)}]).endswith("f7, … (9 fields)")
    assert R._describe({k: 1 for k in "abcdef"}) == "a table of 6 entries (a, b, c, d, e, f)"
    assert R._describe({k: 1 for k in "abcdefg"}) == "a table of 7 entries (a, b, c, d, e, f, …)"
    assert R._fmt(["τ/n", 1]) == '["τ/n", 1]' and R._fmt({"λ": None}) == '{"λ": null}'
    exact = "x" * R.TEXT_CHARS
    assert R.digest({"t": exact}, "w") == [f"- **t**: {exact}"]
    wide = {f"key_number_{i}": i for i in range(30)}           # too long to inline, 30 scalars
    assert R.digest({"t": wide}, "w") == [
        "- **t**: " + "; ".join(f"key_number_{i} = {i}" for i in range(30))]
    mixed = {**{f"key_number_{i}": i for i in range(10)}, "s": "abc", "d": {"a": 1},
             "l": [1, 2]}
    assert R.digest({"t": mixed}, "w")[0].endswith("; s = abc; d = {a: 1}; l = [1, 2]")
    assert R.digest({"t": {**wide, "x": 1}}, "w")[0].startswith("- **t**: a table of 31")
    twelve = {f"k{i}": {"deep": list(range(i + 100))} for i in range(12)}
    assert R.digest({"t": twelve}, "w")[0] == "- **t**:"
    assert R.digest({"t": {**twelve, "k12": {}}}, "w")[0].startswith("- **t**: a table of 13")
    deep = {"a": {"b": {"c": list(range(200))}}}
    assert R.digest(deep, "w", max_depth=2)[2] == (
        "    - **c**: a list of 200 items — `report.json` w.a.b.c")
    assert R.digest(deep, "w")[1].startswith("  - **b**: a table of 1 entries")
    assert R.cell("a\nb|c") == "a b\\|c"


def test_smaller_pieces_at_their_limits():
    edges = [[0, k] for k in range(1, 21)]                     # 20 edges: shown
    graph = {"name": "s", "n": 21, "n_edges": 20, "edges_sha256": "0" * 64, "edges": edges}
    assert R._counterexample_lines({"graph": graph}, "w")[0].endswith(f"; edges {edges}".replace(
        "'", '"'))
    assert R._steps_lines([{"step": "a", "verdict": "holds"}])[2] == "| a | **holds** |  |  |  |"
    assert R._steps_lines([{"step": "a", "verdict": "fails", "text": "t"}])[-2:] == [
        "", "First false step: **a** — t"]
    long = res("x", summary="as-stated: " + "y" * 59)
    assert R.format_table([long]).splitlines()[2].endswith("y" * 59)   # 70 chars: kept
    longer = res("x", summary="as-stated: " + "y" * 60)
    assert R.format_table([longer]).splitlines()[2].endswith("y" * 58 + "…")
    assert R.format_table([long]).splitlines()[2].startswith("x   Eq. 9  rw    holds    as-")
    claims = {c.id: c for c in registry().values() if c.id == "row-sum"}
    unknown = [res("zz", norm="sym"), res("yy", norm="rw"), res("row-sum", norm="other"),
               res("row-sum", norm="rw")]
    assert [(r.id, r.norm) for r in R.sort_results(unknown, claims)] == [
        ("row-sum", "rw"), ("row-sum", "other"), ("zz", "sym"), ("yy", "rw")]
