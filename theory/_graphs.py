"""The graphs the checks search over: small ones for exact identities, seeded random ones."""

from __future__ import annotations

import networkx as nx
import scipy.sparse as sp


def _adj(G):
    A = nx.to_scipy_sparse_array(G, format="csr", dtype=float, weight=None)
    A.setdiag(0)
    A.eliminate_zeros()
    return A


def small_graphs(ctx):
    """Named small graphs covering isolated nodes, hubs, paths, cliques, bottlenecks, randomness."""
    seed = int(ctx.rng("small-graphs").integers(2**31))
    graphs = {
        "isolated-5": nx.empty_graph(5),
        "star-7": nx.star_graph(6),
        "path-9": nx.path_graph(9),
        "ring-8": nx.cycle_graph(8),
        "complete-6": nx.complete_graph(6),
        "barbell-4-2": nx.barbell_graph(4, 2),
        "karate-34": nx.karate_club_graph(),
        f"er-40-0.08-s{seed}": nx.gnp_random_graph(40, 0.08, seed=seed),
        "star+isolated": nx.disjoint_union(nx.star_graph(4), nx.empty_graph(2)),
    }
    if ctx.thorough:
        graphs.update({
            "grid-10x10": nx.grid_2d_graph(10, 10),
            f"ba-200-2-s{seed}": nx.barabasi_albert_graph(200, 2, seed=seed),
            f"er-300-0.02-s{seed}": nx.gnp_random_graph(300, 0.02, seed=seed),
            "star-101": nx.star_graph(100),
        })
    return {name: _adj(G) for name, G in graphs.items()}


def lam_S_grid(ctx):
    """(λ, S) pairs: the paper's settings (32, 16), (64, 32), (64, 64) plus small and large λ."""
    grid = [(0.5, 3), (1.0, 10), (32.0, 16), (64.0, 32), (64.0, 64), (1000.0, 8)]
    if ctx.thorough:
        grid += [(0.01, 50), (4.0, 100), (1e4, 200)]
    return grid


def as_dense(A):
    return A.toarray() if sp.issparse(A) else A
