"""lemma-1's minimal counterexample by the exact probability (inside S ≥ 1, n ≥ 2, no isolated
node, d ≥ 2; the degenerate one beside it) and the errata lemma-1:t, lemma-1:union-bound,
lemma-1:probability."""

import math
import re
from fractions import Fraction

import pytest

from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.claims import _lemma_1_errata as errata
from ngc_ref_theory.output.report import _headline_case


@pytest.fixture(scope="module")
def by():
    res = run_checks(Context(seed=0), only=["lemma-1"], progress=False)
    return {(r.id, r.norm): r for r in res}


def test_minimal_counterexample_is_k2_at_d_4_by_the_exact_probability(by):
    for norm in ("sym", "rw"):
        r = by["lemma-1", norm]
        mc = r.minimal_counterexample
        assert r.verdict == "fails"
        assert (mc["n"], mc["edges"], mc["lam"], mc["S"], mc["d"]) == (2, [[0, 1]], 1.0, 1, 4)
        assert mc["certified"].startswith("exact probability: Moschopoulos series")
        assert [w["d"] for w in mc["certified_holding_before"]] == [2, 3]
        assert 0.285 < mc["numbers"]["P"] < 0.287
        low = mc["degenerate_minimal"]
        assert (low["n"], low["S"], low["d"]) == (1, 0, 4) and low["label"].startswith(
            "degenerate")
        assert "d ≥ 2" in r.search["range"] and r.search["failing_cases"] > 0
        # the Paley–Zygmund screen alone first sees K2 only at d = 16
        assert mc["paley_zygmund_first_failure"].endswith("d=16 (float screen)")
        # the violation in the statement's units: P(exceed)'s lower end against 1/d
        assert re.search(r"\[P\(exceed\) ≥ 0\.98\d on ring n=1000 gaussian d=8; the statement "
                         r"says ≤ 1/d = 0\.125 \(7\.8\d×\)\]", r.summary), r.summary
        # the exact probability once, rounded, beside its counterexample (#35 §5)
        assert mc["shows"] == "P(exceed) = 0.286 > 1/d = 1/4"
        assert "d=4: P(exceed) = 0.286 > 1/d = 1/4 (exact probability" in r.summary
        assert "0.2859548" not in r.summary and "0.2859548" not in _headline_case(r)
        assert _headline_case(r).startswith("atlas G3 (n=2, edges [[0, 1]]), λ=1, S=1, d=4: "
                                            "P(exceed) = 0.286 > 1/d = 1/4 (exact probability")
        assert "0.2859548" not in str(by["lemma-1:probability", norm].evidence)


def test_t_erratum_written_t_is_4_9_of_the_bound_on_k2(by):
    assert errata.t_ratio(1, 1) == Fraction(4, 9)          # ((1/2)/(3/4))², σ = 1
    assert errata.t_ratio(1, 0) == 0                       # 1 − r⁰ = 0
    assert errata.t_ratio(3, 2, sigma2=2) == Fraction(((1 - Fraction(3, 4) ** 2)
                                                      / (1 - Fraction(3, 4) ** 3)) ** 2 / 2)
    assert errata.proof_tail_at(1, 5, 7) == pytest.approx(1 / 7, rel=1e-12)
    for norm in ("sym", "rw"):
        r = by["lemma-1:t", norm]
        assert (r.verdict, r.scope) == ("fails", "erratum")
        assert r.counterexample["written_t_over_bound"] == "4/9"
        assert r.evidence["proof_tail_at_written_t"] > 1 / 4
        assert "Suppose we choose t=2τ(1−(λ/(λ+1))^S)²" in r.scope_reason


def test_union_bound_erratum_fails_first_at_d_18_on_k2(by):
    d, x, val, prev = errata.union_minimal_d(1.0, 1)
    assert d == 18 and val > 0 and prev < 0
    # One row alone already gives a rigorous lower bound on P(‖Z‖_∞∞ ≥ t) at that t:
    # 1 − (1 − 2Φ̄(x))^d, with x = t/√(max ρ_i).
    one_row = 1 - math.erf(x / math.sqrt(2)) ** d
    assert one_row <= 1 - errata.column_inside(x * math.sqrt(errata.k2_weights(1, 1)[2]),
                                               *errata.k2_weights(1, 1)[:2]) ** d
    for norm in ("sym", "rw"):
        r = by["lemma-1:union-bound", norm]
        assert (r.verdict, r.scope, r.counterexample["d"]) == ("fails", "erratum", 18)
        assert "j ∈ [n]" in r.scope_reason and "meant: j ∈ [d] (2nd), which holds" in r.summary


def test_column_law_of_k2_against_monte_carlo():
    import numpy as np
    m, c, rmax = errata.k2_weights(1.0, 1)
    rng = np.random.default_rng(3)
    eta = rng.standard_normal((2, 400_000))
    A = np.array([[m + c, m - c], [m - c, m + c]]) / 2        # K2's Ã_S at λ = 1, S = 1
    Z = A @ eta
    t = 1.1
    freq = float((np.abs(Z).max(axis=0) < t).mean())
    assert freq == pytest.approx(errata.column_inside(t, m, c), abs=4e-3)
    assert float(errata.column_inside(t, m, c, dps=30)) == pytest.approx(
        errata.column_inside(t, m, c), rel=1e-10)


def test_probability_erratum_is_vacuous_at_d_1(by):
    for norm in ("sym", "rw"):
        r = by["lemma-1:probability", norm]
        assert (r.verdict, r.scope) == ("holds", "erratum")
        assert r.summary.startswith("erratum: vacuous as written at d = 1")
        assert r.evidence["proof_failure_bound_by_d_at_n_2"][1] == pytest.approx(1.0)
        assert "d=4" in r.summary


# ---------------------------------------------------------------------------------------------
# the judge (worst case over rows, τ's bracket) and the Monte Carlo cases' numbers against
# formulas written here

def _lrow(k, upper=None, n=100, d=8, trials=200):
    row = {"exceed": k, "trials": trials, "d": d, "n": n}
    if upper is not None:
        row["exceed_at_tau_upper"] = upper
    return row


def test_judge_worst_case_and_bracket():
    """0/200 exceedances put the 95% interval below 1/8 (holds), 200/200 above (fails), 25/200
    straddles it. With τ bracketed, a row not holding at the bracket's lower end fails only when
    it also fails at the upper end's count; else it is inconclusive."""
    from ngc_ref_theory.claims import lemma_1
    assert lemma_1.judge([_lrow(0), _lrow(0, n=300)], "exceed")[0] == "holds"
    v, w, ci = lemma_1.judge([_lrow(0), _lrow(25, n=300), _lrow(0, n=1000)], "exceed")
    assert v == "inconclusive" and w["n"] == 300 and ci[0] < 1 / 8 < ci[1]
    v, w, _ = lemma_1.judge([_lrow(25), _lrow(200, n=300), _lrow(30, n=1000)], "exceed")
    assert v == "fails" and w["n"] == 300
    # the bracket: fails at both ends → fails (with the upper end's interval)
    v, w, ci = lemma_1.judge([_lrow(200, upper=150)], "exceed")
    assert v == "fails" and 0.6 < ci[0] < 0.75 < ci[1] < 1.0          # 150/200, not 200/200
    # fails at the lower end, holds or straddles at the upper end → inconclusive
    assert lemma_1.judge([_lrow(200, upper=0)], "exceed")[0] == "inconclusive"
    assert lemma_1.judge([_lrow(200, upper=25)], "exceed")[0] == "inconclusive"
    assert lemma_1.judge([_lrow(0, upper=200)], "exceed")[0] == "holds"
    # within a verdict the larger lower end is the worst, then the larger n, then the first row
    v, w, _ = lemma_1.judge([_lrow(200, n=300), _lrow(200, n=1000), _lrow(200, n=100)], "exceed")
    assert v == "fails" and w["n"] == 1000
    v, w, _ = lemma_1.judge([_lrow(150, n=1000), _lrow(200, n=100)], "exceed")
    assert w["n"] == 100
    rows = [_lrow(200), _lrow(200)]
    assert lemma_1.judge(rows, "exceed")[1] is rows[0]


def _cells(E, B_rho, V=0.0, d=4, n=2):
    """One atlas cell with E‖Ã_Sη‖_F²/σ² = E (d = 4: exact), Var = V, max ρ_i = B_rho."""
    from types import SimpleNamespace
    import numpy as np
    return SimpleNamespace(fro2=np.array([[E / d]]), gram_fro2=np.array([[V / (2 * d)]]),
                           rho=np.array([[[B_rho, 0.0]]]), n=n), d


def test_atlas_mean_and_paley_zygmund_tests_at_their_thresholds():
    import numpy as np
    from ngc_ref_theory.claims import lemma_1
    rho = 0.01
    B = 2 * rho * (4 * math.log(2) + math.log(8))             # Eq. 11's bound/σ² at n = 2, d = 4
    assert not lemma_1._mean_test(*_cells(B, rho))[0][0, 0]   # mean = bound: not above
    bad, ratio = lemma_1._mean_test(*_cells(np.nextafter(B, np.inf), rho))
    assert bad[0, 0] and ratio[0, 0] > 1
    # Paley–Zygmund with θ = 0 (ρ = 0): P ≥ E²/(V + E²), compared with (1 + 1e-9)/d
    for pz, above in ((0.25 * (1 + 0.5e-9), False), (0.25 * (1 + 2e-9), True), (0.25, False)):
        bad, ratio = lemma_1._pz_test(*_cells(1.0, 0.0, V=1 / pz - 1))
        assert bad[0, 0] == above and ratio[0, 0] == pytest.approx(4 * pz, rel=1e-12, abs=0)
    for theta in (1.0, 1.2):                                   # θ ≥ 1: no lower bound
        assert lemma_1._pz_test(*_cells(B / theta, rho, V=0.0))[1][0, 0] == 0.0


def _circulant_row_energy(n, lam, S, offsets):
    """Σ_j [Ã_S]_0j² of a vertex-transitive graph whose node 0 is joined to ``offsets`` (Ã =
    (I + A)/(deg + 1), both norms), by the recursion v ← e_0 + r·vÃ on one row."""
    import numpy as np
    r = lam / (lam + 1)
    row = np.zeros(n)
    row[0] = 1.0
    for k in offsets:
        row[k % n] = 1.0
    row /= row.sum()
    v = np.zeros(n)
    v[0] = 1.0
    e0 = v.copy()
    for _ in range(S):                    # v = e_0 + r(e_0 + r(…)Ã)Ã, S + 1 terms
        v = e0 + r * np.array([v @ np.roll(row, j) for j in range(n)])
    return float(((v / (lam + 1)) ** 2).sum())


def test_monte_carlo_cases_against_closed_forms(by):
    """Each case's three bounds from its τ by the formulas (Eq. 11, max-entry, Frobenius), and
    for the ring (node i joined to i ± 1) and K_200 the τ and E‖Ã_Sη‖_F² = σ²d·Σ_iρ_i from one
    row of Ã_S computed here."""
    from ngc_ref_theory.claims import lemma_1
    lam, S = lemma_1.LAM, lemma_1.S
    m2 = (1 - (lam / (lam + 1)) ** (S + 1)) ** 2
    for norm in ("sym", "rw"):
        rows = by["lemma-1", norm].evidence["cases"]
        assert {r["family"] for r in rows} >= {"ring", "complete"}
        for r in rows:
            n, d, t = r["n"], r["d"], r["tau"]
            assert r["paper_bound"] == pytest.approx(
                2 * t * m2 * (4 * math.log(n) + math.log(2 * d)) / n, rel=1e-12, abs=0)
            assert r["max_entry_bound"] == pytest.approx(
                2 * t * m2 * math.log(2 * n * d * d) / n, rel=1e-12, abs=0)
            assert r["frobenius_bound"] == pytest.approx(
                2 * t * m2 * d * math.log(2 * n * d * d), rel=1e-12, abs=0)
            if r["family"] == "ring" and n <= 300 or r["family"] == "complete":
                offs = (1, -1) if r["family"] == "ring" else range(1, n)
                rho = _circulant_row_energy(n, lam, S, offs)
                assert t == pytest.approx(n * rho / m2, rel=1e-10, abs=0)
                assert r["expected_fro2"] == pytest.approx(d * n * rho, rel=1e-10, abs=0)
