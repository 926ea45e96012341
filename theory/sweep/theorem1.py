"""Theorem 1's problems and its one sweep task, ``theorem1``.

The claim (:mod:`ngc_ref_theory.claims.theorem_1`) and its ``--thorough`` cells build the same
graphs, clean features X* and targets Y, so they live here, once: a sweep imports no claim, and
the claim imports them from here (``tests/test_layers.py``).

* the contextual SBM of the fixed-λ runs (:func:`csbm_params`, :func:`draw_csbm`: 4 classes,
  expected degree 16 inside / 4 outside the class, d = 4, one-hot class means);
* the λ = √n families (:func:`hyp_problem`: the ring and the torus with Fourier features,
  disjoint random-regular or Barabási–Albert blocks, the fixed-degree contextual SBM, or any
  registered family with one-hot index blocks), a graph's record (:func:`hyp_graph`), its τ
  exactly or bracketed (:func:`hyp_tau_bracket`) and one gradient-descent run
  (:func:`hyp_run`).

One task, ``theorem1``, runs GD on the noisy least squares (Eq. 8) of one graph. Its ``family``
picks the setting: ``"csbm"`` (default) a contextual SBM of the given sizes at the given λ, S,
one noise draw, the excess clean loss g(W_k) − g(W_g*); any other family a graph of the λ = √n
runs (λ = √n of the built graph, S = ⌈2λ⌉) with ``draws`` noise draws in the cell (the batch)
and τ exact or bracketed (``exact_max_cost``). Parameters of the other setting are dropped
from the cell (so a cell's id and seeds depend on what it runs only); ``theorem1_hyp`` is the
former name of the λ = √n setting (an alias, its ``sigma`` now ``noise_std``).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from ngc_ref import connectivity_factor, graphs
from ngc_ref.graphs import contextual_sbm, family_info, make_graph
from ngc_ref.graphs.stochastic import sbm_degree_probabilities
from ngc_ref.training import theory_trajectory

from ..paper.bounds import floor_tau_over_n, grown_lam_S
from ..kit.graphs import declared, graph_family
from ..kit.stats import seed_of
from .cost import (CELL_OVERHEAD, DEFAULT_BUILD_SECONDS_PER_NODE, DEFAULT_CELL_SECONDS,
                   DEFAULT_DEGREE, avg_degree, build_seconds, product_seconds)
from .summary import summarize_theorem1
from .tasks import _REQUIRED, FILTER_PARAMS, Param, _sbm_params, register_alias, register_task

# ------------------------------------------------------------------ the problems

#: Theorem 1's contextual SBM (fixed-λ runs, and the probe of the λ = √n runs): classes, feature
#: dimension, expected degree inside / outside the class, clean row norm.
CSBM_K, CSBM_D, CSBM_DEG_IN, CSBM_DEG_OUT, CSBM_SIGNAL = 4, 4, 16.0, 4.0, 1.0
#: Feature columns = classes = blocks of the λ = √n families.
HYP_K = 4
#: The λ = √n families built here (besides any registered family).
OWN_FAMILIES = ("ring", "torus", "rr-blocks", "ba-blocks", "csbm-fixed-degree")
#: What the cost model needs of the graphs built here that the registry does not hold (they
#: come with their features): expected average degree and build seconds per node (networkx
#: generators block by block; None: the default).
OWN_GRAPH_COSTS = {"rr-blocks": (6.0, 8e-5), "ba-blocks": (6.0, 1e-4),
                   "csbm-fixed-degree": (20.0, None)}


def csbm_params(n):
    """Contextual-SBM parameters at n nodes (fixed expected degrees, so τ/n does not vanish)."""
    size = n // CSBM_K
    return dict(n=n, k=CSBM_K, p_in=min(1.0, CSBM_DEG_IN / max(size - 1, 1)),
                p_out=min(1.0, CSBM_DEG_OUT / max(n - size, 1)), d=CSBM_D, signal=CSBM_SIGNAL,
                noise_std=0.0, means="onehot")


def draw_csbm(n, graph_seed):
    """Theorem 1's contextual SBM (graph, X*, Y) at n nodes from an integer seed."""
    return contextual_sbm(**csbm_params(n), seed=graph_seed)


def _fourier(a, b):
    """√2 [cos a, sin a, cos b, sin b]: four slow modes, the clean features of ring and torus."""
    return math.sqrt(2.0) * np.stack([np.cos(a), np.sin(a), np.cos(b), np.sin(b)], axis=1)


def _blocks(family, n, seed):
    """HYP_K disjoint random 6-regular (``rr-blocks``) or Barabási–Albert m = 3 (``ba-blocks``)
    graphs of n // HYP_K nodes, each from its own seed of ``default_rng(seed)``."""
    build = {"rr-blocks": lambda m, s: graphs.random_regular(m, 6, seed=s),
             "ba-blocks": lambda m, s: graphs.barabasi_albert(m, 3, seed=s)}[family]
    rng = np.random.default_rng(seed)
    size = n // HYP_K
    return [sp.csr_array(build(size, seed_of(rng))) for _ in range(HYP_K)]


def hyp_problem(family, n, seed):
    """(graph, its blocks or None, X*, Y, vertex-transitive?) of a family of Theorem 1's
    λ = √n runs (``ring``, ``torus``, ``rr-blocks``, ``ba-blocks``, ``csbm-fixed-degree``, or
    any registered family, with X* = Y = one-hot of HYP_K index blocks) at about n nodes."""
    if family == "ring":
        th = 2 * np.pi * np.arange(n) / n
        lab = (HYP_K * np.arange(n)) // n
        return graphs.ring(n), None, _fourier(th, 2 * th), np.eye(HYP_K)[lab], True
    if family == "torus":
        p = int(round(math.sqrt(n)))
        x, y = np.divmod(np.arange(p * p), p)
        lab = 2 * (x < p / 2) + (y < p / 2)
        return (graphs.torus(p), None, _fourier(2 * np.pi * x / p, 2 * np.pi * y / p),
                np.eye(HYP_K)[lab], True)
    if family == "csbm-fixed-degree":
        data = draw_csbm(n, seed)
        return data.adjacency, None, data.X_clean, data.Y, False
    if family not in ("rr-blocks", "ba-blocks"):
        # Any registered family (``ngc-ref check --family``): X* = Y = one-hot of HYP_K
        # contiguous blocks of node indices (a clean signal the graph may or may not carry).
        A = make_graph(family, n, seed)
        onehot = np.eye(HYP_K)[(HYP_K * np.arange(A.shape[0])) // A.shape[0]]
        return A, None, onehot, onehot, family_info(family).vertex_transitive
    blocks = _blocks(family, n, seed)
    onehot = np.eye(HYP_K)[np.repeat(np.arange(HYP_K), n // HYP_K)]
    return sp.csr_array(sp.block_diag(blocks, format="csr")), blocks, onehot, onehot, False


def hyp_graph(family, n, graph_seed):
    """One graph of Theorem 1's λ = √n runs: ``(A, blocks, X*, Y, record)``, the record with
    its size (n as built, the requested n), λ = √n and S = ⌈2λ⌉, the floor of τ/n, isolated
    nodes, the largest degree share and whether it is vertex-transitive."""
    A, blocks, X, Y, transitive = hyp_problem(family, n, graph_seed)
    m = A.shape[0]
    lam, S = grown_lam_S(m)
    deg = np.asarray(A.sum(axis=1)).ravel()
    return A, blocks, X, Y, {
        "family": family, "n": m, "requested_n": n, "graph_seed": graph_seed, "lam": lam,
        "S": S, "floor_tau_over_n": floor_tau_over_n(lam, S),
        "isolated_nodes": int(np.sum(deg == 0)),
        "max_degree_share": float((deg + 1).max() / (deg + 1).sum()), "transitive": transitive}


# ------------------------------------------------------------------ τ and one run

def hyp_tau(A, blocks, transitive, lam, S_, norm):
    """Exact τ of A, through :func:`ngc_ref.connectivity_factor` (sparse, never n×n).

    On a vertex-transitive graph every τ_i is equal (an automorphism maps Ã_S to itself in
    either normalisation), so one node gives τ; on a disjoint union τ_i = n·ρ_i/m² with ρ_i the
    row of the node's own block, so τ = max_B (n/n_B)·τ_B; else every node. Both shortcuts are
    checked against the full computation in the tests.
    """
    return hyp_tau_bracket(A, blocks, transitive, lam, S_, norm)["tau"]


def _block_tau(B, lam, S_, norm, exact_max_cost, estimator):
    """``(τ_lower, τ_upper, method)`` of one graph or block: exact while S·nnz·m ≤
    ``exact_max_cost``, else the estimator's bracket."""
    m = B.shape[0]
    if S_ * (B.nnz + m) * m <= exact_max_cost:
        t = float(connectivity_factor(B, lam, S_, norm=norm).tau)
        return t, t, "exact"
    res = connectivity_factor(B, lam, S_, norm=norm, method="estimate", **estimator)
    return float(res.tau_lower), float(res.tau_upper), "estimate"


def hyp_tau_bracket(A, blocks, transitive, lam, S_, norm, *, exact_max_cost=float("inf"),
                    n_samples=192, max_candidates=64, confidence=0.99, rng=None):
    """τ of :func:`hyp_tau` and its bracket: exact while S·nnz·(nodes computed) ≤
    ``exact_max_cost`` per graph or block, else the estimator of
    :func:`ngc_ref.connectivity_factor` per block (the union's bracket is the max of the
    blocks' ends; each block at confidence ``confidence``)."""
    n = A.shape[0]
    if transitive:
        t = float(connectivity_factor(A, lam, S_, norm=norm, nodes=np.array([0])).tau)
        return {"tau": t, "tau_lower": t, "tau_upper": t, "method": "one-node"}
    estimator = dict(n_samples=n_samples, max_candidates=max_candidates, confidence=confidence,
                     seed=rng)
    lo, hi, methods = 0.0, 0.0, set()
    for B in blocks if blocks is not None else [A]:
        t_lo, t_hi, method = _block_tau(B, lam, S_, norm, exact_max_cost, estimator)
        methods.add(method)
        if blocks is not None:   # a node of block B in the union: τ_i = τ_B,i · n/m
            t_lo, t_hi = t_lo * n / B.shape[0], t_hi * n / B.shape[0]
        lo, hi = max(lo, t_lo), max(hi, t_hi)
    method = ("estimate" if "estimate" in methods else "exact") + (
        " per block" if blocks is not None else "")
    return {"tau": lo, "tau_lower": lo, "tau_upper": hi, "method": method}


def hyp_run(A, X, Y, eta, norm, lam, S_, steps):
    """One GD trajectory inside the hypotheses; what the readings and the hypotheses need.

    τ is computed apart (per graph, :func:`hyp_tau`): the trajectory's own τ is not used.
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


def hyp_noise_seed(eta_seed, draw):
    """The integer seed of noise draw ``draw`` of a graph whose draws derive from ``eta_seed``
    (the same in both normalisations)."""
    return seed_of(np.random.default_rng([int(eta_seed), int(draw)]))


# ------------------------------------------------------------------ the task

#: Parameters of the fixed-λ contextual SBM only (dropped from a λ = √n cell).
FIXED_ONLY = ("k", "deg_in", "deg_out", "d", "signal", "lam", "S")
#: Parameters of the λ = √n setting only (dropped from a ``csbm`` cell).
GROWN_ONLY = ("family", "eta_seed", "draws", "tau", "exact_max_cost", "n_samples",
              "max_candidates")

PARAMS = {
    "family": Param(str, "csbm", doc="'csbm': a contextual SBM of n, k, deg_in, deg_out, d, "
                                     "signal at the given lam, S; else a family of the λ = √n "
                                     f"runs ({', '.join(OWN_FAMILIES)} or a registered one): "
                                     "λ = √n, S = ⌈2λ⌉ of the built graph"),
    **_sbm_params(_REQUIRED, 2, 8.0, 2.0, n_min=4, what="contextual SBM: "),
    "n": Param(int, min=4, doc="nodes (a λ = √n family: at least 8, some round it; λ and S "
                               "are of the graph's n)"),
    "d": Param(int, 16, min=1, doc="csbm: feature dimension (≥ k)"),
    "signal": Param(float, 1.0, min=0.0, doc="csbm: norm of each clean feature row"),
    "noise_std": Param(float, 0.5, min=0.0, doc="σ of the Gaussian noise η (noise level)"),
    **FILTER_PARAMS,
    "steps": Param(int, 300, min=0, doc="gradient-descent steps"),
    "graph_seed": Param(int, None, min=0, doc="default: derived from the sweep seed, the "
                                              "graph's parameters and rep"),
    "eta_seed": Param(int, None, min=0, doc="λ = √n: draw r's noise seed derives from "
                                            "(eta_seed, r); default derived like graph_seed"),
    "draws": Param(int, 1, min=1, doc="λ = √n: noise draws in the cell (one GD run each)"),
    "tau": Param(bool, True, doc="λ = √n: compute τ (false for a probe family)"),
    "exact_max_cost": Param(float, 1e10, min=0.0, doc="λ = √n: τ exact while S·nnz·nodes ≤ "
                                                      "this per graph or block, else bracketed"),
    "n_samples": Param(int, 192, min=1, doc="λ = √n: estimator's Gaussian probes"),
    "max_candidates": Param(int, 64, min=1, doc="λ = √n: estimator's τ_i recomputed exactly"),
}


def _validate(params):
    """The parameters of the other setting keep their defaults; the sizes make sense."""
    fixed = params["family"] == "csbm"
    wrong = [k for k in (GROWN_ONLY if fixed else FIXED_ONLY)
             if k != "family" and params[k] != PARAMS[k].default]
    if wrong:
        setting = ("family 'csbm' (fixed λ)" if fixed else
                   f"family {params['family']!r} (λ = √n, S = ⌈2λ⌉)")
        raise ValueError(f"{wrong} do not apply to {setting}")
    if fixed and params["d"] < params["k"]:
        raise ValueError(f"d must be >= k (one-hot class means), got d={params['d']}, "
                         f"k={params['k']}")
    if not fixed and params["family"] not in OWN_FAMILIES:
        graph_family(params["family"])   # a registered family sized by n alone
    if not fixed and params["n"] < 8:
        raise ValueError(f"n must be >= 8 for the λ = √n families, got {params['n']}")


def _resolve(params):
    """A cell carries the parameters of its setting only."""
    for k in GROWN_ONLY if params["family"] == "csbm" else FIXED_ONLY:
        params.pop(k)
    return params


def theorem1_seconds(p):
    """The cost model of a ``theorem1`` cell of the λ = √n runs (a fixed-λ ``csbm`` cell, which
    has no ``family``: the default). Each run pushes Ã_S [X*, η] (8 columns) and 200 GD steps
    on n × 4 (about 2 columns' worth); τ is one node on a vertex-transitive graph, else block by
    block (exact or the estimator by ``exact_max_cost``). The blocks' graphs are local
    (block-diagonal), so their columns cost about half."""
    if "family" not in p:
        return DEFAULT_CELL_SECONDS
    fam, n = p["family"], p["n"]
    degree, per_node = OWN_GRAPH_COSTS.get(fam, (DEFAULT_DEGREE, None))
    S = math.ceil(2 * math.sqrt(n))
    runs = product_seconds(fam, n, S, 10 * p["draws"], degree=degree) * 0.5
    tau = 0.0
    info = declared(fam)
    if p["tau"] and info is not None and info.vertex_transitive:
        tau = product_seconds(fam, n, S, 1, degree=degree)
    elif p["tau"]:
        block = n // HYP_K
        entries = block * (avg_degree(fam, block, default=degree) + 1.0)
        columns = block if S * entries * block <= p["exact_max_cost"] else (
            p["n_samples"] + p["max_candidates"])
        tau = HYP_K * product_seconds(fam, block, S, columns, degree=degree) * 0.5
    return (CELL_OVERHEAD + build_seconds(fam, n, per_node or DEFAULT_BUILD_SECONDS_PER_NODE)
            + runs + tau)


@register_task("theorem1", PARAMS, validate=_validate, resolve=_resolve, cost=theorem1_seconds,
               summary=summarize_theorem1)
def theorem1_task(params, seeds):
    """Theorem 1 (Eq. 13): GD on ‖Ã_S(X*+η)W − Y‖² of one graph: the excess clean loss
    g(W_k) − g(W_g*) of a contextual SBM at fixed λ (``family="csbm"``), or a λ = √n graph's
    record (τ exact or bracketed) and one run per noise draw."""
    if "family" in params:
        return _grown_cell(params, seeds)
    return _csbm_cell(params, seeds)


def _csbm_cell(params, seeds):
    """One GD run on a contextual SBM of the given sizes at the given λ, S (one noise draw)."""
    n, k = params["n"], params["k"]
    p_in, p_out = sbm_degree_probabilities(n, k, params["deg_in"], params["deg_out"])
    gseed = params["graph_seed"]
    if gseed is None:
        gseed = seeds.derived("csbm", n, k, params["deg_in"], params["deg_out"], params["d"],
                              params["signal"], params["rep"])
    data = contextual_sbm(n, k, p_in, p_out, params["d"], signal=params["signal"], seed=gseed)
    rng = seeds.rng()
    eta = params["noise_std"] * rng.standard_normal(data.X_clean.shape)
    tr = theory_trajectory(data.adjacency, data.X_clean, eta, data.Y, params["lam"], params["S"],
                           norm=params["norm"], steps=params["steps"], seed=rng)
    k_last = int(tr.k[-1])
    return {"n": int(data.adjacency.shape[0]), "graph_seed": int(gseed), "tau": float(tr.tau),
            "noise_term": float(tr.noise_term), "steps_run": k_last,
            "excess_loss": float(tr.g_gap[-1]), "excess_loss_per_node": float(tr.g_gap[-1]) / n,
            "excess_loss_limit": float(tr.g_gap_limit),
            "opt_term": float(tr.opt_term[-1]) if k_last > 0 else None,
            "f_gap_at_Wg": float(tr.f_gap_at_Wg[-1]), "noise_norm_sq": float(tr.noise_norm_sq),
            "descent_bound_holds": bool(tr.descent_bound_holds()), "L": float(tr.L),
            "alpha": float(tr.alpha), "rank_Z": int(tr.lstsq_f.rank),
            "converged": bool(tr.converged)}


def _grown_cell(params, seeds):
    """One graph of the λ = √n runs: its record (τ and its bracket) and one GD run per draw."""
    family, n = params["family"], params["n"]
    gseed, eta_seed = (params[k] if params[k] is not None else
                       seeds.derived(k, family, n, params["rep"]) for k in ("graph_seed",
                                                                            "eta_seed"))
    A, blocks, X, Y, graph = hyp_graph(family, n, gseed)
    lam, S_ = graph["lam"], graph["S"]
    if params["tau"]:
        graph.update(hyp_tau_bracket(A, blocks, graph["transitive"], lam, S_, params["norm"],
                                     exact_max_cost=params["exact_max_cost"],
                                     n_samples=params["n_samples"],
                                     max_candidates=params["max_candidates"], rng=seeds.rng()))
    runs = []
    for r in range(params["draws"]):
        nseed = hyp_noise_seed(eta_seed, r)
        eta = params["noise_std"] * np.random.default_rng(nseed).standard_normal(X.shape)
        row = hyp_run(A, X, Y, eta, params["norm"], lam, S_, params["steps"])
        row.update(family=family, graph_seed=gseed, draw=r, noise_seed=nseed, lam=lam, S=S_)
        runs.append(row)
    return {"graph": graph, "runs": runs}


#: The λ = √n setting's former task (its defaults: 200 steps, σ = 1; ``sigma`` is noise_std).
register_alias("theorem1_hyp", "theorem1", renamed={"sigma": "noise_std"}, steps=200,
               noise_std=1.0)
