"""noise-vanishing: at fixed λ the per-node noise energy Σρ_i/n stays above 1/(λ+1)² for every
graph; with λ = √n it decays on the families inside the hypotheses; the total never vanishes."""

import pytest

from ngc_ref_theory.claims import noise_vanishing as nv

from ._claims import assert_theory_rw_scopes, run_claims

FEW = {k: nv.FAMILIES[k] for k in ("ring", "complete", "random_regular_4", "star")}


def _run(only="noise-vanishing"):
    return run_claims(only)


@pytest.fixture(scope="module")
def results():
    return _run()


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
    res = _run("noise-vanishing-corrected:sqrt-n")
    r = res["noise-vanishing-corrected:sqrt-n", "rw"]
    assert r.verdict == "fails" and r.counterexample["family"] in ("ring", "complete",
                                                                   "random_regular_4")


def test_planted_energy_below_the_floor_is_caught(monkeypatch):
    monkeypatch.setattr(nv, "FAMILIES", FEW)
    real = nv.complete_rho
    monkeypatch.setattr(nv, "complete_rho", lambda n, lam, S: 0.1 * real(n, lam, S))
    res = _run()
    assert res["noise-vanishing", "rw"].verdict == "inconclusive"       # below a proven floor
    assert res["noise-vanishing-corrected:total", "rw"].verdict == "fails"
