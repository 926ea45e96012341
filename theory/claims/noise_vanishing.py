"""Sec. 1: "with the increase in graph size and graph connectivity factor, the stochasticity tends
to diminish": does the aggregated noise Ã_Sη vanish as n grows?

With η i.i.d., zero mean, variance σ² (n × d), E‖Ã_Sη‖_F² = σ²d·Σ_i ρ_i, ρ_i = Σ_j [Ã_S]_ij²,
exactly; so the per-node energy E‖Ã_Sη‖_F²/(nσ²d) = Σ_i ρ_i/n is read off the row square sums
(:func:`ngc_ref.connectivity_factor`, every node; one node for vertex-transitive families; the
complete graph in closed form), cross-checked against a dense spectral reference on the
smallest graph of each family.

At fixed λ it cannot vanish: every term of Ã_S is entrywise ≥ 0 and the s = 0 term is I/(λ+1),
so [Ã_S]_ii ≥ 1/(λ+1), ρ_i ≥ 1/(λ+1)² and Σ_i ρ_i/n ≥ 1/(λ+1)² for every graph (≈ 9.2e-4 at the
paper's λ = 32). The total E‖Ã_Sη‖_F² then grows at least like σ²d·n/(λ+1)², and for rw it is
never below σ²d(1 − r^{S+1})² (Eq. 7's lower bound, Σ_i ρ_i ≥ n·m²/n), whatever λ(n): the total
aggregated noise never vanishes. The per-node energy can vanish only if λ grows with n; the
corrected statement lets λ = √n, S = ⌈2λ⌉ (as assumption-2-corrected) and asks for a decay along
n on the families without isolated nodes and without a hub holding a constant share of the
degree (an isolated node keeps ρ_i = m², a hub a constant share of every row as λ → ∞).
"""

from __future__ import annotations

import numpy as np

from ngc_ref import connectivity_factor, series_mass

from ..paper.bounds import grown_lam_S
from ..kit.evidence import SQRT_N_KEY, SQRT_N_WHY, counterexample, public
from ..kit.claim import Violation, claim
from ..output.figures import draws, fixed_vs_grown
from ..paper.words import EXPERIMENTS_LAM_S, theory_rw
from ..kit.graphs import (FAMILIES, checker_families, closed_form, complete_rho, family_graph,
                          is_transitive)
from ..kit.stats import (SLOPE_DECAY, SLOPE_FLAT, decay_verdict, family_trends, loglog_slope,
                         max_degree_share, no_hub_hypotheses, seed_of)
from ..kit.text import listing, rounded
from ._energy import row_square_sums, spectrum

ID = "noise-vanishing"
WORDS = ("Sec. 1: 'We prove that with the increase in graph size and graph connectivity factor, "
         "the stochasticity tends to diminish'")
LAM, S = EXPERIMENTS_LAM_S
STATEMENT = ("The aggregated noise diminishes as the graph grows: at the experiments' fixed "
             "λ = 32, S = 16 the per-node noise energy E‖Ã_Sη‖_F²/(nσ²d) = Σ_iρ_i/n "
             "(ρ_i = Σ_j[Ã_S]_ij²) tends to 0 along n (the weakest reading; Lemma 1 bounds even "
             "the total ‖Ã_Sη‖_F² by a vanishing O(τ log n/n)). Checked exactly per graph family "
             "along n; the verdict rests on the floor Σ_iρ_i/n ≥ 1/(λ+1)², which holds for every "
             "graph.")
CLAIM = claim(ID, "Sec. 1 (introduction); Lemma 1", STATEMENT, order=95, families=True,
              **theory_rw(WORDS, "the noise and τ of the theory use D̃⁻¹Ã"),
              rule="theory", seconds=(1.2, 49.0),
              doc="does the per-node aggregated noise vanish as n grows (fixed λ; λ = √n)")
GROWN = CLAIM.corrected(
    "With λ = √n and S = ⌈2λ⌉ the per-node noise energy Σ_iρ_i/n decreases along n (log-log "
    "slope ≤ −0.1, decreasing at every step) for every graph family without isolated nodes whose "
    "largest degree share max_i d̃_i/Σ_j d̃_j decreases with n (log-log slope ≤ −0.1); families "
    "outside these hypotheses are listed, not judged.", key="sqrt-n")
TOTAL = CLAIM.corrected(
    "The total aggregated noise never vanishes: E‖Ã_Sη‖_F²/(σ²d) = Σ_iρ_i ≥ n/(λ+1)² for every "
    "graph, λ and S, and for rw also Σ_iρ_i ≥ (1 − r^{S+1})² (Eq. 7's lower bound summed).",
    key="total")

#: Relative rounding allowed below a proven floor.
ROUND = 1e-12


def sizes(ctx):
    return (100, 200, 400, 800, 1600, 3200) if ctx.thorough else (100, 200, 400, 800)


def energy_series(ctx, family, norm):
    """Per n, at the fixed (λ, S) and at λ = √n: the energies of the family's graph (the graph
    of ``ctx.rng(ID, "graph", family, n)``). Returns (fixed rows, grown rows)."""
    transitive = is_transitive(family)
    fixed, grown = [], []
    for n in sizes(ctx):
        gseed = seed_of(ctx.rng(ID, "graph", family, n))
        A = family_graph(family, n, gseed)
        deg = np.asarray(A.sum(axis=1)).ravel()
        for out, (lam, S_) in ((fixed, (LAM, S)), (grown, grown_lam_S(n))):
            out.append(_energies(A, deg, family, transitive, lam, S_, norm, gseed))
    return fixed, grown


def _energies(A, deg, family, transitive, lam, S_, norm, gseed):
    nn = A.shape[0]
    if closed_form(family):
        # K_n in closed form (Ã = J/n): the Horner sums cost S·n² per row for nothing.
        mean_rho, tau = complete_rho(nn, lam, S_), nn * complete_rho(nn, lam, S_) / \
            series_mass(lam, S_) ** 2
    else:
        # Vertex-transitive graphs have equal ρ_i: one row gives the mean exactly.
        res = connectivity_factor(A, lam, S_, norm=norm,
                                  nodes=np.array([0]) if transitive else None)
        mean_rho, tau = float(res.row_square_sums.mean()), res.tau
    return {"n": nn, "lam": lam, "S": S_, "graph_seed": gseed,
            "per_node_energy": mean_rho, "total_energy": mean_rho * nn,
            "floor_per_node": 1.0 / (lam + 1.0) ** 2,
            "rw_total_floor": series_mass(lam, S_) ** 2, "tau": tau,
            "isolated_nodes": int((deg == 0).sum()),
            "max_degree_share": max_degree_share(deg), "A": A}


def judge_grown(rows):
    """:func:`decay_verdict` (a :class:`Trend`) of the per-node noise energy along n."""
    return decay_verdict([r["n"] for r in rows], [r["per_node_energy"] for r in rows])


def below_floor(value, floor):
    """Whether a measured energy is below a proven floor by more than rounding (relative
    :data:`ROUND`): a checker bug, never a finding.

    >>> below_floor(1.0 - 1e-12, 1.0), below_floor(1.0 - 2e-12, 1.0)
    (False, True)
    """
    return value < floor * (1 - ROUND)


def total_floor(row, norm):
    """The proven floor of the total energy Σ_iρ_i: n/(λ+1)² for every graph; for rw also
    (1 − r^{S+1})² (Eq. 7's lower bound summed), the larger of the two."""
    floor = row["n"] / (row["lam"] + 1.0) ** 2
    return max(floor, row["rw_total_floor"]) if norm == "rw" else floor


def inside_hypotheses(rows):
    return no_hub_hypotheses(rows, "their ρ_i = (1 − r^{S+1})² for every λ, S")


def _reference_gap(series, norm):
    """Dense spectral ρ (:mod:`._energy`) beside the measured mean ρ on each family's smallest
    graph, both schedules (the complete graph's closed form included)."""
    worst = 0.0
    for fixed, grown in series.values():
        spec = spectrum(fixed[0]["A"])
        for r in (fixed[0], grown[0]):
            rho = row_square_sums(spec, r["lam"], r["S"], norm)
            worst = max(worst, abs(float(rho.mean()) - r["per_node_energy"])
                        / r["per_node_energy"])
    return worst


@draws("noise-vanishing-{norm}.png")
def _figure(path, norm, series):
    return fixed_vs_grown(path, series, "per_node_energy", label="Σρ_i/n",
                          floor=1.0 / (LAM + 1.0) ** 2, floor_label="floor 1/(λ+1)²",
                          floor_key="floor_per_node", lam=LAM, S=S,
                          ylabel="E‖Ã_Sη‖_F² / (nσ²d)",
                          title=f"Per-node aggregated noise energy against n, norm={norm}")


@CLAIM.checker
def check(ctx, norm):
    series = {fam: energy_series(ctx, fam, norm) for fam in checker_families(ctx, FAMILIES)}
    figs = _figure(ctx, norm, series)
    gap = _reference_gap(series, norm)
    return [_fixed_result(ctx, norm, series, gap, figs), _grown_result(ctx, norm, series, figs),
            _total_result(ctx, norm, series)]


def _fixed_result(ctx, norm, series, gap, figs):
    floor = 1.0 / (LAM + 1.0) ** 2
    fams = {}
    below = []
    for fam, (fixed, _) in series.items():
        e = [r["per_node_energy"] for r in fixed]
        fams[fam] = {"per_node_energy": e, "n": [r["n"] for r in fixed],
                     "loglog_slope": loglog_slope([r["n"] for r in fixed], e),
                     "last_over_floor": e[-1] / floor,
                     "total_energy": [r["total_energy"] for r in fixed]}
        below += [(fam, r) for r in fixed if below_floor(r["per_node_energy"], floor)]
    ev = {"lam": LAM, "S": S, "sizes": list(sizes(ctx)), "floor_per_node": floor,
          "families": fams, "sigma2_d": "1 (the energies scale with σ²d)",
          "dense_spectral_reference_vs_connectivity_factor_rel_diff": gap,
          "why": "[Ã_S]_ii ≥ 1/(λ+1) (the s = 0 term; every term ≥ 0) ⇒ ρ_i ≥ 1/(λ+1)² ⇒ "
                 "Σ_iρ_i/n ≥ 1/(λ+1)² for every graph and n",
          "criterion": "fails when the per-node energy stays at or above the proven floor at "
                       "every n of every family (it must); a value below the floor would be a "
                       "checker bug (inconclusive)"}
    if below:
        fam, r = below[0]
        return CLAIM.result(norm, "inconclusive", ev,
                            f"per-node energy below the proven floor ({fam}, n={r['n']}): "
                            "checker bug, no verdict")
    best = min(series, key=lambda f: series[f][0][-1]["per_node_energy"])
    w = series[best][0][-1]
    ce = counterexample(ID, ctx, graph=(f"{best}-{w['n']}-seed{w['graph_seed']}", w["A"]),
                        family=best, n=w["n"], lam=LAM, S=S, norm=norm,
                        per_node_energy=w["per_node_energy"], floor=floor,
                        total_energy=w["total_energy"])
    e = " → ".join(f"{x:.3g}" for x in fams[best]["per_node_energy"])
    return CLAIM.result(norm, "fails", ev,
                        f"Σρ_i/n ≥ 1/(λ+1)² = {floor:.3g} for every graph; the lowest family, "
                        f"{best}: {e} (n {sizes(ctx)[0]}→{sizes(ctx)[-1]}), "
                        f"{fams[best]['last_over_floor']:.2f}× the floor; its total Σρ_i "
                        f"{series[best][0][0]['total_energy']:.3g} → {w['total_energy']:.3g}",
                        ce, figs,
                        # Σρ_i/n is to tend to 0: the violation is the floor it never goes below.
                        violation=Violation(
                            "Σρ_i/n", floor, "→", 0, measured_is="≥",
                            case=f"every graph and n (lowest: {best} n={w['n']}, "
                                 f"{w['per_node_energy']:.3g})"))


def _grown_result(ctx, norm, series, figs):
    grown = {fam: rows for fam, (_, rows) in series.items()}
    trends = family_trends(grown, "per_node_energy", judge_grown, inside_hypotheses)
    fams = {fam: {"verdict": t.verdict, "loglog_slope": t.slope,
                  "loglog_slope_ci95": trends.intervals[fam], "decreasing": t.decreasing,
                  "to_decide": t.to_decide, "series": [public(r) for r in grown[fam]]}
            for fam, t in trends.trends.items()}
    own = trends.trends
    outside = {f: f"{why}; its own trend: {own[f].verdict} (slope {rounded(own[f].slope)})"
               for f, why in trends.outside.items()}
    v = trends.verdict
    ev = {"schedule": "λ = √n, S = ⌈2λ⌉", SQRT_N_KEY: SQRT_N_WHY, "families": fams,
          "outside_the_hypotheses": outside,
          "criterion": f"per family — holds: the 95% interval of the log-log slope ≤ "
                       f"{SLOPE_DECAY} and decreasing; fails: the interval > {SLOPE_FLAT} over "
                       "≥ 8× in n; else inconclusive, with the sizes that would decide it "
                       "(to_decide). The worst verdict over the families inside the "
                       "hypotheses. A finite-range trend, not a limit proof."}
    ce = None
    if v == "fails":
        fam = trends.first("fails")
        last = grown[fam][-1]
        ce = counterexample(GROWN.id, ctx, graph=(f"{fam}-{last['n']}-seed{last['graph_seed']}",
                                                  last["A"]), family=fam, n=last["n"],
                            lam=last["lam"], S=last["S"], norm=norm,
                            per_node_energy=last["per_node_energy"],
                            loglog_slope=own[fam].slope)
    slopes = listing((f"{f} {rounded(own[f].slope)}" for f in trends.inside),
                     empty="none (no family inside the hypotheses)")
    summ = (f"{SQRT_N_WHY}, S = ⌈2λ⌉: per-node energy slopes {slopes}"
            + trends.summary_tail(named=bool(ctx.families)))
    return GROWN.result(norm, v, ev, summ, ce, figs)


def _total_result(ctx, norm, series):
    worst = (np.inf, None)
    count = 0
    for fam, pair in series.items():
        for schedule, rows in zip(("fixed", "sqrt_n"), pair):
            for r in rows:
                floor = total_floor(r, norm)
                ratio = r["total_energy"] / floor
                count += 1
                if ratio < worst[0]:
                    worst = (ratio, (fam, schedule, r, floor))
    ratio, (fam, schedule, r, floor) = worst
    ev = {"cases": count, "closest": {"family": fam, "schedule": schedule, "n": r["n"],
                                      "lam": r["lam"], "S": r["S"],
                                      "total_energy": r["total_energy"], "floor": floor},
          "tolerance": f"relative {ROUND:g}",
          "why": "ρ_i ≥ [Ã_S]_ii² ≥ 1/(λ+1)²; for rw the row sums are m = 1 − r^{S+1} and "
                 "Cauchy–Schwarz gives ρ_i ≥ m²/n (Eq. 7)"}
    if not below_floor(ratio, 1.0):
        return TOTAL.result(norm, "holds", ev,
                            f"Σ_iρ_i ≥ its floor on all {count} cases; closest {fam} "
                            f"({schedule}) n={r['n']}: {r['total_energy']:.4g} = "
                            f"{ratio:.3g}× the floor")
    ce = counterexample(TOTAL.id, ctx, graph=(f"{fam}-{r['n']}-seed{r['graph_seed']}", r["A"]),
                        lam=r["lam"], S=r["S"], norm=norm, total_energy=r["total_energy"],
                        floor=floor)
    return TOTAL.result(norm, "fails", ev,
                        f"Σ_iρ_i = {r['total_energy']:.4g} below {floor:.4g} ({fam}, "
                        f"n={r['n']})", ce,
                        violation=Violation("Σ_iρ_i", r["total_energy"], "≥", floor, "its floor",
                                            case=f"{fam} n={r['n']}"))
