"""Geom-GCN graphs (Cornell, Texas, Wisconsin, Actor = ``film``) with their 10 fixed splits.

Files (MANIFEST §3): ``<dir>/out1_graph_edges.txt`` (header line, then one directed edge
``src\\tdst`` per line; self-loops, reciprocal pairs and, for film, repeated lines),
``<dir>/out1_node_feature_label.txt`` (header, then ``id\\tfeatures\\tlabel``; a dense 0/1
vector for the WebKB graphs, a list of nonzero column indices for film) and
``splits/<dir>_split_0.6_0.2_<k>.npz`` (masks stored as bool or uint8).
"""

from __future__ import annotations

import io
import os

import numpy as np
import scipy.sparse as sp

from ._checksums import read_verified
from ._dataset import Dataset, build_adjacency

#: public name -> folder / file stem in the Geom-GCN repository
DIRS = {"cornell": "cornell", "texas": "texas", "wisconsin": "wisconsin", "actor": "film"}
NAMES = tuple(DIRS)
N_SPLITS = 10
#: film's feature indices run over 0..931 although its header says 931 (MANIFEST §3), as in
#: the Geom-GCN and PyG loaders.
FILM_FEATURES = 932


def _lines(data, header):
    text = data.decode("ascii")
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if not lines or lines[0].rstrip("\r") != header:
        got = lines[0][:60] if lines else "an empty file"
        raise ValueError(f"expected the header line {header!r}, got {got!r}")
    return [ln.rstrip("\r") for ln in lines[1:]]


def parse_edges(data):
    """(src, dst) int64 arrays of the directed edge lines, in file order."""
    lines = _lines(data, "node_id\tnode_id")
    pairs = [ln.split("\t") for ln in lines]
    bad = next((i for i, p in enumerate(pairs) if len(p) != 2), None)
    if bad is not None:
        raise ValueError(f"line {bad + 2} is not 'src<TAB>dst': {lines[bad][:60]!r}")
    edges = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    return edges[:, 0], edges[:, 1]


def parse_nodes(data, film):
    """(features, labels): a dense float64 array (WebKB) or a binary float64 CSR (film)."""
    header = "node_id\tfeature(feature_amount:931)\tlabel" if film else "node_id\tfeature\tlabel"
    lines = _lines(data, header)
    n = len(lines)
    ids = np.empty(n, dtype=np.int64)
    labels = np.empty(n, dtype=np.int64)
    fields = []
    for i, ln in enumerate(lines):
        parts = ln.split("\t")
        if len(parts) != 3:
            raise ValueError(f"line {i + 2} is not 'id<TAB>features<TAB>label': {ln[:60]!r}")
        ids[i], labels[i] = int(parts[0]), int(parts[2])
        fields.append(parts[1])
    if not np.array_equal(np.sort(ids), np.arange(n)):
        raise ValueError(f"node ids must be exactly 0..{n - 1}, each once")
    if labels.min() < 0:
        raise ValueError(f"labels must be non-negative, got {labels.min()}")
    order = np.argsort(ids)
    labels = labels[order]
    fields = [fields[i] for i in order]
    if film:
        cols = [np.unique(np.array(f.split(","), dtype=np.int64)) if f else np.zeros(0, np.int64)
                for f in fields]
        counts = np.array([c.size for c in cols])
        cols = np.concatenate(cols)
        if cols.size and (cols.min() < 0 or cols.max() >= FILM_FEATURES):
            raise ValueError(f"feature indices must lie in 0..{FILM_FEATURES - 1}, got "
                             f"{cols.min()}..{cols.max()}")
        indptr = np.concatenate([[0], np.cumsum(counts)])
        # Repeated indices on one line were merged by np.unique: features stay binary.
        X = sp.csr_array((np.ones(cols.size), cols, indptr), shape=(n, FILM_FEATURES))
    else:
        X = np.loadtxt(io.StringIO("\n".join(fields)), delimiter=",", dtype=np.float64, ndmin=2)
        if X.shape[0] != n or not np.isin(X, (0.0, 1.0)).all():
            raise ValueError("feature vectors must be comma-separated 0/1 values of one length")
    return X, labels


def parse_split(data, n):
    """(train, val, test) boolean masks from a split npz; uint8 masks are cast to bool."""
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        masks = []
        for key in ("train_mask", "val_mask", "test_mask"):
            m = z[key]
            if m.shape != (n,) or not np.isin(m, (0, 1)).all():
                raise ValueError(f"{key} must be a 0/1 vector of shape ({n},), got {m.dtype} "
                                 f"{m.shape}")
            masks.append(m.astype(bool))
    return tuple(masks)


def guarded(path, parse, *args):
    try:
        return parse(*args)
    except Exception as exc:
        raise ValueError(f"data file {path!r} could not be read as a Geom-GCN file "
                         f"({type(exc).__name__}: {exc}); replace it with the original "
                         f"(see data/README.md of ngc_ref)") from None


def load_geomgcn(name, root, split):
    folder = DIRS[name]

    def get(relpath, parse, *args):
        path = os.path.join(os.fspath(root), *relpath.split("/"))
        return guarded(path, parse, read_verified(root, relpath), *args)

    features, labels = get(f"geom-gcn/{folder}/out1_node_feature_label.txt", parse_nodes,
                           folder == "film")
    n = labels.size
    src, dst = get(f"geom-gcn/{folder}/out1_graph_edges.txt", parse_edges)
    split_rel = f"geom-gcn/splits/{folder}_split_0.6_0.2_{split}.npz"
    train, val, test = get(split_rel, parse_split, n)
    adjacency = guarded(os.path.join(os.fspath(root), "geom-gcn", folder, "out1_graph_edges.txt"),
                        build_adjacency, src, dst, n)
    return Dataset(
        name=name, adjacency=adjacency, features=features, labels=labels, train_mask=train,
        val_mask=val, test_mask=test, num_classes=int(labels.max()) + 1,
        feature_mask=np.ones(n, dtype=bool), features_complete=True, split=split,
        split_description=f"Geom-GCN fixed split {split} ({split_rel})")
