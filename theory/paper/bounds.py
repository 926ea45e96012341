"""The paper's bounds and the quantities the checks hold them against, as plain functions.

In the checker's part for the paper (it imports only :mod:`ngc_ref` and :mod:`..kit.stats`): the
claims and the sweep tasks both use it, and neither imports the other for it.

Notation: m = 1 − r^{S+1} (:func:`ngc_ref.series_mass`), ρ_i = Σ_p [Ã_S]_ip², τ = n·max_i ρ_i/m².
"""

from __future__ import annotations

import math

import numpy as np

from ngc_ref import series_mass

from ..kit.stats import sub_gaussian_noise


def floor_tau_over_n(lam, S):
    """1/((λ+1)(1−r^{S+1}))²: a lower bound on τ/n valid for every graph."""
    return 1.0 / ((lam + 1.0) * series_mass(lam, S)) ** 2


def grown_lam_S(n):
    lam = math.sqrt(n)
    return lam, int(math.ceil(2 * lam))


def paper_bound(tau, lam, S, sigma, n, d):
    m = series_mass(lam, S)
    return 2.0 * tau * m**2 * sigma**2 * (4.0 * math.log(n) + math.log(2 * d)) / n


def max_entry_bound(tau, lam, S, sigma, n, d):
    """2σ²·max_i ρ_i·log(2nd·d): union of nd Hoeffding tails, total 1/d."""
    m = series_mass(lam, S)
    return 2.0 * tau * m**2 * sigma**2 * math.log(2.0 * n * d * d) / n


def frobenius_bound(tau, lam, S, sigma, n, d):
    """nd × :func:`max_entry_bound` = 2τm²σ²·d·log(2nd²)."""
    return n * d * max_entry_bound(tau, lam, S, sigma, n, d)


def simulate(filt, noise, sigma, d, trials, rng, *, batch=64):
    """‖Ã_Sη‖_F² and max_ij [Ã_Sη]_ij² for ``trials`` independent draws of η (n × d).

    Draws are stacked as columns (Ã_S acts column by column), ``batch`` draws per product.
    """
    n = filt.n
    fro2, max2 = np.empty(trials), np.empty(trials)
    for start in range(0, trials, batch):
        k = min(batch, trials - start)
        eta = sub_gaussian_noise(rng, noise, (n, d * k), sigma)
        Z = (filt @ eta).reshape(n, k, d)
        fro2[start:start + k] = np.einsum("nkd,nkd->k", Z, Z)
        max2[start:start + k] = (Z**2).max(axis=(0, 2))
    return fro2, max2
