"""Eq. 1-2: F = (I + λL̃)⁻¹X minimises q(F) = ‖F − X‖² + λ tr(FᵀL̃F)."""

import numpy as np

from ..exact.atlas import (atlas_counterexample, atlas_minimal, combine_search, exact_line,
                           lam_grid, minimal_figure, scan, setting)
from ..kit.evidence import EXACT_RTOL, counterexample, dense_laplacian
from ..kit.claim import Violation, claim
from ..exact.certificates import (certify_gradient, certify_gsd_stationary, certify_indefinite,
                                  frac, laplacian, text)
from ..paper.words import BOTH
from ..kit.graphs import small_graphs

ID = "gsd-closed-form"
STATEMENT = ("F = (I + λL̃)⁻¹X minimises the GSD objective q(F) = ‖F − X‖_F² + λ tr(FᵀL̃F): "
             "its gradient vanishes there and q rises under every perturbation.")
CLAIM = claim(ID, "Eq. 1-2", STATEMENT, order=10, scope=BOTH,
              rule="generic", seconds=(0.5, 2.3),
              doc=("(I+λL̃)⁻¹X minimises q(F); `:gradient` the printed ∇q (erratum: λ dropped); "
                   "`:gradient-meant` the gradient with λ (rw needs λ(L̃ + L̃ᵀ))"))
GRADIENT = CLAIM.erratum(
    "gradient", "The gradient of q(F) = ‖F − X‖_F² + λ tr(FᵀL̃F) is ∇q(F) = 2L̃F + 2(F − X) "
                "(Sec. 2, before Eq. 2), whose zero gives Eq. 2.",
    "Sec. 2 writes '∇q(F) = 2L̃F + 2(F − X)', dropping λ; Eq. 2's solution "
    "(I + λL̃)⁻¹X is the zero of 2λL̃F + 2(F − X), so λ is clearly meant")
#: Sec. 2's words on the gradient, and why λ is meant.
GRADIENT_WORDS = ("Sec. 2: 'By taking the derivative ∇q(F) = 2L̃F + 2(F − X) to zero, we obtain "
                  "the solution of GSD optimization problem as follows: F = (I + λL̃)⁻¹X' (Eq. 2)")
GRADIENT_MEANT = CLAIM.erratum(
    "gradient-meant", "The gradient Sec. 2 means, with λ: ∇q(F) = 2λL̃F + 2(F − X), whose zero "
                      "is Eq. 2's (I + λL̃)⁻¹X. Checked against the true gradient "
                      "2(F − X) + λ(L̃ + L̃ᵀ)F: their difference is λ(L̃ − L̃ᵀ)F.",
    f"written, {GRADIENT_WORDS}: the gradient drops λ, while Eq. 2 is the zero of "
    "2λL̃F + 2(F − X), so the λ is meant; this result checks the meant gradient, "
    "which for a non-symmetric L̃ (rw) is still not the gradient of tr(FᵀL̃F) "
    "(that is (L̃ + L̃ᵀ)F)")
CORRECTED = CLAIM.corrected(
    "For a non-symmetric L̃ (rw), whenever I + λ(L̃ + L̃ᵀ)/2 is positive definite, q(F) is "
    "minimised by F = (I + λ(L̃ + L̃ᵀ)/2)⁻¹X: its gradient vanishes there and q rises under every "
    "perturbation. When it has a negative eigenvalue, q is unbounded below and has no "
    "minimiser; for large enough λ this happens on every graph with ≤ 7 nodes that has an edge "
    "between nodes of different degrees ((L̃ + L̃ᵀ)/2 has a negative eigenvalue there; the "
    "3-node path: λ > 42 + 6√51 ≈ 84.85). (I + λL̃)⁻¹X is the minimiser only when L̃ is "
    "symmetric (sym).")


def _q(F, X, L, lam):
    return float(np.sum((F - X) ** 2) + lam * np.trace(F.T @ L @ F))


def _curvature(L, lam):
    """Smallest eigenvalue of I + λ(L̃ + L̃ᵀ)/2: q(F + D) − q(F) = ⟨∇q(F), D⟩ + Σ_cols
    dᵀ(I + λ(L̃ + L̃ᵀ)/2)d, so at a stationary point q rises under every perturbation iff it is
    positive (and q is unbounded below when it is negative)."""
    return float(np.linalg.eigvalsh(np.eye(L.shape[0]) + lam * (L + L.T) / 2).min())


def _examine(ctx, norm, closed_form, tag, hypothesis=False):
    """Gradient, curvature and random perturbations of q at the given closed form over the
    search space. ``hypothesis``: skip (and list) the cases where I + λ(L̃ + L̃ᵀ)/2 is not
    positive definite."""
    rng = ctx.rng(ID, norm, tag)
    worst = {"grad_rel": 0.0}
    worst_drop = 0.0   # largest relative decrease of q found by a perturbation
    min_curv, outside = np.inf, []
    cases = 0
    n_pert = 400 if ctx.thorough else 100
    for name, A in small_graphs(ctx).items():
        L = dense_laplacian(A, norm)
        n = L.shape[0]
        for lam in (0.5, 32.0):
            X = rng.standard_normal((n, 3))
            curv = _curvature(L, lam)
            if hypothesis and curv <= 0:
                outside.append({"graph": name, "lam": lam, "min_eig_I_plus_lam_Ls": curv})
                continue
            min_curv = min(min_curv, curv)
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
    worst["min_curvature"] = min_curv
    worst["outside"] = outside
    return worst, cases, n_pert


def _ok(w):
    return (w["grad_rel"] <= EXACT_RTOL and w["worst_relative_drop"] <= EXACT_RTOL
            and w["min_curvature"] > 0)


def _laplacians(c):
    L = c.laplacian
    return L, (L + np.swapaxes(L, 1, 2)) / 2


def _min_curvature(c):
    return np.linalg.eigvalsh(np.eye(c.n) + c.lam * _laplacians(c)[1]).min(axis=1)


def _stationary_test(c):
    """Atlas test of Eq. 2 for all X at once: ∇q((I+λL̃)⁻¹X) = λ(L̃ᵀ − L̃)(I+λL̃)⁻¹X, so the
    closed form is stationary for every X iff λ(L̃ᵀ − L̃)(I+λL̃)⁻¹ = 0, and a minimum iff
    moreover I + λ(L̃+L̃ᵀ)/2 is positive definite."""
    L, _ = _laplacians(c)
    G = c.lam * (np.swapaxes(L, 1, 2) - L) @ c.inverse
    g = np.abs(G).max(axis=(1, 2))
    return (g > EXACT_RTOL) | (_min_curvature(c) <= 0), g


def _corrected_test(c):
    """Atlas test of the corrected statement inside its hypothesis: the gradient of q at
    F* = (I + λ(L̃+L̃ᵀ)/2)⁻¹ (X = I) vanishes; cases outside the hypothesis pass."""
    _, Ls = _laplacians(c)
    K = np.eye(c.n) + c.lam * Ls
    F = np.linalg.inv(K)
    grad = 2 * (F - np.eye(c.n)) + 2 * c.lam * Ls @ F
    g = np.abs(grad).max(axis=(1, 2))
    return (_min_curvature(c) > 0) & (g > EXACT_RTOL * (1 + 2 * c.lam)), g


def _outside_test(c):
    """Where the corrected statement's hypothesis fails: I + λ(L̃+L̃ᵀ)/2 not positive definite."""
    curv = _min_curvature(c)
    return curv <= 1e-12, -curv


def _gradient_test(c):
    """Atlas test of Sec. 2's gradient: paper − true = (2L̃ − λ(L̃ + L̃ᵀ))F for every F, X."""
    L = c.laplacian
    D = np.abs(2 * L - c.lam * (L + np.swapaxes(L, 1, 2))).max(axis=(1, 2))
    return D > EXACT_RTOL * (1 + c.lam), D


def _atlas(ctx, norm, test, certify, ratio):
    atlas = scan(norm, test, lams=lam_grid(ctx), with_S=False, ratio=ratio)
    mc = atlas_minimal(atlas, None if certify is None else (
        lambda w: certify(w["n"], w["edges"], w["lam"])), norm)
    return atlas, mc, combine_search(atlas, {"graphs": list(small_graphs(ctx))})


def _worst_gradient(ctx, norm, key, operator):
    """(largest relative difference, (graph name, A, λ)) of the gradient formula
    operator(L̃, λ)F + 2(F − X) against the true gradient 2(F − X) + λ(L̃ + L̃ᵀ)F of q, at
    random X, F on the small graphs for λ ∈ {0.5, 1, 32} (the stream is ``ctx.rng(ID, norm,
    key)``); the first case when every difference is 0."""
    rng = ctx.rng(ID, norm, key)
    worst = (0.0, None)
    for name, A in small_graphs(ctx).items():
        L = dense_laplacian(A, norm)
        for lam in (0.5, 1.0, 32.0):
            X, F = rng.standard_normal((2, L.shape[0], 3))
            true = 2 * (F - X) + lam * (L + L.T) @ F
            formula = operator(L, lam) @ F + 2 * (F - X)
            rel = float(np.linalg.norm(formula - true) / np.linalg.norm(true))
            if rel > worst[0] or worst[1] is None:
                worst = (rel, (name, A, lam))
    return worst


def _gradient_result(ctx, norm):
    """The paper's gradient formula against the true gradient of q at random points."""
    worst = _worst_gradient(ctx, norm, "gradient", lambda L, lam: 2 * L)
    ev = {"graphs": list(small_graphs(ctx)), "lams": [0.5, 1.0, 32.0],
          "true_gradient": "2(F − X) + λ(L̃ + L̃ᵀ)F (= 2λL̃F + 2(F − X) for symmetric L̃)",
          "max_relative_difference": worst[0], "tolerance": EXACT_RTOL,
          "note": "the two agree only at λ = 1 (and, for rw, not even there: L̃_rw ≠ L̃_rwᵀ)"}
    atlas, mc, search = _atlas(ctx, norm, _gradient_test,
                               lambda n, e, lam: certify_gradient(n, e, lam, norm),
                               "max |2L̃ − λ(L̃ + L̃ᵀ)| (paper − true gradient operator)")
    figs = [] if mc is None else minimal_figure(
        ctx, f"gsd-closed-form-gradient-minimal-{norm}.png", mc,
        f"∇q ≠ 2L̃F + 2(F − X) ({norm}): minimal counterexample, atlas G{mc['atlas_index']}, "
        f"λ = {mc['lam']:g}", caption=f"certified {mc['certified']}: "
                                      f"{exact_line(mc, '_' + '01')}")
    if worst[0] <= EXACT_RTOL and mc is None:
        return GRADIENT.result(norm, "holds", ev, "the paper's gradient is the gradient of q; "
                                                  + atlas.describe(), search=search)
    if worst[0] <= EXACT_RTOL:
        return GRADIENT.result(norm, "fails", ev, f"atlas minimal counterexample {setting(mc)}",
                               atlas_counterexample(ctx, GRADIENT.id, mc, exact=mc["exact"]),
                               figs, search=search, minimal_counterexample=mc)
    name, A, lam = worst[1]
    ce = counterexample(GRADIENT.id, ctx, graph=(name, A), lam=lam,
                        relative_difference=worst[0],
                        points="X, F ~ N(0,1), shape (n, 3), from the run seed")
    mc_text = f"; minimal: {setting(mc)} ({mc['certified']})" if mc else ""
    return GRADIENT.result(norm, "fails", ev,
                           f"∇q = 2L̃F + 2(F − X) is off by {worst[0]:.2f} (relative) at "
                           f"λ={lam:g} ({name}); meant with λ: 2λL̃F + 2(F − X), the gradient for "
                           f"sym only (see {GRADIENT_MEANT.id}){mc_text}", ce, figs,
                           violation=Violation("relative difference from the true gradient",
                                               worst[0], "=", 0, case=f"{name}, λ={lam:g}"),
                           search=search, minimal_counterexample=mc)


def _meant_gradient_test(c):
    """Atlas test of the meant gradient 2λL̃F + 2(F − X): meant − true = λ(L̃ − L̃ᵀ)F."""
    L = c.laplacian
    D = c.lam * np.abs(L - np.swapaxes(L, 1, 2)).max(axis=(1, 2))
    return D > EXACT_RTOL * (1 + c.lam), D


def certify_meant_gradient(n, edges, lam):
    """rw: an exact non-zero entry of λ(L̃ − L̃ᵀ) (meant − true gradient operator; for an edge
    (i, j), L̃_ij − L̃_ji = 1/d̃_j − 1/d̃_i)."""
    lam = frac(lam)
    L = laplacian(n, edges, "rw")
    nz = [(i, j) for i in range(n) for j in range(n) if L[i][j] != L[j][i]]
    exact = {}
    if nz:
        i, j = nz[0]
        exact[f"λ(L̃ − L̃ᵀ)_{i}{j}"] = text(lam * (L[i][j] - L[j][i]))
        exact[f"L̃_{i}{j}"], exact[f"L̃_{j}{i}"] = text(L[i][j]), text(L[j][i])
    return {"fails": bool(nz), "certified": "exact", "exact": exact,
            "why": "meant − true gradient = λ(L̃ − L̃ᵀ)F, non-zero for F = I", "numbers": {}}


def _meant_gradient_result(ctx, norm):
    """The erratum's meant statement: is 2λL̃F + 2(F − X) the gradient of q?"""
    worst = _worst_gradient(ctx, norm, "gradient-meant", lambda L, lam: 2 * lam * L)
    ev = {"written": GRADIENT_WORDS, "meant": "∇q(F) = 2λL̃F + 2(F − X)",
          "true_gradient": "2(F − X) + λ(L̃ + L̃ᵀ)F", "graphs": list(small_graphs(ctx)),
          "lams": [0.5, 1.0, 32.0], "max_relative_difference": worst[0],
          "tolerance": EXACT_RTOL}
    atlas, mc, search = _atlas(ctx, norm, _meant_gradient_test,
                               None if norm == "sym" else (
                                   lambda n, e, lam: certify_meant_gradient(n, e, lam)),
                               "max |λ(L̃ − L̃ᵀ)| (meant − true gradient operator)")
    if worst[0] <= EXACT_RTOL and mc is None:
        return GRADIENT_MEANT.result(
            norm, "holds", ev, f"as meant (with λ) it is the gradient: L̃ is symmetric, meant − "
                               f"true ≤ {worst[0]:.1e} (relative); " + atlas.describe(),
            search=search)
    name, A, lam = worst[1]
    ce = (atlas_counterexample(ctx, GRADIENT_MEANT.id, mc,
                               **({"exact": mc["exact"]} if "exact" in mc else {})) if mc else
          counterexample(GRADIENT_MEANT.id, ctx, graph=(name, A), lam=lam,
                         relative_difference=worst[0]))
    mc_text = f"; minimal: {setting(mc)} ({mc['certified']})" if mc else ""
    return GRADIENT_MEANT.result(
        norm, "fails", ev, f"even with λ, 2λL̃F + 2(F − X) is not the gradient for a "
                           f"non-symmetric L̃: off by {worst[0]:.2f} (relative) at λ={lam:g} "
                           f"({name}); the gradient needs λ(L̃ + L̃ᵀ)F{mc_text}", ce,
        violation=Violation("relative difference from the true gradient", worst[0], "=", 0,
                            case=f"{name}, λ={lam:g}"),
        search=search, minimal_counterexample=mc)


@CLAIM.checker
def check(ctx, norm):
    return [*_closed_form_results(ctx, norm), _gradient_result(ctx, norm),
            _meant_gradient_result(ctx, norm)]


def _closed_form_results(ctx, norm):
    worst, cases, n_pert = _examine(ctx, norm, lambda L, X, lam: np.linalg.solve(
        np.eye(L.shape[0]) + lam * L, X), "paper")
    ev = {"graphs": list(small_graphs(ctx)), "lams": [0.5, 32.0], "cases": cases,
          "perturbations_per_case": n_pert, "tolerance": f"‖∇q‖ ≤ {EXACT_RTOL}·(1+2λ)‖X‖",
          "worst_relative_gradient": worst["grad_rel"], "worst_case": worst.get("graph"),
          "largest_relative_decrease_of_q_by_a_perturbation": worst["worst_relative_drop"],
          "min_eigenvalue_of_I_plus_lam_sym_part": worst["min_curvature"],
          "note": "the paper writes ∇q(F) = 2L̃F + 2(F − X), dropping λ; the closed form keeps it. "
                  "For a non-symmetric L̃ the gradient of tr(FᵀL̃F) is (L̃ + L̃ᵀ)F."}
    atlas, mc, search = _atlas(
        ctx, norm, _stationary_test, certify_gsd_stationary if norm == "rw" else None,
        "max |λ(L̃ᵀ − L̃)(I+λL̃)⁻¹| (the gradient at the closed form for X = I)")
    if _ok(worst) and mc is None:
        return [CLAIM.result(norm, "holds", ev,
                             f"gradient of q at (I+λL̃)⁻¹X ≤ {worst['grad_rel']:.1e} (relative) "
                             f"on {cases} cases; no perturbation lowered q (rel. tol "
                             f"{EXACT_RTOL:g}); {atlas.describe()}", search=search)]
    figs = [] if mc is None else minimal_figure(
        ctx, f"gsd-closed-form-minimal-{norm}.png", mc,
        f"(I+λL̃)⁻¹X is not a minimiser of q ({norm}): minimal counterexample, atlas "
        f"G{mc['atlas_index']}, λ = {mc['lam']:g}, X = I",
        caption=f"certified {mc['certified']}: " + "; ".join(
            f"{k} = {v}" for k, v in mc.get("exact", {}).items() if k != "X"))
    if _ok(worst):
        return [CLAIM.result(norm, "fails", ev, f"atlas minimal counterexample {setting(mc)}",
                             atlas_counterexample(ctx, ID, mc, exact=mc.get("exact")), figs,
                             search=search, minimal_counterexample=mc)]
    ce = counterexample(ID, ctx, graph=(worst["graph"], worst["A"]), lam=worst["lam"],
                        relative_gradient=worst["grad_rel"], q_at_closed_form=worst["q"],
                        max_decrease_of_q_under_random_perturbation=worst[
                            "max_decrease_under_perturbation"],
                        features="X ~ N(0,1), shape (n, 3), from the run seed")
    results = [CLAIM.result(
        norm, "fails", ev,
        f"L̃_rw is not symmetric: ∇q ≠ 0 at (I+λL̃)⁻¹X (relative gradient up to "
        f"{worst['grad_rel']:.2f}, {worst['graph']}, λ={worst['lam']:g}); q decreases by "
        f"{worst['max_decrease_under_perturbation']:.3g} under a perturbation"
        + (f"; minimal: {setting(mc)} ({mc['certified']})" if mc else ""), ce, figs,
        # ∇q = 0 at a minimiser: the size of the violation is the gradient itself.
        violation=Violation("relative gradient ‖∇q‖/((1+2λ)‖X‖)", worst["grad_rel"], "=", 0,
                            case=f"{worst['graph']}, λ={worst['lam']:g}"),
        search=search, minimal_counterexample=mc)]
    return results + [_corrected_result(ctx, norm, ev)]


def _corrected_result(ctx, norm, ev):
    """The nearest corrected statement: the minimiser of q uses the symmetric part of L̃
    (``ev``: the paper's statement's evidence, which this one extends)."""
    w2, cases2, _ = _examine(ctx, norm, lambda L, X, lam: np.linalg.solve(
        np.eye(L.shape[0]) + lam * (L + L.T) / 2, X), "corrected", hypothesis=True)
    atlas2, mc2, search2 = _atlas(ctx, norm, _corrected_test, None,
                                  "max |∇q(F*)| at F* = (I + λ(L̃+L̃ᵀ)/2)⁻¹, X = I")
    outside, mc_out, _ = _atlas(ctx, norm, _outside_test, certify_indefinite,
                                "−λ_min(I + λ(L̃+L̃ᵀ)/2)")
    verdict = "holds" if _ok(w2) and mc2 is None else "fails"
    ev2 = dict(ev, worst_relative_gradient=w2["grad_rel"],
               largest_relative_decrease_of_q_by_a_perturbation=w2["worst_relative_drop"],
               min_eigenvalue_of_I_plus_lam_sym_part=w2["min_curvature"],
               cases_inside_the_hypothesis=cases2,
               outside_the_hypothesis_sampled=w2["outside"],
               outside_the_hypothesis_atlas={
                   "cases": outside.failing_cases, "of": outside.cases,
                   "graphs": len(outside.failing_graphs),
                   "worst_min_eigenvalue": -outside.worst_ratio, "worst": outside.worst,
                   "minimal": mc_out},
               correction="q is minimised by F = (I + λ(L̃ + L̃ᵀ)/2)⁻¹X when I + λ(L̃ + L̃ᵀ)/2 "
                          "is positive definite, and has no minimiser when it has a negative "
                          "eigenvalue; (I + λL̃)⁻¹X is the stationary point only when L̃ is "
                          "symmetric (norm='sym')")
    figs2 = [] if mc_out is None else minimal_figure(
        ctx, f"gsd-closed-form-no-minimiser-{norm}.png", mc_out,
        f"q has no minimiser ({norm}): smallest graph, atlas G{mc_out['atlas_index']}, "
        f"λ = {mc_out['lam']:g}: I + λ(L̃+L̃ᵀ)/2 is indefinite",
        caption=f"certified {mc_out['certified']}: " + "; ".join(
            f"{k}: {v}" for k, v in mc_out["exact"].items()))
    ce2 = None
    if not _ok(w2):
        ce2 = counterexample(CORRECTED.id, ctx, graph=(w2["graph"], w2["A"]), lam=w2["lam"],
                             relative_gradient=w2["grad_rel"])
    elif mc2 is not None:
        ce2 = atlas_counterexample(ctx, CORRECTED.id, mc2)
    out_text = (f"; outside the hypothesis (no minimiser) on {outside.failing_cases:,}/"
                f"{outside.cases:,} atlas cases, smallest {setting(mc_out)}" if mc_out else "")
    return CORRECTED.result(norm, verdict, ev2,
                            f"corrected: (I+λ(L̃+L̃ᵀ)/2)⁻¹X has relative gradient ≤ "
                            f"{w2['grad_rel']:.1e} on {cases2} cases inside the "
                            f"hypothesis; {atlas2.describe()}{out_text}", ce2, figs2,
                            search=search2, minimal_counterexample=mc2)
