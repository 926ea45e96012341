"""Each displayed step of ``theory/exact/proofs.py`` on its own, against a reference written here.

The chains are run by the claims (``row-sums``, ``neumann-identity``, ``lemma-1``,
``rngc-convergence``, ``theorem-1``), whose tests read the verdicts of a few rows. A step's
ratio and its verdict are the evidence a reader sees, so each step is checked here on its own:
its ratio against a dense computation written apart from the module (``numpy.linalg``
powers, eigenvalues and closed forms instead of the module's loops), its verdict on instances
where it holds and, where the step is a real inequality or hypothesis, on a planted instance
where it must fail (an operator replaced through the instance's cached properties). The
chain machinery (``run_chain``, ``step_row``, ``first_failure``) is checked on steps whose
ratios are set by hand.
"""

import itertools
import math

import networkx as nx
import numpy as np
import pytest

from ngc_ref_theory.exact import proofs as pr

P3 = [[0, 1], [1, 2]]


# --- references, written apart from the module ---

def ref_An(n, edges, norm):
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(map(tuple, edges))
    At = nx.to_numpy_array(G, nodelist=range(n)) + np.eye(n)
    d = At.sum(axis=1)
    if norm == "rw":
        return At / d[:, None]
    return At / np.sqrt(np.outer(d, d))


def ref_M(inst):
    An = ref_An(inst.n, inst.edges, inst.norm)
    r = inst.lam / (inst.lam + 1)
    return sum(r ** s * np.linalg.matrix_power(An, s) for s in range(inst.S + 1)) / (inst.lam + 1)


def instances():
    """Both normalisations on hand-picked graphs (isolated nodes, a path, a star, K4) and seeded
    G(n, p) graphs, several λ, S, d, σ."""
    out = []
    for norm in ("rw", "sym"):
        out += [pr.Instance("K1", 1, [], norm, 1.0, 0, d=4),
                pr.Instance("K2", 2, [[0, 1]], norm, 2.0, 3, d=2),
                pr.Instance("P3", 3, P3, norm, 32.0, 5, d=8, sigma=0.5),
                pr.Instance("star", 4, [[0, 1], [0, 2], [0, 3]], norm, 0.5, 2, d=3, sigma=2.0),
                pr.Instance("K4+K1", 5, [[i, j] for i in range(4) for j in range(i + 1, 4)],
                            norm, 64.0, 7, d=64)]
        out += pr.random_instances(np.random.default_rng(11), 5, norm)
    return out


# Tests take the index and build their instance fresh: an Instance keeps what it computed (its
# cached properties, the theorem's setting), so a module-level one built and used once would
# hand a later run (a mutation pass forks after a clean run) yesterday's numbers.
IDS = [f"{i.name}-{i.norm}" for i in instances()]


def fresh(k, make=instances):
    return make()[k]


def planted(inst, **cached):
    """A copy of ``inst`` whose cached properties (An, rw, M, deg) are replaced."""
    new = pr.Instance(inst.name, inst.n, inst.edges, inst.norm, inst.lam, inst.S, d=inst.d,
                      sigma=inst.sigma, seed=inst.seed, extra=dict(inst.extra))
    new.__dict__.update(cached)
    return new


# --- the instance ---

@pytest.mark.parametrize("k", range(len(IDS)), ids=IDS)
def test_the_instance_operators_match_dense_references(k):
    inst = fresh(k)
    An = ref_An(inst.n, inst.edges, inst.norm)
    np.testing.assert_allclose(inst.An, An, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(inst.rw, ref_An(inst.n, inst.edges, "rw"), rtol=1e-14)
    np.testing.assert_array_equal(inst.deg, 1 + np.bincount(np.ravel(inst.edges).astype(int),
                                                            minlength=inst.n))
    M = ref_M(inst)
    np.testing.assert_allclose(inst.M, M, rtol=1e-12, atol=1e-15)
    r = inst.lam / (inst.lam + 1)
    assert inst.r == pytest.approx(r, rel=1e-15)
    assert inst.mass == pytest.approx(1 - r ** (inst.S + 1), rel=1e-14)
    np.testing.assert_allclose(inst.rho, (M ** 2).sum(axis=1), rtol=1e-12)
    assert inst.tau == pytest.approx(inst.n * (M ** 2).sum(axis=1).max() / inst.mass ** 2,
                                     rel=1e-12)


def test_describe_and_instance_from():
    inst = pr.Instance("P3", 3, P3, "sym", 2.0, 4, d=8, sigma=0.5)
    assert inst.describe() == "P3 (n=3, 2 edges), sym, λ=2, S=4, d=8, σ=0.5"
    assert inst.describe(("S",)) == "P3 (n=3, 2 edges), sym, S=4"
    assert inst.describe(()) == "P3 (n=3, 2 edges), sym"
    a = pr.instance_from({"atlas_index": 7, "n": 3, "edges": [(0, 1), (1, 2)], "lam": 2,
                          "S": "3"}, "rw", d=5)
    assert (a.name, a.n, a.edges, a.norm, a.lam, a.S, a.d) == (
        "atlas G7", 3, [[0, 1], [1, 2]], "rw", 2.0, 3, 5)
    assert type(a.lam) is float and type(a.S) is int and all(type(e) is list for e in a.edges)
    b = pr.instance_from({"name": "mine", "n": 2, "edges": [], "lam": 1}, "sym")
    assert (b.name, b.S, b.d, b.sigma) == ("mine", 0, 8, 1.0)
    assert pr.instance_from({"n": 2, "edges": [], "lam": 1}, "sym").name == ""


def test_random_instances_are_seeded_and_inside_their_ranges():
    a = pr.random_instances(np.random.default_rng(5), 40, "sym", d_values=(3, 9), sigmas=(0.5, 2.0))
    b = pr.random_instances(np.random.default_rng(5), 40, "sym", d_values=(3, 9), sigmas=(0.5, 2.0))
    assert [(i.name, i.edges, i.lam, i.S, i.d, i.sigma) for i in a] == [
        (i.name, i.edges, i.lam, i.S, i.d, i.sigma) for i in b]
    assert len(a) == 40 and [i.seed for i in a] == list(range(40))
    assert {i.norm for i in a} == {"sym"}
    assert {i.n for i in a} <= set(range(2, 13)) and min(i.n for i in a) == 2
    assert max(i.n for i in a) == 12
    assert {i.lam for i in a} == {0.5, 1.0, 2.0, 32.0, 64.0}
    assert {i.S for i in a} <= set(range(21)) and max(i.S for i in a) >= 18
    assert {i.d for i in a} == {3, 9} and {i.sigma for i in a} == {0.5, 2.0}
    for i in a:
        n, p, seed = i.name.split("-")[1:]
        assert int(n) == i.n and 0.15 <= float(p) <= 0.9 and seed.startswith("seed")
        assert all(0 <= u < v < i.n for u, v in i.edges)
    c = pr.random_instances(np.random.default_rng(6), 3, "rw")
    assert {i.d for i in c} <= {2, 8, 64} and {i.sigma for i in c} == {1.0}


# --- the chain machinery ---

def test_run_chain_rows_report_the_worst_instance_or_the_worst_failing_one():
    insts = [pr.Instance(f"G{k}", 2, [], "rw", 1.0, 0) for k in range(4)]
    ratios = {"G0": (0.5, True), "G1": (3.0, True), "G2": (2.0, False), "G3": (1.5, False)}
    holds = pr.Step("h", "always", lambda i: (ratios[i.name][0], True))
    fails = pr.Step("f", "sometimes", lambda i: ratios[i.name])
    rows = pr.run_chain([holds, fails], insts, show=("S",))
    assert rows[0] == {"step": "h", "text": "always", "verdict": "holds", "worst_ratio": 3.0,
                       "where": "G1 (n=2, 0 edges), rw, S=0", "instances": 4,
                       "failing_instances": 0}
    # the worst failing instance, not the worst overall (G1 has the larger ratio but holds)
    assert rows[1] == {"step": "f", "text": "sometimes", "verdict": "fails", "worst_ratio": 2.0,
                       "where": "G2 (n=2, 0 edges), rw, S=0", "instances": 4,
                       "failing_instances": 2}
    assert type(rows[1]["worst_ratio"]) is float
    assert pr.first_failure(rows) is rows[1]
    assert pr.first_failure(rows[:1]) is None
    # negative ratios are still compared (the start is −∞, not 0)
    neg = pr.run_chain([pr.Step("n", "", lambda i: (-1.0 - int(i.name[1]), True))], insts)
    assert neg[0]["worst_ratio"] == -1.0 and neg[0]["where"].startswith("G0 ")
    assert pr.run_chain([holds], [])[0]["where"] == ""


def test_step_row_keys():
    assert pr.step_row("k", "t", "fails", 2.5, "w", 3, 1) == {
        "step": "k", "text": "t", "verdict": "fails", "worst_ratio": 2.5, "where": "w",
        "instances": 3, "failing_instances": 1}


def test_eq_and_le_at_their_tolerances():
    assert pr._eq([1.0, 2.0], [1.0, 2.0]) == (1.0, True)
    # just inside and just outside the relative tolerance (1.8 and 2.2 × 1e-10 of rhs = 2)
    ratio, ok = pr._eq([0.0, 2.0 + 1.8 * pr.EQ_RTOL], [0.0, 2.0])
    assert ok and ratio - 1 == pytest.approx(0.9 * pr.EQ_RTOL, rel=1e-5)
    ratio, ok = pr._eq([0.0, 2.0 + 2.2 * pr.EQ_RTOL], [0.0, 2.0])
    assert not ok and ratio - 1 == pytest.approx(1.1 * pr.EQ_RTOL, rel=1e-5)
    assert pr._eq([3.0], [1.0], 4.0) == (1.5, False)
    assert pr._eq([1.0], [-4.0]) == (1.0 + 5 / 4, False)      # the scale is max |rhs|
    assert pr._eq([0.0], [0.0]) == (1.0, True)                # no 0/0 on a zero rhs
    assert pr._eq([1e-300], [0.0]) == (2.0, False)
    assert pr._le([1.0, 3.0], [2.0, 4.0]) == (0.75, True)
    assert pr._le([2.0], [2.0 / (1 + 0.9 * pr.LE_RTOL)])[1]
    assert not pr._le([2.0], [2.0 / (1 + 1.1 * pr.LE_RTOL)])[1]
    assert pr._le([1.0, 5.0], [2.0, 4.0]) == (1.25, False)


# --- appendix B: the Neumann series ---

@pytest.mark.parametrize("k", range(len(IDS)), ids=IDS)
def test_neumann_steps_hold_with_their_ratios(k):
    inst = fresh(k)
    A = inst.r * ref_An(inst.n, inst.edges, inst.norm)
    rho = max(abs(np.linalg.eigvals(A)))
    ratio, ok = pr._sym_eig_to_rw(inst)
    assert ok and 1.0 <= ratio <= 1 + 1e-13
    # Gerschgorin: the best disc for each eigenvalue, a loop over discs
    P = ref_An(inst.n, inst.edges, "rw")
    worst = 0.0
    for mu in np.linalg.eigvals(P):
        best = math.inf
        for i in range(inst.n):
            R = sum(abs(P[i, j]) for j in range(inst.n) if j != i)
            dist = abs(mu - P[i, i])
            best = min(best, dist / R if R > 0 else (0.0 if dist <= 1e-12 else math.inf))
        worst = max(worst, best)
    ratio, ok = pr._gershgorin(inst)
    assert ok and ratio == pytest.approx(worst, rel=1e-9, abs=1e-12)
    mu = np.linalg.eigvals(ref_An(inst.n, inst.edges, inst.norm)).real
    assert pr._eig_range(inst) == (pytest.approx(max(mu.max(), -mu.min()), rel=1e-12), True)
    ratio, ok = pr._spectral_radius(inst)
    assert ok and ratio == pytest.approx(rho / inst.r, rel=1e-12)
    # Gelfand: ρ ≤ ‖A^k‖^{1/k} ≤ ‖A‖, ratio the largest of ρ/g_k and g_k/‖A‖ for k = 1..S+1
    gs = [np.linalg.norm(np.linalg.matrix_power(A, k), 2) ** (1 / k)
          for k in range(1, max(inst.S, 1) + 2)]
    want = max(max(rho / g if g else 0.0, g / np.linalg.norm(A, 2)) for g in gs)
    ratio, ok = pr._gelfand(inst)
    assert ok and ratio == pytest.approx(want, rel=1e-9)
    for step in (pr._telescoping, pr._gsd_identity, pr._series_limit):
        ratio, ok = step(inst)
        assert ok and 1.0 <= ratio <= 1 + 1e-9, step.__name__


def test_neumann_steps_fail_where_their_hypotheses_are_planted_away():
    base = pr.Instance("K2", 2, [[0, 1]], "rw", 1.0, 3)
    # an eigenvector of the sym matrix that is not one of the planted rw matrix
    bad_rw = planted(base, rw=np.array([[0.5, 0.5], [0.2, 0.8]]))
    ratio, ok = pr._sym_eig_to_rw(bad_rw)
    assert not ok and ratio > 1.1
    # eigenvalue range: −1 is excluded, 1 + 1e-9 is outside the tolerance
    flip = planted(base, An=np.array([[0.0, 1.0], [1.0, 0.0]]))
    assert pr._eig_range(flip) == (pytest.approx(1.0), False)
    over = planted(base, An=np.diag([1 + 1e-9, 0.5]))
    assert pr._eig_range(over) == (pytest.approx(1 + 1e-9, rel=1e-15), False)
    edge = planted(base, An=np.diag([1 + 1e-11, -1 + 1e-9]))
    assert pr._eig_range(edge)[1]
    # spectral radius above r, and r = 0 (λ = 0: ρ = 0 ≤ 0)
    big = planted(base, An=np.diag([1.5, 0.0]))
    assert pr._spectral_radius(big) == (pytest.approx(1.5), False)
    zero = pr.Instance("K2", 2, [[0, 1]], "rw", 0.0, 3)
    assert pr._spectral_radius(zero) == (0.0, True)
    # the series diverges when ρ(rÃ) > 1: its partial sum is not the inverse
    div = planted(base, An=np.diag([2.5, 0.5]))
    ratio, ok = pr._series_limit(div)
    assert not ok and ratio > 1e3
    # ρ(rÃ) = 0.95 with r = 1/2: K = 47 terms (chosen from r alone) leave 0.95^48 ≈ 8.5 % of
    # the inverse unsummed, which the step reports (a ratio of 1.085, below 2)
    slow_planted = planted(base, An=np.diag([1.9, 0.0]))
    ratio, ok = pr._series_limit(slow_planted)
    assert not ok and ratio == pytest.approx(1 + 0.95 ** 48, rel=1e-9)
    # λ = 0: r = 0, rÃ = 0, the series is I (no logarithm of 0)
    assert pr._series_limit(pr.Instance("K2", 2, [[0, 1]], "rw", 0.0, 3)) == (1.0, True)
    # a slowly converging series at λ = 1024 is still summed far enough (K from r^K ≤ 1e-14)
    slow = pr.Instance("K2", 2, [[0, 1]], "rw", 1024.0, 3)
    ratio, ok = pr._series_limit(slow)
    assert ok and ratio - 1 <= 1e-10


# --- appendix C: row sums ---

@pytest.mark.parametrize("k", range(len(IDS)), ids=IDS)
def test_row_sum_steps_against_dense_powers(k):
    inst = fresh(k)
    An = ref_An(inst.n, inst.edges, inst.norm)
    one = np.ones(inst.n)
    dev = lambda v, w: float(np.abs(v - w).max())   # noqa: E731
    ratio, ok = pr._stochastic_hypothesis(inst)
    assert ratio == pytest.approx(1 + dev(An.sum(axis=1), one), rel=1e-12)
    assert ok == (inst.norm == "rw" or dev(An.sum(axis=1), one) <= 1e-12)
    powers = [1 + dev(np.linalg.matrix_power(An, s).sum(axis=1), one)
              for s in range(1, max(inst.S, 1) + 1)]
    ratio, ok = pr._powers_stochastic(inst)
    assert ratio == pytest.approx(max(powers), rel=1e-12)
    assert ok == (max(powers) - 1 <= pr.EQ_RTOL)
    ratio, ok = pr._row_linearity(inst)
    assert ok and ratio <= 1 + 1e-12
    r = inst.r
    series = sum(r ** s * np.linalg.matrix_power(An, s).sum(axis=1) for s in range(inst.S + 1))
    geo = sum(r ** s for s in range(inst.S + 1))
    ratio, ok = pr._row_powers_to_one(inst)
    assert ratio == pytest.approx(1 + dev(series, geo) / geo, rel=1e-9, abs=1e-14)
    assert ok == (dev(series, geo) / geo <= pr.EQ_RTOL)
    assert pr._geometric(inst) == (1.0, True)


def test_row_sum_steps_fail_on_sym_and_on_a_planted_operator():
    p3 = pr.Instance("P3", 3, P3, "sym", 1.0, 2)
    # P3 sym: row sums (1/2 + 1/√6, 1/3 + 2/√6, …): the hypothesis and the power steps fail
    assert pr._stochastic_hypothesis(p3) == (pytest.approx(1 + 2 / math.sqrt(6) - 2 / 3), False)
    assert not pr._powers_stochastic(p3)[1] and not pr._row_powers_to_one(p3)[1]
    assert pr._row_linearity(p3)[1]                  # linearity holds in every normalisation
    rw = pr.Instance("P3", 3, P3, "rw", 1.0, 2)
    ratio, ok = pr._row_linearity(planted(rw, M=rw.M * 1.01))
    assert not ok and ratio == pytest.approx(1.01, rel=1e-12)   # scale: max |rhs|
    # the S = 0 power step still looks at P¹ (max(S, 1) powers)
    s0 = pr.Instance("P3", 3, P3, "sym", 1.0, 0)
    assert not pr._powers_stochastic(s0)[1]


# --- our two-node lemma (Eq. 17) ---

def two_node(edges, norm, eps, X, lam=2.0):
    return pr.Instance("two", 2, edges, norm, lam, 3, extra={"X": X, "eps": eps})


def two_nodes():
    return [two_node(e, norm, eps, X)
            for e in ([[0, 1]], []) for norm in ("rw", "sym") for eps in (0.0, 0.5, 1.0)
            for X in (np.array([[1.0, 2.0], [0.5, -1.0]]), np.array([[3.0], [0.0]]))]


@pytest.mark.parametrize("k", range(len(two_nodes())))
def test_two_node_steps_against_closed_forms(k):
    inst = fresh(k, two_nodes)
    X, eps = inst.extra["X"], inst.extra["eps"]
    G = X @ X.T
    P = G / np.linalg.norm(G, "fro")
    An = ref_An(2, inst.edges, inst.norm)
    assert pr._two_symmetric(inst) == (1.0, True)
    # spec(Ã) = {0, 1} on K2 and {1, 1} without the edge
    assert pr._two_spectrum(inst) == (pytest.approx(1.0 if inst.edges else 0.0, abs=1e-15), True)
    ratio, ok = pr._p_psd(inst)
    mu = np.linalg.eigvalsh(P)
    assert ok and ratio == pytest.approx(max(mu.max(), 1 - mu.min()), rel=1e-12)
    assert pr._weyl(inst)[1] and pr._weyl(inst)[0] <= 1 + 1e-12
    b = np.linalg.eigvalsh(An - eps * P)
    assert pr._two_interval(inst) == (pytest.approx(np.abs(b).max(), rel=1e-12), True)
    assert pr._two_radius(inst) == (pytest.approx(np.abs(b).max(), rel=1e-12), True)


def test_two_node_steps_fail_outside_their_setting():
    X = np.array([[1.0, 2.0], [0.5, -1.0]])
    p3 = pr.Instance("P3", 3, P3, "rw", 2.0, 3, extra={"X": np.ones((3, 2)), "eps": 0.5})
    assert not pr._two_spectrum(p3)[1]                 # n = 3 is not the lemma's setting
    assert not pr._two_symmetric(pr.Instance("P3", 3, P3, "rw", 2.0, 3))[1]
    # ε > 1 leaves the interval [−1, 1]; ε < 0 is outside the lemma's 0 ≤ ε ≤ 1
    for eps in (1.5, -0.25):
        assert not pr._two_interval(two_node([[0, 1]], "rw", eps, X))[1]
    # a planted Ã with a negative eigenvalue breaks R2.2, an asymmetric one R2.1
    k2 = two_node([[0, 1]], "rw", 0.5, X)
    neg = planted(k2, An=np.array([[0.0, 1.0], [1.0, 0.0]]))
    assert pr._two_spectrum(neg) == (pytest.approx(2.0), False)
    assert pr._two_symmetric(planted(k2, An=np.array([[0.5, 0.5], [0.2, 0.8]]))) == (
        pytest.approx(1.3), False)
    # a planted Ã above 1 breaks the interval and the radius; Weyl's upper side too
    over = planted(two_node([[0, 1]], "rw", 0.0, X), An=np.diag([1.2, 0.5]))
    assert not pr._two_interval(over)[1] and not pr._two_radius(over)[1]
    assert pr._two_radius(over)[0] > 1
    # Weyl's lower side: planting P through X never breaks it (a theorem); a non-PSD "P" would
    indefinite = two_node([[0, 1]], "rw", 1.0, np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert pr._weyl(indefinite)[1]


# --- appendix D: Lemma 1 ---

@pytest.mark.parametrize("k", range(len(IDS)), ids=IDS)
def test_lemma_1_steps_against_their_formulas(k):
    inst = fresh(k)
    M = ref_M(inst)
    rho = (M ** 2).sum(axis=1)
    t = inst.sigma * math.sqrt(rho.max()) * np.linspace(0.25, 12.0, 96)
    np.testing.assert_allclose(pr._tail_grid(inst), t, rtol=1e-13)
    assert pr._entry_definition(inst)[1]
    r = inst.lam / (inst.lam + 1)
    m = 1 - r ** (inst.S + 1)
    tau = inst.n * rho.max() / m ** 2
    bound = 2 * np.exp(-inst.n * t ** 2 / (2 * tau * m ** 2 * inst.sigma ** 2))
    tails = np.array([[math.erfc(x / (inst.sigma * math.sqrt(2 * p))) for x in t]
                      for p in rho if p > 0]).max(axis=0)
    ratio, ok = pr._hoeffding_entry(inst)
    assert ratio == pytest.approx((tails / bound).max(), rel=1e-9) and ok
    q = np.array([math.erfc(x / (inst.sigma * math.sqrt(2 * rho.max()))) for x in t])
    lower = 1 - (1 - q) ** inst.d
    printed = 2 * inst.n ** 2 * np.exp(-t ** 2 / (2 * inst.sigma ** 2 * rho.max()))
    ratio, ok = pr._union_pairs(inst)
    assert ratio == pytest.approx((lower / printed).max(), rel=1e-7)
    assert ok == ((lower / printed).max() <= 1 + pr.LE_RTOL)
    assert pr._frobenius_to_max(inst) == (pytest.approx(inst.n * inst.d, rel=1e-9),
                                          inst.n * inst.d == 1)
    prob = 2 * inst.n ** 4 * math.exp(-(4 * math.log(inst.n) + math.log(2 * inst.d))
                                      / inst.sigma ** 2)
    ratio, ok = pr._choice_of_t(inst)
    assert ratio == pytest.approx(prob * inst.d, rel=1e-12)
    assert ok == (prob * inst.d <= 1 + pr.LE_RTOL)
    # Paley–Zygmund: E = d‖M‖_F², Var = 2d‖MᵀM‖_F², bound B, θ = B/E
    E = inst.d * (M ** 2).sum()
    V = 2 * inst.d * ((M.T @ M) ** 2).sum()
    B = 2 * rho.max() * (4 * math.log(inst.n) + math.log(2 * inst.d))
    pz = (1 - B / E) ** 2 * E ** 2 / (V + E ** 2) if B < E else 0.0
    ratio, ok = pr._conclusion(inst)
    assert ratio == pytest.approx(pz * inst.d, rel=1e-9, abs=1e-300)
    assert ok == (pz * inst.d <= 1 + pr.LE_RTOL)


def test_lemma_1_steps_at_known_values():
    # σ = 1: 2n⁴ exp(−(4 log n + log 2d)) = 1/d exactly, the choice of t is at its boundary
    one = pr.Instance("P3", 3, P3, "rw", 2.0, 3, d=8)
    assert pr._choice_of_t(one) == (pytest.approx(1.0, rel=1e-12), True)
    # σ = 2: the exponent is divided by σ² and the probability exceeds 1/d
    two = pr.Instance("P3", 3, P3, "rw", 2.0, 3, d=8, sigma=2.0)
    ratio, ok = pr._choice_of_t(two)
    assert not ok and ratio == pytest.approx(2 * 81 * math.exp(-(4 * math.log(3)
                                                                  + math.log(16)) / 4) * 8)
    # one node, one feature: ‖Z‖_F² = ‖Z‖_max² (the only n·d = 1 case the step holds on)
    assert pr._frobenius_to_max(pr.Instance("K1", 1, [], "rw", 1.0, 0, d=1)) == (1.0, True)
    # K1 at d = 16: 16 entries against n² = 1 pair, the union bound fails; Paley–Zygmund too
    k1 = pr.Instance("K1", 1, [], "rw", 1.0, 0, d=16)
    assert not pr._union_pairs(k1)[1] and not pr._conclusion(k1)[1]
    # the entry's definition fails on a planted M that is not what Z was computed with? No:
    # both sides use inst.M; the step is an identity of einsum and @ (holds on any M)
    assert pr._entry_definition(planted(one, M=np.arange(9.0).reshape(3, 3)))[1]


# --- appendix E: Theorem 1's last display ---

def theorem_instances():
    return [pr.Instance(f"{name}-{norm}-{sigma}", n, edges, norm, lam, S, d=2, sigma=sigma,
                        seed=seed, extra={"k": 400})
            for (name, n, edges, lam, S, seed) in (("P3", 3, P3, 2.0, 3, 1),
                                                   ("star", 4, [[0, 1], [0, 2], [0, 3]], 32.0,
                                                    5, 2),
                                                   ("K2+K1", 3, [[0, 1]], 0.5, 1, 3))
            for norm in ("rw", "sym") for sigma in (0.1, 1.0)]


@pytest.mark.parametrize("k", range(12), ids=[i.name for i in theorem_instances()])
def test_theorem_1_last_display_against_its_setting(k):
    inst = fresh(k, theorem_instances)
    Xs, eta, Y, Wg, W, W0, alpha, k = pr._theorem_setting(inst)
    assert pr._theorem_setting(inst) is inst.extra["theorem"]      # kept on the instance
    M = ref_M(inst)
    n, d = inst.n, inst.d
    assert Xs.shape == eta.shape == (n, d) and Y.shape == (n, 2) and W.shape == W0.shape == (d, 2)
    assert k == 400 and not W0.any()
    # Y is in the range of Ã_SX*, so W_g* fits it exactly (g(W_g*) = 0 to rounding)
    fro2 = lambda Z: float((Z ** 2).sum())   # noqa: E731
    assert fro2(M @ Xs @ Wg - Y) <= 1e-20 * max(fro2(Y), 1.0)
    # α = 1/L, L = 2‖Ã_S(X* + η)‖₂², and W is k gradient steps on f from 0
    H = M @ (Xs + eta)
    assert alpha == pytest.approx(1 / (2 * np.linalg.norm(H, 2) ** 2), rel=1e-12)
    Wref = np.zeros((d, 2))
    for _ in range(k):
        Wref -= alpha * 2 * H.T @ (H @ Wref - Y)
    np.testing.assert_allclose(W, Wref, rtol=1e-9, atol=1e-12)
    assert fro2(H @ W - Y) < fro2(Y)                  # the steps descend
    # the noise is σ times a standard normal draw: its scale follows σ
    assert np.std(eta) == pytest.approx(inst.sigma, rel=0.9)
    g = lambda V: fro2(M @ Xs @ V - Y)       # noqa: E731
    lhs = g(W) - g(Wg)
    ratio, ok = pr._t1_expansion(inst)
    assert ok and ratio <= 1 + 1e-9
    first = fro2(W0 - Wg) / (2 * k * alpha)
    e = math.sqrt(fro2(M @ eta))
    ag, bg = e * math.sqrt(fro2(Wg)), math.sqrt(fro2(M @ Xs @ Wg - Y))
    af, bf = e * math.sqrt(fro2(W)), math.sqrt(fro2(H @ W - Y))
    terms = pr._t1_terms(inst)
    assert terms[0] == pytest.approx(lhs, rel=1e-9, abs=1e-15)
    assert terms[1] == pytest.approx(first, rel=1e-12)
    np.testing.assert_allclose(terms[2], (ag, bg), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(terms[3], (af, bf), rtol=1e-9)
    printed = first + ag ** 2 * (2 * bg ** 2 + ag ** 2) + af ** 2 * (2 * bf ** 2 + af ** 2)
    ratio, ok = pr._t1_bound(inst)
    assert ratio == pytest.approx(lhs / printed, rel=1e-7, abs=1e-15)
    assert ok == (lhs <= printed * (1 + pr.LE_RTOL))
    cs = first + ag * (2 * bg + ag) + af * (2 * bf + af)
    ratio, ok = pr._t1_cauchy_schwarz(inst)
    assert ratio == pytest.approx(lhs / cs, rel=1e-7, abs=1e-15) and ok


def test_theorem_1_setting_defaults_and_its_expansion_on_any_setting():
    inst = pr.Instance("P3", 3, P3, "rw", 2.0, 3, d=2, seed=4)
    assert pr._theorem_setting(inst)[7] == 5000
    # the expansion is an identity in X*, η, Y, W and W_g*: it holds on random ones too (where
    # Y is not in the range of Ã_SX*, so no term of it vanishes), and each of its terms counts
    rng = np.random.default_rng(9)
    Xs, eta, Y, Wg, W = (rng.standard_normal(s) for s in ((3, 2), (3, 2), (3, 2), (2, 2), (2, 2)))
    Z = np.zeros((2, 2))
    inst.extra["theorem"] = (Xs, eta, Y, Wg, W, Z, 1.0, 10)
    ratio, ok = pr._t1_expansion(inst)
    assert ok and ratio <= 1 + 1e-12
    M = ref_M(inst)
    residual = M @ Xs @ Wg - Y
    assert np.abs(residual).min() > 1e-3 and np.abs(M @ eta @ Wg).min() > 1e-3
    # the bound's ratio is ∞ when its right-hand side is 0 (W = W_g* = W⁰ and no noise)
    zero = pr.Instance("P3", 3, P3, "rw", 2.0, 3, d=2)
    Z = np.zeros((2, 2))
    zero.extra["theorem"] = (np.ones((3, 2)), np.zeros((3, 2)), np.zeros((3, 2)), Z, Z, Z,
                             1.0, 10)
    assert pr._t1_bound(zero) == (math.inf, True)
    assert pr._t1_cauchy_schwarz(zero) == (math.inf, True)


def test_planted_operators_show_the_ratio_each_step_reports():
    base = pr.Instance("K3", 3, [[0, 1], [1, 2], [0, 2]], "rw", 1.0, 2)
    # eigenvalue range: the ratio is the larger of max μ and −min μ
    assert pr._eig_range(planted(base, An=np.diag([0.5, -0.9, 0.1]))) == (
        pytest.approx(0.9), True)
    # Gerschgorin on a planted rw matrix with an isolated row (R = 0, the disc is the point 1):
    # μ = 0.8 lies on the edge of rows 1 and 2's discs (ratio 1); the point disc is not used
    rw = np.array([[1.0, 0.0, 0.0], [0.0, 0.9, 0.1], [0.0, 0.1, 0.9]])
    assert pr._gershgorin(planted(base, rw=rw)) == (pytest.approx(1.0, rel=1e-12), True)


def test_run_chain_ties_keep_the_first_instance():
    insts = [pr.Instance(f"G{k}", 2, [], "rw", 1.0, 0) for k in range(3)]
    rows = pr.run_chain([pr.Step("tie", "", lambda i: (2.0, i.name == "G1")),
                         pr.Step("bad tie", "", lambda i: (2.0, False)),
                         pr.Step("good tie", "", lambda i: (2.0, True))], insts, show=())
    assert rows[0]["where"].startswith("G0 ") and rows[0]["verdict"] == "fails"
    assert rows[1]["where"].startswith("G0 ") and rows[1]["failing_instances"] == 3
    assert rows[2]["where"].startswith("G0 ") and rows[2]["verdict"] == "holds"


def test_choice_of_t_just_above_sigma_one():
    # 2n⁴d·exp(−(4 log n + log 2d)/σ²) = (2n⁴d)^{1 − 1/σ²}: at σ = 1.03, n = 3, d = 8 it is
    # 1296^{0.0574} ≈ 1.51, above 1 (the step fails) and below 2
    inst = pr.Instance("P3", 3, P3, "rw", 2.0, 3, d=8, sigma=1.03)
    ratio, ok = pr._choice_of_t(inst)
    assert ratio == pytest.approx(1296 ** (1 - 1 / 1.03 ** 2), rel=1e-12)
    assert 1 < ratio < 2 and not ok


def _set(inst, seed, c):
    """A setting where no term of the last display vanishes: Y outside the range of Ã_SX*,
    W_g* and W random (not the fit), W⁰ = W_g* + c·(random), small noise; the first term grows
    like c², so the grid of c crosses each bound."""
    rng = np.random.default_rng(seed)
    Xs, Y = (rng.standard_normal((inst.n, 2)) for _ in range(2))
    eta = 1e-3 * rng.standard_normal((inst.n, 2))
    Wg, W, D = (rng.standard_normal((2, 2)) for _ in range(3))
    inst.extra["theorem"] = (Xs, eta, Y, Wg, 3 * W, Wg + c * D, 0.05, 7)
    return inst.extra["theorem"]


def test_theorem_1_terms_and_bounds_on_settings_where_no_term_vanishes():
    fro2 = lambda Z: float((Z ** 2).sum())   # noqa: E731
    seen_bound, seen_cs = [], []
    for seed, c in itertools.product(range(3), np.geomspace(0.01, 10, 25)):
        inst = pr.Instance("P3", 3, P3, "sym", 2.0, 2, d=2)
        Xs, eta, Y, Wg, W, W0, alpha, k = _set(inst, seed, c)
        M = ref_M(inst)
        lhs = fro2(M @ Xs @ W - Y) - fro2(M @ Xs @ Wg - Y)
        first = fro2(W0 - Wg) / (2 * k * alpha)
        e = math.sqrt(fro2(M @ eta))
        ag, bg = e * math.sqrt(fro2(Wg)), math.sqrt(fro2(M @ Xs @ Wg - Y))
        af, bf = e * math.sqrt(fro2(W)), math.sqrt(fro2(M @ (Xs + eta) @ W - Y))
        terms = pr._t1_terms(inst)
        assert terms[0] == pytest.approx(lhs, rel=1e-12, abs=1e-12)
        assert terms[1] == pytest.approx(first, rel=1e-12)
        np.testing.assert_allclose(terms[2] + terms[3], (ag, bg, af, bf), rtol=1e-12)
        printed = first + ag ** 2 * (2 * bg ** 2 + ag ** 2) + af ** 2 * (2 * bf ** 2 + af ** 2)
        cs = first + ag * (2 * bg + ag) + af * (2 * bf + af)
        for step, rhs, seen in ((pr._t1_bound, printed, seen_bound),
                                (pr._t1_cauchy_schwarz, cs, seen_cs)):
            ratio, ok = step(inst)
            assert ratio == pytest.approx(lhs / rhs, rel=1e-10, abs=1e-14)
            assert ok == (lhs <= rhs * (1 + pr.LE_RTOL))
            seen.append(lhs / rhs)
    # the settings reach both sides of each bound, and ratios between 1 and 2 (a step that
    # compared with twice its bound would pass them)
    for seen in (seen_bound, seen_cs):
        assert min(seen) < 1 < max(seen) and any(1 < r < 2 for r in seen)
