"""Eq. 3 and the appendix lemma: (I+λL̃)⁻¹ = (1/(λ+1))(I − rÃ)⁻¹ and ρ(rÃ) ≤ r < 1."""

import numpy as np

from .._common import EXACT_RTOL, counterexample, dense_norm_adj
from .._core import claim
from .._paper import BOTH
from .._graphs import small_graphs

ID = "neumann-identity"
STATEMENT = ("(I + λL̃)⁻¹ = (1/(λ+1))(I − rÃ)⁻¹ with r = λ/(λ+1), and the spectral radius "
             "ρ(rÃ) ≤ r < 1, so the Neumann series Σ_s (rÃ)^s converges to (I − rÃ)⁻¹.")
LAMS = (0.1, 1.0, 32.0, 64.0, 1e4)
CLAIM = claim(ID, "Eq. 3, App. Lemma (Neumann derivation)", STATEMENT, order=20,
              scope=BOTH)


@CLAIM.checker
def check(ctx, norm):
    worst_id, worst_rho, min_eig = 0.0, 0.0, np.inf
    worst_case = None
    graphs = small_graphs(ctx)
    for name, A in graphs.items():
        An = dense_norm_adj(A, norm)
        n = An.shape[0]
        eig = np.linalg.eigvals(An)
        rho = float(np.abs(eig).max())
        min_eig = min(min_eig, float(eig.real.min()))
        worst_rho = max(worst_rho, rho)
        for lam in LAMS:
            r = lam / (lam + 1)
            lhs = np.linalg.inv(np.eye(n) + lam * (np.eye(n) - An))
            rhs = np.linalg.inv(np.eye(n) - r * An) / (lam + 1)
            rel = float(np.abs(lhs - rhs).max() / np.abs(lhs).max())
            if rel > worst_id:
                worst_id, worst_case = rel, (name, A, lam)
            if rho > 1 + EXACT_RTOL:
                worst_case = (name, A, lam)
    ev = {"graphs": list(graphs), "lams": list(LAMS), "tolerance": EXACT_RTOL,
          "max_relative_difference_of_the_two_inverses": worst_id,
          "max_spectral_radius_of_A_norm": worst_rho,
          "min_real_eigenvalue_of_A_norm": min_eig,
          "note": "ρ(rÃ) = r·ρ(Ã); ρ(Ã) = 1 exactly (Ã D̃^{1/2}1 = D̃^{1/2}1 for sym, Ã1 = 1 "
                  "for rw). "
                  "With self-loops the smallest eigenvalue stays above −1."}
    ok = worst_id <= EXACT_RTOL and worst_rho <= 1 + EXACT_RTOL
    if ok:
        return CLAIM.result(norm, "holds", ev,
                           f"inverses agree to {worst_id:.1e} (rel.) on {len(graphs)} graphs × "
                           f"{len(LAMS)} λ; ρ(Ã) = {worst_rho:.12f}, min eig {min_eig:.3f} > −1")
    name, A, lam = worst_case
    ce = counterexample(ID, ctx, graph=(name, A), lam=lam, relative_difference=worst_id,
                        spectral_radius=worst_rho)
    return CLAIM.result(norm, "fails", ev,
                       f"identity off by {worst_id:.2e} or ρ(Ã) = {worst_rho:.6f} > 1", ce)
