"""The exact certificates of theory/exact/certificates.py against independent references.

Each ``certify_*`` turns exact arithmetic into a verdict. The references here are written
separately: dense matrices in mpmath at 60 digits (Ã_sym with real square roots, Ã_S as the plain
power sum Σ_s r^s Ã^s/(λ+1), not the module's Horner form or its √(d̃_i/d̃_j) identity), and
closed forms. A quantity the module calls zero must be below 1e-40 in the reference and one it
calls non-zero above 1e-20, so the float reference decides the same question independently.
Graphs: n ≤ 4 nodes, chosen at and beside each certificate's decision boundary.
"""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats

from ngc_ref_theory.exact import certificates as ex

mp = mpmath.MPContext()      # a context of its own: the global mpmath precision stays as it is
mp.dps = 60
TINY, BIG = mp.mpf(10) ** -40, mp.mpf(10) ** -20

P3 = (3, [[0, 1], [1, 2]])
STAR4 = (4, [[0, 1], [0, 2], [0, 3]])
K2 = (2, [[0, 1]])
K3 = (3, [[0, 1], [1, 2], [0, 2]])
ONE_NODE = (1, [])
EMPTY2 = (2, [])
EDGE_PLUS_ISOLATED = (3, [[1, 2]])
GRAPHS = {"P3": P3, "star4": STAR4, "K2": K2, "K3": K3, "one": ONE_NODE, "empty2": EMPTY2,
          "edge+isolated": EDGE_PLUS_ISOLATED}


def ref_adj(n, edges, norm):
    """Ã (rw: D̃⁻¹(A + I); sym: D̃^{-1/2}(A + I)D̃^{-1/2}) as an mpmath matrix."""
    A = mp.eye(n)
    for u, v in edges:
        A[u, v] = A[v, u] = 1
    d = [sum(A[i, j] for j in range(n)) for i in range(n)]
    out = mp.matrix(n, n)
    for i in range(n):
        for j in range(n):
            out[i, j] = A[i, j] / d[i] if norm == "rw" else A[i, j] / mp.sqrt(d[i] * d[j])
    return out


def ref_AS(n, edges, lam, S, norm):
    """Ã_S = Σ_{s=0}^S r^s Ã^s/(λ+1), the plain power sum."""
    lam = mp.mpf(Fraction(lam).numerator) / Fraction(lam).denominator
    r, An = lam / (lam + 1), ref_adj(n, edges, norm)
    out, P = mp.matrix(n, n), mp.eye(n)
    for s in range(S + 1):
        out += P * r ** s / (lam + 1)
        P = P * An
    return out


def ref_mass(lam, S):
    lam = Fraction(lam)
    return 1 - (lam / (lam + 1)) ** (S + 1)


def mpf(x):
    x = Fraction(x)
    return mp.mpf(x.numerator) / x.denominator


def decided(x):
    """-1, 0, 1 for a reference value, refusing an undecided one."""
    assert abs(x) < TINY or abs(x) > BIG, f"reference cannot decide {x}"
    return 0 if abs(x) < TINY else (1 if x > 0 else -1)


def rows(n, edges, lam, S, norm):
    M = ref_AS(n, edges, lam, S, norm)
    return ([sum(M[i, j] for j in range(n)) for i in range(n)],
            [sum(M[i, j] ** 2 for j in range(n)) for i in range(n)])


CASES = [(g, lam, S, norm) for g in GRAPHS for lam, S in [(1, 1), (Fraction(1, 2), 2)]
         for norm in ("rw", "sym")]


# --- Eq. 6: row sums ----------------------------------------------------------------------------

@pytest.mark.parametrize("g, lam, S, norm", CASES)
def test_row_sum_certificate_is_the_exact_row_sum_test(g, lam, S, norm):
    n, edges = GRAPHS[g]
    sums, _ = rows(n, edges, lam, S, norm)
    m = ref_mass(lam, S)
    bad = [i for i, x in enumerate(sums) if decided(x - mpf(m)) != 0]
    cert = ex.certify_row_sum(n, edges, lam, S, norm)
    assert cert["fails"] is bool(bad) and cert["bad_rows"] == bad
    assert cert["certified"] == "exact"
    assert cert["exact"]["1 − r^(S+1)"] == str(m)
    assert cert["numbers"]["mass"] == float(m)
    assert cert["numbers"]["rows"] == pytest.approx([float(x) for x in sums], rel=1e-14)
    assert ("linearly independent" in cert["why"]) is (norm == "sym")
    key = [k for k in cert["exact"] if k.endswith("− (1 − r^(S+1))")]
    if bad:
        i = bad[0]
        assert key == [f"row {i} sum − (1 − r^(S+1))"]
        assert float(cert["exact"][key[0]].split("≈")[1]) == pytest.approx(
            float(sums[i] - mpf(m)), rel=1e-5)
    else:
        assert key == []
    for i, x in enumerate(sums):
        assert float(eval_text(cert["exact"][f"row {i} sum"])) == pytest.approx(float(x), 1e-14)


def eval_text(s):
    """The value of a Surd's text 'a + b√k/c - …' (rational p/q too), in mpmath."""
    s = s.replace(" - ", " + -").replace("−", "-")
    total = mp.mpf(0)
    for term in s.split(" + "):
        term = term.strip()
        sign = -1 if term.startswith("-") else 1
        term = term.lstrip("-")
        if "√" in term:
            head, tail = term.split("√")
            k, _, den = tail.partition("/")
            total += sign * Fraction(head or 1) * mp.sqrt(int(k)) / int(den or 1)
        else:
            total += sign * mpf(Fraction(term))
    return total


def test_row_sum_hand_case_p3_sym():
    """P3, λ = 1, S = 1, sym: row 0 sums to 5/8 + √6/24 < 3/4 and row 1 to 7/12 + √6/12 > 3/4
    (by hand: Ã_S = I/2 + Ã/4); every row is off, so all three are bad."""
    cert = ex.certify_row_sum(*P3, 1, 1, "sym")
    assert cert["bad_rows"] == [0, 1, 2]
    assert cert["exact"]["row 0 sum"] == "5/8 + √6/24"
    assert cert["exact"]["row 1 sum"] == "7/12 + √6/12"
    assert cert["exact"]["row 0 sum − (1 − r^(S+1))"].startswith("-1/8 + √6/24 ≈ -0.0229")


# --- Eq. 7: row square sums -----------------------------------------------------------------

@pytest.mark.parametrize("g, lam, S, norm", CASES + [("P3", 64, 6, "sym"), ("P3", 64, 3, "sym")])
def test_row_squares_certificate_is_the_exact_eq7_test(g, lam, S, norm):
    n, edges = GRAPHS[g]
    _, rho = rows(n, edges, lam, S, norm)
    m2 = ref_mass(lam, S) ** 2
    bad = [(i, "lower") for i, x in enumerate(rho) if decided(x - mpf(m2 / n)) < 0]
    bad += [(i, "upper") for i, x in enumerate(rho) if decided(x - mpf(m2)) > 0]
    cert = ex.certify_row_squares(n, edges, lam, S, norm)
    assert cert["fails"] is bool(bad) and cert["bad_rows"] == bad
    assert cert["exact"]["(1 − r^(S+1))²/n"] == str(m2 / n)
    assert cert["exact"]["(1 − r^(S+1))²"] == str(m2)
    assert cert["numbers"]["low"] == float(m2 / n) and cert["numbers"]["high"] == float(m2)
    assert cert["numbers"]["rho"] == pytest.approx([float(x) for x in rho], rel=1e-14)
    for i, x in enumerate(rho):
        assert float(Fraction(cert["exact"][f"ρ_{i} = Σ_j [Ã_S]_{i}j²"])) == pytest.approx(
            float(x), rel=1e-14)
    if bad:
        i, which = bad[0]
        diff = rho[i] - mpf(m2 / n if which == "lower" else m2)
        assert float(cert["exact"][f"ρ_{i} − {which} bound"].split("≈")[1]) == pytest.approx(
            float(diff), rel=1e-5)


def test_row_squares_at_both_bounds_does_not_fail():
    """One node: ρ_0 = m² equals both bounds (m²/1 and m²); equality is allowed by Eq. 7."""
    m2 = ref_mass(3, 2) ** 2
    cert = ex.certify_row_squares(*ONE_NODE, 3, 2, "rw")
    assert cert["exact"]["ρ_0 = Σ_j [Ã_S]_0j²"] == str(m2)
    assert not cert["fails"] and cert["bad_rows"] == []


def test_row_squares_sym_fails_somewhere():
    """The report's minimal sym counterexample (the 3-node path, λ = 64, S = 6) breaks Eq. 7's
    lower bound at both leaves (the reference agrees: the parametrised case above)."""
    cert = ex.certify_row_squares(*P3, 64, 6, "sym")
    assert cert["fails"] and cert["bad_rows"] == [(0, "lower"), (2, "lower")]


# --- τ = n only if all isolated; Remark 1's lower bound ---------------------------------------

@pytest.mark.parametrize("g, lam, S, norm", CASES + [(g, 1, 0, nm) for g in GRAPHS
                                                     for nm in ("rw", "sym")])
def test_tau_certificates_against_reference_tau(g, lam, S, norm):
    n, edges = GRAPHS[g]
    _, rho = rows(n, edges, lam, S, norm)
    m2 = mpf(ref_mass(lam, S) ** 2)
    t = [n * x / m2 for x in rho]
    at_n = decided(max(t) - n) == 0
    isolated = all(not any(i in e for e in edges) for i in range(n))
    cert = ex.certify_tau_only_if(n, edges, lam, S, norm)
    assert cert["fails"] is (at_n and not isolated)
    assert cert["exact"]["n"] == str(n)
    assert float(Fraction(cert["exact"]["τ"])) == pytest.approx(float(max(t)), rel=1e-14)
    for i, x in enumerate(t):
        assert float(Fraction(cert["exact"][f"τ_{i}"])) == pytest.approx(float(x), rel=1e-14)
    assert cert["numbers"]["tau_i"] == pytest.approx([float(x) for x in t], rel=1e-14)
    if cert["fails"]:
        hub = sorted({v for e in edges for v in e})
        assert "have neighbours" in cert["why"] and str(hub) in cert["why"]
    low = ex.certify_lower_not_reached(n, edges, lam, S, norm)
    assert low["fails"] is all(decided(x - 1) != 0 for x in t)
    assert float(low["exact"]["min_i τ_i − 1"].split("≈")[1]) == pytest.approx(
        float(min(t) - 1), rel=1e-5, abs=1e-30)
    assert Fraction(low["exact"]["min_i τ_i − 1"].split("≈")[0]) == Fraction(
        low["exact"][f"τ_{int(np.argmin([float(x) for x in t]))}"]) - 1
    assert low["numbers"]["tau_i"] == pytest.approx([float(x) for x in t], rel=1e-14)


def test_tau_only_if_hand_cases():
    """S = 0: Ã_S = I/(λ+1), every τ_i = n; the claim fails unless every node is isolated."""
    cert = ex.certify_tau_only_if(*EDGE_PLUS_ISOLATED, 1, 0, "rw")
    assert cert["fails"] and "node(s) [1, 2] have neighbours" in cert["why"]
    assert not ex.certify_tau_only_if(*EMPTY2, 1, 0, "rw")["fails"]       # all isolated
    assert not ex.certify_tau_only_if(*K2, 1, 1, "rw")["fails"]           # τ < n


def test_lower_bound_reached_only_by_a_row_with_tau_one():
    assert not ex.certify_lower_not_reached(*ONE_NODE, 2, 3, "sym")["fails"]   # τ_0 = 1
    cert = ex.certify_lower_not_reached(*K3, 1, 1, "rw")
    tau = ex.complete_tau(3, 1, 1)                                              # closed form
    assert cert["fails"] and cert["exact"]["τ_0"] == str(tau)
    assert cert["exact"]["min_i τ_i − 1"].startswith(f"{tau - 1} ≈ ")


# --- Sec. 2: Ã_S = c·Ã^K ---------------------------------------------------------------------

@pytest.mark.parametrize("g", list(GRAPHS))
@pytest.mark.parametrize("K, norm", [(0, "rw"), (1, "sym"), (2, "rw"), (2, "sym")])
def test_not_power_against_reference(g, K, norm):
    n, edges = GRAPHS[g]
    lam, S = 2, 2
    M, P = ref_AS(n, edges, lam, S, norm), ref_adj(n, edges, norm) ** K
    m = ref_mass(lam, S)
    nz = [(i, j) for i in range(n) for j in range(n) if decided(M[i, j] - mpf(m) * P[i, j])]
    cert = ex.certify_not_power(n, edges, lam, S, K, norm)
    assert cert["fails"] is bool(nz) and cert["numbers"]["nonzero_entries"] == len(nz)
    assert cert["exact"]["1 − r^(S+1) (the only possible c)"] == str(m)
    if nz:
        i, j = nz[0]
        a, b = cert["exact"][f"[Ã_S]_{i}{j}"], cert["exact"][f"(1 − r^(S+1))·[Ã^{K}]_{i}{j}"]
        scaled = norm == "sym" and i != j
        assert a.endswith(f" × √(d̃_{i}/d̃_{j})") is scaled and b.endswith("d̃_{j})") is scaled
        rw = ref_AS(n, edges, lam, S, "rw")[i, j]
        assert float(Fraction(a.split(" ")[0])) == pytest.approx(float(rw), rel=1e-14)
        rwp = (ref_adj(n, edges, "rw") ** K)[i, j] * mpf(m)
        assert float(Fraction(b.split(" ")[0])) == pytest.approx(float(rwp), rel=1e-14, abs=0)


def test_not_power_boundary():
    """Isolated nodes: Ã = I and Ã_S = mI = m·Ã^K (covered); K2 is not covered."""
    assert not ex.certify_not_power(*EMPTY2, 1, 3, 2, "sym")["fails"]
    assert ex.certify_not_power(*K2, 1, 3, 2, "rw")["fails"]


# --- monotonicity in S ------------------------------------------------------------------------

@pytest.mark.parametrize("g, norm", [(g, nm) for g in ("P3", "star4", "K3", "edge+isolated",
                                                           "empty2") for nm in ("rw", "sym")])
@pytest.mark.parametrize("lam, S", [(8, 3), (Fraction(1, 3), 2)])
def test_rise_certificate_compares_consecutive_s(g, norm, lam, S):
    n, edges = GRAPHS[g]

    def fro(S):
        return sum(rows(n, edges, lam, S, norm)[1]) / mpf(ref_mass(lam, S) ** 2)

    def tau(S):
        return max(rows(n, edges, lam, S, norm)[1]) * n / mpf(ref_mass(lam, S) ** 2)

    for q, ref in ((ex.fro2_over_mass2, fro), (ex.tau, tau)):
        a, b = ref(S - 1), ref(S)
        cert = ex.certify_rise(n, edges, lam, S, norm, q)
        assert cert["fails"] is (decided(b - a) > 0)
        assert float(Fraction(cert["exact"][f"at S−1 = {S - 1}"])) == pytest.approx(float(a),
                                                                                    rel=1e-14)
        assert float(Fraction(cert["exact"][f"at S = {S}"])) == pytest.approx(float(b), rel=1e-14)
        assert float(cert["exact"]["difference"].split("≈")[1]) == pytest.approx(
            float(b - a), rel=1e-5, abs=1e-30)
        assert float(Fraction(cert["exact"]["difference"].split(" ≈")[0])) == pytest.approx(
            float(b - a), rel=1e-12, abs=1e-30)
        assert cert["numbers"] == pytest.approx({"before": float(a), "after": float(b)},
                                                rel=1e-14)


# --- Eq. 2: GSD gradient and the indefinite quadratic -----------------------------------------

def ref_lap(n, edges, norm):
    return mp.eye(n) - ref_adj(n, edges, norm)


def ref_q(F, L, lam):
    n = F.rows
    E = F - mp.eye(n)
    return sum(E[i, j] ** 2 for i in range(n) for j in range(n)) + lam * sum(
        (F.T * L * F)[i, i] for i in range(n))


@pytest.mark.parametrize("g", ["P3", "star4", "K3", "empty2"])
@pytest.mark.parametrize("lam", [1, Fraction(3, 2), 64])
def test_gsd_stationary_against_reference(g, lam):
    n, edges = GRAPHS[g]
    L, lm = ref_lap(n, edges, "rw"), mpf(lam)
    F = (mp.eye(n) + lm * L) ** -1
    grad = 2 * (F - mp.eye(n)) + lm * (L + L.T) * F
    nz = [(i, j) for i in range(n) for j in range(n) if decided(grad[i, j])]
    cert = ex.certify_gsd_stationary(n, edges, lam)
    assert cert["fails"] is bool(nz)
    assert cert["exact"]["X"] == "I (one-hot features)"        # the features it is certified at
    g2 = sum(grad[i, j] ** 2 for i in range(n) for j in range(n))
    assert cert["numbers"]["grad_fro2"] == pytest.approx(float(g2), rel=1e-12, abs=1e-30)
    assert float(Fraction(cert["exact"]["‖∇q(F)‖_F²"])) == pytest.approx(float(g2), rel=1e-12,
                                                                          abs=1e-30)
    if nz:
        i, j = nz[0]
        assert float(Fraction(cert["exact"][f"∇q(F)_{i}{j}"])) == pytest.approx(
            float(grad[i, j]), rel=1e-12)
    K = mp.eye(n) + lm * (L + L.T) / 2
    pd = min(mp.eigsy(K)[0]) > BIG
    key = "q((I+λL̃)⁻¹) − min q"
    assert (key in cert["exact"]) is pd
    if pd:
        gap = ref_q(F, L, lm) - ref_q(K ** -1, L, lm)
        assert float(cert["exact"][key].split("≈")[1]) == pytest.approx(float(gap), rel=1e-5,
                                                                        abs=1e-30)


@pytest.mark.parametrize("g", ["P3", "star4", "K3", "empty2"])
@pytest.mark.parametrize("lam, norm", [(1, "rw"), (1, "sym"), (2, "sym"), (Fraction(1, 2), "rw")])
def test_gradient_certificate_against_reference(g, lam, norm):
    """(2L̃ − λ(L̃ + L̃ᵀ)) vanishes exactly when λ = 1 and L̃ is symmetric (sym, or regular rw),
    or when there are no edges."""
    n, edges = GRAPHS[g]
    L = ref_lap(n, edges, norm)
    D = 2 * L - mpf(lam) * (L + L.T)
    nz = [(i, j) for i in range(n) for j in range(n) if decided(D[i, j])]
    cert = ex.certify_gradient(n, edges, lam, norm)
    assert cert["fails"] is bool(nz)
    assert ("linearly independent" in cert["why"]) is (norm == "sym")
    if nz:
        i, j = nz[0]
        assert float(eval_text(cert["exact"][f"(2L̃ − λ(L̃ + L̃ᵀ))_{i}{j}"])) == pytest.approx(
            float(D[i, j]), rel=1e-14)
        assert float(eval_text(cert["exact"][f"L̃_{i}{j}"])) == pytest.approx(float(L[i, j]),
                                                                             rel=1e-14)
    else:
        assert cert["exact"] == {}


@pytest.mark.parametrize("g", ["P3", "star4"])
@pytest.mark.parametrize("lam", [1, 16, 1024])
def test_indefinite_certificate_brackets_lambda_star(g, lam):
    """λ* = −1/λ_min((L̃ + L̃ᵀ)/2) when that eigenvalue is negative: I + λ(L̃+L̃ᵀ)/2 is
    positive definite exactly for λ < λ*."""
    n, edges = GRAPHS[g]
    L = ref_lap(n, edges, "rw")
    emin = min(mp.eigsy((L + L.T) / 2)[0])
    star = -1 / emin if emin < 0 else mp.inf
    cert = ex.certify_indefinite(n, edges, lam)
    assert cert["fails"] is (lam >= star)
    key = "λ* (positive definite below, not at or above)"
    assert (key in cert["exact"]) is cert["fails"]
    if cert["fails"]:
        a, b = (float(x) for x in cert["exact"][key][4:-1].split(", "))
        assert a <= star <= b and b - a <= 2e-9 * b + 2e-9 * b
    piv = [Fraction(p) for p in cert["exact"]["pivots of I + λ(L̃+L̃ᵀ)/2"].split(", ")]
    assert all(p > 0 for p in piv[:-1]) and (piv[-1] <= 0) is cert["fails"]


def test_indefinite_refuses_at_the_threshold_itself():
    """K2's symmetrised rw Laplacian has eigenvalues 0 and 1: I + λ(L̃+L̃ᵀ)/2 is positive definite
    for every λ ≥ 0, so nothing is certified however large λ is."""
    assert not ex.certify_indefinite(*K2, 10 ** 6)["fails"]


# --- Lemma 1 (Eq. 11) -------------------------------------------------------------------------

def ref_gram_eigs(n, edges, lam, S, norm):
    M = ref_AS(n, edges, lam, S, norm)
    return sorted(mp.eigsy(M.T * M)[0])


def ref_bound(n, edges, lam, S, d, norm):
    """Eq. 11's bound/σ² = 2·max_i ρ_i·(4 log n + log 2d)."""
    return 2 * max(rows(n, edges, lam, S, norm)[1]) * (4 * mp.log(n) + mp.log(2 * d))


@pytest.mark.parametrize("g, lam, S, d, norm", [
    ("one", 1, 0, 16, "rw"), ("one", 1, 0, 8, "rw"), ("K2", 1, 1, 4, "sym"),
    ("P3", 2, 2, 64, "rw"), ("P3", 2, 2, 4096, "sym"), ("star4", 1, 3, 2, "sym")])
def test_lemma_1_paley_zygmund_against_reference(g, lam, S, d, norm):
    """P(X > θEX) ≥ (1 − θ)²E²/(Var + E²), EX = d‖Ã_S‖_F², Var X = 2d‖Ã_SᵀÃ_S‖_F² (σ = 1);
    ``fails`` when that lower bound exceeds 1/d; 0 when θ ≥ 1."""
    n, edges = GRAPHS[g]
    mu = ref_gram_eigs(n, edges, lam, S, norm)
    E, V = d * sum(mu), 2 * d * sum(x * x for x in mu)       # tr G and ‖G‖_F² from the spectrum
    bound = ref_bound(n, edges, lam, S, d, norm)
    theta = bound / E
    pz = (1 - theta) ** 2 * E * E / (V + E * E) if theta < 1 else 0
    cert = ex.certify_lemma_1(n, edges, lam, S, d, norm)
    assert cert["fails"] is (decided(pz - mp.mpf(1) / d) > 0)
    assert cert["certified"] == "interval"
    assert cert["numbers"]["E"] == pytest.approx(float(E), rel=1e-14)
    assert cert["numbers"]["bound"] == pytest.approx(float(bound), rel=1e-14)
    assert cert["numbers"]["pz"] == pytest.approx(float(pz), rel=1e-12, abs=1e-30)
    assert float(Fraction(cert["exact"]["E‖Ã_Sη‖_F² / σ² = d·‖Ã_S‖_F²"])) == pytest.approx(
        float(E), rel=1e-14)
    assert float(Fraction(cert["exact"]["Var ‖Ã_Sη‖_F² / σ⁴ = 2d·‖Ã_SᵀÃ_S‖_F²"])) == \
        pytest.approx(float(V), rel=1e-12)
    lo, hi = cert["exact"]["Eq. 11 bound / σ² = 2·max_i ρ_i·(4 log n + log 2d)"][4:-1].split(", ")
    assert float(lo) <= bound <= float(hi) and float(hi) - float(lo) < 1e-8 * bound
    assert float(cert["exact"]["θ = bound / E (upper end)"]) >= theta
    assert float(cert["exact"]["Paley–Zygmund: P(‖Ã_Sη‖_F² > bound) ≥ (1 − θ)²E²/(Var + E²)"]
                 [2:]) <= pz
    assert cert["exact"]["1/d"] == f"1/{d}"
    assert cert["shows"].endswith(f" > 1/d = 1/{d}" if cert["fails"] else f", 1/d = 1/{d}")
    assert float(Fraction(cert["exact"]["max_i ρ_i = τ(1 − r^(S+1))²/n"])) == pytest.approx(
        float(max(rows(n, edges, lam, S, norm)[1])), rel=1e-14)


def ref_sf_d2(mu, t):
    """P(Σ_k μ_k χ²_2 > t) for distinct μ_k: χ²_2/2 is Exp(1), so the sum is hypoexponential,
    P = Σ_k e^{−t/(2μ_k)} Π_{j≠k} μ_k/(μ_k − μ_j)."""
    total = 0
    for k, a in enumerate(mu):
        w = mp.exp(-t / (2 * a))
        for j, b in enumerate(mu):
            if j != k:
                w *= a / (a - b)
        total += w
    return total


@pytest.mark.parametrize("g, lam, S, d, norm", [
    ("one", 1, 0, 16, "rw"), ("one", 3, 2, 2, "sym"), ("empty2", 1, 1, 3, "rw"),
    ("K2", 1, 1, 2, "rw"), ("P3", 2, 1, 2, "rw"), ("P3", 2, 1, 2, "sym")])
def test_lemma_1_exact_probability_against_closed_forms(g, lam, S, d, norm):
    """Equal weights (Ã = I: μ = m²): P = P(χ²_{nd} > bound/μ); d = 2 with distinct weights:
    the hypoexponential survival. The certificate's bracket must contain it and decide P > 1/d
    the same way."""
    n, edges = GRAPHS[g]
    mu = ref_gram_eigs(n, edges, lam, S, norm)
    bound = ref_bound(n, edges, lam, S, d, norm)
    equal = not edges
    P = (stats.chi2.sf(float(bound / mu[0]), n * d) if equal else ref_sf_d2(mu, bound))
    tol = None if n < 3 else "1e-15"        # a looser series tolerance: cheaper, still rigorous
    cert = ex.certify_lemma_1_exact(n, edges, lam, S, d, norm, tol=tol)
    lo, hi = cert["numbers"]["P"], cert["numbers"]["P_hi"]
    assert lo - 1e-12 <= float(P) <= hi + 1e-12 and hi - lo < 1e-12
    assert cert["fails"] is (float(P) > 1 / d)
    assert cert["numbers"]["bound"] == pytest.approx(float(bound), rel=1e-14)
    assert cert["exact"]["1/d"] == f"1/{d}"
    assert cert["shows"].endswith(("> " if cert["fails"] else "≤ ") + f"1/d = 1/{d}")
    weights = [float(w) for w in cert["exact"]["weights μ_k (eigenvalues of Ã_SᵀÃ_S)"]
               .split(", ")]
    assert weights == pytest.approx([float(x) for x in mu], rel=1e-10)
    vals, slack, eq = ex.lemma_1_weights(n, edges, lam, S, norm)
    assert eq is equal and slack < 1e-30
    assert [float(v) for v in vals] == pytest.approx([float(x) for x in mu], rel=1e-13)


# --- the arithmetic helpers -------------------------------------------------------------------

# (log_bounds: tests/test_exact_helpers.py)

@pytest.mark.parametrize("z", [Fraction(0), Fraction(1, 7), Fraction(1, 3)])
@pytest.mark.parametrize("terms", [1, 5, 40])
def test_atanh_bounds_partial_sum_and_remainder(z, terms):
    """[Σ_{k<K} z^{2k+1}/(2k+1), that + z^{2K+1}/((2K+1)(1 − z²))] contains atanh z; the lower
    end is the partial sum itself."""
    lo, hi = ex._atanh_bounds(z, terms)
    part = sum((z ** (2 * k + 1) / (2 * k + 1) for k in range(terms)), Fraction(0))
    assert lo == part
    assert hi - lo == z ** (2 * terms + 1) / ((2 * terms + 1) * (1 - z * z))
    assert mpf(lo) <= mp.atanh(mpf(z)) <= mpf(hi)


def test_surd_bounds_contain_the_value_and_shrink_with_bits():
    s = ex.Surd({1: Fraction(-7, 3), 2: Fraction(5, 4), 3: Fraction(-2, 9), 5: 1})
    v = -mp.mpf(7) / 3 + 5 * mp.sqrt(2) / 4 - 2 * mp.sqrt(3) / 9 + mp.sqrt(5)
    weight = Fraction(5, 4) + Fraction(2, 9) + 1       # Σ|c_k| over the irrational √k
    for bits in (4, 20, 60):
        lo, hi = s.bounds(bits)
        assert mpf(lo) <= v <= mpf(hi) and lo < hi
        assert hi - lo <= weight / 2 ** bits
    exact = ex.Surd({9: 2})          # 2√9 = 6, stored unreduced: the root is exact
    assert exact.bounds(8) == (Fraction(6), Fraction(6))
    assert ex.Surd().bounds() == (0, 0)


def test_surd_sign_and_text():
    near = ex.Surd.sqrt(2) - Fraction(665857, 470832)     # a Pell convergent: |diff| ≈ 1.6e-12
    assert near.sign() == (1 if mp.sqrt(2) > mpf(Fraction(665857, 470832)) else -1)
    assert (-near).sign() == -near.sign() and ex.Surd().sign() == 0
    assert str(ex.Surd.sqrt(12, Fraction(-3, 5)) + Fraction(-1, 2)) == "-1/2 - 6√3/5"
    assert str(ex.Surd.sqrt(2, Fraction(1, 3)) - ex.Surd.sqrt(5)) == "√2/3 - √5"
    assert str(ex.Surd.sqrt(7, Fraction(4))) == "4√7" and str(ex.Surd()) == "0"
    assert str(ex.Surd.sqrt(3, Fraction(-1))) == "-√3"


def test_gram_normalised_closed_forms():
    """P = XXᵀ/‖XXᵀ‖_F: one column gives xxᵀ/‖x‖²; for X = I₂ (two columns) P = I/√2."""
    P = ex.gram_normalised([[Fraction(1)], [Fraction(2)], [Fraction(-2)]])
    assert P == [[Fraction(a * b, 9) for b in (1, 2, -2)] for a in (1, 2, -2)]
    P = ex.gram_normalised([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]])
    half_root2 = ex.Surd.sqrt(2, Fraction(1, 2))
    assert P[0][0] == half_root2 and P[1][1] == half_root2 and P[0][1].is_zero()
    X = [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(-1)]]    # XXᵀ = [[5, 1], [1, 10]]
    P = ex.gram_normalised(X)
    assert P[0][1] == ex.Surd.sqrt(127, Fraction(1, 127))            # 1/√(25 + 1 + 1 + 100)
    x = [[ex.Surd.sqrt(2)], [ex.Surd.lift(1)]]                       # ‖x‖² = 3: rational
    P = ex.gram_normalised(x)
    assert P[0][1] == ex.Surd.sqrt(2, Fraction(1, 3)) and P[0][0] == Fraction(2, 3)


@pytest.mark.parametrize("X, match", [
    ([[Fraction(0)], [Fraction(0)]], "X is zero"),
    ([[Fraction(0), Fraction(0)]], "X is zero"),
    ([[ex.Surd.sqrt(2) + 1]], "‖x‖² is irrational"),                 # (1 + √2)² = 3 + 2√2
    ([[ex.Surd.sqrt(2), ex.Surd.lift(1)]], "Surd features are supported for one column only")])
def test_gram_normalised_refuses(X, match):
    with pytest.raises(ValueError, match=match):
        ex.gram_normalised(X)


@pytest.mark.parametrize("M", [
    [[Fraction(1, 2)]],
    [[Fraction(0), Fraction(1)], [Fraction(-1, 4), Fraction(0)]],        # ±i/2: complex pair
    [[Fraction(1, 3), Fraction(2, 3), 0], [Fraction(1, 5), 0, Fraction(4, 5)],
     [Fraction(1), 0, 0]],
    [[Fraction(3), 0, 0], [0, Fraction(-5), 0], [0, 0, Fraction(1)]]])
def test_radius_bracket_against_eigenvalues(M):
    M = [[Fraction(x) for x in row] for row in M]
    rho = max(abs(v) for v in np.linalg.eigvals(np.array(M, dtype=float)))
    lo, hi = ex.radius_bracket(M)
    assert lo <= rho * (1 + 1e-15) and rho < hi * (1 + 1e-15)
    assert hi - lo <= Fraction(1, 10 ** 12) * max(hi, 1)
    assert ex.radius_below(M, hi) and not ex.radius_below(M, lo if lo else Fraction(1, 10**20))


# --- the certificate's record: how it proves its verdict ----------------------------------------

WHY = {     # certificate call -> (the method, the phrases of its argument, first to last)
    "row_sum_sym": (lambda: ex.certify_row_sum(*P3, 1, 1, "sym"), "exact",
                    ["exact row sums of Ã_S (sym entries [Ã_rw,S]_ij·√(d̃_i/d̃_j)); square roots "
                     "of distinct square-free integers are linearly independent over Q, so a sum "
                     "Σ c_k√k is 0 only if every c_k is"]),
    "row_sum_rw": (lambda: ex.certify_row_sum(*P3, 1, 1, "rw"), "exact",
                   ["exact row sums of Ã_S"]),
    "row_squares": (lambda: ex.certify_row_squares(*P3, 64, 6, "sym"), "exact",
                    ["exact rational row square sums (sym: [Ã_S]_ij² = [Ã_rw,S]_ij²·d̃_i/d̃_j)"]),
    "tau_only_if_holds": (lambda: ex.certify_tau_only_if(*K2, 1, 1, "rw"), "exact",
                          ["τ < n or every node is isolated"]),
    "lower_not_reached": (lambda: ex.certify_lower_not_reached(*K3, 1, 1, "rw"), "exact",
                          ["exact rational τ_i (sym: [Ã_S]_ij² = [Ã_rw,S]_ij²·d̃_i/d̃_j is "
                           "rational); Eq. 7's lower bound is τ_i = 1"]),
    "not_power": (lambda: ex.certify_not_power(*K2, 1, 3, 2, "rw"), "exact",
                  ["exact rational Ã_S and Ã^K (rw; sym entries are the same times √(d̃_i/d̃_j)); "
                   "c is forced to 1 − r^{S+1} by the Perron vector"]),
    "rise": (lambda: ex.certify_rise(*P3, 1, 2, "rw", ex.tau), "exact",
             ["exact rational values at consecutive S"]),
    "gsd": (lambda: ex.certify_gsd_stationary(*P3, 1), "exact",
            ["exact rational gradient 2(F − X) + λ(L̃ + L̃ᵀ)F at F = (I + λL̃)⁻¹X, X = I"]),
    "gradient_rw": (lambda: ex.certify_gradient(*P3, 2, "rw"), "exact",
                    ["paper − true gradient = (2L̃ − λ(L̃ + L̃ᵀ))F, non-zero for F = I"]),
    "gradient_sym": (lambda: ex.certify_gradient(*P3, 2, "sym"), "exact",
                     ["paper − true gradient = (2L̃ − λ(L̃ + L̃ᵀ))F, non-zero for F = I; square "
                      "roots of distinct square-free integers are linearly independent over Q, so "
                      "a sum Σ c_k√k is 0 only if every c_k is"]),
    "indefinite": (lambda: ex.certify_indefinite(*P3, 1024), "exact",
                   ["a pivot ≤ 0 of the symmetric elimination: I + λ(L̃+L̃ᵀ)/2 is not positive "
                    "definite (Sylvester), so q(F + tD) → −∞ along its null/negative direction "
                    "(q is not bounded below when a pivot is < 0)"]),
    "lemma_1": (lambda: ex.certify_lemma_1(*ONE_NODE, 1, 0, 16, "rw"), "interval",
                ["P(X > θ·EX) ≥ (1 − θ)²(EX)²/E[X²] (Paley–Zygmund), X = ‖Ã_Sη‖_F², η ~ N(0, σ²) "
                 "i.i.d.: EX = σ²d‖Ã_S‖_F² and Var X = 2σ⁴d‖Ã_SᵀÃ_S‖_F² exact rationals; log n "
                 "and log 2d bracketed by a truncated atanh series with its remainder bound "
                 "(interval width < 1e-26); θ and the lower bound evaluated in rational "
                 "arithmetic at the interval's unfavourable end"]),
}


@pytest.mark.parametrize("name", list(WHY))
def test_certificate_states_its_method_and_argument(name):
    """Each record names how it was certified ('exact' arithmetic or an 'interval') and, in
    ``why``, the argument that turns its numbers into the verdict (the report prints it)."""
    call, method, phrases = WHY[name]
    cert = call()
    assert cert["certified"] == method
    for phrase in phrases:
        assert phrase in cert["why"]
    assert cert["why"].startswith(phrases[0][:20]) and cert["why"].endswith(phrases[-1][-20:])


def test_certificates_without_figures_report_no_numbers():
    assert ex.certify_indefinite(*P3, 1024)["numbers"] == {}
    assert ex.certify_gradient(*P3, 2, "rw")["numbers"] == {}


def test_indefinite_bisection_stops_at_the_first_bracket_within_rel():
    """P3: λ* = −1/λ_min((L̃+L̃ᵀ)/2) ≈ 85.0. Bisecting [0, 1024] (pd below, not at or above):
    [0, 512], [0, 256], [0, 128], then 64 is pd: [64, 128], whose width 64 is the first ≤ rel·hi
    for rel = 1/2, so the bisection stops there."""
    cert = ex.certify_indefinite(*P3, 1024, rel=Fraction(1, 2))
    text = cert["exact"]["λ* (positive definite below, not at or above)"]
    assert [float(x) for x in text[4:-1].split(", ")] == [64, 128]


@pytest.mark.parametrize("tol, decided_as", [("1e-15", False), ("0.9", None)])
def test_lemma_1_exact_record_and_undecided_bracket(tol, decided_as):
    """P3 (rw, λ = 2, S = 1, d = 2): P ≈ 0.071 by the hypoexponential closed form. A series
    tolerance of 0.9 leaves a bracket that straddles 1/d = 1/2: the certificate must then refuse
    to decide (``fails`` None, 'vs'), with margin 0; a tight one decides P ≤ 1/d with margin
    1/d − (upper end)."""
    n, edges = P3
    _, rho = rows(n, edges, 2, 1, "rw")
    mu = ref_gram_eigs(n, edges, 2, 1, "rw")
    bound = ref_bound(n, edges, 2, 1, 2, "rw")
    P = ref_sf_d2(mu, bound)
    cert = ex.certify_lemma_1_exact(n, edges, 2, 1, 2, "rw", tol=tol)
    lo, hi = cert["numbers"]["P"], cert["numbers"]["P_hi"]
    assert lo - 1e-12 <= float(P) <= hi + 1e-12
    assert cert["fails"] is decided_as
    side = "vs" if decided_as is None else "≤"
    assert cert["shows"].startswith("P(exceed) ") and cert["shows"].endswith(f" {side} 1/d = 1/2")
    rec = cert["exact"]
    assert float(Fraction(rec["E‖Ã_Sη‖_F² / σ² = d·‖Ã_S‖_F²"])) == pytest.approx(
        float(2 * sum(mu)), rel=1e-14)
    assert cert["numbers"]["E"] == pytest.approx(float(2 * sum(mu)), rel=1e-14)
    assert float(Fraction(rec["max_i ρ_i = τ(1 − r^(S+1))²/n"])) == pytest.approx(
        float(max(rho)), rel=1e-14)
    assert float(rec["Eq. 11 bound / σ² = 2·max_i ρ_i·(4 log n + log 2d)"]) == pytest.approx(
        float(bound), rel=1e-14)
    margin = 0 if decided_as is None else 0.5 - hi
    assert float(rec["margin from 1/d"]) == pytest.approx(margin, rel=1e-5)
    assert rec["P(‖Ã_Sη‖_F² > bound)"].startswith("in [")
    assert cert["certified"] == "exact probability: Moschopoulos series, mpmath 50 digits"
    assert cert["why"].startswith("‖Ã_Sη‖_F²/σ² = Σ_k μ_k χ²_d (Gaussian η; μ_k eigenvalues of "
                                  "Ã_SᵀÃ_S, by mpmath's Jacobi method, widened by their error "
                                  "bound; Σ μ_k checked against the exact ‖Ã_S‖_F²); P(> bound) "
                                  "bracketed by Moschopoulos' gamma-mixture series")
    assert cert["why"].endswith("; the logarithms at 50 digits, widened; the probability is "
                                "monotone in every weight and in the bound, so the widened ends "
                                "bracket it")


def test_lemma_1_exact_equal_weights_record():
    """One node: Ã_SᵀÃ_S = m²·I exactly, one weight m² (P by the closed form, the bracket a
    point: '= v')."""
    m2 = ref_mass(1, 0) ** 2
    cert = ex.certify_lemma_1_exact(*ONE_NODE, 1, 0, 16, "rw")
    assert cert["exact"]["weights μ_k (eigenvalues of Ã_SᵀÃ_S)"] == "0.25"
    assert m2 == Fraction(1, 4)
    P = stats.chi2.sf(2 * float(m2) * math.log(32) / float(m2), 16)
    assert cert["exact"]["P(‖Ã_Sη‖_F² > bound)"].startswith("= ")
    assert float(cert["exact"]["P(‖Ã_Sη‖_F² > bound)"][2:]) == pytest.approx(P, rel=1e-12)
    # a point bracket is printed at 15 significant digits: P(χ²_16 > 2 log 32) = Q(8, log 32)
    with mpmath.workdps(60):
        exact = mpmath.gammainc(8, mpmath.log(32), regularized=True)
        assert cert["exact"]["P(‖Ã_Sη‖_F² > bound)"] == "= " + mpmath.nstr(exact, 15)
    assert cert["fails"] and cert["shows"].endswith("> 1/d = 1/16")


def test_lemma_1_exact_prints_each_number_at_its_stated_digits():
    """The record's numbers at the digits the layout gives them: the bound at 15 significant
    digits, each weight at 12, the margin from 1/d at 6 (references at 60 digits here)."""
    n, edges = P3
    cert = ex.certify_lemma_1_exact(n, edges, 2, 1, 2, "rw")
    rec = cert["exact"]
    with mpmath.workdps(60):
        bound = ref_bound(n, edges, 2, 1, 2, "rw")
        mu = ref_gram_eigs(n, edges, 2, 1, "rw")
        assert rec["Eq. 11 bound / σ² = 2·max_i ρ_i·(4 log n + log 2d)"] == mpmath.nstr(bound, 15)
        got = rec["weights μ_k (eigenvalues of Ã_SᵀÃ_S)"].split(", ")
        assert sorted(got, key=float) == [mpmath.nstr(m, 12) for m in mu]
        margin = mpmath.mpf(1) / 2 - mpmath.mpf(cert["numbers"]["P_hi"])
        assert rec["margin from 1/d"] == mpmath.nstr(margin, 6)
        assert len(rec["margin from 1/d"].lstrip("0.")) == 6


def test_lemma_1_exact_refuses_weights_that_do_not_sum_to_the_trace(monkeypatch):
    """Σ μ_k = tr Ã_SᵀÃ_S = ‖Ã_S‖_F² exactly: a weight list off by more than its slack (a wrong
    eigen-solver) is refused with the graph named, not turned into a certificate."""
    real = ex.lemma_1_weights

    def shifted(*args):
        mu, slack, equal = real(*args)
        return [m * (1 + mpmath.mpf(10) ** -30) for m in mu], slack, equal

    monkeypatch.setattr(ex, "lemma_1_weights", shifted)
    n, edges = P3
    with pytest.raises(ArithmeticError, match=r"^eigenvalues of Ã_SᵀÃ_S sum to 0\.\d+, not "
                                              r"‖Ã_S‖_F² = \d+/\d+ \(n=3, edges=\[\[0, 1\], "
                                              r"\[1, 2\]\], λ=2, S=1\)$"):
        ex.certify_lemma_1_exact(n, edges, 2, 1, 2, "rw")


def test_lemma_1_paley_zygmund_between_one_and_two_over_d():
    """Three isolated nodes, λ = 1, S = 0, d = 8: Ã_0 = I/2, E = d‖Ã_0‖_F² = 6,
    Var = 2d‖Ã_0ᵀÃ_0‖_F² = 3, bound = 2·(1/4)·(4 log 3 + log 16); the Paley–Zygmund bound
    ≈ 0.150 lies between 1/d and 2/d: the certificate compares it with 1/d, so it fails."""
    E, V = 6.0, 3.0
    theta = 0.5 * (4 * math.log(3) + math.log(16)) / E
    pz = (1 - theta) ** 2 * E * E / (V + E * E)
    assert 1 / 8 < pz < 2 / 8
    cert = ex.certify_lemma_1(3, [], 1, 0, 8, "rw")
    assert cert["fails"] and cert["numbers"]["pz"] == pytest.approx(pz, rel=1e-12)
