"""rngc-edge-cost:sparse: nnz(XXᵀ) counted by blocks against the dense XXᵀ, the verdict on both
sides of its rule (planted data sets whose XXᵀ is diagonal, or all ones), and on the paper's
features when NGC_REF_DATA is set."""

import os
from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from ngc_ref_theory import Context
from ngc_ref_theory.claims import _gram_sparsity as gs
from ngc_ref_theory.claims import rngc_tau

DATA = os.environ.get("NGC_REF_DATA")


@pytest.mark.parametrize("block", [1, 7, 512])
def test_gram_nnz_against_the_dense_product(block):
    rng = np.random.default_rng(3)
    for n, d, p in ((1, 4, 0.5), (30, 12, 0.1), (53, 40, 0.03), (20, 5, 0.0)):
        X = (rng.random((n, d)) < p) * rng.random((n, d))
        want = int(np.count_nonzero(X @ X.T))
        assert gs.gram_nnz(X, block) == want
        assert gs.gram_nnz(sp.csr_array(X), block) == want


def _fake(monkeypatch, X):
    A = sp.csr_array(nx.to_scipy_sparse_array(nx.path_graph(X.shape[0])))
    monkeypatch.setattr(gs, "load", lambda ctx, names: {
        "cora": SimpleNamespace(features=sp.csr_array(X), adjacency=A, features_complete=True)})
    return gs.sparse_result(rngc_tau.SPARSE, Context(seed=0), "sym")


def test_a_term_as_sparse_as_the_graph_holds_and_a_dense_one_fails(monkeypatch):
    n = 40
    own_word = _fake(monkeypatch, np.eye(n))                  # XXᵀ = I: n ≤ 2|E| + n
    assert own_word.verdict == "holds" and own_word.scope == "as-stated"
    assert own_word.evidence["datasets"][0]["nnz_gram"] == n
    shared = _fake(monkeypatch, np.hstack([np.ones((n, 1)), np.eye(n)]))   # one common word
    assert shared.verdict == "fails"
    row = shared.evidence["datasets"][0]
    assert row["nnz_gram"] == n * n and row["nnz_A_tilde"] == 2 * (n - 1) + n
    assert shared.counterexample["dataset"] == "cora"
    assert "the statement says ≤ 1" in shared.summary


@pytest.mark.skipif(DATA is None, reason="NGC_REF_DATA is not set")
def test_on_the_paper_features_xxt_is_dense():
    r = gs.sparse_result(rngc_tau.SPARSE, Context(seed=0, data_root=Path(DATA)), "sym")
    rows = {x["dataset"]: x for x in r.evidence["datasets"]}
    assert r.verdict == "fails"
    assert rows["cora"]["nnz_gram"] > 300 * rows["cora"]["nnz_A_tilde"]
    assert rows["cora"]["X_density"] < 0.02                 # the premise: X is sparse
