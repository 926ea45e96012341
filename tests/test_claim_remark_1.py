"""Remark 1 sentence by sentence (tau-range:reaches-lower, :lower-limit, :reaches-upper), each
against a dense or exact reference written here."""

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.exact import certificates as ex
from ngc_ref_theory.exact.atlas import graph_name
from ngc_ref_theory.claims import tau_range

from ._reference import neumann
from ._reference import tau_i as dense_tau_i


@pytest.fixture(scope="module")
def remark_1():
    """The three results in both norms (their functions called directly: the range check of
    the claim's own statement is not needed here)."""
    ctx = Context(seed=0)
    return {(r.id, norm): r for norm in ("sym", "rw")
            for r in (tau_range.reaches_lower(ctx, norm), tau_range.lower_limit(ctx, norm),
                      tau_range.reaches_upper(ctx, norm))}


def test_k2_by_hand():
    # K2, λ = S = 1: Ã = J/2, r = 1/2, Ã_1 = (I + Ã/2)/2 = [[5/8, 1/8], [1/8, 5/8]], m = 3/4
    rho = Fraction(5, 8) ** 2 + Fraction(1, 8) ** 2
    assert 2 * rho / Fraction(3, 4) ** 2 == Fraction(13, 9) == ex.complete_tau(2, 1, 1)
    assert ex.tau_i(2, [[0, 1]], 1, 1, "rw") == [Fraction(13, 9)] * 2


@pytest.mark.parametrize("n", [2, 3, 5, 8])
@pytest.mark.parametrize("lam,S", [(0.5, 1), (1.0, 3), (32.0, 16), (64.0, 64)])
def test_complete_graph_closed_form_against_dense(n, lam, S):
    A = nx.to_numpy_array(nx.complete_graph(n))
    for norm in ("sym", "rw"):
        ti = dense_tau_i(A, lam, S, norm)
        assert np.allclose(ti, float(ex.complete_tau(n, lam, S)), rtol=1e-12, atol=0)


def test_reaches_lower_fails_on_k2_exactly(remark_1):
    for norm in ("sym", "rw"):
        r = remark_1["tau-range:reaches-lower", norm]
        assert r.verdict == "fails"
        mc = r.minimal_counterexample
        assert (mc["n"], mc["edges"], mc["lam"], mc["S"]) == (2, [[0, 1]], 1.0, 1)
        assert mc["exact"]["τ_0"] == mc["exact"]["τ_1"] == "13/9"
        assert r.counterexample["graph"]["name"].startswith("K2 ")
        assert r.evidence["rows_attaining_the_bound_anywhere_in_range"] == 0
    assert remark_1["tau-range:reaches-lower", "rw"].scope == "as-stated"
    # the closest approach in rw: its τ_i recomputed densely
    close = remark_1["tau-range:reaches-lower", "rw"].evidence["closest_approach"]
    A = np.zeros((close["n"], close["n"]))
    for u, v in close["edges"]:
        A[u, v] = A[v, u] = 1
    ti = dense_tau_i(A, close["lam"], close["S"], "rw")
    assert ti.min() == pytest.approx(close["min_i_tau_i"], rel=1e-12) and ti.min() > 1


def test_off_diagonal_can_exceed_the_diagonal():
    # why no diagonal argument covers every graph: star K1,6 leaf row at λ = S = 64 (rw)
    M = neumann(nx.to_numpy_array(nx.star_graph(6)), 64.0, 64, "rw")
    assert M[1, 0] == pytest.approx(0.2297, abs=1e-4) and M[1, 1] == pytest.approx(0.0928,
                                                                                    abs=1e-4)


def test_uniform_row_needs_n_below_the_filter_mass():
    assert tau_range._proof_covers(1, 1, 2)           # S = 1: (λ+1)m = 1 + r < 2
    assert tau_range._proof_covers(3, 64, 4)          # λ ≤ n − 1
    assert not tau_range._proof_covers(1024, 64, 7)


def test_lower_limit_holds_and_matches_dense(remark_1):
    for norm in ("sym", "rw"):
        r = remark_1["tau-range:lower-limit", norm]
        assert r.verdict == "holds"
        table = r.evidence["complete_graph_tau_at_lam_eq_S"]
        A = nx.to_numpy_array(nx.complete_graph(5))
        assert table["K5"][16] == pytest.approx(dense_tau_i(A, 16.0, 16, norm).max(), rel=1e-12)
        # the general limit n·Σd̃²/(Σd̃)² (rw) on K4 minus an edge: 50/49
        lim = r.evidence["other_connected_graphs"]["K4 minus an edge"]["limit"]
        assert lim == pytest.approx(50 / 49 if norm == "rw" else 8 / 7, rel=1e-12)


def test_reaches_upper_holds_and_its_closest_row_is_k2(remark_1):
    for norm in ("sym", "rw"):
        r = remark_1["tau-range:reaches-upper", norm]
        assert r.verdict == "holds"
        # K2 at λ = 0.01, S = 1: row (1 + r/2, r/2)/(λ+1), m = 1 − r², τ_i/n = ρ/m² by hand
        lam = 0.01
        q = lam / (lam + 1)
        expect = ((1 + q / 2) ** 2 + (q / 2) ** 2) / (lam + 1) ** 2 / (1 - q ** 2) ** 2
        assert r.evidence["closest_row_with_two_positive_entries"]["tau_i_over_n"] == (
            pytest.approx(expect, rel=1e-12))
        assert r.search["degenerate"]["failing_cases"] > 0       # S = 0: every row at the bound


def test_reaches_upper_per_row_on_small_graphs_against_dense():
    """The three conditions agree row by row on every graph with ≤ 5 nodes (dense reference)."""
    for G in nx.graph_atlas_g()[1:53]:
        A = nx.to_numpy_array(G, nodelist=sorted(G))
        iso = A.sum(axis=1) == 0
        for lam, S in ((0.5, 1), (32.0, 3)):
            for norm in ("sym", "rw"):
                ti = dense_tau_i(A, lam, S, norm) / A.shape[0]
                assert np.array_equal(np.abs(ti - 1) <= 1e-12, iso)


def test_planted_tolerance_breaks_reaches_upper(monkeypatch):
    monkeypatch.setattr(tau_range, "ATTAIN_TOL", 0.05)     # K2's 0.990 now counts as "= n"
    assert tau_range.reaches_upper(Context(seed=0), "rw").verdict == "fails"


def test_graph_names():
    assert graph_name(3) == "K2 (atlas G3, n = 2, 1 edge)"
    assert graph_name(7).startswith("K3 ") and graph_name(6).startswith("P3 ")
    assert graph_name(14).startswith("P4 ") and graph_name(13).startswith("star K1,3 ")
