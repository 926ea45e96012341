"""Planetoid citation graphs (Cora, Citeseer, Pubmed) from the original ``ind.*`` files.

The files are Python 2 pickles. They are read with :class:`RestrictedUnpickler`, which resolves
only the handful of globals these files use, so a tampered file cannot run code. The node
layout and the fixed public split follow the canonical loader of Kipf & Welling
(tkipf/gcn, ``gcn/utils.py::load_data``), which in turn follows Yang et al. (2016).
"""

from __future__ import annotations

import collections
import io
import os
import pickle
import warnings

import numpy as np
import scipy.sparse as sp

from ._checksums import OPTIONAL_GIT_BLOBS, read_verified
from ._dataset import Dataset, build_adjacency

NAMES = ("cora", "citeseer", "pubmed")
N_VAL = 500

# ndarray.__reduce__ names the array-reconstruction function, wherever this NumPy keeps it
# (numpy.core in 1.x, numpy._core in 2.x); taking it from there avoids importing the deprecated
# ``numpy.core`` alias the pickles refer to.
_np_reconstruct = np.zeros(0).__reduce__()[0]


def _no_object(dtype_like):
    dtype = np.dtype(dtype_like)
    if dtype.hasobject:
        raise pickle.UnpicklingError(f"object arrays are not allowed (dtype {dtype})")
    return dtype


def _safe_reconstruct(subtype, shape, dtype):
    if subtype is not np.ndarray:
        raise pickle.UnpicklingError(f"only numpy.ndarray may be reconstructed, got {subtype!r}")
    return _np_reconstruct(np.ndarray, shape, _no_object(dtype))


def _safe_dtype(*args):
    return _no_object(np.dtype(*args))


class RestrictedUnpickler(pickle.Unpickler):
    """Unpickler that resolves only the globals needed by the Planetoid ``ind.*`` files.

    Allowed: NumPy's array reconstruction, ``numpy.ndarray``, ``numpy.dtype`` (object dtypes
    refused), ``scipy.sparse.csr.csr_matrix`` (resolved to ``scipy.sparse.csr_matrix``; the
    module path is deprecated), ``collections.defaultdict`` and the builtin ``list``. Any other
    global, e.g. ``os.system``, raises :class:`pickle.UnpicklingError` before it is looked up.
    Use with ``encoding="latin1"`` (Python 2 ``str`` holds raw array bytes).
    """

    _ALLOWED = {
        ("numpy.core.multiarray", "_reconstruct"): _safe_reconstruct,
        ("numpy._core.multiarray", "_reconstruct"): _safe_reconstruct,
        ("numpy", "ndarray"): np.ndarray,
        ("numpy", "dtype"): _safe_dtype,
        ("scipy.sparse.csr", "csr_matrix"): sp.csr_matrix,
        ("scipy.sparse", "csr_matrix"): sp.csr_matrix,
        ("collections", "defaultdict"): collections.defaultdict,
        ("__builtin__", "list"): list,
        ("builtins", "list"): list,
    }

    def find_class(self, module, name):
        try:
            return self._ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(
                f"global '{module}.{name}' is not allowed in a Planetoid data file") from None


def restricted_loads(data):
    """Unpickle ``data`` (bytes) with :class:`RestrictedUnpickler` and ``encoding='latin1'``."""
    return RestrictedUnpickler(io.BytesIO(data), encoding="latin1").load()


def _csr_from_pickled(obj):
    """A checked float ``csr_array`` built from a pickled (old-layout) csr_matrix."""
    # (csr_array subclasses csr_matrix before SciPy 1.11: refused by name on every SciPy)
    if not isinstance(obj, sp.csr_matrix) or isinstance(obj, sp.csr_array):
        raise ValueError(f"expected a pickled scipy.sparse csr_matrix, got {type(obj).__name__}")
    # Rebuild from the stored pieces, whatever attributes the current SciPy expects.
    state = vars(obj)
    try:
        shape = tuple(int(s) for s in state["_shape"])
        data, indices, indptr = state["data"], state["indices"], state["indptr"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"pickled csr_matrix lacks its CSR pieces ({exc!r})") from None
    for piece in (data, indices, indptr):
        if not isinstance(piece, np.ndarray):
            raise ValueError("pickled csr_matrix pieces must be NumPy arrays")
    if data.dtype.kind != "f" or indices.dtype.kind not in "iu" or indptr.dtype.kind not in "iu":
        raise ValueError(f"unexpected dtypes in pickled csr_matrix: data {data.dtype}, "
                         f"indices {indices.dtype}, indptr {indptr.dtype}")
    X = sp.csr_array((data, indices, indptr), shape=shape, copy=True)
    X.check_format(full_check=True)
    if X.nnz and not np.all(np.isfinite(X.data)):
        raise ValueError("non-finite feature values")
    X.sum_duplicates()
    return X


def _onehot(obj):
    if not isinstance(obj, np.ndarray) or obj.ndim != 2 or obj.dtype.kind not in "biuf":
        raise ValueError(f"expected a 2-D numeric one-hot label array, got "
                         f"{type(obj).__name__} {getattr(obj, 'shape', '')}")
    if not np.isin(obj, (0, 1)).all() or (obj.sum(axis=1) != 1).any():
        raise ValueError("label rows must be one-hot (exactly one 1 per row)")
    return obj.argmax(axis=1).astype(np.int64), obj.shape[1]


def _graph_edges(obj):
    if not isinstance(obj, dict):
        raise ValueError(f"expected a dict of adjacency lists, got {type(obj).__name__}")
    n = len(obj)
    # Iterate over a copy of the keys: a defaultdict inserts on a missing-key lookup.
    keys = sorted(obj.keys()) if all(isinstance(k, int) for k in obj) else None
    if keys != list(range(n)):
        raise ValueError("adjacency-list keys must be exactly the node ids 0 .. N-1")
    src, dst = [], []
    for k in keys:
        nbrs = obj[k]
        if not isinstance(nbrs, list) or not all(isinstance(j, int) for j in nbrs):
            raise ValueError(f"neighbours of node {k} must be a list of ints")
        src.extend([k] * len(nbrs))
        dst.extend(nbrs)
    return n, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)


def guarded(path, parse, data):
    """``parse(data)``, with any failure turned into a ValueError naming the file ``path``."""
    try:
        return parse(data)
    except Exception as exc:  # unpickling or checking failed: the file is not what it claims
        raise ValueError(f"data file {path!r} could not be read as a Planetoid file "
                         f"({type(exc).__name__}: {exc}); replace it with the original "
                         f"(see data/README.md of ngc_ref)") from None


def _parse_index(data):
    ids = np.array([int(t) for t in data.decode("ascii").split()], dtype=np.int64)
    if ids.size == 0:
        raise ValueError("no node ids")
    return ids


def _pickled(convert):
    return lambda data: convert(restricted_loads(data))


def load_planetoid(name, root):
    """Load Cora, Citeseer or Pubmed with the standard public split (see :func:`load_dataset`)."""
    def get(suffix, parse):
        relpath = f"planetoid/ind.{name}.{suffix}"
        path = os.path.join(os.fspath(root), *relpath.split("/"))
        return guarded(path, parse, read_verified(root, relpath))

    y, c_y = get("y", _pickled(_onehot))
    ally, n_classes = get("ally", _pickled(_onehot))
    ty, c_ty = get("ty", _pickled(_onehot))
    x = get("x", _pickled(_csr_from_pickled))
    tx = get("tx", _pickled(_csr_from_pickled))
    test_ids = get("test.index", _parse_index)
    n, src, dst = get("graph", _pickled(_graph_edges))
    n_train = y.shape[0]

    n_all = ally.shape[0]
    n_feat = tx.shape[1]
    allx_rel = f"planetoid/ind.{name}.allx"
    allx_path = os.path.join(os.fspath(root), *allx_rel.split("/"))
    if name == "pubmed" and not os.path.exists(allx_path):
        allx = None
    else:
        allx = get("allx", _pickled(_csr_from_pickled))

    _check_layout(root, name, n=n, n_train=n_train, n_all=n_all, n_feat=n_feat, x=x, tx=tx,
                  ty=ty, allx=allx, test_ids=test_ids, classes=(c_y, n_classes, c_ty),
                  y_matches=bool(np.array_equal(y, ally[:n_train])))

    # Node layout: ids 0..n_all-1 are the allx/ally rows; row i of tx/ty belongs to node
    # test_ids[i]. Test-range ids not listed in test.index (Citeseer's 15) get a zero feature
    # row, as in the canonical loader (no copy of the data has features for them, so the zero
    # row counts as the data set's own and feature_mask stays True), and label -1.
    labels = np.full(n, -1, dtype=np.int64)
    labels[:n_all] = ally
    labels[test_ids] = ty
    if allx is not None:
        top, feature_mask = allx, np.ones(n, dtype=bool)
    else:  # Pubmed without ind.pubmed.allx: only x (= allx[:n_train]) and tx are known.
        top, feature_mask = x, np.zeros(n, dtype=bool)
        feature_mask[:n_train] = True
        feature_mask[test_ids] = True
    # Place each block of rows at its node ids with one sparse permutation product.
    blocks = sp.vstack([top, tx], format="csr")
    target = np.concatenate([np.arange(top.shape[0]), test_ids])
    P = sp.csr_array((np.ones(target.size, dtype=blocks.dtype),
                      (target, np.arange(target.size))), shape=(n, target.size))
    features = sp.csr_array(P @ blocks)
    features.sort_indices()

    train = np.zeros(n, dtype=bool)
    train[:n_train] = True
    val = np.zeros(n, dtype=bool)
    val[n_train:n_train + N_VAL] = True
    test = np.zeros(n, dtype=bool)
    test[test_ids] = True

    if allx is None:
        warnings.warn(
            f"Pubmed features are incomplete: {allx_path!r} is not present, so only the "
            f"{int(feature_mask.sum())} feature rows of the {n_train} training nodes "
            f"(ind.pubmed.x) and the {tx.shape[0]} test nodes (ind.pubmed.tx) are real; the "
            f"rows of the other {n - int(feature_mask.sum())} nodes (ids {n_train}..{n_all - 1}, "
            f"which include the validation nodes) are zero (see Dataset.feature_mask). Graph and "
            f"labels are complete. To get all features, run `ngc-ref data fetch pubmed`, or "
            f"place kimiyoung/planetoid data/ind.pubmed.allx (git blob SHA-1 "
            f"{OPTIONAL_GIT_BLOBS[allx_rel]}) at that path.",
            UserWarning, stacklevel=3)

    return Dataset(
        name=name, adjacency=build_adjacency(src, dst, n), features=features, labels=labels,
        train_mask=train, val_mask=val, test_mask=test, num_classes=int(n_classes),
        feature_mask=feature_mask, features_complete=bool(feature_mask.all()), split=0,
        split_description=(f"fixed public split of Yang et al. (2016): train = ids "
                           f"0..{n_train - 1} (20 per class), val = ids "
                           f"{n_train}..{n_train + N_VAL - 1}, test = the {test_ids.size} ids in "
                           f"ind.{name}.test.index"))


def _check_layout(root, name, *, n, n_train, n_all, n_feat, x, tx, ty, allx, test_ids, classes,
                  y_matches):
    """The cross-file invariants the node layout relies on (MANIFEST §2.1)."""
    path = os.path.join(os.fspath(root), "planetoid", f"ind.{name}.*")
    problems = []
    if len(set(classes)) != 1:
        problems.append(f"y/ally/ty have {classes} label columns")
    if not y_matches:
        problems.append("the labels in y differ from the first rows of ally")
    if x.shape != (n_train, n_feat):
        problems.append(f"x has shape {x.shape}, expected ({n_train}, {n_feat})")
    if tx.shape[0] != test_ids.size or ty.shape[0] != test_ids.size:
        problems.append(f"tx/ty have {tx.shape[0]}/{ty.shape[0]} rows for {test_ids.size} "
                        f"test ids")
    if allx is not None and allx.shape != (n_all, n_feat):
        problems.append(f"allx has shape {allx.shape}, expected ({n_all}, {n_feat})")
    if np.unique(test_ids).size != test_ids.size or test_ids.min() < n_all \
            or test_ids.max() >= n:
        problems.append(f"test ids must be distinct and lie in {n_all}..{n - 1}")
    if n_train + N_VAL > n_all:
        problems.append(f"{n_train} train + {N_VAL} validation ids exceed the {n_all} allx rows")
    if problems:
        raise ValueError(f"data files {path!r} are inconsistent: " + "; ".join(problems))
