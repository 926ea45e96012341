"""``ngc-ref reproduce``: verdicts, the plan, the command's errors, a --runs 1 smoke run on the
real data, resuming after an interruption, and the cell against ``run_experiment``."""

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from ngc_ref_theory.cli import main
from ngc_ref_theory.reproduce import cells as cells_mod
from ngc_ref_theory.reproduce import run as run_mod
from ngc_ref_theory.reproduce.judge import (WEAK_HALF_WIDTH, compare, control_mark, judge_cell,
                                            mark, top_two, versus_control)
from ngc_ref_theory.reproduce.tables import build, markdown, terminal_lines
from ngc_ref_theory.reproduce.run import STORE
from ngc_ref_theory.reproduce.cells import plan
from ngc_ref_theory.reproduce.targets import (TARGETS, RunContext, parse_only, parse_sentences,
                                              resolve)
from ngc_ref_theory.reproduce.verdicts import rngc_over_ngc
from ngc_ref_theory.sweep import as_cells, cell_seconds, get_task, make_cell, read_records

DATA = os.environ.get("NGC_REF_DATA")
needs_data = pytest.mark.skipif(not DATA, reason="NGC_REF_DATA is not set")


# ------------------------------------------------------------------------------ verdicts

def test_a_planted_paper_value_far_from_ours_is_below_or_above():
    ours = [80.0, 81.0, 79.5, 80.5, 80.2]
    below = judge_cell(ours, 95.0, 0.5, 10)
    assert below["verdict"] == "below" and below["gap"] < -14
    assert mark(below["verdict"], below["gap"]).startswith("▼14.")
    above = judge_cell(ours, 60.0, 0.5, 10)
    assert above["verdict"] == "above" and above["gap"] > 19
    inside = judge_cell(ours, 80.6, 0.5, 10)
    assert inside["verdict"] == "reproduced"
    lo, hi = inside["interval"]
    assert lo < 80.6 < hi


def test_the_interval_is_widened_by_the_papers_own_standard_error():
    ours = [80.0, 80.0, 80.0, 80.0]          # no spread of our own: a zero-width t-interval
    assert judge_cell(ours, 81.0)["verdict"] == "above" or \
        judge_cell(ours, 81.0)["verdict"] == "below"
    # the paper's 10 runs with std 2: its 95 % half-width 2.26·2/√10 = 1.43 covers 1 point
    assert judge_cell(ours, 81.0, 2.0, 10)["verdict"] == "reproduced"
    assert judge_cell(ours, 82.0, 2.0, 10)["verdict"] == "below"


def test_one_run_uses_the_papers_spread_or_is_inconclusive():
    assert judge_cell([70.0], 75.0, 8.0, 10)["verdict"] == "reproduced"
    assert judge_cell([50.0], 75.0, 1.0, 10)["verdict"] == "below"
    assert judge_cell([70.0], 75.0)["verdict"] == "inconclusive"
    assert judge_cell([70.0], None)["verdict"] is None


def test_failed_runs_are_left_out():
    r = judge_cell([None, 80.0, 81.0], 80.5)
    assert r["verdict"] == "reproduced"
    assert judge_cell([None, None], 80.0)["verdict"] is None


def test_paired_comparisons_and_claims():
    rng = np.random.default_rng(0)
    base = rng.normal(70, 3, size=10)
    assert compare(base + 2.0 - base, 1)["reading"] == "holds"
    assert compare(base - 2.0 - base, 1)["reading"] == "fails"
    acc = {("cora", 0.1, "paper"): {"ngc": list(base), "rngc": list(base + 0.5)},
           ("cora", 0.2, "paper"): {"ngc": list(base), "rngc": list(base + 0.4)}}
    assert rngc_over_ngc(acc, list(acc), "fig:noise").verdict == "holds"
    acc2 = {c: {"ngc": v["rngc"], "rngc": v["ngc"]} for c, v in acc.items()}
    assert rngc_over_ngc(acc2, list(acc2), "fig:noise").verdict == "fails"


# ------------------------------------------------------------------ against the control

def test_versus_control_reads_the_paired_interval():
    ctrl = [59.5, 62.2, 56.8, 60.1, 61.0]
    same = versus_control(ctrl, ctrl)
    assert same["reading"] == "indistinguishable" and same["identical"]
    assert same["ci"] == [0.0, 0.0] and control_mark(same) == "=ctrl"
    up = versus_control([c + 10 + 0.5 * k for k, c in enumerate(ctrl)], ctrl)
    assert up["reading"] == "above" and control_mark(up) == "" and up["ci"][0] > 0
    down = versus_control([c - 10 - 0.5 * k for k, c in enumerate(ctrl)], ctrl)
    assert down["reading"] == "below" and control_mark(down) == "<ctrl"
    # +3 points on average, but runs that scatter by ±10: the interval holds 0.
    wide = versus_control([c + d for c, d in zip(ctrl, (13, -7, 12, -8, 5))], ctrl)
    assert wide["reading"] == "indistinguishable" and not wide["identical"]
    assert wide["ci"][0] < 0 < wide["ci"][1] and control_mark(wide) == "≈ctrl"
    assert versus_control([70.0], [50.0])["reading"] == "one run"
    assert versus_control([None, 61.0, 57.0], [60.0, 61.0, 57.0])["runs"] == 2   # paired only
    assert versus_control([None], [60.0]) is None


def _records(runs, *, ctrl_sd=2.0, noisy_like_control=True):
    """Synthetic reproduce records of tab:heterophily on Texas (no data, no training): the
    control scatters around 60 %; at ξ = 1 NGC, RNGC and both rw variants score exactly what
    the control scores (as on the real Texas), every other model is 15 points above it."""
    rng = np.random.default_rng(1)
    t = TARGETS["tab:heterophily"]
    models = (*t.models, "ngc/control")
    recs = []
    for lv in (0.01, 1.0):
        for r in range(runs):
            ctrl = 0.60 + ctrl_sd / 100 * rng.standard_normal()
            res = {}
            for m in models:
                same = m == "ngc/control" or (noisy_like_control and lv == 1.0 and m in (
                    "ngc", "rngc", "ngc-rw", "rngc-rw"))
                acc = ctrl if same else ctrl + 0.15 + 0.002 * rng.standard_normal()
                res[m] = {"test_acc": acc, "val_acc": acc, "config": {}, "seconds": 0.1}
            recs.append({"params": {"target": "tab:heterophily", "dataset": "texas",
                                    "level": lv, "reading": "paper", "run": r,
                                    "models": ",".join(models)},
                         "result": {"models": res, "cpu_seconds": 0.1}, "seconds": 0.1})
    return recs


_META = {"command": "ngc-ref reproduce", "source": {"commit": None, "dirty": False,
                                                    "version": "0"},
         "numpy": "x", "scipy": "x", "python": "x", "cpus": 2, "seed": 0, "seconds": 1.0,
         "data_root": "-", "run_counts": []}


def _table_row(md, name):
    return next(line for line in md.splitlines() if line.startswith(f"| {name} |"))


def test_cells_that_score_what_the_control_scores_are_flagged_never_plainly_reproduced():
    rep = build(_records(10, ctrl_sd=0.5))
    cells = {(c["level"], c["model"]): c for c in rep["cells"]}
    for m in ("ngc", "rngc", "ngc-rw", "rngc-rw"):
        c = cells[(1.0, m)]
        assert c["vs_control"]["reading"] == "indistinguishable" and c["vs_control"]["identical"]
        assert c["verdict"] == "reproduced", c         # the paper's 56.4 is near our 60
        assert cells[(0.01, m)]["vs_control"]["reading"] == "above"
    assert cells[(1.0, "mlp")]["vs_control"]["reading"] == "above"
    assert cells[(1.0, "ngc/control")]["vs_control"] is None
    md = markdown(rep, _META, {})
    for name in ("NGC", "RNGC", "NGC (rw)", "RNGC (rw)"):
        texas1 = _table_row(md, name).split(" | ")[2]
        assert texas1.endswith("✓ =ctrl |"), texas1
    # A model clear of its control keeps its plain mark.
    assert "ctrl" not in _table_row(md, "NGC").split(" | ")[1]
    assert "ctrl" not in _table_row(md, "MLP")
    # The summary counts them and names them.
    row = next(line for line in md.splitlines() if line.startswith("| tab:heterophily |"))
    reproduced = sum(c["verdict"] == "reproduced" for c in rep["cells"])
    assert row.split(" | ")[1:3] == [str(reproduced), "4"], row     # 4 of them are =ctrl
    assert "**Indistinguishable from the structure-only control (4 cells, 4 of them ✓" in md
    assert "Texas 1 RNGC (rw) ✓ (=ctrl)" in md
    flagged = [line for line in terminal_lines(rep) if "indistinguishable from the control" in
               line]
    assert len(flagged) == 4 and all("+0.0 in every run" in line for line in flagged)


def test_the_header_and_summary_say_when_the_run_count_makes_reproduced_weak():
    few = build(_records(3, noisy_like_control=False, ctrl_sd=8.0))
    st = few["strength"]["tab:heterophily"]
    judged = [c for c in few["cells"] if c["interval"] is not None]
    assert st["runs"] == [3] and st["weak"] and st["half_width"] > WEAK_HALF_WIDTH
    assert st["own_half_width"] > max(WEAK_HALF_WIDTH, st["paper_half_width"]) > 0
    assert st["half_width"] == pytest.approx(float(np.median(
        [(c["interval"][1] - c["interval"][0]) / 2 for c in judged])))
    words = f"3 runs: ±{st['half_width']:.0f} points"
    md = markdown(few, _META, {})
    assert f"| model ({words}: ✓ weak) | Texas 0.01 | Texas 1 |" in md
    assert f"| {words} (weak) |" in md and f"**Weak at this run count:** `tab:heterophily` " \
        f"({words})" in md
    # Many runs with little spread: narrow intervals, nothing called weak.
    many = build(_records(10, noisy_like_control=False, ctrl_sd=0.5))
    st = many["strength"]["tab:heterophily"]
    # (The paper's own ±5 points still widen the interval; our runs no longer dominate it.)
    assert not st["weak"] and st["own_half_width"] < min(WEAK_HALF_WIDTH,
                                                         st["paper_half_width"])
    md = markdown(many, _META, {})
    assert "| model | Texas 0.01 | Texas 1 |" in md and "Weak at this run count" not in md
    row = next(line for line in md.splitlines() if line.startswith("| tab:heterophily |"))
    assert f"| 10 runs: ±{st['half_width']:.0f} points |" in row, row
    cells = [line for line in md.splitlines() if line.startswith("| ") and "│" in line]
    assert cells and not any("ctrl" in line for line in cells)     # all 15 points above it
    # One run of ours: no interval of our own, always weak.
    one = build(_records(1, noisy_like_control=False))["strength"]["tab:heterophily"]
    assert one["runs"] == [1] and one["weak"] and one["own_half_width"] == np.inf
    # The terminal says it too, on each reproduced cell (and only where the run count is weak);
    # the noise level is ξ (Gaussian) on every line, as the paper writes it.
    lines = terminal_lines(few)
    repro = [line for line in lines if "  reproduced (" in line]
    assert repro and all(f"; weak: {words})" in line for line in repro)
    assert all(" ξ=" in line and " level=" not in line for line in lines)
    assert not any("weak" in line for line in terminal_lines(many))


def test_a_model_that_failed_in_every_run_is_reported_failed_and_left_out_of_the_claims():
    recs = _records(1)
    for rec in recs:
        for m in ("mlp", "gcn"):
            rec["result"]["models"][m] = {"test_acc": None, "error": "boom", "config": {},
                                          "seconds": 0.1}
    rep = build(recs)                      # a claim judged on "no mean" would raise here
    failed = [c for c in rep["cells"] if c["model"] in ("mlp", "gcn")]
    assert failed and all(c["mean"] is None and c["errors"] == ["boom"] for c in failed)
    claim = next(c for c in rep["claims"] if c["claim"] == "heterophily-mlp")
    assert claim["verdict"] == "inconclusive" and claim["evidence"] == []   # MLP: no number
    assert _table_row(markdown(rep, _META, {}), "MLP").count("failed") == 2
    said = [line for line in terminal_lines(rep) if " mlp " in line]
    assert len(said) == 2 and all("(0 runs, 1 failed)" in line for line in said)


def test_first_or_second_by_means():
    runs = np.arange(5, dtype=float)
    col = ("texas", 0.01, "paper")
    acc = {col: {"ngc": list(70 + runs), "rngc": list(71 + runs), "mlp": list(72 + runs),
                 "gcn": list(50 + runs)}}
    assert top_two(acc, [col], ("ngc", "rngc"), ("mlp", "gcn"))[0]["reading"] == "holds"
    acc[col]["s2gc"] = list(80 + runs)
    row = top_two(acc, [col], ("ngc", "rngc"), ("mlp", "gcn", "s2gc"))[0]
    assert row["reading"] == "fails" and row["rank_of_best_ours"] == 3


# ------------------------------------------------------------------------------ the plan

def test_targets_and_only():
    assert resolve("fig:depth_rngc") == "fig:depth"
    assert resolve("tab:row-normalization") == "tab:row normalization"
    assert parse_only(["tab:heterophily:Texas", "tab:heterophily:film"]) == {
        "tab:heterophily": {"texas", "actor"}}
    assert parse_only(["tab:flip", "tab:flip:cora"]) == {"tab:flip": None}
    with pytest.raises(ValueError, match="unknown target"):
        parse_only(["tab:nope"])
    with pytest.raises(ValueError, match="runs on"):
        parse_only(["tab:heterophily:cora"])
    with pytest.raises(ValueError, match="not run"):
        parse_only(["tab:ogb:cora"])


def test_only_accepts_a_sentences_statement_id():
    """``TARGET:SENTENCE`` (a statement id, as check's --only takes) runs the target, on the
    data sets its ``TARGET:DATASET`` items name (all where none does), and reports only the
    sentences named; a bare target reports all of them."""
    assert parse_only(["tab:heterophily:bold"]) == {"tab:heterophily": None}
    assert parse_sentences(["tab:heterophily:bold"]) == {"tab:heterophily": {"bold"}}
    both = ["TAB:Flip:Bold", "tab:flip:cora", "tab:flip:flip-rngc"]
    assert parse_only(both) == {"tab:flip": {"cora"}}
    assert parse_sentences(both) == {"tab:flip": {"bold", "flip-rngc"}}
    assert parse_sentences(["tab:flip:bold", "flip"]) == {}            # the whole target
    assert parse_sentences(["tab:flip:cora"]) == {}                    # data sets only
    assert parse_only(["tab:row normalization:row-norm"]) == {"tab:row normalization": None}
    with pytest.raises(ValueError, match="judges the sentences bold, flip-rngc"):
        parse_only(["tab:flip:heterophily-mlp"])
    ctx = RunContext(sentences=parse_sentences(["tab:heterophily:bold"]))
    assert {c["id"] for c in build(_records(3), ctx)["claims"]} == {"tab:heterophily:bold"}
    assert len({c["id"] for c in build(_records(3))["claims"]}) == 5


def test_every_sentence_id_is_accepted_and_none_is_a_data_set():
    """Each statement id of each target selects its sentence; no sentence key is a data set
    name or alias (so ``TARGET:DATASET`` and ``TARGET:SENTENCE`` never collide), and every
    data set item still selects its data set."""
    from ngc_ref.datasets import canonical_name
    for key, t in TARGETS.items():
        for q in t.quotes:
            assert parse_sentences([f"{key}:{q}"]) == {key: {q}}
            with pytest.raises(ValueError):
                canonical_name(q)
        for ds in t.datasets:
            assert (parse_only([f"{key}:{ds}"]), parse_sentences([f"{key}:{ds}"])) == (
                {key: {ds}}, {})


def _plan(chosen, **kw):
    return plan(RunContext(chosen=chosen, **kw))


def test_plan_counts_and_order():
    cells = _plan({"tab:flip": {"cora"}}, runs=2)
    # 3 levels x 2 readings x 2 runs, every model plus the control in each cell
    assert len(cells) == 12 and {task for task, _ in cells} == {"reproduce"}
    assert all(p["models"].endswith("ngc/control") for _, p in cells)
    full = _plan({"tab:heterophily": {"texas"}}, full=True)
    assert len(full) == 2 * 10
    everything = _plan({k: None for k in TARGETS})
    # the Coauthor cells first, one Physics and one CS cell side by side; then longest first
    assert [p["dataset"] for _, p in everything[:4]] == ["coauthor-physics", "coauthor-cs"] * 2
    rest = [cell_seconds(*c) for c in everything[4:]]
    assert rest == sorted(rest, reverse=True) and max(rest) < min(cell_seconds(*c) for c in
                                                                 everything[:4])


def test_the_reproduce_task_declares_its_cost_model():
    """As every sweep task does (register_task(cost=)), read through sweep.cell_seconds: a
    cell costs the measured CPU seconds of its (target, data set), every one measured, and
    the unmeasured default elsewhere."""
    from ngc_ref_theory.reproduce.cells import COST, UNMEASURED_SECONDS
    pairs = {(k, ds) for k, t in TARGETS.items() for ds in t.datasets}
    assert set(COST) == pairs
    for _, p in _plan({k: None for k in TARGETS}, runs=1):
        assert cell_seconds("reproduce", p) == COST[p["target"], p["dataset"]]
    assert cell_seconds("reproduce", {"target": "tab:flip", "dataset": "karate"}) == (
        UNMEASURED_SECONDS)


def test_a_targets_cells_are_its_claim_plan():
    """The cells are each target's plan (Claim.plan), consulted as a claim's --thorough cells
    are: not outside a thorough context."""
    ctx = RunContext(chosen={"tab:row normalization": {"cora"}}, runs=1)
    t = TARGETS["tab:row normalization"]
    assert t.planned and t.cells(ctx, "sym") == _plan(ctx.chosen, runs=1)
    assert t.cells(RunContext(chosen=ctx.chosen, runs=1, thorough=False), "sym") == []


def test_cell_ids_do_not_depend_on_the_run_count_and_an_old_store_resumes():
    a = {cell.id for cell in as_cells(_plan({"tab:flip": {"cora"}}, runs=2), seed=3)}
    b = {cell.id for cell in as_cells(_plan({"tab:flip": {"cora"}}, runs=3), seed=3)}
    assert a < b and len(b) == 18
    # the ids the store of an earlier version holds: the task "reproduce" and these parameters
    # (the reference written out), so OUT/reproduce.jsonl written before still resumes
    models = "ngc,rngc,mlp,gcn,s2gc,ngc/control"
    old = {make_cell("reproduce", {"target": "tab:flip", "dataset": "cora", "level": lv,
                                   "reading": rd, "run": r, "models": models}, 3).id
           for lv in (0.1, 0.2, 0.4) for rd in ("raw", "rn") for r in range(3)}
    assert old == b


# ------------------------------------------------------------------------------ the command

@pytest.mark.parametrize("argv, message", [
    (["--runs", "0"], "--runs"),
    (["--only", "tab:nope"], "unknown target"),
    (["-j", "0"], "jobs"),
    (["--seed", "-1"], "--seed"),
])
def test_bad_arguments_exit_2_and_create_nothing(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.setenv("NGC_REF_DATA", str(tmp_path))
    out = tmp_path / "out"
    assert main(["reproduce", "--out", str(out), *argv]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_without_data_it_says_what_to_set(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NGC_REF_DATA", raising=False)
    out = tmp_path / "out"
    assert main(["reproduce", "--only", "tab:flip", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "NGC_REF_DATA" in err and "planetoid/" in err
    assert not out.exists()


def test_the_help_lists_targets_and_run_counts(capsys):
    with pytest.raises(SystemExit):
        main(["reproduce", "--help"])
    text = capsys.readouterr().out
    assert "tab:heterophily" in text and "tab:ogb" in text and "--scale-run" in text


# ------------------------------------------------------------------------------ resume

def _fake_task(calls, stop_after=None):
    """A stand-in for the cell: deterministic accuracies from the cell's seed, no data."""
    def fn(params, seeds):
        calls.append((params["dataset"], params["level"], params["reading"], params["run"]))
        if stop_after is not None and len(calls) > stop_after:
            raise KeyboardInterrupt
        rng = np.random.default_rng(seeds.derived("fake", params["level"], params["run"]))
        models = {m: {"test_acc": float(rng.uniform(0.3, 0.8)), "val_acc": None,
                      "seconds": 0.0, "cpu_seconds": 0.0, "config": {"kind": "fake"}}
                  for m in params["models"].split(",")}
        return {"models": models, "split": 0, "n": 10, "features": [10, 2], "dtype": "float64",
                "rownorm": True, "noise_seconds": 0.0, "init_seed": 0, "cpu_seconds": 0.0}
    return fn


def _cells_of(out):
    rep = json.loads((out / "reproduce.json").read_text())
    return [(c["dataset"], c["level"], c["model"], c["runs"]) for c in rep["cells"]]


def test_an_interrupted_run_resumes_without_repeating_cells(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NGC_REF_DATA", str(tmp_path))
    monkeypatch.setattr(run_mod, "dataset", lambda *a: None)   # the fake cells need no data
    task = get_task("reproduce")
    argv = ["reproduce", "--only", "tab:heterophily:texas", "--runs", "3", "-j", "1",
            "--no-progress"]
    calls = []
    monkeypatch.setattr(task, "fn", _fake_task(calls))
    whole = tmp_path / "whole"
    assert main([*argv, "--out", str(whole)]) == 0
    assert len(calls) == 6

    calls.clear()
    monkeypatch.setattr(task, "fn", _fake_task(calls, stop_after=4))
    part = tmp_path / "part"
    assert main([*argv, "--out", str(part)]) == 130          # Ctrl-C during the 5th cell
    assert "resume" in capsys.readouterr().err
    assert len(read_records(part / STORE)) == 4
    assert not (part / "reproduce.json").exists()             # no half-written report
    # a crash in the middle of a line leaves a partial last line: it is dropped, not trusted
    with open(part / STORE, "ab") as fh:
        fh.write(b'{"id": "truncated')
    calls.clear()
    monkeypatch.setattr(task, "fn", _fake_task(calls))
    assert main([*argv, "--out", str(part)]) == 0
    assert len(calls) == 2                                    # only the cells not finished
    assert _cells_of(part) == _cells_of(whole)
    calls.clear()
    assert main([*argv, "--out", str(part)]) == 0             # everything done: nothing runs
    assert calls == []


# ------------------------------------------------------------------------------ real data

@needs_data
def test_smoke_run_of_one_target_on_the_real_data(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["reproduce", "--only", "tab:heterophily:texas", "--runs", "1", "--out",
                 str(out), "-j", "1", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "paper 73.9±6.9" in printed                      # NGC, Texas, ξ = 0.01
    assert "not run: tab:ogb" in printed and "GAT" in printed
    rep = json.loads((out / "reproduce.json").read_text())
    cells = {(c["level"], c["model"]): c for c in rep["cells"]}
    assert set(cells) == {(lv, m) for lv in (0.01, 1.0) for m in
                          (*TARGETS["tab:heterophily"].models, "ngc/control")}
    ngc = cells[(0.01, "ngc")]
    assert ngc["paper"] == {"mean": 73.9, "std": 6.9, "bold": True, "runs": 10, "row": "NGC"}
    assert ngc["n_runs"] == 1 and ngc["verdict"] in ("reproduced", "below", "above")
    assert ngc["config"]["propagation_params"] == {"lam": 1.0, "S": 16, "norm": "sym"}
    assert ngc["config"]["classifier"]["hidden"] == 16
    assert ngc["control"]["runs"] == 1
    assert cells[(0.01, "ngc-rw")]["config"]["propagation_params"]["norm"] == "rw"
    assert {r["model"] for r in rep["not_run_rows"]} == {"GAT", "GLP", "IRLS"}
    assert rep["claims"] and all(c["verdict"] in ("holds", "fails", "inconclusive")
                                 for c in rep["claims"])
    md = (out / "reproduce.md").read_text()
    assert "| NGC | **72.8±8.7** │" in md or "Texas 0.01" in md
    assert "73.9±6.9" in md and "not run" in md


@needs_data
def test_a_cell_computes_what_run_experiment_computes():
    """Reference beside fast: the cell's NGC/RNGC/MLP/S²GC/GCN accuracies are run_experiment's on
    the same noisy features with the same initialisation seed (RNGC through the cell's own
    series evaluator against the library's robust_propagate)."""
    from ngc_ref.training import fit_models, model_spec, run_experiment
    from ngc_ref.noise import corrupt
    from ngc_ref_theory.paper.hyperparams import paper_config
    data = cells_mod.dataset("texas", 3)
    Xn = corrupt(data.features, "gaussian", 0.01, seed=5, normalize=True)
    seed = 11
    # run_experiment's initialisation seed for run 0 (its module docstring: each run's child
    # of SeedSequence(seed) spawns the noise stream, then the initialisation stream)
    init = int(np.random.SeedSequence(seed).spawn(1)[0].spawn(2)[1].generate_state(1)[0])
    from threadpoolctl import threadpool_limits
    with threadpool_limits(1):      # as the cells run (tiny matrices: threads only cost)
        for m in ("ngc", "rngc", "mlp", "s2gc", "gcn"):
            ref = run_experiment(data, noise="gaussian", levels=(0.01,), runs=1, seed=seed,
                                 models={m: model_spec(m, "texas", "gaussian", 0.01,
                                                       hyperparams=paper_config)},
                                 noise_fn=lambda *a, **k: Xn)
            cfg = cells_mod.model_config("tab:heterophily", m, "texas", 0.01)
            acc = fit_models({m: cells_mod._spec(cfg, m)}, cells_mod.adjacency(data, Xn.dtype),
                             Xn, np.asarray(data.labels), data.train_mask, data.val_mask,
                             data.test_mask, data.num_classes, init)[m]["test_acc"]
            if m == "rngc":     # another evaluation order of the series: equal to rounding,
                one = 1.01 / data.test_mask.sum()      # so one test node may flip
                assert acc == pytest.approx(ref.records[0]["test_acc"], abs=one), m
            else:               # the same functions on the same inputs
                assert acc == ref.records[0]["test_acc"], m


def test_a_cell_runs_its_models_through_fit_models(monkeypatch):
    """The per-run loop has one home: a cell makes one call of the library's fit_models with
    its own seeds (the initialisation of (data set, noise, level, run), the control's of (data
    set, run)), the depth models read from the partial sums, errors recorded; a failed model
    keeps its error's first line and no accuracies."""
    import math
    from ngc_ref.datasets import load_dataset
    from ngc_ref_theory.sweep import CellSeeds
    karate = load_dataset("karate")
    monkeypatch.setattr(cells_mod, "_DATA", {})
    monkeypatch.setattr(cells_mod, "dataset", lambda name, split=0: karate)
    calls, real = [], cells_mod.fit_models

    def spy(specs, *args, **kwargs):
        fits = real(specs, *args, **kwargs)
        calls.append((specs, args[-1], kwargs, fits))
        return fits | {"ngc": dict.fromkeys(("test_acc", "val_acc", "final_loss"), math.nan)
                       | {"error": "diverged\ndetails", "seconds": 0.0, "cpu_seconds": 0.0}}

    monkeypatch.setattr(cells_mod, "fit_models", spy)
    seeds = CellSeeds(sweep_seed=5, cell_seed=0)
    models = ("ngc@S=1", "rngc@S=4", "ngc/control", "ngc")
    out = cells_mod.reproduce_task(dict(target="fig:depth", dataset="karate", level=0.5,
                                        reading="paper", run=1, models=",".join(models)), seeds)
    [(specs, seed, kwargs, fits)] = calls
    assert [(m, s.partial_sums, s.control) for m, s in specs.items()] == [
        ("ngc@S=1", True, False), ("rngc@S=4", True, False), ("ngc/control", False, True),
        ("ngc", False, False)]
    assert seed == seeds.derived("init", "karate", "gaussian", 0.5, 1) == out["init_seed"]
    assert kwargs == dict(control_seed=seeds.derived("control", "karate", 1), errors="record")
    for m in models[:3]:
        assert out["models"][m]["test_acc"] == fits[m]["test_acc"], m
        assert out["models"][m]["val_acc"] == fits[m]["val_acc"], m
    assert {k: out["models"]["ngc"][k] for k in ("test_acc", "val_acc", "error")} == dict(
        test_acc=None, val_acc=None, error="diverged")


@needs_data
def test_pubmed_is_binarised_for_flipping_only():
    data = cells_mod.dataset("pubmed")
    B = cells_mod.clean_features("tab:flip", data)
    assert set(np.unique(B.data)) == {1.0} and B.nnz == (data.features != 0).sum()
    assert cells_mod.clean_features("fig:noise", data) is data.features


def test_the_scale_run_measures_time_and_memory_in_a_subprocess():
    from ngc_ref_theory.reproduce.scale import run_scale
    res = run_scale(nodes=3000, edges=15000, features=8, S=4, timeout=120)
    assert "error" not in res, res
    assert res["nodes"] == 3000 and abs(res["edges"] - 15000) < 1000
    assert [s["step"].split(":")[0] for s in res["steps"]] == [
        "graph", "features", "NGC", "RNGC, edge-masked (λ=32, S=4, ε=0.01)".split(":")[0]]
    assert res["peak_rss_gib"] > 0


def test_no_stale_report_files(tmp_path):
    # the staging folder never stays behind
    assert not list(Path(tmp_path).glob(".ngc-ref-staging-*"))
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_a_missing_data_file_stops_the_run_before_anything_is_created(tmp_path, capsys,
                                                                         monkeypatch):
    monkeypatch.setenv("NGC_REF_DATA", str(tmp_path))          # a folder without the files
    out = tmp_path / "out"
    assert main(["reproduce", "--only", "tab:heterophily:texas", "--out", str(out)]) == 2
    assert "cannot load 'texas'" in capsys.readouterr().err
    assert not out.exists()
