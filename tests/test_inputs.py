"""Input rules at the public boundary: networkx edge weights and node order, the optional
hypothesis dependency of ``ngc_ref.strategies``, the messages for ``lam``, ``eps`` and
``seed``, and each rule of the checks in ``ngc_ref._validation`` at, just inside and just
outside its limits (the memory guards' byte counts, computed here by hand, included).

A networkx graph is turned into a matrix with ``weight=`` (default ``"weight"``, as networkx's
own functions) and ``nodelist=`` (default ``G.nodes()`` order, as
``networkx.to_scipy_sparse_array``); every public function that takes a graph passes both on.
"""

from __future__ import annotations

import inspect
import math
import os
import subprocess
import sys
import warnings
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

import ngc_ref
from ngc_ref import _memory, training
from ngc_ref._validation import (DEPRECATED, _preview, _warn, as_generator, check_adjacency,
                                 check_array, check_dense_size, check_eps, check_features,
                                 check_lam, check_order, check_per_row, check_scalar,
                                 is_symmetric, renamed_keyword)
from ngc_ref.graphs import edge_homophily

HERE = os.path.abspath(__file__)


def _y(n):
    return np.arange(n) % 2


# Every public entry point that accepts a graph, called on (G, X) with extra keywords, reduced
# to an array that depends on the graph's weights and node order.
CALLS = {
    "add_self_loops": lambda G, X, **kw: ngc_ref.add_self_loops(G, **kw).toarray(),
    "normalized_adjacency": lambda G, X, **kw: ngc_ref.normalized_adjacency(
        G, norm="rw", **kw).toarray(),
    "NeumannFilter": lambda G, X, **kw: ngc_ref.NeumannFilter(G, 2.0, 3, **kw) @ X,
    "neumann_propagate": lambda G, X, **kw: ngc_ref.neumann_propagate(G, X, 2.0, 3, **kw),
    "neumann_matrix": lambda G, X, **kw: ngc_ref.neumann_matrix(G, 2.0, 3, **kw),
    "gsd_solve": lambda G, X, **kw: ngc_ref.gsd_solve(G, X, 2.0, **kw),
    "connectivity_factor": lambda G, X, **kw: ngc_ref.connectivity_factor(
        G, 2.0, 3, **kw).tau_i,
    "connectivity_factor-estimate": lambda G, X, **kw: ngc_ref.connectivity_factor(
        G, 2.0, 3, method="estimate", seed=0, **kw).tau_i,
    "robust_propagate": lambda G, X, **kw: ngc_ref.robust_propagate(G, X, 2.0, 3, 0.5, **kw),
    "training.propagate": lambda G, X, **kw: training.propagate("s2gc", G, X, K=3, **kw),
    "GraphPropagation": lambda G, X, **kw: training.GraphPropagation(
        G, X, propagation="gsd", lam=2.0, **kw).fit().propagated_,
    "make_node_classifier": lambda G, X, **kw: training.make_node_classifier(
        G, X, "ngc", lam=2.0, S=3, **kw)[0].fit().propagated_,
    "theory_trajectory": lambda G, X, **kw: np.array(training.theory_trajectory(
        G, X, 0.1 * X[::-1], X[:, :1], 2.0, 3, steps=3, **kw).f),
    "edge_homophily": lambda G, X, **kw: np.array(edge_homophily(G, _y(len(X)), **kw)),
}
#: The entries whose result does not depend on edge weights.
UNWEIGHTED = {"edge_homophily"}

#: The public callables themselves, for the signature checks.
PUBLIC = [ngc_ref.add_self_loops, ngc_ref.normalized_adjacency, ngc_ref.NeumannFilter,
          ngc_ref.neumann_propagate, ngc_ref.neumann_matrix, ngc_ref.gsd_solve,
          ngc_ref.connectivity_factor, ngc_ref.robust_propagate, training.propagate,
          training.GraphPropagation, training.make_node_classifier,
          training.theory_trajectory, edge_homophily]


def assert_raises_exactly(exc, message, call, *args, **kwargs):
    """``call(*args, **kwargs)`` raises ``exc`` with exactly ``message`` (the whole text, not a
    pattern)."""
    with pytest.raises(exc) as info:
        call(*args, **kwargs)
    assert str(info.value) == message


def _features(n, d=3):
    return np.random.default_rng(0).standard_normal((n, d))


def _strip(G):
    H = G.copy()
    for e in H.edges:
        H.edges[e].pop("weight", None)
    return H


# --- weight= ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_graph_keywords_are_keyword_only_with_networkx_defaults(fn):
    params = inspect.signature(fn).parameters
    for name, default in (("weight", "weight"), ("nodelist", None)):
        assert name in params, f"{fn.__name__} has no {name}="
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert params[name].default == default
    doc = inspect.getdoc(fn)
    assert "weight : str or None, default 'weight'" in doc
    assert "nodelist : " in doc


@pytest.mark.parametrize("key", sorted(CALLS))
def test_weight_follows_networkx_default_and_none_means_unweighted(key):
    f = CALLS[key]
    G = nx.karate_club_graph()         # weights 1..7 in the "weight" attribute
    A_w = nx.to_scipy_sparse_array(G, weight="weight", format="csr")
    A_1 = nx.to_scipy_sparse_array(G, weight=None, format="csr")
    assert A_w.max() == 7
    X = _features(34)
    weighted = f(G, X)
    assert_allclose(weighted, f(A_w, X), rtol=1e-10, atol=1e-12)
    assert_allclose(f(G, X, weight="weight"), weighted, rtol=1e-10, atol=1e-12)
    unweighted = f(G, X, weight=None)
    assert_allclose(unweighted, f(A_1, X), rtol=1e-10, atol=1e-12)
    assert_allclose(unweighted, f(_strip(G), X), rtol=1e-10, atol=1e-12)
    if key not in UNWEIGHTED:
        assert not np.allclose(weighted, unweighted)
    # weight is ignored for matrices
    assert_allclose(f(A_w, X, weight=None), weighted, rtol=1e-10, atol=1e-12)


def test_weight_names_another_attribute():
    G = nx.path_graph(3)
    nx.set_edge_attributes(G, {(0, 1): 4.0, (1, 2): 1.0}, "capacity")
    A = ngc_ref.add_self_loops(G, weight="capacity").toarray()
    assert_allclose(A, [[1, 4, 0], [4, 1, 1], [0, 1, 1]])
    # edges without the attribute weigh 1, as in networkx
    G.add_edge(2, 3)
    assert ngc_ref.add_self_loops(G, weight="capacity")[2, 3] == 1.0


def test_weight_none_on_a_multigraph_counts_parallel_edges():
    G = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    with pytest.warns(UserWarning, match=r"MultiGraph with parallel edges between 1 node pair"):
        assert ngc_ref.add_self_loops(G, weight=None)[0, 1] == 2.0


def test_a_multigraph_warns_naming_the_pairs_whose_weights_add_up():
    G = nx.MultiGraph()
    G.add_edge("u", "v", weight=2.0)
    G.add_edge("u", "v", weight=0.5)
    G.add_edge("v", "w", weight=1.0)
    G.add_edges_from([("w", "x")] * 3)
    with pytest.warns(UserWarning) as caught:
        A = ngc_ref.add_self_loops(G, nodelist=["u", "v", "w", "x"]).toarray()
    assert A[0, 1] == 2.5 and A[2, 3] == 3.0              # 2 + 0.5; three edges of weight 1
    msg, = [str(w.message) for w in caught]
    assert "2 node pair(s)" in msg and "('u', 'v'): 2 edges" in msg, msg
    assert "('w', 'x'): 3 edges" in msg and "'v', 'w'" not in msg, msg
    assert "nx.Graph(G)" in msg and "added up" in msg, msg
    # One edge per pair, or no parallel edges at all: nothing to say.
    for quiet in (nx.Graph(G), nx.MultiGraph([(0, 1), (1, 2)])):
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            ngc_ref.add_self_loops(quiet, nodelist=sorted(quiet))


@pytest.mark.parametrize("key", ["add_self_loops", "normalized_adjacency", "neumann_propagate",
                                 "gsd_solve", "connectivity_factor", "training.propagate"])
def test_a_dropped_self_loop_weight_warns_naming_the_node(key):
    G = nx.Graph()
    G.add_edge("hub", "hub", weight=2.5)
    G.add_edge("hub", "leaf")
    G.add_edge("leaf", "leaf", weight=1.0)            # weight 1: nothing is dropped there
    with pytest.warns(UserWarning, match="self-loops") as caught:
        got = CALLS[key](G, _features(2), nodelist=["hub", "leaf"])
    msgs = [str(w.message) for w in caught if "self-loops" in str(w.message)]
    assert len(msgs) == 1, msgs
    # Named by label where the graph reaches add_self_loops itself, else by row.
    assert "(weight 2.5)" in msgs[0] and "1 node(s)" in msgs[0] and "leaf" not in msgs[0]
    assert "node 'hub' (weight 2.5)" in msgs[0] or "row 0 (weight 2.5)" in msgs[0]
    assert "gcn_norm" in msgs[0]
    # The paper's Ã = A + I: the same as the graph without its self-loops.
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        assert_allclose(got, CALLS[key](G, _features(2), nodelist=["hub", "leaf"]),
                        rtol=1e-12, atol=1e-14)


def test_self_loop_warning_for_a_matrix_names_rows():
    A = sp.csr_array(np.array([[0.0, 1.0, 0.0], [1.0, 0.5, 1.0], [0.0, 1.0, 1.0]]))
    with pytest.warns(UserWarning, match=r"at 1 node\(s\): row 1 \(weight 0.5\)"):
        assert ngc_ref.add_self_loops(A)[1, 1] == 1.0


@pytest.mark.parametrize("value, exc", [
    ("x", TypeError), ("2.5", TypeError), (None, TypeError), ([1.0], TypeError),
    (1 + 2j, TypeError), (-1.0, ValueError), (float("nan"), ValueError),
    (float("inf"), ValueError), (np.float32(-2), ValueError),
])
def test_bad_weight_attribute_names_weight_and_value(value, exc):
    G = nx.path_graph(4)
    G.edges[1, 2]["weight"] = value
    for key in ("neumann_propagate", "gsd_solve", "connectivity_factor"):
        with pytest.raises(exc) as info:
            CALLS[key](G, _features(4))
        msg = str(info.value)
        assert "weight" in msg and repr(value) in msg and "(1, 2)" in msg, msg
        assert "could not convert" not in msg
    # not read at all when weight=None or another attribute is chosen
    assert ngc_ref.add_self_loops(G, weight=None)[1, 2] == 1.0
    assert ngc_ref.add_self_loops(G, weight="capacity")[1, 2] == 1.0


@pytest.mark.parametrize("weight", [3, True, ("weight",), b"weight"])
def test_weight_argument_must_be_a_str_or_none(weight):
    for A in (nx.path_graph(3), np.eye(3)):
        with pytest.raises(TypeError, match=r"^weight must be .*str.* or None.*got"):
            ngc_ref.normalized_adjacency(A, weight=weight)


# --- nodelist= --------------------------------------------------------------------------------

def _out_of_order():
    """Labels 0, 1, 2 inserted as 2, 0, 1; node 0 is the hub of a weighted path 1 - 0 - 2."""
    G = nx.Graph()
    G.add_edge(2, 0, weight=3.0)
    G.add_edge(0, 1, weight=1.0)
    assert list(G) == [2, 0, 1]
    return G


@pytest.mark.parametrize("key", sorted(CALLS))
def test_default_order_is_insertion_order_and_warns(key):
    f = CALLS[key]
    G = _out_of_order()
    X = _features(3)
    by_label = nx.to_scipy_sparse_array(G, nodelist=[0, 1, 2], format="csr")
    by_insertion = nx.to_scipy_sparse_array(G, format="csr")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = f(G, X)
    mine = [w for w in caught if issubclass(w.category, UserWarning)
            and "nodelist" in str(w.message)]
    assert len(mine) == 1, [str(w.message) for w in caught]
    msg = str(mine[0].message)
    assert "nodelist=sorted(G)" in msg and "[2, 0, 1]" in msg, msg
    # At the caller's line (under mutmut a trampoline frame sits in between: the plain run checks).
    assert mine[0].filename == HERE or "mutmut.mutation.trampoline" in sys.modules, \
        "the warning should point at the caller's line"
    assert_allclose(got, f(by_insertion, X), rtol=1e-10, atol=1e-12)
    # nodelist=sorted(G): rows follow the labels, and no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        labelled = f(G, X, nodelist=sorted(G))
        assert_allclose(f(G, X, nodelist=list(G)), got, rtol=1e-10, atol=1e-12)
    assert_allclose(labelled, f(by_label, X), rtol=1e-10, atol=1e-12)


def test_nodelist_orders_the_rows_of_the_result():
    G = _out_of_order()
    X = np.array([[10.0], [20.0], [30.0]])     # rows for nodes 0, 1, 2
    H = ngc_ref.neumann_propagate(G, X, 2.0, 5, nodelist=[0, 1, 2])
    A = np.array([[0, 1, 3], [1, 0, 0], [3, 0, 0]], dtype=float)
    assert_allclose(H, ngc_ref.neumann_propagate(A, X, 2.0, 5), rtol=1e-12)
    perm = [1, 2, 0]
    Hp = ngc_ref.neumann_propagate(G, X[perm], 2.0, 5, nodelist=perm)
    assert_allclose(Hp, H[perm], rtol=1e-12)


@pytest.mark.parametrize("G", [nx.path_graph(4), nx.Graph([("a", "b"), ("b", "c")]),
                               nx.Graph([(3, 4), (4, 5)]), nx.grid_2d_graph(2, 3),
                               nx.Graph([(1, "a"), ("a", 0)]), nx.empty_graph(0),
                               nx.Graph([(1, 0)]).subgraph([0]).copy()],
                         ids=["in-order", "sorted-strings", "sorted-not-0..n-1", "tuples",
                              "unsortable", "empty", "one-node"])
def test_no_warning_when_the_order_is_the_sorted_labels(G):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        ngc_ref.add_self_loops(G)


@pytest.mark.parametrize("edges, shown", [
    ([("b", "a"), ("a", "c")], "['b', 'a', 'c'], not the sorted labels ['a', 'b', 'c']"),
    ([(5, 3), (3, 4)], "[5, 3, 4], not the sorted labels [3, 4, 5]"),
    ([((1, 0), (0, 0))], "[(1, 0), (0, 0)], not the sorted labels [(0, 0), (1, 0)]"),
    ([(2.5, 0.5)], "[2.5, 0.5], not the sorted labels [0.5, 2.5]"),
], ids=["strings", "not-0..n-1", "tuples", "floats"])
def test_one_order_rule_for_every_label_type(edges, shown):
    G = nx.Graph(edges)
    X = np.arange(len(G), dtype=float)[:, None] ** 2
    with pytest.warns(UserWarning, match="nodelist=sorted") as caught:
        H = ngc_ref.neumann_propagate(G, X, 2.0, 3)
    msg, = [str(w.message) for w in caught]
    assert shown in msg and "nodelist=list(G)" in msg, msg
    assert caught[0].filename == HERE or "mutmut.mutation.trampoline" in sys.modules
    # G's order as networkx has it; nodelist=list(G) says so without a word.
    A = nx.to_scipy_sparse_array(G, format="csr")
    assert_allclose(H, ngc_ref.neumann_propagate(A, X, 2.0, 3), rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        assert_allclose(ngc_ref.neumann_propagate(G, X, 2.0, 3, nodelist=list(G)), H,
                        rtol=1e-12)
        ngc_ref.neumann_propagate(G, X, 2.0, 3, nodelist=sorted(G))


@pytest.mark.parametrize("nodelist, exc, detail", [
    ([0, 1], ValueError, "missing: [2]"),
    ([0, 1, 2, 7], ValueError, "not in A: [7]"),
    ([0, 1, 1, 2], ValueError, "repeated: [1]"),
    ([0, 0, 1], ValueError, "repeated: [0]"),
    ([[0], 1, 2], TypeError, "unhashable"),
    (5, TypeError, "int"),
    ("012", TypeError, "str"),
])
def test_nodelist_must_be_a_permutation_of_the_nodes(nodelist, exc, detail):
    with pytest.raises(exc, match=r"^nodelist ") as info:
        ngc_ref.neumann_propagate(_out_of_order(), np.ones(3), 2.0, 2, nodelist=nodelist)
    assert detail in str(info.value), str(info.value)


def test_nodelist_accepts_any_sequence_of_the_nodes():
    G = _out_of_order()
    want = ngc_ref.add_self_loops(G, nodelist=[0, 1, 2]).toarray()
    for order in (range(3), np.arange(3), (0, 1, 2), iter([0, 1, 2])):
        assert_allclose(ngc_ref.add_self_loops(G, nodelist=order).toarray(), want)


@pytest.mark.parametrize("A", [np.eye(3), sp.csr_array(np.eye(3))], ids=["dense", "sparse"])
def test_nodelist_is_refused_for_matrices(A):
    with pytest.raises(ValueError, match=r"^nodelist .*networkx.*A\[p\]\[:, p\]"):
        ngc_ref.neumann_propagate(A, np.ones(3), 2.0, 2, nodelist=[2, 0, 1])


def test_empty_graph_takes_an_empty_nodelist():
    assert ngc_ref.add_self_loops(nx.empty_graph(0), nodelist=[]).shape == (0, 0)


# --- ngc_ref.strategies without hypothesis ----------------------------------------------------

def _without_hypothesis(code):
    """What ``code`` prints in a fresh interpreter where hypothesis cannot be imported."""
    code = "import sys; sys.modules['hypothesis'] = None\n" + code
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120).stdout.strip()


def test_strategies_without_hypothesis_says_how_to_install_it():
    out = _without_hypothesis("try:\n"
                              "    import ngc_ref.strategies\n"
                              "except ImportError as exc:\n"
                              "    print(type(exc).__name__, '|', exc)\n"
                              "else:\n"
                              "    print('imported')\n")
    assert 'ngc_ref.strategies needs hypothesis: pip install "ngc_ref[test]"' in out, out
    # the rest of the package does not need hypothesis
    out = _without_hypothesis("import ngc_ref, ngc_ref.graphs, ngc_ref.datasets, ngc_ref.noise\n"
                              "print('ok')\n")
    assert out == "ok"


def test_strategies_docstring_notes_the_extra():
    import ngc_ref.strategies as strategies
    assert 'pip install "ngc_ref[test]"' in strategies.__doc__


# --- lam, eps, seed ---------------------------------------------------------------------------

_G = nx.path_graph(4)
_X = np.ones((4, 2))
LAM_CALLS = {
    "series_ratio": lambda lam: ngc_ref.series_ratio(lam),
    "series_mass": lambda lam: ngc_ref.series_mass(lam, 2),
    "neumann_order": lambda lam: ngc_ref.neumann_order(lam, 1e-3),
    "NeumannFilter": lambda lam: ngc_ref.NeumannFilter(_G, lam, 2),
    "neumann_propagate": lambda lam: ngc_ref.neumann_propagate(_G, _X, lam, 2),
    "neumann_matrix": lambda lam: ngc_ref.neumann_matrix(_G, lam, 2),
    "gsd_solve": lambda lam: ngc_ref.gsd_solve(_G, _X, lam),
    "connectivity_factor": lambda lam: ngc_ref.connectivity_factor(_G, lam, 2),
    "robust_propagate": lambda lam: ngc_ref.robust_propagate(_G, _X, lam, 2, 1.0),
    "training.propagate": lambda lam: training.propagate("ngc", _G, _X, lam=lam),
    "theory_trajectory": lambda lam: training.theory_trajectory(_G, _X, _X, _X, lam, 2),
}


@pytest.mark.parametrize("key", sorted(LAM_CALLS))
@pytest.mark.parametrize("lam", [-3, 0, 0.0, -1e-300, math.inf, -math.inf, math.nan])
def test_lam_message_is_the_same_for_every_bad_value(key, lam):
    with pytest.raises(ValueError) as info:
        LAM_CALLS[key](lam)
    assert str(info.value) == f"lam must be > 0 and finite, got {lam!r}"


@pytest.mark.parametrize("eps", [-1, -1e-9, math.inf, math.nan])
def test_eps_message(eps):
    with pytest.raises(ValueError) as info:
        ngc_ref.robust_propagate(_G, _X, 2.0, 2, eps)
    assert str(info.value) == f"eps must be >= 0 and finite, got {eps!r}"


@pytest.mark.parametrize("seed", [-1, np.int64(-5)])
def test_negative_seed_is_refused_by_name(seed):
    with pytest.raises(ValueError, match=r"^seed must be .*non-negative.*got .*-\d"):
        ngc_ref.connectivity_factor(_G, 2.0, 2, method="estimate", seed=seed)


@pytest.mark.parametrize("seed", [0, 7, np.int64(7), np.random.SeedSequence(7)])
def test_connectivity_estimate_seeds_are_reproducible(seed):
    a = ngc_ref.connectivity_factor(_G, 2.0, 2, method="estimate", seed=seed)
    b = ngc_ref.connectivity_factor(_G, 2.0, 2, method="estimate",
                                    seed=np.random.default_rng(seed))
    assert_allclose(a.tau_i, b.tau_i)


# --- one validation core, public for the checker ----------------------------------------------

@pytest.mark.parametrize("value, exc, message", [
    (None, TypeError, "M must be a NumPy array or SciPy sparse matrix, got NoneType"),
    ("abc", TypeError, "M must be a NumPy array or SciPy sparse matrix, got str"),
    (np.ones(3, dtype=complex), TypeError,
     "M must have a real numeric (bool, int or float) dtype, got complex128"),
    (np.ones((2, 2, 2)), ValueError, "M must be 1-D or 2-D (n x d), got ndim=3 with "
                                     "shape=(2, 2, 2)"),
    (np.ones((2, 2)), ValueError, "M must have one row per node: expected 3 rows, got "
                                  "shape=(2, 2)"),
    (np.array([1.0, np.nan, 0.0]), ValueError, "M contains non-finite values (NaN or inf)"),
    (sp.csr_array(np.array([[np.inf], [0], [1]])), ValueError,
     "M contains non-finite values (NaN or inf)"),
])
def test_check_array_messages_name_the_argument(value, exc, message):
    from ngc_ref.validation import check_array
    assert_raises_exactly(exc, message, check_array, value, name="M", n_rows=3)


def test_check_array_keeps_float32_and_the_dimensionality():
    from ngc_ref.validation import check_array
    x = np.arange(3, dtype=np.float32)
    assert check_array(x).shape == (3, 1) and check_array(x).dtype == np.float32
    assert check_array(x, ensure_2d=False) is x                 # nothing to convert: no copy
    assert check_array([1, 2], ensure_2d=False).dtype == np.float64
    S = sp.coo_array(np.eye(3, dtype=np.float32))
    assert sp.issparse(check_array(S, accept_sparse=True))
    assert isinstance(check_array(S), np.ndarray)


def test_the_checker_imports_only_public_names_of_the_library():
    import ast
    from pathlib import Path
    root = Path(HERE).parents[1] / "theory"
    private = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module and (
                    node.module.split(".")[0] == "ngc_ref"):
                names = node.module.split(".")[1:] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [part for a in node.names if a.name.split(".")[0] == "ngc_ref"
                         for part in a.name.split(".")[1:]]
            else:
                continue
            private += [f"{path.relative_to(root)}:{node.lineno}" for nm in names
                        if nm.startswith("_")]
    assert not private, private


def test_shared_parameter_paragraphs_are_filled_in_with_their_indentation():
    from ngc_ref._docs import PARAMS, fill_doc

    @fill_doc
    def f():
        """Summary.

        Parameters
        ----------
        %(weight)s
            More about it.
        """

    lines = f.__doc__.splitlines()
    start = lines.index("        weight : str or None, default 'weight'")
    assert lines[start + 1].startswith("            Edge attribute")
    assert lines[start + len(PARAMS["weight"].splitlines())] == "            More about it."
    with pytest.raises(KeyError):
        fill_doc(type("C", (), {"__doc__": "%(no_such_paragraph)s"}))


# --- every rule of the checks, at and around each limit -------------------------------------
# (issue #34: the mutation pass of ngc_ref/_validation.py). The messages are the documented
# ones ("{name} must be ..., got ..."); each table row is one rule.

@pytest.mark.parametrize("x, kw, expected", [
    (0.5, {}, 0.5),                                          # no bounds: any finite real
    (np.float32(0.5), {}, 0.5),
    (3, {"integer": True}, 3),
    (np.int64(3), {"integer": True}, 3),
    (0.0, {"min_val": 0.0}, 0.0),                            # at an included minimum
    (1e-300, {"min_val": 0.0, "include_min": False}, 1e-300),   # just inside an excluded one
    (1.0, {"max_val": 1.0}, 1.0),                            # at the maximum: included by default
    (0.999, {"max_val": 1.0, "include_max": False}, 0.999),
    (0, {"min_val": 0, "integer": True}, 0),
])
def test_check_scalar_accepts_each_bound_it_includes(x, kw, expected):
    got = check_scalar(x, "p", **kw)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("x, kw, exc, message", [
    (True, {}, TypeError, "p must be a real number, got bool True"),
    (np.bool_(False), {"integer": True}, TypeError, "p must be an integer, got bool False"),
    ("a", {}, TypeError, "p must be a real number, got str 'a'"),
    (1.5, {"integer": True}, TypeError, "p must be an integer, got float 1.5"),
    ("3", {"integer": True}, TypeError, "p must be an integer, got str '3'"),
    (2.0, {"integer": True}, TypeError, "p must be an integer, got float 2.0; pass int(2.0)"),
    (np.float64(2.0), {"integer": True}, TypeError,
     "p must be an integer, got float64 2.0; pass int(2.0)"),
    (math.inf, {}, ValueError, "p must be finite, got inf"),
    (np.float64(np.nan), {}, ValueError, "p must be finite, got nan"),
    (-1e-300, {"min_val": 0.0}, ValueError, "p must be >= 0.0, got -1e-300"),   # just outside
    (0.0, {"min_val": 0.0, "include_min": False}, ValueError, "p must be > 0.0, got 0.0"),
    (1.5, {"max_val": 1.0}, ValueError, "p must be <= 1.0, got 1.5"),
    (1.0, {"max_val": 1.0, "include_max": False}, ValueError, "p must be < 1.0, got 1.0"),
    (np.int64(-1), {"min_val": 0, "integer": True}, ValueError, "p must be >= 0, got -1"),
])
def test_check_scalar_messages_name_the_rule_and_the_value(x, kw, exc, message):
    assert_raises_exactly(exc, message, check_scalar, x, "p", **kw)


@pytest.mark.parametrize("call, exc, message", [
    (lambda: check_order(-1), ValueError, "S must be >= 0, got -1"),
    (lambda: check_order(-1, "K"), ValueError, "K must be >= 0, got -1"),
    (lambda: check_order(2.0), TypeError, "S must be an integer, got float 2.0; pass int(2.0)"),
    (lambda: check_lam("abc"), TypeError, "lam must be a real number, got str 'abc'"),
    (lambda: check_lam(True), TypeError, "lam must be a real number, got bool True"),
    (lambda: check_lam(10**400), ValueError, f"lam must be > 0 and finite, got {10**400!r}"),
    (lambda: check_eps(None), TypeError, "eps must be a real number, got NoneType None"),
])
def test_order_lam_and_eps_messages(call, exc, message):
    assert_raises_exactly(exc, message, call)


def test_order_lam_and_eps_accept_their_smallest_values():
    assert check_order(0) == 0 and check_eps(0.0) == 0.0
    assert check_lam(0.5) == 0.5 and check_lam(1e-300) == 1e-300


@pytest.mark.parametrize("make", [np.random.SeedSequence, np.random.PCG64])
def test_as_generator_draws_from_a_seed_sequence_or_bit_generator(make):
    # PCG64(7) is seeded through SeedSequence(7), as default_rng(7) is. (Made here: a bit
    # generator is stateful.)
    got = as_generator(make(7)).random(3).tolist()
    assert got == np.random.default_rng(7).random(3).tolist()


@pytest.mark.parametrize("seed, shown", [(True, "bool True"), (1.5, "float 1.5"),
                                         ("7", "str '7'")])
def test_as_generator_refuses_other_seeds_by_name(seed, shown):
    with pytest.raises(TypeError) as info:
        as_generator(seed)
    assert str(info.value) == ("seed must be None, a non-negative int, a numpy.random."
                               f"SeedSequence or a numpy.random.Generator, got {shown}")


# The memory guards: the budget set to exactly the bytes needed (computed here by hand) lets
# the call through; one byte less refuses it.

@pytest.fixture
def budgets(monkeypatch):
    def set_budgets(host, gpu="1TiB"):
        monkeypatch.setenv(_memory.ENV_VAR, str(host))
        monkeypatch.setenv(_memory.GPU_ENV_VAR, str(gpu))
    return set_budgets


_DENSE_WAY_OUT = ("use the sparse/blockwise functions instead (neumann_propagate, "
                  "gsd_solve(method='cg'), connectivity_factor(method='exact' or 'estimate'))")


@pytest.mark.parametrize("kw, nbytes, detail", [
    ({}, 100 * 100 * 8, "a dense 100 x 100 array of 8 bytes per entry"),
    ({"arrays": 2, "itemsize": 4}, 2 * 100 * 100 * 4,
     "2 dense 100 x 100 arrays of 4 bytes per entry"),
    ({"arrays": 3}, 3 * 100 * 100 * 8, "3 dense 100 x 100 arrays of 8 bytes per entry"),
])
@pytest.mark.parametrize("gpu", [False, True])
def test_check_dense_size_needs_the_bytes_of_its_arrays(budgets, kw, nbytes, detail, gpu):
    fits, short = (("1TiB", nbytes), ("1TiB", nbytes - 1)) if gpu else ((nbytes, "1"),
                                                                         (nbytes - 1, "1TiB"))
    kw = {**kw, "gpu": True} if gpu else kw                  # host memory by default
    budgets(*fits)
    assert check_dense_size(100, 100, "op", **kw) is None    # n = max_nodes: allowed
    budgets(*short)
    with pytest.raises(ValueError) as info:
        check_dense_size(100, 100, "op", **kw)
    msg = str(info.value)
    where = " on the GPU" if gpu else ""
    assert msg.startswith("op would need ") and f"{where} ({detail}) but only" in msg, msg
    assert f"; {_DENSE_WAY_OUT}. Set " in msg and (" on the GPU" in msg) == gpu, msg


def test_check_dense_size_above_max_nodes_says_so_before_any_memory_is_asked_for():
    n = 2**15            # 2**30 entries of 8 bytes: 8 GiB
    with pytest.raises(ValueError) as info:
        check_dense_size(n, n - 1, "op")
    assert str(info.value) == (
        f"op would form a dense {n} x {n} array (8.00 GiB in float64), above max_nodes={n - 1}; "
        f"pass max_nodes={n} (or larger) if you really want it, or use the sparse/blockwise "
        f"functions instead")
    assert check_dense_size(1, 1, "op") is None                      # the smallest max_nodes


@pytest.mark.parametrize("max_nodes, exc, message", [
    (0, ValueError, "max_nodes must be >= 1, got 0"),
    (2.0, TypeError, "max_nodes must be an integer, got float 2.0; pass int(2.0)"),
])
def test_check_dense_size_max_nodes_is_a_positive_integer(max_nodes, exc, message):
    assert_raises_exactly(exc, message, check_dense_size, 1, max_nodes, "op")


_I, _F32 = np.ones((100, 10), dtype=np.int64), np.ones((100, 10), dtype=np.float32)


@pytest.mark.parametrize("X, kw, nbytes, what, detail", [
    # float64 input, nothing converted: the caller's work arrays only
    (np.ones((100, 10)), {"work_arrays": 2, "what": "op"}, 2 * 100 * 10 * 8, "op",
     "2 dense 100 x 10 arrays of 8 bytes per entry: op's work arrays"),
    # an integer array is converted: its float64 copy
    (_I, {}, 100 * 10 * 8, "converting M", "a dense 100 x 10 array of 8 bytes per entry"),
    (_I, {"what": "op", "work_arrays": 1}, 2 * 100 * 10 * 8, "op",
     "2 dense 100 x 10 arrays of 8 bytes per entry: op's work arrays"),
    # float32 stays float32 (4 bytes an entry); float16 becomes float32
    (_F32, {"work_arrays": 1}, 100 * 10 * 4, "converting M",
     "a dense 100 x 10 array of 4 bytes per entry"),
    (_F32.astype(np.float16), {}, 100 * 10 * 4, "converting M",
     "a dense 100 x 10 array of 4 bytes per entry"),
    # a 1-D signal is one column, kept 1-D or not
    (np.ones(100), {"work_arrays": 1, "ensure_2d": False}, 100 * 8, "converting M",
     "a dense 100 x 1 array of 8 bytes per entry"),
    (np.ones(100, dtype=np.int64), {}, 100 * 8, "converting M",
     "a dense 100 x 1 array of 8 bytes per entry"),
    # sparse input densified: its dense copy, and the work arrays beside it
    (sp.csr_array(_I), {}, 100 * 10 * 8, "densifying the sparse M",
     "a dense 100 x 10 array of 8 bytes per entry: the dense copy of the sparse M"),
    (sp.csr_array(np.ones((100, 10))), {"what": "op"}, 100 * 10 * 8, "op",
     "a dense 100 x 10 array of 8 bytes per entry: the dense copy of the sparse M"),
    (sp.csr_array(_F32), {"what": "op", "work_arrays": 1}, 2 * 100 * 10 * 4, "op",
     "2 dense 100 x 10 arrays of 4 bytes per entry: the dense copy of the sparse M and op's "
     "work arrays"),
    # sparse kept sparse: the work arrays only
    (sp.csr_array(np.ones((100, 10))), {"accept_sparse": True, "work_arrays": 1}, 100 * 10 * 8,
     "converting M", "a dense 100 x 10 array of 8 bytes per entry"),
])
def test_check_array_memory_guard_counts_each_n_by_d_array(budgets, X, kw, nbytes, what, detail):
    from ngc_ref._validation import _FEATURES_MEMORY_HINT
    budgets(nbytes)
    check_array(X, name="M", **kw)
    budgets(nbytes - 1)
    with pytest.raises(ValueError) as info:
        check_array(X, name="M", **kw)
    msg = str(info.value)
    assert msg.startswith(f"{what} would need ") and f" ({detail}) but only" in msg, msg
    assert f"; {_FEATURES_MEMORY_HINT}. Set {_memory.ENV_VAR} " in msg, msg


@pytest.mark.parametrize("call", [
    lambda X, S: check_array(X), lambda X, S: check_features(X, 100),
    lambda X, S: check_array(S, accept_sparse=True),
    lambda X, S: check_features(S, 100, allow_sparse=True)])
def test_nothing_to_allocate_is_never_refused(budgets, call):
    budgets(1)                                     # one byte
    call(np.ones((100, 10)), sp.csr_array(np.ones((100, 10))))


def test_check_features_passes_its_arguments_on(budgets):
    assert check_features(np.ones(3), 3).shape == (3, 1)            # a signal: one column
    budgets(2 * 100 * 10 * 8 - 1)
    with pytest.raises(ValueError) as info:
        check_features(np.ones((100, 10)), 100, what="op", work_arrays=2)
    assert str(info.value).startswith("op would need ") and (
        "(2 dense 100 x 10 arrays of 8 bytes per entry: op's work arrays)" in str(info.value))


@pytest.mark.parametrize("call, exc, message", [
    (lambda: check_array(sp.csr_array(np.eye(2, dtype=complex)), name="M"), TypeError,
     "M must have a real numeric (bool, int or float) dtype, got complex128"),
    (lambda: check_array(sp.csr_array(np.eye(2)), name="M", n_rows=3), ValueError,
     "M must have one row per node: expected 3 rows, got shape=(2, 2)"),
    (lambda: check_array([np.nan]), ValueError, "X contains non-finite values (NaN or inf)"),
    (lambda: check_features([np.nan], 1), ValueError, "X contains non-finite values (NaN or inf)"),
    (lambda: check_features([np.nan], 1, name="H"), ValueError,
     "H contains non-finite values (NaN or inf)"),
    (lambda: check_features(np.ones(3), 4), ValueError,
     "X must have one row per node: expected 4 rows, got shape=(3, 1)"),
    (lambda: check_per_row(np.ones((3, 1)), 3, "d"), ValueError,
     "d must be a 1-D array with one entry per node (3), got shape=(3, 1)"),
    (lambda: check_per_row(np.ones(2), 3, "d", per="class"), ValueError,
     "d must be a 1-D array with one entry per class (3), got shape=(2,)"),
])
def test_array_messages_name_the_argument_and_the_rule(call, exc, message):
    assert_raises_exactly(exc, message, call)


def test_one_dimensional_sparse_input_is_refused_by_name():
    try:
        S = sp.coo_array(np.ones(3))
    except (TypeError, ValueError):
        S = None
    if S is None or S.ndim != 1:    # before SciPy 1.13: refused, or made a 1 x 3 array
        pytest.skip("SciPy before 1.13 has no 1-D sparse arrays")
    with pytest.raises(ValueError) as info:
        check_array(S, name="M")
    assert str(info.value) == "M must be 2-D, got shape=(3,)"


def test_ragged_input_is_refused_by_name():
    with pytest.raises(TypeError, match=r"^M could not be read as an array: "):
        check_array([[1.0, 2.0], [3.0]], name="M")


@pytest.mark.parametrize("dtype, expected", [(np.int64, np.float64), (bool, np.float64),
                                             (np.float32, np.float32), (np.float64, np.float64)])
def test_sparse_input_gets_the_documented_dtype_in_a_new_matrix(dtype, expected):
    S = sp.coo_array(np.array([[0, 1], [1, 1]], dtype=dtype)).tocsr()
    kept = check_array(S, accept_sparse=True)
    dense = check_array(S)
    assert kept.format == "csr" and kept.dtype == expected and dense.dtype == expected
    assert isinstance(dense, np.ndarray) and dense.tolist() == [[0, 1], [1, 1]]
    assert isinstance(check_features(S, 2), np.ndarray)          # densified by default
    # Not the caller's matrix: a new CSR with its own buffers.
    assert not np.shares_memory(kept.data, S.data)
    A = check_adjacency(S)
    assert A.dtype == expected and not np.shares_memory(A.data, S.data)


@pytest.mark.parametrize("A, kw, exc, message", [
    (np.array([[0, 2], [1, 0]]), {}, ValueError, "A is not symmetric (the paper's graphs are "
     "undirected); pass symmetrize=True (max(A, A.T)) or symmetrize='mean' ((A + A.T)/2)"),
    (np.array([[0, 2], [1, 0]]), {"name": "B"}, ValueError, "B is not symmetric (the paper's "
     "graphs are undirected); pass symmetrize=True (max(A, A.T)) or symmetrize='mean' "
     "((A + A.T)/2)"),
    (nx.path_graph(3), {"weight": 3}, TypeError, "weight must be the name (a str) of an edge "
     "attribute, or None for weight 1 on every edge; got int 3"),
    (np.eye(2), {"nodelist": [0, 1]}, ValueError, "nodelist orders the nodes of a networkx graph "
     "only; A is a matrix (ndarray) whose rows are already in order: to reorder it pass "
     "A[p][:, p] (and X[p]) for a permutation p, or leave nodelist=None"),
    (np.eye(2), {"symmetrize": "maxx"}, ValueError,
     "symmetrize must be one of 'max', 'mean'; got 'maxx'"),
    (np.eye(2), {"symmetrize": 1.5}, TypeError,
     "symmetrize must be a bool or one of 'max', 'mean'; got 1.5"),
    (sp.csr_array(np.eye(2, dtype=complex)), {"name": "B"}, TypeError,
     "B must have a real numeric (bool, int or float) dtype, got complex128"),
    (np.eye(2, dtype=complex), {"name": "B"}, TypeError,
     "B must have a real numeric (bool, int or float) dtype, got complex128"),
    (5, {"name": "B"}, TypeError,
     "B must be a SciPy sparse matrix, a 2-D NumPy array or a networkx.Graph, got int"),
    (nx.path_graph(3), {"nodelist": [0, 0, 5]}, ValueError, "nodelist must list each of the 3 "
     "nodes of A exactly once (it orders the rows and columns); got 3 entries, missing: [1, 2]; "
     "not in A: [5]; repeated: [0]"),
])
def test_check_adjacency_messages(A, kw, exc, message):
    assert_raises_exactly(exc, message, check_adjacency, A, **kw)


@pytest.mark.parametrize("symmetrize, expected", [(True, [[0, 2], [2, 0]]),
                                                  ("max", [[0, 2], [2, 0]]),
                                                  ("mean", [[0, 1.5], [1.5, 0]])])
def test_symmetrize_takes_the_max_or_the_mean(symmetrize, expected):
    assert check_adjacency([[0, 2], [1, 0]], symmetrize=symmetrize).toarray().tolist() == expected


def test_a_stored_zero_is_no_edge_and_the_callers_matrix_is_left_alone():
    # 3 x 3, with an explicitly stored 0 at (0, 1): not a negative weight, and dropped.
    S = sp.csr_array((np.array([0.0, 1.0, 1.0]), np.array([1, 2, 0]), np.array([0, 2, 2, 3])),
                     shape=(3, 3))
    before = [S.data.copy(), S.indices.copy(), S.indptr.copy()]
    A = check_adjacency(S)
    assert A.nnz == 2 and A.toarray().tolist() == [[0, 0, 1], [0, 0, 0], [1, 0, 0]]
    for got, was in zip([S.data, S.indices, S.indptr], before):
        assert got.tolist() == was.tolist()


def test_check_adjacency_reads_the_weight_attribute_by_default():
    G = nx.Graph()
    G.add_edge(0, 1, weight=3.0)
    assert check_adjacency(G).toarray().tolist() == [[0, 3], [3, 0]]


@pytest.mark.parametrize("rows, rtol, expected", [
    ([[0, 1000], [1000 + 1e-10, 0]], 1e-12, True),     # |difference| 1e-10 <= 1e-12 * 1000
    ([[0, 1000], [1000 + 1e-8, 0]], 1e-12, False),
    ([[0, 2], [1, 0]], 0.5, True),                     # at the tolerance: |2 - 1| = 0.5 * 2
    ([[0, 2], [1, 0]], 0.49, False),
    ([[0, 0], [0, 0]], 1e-12, True),
])
def test_is_symmetric_up_to_rtol_times_the_largest_entry(rows, rtol, expected):
    assert is_symmetric(sp.csr_array(np.array(rows, dtype=float)), rtol=rtol) is expected


def _weighted_path(*weights):
    G = nx.path_graph(len(weights) + 1)
    for i, w in enumerate(weights):
        G.edges[i, i + 1]["weight"] = w
    return G


@pytest.mark.parametrize("weights", [(True, Fraction(1, 2)), (0, Fraction(1, 2)),
                                     (np.float32(0.5), 2)])
def test_finite_non_negative_weights_of_any_real_type_are_accepted(weights):
    A = check_adjacency(_weighted_path(*weights)).toarray()
    assert A[0, 1] == A[1, 0] == float(weights[0]) and A[1, 2] == A[2, 1] == float(weights[1])


@pytest.mark.parametrize("w, exc, shown", [
    ([1, 2], TypeError, "[1, 2] (list)"),        # on every edge: an n x 2 array of numbers
    (10**400, ValueError, repr(10**400)),        # beyond the float range
    (-0.5, ValueError, "-0.5"),
    (math.nan, ValueError, "nan"),
    ("x", TypeError, "'x' (str)"),
])
def test_a_bad_edge_weight_is_refused_naming_the_edge(w, exc, shown):
    with pytest.raises(exc) as info:
        check_adjacency(_weighted_path(w, w), name="G")
    assert str(info.value) == (
        f"weight: the 'weight' attribute of edge (0, 1) of G is {shown}; edge weights must be "
        f"finite non-negative numbers: fix the attribute, pass weight= another attribute, or "
        f"weight=None for weight 1 on every edge")


@pytest.mark.parametrize("weight, what", [
    ("weight", "'weight' weights are added up"),
    (None, "edges (weight=None: 1 each) are counted")])
def test_the_parallel_edges_warning_names_three_pairs_and_the_graph(weight, what):
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2), (1, 2), (2, 3), (2, 3), (3, 4), (3, 4), (3, 4)])
    with pytest.warns(UserWarning) as rec:
        check_adjacency(M, name="G", weight=weight)
    msg, = [str(r.message) for r in rec]
    assert msg.startswith(
        f"G is a networkx MultiGraph with parallel edges between 4 node pair(s), e.g. (0, 1): 2 "
        f"edges; (1, 2): 2 edges; (2, 3): 2 edges: their {what} into one entry"), msg


def test_the_order_warning_names_the_graph():
    G = nx.Graph([(2, 0), (0, 1)])
    with pytest.warns(UserWarning) as rec:
        check_adjacency(G, name="G")
    assert str(rec[0].message).startswith("G is a networkx graph whose nodes are not in sorted "
                                          "label order")


@pytest.mark.parametrize("items, shown", [
    (range(5), "[0, 1, 2, 3, 4]"),
    (range(6), "[0, 1, 2, 3, 4, ...]"),
    ("abcdefg", "['a', 'b', 'c', 'd', 'e', ...]"),
])
def test_preview_shows_five_items_at_most(items, shown):
    assert _preview(items) == shown


def _caller_file():
    """The file a library warning must point at: this one; under mutmut, which calls every
    function of the mutated module through a trampoline outside the package, the trampoline's."""
    trampoline = sys.modules.get("mutmut.mutation.trampoline")
    return HERE if trampoline is None else trampoline.__file__


def test_a_warning_points_at_the_first_frame_outside_the_library():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _warn("direct", DeprecationWarning)
        renamed_keyword("f", "rng", "seed", 3, None)                     # one library frame more
        check_adjacency(nx.Graph([(2, 0), (0, 1)]))                      # several more
    # Ours only: an older dependency may warn on a lazy import inside (an ImportWarning).
    caught = [w for w in caught if str(w.message) == "direct"
              or str(w.message).startswith("f(): the keyword rng=") or "nodelist" in str(w.message)]
    assert [w.category for w in caught] == [DeprecationWarning, DeprecationWarning, UserWarning]
    assert [w.filename for w in caught] == [_caller_file()] * 3


def test_renamed_keyword_takes_either_name_but_not_both():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert renamed_keyword("f", "rng", "seed", DEPRECATED, 5) == 5       # no warning
    with pytest.warns(DeprecationWarning) as rec:
        assert renamed_keyword("f", "rng", "seed", 3, None) == 3
    assert str(rec[0].message) == ("f(): the keyword rng= was renamed to seed=; rng= will be "
                                   "removed in the next release. Pass seed= instead.")
    with pytest.raises(TypeError) as info:
        renamed_keyword("f", "rng", "seed", 3, 4)
    assert str(info.value) == "f() got both seed= and its former name rng=; pass seed= only"
    with pytest.warns(DeprecationWarning):      # the new keyword at its own default: not passed
        assert renamed_keyword("g", "norm", "target", 2.0, "x", new_default="x") == 2.0
    # The old name's default reads as scikit-learn's in a signature.
    from ngc_ref.training.gcn import init_gcn_params
    assert "rng='deprecated'" in str(inspect.signature(init_gcn_params))
