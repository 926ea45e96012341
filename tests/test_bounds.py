"""``theory/paper/bounds.py``: Lemma 1's bound as the paper writes it, the corrected max-entry and
Frobenius bounds, the floor of τ/n at fixed λ, the λ = √n schedule and the simulation of
‖Ã_Sη‖_F², each against its formula written out here (exact fractions where the arithmetic
allows) or, for the simulation, against draws whose outcome is fixed (Rademacher noise on a
diagonal filter) and a mean whose expectation is known."""

import math
from fractions import Fraction

import numpy as np
import pytest

from ngc_ref_theory.paper.bounds import (floor_tau_over_n, frobenius_bound, grown_lam_S,
                                         max_entry_bound, paper_bound, simulate)


def _m(lam, S):
    """1 − (λ/(λ+1))^{S+1}, the series' mass, as an exact fraction for integer λ."""
    return 1 - Fraction(lam, lam + 1) ** (S + 1)


@pytest.mark.parametrize("lam, S", [(2, 3), (1, 0), (32, 16), (5, 1)])
def test_the_floor_of_tau_over_n_is_one_over_the_squared_mass_times_lambda_plus_one(lam, S):
    """1/((λ+1)(1 − r^{S+1}))²: each diagonal entry of Ã_S is at least 1/(λ+1) (its s = 0
    term), so ρ_i ≥ 1/(λ+1)² and τ/n = max_i ρ_i/m² can never go below it; λ = 2, S = 3 gives
    (27/65)² exactly."""
    exact = 1 / ((lam + 1) * _m(lam, S)) ** 2
    assert floor_tau_over_n(float(lam), S) == pytest.approx(float(exact), rel=1e-13)
    if (lam, S) == (2, 3):
        assert exact == Fraction(729, 4225)


@pytest.mark.parametrize("n, lam, S", [(100, 10.0, 20), (101, math.sqrt(101), 21),
                                       (2, math.sqrt(2), 3), (1, 1.0, 2), (400, 20.0, 40)])
def test_lambda_grows_as_root_n_and_S_as_the_ceiling_of_two_lambda(n, lam, S):
    got = grown_lam_S(n)
    assert got == (pytest.approx(lam, rel=1e-15), S) and isinstance(got[1], int)


@pytest.mark.parametrize("tau, lam, S, sigma, n, d", [(3.5, 2, 3, 0.7, 50, 4),
                                                      (1.0, 1, 1, 1.0, 2, 2),
                                                      (40.0, 32, 16, 2.0, 800, 16)])
def test_the_bounds_as_the_paper_and_the_correction_write_them(tau, lam, S, sigma, n, d):
    """Eq. (9): 2τ(1 − (λ/(λ+1))^{S+1})²σ²(4 log n + log 2d)/n. The max-entry bound:
    2σ²·max_i ρ_i·log(2nd·d) with max_i ρ_i = τm²/n; the Frobenius bound: nd times it."""
    m2 = float(_m(lam, S) ** 2)
    paper = 2 * tau * m2 * sigma**2 * (4 * math.log(n) + math.log(2 * d)) / n
    assert paper_bound(tau, float(lam), S, sigma, n, d) == pytest.approx(paper, rel=1e-13)
    entry = 2 * sigma**2 * (tau * m2 / n) * math.log(2 * n * d * d)
    assert max_entry_bound(tau, float(lam), S, sigma, n, d) == pytest.approx(entry, rel=1e-13)
    assert frobenius_bound(tau, float(lam), S, sigma, n, d) == pytest.approx(n * d * entry,
                                                                            rel=1e-13)


class _Diagonal:
    """A filter whose product is known entry by entry: diag(c) @ η."""

    def __init__(self, c):
        self.c = np.asarray(c, dtype=float)
        self.n = self.c.size

    def __matmul__(self, eta):
        return self.c[:, None] * eta


def test_simulate_with_rademacher_noise_on_a_diagonal_filter_is_exact_in_every_trial():
    """±σ entries: every draw gives ‖diag(c)η‖_F² = dσ²Σc² and max [·]² = σ² max c²; 70 trials
    in batches of 64 and of 3 (the last batch shorter) give all 70."""
    c, sigma, d = [0.5, 2.0, 1.0], 0.3, 4
    for batch in (64, 3):
        fro2, max2 = simulate(_Diagonal(c), "rademacher", sigma, d, 70,
                              np.random.default_rng(0), batch=batch)
        assert fro2.shape == max2.shape == (70,)
        assert np.allclose(fro2, d * sigma**2 * 5.25, rtol=1e-14)
        assert np.allclose(max2, sigma**2 * 4.0, rtol=1e-14)


def test_simulate_draws_the_noise_it_is_given_with_its_sigma():
    """Gaussian noise: E‖diag(c)η‖_F² = dσ²Σc² (the mean of 400 trials within 4 standard
    errors: Var = 2dσ⁴Σc⁴ per trial); uniform noise never exceeds σ√3·max c per entry; the
    same generator state gives the same draws."""
    c, sigma, d, N = np.array([0.5, 2.0, 1.0]), 0.3, 4, 400
    fro2, _ = simulate(_Diagonal(c), "gaussian", sigma, d, N, np.random.default_rng(1))
    se = math.sqrt(2 * d * sigma**4 * (c**4).sum() / N)
    assert abs(fro2.mean() - d * sigma**2 * (c**2).sum()) < 4 * se
    _, max2 = simulate(_Diagonal(c), "uniform", sigma, d, 50, np.random.default_rng(2))
    assert np.all(max2 <= 3 * sigma**2 * 4.0) and max2.max() > 0.8 * 3 * sigma**2 * 4.0
    a = simulate(_Diagonal(c), "gaussian", sigma, d, 5, np.random.default_rng(3))
    b = simulate(_Diagonal(c), "gaussian", sigma, d, 5, np.random.default_rng(3))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    # each trial is its own draw: consecutive trials differ
    assert len(set(a[0].tolist())) == 5


def test_simulate_one_entry_per_trial_its_max_is_its_norm():
    """n = d = 1: ‖Ã_Sη‖_F² and max_ij [Ã_Sη]_ij² are the same number in every trial, and the
    trials are separate draws (no two alike)."""
    fro2, max2 = simulate(_Diagonal([2.0]), "gaussian", 1.0, 1, 70, np.random.default_rng(4))
    assert np.array_equal(fro2, max2) and len(set(fro2.tolist())) == 70
