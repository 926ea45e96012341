"""``reproduce.judge``'s small rules, each on hand-made numbers at, just above and just below
its thresholds, against references written out in the test (a mean and std by hand, a
t-interval from its formula): how a cell is summarised and marked, how comparisons are paired,
combined, ranked and described. The error rates of the intervals are in tests/test_stats.py."""

import math

import numpy as np
import pytest
from scipy.stats import t as t_dist

from ngc_ref_theory.kit.claim import Statement, extension
from ngc_ref_theory.reproduce.judge import (Sentence, beats_all, compare, control_mark,
                                            describe, half_width, interval_text, judge_cell,
                                            mark, paired, sentence_json, sentence_result,
                                            summarize, top_two, versus_control, worst)
from ngc_ref_theory.reproduce.targets import TARGETS, RunContext


def _t_interval(v, conf=0.95):
    v = np.asarray(v, dtype=float)
    half = t_dist.ppf(0.5 + conf / 2, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size)
    return [v.mean() - half, v.mean() + half]


def test_summarize_keeps_the_runs_that_ran():
    s = summarize([70.0, None, 74.0, 72.0])
    assert s["runs"] == 3 and s["mean"] == 72.0
    assert s["std"] == pytest.approx(math.sqrt(8 / 3))              # ddof = 0, the runner's
    assert s["ci"] == pytest.approx(_t_interval([70.0, 74.0, 72.0]))  # ddof = 1
    assert summarize([None, None]) == {"runs": 0, "mean": None, "std": None, "ci": None}
    one = summarize([55.5])
    assert (one["runs"], one["mean"], one["std"], one["ci"]) == (1, 55.5, 0.0, None)


def test_judge_cell_widens_by_the_papers_half_width_only_with_more_than_one_paper_run():
    ours = [70.0, 71.0, 72.0]
    lo, hi = _t_interval(ours)
    widen = t_dist.ppf(0.975, 9) * 2.0 / math.sqrt(10)
    r = judge_cell(ours, 80.0, 2.0, 10)
    assert r["interval"] == pytest.approx([lo - widen, hi + widen])
    assert r["paper_half_width"] == pytest.approx(widen)
    assert r["gap"] == pytest.approx(71.0 - 80.0) and r["verdict"] == "below"
    # at exactly the widened ends: reproduced; a hair beyond: not
    assert judge_cell(ours, hi + widen, 2.0, 10)["verdict"] == "reproduced"
    assert judge_cell(ours, lo - widen, 2.0, 10)["verdict"] == "reproduced"
    assert judge_cell(ours, hi + widen + 1e-9, 2.0, 10)["verdict"] == "below"
    assert judge_cell(ours, lo - widen - 1e-9, 2.0, 10)["verdict"] == "above"
    one_paper_run = judge_cell(ours, 80.0, 2.0, 1)                   # no spread to widen by
    assert one_paper_run["interval"] == pytest.approx([lo, hi])
    assert one_paper_run["paper_half_width"] is None
    assert judge_cell(ours, 80.0, 2.0, None)["interval"] == pytest.approx([lo, hi])
    assert judge_cell(ours, None) == {"interval": None, "verdict": None, "gap": None,
                                      "paper_half_width": None}


def test_one_run_of_ours_is_judged_by_the_papers_prediction_interval():
    """± t(n_p − 1)·s_p·√(1 + 1/n_p) around our run; without a paper std, inconclusive."""
    half = t_dist.ppf(0.975, 9) * 2.0 * math.sqrt(1 + 1 / 10)
    r = judge_cell([70.0], 73.0, 2.0, 10)
    assert r["interval"] == pytest.approx([70.0 - half, 70.0 + half])
    assert r["verdict"] == "reproduced" and r["gap"] == -3.0
    assert judge_cell([70.0], 70.0 + half + 1e-9, 2.0, 10)["verdict"] == "below"
    assert judge_cell([70.0], 70.0 - half - 1e-9, 2.0, 10)["verdict"] == "above"
    no_runs = judge_cell([70.0], 73.0, 2.0, None)                   # runs unknown: z, √1
    assert no_runs["interval"] == pytest.approx([70.0 - 1.959963984540054 * 2.0,
                                                 70.0 + 1.959963984540054 * 2.0])
    r = judge_cell([70.0], 73.0)
    assert (r["verdict"], r["interval"], r["gap"]) == ("inconclusive", None, -3.0)


def test_marks_and_half_widths():
    assert mark("reproduced", 0.3) == "✓"
    assert mark("below", -14.25) == "▼14.2" and mark("above", 3.06) == "▲3.1"
    assert mark("inconclusive", None) == "?" and mark(None, None) == ""
    assert half_width([68.0, 73.0]) == 2.5 and half_width(None) is None


def test_control_marks():
    assert control_mark(None) == ""
    assert control_mark({"reading": "indistinguishable", "identical": True}) == "=ctrl"
    assert control_mark({"reading": "indistinguishable", "identical": False}) == "≈ctrl"
    assert control_mark({"reading": "indistinguishable"}) == "≈ctrl"
    assert control_mark({"reading": "below", "identical": False}) == "<ctrl"
    assert control_mark({"reading": "above"}) == "" and control_mark({"reading": "one run"}) == ""


def test_versus_control_reports_the_paired_interval():
    vs = versus_control([72.0, 70.0, 75.0, None], [70.0, 67.5, 72.0, 60.0])
    d = [2.0, 2.5, 3.0]
    assert vs["runs"] == 3 and vs["mean"] == pytest.approx(np.mean(d))
    assert vs["ci"] == pytest.approx(_t_interval(d))
    assert vs["reading"] == "above" and not vs["identical"]
    one = versus_control([70.0], [75.0])
    assert one["reading"] == "one run" and one["ci"] is None and one["mean"] == -5.0
    assert versus_control([], []) is None


def test_paired_drops_a_run_missing_on_either_side():
    assert paired([1.0, None, 3.0, 4.0], [0.5, 2.0, None, 1.0]).tolist() == [0.5, 3.0]
    assert paired([], []).size == 0 and paired([1.0], [None]).dtype == float


def sentence_record(statement, verdict, rows, summary, rule, ctx=None, reading=None):
    """reproduce.json's record of a judged sentence (the kit result it is made into)."""
    return sentence_json(sentence_result(Sentence(statement, verdict, rows, summary, rule),
                                         ctx or RunContext(), reading))


def test_a_sentence_record_carries_its_statement_rule_and_evidence():
    """The record is made by the sentence's statement: key, words, target, id and scope are
    the statement's; the JSON shape is these ten fields (and the reading where given)."""
    why = "the paper says it of tab:y: 'words'; not of tab:x (our reading)"
    st = Statement("tab:x:k", "the paper's words", "tab:x", "Table 9", scope=extension(why))
    rec = sentence_record(st, "holds", [{"reading": "holds"}], "s", "r")
    want = {"claim": "k", "quote": "the paper's words", "verdict": "holds", "rule": "r",
            "summary": "s", "evidence": [{"reading": "holds"}], "target": "tab:x",
            "id": "tab:x:k", "scope": "extension", "scope_reason": why}
    assert rec == want
    assert sentence_record(st, "holds", [], "s", "r", reading="rn") == want | {
        "evidence": [], "reading": "rn"}


def test_a_failing_sentence_is_a_kit_result_whose_rerun_runs_as_printed():
    """A ``fails`` is the kit's Result with a counterexample: the data sets of its failing
    comparisons and the command that re-runs the sentence's target on the run's cells, which
    the command line parses back into the same selection, runs and seed."""
    from ngc_ref_theory.cli import build_parser
    from ngc_ref_theory.reproduce.run import select
    from ngc_ref_theory.reproduce.targets import parse_sentences
    import shlex
    st = TARGETS["tab:flip"].sentence("bold")
    rows = [{"column": ["citeseer", 0.4, "raw"], "reading": "fails"},
            {"column": ["cora", 0.4, "raw"], "reading": "holds"}]
    ctx = RunContext(seed=2, runs=1, chosen={"tab:flip": {"cora", "citeseer"}},
                     data_root="/data dir")
    res = sentence_result(Sentence(st, "fails", rows, "s", "r"), ctx, "raw")
    assert res.verdict == "fails" and res.id == "tab:flip:bold" and res.claim == "tab:flip"
    assert res.counterexample["dataset"] == "citeseer"     # the failing comparison's
    assert res.norm == "sym"                                # the experiments' one Ã
    both = sentence_result(Sentence(st, "fails", [dict(r, reading="fails") for r in rows], "s",
                                    "r"), ctx, "raw")
    assert both.counterexample["dataset"] == "citeseer, cora"
    rerun = sentence_json(res)["rerun"]
    assert rerun == ("NGC_REF_DATA='/data dir' ngc-ref reproduce --only tab:flip:bold "
                     "tab:flip:citeseer tab:flip:cora --runs 1 --seed 2 --out "
                     "ngc_ref_rerun/tab_flip_bold")
    env, *words = shlex.split(rerun)
    assert env == "NGC_REF_DATA=/data dir" and words[0] == "ngc-ref"
    args = build_parser().parse_args(words[1:])
    assert (select(args.only), args.runs, args.seed) == (ctx.chosen, 1, 2)
    assert parse_sentences(args.only) == {"tab:flip": {"bold"}}      # it reports that one
    whole = sentence_json(sentence_result(Sentence(st, "fails", rows[1:], "s", "r"),
                                          RunContext(full=True), "raw"))
    assert whole["rerun"].startswith("ngc-ref reproduce --only tab:flip:bold --full --seed 0 ")
    assert "rerun" not in sentence_record(st, "inconclusive", rows, "s", "r")


@pytest.mark.parametrize("verdict", ["reproduced", "below", "Holds", "", None])
def test_a_sentence_record_refuses_a_verdict_outside_the_kits(verdict):
    st = Statement("tab:x:k", "w", "tab:x", "Table 9")
    with pytest.raises(ValueError, match="verdict must be one of"):
        sentence_record(st, verdict, [], "s", "r")


def test_a_sentence_record_refuses_a_statement_that_is_not_a_part_of_its_target():
    for sid in ("other:k", "tab:x", "tab:x:"):
        with pytest.raises(ValueError, match=rf"^statement '{sid}' is not a part of its claim "
                           r"'tab:x' \(a sentence's id is '<target>:<key>'\)$"):
            sentence_record(Statement(sid, "w", "tab:x", "Table 9"), "holds", [], "s", "r")


def test_compare_rows_carry_both_intervals_and_the_run_count():
    d = np.array([1.0, 2.0, 4.0, 3.0])
    row = compare(d, 3, threshold=0.0)
    assert row["mean"] == 2.5 and row["runs"] == 4 and row["reading"] == "holds"
    assert row["ci"] == pytest.approx(_t_interval(d))
    assert row["ci_bonferroni"] == pytest.approx(_t_interval(d, 1 - 0.05 / 3))
    assert compare(d, 0)["ci_bonferroni"] == pytest.approx(_t_interval(d))   # m < 1: as 1
    empty = compare(np.array([]), 2)
    assert empty["runs"] == 0 and empty["reading"] == "inconclusive"
    assert all(math.isnan(x) for x in empty["ci"] + empty["ci_bonferroni"] + [empty["mean"]])


def test_interval_text_and_describe():
    row = {"mean": 1.234, "ci": [0.31, 2.06], "runs": 5}
    assert interval_text(row) == "+1.2 [+0.3, +2.1]"
    assert interval_text(row, 2) == "+1.23 [+0.31, +2.06]"
    assert interval_text({"mean": -5.0, "ci": [math.nan, math.nan], "runs": 1}) == \
        "-5.0 (no interval from 1 run(s))"
    assert interval_text({"mean": -5.0, "ci": [math.nan, math.nan], "runs": 1}, 2) == \
        "-5.00 (no interval from 1 run(s))"
    full = dict(row, column=["cora", 0.5, "paper"], model="ngc", baseline="mlp")
    assert describe(full) == "ngc − mlp on cora 0.5 paper: +1.2 [+0.3, +2.1] points (5 runs)"
    assert describe(None) == "no comparison could be made"


def test_worst_is_the_lowest_lower_end():
    a = {"ci": [1.0, 3.0]}
    b = {"ci": [-0.5, 4.0]}
    nan = {"ci": [math.nan, math.nan]}
    assert worst([a, nan, b]) is b and worst([b, a]) is b
    assert worst([nan, a]) is a
    assert worst([nan]) is nan and worst([]) is None


def test_beats_all_pairs_every_present_model_and_baseline_with_bonferroni_over_them():
    col1, col2 = ("cora", 0.0, "paper"), ("texas", 1.0, "paper")
    acc = {col1: {"ngc": [70.0, 72.0, 71.0], "mlp": [60.0, 61.0, 63.0], "gcn": [69.0, 71.0, 70.0]},
           col2: {"ngc": [50.0, 52.0, 51.0], "mlp": [55.0, 54.0, 56.0]}}
    rows = beats_all(acc, [col1, col2], ("ngc", "rngc"), ("mlp", "gcn"), threshold=-1.0)
    assert [(r["column"], r["model"], r["baseline"]) for r in rows] == [
        (list(col1), "ngc", "mlp"), (list(col1), "ngc", "gcn"), (list(col2), "ngc", "mlp")]
    d = [10.0, 11.0, 8.0]
    assert rows[0]["ci_bonferroni"] == pytest.approx(_t_interval(d, 1 - 0.05 / 3))
    assert rows[0]["reading"] == "holds"
    assert rows[2]["reading"] == compare(np.array([-5.0, -2.0, -5.0]), 3, -1.0)["reading"]
    assert rows[1]["reading"] == "holds"              # Δ = +1 in every run: above −1


def test_top_two_ranks_by_means_and_fails_only_on_two_significantly_ahead():
    runs = np.arange(5, dtype=float)
    col = ("texas", 0.01, "paper")

    def row(**means):
        spread = {"ngc": 0.0, "rngc": 0.3}
        acc = {col: {m: list(v + runs + spread.get(m, 0.0) * runs) for m, v in means.items()}}
        others = tuple(m for m in means if m not in ("ngc", "rngc"))
        return top_two(acc, [col], ("ngc", "rngc"), others)[0]
    r = row(ngc=70.0, rngc=71.0, mlp=72.0, gcn=50.0)
    assert (r["reading"], r["rank_of_best_ours"], r["ahead"]) == ("holds", 2, ["mlp"])
    assert r["means"] == {"ngc": 72.0, "rngc": 73.6, "mlp": 74.0, "gcn": 52.0}
    r = row(ngc=70.0, rngc=71.0, mlp=90.0, gcn=90.0)
    assert (r["reading"], r["rank_of_best_ours"]) == ("fails", 3)
    assert r["significantly_ahead"] == ["gcn", "mlp"]
    # two ahead by means, only one significantly (the other's paired differences scatter)
    acc = {col: {"ngc": [70.0, 70.0, 70.0, 70.0], "rngc": [60.0] * 4,
                 "mlp": [90.0, 91.0, 92.0, 93.0], "gcn": [60.0, 80.0, 65.0, 79.0]}}
    r = top_two(acc, [col], ("ngc", "rngc"), ("mlp", "gcn"))[0]
    assert r["ahead"] == ["gcn", "mlp"] and r["significantly_ahead"] == ["mlp"]
    assert r["reading"] == "inconclusive"
    # a column where ours did not run (or never ran): skipped
    acc = {col: {"mlp": [70.0, 71.0]}, ("cora", 0.0, "paper"): {"ngc": [None], "mlp": [1.0]}}
    assert top_two(acc, list(acc), ("ngc", "rngc"), ("mlp",)) == []
    # a tie with ours is not ahead
    r = row(ngc=70.0, rngc=60.0, mlp=70.0, gcn=50.0)
    assert r["ahead"] == [] and r["rank_of_best_ours"] == 1 and r["reading"] == "holds"


def _between(m_low, m_high, runs=5):
    """Paired differences whose Bonferroni interval at m_low comparisons lies above 0 and at
    m_high does not: shift = the mean of the two lower ends' half-widths (t formula)."""
    base = np.array([-1.0, 0.0, 1.0, 0.5, -0.5])[:runs]
    se = base.std(ddof=1) / math.sqrt(runs)
    t = [t_dist.ppf(1 - 0.025 / m, runs - 1) for m in (m_low, m_high)]
    return base + (t[0] + t[1]) / 2 * se


def test_the_number_of_comparisons_sets_the_bonferroni_level_of_each():
    d = _between(1, 4)
    assert compare(d, 1)["ci_bonferroni"][0] > 0 > compare(d, 4)["ci_bonferroni"][0]
    col = ("texas", 1.0, "paper")
    runs = [50.0] * 5
    # top_two: m = columns × others × ours = 1 × 2 × 2 = 4; gcn ahead of both of ours by d
    acc = {col: {"ngc": runs, "rngc": list(np.array(runs) - 1.0),
                 "gcn": list(np.array(runs) + d), "mlp": list(np.array(runs) + 10.0)}}
    r = top_two(acc, [col], ("ngc", "rngc"), ("mlp", "gcn"))[0]
    assert r["ahead"] == ["gcn", "mlp"] and r["significantly_ahead"] == ["mlp"]
    assert r["reading"] == "inconclusive"
    # beats_all: m = the comparisons made (4 here) for 'fails', and its threshold passed on
    acc = {col: {"ngc": list(np.array(runs) - d), "a": runs, "b": runs,
                 "c": runs, "e": runs}}
    rows = beats_all(acc, [col], ("ngc",), ("a", "b", "c", "e"))
    assert [row["reading"] for row in rows] == ["inconclusive"] * 4
    assert rows[0]["ci_bonferroni"] == pytest.approx(compare(-d, 4)["ci_bonferroni"])
    assert compare(-d, 1)["reading"] == "fails"
    rows = beats_all({col: {"ngc": [49.5] * 3, "a": [50.0] * 3}}, [col], ("ngc",), ("a",),
                     threshold=-1.0)
    assert rows[0]["reading"] == "holds"            # −0.5 in every run: above −1, not above 0


def test_versus_control_reads_below_on_the_95_interval_of_one_comparison():
    d = _between(1, 2)
    vs = versus_control(list(50.0 - d), [50.0] * 5)
    assert vs["reading"] == "below"


def test_compare_at_another_level_and_a_column_formatted_as_numbers():
    d = np.array([1.0, 2.0, 4.0])
    assert compare(d, 1, conf=0.5)["ci"] == pytest.approx(_t_interval(d, 0.5))
    row = {"mean": 1.0, "ci": [0.5, 1.5], "runs": 3, "column": ["cora", 1.0, 0.25],
           "model": "m", "baseline": "b"}
    assert describe(row).startswith("m − b on cora 1 0.25: ")


def test_judge_cell_with_two_paper_runs_uses_t_with_one_degree_of_freedom():
    ours = [70.0, 71.0, 72.0]
    lo, hi = _t_interval(ours)
    widen = t_dist.ppf(0.975, 1) * 2.0 / math.sqrt(2)
    assert judge_cell(ours, 80.0, 2.0, 2)["interval"] == pytest.approx([lo - widen, hi + widen])
    half = t_dist.ppf(0.975, 1) * 2.0 * math.sqrt(1.5)
    assert judge_cell([70.0], 80.0, 2.0, 2)["interval"] == pytest.approx([70 - half, 70 + half])


def test_top_two_goes_on_past_a_column_without_ours_and_rounds_means_to_two_places():
    a, b = ("texas", 1.0, "paper"), ("cornell", 1.0, "paper")
    acc = {a: {"mlp": [70.0]}, b: {"ngc": [70.123, 70.123], "mlp": [60.0, 60.0]}}
    rows = top_two(acc, [a, b], ("ngc", "rngc"), ("mlp",))
    assert [r["column"] for r in rows] == [list(b)]
    assert rows[0]["means"] == {"ngc": 70.12, "mlp": 60.0}
