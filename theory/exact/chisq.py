"""Exact tail probabilities of weighted sums of independent χ² variables.

With Gaussian η ∈ R^{n×d} (i.i.d. N(0, σ²)), the columns of Ã_Sη are independent N(0, σ²Ã_SÃ_Sᵀ),
so ‖Ã_Sη‖_F²/σ² = Σ_k μ_k Y_k with Y_k i.i.d. χ²_d and μ_k the eigenvalues of Ã_SᵀÃ_S (those of
Ã_SÃ_Sᵀ). Its survival P(Σ_k μ_k Y_k > x) is computed here, with a rigorous bracket:

* **equal weights** (μ_k = μ for all k): Σ_k μ Y_k = μ χ²_{nd}, and the survival is the closed
  form Q(nd/2, x/(2μ)) (regularised upper incomplete gamma; for even nd a finite sum
  e^{-y} Σ_{j<nd/2} y^j/j!).
* **unequal weights**: Moschopoulos' series (Ann. Inst. Stat. Math. 37, 1985). μ_k Y_k is
  Gamma(d/2, 2μ_k); with β₁ = 2 min_k μ_k, the sum is the mixture Σ_j p_j Gamma(nd/2 + j, β₁)
  with p_j = C δ_j ≥ 0 and Σ_j p_j = 1, where C = Π_k (μ_min/μ_k)^{d/2},
  γ_j = (d/2) Σ_k (1 − μ_min/μ_k)^j / j, δ₀ = 1, δ_{j+1} = Σ_{i=1}^{j+1} i γ_i δ_{j+1−i}/(j+1).
  So P(X > x) = Σ_j p_j Q(nd/2 + j, x/β₁), and truncating after J terms leaves a remainder in
  [0, 1 − Σ_{j≤J} p_j] (each Q ≤ 1): the bracket [S_J, S_J + 1 − Σ_{j≤J} p_j].

Why this method: the weights are positive, so the series has positive terms and an explicit
truncation bound (Imhof's integral needs quadrature error control; Davies' algorithm needs its
own error analysis; the Paley–Zygmund inequality is only a lower bound and too weak at small d).
Everything is evaluated in :mod:`mpmath` at :data:`DPS` significant digits, so the rounding of
the sums (≲ J·10^{-DPS}) is far below the truncation tolerance :data:`TOL`, which is far below
any margin a verdict rests on (:func:`decide` reports the margin).

The survival is non-decreasing in each weight and non-increasing in x, so brackets on the
weights and on x (:func:`sf_interval`) give a bracket on the probability: this is how the
eigenvalues (computed at :data:`DPS` digits by a backward-stable Jacobi method, then widened by a
slack 10¹⁵ times its error) and the logarithms in a bound enter a certificate.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp

#: Working precision (significant decimal digits).
DPS = 50
#: Truncation tolerance of the series (upper end − lower end of a bracket, before slack).
TOL = mp.mpf("1e-30")
#: Most series terms (O(J²) work); beyond it the bracket is returned as wide as it is.
MAX_TERMS = 3000


def _mpf(x):
    if isinstance(x, Fraction):
        return mp.mpf(x.numerator) / x.denominator
    return mp.mpf(x)


def chisq_sf(dof, x):
    """P(χ²_dof > x), the closed form Q(dof/2, x/2), at :data:`DPS` digits.

    >>> float(chisq_sf(2, 2))          # e^{-1}
    0.36787944117144233
    """
    with mp.workdps(DPS):
        x = _mpf(x)
        if x <= 0:
            return mp.mpf(1)
        return mp.gammainc(mp.mpf(dof) / 2, x / 2, mp.inf, regularized=True)


def weighted_sf(weights, d, x, tol=TOL, max_terms=MAX_TERMS):
    """Bracket of P(Σ_k μ_k Y_k > x), Y_k i.i.d. χ²_d, for weights μ_k > 0.

    Returns ``{"lo", "hi", "name", "method", "terms"}`` (mpf bounds with lo ≤ P ≤ hi): the
    closed form when all weights are equal (lo = hi, ``terms`` = 1), else Moschopoulos' series
    truncated where its remainder 1 − Σ p_j falls to ``tol`` or below (or after ``max_terms``
    terms); ``terms`` is the number J of mixture weights p_0, …, p_{J−1} summed.

    >>> b = weighted_sf([1, 1, 1], 2, 3)                  # χ²_6 > 3: e^{-1.5}(1 + 1.5 + 1.125)
    >>> round(float(b["lo"]), 12), b["method"].split(":")[0]
    (0.808846830538, 'closed form')
    >>> b = weighted_sf([1, 2], 2, 3)                     # 2e^{-3/4} − e^{-3/2} by hand
    >>> abs(float(b["lo"]) - 0.7216029453336) < 1e-12, float(b["hi"] - b["lo"]) < 1e-25
    (True, True)
    """
    if d < 1 or int(d) != d:
        raise ValueError(f"d must be a positive integer, got {d!r}")
    with mp.workdps(DPS):
        mu = [_mpf(w) for w in weights]
        if not mu or min(mu) <= 0:
            raise ValueError(f"weights must be positive, got {weights!r}")
        x = _mpf(x)
        alpha = mp.mpf(d) / 2
        rho = alpha * len(mu)
        low = min(mu)
        if all(m == low for m in mu):
            v = chisq_sf(2 * rho, x / low)
            return {"lo": v, "hi": v, "terms": 1, "name": "closed form (χ² survival)",
                    "method": "closed form: equal weights, P(χ²_{nd} > x/μ) = Q(nd/2, x/(2μ))"}
        beta = 2 * low
        y = x / beta
        ratios = [1 - low / m for m in mu]          # in [0, 1)
        C = mp.fprod((low / m) ** alpha for m in mu)
        gam = [mp.mpf(0)]                            # γ_j, 1-based
        delta = [mp.mpf(1)]
        # Q(ρ + j, y) by the upward recurrence Q(a + 1, y) = Q(a, y) + y^a e^{-y}/Γ(a + 1).
        Q = mp.gammainc(rho, y, mp.inf, regularized=True) if y > 0 else mp.mpf(1)
        term = mp.exp(rho * mp.log(y) - y - mp.loggamma(rho + 1)) if y > 0 else mp.mpf(0)
        mass = C * delta[0]
        total = mass * Q
        j = 0
        while 1 - mass > tol and j + 1 < max_terms:
            j += 1
            gam.append(alpha * mp.fsum(r ** j for r in ratios) / j)
            delta.append(mp.fsum(i * gam[i] * delta[j - i] for i in range(1, j + 1)) / j)
            Q += term
            term *= y / (rho + j)
            p = C * delta[j]
            mass += p
            total += p * Q
        rem = max(1 - mass, mp.mpf(0))
        return {"lo": total, "hi": min(total + rem, mp.mpf(1)), "terms": j + 1,
                "name": "Moschopoulos series",
                "method": "Moschopoulos' gamma-mixture series (positive weights summing to 1; "
                          "truncation remainder ≤ 1 − Σ p_j)"}


def sf_interval(weights_lo, weights_hi, d, x_lo, x_hi, **kw):
    """Bracket of P(Σ μ_k Y_k > x) for every μ_k ∈ [lo_k, hi_k] and x ∈ [x_lo, x_hi]: the
    survival is non-decreasing in each weight and non-increasing in x, so the lower end is
    taken at (lo weights, x_hi) and the upper end at (hi weights, x_lo). ``kw`` (``tol``,
    ``max_terms``) goes to :func:`weighted_sf` at both ends. Returns ``{"lo", "hi", "name",
    "method", "terms"}``: the two ends, the lower end's name and method, and the larger of the
    two ends' ``terms``."""
    a = weighted_sf(weights_lo, d, x_hi, **kw)
    b = weighted_sf(weights_hi, d, x_lo, **kw)
    return {"lo": a["lo"], "hi": b["hi"], "method": a["method"], "name": a["name"],
            "terms": max(a["terms"], b["terms"])}


def decide(bracket, threshold):
    """``True`` (P > threshold: lo > threshold), ``False`` (P ≤ threshold: hi ≤ threshold) or
    ``None`` (the bracket straddles it: lo ≤ threshold < hi), with the margin: the distance of
    the bracket from the threshold (lo − threshold, threshold − hi, or 0 when it straddles)."""
    with mp.workdps(DPS):
        t = _mpf(threshold)
        if bracket["lo"] > t:
            return True, bracket["lo"] - t
        if bracket["hi"] <= t:
            return False, t - bracket["hi"]
        return None, mp.mpf(0)


def symmetric_eigenvalues(rows, slack_digits=15):
    """Eigenvalues of a real symmetric matrix (rows of Fractions or mpf) at :data:`DPS` digits
    (mpmath's Jacobi ``eigsy``, backward stable), and the slack added on either side: the
    error bound n·(1 + ‖M‖_F)·10^{-DPS} times 10^{slack_digits}.

    >>> vals, slack = symmetric_eigenvalues([[Fraction(2), Fraction(1)],
    ...                                      [Fraction(1), Fraction(2)]])
    >>> [round(float(v), 12) for v in vals], slack < 1e-30
    ([1.0, 3.0], True)
    """
    with mp.workdps(DPS):
        M = mp.matrix([[_mpf(x) for x in row] for row in rows])
        n = M.rows
        vals = mp.eigsy(M, eigvals_only=True)
        fro = mp.sqrt(mp.fsum(M[i, j] ** 2 for i in range(n) for j in range(n)))
        slack = n * (1 + fro) * mp.mpf(10) ** (slack_digits - DPS)
        return sorted(vals[i] for i in range(n)), slack


def extremal_sf(y, k_max):
    """max_{1 ≤ k ≤ k_max} P(χ²_k > k·y) at :data:`DPS` digits, and the maximising k.

    Székely & Bakirov (Probab. Theory Relat. Fields 126, 184–202, 2003): for a Gaussian
    quadratic form Q ≥ 0 with E Q = 1, inf_Q P(Q ≤ y) = P(χ²_k/k ≤ y) for some k = k(y) ≤
    rank Q. So P(Q > y) ≤ max_{k ≤ rank Q} P(χ²_k > k·y) for every such Q: the largest tail any
    weighted sum of χ² variables with mean 1 and rank ≤ ``k_max`` can have at y.

    >>> p, k = extremal_sf(2, 4)          # far above the mean: one weight, P(χ²_1 > 2)
    >>> round(float(p), 6), k
    (0.157299, 1)
    """
    if k_max < 1 or int(k_max) != k_max:
        raise ValueError(f"k_max must be a positive integer, got {k_max!r}")
    with mp.workdps(DPS):
        y = _mpf(y)
        best = max((chisq_sf(k, k * y), k) for k in range(1, int(k_max) + 1))
        return best

