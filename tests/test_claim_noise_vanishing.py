"""noise-vanishing: at fixed λ the per-node noise energy Σρ_i/n stays above 1/(λ+1)² for every
graph; with λ = √n it decays on the families inside the hypotheses; the total never vanishes."""

import numpy as np
import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.claims import noise_vanishing as nv

from ._claims import (assert_theory_rw_scopes, assert_worst_verdict_of_families, claim_fixture,
                      run_claims)

FEW = {k: nv.FAMILIES[k] for k in ("ring", "complete", "random_regular_4", "star")}


results = claim_fixture("noise-vanishing")


def test_verdicts_and_scopes(results):
    floor = 1.0 / (nv.LAM + 1.0) ** 2
    for norm in ("sym", "rw"):
        own = results["noise-vanishing", norm]
        assert own.verdict == "fails"
        for fam in own.evidence["families"].values():
            assert min(fam["per_node_energy"]) >= floor * (1 - 1e-12)
        assert own.evidence["dense_spectral_reference_vs_connectivity_factor_rel_diff"] < 1e-10
        assert results["noise-vanishing-corrected:sqrt-n", norm].verdict == "holds"
        outside = results["noise-vanishing-corrected:sqrt-n", norm].evidence[
            "outside_the_hypotheses"]
        assert "star" in outside                      # a hub keeps a constant share
        assert results["noise-vanishing-corrected:total", norm].verdict == "holds"
    assert_theory_rw_scopes(results, "noise-vanishing", "the stochasticity tends to diminish")


def test_complete_graph_closed_form_matches_the_library():
    import networkx as nx

    from ngc_ref import connectivity_factor
    for lam, S in ((32.0, 16), (10.0, 21)):
        got = connectivity_factor(nx.complete_graph(50), lam, S, norm="rw").row_square_sums[0]
        assert nv.complete_rho(50, lam, S) == pytest.approx(got, rel=1e-12)


def test_planted_fixed_lambda_schedule_fails_the_sqrt_n_statement(monkeypatch):
    monkeypatch.setattr(nv, "FAMILIES", FEW)
    monkeypatch.setattr(nv, "grown_lam_S", lambda n: (nv.LAM, nv.S))   # λ no longer grows
    res = run_claims("noise-vanishing-corrected:sqrt-n")
    r = res["noise-vanishing-corrected:sqrt-n", "rw"]
    assert r.verdict == "fails" and r.counterexample["family"] in ("ring", "complete",
                                                                   "random_regular_4")


def test_planted_energy_below_the_floor_is_caught(monkeypatch):
    monkeypatch.setattr(nv, "FAMILIES", FEW)
    real = nv.complete_rho
    monkeypatch.setattr(nv, "complete_rho", lambda n, lam, S: 0.1 * real(n, lam, S))
    res = run_claims("noise-vanishing")
    assert res["noise-vanishing", "rw"].verdict == "inconclusive"       # below a proven floor
    assert res["noise-vanishing-corrected:total", "rw"].verdict == "fails"


# --- judges at their thresholds and pinned numbers (issue 34) ------------------------------

def test_below_floor_at_the_rounding_threshold():
    floor = 1.0 / (nv.LAM + 1.0) ** 2
    at = floor * (1 - nv.ROUND)
    assert not nv.below_floor(at, floor) and not nv.below_floor(floor, floor)
    assert nv.below_floor(np.nextafter(at, 0), floor)
    assert not nv.below_floor(1.0, 1.0) and nv.below_floor(1 - 2 * nv.ROUND, 1.0)


def test_total_floor_takes_the_rw_bound_where_it_is_larger():
    row = {"n": 4, "lam": 1.0, "rw_total_floor": 0.75 ** 2}
    assert nv.total_floor(row, "sym") == 1.0 == nv.total_floor(row, "rw")   # n/(λ+1)² = 1
    row = dict(row, n=1)
    assert nv.total_floor(row, "sym") == 0.25 and nv.total_floor(row, "rw") == 0.5625


def test_the_sqrt_n_statement_is_the_worst_verdict_of_the_families_inside():
    assert_worst_verdict_of_families(lambda series: nv._grown_result(
        Context(), "rw", {f: (None, rows) for f, rows in series.items()}, []), "per_node_energy")


def test_judge_grown_reads_the_per_node_energy_along_n():
    rows = [{"n": n, "per_node_energy": 1.0 / n} for n in (100, 200, 400, 800)]
    assert nv.judge_grown(rows).verdict == "holds"
    assert nv.judge_grown(rows).slope == pytest.approx(-1.0)
    flat = [dict(r, per_node_energy=0.5) for r in rows]
    assert nv.judge_grown(flat).verdict == "fails"


def _complete_rho(n, lam, S):
    """ρ_i of K_n: Ã = J/n, so Ã_S = uI + (c/n)J with u = 1/(λ+1), c = Σ_{1≤s≤S} r^s/(λ+1)."""
    r = lam / (lam + 1)
    u, c = 1 / (lam + 1), sum(r ** s for s in range(1, S + 1)) / (lam + 1)
    return (u + c / n) ** 2 + (n - 1) * (c / n) ** 2


def test_pinned_numbers(results):
    import networkx as nx

    from ._reference import neumann
    ring = nx.to_numpy_array(nx.cycle_graph(100))
    for norm in ("sym", "rw"):
        own = results["noise-vanishing", norm].evidence
        assert own["floor_per_node"] == pytest.approx(1 / 33 ** 2, rel=1e-15)
        comp = own["families"]["complete"]
        assert comp["per_node_energy"] == pytest.approx(
            [_complete_rho(n, 32.0, 16) for n in comp["n"]], rel=1e-12)
        # the ring's rows do not wrap around at S = 16 < n/2: the same ρ_i at every n
        rho = (neumann(ring, 32.0, 16, norm) ** 2).sum(axis=1).mean()
        assert own["families"]["ring"]["per_node_energy"] == pytest.approx([rho] * 4, rel=1e-12)
        grown = results["noise-vanishing-corrected:sqrt-n", norm].evidence["families"]["ring"]
        first = grown["series"][0]                        # n = 100: λ = 10, S = 20
        assert (first["lam"], first["S"]) == (10.0, 20)
        assert first["floor_per_node"] == pytest.approx(1 / 11 ** 2, rel=1e-15)
        assert first["rw_total_floor"] == pytest.approx((1 - (10 / 11) ** 21) ** 2, rel=1e-14)
        assert first["per_node_energy"] == pytest.approx(
            (neumann(ring, 10.0, 20, norm) ** 2).sum(axis=1).mean(), rel=1e-12)
        total = results["noise-vanishing-corrected:total", norm].evidence["closest"]
        assert (total["family"], total["n"], total["lam"], total["S"]) == (
            "complete", 800, 32.0, 16)
        assert total["total_energy"] == pytest.approx(800 * _complete_rho(800, 32.0, 16),
                                                      rel=1e-12)
        assert total["floor"] == pytest.approx(800 / 33 ** 2, rel=1e-15)


def test_rounding_threshold_is_the_documented_one():
    assert nv.ROUND == 1e-12       # "relative 1e-12" (the total's evidence)
