"""Theorem 1's figures: the fixed-λ trajectories and floor (``theorem-1-<norm>.png``) and the
in-hypotheses assumptions and ratios (``theorem-1-hypotheses-<norm>.png``)."""

from __future__ import annotations

import numpy as np

from ...paper.bounds import floor_tau_over_n, grown_lam_S
from ...output.figures import draws, legend_outside, save_figure, subplots
from .fixed_lambda import D, per_graph
from .part_c import fitted_constant_violation
from .statements import LAM, SIGMA, S


@draws("theorem-1-{norm}.png")
def fixed_figure(path, norm, rows):
    graphs = per_graph(rows)
    C2 = fitted_constant_violation(rows)[0]
    import matplotlib

    fig, axes = subplots(1, 2, figsize=(13, 4.6))
    ns = sorted({r["n"] for r in rows})
    colours = matplotlib.colormaps["viridis"](np.linspace(0, 0.9, len(ns)))
    first = {}
    for r in rows:
        first.setdefault(r["n"], r)
    for col, n in zip(colours, ns):
        r = first[n]
        k = np.unique(np.round(np.geomspace(1, r["k"][-1], 80)).astype(int))
        axes[0].loglog(k, np.maximum(r["g_gap"][k], 1e-12), color=col, label=f"n={n}")
        axes[0].loglog(k, r["opt_term"][k], "--", color=col, lw=0.8)
        axes[0].axhline(r["floor"], color=col, ls=":", lw=0.8)
    axes[0].set_xlabel("k")
    axes[0].set_title("g(W^(k)) − g(W_g*) (solid), ‖W⁰−W_g*‖²/(2kα) (dashed),\n"
                      "floor g(W_f*) − g(W_g*) (dotted); first draw per n", fontsize=9)
    axes[0].set_ylabel("clean-loss gap g(W) − g(W_g*)")
    legend_outside(fig, axes[0], fontsize=7)
    axes[1].loglog([r["n"] for r in rows], [r["floor"] for r in rows], ".", color="C0",
                   alpha=0.5, label="floor (each draw)")
    axes[1].loglog([g["n"] for g in graphs], [g["floor_mean"] for g in graphs], "o", color="C0",
                   label="floor (mean per graph)")
    gs = sorted(graphs, key=lambda g: g["n"])
    axes[1].loglog([g["n"] for g in gs], [C2 * g["tau_log_n_over_n"] for g in gs], "s--",
                   color="C3", label=f"C2·τ log n/n, C2={C2:.3g} fitted on n ≤ "
                                     f"{ns[(len(ns) - 1) // 2]}")
    axes[1].loglog([g["n"] for g in gs], [g["tau_log_n_over_n"] for g in gs], "x:",
                   color="C3", label="τ log n / n")
    axes[1].set_xlabel("n")
    axes[1].set_xticks(ns, [str(n) for n in ns], minor=False)
    axes[1].set_xticks([], minor=True)
    axes[1].set_title("noise floor vs the τ log n / n term", fontsize=9)
    axes[1].set_ylabel("floor g(W_f*) − g(W_g*);  τ log n / n")
    legend_outside(fig, axes[1], fontsize=7)
    fig.suptitle(f"Theorem 1, contextual SBM, λ={LAM:g}, S={S}, d={D}, σ={SIGMA:g}, norm={norm}",
                 fontsize=11)
    return save_figure(fig, path)


@draws("theorem-1-hypotheses-{norm}.png")
def hypotheses_figure(path, norm, fams):
    fig, axes = subplots(1, 3, figsize=(16, 4.6))
    for j, family in enumerate(fams):
        rec, col = fams[family], f"C{j}"
        if "A2" in rec:
            per = rec["A2"]["per_n"]
            axes[0].loglog([p["n"] for p in per], [p["tau_over_n_max"] for p in per], "o-",
                           color=col, label=family)
        if rec["inside"] or "sum" in rec:
            for reading, ls in (("sum", "-"), ("mean", "--")):
                t = rec[reading][1]
                axes[1].loglog(t[0.5]["x"], t[0.5]["quantile"], ls, marker="o", color=col,
                               label=f"{family}, {reading}: median")
                axes[1].loglog(t[0.9]["x"], t[0.9]["quantile"], "^", color=col, ms=4,
                               alpha=0.6)
        per = rec["A3"]["per_n"]
        axes[2].loglog([p["n"] for p in per], [p["max_k_W_k_norm_max"] for p in per], "o-",
                       color=col, label=f"{family}: max_k ‖W^(k)‖")
        axes[2].loglog([p["n"] for p in per], [p["W_g_norm_max"] for p in per], "x:",
                       color=col, label=f"{family}: ‖W_g*‖")
    per = next(iter(fams.values()))["graphs"]
    ns = sorted({g["n"] for g in per})
    axes[0].loglog(ns, [floor_tau_over_n(*grown_lam_S(n)) for n in ns], "k--", lw=0.8,
                   label="floor 1/((λ+1)(1−r^{S+1}))²")
    axes[0].set_title("Assumption 2: τ/n (largest per n), λ=√n, S=⌈2λ⌉", fontsize=9)
    axes[1].set_title("floor/(τ log n/n): median (line) and 90% quantile (▲);\n"
                      "sum reading solid, mean reading dashed", fontsize=9)
    axes[2].set_title("Assumption 3: largest ‖W‖_F per n", fontsize=9)
    ticks = [n for n in (64, 128, 256, 400, 800, 1600, 3200, 6400, 12800, 25600, 51200, 102400)
             if ns[0] <= n <= ns[-1] * 1.01]
    for ax in axes:
        ax.set_xlabel("n")
        ax.set_xticks(ticks, [str(n) for n in ticks], minor=False)
        ax.set_xticks([], minor=True)
    legend_outside(fig, axes[0], fontsize=7)
    legend_outside(fig, axes[2], fontsize=6)
    fig.suptitle(f"Theorem 1 inside its hypotheses, norm={norm}", fontsize=11)
    return save_figure(fig, path)

