"""Exact tail probabilities of weighted χ² sums (theory/exact/chisq.py) and Lemma 1's exact
certificate: closed forms, Monte Carlo, the truncation bracket, monotone widening."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from ngc_ref_theory.exact import chisq as cq
from ngc_ref_theory.exact import certificates as ex
from ngc_ref_theory.kit.stats import clopper_pearson


@pytest.mark.parametrize("k, d, x", [(1, 1, 0.5), (3, 2, 3.0), (2, 5, 14.0), (7, 4, 60.0)])
def test_equal_weights_are_the_chi_square_survival(k, d, x):
    b = cq.weighted_sf([0.7] * k, d, x)
    assert b["lo"] == b["hi"] and b["name"].startswith("closed form")
    assert float(b["lo"]) == pytest.approx(stats.chi2.sf(x / 0.7, k * d), rel=1e-12)


@pytest.mark.parametrize("x", [0.1, 1.0, 3.0, 12.0])
def test_two_unequal_weights_at_d_2_match_the_hypoexponential_closed_form(x):
    # μ₁χ²₂ + μ₂χ²₂ = Exp(mean 2μ₁) + Exp(mean 2μ₂):
    # P(> x) = (μ₁e^{−x/2μ₁} − μ₂e^{−x/2μ₂})/(μ₁ − μ₂)
    m1, m2 = 2.0, 0.5
    exact = (m1 * math.exp(-x / (2 * m1)) - m2 * math.exp(-x / (2 * m2))) / (m1 - m2)
    b = cq.weighted_sf([m1, m2], 2, x)
    assert b["name"] == "Moschopoulos series"
    assert float(b["lo"]) == pytest.approx(exact, rel=1e-12)
    assert float(b["hi"] - b["lo"]) < 1e-25


@pytest.mark.parametrize("weights, d, x", [([0.3, 1.0, 0.05], 3, 2.5), ([1.0, 0.25], 1, 1.3),
                                            ([0.9, 0.6, 0.2, 0.1], 5, 9.0)])
def test_unequal_weights_against_monte_carlo(weights, d, x):
    rng = np.random.default_rng(7)
    draws = 400_000
    X = (np.asarray(weights) * rng.chisquare(d, size=(draws, len(weights)))).sum(axis=1)
    hits = int((X > x).sum())
    lo, hi = clopper_pearson(hits, draws, 0.9999)
    p = float(cq.weighted_sf(weights, d, x)["lo"])
    assert lo <= p <= hi


def test_truncated_series_brackets_the_probability():
    # Few terms on a wide spread of weights: the bracket is wide but holds the true value,
    # and it narrows as terms are added. (A spread of 10: 677 terms, about 1 s; a spread of
    # 50 takes the series' 3000-term cap and 20 s for the same assertions.)
    w, d, x = [1.0, 0.1], 3, 4.0
    full = cq.weighted_sf(w, d, x)
    short = cq.weighted_sf(w, d, x, max_terms=5)
    assert short["terms"] == 5 and short["hi"] - short["lo"] > 1e-3
    assert short["lo"] <= full["lo"] <= full["hi"] <= short["hi"]


def test_interval_is_monotone_in_weights_and_bound_and_decide_gives_the_margin():
    br = cq.sf_interval([0.99, 0.49], [1.01, 0.51], 4, 5.9, 6.1)
    mid = cq.weighted_sf([1.0, 0.5], 4, 6.0)
    assert br["lo"] < mid["lo"] <= mid["hi"] < br["hi"]
    verdict, margin = cq.decide(mid, 0.25)
    assert verdict is (float(mid["lo"]) > 0.25) and margin > 0
    assert cq.decide({"lo": br["lo"], "hi": br["hi"]}, float(mid["lo"]))[0] is None


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="weights must be positive"):
        cq.weighted_sf([1.0, 0.0], 2, 1.0)
    with pytest.raises(ValueError, match="d must be a positive integer"):
        cq.weighted_sf([1.0], 0, 1.0)


def test_lemma_1_exact_certificate_on_k2_fails_first_at_d_4():
    # K2 at λ = 1, S = 1: Ã_S has eigenvalues m = 3/4 and c = 1/2, so ‖Ã_Sη‖²/σ² =
    # (9/16)χ²_d + (1/4)χ²_d, bound/σ² = (13/16)(4 log 2 + log 2d).
    for norm in ("rw", "sym"):
        certs = {d: ex.certify_lemma_1_exact(2, [[0, 1]], 1, 1, d, norm) for d in (2, 3, 4)}
        assert [certs[d]["fails"] for d in (2, 3, 4)] == [False, False, True]
        for d, c in certs.items():
            bound = 13 / 16 * (4 * math.log(2) + math.log(2 * d))
            rng = np.random.default_rng(d)
            X = 9 / 16 * rng.chisquare(d, 200_000) + 1 / 4 * rng.chisquare(d, 200_000)
            lo, hi = clopper_pearson(int((X > bound).sum()), 200_000, 0.9999)
            assert lo <= c["numbers"]["P"] <= hi
        assert certs[4]["certified"].startswith("exact probability: Moschopoulos")


def test_lemma_1_exact_certificate_on_one_node_is_the_closed_form():
    # n = 1: ‖Ã_Sη‖²/σ² = m²χ²_d and the bound/σ² = 2m² log 2d: P = P(χ²_d > 2 log 2d).
    c = ex.certify_lemma_1_exact(1, [], 1, 0, 4, "rw")
    assert c["certified"].startswith("exact probability: closed form")
    assert c["numbers"]["P"] == pytest.approx(stats.chi2.sf(2 * math.log(8), 4), rel=1e-12)
    assert c["fails"] is True
    assert ex.certify_lemma_1_exact(1, [], 1, 0, 3, "rw")["fails"] is False


def _geometric_mixture(x, J):
    """The bracket [lo_J, lo_J + 2^{-J}] of P(χ²₂ + 2χ²₂ > x) after J mixture terms, by hand.

    With weights 1 and 2 at d = 2 (shape α = 1), C = 1/2 and γ_j = 2^{-j}/j, so
    Σ_j δ_j t^j = exp(Σ γ_j t^j) = 1/(1 − t/2): the mixture weights are p_j = 2^{-(j+1)}
    (geometric), each component Gamma(2 + j, scale 2) with survival
    Q(2 + j, x/2) = e^{-x/2} Σ_{i < 2+j} (x/2)^i / i!, and the remainder after J terms is 2^{-J}.
    """
    y = x / 2
    lo = sum(2.0 ** -(j + 1) * math.exp(-y) * sum(y ** i / math.factorial(i) for i in range(2 + j))
             for j in range(J))
    return lo, lo + 2.0 ** -J


def test_truncation_follows_tol_and_max_terms_at_both_ends_of_an_interval():
    # tol = 1e-3 stops at the first J with 2^{-J} ≤ 1e-3 (J = 10); max_terms = 5 after 5 terms.
    x = 3.0
    exact = 2 * math.exp(-x / 4) - math.exp(-x / 2)          # Exp(mean 2) + Exp(mean 4)
    for kw, J in (({"tol": 1e-3}, 10), ({"max_terms": 5}, 5)):
        lo, hi = _geometric_mixture(x, J)
        assert lo <= exact <= hi
        b = cq.weighted_sf([1, 2], 2, x, **kw)
        assert b["terms"] == J
        assert float(b["lo"]) == pytest.approx(lo, rel=1e-13)
        assert float(b["hi"]) == pytest.approx(hi, rel=1e-13)
        # the same weights and x at both ends: the interval is that bracket, both ends truncated
        br = cq.sf_interval([1, 2], [1, 2], 2, x, x, **kw)
        assert br["terms"] == J and br["name"] == "Moschopoulos series"
        assert float(br["lo"]) == pytest.approx(lo, rel=1e-13)
        assert float(br["hi"]) == pytest.approx(hi, rel=1e-13)
    # equal weights at one end (the closed form, one term): the interval reports the larger count
    assert cq.sf_interval([1, 1], [1, 2], 2, x, x, max_terms=5)["terms"] == 5


@pytest.mark.parametrize("x", [0, -1.5])
def test_survival_at_or_below_zero_is_one(x):
    # P(X > x) = 1 for x ≤ 0 and X ≥ 0: the closed forms exactly, the series within its
    # truncation tolerance.
    for k in (1, 4):
        assert cq.chisq_sf(k, x) == 1
        b = cq.weighted_sf([0.5] * k, 3, x)
        assert b["lo"] == b["hi"] == 1
    b = cq.weighted_sf([1, 2], 2, x)
    assert b["hi"] == 1 and 0 <= 1 - b["lo"] <= cq.TOL


def test_method_texts_state_the_formula_and_the_truncation_bound():
    # The certificate's "why" quotes these: the closed form as the module docstring gives it,
    # Q(nd/2, x/(2μ)) the regularised upper incomplete gamma; the series with its remainder bound.
    b = cq.weighted_sf([0.7] * 3, 2, 1.0)
    assert b["terms"] == 1 and b["name"] == "closed form (χ² survival)"
    assert b["method"] == "closed form: equal weights, P(χ²_{nd} > x/μ) = Q(nd/2, x/(2μ))"
    b = cq.weighted_sf([0.7, 0.2], 2, 1.0)
    assert b["name"] == "Moschopoulos series"
    assert b["method"].startswith("Moschopoulos' gamma-mixture series (")
    assert b["method"].endswith("; truncation remainder ≤ 1 − Σ p_j)")


def test_decide_compares_the_bracket_ends_with_the_threshold_and_gives_the_distance():
    # Dyadic numbers: every difference below is exact in binary.
    t = Fraction(1, 4)
    assert cq.decide({"lo": 0.375, "hi": 0.5}, t) == (True, 0.125)      # lo − t
    assert cq.decide({"lo": 0.0625, "hi": 0.125}, t) == (False, 0.125)  # t − hi
    assert cq.decide({"lo": 0.125, "hi": 0.25}, t) == (False, 0)        # P ≤ hi = t
    assert cq.decide({"lo": 0.25, "hi": 0.25}, t) == (False, 0)         # P = t is not > t
    assert cq.decide({"lo": 0.25, "hi": 0.375}, t) == (None, 0)         # lo = t < hi: straddles
    assert cq.decide({"lo": 0.125, "hi": 0.375}, t) == (None, 0)


def test_eigenvalue_slack_is_its_stated_bound_and_covers_the_error():
    # [[1, 2], [2, 4]] = vvᵀ with v = (1, 2): eigenvalues 0 and 5, ‖M‖_F = √(1 + 4 + 4 + 16) = 5,
    # so the slack is n(1 + ‖M‖_F)·10^{slack_digits − DPS} = 2·6·10^{slack_digits − 50}.
    M = [[Fraction(1), Fraction(2)], [Fraction(2), Fraction(4)]]
    for kw, digits in (({}, 15), ({"slack_digits": 0}, 0)):
        vals, slack = cq.symmetric_eigenvalues(M, **kw)
        stated = 12 * cq.mp.mpf(10) ** (digits - cq.DPS)
        assert float(slack / stated) == pytest.approx(1, abs=1e-30)
        assert abs(vals[0]) <= slack and abs(vals[1] - 5) <= slack


@pytest.mark.parametrize("y", [0.5, 2.0])
def test_extremal_sf_with_one_weight_is_the_chi_square_1_tail(y):
    p, k = cq.extremal_sf(y, 1)
    assert k == 1 and float(p) == pytest.approx(stats.chi2.sf(y, 1), rel=1e-12)


@pytest.mark.parametrize("k_max", [0, -2, 2.5])
def test_extremal_sf_rejects_a_k_max_that_is_not_a_positive_integer(k_max):
    with pytest.raises(ValueError, match="k_max must be a positive integer"):
        cq.extremal_sf(1.0, k_max)
