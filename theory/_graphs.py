"""The checker's one registry of graphs: the named small graphs the exact identities are searched
over (:func:`small_graphs`), the n-scaled families of the asymptotic checks (:data:`FAMILIES`),
and the lookup the sweeps use, which also reaches every :func:`ngc_ref.graphs.make_graph` family
(:func:`graph_family`, :func:`build_graph`).

A checker family is sized by n alone; a library family takes its parameters (``graph_params``).
Where a name is both (``ring``, ``path``, ``complete``, ``star``), the checker family is meant.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ngc_ref import graphs
from ngc_ref.graphs import GRAPH_FAMILIES, contextual_sbm, family_params, make_graph

from ._stats import seed_of


def _adj(G):
    A = nx.to_scipy_sparse_array(G, format="csr", dtype=float, weight=None)
    A.setdiag(0)
    A.eliminate_zeros()
    return A


def small_graphs(ctx):
    """Named small graphs covering isolated nodes, hubs, paths, cliques, bottlenecks, randomness."""
    seed = int(ctx.rng("small-graphs").integers(2**31))
    named = {
        "isolated-5": nx.empty_graph(5),
        "star-7": nx.star_graph(6),
        "star-41": nx.star_graph(40),
        "path-9": nx.path_graph(9),
        "ring-8": nx.cycle_graph(8),
        "complete-6": nx.complete_graph(6),
        "barbell-4-2": nx.barbell_graph(4, 2),
        "karate-34": nx.karate_club_graph(),
        f"er-40-0.08-s{seed}": nx.gnp_random_graph(40, 0.08, seed=seed),
        "star+isolated": nx.disjoint_union(nx.star_graph(4), nx.empty_graph(2)),
    }
    if ctx.thorough:
        named.update({
            "grid-10x10": nx.grid_2d_graph(10, 10),
            f"ba-200-2-s{seed}": nx.barabasi_albert_graph(200, 2, seed=seed),
            f"er-300-0.02-s{seed}": nx.gnp_random_graph(300, 0.02, seed=seed),
            "star-101": nx.star_graph(100),
        })
    return {name: _adj(G) for name, G in named.items()}


def _sbm_family(n, seed):
    k = 4
    size = n // k
    return graphs.sbm(size * k, k, min(1.0, 6.0 / size), 2.0 / (3 * size), seed=seed)[0]


#: family -> (builder(n, seed) -> adjacency, vertex_transitive); built by :mod:`ngc_ref.graphs`.
FAMILIES = {
    "ring": (lambda n, s: graphs.ring(n), True),
    "path": (lambda n, s: graphs.path(n), False),
    "grid_2d": (lambda n, s: graphs.grid(round(math.sqrt(n)), round(math.sqrt(n))), False),
    "complete": (lambda n, s: graphs.complete(n), True),
    "star": (lambda n, s: graphs.star(n), False),
    "er_avgdeg_3": (lambda n, s: graphs.erdos_renyi(n, 3.0 / (n - 1), seed=s), False),
    "er_avgdeg_2logn": (lambda n, s: graphs.erdos_renyi(
        n, min(1.0, 2.0 * math.log(n) / (n - 1)), seed=s), False),
    "random_regular_4": (lambda n, s: graphs.random_regular(n + (n % 2), 4, seed=s), False),
    "barabasi_albert_3": (lambda n, s: graphs.barabasi_albert(n, 3, seed=s), False),
    "sbm_4_blocks_deg8": (_sbm_family, False),
}


def family_graph(name, n, seed):
    """The family's graph with about n nodes (grid: nearest square; regular: n rounded to even)."""
    build, _ = FAMILIES[name]
    return build(n, int(seed))


def graph_family(family, graph_params=None):
    """``(builder(n, seed), vertex_transitive)`` of a checker family (no ``graph_params``) or of a
    :func:`ngc_ref.graphs.make_graph` family with its ``graph_params``; ValueError names what is
    wrong and what is valid."""
    gp = graph_params or {}
    if family in FAMILIES:
        if gp:
            raise ValueError(f"family {family!r} (a checker family) takes no graph_params, got "
                             f"{sorted(gp)}")
        return FAMILIES[family]
    if family not in GRAPH_FAMILIES:
        raise ValueError(f"unknown family {family!r}; valid: checker families "
                         f"{sorted(FAMILIES)} or ngc_ref.graphs families {sorted(GRAPH_FAMILIES)} "
                         "(with graph_params)")
    required, optional = family_params(family)
    missing = [p for p in required if p not in gp]
    unexpected = [p for p in gp if p not in required + optional]
    if missing or unexpected:
        raise ValueError(f"family {family!r} needs graph_params {list(required)} (optional "
                         f"{list(optional)}); missing {missing}, unexpected {unexpected}")
    return (lambda n, seed: make_graph(family, n, seed, **gp)), False


def build_graph(family, n, seed, graph_params=None):
    """``(A, vertex_transitive)`` of :func:`graph_family` at n nodes (a checker family rounds n
    as :func:`family_graph` does)."""
    build, transitive = graph_family(family, graph_params)
    return build(n, int(seed)), transitive


def lam_S_grid(ctx):
    """(λ, S) pairs: the paper's settings (32, 16), (64, 32), (64, 64) plus small and large λ."""
    grid = [(0.5, 3), (1.0, 10), (32.0, 16), (64.0, 32), (64.0, 64), (1000.0, 8)]
    if ctx.thorough:
        grid += [(0.01, 50), (4.0, 100), (1e4, 200)]
    return grid


def as_dense(A):
    return A.toarray() if sp.issparse(A) else A


# ------------------------------------------------------------------ Theorem 1's problems
# The graphs, clean features and targets of theorem-1 (its claim modules and its sweep cells
# build them here).

#: Theorem 1's contextual SBM (fixed-λ runs, and the probe of the λ = √n runs): classes, feature
#: dimension, expected degree inside / outside the class, clean row norm.
CSBM_K, CSBM_D, CSBM_DEG_IN, CSBM_DEG_OUT, CSBM_SIGNAL = 4, 4, 16.0, 4.0, 1.0
#: Feature columns = classes = blocks of the λ = √n families.
HYP_K = 4


def csbm_params(n):
    """Contextual-SBM parameters at n nodes (fixed expected degrees, so τ/n does not vanish)."""
    size = n // CSBM_K
    return dict(n=n, k=CSBM_K, p_in=min(1.0, CSBM_DEG_IN / max(size - 1, 1)),
                p_out=min(1.0, CSBM_DEG_OUT / max(n - size, 1)), d=CSBM_D, signal=CSBM_SIGNAL,
                noise_std=0.0, means="onehot")


def draw_csbm(n, graph_seed):
    """Theorem 1's contextual SBM (graph, X*, Y) at n nodes from an integer seed."""
    return contextual_sbm(**csbm_params(n), seed=graph_seed)


def torus(p):
    """The p×p torus (2-D grid with wrap-around): C_p □ C_p, 4-regular, vertex-transitive."""
    C = sp.csr_array(graphs.ring(p))
    Id = sp.identity(p, format="csr")
    return sp.csr_array(sp.kron(C, Id) + sp.kron(Id, C))


def _fourier(a, b):
    return math.sqrt(2.0) * np.stack([np.cos(a), np.sin(a), np.cos(b), np.sin(b)], axis=1)


def hyp_problem(family, n, seed):
    """(graph, its blocks or None, X*, Y, vertex-transitive?) of a family of Theorem 1's
    λ = √n runs (``ring``, ``torus``, ``rr-blocks``, ``ba-blocks``, ``csbm-fixed-degree``) at
    about n nodes."""
    if family == "ring":
        th = 2 * np.pi * np.arange(n) / n
        lab = (HYP_K * np.arange(n)) // n
        return graphs.ring(n), None, _fourier(th, 2 * th), np.eye(HYP_K)[lab], True
    if family == "torus":
        p = int(round(math.sqrt(n)))
        x, y = np.divmod(np.arange(p * p), p)
        lab = 2 * (x < p / 2) + (y < p / 2)
        return (torus(p), None, _fourier(2 * np.pi * x / p, 2 * np.pi * y / p),
                np.eye(HYP_K)[lab], True)
    if family == "csbm-fixed-degree":
        data = draw_csbm(n, seed)
        return data.adjacency, None, data.X_clean, data.Y, False
    build = {"rr-blocks": lambda m, s: graphs.random_regular(m, 6, seed=s),
             "ba-blocks": lambda m, s: graphs.barabasi_albert(m, 3, seed=s)}[family]
    rng = np.random.default_rng(seed)
    size = n // HYP_K
    blocks = [sp.csr_array(build(size, seed_of(rng))) for _ in range(HYP_K)]
    lab = np.repeat(np.arange(HYP_K), size)
    onehot = np.eye(HYP_K)[lab]
    return sp.csr_array(sp.block_diag(blocks, format="csr")), blocks, onehot, onehot, False
