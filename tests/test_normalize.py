import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from numpy.testing import assert_allclose

from ngc_ref import add_self_loops, normalized_adjacency
from ngc_ref.strategies import adjacency_matrices, norms

from . import _reference as ref


@pytest.mark.filterwarnings("ignore:A stores self-loops:UserWarning")
@given(adjacency_matrices(max_nodes=10, weighted=True, self_loops=True, format="any"), norms())
def test_normalized_adjacency_matches_dense_reference(A, norm):
    An = normalized_adjacency(A, norm=norm)
    assert sp.issparse(An) and An.format == "csr"
    assert_allclose(An.toarray(), ref.norm_adj(A, norm), rtol=1e-12, atol=1e-14)


@given(adjacency_matrices(max_nodes=10, weighted=True))
def test_existing_diagonal_is_replaced_not_doubled(A):
    A = sp.csr_array(A)
    looped = A + sp.identity(A.shape[0]) * 5.0
    with pytest.warns(UserWarning, match="A stores self-loops .* row 0 \\(weight 5\\)"):
        dropped = add_self_loops(looped).toarray()
    assert_allclose(dropped, add_self_loops(A).toarray())
    assert_allclose(add_self_loops(A).diagonal(), 1.0)


def test_isolated_nodes_have_degree_one():
    An, d = normalized_adjacency(np.zeros((3, 3)), norm="sym", return_degrees=True)
    assert_allclose(d, 1.0)
    assert_allclose(An.toarray(), np.eye(3))


def test_input_kinds_agree():
    G = nx.karate_club_graph()
    for e in G.edges:
        G.edges[e].pop("weight", None)
    A = nx.to_scipy_sparse_array(G)
    want = normalized_adjacency(A).toarray()
    for other in (G, A.toarray(), sp.coo_matrix(A), sp.lil_array(A), A.astype(np.int64)):
        assert_allclose(normalized_adjacency(other).toarray(), want)


def test_input_not_modified():
    A = sp.csr_array(np.array([[0.0, 2.0], [2.0, 3.0]]))
    before = A.toarray().copy()
    with pytest.warns(UserWarning, match="self-loops"):
        normalized_adjacency(A)
    assert_allclose(A.toarray(), before)


def test_float32_kept():
    A = sp.csr_array(np.array([[0, 1], [1, 0]], dtype=np.float32))
    assert normalized_adjacency(A).dtype == np.float32
    assert normalized_adjacency(A.astype(np.float64)).dtype == np.float64


def test_symmetrize_options():
    A = np.array([[0.0, 2.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="A is not symmetric.*symmetrize"):
        normalized_adjacency(A)
    assert_allclose(add_self_loops(A, symmetrize=True).toarray(), [[1, 2], [2, 1]])
    assert_allclose(add_self_loops(A, symmetrize="mean").toarray(), [[1, 1], [1, 1]])
    with pytest.raises(ValueError, match="symmetrize"):
        normalized_adjacency(A, symmetrize="min")
    with pytest.raises(ValueError, match="directed"):
        normalized_adjacency(nx.DiGraph([(0, 1)]))
    assert normalized_adjacency(nx.DiGraph([(0, 1)]), symmetrize=True).shape == (2, 2)


@pytest.mark.parametrize("bad, exc, msg", [
    (np.ones((2, 3)), ValueError, r"square.*shape=\(2, 3\)"),
    (np.ones(3), ValueError, "2-D"),
    (np.array([[0, -1.0], [-1.0, 0]]), ValueError, "negative"),
    (np.array([[0, np.nan], [np.nan, 0]]), ValueError, "non-finite"),
    (np.array([[0, 1j], [1j, 0]]), TypeError, "real numeric"),
    ("graph", TypeError, "A must be"),
    (None, TypeError, "A must be"),
    (np.array([[0, "a"], ["a", 0]], dtype=object), TypeError, "real numeric"),
])
def test_bad_adjacency(bad, exc, msg):
    with pytest.raises(exc, match=msg):
        normalized_adjacency(bad)


def test_unknown_norm_lists_options():
    with pytest.raises(ValueError, match="norm must be one of 'sym', 'rw'; got 'lap'"):
        normalized_adjacency(np.zeros((2, 2)), norm="lap")


def _dropped_loop_message(A, **kwargs):
    """The text of the one warning add_self_loops gives for A."""
    with pytest.warns(UserWarning) as record:
        add_self_loops(A, **kwargs)
    [w] = [w for w in record if "self-loops" in str(w.message)]
    assert w.category is UserWarning
    return str(w.message)


def test_dropped_loop_weights_are_named_first_five_then_counted():
    # Self-loop weights 0, 1, 2, ..., 8: only the weights other than 0 and 1 (rows 2 to 8) are
    # dropped by Ã = A − diag(A) + I; the first five are named, the other two counted.
    A = np.diag(np.arange(9.0))
    msg = _dropped_loop_message(A)
    assert msg.startswith("A stores self-loops of weight other than 1 at 7 node(s): row 2 "
                          "(weight 2), row 3 (weight 3), row 4 (weight 4), row 5 (weight 5), "
                          "row 6 (weight 6) and 2 more. Ã = A - diag(A) + I")
    assert_allclose(add_self_loops(np.diag([0.0, 1.0])).toarray(), np.eye(2))  # no warning
    # Exactly five dropped: all named, nothing "more".
    msg = _dropped_loop_message(np.diag([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    assert "at 5 node(s): row 2 (weight 2), row 3" in msg and "row 6 (weight 6). Ã" in msg
    assert "more" not in msg


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("diag", [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]])
def test_self_loops_of_weight_zero_or_one_do_not_warn(diag):
    A = np.diag(diag) + np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    assert_allclose(add_self_loops(A).toarray(), [[1, 1, 0], [1, 1, 1], [0, 1, 1]])


def test_dropped_loop_weights_of_a_graph_are_named_by_label():
    G = nx.Graph()
    G.add_edge("a", "b")
    G.add_edge("b", "b", weight=2.5)
    msg = _dropped_loop_message(G, nodelist=["a", "b"])
    assert "at 1 node(s): node 'b' (weight 2.5). Ã" in msg
    G.add_edge("a", "a", weight=3.0)
    msg = _dropped_loop_message(G, nodelist=["a", "b"])
    assert "at 2 node(s): node 'a' (weight 3), node 'b' (weight 2.5). Ã" in msg


def test_defaults_read_the_weight_attribute_and_refuse_asymmetric_input():
    # Defaults: weight="weight" (the attribute networkx graphs carry) and no symmetrisation.
    G = nx.Graph()
    G.add_edge(0, 1, weight=3.0)
    G.add_edge(1, 2, weight=0.5)
    dense = nx.to_numpy_array(G, nodelist=[0, 1, 2], weight="weight")
    assert_allclose(add_self_loops(G).toarray(), dense + np.eye(3))
    for norm in ("sym", "rw"):
        assert_allclose(normalized_adjacency(G, norm=norm).toarray(), ref.norm_adj(dense, norm),
                        rtol=1e-12)
    with pytest.raises(ValueError, match="symmetri"):
        add_self_loops(np.array([[0.0, 1.0], [0.0, 0.0]]))
