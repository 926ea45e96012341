"""``theory/kit/evidence.py``'s pieces against independent references: the dense operators (from
tests/_reference.py), the graph record (the edge list sorted by hand, its hash from hashlib),
the counterexample record, what the evidence keeps, and the matching norm (NumPy's norms).
``judged`` and ``plain`` are in tests/test_claim_kit.py."""

import hashlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from ngc_ref_theory.kit.evidence import (MAX_RECORDED_EDGES, counterexample, dense_laplacian,
                                         dense_series,
                                         dense_norm_adj, graph_record, matching_norm, public)
from ngc_ref_theory.kit.claim import Context

from . import _reference as ref


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_the_dense_operators_are_the_papers(norm):
    A = nx.to_scipy_sparse_array(nx.lollipop_graph(4, 3), format="csr", dtype=float)
    An = dense_norm_adj(A, norm)
    assert isinstance(An, np.ndarray) and np.allclose(An, ref.norm_adj(A, norm), atol=1e-15)
    assert np.allclose(dense_laplacian(A, norm), np.eye(7) - ref.norm_adj(A, norm), atol=1e-15)


def _edges(G):
    return sorted(tuple(sorted(e)) for e in G.edges())


@pytest.mark.parametrize("m", [MAX_RECORDED_EDGES, MAX_RECORDED_EDGES + 1])
def test_a_graph_record_names_counts_and_hashes_the_undirected_edges(m):
    """Edges (i < j) in lexicographic order; SHA-256 of them as int64 pairs; the list itself
    up to MAX_RECORDED_EDGES edges (exactly 300 kept, 301 not)."""
    G = nx.gnm_random_graph(60, m, seed=m)
    A = nx.to_scipy_sparse_array(G, format="coo", dtype=float)   # any format, both triangles
    rec = graph_record("gnm", A)
    edges = _edges(G)
    assert (rec["name"], rec["n"], rec["n_edges"]) == ("gnm", 60, m)
    assert rec["edges_sha256"] == hashlib.sha256(np.array(edges, dtype=np.int64).tobytes()
                                                 ).hexdigest()
    assert ("edges" in rec) == (m <= MAX_RECORDED_EDGES)
    if m <= MAX_RECORDED_EDGES:
        assert rec["edges"] == [list(e) for e in edges]


def test_a_graph_record_of_a_small_graph_and_of_one_with_loops():
    A = sp.csr_array(np.array([[1.0, 1, 0], [1, 0, 2], [0, 2, 0]]))   # a loop on node 0: off
    rec = graph_record("p3", A)
    assert rec["edges"] == [[0, 1], [1, 2]] and rec["n_edges"] == 2 and rec["n"] == 3
    assert isinstance(rec["edges"][0][0], int)
    empty = graph_record("empty", sp.csr_array((4, 4)))
    assert empty["edges"] == [] and empty["n_edges"] == 0
    assert empty["edges_sha256"] == hashlib.sha256(b"").hexdigest()


def test_public_keeps_all_but_the_adjacency_or_the_keys_named():
    row = {"A": 1, "n": 5, "tau": 2.0}
    assert public(row) == {"n": 5, "tau": 2.0} and row["A"] == 1
    assert public(row, drop=("A", "tau")) == {"n": 5}
    assert public(row, drop=()) == row


def test_a_counterexample_has_its_rerun_its_graph_or_why_none_and_its_fields():
    ctx = Context(seed=3)
    A = nx.to_scipy_sparse_array(nx.path_graph(3), format="csr", dtype=float)
    ce = counterexample("lemma-1", ctx, graph=("path-3", A), lam=2.0)
    assert ce["rerun"] == "ngc-ref check --only lemma-1 --seed 3 --out ngc_ref_rerun/lemma-1"
    assert ce["graph"] == graph_record("path-3", A) and ce["lam"] == 2.0
    assert "no_graph" not in ce
    alone = counterexample("flip-noise", ctx, no_graph=42, p=0.1)
    assert alone["no_graph"] == "42" and "graph" not in alone and alone["p"] == 0.1
    bare = counterexample("flip-noise", ctx)
    assert set(bare) == {"rerun"}
    with pytest.raises(ValueError, match=r"^lemma-1: a counterexample has a graph or "
                                         r"no_graph, not both$"):
        counterexample("lemma-1", ctx, graph=("path-3", A), no_graph="x")


def test_the_matching_norm_is_the_infinity_norm_for_rw_and_the_spectral_norm_for_sym():
    M = np.array([[0.5, -0.25], [2.0, 0.1]])
    assert matching_norm(M, "rw") == np.abs(M).sum(axis=1).max()
    assert matching_norm(M, "sym") == pytest.approx(np.linalg.svd(M, compute_uv=False)[0])
    assert matching_norm(sp.csr_array(M), "rw") == 2.1
    A = nx.to_scipy_sparse_array(nx.cycle_graph(5), format="csr", dtype=float)
    assert matching_norm(ref.norm_adj(A, "rw"), "rw") == pytest.approx(1.0)
    assert matching_norm(ref.norm_adj(A, "sym"), "sym") == pytest.approx(1.0)


def test_judged_passes_its_norm_and_figures_on_and_names_what_a_failure_needs():
    from ngc_ref_theory.kit.evidence import Judgement, judged
    from ngc_ref_theory.kit.claim import Claim
    c = Claim("kit-common", "Eq. 0", "x ≤ 1", norms=("sym", "rw"))
    r = judged(c, Context(), "rw", Judgement("holds", [], None), {}, "ok",
               figures=["kit-common-x-rw.png"])
    assert (r.norm, r.figures, r.id) == ("rw", ["kit-common-x-rw.png"], "kit-common")
    with pytest.raises(ValueError, match=r"^kit-common: a 'fails' judgement needs failure= "
                                         r"\(the counterexample's fields\)$"):
        judged(c, Context(), "sym", Judgement("fails", [], None), {}, "bad")


@pytest.mark.parametrize("S", [0, 1, 2, 5])
def test_dense_series_is_the_sum_of_the_powers(S):
    """Σ_{s=0}^S T^s against the sum of matrix powers written out, on a non-symmetric T (a
    transposed product would pass a symmetric one), and the closed form (I − T^{S+1})(I − T)⁻¹."""
    T = np.array([[0.1, 0.4, 0.0], [0.2, 0.0, 0.3], [0.0, 0.5, 0.2]])
    want = sum(np.linalg.matrix_power(T, s) for s in range(S + 1))
    got = dense_series(T, S)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)
    closed = (np.eye(3) - np.linalg.matrix_power(T, S + 1)) @ np.linalg.inv(np.eye(3) - T)
    np.testing.assert_allclose(got, closed, rtol=1e-12, atol=1e-14)
    assert got.shape == (3, 3)
