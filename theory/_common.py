"""Small shared pieces of the checks: dense operators of the paper and counterexample records."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ngc_ref import normalized_adjacency

from ._core import rerun_command
from ._graphs import as_dense

#: Relative tolerance for identities that are exact in real arithmetic (float64 checks).
EXACT_RTOL = 1e-10


def dense_norm_adj(A, norm):
    return normalized_adjacency(A, norm=norm).toarray()


def dense_laplacian(A, norm):
    An = dense_norm_adj(A, norm)
    return np.eye(An.shape[0]) - An


#: Edge lists up to this length are stored in counterexamples; longer graphs are identified by
#: their generator (family, n, seed in the name: the ``rerun`` command rebuilds them) and a hash.
MAX_RECORDED_EDGES = 300


def graph_record(name, A):
    """Enough to identify the graph: n, the edge count, a SHA-256 of the undirected edge list,
    and the edge list itself when it is short enough to copy by hand."""
    import hashlib
    A = sp.triu(sp.csr_array(A), k=1).tocoo()
    order = np.lexsort((A.col, A.row))
    edges = np.stack([A.row[order], A.col[order]], axis=1).astype(np.int64)
    rec = {"name": name, "n": int(A.shape[0]), "n_edges": int(A.nnz),
           "edges_sha256": hashlib.sha256(edges.tobytes()).hexdigest()}
    if A.nnz <= MAX_RECORDED_EDGES:
        rec["edges"] = edges.tolist()
    return rec


def public(row, drop=("A",)):
    """``row`` without its adjacency (and the other keys in ``drop``): what the evidence keeps."""
    return {k: v for k, v in row.items() if k not in drop}


def counterexample(claim_id, ctx, graph=None, **fields):
    """The record of a counterexample: its ``rerun`` command (:func:`._core.rerun_command`:
    safe and complete as printed), the graph (:func:`graph_record`) and ``fields``."""
    out = {"rerun": rerun_command(claim_id, ctx)}
    if graph is not None:
        out["graph"] = graph_record(*graph)
    out.update(fields)
    return out


def matching_norm(M, norm):
    """∞-norm for rw (where ‖Ã_rw‖_∞ = 1) and 2-norm for sym (where ‖Ã_sym‖_2 = 1)."""
    return float(np.linalg.norm(as_dense(M), ord=np.inf if norm == "rw" else 2))
