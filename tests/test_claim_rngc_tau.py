"""rngc-tau: RNGC lowers τ (Def. 1's better direction), it does not "increase" it; the blockwise
rows of R_S agree with a dense R_S and with robust_propagate. rngc-edge-cost: the slope is
computed and the verdict logic reads it (no wall-clock value is asserted)."""

import math

import numpy as np
import pytest

from ngc_ref_theory import VERDICTS
from ngc_ref_theory.claims import rngc_tau

from ._claims import run_claims




def test_verdicts_scopes_and_reference():
    res = run_claims("rngc-tau")
    for norm in ("sym", "rw"):
        usage = res["rngc-tau:synthetic", norm]          # the paper's usage: τ decreases
        assert usage.verdict == "holds" and usage.scope == "extension"
        assert usage.evidence["reference_max_rel_diff"] < 1e-10
        lit = res["rngc-tau:literal", norm]              # τ as a number increases: erratum
        assert lit.verdict == "fails" and lit.scope == "erratum"
        assert "naming inversion" in lit.scope_reason
        assert "to increase the high-order graph connectivity factor" in lit.evidence["written"]
        assert "more uniformly distributed" in lit.evidence["meant"]
        assert "τ → 1" in lit.evidence["meant"]
        assert lit.evidence["meant_verdicts"] == {"rngc-tau:synthetic": "holds"}
        cor = res["rngc-tau-corrected", norm]
        assert cor.verdict == "holds"
        ratios = [c["tau_ratio"] for c in cor.evidence["cases"]]
        assert max(ratios) <= 1 + 1e-9 and min(ratios) < 0.95
    assert ("rngc-tau:paper-data", "sym") not in res          # no data folder here
    # Eq. 12's filter and Def. 1's τ are written with a generic Ã: as stated in both norms.
    for norm in ("sym", "rw"):
        sc = rngc_tau.PAPER_DATA.scope_for(norm)
        assert sc.name == "as-stated" and "more uniformly distributed" in sc.why


def test_planted_plus_sign_raises_tau(monkeypatch):
    real = rngc_tau.rngc_operator

    def plus(A, X, eps, norm):            # Ã + εP instead of Ã − εP: the wrong direction
        An, Xs, XT, c = real(A, X, eps, norm)
        return An, Xs, XT, -c
    monkeypatch.setattr(rngc_tau, "rngc_operator", plus)
    res = run_claims("rngc-tau")
    assert res["rngc-tau:synthetic", "rw"].verdict == "fails"
    assert res["rngc-tau:synthetic", "rw"].counterexample["tau_rngc"] > \
        res["rngc-tau:synthetic", "rw"].counterexample["tau_ngc"]
    assert res["rngc-tau:literal", "rw"].verdict == "holds"
    assert res["rngc-tau-corrected", "rw"].verdict == "fails"
    assert res["rngc-tau-corrected", "rw"].counterexample["tau_rngc"] > \
        res["rngc-tau-corrected", "rw"].counterexample["tau_ngc"]


def test_edge_cost_slope_is_computed(monkeypatch):
    monkeypatch.setattr(rngc_tau, "REPEATS", 1)
    real = rngc_tau.time_sizes
    monkeypatch.setattr(rngc_tau, "time_sizes", lambda ctx, counts, repeats=1: real(
        ctx, (2e3, 5e3, 1e4, 2e4), repeats))
    r = run_claims("rngc-edge-cost")["rngc-edge-cost", "sym"]
    assert r.verdict in VERDICTS and r.verdict != "error" and r.scope == "as-stated"
    lo, hi = r.evidence["slope_extra_over_ngc_step_ci"]
    assert math.isfinite(r.evidence["slope_extra_over_ngc_step"]) and lo <= hi
    assert [s["edges"] for s in r.evidence["sizes"]] == sorted(s["edges"]
                                                               for s in r.evidence["sizes"])


def test_edge_cost_verdict_logic():
    E = np.array([1e4, 3e4, 1e5, 3e5, 1e6])
    step = 1e-8 * E
    wiggle = np.array([1.0, 1.05, 0.97, 1.02, 0.99])
    assert rngc_tau.judge_cost(E, 3 * step * wiggle, step)[0] == "holds"       # ∝ |E|
    v, slope, _ = rngc_tau.judge_cost(E, 1e-12 * E ** 2 * wiggle, step)         # ∝ |E|²
    assert v == "fails" and slope == pytest.approx(1.0, abs=0.05)
    assert rngc_tau.judge_cost(E, step * E ** 0.35 * wiggle ** 8, step)[0] == "inconclusive"


def test_permutation_graph_is_simple_and_near_regular():
    A = rngc_tau.permutation_graph(1000, 4, np.random.default_rng(0))
    deg = np.asarray(A.sum(axis=1)).ravel()
    assert (A != A.T).nnz == 0 and A.diagonal().sum() == 0 and set(np.unique(A.data)) == {1.0}
    assert 7 <= deg.mean() <= 8 and deg.max() <= 8
