"""The checker's intervals and tests, by what they promise (#34 §3): the t-interval of a mean,
the OLS slope intervals, Clopper–Pearson, the verdict on a probability bound, the decay test
along n and the rule under it (``_stats``), and the paired, Bonferroni-corrected comparisons
(``_stats.paired_comparison``, which ``reproduce.judge`` and the claims use) and the cell
intervals of ``reproduce`` (``reproduce.judge``).

**How a simulation is judged.** N independent replicates at a fixed seed; the number of
misses of an interval (or of wrong verdicts of a test) is Binomial(N, α) when the interval or
test does what it states, α its stated error rate (per side for a two-sided interval). The
test accepts the count between the 1e-4 and 1 − 1e-4 quantiles of that binomial — two-sided
where the error rate is exact (t-intervals under Gaussian data, where "no wider than it needs
to be" is part of the promise), only the upper one where the promise is "at most" (Bonferroni,
Clopper–Pearson, a widened interval). A correct implementation fails with probability below
2·10⁻⁴ at any seed; the seed is fixed, so the test is deterministic. N is set so that each test
takes about a second at most. The two-sided coverage counts (all misses, rate α) see a
doubled error rate (a 90 % interval for a 95 % one, the wrong degrees of freedom at small n):
at N = 500 the band is [9, 45] misses, a doubled rate expects 50. The one-sided rates
(α/2 at a threshold, α/(2m) for Bonferroni) see a gross error (no correction, a one-sided rule
read from the wrong end); their levels are pinned exactly by the reference tests beside them
(intervals by hand, the normal equations, binomial tails)

Where the arithmetic is exact (Clopper–Pearson and the bound verdict: a finite sum over k), the
rates are computed exactly, against the binomial distribution as an independent reference.
"""

import math

import numpy as np
import pytest
from scipy.stats import binom
from scipy.stats import t as t_dist

from ngc_ref_theory.kit import stats as _stats
from ngc_ref_theory.kit.claim import worst_verdict
from ngc_ref_theory.kit.stats import (CONFIDENCE, FLAT_RANGE, SLOPE_DECAY, SLOPE_FLAT,
                                      bound_verdict, clopper_pearson, comparison_verdict,
                                      decay_verdict, interval_verdict, loglog_slope_ci, mean_ci,
                                      paired_comparison, sizes_to_decide, slope_ci)
from ngc_ref_theory.reproduce.judge import beats_all, judge_cell, versus_control

ALPHA = 1.0 - CONFIDENCE
#: The binomial tail outside which a simulated count fails its test.
TAIL = 1e-4


def assert_binomial(count, N, rate, *, at_most=False):
    """``count`` of N is consistent with Binomial(N, rate): at or below its 1 − TAIL quantile,
    and (unless ``at_most``) at or above its TAIL quantile."""
    lo, hi = binom.ppf(TAIL, N, rate), binom.isf(TAIL, N, rate)
    assert count <= hi and (at_most or count >= lo), (
        f"{count} of {N}: expected {N * rate:.1f}, band [{lo:.0f}, {hi:.0f}]")


def _assert_misses(cis, value, N):
    """A two-sided exact (1 − α) interval: misses at α in all, at α/2 on each side."""
    low, high = int((cis[:, 0] > value).sum()), int((cis[:, 1] < value).sum())
    assert_binomial(low + high, N, ALPHA)
    assert_binomial(low, N, ALPHA / 2)
    assert_binomial(high, N, ALPHA / 2)


# --- t-interval of a mean -----------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 5])
def test_the_mean_interval_misses_the_mean_at_its_stated_rate_on_each_side(n):
    """Gaussian samples: the t-interval is exact, so each side misses at α/2 — two runs
    (n = 2: t = 12.7) included."""
    N, mu = 600, 1.5
    x = np.random.default_rng(n).normal(mu, 2.0, (N, n))
    cis = np.array([mean_ci(row)[1] for row in x])
    _assert_misses(cis, mu, N)


def test_the_mean_interval_at_one_run_zero_spread_and_another_level():
    x = [2.0, 3.5, 7.0, 4.0]
    mu, (lo, hi) = mean_ci(x, conf=0.8)
    s = math.sqrt(sum((v - 4.125) ** 2 for v in x) / 3)          # by hand, ddof = 1
    half = t_dist.ppf(0.9, 3) * s / 2.0
    assert mu == 4.125 and (lo, hi) == pytest.approx((4.125 - half, 4.125 + half))
    one, (a, b) = mean_ci([4.25])
    assert one == 4.25 and math.isnan(a) and math.isnan(b)           # no interval from one run
    assert mean_ci([3.0, 3.0, 3.0]) == (3.0, (3.0, 3.0))             # zero spread: a point


# --- slope intervals ----------------------------------------------------------------------

def test_the_slope_interval_misses_the_slope_at_its_stated_rate_on_each_side():
    """y = a + b·x + Gaussian noise on a fixed design (the OLS model): exact t(n − 2)."""
    N, b = 500, -0.7
    x = np.arange(6.0)
    y = 2.0 + b * x + np.random.default_rng(1).normal(0.0, 0.5, (N, x.size))
    cis = np.array([slope_ci(x, row)[1] for row in y])
    _assert_misses(cis, b, N)


def test_the_log_log_slope_interval_misses_the_exponent_at_its_stated_rate():
    """A power law y = c·n^b with log-normal scatter, on three sizes (the fewest with an
    interval: t(1) = 12.7) and on five."""
    b = -0.3
    for ns, seed in (([100.0, 200.0, 400.0], 2), ([100.0, 200.0, 400.0, 800.0, 1600.0], 3)):
        N = 300
        y = 5.0 * np.asarray(ns) ** b * np.exp(
            np.random.default_rng(seed).normal(0.0, 0.2, (N, len(ns))))
        cis = np.array([loglog_slope_ci(ns, row)[1] for row in y])
        _assert_misses(cis, b, N)


def test_slope_intervals_at_two_points_an_exact_fit_and_a_constant():
    assert all(math.isnan(c) for c in slope_ci([1.0, 2.0], [3.0, 5.0])[1])   # df = 0
    slope, (lo, hi) = slope_ci([1.0, 2.0, 3.0], [1.0, 3.0, 5.0])             # exact line
    assert slope == pytest.approx(2.0) and lo == pytest.approx(2.0) and hi == pytest.approx(2.0)
    s2, ci2 = loglog_slope_ci([1.0, 2.0], [1.0, 4.0])
    assert s2 == pytest.approx(2.0) and all(math.isnan(c) for c in ci2)   # < 3 points
    assert loglog_slope_ci([1.0, 2.0, 4.0], [3.0, 3.0, 3.0]) == (0.0, (0.0, 0.0))
    s3, (lo3, hi3) = loglog_slope_ci([1.0, 2.0, 4.0], [1.0, 4.0, 16.0])      # y = n²
    assert (s3, lo3, hi3) == pytest.approx((2.0, 2.0, 2.0))


# --- Clopper–Pearson and the bound verdict: exact sums over k --------------------------------

@pytest.mark.parametrize("n", [1, 7, 40])
def test_clopper_pearson_ends_are_where_each_binomial_tail_is_alpha_over_2(n):
    """The defining property: lo(k) is the p with P(K ≥ k) = α/2, hi(k) the p with
    P(K ≤ k) = α/2 (binomial tails as the reference); lo(0) = 0 and hi(n) = 1."""
    for k in range(n + 1):
        lo, hi = clopper_pearson(k, n)
        assert (lo == 0.0) == (k == 0) and (hi == 1.0) == (k == n)
        if k > 0:
            assert binom.sf(k - 1, n, lo) == pytest.approx(ALPHA / 2, rel=1e-7)
        if k < n:
            assert binom.cdf(k, n, hi) == pytest.approx(ALPHA / 2, rel=1e-7)
    lo, hi = clopper_pearson(3, 10, conf=0.8)
    assert binom.sf(2, 10, lo) == pytest.approx(0.1) and binom.cdf(3, 10, hi) == pytest.approx(0.1)


@pytest.mark.parametrize("n", [7, 40])
def test_clopper_pearson_covers_every_p_at_least_at_its_level(n):
    """Exact: on a grid of p, each side misses with probability at most α/2 (a sum over k of
    the binomial pmf); and a simulation of 20 000 draws at p = 0.3 agrees."""
    table = np.array([clopper_pearson(k, n) for k in range(n + 1)])
    k = np.arange(n + 1)
    for p in np.linspace(0.001, 0.999, 199):
        pmf = binom.pmf(k, n, p)
        assert pmf[table[:, 0] > p].sum() <= ALPHA / 2 + 1e-12
        assert pmf[table[:, 1] < p].sum() <= ALPHA / 2 + 1e-12
    N, p = 20000, 0.3
    draws = table[np.random.default_rng(n).binomial(n, p, N)]
    assert_binomial(int((draws[:, 0] > p).sum()), N, ALPHA / 2, at_most=True)
    assert_binomial(int((draws[:, 1] < p).sum()), N, ALPHA / 2, at_most=True)


def test_the_bound_verdict_errs_at_most_at_alpha_over_2_on_either_side():
    """"P(event) ≤ p_max" from k of n: at p = p_max (the statement true) it says ``fails``
    with probability at most α/2, at p just above p_max (false) ``holds`` at most α/2, and
    far above it ``fails`` almost surely. Exact sums over k."""
    n, p_max = 60, 0.25
    verdicts = [bound_verdict(k, n, p_max)[0] for k in range(n + 1)]
    assert verdicts[0] == "holds" and verdicts[-1] == "fails"

    def prob(p, verdict):
        return sum(binom.pmf(k, n, p) for k, v in enumerate(verdicts) if v == verdict)
    assert 0 < prob(p_max, "fails") <= ALPHA / 2
    assert 0 < prob(p_max + 1e-9, "holds") <= ALPHA / 2
    assert prob(0.6, "fails") > 0.999 and prob(0.02, "holds") > 0.99


def test_the_bound_verdict_at_ties_with_the_interval_ends():
    """``holds`` when the interval lies at or below p_max (hi = p_max holds), ``fails`` only
    when it lies strictly above (lo = p_max is inconclusive)."""
    lo, hi = clopper_pearson(0, 50)
    assert bound_verdict(0, 50, hi) == ("holds", (lo, hi))
    assert bound_verdict(0, 50, math.nextafter(hi, 0))[0] == "inconclusive"
    lo, hi = clopper_pearson(30, 50)
    assert bound_verdict(30, 50, lo)[0] == "inconclusive"
    assert bound_verdict(30, 50, math.nextafter(lo, 0))[0] == "fails"
    assert bound_verdict(1, 1, 0.5)[0] == "inconclusive"              # one trial
    assert bound_verdict(3, 10, 0.5, conf=0.5)[1] == clopper_pearson(3, 10, 0.5)


# --- the decay test along n ---------------------------------------------------------------

def _series(slope, ns, N, sigma, seed):
    return np.asarray(ns) ** slope * np.exp(
        np.random.default_rng(seed).normal(0.0, sigma, (N, len(ns))))


def test_decay_verdict_errs_at_its_stated_rate_at_each_threshold(monkeypatch):
    """At slope exactly SLOPE_DECAY, ``holds`` (interval at or below it, and decreasing at
    every step — near-sure at this scatter) comes out at α/2; at slope exactly SLOPE_FLAT
    over a grid spanning exactly FLAT_RANGE×, ``fails`` (interval strictly above) at α/2.
    What would decide an inconclusive trend is not under test here (its phrase is)."""
    monkeypatch.setattr(_stats, "_to_decide", lambda *a: "")
    ns = [100.0 * 2 ** k for k in range(4)]
    assert ns[-1] == FLAT_RANGE * ns[0]
    N = 300
    holds = [decay_verdict(ns, v).verdict for v in _series(SLOPE_DECAY, ns, N, 0.01, 4)]
    assert_binomial(holds.count("holds"), N, ALPHA / 2)
    assert "fails" not in holds
    flat = [decay_verdict(ns, v).verdict for v in _series(SLOPE_FLAT, ns, N, 0.01, 5)]
    assert_binomial(flat.count("fails"), N, ALPHA / 2)
    assert "holds" not in flat


def test_decay_verdict_at_the_edges_of_its_grid():
    """Two sizes: no interval, inconclusive, 'at least 3 sizes'. A grid one short of
    FLAT_RANGE× never fails (the range is the hypothesis of a 'does not decay'); at exactly
    FLAT_RANGE× it does. Decreasing at every step is required for holds."""
    t = decay_verdict([100, 200], [0.5, 0.25])
    assert (t.verdict, t.ci) == ("inconclusive", None)
    assert t.to_decide == "at least 3 sizes (no interval from fewer)"
    rising = lambda ns: [n ** 0.5 for n in ns]       # noqa: E731  (an exact rise)
    short = [100, 200, 400, 799]
    t = decay_verdict(short, rising(short))
    assert t.verdict == "inconclusive"
    assert t.to_decide == "a range of n of at least 8× (n up to 800)"
    assert decay_verdict([100, 200, 400, 800], rising([100, 200, 400, 800])).verdict == "fails"
    ns = [100 * 2**k for k in range(8)]
    bump = [1 / n for n in ns]
    bump[4] = bump[3]                                 # steep, but flat at one step
    t = decay_verdict(ns, bump)
    assert t.ci[1] <= SLOPE_DECAY and not t.decreasing and t.verdict == "inconclusive"
    assert t.to_decide == "the values do not decrease at every step: more sizes or draws per size"


def test_interval_verdict_with_no_threshold_and_with_nan_ends():
    assert interval_verdict((-1.0, -0.5)) == "inconclusive"              # no threshold given
    assert interval_verdict((-1.0, -0.5), fails_above=-2.0) == "fails"
    assert interval_verdict((math.nan, -0.5), holds_at_most=0.0) == "inconclusive"
    assert interval_verdict((-1.0, math.inf), fails_above=-2.0) == "inconclusive"


def test_sizes_to_decide_reaches_max_n_exactly_and_no_further():
    ns = np.array([100, 200, 400, 800])
    y = ns ** -0.3 * np.exp([0.1, -0.1, -0.1, 0.1])
    assert sizes_to_decide(ns, y, SLOPE_DECAY, max_n=3200) == (3200, 6)
    assert sizes_to_decide(ns, y, SLOPE_DECAY, max_n=3199) is None
    # a grid whose continuation rounds above its integers (250·e^{5·(log 2000 − log 250)/3} =
    # 8000.000000000004): its last n is still reached at max_n = 8000 (the slack of 1e-9)
    ns = ns * 2.5
    assert 250 * math.exp(5 * (math.log(2000.0) - math.log(250.0)) / 3) > 8000
    assert sizes_to_decide(ns, y, SLOPE_DECAY, max_n=8000) == (8000, 6)
    assert sizes_to_decide(ns, y, SLOPE_DECAY, max_n=7999) is None
    assert sizes_to_decide(ns[:2], y[:2], SLOPE_DECAY) is None           # < 3 sizes


# --- reproduce: paired comparisons, Bonferroni, cells ---------------------------------------

def test_a_paired_comparison_errs_at_its_stated_rates():
    """Δ ~ N(threshold, 1) over 5 runs, one of m = 4 comparisons: ``holds`` (95 % interval
    above the threshold) at α/2, ``fails`` (the Bonferroni interval, 1 − α/m, below it) at
    α/(2m), and the same rates for the claim "below" (``above=False``) on the same intervals;
    the two intervals cover at 1 − α and 1 − α/m."""
    N, m, thr = 1000, 4, -2.0
    d = np.random.default_rng(6).normal(thr, 1.0, (N, 5))
    rows = [paired_comparison(row, m, threshold=thr) for row in d]
    for above in (True, False):
        readings = [comparison_verdict(r.ci, r.ci_bonferroni, threshold=thr, above=above)
                    for r in rows]
        assert_binomial(readings.count("holds"), N, ALPHA / 2)
        assert_binomial(readings.count("fails"), N, ALPHA / (2 * m))
    assert [r.verdict for r in rows] == [
        comparison_verdict(r.ci, r.ci_bonferroni, threshold=thr) for r in rows]
    assert [paired_comparison(row, m, threshold=thr, above=False).verdict for row in d[:50]] == [
        comparison_verdict(r.ci, r.ci_bonferroni, threshold=thr, above=False) for r in rows[:50]]
    ci = np.array([r.ci for r in rows])
    cib = np.array([r.ci_bonferroni for r in rows])
    assert_binomial(int(((ci[:, 0] > thr) | (ci[:, 1] < thr)).sum()), N, ALPHA)
    assert_binomial(int(((cib[:, 0] > thr) | (cib[:, 1] < thr)).sum()), N, ALPHA / m)
    assert np.all(cib[:, 0] <= ci[:, 0]) and np.all(cib[:, 1] >= ci[:, 1])


def test_a_claim_of_several_comparisons_fails_at_most_at_alpha_over_2_overall():
    """The family of m = 6 comparisons all exactly at the claimed side's edge (mean Δ = 0):
    ``fails`` needs one Bonferroni interval below 0, so the claim is wrongly failed with
    probability at most α/2 (the union bound); without the correction it would be ≈ 14 %."""
    N, runs = 150, 4
    rng = np.random.default_rng(7)
    columns = [("cora", 0.0, "raw"), ("citeseer", 0.0, "raw")]
    failed = 0
    for _ in range(N):
        acc = {c: {m: list(rng.normal(70.0, 1.0, runs)) for m in ("ngc", "mlp", "gcn", "sgc")}
               for c in columns}
        for c in columns:   # each baseline's runs: ngc's minus N(0, 1) differences
            for b in ("mlp", "gcn", "sgc"):
                acc[c][b] = [a - e for a, e in zip(acc[c]["ngc"], rng.normal(0.0, 1.0, runs))]
        rows = beats_all(acc, columns, ("ngc",), ("mlp", "gcn", "sgc"))
        assert len(rows) == 6
        failed += worst_verdict(r["reading"] for r in rows) == "fails"
    assert_binomial(failed, N, ALPHA / 2, at_most=True)


def test_a_paired_comparison_at_ties_with_the_threshold_and_its_tolerance():
    """holds needs the interval strictly on the claimed side of the threshold, fails the
    Bonferroni interval strictly on the other; an interval ending on it is inconclusive, and so
    is one ending within ``tolerance`` of it. One run: no interval."""
    def verdict(delta, m, **kw):
        return paired_comparison(delta, m, **kw).verdict
    d = np.array([10.0, 11.0, 12.0])
    lo, hi = paired_comparison(d, 1).ci
    lo_b, hi_b = paired_comparison(d, 3).ci_bonferroni
    assert 0 < lo_b < lo < hi < hi_b
    for m, thr, above, want in (
            (1, lo, True, "inconclusive"), (1, math.nextafter(lo, -1), True, "holds"),
            (3, hi_b, True, "inconclusive"), (3, math.nextafter(hi_b, 99), True, "fails"),
            (1, hi, False, "inconclusive"), (1, math.nextafter(hi, 99), False, "holds"),
            (3, lo_b, False, "inconclusive"), (3, math.nextafter(lo_b, 0), False, "fails")):
        assert verdict(d, m, threshold=thr, above=above) == want, (m, thr, above)
    # a tolerance around the threshold 0 counts as neither side
    assert verdict(d, 1, tolerance=lo) == "inconclusive"
    assert verdict(d, 1, tolerance=math.nextafter(lo, 0)) == "holds"
    assert verdict(-d, 3, tolerance=lo_b) == "inconclusive"
    assert verdict(-d, 3, tolerance=math.nextafter(lo_b, 0)) == "fails"
    assert verdict(-d, 1, tolerance=lo, above=False) == "inconclusive"
    assert verdict(-d, 1, tolerance=math.nextafter(lo, 0), above=False) == "holds"
    one = paired_comparison(np.array([5.0]), 1)
    assert one.verdict == "inconclusive" and math.isnan(one.ci[0]) and one.runs == 1
    none = paired_comparison(np.array([]), 2)
    assert none.verdict == "inconclusive" and none.runs == 0 and math.isnan(none.mean)
    flat = paired_comparison(np.array([0.5, 0.5, 0.5]), 2)
    assert flat.verdict == "holds" and flat.ci == (0.5, 0.5)   # zero spread


def test_a_paired_comparison_by_its_defaults_and_its_level():
    """Defaults: one comparison (m = 1: the Bonferroni interval is the 95 % one), threshold 0,
    no tolerance, "above"; ``conf`` sets the level of both intervals. The references are the
    t-intervals written out here."""
    d = np.array([0.3, 1.1, 0.2, 0.9, 0.5])

    def t_interval(level, k=1):
        half = t_dist.ppf(1 - (1 - level) / (2 * k), d.size - 1) * d.std(ddof=1) / math.sqrt(
            d.size)
        return pytest.approx((d.mean() - half, d.mean() + half), rel=1e-12, abs=0)
    one = paired_comparison(d)
    assert one.ci == t_interval(0.95) and one.ci_bonferroni == t_interval(0.95)
    assert paired_comparison(d, 3).ci_bonferroni == t_interval(0.95, 3)
    level = paired_comparison(d, 2, conf=0.9)
    assert level.ci == t_interval(0.9) and level.ci_bonferroni == t_interval(0.9, 2)
    assert one.verdict == _stats.comparison_verdict(one.ci, one.ci_bonferroni) == "holds"
    # the rule's own defaults: threshold 0, no tolerance, above
    assert _stats.comparison_verdict((0.5, 0.9), (0.1, 1.3)) == "holds"
    assert _stats.comparison_verdict((-0.9, -0.5), (-1.3, -0.1)) == "fails"
    # "below" with a tolerance: the Bonferroni interval must clear threshold + tolerance
    assert _stats.comparison_verdict((0.6, 1.5), (0.5, 2.0), tolerance=1.0,
                                     above=False) == "inconclusive"
    assert _stats.comparison_verdict((1.2, 1.5), (1.1, 2.0), tolerance=1.0,
                                     above=False) == "fails"


def test_a_cell_reproduces_at_its_stated_rate():
    """Our runs and the paper's from the same Gaussian: without the paper's std the 95 %
    t-interval of our mean misses the paper's mean (taken as exact) at α; with one run of ours
    the prediction interval ± t(n_p − 1)·s_p·√(1 + 1/n_p) misses at α when s_p is the paper's
    sample std (ddof = 1) over n_p runs; widening by the paper's own half-width misses at most
    α (it is conservative)."""
    rng = np.random.default_rng(8)
    N, mu, sd = 400, 70.0, 3.0
    ours = rng.normal(mu, sd, (N, 4))
    miss = sum(judge_cell(list(v), mu)["verdict"] != "reproduced" for v in ours)
    assert_binomial(miss, N, ALPHA)
    paper = rng.normal(mu, sd, (N, 10))
    one = rng.normal(mu, sd, N)
    miss = sum(judge_cell([o], p.mean(), p.std(ddof=1), 10)["verdict"] != "reproduced"
               for o, p in zip(one, paper))
    assert_binomial(miss, N, ALPHA)
    miss = sum(judge_cell(list(v), p.mean(), p.std(ddof=1), 10)["verdict"] != "reproduced"
               for v, p in zip(ours, paper))
    assert_binomial(miss, N, ALPHA, at_most=True)


def test_a_cell_at_ties_with_its_interval_and_with_one_run():
    v = [70.0, 71.0, 72.0]
    lo, hi = mean_ci(v)[1]
    assert judge_cell(v, lo)["verdict"] == "reproduced"
    assert judge_cell(v, hi)["verdict"] == "reproduced"
    assert judge_cell(v, math.nextafter(hi, 99))["verdict"] == "below"   # ours below the paper
    assert judge_cell(v, math.nextafter(lo, 0))["verdict"] == "above"
    r = judge_cell([70.0], 71.0, 2.0, 1)      # one paper run: no t, the normal 1.96, √(1 + 1)
    assert r["interval"] == pytest.approx([70.0 - 1.959963984540054 * 2.0 * math.sqrt(2.0),
                                           70.0 + 1.959963984540054 * 2.0 * math.sqrt(2.0)])
    assert r["paper_half_width"] is None


def test_a_model_against_its_control_is_above_at_its_stated_rate():
    """Model and control differ by N(0, 1) per run: ``above`` at α/2, ``below`` at α/2."""
    rng = np.random.default_rng(9)
    N = 600
    ctrl = rng.normal(60.0, 5.0, (N, 5))
    model = ctrl + rng.normal(0.0, 1.0, (N, 5))
    readings = [versus_control(list(a), list(b))["reading"] for a, b in zip(model, ctrl)]
    assert_binomial(readings.count("above"), N, ALPHA / 2)
    assert_binomial(readings.count("below"), N, ALPHA / 2)
    same = versus_control([50.0], [50.0])
    assert same["reading"] == "indistinguishable" and same["identical"] and same["ci"] is None


# --- the rest of _stats: noise, data, trends, family lines (what each docstring says) -------

@pytest.mark.parametrize("kind", ["gaussian", "rademacher", "uniform"])
def test_sub_gaussian_noise_has_mean_zero_and_standard_deviation_sigma(kind):
    """Each noise has standard deviation σ (its sub-Gaussian parameter, Lemma 1's σ): ±σ for
    Rademacher, uniform on [−σ√3, σ√3]; the generator makes it reproducible."""
    sigma = 0.7
    eta = _stats.sub_gaussian_noise(np.random.default_rng(0), kind, (200, 100), sigma)
    assert eta.shape == (200, 100)
    assert abs(eta.mean()) < 4 * sigma / math.sqrt(eta.size)
    assert eta.std() == pytest.approx(sigma, rel=0.02)
    if kind == "rademacher":
        assert set(np.unique(eta)) == {-sigma, sigma}
    if kind == "uniform":
        top = np.abs(eta).max()
        assert 0.99 * sigma * math.sqrt(3) < top <= sigma * math.sqrt(3)
    again = _stats.sub_gaussian_noise(np.random.default_rng(0), kind, (200, 100), sigma)
    assert np.array_equal(eta, again)
    unit = _stats.sub_gaussian_noise(np.random.default_rng(1), kind, (100, 100))
    assert unit.std() == pytest.approx(1.0, rel=0.02)                  # σ = 1 by default


def test_seed_of_draws_a_31_bit_seed_from_the_generator():
    rng = np.random.default_rng(3)
    seeds = [_stats.seed_of(rng) for _ in range(400)]
    assert all(isinstance(s, int) and 0 <= s < 2**31 for s in seeds)
    assert max(seeds) > 2**30 and len(set(seeds)) == 400               # the whole range, fresh
    assert _stats.seed_of(np.random.default_rng(5)) == _stats.seed_of(np.random.default_rng(5))


def test_class_bag_of_words_draws_distinct_words_mostly_from_the_class_block():
    """Binary rows of exactly ``words_per_node`` distinct words; each draw comes from the
    class's block (d/c words) with probability topic_share + (1 − topic_share)·(d/c)/d before
    any word is used (0.775 by default at c = 4) and no less than after words_per_node − 1
    block words are used (0.729): the share of block words lies between."""
    labels = np.repeat(np.arange(4), 200)
    eight = np.repeat(np.arange(4), 2)
    X = _stats.class_bag_of_words(np.random.default_rng(0), labels)
    assert X.shape == (800, 200) and set(np.unique(X)) == {0.0, 1.0}
    assert np.all(X.sum(axis=1) == 12)
    block = np.array([X[i, y * 50:(y + 1) * 50].sum() for i, y in enumerate(labels)])
    share = block.sum() / X.sum()
    assert 0.72 < share < 0.785, share
    Y = _stats.class_bag_of_words(np.random.default_rng(0), eight, d=40, words_per_node=5,
                                  topic_share=1.0)
    assert Y.shape == (8, 40) and np.all(Y.sum(axis=1) == 5)
    assert all(Y[i, y * 10:(y + 1) * 10].sum() == 5 for i, y in enumerate(eight))


def test_pyg_row_normalize_divides_by_the_row_sum_clamped_at_one():
    X = np.array([[2.0, 2.0], [0.25, 0.25], [-1.0, 0.5], [0.0, 0.0], [1.0, 0.0]])
    ref = np.array([[0.5, 0.5], [0.25, 0.25], [-1.0, 0.5], [0.0, 0.0], [1.0, 0.0]])
    assert np.array_equal(_stats.pyg_row_normalize(X), ref)


def test_quantile_trend_reports_the_quantiles_their_ols_slope_and_the_hull():
    """Per x the sample q-quantile of all its values; the OLS log-log slope and t-interval of
    those quantiles (the normal equations as reference); a bootstrap interval that is
    reproducible from its seed, nested in its level, and a point where resampling clusters
    cannot change a quantile; ``ci`` the hull of both intervals."""
    rng = np.random.default_rng(0)
    xs = [100.0, 200.0, 400.0, 800.0]
    groups = [(x, rng.lognormal(math.log(x ** -0.5), 0.3, (6, 5))) for x in xs]
    out = _stats.quantile_trend(groups, 0.9, n_boot=300, rng=1)
    quant = [np.quantile(c, 0.9) for _, c in groups]
    assert out["x"] == xs and out["quantile"] == pytest.approx(quant)
    lx, ly = np.log(xs), np.log(quant)
    X = np.column_stack([np.ones(4), lx])
    beta = np.linalg.solve(X.T @ X, X.T @ ly)
    r = ly - X @ beta
    half = t_dist.ppf(0.975, 2) * math.sqrt(r @ r / 2 / ((lx - lx.mean()) @ (lx - lx.mean())))
    assert out["slope"] == pytest.approx(beta[1])
    assert out["ols_ci"] == pytest.approx((beta[1] - half, beta[1] + half))
    (blo, bhi), (olo, ohi) = out["bootstrap_ci"], out["ols_ci"]
    assert blo < bhi and out["ci"] == (min(olo, blo), max(ohi, bhi))
    assert (out["q"], out["n_boot"], out["confidence"]) == (0.9, 300, CONFIDENCE)
    assert _stats.quantile_trend(groups, 0.9, n_boot=300, rng=1) == out
    assert _stats.quantile_trend(groups, 0.9, n_boot=300, rng=2)["bootstrap_ci"] != (blo, bhi)
    narrow = _stats.quantile_trend(groups, 0.9, n_boot=300, rng=1, conf=0.5)
    assert blo < narrow["bootstrap_ci"][0] < narrow["bootstrap_ci"][1] < bhi
    assert narrow["confidence"] == 0.5
    assert olo < narrow["ols_ci"][0] < narrow["ols_ci"][1] < ohi
    # every cluster of an x alike: resampling clusters leaves each quantile, so the bootstrap
    # interval is the point slope (an exact power law: the OLS interval too)
    same = [(x, np.tile(np.array([x ** -0.5, 2 * x ** -0.5]), (3, 1))) for x in xs]
    pt = _stats.quantile_trend(same, 0.5, n_boot=50, rng=0)
    assert pt["bootstrap_ci"] == pytest.approx((-0.5, -0.5)) and pt["slope"] == pytest.approx(-0.5)
    # one value per x (a cluster of one): the quantile is the value itself
    ones = _stats.quantile_trend([(x, [[x ** 2]]) for x in xs], 0.3, n_boot=20, rng=0)
    assert ones["quantile"] == pytest.approx([x ** 2 for x in xs])


def test_quantile_trend_covers_the_exponent_of_a_power_law_quantile():
    """Clusters of log-normal values whose q-quantile is c·x^b exactly: the hull ``ci`` misses
    b at most at α (each of its two intervals alone aims at α; the hull is wider)."""
    rng = np.random.default_rng(11)
    xs, b, N = [100.0, 200.0, 400.0, 800.0, 1600.0], -0.4, 60
    missed = 0
    for _ in range(N):
        groups = [(x, rng.lognormal(math.log(x ** b), 0.25, (8, 4))) for x in xs]
        lo, hi = _stats.quantile_trend(groups, 0.5, n_boot=100, rng=rng)["ci"]
        missed += not lo <= b <= hi
    assert_binomial(missed, N, ALPHA, at_most=True)


def _rows(values, key="tau_over_n", **more):
    return [{"n": n, key: v, "isolated_nodes": 0, **more}
            for n, v in zip((100, 200, 400, 800), values)]


def test_tau_decay_verdict_fails_on_an_isolated_node_and_checks_the_upper_end_of_an_estimate():
    decaying = [0.4, 0.2, 0.1, 0.05]
    assert _stats.tau_decay_verdict(_rows(decaying)).verdict == "holds"
    iso = _rows([0.4, 0.2, 0.1, 1.0])
    iso[-1]["isolated_nodes"] = 1
    t = _stats.tau_decay_verdict(iso)
    assert (t.verdict, t.to_decide) == ("fails", "")
    iso[-1]["tau_over_n"] = 1 - 1e-9                    # at the tolerance: still τ_i = n
    assert _stats.tau_decay_verdict(iso).verdict == "fails"
    iso[-1]["tau_over_n"] = 0.999
    assert _stats.tau_decay_verdict(iso).verdict != "fails"
    first = _rows(decaying)
    first[0]["isolated_nodes"] = 1                      # only the last row counts
    assert _stats.tau_decay_verdict(first).verdict == "holds"
    # estimated: the lower end decays, the upper end does not -> inconclusive, saying why
    est = _rows(decaying, method="estimate")
    for r, up in zip(est, (0.5, 0.5, 0.5, 0.5)):
        r["tau_upper_over_n"] = up
    t = _stats.tau_decay_verdict(est)
    assert t.verdict == "inconclusive"
    assert t.to_decide.startswith("the upper end of τ's bracket: ")
    assert t.to_decide != "the upper end of τ's bracket: "
    for r, up in zip(est, (0.5, 0.25, 0.12, 0.06)):
        r["tau_upper_over_n"] = up
    assert _stats.tau_decay_verdict(est).verdict == "holds"
    exact = _rows(decaying, tau_upper_over_n=0.5)      # exact τ: the upper end is not read
    assert _stats.tau_decay_verdict(exact).verdict == "holds"
    # the upper end at the decay threshold but not decreasing: "it does not decay"? no -
    # inconclusive with the upper end's own phrase, or this fallback when it has none
    for r, up in zip(est, (0.5, 0.5, 0.5, 0.5)):
        r["tau_upper_over_n"] = up
    est[-1]["n"] = 1600                                 # 16× range: the upper end fails
    t = _stats.tau_decay_verdict(est)
    assert t.verdict == "inconclusive"
    assert t.to_decide == "the upper end of τ's bracket: it does not decay"


def test_tau_bracket_slope_and_slope_interval_read_the_rows():
    rows = _rows([0.4, 0.2, 0.1, 0.05], tau_upper_over_n=1.0)
    for r, up in zip(rows, (0.8, 0.2, 0.05, 0.0125)):
        r["tau_upper_over_n"] = up
    assert _stats.tau_bracket_slope(rows) == pytest.approx(-2.0)
    assert _stats.tau_bracket_slope(_rows([0.4, 0.2, 0.1, 0.05])) == pytest.approx(-1.0)
    lo, hi = _stats.slope_interval(_rows([0.4, 0.2, 0.1, 0.05]), "tau_over_n")
    assert lo == pytest.approx(-1.0) and hi == pytest.approx(-1.0)
    ci = _stats.slope_interval(_rows([0.4, 0.25, 0.1, 0.06]), "tau_over_n", conf=0.5)
    ref = loglog_slope_ci([100, 200, 400, 800], [0.4, 0.25, 0.1, 0.06], 0.5)[1]
    assert ci == pytest.approx(list(ref)) and isinstance(ci, list)
    assert _stats.slope_interval(_rows([0.4, 0.2]), "tau_over_n") is None


def test_family_lines_degree_share_and_the_no_hub_hypothesis():
    assert _stats.family_verdicts([("ring", "holds", -0.5, (-0.7, -0.3)),
                                   ("star", "fails", 0.0, None),
                                   ("path", "inconclusive", -0.2, (-0.9, 0.4), "n up to 6,400"),
                                   ("tree", "inconclusive", -0.2, (-0.9, 0.4), "")]) == (
        "ring: holds, slope -0.50 [-0.70, -0.30]; star: fails, slope 0.00; "
        "path: inconclusive, slope -0.20 [-0.90, 0.40] (to decide: n up to 6,400); "
        "tree: inconclusive, slope -0.20 [-0.90, 0.40]")
    assert _stats.max_degree_share([3, 1, 1, 1]) == pytest.approx(4 / 10)
    assert _stats.max_degree_share([0, 0]) == 0.5
    rows = [{"n": n, "isolated_nodes": 0, "max_degree_share": 4.0 / n} for n in (100, 200, 400)]
    assert _stats.no_hub_hypotheses(rows, "why") == (True, "")
    rows[1]["isolated_nodes"] = 2
    assert _stats.no_hub_hypotheses(rows, "their τ_i = n") == (
        False, "isolated nodes (their τ_i = n)")
    flat = [{"n": n, "isolated_nodes": 0, "max_degree_share": n ** _stats.SHARE_DECAY}
            for n in (100, 200, 400)]
    assert _stats.no_hub_hypotheses(flat, "x")[0]       # at the threshold: inside (≤)
    hub = [{"n": n, "isolated_nodes": 0, "max_degree_share": 0.3 * n ** -0.05}
           for n in (100, 200, 400)]
    inside, why = _stats.no_hub_hypotheses(hub, "x")
    assert not inside and why == ("the largest degree share does not decrease (log-log slope "
                                  "-0.05 > -0.1): a hub keeps a constant share of every row as "
                                  "λ → ∞")


def test_family_trends_judge_each_family_and_take_the_worst_inside_the_hypotheses():
    """Each family's trend by the judge given, its slope interval, the families outside listed
    and not judged, the worst verdict of those inside, the first failing one, the --family
    line (decaying n^-1/2, scattered, flat; a hub outside)."""
    ns = (100, 200, 400, 800)
    values = {"dec": [n ** -0.5 for n in ns], "mix": [0.4, 0.22, 0.3, 0.2], "flat": [0.5] * 4,
              "hub": [0.5] * 4}
    series = {f: [{"n": n, "q": v} for n, v in zip(ns, vs)] for f, vs in values.items()}
    calls = []

    def judge(rows):
        calls.append(rows)
        return decay_verdict([r["n"] for r in rows], [r["q"] for r in rows])

    def hypotheses(rows):
        return rows is not series["hub"], "a hub"
    ft = _stats.family_trends(series, "q", judge, hypotheses)
    assert len(calls) == 4 and ft.outside == {"hub": "a hub"}
    assert {f: t.verdict for f, t in ft.trends.items()} == {
        "dec": "holds", "mix": "inconclusive", "flat": "fails", "hub": "fails"}
    assert ft.intervals == {f: _stats.slope_interval(rows, "q") for f, rows in series.items()}
    assert ft.inside == ["dec", "mix", "flat"] and ft.verdict == "fails"
    assert ft.first("fails") == "flat" and ft.first("error") is None
    assert ft.summary_tail() == "; outside: hub"
    two = _stats.family_trends(series, "q", judge, lambda rows: (
        rows is series["dec"] or rows is series["mix"], "why"))
    assert two.summary_tail() == "; outside: flat, hub"
    inside = _stats.family_trends(series, "q", judge, lambda rows: (True, ""))
    assert inside.outside == {} and inside.summary_tail() == ""
    tail, lines = ft.summary_tail(named=True).split(" — ")
    assert tail == "; outside: hub"
    line = lines.split("; ")
    assert line[0] == "dec: holds, slope -0.50 [-0.50, -0.50]"
    assert line[1].startswith("mix: inconclusive, slope -0.26 [-0.99, 0.48] (to decide: n up")
    assert line[2].startswith("flat: fails, slope ") and line[2].endswith(" [0.00, 0.00]")
    assert line[3].startswith("hub: outside the hypotheses, slope ") and len(line) == 4
    for drop, want in ((("flat",), "inconclusive"), (("flat", "mix"), "holds"),
                       (("flat", "mix", "dec"), "inconclusive")):   # none inside
        ft = _stats.family_trends({f: r for f, r in series.items() if f not in drop}, "q",
                                  judge, hypotheses)
        assert ft.verdict == want, drop


def test_an_inconclusive_trend_says_what_would_decide_it():
    """Each of _to_decide's phrases, from a series that calls for it. The scatter (1, f, f, 1)
    is orthogonal to log n, so the fitted slope is the power law's exactly; a slope below the
    decay threshold is decided against SLOPE_DECAY, one above SLOPE_FLAT against SLOPE_FLAT
    (the sizes differ: :func:`sizes_to_decide` is the reference)."""
    ns = [100, 200, 400, 800]

    def trend(slope, f):
        v = [n ** slope * g for n, g in zip(ns, (1, f, f, 1))]
        return decay_verdict(ns, v), v
    between, _ = trend(-0.072, 1.01)       # (not -0.075: it rounds either way by the last bit)
    assert between.to_decide == ("none: the slope -0.07 lies between -0.1 and -0.05, so a "
                                 "narrower interval still decides neither way")
    down, v = trend(-0.16, 1.1)
    assert sizes_to_decide(ns, v, SLOPE_DECAY) == (6400, 7) != sizes_to_decide(ns, v, SLOPE_FLAT)
    assert down.to_decide == "n up to ≈ 6,400 (7 sizes on the same grid) at the present " \
                             "scatter about the fit"
    up, v = trend(0.02, 1.1)
    assert sizes_to_decide(ns, v, SLOPE_FLAT) == (3200, 6) != sizes_to_decide(ns, v, SLOPE_DECAY)
    assert up.to_decide.startswith("n up to ≈ 3,200 (6 sizes")
    at, _ = trend(SLOPE_DECAY, 1.2)          # at the threshold itself: sized against it
    assert at.to_decide == "no grid up to n = 1,000,000,000 at the present scatter"
    none, _ = trend(-0.1001, 1.2)
    assert none.to_decide == "no grid up to n = 1,000,000,000 at the present scatter"


def test_to_decide_at_the_thresholds_themselves():
    """The phrase's branches at their boundaries (the interval and the slope exactly at
    SLOPE_DECAY or SLOPE_FLAT): a slope at SLOPE_DECAY is sized against it, one at SLOPE_FLAT
    lies in the undecidable band; an interval ending at SLOPE_DECAY is a 'holds' interval, one
    starting at SLOPE_FLAT is not a 'fails' one."""
    ns = [100, 200, 400, 800]
    v = [n ** -0.16 * g for n, g in zip(ns, (1, 1.1, 1.1, 1))]   # sized: 6,400 vs -0.1
    wide = (-0.9, 0.4)
    assert _stats._to_decide(ns, v, SLOPE_DECAY, wide).startswith("n up to ≈ 6,400 (7 sizes")
    assert _stats._to_decide(ns, v, SLOPE_FLAT, wide).startswith("none: the slope -0.05 lies")
    assert _stats._to_decide(ns, v, -0.3, (-0.5, SLOPE_DECAY)) == (
        "the values do not decrease at every step: more sizes or draws per size")
    assert _stats._to_decide(ns, v, 0.1, (SLOPE_FLAT, 0.3)).startswith("n up to ≈ ")
    assert decay_verdict(ns, v, conf=0.5).ci == pytest.approx(loglog_slope_ci(ns, v, 0.5)[1])


def test_class_bag_of_words_one_word_per_node_lands_in_its_block_at_the_stated_rate():
    """One word per node: P(block) = topic_share + (1 − topic_share)·block/d exactly (0.75 at
    topic_share 0.5, two classes of d = 200); the share of 1000 nodes within 4 binomial
    standard errors."""
    labels = np.repeat([0, 1], 500)
    X = _stats.class_bag_of_words(np.random.default_rng(2), labels, words_per_node=1,
                                  topic_share=0.5)
    share = np.mean([X[i, y * 100:(y + 1) * 100].sum() for i, y in enumerate(labels)])
    assert abs(share - 0.75) < 4 * math.sqrt(0.75 * 0.25 / 1000), share


def test_the_no_hub_hypothesis_at_a_share_slope_of_exactly_its_threshold():
    """n = 8·1024^k with shares 2^−k: the log-log slope is −0.1 to the last bit (the grid is
    chosen so); ≤ SHARE_DECAY is inside."""
    rows = [{"n": 8.0 * 1024.0 ** k, "isolated_nodes": 0, "max_degree_share": 0.5 ** k}
            for k in range(3)]
    assert _stats.loglog_slope([r["n"] for r in rows],
                               [r["max_degree_share"] for r in rows]) == _stats.SHARE_DECAY
    assert _stats.no_hub_hypotheses(rows, "x") == (True, "")


def test_the_bootstrap_resamples_whole_clusters_within_each_x():
    """At the last x two clusters, one of values a, one of b = 2c − a (three each), so the
    median of a resample of two clusters is a (AA), c (AB, BA) or b (BB) with probabilities
    1/4, 1/2, 1/4; the other x have identical clusters. The median of all six values is c on
    the power law c = x^−0.5, so the OLS interval is the point −0.5 and the hull is the
    bootstrap interval: at 95 % its ends are the slopes through a and through b, at 40 % (the
    30 % and 70 % percentiles, both inside the middle atom) the slope through c."""
    xs = [100.0, 200.0, 400.0]
    c = 400.0 ** -0.5
    a, b = 0.8 * c, 1.2 * c
    groups = [(x, np.full((2, 3), x ** -0.5)) for x in xs[:2]]
    groups.append((xs[2], np.array([[a] * 3, [b] * 3])))
    lx = np.log(xs) - np.mean(np.log(xs))

    def slope_through(y3):
        ly = np.log([100.0 ** -0.5, 200.0 ** -0.5, y3])
        return float((ly - ly.mean()) @ lx / (lx @ lx))
    out = _stats.quantile_trend(groups, 0.5, n_boot=400, rng=0)
    assert out["slope"] == pytest.approx(-0.5) and out["ols_ci"] == pytest.approx((-0.5, -0.5))
    assert out["bootstrap_ci"] == pytest.approx((slope_through(a), slope_through(b)))
    assert out["ci"] == pytest.approx((slope_through(a), slope_through(b)))
    mid = _stats.quantile_trend(groups, 0.5, n_boot=400, rng=0, conf=0.4)["bootstrap_ci"]
    assert mid == pytest.approx((-0.5, -0.5))
    assert _stats.quantile_trend(groups, 0.5, rng=0)["n_boot"] == 2000   # the default


def test_sizes_to_decide_on_three_sizes_odd_grids_and_at_its_half_width():
    """Three sizes are enough (df = 1); a grid that does not grow has no continuation; the
    first K whose half-width t·s/√Σ(x − x̄)² (summed over the grid, the reference) is below the
    gap: a gap a hair above half(5) gives K = 5, a hair below gives 6."""
    from scipy.stats import linregress
    ns = np.array([100.0, 200.0, 400.0])
    y = ns ** -0.3 * np.exp([0.05, -0.1, 0.05])
    assert sizes_to_decide(ns, y, SLOPE_DECAY) is not None
    assert sizes_to_decide(ns[::-1], y[::-1], SLOPE_DECAY) is None      # decreasing n
    assert sizes_to_decide([100.0, 200.0, 100.0], [1.0, 0.5, 0.9], SLOPE_DECAY) is None
    ns = np.array([100.0, 200.0, 400.0, 800.0])
    y = ns ** -0.3 * np.exp([0.1, -0.1, -0.1, 0.1])
    fit = linregress(np.log(ns), np.log(y))
    r = np.log(y) - fit.intercept - fit.slope * np.log(ns)
    s = math.sqrt(r @ r / 2)

    def half(K):
        x = np.log(100.0 * 2.0 ** np.arange(K))
        return t_dist.ppf(0.975, K - 2) * s / math.sqrt(((x - x.mean()) ** 2).sum())
    for gap, K in ((half(5) * (1 + 1e-6), 5), (half(5) * (1 - 1e-6), 6)):
        assert sizes_to_decide(ns, y, fit.slope + gap) == (100 * 2 ** (K - 1), K)
    thr = fit.slope - 1.0                                   # a gap of 1 exactly is a gap
    assert abs(fit.slope - thr) == 1.0 and sizes_to_decide(ns, y, thr) == (800, 4)


def test_an_estimated_row_without_an_upper_end_reads_its_lower_one():
    rows = _rows([0.4, 0.2, 0.1, 0.05], method="estimate")
    for r, up in zip(rows[:2], (0.5, 0.25)):
        r["tau_upper_over_n"] = up                        # the last two: no bracket recorded
    assert _stats.tau_decay_verdict(rows).verdict == "holds"


@pytest.mark.parametrize("conf", [0.5, 0.99])
def test_slope_ci_and_sizes_to_decide_use_the_confidence_given(conf):
    """Both at a confidence other than the default, against a reference written here from
    scipy's t quantile: the interval slope ± t_{n−2}(conf)·stderr, and the first K on the
    continued geometric grid whose half-width t_{K−2}(conf)·s/√Σ(x − x̄)² is below the gap."""
    from scipy.stats import linregress
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    y = np.array([1.0, 2.5, 2.9, 4.4, 5.0])
    fit = linregress(x, y)
    half = t_dist.ppf(0.5 + conf / 2, 3) * fit.stderr
    slope, (lo, hi) = slope_ci(x, y, conf)
    assert (lo, hi) == pytest.approx((fit.slope - half, fit.slope + half), rel=1e-12)
    ns = np.array([100.0, 200.0, 400.0, 800.0])
    vals = ns ** -0.3 * np.exp([0.1, -0.1, -0.1, 0.1])
    lx, ly = np.log(ns), np.log(vals)
    f = linregress(lx, ly)
    s = math.sqrt(float(np.sum((ly - f.intercept - f.slope * lx) ** 2)) / 2)
    gap, step = abs(f.slope + 0.1), math.log(2.0)
    K = next(K for K in range(4, 60)
             if t_dist.ppf(0.5 + conf / 2, K - 2) * s / (step * math.sqrt(K * (K * K - 1) / 12))
             < gap)
    assert sizes_to_decide(ns, vals, -0.1, conf=conf) == (round(100 * 2 ** (K - 1)), K)
