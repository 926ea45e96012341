"""``theory/sweep/summary.py`` on hand-made records (no sweep runs): how records form series,
the per-series Assumption 2 verdict as the checker gives it, the Lemma 1 exceedance table with
its Clopper–Pearson intervals and bound verdict, the tables of the other tasks, and the
store-level errors. References: the rules of ``_stats`` (decay, Clopper–Pearson, the bound
verdict) applied here by hand to the series' means, and tables read cell by cell."""

import json
import math
import re

import pytest

from ngc_ref_theory.kit.stats import bound_verdict, clopper_pearson, loglog_slope, slope_interval
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


# --- the words and cells of each table, written out -----------------------------------------

def _head(table):
    """The header cells of a text table."""
    return re.split(r"\s{2,}", table.splitlines()[0].strip())


def test_parameters_equal_as_values_form_one_series_whatever_the_order_of_their_keys():
    # The same graph_params with its keys in another order (another config, an older store)
    # is the same parameter value: one series along n, nothing "varying" but n.
    recs = [rec("tau", {"family": "f", "n": n, "graph_params": gp}, {})
            for n, gp in ((100, {"p": 0.1, "q": 2}), (200, {"q": 2, "p": 0.1}))]
    assert S.varying(recs) == ["n"]
    assert len(S.group(recs, ["graph_params"])) == 1
    keys, series = S._series(recs, "n")
    assert keys == [] and [list(v) for v in series.values()] == [[100, 200]]


def test_the_title_names_every_constant_parameter_but_the_x_axis():
    # Sorted names; paper symbols where there is one (λ), the name otherwise (S); a dict
    # parameter written k=v; an empty graph_params left out; the x parameter never, even when
    # it takes one value; a title with no constants loses its trailing colon.
    recs = [rec("t", {"n": n, "S": 3, "lam": 2.0, "graph_params": {"p": 0.5}, "rep": n}, {})
            for n in (100, 200)]
    assert S._title(recs, "n", "τ against n:") == "τ against n: S=3, graph_params=p=0.5, λ=2"
    assert S._title(recs, "n") == "S=3, graph_params=p=0.5, λ=2"
    one = [rec("t", {"n": 100, "family": "mine.py:buildX", "graph_params": {}}, {})]
    assert S._title(one, "n", "τ against n:") == "τ against n: family=mine.py:buildX"
    assert S._title([rec("t", {"n": 100}, {})], "n", "τ against n:") == "τ against n"


def test_the_constants_of_a_single_cell_are_its_parameters():
    assert S.constant([rec("t", {"n": 100, "lam": 2.0, "rep": 0, "graph_seed": 7}, {})]) == {
        "lam": 2.0, "n": 100}


def test_the_verdict_table_writes_a_missing_slope_or_interval_as_a_dash():
    table = S._verdict_table([("family=a", "holds", -0.51234, [-0.7, -0.3], ""),
                              ("family=b", "inconclusive", math.nan, None, "one size: no trend")])
    assert _head(table) == ["series", "Assumption 2 (τ/n → 0)", "log-log slope", "95% interval",
                            "note"]
    assert _cols(table) == [["family=a", "holds", "-0.512", "[-0.700, -0.300]"],
                            ["family=b", "inconclusive", "-", "-", "one size: no trend"]]


def test_tau_verdict_notes_word_by_word():
    ns = (100, 200, 400, 800)
    decaying = (0.4, 0.2, 0.1, 0.05)
    # An isolated node: the reason Assumption 2's hypotheses exclude it.
    iso = [_tau(n, v, iso=int(n == 800)) for n, v in zip(ns, (0.4, 0.2, 0.1, 1.0))]
    [(_, v, _, _, note)] = S.tau_verdicts(iso)
    assert (v, note) == ("fails", "outside the hypotheses: isolated nodes (their τ_i = n for "
                                  "every λ, S)")
    # The largest size estimated, the others exact from a store without tau_upper_over_n:
    # the bracket's upper end is τ/n itself where τ is exact, 0.06 at n = 800, and decays.
    est = [_tau(n, v, method="estimate" if n == 800 else "exact",
                upper=0.06 if n == 800 else None) for n, v in zip(ns, decaying)]
    [(_, v, _, _, note)] = S.tau_verdicts(est)
    assert (v, note) == ("holds", "τ estimated (bracket)")
    # Every size estimated, the upper end flat over 8× in n: it fails to decay.
    flat = [_tau(n, v, method="estimate", upper=0.3) for n, v in zip(ns, decaying)]
    [(_, v, _, _, note)] = S.tau_verdicts(flat)
    assert (v, note) == ("inconclusive", "τ estimated (bracket); to decide: the upper end of "
                                         "τ's bracket: it does not decay")


def test_a_fixed_floor_fails_from_two_sizes_on_and_the_next_series_follows():
    # Two sizes are a trend (one is not): at a fixed (λ, S) the floor holds τ/n up: fails,
    # with the point slope and no interval (fewer than three sizes); the series after it
    # (sorted by family) still gets its verdict.
    recs = [_tau(n, 0.3, family="a-fixed", floor=0.01) for n in (100, 200)]
    recs += [_tau(n, v, family="b") for n, v in zip((100, 200, 400, 800), (0.4, 0.2, 0.1, 0.05))]
    out = S.tau_verdicts(recs)
    assert [o[0] for o in out] == ["family=a-fixed", "family=b"]
    label, v, slope, ci, note = out[0]
    assert (v, ci, note) == ("fails", None, "fixed λ, S: τ/n ≥ floor 0.01 at every n")
    assert slope == pytest.approx(0.0, abs=1e-12)
    assert out[1][1] == "holds"


def test_the_tau_summary_written_out():
    # One of four cells estimated; two sizes with floors 1/n: a trend of two sizes, so the
    # verdict asks for a third (no interval), and notes the estimate.
    recs = [_tau(100, 0.4, rep=0), _tau(100, 0.4, rep=1), _tau(200, 0.2, rep=0),
            _tau(200, 0.2, rep=1, method="estimate", upper=0.2)]
    table, figs = S.summarize_tau(recs)
    assert figs == []
    points, verdicts = table.split("\n\n")
    body, note = points.rsplit("\n", 1)
    assert _head(body) == ["series", "n", "reps", "tau", "tau/n", "sd", "tau*log(n)/n", "floor"]
    assert note == ("1 of 4 cells estimated τ (the estimator's value is the exact τ_i of its "
                    "likeliest maximiser; tau_upper in the record bounds τ with the record's "
                    "confidence)")
    head, rest = verdicts.split("\n", 1)
    assert head == "verdict per series (criteria of ngc-ref check's assumption-2):"
    assert _head(rest) == ["series", "Assumption 2 (τ/n → 0)", "log-log slope", "95% interval",
                           "note"]
    assert _cols(rest) == [["all", "inconclusive", "-1.000", "-", "τ estimated (bracket); to "
                            "decide: at least 3 sizes (no interval from fewer)"]]


def test_the_lemma1_table_written_out_one_cell_per_size():
    recs = [_lemma(64, 3, 1, 20), _lemma(128, 0, 0, 40, p_max=0.125)]
    table, figs = S.summarize_lemma1(recs)
    assert figs == []
    assert _head(table) == ["series", "n", "trials", "1/d", "P(exceed Eq.11) [95% CP]", "Eq.11",
                            "P(exceed max-entry) [95% CP]", "mean/bound"]
    want = []
    for n, k, e, t, p in ((64, 3, 1, 20, 0.25), (128, 0, 0, 40, 0.125)):
        (lo, hi), (elo, ehi) = clopper_pearson(k, t), clopper_pearson(e, t)
        want.append(["all", str(n), str(t), f"{p:.3g}", f"{k / t:.3f} [{lo:.3f}, {hi:.3f}]",
                     bound_verdict(k, t, p)[0], f"{e / t:.3f} [{elo:.3f}, {ehi:.3f}]", "0.5"])
    assert _cols(table) == want


def test_the_node_classification_table_written_out():
    recs = [rec("node_classification", {"model": "ngc", "level": 0.2, "rep": r},
                {"test_acc": acc}) for r, acc in enumerate((0.6, 0.8))]
    table, _ = S.summarize_node_classification(recs)
    assert _head(table) == ["series", "level", "reps", "test acc %", "sd"]
    assert _cols(table) == [["all", "0.2", "2", "70.0", "10.0"]]     # sd of 0.6, 0.8: 0.1


def test_the_theorem1_tables_written_out_and_the_figure_of_the_fixed_cells(tmp_path,
                                                                          monkeypatch):
    fixed = [rec("theorem1", {"n": 100, "noise_std": 0.5, "rep": 0},
                 {"excess_loss": 1.0, "excess_loss_per_node": 0.01, "noise_term": 0.1,
                  "excess_loss_limit": 0.2, "descent_bound_holds": True})]
    # tau = false (a probe family): no τ in the graph's record, τ/n not a number.
    grown = [rec("theorem1", {"family": "ring", "norm": "rw", "n": 64, "rep": 0, "tau": False},
                 {"graph": {"n": 64}, "runs": [{"floor": 6.4, "n": 64}]})]
    drawn = []
    monkeypatch.setattr(S, "_plot_theorem1",
                        lambda records, path: drawn.append((records, path)) or str(path))
    text, figs = S.summarize_theorem1(fixed + grown, tmp_path / "t1.png")
    assert figs == [str(tmp_path / "t1.png")] and drawn == [(fixed, tmp_path / "t1.png")]
    a, b = text.split("\n\n")
    assert _head(a) == ["series", "n", "reps", "excess loss", "sd", "per node", "tau*log(n)/n",
                        "k->inf limit", "descent ok"]
    grown_table = b.split("\n", 1)[1]
    assert _head(grown_table) == ["family", "norm", "n", "graphs", "runs", "tau/n", "floor/n"]
    assert _cols(grown_table) == [["ring", "rw", "64", "1", "1", "nan", "0.1"]]
    drawn.clear()
    assert S.summarize_theorem1(grown, tmp_path / "t1.png")[1] == [] and drawn == []


def test_a_store_summary_has_a_part_per_task_and_every_figure(tmp_path, monkeypatch):
    # Each task's summary in store order, joined by a blank line; a task without one says so
    # and the next still follows; the figures of every task, each beside the store by default.
    def table_of(recs, out):
        return f"table of {len(recs)}", [str(out)]

    monkeypatch.setattr(S, "_declared_summary", lambda task: None if task == "x" else table_of)
    path = tmp_path / "store.jsonl"
    recs = [rec("a", {"n": 1, "rep": 0}, {}), rec("a", {"n": 1, "rep": 1}, {}),
            rec("x", {"n": 1}, {}, seconds=None), rec("b", {"n": 1}, {}, seconds=0.5)]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    text, figs = S.summarize(path)
    assert text == ("## a: 2 cells, 2.0 s of cell time\ntable of 2\n\n"
                    "## x: 1 cell, 0.0 s of cell time\n(no summary for this task)\n\n"
                    "## b: 1 cell, 0.5 s of cell time\ntable of 1")
    assert figs == [str(tmp_path / "store-a.png"), str(tmp_path / "store-b.png")]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^--summary: '.*empty\.jsonl' holds no finished "
                                         r"cells$"):
        S.summarize(empty)
