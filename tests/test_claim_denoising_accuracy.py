"""Tests of the denoising-accuracy check: each judge on numbers whose answer is known by
construction (a planted loss must be reported ``fails``, a clear win ``holds``), plus one fast
end-to-end run. The structure-only control is tested in test_claim_controls.py."""

from types import SimpleNamespace

import numpy as np
import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.claims import denoising_accuracy as da


def _acc(ngc, raw, mlp, runs=4, sd=0.005, seed=0):
    rng = np.random.default_rng(seed)
    return {m: np.clip(np.asarray(v)[None, :] + sd * rng.standard_normal((runs, len(v))), 0, 1)
            for m, v in (("ngc", ngc), ("raw", raw), ("mlp", mlp))}


LEVELS = (0.1, 0.3, 0.5)


def test_judge_beats_holds_when_ngc_is_clearly_better():
    acc = _acc([0.8, 0.75, 0.7], [0.5, 0.3, 0.2], [0.55, 0.35, 0.2])
    v, rows, _ = da.judge_beats(acc, LEVELS)
    assert v == "holds" and len(rows) == 6


def test_judge_beats_planted_loss_at_one_level_fails():
    acc = _acc([0.8, 0.75, 0.3], [0.5, 0.3, 0.2], [0.55, 0.35, 0.6])
    v, _, worst = da.judge_beats(acc, LEVELS)
    assert v == "fails" and worst["baseline"] == "mlp" and worst["level"] == 0.5


def test_judge_beats_tie_is_inconclusive():
    acc = _acc([0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], sd=0.02)
    assert da.judge_beats(acc, LEVELS)[0] == "inconclusive"


def test_judge_slower():
    slow = _acc([0.8, 0.75, 0.7], [0.6, 0.4, 0.2], [0.6, 0.4, 0.25])
    assert da.judge_slower(slow, LEVELS, n_classes=7)[0] == "holds"
    # Planted: the baselines sit at chance (cannot drop), NGC drops 30 points.
    fast = _acc([0.8, 0.65, 0.5], [0.15, 0.15, 0.15], [0.15, 0.14, 0.15])
    v, _, w = da.judge_slower(fast, LEVELS, n_classes=7)
    assert v == "fails" and w["drop_ngc"] > 0.25


def test_accuracy_table_reads_records():
    recs = [{"model": m, "run": r, "level": lv, "test_acc": 0.1 * r + lv + (m == "ngc")}
            for m in da.MODELS for r in range(2) for lv in LEVELS]
    res = SimpleNamespace(records=recs, settings={"runs": 2})
    acc = da.accuracy_table(res, LEVELS)
    assert acc["ngc"].shape == (2, 3) and acc["raw"][1, 2] == pytest.approx(0.6)
    assert acc["ngc"][0, 0] == pytest.approx(1.1)


def test_denoising_accuracy_check_end_to_end(monkeypatch):
    monkeypatch.setattr(da, "CSBM_LEVELS", (0.5, 4.0))
    out = da.check(Context(seed=0), "sym")      # no data root: the synthetic setting only
    assert [r.id for r in out] == ["denoising-accuracy:i:csbm-gaussian",
                                   "denoising-accuracy:ii:csbm-gaussian",
                                   "denoising-accuracy:iii:csbm-gaussian"]
    assert out[0].evidence["levels"] == [0.5, 4.0]
    # Known case: at ξ = 0.5 and 4 on this CSBM, aggregation separates the classes far better.
    assert out[0].verdict == "holds"
    for r in out:
        assert (r.verdict == "fails") == (r.counterexample is not None)


# ---------------------------------------------------------------------------------------------
# the interval rules at 0 (_decide), and the reported means and intervals against a t-interval
# written here

UP, DOWN = np.inf, -np.inf


def _r(ci, ci_b, tag=""):
    return {"ci": ci, "ci_bonferroni": ci_b, "tag": tag}


@pytest.mark.parametrize("above", [True, False])
def test_decide_at_zero(above):
    """Above 0 wanted (i, iii): holds when every 95% interval's lower end is > 0; fails when a
    Bonferroni interval's upper end is < 0. Below 0 wanted (ii): the mirror image."""
    s = 1.0 if above else -1.0

    def iv(a, b):                                 # an interval given in "above" terms
        return tuple(sorted((s * a, s * b)))
    tiny = 5e-324
    clear = _r(iv(0.1, 0.3), iv(0.05, 0.35), "clear")
    assert da._decide([clear], above).verdict == "holds"
    at0 = _r(iv(0.0, 0.3), iv(-0.1, 0.35), "at0")             # touching 0: not above it
    v, _, w = da._decide([clear, at0], above)
    assert (v, w["tag"]) == ("inconclusive", "at0")
    just = _r(iv(tiny, 0.3), iv(-0.1, 0.35), "just")
    assert da._decide([clear, just], above).verdict == "holds"
    b_at0 = _r(iv(-0.3, -0.1), iv(-0.4, 0.0), "b_at0")        # Bonferroni end at 0: not below
    assert da._decide([clear, b_at0], above).verdict == "inconclusive"
    b_below = _r(iv(-0.3, -0.1), iv(-0.4, -tiny), "b_below")
    v, _, w = da._decide([clear, b_at0, b_below], above)
    assert (v, w["tag"]) == ("fails", "b_below")
    # the worst of several failures: the Bonferroni interval deepest on the wrong side
    deeper = _r(iv(-0.5, -0.3), iv(-0.6, -0.2), "deeper")
    assert da._decide([b_below, deeper], above).worst["tag"] == "deeper"
    # the weakest of holding rows: the lowest lower end
    weak = _r(iv(0.01, 0.3), iv(-0.05, 0.35), "weak")
    assert da._decide([clear, weak], above).worst["tag"] == "weak"


def test_judge_beats_numbers_against_a_t_interval():
    """mean Δ and its 95% and Bonferroni (over levels × baselines) t-intervals, from the
    accuracies by scipy's t quantile: mean ± t_{1−α/2, k−1}·sd/√k."""
    from scipy.stats import t as student
    acc = _acc([0.8, 0.75, 0.7], [0.5, 0.3, 0.2], [0.55, 0.35, 0.2], runs=5)
    _, rows, _ = da.judge_beats(acc, LEVELS)
    assert len(rows) == 6
    for r in rows:
        j = LEVELS.index(r["level"])
        delta = acc["ngc"][:, j] - acc[r["baseline"]][:, j]
        mu, half = delta.mean(), delta.std(ddof=1) / np.sqrt(5)
        assert r["mean_delta"] == pytest.approx(mu, rel=1e-14, abs=0)
        for key, alpha in (("ci", 0.05), ("ci_bonferroni", 0.05 / 6)):
            q = student.ppf(1 - alpha / 2, 4)
            assert r[key] == pytest.approx((mu - q * half, mu + q * half), rel=1e-12, abs=0)


def test_judge_slower_numbers_against_a_t_interval():
    from scipy.stats import t as student
    acc = _acc([0.8, 0.75, 0.7], [0.6, 0.4, 0.2], [0.6, 0.4, 0.25], runs=4)
    _, rows, _ = da.judge_slower(acc, LEVELS, n_classes=7)
    drop = {m: acc[m][:, 0] - acc[m][:, -1] for m in ("ngc", "raw", "mlp")}
    for r in rows:
        D = drop["ngc"] - drop[r["baseline"]]
        mu, half = D.mean(), D.std(ddof=1) / 2
        q = student.ppf(1 - 0.05 / 2 / 2, 3)                  # Bonferroni over 2 baselines
        assert r["ci_bonferroni"] == pytest.approx((mu - q * half, mu + q * half), rel=1e-12,
                                                   abs=0)
        assert r["drop_ngc"] == pytest.approx(drop["ngc"].mean(), rel=1e-14, abs=0)
        chance = 1 / 7
        a = acc[r["baseline"]]
        assert r["retained_above_chance_baseline"] == pytest.approx(
            (a[:, -1].mean() - chance) / (a[:, 0].mean() - chance), rel=1e-13, abs=0)
