"""The checker's graphs: the named small graphs the exact identities are searched over
(:func:`small_graphs`), the n-scaled families of the asymptotic checks (the registered families
tagged :data:`CHECKER_ORDER`: :func:`default_families`, :func:`checker_families`), what the
checks read from a family's declaration (:func:`declared`, :func:`is_transitive`,
:func:`is_deterministic`, :func:`closed_form`), the lookup the sweeps use (:func:`graph_family`,
:func:`build_graph`). Theorem 1's own graphs (graph, X*, Y of its λ = √n families and its
contextual SBM) are in :mod:`ngc_ref_theory.sweep.theorem1`.

Every family lives in one registry, :mod:`ngc_ref.graphs` (:func:`ngc_ref.graphs.make_graph`,
:func:`ngc_ref.graphs.register_family`): the checker's own n-scaled families are registered
there by this module, when the checker is imported (:data:`CHECKER_FAMILY_DECLARATIONS`; the
library holds only its basic families), by name with what the checks need (vertex-transitive,
deterministic, isolated nodes, hub, degree growth, build cost), and so is a user's own
(``"package.module:function"``). The checker decides from those declarations, never from lists
of names. A family sized by n alone takes no parameters; a parametrised one takes its
``graph_params``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import networkx as nx
import scipy.sparse as sp

from ngc_ref import series_ratio
from ngc_ref.graphs import (barabasi_albert, erdos_renyi, family_info, graph_families, grid,
                            make_graph, random_regular, register_family, resolve_family, sbm,
                            torus)


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


#: The tag a registered family carries to be one of the asymptotic checks' default families;
#: its value (a number) places the family in their report order. The library gives it no
#: meaning: ``register_family(..., tags={"checker_order": 55})`` adds a family of one's own.
CHECKER_ORDER = "checker_order"


def _square_side(n):
    return round(math.sqrt(n))


def _sbm_deg8(n, seed):
    # 4 equal blocks of n // 4 nodes: expected degree 6 inside the block, 2 outside.
    k = 4
    size = n // k
    return sbm(size * k, k, min(1.0, 6.0 / size), 2.0 / (3 * size), seed=seed)[0]


def _log_degree(factor):
    return lambda n: factor * math.log(max(n, 2))


#: The checker's own n-scaled families (no parameters; some round n), registered in the
#: library's registry when the checker is imported: name -> (builder(n, seed), declarations).
#: The degree growth, hubs and build cost are declared for the checks and the cost model; the
#: tag :data:`CHECKER_ORDER` places a family among the checker's defaults (the library's
#: ``ring``, ``path``, ``complete`` and ``star`` carry it too).
CHECKER_FAMILY_DECLARATIONS = {
    "grid_2d": (lambda n, seed: grid(_square_side(n), _square_side(n)), dict(
        deterministic=True, avg_degree=4.0, local=True, exact_n=False,
        description="round(√n)² nodes, 2-D lattice", tags={CHECKER_ORDER: 30})),
    "torus": (lambda n, seed: torus(_square_side(n)), dict(
        vertex_transitive=True, deterministic=True, avg_degree=4.0, local=True, exact_n=False,
        description="round(√n)² nodes, 2-D lattice with wrap-around")),
    "er_avgdeg_3": (lambda n, seed: erdos_renyi(n, 3.0 / (n - 1), seed=seed), dict(
        isolated_nodes=True, avg_degree=3.0, description="G(n, 3/(n-1)): isolated nodes",
        tags={CHECKER_ORDER: 60})),
    "er_avgdeg_2logn": (
        lambda n, seed: erdos_renyi(n, min(1.0, 2.0 * math.log(n) / (n - 1)), seed=seed), dict(
            avg_degree=_log_degree(2.0), description="G(n, 2 log n/(n-1)), connected w.h.p.",
            tags={CHECKER_ORDER: 70})),
    "random_regular_4": (lambda n, seed: random_regular(n + (n % 2), 4, seed=seed), dict(
        avg_degree=4.0, exact_n=False, build_seconds_per_node=8e-5,
        description="4-regular, n rounded up to even", tags={CHECKER_ORDER: 80})),
    "barabasi_albert_3": (lambda n, seed: barabasi_albert(n, 3, seed=seed), dict(
        avg_degree=6.0, build_seconds_per_node=1e-4,
        description="preferential attachment, m = 3", tags={CHECKER_ORDER: 90})),
    "sbm_4_blocks_deg8": (_sbm_deg8, dict(
        avg_degree=8.0, exact_n=False,
        description="4 blocks of n // 4, expected degree 6 inside, 2 outside",
        tags={CHECKER_ORDER: 100})),
}


def register_checker_families():
    """Register :data:`CHECKER_FAMILY_DECLARATIONS` in the library's registry (done once, on
    import; again after a test emptied the registry). A family already there is left as it is.

    Examples
    --------
    >>> from ngc_ref.graphs import family_info, make_graph
    >>> register_checker_families()
    >>> family_info("torus").vertex_transitive, make_graph("torus", 10).shape
    (True, (9, 9))
    """
    for name, (builder, declarations) in CHECKER_FAMILY_DECLARATIONS.items():
        if name not in graph_families():
            register_family(name, builder, **declarations)


register_checker_families()


def declared(family):
    """The registry's record of ``family`` (:class:`ngc_ref.graphs.GraphFamily`), or None
    for a name the registry does not hold (Theorem 1's own graphs, a claim's own
    constructions such as ``"er-avgdeg-3"``).

    Examples
    --------
    >>> declared("ring").vertex_transitive, declared("rr-blocks")
    (True, None)
    """
    try:
        return family_info(family)
    except (TypeError, ValueError):
        return None


def default_families():
    """The asymptotic checks' default families: every registered family tagged
    :data:`CHECKER_ORDER`, in the order of the tag's values (then of registration).

    Examples
    --------
    >>> default_families()[:4]
    ('ring', 'path', 'grid_2d', 'complete')
    """
    tagged = [(info.tag(CHECKER_ORDER), k, name) for k, name in enumerate(graph_families())
              for info in [family_info(name)] if info.tag(CHECKER_ORDER) is not None]
    return tuple(name for _order, _k, name in sorted(tagged))


class _DefaultFamilies(Mapping):
    """family -> (builder(n, seed) -> adjacency, vertex_transitive) of the default families,
    read from the registry at each use (a family registered later with the tag is in it)."""

    def __iter__(self):
        return iter(default_families())

    def __len__(self):
        return len(default_families())

    def __getitem__(self, name):
        if name not in default_families():
            raise KeyError(name)
        return (lambda n, s: make_graph(name, n, int(s))), family_info(name).vertex_transitive


#: The checker's default families as a mapping (a view of the registry; a test may replace it
#: by a smaller dict).
FAMILIES = _DefaultFamilies()


def checker_families(ctx, default=None):
    """The families an asymptotic claim runs on: ``ctx.families`` (``ngc-ref check --family``)
    when given, else ``default`` (the claim's own list, e.g. :data:`FAMILIES`), else the
    registry's default families now (:func:`default_families`)."""
    given = tuple(getattr(ctx, "families", ()) or ())
    if given:
        return list(given)
    return list(default_families() if default is None else default)


def check_family(spec, option="--family", n=16):
    """The registered name of a family given on the command line or in a config: resolved
    (imported when ``package.module:function``) and built once at ``n`` nodes, so that a bad
    module, function or graph stops the run at once with a ValueError naming ``option``."""
    info = resolve_family(spec, option=option)
    if info.required:
        raise ValueError(f"{option} {spec!r} needs parameters {list(info.required)}; the checker "
                         "takes families sized by n alone (register one, e.g. with "
                         "ngc_ref.graphs.register_family)")
    try:
        make_graph(info.name, n, 0)
    except (TypeError, ValueError) as exc:
        msg = str(exc)
        raise ValueError(msg if msg.startswith(option) else f"{option} {spec!r}: {msg}") from None
    return info.name


def is_transitive(family):
    """Whether the registry declares ``family`` vertex-transitive (one node gives τ); False
    for a name it does not hold (:func:`declared`)."""
    info = declared(family)
    return info is not None and info.vertex_transitive


def is_deterministic(family):
    """Whether the registry declares that ``family``'s graph does not depend on the seed (one
    graph per n); False for a name it does not hold (:func:`declared`)."""
    info = declared(family)
    return info is not None and info.deterministic


def closed_form(family, graph_params=None):
    """Whether the checker knows Ã_S of ``family``'s graph in closed form: the complete graph
    K_n, where Ã = J/n in both normalisations (:func:`complete_coefficients`,
    :func:`complete_rho`). The formula is K_n's own, so this names the family: the one home
    of that decision for the tasks and the cost model.

    Examples
    --------
    >>> closed_form("complete"), closed_form("complete", {"max_nodes": 10}), closed_form("ring")
    (True, False, False)
    """
    return family == "complete" and not graph_params


def family_graph(name, n, seed):
    """The family's graph with about n nodes (grid: nearest square; regular: n rounded to even).

    Any registered family, or a ``package.module:function`` one (:func:`ngc_ref.graphs.make_graph`).
    """
    return make_graph(name, n, int(seed))


def graph_family(family, graph_params=None):
    """``(builder(n, seed), vertex_transitive)`` of a registered family (a checker family, a
    :func:`ngc_ref.graphs.make_graph` family with its ``graph_params``, or a user's
    ``package.module:function``); ValueError names what is wrong and what is valid."""
    gp = graph_params or {}
    info = family_info(family)
    required, optional = info.required, info.optional
    missing = [p for p in required if p not in gp]
    unexpected = [p for p in gp if p not in required + optional]
    if missing or unexpected:
        if not required + optional:
            raise ValueError(f"family {family!r} takes no graph_params, got {sorted(gp)}")
        raise ValueError(f"family {family!r} needs graph_params {list(required)} (optional "
                         f"{list(optional)}); missing {missing}, unexpected {unexpected}")
    return (lambda n, seed: make_graph(family, n, int(seed), **gp)), info.vertex_transitive


def build_graph(family, n, seed, graph_params=None):
    """``(A, vertex_transitive)`` of :func:`graph_family` at n nodes (a checker family rounds n
    as :func:`family_graph` does)."""
    build, transitive = graph_family(family, graph_params)
    return build(n, int(seed)), transitive


def complete_coefficients(n, lam, S):
    """(a, b) with Ã_S = aI + bJ on the complete graph K_n: with self-loops Ã = J/n in both
    normalisations (every degree of A + I is n), so Ã^s = J/n for s ≥ 1, a = 1/(λ+1) and
    b = a·c/n with c = Σ_{s=1}^S r^s = λ(1 − r^S)."""
    a = 1.0 / (lam + 1.0)
    return a, a * (lam * (1.0 - series_ratio(lam) ** S)) / n


def complete_rho(n, lam, S):
    """ρ_i = Σ_j [Ã_S]_ij² of K_n in closed form (every row alike, both normalisations):
    ((1 + c/n)² + (n − 1)(c/n)²)/(λ+1)², c = λ(1 − r^S) (:func:`complete_coefficients`)."""
    r = lam / (lam + 1.0)
    c = lam * (1.0 - r ** S)
    return ((1.0 + c / n) ** 2 + (n - 1) * (c / n) ** 2) / (lam + 1.0) ** 2


def lam_S_grid(ctx):
    """(λ, S) pairs: the paper's settings (32, 16), (64, 32), (64, 64) plus small and large λ."""
    grid = [(0.5, 3), (1.0, 10), (32.0, 16), (64.0, 32), (64.0, 64), (1000.0, 8)]
    if ctx.thorough:
        grid += [(0.01, 50), (4.0, 100), (1e4, 200)]
    return grid


def as_dense(A):
    return A.toarray() if sp.issparse(A) else A
