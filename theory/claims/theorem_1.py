"""Theorem 1 (Eq. 10): gradient descent on noisy features nearly minimises the clean loss.

Notation: Z* = Ã_S X*, Z_η = Ã_S η, Z = Z* + Z_η, f(W) = ‖ZW − Y‖_F², g(W) = ‖Z*W − Y‖_F²,
W^(k) the k-th GD iterate on f from W⁰ = 0 with α = 1/L, L = 2σ_max(Z)², W_g* = argmin g,
W_f* = argmin f (the limit of W^(k)). The theorem states, with probability 1 − 1/d,

    g(W^(k)) − g(W_g*) ≤ O(1/(2kα)) + O(τ log n / n).

The O(·) hide constants; the proof's first term is exactly ‖W⁰ − W_g*‖²/(2kα), the second is never
given a constant. The check runs :func:`ngc_ref.training.theory_trajectory` on contextual SBMs of
growing n (4 balanced classes, expected degree 16 inside / 4 outside the class, so the graphs stay
sparse and τ is not dominated by the odd isolated or degree-1 node; X* = one-hot class means, d =
4, so Z* has full column rank; η i.i.d. N(0, 1), sub-Gaussian with σ = 1) at the paper's λ = 32, S
= 16: several graphs per n (fewer for large n, where τ is expensive) and several noise draws per
graph, W⁰ = 0, α = 1/L. τ is computed exactly in the normalisation under test. It tests three
precise readings:

(a) the proof's optimisation step f(W^(k)) − f(W_g*) ≤ ‖W⁰ − W_g*‖²/(2kα) for every k ≥ 1
    (an exact inequality of convex GD; relative tolerance 1e-9 of max_k f for rounding);
(b) the optimisation part e(k) = g(W^(k)) − g(W_f*) decays at least as 1/k: the log-log slope of
    its tail envelope E(k) = max_{j≥k} |e(j)| is ≤ −1 (per run; 95% t-interval over runs);
(c) the noise floor g(W_f*) − g(W_g*) (the k → ∞ value of the left side) is O(τ log n / n):
    the log-log slope in n of floor/(τ log n/n) is ≤ 0 (OLS over graphs, one point per graph
    with its draws averaged, 95% t-interval). A fitted constant C2 = max of that ratio over the
    lower half of the n grid is then applied at the largest n: a measured g(W^(k)) above
    ‖W⁰ − W_g*‖²/(2kα) + C2·τ log n/n is reported as the counterexample, or, if the grid is too
    short for that, the n at which the fitted power laws cross (a finite grid cannot refute an
    asymptotic O(·); the slope and the mechanism below are the evidence).

Mechanism: at fixed λ every Ã_S has [Ã_S]_ii ≥ 1/(λ+1), so E‖Z_η‖_F² = σ²d‖Ã_S‖_F² ≥
σ²dn/(λ+1)² grows linearly in n; W_f* is an errors-in-variables estimate whose attenuation does
not vanish, so the floor per node should tend to a positive constant (on the default grid the
floor behaves like a·n + b: log-log slope about 1/2 to 3/4 over n = 200..3200), while τ log n / n ≥
log n/((λ+1)m)² (assumption-2) grows like log n only. In the proof, the last display bounds
|⟨Ã_SηW, Ã_SX*W − Y⟩| by ‖Ã_Sη‖_F²‖W‖_F²·‖Ã_SX*W − Y‖_F² (the powers of Cauchy-Schwarz are
wrong), keeps ‖Ã_SX*W − Y‖_F ~ √n inside the "constant", and takes ‖Ã_Sη‖_F² from Lemma 1,
whose bound is too small by a factor of order nd (see lemma-1).

Corrected statement (``theorem-1-corrected``), from the proof's own decomposition
g(W) − g(W_g*) = f(W) − f(W_g*) + h(W_g*) − h(W), h(W) = 2⟨Z_ηW, Z*W − Y⟩ + ‖Z_ηW‖_F², and
Cauchy-Schwarz:

    g(W^(k)) − g(W_g*) ≤ ‖W⁰ − W_g*‖²/(2kα) + N(W_g*) + N(W^(k)),
    N(W) = 2‖Z_η‖_F‖W‖_F‖Z*W − Y‖_F + ‖Z_η‖_F²‖W‖_F²,

exact for every k, both normalisations (the constant-free core of the proof). With W⁰ = 0 (so
‖ZW^(k) − Y‖ ≤ ‖Y‖ by descent), C ≥ ‖W_g*‖_F, ‖W^(k)‖_F and lemma-1-corrected's ‖Z_η‖_F² ≤ B =
2τm²σ²d·log(2nd²) (prob. ≥ 1 − 1/d), it gives g(W^(k)) − g(W_g*) ≤ ‖W_g*‖²/(2kα) + 4C√B‖Y‖_F +
4C²B, which does not vanish with n (‖Y‖_F = √n). Checked with relative tolerance 1e-9 at every (n,
graph, draw, k)."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ngc_ref import connectivity_factor, series_mass
from ngc_ref.graphs import contextual_sbm
from ngc_ref.training import theory_trajectory

from .._common import counterexample
from .._core import claim
from .._paper import THEORY_RW_DEFAULT, THEORY_RW_NORMS
from .._figures import legend_outside, save_figure, subplots
from .._stats import CONFIDENCE, seed_of

ID = "theorem-1"
STATEMENT = ("Theorem 1 (Eq. 10): with probability 1 − 1/d the k-th GD iterate on the noisy loss f "
             "(step α ≤ 1/L) satisfies g(W_f^(k)) − g(W_g*) ≤ O(1/(2kα)) + O(τ log n / n). "
             "Tested on contextual SBMs of growing n at λ = 32, S = 16: (a) the proof's step "
             "f(W^(k)) − f(W_g*) ≤ ‖W⁰−W_g*‖²/(2kα); (b) g(W^(k)) − g(W_f*) decays at least as "
             "1/k (fitted exponent, 95% CI); (c) the floor g(W_f*) − g(W_g*) is O(τ log n/n) "
             "(log-log slope of floor/(τ log n/n) vs n ≤ 0, 95% CI).")
CLAIM = claim(ID, "Theorem 1, Eq. 10 (proof: appendix 'Proof of the Main Theorem')", STATEMENT,
              order=100, scope=THEORY_RW_DEFAULT, norm_scopes=THEORY_RW_NORMS)
PART_A = CLAIM.part("a", "The proof's optimisation step: f(W^(k)) − f(W_g*) ≤ ‖W⁰ − W_g*‖²/(2kα) "
                         "for every k ≥ 1 (exact inequality of convex GD).")
PART_B = CLAIM.part("b", "The optimisation part g(W^(k)) − g(W_f*) decays at least as 1/k "
                         "(the O(1/(2kα)) term): tail log-log slope in k ≤ −1.")
PART_C = CLAIM.part("c", "The noise floor g(W_f*) − g(W_g*) (the k → ∞ value of the left side) "
                         "is O(τ log n / n): the log-log slope in n of floor/(τ log n/n) is ≤ 0.")
CORRECTED = CLAIM.corrected(
    "g(W^(k)) − g(W_g*) ≤ ‖W⁰ − W_g*‖²/(2kα) + N(W_g*) + N(W^(k)) for every k, with "
    "N(W) = 2‖Ã_Sη‖_F‖W‖_F‖Ã_SX*W − Y‖_F + ‖Ã_Sη‖_F²‖W‖_F² (the proof's own decomposition "
    "with Cauchy–Schwarz; its noise term does not vanish as n grows).")

LAM, S = 32.0, 16
#: Contextual SBM: classes, feature dimension, expected in/out-class degree, clean row norm, σ.
K_CLASSES, D, DEG_IN, DEG_OUT, SIGNAL, SIGMA = 4, 4, 16.0, 4.0, 1.0, 1.0
#: GD steps (default, thorough); E(k) reaches rounding by k ≈ 250 on these graphs (cond(Z) ≤ 4).
STEPS, STEPS_THOROUGH = 600, 3000
#: Relative slack (of the largest loss value in a run) for the exact inequalities (a), corrected.
EXACT_RTOL = 1e-9
#: E(k) below this fraction of g(W_g*) + 1 is rounding, not optimisation error.
ENVELOPE_FLOOR = 1e-9


def csbm_params(n):
    """Contextual-SBM parameters at n nodes (fixed expected degrees, so τ/n does not vanish)."""
    size = n // K_CLASSES
    return dict(n=n, k=K_CLASSES, p_in=min(1.0, DEG_IN / max(size - 1, 1)),
                p_out=min(1.0, DEG_OUT / max(n - size, 1)), d=D, signal=SIGNAL,
                noise_std=0.0, means="onehot")


def design(ctx):
    """(sizes, graphs per size, noise draws per graph, GD steps).

    τ of one graph costs O(S·nnz·n), so the large sizes get fewer graphs; every graph is one
    point of the floor-vs-n regression (its noise draws are averaged).
    """
    if ctx.thorough:
        return (200, 400, 800, 1600, 3200, 6400), (6, 6, 6, 4, 3, 2), 6, STEPS_THOROUGH
    return (200, 400, 800, 1600, 3200), (3, 3, 2, 2, 1), 2, STEPS


def noise_term_N(noise_fro, W_norm, resid):
    """N(W) = 2‖Z_η‖_F‖W‖_F‖Z*W − Y‖_F + ‖Z_η‖_F²‖W‖_F² (arrays broadcast)."""
    return 2.0 * noise_fro * W_norm * resid + noise_fro**2 * W_norm**2


def draw_graph(n, graph_seed):
    """The contextual SBM (graph, X*, Y) at n nodes from an integer seed (η is drawn apart)."""
    return contextual_sbm(**csbm_params(n), seed=graph_seed)


def draw_noise(n, noise_seed):
    """η: i.i.d. N(0, σ²) entries, n × d, from an integer seed (Assumption 1 with parameter σ)."""
    return SIGMA * np.random.default_rng(noise_seed).standard_normal((n, D))


def run_one(data, eta, norm, tau, steps=STEPS):
    """One GD trajectory on (graph, X*, Y) of ``data`` with noise ``eta``; a dict of its numbers.

    ``tau`` is τ of the graph in ``norm`` (computed once per graph by the caller).
    """
    n = data.n
    tr = theory_trajectory(data.adjacency, data.X_clean, eta, data.Y, LAM, S, norm=norm,
                           steps=steps, tau=tau, tau_norm=norm, seed=0)
    k = tr.k
    g_star = tr.lstsq_g.objective
    floor = tr.g_gap_limit
    scale = max(1.0, float(np.max(np.abs(tr.f))), float(np.max(tr.g_gap)) + g_star)
    # (a) the proof's descent inequality.
    slack_a = tr.f_gap_at_Wg[1:] - tr.opt_term[1:]
    # (b) envelope of e(k) = g(W^k) − g(W_f*).
    e = np.abs(tr.g_gap - floor)
    env = np.maximum.accumulate(e[::-1])[::-1]
    # corrected: exact decomposition bound at every k.
    nf = math.sqrt(tr.noise_norm_sq)
    res_k = np.sqrt(np.maximum(tr.g_gap + g_star, 0.0))
    Wg_norm = float(np.linalg.norm(tr.W_g_star))
    N_g = float(noise_term_N(nf, Wg_norm, math.sqrt(max(g_star, 0.0))))
    N_k = noise_term_N(nf, tr.W_norm, res_k)
    corr_bound = tr.opt_term[1:] + N_g + N_k[1:]
    # closed form with lemma-1-corrected's B and C = max ‖W‖.
    m = series_mass(LAM, S)
    B = 2.0 * tr.tau * m**2 * SIGMA**2 * D * math.log(2.0 * n * D * D)
    C = max(Wg_norm, float(np.max(tr.W_norm)))
    y_fro = math.sqrt(float(np.sum(data.Y**2)))
    closed_noise = 4.0 * C * math.sqrt(B) * y_fro + 4.0 * C**2 * B
    return {
        "n": n, "norm": norm, "tau": tr.tau, "tau_log_n_over_n": tr.noise_term,
        "alpha": tr.alpha, "L": tr.L, "dist0_sq": float(np.sum(tr.W_g_star**2)),
        "g_star": g_star, "floor": floor, "g_gap_last": float(tr.g_gap[-1]),
        "rank_Z": tr.lstsq_f.rank, "rank_Zstar": tr.lstsq_g.rank, "cond_Z": tr.lstsq_f.cond,
        "noise_norm_sq": tr.noise_norm_sq, "W_g_norm": Wg_norm, "W_max_norm": C,
        "y_fro": y_fro, "scale": scale, "steps": tr.n_steps,
        "a_max_slack": float(np.max(slack_a)), "a_max_ratio": float(np.max(
            tr.f_gap_at_Wg[1:] / tr.opt_term[1:])),
        "corr_max_slack": float(np.max(tr.g_gap[1:] - corr_bound)),
        "corr_max_ratio": float(np.max(tr.g_gap[1:] / corr_bound)),
        "lemma1_B": B, "noise_below_B": bool(tr.noise_norm_sq <= B),
        "closed_form_noise_term": closed_noise,
        "closed_form_holds": bool(np.all(tr.g_gap[1:] <= tr.opt_term[1:] + closed_noise
                                         + EXACT_RTOL * scale)),
        "k": k, "g_gap": tr.g_gap, "opt_term": tr.opt_term, "envelope": env}


def envelope_exponent(k, env, g_star, floor_frac=ENVELOPE_FLOOR):
    """Slope of log E(k) vs log k on a geometric k grid from 1 to the last k above rounding.

    Returns (slope, number of grid points, k_end); slope is nan with fewer than 4 points.
    ``k_end`` equal to the last k means E never reached rounding (GD not converged).
    """
    tol = floor_frac * (abs(g_star) + 1.0)
    above = np.nonzero(env > tol)[0]
    k_end = int(k[above[-1]]) if above.size else 0
    if k_end < 4:
        return float("nan"), 0, k_end
    grid = np.unique(np.round(np.geomspace(1, k_end, 25)).astype(int))
    grid = grid[env[grid] > tol]
    if grid.size < 4:
        return float("nan"), int(grid.size), k_end
    slope = np.polyfit(np.log(grid), np.log(env[grid]), 1)[0]
    return float(slope), int(grid.size), k_end


def mean_ci(x, conf=CONFIDENCE):
    """Mean and two-sided t-interval of the mean (nan interval for fewer than 2 values)."""
    x = np.asarray(x, dtype=float)
    mu = float(np.mean(x))
    if x.size < 2:
        return mu, (float("nan"), float("nan"))
    half = stats.t.ppf(0.5 + conf / 2, x.size - 1) * np.std(x, ddof=1) / math.sqrt(x.size)
    return mu, (mu - half, mu + half)


def slope_ci(x, y, conf=CONFIDENCE):
    """OLS slope of y on x with a two-sided t-interval (df = len − 2)."""
    fit = stats.linregress(x, y)
    half = stats.t.ppf(0.5 + conf / 2, len(x) - 2) * fit.stderr
    return float(fit.slope), (float(fit.slope - half), float(fit.slope + half))


def judge_exponents(slopes, conf=CONFIDENCE):
    """(b): "decays at least as 1/k" ⇔ slope ≤ −1. Verdict from the t-interval of the mean."""
    mu, (lo, hi) = mean_ci(slopes, conf)
    if hi <= -1.0:
        return "holds", mu, (lo, hi)
    if lo > -1.0:
        return "fails", mu, (lo, hi)
    return "inconclusive", mu, (lo, hi)


def judge_floor(ns, floors, noise_terms, conf=CONFIDENCE):
    """(c): slope of log(floor/(τ log n/n)) on log n; ≤ 0 holds, > 0 (whole CI) fails."""
    ns, floors, noise_terms = (np.asarray(a, dtype=float) for a in (ns, floors, noise_terms))
    if np.any(floors <= 0):
        raise ValueError("the floor g(W_f*) − g(W_g*) must be positive for a log-log fit "
                         "(a zero floor means W_f* minimises g: no noise effect to measure)")
    slope, (lo, hi) = slope_ci(np.log(ns), np.log(floors / noise_terms), conf)
    if hi <= 0:
        return "holds", slope, (lo, hi)
    if lo > 0:
        return "fails", slope, (lo, hi)
    return "inconclusive", slope, (lo, hi)


def fitted_constant_violation(rows):
    """C2 = max floor/(τ log n/n) over the lower half of the n grid, applied at the largest n.

    Returns (C2, worst row at the largest n, its last k, measured g-gap, bound) where the bound is
    ‖W⁰ − W_g*‖²/(2kα) + C2·τ log n/n at the last iterate.
    """
    ns = sorted({r["n"] for r in rows})
    low = [r for r in rows if r["n"] <= ns[(len(ns) - 1) // 2]]
    C2 = max(r["floor"] / r["tau_log_n_over_n"] for r in low)
    top = [r for r in rows if r["n"] == ns[-1]]
    best = None
    for r in top:
        kk = int(r["k"][-1])
        bound = float(r["opt_term"][-1] + C2 * r["tau_log_n_over_n"])
        meas = float(r["g_gap"][-1])
        if best is None or meas / bound > best[2] / best[3]:
            best = (r, kk, meas, bound)
    return (C2, *best)


def _public(r):
    skip = ("A", "k", "g_gap", "opt_term", "envelope")
    return {k: v for k, v in r.items() if k not in skip}


def _figure(ctx, norm, rows, graphs, C2):
    path = ctx.figure_path(f"theorem-1-{norm}.png")
    if path is None:
        return []
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
    return [save_figure(fig, path)]


def run_rows(ctx, norm):
    """Every (n, graph, noise draw) trajectory. Graphs and η do not depend on ``norm``."""
    sizes, graphs, draws, steps = design(ctx)
    rows = []
    for n, n_graphs in zip(sizes, graphs):
        for g in range(n_graphs):
            graph_seed = seed_of(ctx.rng(ID, "csbm", n, g))
            data = draw_graph(n, graph_seed)
            tau = connectivity_factor(data.adjacency, LAM, S, norm=norm).tau
            for r in range(draws):
                noise_seed = seed_of(ctx.rng(ID, "eta", n, g, r))
                row = run_one(data, draw_noise(n, noise_seed), norm, tau, steps)
                row.update(graph=g, graph_seed=graph_seed, draw=r, noise_seed=noise_seed,
                           A=data.adjacency)
                rows.append(row)
    return rows


def per_graph(rows):
    """Mean floor per graph (over its noise draws) with the graph's n and τ log n / n."""
    out = {}
    for r in rows:
        out.setdefault((r["n"], r["graph_seed"]), []).append(r)
    return [{"n": n, "graph_seed": gs, "tau": rs[0]["tau"],
             "tau_log_n_over_n": rs[0]["tau_log_n_over_n"],
             "floor_mean": float(np.mean([r["floor"] for r in rs])),
             "floor_sd": float(np.std([r["floor"] for r in rs], ddof=1)) if len(rs) > 1 else 0.0,
             "draws": len(rs)} for (n, gs), rs in sorted(out.items())]


def _graph_of(r):
    return (f"csbm-{r['n']}-seed{r['graph_seed']}", r["A"])


def _where(r):
    return dict(params=csbm_params(r["n"]), graph_seed=r["graph_seed"],
                noise_seed=r["noise_seed"], lam=LAM, S=S, norm=r["norm"],
                rebuild="data = ngc_ref.graphs.contextual_sbm(**params, seed=graph_seed); eta = "
                        f"{SIGMA:g} * numpy.random.default_rng(noise_seed).standard_normal((n, "
                        f"{D})); theory_trajectory(data.adjacency, data.X_clean, eta, data.Y, "
                        f"lam, S, norm=norm, steps=steps, tau_norm=norm)")


@CLAIM.checker
def check(ctx, norm):
    rows = run_rows(ctx, norm)
    graphs = per_graph(rows)
    sizes, n_graphs, draws, steps = design(ctx)
    common = {"lam": LAM, "S": S, "csbm": {k: v for k, v in csbm_params(sizes[0]).items()
                                           if k not in ("n", "p_in", "p_out")},
              "noise": f"η i.i.d. N(0, {SIGMA:g}²), n × {D}",
              "expected_degree_in_out": [DEG_IN, DEG_OUT], "sizes": list(sizes),
              "graphs_per_size": list(n_graphs), "noise_draws_per_graph": draws, "steps": steps,
              "W0": "zeros", "alpha": "1/L, L = 2σ_max(Ã_S X)²", "tau_norm": norm,
              "confidence": CONFIDENCE,
              "seed_streams": f"graph: ctx.rng('{ID}', 'csbm', n, g); η: ctx.rng('{ID}', 'eta', "
                              "n, g, r); each turned into an integer seed (recorded per run)"}
    C2, w_row, w_k, w_meas, w_bound = fitted_constant_violation(rows)
    figs = _figure(ctx, norm, rows, graphs, C2)
    results = []

    # (a) the proof's optimisation inequality, exact.
    worst_a = max(rows, key=lambda r: r["a_max_slack"] / r["scale"])
    ok_a = all(r["a_max_slack"] <= EXACT_RTOL * r["scale"] for r in rows)
    ev = dict(common, tolerance=f"slack ≤ {EXACT_RTOL:g}·max loss of the run",
              runs=[{k: r[k] for k in ("n", "graph_seed", "noise_seed", "a_max_ratio",
                                       "a_max_slack", "cond_Z")} for r in rows])
    ce = None if ok_a else counterexample(PART_A.id, ctx, graph=_graph_of(worst_a),
                                          **_where(worst_a), max_slack=worst_a["a_max_slack"])
    results.append(PART_A.result(
        norm, "holds" if ok_a else "fails", ev,
        f"(a) f(W^k) − f(W_g*) ≤ ‖W⁰−W_g*‖²/(2kα) for k = 1..{steps} in all {len(rows)} runs: "
        f"{'yes' if ok_a else 'NO'}; max lhs/rhs {max(r['a_max_ratio'] for r in rows):.3g}",
        ce, figs))

    # (b) the optimisation part decays at least as 1/k.
    expo = [envelope_exponent(r["k"], r["envelope"], r["g_star"]) for r in rows]
    slopes = [s for s, _, _ in expo if np.isfinite(s)]
    C1 = [float(np.max(r["envelope"][1:] * 2 * r["k"][1:] * r["alpha"] / r["dist0_sq"]))
          for r in rows]
    if len(slopes) < 2:
        vb, mu, ci = "inconclusive", float("nan"), (float("nan"), float("nan"))
    else:
        vb, mu, ci = judge_exponents(slopes)
    ev = dict(common, reading="E(k) = max_{j≥k} |g(W^j) − g(W_f*)|; slope of log E vs log k on a "
              "geometric grid of ≤ 25 k from 1 to the last k with E(k) > "
              f"{ENVELOPE_FLOOR:g}·(g(W_g*)+1); 'at least 1/k' ⇔ slope ≤ −1; 95% t-interval of "
              "the mean slope over runs",
              exponent_mean=mu, exponent_ci=ci, runs_fitted=len(slopes),
              per_run=[{"n": r["n"], "graph_seed": r["graph_seed"], "noise_seed": r["noise_seed"],
                        "slope": s, "grid_points": g, "k_end": ke, "C1_needed": c1,
                        "cond_Z": r["cond_Z"]} for r, (s, g, ke), c1 in zip(rows, expo, C1)],
              runs_not_converged=sum(ke >= r["k"][-1] for r, (_, _, ke) in zip(rows, expo)),
              C1_needed_max=max(C1),
              C1_note="max_k E(k)·2kα/‖W⁰−W_g*‖²: the constant the first term needs for "
                      "g − g(W_f*) (the proof's constant is 1, for f − f(W_g*))")
    ce = None
    if vb == "fails":
        r = rows[int(np.argmax([s if np.isfinite(s) else -np.inf for s, _, _ in expo]))]
        ce = counterexample(PART_B.id, ctx, graph=_graph_of(r), **_where(r), exponent_ci=ci)
    results.append(PART_B.result(
        norm, vb, ev,
        f"(b) tail of g(W^k) − g(W_f*) ~ k^{mu:.2f}, 95% CI [{ci[0]:.2f}, {ci[1]:.2f}] over "
        f"{len(slopes)} runs (≤ −1 needed); constant needed by ‖W⁰−W_g*‖²/(2kα): "
        f"{max(C1):.2g}", ce))

    # (c) the noise floor against τ log n / n, one point per graph.
    vc, slope, ci = judge_floor([g["n"] for g in graphs], [g["floor_mean"] for g in graphs],
                                [g["tau_log_n_over_n"] for g in graphs])
    xg = np.log([g["n"] for g in graphs])
    fl_slope, fl_ci = slope_ci(xg, np.log([g["floor_mean"] for g in graphs]))
    pr_slope, pr_ci = slope_ci(xg, np.log([g["tau_log_n_over_n"] for g in graphs]))
    pn_slope, pn_ci = slope_ci(xg, np.log([g["floor_mean"] / g["n"] for g in graphs]))
    ev = dict(common, ratio_slope=slope, ratio_slope_ci=ci, floor_slope=fl_slope,
              floor_slope_ci=fl_ci, predicted_slope_tau_log_n_over_n=pr_slope,
              predicted_slope_ci=pr_ci, floor_per_node_slope=pn_slope,
              floor_per_node_slope_ci=pn_ci, per_graph=graphs,
              criterion="floor = g(W_f*) − g(W_g*) (closed form; the k → ∞ value of the left "
                        "side), averaged over the noise draws of each graph; OLS of "
                        "log(floor/(τ log n/n)) on log n, one point per graph: 95% CI ≤ 0 "
                        "holds, CI > 0 fails, else inconclusive. A finite-range trend, not a "
                        "limit.",
              fitted_C2=C2, fitted_C2_on=f"max of floor/(τ log n/n) over the draws with "
                                         f"n ≤ {sizes[(len(sizes) - 1) // 2]}",
              convergence="max |g-gap at the last k − floor|/floor = " + format(max(
                  abs(r["g_gap_last"] - r["floor"]) / r["floor"] for r in rows), ".2g"),
              runs=[_public(r) for r in rows],
              mechanism="E‖Ã_Sη‖_F² ≥ σ²dn/(λ+1)² at fixed λ: the noise energy, and with it the "
                        "attenuation of W_f*, does not vanish per node, so the floor grows ∝ n "
                        "(plus an O(1) fitting-variance part); τ log n/n ≥ log n/((λ+1)m)² grows "
                        "∝ log n only (assumption-2).")
    ce = None
    if vc == "fails":
        # Where C2·τ log n/n, extrapolated with the fitted power laws, falls below the floor.
        A = math.exp(np.mean(np.log([g["floor_mean"] for g in graphs])) - fl_slope * np.mean(xg))
        B = math.exp(np.mean(np.log([g["tau_log_n_over_n"] for g in graphs]))
                     - pr_slope * np.mean(xg))
        n_cross = (C2 * B / A) ** (1.0 / (fl_slope - pr_slope)) if fl_slope > pr_slope else None
        ce = counterexample(
            PART_C.id, ctx, graph=_graph_of(w_row), **_where(w_row), tau=w_row["tau"], k=w_k,
            measured_g_gap=w_meas, bound=w_bound, violated_at_largest_n=bool(w_meas > w_bound),
            C1=1.0, C2=C2, n_where_fitted_laws_cross=n_cross,
            bound_formula="‖W⁰−W_g*‖²/(2kα) + C2·τ log n/n, C2 fitted on the lower half of the "
                          "n grid", ratio_slope_ci=ci)
    head = (f"(c) floor ~ n^{fl_slope:.2f} vs τ log n/n ~ n^{pr_slope:.2f}: ratio slope "
            f"{slope:.2f}, 95% CI [{ci[0]:.2f}, {ci[1]:.2f}]")
    if w_meas > w_bound:
        tail = (f"; C2={C2:.3g} fitted on small n, at n={w_row['n']} k={w_k}: {w_meas:.4g} > "
                f"bound {w_bound:.4g}")
    elif ce is not None and ce["n_where_fitted_laws_cross"] is not None:
        tail = (f"; with C2={C2:.3g} fitted on small n the fitted laws cross at n ≈ "
                f"{ce['n_where_fitted_laws_cross']:.3g}")
    else:
        tail = ""
    results.append(PART_C.result(norm, vc, ev, head + tail, ce))

    # Corrected: the exact decomposition bound.
    worst = max(rows, key=lambda r: r["corr_max_slack"] / r["scale"])
    ok = all(r["corr_max_slack"] <= EXACT_RTOL * r["scale"] for r in rows)
    closed_ok = sum(r["closed_form_holds"] for r in rows)
    below_B = sum(r["noise_below_B"] for r in rows)
    cn_slope, cn_ci = slope_ci(np.log([r["n"] for r in rows]),
                               np.log([r["closed_form_noise_term"] for r in rows]))
    ev = dict(common, correction="g(W^k) − g(W_g*) ≤ ‖W⁰−W_g*‖²/(2kα) + N(W_g*) + N(W^k), "
              "N(W) = 2‖Ã_Sη‖_F‖W‖_F‖Ã_SX*W−Y‖_F + ‖Ã_Sη‖_F²‖W‖_F²",
              derivation="g(W) − g(W_g*) = f(W) − f(W_g*) + h(W_g*) − h(W), h(W) = f(W) − g(W) "
                         "= 2⟨Ã_SηW, Ã_SX*W − Y⟩ + ‖Ã_SηW‖²; (a) for the first difference, "
                         "Cauchy-Schwarz and ‖MW‖_F ≤ ‖M‖_F‖W‖_F for |h|",
              tolerance=f"slack ≤ {EXACT_RTOL:g}·max loss of the run",
              max_ratio=max(r["corr_max_ratio"] for r in rows),
              closed_form="‖W_g*‖²/(2kα) + 4C√B‖Y‖_F + 4C²B, B = 2τm²σ²d log(2nd²) "
                          "(lemma-1-corrected, prob ≥ 1 − 1/d), C = max(‖W_g*‖, max_k ‖W^k‖)",
              closed_form_holds_runs=f"{closed_ok}/{len(rows)}",
              noise_below_lemma1_B_runs=f"{below_B}/{len(rows)}",
              closed_form_noise_slope=cn_slope, closed_form_noise_slope_ci=cn_ci,
              W_norms=[{"n": r["n"], "W_g": r["W_g_norm"], "W_max": r["W_max_norm"]}
                       for r in rows],
              runs=[{k: r[k] for k in ("n", "graph_seed", "noise_seed", "corr_max_ratio",
                                       "corr_max_slack", "floor", "closed_form_noise_term",
                                       "noise_norm_sq", "lemma1_B")} for r in rows])
    ce = None if ok else counterexample(CORRECTED.id, ctx, graph=_graph_of(worst),
                                        **_where(worst), max_slack=worst["corr_max_slack"])
    results.append(CORRECTED.result(
        norm, "holds" if ok else "fails", ev,
        f"exact decomposition bound at every k in {len(rows)} runs: max lhs/rhs "
        f"{ev['max_ratio']:.3g}; closed form with lemma-1-corrected B holds in "
        f"{closed_ok}/{len(rows)} runs, its noise term ~ n^{cn_slope:.2f} (does not vanish)",
        ce))
    return results
