"""paper.md: the paper's text with each claim's verdicts. Its counts keep the paper's own
results apart from extensions, errata and statements not run; every link lands on an anchor of
report.md from the same run; the same inputs give the same bytes; a run without the paper says
so and writes none."""

import hashlib
import json
import os
import re
import subprocess
import sys

import pytest

from ngc_ref_theory import Result, cli, registry
from ngc_ref_theory.paper.sentence_map import entry_for, match
from ngc_ref_theory.paper.sentences import label_numbers, split_sentences
from ngc_ref_theory.output.paper_md import annotate, counts, render, sentence_verdict
from ngc_ref_theory.output.report import render_markdown

TEX = r"""\documentclass{article}\begin{document}
\section{Theory}
Rows sum to one. Lemma one bounds the noise. The trace is an edge sum. It is O of n.
The factor lies in a range. Theorem one holds. Squares are bounded. Two is a lemma.
Isolated nodes reach n. We use PyG. IRLS is better than GCN.
\begin{table}\caption{Numbers.}\begin{tabular}{cc} a & 1 \\ b & 2 \\ \end{tabular}\end{table}
\end{document}"""

#: sentence -> (ids, extra fields of its map entry)
PLAN = [(("row-sum",), {}), (("lemma-1",), {}), (("gsd-trace",), {}),
        (("assumption-2:o-n",), {}), (("tau-range",), {}), (("theorem-1",), {}),
        (("row-square-bounds",), {}), (("lemma-2",), {}), (("isolated-tau:paper-data",), {}),
        ((), {"reason": "setting"}),
        ((), {"reason": "unjudged", "proposed": "IRLS is not implemented"}),
        ((), {"reason": "setting"}),
        ((), {"reason": "table", "target": "tab:flip"})]


def result(sid, norm, scope, verdict):
    claim = {c.id: c for c in registry().values()}
    owner = next(c for c in claim.values() if sid in c.statements)
    return Result(id=sid, claim=owner.id, paper_ref=owner.paper_ref, statement="words",
                  norm=norm, verdict=verdict, evidence={"x": 1}, summary=f"{scope}: s",
                  scope=scope, scope_reason="because",
                  counterexample={"rerun": "ngc-ref check"} if verdict == "fails" else None)


RESULTS = [result("row-sum", "sym", "extension", "fails"),
           result("row-sum", "rw", "as-stated", "holds"),
           result("lemma-1", "sym", "extension", "holds"),
           result("lemma-1", "rw", "as-stated", "inconclusive"),
           result("gsd-trace", "rw", "as-stated", "fails"),
           result("assumption-2:o-n", "rw", "erratum", "fails"),
           result("theorem-1:sum", "rw", "as-stated", "holds"),
           result("theorem-1:mean", "rw", "extension", "inconclusive"),
           result("row-square-bounds", "rw", "as-stated", "error"),
           # a result no sentence of this small paper anchors: never counted for the paper
           result("neumann-identity", "rw", "as-stated", "fails")]
META = {"seed": 7, "source": {"commit": "0123456789abcdef", "version": "0.1.0"},
        "skipped": [{"claim": "isolated-tau", "norm": "rw", "what": "Cora",
                     "why": "NGC_REF_DATA is not set"}]}
#: --only as the run selected it: everything but tau-range
KEEP = set().union(*(c.statements for c in registry().values())) - {"tau-range"}


@pytest.fixture(scope="module")
def paper():
    units = split_sentences(TEX)
    assert len(units) == len(PLAN)
    entries = [entry_for(u, ids, **kw) for u, (ids, kw) in zip(units, PLAN)]
    m = match(entries, units)
    assert m.problems == []
    return units, m


def test_each_sentence_stands_on_its_as_stated_results_only(paper):
    units, m = paper
    got = [sentence_verdict(annotate(m.entry_of[u.index], RESULTS, registry(), KEEP,
                                     META["skipped"]))
           for u in units[:9]]
    assert got == ["holds",         # rw holds; the sym extension's failure is not the paper's
                   "inconclusive",  # as-stated inconclusive, extension holds
                   "fails", "beyond",  # the erratum alone never counts for or against
                   "not run",       # tau-range was not selected
                   "holds",         # the claim id stands for its parts: :sum holds (as stated)
                   "error", "not run", "not run"]


def test_counts_by_scope_verdict_and_reason(paper):
    units, m = paper
    c = counts(units, m, RESULTS, registry())
    assert c["units"] == 13 and c["claims"] == 9 and c["statements"] == 9
    assert c["results"]["as-stated"] == {"holds": 2, "fails": 1, "inconclusive": 1,
                                         "error": 1}
    assert c["results"]["extension"] == {"holds": 1, "fails": 1, "inconclusive": 1,
                                         "error": 0}
    assert c["results"]["erratum"] == {"holds": 0, "fails": 1, "inconclusive": 0, "error": 0}
    assert c["sentences"] == {"holds": 2, "fails": 1, "inconclusive": 1, "error": 1,
                              "beyond": 1, "not run": 3}
    assert c["not_claims"] == {"setting": 2, "table": 1} and c["unjudged"] == 1


def test_the_text_and_its_verdict_lines(paper):
    units, m = paper
    md = render(units, m, RESULTS, META, registry(), label_numbers(TEX), KEEP)
    assert "**2 holds, 1 fails, 1 inconclusive, 1 error**" in md
    assert ("Rows sum to one.\n\n"
            "- [`row-sum`](report.md#s-row-sum) · sym · extension · **fails**\n"
            "- [`row-sum`](report.md#s-row-sum) · rw · as-stated · **holds**\n") in md
    assert "- not run in this report (--only): `tau-range`" in md
    assert "- not a statement of this version of the checker: `lemma-2`" in md
    assert ("- no result in this run (skipped Cora: NGC_REF_DATA is not set): "
            "`isolated-tau:paper-data`") in md
    assert "[`theorem-1:sum`](report.md#s-theorem-1-sum) · rw · as-stated · **holds**" in md
    assert "| a | 1 |" in md and "*Table 1:* Numbers." in md
    assert "## Not judged yet" in md and "IRLS is not implemented" in md
    assert "seed 7, commit `0123456789ab`" in md


def test_every_link_lands_on_an_anchor_of_the_same_runs_report(paper):
    units, m = paper
    md = render(units, m, RESULTS, META, registry(), label_numbers(TEX), KEEP)
    report = render_markdown(RESULTS, META)
    links = set(re.findall(r"\]\(report\.md#([^)]+)\)", md))
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', report))
    assert links and links <= anchors


#: Every scope × verdict a result can have.
GRID = [(scope, verdict) for scope in ("as-stated", "extension", "erratum")
        for verdict in ("holds", "fails", "inconclusive", "error")]


@pytest.mark.parametrize("scope, verdict", GRID)
def test_one_result_of_each_verdict_and_scope_under_a_sentence_and_in_the_counts(paper, scope,
                                                                                  verdict):
    """One result under the first sentence: the sentence takes its verdict only when it is
    as stated ('beyond' otherwise: an extension's failure is never the paper's), and the
    head line counts it under its scope and verdict alone."""
    units, m = paper
    r = result("row-sum", "rw", scope, verdict)
    stands = sentence_verdict(annotate(m.entry_of[units[0].index], [r], registry()))
    assert stands == (verdict if scope == "as-stated" else "beyond")
    c = counts(units, m, [r], registry())
    assert c["results"] == {sc: {v: int((sc, v) == (scope, verdict))
                                 for v in ("holds", "fails", "inconclusive", "error")}
                            for sc in ("as-stated", "extension", "erratum")}
    assert c["sentences"][stands] == 1 and sum(c["sentences"].values()) == 9
    md = render(units, m, [r], META, registry(), label_numbers(TEX))

    def said(sc):
        ones = [f"{int((sc, v) == (scope, verdict))} {v}"
                for v in ("holds", "fails", "inconclusive", "error")]
        return ", ".join(x for x in ones if x != "0 error")
    assert (f"Their results as stated: **{said('as-stated')}**; extensions and corrections "
            f"beside them: {said('extension')}; errata: {said('erratum')}.") in md


@pytest.mark.parametrize("stated", [("holds", "inconclusive"), ("inconclusive", "error"),
                                    ("error", "fails"), ("holds", "holds"), ("holds", "fails")])
def test_a_sentence_stands_on_its_worst_as_stated_result_whatever_the_others_say(paper, stated):
    """fails, then error, then inconclusive, then holds; extension and erratum results of
    every verdict beside them change nothing."""
    units, m = paper
    res = [result("row-sum", norm, "as-stated", v) for norm, v in zip(("sym", "rw"), stated)]
    res += [result("row-sum", "rw", sc, v) for sc, v in GRID if sc != "as-stated"]
    worst = next(v for v in ("fails", "error", "inconclusive", "holds") if v in stated)
    assert sentence_verdict(annotate(m.entry_of[units[0].index], res, registry())) == worst


RENDER = """
import hashlib
from types import SimpleNamespace
from ngc_ref_theory.kit.claim import Result
from ngc_ref_theory.paper.sentence_map import entry_for, match
from ngc_ref_theory.paper.sentences import label_numbers, split_sentences
from ngc_ref_theory.output.paper_md import render
TEX, PLAN = {tex!r}, {plan!r}
claims = {{c: SimpleNamespace(id=c, statements={{s: None for s in ss}})
          for c, ss in {claims!r}.items()}}
results = [Result(**r) for r in {results!r}]
units = split_sentences(TEX)
m = match([entry_for(u, ids, **kw) for u, (ids, kw) in zip(units, PLAN)], units)
md = render(units, m, results, {meta!r}, claims, label_numbers(TEX), {keep!r})
print(hashlib.sha256(md.encode()).hexdigest())
"""


def test_the_same_inputs_give_the_same_bytes():
    """In two interpreters with different string hashing (set and dict orders of str keys can
    differ between them), the same inputs render to the same bytes."""
    claims = {c.id: sorted(c.statements) for c in registry().values()}
    code = RENDER.format(tex=TEX, plan=PLAN, claims=claims, meta=META,
                         results=[r.to_dict() for r in RESULTS], keep=sorted(KEEP))
    digests = {subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                              text=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(digests) == 1 and len(digests.pop()) == 65


def test_a_paper_the_map_does_not_fit_is_refused_naming_its_first_three_problems(tmp_path):
    """write_paper on another text than the map's: ValueError naming the map and the first
    three problems of the matching, and no paper.md."""
    from types import SimpleNamespace
    from ngc_ref_theory.paper.sentence_map import load_map
    from ngc_ref_theory.output.paper_md import write_paper
    problems = match(load_map(), split_sentences(TEX)).problems
    assert len(problems) > 3
    with pytest.raises(ValueError) as err:
        write_paper([], tmp_path, META, SimpleNamespace(text=TEX))
    assert str(err.value) == ("the sentence map (theory/paper/paper_map.toml) does not fit the "
                              f"paper: {problems[0]}; {problems[1]}; {problems[2]}")
    assert not (tmp_path / "paper.md").exists()


# --- through the command line, on the paper itself ----------------------------------------

def _links_and_anchors(out):
    md = (out / "paper.md").read_text(encoding="utf-8")
    report = (out / "report.md").read_text(encoding="utf-8")
    return (set(re.findall(r"\]\(report\.md#([^)]+)\)", md)),
            set(re.findall(r'<a id="([^"]+)"></a>', report)), md, report)


def test_check_writes_paper_md_whose_links_resolve(tex, tmp_path, monkeypatch, capsys):
    from ngc_ref_theory.paper.source import paper_source
    monkeypatch.setenv("NGC_REF_PAPER", str(paper_source().path))
    out = tmp_path / "out"
    assert cli.main(["check", "--only", "inner-max", "--out", str(out), "--no-progress"]) == 0
    links, anchors, md, report = _links_and_anchors(out)
    assert links and links <= anchors
    assert "[paper.md](paper.md)" in report
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert doc["meta"]["paper"]["file"] == "paper.md"
    stated = doc["counts"]["as-stated"]
    assert (f"Their results as stated: **{stated['holds']} holds, {stated['fails']} fails, "
            f"{stated['inconclusive']} inconclusive**") in md
    assert "not run in this report (--only)" in md

    # the same run without the paper: said at the start, at the end and in report.md; the
    # previous paper.md goes, so none of another run stays beside this report
    monkeypatch.setenv("NGC_REF_PAPER", "")
    monkeypatch.setattr("ngc_ref_theory.paper.source.default_path", lambda: None)
    capsys.readouterr()
    assert cli.main(["check", "--only", "inner-max", "--out", str(out), "--no-progress"]) == 0
    said = capsys.readouterr()
    assert "ngc-ref: no paper.md: the paper's LaTeX is not beside this checkout" in said.err
    assert "skipped: paper.md — the paper's LaTeX is not beside this checkout" in said.out
    assert not (out / "paper.md").exists()
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "- skipped: paper.md — the paper's LaTeX is not beside this checkout" in report


def test_another_version_of_the_paper_stops_the_run_before_anything(tex, tmp_path, monkeypatch,
                                                                     capsys):
    other = tmp_path / "v2.tex"
    other.write_text(tex.replace("Deeper GNNs", "Shallower GNNs"), encoding="utf-8")
    monkeypatch.setenv("NGC_REF_PAPER", str(other))
    out = tmp_path / "out"
    assert cli.main(["check", "--only", "inner-max", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "NGC_REF_PAPER" in err and hashlib.sha256(other.read_bytes()).hexdigest() in err
    assert not out.exists()


# --- a whole paper.md, written out by hand ------------------------------------------------

def _small_paper():
    """21 units built by hand (no LaTeX parser): one paragraph of plain sentences and
    displays closed by a claim of two ids, a run of proof steps and a restatement, a lemma
    whose claim has every kind of missing statement, paragraphs, a footnote, two tables
    with their captions (one above, one below), and a last claim and reproduce sentence."""
    from types import SimpleNamespace
    from ngc_ref_theory.paper.sentence_map import Entry, Matching
    from ngc_ref_theory.paper.sentences import Unit
    intro, theory, lemma, end = ("1 Intro",), ("2 Theory",), ("2 Theory", "Lemma 1"), ("3 End",)
    rows = [  # section, paragraph, kind, number, text, entry fields
        (intro, 1, "sentence", "", "First plain.", {"reason": "setting"}),
        (intro, 1, "sentence", "", "Second plain.", {"reason": "setting"}),
        (intro, 1, "sentence", "", r"We have \[ x \]", {"reason": "setting"}),
        (intro, 1, "sentence", "", "So it is.", {"reason": "setting"}),
        (intro, 1, "sentence", "", r"\begin{equation} y \label{eq:y} \end{equation} holds.",
         {"reason": "setting"}),
        (intro, 1, "sentence", "", r"Rows sum to one by \eqref{eq:y}.",
         {"ids": ("row-sum", "theorem-1")}),
        (intro, 2, "sentence", "", "Step one.", {"reason": "proof-step", "of": ("theorem-1:sum",)}),
        (intro, 2, "sentence", "", "Step two.", {"reason": "proof-step", "of": ("theorem-1:sum",)}),
        (intro, 2, "sentence", "", "It restates.",
         {"reason": "restatement", "of": ("theorem-1", "tau-range")}),
        (lemma, 3, "sentence", "", r"The lemma holds: \begin{align} z \end{align}",
         {"ids": ("lemma-1", "gsd-trace", "old-id", "tau-range", "isolated-tau:paper-data"),
          "proposed": "bound it for every n"}),
        (theory, 4, "sentence", "", "Plain A.", {"reason": "setting"}),
        (theory, 5, "sentence", "", r"Plain B.\footnotemark[1]", {"reason": "setting"}),
        (theory, 5, "footnote", "1", "A note.", {"reason": "setting"}),
        (theory, 5, "sentence", "", "Plain C.", {"reason": "setting"}),
        (theory, 6, "caption", "Table 1", "Numbers of a.", {"reason": "setting"}),
        (theory, 6, "caption", "Table 1", "More words.", {"reason": "setting"}),
        (theory, 6, "table", "Table 1", r"\begin{tabular}{ccc} \multicolumn{2}{c}{A} & B \\ "
         r"x & \ref{eq:y} & y \\ \end{tabular}", {"reason": "table", "target": "tab:t"}),
        (theory, 7, "table", "Table 2", r"\begin{tabular}{c} q \\ \end{tabular}",
         {"reason": "unjudged", "proposed": "check table 2"}),
        (theory, 7, "caption", "Table 2", "Below.",
         {"reason": "unjudged", "proposed": "check its caption"}),
        (end, 8, "sentence", "", "It holds again.",
         {"ids": ("lemma-1",), "proposed": "run it on a graph X"}),
        (end, 8, "sentence", "", "We stop here.",
         {"reason": "reproduce", "target": "tab:t", "reproduce_claim": "bold"}),
    ]
    units, entry_of = [], {}
    for k, (section, para, kind, number, text, fields) in enumerate(rows):
        units.append(Unit(section, k, text, kind, para, number))
        entry_of[k] = Entry(" / ".join(section), "q", "h", **fields)
    claims = {c: SimpleNamespace(id=c, statements=dict.fromkeys(ss)) for c, ss in {
        "row-sum": ["row-sum"], "lemma-1": ["lemma-1"], "gsd-trace": ["gsd-trace"],
        "theorem-1": ["theorem-1:sum", "theorem-1:mean"], "tau-range": ["tau-range"],
        "isolated-tau": ["isolated-tau:paper-data"]}.items()}

    def res(sid, claim, norm, scope, verdict):
        return SimpleNamespace(id=sid, claim=claim, norm=norm, scope=scope, verdict=verdict)
    results = [res("row-sum", "row-sum", "rw", "as-stated", "holds"),
               res("row-sum", "row-sum", "sym", "extension", "fails"),
               res("theorem-1:sum", "theorem-1", "rw", "as-stated", "holds"),
               res("lemma-1", "lemma-1", "rw", "as-stated", "fails")]
    return units, Matching(entry_of=entry_of), results, claims


def test_a_small_paper_md_written_out_line_by_line():
    """Every line of paper.md for a paper built by hand, written out from the documented
    layout: the head's counts (each result once, per scope; a sentence per its as-stated
    results; the reasons by count, then name), a paragraph's sentences joined by a space and
    a display set off by blank lines, the displays numbered 1, 2 in reading order, a run of
    non-claim units sharing a pointer ending with one italic line, a claim's results and
    each kind of missing statement, footnotes and tables on their own, a caption's number on
    its first sentence only (above or below its table), and the list of what is not judged
    yet, ending in one newline."""
    from ngc_ref_theory.paper.sentence_map import REASONS
    units, matching, results, claims = _small_paper()
    meta = {"seed": 3, "version": "9.9",
            "skipped": [{"claim": "isolated-tau", "what": "Cora", "why": "no data"},
                        {"claim": "isolated-tau", "what": "Pubmed", "why": "no data"}]}
    keep = {"row-sum", "theorem-1:sum", "theorem-1:mean", "lemma-1", "gsd-trace",
            "isolated-tau:paper-data"}                        # tau-range not selected
    md = render(units, matching, results, meta, claims, {"eq:y": "1"}, keep)
    documented = ("definition", "notation", "literature", "motivation", "signpost", "setting",
                  "reproduce", "table", "proof-step", "restatement", "summary", "hypothesis",
                  "unjudged")
    assert tuple(REASONS) == documented
    lemma_1 = "- [`lemma-1`](report.md#s-lemma-1) · rw · as-stated · **fails**"
    expected = [
        "# The paper, sentence by sentence, with the verdicts of this run",
        "",
        "*How Powerful is Implicit Denoising in Graph Neural Networks* (arXiv 2209.14514), its "
        "body as 21 units — sentences, footnotes, caption sentences and tables — each followed, "
        "where it is a claim, by the results of this run ([report.md](report.md); seed 3, "
        "ngc_ref 9.9).",
        "",
        "- **21 units.**",
        "- **3 claims**, judged by 7 statements. Their results as stated: **2 holds, 1 fails, "
        "0 inconclusive**; extensions and corrections beside them: 0 holds, 1 fails, "
        "0 inconclusive; errata: 0 holds, 0 fails, 0 inconclusive. Per claim sentence, as "
        "stated: 1 — every as-stated result holds; 2 — an as-stated result fails.",
        "- **2 state something checkable that no result judges yet** (and 2 claims have a part "
        "no result judges): the proposed checks are listed at the end.",
        "- **16 are not claims**, by reason: setting 11, proof-step 2, reproduce 1, "
        "restatement 1, table 1.",
        "",
        "Reasons: " + "; ".join(f"*{k}* — {REASONS[k]}" for k in documented) + ".",
        "",
        "Under a claim, one line per result: the statement (linked to its section of "
        "`report.md`), the normalisation, the scope (*as-stated*: the paper's statement under "
        "its own hypotheses; *extension*: ours; *erratum*: a clear typo) and the verdict. "
        "Equations are numbered as this LaTeX numbers them (every numbered display counts, "
        "Assumptions 1 and 4's too), as the report's 'Eq.' numbers are.",
        "", "## 1 Intro",
        "", "First plain. Second plain. We have\n\n$$\nx\n$$\n\nSo it is.\n\n$$\ny \\tag{1}\n$$"
            "\n\nholds. Rows sum to one by equation 1.",
        "", "- [`row-sum`](report.md#s-row-sum) · rw · as-stated · **holds**",
        "- [`row-sum`](report.md#s-row-sum) · sym · extension · **fails**",
        "- [`theorem-1:sum`](report.md#s-theorem-1-sum) · rw · as-stated · **holds**",
        "", "Step one. Step two.",
        "", "*proof step, checked through [`theorem-1:sum`](report.md#s-theorem-1-sum)*",
        "", "It restates.",
        "", "*restates what is judged by [`theorem-1`](report.md#s-theorem-1), `tau-range`*",
        "", "## 2 Theory", "", "**Lemma 1.**",
        "", "The lemma holds:\n\n$$\n\\begin{aligned}z\\end{aligned} \\tag{2}\n$$",
        "", lemma_1,
        "- no result in this run: `gsd-trace`",
        "- not a statement of this version of the checker: `old-id`",
        "- not run in this report (--only): `tau-range`",
        "- no result in this run (skipped Cora: no data; Pubmed: no data): "
        "`isolated-tau:paper-data`",
        "- not judged yet: bound it for every n",
        "", "Plain A.",
        "", "Plain B.<sup>1</sup>",
        "", "> <sup>1</sup> A note.",
        "", "Plain C.",
        "", "*Table 1:* Numbers of a. More words.",
        "", "| A |  | B |\n|---|---|---|\n| x | 1 | y |",
        "", "*numbers compared with our runs by `ngc-ref reproduce --only 'tab:t'`*",
        "", "| q |\n|---|",
        "", "*Table 2:* Below.",
        "", "*checkable, not judged yet (see the end)*",
        "", "## 3 End",
        "", "It holds again.",
        "", lemma_1, "- not judged yet: run it on a graph X",
        "", "We stop here.",
        "", "*judged by `ngc-ref reproduce --only 'tab:t'`, its claim `bold`*",
        "", "## Not judged yet",
        "", "Sentences that state something checkable which no result of the checker judges "
            "yet, with the check proposed:",
        "",
        "- 2 Theory / Lemma 1: “The lemma holds: [display]” — bound it for every n",
        "- 2 Theory: “Table 2” — check table 2",
        "- 2 Theory: “*Table 2:* Below.” — check its caption",
        "- 3 End: “It holds again.” — run it on a graph X",
    ]
    got = md.split("\n")
    want = "\n".join(expected).split("\n") + [""]     # one newline at the end
    assert got == want


def test_a_run_whose_meta_has_no_skips_says_what_has_no_result():
    """meta without "skipped": a claim's statements with no result are said to have none,
    plainly."""
    from ngc_ref_theory.paper.sentence_map import Matching
    units, _, _, claims = _small_paper()
    m = Matching(entry_of={5: entry_for(units[5], ("gsd-trace", "row-sum"))})
    md = render(units[5:6], m, [], {}, claims, {"eq:y": "1"})
    assert md.endswith("\n\n- no result in this run: `gsd-trace`, `row-sum`\n")
