"""Eq. 16 → Eq. 17: replacing F by X inside the RNGC inverse.

Eq. 16 is the fixed point F = G(F), G(F) = (I + λL̃ + λε FFᵀ/‖FFᵀ‖_F)⁻¹X. Eq. 17 is G(X) (then
expanded in a Neumann series; with the exact inverse, i.e. S → ∞, it is G(X) itself, since
((λ+1)I − λ(Ã − εP))/(λ+1)·(λ+1) = I + λL̃ + λεP).

The fixed point is computed densely by the damped iteration F_{k+1} = (1−β)F_k + βG(F_k) from
F_0 = X (so the first iterate is Eq. 17), stopping when ‖G(F_k) − F_k‖_F ≤ 1e-10‖F_k‖_F; β = 1
first (60 iterations), then 0.5 (400) and 0.25 (800) if the previous one did not converge. A
case whose iteration never converges has no reference and counts as inconclusive.
"""

from __future__ import annotations

import numpy as np

from ngc_ref import robust_propagate
from ngc_ref.graphs.stochastic import sbm_degrees

from ..kit.evidence import counterexample, dense_laplacian
from ..kit.claim import Violation, claim, extension
from ..output.figures import draws, legend_outside, log_axes, save_figure, subplots
from ..paper.words import generic
from ..kit.stats import class_bag_of_words, loglog_slope, pyg_row_normalize, seed_of

ID = "rngc-approximation"
WORDS = ("Sec. 4.2: 'Note that in Eq. [AGSD, Sec. 4.1] we also require F to be close to X, we can "
         "approximate Eq. (16) by replacing the F with X in the inverse matrix on the right hand "
         "side', and Eq. 17 writes 'H ≈ ...' with no tolerance")
#: Our criterion for the thresholded reading (the paper gives none): relative error of Eq. 17
#: ≤ 10% for ε ≤ 1.
REL_ERR_MAX = 0.10
EPS_MAX = 1.0
#: ε range over which the growth exponent of the error is fitted (the small-ε end, where both
#: Eq. 16 and Eq. 17 tend to NGC's solution).
GROWTH_EPS = (1e-5, 1e-2)
STATEMENT = ("Eq. 17 approximates Eq. 16: F ≈ X inside (I + λL̃ + λεFFᵀ/‖FFᵀ‖_F)⁻¹. The paper "
             "writes '≈' and states no tolerance, so the as-stated result reports the measured "
             "relative error ‖G(X) − F*‖_F/‖F*‖_F (F* the fixed point of Eq. 16, G(X) Eq. 17 with "
             "the exact inverse, S → ∞) over ε ∈ [1e-5, 10] at λ = 32, its growth in ε (log-log "
             "slope over ε ∈ [1e-5, 1e-2]) and its size against the effect of ε itself "
             "‖F* − F_NGC‖/‖F*‖; no verdict rests on a threshold: inconclusive unless the error "
             "is at rounding level (holds).")
CLAIM = claim(ID, "Sec. 4.2, Eq. 16 → Eq. 17 (F ≈ X in RNGC)", STATEMENT, order=120,
              **generic(WORDS),
              rule="generic", seconds=(1.2, 92.0),
              doc=("size and growth of RNGC's F ≈ X error at the fixed point of Eq. 16 (the "
                   "paper gives no tolerance); `:tolerance`: our 10 % criterion"))
TOLERANCE = CLAIM.part(
    "tolerance", f"Eq. 17 is within {REL_ERR_MAX:.0%} of Eq. 16's fixed point: "
                 f"‖G(X) − F*‖_F/‖F*‖_F ≤ {REL_ERR_MAX:.0%} for every ε ≤ {EPS_MAX:g} (λ = 32).",
    scope=extension(f"the {REL_ERR_MAX:.0%} tolerance at ε ≤ {EPS_MAX:g} is ours: {WORDS}"),
    norm_scopes={})
#: Below this relative error RNGC's Eq. 17 is Eq. 16's solution up to rounding: the only
#: threshold-free 'holds' of '≈'.
ROUNDING = 1e-8

LAM = 32.0
TOL = 1e-10
#: (damping β, iteration cap) tried in turn; plain iteration oscillates for large λε.
SCHEDULE = ((1.0, 60), (0.5, 400), (0.25, 800))


def _G(K, lam, eps, F, X):
    FF = F @ F.T
    nrm = np.linalg.norm(FF)
    M = K + (lam * eps / nrm) * FF if nrm > 0 else K
    return np.linalg.solve(M, X)


def fixed_point(L, X, lam, eps):
    """F* of Eq. 16 by damped iteration; returns (F, info dict)."""
    K = np.eye(L.shape[0]) + lam * L
    total = 0
    for beta, maxiter in SCHEDULE:
        F = X.copy()
        for k in range(1, maxiter + 1):
            G = _G(K, lam, eps, F, X)
            res = np.linalg.norm(G - F) / max(np.linalg.norm(F), 1e-300)
            F = (1 - beta) * F + beta * G
            total += 1
            if res <= TOL:
                return F, {"converged": True, "iterations": k, "beta": beta, "residual": res,
                           "iterations_all_attempts": total}
    return F, {"converged": False, "iterations": maxiter, "beta": beta, "residual": res,
               "iterations_all_attempts": total}


def approximation(L, X, lam, eps):
    """Eq. 17 with the exact inverse: G(X)."""
    return _G(np.eye(L.shape[0]) + lam * L, lam, eps, X, X)


def error_curve(A, X, lam, norm, eps_grid):
    L = dense_laplacian(A, norm)
    F0 = np.linalg.solve(np.eye(L.shape[0]) + lam * L, X)
    rows = []
    for eps in eps_grid:
        Fs, info = fixed_point(L, X, lam, eps)
        Fa = approximation(L, X, lam, eps)
        nF = np.linalg.norm(Fs)
        H16 = robust_propagate(A, X, lam, 16, eps, norm=norm)
        rows.append({"eps": float(eps), "rel_error": float(np.linalg.norm(Fa - Fs) / nF),
                     "effect_of_eps": float(np.linalg.norm(Fs - F0) / nF),
                     "rngc_S16_rel_error": float(np.linalg.norm(H16 - Fs) / nF), **info})
    return rows


def judge(curves, rel_max=REL_ERR_MAX, eps_max=EPS_MAX):
    """fails on a converged case above rel_max at ε ≤ eps_max; inconclusive if any such case
    did not converge; else holds. Returns (verdict, worst (case, row))."""
    worst, unconv = None, []
    for case, rows in curves.items():
        for r in rows:
            if r["eps"] > eps_max:
                continue
            if not r["converged"]:
                unconv.append((case, r))
                continue
            if worst is None or r["rel_error"] > worst[1]["rel_error"]:
                worst = (case, r)
    if worst is not None and worst[1]["rel_error"] > rel_max:
        return "fails", worst
    if unconv:
        return "inconclusive", unconv[0]
    return "holds", worst


def _cases(ctx):
    n = 90 if not ctx.thorough else 300
    out = {}
    for name, (deg_in, deg_out) in (("homophilous-sbm", (6.0, 1.0)),
                                    ("heterophilous-sbm", (1.0, 6.0))):
        s = seed_of(ctx.rng(ID, "graph", name))
        A, y = sbm_degrees(n, 3, deg_in, deg_out, s)
        Xc = pyg_row_normalize(class_bag_of_words(ctx.rng(ID, "features", name), y, d=60,
                                                  words_per_node=8))
        out[f"{name}-{n}-seed{s}/clean"] = (A, Xc)
        noisy = Xc + 0.1 * ctx.rng(ID, "noise", name).standard_normal(Xc.shape)
        out[f"{name}-{n}-seed{s}/noisy"] = (A, noisy)
    return out


@draws("rngc-approximation-{norm}.png")
def _figure(path, norm, curves):
    from matplotlib.lines import Line2D

    fig, ax = subplots(figsize=(10, 4.4))
    handles = []
    for k, (case, rows) in enumerate(curves.items()):
        col = f"C{k % 10}"
        ax.plot([r["eps"] for r in rows], [r["rel_error"] for r in rows], "o-", color=col)
        ax.plot([r["eps"] for r in rows], [r["effect_of_eps"] for r in rows], ":", color=col)
        handles.append(Line2D([], [], color=col, lw=2, label=case))
    ax.axhline(REL_ERR_MAX, color="k", ls="--")
    ax.axvline(EPS_MAX, color="grey", lw=0.8)
    handles += [Line2D([], [], color="k", marker="o",
                       label="rel. error of RNGC (Eq. 17) vs Eq. 16"),
                Line2D([], [], color="k", ls=":", label="‖F* − F_NGC‖ / ‖F*‖ (effect of ε)"),
                Line2D([], [], color="k", ls="--", label=f"criterion {REL_ERR_MAX:.0%}"),
                Line2D([], [], color="grey", lw=0.8, label=f"ε = {EPS_MAX:g} (end of the judged "
                                                           "range)")]
    log_axes([ax], "ε")
    ax.set_ylabel("relative error")
    legend_outside(fig, ax, handles, [h.get_label() for h in handles])
    ax.set_title(f"RNGC: the F ≈ X approximation (Eq. 17 vs Eq. 16), λ={LAM:g}, norm={norm}",
                 fontsize=11)
    return save_figure(fig, path)


def growth(curves, eps_range=GROWTH_EPS):
    """Per case, the log-log slope of the relative error against ε over ``eps_range`` (converged
    points with a positive error), and the largest error over the ε-effect ratio at ε ≤ EPS_MAX."""
    out = {}
    for case, rows in curves.items():
        pts = [(r["eps"], r["rel_error"]) for r in rows if r["converged"] and r["rel_error"] > 0
               and eps_range[0] <= r["eps"] <= eps_range[1]]
        ratio = [r["rel_error"] / r["effect_of_eps"] for r in rows
                 if r["converged"] and r["eps"] <= EPS_MAX and r["effect_of_eps"] > 0]
        out[case] = {"loglog_slope_error_vs_eps": (loglog_slope(*zip(*pts)) if len(pts) >= 2
                                                   else None),
                     "max_error_over_effect_of_eps": max(ratio) if ratio else None}
    return out


def judge_as_stated(curves):
    """'≈' without a tolerance: holds only at rounding level (RNGC's Eq. 17 is then Eq. 16's
    solution), else inconclusive; the measured size and growth are the result. Returns
    (verdict, worst)."""
    conv = [(case, r) for case, rows in curves.items() for r in rows
            if r["converged"] and r["eps"] <= EPS_MAX]
    worst = max(conv, key=lambda cr: cr[1]["rel_error"]) if conv else None
    if worst is not None and worst[1]["rel_error"] <= ROUNDING and len(conv) == sum(
            r["eps"] <= EPS_MAX for rows in curves.values() for r in rows):
        return "holds", worst
    return "inconclusive", worst


@CLAIM.checker
def check(ctx, norm):
    eps_grid = (np.array([1e-5, 1e-4, 1e-3, 1e-2, 3e-2, 1e-1, 3e-1, 1.0, 3.0, 10.0])
                if not ctx.thorough else np.logspace(-5, 1, 25))
    cases = _cases(ctx)
    curves = {name: error_curve(A, X, LAM, norm, eps_grid) for name, (A, X) in cases.items()}
    figs = _figure(ctx, norm, curves)
    grow = growth(curves)
    base = {"lam": LAM, "eps_grid": eps_grid,
            "iteration": f"damped fixed point from F_0 = X, stop at ‖G(F)−F‖ ≤ {TOL:g}‖F‖; "
                         f"(β, cap) tried in turn: {SCHEDULE}",
            "features": "row-normalised class bag-of-words (3 classes, d = 60, 8 words/node); "
                        "'noisy' adds 0.1·N(0,1)",
            "curves": curves, "growth": grow,
            "note": "rngc_S16_rel_error is Eq. 17 truncated at S = 16 (robust_propagate): its "
                    "error is dominated by the truncation (mass 1 − r^17 ≈ 0.41 at λ = 32), not "
                    "by F ≈ X."}
    return [_as_stated(ctx, norm, curves, grow, base, figs),
            _tolerance(ctx, norm, cases, curves, base, figs)]


def _as_stated(ctx, norm, curves, grow, base, figs):
    verdict, worst = judge_as_stated(curves)
    slopes = [g["loglog_slope_error_vs_eps"] for g in grow.values()
              if g["loglog_slope_error_vs_eps"] is not None]
    over = [g["max_error_over_effect_of_eps"] for g in grow.values()
            if g["max_error_over_effect_of_eps"] is not None]
    ev = dict(base, words=WORDS,
              why_no_threshold="the paper writes '≈' and gives no tolerance, so a fails or holds "
                               "at a chosen tolerance is ours (rngc-approximation:tolerance); "
                               f"holds here only at rounding level (≤ {ROUNDING:g})")
    if worst is None:
        return CLAIM.result(norm, "inconclusive", ev, "no case converged: no reference")
    wcase, wrow = worst
    ev.update(worst_case=wcase, worst=wrow)
    summ = (f"'≈' states no tolerance; measured: relative error up to {wrow['rel_error']:.3g} "
            f"at ε ≤ {EPS_MAX:g} ({wcase} ε={wrow['eps']:.2g}); it grows as ε^"
            f"{min(slopes):.2f}..ε^{max(slopes):.2f} for ε ∈ [{GROWTH_EPS[0]:g}, "
            f"{GROWTH_EPS[1]:g}] and reaches {max(over):.2g}× the effect of ε itself "
            "(‖F* − F_NGC‖/‖F*‖)" if slopes and over else
            f"'≈' states no tolerance; relative error up to {wrow['rel_error']:.3g}")
    return CLAIM.result(norm, verdict, ev, summ, figures=figs)


def _tolerance(ctx, norm, cases, curves, base, figs):
    verdict, (wcase, wrow) = judge(curves)
    ev = dict(base, criterion=f"ours: ‖G(X) − F*‖_F/‖F*‖_F ≤ {REL_ERR_MAX:.0%} for every "
                              f"ε ≤ {EPS_MAX:g}", worst_case=wcase, worst=wrow)
    big = [(case, r["eps"], r["rel_error"]) for case, rows in curves.items() for r in rows
           if r["converged"] and r["rel_error"] > REL_ERR_MAX]
    ev["cases_above_criterion"] = big
    summ = (f"worst at ε ≤ {EPS_MAX:g}: {wcase} ε={wrow['eps']:.2g}: rel. error "
            f"{wrow['rel_error']:.3g} (ε-effect {wrow['effect_of_eps']:.3g}); "
            f"{len(big)} grid points above {REL_ERR_MAX:.0%} (our tolerance) over ε ≤ 10")
    ce = None
    if verdict == "fails":
        A, _X = cases[wcase]
        ce = counterexample(TOLERANCE.id, ctx, graph=(wcase, A), lam=LAM, eps=wrow["eps"],
                            norm=norm, rel_error=wrow["rel_error"],
                            iterations=wrow["iterations"], tolerance=REL_ERR_MAX,
                            features=f"ctx.rng('{ID}', 'features', ...) as in _cases")
    return TOLERANCE.result(norm, verdict, ev, summ, ce, figs,
                            violation=Violation(
                                "relative error ‖G(X) − F*‖_F/‖F*‖_F", wrow["rel_error"], "≤",
                                REL_ERR_MAX, "our criterion",
                                case=f"{wcase} ε={wrow['eps']:.2g}") if ce else None)
