"""The one registry of graph families: name -> builder and what the theory checks need to know.

A family is a rule ``n -> graph``: the library's basic families (``ring``, ``erdos_renyi``, ...,
some with parameters) and a user's own (:func:`register_family`, or a
``"package.module:function"`` string that :func:`resolve_family` imports and registers), such as
the n-scaled families the theory checker registers (``er_avgdeg_2logn``, ``barabasi_albert_3``,
...). Each
record declares what the checks and the cost model read from it instead of measuring it:
vertex-transitivity (one node gives τ exactly), whether the graph depends on the seed at all,
isolated nodes and hubs (outside the corrected statements' hypotheses), the expected average
degree, whether neighbours sit close in index order (the cost of a sparse product) and the
seconds per node its builder takes; and free tags (``tags``), labels a program selects
families by, to which the library gives no meaning.
"""

from __future__ import annotations

import importlib
import inspect
import math
import numbers
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._validation import as_generator, check_adjacency

#: ``package.module:function`` (dotted module path, one attribute).
SPEC = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")
#: ``path/to/file.py:function``: a user's file, loaded by its path (from any folder).
FILE_SPEC = re.compile(r"(.+\.py):([A-Za-z_]\w*)")
#: A registered name: lower case, digits and ``_`` (the names of the built-ins' convention).
NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class GraphFamily:
    """A registered graph family.

    Attributes
    ----------
    name : str
        The registered name (a user family given as ``"package.module:function"`` keeps that
        string as its name).
    builder : callable
        ``builder(n, seed, **params)``: an adjacency with about ``n`` nodes. Built-ins receive
        a ``numpy.random.Generator``; a user's builder (``int_seed=True``) an ``int``.
    required, optional : tuple of str
        Parameter names (:func:`make_graph`'s keyword arguments).
    vertex_transitive : bool
        Every node looks alike (an automorphism maps any node to any other): every τ_i and
        ρ_i of Ã_S are equal, so the checks compute one node instead of n.
    deterministic : bool
        The graph at n does not depend on the seed (a ring, a lattice): one graph per n is
        all there is, so repeating it over seeds repeats the same graph.
    isolated_nodes : bool
        Its graphs have isolated nodes (τ_i = n for every λ, S: outside the hypotheses of the
        corrected Assumption 2).
    hub : bool
        The largest degree share max_i d̃_i/Σ_j d̃_j does not vanish as n grows (outside the
        same hypotheses).
    avg_degree : float, callable or None
        Expected average degree at n (``avg_degree(n)`` if callable) for the cost model;
        None: unknown (the model assumes 8).
    local : bool
        Neighbours sit close in index order (a banded matrix): a sparse product runs about
        twice as fast per stored entry as on a random graph.
    exact_n : bool
        The graph has exactly n nodes (else it rounds n, e.g. to a square).
    build_seconds_per_node : float or None
        About how many CPU seconds its builder takes per node (a networkx generator's Python
        loops: 1e-4), for the cost model; None: fast (vectorised, about 2e-6).
    description : str
        One line for listings.
    int_seed : bool
        The builder takes an integer seed (user families) rather than a Generator.
    tags : tuple of (str, object) pairs
        Free labels a program selects families by, with a value each (``register_family``
        takes a mapping, or names, each then ``True``); the library gives them no meaning.
        Read one with :meth:`tag`.
    """

    name: str
    builder: Callable
    required: tuple = ()
    optional: tuple = ()
    vertex_transitive: bool = False
    isolated_nodes: bool = False
    hub: bool = False
    avg_degree: float | Callable | None = None
    local: bool = False
    exact_n: bool = True
    description: str = ""
    int_seed: bool = False
    deterministic: bool = False
    build_seconds_per_node: float | None = None
    tags: tuple = ()

    def tag(self, name, default=None):
        """The value of tag ``name`` (``default`` when the family does not carry it).

        Examples
        --------
        >>> from ngc_ref.graphs import register_family
        >>> fam = register_family("ring_doc", lambda n, seed: None, tags={"size": "small"},
        ...                       replace=True)
        >>> fam.tag("size"), fam.tag("colour")
        ('small', None)
        """
        return dict(self.tags).get(name, default)

    def degree(self, n):
        """The declared expected average degree at ``n`` (None when unknown)."""
        d = self.avg_degree
        return float(d(n)) if callable(d) else (None if d is None else float(d))

    def metadata(self):
        """The declared properties as a dict (what a report or a dry run shows)."""
        return {"name": self.name, "parameters": list(self.required + self.optional),
                "vertex_transitive": self.vertex_transitive,
                "isolated_nodes": self.isolated_nodes, "hub": self.hub,
                "local": self.local, "exact_n": self.exact_n,
                "deterministic": self.deterministic,
                "build_seconds_per_node": self.build_seconds_per_node,
                "tags": dict(self.tags), "description": self.description}


_FAMILIES: dict[str, GraphFamily] = {}


def _add(family, replace=False):
    if family.name in _FAMILIES and not replace:
        raise ValueError(f"graph family {family.name!r} is already registered (pass "
                         "replace=True to replace it)")
    _FAMILIES[family.name] = family
    return family


def as_tags(tags, name="tags"):
    """``tags`` (a mapping of names to values, or an iterable of names, each then ``True``) as
    :attr:`GraphFamily.tags`: ``(name, value)`` pairs sorted by name.

    Examples
    --------
    >>> as_tags({"b": 2, "a": 1}), as_tags(["small"]), as_tags(None)
    ((('a', 1), ('b', 2)), (('small', True),), ())
    """
    if tags is None:
        return ()
    if isinstance(tags, str):
        raise TypeError(f"{name} must be a mapping of names to values or an iterable of "
                        f"names, got the str {tags!r}")
    pairs = tags.items() if hasattr(tags, "items") else ((t, True) for t in tags)
    out = {}
    for key, value in pairs:
        if not isinstance(key, str) or not key:
            raise TypeError(f"{name}: a tag's name must be a non-empty str, got {key!r}")
        out[key] = value
    return tuple(sorted(out.items()))


def register_family(name, builder, *, vertex_transitive=False, isolated_nodes=False, hub=False,
                    avg_degree=None, local=False, exact_n=True, description="", replace=False,
                    deterministic=False, build_seconds_per_node=None, tags=None):
    """Register ``builder(n, seed) -> adjacency`` as graph family ``name``.

    The family is then built by :func:`make_graph` and accepted wherever the theory checker
    and the sweeps take a family (``ngc-ref check --family NAME``, ``family = "NAME"`` in a
    sweep config; in another process, e.g. a sweep worker, name it as
    ``"package.module:function"`` instead, which imports and registers it there).

    Parameters
    ----------
    name : str
        Lower case letters, digits and ``_``, or a ``"package.module:function"`` string.
    builder : callable
        ``builder(n, seed)`` with ``n`` the requested number of nodes and ``seed`` a
        non-negative ``int`` (the same seed must give the same graph); returns a square
        adjacency: SciPy sparse, a NumPy array or a networkx graph (symmetric, non-negative).
    vertex_transitive, isolated_nodes, hub, avg_degree, local, exact_n, description
        Declared properties, see :class:`GraphFamily`. ``vertex_transitive=True`` lets the
        checks compute τ from one node: declare it only when it is true.
    deterministic, build_seconds_per_node, tags
        Also declared, see :class:`GraphFamily`: ``deterministic=True`` when the graph does
        not depend on the seed; ``tags`` a mapping (or names) a program selects families by.
    replace : bool
        Replace an existing family of that name (never a built-in one).

    Returns
    -------
    GraphFamily

    Raises
    ------
    ValueError
        A bad name, a taken name, or a builder that does not take ``(n, seed)``.
    TypeError
        ``builder`` is not callable.

    Examples
    --------
    >>> import networkx as nx
    >>> from ngc_ref.graphs import make_graph, register_family
    >>> fam = register_family("ladder_doc", lambda n, seed: nx.ladder_graph(n // 2),
    ...                       avg_degree=3.0, exact_n=False, replace=True)
    >>> make_graph("ladder_doc", 10).shape
    (10, 10)
    """
    if not isinstance(name, str) or not (NAME.fullmatch(name) or SPEC.fullmatch(name)
                                         or FILE_SPEC.fullmatch(name)):
        raise ValueError(f"name must be lower case letters, digits and '_' (or "
                         f"'package.module:function'), got {name!r}")
    if not callable(builder):
        raise TypeError(f"builder must be a callable (n, seed) -> adjacency, got "
                        f"{type(builder).__name__}")
    _check_signature(builder, name)
    if name in BUILTIN and replace:
        raise ValueError(f"graph family {name!r} is built in and cannot be replaced")
    for flag, value in (("vertex_transitive", vertex_transitive),
                        ("isolated_nodes", isolated_nodes), ("hub", hub), ("local", local),
                        ("exact_n", exact_n), ("deterministic", deterministic)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{flag} must be True or False, got {value!r}")
    if avg_degree is not None and not callable(avg_degree) and not (
            isinstance(avg_degree, numbers.Real) and avg_degree >= 0):
        raise ValueError(f"avg_degree must be a number >= 0, a callable of n or None, got "
                         f"{avg_degree!r}")
    if build_seconds_per_node is not None and not (
            isinstance(build_seconds_per_node, numbers.Real)
            and not isinstance(build_seconds_per_node, bool)
            and math.isfinite(build_seconds_per_node) and build_seconds_per_node >= 0):
        raise ValueError(f"build_seconds_per_node must be a finite number >= 0 or None, got "
                         f"{build_seconds_per_node!r}")
    return _add(GraphFamily(name, builder, (), (), bool(vertex_transitive), bool(isolated_nodes),
                            bool(hub), avg_degree, bool(local), bool(exact_n), description,
                            int_seed=True, deterministic=bool(deterministic),
                            build_seconds_per_node=build_seconds_per_node,
                            tags=as_tags(tags)), replace=replace)


def _check_signature(builder, name):
    try:
        inspect.signature(builder).bind(1, 0)
    except TypeError:
        raise ValueError(f"family {name!r}: the builder must take (n, seed), got "
                         f"{getattr(builder, '__name__', builder)!r}"
                         f"{inspect.signature(builder)}") from None
    except ValueError:   # builtins without a signature: accepted, called as builder(n, seed)
        pass


def resolve_family(spec, *, option="family"):
    """The :class:`GraphFamily` named ``spec``: a registered name, ``"package.module:function"``
    (imported from the Python path or the current folder) or ``"path/to/file.py:function"``
    (the file loaded by its path, relative to the current folder or absolute), registered under
    that string on first use, with the properties the function
    declares in a ``graph_family`` attribute dict, e.g. ``f.graph_family = {"avg_degree": 4}``).

    Raises ``ValueError`` naming ``option`` for an unknown name, a module that does not import,
    a missing function or a builder of the wrong shape.

    Examples
    --------
    >>> from ngc_ref.graphs import resolve_family
    >>> resolve_family("ring").vertex_transitive
    True
    """
    if not isinstance(spec, str):
        raise TypeError(f"{option} must be a family name or 'package.module:function', got "
                        f"{type(spec).__name__} {spec!r}")
    if spec in _FAMILIES:
        return _FAMILIES[spec]
    in_file = FILE_SPEC.fullmatch(spec)
    if not (in_file or SPEC.fullmatch(spec)):
        raise ValueError(f"{option}: unknown family {spec!r}; registered: "
                         f"{', '.join(sorted(_FAMILIES))}; or give your own as "
                         "'package.module:function' or 'path/to/file.py:function' with "
                         "function(n, seed) -> adjacency")
    if in_file:
        module, attr = in_file.groups()
        mod = _load_file(module, f"{option} {spec!r}")
    else:
        module, attr = spec.split(":")
        mod = _import(module, f"{option} {spec!r}")
    fn = getattr(mod, attr, None)
    if fn is None:
        raise ValueError(f"{option} {spec!r}: module {module!r} has no attribute {attr!r}")
    declared = getattr(fn, "graph_family", {}) or {}
    if not isinstance(declared, dict):
        raise ValueError(f"{option} {spec!r}: {attr}.graph_family must be a dict of "
                         f"register_family's keywords, got {type(declared).__name__}")
    try:
        return register_family(spec, fn, **declared)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{option} {spec!r}: {exc}") from None


def _import(module, what):
    """Import ``module`` from the Python path, else from the current folder (as ``python -m``
    would: a console script such as ``ngc-ref`` does not put the folder on the path).

    A module that does not import is a ValueError naming ``what`` (the option and its value).
    """
    try:
        return _import_here_too(module)
    except ImportError as exc:
        raise ValueError(f"{what}: cannot import module {module!r} ({exc}); is it on "
                         "the Python path (PYTHONPATH, or installed)?") from None


def _load_file(path, what):
    """The module of the Python file ``path`` (loaded once per absolute path); a missing file
    or one that raises on loading is a ValueError naming ``what``."""
    import hashlib
    import importlib.util
    full = os.path.abspath(os.path.expanduser(path))
    if not os.path.isfile(full):
        raise ValueError(f"{what}: no such file {path!r} (from {os.getcwd()!r})")
    name = "ngc_ref_user_family_" + hashlib.sha256(full.encode()).hexdigest()[:16]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, full)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:  # noqa: BLE001 - the user's file: say which and why
        del sys.modules[name]
        raise ValueError(f"{what}: loading {path!r} failed: {type(exc).__name__}: "
                         f"{exc}") from None
    return mod


def _import_here_too(module):
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        cwd = os.getcwd()
        if cwd in sys.path:
            raise
        sys.path.append(cwd)
        return importlib.import_module(module)


def graph_families():
    """Every registered family name, built-ins first (in registration order).

    Examples
    --------
    >>> from ngc_ref.graphs import graph_families
    >>> graph_families()[:4]
    ('isolated', 'star', 'complete', 'ring')
    """
    return tuple(_FAMILIES)


def family_info(family):
    """The :class:`GraphFamily` record of a registered name or a ``package.module:function``.

    Examples
    --------
    >>> from ngc_ref.graphs import family_info
    >>> family_info("star").hub, family_info("star").vertex_transitive
    (True, False)
    """
    return resolve_family(family)


def family_params(family):
    """``(required, optional)`` parameter names of a registered family.

    Examples
    --------
    >>> from ngc_ref.graphs import family_params
    >>> family_params("sbm")
    (('k', 'p_in', 'p_out'), ())
    """
    fam = resolve_family(family)
    return fam.required, fam.optional


def build(family, n, seed, params, *, option="family"):
    """``make_graph``'s work once the arguments are checked: the family's graph as a CSR."""
    fam = resolve_family(family, option=option)
    missing = [p for p in fam.required if p not in params]
    unexpected = [p for p in params if p not in fam.required + fam.optional]
    if missing or unexpected:
        valid = ", ".join(fam.required + fam.optional) or "none"
        what = (f"missing {', '.join(map(repr, missing))}" if missing else
                f"unexpected {', '.join(map(repr, unexpected))}")
        raise TypeError(f"make_graph({family!r}): {what}; its parameters are: {valid}")
    rng = as_generator(seed)  # validated even for deterministic families
    if not fam.int_seed:
        return fam.builder(n, rng, **params)
    # A user's builder takes an int: an int seed goes through as given, else one is drawn.
    int_seed = seed if isinstance(seed, numbers.Integral) else int(rng.integers(2**31))
    return user_graph(fam, fam.builder(n, int(int_seed)), n, option)


def user_graph(fam, G, n, option="family"):
    """A user builder's output checked and made a symmetric float64 CSR without self-loops."""
    shape = getattr(G, "shape", None)
    if shape is not None and (len(shape) != 2 or shape[0] != shape[1]):
        raise ValueError(f"{option} {fam.name!r}: the builder returned a {type(G).__name__} of "
                         f"shape {tuple(shape)} for n={n}; expected a square adjacency")
    try:
        A = check_adjacency(G, name=f"{option} {fam.name!r}'s graph")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{option} {fam.name!r}: the builder's graph for n={n} is not an "
                         f"adjacency: {exc}") from None
    if A.shape[0] < 1:
        raise ValueError(f"{option} {fam.name!r}: the builder returned an empty graph for n={n}")
    if fam.exact_n and A.shape[0] != n:
        raise ValueError(f"{option} {fam.name!r}: the builder returned {A.shape[0]} nodes for "
                         f"n={n}; register it with exact_n=False if it rounds n")
    A = sp.csr_array(A, dtype=np.float64)
    # Ã = A + I adds the self-loops, so a stored one would count twice. (sp.diags: SciPy 1.10,
    # the oldest declared, has no diags_array.)
    if A.diagonal().any():
        A = sp.csr_array(A - sp.diags(A.diagonal()))
    A.eliminate_zeros()
    A.sort_indices()
    return A


def family_table(names, indent=4):
    """An RST table of the families ``names``: name, parameters, description (what
    :func:`ngc_ref.graphs.make_graph`'s docstring lists, written from the records).

    Examples
    --------
    >>> print(family_table(["ring", "erdos_renyi"], indent=0))
    =================  ============  ===========================================================
    family             parameters    notes
    =================  ============  ===========================================================
    ``ring``           --            n >= 3
    ``erdos_renyi``    ``p``         exact G(n, p)
    your own           --            :func:`register_family`, or ``"package.module:function"``
    =================  ============  ===========================================================
    """
    rows = [("family", "parameters", "notes")]
    for name in names:
        fam = _FAMILIES[name]
        params = [f"``{p}``" for p in fam.required] + [f"``{p}`` (optional)"
                                                       for p in fam.optional]
        rows.append((f"``{name}``", ", ".join(params) or "--", fam.description))
    rows.append(("your own", "--", ':func:`register_family`, or ``"package.module:function"``'))
    widths = [max(len(r[k]) for r in rows) + 2 for k in range(3)]
    rule = "  ".join("=" * w for w in widths)

    def line(r):
        return "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    lines = [rule, line(rows[0]), rule, *map(line, rows[1:]), rule]
    return "\n".join(" " * indent + ln for ln in lines)


#: Names of the built-in families (filled by :mod:`ngc_ref.graphs`).
BUILTIN: set = set()
