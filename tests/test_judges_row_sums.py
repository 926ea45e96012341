"""row-sum and row-square-bounds: their judges at the thresholds (issue 34). The sampled rules
(:func:`within`, :func:`bounds_hold`) at the real tolerance, the atlas tests on hand-made cells
with a power-of-two tolerance (so that 'at the threshold' is exact in float64). The claims'
numbers are pinned in tests/test_claims_exact.py."""

from types import SimpleNamespace

import numpy as np

from ngc_ref_theory.kit.evidence import EXACT_RTOL
from ngc_ref_theory.claims import row_sums as rs

from ._floats import down, up

TOL = float(EXACT_RTOL)
EXACT = 2.0 ** -33            # a tolerance whose sums with 1 are exact


def test_within_at_the_tolerance():
    assert rs.within(TOL) and rs.within(down(TOL)) and rs.within(0.0)
    assert not rs.within(up(TOL))


def test_bounds_hold_at_each_side_of_each_bound():
    lo, hi = 1 - TOL, 1 + TOL
    assert rs.bounds_hold(lo, hi) == (True, True)
    assert rs.bounds_hold(down(lo), hi) == (False, True)     # below the lower bound
    assert rs.bounds_hold(up(lo), down(hi)) == (True, True)
    assert rs.bounds_hold(lo, up(hi)) == (True, False)       # above the upper bound
    assert rs.bounds_hold(1.0, 1.0) == (True, True)


def _sum_cells(row_sum, mass=1.0):
    """One graph of two nodes at one S: row sums (row_sum, mass)."""
    return SimpleNamespace(row_sums=np.array([[[row_sum, mass]]]), mass=np.array([mass]))


def test_row_sum_atlas_test_at_the_tolerance(monkeypatch):
    monkeypatch.setattr(rs, "EXACT_RTOL", EXACT)
    for row, bad in ((1 + EXACT, False), (1 - EXACT, False), (up(1 + EXACT), True),
                     (down(1 - EXACT), True), (1.0, False)):
        got, dev = rs._row_sum_test(_sum_cells(row))
        assert bool(got[0, 0]) is bad, row
        assert dev[0, 0] == abs(row - 1.0)


def test_weighted_row_sum_atlas_test_at_the_tolerance(monkeypatch):
    monkeypatch.setattr(rs, "EXACT_RTOL", EXACT)
    # degrees 1 and 4 (√d̃ = 1, 2), mass 1: Σ_j M_ij √d̃_j against √d̃_i, relative to max √d̃
    for extra, bad in ((2 * EXACT, False), (up(2.0 + 2 * EXACT) - 2.0, True)):
        M = np.array([[[[1.0, 0.0], [0.0, 1.0 + extra / 2]]]])   # row 1: 2(1 + extra/2)
        c = SimpleNamespace(stack=SimpleNamespace(degrees=np.array([[1.0, 4.0]])), M=M,
                            mass=np.array([1.0]))
        got, dev = rs._weighted_row_sum_test(c)
        assert bool(got[0, 0]) is bad and dev[0, 0] == extra / 2


def _square_cells(rho, mass=1.0, n=2):
    return SimpleNamespace(mass=np.array([mass]), n=n, rho=np.array([[rho]]),
                           stack=SimpleNamespace(degrees=np.array([[1.0] * n])))


def test_row_square_atlas_test_at_each_bound(monkeypatch):
    monkeypatch.setattr(rs, "EXACT_RTOL", EXACT)
    n = 2                      # bounds m²/n = 1/2 and m² = 1
    cases = (([0.5, 1.0], False),                                   # both bounds attained
             ([0.5, 1 + EXACT], False), ([0.5, up(1 + EXACT)], True),   # upper side
             ([0.5 / (1 + EXACT), 1.0], False),                     # lower: ratio 1 + EXACT
             ([0.5 / up(1 + EXACT), 1.0], True))
    for rho, bad in cases:
        got, ratio = rs._row_square_test(_square_cells(rho, n=n))
        assert bool(got[0, 0]) is bad, rho
    for test in (rs._row_square_test, rs._row_square_corrected_test):
        assert test(_square_cells([0.5, 1.0]))[1][0, 0] == 1.0   # regular: both attained


def test_corrected_row_square_atlas_test_at_each_bound(monkeypatch):
    monkeypatch.setattr(rs, "EXACT_RTOL", EXACT)
    # degrees 1, 3 (Σ = 4, min 1), mass 1: row 1 lies in [3/4, 3]
    def cells(rho1):
        return SimpleNamespace(mass=np.array([1.0]), n=2, rho=np.array([[[0.5, rho1]]]),
                               stack=SimpleNamespace(degrees=np.array([[1.0, 3.0]])))
    for rho1, bad in ((3.0, False), (3 * (1 + EXACT), False), (up(3 * (1 + EXACT)), True),
                      (0.75, False), (down(0.75 / (1 + EXACT)), True)):
        assert bool(rs._row_square_corrected_test(cells(rho1))[0][0, 0]) is bad, rho1
