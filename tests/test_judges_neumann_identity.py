"""neumann-identity's judges at their thresholds (issue 34): the sampled verdict
(:func:`judge`: relative difference ≤ 1e-10 and ρ(Ã) ≤ 1 + 1e-10) and the atlas test, each on
hand-made measurements at, just below and just above the threshold. The claim's numbers are
pinned in tests/test_claims_exact.py (beside the run the exact claims already share)."""

from types import SimpleNamespace

import numpy as np

from ngc_ref_theory.kit.evidence import EXACT_RTOL
from ngc_ref_theory.claims import neumann_identity as ni

TOL = float(EXACT_RTOL)
ABOVE = np.nextafter(TOL, np.inf)


def test_judge_at_the_tolerance_of_the_identity():
    assert ni.judge(TOL, 1.0)                               # at the tolerance: rounding
    assert ni.judge(np.nextafter(TOL, 0), 1.0)
    assert not ni.judge(ABOVE, 1.0)                         # just above: the identity fails
    assert not ni.judge(1e-3, 1.0)


def test_judge_at_the_spectral_radius_bound():
    at = 1 + TOL
    assert ni.judge(0.0, at) and ni.judge(0.0, np.nextafter(at, 0))
    assert not ni.judge(0.0, np.nextafter(at, np.inf))      # ρ(Ã) > 1: the series diverges
    assert not ni.judge(ABOVE, at)                          # both sides must hold


def _cells(radii, scale=1.0):
    """Diagonal Ã = diag(ρ, 0) per graph, λ = 1 (r = 1/2), and a stored inverse equal to the
    right side times ``scale``: the relative difference is |scale − 1|/scale."""
    lam, r = 1.0, 0.5
    An = np.array([np.diag([rho, 0.0]) for rho in radii])
    rhs = np.array([np.diag(1.0 / (1.0 - r * np.diag(a))) for a in An]) / (lam + 1.0)
    return SimpleNamespace(n=2, lam=lam, r=r, An=An, inverse=scale * rhs)


def test_atlas_test_at_the_spectral_radius_bound():
    bad, ratio = ni._atlas_test(_cells([1.0, 1 + TOL, np.nextafter(1 + TOL, np.inf)]))
    assert bad.tolist() == [False, False, True]
    assert ratio[1] == 1 + TOL                              # ratio: ρ(Ã) when the inverses agree


def test_atlas_test_at_the_identity_tolerance():
    below, _ = ni._atlas_test(_cells([0.5], 1 + 0.5 * TOL))
    above, ratio = ni._atlas_test(_cells([0.5], 1 + 2 * TOL))
    assert not below[0] and above[0]
    assert 1.9 < ratio[0] < 2.1                             # relative difference / 1e-10
