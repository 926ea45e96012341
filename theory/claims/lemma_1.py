"""Lemma 1 (Eq. 9): the tail of ‖Ã_S η‖_F² under sub-Gaussian noise.

Notation: m = 1 − r^{S+1}, ρ_i = Σ_p [Ã_S]_ip² (so τ = n·max_i ρ_i / m²), Z = Ã_S η (n × d).

The paper's bound is  B = 2τm²σ²(4 log n + log 2d)/n = 2σ²·max_i ρ_i·(4 log n + log 2d),
claimed to hold with probability ≥ 1 − 1/d. But E‖Z‖_F² = σ²·d·Σ_i ρ_i ≥ d·max_i ρ_i·σ², so the
bound sits below the mean as soon as d·Σ_i ρ_i > 2 max_i ρ_i (4 log n + log 2d), e.g. on every
graph where the row energies are comparable and n ≳ 8 log n. The proof's last step goes from
‖Z‖_F² ≥ t to max_ij Z_ij² ≥ t; the true implication is max_ij Z_ij² ≥ t/(nd).

The corrected statement checked here is the per-entry Hoeffding bound plus a union bound over the
nd entries (no more than the proof's own argument gives):

    P( max_ij Z_ij² ≥ 2σ²·max_i ρ_i·log(2nd·d) ) ≤ 1/d,

and its Frobenius consequence ‖Z‖_F² ≤ nd·max_ij Z_ij² ≤ 2τm²σ²·d·log(2nd²), which does not
vanish as n grows.
"""

from __future__ import annotations



import math

import numpy as np

from ngc_ref import NeumannFilter, connectivity_factor

from .._atlas import (atlas_counterexample, atlas_minimal, certified_minimal, combine_search,
                      lam_grid, minimal_figure, scan, setting)
from .._common import counterexample, public
from .._core import claim
from .._exact import certify_lemma_1
from .._paper import THEORY_RW_DEFAULT, THEORY_RW_NORMS
from .._bounds import frobenius_bound, max_entry_bound, paper_bound, simulate
from .._figures import draws, legend_outside, log_axes, save_figure, subplots
from .._proofs import LEMMA_1_CHAIN, first_failure, instance_from, random_instances, run_chain
from .._graphs import family_graph
from .._stats import CONFIDENCE, NOISES, bound_verdict, seed_of

ID = "lemma-1"
STATEMENT = ("Under Assumption 1 (i.i.d. zero-mean sub-Gaussian η ∈ R^{n×d}, parameter σ), with "
             "probability at least 1 − 1/d: ‖Ã_Sη‖_F² ≤ 2τ(1 − r^{S+1})²σ²(4 log n + log 2d)/n. "
             "Checked by Monte Carlo: the frequency of exceeding the bound, with a "
             f"{CONFIDENCE:.0%} Clopper-Pearson interval, against 1/d.")

CLAIM = claim(ID, "Lemma 1, Eq. 9 (proof: appendix 'Proof of Lemma 1')", STATEMENT, order=90,
              scope=THEORY_RW_DEFAULT, norm_scopes=THEORY_RW_NORMS)
#: Per-entry Hoeffding bounds plus a union bound over the nd entries (what the proof's own
#: argument gives), and their Frobenius consequence.
MAX_ENTRY = CLAIM.corrected(
    "Under Assumption 1, with probability at least 1 − 1/d: max_ij [Ã_Sη]_ij² ≤ "
    "2τ(1 − r^{S+1})²σ²·log(2nd·d)/n (per-entry Hoeffding bound, union over the nd entries).",
    key="max-entry")
FROBENIUS = CLAIM.corrected(
    "Under Assumption 1, with probability at least 1 − 1/d: ‖Ã_Sη‖_F² ≤ "
    "2τ(1 − r^{S+1})²σ²·d·log(2nd²) (= nd × the max-entry bound; it does not vanish as n "
    "grows).", key="frobenius")

LAM, S = 32.0, 16
#: Feature dimensions d of the exhaustive search (the bound and its probability 1 − 1/d use d).
ATLAS_D = (2, 4, 8, 16, 64, 256, 1024)
#: Random instances the proof chain runs on besides the minimal counterexample.
PROOF_INSTANCES = 30


def _moments(c, d):
    """E‖Ã_Sη‖_F²/σ², Var/σ⁴ (Gaussian η) and Eq. 9's bound/σ², each ``(S+1, G)``."""
    E = d * c.fro2
    V = 2.0 * d * c.gram_fro2
    B = 2.0 * c.rho.max(axis=2) * (4.0 * math.log(c.n) + math.log(2.0 * d))
    return E, V, B


def _pz_test(c, d):
    """Atlas test of Eq. 9 for Gaussian η: the Paley–Zygmund lower bound on
    P(‖Ã_Sη‖_F² > bound), (1 − θ)²E²/(Var + E²) with θ = bound/E, exceeds 1/d (ratio: d × it)."""
    E, V, B = _moments(c, d)
    theta = B / E
    pz = np.where(theta < 1, (1 - theta) ** 2 * E ** 2 / (V + E ** 2), 0.0)
    return pz > (1 + 1e-9) / d, pz * d


def _mean_test(c, d):
    """Where the mean E‖Ã_Sη‖_F² itself lies above Eq. 9's bound."""
    E, _, B = _moments(c, d)
    return E > B, E / B


def _atlas_part(ctx, norm):
    """Eq. 9 in expectation on every graph ≤ 7 nodes × λ × S × d, the certified minimal
    counterexample (and the smallest one with ≥ 2 nodes), and the cases with mean > bound."""
    grid = dict(lams=lam_grid(ctx), extra=("d", ATLAS_D))
    atlas = scan(norm, _pz_test, ratio="d × Paley–Zygmund lower bound on P(exceed)", **grid)
    mean = scan(norm, _mean_test, ratio="E‖Ã_Sη‖_F² / bound", **grid)

    def certify(w):
        return certify_lemma_1(w["n"], w["edges"], w["lam"], w["S"], w["d"], norm)
    mc = atlas_minimal(atlas, certify, norm)
    if mc is not None and mc["n"] < 2:
        two = certified_minimal(atlas, certify, keep=lambda w: w["n"] >= 2)
        if two is not None:
            mc["smallest_with_at_least_2_nodes"] = two
    return atlas, mean, mc


def _proof_steps(ctx, norm, mc):
    inst = [instance_from(mc, norm, d=mc["d"])] if mc else []
    two = (mc or {}).get("smallest_with_at_least_2_nodes")
    if two:
        inst.append(instance_from(two, norm, d=two["d"]))
    inst += random_instances(ctx.rng(ID, norm, "proof"), PROOF_INSTANCES, norm,
                             sigmas=(1.0, 2.0))
    return run_chain(LEMMA_1_CHAIN, inst)


def _cases(ctx):
    sizes = (100, 300, 1000) if not ctx.thorough else (100, 300, 1000, 3000, 10000)
    fams = ("ring", "random_regular_4", "er_avgdeg_2logn", "barabasi_albert_3")
    cases = [(f, n) for f in fams for n in sizes]
    cases.append(("complete", 200))
    return cases


def run_cases(ctx, norm, bound_scale=1.0):
    """Every (graph, noise) case: exceedance counts of the three bounds and their expectations.

    ``bound_scale`` multiplies every bound (1 for the real check; tests plant other values).
    """
    d_values = (8,) if not ctx.thorough else (2, 8, 32)
    trials = 200 if not ctx.thorough else 2000
    sigma = 1.0
    rows = []
    for fam, n in _cases(ctx):
        gseed = seed_of(ctx.rng(ID, "graph", fam, n))
        A = family_graph(fam, n, gseed)
        filt = NeumannFilter(A, LAM, S, norm=norm)
        conn = connectivity_factor(A, LAM, S, norm=norm)
        for d in d_values:
            for noise in NOISES:
                rng = ctx.rng(ID, norm, fam, n, d, noise)
                fro2, max2 = simulate(filt, noise, sigma, d, trials, rng)
                nn = conn.n
                b = bound_scale * paper_bound(conn.tau, LAM, S, sigma, nn, d)
                bm = bound_scale * max_entry_bound(conn.tau, LAM, S, sigma, nn, d)
                bf = bound_scale * frobenius_bound(conn.tau, LAM, S, sigma, nn, d)
                rows.append({
                    "family": fam, "graph_seed": gseed, "n": nn, "d": d, "noise": noise,
                    "sigma": sigma, "trials": trials, "tau": conn.tau,
                    "tau_log_n_over_n": conn.tau_log_n_over_n,
                    "expected_fro2": sigma**2 * d * float(conn.row_square_sums.sum()),
                    "mean_fro2": float(fro2.mean()), "paper_bound": b,
                    "exceed_paper": int((fro2 > b).sum()),
                    "mean_max2": float(max2.mean()), "max_entry_bound": bm,
                    "exceed_max_entry": int((max2 > bm).sum()),
                    "frobenius_bound": bf, "exceed_frobenius": int((fro2 > bf).sum()),
                    "A": A})
    return rows


def judge(rows, key):
    """Worst case of "P(exceed) ≤ 1/d" over rows: (verdict, worst row, its interval)."""
    order = {"fails": 2, "inconclusive": 1, "holds": 0}
    worst, worst_ci, verdict = None, None, "holds"
    for r in rows:
        v, ci = bound_verdict(r[key], r["trials"], 1.0 / r["d"])
        r[key + "_ci"] = ci
        if worst is None or (order[v], ci[0], r["n"]) > (order[verdict], worst_ci[0], worst["n"]):
            worst, worst_ci, verdict = r, ci, v
    return verdict, worst, worst_ci


@draws("lemma-1-{norm}.png")
def _figure(path, norm, rows):
    from matplotlib.lines import Line2D

    fig, axes = subplots(1, 2, figsize=(12, 4.4))
    # Families measured at one size only (the complete graph) make no curve.
    fams = sorted(f for f in {r["family"] for r in rows}
                  if len({r["n"] for r in rows if r["family"] == f}) > 1)
    for fam, colour in zip(fams, [f"C{k}" for k in range(10)]):
        sel = sorted((r for r in rows if r["family"] == fam and r["noise"] == "gaussian"
                      and r["d"] == 8), key=lambda r: r["n"])
        ns = [r["n"] for r in sel]
        axes[0].plot(ns, [r["mean_fro2"] for r in sel], "o-", color=colour)
        axes[0].plot(ns, [r["paper_bound"] for r in sel], "x--", color=colour)
        axes[1].plot(ns, [r["mean_max2"] for r in sel], "o-", color=colour)
        axes[1].plot(ns, [r["max_entry_bound"] for r in sel], "x--", color=colour)
    axes[0].set_title("‖Ã_Sη‖_F²: measured mean vs the paper's Eq. 9 bound", fontsize=10)
    axes[1].set_title("max_ij [Ã_Sη]_ij²: measured mean vs the corrected bound", fontsize=10)
    axes[0].set_ylabel("‖Ã_Sη‖_F²")
    axes[1].set_ylabel("max_ij [Ã_Sη]_ij²")
    log_axes(axes)
    handles = [Line2D([], [], color=f"C{k}", lw=2, label=fam) for k, fam in enumerate(fams)]
    handles += [Line2D([], [], color="k", marker="o", label="measured mean"),
                Line2D([], [], color="k", marker="x", ls="--", label="bound")]
    legend_outside(fig, axes[1], handles, [h.get_label() for h in handles])
    fig.suptitle(f"Lemma 1, λ={LAM:g}, S={S}, d=8, Gaussian σ=1, norm={norm}", fontsize=11)
    return save_figure(fig, path)


def _minimal_figures(ctx, norm, mc):
    figs = []
    for m, tag in ((mc, ""), (mc.get("smallest_with_at_least_2_nodes"), "-n2")):
        if m is None:
            continue
        ex = m["exact"]
        figs += minimal_figure(
            ctx, f"lemma-1-minimal{tag}-{norm}.png", m,
            f"Eq. 9 fails ({norm}, Gaussian η): atlas G{m['atlas_index']}, λ = {m['lam']:g}, "
            f"S = {m['S']}, d = {m['d']}\nE‖Ã_Sη‖²/σ² = {ex[next(iter(ex))]}, bound/σ² "
            f"{ex['Eq. 9 bound / σ² = 2·max_i ρ_i·(4 log n + log 2d)']}",
            caption=f"certified {m['certified']}: P(‖Ã_Sη‖_F² > bound) "
                    f"{ex['Paley–Zygmund: P(‖Ã_Sη‖_F² > bound) ≥ (1 − θ)²E²/(Var + E²)']} > "
                    f"1/d = {ex['1/d']} (Paley–Zygmund, exact moments, bracketed logs)")
    return figs


@CLAIM.checker
def check(ctx, norm):
    rows = run_cases(ctx, norm)
    figs = _figure(ctx, norm, rows)
    common = {"lam": LAM, "S": S, "sigma": "1 (standard deviation = sub-Gaussian parameter for "
              "all three noises; uniform on [-√3, √3])", "confidence": CONFIDENCE,
              "families_and_sizes": sorted({(r["family"], r["n"]) for r in rows}),
              "noises": list(NOISES), "d": sorted({r["d"] for r in rows}),
              "trials_per_case": rows[0]["trials"]}
    results = []

    verdict, w, ci = judge(rows, "exceed_paper")
    ev = dict(common, cases=[public(r) for r in rows],
              worst_case=public(w),
              proof_notes=[
                  "E‖Ã_Sη‖_F² = σ²·d·Σ_i ρ_i ('expected_fro2') does not vanish with n, while the "
                  "bound = 2σ²·max_i ρ_i·(4 log n + log 2d) is O(τ log n / n).",
                  "The proof's last union bound uses ‖M‖_F² ≥ t ⇒ ‖M‖_max² ≥ t; the valid "
                  "implication is ‖M‖_max² ≥ t/(nd) since ‖M‖_F² ≤ nd·‖M‖_max².",
                  "The union bound is taken over n² pairs although Ã_Sη is n × d.",
                  "The chosen t contains (1 − r^S)² and no σ², the stated bound (1 − r^{S+1})²σ².",
                  "The displayed Hoeffding step writes Σ_s (rÃ_S)^s where Ã_S = Σ_s (rÃ)^s/(λ+1) "
                  "is meant."])
    summ = (f"worst: {w['family']} n={w['n']} {w['noise']} d={w['d']}: P(exceed) = "
            f"{w['exceed_paper']}/{w['trials']}, CI [{ci[0]:.3f}, {ci[1]:.3f}] vs 1/d = "
            f"{1 / w['d']:.3f}; E‖Z‖²={w['expected_fro2']:.3g} vs bound {w['paper_bound']:.3g}")
    ce = None
    if verdict == "fails":
        name = f"{w['family']}-{w['n']}-seed{w['graph_seed']}"
        ce = counterexample(ID, ctx, graph=(name, w["A"]),
                            **{k: w[k] for k in ("family", "n", "graph_seed", "noise", "sigma", "d",
                                                 "trials", "tau", "paper_bound", "mean_fro2",
                                                 "expected_fro2", "exceed_paper")},
                            lam=LAM, S=S, norm=norm, exceed_probability_ci=ci,
                            noise_stream=f"ctx.rng('{ID}', '{norm}', '{w['family']}', {w['n']}, "
                                         f"{w['d']}, '{w['noise']}')")
    # The size of the violation: the lower end of the exceedance probability's interval
    # against the promised 1/d.
    atlas, mean, mc = _atlas_part(ctx, norm)
    steps = _proof_steps(ctx, norm, mc)
    broken = first_failure(steps)
    ev["proof_first_false_step"] = broken["step"] if broken else None
    ev["atlas_mean_above_bound"] = (
        f"E‖Ã_Sη‖_F² = σ²d‖Ã_S‖_F² > Eq. 9's bound on {mean.failing_cases:,} of {mean.cases:,} "
        f"atlas cases (graph × λ × S × d); first: {setting(mean.minimal)}; largest "
        f"mean/bound {mean.worst_ratio:.4g} at {setting(mean.worst)}" if mean.minimal else
        "E‖Ã_Sη‖_F² ≤ Eq. 9's bound on every atlas case")
    search = combine_search(atlas, {"families_and_sizes": common["families_and_sizes"],
                                    "lam": LAM, "S": S, "d": common["d"],
                                    "noises": list(NOISES), "trials": common["trials_per_case"]})
    sampled_fails = verdict == "fails"
    if mc is not None:
        summ += (f"; atlas (Gaussian, Paley–Zygmund): P(exceed) > 1/d on "
                 f"{atlas.failing_cases:,}/{atlas.cases:,} cases, minimal {setting(mc)} "
                 f"({mc['certified']})")
        figs = figs + _minimal_figures(ctx, norm, mc)
        if verdict != "fails":
            verdict = "fails"
            ce = atlas_counterexample(ctx, ID, mc, exact=mc["exact"])
    results.append(CLAIM.result(norm, verdict, ev, summ, ce, figs,
                                violation=ci[0] * w["d"] if sampled_fails else None,
                                search=search, minimal_counterexample=mc,
                                steps=steps))

    # Corrected statements: per-entry Hoeffding + union bound over the nd entries.
    for st, key, label, what in (
            (MAX_ENTRY, "exceed_max_entry", "max-entry",
             "P(max_ij [Ã_Sη]_ij² > 2τ(1−r^{S+1})²σ² log(2nd·d)/n) ≤ 1/d"),
            (FROBENIUS, "exceed_frobenius", "Frobenius",
             "P(‖Ã_Sη‖_F² > 2τ(1−r^{S+1})²σ²·d·log(2nd²)) ≤ 1/d (= nd × the max-entry bound)")):
        v2, w2, ci2 = judge(rows, key)
        bkey = "max_entry_bound" if label == "max-entry" else "frobenius_bound"
        mkey = "mean_max2" if label == "max-entry" else "mean_fro2"
        ev2 = dict(common, correction=what, cases=[
            {k: r[k] for k in ("family", "n", "d", "noise", "tau", bkey, mkey, key, key + "_ci")}
            for r in rows], worst_case=public(w2),
            derivation="P(|[Ã_Sη]_ij| ≥ t) ≤ 2exp(−t²/(2σ²ρ_i)) (Hoeffding, ρ_i ≤ τm²/n); a union "
                       "over the nd entries with t² = 2σ²·max_i ρ_i·log(2nd·d) gives total 1/d. "
                       "This holds for any fixed Ã_S, both normalisations.")
        ce2 = None
        if v2 == "fails":
            ce2 = counterexample(st.id, ctx, graph=(
                f"{w2['family']}-{w2['n']}", w2["A"]), noise=w2["noise"], d=w2["d"],
                exceed=w2[key], trials=w2["trials"], ci=ci2, bound=w2[bkey], norm=norm)
        results.append(st.result(
            norm, v2, ev2,
            f"{label}: {what}; worst {w2['family']} n={w2['n']} {w2['noise']}: "
            f"{w2[key]}/{w2['trials']} exceed, CI [{ci2[0]:.3f}, {ci2[1]:.3f}] vs "
            f"1/d={1 / w2['d']:.3f}; mean/bound = {w2[mkey] / w2[bkey]:.2g}",
            ce2))
    return results
