"""Shared pieces of the probabilistic checks: confidence intervals, sub-Gaussian noises,
labelled data sets (the graph families are in :mod:`.graphs`).

Part of the claim kit: it imports only :mod:`ngc_ref`, SciPy and the kit, so that both the
claims and the sweep tasks can use it without importing each other.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy.stats import beta, linregress
from scipy.stats import t as t_dist

from ngc_ref.noise import row_normalize, subgaussian_noise

from .claim import worst_verdict
from .text import interval, rounded

#: Confidence level of every interval the probabilistic checks report.
CONFIDENCE = 0.95


def clopper_pearson(k, n, conf=CONFIDENCE):
    """Exact two-sided binomial interval for k successes in n trials."""
    a = 1.0 - conf
    lo = 0.0 if k == 0 else float(beta.ppf(a / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - a / 2, k + 1, n - k))
    return lo, hi


def bound_verdict(k, n, p_max, conf=CONFIDENCE):
    """Verdict on "P(event) <= p_max" from k events in n trials.

    ``fails`` when the interval lies above p_max, ``holds`` when it lies at or below, else
    ``inconclusive``. Returns (verdict, (lo, hi)).
    """
    lo, hi = clopper_pearson(k, n, conf)
    if lo > p_max:
        return "fails", (lo, hi)
    if hi <= p_max:
        return "holds", (lo, hi)
    return "inconclusive", (lo, hi)


# Noises with variance σ² whose sub-Gaussian parameter is exactly σ (Assumption 1):
# Gaussian N(0, σ²); Rademacher ±σ (E e^{tX} = cosh(tσ) <= e^{t²σ²/2}); uniform on
# [-σ√3, σ√3], which is strictly sub-Gaussian (ngc_ref.noise.subgaussian_noise, proxy="optimal").
NOISES = ("gaussian", "rademacher", "uniform")


def sub_gaussian_noise(rng, kind, shape, sigma=1.0):
    """Zero-mean i.i.d. noise whose sub-Gaussian parameter (and standard deviation) is σ."""
    scale = sigma * math.sqrt(3.0) if kind == "uniform" else sigma
    eta, sig = subgaussian_noise(shape, kind, scale, seed=rng, proxy="optimal")
    assert math.isclose(sig, sigma, rel_tol=1e-12)   # the parameter Lemma 1 is stated with
    return eta


def seed_of(rng):
    return int(rng.integers(2**31))


def class_bag_of_words(rng, labels, d=200, words_per_node=12, topic_share=0.7):
    """Binary bag-of-words: each node draws ``words_per_node`` distinct words, a share
    ``topic_share`` of them (in expectation) from its class's block of the vocabulary."""
    n = len(labels)
    c = int(labels.max()) + 1
    block = d // c
    X = np.zeros((n, d))
    for i, y in enumerate(labels):
        p = np.full(d, (1 - topic_share) / d)
        p[y * block:(y + 1) * block] += topic_share / block
        p /= p.sum()
        X[i, rng.choice(d, size=words_per_node, replace=False, p=p)] = 1.0
    return X


def pyg_row_normalize(X):
    """x / clamp(rowsum, min=1), as torch_geometric 2.0.3 ``NormalizeFeatures`` does.

    Rows whose sum is below 1 (including negative sums of noisy rows) are left unchanged,
    exactly like the clamp. See :func:`ngc_ref.noise.row_normalize`.
    """
    return row_normalize(X, "pyg")


def t_quantile(df, conf=CONFIDENCE):
    """The two-sided ``conf`` quantile of Student's t with ``df`` degrees of freedom, the
    factor of every t-interval here (``mean ± t_quantile(n − 1)·s/√n``); NaN for df ≤ 0.

    Examples
    --------
    >>> round(t_quantile(2), 3), round(t_quantile(9), 3)
    (4.303, 2.262)
    """
    return float(t_dist.ppf(0.5 + conf / 2, df))


def mean_ci(x, conf=CONFIDENCE):
    """Mean of x and the two-sided t-interval of the mean; (nan, nan) for fewer than 2 values."""
    x = np.asarray(x, dtype=float)
    mu = float(np.mean(x))
    if x.size < 2:
        return mu, (float("nan"), float("nan"))
    half = t_quantile(x.size - 1, conf) * float(np.std(x, ddof=1)) / math.sqrt(x.size)
    return mu, (mu - half, mu + half)


class Comparison(NamedTuple):
    """One paired comparison (:func:`paired_comparison`): the mean difference, its ``conf``
    t-interval, the Bonferroni-corrected one, the number of pairs and the verdict."""

    mean: float
    ci: tuple
    ci_bonferroni: tuple
    runs: int
    verdict: str


def comparison_verdict(ci, ci_bonferroni, *, threshold=0.0, tolerance=0.0, above=True):
    """The rule of a paired comparison "mean Δ > threshold" (``above``; else "< threshold"):
    ``holds`` when the whole ``ci`` lies strictly on the claimed side of ``threshold`` (beyond
    ``tolerance``), ``fails`` when the whole ``ci_bonferroni`` lies strictly on the other side
    (beyond ``tolerance``), else ``inconclusive`` (also without an interval: NaN ends).

    ``holds`` on every one of m comparisons is an intersection-union test, so each needs only
    its own 95% interval; ``fails`` on any one of them is a union, so each is read on its
    Bonferroni interval at 1 − α/m, which keeps the chance of failing a true claim at most
    α/2 (the union bound). The two cannot both apply: the Bonferroni interval contains the
    other.

    Examples
    --------
    >>> below = (-1.0, -0.2)
    >>> comparison_verdict((0.2, 1.0), (-0.1, 1.3)), comparison_verdict(below, (-1.3, -0.1))
    ('holds', 'fails')
    >>> comparison_verdict(below, (-1.3, 0.1)), comparison_verdict(below, (-1.3, 0.1), above=False)
    ('inconclusive', 'holds')
    """
    lo, hi = ci
    lo_b, hi_b = ci_bonferroni
    if above:
        held, failed = lo > threshold + tolerance, hi_b < threshold - tolerance
    else:
        held, failed = hi < threshold - tolerance, lo_b > threshold + tolerance
    return "holds" if held else "fails" if failed else "inconclusive"


def paired_comparison(delta, m=1, *, threshold=0.0, tolerance=0.0, above=True,
                      conf=CONFIDENCE):
    """One of ``m`` paired comparisons "mean Δ > threshold" (``above``; else "< threshold")
    from the per-pair differences ``delta`` (e.g. one model's accuracy minus another's on the
    same run): a :class:`Comparison`.

    Parameters
    ----------
    delta : array_like
        The paired differences Δ_r, r = 1..k.
    m : int
        How many comparisons the claim makes; the Bonferroni interval is at
        1 − (1 − ``conf``)/m (m < 1 counts as 1).
    threshold : float
        The claimed side's edge ("better or matches within 2 points": −2).
    tolerance : float
        A band around ``threshold`` that counts as neither side (rounding of the measured
        quantity), ≥ 0.
    above : bool
        Whether the claim is that the mean lies above ``threshold`` (else below).
    conf : float
        The level of the unadjusted interval.

    Returns
    -------
    Comparison
        ``mean`` (NaN without pairs), ``ci`` and ``ci_bonferroni`` (the two-sided
        t-intervals mean ± t_{k−1}·s/√k, (NaN, NaN) below two pairs), ``runs`` = k and
        ``verdict`` by :func:`comparison_verdict`.

    Examples
    --------
    >>> c = paired_comparison([1.0, 2.0, 4.0, 3.0], 3)
    >>> c.verdict, c.mean, c.runs, [round(x, 2) for x in c.ci]
    ('holds', 2.5, 4, [0.45, 4.55])
    >>> paired_comparison([1.0, 2.0, 4.0, 3.0], 3, threshold=3.0, above=False).verdict
    'inconclusive'
    """
    delta = np.asarray(delta, dtype=float)
    nan2 = (math.nan, math.nan)
    mu, ci = mean_ci(delta, conf) if delta.size else (math.nan, nan2)
    conf_b = 1.0 - (1.0 - conf) / max(m, 1)
    ci_b = mean_ci(delta, conf_b)[1] if delta.size else nan2
    return Comparison(mu, ci, ci_b, int(delta.size),
                      comparison_verdict(ci, ci_b, threshold=threshold, tolerance=tolerance,
                                         above=above))


def slope_ci(x, y, conf=CONFIDENCE):
    """OLS slope of y on x with its two-sided t-interval (df = len − 2)."""
    fit = linregress(x, y)
    half = t_quantile(len(x) - 2, conf) * fit.stderr
    return float(fit.slope), (float(fit.slope - half), float(fit.slope + half))


def loglog_slope(x, y):
    """Least-squares slope of log y on log x (no interval)."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def loglog_slope_ci(x, y, conf=CONFIDENCE):
    """OLS slope of log y on log x with its two-sided t-interval (df = len − 2).

    Returns (slope, (lo, hi)); the interval is (nan, nan) for fewer than three points.
    """
    lx, ly = np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    fit = linregress(lx, ly)
    if lx.size < 3:
        return float(fit.slope), (float("nan"), float("nan"))
    if not math.isfinite(fit.stderr) and np.ptp(ly) == 0:   # constant: an exact fit
        return float(fit.slope), (float(fit.slope), float(fit.slope))
    half = t_quantile(lx.size - 2, conf) * fit.stderr
    return float(fit.slope), (float(fit.slope - half), float(fit.slope + half))


def quantile_trend(groups, q, *, conf=CONFIDENCE, n_boot=2000, rng=None):
    """How the q-quantile of a positive quantity grows with x: the log-log slope of the per-x
    sample quantile, with two intervals and their hull.

    Parameters
    ----------
    groups : sequence of (x, clusters)
        ``clusters`` is a 2-D array, one row per independent cluster (e.g. the noise draws on
        one random graph; a cluster of one value where draws are independent).
    q : float
        The quantile, in (0, 1).
    n_boot : int
        Resamples of the cluster bootstrap.
    rng : numpy.random.Generator

    Returns
    -------
    dict
        ``x``, ``quantile`` (per x), ``slope`` (OLS of log quantile on log x), ``ols_ci`` (its
        t-interval: misfit of the power law and sampling noise, df = #x − 2),
        ``bootstrap_ci`` (percentile interval of the slope when the clusters are resampled
        with replacement within each x: the sampling noise of the quantiles) and ``ci``, the
        hull of both, so that a verdict on it needs both to agree.
    """
    rng = np.random.default_rng(rng)
    xs = np.array([x for x, _ in groups], dtype=float)
    blocks = [np.atleast_2d(np.asarray(c, dtype=float)) for _, c in groups]
    quant = np.array([np.quantile(b, q) for b in blocks])
    slope, ols = loglog_slope_ci(xs, quant, conf)
    lx = np.log(xs) - np.log(xs).mean()
    boot = np.empty((n_boot, xs.size))
    for j, b in enumerate(blocks):
        idx = rng.integers(0, b.shape[0], (n_boot, b.shape[0]))
        boot[:, j] = np.quantile(b[idx].reshape(n_boot, -1), q, axis=1)
    ly = np.log(boot)
    slopes = ((ly - ly.mean(axis=1, keepdims=True)) @ lx) / (lx @ lx)
    a = (1.0 - conf) / 2
    bci = (float(np.quantile(slopes, a)), float(np.quantile(slopes, 1 - a)))
    ci = (float(np.nanmin([ols[0], bci[0]])), float(np.nanmax([ols[1], bci[1]])))
    return {"q": q, "x": xs.tolist(), "quantile": quant.tolist(), "slope": slope,
            "ols_ci": ols, "bootstrap_ci": bci, "ci": ci, "n_boot": n_boot,
            "confidence": conf}


# --- growth along n: the criteria shared by the claims about families of growing graphs -----

#: A quantity "decays" along the n grid when the 95% interval of its log-log slope lies at or
#: below this and it decreases at every step; it "does not decay" when the interval lies above
#: SLOPE_FLAT over ≥ 8× in n (:func:`decay_verdict`).
SLOPE_DECAY = -0.1
SLOPE_FLAT = -0.05
#: "Does not decay" needs the n grid to span at least this factor.
FLAT_RANGE = 8
#: The "no hub" hypothesis: the largest degree share's log-log slope in n is at most this.
SHARE_DECAY = -0.1
#: The largest n a suggestion of sizes goes to (beyond: "no grid decides it").
DECIDE_MAX_N = 10**9


def interval_verdict(ci, *, holds_at_most=None, fails_above=None):
    """The one rule of a verdict on an interval: ``holds`` when the whole interval ``[lo, hi]``
    lies at or below ``holds_at_most``, ``fails`` when it lies strictly above ``fails_above``,
    else ``inconclusive`` (also without an interval, ``ci`` None or NaN). A threshold given as
    None is never reached.

    A 95% two-sided interval that excludes the threshold is a one-sided test at 2.5%: a point
    estimate on the right side of the threshold is not enough.

    Examples
    --------
    >>> interval_verdict((-0.80, 0.17), holds_at_most=-0.1, fails_above=-0.05)
    'inconclusive'
    >>> interval_verdict((-0.3, -0.1), holds_at_most=-0.1)
    'holds'
    >>> interval_verdict((0.0, 0.2), fails_above=-0.05)
    'fails'
    """
    if ci is None or not all(math.isfinite(c) for c in ci):
        return "inconclusive"
    lo, hi = ci
    if holds_at_most is not None and hi <= holds_at_most:
        return "holds"
    if fails_above is not None and lo > fails_above:
        return "fails"
    return "inconclusive"


def sizes_to_decide(ns, values, threshold, conf=CONFIDENCE, max_n=DECIDE_MAX_N):
    """The n grid that would put ``threshold`` outside the ``conf`` interval of the log-log
    slope of ``values`` along ``ns``, if the points kept scattering about the fitted line as
    now: ``(largest n, number of sizes)`` on the same geometric grid (the grid's ratio,
    continued), or None when no grid up to ``max_n`` does (or the slope is at the threshold).

    The interval's half-width on K sizes spaced by log q is t_{K−2}·s/√(Σ(x − x̄)²) with
    Σ(x − x̄)² = (log q)²·K(K² − 1)/12 and s the residual standard deviation of the fit; the
    first K whose half-width is below |slope − threshold| is returned.

    Examples
    --------
    >>> import numpy as np
    >>> ns = np.array([100, 200, 400, 800])
    >>> y = ns ** -0.3 * np.exp([0.1, -0.1, -0.1, 0.1])   # slope -0.3, scattered
    >>> sizes_to_decide(ns, y, -0.1)
    (3200, 6)
    """
    ns = np.asarray(ns, dtype=float)
    x, y = np.log(ns), np.log(np.asarray(values, dtype=float))
    k = x.size
    if k < 3:
        return None
    fit = linregress(x, y)
    resid = y - (fit.intercept + fit.slope * x)
    s = math.sqrt(float(resid @ resid) / (k - 2))
    gap = abs(float(fit.slope) - threshold)
    step = (x[-1] - x[0]) / (k - 1)
    if gap == 0 or step <= 0:
        return None
    K = k
    while ns[0] * math.exp(step * (K - 1)) <= max_n * (1 + 1e-9):
        sxx = step ** 2 * K * (K * K - 1) / 12.0
        if t_quantile(K - 2, conf) * s / math.sqrt(sxx) < gap:
            return int(round(ns[0] * math.exp(step * (K - 1)))), K
        K += 1
    return None


class Trend(NamedTuple):
    """A decay verdict along n (:func:`decay_verdict`): the verdict, the log-log slope, its
    interval (None below three sizes), whether the values decrease at every step, and for an
    ``inconclusive`` one what would decide it (``to_decide``, a phrase, or "")."""

    verdict: str
    slope: float
    ci: tuple | None
    decreasing: bool
    to_decide: str


def decay_verdict(ns, values, conf=CONFIDENCE):
    """Does ``values`` decay along ``ns``? A :class:`Trend`.

    ``holds`` when the ``conf`` interval of the log-log slope lies at or below
    :data:`SLOPE_DECAY` and the values decrease at every step; ``fails`` when it lies above
    :data:`SLOPE_FLAT` over at least a :data:`FLAT_RANGE`× range of n; else ``inconclusive``
    (a finite-range trend), with the sizes that would decide it (:func:`sizes_to_decide`).
    The rule itself is :func:`interval_verdict`.

    Examples
    --------
    >>> decay_verdict([100, 200, 400, 800], [0.4, 0.3, 0.26, 0.2]).verdict
    'holds'
    >>> t = decay_verdict([100, 200, 400, 800], [0.4, 0.22, 0.3, 0.2])
    >>> t.verdict, round(t.slope, 2), [round(c, 2) for c in t.ci]
    ('inconclusive', -0.26, [-0.99, 0.48])
    >>> t.to_decide
    'n up to ≈ 12,800 (8 sizes on the same grid) at the present scatter about the fit'
    """
    ns = [float(n) for n in ns]
    v = np.asarray(values, dtype=float)
    slope = loglog_slope(ns, v)          # the point slope as reported before the interval rule
    ci = loglog_slope_ci(ns, v, conf)[1]
    ci = None if math.isnan(ci[0]) else (float(ci[0]), float(ci[1]))
    decreasing = bool(np.all(np.diff(v) < 0))
    wide = ns[-1] >= FLAT_RANGE * ns[0]
    verdict = interval_verdict(ci, holds_at_most=SLOPE_DECAY,
                               fails_above=SLOPE_FLAT if wide else None)
    if verdict == "holds" and not decreasing:
        verdict = "inconclusive"
    decide = "" if verdict != "inconclusive" else _to_decide(ns, v, slope, ci)
    return Trend(verdict, slope, ci, decreasing, decide)


def _to_decide(ns, v, slope, ci):
    """Why a decay trend is inconclusive and what would decide it (one phrase). Only called
    for an inconclusive trend, so an interval at or below SLOPE_DECAY means the values did not
    decrease at every step, and one above SLOPE_FLAT that the range of n was too short."""
    if ci is None:
        return "at least 3 sizes (no interval from fewer)"
    if ci[1] <= SLOPE_DECAY:
        return "the values do not decrease at every step: more sizes or draws per size"
    if ci[0] > SLOPE_FLAT:
        return f"a range of n of at least {FLAT_RANGE}× (n up to {FLAT_RANGE * ns[0]:,.0f})"
    if SLOPE_DECAY < slope <= SLOPE_FLAT:
        return (f"none: the slope {slope:+.2f} lies between {SLOPE_DECAY} and {SLOPE_FLAT}, "
                "so a narrower interval still decides neither way")
    threshold = SLOPE_DECAY if slope <= SLOPE_DECAY else SLOPE_FLAT
    found = sizes_to_decide(ns, v, threshold)
    if found is None:
        return f"no grid up to n = {DECIDE_MAX_N:,} at the present scatter"
    n_max, k = found
    return (f"n up to ≈ {n_max:,} ({k} sizes on the same grid) at the present scatter about "
            f"the fit")


def tau_decay_verdict(rows):
    """:class:`Trend` of τ/n along a family's rows at λ growing with n: fails on an isolated
    node's τ/n = 1 (its τ_i = n for every λ, S), else :func:`decay_verdict` of τ/n.

    Where τ was estimated (``method == "estimate"``), τ/n is the exact τ_i of the likeliest
    maximiser (a lower bound of τ/n) and a ``holds`` must survive the bracket: the upper end
    (``tau_upper_over_n``) must decay by the same rule, else the verdict is ``inconclusive``.
    """
    ns, tn = [r["n"] for r in rows], [r["tau_over_n"] for r in rows]
    trend = decay_verdict(ns, tn)
    if rows[-1]["isolated_nodes"] and rows[-1]["tau_over_n"] >= 1 - 1e-9:
        return trend._replace(verdict="fails", to_decide="")
    if trend.verdict == "holds" and any(r.get("method") == "estimate" for r in rows):
        upper = decay_verdict(ns, [r.get("tau_upper_over_n", r["tau_over_n"]) for r in rows])
        if upper.verdict != "holds":
            return trend._replace(verdict="inconclusive",
                                  to_decide="the upper end of τ's bracket: " + (
                                      upper.to_decide or "it does not decay"))
    return trend


def tau_bracket_slope(rows):
    """The log-log slope of τ/n's upper end along n (the exact value where τ is exact)."""
    return loglog_slope([r["n"] for r in rows],
                        [r.get("tau_upper_over_n", r["tau_over_n"]) for r in rows])


def slope_interval(rows, key, conf=CONFIDENCE):
    """The two-sided ``conf`` t-interval ``[lo, hi]`` of the log-log slope of ``key`` against
    ``n`` along a family's rows (:func:`loglog_slope_ci`; None below three sizes)."""
    _, (lo, hi) = loglog_slope_ci([r["n"] for r in rows], [r[key] for r in rows], conf)
    return None if math.isnan(lo) else [lo, hi]


def family_verdicts(entries):
    """``"fam: verdict, slope s [lo, hi]"`` per ``(family, verdict, slope, interval[,
    to decide])``, joined by ``; ``: the line a report or a sweep summary gives each family the
    user named (an inconclusive one with what would decide it)."""
    out = []
    for fam, verdict, slope, ci, *decide in entries:   # no signed zero: -0.0012, not -0.00
        band = f" {interval(*ci)}" if ci else ""
        more = f" (to decide: {decide[0]})" if decide and decide[0] else ""
        out.append(f"{fam}: {verdict}, slope {rounded(slope)}{band}{more}")
    return "; ".join(out)


def max_degree_share(deg):
    """max_i d̃_i / Σ_j d̃_j with self-loops (d̃ = d + 1): the hub's share of the volume."""
    d = np.asarray(deg, dtype=float) + 1.0
    return float(d.max() / d.sum())


def no_hub_hypotheses(rows, isolated_reason):
    """Is a family's series (rows with n, isolated_nodes, max_degree_share) inside the
    hypotheses 'no isolated node, vanishing largest degree share'? Returns (inside?, why not)."""
    if any(r["isolated_nodes"] for r in rows):
        return False, f"isolated nodes ({isolated_reason})"
    share = loglog_slope([r["n"] for r in rows], [r["max_degree_share"] for r in rows])
    if share > SHARE_DECAY:
        return False, (f"the largest degree share does not decrease (log-log slope "
                       f"{rounded(share)} > {SHARE_DECAY}): a hub keeps a constant share of every "
                       "row as λ → ∞")
    return True, ""


class FamilyTrends(NamedTuple):
    """How one quantity decays along n, family by family (:func:`family_trends`)."""

    #: family -> its :class:`Trend`
    trends: dict
    #: family -> the 95% interval of its log-log slope (:func:`slope_interval`; None below
    #: three sizes)
    intervals: dict
    #: family -> why it is outside the hypotheses (listed with its own trend, not judged)
    outside: dict
    #: the worst verdict of the families inside the hypotheses (``inconclusive`` when none is)
    verdict: str

    @property
    def inside(self):
        """The families inside the hypotheses, in the series' order."""
        return [f for f in self.trends if f not in self.outside]

    def first(self, verdict):
        """The first family inside the hypotheses with ``verdict`` (None where there is none):
        the one a counterexample is built on."""
        return next((f for f in self.inside if self.trends[f].verdict == verdict), None)

    def summary_tail(self, named=False):
        """How a summary of these trends ends: ``; outside: a, b`` (the families outside the
        hypotheses), and where the user ``named`` the families (``--family``) `` — `` and each
        one's verdict (``outside the hypotheses`` where it is), slope, interval and what would
        decide it (:func:`family_verdicts`)."""
        tail = f"; outside: {', '.join(self.outside)}" if self.outside else ""
        return tail + (" — " + family_verdicts(
            (f, "outside the hypotheses" if f in self.outside else t.verdict, t.slope,
             self.intervals[f], t.to_decide) for f, t in self.trends.items()) if named else "")


def family_trends(series, key, judge, hypotheses):
    """The decay of ``key`` along n per family, and the verdict over the families inside the
    hypotheses: the result every claim "q decays along n for every family with no isolated
    node and no hub" is built from.

    Parameters
    ----------
    series : dict
        family -> its rows along n (each with ``n`` and ``key``).
    key : str
        The quantity that is to decay (``"tau_over_n"``, ``"per_node_energy"``): its slope
        interval is reported.
    judge : callable
        ``judge(rows) -> Trend`` (:func:`decay_verdict` of ``key`` along ``n``, or
        :func:`tau_decay_verdict`).
    hypotheses : callable
        ``hypotheses(rows) -> (inside?, why not)`` (e.g. on :func:`no_hub_hypotheses`).

    Returns
    -------
    FamilyTrends
        Per family its trend and slope interval, the families outside the hypotheses with
        why, and the worst verdict of those inside (:func:`~.claim.worst_verdict`).

    Examples
    --------
    >>> ns = [100, 200, 400, 800]
    >>> series = {"a": [{"n": n, "q": n ** -0.5} for n in ns],
    ...           "b": [{"n": n, "q": 0.5} for n in ns]}
    >>> def judge(rows):
    ...     return decay_verdict([r["n"] for r in rows], [r["q"] for r in rows])
    >>> ft = family_trends(series, "q", judge, lambda rows: (rows[0]["q"] != 0.5, "a plateau"))
    >>> ft.verdict, ft.outside, ft.trends["b"].verdict
    ('holds', {'b': 'a plateau'}, 'fails')
    """
    trends = {f: judge(rows) for f, rows in series.items()}
    intervals = {f: slope_interval(rows, key) for f, rows in series.items()}
    checked = {f: hypotheses(rows) for f, rows in series.items()}
    outside = {f: why for f, (ok, why) in checked.items() if not ok}
    verdict = worst_verdict(t.verdict for f, t in trends.items() if f not in outside)
    return FamilyTrends(trends, intervals, outside, verdict)
