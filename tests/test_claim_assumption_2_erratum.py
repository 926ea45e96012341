"""assumption-2:o-n: Assumption 2 writes 'O(n), i.e. lim τ/n = 0'; O(n) holds for every graph
(τ ≤ n) while τ/n stays above the floor, so o(n) is meant; the meant statement's verdicts are
those of assumption-2 and assumption-2-corrected. Also assumption-2's judges at their
thresholds, and its floor and ring series against formulas written here."""

from fractions import Fraction
from types import SimpleNamespace

import math

import numpy as np
import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.claims import assumption_2 as a2

from . import _reference as ref
from ._claims import assert_worst_verdict_of_families


@pytest.fixture(scope="module")
def out():
    return {r.id: r for r in a2.check(Context(seed=0), "rw")}


def test_o_n_erratum_result(out):
    r = out["assumption-2:o-n"]
    assert r.verdict == "fails" and r.scope == "erratum" and r.counterexample["rerun"]
    assert "is O(n), i.e., lim_{n→∞} τ/n = 0" in r.scope_reason        # the written words
    assert "o(n) is meant" in r.scope_reason
    ev = r.evidence
    assert ev["O_n_on_every_graph"]["max_tau_over_n"] <= 1 + 1e-12       # O(n) holds
    lim = ev["limit_not_implied"]
    assert lim["tau_over_n"] >= lim["floor"] > 0                         # no limit 0
    assert ev["meant_verdicts"] == {"assumption-2": out["assumption-2"].verdict,
                                    "assumption-2-corrected":
                                        out["assumption-2-corrected"].verdict}
    assert ev["meant_verdicts"]["assumption-2"] == "fails"


# ---------------------------------------------------------------------------------------------
# the judges at their thresholds

UP, DOWN = np.inf, -np.inf


def test_judge_fixed_at_the_floor():
    """τ/n at the floor (to 1e-12 relative) is the expected fails; below it, a checker bug."""
    floor = 0.25
    at = {"n": 100, "tau_over_n": floor * (1 - 1e-12)}
    assert a2.judge_fixed([{"n": 50, "tau_over_n": 0.3}, at], floor) == ("fails", at)
    below = {"n": 100, "tau_over_n": np.nextafter(floor * (1 - 1e-12), DOWN)}
    assert a2.judge_fixed([{"tau_over_n": 0.3}, below, at], floor) == ("inconclusive", below)


def test_floor_test_at_its_threshold():
    """floor/(τ/n) > 1 + 1e-12 is a violation; at it, not (λ = 1, m = 1/2: floor = 1)."""
    def cells(tau_over_n):
        return SimpleNamespace(lam=np.array([1.0]), mass=np.array([0.5]), n=np.array([1.0]),
                               tau=np.array([[tau_over_n]]))
    for t, bad in ((1.0, False), (1 / (1 + 1e-12), False), (1 / (1 + 2e-12), True)):
        b, ratio = a2._floor_test(cells(t))
        assert b[0, 0] == bad and ratio[0, 0] == pytest.approx(1 / t, rel=1e-15, abs=0)


def test_the_corrected_statement_is_the_worst_verdict_of_the_families_inside():
    assert_worst_verdict_of_families(
        lambda series: a2._grown_result(Context(), "rw", series, []), "tau_over_n")


# ---------------------------------------------------------------------------------------------
# the headline numbers: the floor exactly, the ring's τ/n from one row of Ã_S written here


def _ring_tau_over_n(n, lam, S):
    """τ/n of the ring C_n (vertex-transitive): Σ_j [Ã_S]_0j²/m², m = 1 − r^{S+1}."""
    m = 1 - (lam / (lam + 1)) ** (S + 1)
    return float((ref.ring_row(n, lam, S) ** 2).sum()) / m ** 2


def test_floor_and_ring_series_against_formulas(out):
    lam, S = a2.LAM, a2.S
    assert (lam, S) == (32.0, 16)
    floor = 1 / ((Fraction(33) * (1 - Fraction(32, 33) ** 17)) ** 2)
    r = out["assumption-2"]
    assert r.evidence["floor_exact"]["value"] == f"{floor.numerator}/{floor.denominator}"
    assert r.evidence["floor_tau_over_n"] == pytest.approx(float(floor), rel=1e-14, abs=0)
    ring = r.evidence["families"]["ring"]
    assert ring["verdict"] == "fails"
    for row in ring["series"]:
        want = _ring_tau_over_n(row["n"], lam, S)
        assert row["tau_over_n"] == pytest.approx(want, rel=1e-10, abs=0)
        assert row["tau_over_n"] >= float(floor)
    grown = out["assumption-2-corrected"].evidence["families"]["ring"]["series"]
    for row in grown:
        lam_n = math.sqrt(row["n"])
        assert (row["lam"], row["S"]) == (lam_n, math.ceil(2 * lam_n))
        assert row["tau_over_n"] == pytest.approx(_ring_tau_over_n(row["n"], lam_n, row["S"]),
                                                  rel=1e-10, abs=0)
    # the ring's decay, the corrected statement's headline: the least-squares log-log slope of
    # τ/n on n and its 95% t-interval (df = sizes − 2), from the values computed here
    from scipy import stats
    x = np.log([row["n"] for row in grown])
    y = np.log([_ring_tau_over_n(row["n"], math.sqrt(row["n"]), row["S"]) for row in grown])
    fit = stats.linregress(x, y)
    q = stats.t.ppf(0.975, len(x) - 2)
    fam = out["assumption-2-corrected"].evidence["families"]["ring"]
    assert fam["verdict"] == "holds"
    assert fam["loglog_slope_tau_over_n"] == pytest.approx(fit.slope, rel=1e-9, abs=0)
    assert fam["loglog_slope_ci95"] == pytest.approx(
        [fit.slope - q * fit.stderr, fit.slope + q * fit.stderr], rel=1e-8, abs=0)
