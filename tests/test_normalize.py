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
