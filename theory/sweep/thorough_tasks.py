"""Sweep tasks of ``ngc-ref check --thorough`` at the sizes where the asymptotic claims show.

``tau``            τ (Eq. 5) and the mean row energy Σ_iρ_i/n of a family's graph at n: exact
                   while the budget allows (``exact_max_seconds`` of the cost model, or the
                   plans' ``exact_max_cost`` = S·nnz·(nodes computed); one node for a
                   vertex-transitive family, a closed form for the complete graph), else
                   :func:`ngc_ref.connectivity_factor`'s estimator and its bracket
                   [``tau_lower``, ``tau_upper``] (``tau_lower`` is an exact τ_i; τ ≤
                   ``tau_upper`` with probability ``confidence``). ``tau_large`` is its
                   former name (an alias).
``lemma1``         one block of Lemma 1's noise trials: ``trials`` draws of η (n × d) pushed
                   through Ã_S as the columns of a few sparse × dense products; with ``bounds``
                   τ and the exceedance counts of the bounds, with ``draws`` every draw's
                   ‖Ã_Sη‖_F² and max_ij [Ã_Sη]_ij² (the thorough plan's ``lemma1_trials``
                   alias: draws only, judged against bounds from a ``tau`` cell).

Theorem 1's task (``theorem1``, with its λ = √n alias ``theorem1_hyp``) is in :mod:`.theorem1`
with Theorem 1's graphs.

A worker process keeps the last few graphs it built (:func:`_graph`), so the cells of one graph
(noises, d, trial blocks, normalisations) build it once per worker.
"""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np

from ngc_ref import NeumannFilter, connectivity_factor, series_mass

from ..paper.bounds import floor_tau_over_n, frobenius_bound, max_entry_bound, paper_bound, simulate
from ..kit.graphs import build_graph, closed_form, complete_coefficients, complete_rho, declared
from ..kit.stats import NOISES, max_degree_share
from .cost import (CELL_OVERHEAD, avg_degree, build_seconds, exact_tau_ok,
                   exact_tau_seconds, product_seconds)
from .summary import summarize_lemma1, summarize_tau
# The tau task's pieces: the same graph seed, family check and sqrt_n schedule.
from .tasks import (FILTER_PARAMS, GRAPH_PARAMS, Param, _check_family, _graph_seed, _schedule,
                    register_alias, register_task)

#: Exact τ while S·nnz·(nodes computed) stays below this (about 20 s on one core here).
EXACT_MAX_COST = 1e10
#: Elements of one block of noise columns (n × d × draws), 32 MB of float64.
TRIAL_BLOCK_ELEMENTS = 2**22


@lru_cache(maxsize=4)
def _graph(family, n, seed, graph_params_json):
    return build_graph(family, n, seed, json.loads(graph_params_json))


def graph_of(params, seeds):
    """``(A, vertex_transitive, graph seed)`` of a cell (the seed derived as the ``tau`` task
    derives it when the cell gives none)."""
    gseed = _graph_seed(params, seeds)
    gp = json.dumps(params.get("graph_params") or {}, sort_keys=True)
    A, transitive = _graph(params["family"], params["n"], int(gseed), gp)
    return A, transitive, int(gseed)


class CompleteFilter:
    """Ã_S of K_n applied in closed form, aη + b·1(1ᵀη): O(n) per column instead of S·n²."""

    def __init__(self, n, lam, S):
        self.n = n
        self.a, self.b = complete_coefficients(n, lam, S)

    def __matmul__(self, X):
        return self.a * X + self.b * X.sum(axis=0, keepdims=True)


ESTIMATOR_PARAMS = {
    "n_samples": Param(int, 256, min=1, doc="estimator: Gaussian probes"),
    "max_candidates": Param(int, 256, min=1, doc="estimator: τ_i recomputed exactly"),
    "confidence": Param(float, 0.99, min=0.0, exclusive_min=True,
                        doc="estimator: P(τ ≤ tau_upper)"),
}
SCHEDULE = {"schedule": Param(str, "fixed", choices=("fixed", "sqrt_n"),
                              doc="'sqrt_n': λ = √n (given n), S = ⌈2λ⌉; the record's lam and S "
                                  "are those")}


def tau_seconds(p):
    """The cost model of a ``tau`` cell: exact τ (every node, or one if vertex-transitive)
    where :func:`~ngc_ref_theory.sweep.cost.exact_tau_ok`, else the estimator's probes and
    candidates, as columns through S steps; K_n in closed form costs the overhead only."""
    fam, n, S = p["family"], p["n"], p["S"]
    if closed_form(fam, p.get("graph_params")):
        return CELL_OVERHEAD
    info = declared(fam)
    nodes = 1 if info is not None and info.vertex_transitive else n
    entries = n * (avg_degree(fam, n, p.get("graph_params")) + 1.0)
    columns = nodes if exact_tau_ok(p, entries, nodes) else p["n_samples"] + p["max_candidates"]
    return (CELL_OVERHEAD + build_seconds(fam, n)
            + product_seconds(fam, n, S, columns + 1, p.get("graph_params")))


@register_task("tau", {
    **GRAPH_PARAMS, **FILTER_PARAMS, **SCHEDULE, **ESTIMATOR_PARAMS,
    "exact_max_seconds": Param(float, 60.0, min=0.0,
                               doc="exact τ while the cost model puts it at ≤ this many seconds "
                                   "on one core, else the estimator and its bracket"),
    "exact_max_cost": Param(float, None, min=0.0,
                            doc="instead of exact_max_seconds: exact τ while S·nnz·(nodes "
                                "computed) ≤ this (the thorough plans' 1e10)"),
}, validate=_check_family, resolve=_schedule, cost=tau_seconds, summary=summarize_tau)
def tau_task(params, seeds):
    """τ (Eq. 5), its bracket and Σ_iρ_i/n of a family's graph at n, exact where affordable.

    τ = n·max_i Σ_j [Ã_S]_ij² / m², exact where the budget allows (``exact_max_cost`` in
    stored entries × steps × nodes if given, else the cost model's
    :func:`ngc_ref_theory.sweep.cost.exact_tau_seconds` against ``exact_max_seconds``), else
    the estimator's bracket; the record says which (``method``)
    and the cost model's estimate of exact τ (``exact_seconds_estimate``)."""
    def exact(A, S, computed):
        entries = A.nnz + A.shape[0]
        secs = exact_tau_seconds(params["family"], S, entries, computed)
        ok = (S * entries * computed <= params["exact_max_cost"]
              if params["exact_max_cost"] is not None else secs <= params["exact_max_seconds"])
        return ok, {"exact_seconds_estimate": secs}
    return tau_record(params, seeds, exact)


#: The τ task's former name for the thorough plans' cells.
register_alias("tau_large", "tau")


def tau_record(params, seeds, exact):
    """τ, its bracket and Σ_iρ_i/n of a cell's graph: exact where ``exact(A, S, nodes
    computed)`` says ``(True, extra fields)`` (one node for a vertex-transitive family, a closed
    form for the complete graph), else :func:`ngc_ref.connectivity_factor`'s estimator."""
    lam, S, norm, n_req = params["lam"], params["S"], params["norm"], params["n"]
    base = {"lam": float(lam), "S": int(S), "floor": floor_tau_over_n(lam, S)}
    if closed_form(params["family"], params["graph_params"]):
        # K_n in closed form: its S·n² per row buys nothing (every row alike).
        rho = complete_rho(n_req, lam, S)
        tau = n_req * rho / series_mass(lam, S) ** 2
        return {**base, "n": n_req, "tau": tau, "tau_lower": tau, "tau_upper": tau,
                "method": "closed-form", "confidence": 1.0, "n_exact": n_req,
                "tau_over_n": tau / n_req, "tau_upper_over_n": tau / n_req,
                "tau_log_n_over_n": tau * np.log(n_req) / n_req, "mean_rho": rho,
                "mean_rho_method": "closed-form", "argmax_node": 0,
                "argmax_degree": float(n_req - 1), "isolated_nodes": 0,
                "max_degree_share": 1.0 / n_req, "edges": n_req * (n_req - 1) // 2,
                "graph_seed": params.get("graph_seed")}
    A, transitive, gseed = graph_of(params, seeds)
    n = A.shape[0]
    nodes = np.array([0]) if transitive else None
    ok, extra = exact(A, S, 1 if transitive else n)
    if ok:
        res = connectivity_factor(A, lam, S, norm=norm, nodes=nodes)
        method = "one-node (vertex-transitive)" if transitive else "exact"
        rho_method = "exact"
    else:
        res = connectivity_factor(A, lam, S, norm=norm, method="estimate", nodes=nodes,
                                  n_samples=params["n_samples"],
                                  max_candidates=params["max_candidates"],
                                  confidence=params["confidence"], seed=seeds.rng())
        method, rho_method = "estimate", "sketch (exact for the candidates)"
    deg = np.asarray(A.sum(axis=1)).ravel()
    tau_lo = float(res.tau_lower) if res.method == "estimate" else float(res.tau)
    tau_hi = float(res.tau_upper) if res.method == "estimate" else float(res.tau)
    return {**base, "n": int(n), "tau": float(res.tau), "tau_lower": tau_lo, "tau_upper": tau_hi,
            "method": method, "confidence": float(res.confidence),
            "n_exact": int(res.n_exact if res.n_exact >= 0 else len(res.nodes)),
            "tau_over_n": float(res.tau / n), "tau_upper_over_n": tau_hi / n,
            "tau_log_n_over_n": float(res.tau_log_n_over_n),
            "mean_rho": float(np.mean(res.row_square_sums)), "mean_rho_method": rho_method,
            "argmax_node": int(res.argmax), "argmax_degree": float(deg[res.argmax]),
            "isolated_nodes": int((deg == 0).sum()),
            "max_degree_share": max_degree_share(deg) if len(deg) else 0.0,
            "edges": int(A.nnz // 2), "graph_seed": gseed, **extra}


def _short(x):
    """Six significant digits: the draws are compared with bounds, not summed again."""
    return [float(f"{v:.6e}") for v in np.asarray(x, dtype=float)]


def lemma1_seconds(p):
    """The cost model of a ``lemma1`` cell: the draws as columns through S steps (with
    ``bounds`` also exact τ, every node's row); K_n in closed form: O(n) per column."""
    fam, n, gp = p["family"], p["n"], p.get("graph_params")
    if closed_form(fam, gp):
        return CELL_OVERHEAD + 2e-8 * n * p["trials"] * p["d"]
    tau = product_seconds(fam, n, p["S"], n, gp) if p.get("bounds", False) else 0.0
    return (CELL_OVERHEAD + build_seconds(fam, n) + tau
            + product_seconds(fam, n, p["S"], p["trials"] * p["d"], gp) * 0.95)


@register_task("lemma1", {
    **GRAPH_PARAMS, **FILTER_PARAMS,
    "d": Param(int, 8, min=1, doc="noise columns; the bound's 1/d"),
    "noise": Param(str, "gaussian", choices=NOISES),
    "sigma": Param(float, 1.0, min=0.0, doc="sub-Gaussian parameter σ"),
    "trials": Param(int, 200, min=1, doc="independent draws of η in this cell"),
    "block": Param(int, 0, min=0, doc="trial block (only changes the draws' seed)"),
    "bounds": Param(bool, True, doc="compute τ exactly and count the draws above Lemma 1's "
                                    "bounds (false: the draws only, bounds from a tau cell)"),
    "draws": Param(bool, False, doc="return every draw's ‖Ã_Sη‖_F² and max_ij² (6 digits)"),
    "batch": Param(int, 0, min=0, doc="draws per sparse × dense product (0: up to 64, "
                                      "within 32 MB of noise)"),
}, validate=_check_family, cost=lemma1_seconds, summary=summarize_lemma1)
def lemma1_task(params, seeds):
    """Lemma 1 trials: how often ‖Ã_Sη‖_F² (and max_ij) of η's draws exceed the bounds.

    ``trials`` draws of η; with ``bounds`` τ and how often the draws exceed the paper's Eq. 11
    bound, the corrected max-entry and Frobenius bounds (:mod:`..paper.bounds`); with ``draws``
    every draw's ‖Ã_Sη‖_F² and max_ij [Ã_Sη]_ij²."""
    lam, S, norm, d, sigma = (params[k] for k in ("lam", "S", "norm", "d", "sigma"))
    complete = closed_form(params["family"], params["graph_params"])
    if complete:
        n, gseed = params["n"], params.get("graph_seed")
        filt = CompleteFilter(n, lam, S)
    else:
        A, _, gseed = graph_of(params, seeds)
        n = A.shape[0]
        filt = NeumannFilter(A, lam, S, norm=norm)
    batch = params["batch"] or int(max(1, min(64, TRIAL_BLOCK_ELEMENTS // (n * d))))
    fro2, max2 = simulate(filt, params["noise"], sigma, d, params["trials"], seeds.rng(),
                          batch=batch)
    out = {"n": int(n), "graph_seed": gseed, "trials": int(params["trials"]),
           "draws_per_product": batch, "mean_fro2": float(fro2.mean()),
           "mean_max2": float(max2.mean())}
    if params["draws"]:
        out.update(fro2=_short(fro2), max2=_short(max2))
    if params["bounds"]:
        if complete:   # every row alike, in closed form
            rho_sum = n * complete_rho(n, lam, S)
            tau = rho_sum / series_mass(lam, S) ** 2
        else:
            conn = connectivity_factor(A, lam, S, norm=norm)
            tau, rho_sum = float(conn.tau), float(conn.row_square_sums.sum())
        b, bm, bf = (f(tau, lam, S, sigma, n, d)
                     for f in (paper_bound, max_entry_bound, frobenius_bound))
        out.update(tau=tau, tau_log_n_over_n=tau * np.log(n) / n, p_max=1.0 / d,
                   expected_fro2=sigma**2 * d * rho_sum, paper_bound=b, max_entry_bound=bm,
                   frobenius_bound=bf, exceed_paper=int((fro2 > b).sum()),
                   exceed_max_entry=int((max2 > bm).sum()),
                   exceed_frobenius=int((fro2 > bf).sum()))
    return out


#: The thorough plan's former task: one block of draws, the bounds from a tau cell.
register_alias("lemma1_trials", "lemma1", bounds=False, draws=True)
