"""Real node-classification data sets used in the paper, loaded from their original raw files.

:func:`load_dataset` reads the files from a data directory (``root=``, the environment variable
``NGC_REF_DATA``, or :func:`default_root` once filled) laid out as ``planetoid/``,
``geom-gcn/``, ``coauthor/``; see ``data/README.md`` for where each file comes from.
:func:`fetch` (``ngc-ref data fetch``) downloads them from their source repositories at the
pinned commits, :func:`verify` (``ngc-ref data verify``) checks a folder. Every file is checked
against the sha256 recorded in this package before it is parsed; loaders never write to the
data directory.
"""

from __future__ import annotations

from .._validation import check_scalar
from ._dataset import Dataset
from ._fetch import NOT_FETCHED, FetchError, dataset_files, fetch, fetch_root, verify
from ._geomgcn import N_SPLITS, NAMES as _GEOM_NAMES, load_geomgcn
from ._karate import load_karate
from ._names import ALIASES, DATASETS, canonical_name
from ._npz import load_coauthor
from ._planetoid import NAMES as _PLANETOID_NAMES, RestrictedUnpickler, load_planetoid
from ._root import ENV_VAR, default_root, find_root, resolve_root  # noqa: F401 (ENV_VAR: as before)

__all__ = ["ALIASES", "DATASETS", "Dataset", "FetchError", "NOT_FETCHED", "RestrictedUnpickler",
           "canonical_name", "dataset_files", "default_root", "fetch", "fetch_root", "find_root",
           "load_dataset", "resolve_root", "verify"]

def load_dataset(name, root=None, split=0):
    """Load a node-classification data set as a :class:`Dataset`.

    Parameters
    ----------
    name : str
        One of ``cora``, ``citeseer``, ``pubmed`` (Planetoid), ``cornell``, ``texas``,
        ``wisconsin``, ``actor`` (Geom-GCN; alias ``film``), ``coauthor-cs`` (alias ``cs``),
        ``coauthor-physics`` (aliases ``physics``, ``coauthor-phy``), ``karate`` (alias
        ``karateclub``). Case-insensitive, so PyTorch Geometric's names (``"Cora"``,
        ``"CiteSeer"``, ``"PubMed"``, ``"CS"``, ``"Physics"``, ``"Actor"``) work as they are.
        ``Dataset.name`` is always the canonical name (see :func:`canonical_name`).
    root : str or os.PathLike, optional
        Data directory containing ``planetoid/``, ``geom-gcn/``, ``coauthor/``. Defaults to the
        environment variable ``NGC_REF_DATA``, and when that is unset to :func:`default_root`
        (``~/.cache/ngc_ref/data``) if ``ngc-ref data fetch`` (:func:`fetch`) filled it. Not
        used for ``karate``.
    split : int
        Planetoid: must be 0 (the one fixed public split). Geom-GCN: which of the 10 fixed
        splits, 0..9. Coauthor and karate: the seed of the random split.

    Returns
    -------
    Dataset
        ``adjacency`` is always a symmetric binary float64 ``csr_array`` without self-loops:
        directed edge lists (Geom-GCN) are symmetrised, i.e. every listed pair is an undirected
        edge, as the paper's GNNs treat the graphs as undirected; repeated edges are merged.

    Raises
    ------
    ValueError
        Unknown ``name``; ``split`` out of range; no data directory given; a data file whose
        checksum does not match (corrupted, truncated, other version) or that cannot be parsed.
        The message names the file and says what to do.
    FileNotFoundError
        The data directory or a data file is missing.
    TypeError
        ``name`` not a string, ``split`` not an integer, ``root`` not a path.

    Warns
    -----
    UserWarning
        Pubmed without ``planetoid/ind.pubmed.allx`` (not in the shared data directory): the
        features of the nodes outside the 60 training and 1000 test nodes are unknown. The
        Dataset then has zero rows there, ``feature_mask`` True only on the 1060 real rows and
        ``features_complete=False``. Put the original file (git blob SHA-1
        3b86bccf08111c37c632a9dd8ab63db25ea76361) into ``planetoid/`` to load full features.

    Notes
    -----
    Features are returned as stored: float32 CSR for Planetoid and Coauthor, float64 CSR for
    Actor (binary, 932 columns: indices run to 931 although the file header says 931
    features), a dense float64 0/1 array for Cornell/Texas/Wisconsin, the 34 x 34 identity for
    karate.

    Labels are int64; ``-1`` marks a node without a label. Only Citeseer has such nodes: the
    15 ids of its test range missing from ``ind.citeseer.test.index`` (2407, 2489, ..., 3309)
    are in the graph but have no feature vector and no label in any copy of the data; as in
    the canonical loader they get a zero feature row (counted as real, ``feature_mask`` True),
    label -1, and belong to no mask.

    Splits:

    * Planetoid: train = ids ``0 .. n_train-1`` (20 per class), val = the next 500 ids,
      test = the 1000 ids of ``ind.<name>.test.index`` (Yang et al., 2016; Kipf & Welling).
    * Geom-GCN: ``geom-gcn/splits/<dir>_split_0.6_0.2_<split>.npz`` (about 48/32/20 %).
    * Coauthor: ``perm = numpy.random.default_rng(split).permutation(n)``; the first
      ``round(0.6 n)`` nodes of ``perm`` train, the next ``round(0.2 n)`` val, the rest test
      (halves rounded up): CS 11000/3667/3666, Physics 20696/6899/6898.
    * karate: labels are the two factions of the ``club`` attribute (0 = 'Mr. Hi',
      1 = 'Officer'); within each faction in that order, a permutation drawn from one
      ``numpy.random.default_rng(split)`` gives 10 train, 3 val, 4 test nodes (20/6/8).

    Examples
    --------
    >>> from ngc_ref.datasets import load_dataset
    >>> ds = load_dataset("karate")
    >>> ds.summary()["n"], ds.summary()["edges"], ds.num_classes
    (34, 78, 2)
    """
    key = canonical_name(name)
    split = check_scalar(split, "split", min_val=0, integer=True)
    if key in _GEOM_NAMES and split >= N_SPLITS:
        raise ValueError(f"split must be in 0..{N_SPLITS - 1} for {key!r} (Geom-GCN has "
                         f"{N_SPLITS} fixed splits), got {split}")
    if key in _PLANETOID_NAMES and split != 0:
        raise ValueError(f"split must be 0 for {key!r} (the one fixed public Planetoid split), "
                         f"got {split}")
    if key == "karate":
        return load_karate(split)
    root = resolve_root(root)
    if key in _PLANETOID_NAMES:
        return load_planetoid(key, root)
    if key in _GEOM_NAMES:
        return load_geomgcn(key, root, split)
    return load_coauthor(key, root, split)
