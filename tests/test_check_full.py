"""The full default ``ngc-ref check`` (the README's main command) and the report a researcher
cites: every result under its own id with its own statement, every ``rerun`` string runs and
reproduces its numbers, skipped parts are visible.

The full run takes about 3 minutes on 2 cores (-j 2); with ``NGC_REF_DATA`` set it also covers
the real data sets.
"""

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ngc_ref_theory import VERDICTS, cli, registry
from ngc_ref_theory.kit.claim import Result, figure_name_ok, statement_ids
from ngc_ref_theory.output.report import graphless, structural_finding_lines


@pytest.fixture(scope="module")
def full_report(tmp_path_factory, request):
    out = tmp_path_factory.mktemp("full") / "report"
    # The README's main command on two workers (-j 2: the checks one per claim and norm, the
    # same results as one after another, tests/test_thorough.py), with its progress bar on
    # the terminal: the run takes minutes, and pytest would otherwise print nothing meanwhile.
    # Its table (stdout) stays out of the test log.
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled(), contextlib.redirect_stdout(io.StringIO()):
        print("\ntests/test_check_full.py: the full default check, about 3 min on 2 cores",
              file=sys.stderr, flush=True)
        code = cli.main(["check", "--out", str(out), "-j", "2"])
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return code, out, doc, (out / "report.md").read_text(encoding="utf-8")


#: Claims whose measurement is a time (a ratio of times measured in one run): a rerun
#: reproduces their verdict and scope, not their numbers.
TIMED = {"rngc-edge-cost"}
#: A claim whose check took at most this long (per norm, in the full run on two workers, where
#: a check takes about 1.7 times its time alone) has its reruns executed in CI: 15 of the 27
#: claims with a counterexample on an idle 2-core machine, every claim up to about 1.8 s alone
#: (each rerun also pays about 1.8 s to start). ``NGC_REF_ALL_RERUNS=1`` runs the other 12
#: too (assumption-2, depth-denoising, isolated-tau, lemma-1, noise-vanishing, rngc-*,
#: row-normalization, theorem-1; isolated-tau's rerun on the data also runs in
#: tests/test_safe_output.py).
CHEAP_SECONDS = 3.0


def _numbers(r):
    """What a rerun must reproduce: everything but the wall time."""
    if r["claim"] in TIMED:
        return {k: r[k] for k in ("id", "norm", "verdict", "scope")}
    return {k: v for k, v in r.items() if k not in ("seconds", "figures")}


@pytest.mark.slow
def test_full_default_check_completes_with_a_verdict_for_every_claim(full_report):
    code, out, doc, text = full_report
    assert code == 0
    results = doc["results"]
    assert {r["claim"] for r in results} == set(registry())
    for r in results:
        assert r["verdict"] in VERDICTS and r["verdict"] != "error", r["summary"]
        assert r["summary"] and r["evidence"]
        if r["verdict"] == "fails":
            words = shlex.split(r["counterexample"]["rerun"])
            if words[0].startswith("NGC_REF_DATA="):
                words = words[1:]
            assert words[:3] == ["ngc-ref", "check", "--only"]
        for f in r["figures"]:       # every figure is a PNG file (tests/test_figures.py reads two)
            assert (out / f).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f
    assert sum(sum(v.values()) for v in doc["counts"].values()) == len(results)
    for r in results:
        assert r["scope"] in ("as-stated", "extension", "erratum") and r["scope_reason"]
        assert r["summary"].startswith(r["scope"] + ": ")
    assert text.startswith("# ngc_ref theory check")
    # Nothing half-written or staged is left behind.
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    assert doc["meta"]["source"]["version"]


@pytest.mark.slow
def test_every_result_sits_under_its_own_id_once_in_table_order(full_report):
    _, _, doc, text = full_report
    ids = statement_ids()
    order = list(ids)
    results = doc["results"]
    # report.json: table order of statements, sym before rw.
    keys = [(order.index(r["id"]), {"sym": 0, "rw": 1}[r["norm"]]) for r in results]
    assert keys == sorted(keys)
    # report.md: each (id, norm) has exactly one result heading, under the section of its id.
    headings = re.findall(r"^(#{2,4}) (.+?)$", text, flags=re.M)
    section = None
    seen = []
    for level, title in headings:
        if level in ("##", "###"):
            section = title.split(" — ")[0]
        else:
            sid, norm = re.match(r"(\S+), norm = (\w+): ", title).groups()
            assert sid == section, f"result {sid} [{norm}] sits under {section}"
            seen.append((sid, norm))
    assert seen == [(r["id"], r["norm"]) for r in results]
    assert len(set(seen)) == len(seen)
    # Each section heading appears once.
    sections = [t.split(" — ")[0] for lvl, t in headings if lvl in ("##", "###")]
    assert len(sections) == len(set(sections))


@pytest.mark.slow
def test_corrected_results_state_the_corrected_statement(full_report):
    _, _, doc, text = full_report
    corrected = [r for r in doc["results"] if r["corrects"]]
    assert corrected
    for r in corrected:
        claim = registry()[r["claim"]]
        assert r["statement"] == claim.statements[r["id"]].text != claim.statement
        assert r["corrects"] == claim.id
        block = text.split(f"\n### {r['id']}\n", 1)[1].split("\n#### ", 1)[0]
        assert f"corrects `{claim.id}`" in block and r["statement"] in block
        assert claim.statement not in block


#: Failing results whose counterexample does not name its graph yet: their counterexamples are
#: being rebuilt with their graph (helper "evidence"); empty this set once they are.
AWAITING_GRAPH = set()   # every failing result names its graph (or why it has none)


@pytest.mark.slow
def test_the_report_reads_without_a_calculator(full_report):
    """#33 §4, #35 §5 on the default run: every counterexample names its graph, every violation
    is in its statement's units (no ratio to a tolerance), every figure is
    ``<claim>[-what]-<norm>.png``, no signed zero, and the structural finding opens the report
    with assumption-2's own floor and the results at λ = √n."""
    _, _, doc, text = full_report
    results = [Result(**r) for r in doc["results"]]
    assert {r.id for r in graphless(results)} <= AWAITING_GRAPH
    for r in results:
        assert "measured/bound" not in r.summary, r.summary
        assert not re.search(r"(?<![\d.])-0\.0+(?!\d)", r.summary), r.summary
        for f in r.figures:
            assert figure_name_ok(f, r.claim, r.norm), f
    (para,) = structural_finding_lines(results)
    a2 = next(r for r in results if r.id == "assumption-2" and r.scope == "as-stated")
    assert f"τ/n ≥ {a2.evidence['floor_tau_over_n']:.3g}" in para
    assert text.index(para) < text.index("## What fails as stated")
    assert "[`theorem-1:sum`](#s-theorem-1-sum) (sym extension: fails, rw as-stated: " in para
    for sid in ("theorem-1:mean", "assumption-2-corrected", "noise-vanishing-corrected:sqrt-n"):
        assert f"[`{sid}`]" in para, sid


@pytest.mark.slow
def test_skipped_parts_are_listed(full_report):
    _, _, doc, text = full_report
    skipped = doc["meta"]["skipped"]
    if os.environ.get("NGC_REF_DATA"):
        # With the data, only what cannot be had offline is skipped (ogbn-products).
        assert skipped and all(s["why"] == "not available offline" for s in skipped)
    else:
        assert skipped and {s["why"] for s in skipped} == {"NGC_REF_DATA is not set",
                                                           "not available offline"}
        assert "skipped: Cora" in text
        claims = {s["claim"] for s in skipped}
        assert {"denoising-accuracy", "row-normalization", "rngc-convergence"} <= claims


@pytest.mark.slow
def test_paper_md_accounts_for_the_whole_report(full_report):
    """With the paper available, paper.md is written and, every statement being anchored in the
    sentence map, its as-stated counts are report.json's; without it, report.md says why."""
    _, out, doc, text = full_report
    paper = doc["meta"]["paper"]
    if not paper["file"]:
        assert not (out / "paper.md").exists() and f"skipped: paper.md — {paper['why']}" in text
        return
    md = (out / paper["file"]).read_text(encoding="utf-8")
    c = {scope: ", ".join(f"{n[v]} {v}" for v in VERDICTS if n[v] or v != "error")
         for scope, n in doc["counts"].items()}
    assert (f"Their results as stated: **{c['as-stated']}**; extensions and corrections beside "
            f"them: {c['extension']}; errata: {c['erratum']}.") in md
    assert "[paper.md](paper.md)" in text


@pytest.mark.slow
def test_every_rerun_string_runs_and_reproduces_its_numbers(full_report, tmp_path):
    """Each string runs verbatim in a shell, in a folder of its own, as a user would paste it:
    with ``ngc-ref`` on PATH and no NGC_REF_DATA but what the string carries."""
    _, out, doc, _ = full_report
    report = {p.name: p.read_bytes() for p in out.iterdir()}
    by_id = {}
    for r in doc["results"]:
        by_id.setdefault(r["id"], []).append(r)
    # In CI the reruns of claims that took at most CHEAP_SECONDS per norm (most of them);
    # NGC_REF_ALL_RERUNS=1 runs every one (about 4 more minutes on 2 cores). A rerun of one
    # part runs its whole claim, so the cost that counts is the claim's, not the part's.
    everything = os.environ.get("NGC_REF_ALL_RERUNS") == "1"
    # (every result of one claim and norm carries that check's seconds)
    per_norm = {}
    for r in doc["results"]:
        per_norm[r["claim"], r["norm"]] = r["seconds"] or 0.0
    cheap = {c for (c, _), t in per_norm.items()} - {c for (c, _), t in per_norm.items()
                                                       if t > CHEAP_SECONDS}
    strings = {}                      # claim -> its distinct rerun strings
    for r in doc["results"]:
        if r["counterexample"] and (everything or r["claim"] in cheap):
            strings.setdefault(r["claim"], set()).add(r["counterexample"]["rerun"])
    assert strings
    # The strings of one claim differ only in the statement id and its folder (checked here),
    # and a rerun of any of them runs the whole claim: the shell runs one per claim (the
    # selection of a part by its id is tested in test_safe_output.py).
    reruns = []
    for claim_strings in strings.values():
        shapes = {re.sub(r"(--only|--out) \S+", r"\1 X", line) for line in claim_strings}
        assert len(shapes) == 1, claim_strings
        reruns.append(min(claim_strings))
    env = {k: v for k, v in os.environ.items() if k != "NGC_REF_DATA"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    cwd = tmp_path / "shell"
    cwd.mkdir()
    # Two at a time: each writes into its own --out (its own lock and staging folder), and
    # the suite waits meanwhile, so the two use the two cores of a CI machine.
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda line: subprocess.run(
            line + " --no-progress", shell=True, cwd=cwd, env=env, capture_output=True,
            text=True), reruns))
    for line, done in zip(reruns, runs):
        assert done.returncode == 0, (line, done.stderr)
        words = shlex.split(line)
        folder = cwd / words[words.index("--out") + 1]
        again = json.loads((folder / "report.json").read_text(encoding="utf-8"))["results"]
        wanted = words[words.index("--only") + 1]
        expected = [r for rid, rs in by_id.items() for r in rs
                    if rid == wanted or r["claim"] == wanted]
        assert [_numbers(r) for r in again] == [_numbers(r) for r in expected], line
    # Every rerun wrote into a folder of its own; the report they came from is as it was.
    assert {p.name: p.read_bytes() for p in out.iterdir()} == report
