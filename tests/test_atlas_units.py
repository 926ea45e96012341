"""The atlas search's parts one by one: what each builds, against references written here.

``tests/test_atlas.py`` runs whole scans on planted statements. Here each piece is checked on
its own: the normalised stacks and the per-λ cells against dense references built apart
(called directly, not through the process caches, so a fault cannot hide behind a cached
value), the graph names against ``networkx`` isomorphism, the minimal order's keys on
statements that fail at chosen cells, and the records (``search``, ``describe``, minimal
counterexamples, the walk) written out whole.
"""

from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest

from ngc_ref_theory.exact import atlas as at

P3_ATLAS = [[0, 1], [0, 2]]


def no_failure(c):
    return np.zeros((at.S_MAX + 1, c.stack.size), bool), 0.0


# --- the stacks and the cells ---

@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_normalized_stacks_match_a_dense_reference(norm):
    for st in at.stacks()[:5]:
        got = at.normalized(st, norm)
        for g in range(0, st.size, max(1, st.size // 7)):
            At = st.A[g] + np.eye(st.n)
            d = At.sum(axis=1)
            want = At / d[:, None] if norm == "rw" else At / np.sqrt(np.outer(d, d))
            np.testing.assert_allclose(got[g], want, rtol=1e-15, atol=0)
    with pytest.raises(ValueError, match="norm must be 'sym' or 'rw', got 'lap'"):
        at.normalized(at.stacks()[1], "lap")


@pytest.mark.parametrize("norm,lam", [("sym", 2.0), ("rw", 0.5)])
def test_cells_made_directly_match_dense_partial_sums(norm, lam):
    c = at.Cells(2, norm, lam)                        # not the cached cells(): built here
    st = at.stacks()[2]
    assert (c.k, c.norm, c.n) == (2, norm, 3) and c.stack is st
    assert type(c.lam) is float and c.lam == lam
    assert c.r == pytest.approx(lam / (lam + 1), rel=1e-15)
    np.testing.assert_array_equal(c.S, np.arange(at.S_MAX + 1))
    An = at.normalized(st, norm)
    r = lam / (lam + 1)
    for g in range(st.size):
        M = np.zeros((3, 3))
        for S in range(at.S_MAX + 1):
            M = M + r ** S * np.linalg.matrix_power(An[g], S) / (lam + 1)
            if S in (0, 1, 7, at.S_MAX):
                np.testing.assert_allclose(c.row_sums[S, g], M.sum(axis=1), rtol=1e-12)
                np.testing.assert_allclose(c.rho[S, g], (M ** 2).sum(axis=1), rtol=1e-12)
                mass = 1 - r ** (S + 1)
                assert c.mass[S] == pytest.approx(mass, rel=1e-13)
                assert c.tau[S, g] == pytest.approx(3 * (M ** 2).sum(axis=1).max() / mass ** 2,
                                                    rel=1e-12)
                assert c.fro2[S, g] == pytest.approx((M ** 2).sum(), rel=1e-12)
                assert c.gram_fro2[S, g] == pytest.approx(((M.T @ M) ** 2).sum(), rel=1e-12)
                np.testing.assert_array_equal(c.positives[S, g], (M > 0).sum(axis=1))
        L = np.eye(3) - An[g]
        np.testing.assert_allclose(c.inverse[g], np.linalg.inv(np.eye(3) + lam * L),
                                   rtol=1e-12)
    assert at.cells(2, norm, lam) is at.cells(2, norm, np.float64(lam))   # one per process


def test_adjacency_is_the_unit_weight_csr_of_the_edges():
    A = at.adjacency(3, P3_ATLAS)
    np.testing.assert_array_equal(A.toarray(), [[0, 1, 1], [1, 0, 0], [1, 0, 0]])
    assert A.format == "csr"


def test_lam_grid_adds_the_thorough_values_only_to_a_thorough_run():
    assert at.lam_grid() == at.LAMS
    assert at.lam_grid(SimpleNamespace(thorough=False)) == at.LAMS
    both = at.lam_grid(SimpleNamespace(thorough=True))
    assert both == tuple(sorted(at.LAMS + at.LAMS_THOROUGH)) and len(both) == 12


# --- graph names ---

def _kind(C):
    m = C.number_of_nodes()
    for name, H in ((f"K{m}", nx.complete_graph(m)), (f"P{m}", nx.path_graph(m)),
                    (f"C{m}", nx.cycle_graph(m) if m >= 3 else nx.empty_graph(0)),
                    (f"star K1,{m - 1}", nx.star_graph(m - 1) if m >= 2 else nx.empty_graph(0))):
        # the degree-sequence screen first: is_isomorphic on every pair takes 20 s
        if nx.faster_could_be_isomorphic(C, H) and nx.is_isomorphic(C, H):
            return name
    return None


def test_every_atlas_graph_name_against_isomorphism():
    atlas = nx.graph_atlas_g()                       # read once (graph_atlas(i) reads the file)
    for index in range(1, at.N_ATLAS):
        G = atlas[index]
        comps = sorted(nx.connected_components(G), key=lambda c: (-len(c), min(c)))
        kinds = [_kind(G.subgraph(c)) for c in comps]
        e = G.number_of_edges()
        where = f"n = {G.number_of_nodes()}, {e} edge" + ("" if e == 1 else "s")
        if all(kinds):
            groups = {}                               # kinds in order of first appearance
            for k in kinds:
                groups[k] = groups.get(k, 0) + 1
            head = " + ".join((str(c) if c > 1 else "") + k for k, c in groups.items())
            want = f"{head} (atlas G{index}, {where})"
        else:
            want = f"atlas G{index} ({where})"
        assert at.graph_name(index) == want, index


def test_component_names_at_their_edges():
    assert at._component_name(nx.complete_graph(4)) == "K4"
    assert at._component_name(nx.path_graph(4)) == "P4"
    assert at._component_name(nx.cycle_graph(5)) == "C5"
    assert at._component_name(nx.star_graph(3)) == "star K1,3"
    assert at._component_name(nx.path_graph(3)) == "P3"          # a path before a star
    assert at._component_name(nx.cycle_graph(3)) == "K3"         # complete before a cycle
    paw = nx.cycle_graph(3)
    paw.add_edge(0, 3)                                          # e = m, but a degree 3
    assert at._component_name(paw) is None
    tree = nx.Graph([(0, 1), (1, 2), (1, 3), (3, 4)])           # e = m − 1, neither
    assert at._component_name(tree) is None
    assert at.graph_name(11) == "2K2 (atlas G11, n = 4, 2 edges)"
    assert at.graph_name(9) == "K2 + 2K1 (atlas G9, n = 4, 1 edge)"
    assert at.graph_name(1) == "K1 (atlas G1, n = 1, 0 edges)"
    assert at.graph_name(3) == "K2 (atlas G3, n = 2, 1 edge)"


# --- ranges ---

def test_range_describe_every_part():
    assert at.Range().describe("d") == "every case"
    assert at.Range(min_S=2).describe() == "S ≥ 2"
    assert at.Range(min_n=1).describe() == "every case"
    assert at.Range(min_n=2).describe() == "n ≥ 2"
    assert at.Range(isolated=False).describe() == "no isolated node"
    assert at.Range(min_extra=2).describe() == "every case"         # no extra parameter named
    assert at.Range(min_extra=2.5).describe("d") == "d ≥ 2.5"
    assert at.NON_DEGENERATE.describe() == "S ≥ 1, n ≥ 2, no isolated node"


def test_range_graphs_cases_and_contains():
    st = at.stacks()[2]                           # n = 3: four graphs, 0..3 edges
    edges = [at.graph(int(k))[1] for k in st.index]
    isolated = [len({v for e in es for v in e}) < 3 for es in edges]
    np.testing.assert_array_equal(at.Range(isolated=False).graphs(st), [not i for i in isolated])
    np.testing.assert_array_equal(at.Range(min_n=4).graphs(st), [False] * st.size)
    # n ≥ 2 and no isolated node together (&=, not =)
    np.testing.assert_array_equal(at.Range(min_n=4, isolated=False).graphs(st), [False] * 4)
    c = at.NON_DEGENERATE.cases(st, True, 2)
    assert c.shape == (at.S_MAX + 1, st.size) and not c[0].any()
    np.testing.assert_array_equal(c[1:], np.broadcast_to([not i for i in isolated], (64, 4)))
    below = at.NON_DEGENERATE.cases(st, True, 1)                  # d = 1 below the range
    assert below.shape == (at.S_MAX + 1, st.size) and not below.any()
    assert at.NON_DEGENERATE.cases(st, False).shape == (1, st.size)
    r = at.NON_DEGENERATE
    assert r.contains({"n": 3, "edges": P3_ATLAS})               # no S recorded: in range
    assert not r.contains({"n": 3, "edges": P3_ATLAS, "S": 0})
    assert not r.contains({"n": 3, "edges": [[0, 1]], "S": 1})
    assert r.contains({"n": 3, "edges": P3_ATLAS, "S": 1, "d": 1})   # extra not named
    assert not r.contains({"n": 3, "edges": P3_ATLAS, "S": 1, "d": 1}, "d")
    assert r.contains({"n": 3, "edges": P3_ATLAS, "S": 1, "d": 2}, "d")


# --- the scan ---

def test_scan_records_its_settings_and_defaults():
    res = at.scan("sym", no_failure)
    assert (res.norm, res.lams, res.with_S, res.extra, res.ratio_is) == (
        "sym", at.LAMS, True, None, "measured / bound")
    assert res.degenerate is None and res.within == at.EVERYTHING and res.holds
    res = at.scan("rw", lambda c, d: (np.zeros(c.stack.size, bool), 0.0), lams=(2.0, 0.5),
                  with_S=False, extra=("d", (1, 3)), ratio="x / y")
    assert (res.norm, res.lams, res.with_S, res.extra, res.ratio_is) == (
        "rw", (0.5, 2.0), False, ("d", (1, 3)), "x / y")
    assert res.cases == (at.N_ATLAS - 1) * 2 * 2
    assert res.worst == {"atlas_index": 1, "n": 1, "edges": [], "lam": 0.5, "d": 1}   # no S


def test_scan_worst_is_the_first_largest_ratio_inside_the_range():
    # a constant ratio: the first cell visited (n = 1, the first λ, S = 0) is the worst
    res = at.scan("rw", lambda c: (np.zeros((at.S_MAX + 1, c.stack.size), bool), 2.0),
                  lams=(0.5, 1.0))
    assert res.worst_ratio == 2.0
    assert res.worst == {"atlas_index": 1, "n": 1, "edges": [], "lam": 0.5, "S": 0}
    # a larger ratio outside the range (S = 0) is not the worst; the extra value is recorded

    def test(c, d):
        ratio = np.ones((at.S_MAX + 1, c.stack.size))
        ratio[0] = 100.0
        ratio[3] = np.inf                          # not finite: never the worst
        ratio[2, -1] = 5.0 if c.n == 4 and d == 3 else 1.0
        return np.zeros_like(ratio, bool), ratio
    res = at.scan("rw", test, lams=(1.0,), extra=("d", (2, 3)), within=at.NON_DEGENERATE)
    assert res.worst_ratio == 5.0
    last4 = int(at.stacks()[3].index[-1])
    assert res.worst == {"atlas_index": last4, "n": 4, "edges": at.graph(last4)[1],
                         "lam": 1.0, "S": 2, "d": 3}


def test_scan_minimal_order_smallest_S_before_simplest_lambda():
    # P3 (atlas G6) fails at S = 3 for λ = 1 and at S = 1 for λ = 2: smallest S first
    def test(c):
        bad = np.zeros((at.S_MAX + 1, c.stack.size), bool)
        if c.n == 3:
            g = list(c.stack.index).index(6)
            bad[3 if c.lam == 1.0 else 1 if c.lam == 2.0 else at.S_MAX, g] = True
        return bad, 0.0
    res = at.scan("rw", test, lams=(1.0, 2.0))
    assert res.minimal == {"atlas_index": 6, "n": 3, "edges": P3_ATLAS, "lam": 2.0, "S": 1}
    assert [w["lam"] for _, w in res.candidates] == [2.0, 1.0]
    assert res.failing_cases == 2 and res.failing_graphs == {6}

    # S = 0 at λ = 2 before S = 1 at λ = 1 (S = 0 is not S = 1)
    def test0(c):
        bad = np.zeros((at.S_MAX + 1, c.stack.size), bool)
        if c.n == 3:
            bad[0 if c.lam == 2.0 else 1, list(c.stack.index).index(6)] = True
        return bad, 0.0
    assert at.scan("rw", test0, lams=(1.0, 2.0)).minimal["S"] == 0


def test_scan_visits_every_extra_value_and_splits_the_degenerate_failures():
    # fails only at d = 3 (the second value), on every graph with 2 nodes, at S = 0 and S = 2
    def test(c, d):
        bad = np.zeros((at.S_MAX + 1, c.stack.size), bool)
        if d == 3 and c.n == 2:
            bad[[0, 2]] = True
        return bad, np.where(bad, 2.0, 0.5)
    res = at.scan("rw", test, lams=(1.0,), extra=("d", (2, 3)), within=at.Range(min_S=1))
    assert res.failing_cases == 2 and res.failing_graphs == {2, 3}
    dg = res.degenerate
    assert dg["failing_cases"] == 2 and dg["failing_graphs"] == {2, 3}
    assert dg["graphs_failing_only_there"] == set()
    assert set(dg) == {"cases", "failing_cases", "failing_graphs", "graphs_failing_only_there",
                       "candidates", "minimal"}
    assert dg["minimal"] == {"atlas_index": 2, "n": 2, "edges": [], "lam": 1.0, "S": 0, "d": 3}
    assert res.minimal == {"atlas_index": 2, "n": 2, "edges": [], "lam": 1.0, "S": 2, "d": 3}
    assert res.cases + dg["cases"] == (at.N_ATLAS - 1) * (at.S_MAX + 1) * 2
    assert dg["cases"] == (at.N_ATLAS - 1) * 2     # S = 0 of every graph and d
    # without a range nothing is degenerate and every failure is counted once
    whole = at.scan("rw", test, lams=(1.0,), extra=("d", (2, 3)))
    assert whole.degenerate is None and whole.failing_cases == 4


def test_scan_keeps_only_the_first_candidates_in_minimal_order():
    # every graph fails at S = 5: far more than CANDIDATES failing graphs, pruned as it goes
    def test(c):
        bad = np.zeros((at.S_MAX + 1, c.stack.size), bool)
        bad[5] = True
        return bad, 0.0
    res = at.scan("rw", test, lams=(1.0,))
    assert len(res.candidates) == at.CANDIDATES
    keys = [k for k, _ in res.candidates]
    assert keys == sorted(keys)
    assert [w["atlas_index"] for _, w in res.candidates] == list(range(1, at.CANDIDATES + 1))
    # degenerate candidates are pruned the same way
    res = at.scan("rw", test, lams=(1.0,), within=at.Range(min_S=6))
    assert res.holds and len(res.degenerate["candidates"]) == at.CANDIDATES
    assert res.degenerate["minimal"]["atlas_index"] == 1


# --- the scan's records ---

def _failing_scan():
    def test(c, d):
        bad = np.zeros((at.S_MAX + 1, c.stack.size), bool)
        if c.n == 3:
            bad[[0, 1], list(c.stack.index).index(6)] = True
        return bad, np.where(bad, 3.0, 1.0)
    return at.scan("sym", test, lams=(1.0,), extra=("d", (2,)), within=at.NON_DEGENERATE)


def test_search_record_written_out():
    res = _failing_scan()
    s = res.search()
    assert s == {
        "atlas": "all 1,253 graphs with ≤ 7 nodes (networkx graph_atlas_g; the null graph "
                 "vacuously)",
        "graphs_visited": 1253, "grid": {"lams": [1.0], "S": "0..64", "d": [2]},
        "cases": res.cases, "failing_cases": 1, "failing_graphs": 1, "worst_ratio": 3.0,
        "worst_ratio_is": "measured / bound",
        "worst": {"atlas_index": 6, "n": 3, "edges": P3_ATLAS, "lam": 1.0, "S": 1, "d": 2},
        "minimal_order": "fewest nodes, fewest edges, smallest S, simplest λ (height of p/q), "
                         "smallest d, then atlas order",
        "range": "S ≥ 1, n ≥ 2, no isolated node, d ≥ 2 (the statement's non-degenerate "
                 "range: cases, failures, worst and minimal above are counted inside it)",
        "degenerate": {"why": at.DEGENERATE_WHY, "cases": res.degenerate["cases"],
                       "failing_cases": 1, "failing_graphs": 1, "graphs_failing_only_there": 0,
                       "minimal": {"atlas_index": 6, "n": 3, "edges": P3_ATLAS, "lam": 1.0,
                                   "S": 0, "d": 2}}}
    plain = at.scan("rw", lambda c: (np.zeros(c.stack.size, bool), 0.0), lams=(1.0,),
                    with_S=False).search()
    assert plain["grid"] == {"lams": [1.0]} and "range" not in plain
    assert "degenerate" not in plain
    assert plain["minimal_order"] == ("fewest nodes, fewest edges, smallest S, simplest λ "
                                      "(height of p/q), then atlas order")


def test_describe_every_branch():
    holds = at.scan("rw", no_failure, lams=(1.0,))
    assert holds.describe() == "atlas: no failure in 81,380 cases (1,253 graphs × grid)"
    ranged = at.scan("rw", no_failure, lams=(1.0,), within=at.Range(min_S=1))
    assert ranged.describe() == holds.describe()       # nothing fails anywhere: the same line
    res = _failing_scan()
    assert res.describe() == (
        f"atlas: 1/{res.cases:,} cases in range (S ≥ 1, n ≥ 2, no isolated node, d ≥ 2) fail "
        "on 1 graphs; minimal: n=3, edges [[0, 1], [0, 2]], λ=1, S=1, d=2 (degenerate cases "
        "outside the range: 1 more fail, minimal n=3, edges [[0, 1], [0, 2]], λ=1, S=0, d=2)")

    def only_degenerate(c):
        bad = np.zeros((at.S_MAX + 1, c.stack.size), bool)
        bad[0] = c.n == 2
        return bad, 0.0
    dg = at.scan("rw", only_degenerate, lams=(1.0,), within=at.Range(min_S=1))
    assert dg.describe() == (
        f"atlas: no failure in {dg.cases:,} cases in range (S ≥ 1) (1,253 graphs × grid) "
        "(degenerate cases outside the range: 2 more fail, minimal n=2, edges [], λ=1, S=0)")
    dg.degenerate["minimal"] = None
    assert dg.describe().endswith("(degenerate cases outside the range: 2 more fail)")
    no_S = at.scan("rw", lambda c: (np.full(c.stack.size, c.n == 3), 0.0), lams=(2.0,),
                   with_S=False)
    assert no_S.describe() == ("atlas: 4/1,252 cases fail on 4 graphs; minimal: n=3, edges [], "
                               "λ=2")


# --- minimal counterexamples ---

def test_certified_minimal_skips_refuted_and_unkept_candidates():
    res = _failing_scan()
    cands = [((1,), {"n": 1, "k": "a"}), ((2,), {"n": 2, "k": "b"}), ((3,), {"n": 3, "k": "c"}),
             ((4,), {"n": 4, "k": "d"})]
    seen = []

    def certify(w):
        seen.append(w["k"])
        return {"fails": w["k"] == "d", "certified": "exact", "why": w["k"]}
    out = at.certified_minimal(res, certify, keep=lambda w: w["k"] != "b", candidates=cands)
    assert seen == ["a", "c", "d"]                    # b not kept: skipped, the walk goes on
    assert out == {"n": 4, "k": "d", "certified": "exact", "why": "d",
                   "refuted_float_candidates": [{"n": 1, "k": "a"}, {"n": 3, "k": "c"}]}
    first = at.certified_minimal(res, lambda w: {"fails": True, "certified": "exact"},
                                 candidates=cands)
    assert first == {"n": 1, "k": "a", "certified": "exact"}      # nothing refuted: no key
    assert at.certified_minimal(res, lambda w: {"fails": False}, candidates=cands) is None
    # by default the candidates inside the range
    assert at.certified_minimal(res, lambda w: {"fails": True})["S"] == 1


def test_atlas_minimal_every_branch():
    holds = at.scan("rw", no_failure, lams=(1.0,))
    assert at.atlas_minimal(holds, None, "rw") is None
    res = _failing_scan()
    float_only = at.atlas_minimal(res, None, "sym")
    low = {"atlas_index": 6, "n": 3, "edges": P3_ATLAS, "lam": 1.0, "S": 0, "d": 2}
    assert float_only == {
        "atlas_index": 6, "n": 3, "edges": P3_ATLAS, "lam": 1.0, "S": 1, "d": 2, "norm": "sym",
        "certified": "none: float64 search only (no exact form for this quantity)",
        "degenerate_minimal": dict(low, norm="sym", certified="none: float64 search only (no "
                                   "exact form for this quantity)",
                                   label="degenerate: outside the statement's range (S ≥ 1, "
                                         "n ≥ 2, no isolated node, d ≥ 2)"),
        "range": "S ≥ 1, n ≥ 2, no isolated node, d ≥ 2"}
    exact = at.atlas_minimal(res, lambda w: {"fails": True, "certified": "exact"}, "rw")
    assert exact["certified"] == "exact" and exact["norm"] == "rw" and exact["S"] == 1
    assert exact["degenerate_minimal"] == dict(
        low, certified="exact", norm="rw", label="degenerate: outside the statement's range "
                                                 "(S ≥ 1, n ≥ 2, no isolated node, d ≥ 2)")
    # the degenerate candidate refuted: no degenerate record; the range is still named
    only_in = at.atlas_minimal(res, lambda w: {"fails": w["S"] == 1, "certified": "exact"},
                               "rw")
    assert "degenerate_minimal" not in only_in and only_in["range"].startswith("S ≥ 1")
    assert at.atlas_minimal(res, lambda w: {"fails": False}, "rw") is None
    # without a range: no range key and no degenerate record
    whole = at.scan("rw", lambda c: (np.full((at.S_MAX + 1, c.stack.size), c.n == 2), 0.0),
                    lams=(1.0,))
    rec = at.atlas_minimal(whole, lambda w: {"fails": True, "certified": "exact"}, "rw")
    assert "range" not in rec and "degenerate_minimal" not in rec
    assert rec == {"atlas_index": 2, "n": 2, "edges": [], "lam": 1.0, "S": 0,
                   "certified": "exact", "norm": "rw"}


def test_walk_minimal_certifies_in_order_and_stops_as_it_says():
    made = []

    def fails_at(target):
        def certify(w):
            made.append(w)
            return {"fails": (w["n"], w["S"], w["lam"], w["d"]) == target, "certified": "exact"}
        return certify
    out = at.walk_minimal(fails_at((2, 1, 2.0, 3)), lams=(2.0, 1.0), extra=("d", (3, 1)),
                          within=at.Range(min_S=1, min_n=2, min_extra=2))
    # n = 2 first; S from 1; λ = 1 before 2 (simplest first); d = 1 is below the range
    # (n, edge count) groups: G2 (no edge) is walked through before G3 (K2)
    assert [(w["atlas_index"], w["S"], w["lam"], w["d"]) for w in made] == [
        (2, 1, 1.0, 3), (2, 1, 2.0, 3)]
    assert out == {"minimal": {"atlas_index": 2, "n": 2, "edges": [], "lam": 2.0, "S": 1,
                               "d": 3, "certified": "exact"},
                   "holding_before": made[:1], "stopped": "first certified failure"}
    made.clear()
    out = at.walk_minimal(fails_at(None), lams=(1.0,), extra=("d", (2,)), limit=3)
    assert len(made) == 3 and out == {"minimal": None, "holding_before": made,
                                      "stopped": "after 3 certificates, none failing"}
    out = at.walk_minimal(lambda w: {"fails": None}, lams=(1.0,), extra=("d", (2,)))
    assert out["minimal"] is None and out["holding_before"] == []
    assert out["stopped"] == ("undecided at {'atlas_index': 1, 'n': 1, 'edges': [], 'lam': 1.0, "
                              "'S': 0, 'd': 2}")
    # every case of a small range holds: the walk ends and says so; S runs to S_MAX
    made.clear()
    tiny = at.Range(min_S=at.S_MAX - 1, min_n=7)

    def holds(w):
        made.append(w)
        return {"fails": False}
    out = at.walk_minimal(holds, lams=(1.0,), extra=("d", (2,)), within=tiny, limit=10 ** 6)
    assert out["stopped"] == "every case holds" and out["minimal"] is None
    assert len(made) == 2 * at.stacks()[6].size and made[-1]["S"] == at.S_MAX
    assert out["holding_before"] == made
    # by default at most 400 certificates
    assert at.walk_minimal(lambda w: {"fails": False}, lams=(1.0,), extra=("d", (2,)))[
        "stopped"] == "after 400 certificates, none failing"


# --- small record helpers ---

def test_exact_line_setting_and_combine_search():
    mc = {"atlas_index": 6, "n": 3, "edges": P3_ATLAS, "lam": 0.5, "S": 2, "d": 8,
          "exact": {"row sum of node 0": "5/8", "τ": "1" * 70 + "/7 ≈ 1.587",
                    "short τ_max": "3 ≈ 3.0"}}
    assert at.exact_line(mc, "node 0") == "row sum of node 0 = 5/8"
    assert at.exact_line(mc, "τ") == "τ ≈ 1.587 (exact fraction in report.json)"
    assert at.exact_line(mc, "τ_max") == "short τ_max = 3 ≈ 3.0"      # short: written whole
    # the shortening starts above 60 characters
    at60 = {"exact": {"τ": "1" * 52 + "/7 ≈ 1.5"}}                  # 60 characters: kept
    assert len(at60["exact"]["τ"]) == 60 and at.exact_line(at60, "τ") == "τ = " + at60[
        "exact"]["τ"]
    at61 = {"exact": {"τ": "1" * 53 + "/7 ≈ 1.5"}}
    assert at.exact_line(at61, "τ") == "τ ≈ 1.5 (exact fraction in report.json)"
    long_plain = {"exact": {"x": "1" * 70}}
    assert at.exact_line(long_plain, "x") == "x = " + "1" * 70     # long but no decimal
    assert at.exact_line(mc, "nothing") == "" and at.exact_line({}, "τ") == ""
    assert at.setting(mc) == "atlas G6 (n=3, edges [[0, 1], [0, 2]]), λ=0.5, S=2, d=8"
    assert at.setting({"atlas_index": 3, "n": 2, "edges": [[0, 1]], "lam": 2.0}) == (
        "atlas G3 (n=2, edges [[0, 1]]), λ=2")
    res = _failing_scan()
    out = at.combine_search(res, {"graphs": 5})
    assert out == dict(res.search(), sampled={"graphs": 5},
                       what="all 1,253 graphs with ≤ 7 nodes × the grid, and the sampled larger "
                            "graphs")
    given = {"atlas": "x"}
    out = at.combine_search(given, [1])
    assert out == {"atlas": "x", "sampled": [1], "what": out["what"]} and given == {"atlas": "x"}


def test_atlas_counterexample_and_minimal_figure(tmp_path, monkeypatch):
    from ngc_ref_theory.kit.claim import Context
    ctx = Context(seed=3, out_dir=tmp_path)
    mc = {"atlas_index": 6, "n": 3, "edges": P3_ATLAS, "lam": 2.0, "S": 1, "norm": "sym"}
    rec = at.atlas_counterexample(ctx, "row-sums", mc, why="a row sum below 1")
    assert rec["graph"]["name"] == "atlas-G6" and rec["graph"]["edges"] == P3_ATLAS
    assert rec["graph"]["n"] == 3 and rec["graph"]["n_edges"] == 2
    assert {k: rec[k] for k in ("source", "atlas_index", "norm", "lam", "S", "why")} == {
        "source": "exhaustive atlas search (minimal counterexample)", "atlas_index": 6,
        "norm": "sym", "lam": 2.0, "S": 1, "why": "a row sum below 1"}
    assert "d" not in rec and "row-sums" in rec["rerun"]
    assert at.atlas_counterexample(ctx, "x", dict(mc, d=4))["d"] == 4
    assert at.atlas_counterexample(ctx, "x", {k: v for k, v in mc.items() if k != "norm"})[
        "norm"] is None
    drawn = []
    monkeypatch.setattr(at, "draw_graph", lambda *a: drawn.append(a) or "fig.png")
    assert at.minimal_figure(ctx, "g.png", mc, "title", {0: "x"}, "cap") == ["fig.png"]
    assert drawn == [(tmp_path / "g.png", 3, P3_ATLAS, "title", {0: "x"}, "cap")]
    assert at.minimal_figure(ctx, "g.png", None, "title") == []
    assert at.minimal_figure(Context(), "g.png", mc, "title") == []
    assert len(drawn) == 1
