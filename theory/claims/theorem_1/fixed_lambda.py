"""The contextual SBM at the experiments' λ = 32, S = 16, on which parts (a), (b), (c) and the
corrected statement run: its design, one gradient-descent trajectory, and the runs' records.

:func:`ngc_ref.training.theory_trajectory` runs on contextual SBMs of growing n (4 balanced
classes, expected degree 16 inside / 4 outside the class, so the graphs stay sparse and τ is not
dominated by the odd isolated or degree-1 node; X* = one-hot class means, d = 4, so Z* has full
column rank; η i.i.d. N(0, 1), sub-Gaussian with σ = 1): several graphs per n (fewer for large
n, where τ is expensive) and several noise draws per graph, W⁰ = 0, α = 1/L. τ is computed
exactly in the normalisation under test. At this fixed λ, τ/n is bounded below, so the runs lie
outside Assumption 2 (part (c) is an extension).
"""

from __future__ import annotations

import math

import numpy as np

from ngc_ref import connectivity_factor, series_mass
from ngc_ref.training import theory_trajectory

from ...kit.stats import CONFIDENCE, seed_of
from ...sweep.cost import scaled_count, scaled_sizes
from ...sweep.theorem1 import CSBM_D, CSBM_DEG_IN, CSBM_DEG_OUT, csbm_params, draw_csbm
from .statements import EXACT_RTOL, ID, LAM, SIGMA, S

#: Contextual SBM (:func:`ngc_ref_theory.sweep.theorem1.csbm_params`): classes, feature dimension,
#: expected in/out-class degree, clean row norm.
D, DEG_IN, DEG_OUT = CSBM_D, CSBM_DEG_IN, CSBM_DEG_OUT
#: GD steps (default, thorough); E(k) reaches rounding by k ≈ 250 on these graphs (cond(Z) ≤ 4).
STEPS, STEPS_THOROUGH = 600, 3000


def design(ctx):
    """(sizes, graphs per size, noise draws per graph, GD steps).

    τ of one graph costs O(S·nnz·n), so the large sizes get fewer graphs; every graph is one
    point of the floor-vs-n regression (its noise draws are averaged).
    """
    if ctx.thorough and ctx.scale < 1:   # --scale shrinks the thorough grid
        # At least 1/16 of the sizes: part (c) fits a trend over three sizes or more.
        sizes = scaled_sizes((200, 400, 800, 1600, 3200, 6400), max(ctx.scale, 1 / 16),
                             minimum=100)
        return (sizes, tuple(scaled_count(g, ctx.scale, minimum=2) for g in (6, 6, 6, 4, 3, 2)
                             )[:len(sizes)], 2, STEPS)
    if ctx.thorough:
        return (200, 400, 800, 1600, 3200, 6400), (6, 6, 6, 4, 3, 2), 6, STEPS_THOROUGH
    return (200, 400, 800, 1600, 3200), (3, 3, 2, 2, 1), 2, STEPS


def common_evidence(ctx, norm):
    """What every result of this setting states it searched."""
    sizes, n_graphs, draws, steps = design(ctx)
    return {"lam": LAM, "S": S, "csbm": {k: v for k, v in csbm_params(sizes[0]).items()
                                         if k not in ("n", "p_in", "p_out")},
            "noise": f"η i.i.d. N(0, {SIGMA:g}²), n × {D}",
            "expected_degree_in_out": [DEG_IN, DEG_OUT], "sizes": list(sizes),
            "graphs_per_size": list(n_graphs), "noise_draws_per_graph": draws, "steps": steps,
            "W0": "zeros", "alpha": "1/L, L = 2σ_max(Ã_S X)²", "tau_norm": norm,
            "confidence": CONFIDENCE,
            "seed_streams": f"graph: ctx.rng('{ID}', 'csbm', n, g); η: ctx.rng('{ID}', 'eta', "
                            "n, g, r); each turned into an integer seed (recorded per run)"}


def noise_term_N(noise_fro, W_norm, resid):
    """N(W) = 2‖Z_η‖_F‖W‖_F‖Z*W − Y‖_F + ‖Z_η‖_F²‖W‖_F² (arrays broadcast)."""
    return 2.0 * noise_fro * W_norm * resid + noise_fro**2 * W_norm**2


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


def run_rows(ctx, norm):
    """Every (n, graph, noise draw) trajectory. Graphs and η do not depend on ``norm``."""
    sizes, graphs, draws, steps = design(ctx)
    rows = []
    for n, n_graphs in zip(sizes, graphs):
        for g in range(n_graphs):
            graph_seed = seed_of(ctx.rng(ID, "csbm", n, g))
            data = draw_csbm(n, graph_seed)
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


#: A run's arrays and adjacency, left out of the evidence.
ARRAYS = ("A", "k", "g_gap", "opt_term", "envelope")


def graph_of(r):
    """(name, adjacency) of a run's graph, for a counterexample record."""
    return (f"csbm-{r['n']}-seed{r['graph_seed']}", r["A"])


def where(r):
    """How to rebuild a run: the counterexample fields beside its graph."""
    return dict(params=csbm_params(r["n"]), graph_seed=r["graph_seed"],
                noise_seed=r["noise_seed"], lam=LAM, S=S, norm=r["norm"],
                rebuild="data = ngc_ref.graphs.contextual_sbm(**params, seed=graph_seed); eta = "
                        f"{SIGMA:g} * numpy.random.default_rng(noise_seed).standard_normal((n, "
                        f"{D})); theory_trajectory(data.adjacency, data.X_clean, eta, data.Y, "
                        f"lam, S, norm=norm, steps=steps, tau_norm=norm)")
