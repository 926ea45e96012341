"""After Assumption 2: "Only if all nodes of a graph are isolated, τ reaches its upper bound n."

τ is a maximum over rows (Def. 1), and an isolated node i has Ã_ii = 1 (its self-loop) and no
other entry, so its row of Ã_S is (1 − r^{S+1})e_i = m·e_i and τ_i = n·m²/m² = n exactly, in both
normalisations and for every λ, S. One isolated node is enough: the "only if" fails on the
smallest graph with an edge and an isolated node (K2 + K1, n = 3), and on Citeseer, whose
graph has isolated nodes (nodes whose only link in the raw files is a self-loop).

Conversely, for rw a node with a neighbour has at least two positive entries in its row of Ã_S
(S ≥ 1, λ > 0) summing to m, so Σ_j [Ã_S]_ij² < m² and τ_i < n: τ = n exactly when some node
is isolated (the corrected statement, checked for both normalisations).

Searched: every graph of the networkx atlas with up to 5 nodes (7 with ``--thorough``) by a
dense reference, the small search graphs by :func:`ngc_ref.connectivity_factor` (the two
agree to 1e-10), and the paper's data sets at the (λ, S) of their NGC table rows (exact τ for
S·nnz·n ≤ 2·10⁸, 2·10¹¹ with ``--thorough``; else ``method="estimate"``: exact τ_i of its
candidate maximisers and an upper bound; the isolated nodes' τ_i always exactly).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ngc_ref import connectivity_factor, series_mass

from ..kit.evidence import counterexample, dense_norm_adj, dense_series, public
from ..exact.atlas import (Range, atlas_counterexample, atlas_minimal, combine_search, lam_grid,
                           minimal_figure, scan, setting)
from ..kit.claim import as_stated, claim, extension
from ..exact.certificates import certify_tau_only_if
from ..kit.graphs import lam_S_grid, small_graphs
from ..paper.words import RW_FOOTNOTE
from ._paper_data import PAPER_DATASETS, isolated, load, ngc_settings, tau_over_n
from .tau_range import all_isolated

ID = "isolated-tau"
WORDS = ("after Assumption 2: 'Only if all nodes of a graph are isolated, τ reaches its upper "
         "bound n.'")
STATEMENT = ("Only if all nodes of a graph are isolated does τ reach its upper bound n. Checked "
             "on K2 + one isolated node (n = 3), on every graph of up to 5 nodes (7 with "
             "--thorough; networkx atlas) and on the small search graphs, at several (λ, S); "
             "τ = n within relative 1e-12.")
CLAIM = claim(ID, "Assumption 2 (discussion) and Remark 1", STATEMENT, order=85,
              scope=as_stated(f"{WORDS}; τ is defined with D̃⁻¹Ã: {RW_FOOTNOTE}"),
              norm_scopes={"sym": extension(f"{WORDS}, with τ of the paper's theory, stated for "
                                            f"D̃⁻¹Ã: {RW_FOOTNOTE}")},
              data_sets=PAPER_DATASETS,
              rule="theory", seconds=(1.4, 132.0),
              doc=('"only if all nodes are isolated, τ reaches n"; isolated nodes of the real '
                   'data'))
PAPER_DATA = CLAIM.part(
    "paper-data", "On the paper's data sets, none of which has all its nodes isolated, τ < n "
                  "at the (λ, S) of their NGC rows in the appendix tables (Cora, Citeseer, "
                  "Pubmed, Cornell, Texas, Wisconsin, Actor, Coauthor-CS, Coauthor-Physics).")
CORRECTED = CLAIM.corrected(
    "τ = n if and only if the graph has at least one isolated node (λ > 0, S ≥ 1): an isolated "
    "node's row of Ã_S is (1 − r^{S+1})e_i, so its τ_i = n, and every node with a neighbour has "
    "τ_i < n. Checked: isolated τ_i = n within relative 1e-12, every other τ_i ≤ (1 − 1e-9)n.")

#: |τ/n − 1| allowed for "τ = n" (rounding of the Horner sums).
EQ_TOL = 1e-12
#: A non-isolated node must stay this far below n (relative) for the corrected statement.
GAP = 1e-9
#: Exact τ of a data set when its cost S·nnz·n stays below this (``--thorough``: the larger
#: one); above it, ``method="estimate"`` (an exact τ_i of the candidate maximisers, and a bound).
EXACT_MAX_COST = 2e8
EXACT_MAX_COST_THOROUGH = 2e11
SETTINGS = ((0.5, 3), (32.0, 16), (1000.0, 8))
#: The statement's non-degenerate range: S ≥ 1 (at S = 0, Ã_0 = I/(λ+1) on every graph, so
#: τ = n everywhere) and n ≥ 2; isolated nodes belong to it (the statement is about them).
RANGE = Range(min_S=1, min_n=2, isolated=True)


def edge_plus_isolated():
    """K2 + K1: nodes 0-1 joined, node 2 isolated."""
    return sp.csr_array((np.ones(2), ([0, 1], [1, 0])), shape=(3, 3))


def dense_tau_i(A, lam, S, norm):
    """τ_i of every node from the dense Ã_S (the obviously-correct reference, small graphs)."""
    An = dense_norm_adj(A, norm)
    M = dense_series(lam / (lam + 1.0) * An, S) / (lam + 1.0)
    return An.shape[0] * (M ** 2).sum(axis=1) / series_mass(lam, S) ** 2


def only_if_test(c):
    """Atlas test of Remark 1's 'τ = n only if all nodes are isolated': fails where τ = n
    (within 1e-12) on a graph with an edge; the ratio is τ/n."""
    return (c.tau >= c.n * (1 - 1e-12)) & ~all_isolated(c), c.tau / c.n


def _atlas(ctx):
    top = 7 if ctx.thorough else 5
    for k, G in enumerate(nx.graph_atlas_g()):
        if 1 <= G.number_of_nodes() <= top:
            yield f"atlas-{k}", nx.to_scipy_sparse_array(G, nodelist=sorted(G), format="csr",
                                                        dtype=float)


def search(ctx, norm):
    """Every (graph, λ, S) of the search space: n, isolated nodes, τ, max τ_i of the others."""
    rows, agree = [], 0.0
    settings = lam_S_grid(ctx) if ctx.thorough else SETTINGS
    graphs = list(_atlas(ctx)) + list(small_graphs(ctx).items())
    smalls = set(small_graphs(ctx))
    for name, A in graphs:
        iso = isolated(A)
        for lam, S in settings:
            ti = dense_tau_i(A, lam, S, norm)
            if name in smalls:   # the library's τ beside the reference
                res = connectivity_factor(A, lam, S, norm=norm)
                agree = max(agree, float(np.abs(res.tau_i - ti).max() / A.shape[0]))
            rows.append(_row(name, A, lam, S, ti, iso))
    return rows, agree, len(graphs), settings


def _row(name, A, lam, S, tau_i, iso):
    n = A.shape[0]
    return {"graph": name, "n": n, "lam": lam, "S": S, "isolated_nodes": int(iso.sum()),
            "all_isolated": bool(iso.all()), "tau": float(tau_i.max()),
            "tau_over_n": float(tau_i.max() / n),
            "isolated_tau_i_over_n": (float(tau_i[iso].min() / n), float(tau_i[iso].max() / n))
            if iso.any() else None,
            "max_non_isolated_tau_i_over_n": float(tau_i[~iso].max() / n) if (~iso).any()
            else None, "method": "exact", "tau_upper_over_n": float(tau_i.max() / n), "A": A}


def data_rows(ctx, norm):
    """The paper's data sets at their NGC (λ, S): exact τ_i of the isolated nodes, and τ of the
    others (exact up to the cost :data:`EXACT_MAX_COST`, else an estimate's bracket whose lower
    end is the exact τ_i of a candidate maximiser)."""
    budget = EXACT_MAX_COST_THOROUGH if ctx.thorough else EXACT_MAX_COST
    samples = (256, 256) if ctx.thorough else (32, 16)
    rows = []
    for name, ds in load(ctx).items():
        A = ds.adjacency
        n = A.shape[0]
        for lam, S in ngc_settings(name):
            t = tau_over_n(A, lam, S, norm, budget=budget, samples=samples,
                           seed=ctx.rng(ID, norm, name, lam, S))
            iso_ratio = t["isolated_tau_i_over_n"]
            tau = max(t["non_isolated"], iso_ratio[1] if iso_ratio else 0.0)
            rows.append({"graph": name, "n": n, "lam": lam, "S": S,
                         "isolated_nodes": t["isolated"], "all_isolated": t["isolated"] == n,
                         "tau": tau * n, "tau_over_n": tau, "isolated_tau_i_over_n": iso_ratio,
                         "max_non_isolated_tau_i_over_n": t["non_isolated"],
                         "method": t["method"],
                         "tau_upper_over_n": max(t["upper"], iso_ratio[1] if iso_ratio else 0.0),
                         "A": A})
    return rows


def reaches_n(row):
    """Is τ = n on this row: |τ/n − 1| ≤ :data:`EQ_TOL`?

    Examples
    --------
    >>> reaches_n({"tau_over_n": 1.0}), reaches_n({"tau_over_n": 0.999})
    (True, False)
    """
    return abs(row["tau_over_n"] - 1.0) <= EQ_TOL


def own_verdict(worst_min):
    """The paper's 'only if all nodes are isolated' from K2 + K1, whose τ/n is off 1 by at most
    ``worst_min`` over the settings: ``fails`` when that is ≤ :data:`EQ_TOL` (τ = n with an
    edge), else ``inconclusive`` (the isolated node's τ_i must be n exactly: a checker or
    library bug, no verdict).

    Examples
    --------
    >>> own_verdict(1e-12), own_verdict(1e-6)
    ('fails', 'inconclusive')
    """
    return "fails" if worst_min <= EQ_TOL else "inconclusive"


def corrected_failures(rows):
    """The corrected statement's failures: (rows where an isolated node's τ_i/n is off 1 by
    more than :data:`EQ_TOL`, rows where another node's τ_i/n exceeds 1 − :data:`GAP`).

    Examples
    --------
    >>> rows = [{"isolated_tau_i_over_n": (1.0, 1.0), "max_non_isolated_tau_i_over_n": 0.7},
    ...         {"isolated_tau_i_over_n": None, "max_non_isolated_tau_i_over_n": 1.0}]
    >>> [len(bad) for bad in corrected_failures(rows)]
    [0, 1]
    """
    bad_iso = [r for r in rows if r["isolated_tau_i_over_n"] is not None
               and max(abs(x - 1.0) for x in r["isolated_tau_i_over_n"]) > EQ_TOL]
    bad_non = [r for r in rows if r["max_non_isolated_tau_i_over_n"] is not None
               and r["max_non_isolated_tau_i_over_n"] > 1.0 - GAP]
    return bad_iso, bad_non


def atlas_only_if(ctx, norm):
    """Remark 1's converse on the whole atlas: is τ = n only when all nodes are isolated?

    Returns ``(scan, minimal counterexample or None, figures)``: the minimal case inside
    :data:`RANGE` (S ≥ 1, n ≥ 2), exactly certified (rational τ_i), with the degenerate
    minimum (S = 0: K2, where τ = n on every graph) beside it under ``degenerate_minimal``.
    """
    atlas = scan(norm, only_if_test, lams=lam_grid(ctx), ratio="τ/n", within=RANGE)
    mc = atlas_minimal(atlas, lambda w: certify_tau_only_if(w["n"], w["edges"], w["lam"],
                                                            w["S"], norm), norm)
    if mc is None:
        return atlas, None, []
    figs = minimal_figure(
        ctx, f"{ID}-minimal-{norm}.png", mc,
        f"τ = n without all nodes isolated ({norm}): atlas G{mc['atlas_index']}, "
        f"λ = {mc['lam']:g}, S = {mc['S']}\nτ = {mc['exact']['τ']} = n exactly; τ_i in red",
        {i: f"τ_{i}={mc['exact'][f'τ_{i}']}" for i in range(mc["n"])},
        caption=f"certified {mc['certified']} (rational τ_i); smallest case with S ≥ 1, "
                "n ≥ 2 (at S = 0 every graph has τ = n: degenerate)")
    return atlas, mc, figs


@CLAIM.checker
def check(ctx, norm):
    rows, agree, n_graphs, settings = search(ctx, norm)
    A0 = edge_plus_isolated()
    minimal = []
    for lam, S in settings:
        res = connectivity_factor(A0, lam, S, norm=norm)
        minimal.append({"lam": lam, "S": S, "tau": res.tau, "tau_i": res.tau_i.tolist(),
                        "argmax": res.argmax})
    data = data_rows(ctx, norm)
    results = [_own_result(ctx, norm, rows, minimal, agree, n_graphs, settings,
                           atlas_only_if(ctx, norm))]
    if data:   # without data the skip list says which data sets and why
        results.append(_data_result(ctx, norm, data))
    results.append(_corrected_result(ctx, norm, rows + data, n_graphs, settings))
    return results


def _own_result(ctx, norm, rows, minimal, agree, n_graphs, settings, atlas_run):
    atlas, mc, figs = atlas_run
    kw = {"search": combine_search(atlas, {"graphs": n_graphs, "lam_S": list(settings)}),
          "minimal_counterexample": mc, "figures": figs}
    hits = [r for r in rows if reaches_n(r) and not r["all_isolated"]]
    worst_min = max(abs(m["tau"] / 3 - 1) for m in minimal)
    ev = {"searched": f"{n_graphs} graphs (networkx atlas up to "
                      f"{7 if ctx.thorough else 5} nodes, and the small search graphs) × "
                      f"{len(settings)} (λ, S)", "lam_S": list(settings),
          "tolerance": f"τ = n means |τ/n − 1| ≤ {EQ_TOL:g}",
          "minimal_counterexample": {"graph": "K2 + K1 (edge 0-1, node 2 isolated)",
                                     "per_setting": minimal,
                                     "max_abs_tau_over_n_minus_1": worst_min},
          "graphs_reaching_n_without_all_nodes_isolated": sorted({r["graph"] for r in hits}),
          "cases_reaching_n_without_all_nodes_isolated": len(hits),
          "every_such_case_has_an_isolated_node": all(r["isolated_nodes"] > 0 for r in hits),
          "dense_reference_vs_connectivity_factor_max_abs_diff_of_tau_i_over_n": agree,
          "why": "an isolated node's row of Ã_S is (1 − r^{S+1})e_i (its self-loop is its only "
                 "entry in Ã), so τ_i = n; τ is the maximum over rows"}
    if own_verdict(worst_min) == "fails":
        m = minimal[1] if len(minimal) > 1 else minimal[0]
        sampled = (f"K2 + one isolated node: τ = {m['tau']:.15g} = n = 3 at λ={m['lam']:g}, "
                   f"S={m['S']} (every setting: |τ/n − 1| ≤ {worst_min:.1e})")
        if mc is not None:
            # The headline is the minimal case of the statement's range (S ≥ 1, n ≥ 2).
            ce = atlas_counterexample(ctx, ID, mc, exact=mc["exact"])
            lead = (f"τ = n exactly on a graph with an edge: {setting(mc)}, τ = "
                    f"{mc['exact']['τ']} ({mc['certified']}; the smallest case with S ≥ 1, "
                    f"n ≥ 2); {atlas.describe()}; ")
        else:
            ce = counterexample(ID, ctx, graph=("K2+isolated", edge_plus_isolated()),
                                lam=m["lam"], S=m["S"], norm=norm, n=3, tau=m["tau"],
                                tau_i=m["tau_i"], isolated_nodes=[2])
            lead = ""
        return CLAIM.result(norm, "fails", ev,
                            lead + f"{sampled}; {len({r['graph'] for r in hits})} of "
                            f"{n_graphs} searched graphs reach n without all nodes isolated, "
                            f"each through an isolated node", ce, **kw)
    return CLAIM.result(norm, "inconclusive", ev,
                        f"K2 + K1: τ/n off 1 by {worst_min:.1e} > {EQ_TOL:g}: the isolated "
                        "node's τ_i should be n exactly (checker or library bug)", **kw)


def _data_result(ctx, norm, data):
    table = [public(r) for r in data]
    hits = [r for r in data if reaches_n(r)]
    ev = {"datasets": table, "tolerance": f"|τ/n − 1| ≤ {EQ_TOL:g}",
          "settings": "the distinct (λ, S) of each data set's NGC rows in the appendix tables",
          "note": "the adjacency is the symmetric graph without self-loops (ngc_ref.datasets); "
                  "a node whose only link in the raw files is a self-loop is isolated"}
    per = "; ".join(f"{r['graph']}: {r['isolated_nodes']} isolated" for r in data
                    if r["isolated_nodes"]) or "no data set has an isolated node"
    if hits:
        h = hits[0]
        iso = np.flatnonzero(isolated(h["A"]))
        ce = counterexample(PAPER_DATA.id, ctx, graph=(h["graph"], h["A"]), dataset=h["graph"],
                            lam=h["lam"], S=h["S"], norm=norm, n=h["n"], tau=h["tau"],
                            isolated_nodes=iso[:20].tolist(), isolated_count=int(iso.size))
        names = sorted({r["graph"] for r in hits})
        return PAPER_DATA.result(norm, "fails", ev,
                                 f"τ = n exactly on {', '.join(names)} ({per}; τ/n = "
                                 f"{h['tau_over_n']:.15g} at λ={h['lam']:g}, S={h['S']}); "
                                 f"{_range(data)}", ce)
    return PAPER_DATA.result(norm, "holds", ev, f"τ < n on every data set; {_range(data)}")


def _range(data):
    """τ/n of the data sets below n, at each one's first setting (≥: an estimate's exact lower
    end)."""
    first = {}
    for r in data:
        first.setdefault(r["graph"], r)
    return "τ/n on the others: " + ", ".join(
        f"{r['graph']} {'' if r['method'] == 'exact' else '≥'}{r['tau_over_n']:.3g} "
        f"(λ={r['lam']:g}, S={r['S']})" for r in first.values() if not reaches_n(r))


def _corrected_result(ctx, norm, rows, n_graphs, settings):
    bad_iso, bad_non = corrected_failures(rows)
    closest = max((r for r in rows if r["max_non_isolated_tau_i_over_n"] is not None),
                  key=lambda r: r["max_non_isolated_tau_i_over_n"])
    ev = {"searched": f"{n_graphs} small graphs × {len(settings)} (λ, S), and the paper's data "
                      "sets when NGC_REF_DATA is set",
          "tolerances": f"isolated: |τ_i/n − 1| ≤ {EQ_TOL:g}; others: τ_i/n ≤ 1 − {GAP:g}",
          "closest_non_isolated": public(closest),
          "isolated_off_n": [public(r) for r in bad_iso[:5]],
          "non_isolated_at_n": [public(r) for r in bad_non[:5]],
          "data_sets_by_estimate": sorted({r["graph"] for r in rows if r["method"] != "exact"}),
          "note": "on a data set checked by estimate, the non-isolated τ_i checked are those of "
                  "the estimate's candidate maximisers (exact), not every node"}
    if bad_iso or bad_non:
        r = (bad_iso or bad_non)[0]
        ce = counterexample(CORRECTED.id, ctx, graph=(r["graph"], r["A"]), lam=r["lam"],
                            S=r["S"], norm=norm,
                            isolated_tau_i_over_n=r["isolated_tau_i_over_n"],
                            max_non_isolated_tau_i_over_n=r["max_non_isolated_tau_i_over_n"])
        return CORRECTED.result(norm, "fails", ev,
                                f"{len(bad_iso)} cases with an isolated τ_i ≠ n, {len(bad_non)} "
                                f"with a non-isolated τ_i ≥ (1 − {GAP:g})n (first: "
                                f"{r['graph']}, λ={r['lam']:g}, S={r['S']})", ce)
    return CORRECTED.result(norm, "holds", ev,
                            f"isolated nodes: τ_i = n (|τ_i/n − 1| ≤ {EQ_TOL:g}); largest "
                            f"other τ_i/n = {closest['max_non_isolated_tau_i_over_n']:.4f} "
                            f"({closest['graph']}, λ={closest['lam']:g}, S={closest['S']})")
