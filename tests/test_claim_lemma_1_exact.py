"""lemma-1's minimal counterexample by the exact probability (inside S ≥ 1, n ≥ 2, no isolated
node, d ≥ 2; the degenerate one beside it) and the errata lemma-1:t, lemma-1:union-bound,
lemma-1:probability."""

import math
import re
from fractions import Fraction

import pytest

from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.claims import _lemma_1_errata as errata
from ngc_ref_theory.report import _headline_case


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
