"""The one ``theorem1`` sweep task: its two settings (a contextual SBM at fixed λ, a λ = √n
family with τ and a batch of noise draws), the former ``theorem1_hyp`` as its alias, and the
SBM by expected degrees it draws from the library."""

import numpy as np
import pytest

from ngc_ref.graphs import sbm
from ngc_ref.graphs.stochastic import sbm_degree_probabilities, sbm_degrees
from ngc_ref_theory.sweep import make_cell, parse_config, run_sweep
from ngc_ref_theory.sweep.summary import summarize
from ngc_ref_theory.sweep.theorem1 import hyp_graph, hyp_noise_seed, hyp_run

CSBM = {"n": 100, "noise_std": 0.5}
GROWN = {"family": "ring", "n": 64, "graph_seed": 3, "eta_seed": 5, "draws": 2, "steps": 20,
         "noise_std": 1.0}


def test_a_csbm_cell_is_the_cell_the_former_task_stored():
    # The id hashes (task, parameters, sweep seed): the same id means the same seeds, so a
    # store of the former theorem1 task is resumed, not recomputed. The λ = √n parameters are
    # dropped from a csbm cell; the id is the one the former task gave (a sha256, exact).
    cell = make_cell("theorem1", CSBM)
    assert "family" not in cell.params and "draws" not in cell.params
    assert cell.id == "10595c86c49cffde"


def test_a_grown_cell_carries_its_setting_only():
    cell = make_cell("theorem1", GROWN)
    assert not {"k", "deg_in", "deg_out", "d", "signal", "lam", "S"} & set(cell.params)
    assert cell.params["family"] == "ring" and cell.params["exact_max_cost"] == 1e10


def test_the_former_task_is_an_alias_with_its_defaults_and_sigma():
    old = dict(GROWN, sigma=GROWN["noise_std"])
    del old["noise_std"], old["steps"]
    cell = make_cell("theorem1_hyp", old)
    assert cell == make_cell("theorem1", dict(GROWN, steps=200))
    assert cell.task == "theorem1"


@pytest.mark.parametrize("params, named", [
    (dict(CSBM, draws=3), "draws"),
    (dict(CSBM, exact_max_cost=0.0), "exact_max_cost"),
    (dict(GROWN, lam=4.0), "lam"),
    (dict(GROWN, k=3), "k"),
])
def test_a_parameter_of_the_other_setting_is_refused(params, named):
    with pytest.raises(ValueError, match=f"'{named}'.*do not apply"):
        make_cell("theorem1", params)


def test_unknown_family_and_too_small_n_are_refused():
    with pytest.raises(ValueError, match="family"):
        make_cell("theorem1", dict(GROWN, family="no_such_family"))
    with pytest.raises(ValueError, match="n must be >= 8"):
        make_cell("theorem1", dict(GROWN, n=6))


def test_a_grown_cell_runs_what_the_claim_runs():
    # The claim's in-process runs and the --thorough cells: the same graph from graph_seed,
    # draw r's noise from (eta_seed, r), the same GD run (same functions, same process).
    rec = run_sweep([("theorem1", GROWN)], n_jobs=1)[0]["result"]
    A, _, X, Y, graph = hyp_graph("ring", 64, 3)
    assert rec["graph"]["n"] == graph["n"] and rec["graph"]["method"] == "one-node"
    for r, run in enumerate(rec["runs"]):
        eta = np.random.default_rng(hyp_noise_seed(5, r)).standard_normal(X.shape)
        want = hyp_run(A, X, Y, eta, "rw", graph["lam"], graph["S"], 20)
        assert run["floor"] == want["floor"] and run["noise_seed"] == hyp_noise_seed(5, r)
    assert len(rec["runs"]) == 2


def test_a_config_keeps_an_alias_defaults():
    # A config naming an alias gets the alias's defaults (lemma1_trials: draws only).
    sweep = parse_config({"task": "lemma1_trials", "params": {"family": "ring", "trials": 3},
                          "grid": {"n": [20, 30]}})
    assert sweep.task == "lemma1"
    assert all(c.params["bounds"] is False and c.params["draws"] is True for c in sweep.cells)


def test_summary_of_both_settings(tmp_path):
    out = tmp_path / "t1.jsonl"
    run_sweep([("theorem1", dict(CSBM, steps=5)), ("theorem1", dict(GROWN, steps=5))],
              out=out, n_jobs=1)
    text, figs = summarize(out, plots=False)
    assert "excess loss" in text and "λ = √n" in text and "ring" in text
    assert figs == []


def test_sbm_degrees_is_the_sbm_of_its_probabilities():
    p_in, p_out = sbm_degree_probabilities(301, 3, 6.0, 2.0)
    assert (p_in, p_out) == (6.0 / 99, 2.0 / 200)
    A, y = sbm_degrees(301, 3, 6.0, 2.0, seed=4)
    B, z = sbm(300, 3, p_in, p_out, seed=4)
    assert (A != B).nnz == 0 and np.array_equal(y, z)
    assert sbm_degree_probabilities(8, 4, 50.0, 50.0) == (1.0, 1.0)   # capped at 1
    with pytest.raises(ValueError, match="deg_in"):
        sbm_degree_probabilities(10, 2, -1.0, 1.0)
