"""Eq. 1-2: F = (I + λL̃)⁻¹X minimises q(F) = ‖F − X‖² + λ tr(FᵀL̃F)."""

import numpy as np

from .._common import EXACT_RTOL, counterexample, dense_laplacian
from .._core import claim
from .._paper import BOTH
from .._graphs import small_graphs

ID = "gsd-closed-form"
STATEMENT = ("F = (I + λL̃)⁻¹X minimises the GSD objective q(F) = ‖F − X‖_F² + λ tr(FᵀL̃F): "
             "its gradient vanishes there and q rises under every perturbation.")
CLAIM = claim(ID, "Eq. 1-2", STATEMENT, order=10, scope=BOTH)
CORRECTED = CLAIM.corrected(
    "For a non-symmetric L̃ (rw), q(F) is minimised by F = (I + λ(L̃ + L̃ᵀ)/2)⁻¹X: its gradient "
    "vanishes there and q rises under every perturbation. (I + λL̃)⁻¹X is the minimiser only "
    "when L̃ is symmetric (sym).")


def _q(F, X, L, lam):
    return float(np.sum((F - X) ** 2) + lam * np.trace(F.T @ L @ F))


def _examine(ctx, norm, closed_form, tag):
    """Gradient and random perturbations of q at the given closed form over the search space."""
    rng = ctx.rng(ID, norm, tag)
    worst = {"grad_rel": 0.0}
    worst_drop = 0.0   # largest relative decrease of q found by a perturbation
    cases = 0
    n_pert = 400 if ctx.thorough else 100
    for name, A in small_graphs(ctx).items():
        L = dense_laplacian(A, norm)
        n = L.shape[0]
        for lam in (0.5, 32.0):
            X = rng.standard_normal((n, 3))
            F = closed_form(L, X, lam)
            grad = 2 * (F - X) + lam * (L + L.T) @ F          # ∇ of λ tr(FᵀLF) is λ(L + Lᵀ)F
            grad_rel = float(np.linalg.norm(grad) / ((1 + 2 * lam) * np.linalg.norm(X)))
            q0 = _q(F, X, L, lam)
            drops = []
            for scale in np.logspace(-4, 0, n_pert // 10):
                for _ in range(10):
                    D = rng.standard_normal(F.shape) * scale * np.linalg.norm(F) / np.sqrt(F.size)
                    drops.append(q0 - _q(F + D, X, L, lam))
            max_drop = max(drops)
            worst_drop = max(worst_drop, max_drop / max(abs(q0), 1e-300))
            cases += 1
            if grad_rel > worst["grad_rel"]:
                worst = {"graph": name, "lam": lam, "grad_rel": grad_rel, "q": q0,
                         "max_decrease_under_perturbation": max_drop, "A": A}
    worst["worst_relative_drop"] = worst_drop
    return worst, cases, n_pert


def _ok(w):
    return w["grad_rel"] <= EXACT_RTOL and w["worst_relative_drop"] <= EXACT_RTOL


@CLAIM.checker
def check(ctx, norm):
    worst, cases, n_pert = _examine(ctx, norm, lambda L, X, lam: np.linalg.solve(
        np.eye(L.shape[0]) + lam * L, X), "paper")
    ev = {"graphs": list(small_graphs(ctx)), "lams": [0.5, 32.0], "cases": cases,
          "perturbations_per_case": n_pert, "tolerance": f"‖∇q‖ ≤ {EXACT_RTOL}·(1+2λ)‖X‖",
          "worst_relative_gradient": worst["grad_rel"], "worst_case": worst.get("graph"),
          "largest_relative_decrease_of_q_by_a_perturbation": worst["worst_relative_drop"],
          "note": "the paper writes ∇q(F) = 2L̃F + 2(F − X), dropping λ; the closed form keeps it. "
                  "For a non-symmetric L̃ the gradient of tr(FᵀL̃F) is (L̃ + L̃ᵀ)F."}
    if _ok(worst):
        return CLAIM.result(norm, "holds", ev,
                           f"gradient of q at (I+λL̃)⁻¹X ≤ {worst['grad_rel']:.1e} (relative) on "
                           f"{cases} cases; no perturbation lowered q (rel. tol {EXACT_RTOL:g})")
    ce = counterexample(ID, ctx, graph=(worst["graph"], worst["A"]), lam=worst["lam"],
                        relative_gradient=worst["grad_rel"], q_at_closed_form=worst["q"],
                        max_decrease_of_q_under_random_perturbation=worst[
                            "max_decrease_under_perturbation"],
                        features="X ~ N(0,1), shape (n, 3), from the run seed")
    results = [CLAIM.result(
        norm, "fails", ev,
        f"L̃_rw is not symmetric: ∇q ≠ 0 at (I+λL̃)⁻¹X (relative gradient up to "
        f"{worst['grad_rel']:.2f}, {worst['graph']}, λ={worst['lam']:g}); q decreases by "
        f"{worst['max_decrease_under_perturbation']:.3g} under a perturbation", ce)]
    # The nearest corrected statement: the minimiser of q uses the symmetric part of L̃.
    w2, cases2, _ = _examine(ctx, norm, lambda L, X, lam: np.linalg.solve(
        np.eye(L.shape[0]) + lam * (L + L.T) / 2, X), "corrected")
    verdict = "holds" if _ok(w2) else "fails"
    ev2 = dict(ev, worst_relative_gradient=w2["grad_rel"],
               largest_relative_decrease_of_q_by_a_perturbation=w2["worst_relative_drop"],
               correction="q is minimised by F = (I + λ(L̃ + L̃ᵀ)/2)⁻¹X; (I + λL̃)⁻¹X is the "
                          "stationary point only when L̃ is symmetric (norm='sym')")
    ce2 = None if verdict == "holds" else counterexample(CORRECTED.id, ctx, graph=(
        w2["graph"], w2["A"]), lam=w2["lam"], relative_gradient=w2["grad_rel"])
    results.append(CORRECTED.result(norm, verdict, ev2,
                                    f"corrected: (I+λ(L̃+L̃ᵀ)/2)⁻¹X has relative gradient ≤ "
                                    f"{w2['grad_rel']:.1e} on {cases2} cases", ce2))
    return results
