"""normalized_adjacency: the networkx options and weights too large for the degrees (tests
written for the survivors of a mutation pass over ngc_ref/normalize.py, tools/mutation.py)."""

import networkx as nx
import numpy as np
import pytest
from numpy.testing import assert_allclose

from ngc_ref import normalized_adjacency

from . import _reference as ref


def _weighted_graph():
    G = nx.Graph()
    G.add_edge("b", "a", weight=5.0)
    G.add_edge("a", "c", weight=0.5)
    G.add_edge("c", "d")                    # no attribute: weight 1
    return G


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_weight_and_nodelist_reach_the_normalisation(norm):
    G = _weighted_graph()
    order = ["d", "c", "b", "a"]
    want = ref.norm_adj(nx.to_numpy_array(G, nodelist=order, weight="weight"), norm)
    got = normalized_adjacency(G, norm=norm, weight="weight", nodelist=order)
    assert_allclose(got.toarray(), want, rtol=1e-12)
    unweighted = ref.norm_adj(nx.to_numpy_array(G, nodelist=order, weight=None), norm)
    got = normalized_adjacency(G, norm=norm, weight=None, nodelist=order)
    assert_allclose(got.toarray(), unweighted, rtol=1e-12)


def _huge_path():
    """A path of 3 with weights 1e308: the middle degree, 2e308 + 1, overflows float64."""
    A = np.zeros((3, 3))
    A[0, 1] = A[1, 0] = A[1, 2] = A[2, 1] = 1e308
    return A


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_degrees_that_overflow_are_scaled_away_exactly(norm):
    # Ã_norm does not change under a common scale of Ã, self-loops included: the reference
    # scales Ã by 2^-1024 (exact) before summing, with the same formulas.
    At = ref.tilde(_huge_path()) * 2.0**-1024
    d = At.sum(axis=1)
    want = At / np.sqrt(np.outer(d, d)) if norm == "sym" else At / d[:, None]
    got = normalized_adjacency(_huge_path(), norm=norm)
    assert np.isfinite(got.data).all()
    assert_allclose(got.toarray(), want, rtol=1e-12, atol=0)
    # Rows of Ã_rw sum to 1; the weight-1 self-loops are below rounding next to 1e308.
    if norm == "rw":
        assert_allclose(got.sum(axis=1), 1.0, rtol=1e-12)
    # The degrees themselves are not representable: refused, by name and with the remedy.
    with pytest.raises(ValueError, match=r"the degrees of A overflow float64 .*2\^1024.*divide "
                                         r"A by a constant"):
        normalized_adjacency(_huge_path(), norm=norm, return_degrees=True)


def test_float32_weights_that_overflow_float32_stay_float32():
    A = np.zeros((3, 3), dtype=np.float32)
    A[0, 1] = A[1, 0] = A[1, 2] = A[2, 1] = np.float32(3e38)
    got = normalized_adjacency(A, norm="rw")
    assert got.dtype == np.float32 and np.isfinite(got.data).all()
    assert_allclose(got.sum(axis=1), 1.0, rtol=1e-6)
