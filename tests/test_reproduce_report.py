"""``reproduce.report`` on hand-made records and cells: what a cell record holds (its runs in
run order, the judged interval's parts, failures, seconds), the run-count strength rule, the
counts of the summary, which reading matches the paper, the rows not run, the marks of a table
cell, the terminal lines and the scale table. References: the judge's rules applied by hand,
numbers written out, the paper's own entries read from ``reproduce.paper``."""

import math

import pytest

from ngc_ref_theory.reproduce import tables as R
from ngc_ref_theory.reproduce.judge import WEAK_HALF_WIDTH, judge_cell, summarize
from ngc_ref_theory.paper.experiments import lookup


def record(target, dataset, level, reading, run, models, seconds=1.0, cpu=0.5, noise=0.25):
    return {"params": {"target": target, "dataset": dataset, "level": level,
                       "reading": reading, "run": run},
            "result": {"models": models, "cpu_seconds": cpu, "noise_seconds": noise,
                       "dtype": "float32"},
            "seconds": seconds}


def acc(x, **more):
    return {"test_acc": x, "config": {"x": 1}, "seconds": 0.5, **more}


def test_collect_indexes_runs_and_sums_the_cells_time():
    recs = [record("tab:flip", "cora", 0.1, "raw", r, {"ngc": acc(0.7 + r / 100)})
            for r in (1, 0)]
    recs += [None, {"error": "boom", "params": {}}]            # a failed cell is left out
    got, meta = R.collect(recs)
    assert got["tab:flip"][("cora", 0.1, "raw")]["ngc"][1]["test_acc"] == 0.71
    m = meta[("tab:flip", "cora")]
    assert (m["seconds"], m["cpu_seconds"], m["cells"], m["noise_seconds"], m["dtype"]) == (
        2.0, 1.0, 2, 0.5, "float32")


def test_a_cell_record_beside_the_papers_number():
    by_run = {2: acc(0.80), 0: acc(0.70), 1: acc(None, error="diverged")}
    c = R._cell_record("tab:flip", ("cora", 0.1, "raw"), "ngc", by_run, [60.0, None, 65.0])
    assert c["runs"] == [70.0, None, 80.0]                    # run order, in points
    assert (c["n_runs"], c["failed_runs"], c["errors"]) == (2, 1, ["diverged"])
    entry = lookup("tab:flip", "ngc", "cora", 0.1)
    j = judge_cell([70.0, 80.0], entry.mean, entry.std, 100)
    assert c["paper"] == {"mean": entry.mean, "std": entry.std, "bold": entry.bold,
                          "runs": 100, "row": "NGC"}
    assert (c["verdict"], c["gap"], c["interval"]) == (j["verdict"], j["gap"], j["interval"])
    assert c["interval_half_width"] == pytest.approx((j["interval"][1] - j["interval"][0]) / 2)
    assert c["own_half_width"] == pytest.approx((c["ci"][1] - c["ci"][0]) / 2)
    assert c["paper_half_width"] == j["paper_half_width"]
    assert c["control"] == summarize([60.0, None, 65.0])
    assert c["vs_control"]["runs"] == 2                        # runs 0 and 2: both ran
    assert c["seconds"] == 1.5 and c["config"] == {"x": 1}
    ctrl = R._cell_record("tab:flip", ("cora", 0.1, "raw"), "ngc/control", by_run, [60.0])
    assert ctrl["paper"] is None and ctrl["control"] is None and ctrl["vs_control"] is None
    assert ctrl["verdict"] is None and ctrl["own_half_width"] is None
    alone = R._cell_record("tab:flip", ("cora", 0.1, "raw"), "ngc", by_run, None)
    assert alone["control"] is None and alone["vs_control"] is None


def _cell(target="tab:heterophily", model="ngc", verdict="reproduced", n_runs=3, half=6.0,
          own=4.0, paper=2.0, reading="paper", gap=1.0, vs=None, dataset="texas"):
    return {"target": target, "model": model, "verdict": verdict, "n_runs": n_runs,
            "interval_half_width": half if verdict else None,
            "own_half_width": own if verdict else None, "paper_half_width": paper,
            "reading": reading, "gap": gap, "vs_control": vs, "dataset": dataset,
            "level": 1.0}


def test_strength_is_weak_when_our_part_exceeds_both_the_limit_and_the_papers_part():
    """weak ⇔ median(own) > max(WEAK_HALF_WIDTH, median(paper)); one run counts as an
    infinite own part; the control's run count is not listed."""
    st = R.strength([_cell(own=WEAK_HALF_WIDTH + 0.5, paper=WEAK_HALF_WIDTH, half=9.0),
                     _cell(own=WEAK_HALF_WIDTH + 1.5, paper=WEAK_HALF_WIDTH, half=11.0),
                     _cell(model="ngc/control", verdict=None, n_runs=7)])
    s = st["tab:heterophily"]
    assert s == {"runs": [3], "half_width": 10.0, "widest": 11.0,
                 "own_half_width": WEAK_HALF_WIDTH + 1.0, "paper_half_width": WEAK_HALF_WIDTH,
                 "weak": True}
    at = R.strength([_cell(own=WEAK_HALF_WIDTH, paper=1.0)])["tab:heterophily"]
    assert not at["weak"]                                       # at the limit: not above it
    paper_wider = R.strength([_cell(own=6.0, paper=7.0)])["tab:heterophily"]
    assert not paper_wider["weak"]
    one = R.strength([_cell(n_runs=1, own=None, paper=None, half=3.0)])["tab:heterophily"]
    assert one["own_half_width"] == math.inf and one["paper_half_width"] == 0.0
    assert one["weak"] and one["runs"] == [1]
    none = R.strength([_cell(verdict=None)])["tab:heterophily"]
    assert none["half_width"] is None and none["widest"] is None and not none["weak"]
    assert R.strength_text(st["tab:heterophily"]) == "3 runs: ±10 points"
    assert R.strength_text(one) == "1 run: ±3 points"
    assert R.strength_text(none) == "" and R.strength_text(None) == ""
    assert R.strength_text(dict(s, runs=[])) == "0 runs: ±10 points"
    assert R.strength_text(dict(s, runs=[3, 10])) == "3/10 runs: ±10 points"


def test_verdict_counts_and_cells_like_their_control():
    like = {"reading": "indistinguishable", "identical": False}
    cells = [_cell(vs=like), _cell(vs=like, verdict="below"), _cell(),
             _cell(verdict="inconclusive"), _cell(verdict=None),
             _cell(target="tab:flip", verdict="above", vs={"reading": "above"})]
    report = {"cells": cells}
    assert R.verdict_counts(report) == {
        "tab:heterophily": {"reproduced": 2, "below": 1, "above": 0, "inconclusive": 1,
                            "reproduced_like_control": 1},
        "tab:flip": {"reproduced": 0, "below": 0, "above": 1, "inconclusive": 0,
                     "reproduced_like_control": 0}}
    assert R.like_control(report) == cells[:2]
    assert R.like_control(report, "tab:flip") == []


def test_the_reading_that_matches_the_paper_reproduces_most_then_has_the_smallest_gap():
    cells = [_cell(target="tab:flip", reading="raw", gap=-1.0),
             _cell(target="tab:flip", reading="raw", gap=3.0, verdict="below"),
             _cell(target="tab:flip", reading="rn", gap=0.5, verdict="below"),
             _cell(target="tab:flip", reading="rn", gap=0.5, verdict="below"),
             _cell(target="tab:flip", reading="rn", verdict=None),
             _cell(target="tab:flip", reading="rn", model="ngc/control", gap=9.0)]
    [out] = R.compare_readings("tab:flip", cells)
    assert out["choice"] == "row normalisation after the noise"
    assert out["options"] == [
        {"kind": "reading", "name": "raw", "cells": 2, "reproduced": 1, "mean_abs_gap": 2.0},
        {"kind": "reading", "name": "rn", "cells": 2, "reproduced": 0, "mean_abs_gap": 0.5}]
    assert out["matches_paper"] == "raw"                     # reproduces more, gap larger
    tie = [dict(c, verdict="below") for c in cells[:4]]
    assert R.compare_readings("tab:flip", tie)[0]["matches_paper"] == "rn"   # then the gap
    assert R.compare_readings("tab:coauthor", cells) == []   # one reading, no rw models
    norms = [_cell(model="ngc-rw", gap=2.0), _cell(model="rngc", gap=1.0),
             _cell(model="mlp", gap=0.0)]
    [out] = R.compare_readings("tab:heterophily", norms)
    assert out["choice"] == "normalisation of Ã (NGC/RNGC rows)"
    assert [(o["name"], o["cells"]) for o in out["options"]] == [("rw", 1), ("sym", 1)]
    assert out["matches_paper"] == "sym"


def test_the_papers_rows_not_run_in_the_columns_that_ran():
    got = {"tab:heterophily": {("texas", 1.0, "paper"): {}},
           "tab:row normalization": {("cora", 1.0, "rn"): {}},
           "fig:noise": {("cora", 0.1, "paper"): {}}}
    rows = R._not_run_rows(got)
    assert {r["target"] for r in rows} == {"tab:heterophily"}
    assert all(r["dataset"] == "texas" and r["level"] == 1.0 for r in rows)
    names = [r["model"] for r in rows]
    assert "GAT" in names and "NGC" not in names and "MLP" not in names
    gat = next(r for r in rows if r["model"] == "GAT")
    e = lookup("tab:heterophily", "GAT", "texas", 1.0)
    assert gat["paper"] == {"mean": e.mean, "std": e.std, "bold": e.bold, "runs": 10}
    assert gat["verdict"] == "not run" and gat["reason"].startswith("not implemented")


def test_the_marks_of_a_table_cell():
    assert R._pm(71.234, 2.0) == "71.2±2.0" and R._pm(None, 1.0) == "—"
    assert R._pm(71.25, None, 2) == "71.25"
    c = {"mean": 70.0, "std": 1.5, "n_runs": 3, "failed_runs": 1}
    assert R._ours(c) == "70.0±1.5 (1 failed)"
    assert R._ours(dict(c, n_runs=1, failed_runs=0)) == "70.0"       # no std from one run
    assert R._ours(dict(c, mean=None)) == "failed" and R._ours(None) == "—"
    assert R._ours(dict(c, mean=None, failed_runs=0)) == "—"
    cell = dict(c, failed_runs=0, paper={"mean": 73.9, "std": 6.9, "bold": True},
                verdict="below", gap=-3.94, vs_control={"reading": "indistinguishable"})
    assert R._pair(cell) == "**73.9±6.9** │ 70.0±1.5 ▼3.9 ≈ctrl"
    assert R._pair(dict(cell, vs_control=None, verdict="reproduced",
                        paper=dict(cell["paper"], bold=False))) == "73.9±6.9 │ 70.0±1.5 ✓"
    assert R._pair(dict(cell, paper=None)) == "70.0±1.5 ≈ctrl"
    assert R._pair(dict(cell, paper=None, vs_control=None)) == "70.0±1.5"
    assert R._pair(None) == "—"
    assert R._weak_header({"weak": True, "runs": [3], "half_width": 25.2}) == \
        "(3 runs: ±25 points: ✓ weak)"
    assert R._weak_header({"weak": False}) == "" and R._weak_header(None) == ""


def test_control_words_on_the_terminal():
    assert R._control_words({"reading": "above"}) == ""
    assert R._control_words(None) == ""
    same = {"reading": "indistinguishable", "identical": True, "mean": 0.0, "ci": [0.0, 0.0]}
    assert R._control_words(same) == ("  indistinguishable from the control (model − control "
                                      "+0.0 in every run)")
    below = {"reading": "below", "mean": -3.0, "ci": [-4.25, -1.75]}
    assert R._control_words(below) == "  below the control (model − control -3.0 [-4.2, -1.8])"
    one = {"reading": "indistinguishable", "mean": 0.4, "ci": None}
    assert R._control_words(one) == ("  indistinguishable from the control (model − control "
                                     "+0.4, one run)")


def test_the_scale_table():
    s = {"nodes": 2449029, "edges": 61859140, "features": 100, "lam": 32.0, "S": 16,
         "steps": [{"step": "graph", "seconds": 12.34, "peak_rss_gib": 3.456}],
         "peak_rss_gib": 9.876, "seconds": 123.4, "cpus": 2}
    lines = R.scale_markdown(s)
    assert lines[0].startswith("2,449,029 nodes, 61,859,140 undirected edges")
    assert "λ = 32, S = 16" in lines[0]
    assert "| graph | 12.3 | 3.46 |" in lines
    assert lines[-1] == "Peak memory 9.88 GiB, total 123 s (2 CPUs)."
    noted = R.scale_markdown(dict(s, note="swap used", command="python -m x"))
    assert noted[-2:] == ["Peak memory 9.88 GiB, total 123 s (2 CPUs); swap used.",
                          "Command: `python -m x`."]
    assert R.scale_markdown({"error": "out of memory"}) == ["The scale run failed: out of memory"]


def test_pretty_names_and_noise_labels():
    assert R.pretty("ngc") == "NGC" and R.pretty("rngc@S=16") == "RNGC S=16"
    assert R.pretty("unknown") == "unknown" and R.pretty("ngc/control").startswith("control")
    assert R._noise_label("gaussian") == "ξ" and R._noise_label("flip") == "p"
    assert R._level(0.1) == "0.1" and R._level(1.0) == "1"
    assert R._paper_row("tab:row normalization", "ngc", "rn") == "w RN"
    assert R._paper_row("tab:row normalization", "ngc", "raw") == "w/o RN"
    assert R._paper_row("tab:flip", "mlp", "raw") == "MLP"


# ----------------------------------------------------------------- the sections of reproduce.md
# A small report written by hand (every number known), each section checked line by line
# against its documented layout (docs/reproduce.md, the functions' docstrings).

def _shown(target="tab:heterophily", dataset="texas", level=1.0, reading="paper", model="ngc",
           mean=70.0, std=1.5, n_runs=3, failed=0, paper=(73.9, 6.9, True),
           verdict="below", gap=-3.9, interval=(60.0, 72.0), vs=None):
    """A cell as the renderers read it."""
    from ngc_ref_theory.reproduce.targets import TARGETS
    return {"target": target, "dataset": dataset, "level": level, "reading": reading,
            "model": model, "noise": TARGETS[target].noise, "mean": mean, "std": std,
            "n_runs": n_runs, "failed_runs": failed,
            "paper": None if paper is None else {"mean": paper[0], "std": paper[1],
                                                 "bold": paper[2]},
            "verdict": verdict, "gap": gap, "interval": interval, "vs_control": vs}


LIKE = {"reading": "indistinguishable", "identical": False, "mean": 0.5, "ci": [-1.0, 2.0]}
SAME = {"reading": "indistinguishable", "identical": True, "mean": 0.0, "ci": [0.0, 0.0]}


def test_the_run_section_names_the_command_code_versions_and_span():
    meta = {"source": {"commit": "abc123", "dirty": True, "version": "9.9"},
            "command": "ngc-ref reproduce --runs 3", "numpy": "1.0", "scipy": "2.0",
            "python": "3.x", "cpus": 2, "seed": 7, "seconds": 61.6, "data_root": "/d",
            "cells_span": {"first_start": "T0", "last_end": "T1", "seconds": 600.0,
                           "cpu_seconds": 1200.0}}
    head = "# `ngc-ref reproduce`: the paper's experiments beside the paper's numbers"
    assert R._run_lines(meta) == [
        head, "", "Command: `ngc-ref reproduce --runs 3`  ",
        "Code: commit `abc123` (dirty); NumPy 1.0, SciPy 2.0, Python 3.x; 2 CPUs; seed 7; "
        "62 s (this invocation), data `/d`. The cells ran from T0 to T1 (10.0 min from first "
        "start to last end, pauses between resumed invocations included; 20.0 CPU-min in the "
        "cells)."]
    plain = dict(meta, source={"commit": None, "dirty": False, "version": "9.9"})
    del plain["cells_span"]
    assert R._run_lines(plain)[3] == ("Code: ngc_ref 9.9; NumPy 1.0, SciPy 2.0, Python 3.x; "
                                      "2 CPUs; seed 7; 62 s (this invocation), data `/d`.")
    clean = dict(plain, source={"commit": "abc123", "dirty": False, "version": "9.9"})
    assert R._run_lines(clean)[3].startswith("Code: commit `abc123`; NumPy")


def test_the_run_count_and_not_run_sections():
    from ngc_ref_theory.paper.experiments import NOT_RUN_MODELS
    from ngc_ref_theory.reproduce.targets import NOT_RUN
    meta = {"run_counts": [
        {"target": "tab:heterophily", "dataset": "texas", "runs": 3, "paper_runs": 10,
         "seconds": 12.4, "cpu_seconds": 30.6},
        {"target": "x", "dataset": "elsewhere", "runs": 1, "paper_runs": None}],
        "skipped_targets": ["`fig:depth`: not selected"]}
    assert R._run_count_lines(meta) == [
        "## Run counts", "",
        "Seconds are summed over the cells (wall and CPU time of the cells themselves, "
        "whenever they ran; cells of a resumed run keep the time of the run that made them).",
        "", "| target | data set | our runs | paper's runs | wall s | CPU s |",
        "|---|---|---:|---:|---:|---:|",
        "| tab:heterophily | Texas | 3 | 10 | 12 | 31 |",
        "| x | elsewhere | 1 | not stated | 0 | 0 |"]
    assert R._not_run_lines(meta) == (
        ["", "## Not run", ""] + [f"* `{k}`: {why}." for k, why in NOT_RUN.items()]
        + [f"* model rows {row}: {why}." for row, why in NOT_RUN_MODELS.items()]
        + ["* `fig:depth`: not selected"])
    assert R._not_run_lines({"skipped_targets": None})[-1].startswith("* model rows")


def test_the_legend_explains_every_mark():
    L = R._legend_lines()
    assert L[0] == "" and L[-1] == "" and len(L) == 3
    assert L[1] == (
        "Each cell: **paper │ ours** — the paper's mean ± std (bold as in the paper) and ours "
        "(mean ± std over our runs, std with ddof = 0), then the verdict: ✓ reproduced (the "
        "paper's mean inside our 95 % t-interval widened by the paper's own 95 % half-width "
        "t·std/√runs), ▼ below / ▲ above by the gap in points, ? inconclusive (one run and no "
        "paper std). Every model of a run is trained on the same noisy features (the paper's "
        "protocol); the last row of each table is the structure-only control: NGC on "
        "signal-free features of the same shape and scale. **≈ctrl** flags a model "
        "indistinguishable from that control (the 95 % t-interval of its per-run paired "
        "difference to the control contains 0; **=ctrl**: the two score the same in every "
        "run): it scores what the graph alone gives, so a ✓ there reproduces the paper's "
        "number without showing any use of the features; **<ctrl** a model significantly "
        "below it. A table whose header says `(3 runs: ±25 points: ✓ weak)` judges its cells "
        "by 95 % intervals that wide (median half-width over its cells), mostly because of "
        "our few runs (our own part of the interval, t·s/√runs, is wider than ±5 points and "
        "than the paper's part): a ✓ there only says the paper's mean is within that many "
        "points of ours.")


def _summary_report():
    """Four targets: a figure (no paper numbers), a weak table with cells like the control,
    a table that is not weak, and a two-reading table."""
    cells = [_shown("fig:noise", "cora", 0.5, model="rngc", paper=None, verdict=None,
                    gap=None, interval=None),
             _shown("tab:flip", "cora", 0.1, "rn", verdict="inconclusive", vs=LIKE),
             _shown(verdict="reproduced", gap=1.0, vs=LIKE),
             _shown(model="mlp", n_runs=2),
             _shown(dataset="cornell", level=0.01, model="rngc", verdict="reproduced", vs=SAME),
             _shown(model="ngc/control", paper=None, verdict=None),
             _shown("tab:coauthor", "coauthor-cs", 0.0, verdict="reproduced", n_runs=10)]
    claims = [{"target": "tab:heterophily", "verdict": v, "reading": "paper", "quote": q,
               "summary": s, "rule": r}
              for v, q, s, r in (("holds", "Q1", "S1", "R1"), ("fails", "Q2", "S2", "R2"),
                                 ("holds", "Q3", "S3", "R3"))]
    claims.append({"target": "tab:flip", "verdict": "inconclusive", "reading": "rn",
                   "quote": "Q4", "summary": "S4", "rule": "R4"})
    strength = {"fig:noise": {"runs": [3], "half_width": None, "widest": None, "weak": False},
                "tab:heterophily": {"runs": [2, 3], "half_width": 25.2, "widest": 30.4,
                                    "weak": True},
                "tab:coauthor": {"runs": [10], "half_width": 2.4, "widest": 3.0,
                                 "weak": False},
                "tab:flip": {"runs": [1], "half_width": 4.0, "widest": 4.0, "weak": True}}
    return {"cells": cells, "claims": claims, "strength": strength, "readings": [],
            "not_run_rows": []}


def test_the_summary_counts_verdicts_weak_targets_and_cells_like_the_control():
    L = R._summary_lines(_summary_report())
    assert L == [
        "", "## Summary", "",
        "Cells with a paper number, by verdict (of the reproduced: how many are "
        "indistinguishable from the structure-only control, ≈ctrl), the width of the "
        "intervals behind them (runs: median 95 % half-width; weak where our runs' own part "
        "exceeds ±5 points and the paper's part), and the paper's claims (holds / fails / "
        "inconclusive; the figures have claims only).", "",
        "| target | reproduced | of which ≈ctrl | below | above | inconclusive | interval | "
        "claims: holds | fails | inconclusive |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|",
        "| fig:noise | — | — | — | — | — | — | 0 | 0 | 0 |",
        "| tab:heterophily | 2 | 2 | 1 | 0 | 0 | 2/3 runs: ±25 points (weak) | 2 | 1 | 0 |",
        "| tab:coauthor | 1 | 0 | 0 | 0 | 0 | 10 runs: ±2 points | 0 | 0 | 0 |",
        "| tab:flip | 0 | 0 | 0 | 0 | 1 | 1 run: ±4 points (weak) | 0 | 0 | 1 |",
        "", "**Weak at this run count:** `tab:heterophily` (2/3 runs: ±25 points); "
        "`tab:flip` (1 run: ±4 points): a ✓ there only says the paper's mean lies within "
        "that many points of ours; more runs (`--runs`) narrow it.",
        "", "**Indistinguishable from the structure-only control (3 cells, 2 of them ✓; "
        "=ctrl: the same accuracy in every run):** tab:heterophily Texas 1 NGC ✓; "
        "tab:heterophily Cornell 0.01 RNGC ✓ (=ctrl); tab:flip Cora 0.1 `rn` NGC. These "
        "models score what NGC on signal-free features scores: the graph alone, not the "
        "features, explains their accuracy."]
    calm = _summary_report()
    calm["strength"] = {k: dict(v, weak=False) for k, v in calm["strength"].items()}
    calm["cells"] = [dict(c, vs_control=None) for c in calm["cells"]]
    assert R._summary_lines(calm)[-1] == (
        "| tab:flip | 0 | 0 | 0 | 0 | 1 | 1 run: ±4 points | 0 | 0 | 1 |")
    del calm["strength"]
    assert R._summary_lines(calm)[-2] == "| tab:coauthor | 1 | 0 | 0 | 0 | 0 | — | 0 | 0 | 0 |"


def test_the_like_control_paragraph_names_the_first_twelve():
    many = {"cells": [_shown(level=float(k), verdict="below", vs=LIKE) for k in range(13)]}
    many["cells"][0]["dataset"] = "elsewhere"             # a data set without a pretty name
    [blank, text] = R._like_control_lines(many)
    assert blank == "" and text.startswith(
        "**Indistinguishable from the structure-only control (13 cells, 0 of them ✓;")
    named = text.split(":** ")[1].split("; and ")[0].split("; ")
    assert named == ["tab:heterophily elsewhere 0 NGC"] + [
        f"tab:heterophily Texas {k} NGC" for k in range(1, 12)]
    assert "; and 1 more (marked in the tables). These models" in text
    twelve = {"cells": many["cells"][:12]}
    assert "more" not in R._like_control_lines(twelve)[1]
    assert R._like_control_lines({"cells": [_shown()]}) == []


def test_a_target_section_intro_choices_figures_and_claims():
    from ngc_ref_theory.reproduce.targets import TARGETS
    report = _summary_report()
    report["readings"] = [
        {"target": "tab:heterophily", "choice": "normalisation of Ã (NGC/RNGC rows)",
         "options": [{"name": "rw", "reproduced": 1, "cells": 2, "mean_abs_gap": 1.26},
                     {"name": "none", "reproduced": 0, "cells": 1, "mean_abs_gap": None},
                     {"name": "sym", "reproduced": 2, "cells": 3, "mean_abs_gap": 0.5}],
         "matches_paper": "sym"},
        {"target": "tab:flip", "choice": "other", "options": [], "matches_paper": "raw"}]
    t = TARGETS["tab:heterophily"]
    intro = ("Our runs per cell: 2, 3 (paper: 10). Noise: gaussian. The 95 % intervals behind "
             "the verdicts are ±25 points (median half-width; up to ±30): at this run count "
             "\"reproduced\" is weak. 2 cell(s) indistinguishable from the control (≈ctrl, "
             "=ctrl). " + " ".join(t.notes))
    assert R._target_intro("tab:heterophily", report) == intro
    L = R.target_section("tab:heterophily", report, figures=("a.png", "b.png"))
    table = R.table_markdown("tab:heterophily", report)
    assert L[:5] == ["", f"## `tab:heterophily` — {t.title}", "", intro, ""]
    assert L[5:5 + len(table)] == table
    assert L[5 + len(table):] == [
        "", "![tab:heterophily](a.png)", "", "![tab:heterophily](b.png)",
        "", "**Unstated choice — normalisation of Ã (NGC/RNGC rows):** `rw` reproduces 1 of "
        "2 cells, mean |gap| 1.3 points; `sym` reproduces 2 of 3 cells, mean |gap| 0.5 "
        "points. Closer to the paper: `sym`.",
        "", "**The paper's claims:**", "",
        "* **holds** — “Q1” — S1. _Rule: R1._", "* **fails** — “Q2” — S2. _Rule: R2._",
        "* **holds** — “Q3” — S3. _Rule: R3._"]
    flip = R.target_section("tab:flip", report)
    assert flip[-1] == "* **inconclusive** (reading `rn`) — “Q4” — S4. _Rule: R4._"
    assert "**Unstated choice — other:** . Closer to the paper: `raw`." in flip
    assert R.target_section("tab:row normalization", report) == []
    tc, tn = TARGETS["tab:coauthor"], TARGETS["fig:noise"]
    assert R._target_intro("tab:coauthor", report) == (
        "Our runs per cell: 10 (paper: 10). Noise: gaussian. The 95 % intervals behind the "
        "verdicts are ±2 points (median half-width; up to ±3): " + " ".join(tc.notes))
    assert R._target_intro("fig:noise", report) == (
        "Our runs per cell: 3 (paper: 100). Noise: gaussian. The paper's figure prints no "
        "numbers (its \\includegraphics are empty in the LaTeX): ours only, and its "
        "sentences judged below. " + " ".join(tn.notes))
    rn = {"cells": [_shown("tab:row normalization", "cora", 1.0, "rn")]}
    assert R._target_intro("tab:row normalization", rn).startswith(
        "Our runs per cell: 3 (paper: not stated). Noise: gaussian. "
        + TARGETS["tab:row normalization"].notes[0])


def test_the_row_normalisation_table():
    key = "tab:row normalization"
    cells = [_shown(key, "citeseer", 10.0, "raw", paper=(60.0, 2.0, False), gap=-4.0),
             _shown(key, "cora", 1.0, "raw", paper=(70.0, 1.0, True), verdict="reproduced"),
             _shown(key, "cora", 1.0, "rn", mean=75.0, paper=(76.0, 1.0, False),
                    verdict="above", gap=2.0, vs=LIKE),
             _shown(key, "cora", 1.0, "raw", model="ngc/control", mean=50.0, std=1.0,
                    paper=None, verdict=None),
             _shown(key, "citeseer", 10.0, "rn", model="ngc/control", mean=40.0, n_runs=1,
                    failed=1, paper=None, verdict=None)]
    report = {"cells": cells, "strength": {key: {"runs": [3], "half_width": 15.0,
                                                 "weak": True}}}
    assert R.table_markdown(key, report) == [
        "| (3 runs: ±15 points: ✓ weak) | Cora 1 | Citeseer 10 |", "|---|---|---|",
        "| w/o RN | **70.0±1.0** │ 70.0±1.5 ✓ | 60.0±2.0 │ 70.0±1.5 ▼4.0 |",
        "| w RN | 76.0±1.0 │ 75.0±1.5 ▲2.0 ≈ctrl | — |",
        "| control w/o RN | 50.0±1.0 | — |",
        "| control w RN | — | 40.0 (1 failed) |"]
    report["strength"][key]["weak"] = False
    assert R.table_markdown(key, report)[0] == "|  | Cora 1 | Citeseer 10 |"


def test_a_table_per_reading_in_the_papers_row_order_with_the_rows_not_run():
    """tab:flip (two readings): one table per reading, the paper's rows in its order (ours
    where we ran the model, the paper's number │ not run where not), the control last; the
    columns in the target's data-set order, then level."""
    key = "tab:flip"
    cells = [_shown(key, "cora", 0.2, "raw", paper=(75.3, None, True), gap=-5.3),
             _shown(key, "citeseer", 0.1, "raw", model="mlp", paper=(19.3, None, False),
                    verdict="reproduced"),
             _shown(key, "cora", 0.2, "raw", model="ngc/control", mean=50.0, std=1.0,
                    paper=None, verdict=None),
             _shown(key, "citeseer", 0.1, "rn", mean=57.0, std=1.0,
                    paper=(54.9, None, True), verdict="above", gap=2.0)]
    report = {"cells": cells, "strength": {key: {"runs": [1], "half_width": 4.0,
                                                 "weak": True}}}
    head = ["| model (1 run: ±4 points: ✓ weak) | Cora 0.2 | Citeseer 0.1 |", "|---|---|---|"]
    not_run = ["| GCN | 19.0 │ not run | 18.6 │ not run |",
               "| GAT | 65.6 │ not run | 45.3 │ not run |",
               "| GLP | 30.8 │ not run | 19.7 │ not run |",
               "| S2GC | 71.5 │ not run | 49.9 │ not run |",
               "| IRLS | 61.0 │ not run | 50.3 │ not run |"]
    rngc = "| RNGC | **75.2** │ not run | **55.0** │ not run |"
    control = "| control: NGC on signal-free features"
    assert R.table_markdown(key, report) == [
        "\n**Reading `raw`**: flipped 0/1 features, not row-normalised "
        "(PAPER_ROW_NORMALIZE['flip'])\n", *head,
        "| MLP | — | 19.3 │ 70.0±1.5 ✓ |", *not_run,
        "| NGC | **75.3** │ 70.0±1.5 ▼5.3 | — |", rngc, control + " | 50.0±1.0 | — |",
        "\n**Reading `rn`**: row-normalised after flipping (the Gaussian experiments' "
        "default)\n", *head,
        "| MLP | — | — |", *not_run, "| NGC | — | **54.9** │ 57.0±1.0 ▲2.0 |", rngc,
        control + " | — | — |"]
    one = R.table_markdown("tab:heterophily", {"cells": [_shown()]})
    assert one[:2] == ["| model | Texas 1 |", "|---|---|"]
    assert R.table_markdown("fig:noise", {"cells": [_shown("fig:noise", "cora", 0.5,
                                                           model="rngc", paper=None)]}) == [
        "| model | Cora 0.5 |", "|---|---|", "| RNGC | 70.0±1.5 |", control + " | — |"]
    assert R.table_markdown("tab:coauthor", report) == []
    off = {"cells": [_shown(key, "cora", 0.3, "raw", paper=None, verdict=None)]}
    assert R.table_markdown(key, off)[3] == "| MLP | — |"      # the paper has no p = 0.3
    assert R.table_markdown("tab:heterophily", {"cells": [_shown()]})[4] == (
        "| GAT | 54.7±8.2 │ not run |")                         # the paper's std shown
    assert R._paper(None) == "—"


def test_the_terminal_lines():
    """One line per cell: where, the paper's number, ours (runs, failures), the interval,
    the verdict with its gap (and ``weak`` for a reproduced cell of a weak target), the
    control flag; then the paper's rows not run, with the reason."""
    def where(target, dataset, sym, level, reading, model):
        return (f"{target.ljust(22)} {dataset.ljust(16)} {sym}={level.ljust(5)} "
                f"{reading.ljust(5)} {model.ljust(12)}")
    cells = [_shown(verdict="reproduced", gap=1.04, failed=1, interval=(60.04, 72.06),
                    vs=LIKE),
             _shown("fig:noise", "cora", 0.5, model="rngc", std=None, n_runs=1, paper=None,
                    verdict=None),
             _shown("tab:flip", "cora", 0.2, "rn", mean=None, std=None, failed=3,
                    paper=(60.0, 2.0, False), verdict=None, gap=None, interval=None),
             _shown("tab:coauthor", "coauthor-cs", 0.0, verdict="reproduced", gap=-0.5)]
    rows = [{"target": "tab:flip", "dataset": "cora", "level": 0.1, "model": "GAT",
             "paper": {"mean": 70.1, "std": 1.25}, "reason": "not implemented"}]
    report = {"cells": cells, "not_run_rows": rows,
              "strength": {"tab:heterophily": {"runs": [3], "half_width": 25.2, "weak": True},
                           "tab:coauthor": {"runs": [3], "half_width": 2.0, "weak": False}}}
    assert R.terminal_lines(report) == [
        where("tab:heterophily", "texas", "ξ", "1", "paper", "ngc")
        + " paper 73.9±6.9  ours 70.0±1.5 (3 runs, 1 failed) [60.0, 72.1]  reproduced "
        "(+1.0; weak: 3 runs: ±25 points)  indistinguishable from the control (model − "
        "control +0.5 [-1.0, +2.0])",
        where("fig:noise", "cora", "ξ", "0.5", "paper", "rngc") + " ours 70.0 (1 runs)",
        where("tab:flip", "cora", "p", "0.2", "rn", "ngc")
        + " paper 60.0±2.0  ours — (3 runs, 3 failed)",
        where("tab:coauthor", "coauthor-cs", "ξ", "0", "paper", "ngc")
        + " paper 73.9±6.9  ours 70.0±1.5 (3 runs) [60.0, 72.0]  reproduced (-0.5)",
        where("tab:flip", "cora", "p", "0.1", "", "GAT") + " paper 70.1±1.2  not run: "
        "not implemented"]
    del report["strength"]
    assert "  reproduced (+1.0)  indistinguishable" in R.terminal_lines(report)[0]


def test_the_whole_markdown_puts_the_sections_in_the_documented_order():
    """run, legend, run counts, not run, summary, one section per target (with its
    figures), the scale run (when there is one), the models; newline-terminated."""
    from ngc_ref_theory.reproduce.targets import MODEL_HELP, TARGETS
    report = _summary_report()
    meta = {"source": {"commit": None, "dirty": False, "version": "9.9"}, "command": "c",
            "numpy": "1", "scipy": "2", "python": "3", "cpus": 2, "seed": 0, "seconds": 1.0,
            "data_root": "/d", "run_counts": [],
            "scale": {"error": "out of memory"}}
    figures = {"tab:heterophily": ["h.png"]}
    sections = [line for key in TARGETS
                for line in R.target_section(key, report, figures.get(key, []))]
    models = ["", "## Models", ""] + [f"* `{k}` — {v}" for k, v in MODEL_HELP.items()]
    head = (R._run_lines(meta) + R._legend_lines() + R._run_count_lines(meta)
            + R._not_run_lines(meta) + R._summary_lines(report))
    scale = ["", "## Scale: NGC/RNGC on a synthetic graph of ogbn-products' size", "",
             "The scale run failed: out of memory"]
    assert "![tab:heterophily](h.png)" in sections
    assert R.markdown(report, meta, figures) == "\n".join(head + sections + scale
                                                          + models) + "\n"
    del meta["scale"]
    bare = [line for key in TARGETS for line in R.target_section(key, report)]
    assert R.markdown(report, meta, {}) == "\n".join(head + bare + models) + "\n"


def test_the_small_rules_of_cells_rows_and_readings(monkeypatch):
    """The row-normalisation table's cells read the paper's row of their reading; a figure's
    cell has no paper number; seconds missing count 0 and the sum keeps two decimals; a failed
    cell before the others is skipped, not the end; our models without a paper row follow the
    paper's rows; a row with no stated reason is "not run here"."""
    by_run = {0: acc(0.7), 1: {"test_acc": 0.8}, 2: acc(0.75, seconds=0.001)}
    for reading, row in (("rn", "w RN"), ("raw", "w/o RN")):
        c = R._cell_record("tab:row normalization", ("cora", 1.0, reading), "ngc", by_run, None)
        assert c["paper"]["row"] == row and c["paper_label"] == "tab:row normalization"
        assert c["paper"]["mean"] == lookup("tab:row normalization", row, "cora", 1.0).mean
    assert c["seconds"] == 0.5                                  # round(0.5 + 0 + 0.001, 2)
    fig = R._cell_record("fig:noise", ("cora", 0.5, "paper"), "ngc", by_run, None)
    assert fig["paper"] is None and fig["verdict"] is None and fig["paper_label"] is None
    recs = [None, record("tab:flip", "cora", 0.1, "raw", 0, {"ngc": acc(0.7)})]
    recs.append({"params": recs[1]["params"], "result": {"models": {}}})   # no times given
    _, meta = R.collect(recs)
    m = meta[("tab:flip", "cora")]
    assert (m["seconds"], m["cpu_seconds"], m["noise_seconds"], m["cells"]) == (
        1.0, 0.5, 0.25, 2)
    flip_rows = ["MLP", "GCN", "GAT", "GLP", "S2GC", "IRLS", "NGC", "RNGC"]
    assert R._table_rows("tab:flip", ["xyz", "ngc", "ngc-rw"]) == (
        [(r, None) for r in flip_rows[:6]] + [("NGC", "ngc"), ("NGC", "ngc-rw"),
                                              ("RNGC", None), (None, "xyz"),
                                              (None, "ngc/control")])
    monkeypatch.setattr(R, "NOT_RUN_MODELS", {})
    rows = R._not_run_rows({"tab:heterophily": {("texas", 1.0, "paper"): {}}})
    assert rows and {r["reason"] for r in rows} == {"not run here"}
    assert {r["paper_label"] for r in rows} == {"tab:heterophily"}


def test_the_small_marks_and_choices():
    assert R.pretty("xyz@S=4") == "xyz S=4"
    c = {"mean": 70.0, "std": 1.5, "n_runs": 2, "failed_runs": 0,
         "paper": {"mean": 73.9, "std": None, "bold": False}, "verdict": "below", "gap": None}
    assert R._ours(c) == "70.0±1.5"                              # two runs: a std
    assert R._pair(c) == "73.9 │ 70.0±1.5 ▼0.0"
    near = {"reading": "indistinguishable", "mean": 0.0, "ci": [-1.0, 0.0]}
    assert R._control_words(near).endswith("(model − control +0.0 [-1.0, +0.0])")
    rn = [_cell(target="tab:row normalization", reading=r) for r in ("rn", "raw")]
    assert R.compare_readings("tab:row normalization", rn) == []   # its table is the choice
    [out] = R.compare_readings("tab:heterophily", [_cell(model="ngc-rw", gap=None)])
    assert out["options"] == [{"kind": "norm", "name": "rw", "cells": 1, "reproduced": 1,
                               "mean_abs_gap": None}]
    assert R.shown_reading({"target": "tab:flip", "reading": "rn"}) == "rn"
    assert R.shown_reading({"target": "tab:coauthor", "reading": "paper"}) is None


def test_the_scale_table_line_by_line():
    s = {"nodes": 1000, "edges": 2000, "features": 100, "lam": 32.0, "S": 16,
         "steps": [{"step": "graph", "seconds": 12.34, "peak_rss_gib": 3.456}],
         "peak_rss_gib": 9.876, "seconds": 123.4, "cpus": 2}
    assert R.scale_markdown(s)[1:] == [
        "", "| step | seconds | peak RSS of the process so far (GiB) |", "|---|---:|---:|",
        "| graph | 12.3 | 3.46 |", "", "Peak memory 9.88 GiB, total 123 s (2 CPUs)."]


def test_build_orders_columns_as_the_target_does_and_keeps_targets_apart(monkeypatch):
    """Columns in the target's data-set, level and reading order (not the records' order, not
    sorted by name); a column without a control has no control comparison; the readings of
    one target are compared on that target's cells only; timing keyed "target | data set";
    the claims learn a data set's class count from the data (chance = 100/C)."""
    recs = [record("tab:row normalization", "cora", lv, reading, r,
                   {"ngc": acc(0.70 + r / 100), "ngc/control": acc(0.5 + r / 100)})
            for reading in ("raw", "rn") for lv in (10.0, 1.0) for r in (0, 1)]
    recs += [record("tab:flip", "cora", 0.1, reading, r, {"ngc": acc(0.7 + r / 100)})
             for reading in ("rn", "raw") for r in (0, 1)]
    rep = R.build(recs)
    assert [(c["target"], c["level"], c["reading"], c["model"]) for c in rep["cells"]] == [
        ("tab:flip", 0.1, "raw", "ngc"), ("tab:flip", 0.1, "rn", "ngc")] + [
        ("tab:row normalization", lv, reading, m) for lv in (1.0, 10.0)
        for reading in ("rn", "raw") for m in ("ngc", "ngc/control")]
    flip = rep["cells"][0]
    assert flip["control"] is None and flip["vs_control"] is None
    [choice] = rep["readings"]
    assert choice["target"] == "tab:flip" and sum(o["cells"] for o in choice["options"]) == 2
    assert set(rep["timing"]) == {"tab:row normalization | cora", "tab:flip | cora"}
    monkeypatch.setattr(R, "load_cached", lambda name, split: type("D", (), {"num_classes": 4}))
    noise = R.build([record("fig:noise", "cora", 1.0, "paper", r, {"mlp": acc(0.3)})
                     for r in (0, 1)])
    chance = next(c for c in noise["claims"] if c["claim"] == "mlp-random-guess")
    assert [row["chance"] for row in chance["evidence"]] == [25.0]


def test_the_class_count_of_a_data_set_and_its_fallback(monkeypatch):
    """``_n_classes``: the cached data set's class count as an int (split 0); 2 when the data
    cannot be read."""
    asked = []

    class Data:
        num_classes = 7.0

    def fake(name, split):
        asked.append((name, split))
        if name == "gone":
            raise OSError(name)
        return Data
    monkeypatch.setattr(R, "load_cached", fake)
    n = R._n_classes("texas")
    assert n == 7 and type(n) is int and asked == [("texas", 0)]
    assert R._n_classes("gone") == 2


def test_build_judges_the_sentences_as_the_run_of_its_context_ran_them(monkeypatch):
    """The rerun of a failing sentence repeats the run build was given (its seed and run
    count), not a default run's."""
    from ngc_ref_theory.reproduce.targets import RunContext
    monkeypatch.setattr(R, "load_cached", lambda name, split: type("D", (), {"num_classes": 4}))
    recs = [record("fig:noise", "cora", 1.0, "paper", r, {"mlp": acc(0.90 + r / 100)})
            for r in (0, 1, 2)]

    def mlp_rerun(rep):
        [rec] = [c for c in rep["claims"] if c["claim"] == "mlp-random-guess"]
        assert rec["verdict"] == "fails"          # 91 % is no random guess among 4 classes
        return rec["rerun"]
    assert " --runs 3 --seed 5 " in mlp_rerun(R.build(recs, RunContext(seed=5, runs=3)))
    assert " --seed 0 " in mlp_rerun(R.build(recs))
