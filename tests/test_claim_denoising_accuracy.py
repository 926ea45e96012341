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
