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
