"""tau-range's judges at their thresholds (issue 34): the sampled rule (:func:`range_problems`),
the limit reading's (:func:`limit_holds`) and the atlas tests of the range and of 'reaches'
(lower and upper), each on hand-made measurements at, just below and just above the threshold;
a power-of-two tolerance where the threshold must be hit exactly in float64. The claim's
numbers are pinned in tests/test_claims_exact.py."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from ngc_ref_theory.claims import tau_range as tr

from ._floats import down, up

T = 2.0 ** -30                 # a tolerance whose sums with 1 (and 4) are exact
GOOD = dict(max_tau_over_n=1.0, isolated_over_n=[1.0], complete_taus=[2.0, 1.5, 1.005],
            min_tau=1.0)


def problems(**kw):
    return tr.range_problems(**dict(GOOD, **kw), tol=T)


def test_range_problems_at_each_threshold():
    assert problems() == []
    assert problems(max_tau_over_n=1 + T) == []
    assert problems(max_tau_over_n=up(1 + T)) == ["tau > n"]
    assert problems(isolated_over_n=[1 + T, 1 - T]) == []
    assert problems(isolated_over_n=[1.0, up(1 + T)]) == ["isolated tau != n"]
    assert problems(isolated_over_n=[down(1 - T)]) == ["isolated tau != n"]
    assert problems(min_tau=1 - T) == []
    assert problems(min_tau=down(1 - T)) == ["tau < 1"]
    # K8 along λ = S: non-increasing within tol, ending below 1.01
    assert problems(complete_taus=[2.0, 2.0 + T, 1.0]) == []
    assert problems(complete_taus=[2.0, up(2.0 + T), 1.0]) == [
        "complete graph tau does not decrease to 1"]
    assert problems(complete_taus=[2.0, down(1.01)]) == []
    assert problems(complete_taus=[2.0, 1.01]) == ["complete graph tau does not decrease to 1"]
    # the default tolerance is the claim's TOL
    assert tr.range_problems(1 + 0.5 * tr.TOL, [1.0], [1.0], 1.0) == []
    assert tr.range_problems(1 + 2 * tr.TOL, [1.0], [1.0], 1.0) == ["tau > n"]


def test_limit_holds_at_each_side():
    F = Fraction
    assert tr.limit_holds([F(3), F(2)], [3.0, 2.0])                 # at the bound: holds
    assert not tr.limit_holds([F(3), F(2)], [3.0, down(2.0)])       # above the bound
    assert not tr.limit_holds([F(3), F(3)], [3.0, 3.0])             # not strictly decreasing
    assert not tr.limit_holds([F(3), F(1)], [3.0, 3.0])             # reaches 1: not > 1
    assert tr.limit_holds([F(3), F(1) + F(1, 10**6)], [3.0, 3.0])


def _stack(G, n, edges=()):
    A = np.zeros((G, n, n))
    for g, i, j in edges:
        A[g, i, j] = A[g, j, i] = 1.0
    return SimpleNamespace(A=A, n=n)


def test_range_atlas_test_at_each_bound(monkeypatch):
    monkeypatch.setattr(tr, "TOL", T)
    n = 4
    taus = [1 - T, down(1 - T), n * (1 + T), up(n * (1 + T))]
    c = SimpleNamespace(tau=np.array([taus]), n=n, stack=_stack(4, n, [(g, 0, 1) for g in
                                                                       range(4)]))
    assert tr._range_test(c)[0].tolist() == [[False, True, False, True]]
    # an edgeless graph must have τ = n (within tol)
    iso = SimpleNamespace(tau=np.array([[n * (1 - T), down(n * (1 - T)), n * (1 + T)]]), n=n,
                          stack=_stack(3, n))
    assert tr._range_test(iso)[0].tolist() == [[False, True, False]]


def test_reaches_lower_atlas_tests_at_the_attainment_tolerance(monkeypatch):
    monkeypatch.setattr(tr, "ATTAIN_TOL", T)
    n = 2
    complete = _stack(3, n, [(g, 0, 1) for g in range(3)])
    rows = np.array([[[1 + T, 3.0], [up(1 + T), 3.0], [down(1 - T), 3.0]]])   # (S, G, n)
    c = SimpleNamespace(tau_i=rows, n=n, stack=complete)
    assert tr._lower_test(c)[0].tolist() == [[False, True, True]]   # a row at 1 (within tol)
    assert tr._attained_test(c)[0].tolist() == [[True, False, False]]
    # only complete graphs are asked to attain it
    c2 = SimpleNamespace(tau_i=rows, n=n, stack=_stack(3, n))
    assert not tr._lower_test(c2)[0].any()


def test_reaches_upper_atlas_test_both_equivalences(monkeypatch):
    monkeypatch.setattr(tr, "ATTAIN_TOL", T)
    n = 2
    # graph 0: K2 (no isolated node, two positive entries per row, τ_i < n): holds
    # graph 1: edgeless (isolated, one positive entry, τ_i = n within tol): holds
    # graph 2: edgeless but τ_i just off n: breaks 'one entry ⟺ τ_i = n'
    # graph 3: K2 with a one-entry row: breaks 'one entry ⟺ isolated'
    stack = _stack(4, n, [(0, 0, 1), (3, 0, 1)])
    tau_i = np.array([[[1.5, 1.5], [n * (1 - T), n * (1 + T)], [up(n * (1 + T)), 2.0],
                       [n, 1.5]]])
    positives = np.array([[[2, 2], [1, 1], [1, 1], [1, 2]]])
    c = SimpleNamespace(tau_i=tau_i, n=n, positives=positives, stack=stack)
    bad, ratio = tr._upper_test(c)
    assert bad.tolist() == [[False, False, True, True]]
    assert ratio[0, 0] == 0.75                     # the largest τ_i/n of a two-entry row


def test_thresholds_are_the_documented_ones():
    # the statement's tolerance (relative 1e-9), attainment within 1e-12 (float64 rounding of
    # τ_i is ~1e-15), K8's τ below 1.01 at λ = S = 1024
    assert (tr.TOL, tr.ATTAIN_TOL, tr.COMPLETE_LIMIT_BELOW) == (1e-9, 1e-12, 1.01)
