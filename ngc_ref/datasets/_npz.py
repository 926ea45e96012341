"""Coauthor-CS and Coauthor-Physics from the gnn-benchmark ``ms_academic_*.npz`` files.

The npz holds the adjacency and the attribute matrix as CSR pieces (MANIFEST §4). Only numeric
keys are read, so no pickled object (``class_names``) is ever loaded: ``allow_pickle=False``.
No split is stored; :func:`load_coauthor` draws the paper's random 60/20/20 split.
"""

from __future__ import annotations

import io
import os

import numpy as np
import scipy.sparse as sp

from ._checksums import read_verified
from ._dataset import Dataset, build_adjacency, random_split

FILES = {"coauthor-cs": "coauthor/ms_academic_cs.npz",
         "coauthor-physics": "coauthor/ms_academic_phy.npz"}
NAMES = tuple(FILES)


def _csr(z, prefix):
    shape = tuple(int(s) for s in z[f"{prefix}_shape"])
    M = sp.csr_array((z[f"{prefix}_data"], z[f"{prefix}_indices"], z[f"{prefix}_indptr"]),
                     shape=shape)
    M.check_format(full_check=True)
    if M.nnz and not np.all(np.isfinite(M.data)):
        raise ValueError(f"{prefix}_data has non-finite values")
    return M


def parse_npz(data):
    """(adjacency pieces as a CSR, features CSR, labels int64) from the npz bytes."""
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        A = _csr(z, "adj")
        X = _csr(z, "attr")
        labels = np.asarray(z["labels"])
    n = A.shape[0]
    if A.shape != (n, n) or X.shape[0] != n or labels.shape != (n,):
        raise ValueError(f"inconsistent shapes: adj {A.shape}, attr {X.shape}, labels "
                         f"{labels.shape}")
    if labels.dtype.kind not in "iu" or labels.min() < 0:
        raise ValueError(f"labels must be non-negative integers, got {labels.dtype}")
    X.sum_duplicates()
    X.sort_indices()
    return A, X, labels.astype(np.int64)


def load_coauthor(name, root, split):
    relpath = FILES[name]
    path = os.path.join(os.fspath(root), *relpath.split("/"))
    data = read_verified(root, relpath)
    try:
        A, X, labels = parse_npz(data)
    except Exception as exc:  # zipfile / format errors: the file is not what it claims
        raise ValueError(f"data file {path!r} could not be read as a gnn-benchmark npz "
                         f"({type(exc).__name__}: {exc}); replace it with the original "
                         f"(see data/README.md of ngc_ref)") from None
    n = labels.size
    coo = A.tocoo()
    train, val, test = random_split(n, split)
    return Dataset(
        name=name, adjacency=build_adjacency(coo.row, coo.col, n), features=X, labels=labels,
        train_mask=train, val_mask=val, test_mask=test, num_classes=int(labels.max()) + 1,
        feature_mask=np.ones(n, dtype=bool), features_complete=True, split=split,
        split_description=(f"random 60/20/20 split: perm = numpy.random.default_rng({split})"
                           f".permutation({n}); train = perm[:{int(train.sum())}], val = the next "
                           f"{int(val.sum())}, test = the remaining {int(test.sum())}"))
