"""tau-linearity: Remark 2's bound is linear in τ (as stated, by construction: checked on a
symbolic τ); the noise per node is not proportional to τ across graphs (tau-linearity:measured,
our question), and that criterion says "holds" where it must: on vertex-transitive graphs
e/τ = m²/n exactly."""

import math

import numpy as np
import pytest

from ngc_ref import graphs, series_mass
from ngc_ref_theory.claims import tau_linearity as tl

from ._claims import assert_theory_rw_scopes, claim_fixture, run_claims


res = claim_fixture("tau-linearity")


def test_as_stated_bound_is_linear_in_tau(res):
    for norm in ("sym", "rw"):
        r = res["tau-linearity", norm]
        assert r.verdict == "holds"
        for a, b in r.evidence["symbolic"].values():
            assert a > 0 and b == 0.0
        assert max(r.evidence["bound_over_tau_max_rel_spread"].values()) <= tl.LINEAR_RTOL
    assert_theory_rw_scopes(res, "tau-linearity", "linear with respect to τ")


@pytest.mark.parametrize("bad", [lambda t, lam, S, s, n, d: t * t / n,          # quadratic
                                 lambda t, lam, S, s, n, d: t / n + 1.0,        # intercept
                                 lambda t, lam, S, s, n, d: math.log(t) / n])   # non-linear op
def test_planted_non_linear_bound_fails(monkeypatch, bad):
    monkeypatch.setattr(tl, "paper_bound", bad)
    r = run_claims("tau-linearity")["tau-linearity", "rw"]
    assert r.verdict == "fails" and r.counterexample


def test_linear_form_refuses_non_linear_operations():
    t = tl.Linear(1.0, 0.0)
    assert ((3 * t + 1) / 2).a == 1.5 and ((3 * t + 1) / 2).b == 0.5
    with pytest.raises(TypeError):
        t * t
    with pytest.raises(TypeError):
        math.log(t)


def test_verdicts_and_scopes(res):
    for norm in ("sym", "rw"):
        r = res["tau-linearity:measured", norm]
        assert r.verdict == "fails" and r.evidence["ratio_max_over_min"] > tl.RATIO_FAILS
        lo, hi = r.evidence["fits"]["loglog"]["exponent_ci"]
        assert hi < 1.0                                  # far from proportional
        assert r.counterexample["other_graph"]["ratio"] > r.counterexample["ratio"]
        assert r.scope == "extension" and "ours" in r.scope_reason
        assert "linear with respect to τ" in r.scope_reason
        assert r.evidence["criterion"].startswith("ours")


def test_planted_vertex_transitive_graphs_hold(monkeypatch):
    n = 400
    monkeypatch.setattr(tl, "graph_set", lambda ctx, n: {
        "ring": (graphs.ring(n), "ring"), "complete": (graphs.complete(n), "complete")})
    planted = run_claims("tau-linearity")
    for norm in ("sym", "rw"):
        r = planted["tau-linearity:measured", norm]
        assert r.verdict == "holds"
        for g in r.evidence["graphs"]:       # mean = max row energy: e/τ = m²/n exactly
            assert g["ratio"] == pytest.approx(series_mass(tl.LAM, tl.S) ** 2 / n, rel=1e-10)


def test_judge_thresholds():
    rows = [{"ratio": 1.0}, {"ratio": 1.4}]
    assert tl.judge(rows)[0] == "holds"
    assert tl.judge([{"ratio": 1.0}, {"ratio": 1.8}])[0] == "inconclusive"
    assert tl.judge([{"ratio": 1.0}, {"ratio": 2.5}])[0] == "fails"


# --- judges at their thresholds, pinned numbers (issue 34) -----------------------------------

def test_thresholds_are_the_statement_ones():
    assert (tl.RATIO_HOLDS, tl.RATIO_FAILS, tl.LINEAR_RTOL, tl.MC_REL) == (1.5, 2.0, 1e-12, 0.25)


def test_judge_at_each_ratio_threshold():
    up = lambda x: np.nextafter(x, np.inf)                  # noqa: E731
    for hi, verdict in ((tl.RATIO_HOLDS, "holds"), (up(tl.RATIO_HOLDS), "inconclusive"),
                        (tl.RATIO_FAILS, "inconclusive"), (up(tl.RATIO_FAILS), "fails")):
        v, spread, lo, top = tl.judge([{"ratio": 1.0}, {"ratio": hi}, {"ratio": 1.2}])
        assert (v, spread, lo["ratio"], top["ratio"]) == (verdict, hi, 1.0, hi)


def test_linear_holds_at_each_condition():
    tol = tl.LINEAR_RTOL
    ok = {"lemma_1_bound": (0.5, 0.0), "theorem_1_second_term": (0.1, 0.0)}
    assert tl.linear_holds(ok, {"a": tol, "b": 0.0})
    assert not tl.linear_holds(ok, {"a": np.nextafter(tol, 1), "b": 0.0})
    assert not tl.linear_holds(dict(ok, lemma_1_bound=(0.5, 1e-300)), {"a": 0.0})   # intercept
    assert not tl.linear_holds(dict(ok, lemma_1_bound=(0.0, 0.0)), {"a": 0.0})      # a > 0
    assert not tl.linear_holds({"error": "not linear"}, {"a": 0.0})


def test_monte_carlo_agreement_at_its_tolerance():
    assert tl.mc_agrees(tl.MC_REL) and tl.mc_agrees(0.0)
    assert not tl.mc_agrees(np.nextafter(tl.MC_REL, 1))


def test_pinned_numbers(res):

    from threadpoolctl import threadpool_limits

    from ngc_ref_theory import Context

    from ._reference import neumann
    n, m2 = 400, (1 - (32 / 33) ** 17) ** 2
    graphs = tl.graph_set(Context(seed=0), n)
    for norm in ("sym", "rw"):
        sym = res["tau-linearity", norm].evidence["symbolic"]
        # Lemma 1's bound 2τm²σ²(4 log n + log 2d)/n at d = 8, σ = 1; Eq. 13's τ log n/n
        assert sym["lemma_1_bound"] == pytest.approx(
            [2 * m2 * (4 * math.log(n) + math.log(16)) / n, 0.0], rel=1e-12)
        assert sym["theorem_1_second_term"] == pytest.approx([math.log(n) / n, 0.0], rel=1e-12)
        ev = res["tau-linearity:measured", norm].evidence
        # the highest ratio: a vertex-transitive graph, all rows equal, ratio m²/n exactly
        assert ev["highest_ratio"]["ratio"] == pytest.approx(m2 / n, rel=1e-10)
        # the lowest: its per-node energy and τ from a dense Ã_S
        low = ev["lowest_ratio"]
        with threadpool_limits(limits=1):
            M = neumann(graphs[low["graph"]][0].toarray(), 32.0, 16, norm)
        rho = (M ** 2).sum(axis=1)
        tau = n * rho.max() / m2
        assert low["tau"] == pytest.approx(tau, rel=1e-10)
        assert low["ratio"] == pytest.approx(rho.mean() / tau, rel=1e-10)
        assert ev["ratio_max_over_min"] == pytest.approx(m2 / n / (rho.mean() / tau), rel=1e-9)
