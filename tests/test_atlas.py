"""The exhaustive atlas search, its minimal order, the exact certificates and the proof chains."""

import math
from fractions import Fraction

import numpy as np
import pytest

from ngc_ref_theory.exact import atlas as at
from ngc_ref_theory.exact import certificates as ex
from ngc_ref_theory.exact import proofs as pr

P3_PATH = [[0, 1], [1, 2]]          # the 3-node path 0 - 1 - 2 (degrees with loops 2, 3, 2)
P3_ATLAS = [[0, 1], [0, 2]]         # the same graph as the atlas numbers it (centre 0)


def test_atlas_has_all_1253_graphs_and_a_scan_visits_each_once():
    graphs = at._atlas_graphs()
    assert len(graphs) == at.N_ATLAS == 1253
    assert max(G.number_of_nodes() for G in graphs) == 7
    stacked = sorted(int(k) for st in at.stacks() for k in st.index)
    assert stacked == list(range(1, 1253))          # G0, the null graph, is visited vacuously
    assert at.visited() == list(range(1253))
    for st in at.stacks():                           # stacks hold what the atlas says
        for g, k in enumerate(st.index[:5]):
            n, edges = at.graph(int(k))
            assert n == st.n and len(edges) == st.edges[g] == st.A[g].sum() / 2
    res = at.scan("rw", lambda c: (np.zeros((at.S_MAX + 1, c.stack.size), bool), 0.0))
    assert res.holds and res.graphs == 1253
    assert res.cases == (at.N_ATLAS - 1) * len(at.LAMS) * (at.S_MAX + 1)


def test_planted_false_identity_has_its_known_minimal_counterexample():
    # "Every row of Ã_S (sym) sums to 1 − r^{S+1}": false first on the 3-node path at S = 1
    # (S = 0 gives I/(λ+1); graphs with < 3 nodes, or a regular component, have Ã_sym = Ã_rw).
    def rows_sum_to_mass(c):
        dev = np.abs(c.row_sums - c.mass[:, None, None]).max(axis=2)
        return dev > 1e-10, dev
    res = at.scan("sym", rows_sum_to_mass)
    m = res.minimal
    assert (m["n"], m["edges"], m["S"], m["lam"]) == (3, P3_ATLAS, 1, 1.0)
    cert = at.certified_minimal(res, lambda w: ex.certify_row_sum(
        w["n"], w["edges"], w["lam"], w["S"], "sym"))
    assert cert["certified"] == "exact" and cert["atlas_index"] == m["atlas_index"]
    assert at.scan("rw", rows_sum_to_mass).holds

    # "Every row of Ã_sym sums to 1" (no S): the same graph, and the simplest λ (λ plays no part).
    res = at.scan("sym", lambda c: (np.abs(c.An.sum(axis=2) - 1).max(axis=1) > 1e-12, 0.0),
                  with_S=False)
    assert (res.minimal["n"], res.minimal["edges"], res.minimal["lam"]) == (3, P3_ATLAS, 1.0)
    assert "S" not in res.minimal


def test_minimal_order_prefers_small_S_then_the_simplest_lambda():
    # 1 − r^{S+1} ≥ 0.1 fails at S = 0 for λ ∈ {32, 64, 1024}: the simplest is 32 (height 32).
    res = at.scan("rw", lambda c: (np.broadcast_to((c.mass < 0.1)[:, None],
                                                   (at.S_MAX + 1, c.stack.size)), 0.0))
    assert (res.minimal["n"], res.minimal["S"], res.minimal["lam"]) == (1, 0, 32.0)
    # height ties: an integer before a fraction (2 before 1/2), and 1 before both.
    assert sorted([0.5, 2.0, 1.0, 0.01], key=at.simplicity) == [1.0, 2.0, 0.5, 0.01]
    res = at.scan("rw", lambda c: (np.full(c.stack.size, c.lam in (0.5, 2.0)), 0.0),
                  with_S=False)
    assert res.minimal["lam"] == 2.0 and res.minimal["n"] == 1


def test_exact_row_sums_of_the_3_node_path_by_hand():
    # λ = 1: r = 1/2, Ã_1 = (I + ½Ã)/2. Ã_sym of the path with self-loops, d̃ = (2, 3, 2):
    #   Ã = [[1/2, 1/√6, 0], [1/√6, 1/3, 1/√6], [0, 1/√6, 1/2]],   1/√6 = √6/6.
    s6 = ex.Surd.sqrt(6)
    A_sym = [[Fraction(1, 2), s6 / 6, 0], [s6 / 6, Fraction(1, 3), s6 / 6],
             [0, s6 / 6, Fraction(1, 2)]]
    hand = [[(Fraction(1, 2) if i == j else 0) + ex.Surd.lift(x) / 4 for j, x in enumerate(row)]
            for i, row in enumerate(A_sym)]
    M = ex.neumann(3, P3_PATH, 1, 1, "sym")
    assert all(M[i][j] == hand[i][j] for i in range(3) for j in range(3))
    # row sums: 1/2 + 1/8 + √6/24 = 5/8 + √6/24 and 1/2 + 1/12 + 2·√6/24 = 7/12 + √6/12
    rows = ex.row_sums(3, P3_PATH, 1, 1, "sym")
    assert rows[0] == rows[2] == Fraction(5, 8) + s6 / 24
    assert rows[1] == Fraction(7, 12) + s6 / 12
    assert str(rows[0]) == "5/8 + √6/24"
    assert ex.mass(1, 1) == Fraction(3, 4)
    diff = rows[0] - ex.mass(1, 1)                  # (√6 − 3)/24 < 0, exactly
    assert diff == (s6 - 3) / 24 and diff.sign() == -1 and not diff.is_zero()
    cert = ex.certify_row_sum(3, P3_PATH, 1, 1, "sym")
    assert cert["fails"] and cert["certified"] == "exact" and cert["bad_rows"] == [0, 1, 2]
    assert not ex.certify_row_sum(3, P3_PATH, 1, 1, "rw")["fails"]     # rw rows: 3/4 each
    assert ex.row_sums(3, P3_PATH, 1, 1, "rw") == [Fraction(3, 4)] * 3


def test_exact_arithmetic_pieces():
    assert ex.Surd.sqrt(8) == 2 * ex.Surd.sqrt(2)
    assert ex.Surd.sqrt(2) * ex.Surd.sqrt(3) == ex.Surd.sqrt(6)
    assert (ex.Surd.sqrt(2) * ex.Surd.sqrt(2)).rational() == 2
    assert (ex.Surd.sqrt(3) - Fraction(1732, 1000)).sign() == 1
    for x in (2, 7, 33, 2048, Fraction(1, 100)):
        lo, hi = ex.log_bounds(x)
        assert lo <= hi and hi - lo < Fraction(1, 10**25)
        assert float(lo) - 1e-15 <= math.log(x) <= float(hi) + 1e-15
    # squares of sym entries are rational and match the float operator
    rho = ex.row_square_sums(3, P3_PATH, 2, 3, "sym")
    inst = pr.Instance("P3", 3, P3_PATH, "sym", 2.0, 3)
    assert np.allclose([float(x) for x in rho], inst.rho, rtol=1e-13)


def test_certificates_of_the_other_minimal_counterexamples():
    # gsd (rw): the gradient at (I+λL̃)⁻¹ is non-zero on the 3-node path, λ = 1
    assert ex.certify_gsd_stationary(3, P3_ATLAS, 1)["fails"]
    assert not ex.certify_gsd_stationary(2, [[0, 1]], 1)["fails"]
    # no minimiser above λ* = 42 + 6√51 on the 3-node path (rw)
    cert = ex.certify_indefinite(3, P3_ATLAS, 1024)
    lo, hi = (float(x) for x in cert["exact"][
        "λ* (positive definite below, not at or above)"][4:-1].split(", "))
    assert cert["fails"] and lo <= 42 + 6 * math.sqrt(51) <= hi
    assert not ex.certify_indefinite(3, P3_ATLAS, 64)["fails"]
    # τ = n with an edge: K2 at S = 0, K2 + K1 at S = 1
    assert ex.certify_tau_only_if(2, [[0, 1]], 1, 0, "rw")["fails"]
    assert not ex.certify_tau_only_if(2, [[0, 1]], 1, 1, "rw")["fails"]
    assert ex.certify_tau_only_if(3, [[1, 2]], 1, 1, "sym")["exact"]["τ"] == "3"
    # Lemma 1 on one node: P(χ²-type exceedance) ≥ 0.2855 > 1/16 at d = 16; d = 8 not certified
    cert = ex.certify_lemma_1(1, [], 1, 0, 16, "rw")
    assert cert["fails"] and cert["certified"] == "interval"
    assert float(cert["numbers"]["pz"]) > 0.285
    assert not ex.certify_lemma_1(1, [], 1, 0, 8, "rw")["fails"]


def test_proof_chain_reports_a_planted_false_step():
    rng = np.random.default_rng(3)
    inst = pr.random_instances(rng, 6, "rw")
    planted = pr.Step("C.x planted", "every entry of Ã_S is below 1/(λ+1)",
                      lambda i: (float(i.M.max() * (i.lam + 1)), bool(i.M.max() < 1 / (i.lam + 1))))
    rows = pr.run_chain(pr.ROW_SUM_CHAIN[:3] + (planted,) + pr.ROW_SUM_CHAIN[3:], inst)
    assert [r["verdict"] for r in rows] == ["holds"] * 3 + ["fails"] + ["holds"] * 2
    first = pr.first_failure(rows)
    assert first["step"] == "C.x planted" and first["failing_instances"] == 6
    assert first["worst_ratio"] >= 1 and "gnp-" in first["where"]
    # the real chain breaks at the lemma's hypothesis in sym (rows of Ã_sym do not sum to 1)
    sym = pr.run_chain(pr.ROW_SUM_CHAIN, [pr.Instance("P3", 3, P3_PATH, "sym", 1.0, 1)])
    assert pr.first_failure(sym)["step"].startswith("C.1")
    assert [r["verdict"] for r in sym] == ["fails", "fails", "holds", "fails", "holds"]


def test_lemma_1_chain_breaks_at_the_union_bounds():
    one = pr.Instance("K1", 1, [], "rw", 1.0, 0, d=16)
    rows = {r["step"].split()[0]: r for r in pr.run_chain(pr.LEMMA_1_CHAIN, [one])}
    assert rows["D.2"]["verdict"] == "holds"
    assert rows["D.3"]["verdict"] == "fails"           # n² = 1 pair, but 16 entries
    assert rows["D.4"]["verdict"] == "fails" and rows["D.4"]["worst_ratio"] == pytest.approx(16)
    assert rows["D.6"]["verdict"] == "fails"
    path = pr.Instance("P3", 3, P3_PATH, "sym", 32.0, 4, d=2)
    rows = {r["step"].split()[0]: r for r in pr.run_chain(pr.LEMMA_1_CHAIN, [path])}
    assert rows["D.3"]["verdict"] == "holds" and rows["D.4"]["verdict"] == "fails"


def test_neumann_chain_holds_and_scan_is_deterministic():
    rows = pr.run_chain(pr.NEUMANN_CHAIN, pr.random_instances(np.random.default_rng(0), 5, "sym"))
    assert all(r["verdict"] == "holds" for r in rows)
    a = at.scan("sym", lambda c: (c.tau > c.n * (1 - 1e-12), c.tau / c.n))
    b = at.scan("sym", lambda c: (c.tau > c.n * (1 - 1e-12), c.tau / c.n))
    assert a.minimal == b.minimal and a.failing_cases == b.failing_cases
    assert [w for _, w in a.candidates] == [w for _, w in b.candidates]


def test_non_degenerate_range_counts_and_minimum_inside_it_and_the_degenerate_beside():
    # "τ = n only if all nodes are isolated": at S = 0 every graph has τ = n (Ã_0 = I/(λ+1)),
    # so the whole-grid minimum is K2 at S = 0; inside S ≥ 1, n ≥ 2 it is K2 + K1 at S = 1.
    def only_if(c):
        iso = (c.stack.A.sum(axis=2) == 0).all(axis=1)[None]
        return (c.tau >= c.n * (1 - 1e-12)) & ~iso, c.tau / c.n
    within = at.Range(min_S=1, min_n=2)
    res = at.scan("rw", only_if, within=within)
    whole = at.scan("rw", only_if)
    m, low = res.minimal, res.degenerate["minimal"]
    assert (m["n"], m["edges"], m["S"], m["lam"]) == (3, [[1, 2]], 1, 1.0)
    assert (low["n"], low["edges"], low["S"]) == (2, [[0, 1]], 0)
    assert (whole.minimal["n"], whole.minimal["S"]) == (2, 0)
    dg = res.degenerate
    assert res.cases + dg["cases"] == whole.cases
    assert res.failing_cases + dg["failing_cases"] == whole.failing_cases
    assert res.failing_graphs | dg["failing_graphs"] == whole.failing_graphs
    assert dg["graphs_failing_only_there"] == whole.failing_graphs - res.failing_graphs
    assert "S ≥ 1, n ≥ 2" in res.describe() and "degenerate" in res.describe()
    assert res.search()["degenerate"]["minimal"] == low
    mc = at.atlas_minimal(res, lambda w: ex.certify_tau_only_if(w["n"], w["edges"], w["lam"],
                                                               w["S"], "rw"), "rw")
    assert mc["degenerate_minimal"]["S"] == 0 and mc["degenerate_minimal"]["label"].startswith(
        "degenerate")
    # NON_DEGENERATE also leaves out graphs with an isolated node: K2 + K1 is not in it.
    assert at.scan("rw", only_if, within=at.NON_DEGENERATE).holds


def test_a_range_leaves_a_holding_summary_as_it_was():
    def never(c):
        return np.zeros((at.S_MAX + 1, c.stack.size), bool), 0.0
    assert (at.scan("rw", never, within=at.NON_DEGENERATE).describe()
            == at.scan("rw", never).describe())


def test_range_of_the_extra_parameter_and_contains():
    r = at.NON_DEGENERATE
    assert r.contains({"n": 2, "edges": [[0, 1]], "S": 1, "d": 2}, "d")
    assert not r.contains({"n": 2, "edges": [[0, 1]], "S": 1, "d": 1}, "d")
    assert not r.contains({"n": 3, "edges": [[0, 1]], "S": 1}, "d")      # node 2 isolated
    assert not r.contains({"n": 2, "edges": [[0, 1]], "S": 0})
    res = at.scan("rw", lambda c, d: (np.ones((at.S_MAX + 1, c.stack.size), bool), 0.0),
                  lams=(1.0,), extra=("d", (1, 2)), within=r)
    assert res.minimal["d"] == 2 and res.degenerate["minimal"]["d"] == 1


def test_walk_certifies_every_case_before_the_minimal_one():
    seen = []

    def cert(w):
        seen.append((w["n"], w["S"], w["lam"], w["d"]))
        return {"fails": w["d"] >= 3 and w["lam"] == 2.0, "certified": "planted"}
    out = at.walk_minimal(cert, lams=(0.5, 1.0, 2.0), extra=("d", (1, 2, 3)),
                          within=at.NON_DEGENERATE)
    m = out["minimal"]
    assert (m["n"], m["edges"], m["S"], m["lam"], m["d"]) == (2, [[0, 1]], 1, 2.0, 3)
    # λ in simplicity order (1, 2, then 1/2), d ≥ 2 only: 1 → d 2, 3; 2 → d 2, then d 3 fails.
    assert seen == [(2, 1, 1.0, 2), (2, 1, 1.0, 3), (2, 1, 2.0, 2), (2, 1, 2.0, 3)]
    assert len(out["holding_before"]) == 3
    undecided = at.walk_minimal(lambda w: {"fails": None}, lams=(1.0,), extra=("d", (2,)))
    assert undecided["minimal"] is None and undecided["stopped"].startswith("undecided")
