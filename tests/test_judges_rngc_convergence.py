"""rngc-convergence's judge at its thresholds (issue 34) and the planted group's radii against
their closed form.

:func:`judge`: fails when a certified lower end ρ_lo ≥ 1 + 1e-8, holds when every upper end
ρ_hi < 1 − 1e-8, else inconclusive. The planted K_{50,50} with one feature per side has, in both
normalisations (the graph is regular), Ã = (A + I)/51 and P = XXᵀ/‖XXᵀ‖_F = (J_A ⊕ J_B)/(50√2):
on 1 the eigenvalue 1 − ε/√2, on 1_A − 1_B −49/51 − ε/√2, 1/51 elsewhere, so
ρ(r(Ã − εP)) = r·max(|1 − ε/√2|, 49/51 + ε/√2, 1/51)."""

import math

import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.claims import rngc_convergence as rc

from ._floats import down, up

TOL = rc.EIG_TOL


def test_threshold_is_the_documented_one():
    assert TOL == 1e-8              # ARPACK's tolerance, the statement's "tolerance 1e-8"


def test_judge_at_the_divergence_threshold():
    at = 1 + TOL
    assert rc.judge([{"rho_lo": at, "rho_hi": 2.0, "rho": 2.0}])[0] == "fails"
    assert rc.judge([{"rho_lo": down(at), "rho_hi": 2.0, "rho": 2.0}])[0] == "inconclusive"
    v, w = rc.judge([{"rho_lo": 0.5, "rho_hi": 0.5, "rho": 0.5, "k": 0},
                     {"rho_lo": up(at), "rho_hi": 1.5, "rho": 1.5, "k": 1}])
    assert v == "fails" and w["k"] == 1


def test_judge_at_the_convergence_threshold():
    at = 1 - TOL
    assert rc.judge([{"rho_lo": 0.0, "rho_hi": at, "rho": at}])[0] == "inconclusive"
    assert rc.judge([{"rho_lo": 0.0, "rho_hi": down(at), "rho": down(at)}])[0] == "holds"
    # every row must be below: one bracket reaching 1 − tol leaves it undecided
    v, w = rc.judge([{"rho_lo": 0.0, "rho_hi": 0.5, "rho": 0.5, "k": 0},
                     {"rho_lo": 0.0, "rho_hi": 1.0, "rho": 1.0, "k": 1}])
    assert v == "inconclusive" and w["k"] == 1
    # rows of exact solves carry ρ only
    assert rc.judge([{"rho": down(at)}])[0] == "holds"
    assert rc.judge([{"rho": at}])[0] == "inconclusive"
    assert rc.judge([{"rho": 1 + TOL}])[0] == "fails"


def _closed(lam, eps, a=50):
    r, e = lam / (lam + 1), eps / math.sqrt(2)
    return r * max(abs(1 - e), (a - 1) / (a + 1) + e, 1 / (a + 1))


@pytest.fixture(scope="module")
def planted():
    """The claim's planted input (its graphs at seed 0, the planted one kept)."""
    return {k: v for k, v in rc._graphs(Context(seed=0)).items() if v[2] == "planted"}


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_planted_radii_against_the_closed_form(planted, norm):
    rows = rc.evaluate(Context(seed=0), norm, planted)
    assert len(rows) == len(rc.HOMOPHILY_SETTINGS) + len(rc.HETEROPHILY_SETTINGS)
    for r in rows:
        want = _closed(r["lam"], r["eps"])
        assert r["rho_lo"] <= want * (1 + 1e-7) and r["rho_hi"] >= want * (1 - 1e-7), r
        if r["rho_lo"] == r["rho_hi"]:
            assert r["rho"] == pytest.approx(want, rel=1e-7)
        assert r["bound"] == pytest.approx(
            r["lam"] / (r["lam"] + 1) * (1 + r["eps"] / math.sqrt(2)), rel=1e-12)
        if norm == "sym":         # both ends by eigsh on this small graph: resolved
            assert r["rho_lo"] == pytest.approx(want, rel=1e-7)
    v, w = rc.judge(rows)
    assert v == "fails" and (w["lam"], w["eps"]) == (1024.0, 1.0)
    for key in ("rho", "rho_lo"):            # the violation reads the certified lower end
        assert w[key] == pytest.approx(1024 / 1025 * (49 / 51 + 1 / math.sqrt(2)), rel=1e-7)
