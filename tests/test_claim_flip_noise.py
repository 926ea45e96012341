"""flip-noise: the flip perturbation has mean p(1 − 2X), so it is not Assumption 1's zero-mean
i.i.d. noise; which entries flip is Bernoulli(p) whatever X; the centred ζ is sub-Gaussian
with σ = 1/2 around (1 − 2p)X + p."""

import numpy as np
import pytest
import scipy.sparse as sp

from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.claims import flip_noise as fn


def _run():
    return {r.id: r for r in run_checks(Context(seed=0), only=["flip-noise"], progress=False)}


def test_verdicts_and_scopes():
    res = _run()
    own = res["flip-noise"]
    assert own.verdict == "fails" and own.scope == "as-stated" and own.norm == "sym"
    for case in own.evidence["cases"]:
        assert case["mean_eta_given_0"] == pytest.approx(case["p"], abs=0.01)
        assert case["mean_eta_given_1"] == pytest.approx(-case["p"], abs=0.02)
    assert res["flip-noise:bernoulli"].verdict == "holds"
    cor = res["flip-noise-corrected"]
    assert cor.verdict == "holds" and cor.scope == "extension"
    assert cor.evidence["decomposition_max_abs_residual"] == 0.0


def test_closed_forms():
    for p in fn.LEVELS:
        for x in (0, 1):
            # η's MGF centred at 0 fails Assumption 1 at the witness t = ±p/σ² for every σ ...
            for sigma in (0.5, 3.0, 1e3):
                assert fn.witness(p, x, sigma)[1] > 0
            # ... while the centred ζ satisfies Hoeffding's bound e^{t²/8}.
            assert (fn.log_mgf_centred(fn.T_GRID, p, x) <= fn.T_GRID ** 2 / 8 + 1e-12).all()
    t = np.array([-2.0, 0.5])
    assert fn.log_mgf(t, 0.3, 0) == pytest.approx(np.log(0.7 + 0.3 * np.exp(t)))


def test_planted_flips_that_depend_on_x_are_caught(monkeypatch):
    def zeros_only(X, p, seed=None):          # flips only the zeros: not independent of X
        X = sp.csr_array(X)
        rng = np.random.default_rng(0)
        B = (rng.random(X.shape) < p) & (X.toarray() == 0)
        return sp.csr_array(X.toarray() + B)
    monkeypatch.setattr(fn, "flip_features", zeros_only)
    res = _run()
    assert res["flip-noise:bernoulli"].verdict == "fails"
    assert res["flip-noise-corrected"].verdict == "fails"


# ---------------------------------------------------------------------------------------------
# the judges at their thresholds and the headline numbers against formulas written here

UP, DOWN = np.inf, -np.inf


def _row(p, ci0, ci1):
    return {"p": p, "rate_0_ci": ci0, "rate_1_ci": ci1}


def test_covers_p_at_the_interval_ends():
    assert fn.covers_p(_row(0.1, (0.1, 0.2), (0.0, 0.1)))                 # closed at both ends
    assert not fn.covers_p(_row(0.1, (np.nextafter(0.1, UP), 0.2), (0.0, 0.2)))
    assert not fn.covers_p(_row(0.1, (0.0, 0.2), (0.0, np.nextafter(0.1, DOWN))))
    assert not fn.covers_p(_row(0.1, (0.0, np.nextafter(0.1, DOWN)), (0.0, 0.2)))
    assert not fn.covers_p(_row(0.1, (0.0, 0.2), (np.nextafter(0.1, UP), 0.2)))


def test_corrected_verdict_at_its_thresholds():
    t = fn.MGF_TOL
    assert t == 1e-12
    assert fn.corrected_verdict(t, 0.0, []) == "holds"
    assert fn.corrected_verdict(np.nextafter(t, UP), 0.0, []) == "fails"
    assert fn.corrected_verdict(-1.0, 5e-324, []) == "fails"               # any residual
    assert fn.corrected_verdict(0.0, 0.0, [{"p": 0.1}]) == "fails"


def _clopper_pearson(k, n, conf):
    from scipy.stats import beta
    a = 1 - conf
    return (beta.ppf(a / 2, k, n - k + 1) if k else 0.0,
            beta.ppf(1 - a / 2, k + 1, n - k) if k < n else 1.0)


def test_headline_numbers_against_formulas_written_here():
    """Each case's Bonferroni Clopper–Pearson intervals (scipy's beta quantiles, overall 95% over
    the 2·cases intervals), the mean of η and its interval from the counts, the largest log-MGF
    gap of ζ over the grid (0 at t = 0: Hoeffding's lemma gives ≤ 0 elsewhere), and the minimal
    case's witness log(1 + p(e^t − 1)) − σ²t²/2 at t = p/σ²."""
    import math
    res = _run()
    rows = res["flip-noise"].evidence["cases"]
    conf = 1 - 0.05 / (2 * len(rows))
    for r in rows:
        nd = r["n"] * r["d"]
        assert r["entries_0"] + r["entries_1"] == nd
        for k, n, ci in ((r["flipped_0"], r["entries_0"], r["rate_0_ci"]),
                         (r["flipped_1"], r["entries_1"], r["rate_1_ci"])):
            assert ci == pytest.approx(_clopper_pearson(k, n, conf), rel=1e-9, abs=0)
        assert r["mean_eta"] == (r["flipped_0"] - r["flipped_1"]) / nd
        assert r["closed_form_mean"] == pytest.approx(
            r["p"] * (r["entries_0"] - r["entries_1"]) / nd, rel=1e-15, abs=0)
        lo = (r["rate_0_ci"][0] * r["entries_0"] - r["rate_1_ci"][1] * r["entries_1"]) / nd
        hi = (r["rate_0_ci"][1] * r["entries_0"] - r["rate_1_ci"][0] * r["entries_1"]) / nd
        assert r["mean_eta_ci"] == pytest.approx((lo, hi), rel=1e-12, abs=0)
    t = np.linspace(-40.0, 40.0, 4001)
    ours = max(float((np.log((1 - p) * np.exp(-s * p) + p * np.exp(s * (1 - p)))
                      - t * t / 8).max()) for p in fn.LEVELS for s in (t, -t))
    assert abs(ours) <= 1e-15
    got = res["flip-noise-corrected"].evidence["max_log_mgf_minus_t2_over_8"]
    assert abs(got) <= 1e-15
    mc = res["flip-noise"].minimal_counterexample
    p, sigma = mc["p"], mc["sigma"]
    tw = p / sigma ** 2
    assert mc["witness_t"] == tw
    assert mc["log_mgf_minus_sigma2_t2_over_2"] == pytest.approx(
        math.log(1 + p * (math.exp(tw) - 1)) - sigma ** 2 * tw ** 2 / 2, rel=1e-12, abs=0)
    assert mc["log_mgf_minus_sigma2_t2_over_2"] > 0
