"""Inside the hypotheses (parts ``sum`` and ``mean``): λ = √n, S = ⌈2λ⌉, on the families below,
every assumption verified in the run (:mod:`.assumptions`).

The families judged: the ring and the 2-D torus (vertex-transitive, X* = the four slowest
Fourier modes, Y = one-hot quarter / quadrant: not realisable, g(W_g*) ∝ n), and four disjoint
random 6-regular or Barabási–Albert (m = 3) blocks (X* = Y = one-hot block, so
Ã_S X* = (1−r^{S+1}) X* in rw: realisable); their graphs, τ and runs are built by
:mod:`ngc_ref_theory.sweep.theorem1` (the ``--thorough`` cells build the same). Assumption 3
(‖W‖_F ≤ C independent of n) needs the clean features to live in the slow modes of Ã_S, which
damps a mode of L̃ with eigenvalue μ by 1/(1+λμ): on the fixed-degree contextual SBM of the
fixed-λ setting ‖W_g*‖_F grows like n^0.47 at λ = √n (8.9 → 33 for n = 400 → 6400), outside
Assumption 3; the run probes that family and lists it as outside.

Assumption 2 (τ/n → 0) cannot hold at a fixed λ, S (τ/n ≥ 1/((λ+1)(1−r^{S+1}))²,
:func:`ngc_ref_theory.paper.bounds.floor_tau_over_n`), so λ grows with n: λ = √n, S = ⌈2λ⌉ (as
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

from ...kit.graphs import is_deterministic
from ...kit.stats import CONFIDENCE, interval_verdict, quantile_trend, seed_of
from ...sweep.cost import scaled_count, scaled_sizes
from ...sweep import run_planned
from ...sweep.theorem1 import HYP_K, hyp_graph, hyp_run, hyp_tau
from .assumptions import check_a2, check_a3, check_a4
from .statements import ID, READINGS, SIGMA

#: Families judged inside Assumptions 1-4, and the one probed (fixed-degree contextual SBM)
#: whose ‖W_g*‖_F grows at λ = √n: listed as outside Assumption 3.
HYP_FAMILIES = ("ring", "torus", "rr-blocks", "ba-blocks")
HYP_PROBES = ("csbm-fixed-degree",)


def hyp_list(ctx):
    """The families of the λ = √n half: Theorem 1's own (judged, then the probe), or those of
    ``ngc-ref check --family`` (all judged; X* = Y = one-hot of HYP_K blocks of node indices,
    :func:`ngc_ref_theory.sweep.theorem1.hyp_problem`)."""
    given = tuple(getattr(ctx, "families", ()) or ())
    return given or HYP_FAMILIES + HYP_PROBES


def family_words(family):
    """How a family of the λ = √n half is built (for the evidence)."""
    return FAMILY_WORDS.get(family, f"{family} (ngc_ref.graphs registry); X* = Y = one-hot of "
                                    f"{HYP_K} contiguous blocks of node indices")


FAMILY_WORDS = {
    "ring": "ring C_n (vertex-transitive); X* = √2[cos θ, sin θ, cos 2θ, sin 2θ], θ_i = 2πi/n; "
            "Y = one-hot quarter ⌊4i/n⌋ (not realisable)",
    "torus": "2-D torus p×p, n = p² (vertex-transitive); X* = √2[cos a, sin a, cos b, sin b], "
             "(a, b) = 2π(x, y)/p; Y = one-hot quadrant (not realisable)",
    "rr-blocks": f"{HYP_K} disjoint random 6-regular graphs of n/{HYP_K} nodes; X* = Y = one-hot "
                 "block (realisable: Ã_S X* = (1−r^{S+1})X*)",
    "ba-blocks": f"{HYP_K} disjoint Barabási–Albert (m = 3) graphs of n/{HYP_K} nodes; X* = Y = "
                 "one-hot block (realisable in rw)",
    "csbm-fixed-degree": "the contextual SBM of part (c) (expected degree 16 in / 4 out of the "
                         "class, X* = Y = one-hot class): probed for Assumption 3 only",
}

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


#: ``--thorough``: the n grid (× ``--scale``): √2 steps from 400 to 12800, then 2× steps to
#: 102400; each family stops at its largest n (blocks: τ of each block is estimated above
#: n ≈ 9000 and costs most; the probe's ‖W‖ growth shows early).
THOROUGH_SIZES = geometric_sizes(400, 12800) + (25600, 51200, 102400)
THOROUGH_MAX_N = {"rr-blocks": 25600, "ba-blocks": 25600, "csbm-fixed-degree": 12800}
#: ``--thorough``: τ exactly while S·nnz·nodes ≤ 10¹⁰ per graph or block, else the estimator's
#: 99% bracket per block (192 probes, 64 likeliest maximisers exact).
THOROUGH_TAU = {"exact_max_cost": 1e10, "n_samples": 192, "max_candidates": 64}


def thorough_design(ctx, family):
    """``[(requested n, graphs, draws per graph)]`` of ``--thorough`` for one family (n ×
    ``--scale``, at least 64; graphs and draws × min(1, scale), at least 2): four graphs of
    eight draws per n up to 6400, two from there (random families); one graph of 24 draws per
    n up to 12800, 8 draws above (ring, torus); the probe one graph of PROBE_DRAWS."""
    cap = THOROUGH_MAX_N.get(family, THOROUGH_SIZES[-1])
    out, seen = [], set()
    for n0 in THOROUGH_SIZES:
        if n0 > cap:
            break
        n = scaled_sizes((n0,), ctx.scale, minimum=64)[0]
        if n in seen:
            continue
        seen.add(n)
        if is_deterministic(family):
            graphs, draws = 1, scaled_count(24 if n0 <= 12800 else 8, ctx.scale, minimum=2)
        elif family in HYP_PROBES:
            graphs, draws = 1, PROBE_DRAWS
        else:
            graphs = scaled_count(4 if n0 <= 6400 else 2, ctx.scale, minimum=2)
            draws = scaled_count(8, ctx.scale, minimum=2)
        out.append((n, graphs, draws))
    return out


def hyp_cells(ctx, norm):
    """``--thorough``: one ``theorem1`` cell per (family, n, graph): τ (not for the probe)
    and the graph's GD runs. The graph and its noise draws come from the same streams in both
    normalisations."""
    cells = []
    for family in HYP_FAMILIES + HYP_PROBES:
        for n, graphs, draws in thorough_design(ctx, family):
            for g in range(graphs):
                cells.append(("theorem1", {
                    "family": family, "n": n, "draws": draws, "norm": norm,
                    "graph_seed": seed_of(ctx.rng(ID, "hyp-graph", family, n, g)),
                    "eta_seed": seed_of(ctx.rng(ID, "hyp-eta", family, n, g)),
                    "noise_std": SIGMA, "steps": HYP_STEPS, "tau": family not in HYP_PROBES,
                    **THOROUGH_TAU}))
    return cells


def thorough_families(ctx, norm):
    """``{family: (graph rows, runs)}`` of ``--thorough`` from the planned cells' records (as
    :func:`hyp_family`'s; graph rows carry τ, its bracket and how it was computed, and no
    adjacency)."""
    cells = hyp_cells(ctx, norm)
    out = {f: ([], []) for f in HYP_FAMILIES + HYP_PROBES}
    for (_, p), rec in zip(cells, run_planned(ctx, cells)):
        graph_rows, runs = out[p["family"]]
        g = len([gr for gr in graph_rows if gr["requested_n"] == p["n"]])
        gr = dict(rec["result"]["graph"], graph=g, A=None, blocks=None)
        if "tau" not in gr:
            gr.update(tau=float("nan"), tau_lower=float("nan"), tau_upper=float("nan"),
                      method="not computed (probe)")
        graph_rows.append(gr)
        runs.extend(dict(r, graph=g) for r in rec["result"]["runs"])
    return out


def searched(ctx, norm):
    """What the in-hypotheses half searched, for the evidence of both readings."""
    if ctx.thorough:
        return _searched_thorough(ctx, norm)
    sizes, per_size, draws, draws_det, steps = hyp_design(ctx)
    return {"families": {f: family_words(f) for f in hyp_list(ctx)},
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


def _searched_thorough(ctx, norm):
    design = {f: [{"n": n, "graphs": g, "draws": d} for n, g, d in thorough_design(ctx, f)]
              for f in HYP_FAMILIES + HYP_PROBES}
    sizes = sorted({row["n"] for rows in design.values() for row in rows})
    return {"families": {f: FAMILY_WORDS[f] for f in HYP_FAMILIES + HYP_PROBES},
            "sizes_requested": sizes, "design_per_family": design,
            "lam_of_n": "λ = √n", "S_of_n": "S = ⌈2λ⌉ (1 − r^{S+1} ≈ 1 − e⁻²)",
            "noise": f"η i.i.d. N(0, {SIGMA:g}²) (Assumption 1, σ = {SIGMA:g})",
            "steps": HYP_STEPS, "W0": "zeros", "alpha": "1/L", "norm": norm,
            "tau": "exact (one node on ring and torus, block by block on the unions) while "
                   f"S·nnz·nodes ≤ {THOROUGH_TAU['exact_max_cost']:g}, else the estimator's "
                   "bracket per block; the ratio uses its lower end (an exact τ_i), and a "
                   "verdict that changes at the upper end becomes inconclusive",
            "tau_estimator": THOROUGH_TAU, "scale": ctx.scale,
            "confidence": CONFIDENCE, "bootstrap_resamples": BOOTSTRAP,
            "quantiles": list(QUANTILES),
            "cells": "theorem1 sweep cells, one per (family, n, graph), in "
                     "OUT/.thorough/store.jsonl",
            "seed_streams": f"graph: ctx.rng('{ID}', 'hyp-graph', family, n, g); η of draw r: "
                            f"default_rng([seed_of(ctx.rng('{ID}', 'hyp-eta', family, n, g)), "
                            "r])"}


def bound_term(tau, n):
    """τ log n / n, the second term of Eq. 13 (the reference of the ratio)."""
    return tau * math.log(n) / n


def loss_scale(reading, n):
    """What the reading multiplies ‖·‖_F² by: 1 (sum, Eq. 8 as written) or 1/n (mean)."""
    return 1.0 if reading == "sum" else 1.0 / n


def hyp_family(ctx, family, norm):
    """Every (n, graph, draw) run of one family (τ is computed later, by :func:`hyp_results`,
    only for the families inside Assumption 3).

    Returns (graphs, runs): graph records (with their adjacency, for a counterexample) and run
    records. Graphs and η do not depend on ``norm``.
    """
    sizes, per_size, draws, draws_det, steps = hyp_design(ctx)
    deterministic = is_deterministic(family)   # one graph per n: runs differ in the noise
    graph_rows, runs = [], []
    for n, n_graphs in zip(sizes, per_size):
        for g in range(1 if deterministic else (1 if family in HYP_PROBES else n_graphs)):
            gseed = seed_of(ctx.rng(ID, "hyp-graph", family, n, g))
            A, blocks, X, Y, graph = hyp_graph(family, n, gseed)
            lam, S_ = graph["lam"], graph["S"]
            graph_rows.append({**graph, "graph": g, "A": A, "blocks": blocks})
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
    if interval_verdict(trends[0.5]["ci"], fails_above=0.0) == "fails":
        return "fails"
    if all(interval_verdict(t["ci"], holds_at_most=0.0) == "holds" for t in trends.values()):
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
        key = r["draw"] if is_deterministic(family) else r["graph_seed"]
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
    planned = thorough_families(ctx, norm) if ctx.thorough else {}
    for family in hyp_list(ctx):
        graph_rows, runs = planned.get(family) or hyp_family(ctx, family, norm)
        a3_ok, a3 = check_a3(runs)
        rec = {"family": family, "words": family_words(family), "runs": runs,
               "graphs": graph_rows, "A3": a3, "judged": family not in HYP_PROBES}
        if not a3_ok:
            rec.update(inside=False, why=f"Assumption 3: max ‖W‖_F grows ~ n^"
                                         f"{a3['loglog_slope_of_max']:.2f} "
                                         f"({a3['per_n'][0]['W_g_norm_max']:.3g} → "
                                         f"{a3['per_n'][-1]['W_g_norm_max']:.3g} for ‖W_g*‖_F)")
            fams[family] = rec
            continue
        for gr in graph_rows:
            if "tau" not in gr:   # the thorough cells computed it already
                gr["tau"] = hyp_tau(gr["A"], gr["blocks"], gr["transitive"], gr["lam"],
                                    gr["S"], norm)
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
        upper = {(gr["n"], gr["graph_seed"]): gr.get("tau_upper", gr["tau"])
                 for gr in graph_rows}
        for reading in READINGS:
            if upper != taus:   # τ bracketed somewhere: the verdict must survive its upper end
                at_upper = ratio_trends(ctx, family, [dict(r) for r in runs], upper, reading)
            rec[reading] = ratio_trends(ctx, family, runs, taus, reading)
            if upper != taus:
                rec[f"{reading}_at_tau_upper"] = at_upper
                if at_upper[0] != rec[reading][0]:
                    rec[reading] = ("inconclusive", rec[reading][1])
        fams[family] = rec
    return fams

