"""Small shared pieces of the checks: dense operators of the paper and counterexample records."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ngc_ref import normalized_adjacency

from ._graphs import as_dense

#: Relative tolerance for identities that are exact in real arithmetic (float64 checks).
EXACT_RTOL = 1e-10


def dense_norm_adj(A, norm):
    return normalized_adjacency(A, norm=norm).toarray()


def dense_laplacian(A, norm):
    An = dense_norm_adj(A, norm)
    return np.eye(An.shape[0]) - An


def graph_record(name, A):
    """Enough to rebuild the graph by hand: n and the undirected edge list."""
    A = sp.triu(sp.csr_array(A), k=1).tocoo()
    return {"name": name, "n": int(A.shape[0]),
            "edges": [[int(i), int(j)] for i, j in zip(A.row, A.col)][:400],
            "edges_truncated": bool(A.nnz > 400)}


def counterexample(claim_id, ctx, graph=None, **fields):
    out = {"rerun": f"ngc-ref check --only {claim_id} --seed {ctx.seed}"}
    if graph is not None:
        out["graph"] = graph_record(*graph)
    out.update(fields)
    return out


def matching_norm(M, norm):
    """∞-norm for rw (where ‖Ã_rw‖_∞ = 1) and 2-norm for sym (where ‖Ã_sym‖_2 = 1)."""
    return float(np.linalg.norm(as_dense(M), ord=np.inf if norm == "rw" else 2))
