"""``reproduce.report`` on hand-made records and cells: what a cell record holds (its runs in
run order, the judged interval's parts, failures, seconds), the run-count strength rule, the
counts of the summary, which reading matches the paper, the rows not run, the marks of a table
cell, the terminal lines and the scale table. References: the judge's rules applied by hand,
numbers written out, the paper's own entries read from ``reproduce.paper``."""

import math

import pytest

from ngc_ref_theory.reproduce import report as R
from ngc_ref_theory.reproduce.judge import WEAK_HALF_WIDTH, judge_cell, summarize
from ngc_ref_theory.reproduce.paper import lookup


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
