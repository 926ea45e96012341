"""Eq. 3 and the appendix lemma: (I+λL̃)⁻¹ = (1/(λ+1))(I − rÃ)⁻¹ and ρ(rÃ) ≤ r < 1."""

import numpy as np

from ..exact.atlas import (atlas_counterexample, atlas_minimal, combine_search, lam_grid, scan,
                           setting)
from ..kit.evidence import EXACT_RTOL, counterexample, dense_norm_adj
from ..kit.claim import claim
from ..paper.words import BOTH
from ..kit.graphs import small_graphs
from ..exact.proofs import NEUMANN_CHAIN, first_failure, instance_from, random_instances, run_chain

ID = "neumann-identity"
STATEMENT = ("(I + λL̃)⁻¹ = (1/(λ+1))(I − rÃ)⁻¹ with r = λ/(λ+1), and the spectral radius "
             "ρ(rÃ) ≤ r < 1, so the Neumann series Σ_s (rÃ)^s converges to (I − rÃ)⁻¹.")
LAMS = (0.1, 1.0, 32.0, 64.0, 1e4)
CLAIM = claim(ID, "Eq. 3, App. Lemma (Neumann derivation)", STATEMENT, order=20,
              scope=BOTH,
              rule="generic", seconds=(0.1, 0.4),
              doc="(I+λL̃)⁻¹ = (I−rÃ)⁻¹/(λ+1) and ρ(rÃ) ≤ r < 1")


#: Random instances the appendix-B chain runs on (besides the atlas's extreme graphs).
PROOF_INSTANCES = 30


def _atlas_test(c):
    """Atlas test: the two inverses agree and ρ(Ã) ≤ 1 (ratio: the larger of the relative
    difference / tolerance and ρ(Ã))."""
    n = c.n
    rhs = np.linalg.inv(np.eye(n) - c.r * c.An) / (c.lam + 1.0)
    rel = np.abs(c.inverse - rhs).max(axis=(1, 2)) / np.abs(c.inverse).max(axis=(1, 2))
    rho = np.abs(np.linalg.eigvals(c.An)).max(axis=1)
    return (rel > EXACT_RTOL) | (rho > 1 + EXACT_RTOL), np.maximum(rel / EXACT_RTOL, rho)


def _proof_steps(ctx, norm, extra):
    inst = list(extra) + random_instances(ctx.rng(ID, norm, "proof"), PROOF_INSTANCES, norm)
    return run_chain(NEUMANN_CHAIN, inst, show=("lam", "S"))


def judge(max_relative_difference, max_spectral_radius, tol=EXACT_RTOL):
    """The sampled graphs' verdict: True (the identity and ρ(Ã) ≤ 1 hold) when the two inverses
    agree to ``tol`` (relative) and ρ(Ã) ≤ 1 + ``tol``; the atlas is judged beside it.

    >>> judge(1e-10, 1.0 + 1e-10), judge(2e-10, 1.0), judge(0.0, 1.0 + 2e-10)
    (True, False, False)
    """
    return max_relative_difference <= tol and max_spectral_radius <= 1 + tol


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
    ok = judge(worst_id, worst_rho)
    atlas = scan(norm, _atlas_test, lams=lam_grid(ctx), with_S=False,
                 ratio="max(relative difference / 1e-10, ρ(Ã))")
    mc = atlas_minimal(atlas, None, norm)
    search = combine_search(atlas, {"graphs": list(graphs), "lams": list(LAMS)})
    # The chain on the atlas's worst graph (S = 8) and seeded random graphs.
    extreme = [instance_from(dict(atlas.worst, S=8), norm)] if atlas.worst else []
    steps = _proof_steps(ctx, norm, extreme)
    ev["proof_first_false_step"] = (first_failure(steps) or {}).get("step")
    if ok and mc is None:
        return CLAIM.result(norm, "holds", ev,
                            f"inverses agree to {worst_id:.1e} (rel.) on {len(graphs)} graphs × "
                            f"{len(LAMS)} λ; ρ(Ã) = {worst_rho:.12f}, min eig {min_eig:.3f} > −1; "
                            f"{atlas.describe()}", search=search, steps=steps)
    if ok:
        ce = atlas_counterexample(ctx, ID, mc)
        return CLAIM.result(norm, "fails", ev, f"atlas minimal counterexample {setting(mc)}", ce,
                            search=search, minimal_counterexample=mc, steps=steps)
    name, A, lam = worst_case
    ce = counterexample(ID, ctx, graph=(name, A), lam=lam, relative_difference=worst_id,
                        spectral_radius=worst_rho)
    return CLAIM.result(norm, "fails", ev,
                        f"identity off by {worst_id:.2e} or ρ(Ã) = {worst_rho:.6f} > 1", ce,
                        search=search, minimal_counterexample=mc, steps=steps)
