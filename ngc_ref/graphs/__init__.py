"""Synthetic graphs for the theory checks: the paper's Figure 1 graphs, deterministic families,
exact Erdős–Rényi / stochastic block models at scale, and a contextual SBM.

Every adjacency returned here is a symmetric ``scipy.sparse.csr_array`` of dtype float64 with
0/1 entries, no self-loops, no duplicate entries and sorted indices. Random generators take
``seed=None | int | numpy.random.Generator``; the same seed gives the identical graph.

:func:`make_graph` builds any registered family by name (:func:`graph_families`: the basic
``GRAPH_FAMILIES``, and your own, registered with :func:`register_family` or named
``"package.module:function"``, as the theory checker registers its n-scaled families), so that
the theory checker and the sweeps can sweep families and sizes; :func:`family_info` gives what a
family declares (vertex-transitive, isolated nodes, hub, degree growth).
"""

from __future__ import annotations

import math

from .._docs import fill_doc
from .._validation import check_option
from ._build import check_n
from ._registry import (_FAMILIES, BUILTIN, GraphFamily, _add, as_tags, build, family_info,
                        family_params, family_table, graph_families,
                        register_family, resolve_family)
from .deterministic import (FIGURE1_NAMES, complete, cycle, figure1, figure1_graphs, grid,
                            isolated, path, ring, star, torus)
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


#: The tag the theory checker picks its default families by (``ngc_ref_theory.kit.graphs``
#: reads it; its value orders them in its report). A label: the library gives it no meaning.
_CHECKER_ORDER = "checker_order"


def _builtin(name, builder, required=(), optional=(), *, tags=None, **declared):
    BUILTIN.add(name)
    _add(GraphFamily(name, builder, required, optional, tags=as_tags(tags), **declared))


# The library's basic families (exactly n nodes; some with parameters) ...
_builtin("isolated", lambda n, rng: isolated(n), isolated_nodes=True, vertex_transitive=True,
         deterministic=True, avg_degree=0.0, local=True, description="no edges")
_builtin("star", lambda n, rng: star(n), hub=True, deterministic=True, avg_degree=2.0,
         local=True, description="centre is node 0", tags={_CHECKER_ORDER: 50})
_builtin("complete", lambda n, rng, **kw: complete(n, **kw), optional=("max_nodes",),
         vertex_transitive=True, deterministic=True, avg_degree=lambda n: n - 1.0, local=True,
         description="size-guarded, n <= 5000 default", tags={_CHECKER_ORDER: 40})
_builtin("ring", lambda n, rng: ring(n), vertex_transitive=True, deterministic=True,
         avg_degree=2.0, local=True, description="n >= 3", tags={_CHECKER_ORDER: 10})
_builtin("cycle", lambda n, rng: ring(n), vertex_transitive=True, deterministic=True,
         avg_degree=2.0, local=True, description="the ring")
_builtin("path", lambda n, rng: path(n), deterministic=True, avg_degree=2.0, local=True,
         tags={_CHECKER_ORDER: 20})
_builtin("grid", _grid_n, optional=("cols",), deterministic=True, avg_degree=4.0, local=True,
         description="rows = n / cols; default the most square factorisation of n")
_builtin("erdos_renyi", lambda n, rng, p: erdos_renyi(n, p, seed=rng), ("p",),
         description="exact G(n, p)")
_builtin("sbm", lambda n, rng, k, p_in, p_out: sbm(n, k, p_in, p_out, seed=rng)[0],
         ("k", "p_in", "p_out"), description="labels dropped; use sbm()")
_builtin("barabasi_albert", lambda n, rng, m: barabasi_albert(n, m, seed=rng), ("m",),
         description="networkx, n <~ 1e5")
_builtin("random_regular", lambda n, rng, d: random_regular(n, d, seed=rng), ("d",),
         description="networkx, n <~ 1e5")
#: Family names of the library's basic families: exactly n nodes (the parametrised building
#: blocks). :func:`graph_families` lists every registered family (the theory checker's
#: n-scaled families among them once ``ngc_ref_theory`` is imported: it registers them).
GRAPH_FAMILIES = tuple(_FAMILIES)

def make_graph(family, n, seed=None, **params):
    """Build a graph of a registered family with (about) ``n`` nodes.

    %(family_table)s

    Parameters
    ----------
    family : str
        A registered name (:func:`graph_families`) or ``"package.module:function"``.
    n : int
        Number of nodes.
    %(seed)s
        Used by the random families; validated, and otherwise ignored, by the deterministic
        ones.
    **params
        Family parameters, see the table.

    Returns
    -------
    scipy.sparse.csr_array
        Adjacency (``n x n`` for the families marked ``exact_n``).

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
    if isinstance(family, str) and family not in _FAMILIES and ":" not in family:
        check_option(family, "family", graph_families())
    n = check_n(n)
    return build(family, n, seed, params)


# The table of families in make_graph's docstring is written from the registered records.
make_graph.__doc__ = (make_graph.__doc__ or "").replace("    %(family_table)s",
                                                        family_table(tuple(_FAMILIES)))
fill_doc(make_graph)


__all__ = [
    "ContextualSBM", "FIGURE1_NAMES", "GRAPH_FAMILIES", "GraphFamily", "MEANS",
    "barabasi_albert", "block_sizes", "complete", "contextual_sbm", "cycle", "edge_homophily",
    "erdos_renyi", "family_info", "family_params", "figure1", "figure1_graphs",
    "graph_families", "grid", "isolated", "make_graph", "path", "random_regular",
    "register_family", "resolve_family", "ring", "sbm", "star", "torus",
]
