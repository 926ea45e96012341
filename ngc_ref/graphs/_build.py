"""Assemble adjacency matrices from edge lists; shared argument checks."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import check_scalar


def from_edges(n, u, v):
    """Symmetric 0/1 ``csr_array`` (float64, sorted indices) from undirected edges ``u[e]--v[e]``.

    The caller guarantees ``u != v`` and that no pair appears twice (in either orientation);
    the COO -> CSR conversion would otherwise silently sum duplicates into weight 2.
    """
    u = np.asarray(u, dtype=np.int64)
    v = np.asarray(v, dtype=np.int64)
    rows = np.concatenate([u, v])
    cols = np.concatenate([v, u])
    data = np.ones(rows.size, dtype=np.float64)
    A = sp.coo_array((data, (rows, cols)), shape=(n, n)).tocsr()
    A.sort_indices()
    return A


def empty(n):
    """Edgeless n-node adjacency."""
    return sp.csr_array((n, n), dtype=np.float64)


def check_n(n, name="n", min_val=1):
    return check_scalar(n, name, min_val=min_val, integer=True)


def check_prob(p, name):
    return check_scalar(p, name, min_val=0.0, max_val=1.0)
