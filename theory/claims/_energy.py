"""Row square sums ρ_i = Σ_j [Ã_S]_ij² of small graphs through one eigendecomposition, for the
claims about the aggregated noise energy E‖Ã_Sη‖_F² = σ²d·Σ_i ρ_i. Not a claim (the registry
imports only modules without a leading underscore).

Ã_sym = U diag(μ) Uᵀ gives Ã_S = U diag(f(μ)) Uᵀ with f(μ) = (1 − (rμ)^{S+1})/((λ+1)(1 − rμ)),
and Ã_rw = D̃^{-1/2} Ã_sym D̃^{1/2}, so [Ã_S,rw]_ij = [Ã_S,sym]_ij √(d̃_j/d̃_i). One eigh per graph
serves every (λ, S) and both normalisations; the claims cross-check it against
:func:`ngc_ref.connectivity_factor` (blockwise Horner sums) on their smallest graphs.
"""

from __future__ import annotations

import numpy as np

from ngc_ref import normalized_adjacency

def spectrum(A):
    """(U, μ, d̃) of Ã_sym = U diag(μ) Uᵀ (dense, symmetric eigensolver)."""
    An, deg = normalized_adjacency(A, norm="sym", return_degrees=True)
    mu, U = np.linalg.eigh(An.toarray())
    return U, mu, np.asarray(deg, dtype=float)


def neumann_dense(spec, lam, S, norm):
    """Ã_S (dense) from :func:`spectrum`."""
    U, mu, deg = spec
    r = lam / (lam + 1.0)
    x = r * mu                       # |x| ≤ r < 1, so 1 − x ≥ 1/(λ+1)
    f = (1.0 - x ** (S + 1)) / ((1.0 - x) * (lam + 1.0))
    M = (U * f) @ U.T
    if norm == "rw":
        s = np.sqrt(deg)
        M = M * s[None, :] / s[:, None]
    return M


def row_square_sums(spec, lam, S, norm):
    M = neumann_dense(spec, lam, S, norm)
    return (M ** 2).sum(axis=1)
