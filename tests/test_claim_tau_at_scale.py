"""tau-at-scale and case-study:5-at-scale: at the paper's fixed λ, S, τ grows with n even on the
complete graph (the floor τ ≥ n/((λ+1)m)², the closed form τ(K_n) = 1 + (n−1)/((λ+1)m)²), λ ∝ n
restores τ → 1 while λ = √n does not, and insight 5 ('the larger graph denoises better') fails
within Figure 1's own families."""

import math

import networkx as nx
import numpy as np
import pytest

from ngc_ref import connectivity_factor, graphs, series_mass
from ngc_ref_theory._bounds import floor_tau_over_n
from ngc_ref_theory._common import dense_norm_adj
from ngc_ref_theory.claims import case_study, tau_at_scale as tas

from ._claims import run_claims


def _dense_A_S(A, lam, S, norm):
    """Ã_S by its definition (Eq. 4), dense: the reference."""
    An = dense_norm_adj(A, norm)
    r = lam / (lam + 1)
    M, P = np.zeros_like(An), np.eye(An.shape[0])
    for _ in range(S + 1):
        M, P = M + P, r * An @ P
    return M / (lam + 1)


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("n,lam,S", [(4, 64.0, 64), (9, 32.0, 16), (17, 2.0, 3)])
def test_complete_closed_form_against_the_definition(norm, n, lam, S):
    M = _dense_A_S(graphs.complete(n), lam, S, norm)
    tau = n * (M ** 2).sum(axis=1).max() / series_mass(lam, S) ** 2
    assert tau == pytest.approx(tas.complete_tau(n, lam, S), rel=1e-12)
    assert (M ** 2).sum(axis=1)[0] == pytest.approx(tas.complete_row_energy(n, lam, S), rel=1e-12)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_floor_holds_on_random_graphs_in_both_norms(norm):
    rng = np.random.default_rng(0)
    for k in range(6):
        G = nx.gnp_random_graph(12, rng.uniform(0.1, 0.9), seed=k)
        A = nx.to_scipy_sparse_array(G, format="csr", dtype=float)
        for lam, S in ((64.0, 64), (32.0, 16), (1.0, 2)):
            M = _dense_A_S(A, lam, S, norm)
            assert np.diag(M).min() >= 1 / (lam + 1) - 1e-15      # the s = 0 term
            tau = connectivity_factor(A, lam, S, norm=norm).tau
            assert tau >= 12 * floor_tau_over_n(lam, S) * (1 - 1e-12)




def test_tau_at_scale_verdicts_scopes_and_words():
    res = run_claims("tau-at-scale")
    rw, sym = res["tau-at-scale", "rw"], res["tau-at-scale", "sym"]
    assert rw.verdict == "fails" and rw.scope == "as-stated"
    assert "τ → 1" in rw.scope_reason and "τ is close to 1" in rw.scope_reason
    assert sym.scope == "extension"
    ev = rw.evidence
    assert max(ev["closed_form_vs_library_max_rel_diff"].values()) < 1e-10
    big = ev["complete"]["λ=64,S=64"][-1]
    assert big["tau"] > 600 and big["tau"] >= big["floor"]           # K_(2^20) at λ = S = 64
    assert ev["n_where_tau_K_n_reaches"]["λ=64,S=64"]["2"] == 1705
    assert ev["dense_loglog_slope_tau_vs_n"]["λ=32,S=16"] > 0.3
    for r in ev["dense_gnp_half"]["λ=32,S=16"]:
        assert r["tau_lower"] >= r["floor"]
    rerun = rw.counterexample["rerun"]
    assert "--only tau-at-scale --seed 0 --out ngc_ref_rerun/tau-at-scale" in rerun
    for norm in ("sym", "rw"):
        lam = res["tau-at-scale:lambda", norm]
        assert lam.verdict == "holds" and lam.scope == "extension"
        assert lam.evidence["sqrt_n_limit_on_K_n"] == pytest.approx(
            1 + 1 / (1 - math.exp(-2)) ** 2)


def test_planted_wrong_closed_form_is_caught(monkeypatch):
    # a τ(K_n) that does not grow with n (the reading the old "K8 τ → 1.00002" suggests)
    monkeypatch.setattr(tas, "complete_tau", lambda n, lam, S: 1 + floor_tau_over_n(lam, S))
    r = run_claims("tau-at-scale")["tau-at-scale", "rw"]
    assert r.verdict == "inconclusive"


def test_insight_5_at_scale():
    res = run_claims("case-study")
    r = res["case-study:5-at-scale", "rw"]
    assert r.verdict == "fails" and r.scope == "as-stated"
    assert "the graph with a larger size has a better denoising effect" in r.evidence["words"]
    ce = r.counterexample
    assert ce["family"] == "star" and (ce["n_small"], ce["n_large"]) == (4, 8)
    assert ce["tau_log_n_over_n_large"] > ce["tau_log_n_over_n_small"]
    fams = r.evidence["families"]
    assert set(r.evidence["smallest_rise_per_family"]) == {"complete", "ring", "star"}
    floor = r.evidence["control_floor"]
    for rows in fams.values():          # the control never goes below its floor
        assert min(x["noise_per_node_over_no_aggregation"] for x in rows) >= floor * (1 - 1e-12)
    # Figure 1's own pair is unchanged: G4 (ring 8) below G3 (K4)
    assert res["case-study:5", "rw"].verdict == "holds"


def test_planted_decreasing_families_hold(monkeypatch):
    monkeypatch.setattr(case_study, "family_at_scale", lambda f, n, norm: {
        "n": n, "tau": 1.0, "tau_log_n_over_n": 1.0 / n,
        "noise_per_node_over_no_aggregation": 1.0})
    r = run_claims("case-study")["case-study:5-at-scale", "rw"]
    assert r.verdict == "holds"
