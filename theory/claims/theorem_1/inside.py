"""Inside the hypotheses (parts ``sum`` and ``mean``): λ = √n, S = ⌈2λ⌉, on the families of
:mod:`.families`, every assumption verified in the run (:mod:`.assumptions`).

Assumption 2 (τ/n → 0) cannot hold at a fixed λ, S (τ/n ≥ 1/((λ+1)(1−r^{S+1}))²,
:func:`theory._bounds.floor_tau_over_n`), so λ grows with n: λ = √n, S = ⌈2λ⌉ (as
assumption-2-corrected).

The two readings. The paper says "we adopt MSE loss" (Sec. 3) but writes Eq. 8 as a sum over the
n nodes, f(W) = ‖Ã_S X W − Y‖_F², and its proof works with ‖·‖_F² of whole n-row matrices
throughout. ``sum`` takes Eq. 8 as written, ``mean`` divides f and g by n (step α = 1/L in
each reading gives the same iterates; the first term ‖W⁰ − W_g*‖²/(2kα) scales with the loss, so
only the τ log n / n term tells the readings apart). Decision: the k → ∞ value of the left side
is floor = g(W_f*) − g(W_g*) (closed form), so the theorem forces floor ≤ C2·τ log n / n for
every n: the ratio floor/(τ log n/n) must stay bounded. Its median and 90% quantile over all
(graph, draw) runs per n are fitted against n on log-log axes; each slope gets the hull of the
OLS t-interval and a cluster-bootstrap interval (graphs resampled within n). Since the theorem's
event has probability 1 − 1/d = 3/4 > 1/2, a median that grows refutes it: ``fails`` when the
median's interval lies above 0; ``holds`` when the intervals of both the median and the 90%
quantile (which bounds the 3/4 quantile) lie at or below 0; else ``inconclusive``. No constant
is fitted. A family's verdict is its own (:mod:`.readings` combines them).
"""

from __future__ import annotations

import math

import numpy as np

from ngc_ref.training import theory_trajectory

from ..._bounds import floor_tau_over_n, grown_lam_S
from ..._stats import CONFIDENCE, quantile_trend, seed_of
from .assumptions import check_a2, check_a3, check_a4
from .families import (DETERMINISTIC, FAMILY_WORDS, HYP_FAMILIES, HYP_PROBES, hyp_problem,
                       hyp_tau)
from .statements import ID, READINGS, SIGMA

#: GD steps; cond(Ã_S X) ≤ 2 on these families, so GD reaches the floor within ~50 steps.
HYP_STEPS = 200
#: Noise draws per n of a probe family (one graph per n).
PROBE_DRAWS = 2
#: The quantiles of the ratio fitted against n: the median decides ``fails``, both ``holds``.
QUANTILES = (0.5, 0.9)
BOOTSTRAP = 2000


def geometric_sizes(n0, n1):
    """n0·√2^j up to n1 (rounded): a log-uniform grid."""
    steps = int(round(2 * math.log2(n1 / n0)))
    return tuple(int(round(n0 * 2 ** (j / 2))) for j in range(steps + 1))


def hyp_design(ctx):
    """(sizes, graphs per size of the random families, noise draws per graph, noise draws per n
    of the deterministic families, GD steps).

    τ of a random family's graph costs S·nnz·n/HYP_K (block by block): ~5 s per norm at
    n = 6400 (S = 160), ~2 s at 4525, 0.5 s at 3200. The default grid steps by √2 up to 3200
    and then jumps to 6400 (16×) with two graphs there, so one norm stays under a minute on
    two cores; noise draws are cheap (one Ã_S product each) and fill the quantiles.
    ``--thorough``: √2 steps up to 12800 (τ of one block union there takes ~80 s per norm),
    four graphs per size (two at the two largest), eight draws per graph.
    """
    if ctx.thorough:
        sizes = geometric_sizes(400, 12800)
        return sizes, (4,) * (len(sizes) - 2) + (2, 2), 8, 24, HYP_STEPS
    sizes = geometric_sizes(400, 3200) + (6400,)
    return sizes, (3,) * (len(sizes) - 1) + (2,), 6, 16, HYP_STEPS


def searched(ctx, norm):
    """What the in-hypotheses half searched, for the evidence of both readings."""
    sizes, per_size, draws, draws_det, steps = hyp_design(ctx)
    return {"families": {f: FAMILY_WORDS[f] for f in HYP_FAMILIES + HYP_PROBES},
            "sizes_requested": list(sizes),
            "lam_of_n": "λ = √n", "S_of_n": "S = ⌈2λ⌉ (1 − r^{S+1} ≈ 1 − e⁻²)",
            "graphs_per_size_random_families": list(per_size),
            "noise_draws_per_graph": draws,
            "graphs_per_size_deterministic_families": "1 (ring, torus: one graph per n)",
            "noise_draws_per_size_deterministic_families": draws_det,
            "probe_families": f"{list(HYP_PROBES)}: 1 graph, {PROBE_DRAWS} draws per n",
            "noise": f"η i.i.d. N(0, {SIGMA:g}²) (Assumption 1, σ = {SIGMA:g})",
            "steps": steps, "W0": "zeros", "alpha": "1/L", "norm": norm,
            "tau": "exact, in the normalisation under test",
            "confidence": CONFIDENCE, "bootstrap_resamples": BOOTSTRAP,
            "quantiles": list(QUANTILES),
            "seed_streams": f"graph: ctx.rng('{ID}', 'hyp-graph', family, n, g); η: "
                            f"ctx.rng('{ID}', 'hyp-eta', family, n, g, r)"}


def bound_term(tau, n):
    """τ log n / n, the second term of Eq. 10 (the reference of the ratio)."""
    return tau * math.log(n) / n


def loss_scale(reading, n):
    """What the reading multiplies ‖·‖_F² by: 1 (sum, Eq. 8 as written) or 1/n (mean)."""
    return 1.0 if reading == "sum" else 1.0 / n


def hyp_run(A, X, Y, eta, norm, lam, S_, steps):
    """One GD trajectory inside the hypotheses; what the readings and the hypotheses need.

    τ is computed apart (per graph, :func:`.families.hyp_tau`): the trajectory's own τ is not
    used.
    """
    tr = theory_trajectory(A, X, eta, Y, lam, S_, norm=norm, steps=steps, tau=1.0,
                           tau_norm=norm, seed=0)
    g_star = tr.lstsq_g.objective
    floor = tr.g_gap_limit
    scale = max(1.0, float(np.max(np.abs(tr.f))), float(np.max(tr.g_gap)) + g_star)
    # Assumption 4 as the proof uses it: f(W⁺) ≤ f(W) − (α/2)‖∇f(W)‖² at every step.
    descent = tr.f[1:] - tr.f[:-1] + 0.5 * tr.alpha * tr.grad_norm[:-1] ** 2
    dist0 = float(np.sum(tr.W_g_star ** 2))
    e = np.abs(tr.g_gap[1:] - floor)
    return {"n": int(A.shape[0]), "floor": floor, "g_star": g_star,
            "W_g_norm": float(np.linalg.norm(tr.W_g_star)),
            "W_f_norm": float(np.linalg.norm(tr.W_f_star)),
            "W_max_norm": float(np.max(tr.W_norm)), "L": tr.L, "alpha": tr.alpha,
            "alpha_L": tr.alpha * tr.L,
            "descent_max_slack": float(np.max(descent)) / scale if descent.size else 0.0,
            "C1_needed": float(np.max(e * 2 * tr.k[1:] * tr.alpha / dist0)) if dist0 else 0.0,
            "converged_rel": abs(float(tr.g_gap[-1]) - floor) / max(abs(floor), 1e-300),
            "cond_Z": tr.lstsq_f.cond, "rank_Z": tr.lstsq_f.rank, "steps": tr.n_steps,
            "noise_norm_sq": tr.noise_norm_sq}


def hyp_family(ctx, family, norm):
    """Every (n, graph, draw) run of one family (τ is computed later, by :func:`hyp_results`,
    only for the families inside Assumption 3).

    Returns (graphs, runs): graph records (with their adjacency, for a counterexample) and run
    records. Graphs and η do not depend on ``norm``.
    """
    sizes, per_size, draws, draws_det, steps = hyp_design(ctx)
    deterministic = family in DETERMINISTIC
    graph_rows, runs = [], []
    for n, n_graphs in zip(sizes, per_size):
        for g in range(1 if deterministic else (1 if family in HYP_PROBES else n_graphs)):
            gseed = seed_of(ctx.rng(ID, "hyp-graph", family, n, g))
            A, blocks, X, Y, transitive = hyp_problem(family, n, gseed)
            m = A.shape[0]
            lam, S_ = grown_lam_S(m)
            deg = np.asarray(A.sum(axis=1)).ravel()
            graph_rows.append({"family": family, "n": m, "requested_n": n, "graph": g,
                               "graph_seed": gseed, "lam": lam, "S": S_,
                               "floor_tau_over_n": floor_tau_over_n(lam, S_),
                               "isolated_nodes": int(np.sum(deg == 0)),
                               "max_degree_share": float((deg + 1).max() / (deg + 1).sum()),
                               "A": A, "blocks": blocks, "transitive": transitive})
            n_draws = (draws_det if deterministic else
                       (PROBE_DRAWS if family in HYP_PROBES else draws))
            for r in range(n_draws):
                nseed = seed_of(ctx.rng(ID, "hyp-eta", family, n, g, r))
                eta = SIGMA * np.random.default_rng(nseed).standard_normal(X.shape)
                row = hyp_run(A, X, Y, eta, norm, lam, S_, steps)
                row.update(family=family, graph=g, graph_seed=gseed, draw=r, noise_seed=nseed,
                           lam=lam, S=S_)
                runs.append(row)
    return graph_rows, runs


def judge_ratio(trends):
    """Verdict from the trends of the ratio's quantiles ({q: quantile_trend}): ``fails`` when
    the median's interval lies above 0, ``holds`` when every quantile's lies at or below 0."""
    if trends[0.5]["ci"][0] > 0:
        return "fails"
    if all(t["ci"][1] <= 0 for t in trends.values()):
        return "holds"
    return "inconclusive"


def ratio_trends(ctx, family, runs, taus, reading):
    """The ratio floor·scale/(τ log n/n) per run, its quantiles' trends and the verdict."""
    groups = {}
    for r in runs:
        tau = taus[(r["n"], r["graph_seed"])]
        r[f"ratio_{reading}"] = (r["floor"] * loss_scale(reading, r["n"])
                                 / bound_term(tau, r["n"]))
        # Deterministic graphs: each draw is its own cluster; random ones: the graph's draws.
        key = r["draw"] if family in DETERMINISTIC else r["graph_seed"]
        groups.setdefault(r["n"], {}).setdefault(key, []).append(r[f"ratio_{reading}"])
    clusters = [(n, np.array(list(groups[n].values()))) for n in sorted(groups)]
    trends = {q: quantile_trend(clusters, q, n_boot=BOOTSTRAP,
                                rng=ctx.rng(ID, "hyp-boot", family, reading, q))
              for q in QUANTILES}
    return judge_ratio(trends), trends


def hyp_results(ctx, norm):
    """Every family's record: its runs and graphs, the assumptions verified on them, and, for a
    family inside Assumption 3, τ per graph and each reading's ratio trends and verdict."""
    fams = {}
    for family in HYP_FAMILIES + HYP_PROBES:
        graph_rows, runs = hyp_family(ctx, family, norm)
        a3_ok, a3 = check_a3(runs)
        rec = {"family": family, "words": FAMILY_WORDS[family], "runs": runs,
               "graphs": graph_rows, "A3": a3, "judged": family not in HYP_PROBES}
        if not a3_ok:
            rec.update(inside=False, why=f"Assumption 3: max ‖W‖_F grows ~ n^"
                                         f"{a3['loglog_slope_of_max']:.2f} "
                                         f"({a3['per_n'][0]['W_g_norm_max']:.3g} → "
                                         f"{a3['per_n'][-1]['W_g_norm_max']:.3g} for ‖W_g*‖_F)")
            fams[family] = rec
            continue
        for gr in graph_rows:
            gr["tau"] = hyp_tau(gr["A"], gr["blocks"], gr["transitive"], gr["lam"], gr["S"],
                                norm)
            gr["tau_over_n"] = gr["tau"] / gr["n"]
            gr["tau_log_n_over_n"] = bound_term(gr["tau"], gr["n"])
        if not rec["judged"]:
            rec.update(inside=False, why="a probe for Assumption 3 (which holds here); not "
                                         "judged")
            fams[family] = rec
            continue
        a2_ok, a2 = check_a2(graph_rows)
        a4_ok, a4 = check_a4(runs)
        rec.update(A2=a2, A4=a4, inside=a2_ok and a4_ok)
        if not rec["inside"]:
            rec["why"] = "; ".join(w for ok, w in ((a2_ok, "Assumption 2 not verified"),
                                                   (a4_ok, "Assumption 4 not verified"))
                                   if not ok)
        taus = {(gr["n"], gr["graph_seed"]): gr["tau"] for gr in graph_rows}
        for reading in READINGS:
            rec[reading] = ratio_trends(ctx, family, runs, taus, reading)
        fams[family] = rec
    return fams

