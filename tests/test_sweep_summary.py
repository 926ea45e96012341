"""``theory/sweep/summary.py`` on hand-made records (no sweep runs): how records form series,
the per-series Assumption 2 verdict as the checker gives it, the Lemma 1 exceedance table with
its Clopper–Pearson intervals and bound verdict, the tables of the other tasks, and the
store-level errors. References: the rules of ``_stats`` (decay, Clopper–Pearson, the bound
verdict) applied here by hand to the series' means, and tables read cell by cell."""

import json
import math
import re

import pytest

from ngc_ref_theory._stats import bound_verdict, clopper_pearson, loglog_slope, slope_interval
from ngc_ref_theory.sweep import summary as S


def rec(task, params, result, seconds=1.0):
    return {"id": json.dumps(params, sort_keys=True), "task": task, "params": params,
            "result": result, "seconds": seconds}


def _cols(table):
    """The cells of a text table's body rows (split on runs of two spaces)."""
    return [re.split(r"\s{2,}", line.strip()) for line in table.splitlines()[2:]]


# --- grouping records into series -----------------------------------------------------------

def test_varying_constant_and_group_leave_out_replicates_and_graph_seeds():
    recs = [rec("tau", {"n": n, "family": f, "rep": r, "graph_seed": r + 10, "lam": 2.0}, {})
            for f in ("ring", "path") for n in (100, 200) for r in (0, 1)]
    assert S.varying(recs) == ["family", "n"]
    assert S.varying(recs, exclude=("n",)) == ["family"]
    assert S.constant(recs) == {"lam": 2.0}
    assert S.constant(recs, exclude=("lam",)) == {}
    groups = S.group(recs, ["family"])
    assert list(groups) == [('"ring"',), ('"path"',)] and len(groups[('"ring"',)]) == 4
    keys, series = S._series(recs, "n")
    assert keys == ["family"] and list(series) == [('"path"',), ('"ring"',)]   # sorted
    assert list(series[('"ring"',)]) == [100, 200]


def test_series_are_ordered_by_value_numbers_before_text():
    recs = [rec("t", {"x": 1, "p": p}, {}) for p in (10, 2, "b", "a", 2.5)]
    _, series = S._series(recs, "x")
    assert [json.loads(k[0]) for k in series] == [2, 2.5, 10, "a", "b"]
    assert S._sort_key(True) == (1, 0, "true")          # a bool is not a number here


def test_labels_and_formats():
    assert S._label(["family", "p"], ['"ring"', "0.12345"]) == "family=ring, p=0.1235"
    assert S._label([], []) == "all"
    assert S._fmt({"a": 1.0, "b": "x"}) == "a=1,b=x" and S._fmt({}) == "{}"
    assert S._plot_label(["lam", "noise_std", "n"], ["2.5", "0.1", "8"]) == "λ=2.5, σ=0.1, n=8"
    recs = [rec("t", {"n": n, "lam": 2.0, "graph_params": {}}, {}) for n in (1, 2)]
    assert S._title(recs, "n", "τ against n:") == "τ against n: λ=2"


def test_text_table_right_aligns_each_column_to_its_widest_cell():
    assert S.text_table(("a", "long"), [(1, 2.5), ("xyz", 3)]) == (
        "  a  long\n---  ----\n  1   2.5\nxyz     3")
    assert S.text_table(("a", "bb"), []) == "a  bb\n-  --"


def test_mean_std_leaves_out_missing_values():
    assert S._mean_std([1.0, None, 3.0]) == (2.0, 1.0)
    m, s = S._mean_std([None])
    assert math.isnan(m) and math.isnan(s)


# --- tau: the per-series verdict ------------------------------------------------------------

def _tau(n, tau_over_n, *, family="ring", rep=0, floor=None, iso=0, share=None, method="exact",
         upper=None, schedule="sqrt_n"):
    result = {"n": n, "tau_over_n": tau_over_n, "tau": tau_over_n * n,
              "tau_log_n_over_n": tau_over_n * math.log(n), "isolated_nodes": iso,
              "max_degree_share": share if share is not None else 4.0 / n,
              "floor": floor if floor is not None else 1.0 / n, "method": method}
    if upper is not None:
        result["tau_upper_over_n"] = upper
    return rec("tau", {"family": family, "n": n, "rep": rep, "schedule": schedule}, result)


def test_tau_verdicts_per_series_as_the_checker_gives_them():
    ns = (100, 200, 400, 800)
    decaying = [0.4, 0.2, 0.1, 0.05]
    recs = [_tau(n, v, rep=r) for n, v in zip(ns, decaying) for r in (0, 1)]
    recs += [_tau(n, 0.3, family="star", floor=0.01) for n in ns]           # fixed λ, S
    recs += [_tau(100, 0.5, family="one")]                                  # one size
    recs += [_tau(n, v, family="hub", share=0.25) for n, v in zip(ns, decaying)]
    out = {label: rest for label, *rest in S.tau_verdicts(recs)}
    assert out["family=ring"][0] == "holds" and out["family=ring"][1] == pytest.approx(-1.0)
    assert out["family=ring"][3] == ""
    v, slope, ci, note = out["family=star"]
    assert v == "fails" and note == "fixed λ, S: τ/n ≥ floor 0.01 at every n"
    assert slope == pytest.approx(0.0) and ci == pytest.approx([0.0, 0.0])
    v, slope, ci, note = out["family=one"]
    assert (v, ci, note) == ("inconclusive", None, "one size: no trend") and math.isnan(slope)
    v, _, _, note = out["family=hub"]
    assert v == "holds" and note.startswith("outside the hypotheses: the largest degree share "
                                            "does not decrease")


def test_tau_verdicts_average_replicates_and_carry_isolation_and_estimates():
    ns = (100, 200, 400, 800)
    # the two replicates average to a decaying series; one replicate alone would not decay
    recs = [_tau(n, v, rep=0) for n, v in zip(ns, (0.4, 0.3, 0.1, 0.08))]
    recs += [_tau(n, v, rep=1) for n, v in zip(ns, (0.4, 0.1, 0.1, 0.02))]
    [(label, v, slope, ci, note)] = S.tau_verdicts(recs)
    means = [0.4, 0.2, 0.1, 0.05]
    assert slope == pytest.approx(loglog_slope(ns, means))
    assert ci == pytest.approx(slope_interval([{"n": n, "t": m} for n, m in zip(ns, means)], "t"))
    iso = [_tau(n, v, iso=int(n == 800 and r == 1), rep=r)
           for n, v in zip(ns, (0.4, 0.2, 0.1, 1.0)) for r in (0, 1)]
    [(_, v, _, _, note)] = S.tau_verdicts(iso)
    assert v == "fails" and "outside the hypotheses: isolated nodes" in note
    est = [_tau(n, v, method="estimate" if n == 400 else "exact", upper=u)
           for n, v, u in zip(ns, (0.4, 0.2, 0.1, 0.05), (0.4, 0.3, 0.3, 0.3))]
    [(_, v, _, _, note)] = S.tau_verdicts(est)
    assert v == "inconclusive" and "τ estimated (bracket)" in note
    assert "to decide: the upper end of τ's bracket" in note


def test_the_tau_summary_table_and_its_count_of_estimates():
    ns = (100, 200)
    recs = [_tau(n, v, rep=r, method="estimate" if r else "exact")
            for n, v in zip(ns, (0.4, 0.2)) for r in (0, 1)]
    table, figs = S.summarize_tau(recs)
    assert figs == []
    rows = _cols(table.split("\n\n")[0])
    assert rows[0] == ["all", "100", "2", "40", "0.4", "0", "1.842", "0.01"]
    assert "2 of 4 cells estimated τ" in table
    assert "verdict per series (criteria of ngc-ref check's assumption-2):" in table


def test_a_sqrt_n_schedule_is_one_series_written_as_its_rule():
    recs = [rec("tau", {"n": n, "lam": n ** 0.5, "S": 2 * n, "schedule": "sqrt_n"}, {})
            for n in (4, 9)]
    out = S._schedule_symbols(recs)
    assert [r["params"]["lam"] for r in out] == ["√n", "√n"]
    assert [r["params"]["S"] for r in out] == ["⌈2λ⌉", "⌈2λ⌉"]
    assert recs[0]["params"]["lam"] == 2.0                   # the records themselves unchanged
    fixed = rec("tau", {"n": 4, "lam": 2.0, "S": 3, "schedule": "fixed"}, {})
    assert S._schedule_symbols([fixed]) == [fixed]


# --- lemma1: the exceedance table -----------------------------------------------------------

def _lemma(n, k_paper, k_entry, trials, rep=0, p_max=0.25):
    return rec("lemma1", {"family": "ring", "n": n, "rep": rep},
               {"n": n, "trials": trials, "p_max": p_max, "exceed_paper": k_paper,
                "exceed_max_entry": k_entry, "exceed_frobenius": 0, "mean_fro2": 2.0,
                "paper_bound": 4.0})


@pytest.mark.parametrize("k", [0, 7, 20, 40])
def test_the_lemma1_table_pools_the_trials_and_judges_by_the_bound_verdict(k):
    recs = [_lemma(64, k // 2, 1, 20, rep=0), _lemma(64, k - k // 2, 2, 20, rep=1)]
    table, figs = S.summarize_lemma1(recs)
    [row] = _cols(table)
    lo, hi = clopper_pearson(k, 40)
    elo, ehi = clopper_pearson(3, 40)
    assert row == ["all", "64", "40", "0.25", f"{k / 40:.3f} [{lo:.3f}, {hi:.3f}]",
                   bound_verdict(k, 40, 0.25)[0], f"{3 / 40:.3f} [{elo:.3f}, {ehi:.3f}]",
                   "0.5"]
    assert S.summarize_lemma1([rec("lemma1", {"n": 1}, {"draws": 3})]) == (
        "(trial blocks without bounds: see ngc-ref check --thorough's lemma-1)", [])


# --- theorem1 and node classification -------------------------------------------------------

def test_the_theorem1_tables_of_both_settings():
    fixed = [rec("theorem1", {"n": n, "noise_std": 0.5, "rep": r},
                 {"excess_loss": e, "excess_loss_per_node": e / n, "noise_term": 0.1,
                  "excess_loss_limit": 0.2, "descent_bound_holds": bool(r)})
             for n, es in ((100, (1.0, 3.0)), (200, (2.0, 2.0))) for r, e in enumerate(es)]
    grown = [rec("theorem1", {"family": "ring", "norm": "rw", "n": 64, "rep": r},
                 {"graph": {"n": 64, "tau": 32.0 * (r + 1)},
                  "runs": [{"floor": 6.4, "n": 64}, {"floor": 12.8, "n": 64}]})
             for r in range(2)]
    text, figs = S.summarize_theorem1(fixed + grown)
    a, b = text.split("\n\n")
    assert _cols(a)[0] == ["all", "100", "2", "2", "1", "0.02", "0.1", "0.2", "1"]
    assert b.startswith("λ = √n, S = ⌈2λ⌉:\n")
    assert _cols(b.split("\n", 1)[1])[0] == ["ring", "rw", "64", "2", "4", "0.75", "0.15"]
    assert figs == []


def test_the_node_classification_table_in_percent():
    recs = [rec("node_classification", {"model": "ngc", "level": lv, "rep": r},
                {"test_acc": acc})
            for lv, accs in ((0.1, (0.8, 0.9)), (0.5, (0.5, 0.5))) for r, acc in enumerate(accs)]
    table, figs = S.summarize_node_classification(recs)
    assert _cols(table) == [["all", "0.1", "2", "85.0", "5.0"], ["all", "0.5", "2", "50.0", "0.0"]]


def test_the_symlog_threshold_is_the_smallest_value_within_span_of_the_largest():
    assert S._symlog_threshold([3e-3, -2.0, 5e-7, None, math.nan]) == 1e-3
    assert S._symlog_threshold([1e-20, 0.0]) == 1e-20
    assert S._symlog_threshold([0.0]) == 1.0 and S._symlog_threshold([]) == 1.0
    assert S._symlog_threshold([2.0, 2e-6], span=1e-5) == 1.0


def test_by_size_uses_the_mean_n_of_the_graphs_as_built():
    recs = [rec("t", {"n": 100, "rep": r}, {"n": 98 + 2 * r}) for r in range(2)]
    recs.append(rec("t", {"n": 50}, {"n": 50}))
    sizes, groups = S.by_size(recs)
    assert sizes == [50.0, 99.0] and [len(g) for _, g in groups] == [1, 2]


# --- a store --------------------------------------------------------------------------------

def test_summarize_a_store_and_its_errors(tmp_path):
    path = tmp_path / "store.jsonl"
    with pytest.raises(ValueError, match=r"^--summary: '.*store.jsonl' is not a file$"):
        S.summarize(path)
    path.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"holds no finished cells$"):
        S.summarize(path)
    recs = [rec("node_classification", {"model": "ngc", "level": 0.1, "rep": r},
                {"test_acc": 0.5}, seconds=1.25) for r in range(2)]
    recs.append(rec("mystery", {"x": 1}, {}, seconds=None))
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    text, figs = S.summarize(path, plots=False)
    assert text.startswith("## node_classification: 2 cells, 2.5 s of cell time\n")
    assert text.endswith("## mystery: 1 cell, 0.0 s of cell time\n(no summary for this task)")
    assert figs == []
    with pytest.raises(ValueError, match=r"^--plots '.*nowhere' is not a directory$"):
        S.summarize(path, tmp_path / "nowhere")


def test_equal_x_values_written_differently_are_one_point_with_every_cell():
    # A config accepts level = [0.0, -0.0]: two cells (their ids differ), one noise level. The
    # point at level 0 has both (mean 60 %, sd 10 %), none dropped.
    recs = [rec("node_classification", {"model": "ngc", "level": lv, "rep": 0},
                {"test_acc": acc}) for lv, acc in ((0.0, 0.5), (-0.0, 0.7), (0.5, 0.9))]
    _, series = S._series(recs, "level")
    assert [(x, len(v)) for x, v in series[()].items()] == [(0.0, 2), (0.5, 1)]
    table, _ = S.summarize_node_classification(recs)
    assert _cols(table) == [["all", "0", "2", "60.0", "10.0"], ["all", "0.5", "1", "90.0", "0.0"]]
