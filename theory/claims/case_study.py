"""Figure 1 and its five numbered insights (G1 isolated, G2 star, G3 complete, G4 ring)."""

import math

import numpy as np
import scipy.sparse as sp

import ngc_ref
from ngc_ref import graphs, series_mass
from ngc_ref.graphs import figure1_graphs

from ..kit.evidence import counterexample, dense_norm_adj
from ..kit.claim import claim
from ..paper.words import THEORY_RW_SCOPES
from ..paper.bounds import floor_tau_over_n
from ..exact.atlas import LAMS, S_MAX, exact_lam, simplicity
from ..exact import certificates as ex
from ..output.figures import draws, figure, save_figure
from .tau_at_scale import complete_row_energy, complete_tau

ID = "case-study"
STATEMENT = ("At λ = S = 64: 1) G1 (isolated, n=4) has no denoising (largest τ·log n/n, τ = n); "
             "2) the complete G3 has the smallest τ among the n = 4 graphs; 3) the star G2 has a "
             "larger τ than G3; 4) the decentralised ring G4 also gets a small τ; 5) the larger "
             "graph G4 denoises better (smaller τ·log n/n than G3).")
GRAPHS = figure1_graphs()
CLAIM = claim(ID, "Figure 1, Sec. 3 case study", STATEMENT, order=70,
              **THEORY_RW_SCOPES,
              rule="theory", seconds=(0.4, 0.3),
              doc="τ, τ·log n/n of G1–G4 at λ = S = 64 and the five insights")
#: The five insights as the checker reads them (insight 4's "also can get a smaller τ" is vague).
INSIGHTS = {
    1: CLAIM.part(1, "G1 (four isolated nodes) has the largest τ·log n/n of the four graphs "
                     "and τ = n: no denoising."),
    2: CLAIM.part(2, "The complete graph G3 has the smallest τ among G1–G3."),
    3: CLAIM.part(3, "The star G2 has a larger τ than the complete graph G3: τ(G2) > τ(G3)."),
    4: CLAIM.part(4, "The decentralised ring G4 also gets a small τ: below the star's and within "
                     "10% of the complete graph's (checker's reading of 'also can get a "
                     "smaller τ')."),
    5: CLAIM.part(5, "The larger graph G4 denoises better than G3: τ·log n/n(G4) < "
                     "τ·log n/n(G3)."),
}


INSIGHT_5_WORDS = ("Sec. 3 case study, insight 5: 'In terms of graph size, the graph with a larger "
                   "size has a better denoising effect'; Figure 1 compares τ·log n/n "
                   "('There is no denoising effect (the value of τ log n/n is quite large)')")
#: Figure 1's λ = S and the sizes of the families at scale (Figure 1's own n = 4, 8 first).
LAM_S = 64
AT_SCALE_SIZES = tuple(2 ** k for k in range(2, 17))        # 4 … 65,536
INSIGHT_5_SCALE = CLAIM.part(
    "5-at-scale",
    "Insight 5 beyond Figure 1's four graphs: within each of Figure 1's families — complete "
    "(G3), ring (G4), star (G2) — the larger graph has the smaller τ·log n/n (the quantity "
    "Figure 1 compares), the family fixed so that only the size changes: at Figure 1's "
    f"λ = S = {LAM_S} for n = 4, 8, …, 65,536, and for every n → n + 1 at every (λ, S) of the "
    "atlas grid (the minimal counterexample: fewest nodes, then the simplest λ, then the "
    "smallest S; τ exact, logarithms bracketed). Control, reported beside it: the noise left "
    "per node relative to no aggregation (G1, isolated nodes: 1 at every n), Σ_iρ_i/(n m²), "
    "against its floor 1/((λ+1)m)².")
#: Figure 1's families at every size, and the smallest n each is built at (ring: C_3 = K_3).
FAMILIES = {"complete": (graphs.complete, 1), "ring": (graphs.ring, 3), "star": (graphs.star, 1)}
#: The walk for the minimal counterexample: n → n + 1 up to this n.
WALK_MAX_N = 8


def _edge_list(A):
    A = sp.triu(sp.csr_array(A), k=1).tocoo()
    return sorted([int(u), int(v)] for u, v in zip(A.row, A.col))


def rise_certificate(family, n, lam, S, norm):
    """Does τ·log n/n rise from the family's graph on n nodes to the one on n + 1? τ exact
    (:func:`..exact.certificates.tau`), log n bracketed
    (:func:`..exact.certificates.log_bounds`): ``rises`` is True only when the lower end of the
    larger graph's value exceeds the upper end of the smaller's."""
    build = FAMILIES[family][0]
    out = {"family": family, "n_small": n, "n_large": n + 1, "lam": lam, "S": S}
    vals = []
    for k, which in ((n, "small"), (n + 1, "large")):
        t = ex.tau(k, _edge_list(build(k)), lam, S, norm)
        lo, hi = ex.log_bounds(k)
        vals.append((t * lo / k, t * hi / k))
        out[f"tau_{which}"] = ex.text(t)
        out[f"tau_log_n_over_n_{which}"] = float(t * lo / k)
    out["rises"] = vals[1][0] > vals[0][1]
    return out


def _float_values(family, n, lam, norm):
    """τ·log k/k of the family's graphs on k = n and n + 1 nodes for S = 0..S_MAX (float64, a
    screen: ``(2, S_MAX + 1)``)."""
    out = []
    for k in (n, n + 1):
        An = dense_norm_adj(FAMILIES[family][0](k), norm)
        r = lam / (lam + 1.0)
        M, P, row = np.eye(k) / (lam + 1.0), np.eye(k), []
        for S in range(S_MAX + 1):
            if S:
                P = r * An @ P
                M = M + P / (lam + 1.0)
            row.append(k * float((M ** 2).sum(axis=1).max()) / (1.0 - r ** (S + 1)) ** 2
                       * math.log(k) / k)
        out.append(row)
    return np.array(out)


def minimal_rise(norm, min_n=2, min_S=1, max_n=WALK_MAX_N):
    """The first pair n → n + 1 (of any Figure 1 family) whose τ·log n/n rises, in the order
    n first, then the simplest λ of the atlas grid, then the smallest S (then the family).
    A float64 screen visits every case; a case it finds rising, or within 10⁻⁹ of equal, is
    decided by :func:`rise_certificate` (exact τ), so the first certified rise is preceded
    only by cases that fall (by more than 10⁻⁹ relative in float64, or exactly).
    ``min_n = 1, min_S = 0`` walks the degenerate cases too (n = 1: log 1 = 0; S = 0:
    Ã_0 = I/(λ+1), τ = n)."""
    for n in range(min_n, max_n + 1):
        for lam in sorted(LAMS, key=simplicity):
            screen = {fam: _float_values(fam, n, float(lam), norm)
                      for fam, (_build, first) in FAMILIES.items() if n >= first}
            for S in range(min_S, S_MAX + 1):
                for fam, v in screen.items():
                    if v[1, S] < v[0, S] * (1 - 1e-9):
                        continue
                    c = rise_certificate(fam, n, exact_lam(lam), S, norm)
                    if c["rises"]:
                        return dict(c, lam=float(lam))
    return None


def family_at_scale(family, n, norm, lam=LAM_S, S=LAM_S):
    """τ, τ·log n/n and the control Σ_iρ_i/(n m²) of one Figure 1 family at size n.

    Complete graphs by the closed form of :mod:`.tau_at_scale`; the ring (vertex-transitive)
    from one row; the star from its hub and one leaf (every leaf is alike)."""
    m2 = series_mass(lam, S) ** 2
    if family == "complete":
        tau, mean_rho = complete_tau(n, lam, S), complete_row_energy(n, lam, S)
    elif family == "ring":
        res = ngc_ref.connectivity_factor(graphs.ring(n), lam, S, norm=norm, nodes=np.array([0]))
        tau, mean_rho = res.tau, float(res.row_square_sums[0])
    elif family == "star":                         # node 0 is the hub
        res = ngc_ref.connectivity_factor(graphs.star(n), lam, S, norm=norm,
                                          nodes=np.array([0, 1]))
        hub, leaf = res.row_square_sums
        tau, mean_rho = res.tau, float(hub + (n - 1) * leaf) / n
    else:
        raise ValueError(f"family must be 'complete', 'ring' or 'star', got {family!r}")
    return {"n": n, "tau": tau, "tau_log_n_over_n": tau * math.log(n) / n,
            "noise_per_node_over_no_aggregation": mean_rho / m2}


def _at_scale_table(norm):
    """Figure 1's families at λ = S = 64 along n = 4, 8, …: the table and the first rise of
    each family."""
    fams = {f: [family_at_scale(f, n, norm) for n in AT_SCALE_SIZES] for f in FAMILIES}
    rises = {f: up for f, rows in fams.items() if (up := first_rise(rows)) is not None}
    return fams, rises


def first_rise(rows):
    """The first consecutive pair (a, b) of ``rows`` (increasing n) whose τ·log n/n rises by
    more than 10⁻¹² relative (float rounding), or None: where insight 5 fails in a family.

    Examples
    --------
    >>> rows = [{"tau_log_n_over_n": v} for v in (0.5, 0.4, 0.45)]
    >>> first_rise(rows)
    ({'tau_log_n_over_n': 0.4}, {'tau_log_n_over_n': 0.45})
    """
    return next(((a, b) for a, b in zip(rows, rows[1:])
                 if b["tau_log_n_over_n"] > a["tau_log_n_over_n"] * (1 + 1e-12)), None)


def _graph_name(family, n):
    return {"complete": f"K{n}", "ring": f"C{n}", "star": f"star K1,{n - 1}"}[family]


def _pair_name(c):
    return (f"{_graph_name(c['family'], c['n_small'])} → {_graph_name(c['family'], c['n_large'])}"
            f" ({c['family']} graphs)")


def _insight_5_at_scale(ctx, norm):
    fams, rises = _at_scale_table(norm)
    floor = floor_tau_over_n(LAM_S, LAM_S)
    mc, low = minimal_rise(norm), minimal_rise(norm, min_n=1, min_S=0)
    at_fig1 = rise_certificate("complete", 2, LAM_S, LAM_S, norm)
    ev = {"words": INSIGHT_5_WORDS, "lam": LAM_S, "S": LAM_S, "sizes": list(AT_SCALE_SIZES),
          "families": fams, "control_floor": floor,
          "control": "Σ_iρ_i/(n m²): E‖Ã_Sη‖_F² per node over that of no aggregation (isolated "
                     "nodes, G1, where Ã_S = mI); the graph's share of the noise it removes. "
                     "It cannot fall below 1/((λ+1)m)² ([Ã_S]_ii ≥ 1/(λ+1)), so beyond "
                     "n ≈ ((λ+1)m)² a larger graph removes no more noise per node",
          "smallest_rise_per_family": {f: {"from": a, "to": b} for f, (a, b) in rises.items()},
          "minimal_order": "n first (pairs n → n + 1), then the simplest λ of the atlas grid "
                           f"{sorted(LAMS, key=simplicity)}, then S = 1..{S_MAX}, then the "
                           f"family ({', '.join(FAMILIES)})",
          "at_figure_1_setting_K2_to_K3": at_fig1}
    ctrl_txt = ", ".join(f"{f} {rows[-1]['noise_per_node_over_no_aggregation']:.3g}"
                         for f, rows in fams.items())
    if mc is None and not rises:
        return INSIGHT_5_SCALE.result(norm, "holds", ev, f"τ·log n/n decreases along n = 4…"
                                                         f"{AT_SCALE_SIZES[-1]:,} in every "
                                                         f"family and along every n → n + 1 ≤ "
                                                         f"{WALK_MAX_N}; control {ctrl_txt}")
    rise_txt = "; ".join(f"{f}: {x['n']}→{y['n']} {x['tau_log_n_over_n']:.3g}→"
                         f"{y['tau_log_n_over_n']:.3g}" for f, (x, y) in rises.items())
    mcr = None
    if mc is not None:
        mcr = dict(mc, case=_pair_name(mc), n=mc["n_small"], norm=norm,
                   certified="exact τ (fractions); log n bracketed by a truncated atanh series",
                   range="n ≥ 2, S ≥ 1")
        if low is not None:
            mcr["degenerate_minimal"] = dict(low, case=_pair_name(low), n=low["n_small"],
                                             label="degenerate: n = 1 (log 1 = 0) or S = 0")
    w = mc or {"family": min(rises, key=lambda f: rises[f][1]["n"])}
    head = (f"{_pair_name(mc)} at λ = {mc['lam']:g}, S = {mc['S']}: τ·log n/n rises from "
            f"{mc['tau_small']}·log {mc['n_small']}/{mc['n_small']} = "
            f"{mc['tau_log_n_over_n_small']:.4f} to {mc['tau_large']}·log {mc['n_large']}/"
            f"{mc['n_large']} = {mc['tau_log_n_over_n_large']:.4f} (τ exact; the smallest "
            f"failure: n first, then λ, then S); at Figure 1's λ = S = {LAM_S} K2 → K3 rises too "
            f"({at_fig1['tau_log_n_over_n_small']:.4f} → {at_fig1['tau_log_n_over_n_large']:.4f})"
            if mc is not None else "the larger graph of the same family has the larger τ·log n/n")
    ce = counterexample(
        INSIGHT_5_SCALE.id, ctx, family=w["family"], norm=norm, **(
            dict(graph=(f"{_graph_name(mc['family'], mc['n_large'])} (the larger graph; the "
                        f"smaller is {_graph_name(mc['family'], mc['n_small'])})",
                        FAMILIES[mc["family"]][0](mc["n_large"])),
                 **{k: mc[k] for k in ("n_small", "n_large", "lam", "S", "tau_small",
                                       "tau_large", "tau_log_n_over_n_small",
                                       "tau_log_n_over_n_large")}) if mc is not None else
            dict(n_small=rises[w["family"]][0]["n"], n_large=rises[w["family"]][1]["n"],
                 lam=LAM_S, S=LAM_S)))
    return INSIGHT_5_SCALE.result(
        norm, "fails", ev, f"{head}; along n = 4, 8, … at λ = S = {LAM_S} the first rise in each "
                           f"family: {rise_txt}; control (noise per node / no aggregation) at n = "
                           f"{AT_SCALE_SIZES[-1]:,}: {ctrl_txt}, floor {floor:.3g}", ce,
        minimal_counterexample=mcr)


#: Insight 4's "also can get a smaller τ", as the checker reads it: τ(G4) within this factor of
#: the complete graph's τ(G3) (and below the star's).
RING_FACTOR = 1.1


def judge_insights(tau, tln):
    """``{i: (what it says, holds?)}`` of the five insights from τ and τ·log n/n of G1–G4
    (``{"G1": value, ...}``): strict comparisons where the paper says larger or smaller, τ(G1)
    = 4 = n to relative 1e-12, and insight 4's τ(G4) ≤ :data:`RING_FACTOR`·τ(G3).

    Examples
    --------
    >>> tau = {"G1": 4.0, "G2": 1.5, "G3": 1.0, "G4": 1.05}
    >>> tln = {"G1": 1.39, "G2": 0.52, "G3": 0.35, "G4": 0.27}
    >>> all(ok for _what, ok in judge_insights(tau, tln).values())
    True
    """
    return {
        1: ("G1 has the largest τ·log n/n and τ = n",
            tln["G1"] == max(tln.values()) and math.isclose(tau["G1"], 4.0, rel_tol=1e-12)),
        2: ("G3 has the smallest τ among G1–G3", tau["G3"] < min(tau["G1"], tau["G2"])),
        3: ("τ(G2) > τ(G3)", tau["G2"] > tau["G3"]),
        4: ("G4's τ is small: below the star's and within 10% of the complete graph's "
            "(checker's reading of 'also can get a smaller τ')",
            tau["G4"] < tau["G2"] and tau["G4"] <= RING_FACTOR * tau["G3"]),
        5: ("τ·log n/n(G4) < τ·log n/n(G3)", tln["G4"] < tln["G3"]),
    }


@CLAIM.checker
def check(ctx, norm):
    tau, tln = {}, {}
    for k, G in GRAPHS.items():
        res = ngc_ref.connectivity_factor(G, 64, 64, norm=norm)
        tau[k], tln[k] = res.tau, res.tau_log_n_over_n
    table = {k: {"n": GRAPHS[k].shape[0], "tau": tau[k], "tau_log_n_over_n": tln[k]}
             for k in GRAPHS}
    insights = judge_insights(tau, tln)
    all_ok = all(ok for _, ok in insights.values())
    figs = _figure(ctx, norm, table)
    results = [CLAIM.result(norm, "holds" if all_ok else "fails",
                           {"lam": 64, "S": 64, "table": table},
                           "; ".join(f"{k}: τ={tau[k]:.4f}, τ·log n/n={tln[k]:.4f}"
                                     for k in GRAPHS),
                           None if all_ok else counterexample(ID, ctx, table=table, failed=[
                               i for i, (_, ok) in insights.items() if not ok]), figs)]
    for i, (text, ok) in insights.items():
        ev = {"insight": text, "lam": 64, "S": 64, "table": table}
        ce = None if ok else counterexample(INSIGHTS[i].id, ctx, insight=i, table=table)
        results.append(INSIGHTS[i].result(norm, "holds" if ok else "fails", ev,
                                          f"insight {i}: {text}", ce, figs))
    results.append(_insight_5_at_scale(ctx, norm))
    return results


#: Figure 1's words for the four graphs.
LABELS = {"G1": "G1: 4 isolated", "G2": "G2: star", "G3": "G3: complete", "G4": "G4: ring"}


def _layout(A):
    """Node positions: a hub (degree n − 1 in a graph that is not complete) at the centre, the
    other nodes on a circle, so the star reads as a star."""
    n = A.shape[0]
    deg = np.asarray((A != 0).sum(axis=1)).ravel()
    hubs = [i for i in range(n) if deg[i] == n - 1] if deg.min() < n - 1 else []
    ring = [i for i in range(n) if i not in hubs]
    pos = {h: (0.0, 0.0) for h in hubs}
    for k, i in enumerate(ring):
        t = np.pi / 2 + 2 * np.pi * k / len(ring)
        pos[i] = (np.cos(t), np.sin(t))
    return pos


@draws("case-study-{norm}.png")
def _figure(path, norm, table):
    """Figure 1 redrawn: the four graphs, then τ and τ·log n/n per graph (λ = S = 64)."""
    keys = list(GRAPHS)
    fig = figure(figsize=(9.5, 6.2))
    axd = fig.subplot_mosaic([keys, ["tau"] * 2 + ["tln"] * 2], height_ratios=(1, 1.6))
    for k in keys:
        ax, A = axd[k], sp.coo_array(GRAPHS[k])
        pos = _layout(A)
        for i, j in zip(A.row, A.col):
            if i < j:
                ax.plot(*zip(pos[i], pos[j]), color="0.4", lw=1.2, zorder=1)
        xy = np.array([pos[i] for i in range(A.shape[0])])
        ax.scatter(xy[:, 0], xy[:, 1], s=60, color="C0", edgecolor="k", zorder=2)
        ax.set_title(f"{LABELS[k]} (n={A.shape[0]})", fontsize=9)
        ax.set_xlim(-1.35, 1.35)
        ax.set_ylim(-1.35, 1.35)
        ax.set_aspect("equal")
        ax.axis("off")
    x = np.arange(len(keys))
    for name, key, ylabel in (("tau", "tau", "τ = max_i τ_i"),
                              ("tln", "tau_log_n_over_n", "τ·log n / n")):
        ax = axd[name]
        vals = [table[k][key] for k in keys]
        bars = ax.bar(x, vals, color=[f"C{i}" for i in range(len(keys))], width=0.6)
        ax.bar_label(bars, fmt="%.3f", fontsize=8, padding=2)
        ax.set_xticks(x, [LABELS[k].replace(": ", "\n") for k in keys], fontsize=8)
        ax.set_ylabel(ylabel)
        ax.set_ylim(0, 1.15 * max(vals))
        ax.set_title(("τ (1 = perfect averaging, n = none)" if name == "tau"
                      else "τ·log n / n (the noise term of Lemma 1)"), fontsize=9)
    fig.suptitle(f"Case study (Figure 1) at λ = S = 64, norm={norm}", fontsize=11)
    return save_figure(fig, path)
