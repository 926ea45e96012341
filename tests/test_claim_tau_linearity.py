"""tau-linearity: the noise per node is not proportional to τ across graphs (Remark 2), and the
criterion says "holds" where it must: on vertex-transitive graphs e/τ = m²/n exactly."""

import pytest

from ngc_ref import graphs, series_mass
from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.claims import tau_linearity as tl


def _run():
    return {(r.id, r.norm): r for r in run_checks(Context(seed=0), only=["tau-linearity"],
                                                  progress=False)}


def test_verdicts_and_scopes():
    res = _run()
    for norm in ("sym", "rw"):
        r = res["tau-linearity", norm]
        assert r.verdict == "fails" and r.evidence["ratio_max_over_min"] > tl.RATIO_FAILS
        lo, hi = r.evidence["fits"]["loglog"]["exponent_ci"]
        assert hi < 1.0                                  # far from proportional
        assert r.counterexample["other_graph"]["ratio"] > r.counterexample["ratio"]
    assert res["tau-linearity", "rw"].scope == "as-stated"
    assert "linear with respect to τ" in res["tau-linearity", "rw"].scope_reason
    assert res["tau-linearity", "sym"].scope == "extension"


def test_planted_vertex_transitive_graphs_hold(monkeypatch):
    n = 400
    monkeypatch.setattr(tl, "graph_set", lambda ctx, n: {
        "ring": (graphs.ring(n), "ring"), "complete": (graphs.complete(n), "complete")})
    res = _run()
    for norm in ("sym", "rw"):
        r = res["tau-linearity", norm]
        assert r.verdict == "holds"
        for g in r.evidence["graphs"]:       # mean = max row energy: e/τ = m²/n exactly
            assert g["ratio"] == pytest.approx(series_mass(tl.LAM, tl.S) ** 2 / n, rel=1e-10)


def test_judge_thresholds():
    rows = [{"ratio": 1.0}, {"ratio": 1.4}]
    assert tl.judge(rows)[0] == "holds"
    assert tl.judge([{"ratio": 1.0}, {"ratio": 1.8}])[0] == "inconclusive"
    assert tl.judge([{"ratio": 1.0}, {"ratio": 2.5}])[0] == "fails"
