"""Assumption 2: τ = o(n), i.e. τ/n → 0 as the graph grows.

At fixed λ and S the assumption cannot hold for any graph: every term of Ã_S is entrywise
non-negative and the s = 0 term is I/(λ+1), so [Ã_S]_ii ≥ 1/(λ+1) and

    τ_i = n Σ_j [Ã_S]_ij² / m² ≥ n / ((λ+1) m)²,     m = 1 − r^{S+1},

i.e. τ/n ≥ 1/((λ+1)m)² (≈ 0.0056 at the paper's λ = 32, S = 16). The check measures τ/n along
growing n per family (exactly, with :func:`ngc_ref.connectivity_factor`) and confirms that floor.

The corrected statement lets λ grow with n (λ = √n, S = ⌈2λ⌉ so that m stays ≈ 1 − e⁻²): the floor
then vanishes, and the question is whether τ/n does. Isolated nodes keep τ_i = n for every λ, S
(their row of Ã_S is m·e_i), and a hub that holds a constant share of the degree keeps a constant
share of every row as λ → ∞ (the limit of Ã_S is a rank-one projector weighted by degree).
"""

from __future__ import annotations


import numpy as np

from ngc_ref import connectivity_factor

from ..exact.atlas import combine_search, lam_grid, scan
from ..kit.evidence import SQRT_N_KEY, SQRT_N_WHY, counterexample, public
from ..kit.claim import Violation, claim, worst_verdict
from ..exact.certificates import decimal, frac, mass as exact_mass
from ..paper.words import EXPERIMENTS_LAM_S, THEORY_RW_SCOPES
from ..paper.bounds import floor_tau_over_n, grown_lam_S
from ..output.figures import draws, fixed_vs_grown
from ..kit.graphs import FAMILIES, checker_families, family_graph, is_transitive
from ..kit.stats import (SHARE_DECAY, SLOPE_DECAY, SLOPE_FLAT, family_trends, loglog_slope,
                         max_degree_share, no_hub_hypotheses, seed_of, tau_bracket_slope,
                         tau_decay_verdict)
from ..kit.text import listing, rounded
from ..sweep.cost import scaled_sizes
from ..sweep import run_planned

ID = "assumption-2"
STATEMENT = ("Assumption 2: lim_{n→∞} τ/n = 0 for the graphs considered, at the fixed λ, S of the "
             "experiments (λ = 32, S = 16). Checked per graph family along growing n; the verdict "
             "rests on the floor τ/n ≥ 1/((λ+1)(1−r^{S+1}))² that holds for every graph, and the "
             "measured τ/n.")

CLAIM = claim(ID, "Assumption 2 (with Def. 1, Eq. 5)", STATEMENT, order=80,
              families=True, **THEORY_RW_SCOPES,
              rule="theory", seconds=(1.9, 0.0),
              doc=("τ = o(n) along growing n per graph family; what growth of λ restores it; "
                   "`:o-n` the erratum (written O(n))"))
CORRECTED = CLAIM.corrected(
    "With λ growing as √n and S = ⌈2λ⌉ (so that 1 − r^{S+1} stays ≈ 1 − e⁻²), τ/n decreases "
    "along n for every graph family that has no isolated node and whose largest degree share "
    "max_i d̃_i/Σ_j d̃_j decreases with n (no hub holding a constant share of the degree). "
    "Checker's criteria: log-log slope of τ/n vs n ≤ −0.1 with τ/n decreasing; the degree "
    "share's log-log slope ≤ −0.1. Families outside these hypotheses are listed, not judged.")

LAM, S = EXPERIMENTS_LAM_S
SIZES = (100, 200, 400, 800)
#: ``--thorough``: the n grid (× ``--scale``), run as ``tau`` sweep cells.
THOROUGH_SIZES = (100, 200, 400, 800, 1600, 3200, 10000, 30000, 100000)
#: ``--thorough``: the largest n of the λ = √n schedule (× ``--scale``) of the families whose
#: cells there would take over 5 min on one core (S = ⌈2√n⌉ = 633 steps per probe column at
#: 10⁵); the others reach the end of the grid.
GROWN_MAX_N = {"er_avgdeg_2logn": 30000, "barabasi_albert_3": 30000, "sbm_4_blocks_deg8": 30000,
               "star": 30000, "grid_2d": 30000}
#: ``--thorough``: τ exactly while S·nnz·(nodes) ≤ 10¹⁰, else the estimator's 99% bracket
#: (192 Gaussian probes, the 64 likeliest maximisers recomputed exactly).
ESTIMATOR = {"exact_max_cost": 1e10, "n_samples": 192, "max_candidates": 64, "confidence": 0.99}


def tau_series(family, sizes, norm, ctx, lam_S):
    """τ, τ/n and the argmax node along ``sizes``; ``lam_S(n)`` gives (λ, S)."""
    transitive = is_transitive(family)
    rows = []
    for n in sizes:
        gseed = seed_of(ctx.rng(ID, "graph", family, n))
        A = family_graph(family, n, gseed)
        lam, S_ = lam_S(n)
        # Vertex-transitive graphs have equal τ_i: one node gives τ exactly.
        nodes = np.array([0]) if transitive else None
        res = connectivity_factor(A, lam, S_, norm=norm, nodes=nodes)
        deg = np.asarray(A.sum(axis=1)).ravel()
        rows.append({"n": res.n, "lam": lam, "S": S_, "tau": res.tau, "tau_over_n": res.tau / res.n,
                     "argmax_node": res.argmax, "argmax_degree": float(deg[res.argmax]),
                     "isolated_nodes": int((deg == 0).sum()),
                     "max_degree_share": max_degree_share(deg), "graph_seed": gseed,
                     "floor": floor_tau_over_n(lam, S_), "A": A})
    return rows


def thorough_sizes(ctx, family, schedule):
    """The n grid of ``--thorough`` for one family and schedule (× ``ctx.scale``)."""
    sizes = scaled_sizes(THOROUGH_SIZES, ctx.scale)
    cap = GROWN_MAX_N.get(family) if schedule == "sqrt_n" else None
    if cap is not None:
        sizes = tuple(n for n in sizes if n <= max(cap * ctx.scale, sizes[0]))
    return sizes


@CLAIM.plan
def plan(ctx, norm):
    """``--thorough``: one ``tau`` cell per family × schedule × n (the graph of
    ``ctx.rng(ID, "graph", family, n)``, as the default run's)."""
    cells = []
    for fam in checker_families(ctx, FAMILIES):
        for schedule in ("fixed", "sqrt_n"):
            for n in thorough_sizes(ctx, fam, schedule):
                gseed = seed_of(ctx.rng(ID, "graph", fam, n))
                cells.append(("tau", {"family": fam, "n": n, "lam": LAM, "S": S,
                                            "norm": norm, "schedule": schedule,
                                            "graph_seed": gseed, **ESTIMATOR}))
    return cells


#: What a ``tau`` record gives a series row.
ROW_KEYS = ("n", "lam", "S", "tau", "tau_over_n", "argmax_node", "argmax_degree",
            "isolated_nodes", "max_degree_share", "graph_seed", "floor", "method", "tau_lower",
            "tau_upper", "tau_upper_over_n")


def tau_grid(ctx, norm):
    """``{family: (fixed, grown)}`` of ``--thorough``, read from the planned cells' records
    (:func:`plan`): rows as :func:`tau_series`'s, plus τ's bracket and how τ was computed.

    Rows carry no adjacency (``"A": None``); :func:`_graph_of` rebuilds it when needed.
    """
    cells = plan(ctx, norm)
    recs = run_planned(ctx, cells)
    series = {fam: ([], []) for fam in checker_families(ctx, FAMILIES)}
    for (_, params), r in zip(cells, recs):
        row = dict({k: r["result"][k] for k in ROW_KEYS}, A=None, family=params["family"],
                   requested_n=params["n"])
        series[params["family"]][params["schedule"] == "sqrt_n"].append(row)
    return {fam: tuple(v) for fam, v in series.items()}


#: A counterexample carries its graph (edges or their hash): a complete graph measured in closed
#: form beyond this size (``--thorough``) is not built; the largest buildable one stands in.
WITNESS_MAX_DENSE = 5000


def _witness(series):
    """The row of a series a counterexample is built on: the largest n whose graph can be
    built (every row, except a closed-form complete graph above WITNESS_MAX_DENSE nodes)."""
    ok = [r for r in series
          if r.get("method") != "closed-form" or r["n"] <= WITNESS_MAX_DENSE]
    return ok[-1] if ok else series[-1]


def _graph_of(family, row):
    if row.get("A") is not None:
        return row["A"]
    return family_graph(family, row.get("requested_n", row["n"]), row["graph_seed"])


def _floor_test(c):
    """Atlas test of the floor τ/n ≥ 1/((λ+1)(1 − r^{S+1}))² (ratio floor/(τ/n) > 1 fails)."""
    floor = 1.0 / ((c.lam + 1.0) * c.mass) ** 2
    ratio = floor[:, None] / (c.tau / c.n)
    return ratio > 1 + 1e-12, ratio


def _floor_line(atlas):
    if not atlas.holds:
        return (f"VIOLATED on {atlas.failing_cases} cases, first {atlas.minimal}: checker bug "
                "(the floor is proven for every graph)")
    return (f"τ/n ≥ 1/((λ+1)(1−r^(S+1)))² on {atlas.cases:,} cases ({atlas.graphs:,} graphs "
            f"≤ 7 nodes × λ × S = 0..64): max floor/(τ/n) = {atlas.worst_ratio:.15f} at "
            f"{atlas.worst} (equality at S = 0, where Ã_0 = I/(λ+1) and τ = n)")


def exact_floor(lam, S):
    """1/((λ+1)(1 − r^{S+1}))² as a fraction."""
    return 1 / ((frac(lam) + 1) * exact_mass(lam, S)) ** 2


def judge_fixed(rows, floor):
    """Fixed λ, S: fails when τ/n ≥ the universal floor at every n (it must: see module doc)."""
    tol = 1e-12
    below = [r for r in rows if r["tau_over_n"] < floor * (1 - tol)]
    if below:   # would contradict the proof of the floor: a bug, not a finding
        return "inconclusive", below[0]
    return "fails", rows[-1]


def inside_hypotheses(rows):
    """The corrected statement's hypotheses on one family's series: (inside?, why not)."""
    return no_hub_hypotheses(rows, "their τ_i = n for every λ, S")


#: λ growing: fails on an isolated node's τ/n = 1, else the decay verdict, a ``holds`` kept
#: only where the upper end of an estimated τ's bracket decays too (one home in ``kit.stats``,
#: which the sweep summary uses as well).
judge_grown = tau_decay_verdict
bracket_slope = tau_bracket_slope


@draws("assumption-2-{norm}.png")
def _figure(path, norm, series):
    return fixed_vs_grown(path, series, "tau_over_n", label="τ/n",
                          floor=floor_tau_over_n(LAM, S),
                          floor_label="floor 1/((λ+1)m)², m = 1 − r^(S+1)", floor_key="floor",
                          lam=LAM, S=S, ylabel="τ/n",
                          title=f"Assumption 2: τ/n against n per graph family, norm={norm}")


@CLAIM.checker
def check(ctx, norm):
    floor = floor_tau_over_n(LAM, S)
    if ctx.thorough:  # the planned cells, run on the sweep runner (see plan)
        series = tau_grid(ctx, norm)
        sizes = scaled_sizes(THOROUGH_SIZES, ctx.scale)
    else:
        sizes = SIZES
        series = {fam: (tau_series(fam, sizes, norm, ctx, lambda n: (LAM, S)),
                        tau_series(fam, sizes, norm, ctx, grown_lam_S))
                  for fam in checker_families(ctx, FAMILIES)}
    figs = _figure(ctx, norm, series)
    # One result per statement and norm; the per-family series live in the evidence (a row per
    # family and statement in the table would bury the other claims).
    fixed_rows = []
    for fam, (fixed, _) in series.items():
        v, w = judge_fixed(fixed, floor)
        fixed_rows.append({"family": fam, "verdict": v, "worst": w,
                           "loglog_slope_tau_vs_n": loglog_slope([r["n"] for r in fixed],
                                                                 [r["tau"] for r in fixed]),
                           "series": fixed})
    results = [_fixed_result(ctx, norm, fixed_rows, floor, sizes, figs),
               _grown_result(ctx, norm, {fam: grown for fam, (_, grown) in series.items()},
                             figs)]
    if ctx.thorough:
        for res in results:
            res.evidence["thorough"] = _thorough_evidence(ctx, series)
    results.append(o_n_erratum(ctx, norm, fixed_rows, results))   # erratum block below
    return results


def _thorough_evidence(ctx, series):
    """What the thorough run measured: sizes per family and schedule, how τ was computed."""
    per = {fam: {sched: [r["n"] for r in rows] for sched, rows in zip(("fixed", "sqrt_n"), pair)}
           for fam, pair in series.items()}
    methods = sorted({r["method"] for pair in series.values() for rows in pair for r in rows})
    return {"scale": ctx.scale, "cells": sum(len(rows) for p in series.values() for rows in p),
            "sizes_per_family": per, "largest_n": max(r["n"] for p in series.values()
                                                      for rows in p for r in rows),
            "tau_methods": methods, "estimator": ESTIMATOR,
            "bracket": "where τ is estimated, tau_over_n is the exact τ_i/n of the likeliest "
                       "maximiser (≤ τ/n) and τ/n ≤ tau_upper_over_n with probability 0.99; "
                       "a decay verdict needs the upper end's slope to decay too"}


def _public(rows):
    """A τ series as evidence: without the graphs and what the family's key already says."""
    return [public(r, drop=("A", "family", "requested_n")) for r in rows]


def _family_evidence(rows):
    return {r["family"]: {**public(r, drop=("series", "worst")),
                          "series": _public(r["series"])} for r in rows}


def _grown_evidence(ctx, trends, family, rows):
    """One family's λ = √n trend as evidence (with the slope of τ's upper end, ``--thorough``)."""
    t = trends.trends[family]
    out = {"family": family, "verdict": t.verdict, "loglog_slope_tau_over_n": t.slope,
           "loglog_slope_ci95": trends.intervals[family], "tau_over_n_decreasing": t.decreasing,
           "to_decide": t.to_decide}
    if ctx.thorough:
        out["loglog_slope_tau_upper_over_n"] = bracket_slope(rows)
    return dict(out, series=_public(rows))


def _fixed_result(ctx, norm, rows, floor, sizes, figs):
    v = worst_verdict(r["verdict"] for r in rows)
    atlas = scan(norm, _floor_test, lams=lam_grid(ctx),
                 ratio="floor / (τ/n) (> 1: below the floor)")
    if not atlas.holds:   # the floor is proven for every graph: a violation is a checker bug
        v = "inconclusive"
    fl = exact_floor(LAM, S)
    ev = {"lam": LAM, "S": S, "sizes": list(sizes), "floor_tau_over_n": floor,
          "floor_exact": {"value": f"{fl.numerator}/{fl.denominator}", "decimal": decimal(fl),
                          "certified": "exact (rational λ)"},
          "floor_on_atlas": _floor_line(atlas),
          "families": _family_evidence(rows),
          "why": "[Ã_S]_ii ≥ 1/(λ+1) (s = 0 term; all terms ≥ 0) ⇒ τ/n ≥ 1/((λ+1)m)² for "
                 "every graph and n, so τ/n cannot tend to 0 at fixed λ, S."}
    failing = [r for r in rows if r["verdict"] == "fails"]
    ce = None
    if failing:
        # The family that comes closest to the assumption (smallest τ/n at the largest n):
        # even it stays above the floor.
        best = min(failing, key=lambda r: r["series"][-1]["tau_over_n"])
        w = _witness(best["series"])
        ce = counterexample(ID, ctx, graph=(f"{best['family']}-{w['n']}-seed{w['graph_seed']}",
                                            _graph_of(best["family"], w)),
                            family=best["family"], n=w["n"], lam=LAM, S=S, norm=norm,
                            tau=w["tau"], tau_over_n=w["tau_over_n"], node=w["argmax_node"],
                            floor=floor, isolated_nodes=w["isolated_nodes"])
        tn = " → ".join(f"{r['tau_over_n']:.3g}" for r in best["series"])
        summ = (f"τ/n ≥ floor {floor:.2g} for every graph: fails on {len(failing)}/{len(rows)} "
                f"families; closest: {best['family']} τ/n = {tn} (n {sizes[0]}→{sizes[-1]})")
    else:
        summ = "τ/n below the proven floor somewhere: checker bug, no verdict"
    # τ/n is to tend to 0; the violation is the floor it never goes below (closest family).
    search = combine_search(atlas, {"families": [r["family"] for r in rows], "sizes": list(sizes),
                                    "lam": LAM, "S": S})
    search["atlas_checks"] = "the floor τ/n ≥ 1/((λ+1)(1−r^(S+1)))² the verdict rests on"
    return CLAIM.result(norm, v, ev, summ, ce, figs,
                        violation=Violation(
                            "τ/n", floor, "→", 0, measured_is="≥",
                            case=f"every graph and n (closest: {best['family']} n={w['n']}, "
                                 f"{w['tau_over_n']:.3g})") if ce else None, search=search)


def _grown_result(ctx, norm, series, figs):
    """λ = √n: τ/n along n per family (``series``: family -> rows), the worst verdict over the
    families inside the hypotheses."""
    trends = family_trends(series, "tau_over_n", judge_grown, inside_hypotheses)
    outside = {f: f"{why}; its own trend: {trends.trends[f].verdict}"
               for f, why in trends.outside.items()}
    inside, v = trends.inside, trends.verdict
    ev = {"schedule": "λ = √n, S = ⌈2λ⌉",
          "criterion": f"per family — holds: the 95% interval of the log-log slope of τ/n ≤ "
                       f"{SLOPE_DECAY} and τ/n decreasing; fails: τ/n = 1 (isolated node) or "
                       f"the interval > {SLOPE_FLAT} over ≥ 8× range in n; else inconclusive, "
                       "with the sizes that would decide it (to_decide). A finite-range "
                       "trend, not a limit proof. Overall: the worst verdict over the "
                       "families inside the hypotheses.",
          "hypotheses": f"no isolated node at any n; log-log slope of max_i d̃_i/Σ_j d̃_j ≤ "
                        f"{SHARE_DECAY}",
          "outside_the_hypotheses": outside,
          "families": {f: _grown_evidence(ctx, trends, f, rows) for f, rows in series.items()},
          SQRT_N_KEY: SQRT_N_WHY}
    by = {k: [f for f in inside if trends.trends[f].verdict == k]
          for k in ("holds", "fails", "inconclusive")}
    ce = None
    if by["fails"]:
        fam = trends.first("fails")
        last = _witness(series[fam])
        ce = counterexample(CORRECTED.id, ctx, graph=(
            f"{fam}-{last['n']}-seed{last['graph_seed']}", _graph_of(fam, last)),
            family=fam,
            n=last["n"], lam=last["lam"], S=last["S"], norm=norm, tau_over_n=last["tau_over_n"],
            node=last["argmax_node"], node_degree=last["argmax_degree"],
            isolated_nodes=last["isolated_nodes"],
            reason="isolated node: its row of Ã_S is m·e_i, τ_i = n for every λ, S"
            if last["isolated_nodes"] and last["tau_over_n"] >= 1 - 1e-9 else
            "no decay of τ/n over the n grid (hub: the λ → ∞ limit of Ã_S keeps a "
            "constant share of each row on the hub)")
    slopes = listing(f"{f} {rounded(trends.trends[f].slope)}" for f in by["holds"])
    decays = (f"τ/n decays on {len(by['holds'])}/{len(inside)} families inside the hypotheses"
              + (f" (slopes {slopes})" if by["holds"] else ""))
    summ = (f"{SQRT_N_WHY}, S = ⌈2λ⌉: {decays if inside else 'no family inside the hypotheses'}"
            + (f"; fails: {', '.join(by['fails'])}" if by["fails"] else "")
            + (f"; inconclusive: {', '.join(by['inconclusive'])}" if by["inconclusive"] else "")
            + trends.summary_tail(named=bool(ctx.families)))
    return CORRECTED.result(norm, v, ev, summ, ce, figs)


# ----------------------------------------------------------------------------- erratum: O(n)
# The written "O(n)" against the meant "o(n)" (lim τ/n = 0). Kept apart from the families above:
# it only reads the fixed-λ series and the two results the check already made.

O_N_WORDS = ("Assumption 2: 'The high-order graph connectivity factor τ is O(n), i.e., "
             "lim_{n→∞} τ/n = 0'")
O_N = CLAIM.erratum(
    "o-n", "As written, 'τ is O(n)' is the same as 'lim τ/n = 0' (the 'i.e.'). Checked: O(n) "
           "holds for every graph (τ ≤ n, Remark 1; measured τ/n ≤ 1), while τ/n stays above "
           "the floor 1/((λ+1)(1−r^{S+1}))² at fixed λ, S, so O(n) does not give the limit; "
           "o(n) is meant, and whether it holds is read from assumption-2 (fixed λ = 32, "
           "S = 16) and assumption-2-corrected (λ = √n).",
    f"written, {O_N_WORDS}: O(n) is vacuous since τ ≤ n for every graph (Remark "
    "1: 'τ ∈ [1, n]'), and the 'i.e.' states the limit τ/n → 0, which is o(n): "
    "o(n) is meant")


def o_n_erratum(ctx, norm, fixed_rows, results):
    """The erratum result: O(n) holds on every measured graph, the limit does not follow from
    it (the family closest to τ/n → 0 stays above the floor), and the meant o(n)'s verdicts."""
    floor = floor_tau_over_n(LAM, S)
    pts = [(fam["family"], r) for fam in fixed_rows for r in fam["series"]]
    max_over_n = max(r["tau_over_n"] for _, r in pts)
    best = min(fixed_rows, key=lambda f: f["series"][-1]["tau_over_n"])
    w = best["series"][-1]
    meant = {r.id: r.verdict for r in results if r.id in (ID, CORRECTED.id)}
    ev = {"written": O_N_WORDS, "meant": "τ = o(n): lim_{n→∞} τ/n = 0",
          "O_n_on_every_graph": {"max_tau_over_n": max_over_n, "graphs": len(pts),
                                 "why": "τ ≤ n by Remark 1's Eq. 7 (τ_i ≤ n for every row)"},
          "limit_not_implied": {"family": best["family"], "n": w["n"],
                                "tau_over_n": w["tau_over_n"], "floor": floor,
                                "why": "τ/n ≥ 1/((λ+1)(1−r^{S+1}))² for every graph at fixed λ, S"},
          "meant_verdicts": meant, "lam": LAM, "S": S}
    ce = counterexample(O_N.id, ctx, graph=(f"{best['family']}-{w['n']}-seed{w['graph_seed']}",
                                            _graph_of(best["family"], w)),
                        family=best["family"], n=w["n"], lam=LAM, S=S, norm=norm,
                        tau_over_n=w["tau_over_n"], floor=floor,
                        note="τ ≤ n (O(n) holds) yet τ/n ≥ floor > 0 (no limit 0)")
    label = {ID: f"fixed λ = {LAM:g}, S = {S}", CORRECTED.id: "λ = √n, S = ⌈2λ⌉"}
    meant_txt = ", ".join(f"{label[k]} ({k}) {v}" for k, v in meant.items())
    return O_N.result(norm, "fails", ev,
                      f"as written 'O(n), i.e. τ/n → 0' is not one statement: τ/n ≤ 1 on all "
                      f"{len(pts)} graphs (max {max_over_n:.3g}: O(n) holds), yet "
                      f"{best['family']} n={w['n']} keeps τ/n = {w['tau_over_n']:.3g} ≥ floor "
                      f"{floor:.2g}; meant o(n): {meant_txt}", ce)

