"""The :class:`Dataset` record and the helpers every loader shares."""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.sparse as sp


@dataclasses.dataclass(frozen=True, eq=False)
class Dataset:
    """A node-classification data set as loaded from its raw files.

    Attributes
    ----------
    name : str
        Canonical lower-case name (``"cora"``, ``"actor"``, ...).
    adjacency : scipy.sparse.csr_array, shape (n, n)
        Symmetric, float64, binary (every stored entry is 1.0), duplicates merged, no
        self-loops, sorted indices.
    features : scipy.sparse.csr_array or numpy.ndarray, shape (n, d)
        Node features in the form they are stored (see :func:`load_dataset`).
    labels : numpy.ndarray of int64, shape (n,)
        Class id in ``0 .. num_classes-1``, or ``-1`` for a node without a label.
    train_mask, val_mask, test_mask : numpy.ndarray of bool, shape (n,)
        Disjoint node masks of the split; unlabelled nodes are in none of them.
    num_classes : int
    feature_mask : numpy.ndarray of bool, shape (n,)
        True where the feature row is real, False where it is a zero placeholder for features
        that the raw files do not contain (Pubmed without ``ind.pubmed.allx``).
    features_complete : bool
        ``feature_mask.all()``.
    split : int
        The split index (Geom-GCN) or seed (Coauthor, karate) used; 0 for the fixed Planetoid
        split.
    split_description : str
        How the masks were obtained.
    """

    name: str
    adjacency: sp.csr_array
    features: object
    labels: np.ndarray
    train_mask: np.ndarray
    val_mask: np.ndarray
    test_mask: np.ndarray
    num_classes: int
    feature_mask: np.ndarray
    features_complete: bool
    split: int = 0
    split_description: str = ""

    def __post_init__(self):
        # Loaders are trusted, but a wrong shape here would surface far away in a model.
        n = self.adjacency.shape[0]
        if self.adjacency.shape != (n, n) or self.features.shape[0] != n:
            raise ValueError(f"inconsistent shapes: adjacency {self.adjacency.shape}, "
                             f"features {self.features.shape}")
        for field in ("labels", "train_mask", "val_mask", "test_mask", "feature_mask"):
            if getattr(self, field).shape != (n,):
                raise ValueError(f"{field} must have shape ({n},), got "
                                 f"{getattr(self, field).shape}")
        if (self.train_mask & self.val_mask).any() or (self.train_mask & self.test_mask).any() \
                or (self.val_mask & self.test_mask).any():
            raise ValueError("train_mask, val_mask and test_mask must be disjoint")

    @property
    def num_nodes(self):
        return self.adjacency.shape[0]

    @property
    def num_edges(self):
        """Undirected edges (self-loops never stored)."""
        return self.adjacency.nnz // 2

    @property
    def num_features(self):
        return self.features.shape[1]

    def homophily(self):
        """Edge homophily: the fraction of undirected edges between two labelled nodes whose
        endpoints share a label (edges touching a node with label -1 are left out).

        This counts each undirected edge once and has no self-loops, so it differs slightly from
        the directed, self-loop-including values quoted in the data MANIFEST.
        """
        upper = sp.triu(self.adjacency, k=1, format="coo")
        yi, yj = self.labels[upper.row], self.labels[upper.col]
        both = (yi >= 0) & (yj >= 0)
        if not both.any():
            return float("nan")
        return float(np.mean(yi[both] == yj[both]))

    def summary(self):
        """Counts as a dict: ``n``, ``edges`` (undirected, no self-loops), ``features``,
        ``classes``, ``homophily``, ``train``, ``val``, ``test``, ``labelled``,
        ``features_complete``."""
        return {
            "name": self.name,
            "n": self.num_nodes,
            "edges": self.num_edges,
            "features": self.num_features,
            "classes": self.num_classes,
            "homophily": self.homophily(),
            "train": int(self.train_mask.sum()),
            "val": int(self.val_mask.sum()),
            "test": int(self.test_mask.sum()),
            "labelled": int((self.labels >= 0).sum()),
            "features_complete": self.features_complete,
        }

    def __repr__(self):
        kind = "sparse" if sp.issparse(self.features) else "dense"
        extra = "" if self.features_complete else \
            f", features_complete=False ({int(self.feature_mask.sum())} real rows)"
        return (f"Dataset(name={self.name!r}, n={self.num_nodes}, edges={self.num_edges}, "
                f"features={self.num_features} ({kind} {self.features.dtype}), "
                f"classes={self.num_classes}, split={self.split}, "
                f"train/val/test={int(self.train_mask.sum())}/{int(self.val_mask.sum())}/"
                f"{int(self.test_mask.sum())}{extra})")


def build_adjacency(src, dst, n):
    """Symmetric binary float64 CSR adjacency from (possibly directed, repeated) edge lists.

    Every listed pair becomes an undirected edge (the union of both directions); repeats are
    merged and self-loops dropped.
    """
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    if src.size and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= n):
        raise ValueError(f"edge endpoints must lie in 0..{n - 1}, got range "
                         f"{min(src.min(), dst.min())}..{max(src.max(), dst.max())}")
    keep = src != dst
    src, dst = src[keep], dst[keep]
    rows = np.concatenate([src, dst])
    cols = np.concatenate([dst, src])
    A = sp.csr_array((np.ones(rows.size), (rows, cols)), shape=(n, n))
    A.sum_duplicates()
    A.data[:] = 1.0
    A.sort_indices()
    return A


def random_split(n, seed, *, train=0.6, val=0.2):
    """Boolean train/val/test masks from a seeded uniform permutation of the ``n`` nodes.

    ``perm = numpy.random.default_rng(seed).permutation(n)``; the first
    ``round(train * n)`` nodes of ``perm`` (halves rounded up) are training nodes, the next
    ``round(val * n)`` validation nodes, the rest test nodes.
    """
    masks = [np.zeros(n, dtype=bool) for _ in range(3)]
    _mark_split(masks, np.random.default_rng(seed).permutation(n), train, val)
    return tuple(masks)


def stratified_split(labels, seed, *, train=0.6, val=0.2):
    """Like :func:`random_split` but within each class separately (classes in increasing
    order, one generator ``numpy.random.default_rng(seed)`` drawn from in that order)."""
    rng = np.random.default_rng(seed)
    n = labels.shape[0]
    masks = [np.zeros(n, dtype=bool) for _ in range(3)]
    for c in np.unique(labels[labels >= 0]):
        idx = np.flatnonzero(labels == c)
        _mark_split(masks, idx[rng.permutation(idx.size)], train, val)
    return tuple(masks)


def _mark_split(masks, perm, train, val):
    """Mark the nodes ``perm`` in the (train, val, test) ``masks``, in that order: the first
    ``round(train * m)`` of the m nodes (halves rounded up), the next ``round(val * m)``, the
    rest."""
    m = perm.size
    n_train = int(np.floor(train * m + 0.5))
    n_val = int(np.floor(val * m + 0.5))
    masks[0][perm[:n_train]] = True
    masks[1][perm[n_train:n_train + n_val]] = True
    masks[2][perm[n_train + n_val:]] = True
