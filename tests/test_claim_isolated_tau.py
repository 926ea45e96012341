"""isolated-tau: one isolated node already gives τ = n (K2 + K1), so the paper's "only if all
nodes are isolated" fails; τ = n exactly when some node is isolated; the data part reads the
isolated nodes of each data set."""

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp

from ngc_ref import connectivity_factor
from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.claims import isolated_tau

from ._claims import assert_theory_rw_scopes


@pytest.fixture(scope="module")
def results():
    ctx = Context(seed=0)
    res = run_checks(ctx, only=["isolated-tau"], progress=False)
    return {(r.id, r.norm): r for r in res}, ctx


def test_minimal_counterexample_by_construction():
    A = isolated_tau.edge_plus_isolated()
    for norm in ("rw", "sym"):
        res = connectivity_factor(A, 32.0, 16, norm=norm)
        assert res.tau == pytest.approx(3.0, rel=1e-12) and res.argmax == 2
        assert res.tau_i[0] < 3.0 * (1 - 1e-3)          # the edge's nodes stay below n


def test_verdicts_and_scopes(results):
    by, ctx = results
    for norm in ("sym", "rw"):
        own = by["isolated-tau", norm]
        assert own.verdict == "fails"
        # The headline is the minimal case with S ≥ 1 (at S = 0 every graph has τ = n):
        # K2 + K1 (the atlas numbers the isolated node 0), λ = 1, S = 1, τ = 3 exactly.
        ce, mc = own.counterexample, own.minimal_counterexample
        assert ce["graph"]["n"] == 3 and ce["graph"]["edges"] == [[1, 2]]
        assert (ce["lam"], ce["S"]) == (1.0, 1) and ce["exact"]["τ"] == "3"
        assert (mc["n"], mc["edges"], mc["S"], mc["certified"]) == (3, [[1, 2]], 1, "exact")
        assert own.summary.split(": ", 2)[1] == "τ = n exactly on a graph with an edge"
        assert "(exact; the smallest case with S ≥ 1, n ≥ 2)" in own.summary
        # The degenerate minimum (K2 at S = 0) is beside it, labelled.
        low = mc["degenerate_minimal"]
        assert (low["n"], low["edges"], low["S"]) == (2, [[0, 1]], 0)
        assert low["label"].startswith("degenerate")
        dg = own.search["degenerate"]
        assert dg["graphs_failing_only_there"] > 1000      # the graphs that fail only at S = 0
        assert own.search["failing_graphs"] < 300           # those with an isolated node
        assert by["isolated-tau-corrected", norm].verdict == "holds"
        assert by["isolated-tau-corrected", norm].scope == "extension"
    assert_theory_rw_scopes(by, "isolated-tau", "Only if all nodes of a graph are isolated")
    # No data folder: the data part is not reported, and the skip list says why.
    assert ("isolated-tau:paper-data", "rw") not in by
    assert any(s["claim"] == "isolated-tau" and s["why"] == "NGC_REF_DATA is not set"
               and "Citeseer" in s["what"] for s in ctx.skipped)


def _fake_data(graphs):
    return lambda ctx, names=None: {k: SimpleNamespace(adjacency=A) for k, A in graphs.items()}


def test_data_part_on_known_graphs(monkeypatch):
    path = sp.csr_array(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    monkeypatch.setattr(isolated_tau, "load", _fake_data({"citeseer": isolated_tau.
                                                          edge_plus_isolated(), "cora": path}))
    res = run_checks(Context(seed=0), only=["isolated-tau:paper-data"], progress=False)
    by = {(r.id, r.norm): r for r in res}
    r = by["isolated-tau:paper-data", "rw"]
    assert r.verdict == "fails" and r.scope == "as-stated"
    assert r.counterexample["dataset"] == "citeseer" and r.counterexample["isolated_nodes"] == [2]
    table = {(d["graph"], d["lam"]): d for d in r.evidence["datasets"]}
    assert table["citeseer", 32.0]["tau_over_n"] == pytest.approx(1.0, abs=1e-12)
    assert table["cora", 32.0]["isolated_nodes"] == 0 and table["cora", 32.0]["tau_over_n"] < 1

    monkeypatch.setattr(isolated_tau, "load", _fake_data({"cora": path}))
    res = run_checks(Context(seed=0), only=["isolated-tau:paper-data"], progress=False)
    assert {r.verdict for r in res} == {"holds"}


def test_planted_non_isolated_node_at_n_fails_the_corrected_statement(monkeypatch):
    real = isolated_tau.dense_tau_i

    def planted(A, lam, S, norm):
        ti = real(A, lam, S, norm)
        deg = np.asarray(sp.csr_array(A).sum(axis=1)).ravel()
        if (deg > 0).any():
            ti[np.flatnonzero(deg > 0)[0]] = A.shape[0]      # a node with a neighbour at n
        return ti
    monkeypatch.setattr(isolated_tau, "dense_tau_i", planted)
    res = run_checks(Context(seed=0), only=["isolated-tau-corrected"], progress=False)
    assert {r.verdict for r in res} == {"fails"}
    assert all(r.counterexample["rerun"].startswith("ngc-ref check --only isolated-tau")
               for r in res)


# ---------------------------------------------------------------------------------------------
# the judges at their tolerances (EQ_TOL = 1e-12, GAP = 1e-9) and the headline number by hand

UP, DOWN = np.inf, -np.inf


def test_reaches_n_and_own_verdict_at_eq_tol():
    t = isolated_tau.EQ_TOL
    assert t == 1e-12 and isolated_tau.GAP == 1e-9
    assert isolated_tau.reaches_n({"tau_over_n": 1.0})
    assert isolated_tau.reaches_n({"tau_over_n": 1.0 - 2.0 ** -40})          # 9.1e-13 ≤ 1e-12
    assert not isolated_tau.reaches_n({"tau_over_n": 1.0 - 2.0 ** -39})      # 1.8e-12 > 1e-12
    assert isolated_tau.reaches_n({"tau_over_n": 1.0 + 2.0 ** -40})
    assert not isolated_tau.reaches_n({"tau_over_n": 1.0 + 2.0 ** -39})
    assert isolated_tau.own_verdict(t) == "fails"
    assert isolated_tau.own_verdict(np.nextafter(t, UP)) == "inconclusive"
    assert isolated_tau.own_verdict(0.0) == "fails"


def _crow(iso=None, non=None):
    return {"isolated_tau_i_over_n": iso, "max_non_isolated_tau_i_over_n": non}


def test_corrected_failures_at_their_thresholds():
    ok = [_crow((1.0 - 2.0 ** -40, 1.0 + 2.0 ** -40), None), _crow(None, 1.0 - 1e-9),
          _crow(None, np.nextafter(1.0 - 1e-9, DOWN)), _crow(None, None)]
    assert isolated_tau.corrected_failures(ok) == ([], [])
    off_lo, off_hi = _crow((1.0 - 2.0 ** -39, 1.0), 0.5), _crow((1.0, 1.0 + 2.0 ** -39), None)
    at_n = _crow(None, np.nextafter(1.0 - 1e-9, UP))
    assert isolated_tau.corrected_failures([off_lo, at_n, off_hi]) == ([off_lo, off_hi], [at_n])


def test_corrected_headline_is_k2_at_lam_half_by_hand(results):
    """The largest τ_i/n of a non-isolated node is K2's at λ = 1/2, S = 3: Ã = J/2, r = 1/3,
    m = 80/81, Ã_3 = (2/3)I + (26/81)J/2, a row (67/81, 13/81): τ_i/n = (67² + 13²)/81²/m² =
    4658/6400."""
    from fractions import Fraction
    m = 1 - Fraction(1, 3) ** 4
    row = (Fraction(2, 3) + (m - Fraction(2, 3)) / 2, (m - Fraction(2, 3)) / 2)
    value = (row[0] ** 2 + row[1] ** 2) / m ** 2
    assert value == Fraction(4658, 6400)
    by, _ctx = results
    for norm in ("sym", "rw"):
        c = by["isolated-tau-corrected", norm].evidence["closest_non_isolated"]
        assert (c["n"], c["lam"], c["S"]) == (2, 0.5, 3)
        assert c["max_non_isolated_tau_i_over_n"] == pytest.approx(float(value), rel=1e-13, abs=0)


def test_only_if_test_at_its_threshold():
    """The atlas test: τ ≥ n(1 − 1e-12) on a graph with an edge is a counterexample; all
    isolated nodes (Remark 1's own case) or τ just below that is not."""
    edge = np.array([[[0.0, 1.0], [1.0, 0.0]]])
    empty = np.zeros((1, 2, 2))

    def cells(A, tau):
        return SimpleNamespace(stack=SimpleNamespace(A=A), n=2, tau=np.array([[tau]]))
    at = 2 * (1 - 1e-12)
    assert isolated_tau.only_if_test(cells(edge, at))[0][0, 0]
    assert not isolated_tau.only_if_test(cells(edge, np.nextafter(at, DOWN)))[0][0, 0]
    assert not isolated_tau.only_if_test(cells(empty, 2.0))[0][0, 0]
    assert isolated_tau.only_if_test(cells(edge, 2.0))[1][0, 0] == 1.0
