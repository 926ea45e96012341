"""Exact tail probabilities of weighted χ² sums (theory/_chisq.py) and Lemma 1's exact
certificate: closed forms, Monte Carlo, the truncation bracket, monotone widening."""

import math

import numpy as np
import pytest
from scipy import stats

from ngc_ref_theory import _chisq as cq
from ngc_ref_theory import _exact as ex
from ngc_ref_theory._stats import clopper_pearson


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
