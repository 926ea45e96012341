"""Synthetic graphs for the theory checks: the paper's Figure 1 graphs, deterministic families,
exact Erdős–Rényi / stochastic block models at scale, and a contextual SBM.

Every adjacency returned here is a symmetric ``scipy.sparse.csr_array`` of dtype float64 with
0/1 entries, no self-loops, no duplicate entries and sorted indices. Random generators take
``seed=None | int | numpy.random.Generator``; the same seed gives the identical graph.

:func:`make_graph` builds any registered family by name (``GRAPH_FAMILIES``) so that the theory
checker can sweep families and sizes.
"""

from __future__ import annotations

import math

from .._validation import check_option
from ._build import check_n
from .deterministic import (FIGURE1_NAMES, complete, cycle, figure1, figure1_graphs, grid,
                            isolated, path, ring, star)
from .stochastic import (MEANS, ContextualSBM, barabasi_albert, block_sizes, contextual_sbm,
                         edge_homophily, erdos_renyi, random_regular, sbm)


def _grid_n(n, rng, cols=None):
    if cols is None:
        # The most square factorisation rows * cols = n with rows <= cols (prime n: a path).
        rows = max(r for r in range(1, math.isqrt(n) + 1) if n % r == 0)
        return grid(rows, n // rows)
    cols = check_n(cols, "cols")
    if n % cols:
        raise ValueError(f"grid needs n divisible by cols, got n={n}, cols={cols}")
    return grid(n // cols, cols)


# name -> (builder(n, rng, **params), required params, optional params, uses the seed)
_REGISTRY = {
    "isolated": (lambda n, rng: isolated(n), (), (), False),
    "star": (lambda n, rng: star(n), (), (), False),
    "complete": (lambda n, rng, **kw: complete(n, **kw), (), ("max_nodes",), False),
    "ring": (lambda n, rng: ring(n), (), (), False),
    "cycle": (lambda n, rng: ring(n), (), (), False),
    "path": (lambda n, rng: path(n), (), (), False),
    "grid": (_grid_n, (), ("cols",), False),
    "erdos_renyi": (lambda n, rng, p: erdos_renyi(n, p, seed=rng), ("p",), (), True),
    "sbm": (lambda n, rng, k, p_in, p_out: sbm(n, k, p_in, p_out, seed=rng)[0],
            ("k", "p_in", "p_out"), (), True),
    "barabasi_albert": (lambda n, rng, m: barabasi_albert(n, m, seed=rng), ("m",), (), True),
    "random_regular": (lambda n, rng, d: random_regular(n, d, seed=rng), ("d",), (), True),
}

#: Family names accepted by :func:`make_graph`.
GRAPH_FAMILIES = tuple(_REGISTRY)


def family_params(family):
    """``(required, optional)`` parameter names of a registered family.

    Examples
    --------
    >>> from ngc_ref.graphs import family_params
    >>> family_params("sbm")
    (('k', 'p_in', 'p_out'), ())
    """
    check_option(family, "family", GRAPH_FAMILIES)
    _, required, optional, _ = _REGISTRY[family]
    return required, optional


def make_graph(family, n, seed=None, **params):
    """Build a graph of a registered family with exactly ``n`` nodes.

    ============================  ===========================  ===============================
    family                        parameters                   notes
    ============================  ===========================  ===============================
    ``isolated``                  --                           no edges
    ``star``                      --                           centre is node 0
    ``complete``                  ``max_nodes`` (optional)     size-guarded, n <= 5000 default
    ``ring`` / ``cycle``          --                           n >= 3
    ``path``                      --
    ``grid``                      ``cols`` (optional)          rows = n / cols; default the
                                                               most square factorisation of n
    ``erdos_renyi``               ``p``                        exact G(n, p)
    ``sbm``                       ``k, p_in, p_out``           labels dropped; use :func:`sbm`
    ``barabasi_albert``           ``m``                        networkx, n <~ 1e5
    ``random_regular``            ``d``                        networkx, n <~ 1e5
    ============================  ===========================  ===============================

    Parameters
    ----------
    family : str
        One of ``GRAPH_FAMILIES``.
    n : int
        Number of nodes.
    seed : None, int or numpy.random.Generator
        Used by the random families; ignored by the deterministic ones.
    **params
        Family parameters, see the table.

    Returns
    -------
    scipy.sparse.csr_array
        ``n x n`` adjacency.

    Raises
    ------
    ValueError
        Unknown family (the message lists the valid ones) or invalid parameter values.
    TypeError
        Missing or unexpected parameters for the family.

    Examples
    --------
    >>> from ngc_ref.graphs import make_graph
    >>> make_graph("ring", 5).sum(axis=1)
    array([2., 2., 2., 2., 2.])
    >>> make_graph("grid", 6).nnz // 2  # 2 x 3 lattice
    7
    """
    from .._validation import as_generator
    check_option(family, "family", GRAPH_FAMILIES)
    builder, required, optional, seeded = _REGISTRY[family]
    missing = [p for p in required if p not in params]
    unexpected = [p for p in params if p not in required + optional]
    if missing or unexpected:
        valid = ", ".join(required + optional) or "none"
        what = (f"missing {', '.join(map(repr, missing))}" if missing else
                f"unexpected {', '.join(map(repr, unexpected))}")
        raise TypeError(f"make_graph({family!r}): {what}; its parameters are: {valid}")
    n = check_n(n)
    rng = as_generator(seed)  # validated even for deterministic families
    return builder(n, rng, **params)


__all__ = [
    "ContextualSBM", "FIGURE1_NAMES", "GRAPH_FAMILIES", "MEANS", "barabasi_albert",
    "block_sizes", "complete", "contextual_sbm", "cycle", "edge_homophily", "erdos_renyi",
    "family_params", "figure1", "figure1_graphs", "grid", "isolated", "make_graph", "path",
    "random_regular", "ring", "sbm", "star",
]
