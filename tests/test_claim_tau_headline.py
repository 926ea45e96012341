"""The introduction's headline (tau-headline, :meant) against an exact pairwise reference written
here: every pair of graphs with the same n compared by τ and ‖Ã_S‖_F²."""

from fractions import Fraction

import numpy as np
import pytest

from ngc_ref_theory.exact.atlas import NON_DEGENERATE, cells, stacks
from ngc_ref_theory.claims import tau_headline as th

from ._claims import claim_fixture


def exact_rw_filter(n, edges, lam, S):
    """Ã_S for rw in Fractions, term by term (not Horner)."""
    d = [1] * n
    for u, v in edges:
        d[u] += 1
        d[v] += 1
    P = [[Fraction(int(i == j or [min(i, j), max(i, j)] in edges), d[i]) for j in range(n)]
         for i in range(n)]
    r = Fraction(lam) / (Fraction(lam) + 1)
    M = [[Fraction(0)] * n for _ in range(n)]
    Q = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for s in range(S + 1):
        M = [[M[i][j] + r ** s * Q[i][j] / (Fraction(lam) + 1) for j in range(n)]
             for i in range(n)]
        Q = [[sum(Q[i][k] * P[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    return M, 1 - r ** (S + 1)


def tau_and_energy(n, edges, lam, S):
    M, m = exact_rw_filter(n, edges, lam, S)
    rho = [sum(x * x for x in row) for row in M]
    return n * max(rho) / m ** 2, sum(rho)


headline = claim_fixture("tau-headline")


def test_minimal_pairs_exactly(headline):
    lit, meant = headline["tau-headline", "rw"], headline["tau-headline:meant", "rw"]
    assert lit.verdict == meant.verdict == "fails"
    assert (lit.scope, meant.scope) == ("erratum", "as-stated")   # as rngc-tau:literal
    assert headline["tau-headline", "sym"].scope == "erratum"
    assert headline["tau-headline:meant", "sym"].scope == "extension"
    # literal: P3 has the larger τ and the more noise than K3 (λ = S = 1)
    t1, e1 = tau_and_energy(3, [[0, 1], [1, 2]], 1, 1)
    t2, e2 = tau_and_energy(3, [[0, 1], [0, 2], [1, 2]], 1, 1)
    assert (t1, t2, e1, e2) == (Fraction(13, 6), Fraction(17, 9), Fraction(7, 6),
                                Fraction(17, 16))
    ex = lit.minimal_counterexample["exact"]
    assert (ex["τ (this graph)"], ex["τ (partner)"]) == ("13/6", "17/9")
    assert lit.counterexample["graph"]["name"].startswith("P3 ")
    # meant: the star K1,3 has the smaller τ but the more noise than P4 (rw: λ = 1, S = 2)
    mc = meant.minimal_counterexample
    assert (mc["n"], mc["lam"], mc["S"]) == (4, 1.0, 2)
    t1, e1 = tau_and_energy(4, mc["edges"], 1, 2)
    t2, e2 = tau_and_energy(4, mc["partner_edges"], 1, 2)
    assert t1 < t2 and e1 > e2
    assert mc["exact"]["τ (this graph)"] == str(t1) and mc["exact"]["‖Ã_S‖_F² (partner)"] == str(e2)
    assert meant.counterexample["graph"]["name"].startswith("star K1,3 ")


def test_no_smaller_case_for_the_meant_reading():
    """n = 3 has one pair in range (P3, K3), ordered alike at every λ, S: the meant reading
    cannot fail before n = 4 (exact, a few settings)."""
    for lam, S in ((1, 1), (1, 2), (2, 1), (Fraction(1, 2), 3)):
        t1, e1 = tau_and_energy(3, [[0, 1], [1, 2]], lam, S)
        t2, e2 = tau_and_energy(3, [[0, 1], [0, 2], [1, 2]], lam, S)
        assert (t1 > t2) == (e1 > e2)


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("direction", ["literal", "meant"])
def test_partners_against_brute_force(norm, direction):
    """Every pair of graphs of n = 4..6 nodes at two λ: the smallest partner energy, by a plain
    (G × G) comparison per S."""
    for k, st in enumerate(stacks()):
        if not 4 <= st.n <= 6:
            continue
        ok = NON_DEGENERATE.graphs(st)
        for lam in (1.0, 32.0):
            c = cells(k, norm, lam)
            want = np.full(c.tau.shape, np.inf)
            for S in range(1, c.tau.shape[0]):
                t1, t2 = c.tau[S][:, None], c.tau[S][None, :]
                side = (t2 < t1 * (1 - th.MARGIN)) if direction == "literal" else (
                    t2 > t1 * (1 + th.MARGIN))
                want[S] = np.where(side & ok[None, :], c.fro2[S][None, :], np.inf).min(axis=1)
            assert np.array_equal(th._partners(c, direction), want), (st.n, lam)


def test_lemma_1_bound_is_linear_in_tau():
    b1, b2 = th.lemma_1_bound(1.0, 1.0, 1, 4), th.lemma_1_bound(2.0, 1.0, 1, 4)
    assert b2 == pytest.approx(2 * b1)
    # 2τm²σ²(4 log n + log 2d)/n by hand at τ = 1, λ = S = 1 (m = 3/4), n = 4, d = 2
    assert b1 == pytest.approx(2 * (3 / 4) ** 2 * (4 * np.log(4) + np.log(4)) / 4)



# --- the atlas test at its margin, Lemma 1's bound pinned (issue 34) -------------------------

def _cells(tau, fro2, n=4):
    """Hand-made cells: one S row of padding (S = 0 is never judged) and one judged row; the
    graphs connected (no isolated node) so that all are in range."""
    G = len(tau)
    A = np.ones((G, n, n)) - np.eye(n)
    return type("C", (), {"tau": np.array([[np.nan] * G, tau]),
                          "fro2": np.array([[np.nan] * G, fro2]), "n": n,
                          "stack": type("St", (), {"A": A, "n": n, "size": G})()})()


def test_margin_is_the_documented_one():
    assert th.MARGIN == 1e-9


def test_literal_partners_at_the_tau_margin():
    m = th.MARGIN
    # graph 0: τ = 1; graph 1 just at the margin below it (not a partner), graph 2 just past it
    t = [1.0, 1 - m, np.nextafter(1 - m, 0)]
    got = th._partners(_cells(t, [4.0, 2.0, 3.0]), "literal")[1]
    assert got[0] == 3.0                           # only graph 2 has a smaller τ by the margin
    got = th._partners(_cells([1.0, 0.5], [4.0, 2.0]), "meant")[1]
    assert got[1] == 4.0 and got[0] == np.inf      # graph 1 sees graph 0 above it


def test_meant_partners_at_the_tau_margin():
    m = th.MARGIN
    got = th._partners(_cells([1.0, 1 + m, np.nextafter(1 + m, 2)], [4.0, 2.0, 3.0]), "meant")[1]
    assert got[0] == 3.0                           # graph 1 at the margin is not above by it


def test_noise_comparison_at_the_margin():
    m = th.MARGIN
    for direction, t in (("literal", [2.0, 1.0]), ("meant", [1.0, 2.0])):
        test = th._test(direction)
        for e, bad in ((1 + m, False), (np.nextafter(1 + m, 2), True), (1.0, False)):
            got, ratio = test(_cells(t, [e, 1.0]))
            assert bool(got[1, 0]) is bad, (direction, e)
            assert ratio[1, 0] == e


def test_lemma_1_bound_of_the_minimal_pairs(headline):
    """2τ(1 − r^{S+1})²σ²(4 log n + log 2d)/n at d = 2, σ = 1 with each graph's exact τ."""
    import math
    for sid in ("tau-headline", "tau-headline:meant"):
        r = headline[sid, "rw"]
        mc = r.minimal_counterexample
        m2 = (1 - (mc["lam"] / (mc["lam"] + 1)) ** (mc["S"] + 1)) ** 2
        n = mc["n"]
        want = [2 * float(Fraction(mc["exact"][k])) * m2 * (4 * math.log(n) + math.log(4)) / n
                for k in ("τ (this graph)", "τ (partner)")]
        got = r.evidence["minimal_pair_lemma_1_bound"]
        assert [got["this_graph"], got["partner"]] == pytest.approx(want, rel=1e-12)
