"""Tests of ngc_ref.datasets against the measured numbers of shared/data/MANIFEST.md.

Tests that need the raw files read them from the directory named by NGC_REF_DATA and skip
cleanly when it is unset or lacks a data set; karate always runs. Corruption tests work on
copies in tmp_path, never on the shared directory.
"""

import hashlib
import io
import os
import pickle
import re
import shutil
import sys
import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from ngc_ref.datasets import DATASETS, Dataset, RestrictedUnpickler, load_dataset
from ngc_ref.datasets import _checksums, _planetoid
from ngc_ref.datasets._dataset import random_split
from ngc_ref.datasets._planetoid import restricted_loads

from ._planted import DROP, altered

DATA = os.environ.get("NGC_REF_DATA") or None

# name -> (folder, n, undirected edges w/o self-loops, features, classes, (train, val, test),
#          class counts over labelled nodes); all from MANIFEST.md §1-§4.
EXPECTED = {
    "cora": ("planetoid", 2708, 5278, 1433, 7, (140, 500, 1000),
             [351, 217, 418, 818, 426, 298, 180]),
    "citeseer": ("planetoid", 3327, 4552, 3703, 6, (120, 500, 1000),
                 [249, 590, 668, 701, 596, 508]),
    "pubmed": ("planetoid", 19717, 44324, 500, 3, (60, 500, 1000), [4103, 7739, 7875]),
    "cornell": ("geom-gcn", 183, 277, 1703, 5, (87, 59, 37), [33, 1, 18, 101, 30]),
    "texas": ("geom-gcn", 183, 279, 1703, 5, (87, 59, 37), [33, 1, 18, 101, 30]),
    "wisconsin": ("geom-gcn", 251, 450, 1703, 5, (120, 80, 51), [10, 70, 118, 32, 21]),
    "actor": ("geom-gcn", 7600, 26659, 932, 5, (3648, 2432, 1520), [853, 1337, 1630, 1815, 1965]),
    "coauthor-cs": ("coauthor", 18333, 81894, 6805, 15, (11000, 3667, 3666),
                    [708, 462, 2050, 429, 1394, 2193, 371, 924, 775, 118, 1444, 2033, 420, 4136,
                     876]),
    "coauthor-physics": ("coauthor", 34493, 247962, 8415, 5, (20696, 6899, 6898),
                         [5750, 5045, 17426, 2753, 3519]),
    "karate": (None, 34, 78, 34, 2, (20, 6, 8), [17, 17]),
}
CITESEER_MISSING = [2407, 2489, 2553, 2682, 2781, 2953, 3042, 3063, 3212, 3214, 3250, 3292,
                    3305, 3306, 3309]
# Edge homophily as the MANIFEST measures it: distinct directed edge lines, self-loops included.
MANIFEST_HOMOPHILY = {"cornell": 0.305, "texas": 0.108, "wisconsin": 0.196, "actor": 0.219}
GEOM_DIR = {"cornell": "cornell", "texas": "texas", "wisconsin": "wisconsin", "actor": "film"}


def _skip_reason(name):
    folder = EXPECTED[name][0]
    if folder is None:
        return None
    if DATA is None:
        return "NGC_REF_DATA is not set (it names the folder holding planetoid/, geom-gcn/, ...)"
    if not os.path.isdir(os.path.join(DATA, folder)):
        return f"{os.path.join(DATA, folder)} is absent"
    return None


def needs(name):
    """Skip unless the raw files of data set ``name`` are under NGC_REF_DATA."""
    reason = _skip_reason(name)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def _param(name):
    return pytest.param(name, marks=needs(name))


ALL = [_param(n) for n in EXPECTED]


@pytest.fixture(scope="module")
def loaded():
    """Each data set loaded once per module, with the warnings its loading raised."""
    cache = {}

    def get(name):
        if name not in cache:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                ds = load_dataset(name, root=DATA)
            cache[name] = (ds, [w for w in caught if issubclass(w.category, UserWarning)])
        return cache[name][0]

    get.warnings = lambda name: cache[name][1]
    return get


# --- counts and structure ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_counts_match_manifest(loaded, name):
    _, n, edges, feats, classes, sizes, counts = EXPECTED[name]
    ds = loaded(name)
    s = ds.summary()
    assert (s["n"], s["edges"], s["features"], s["classes"]) == (n, edges, feats, classes)
    assert (s["train"], s["val"], s["test"]) == sizes
    assert np.bincount(ds.labels[ds.labels >= 0], minlength=classes).tolist() == counts
    assert 0.0 <= s["homophily"] <= 1.0
    assert name in repr(ds) and f"n={n}" in repr(ds)


@pytest.mark.parametrize("name", ALL)
def test_structure(loaded, name):
    ds = loaded(name)
    A = ds.adjacency
    assert isinstance(ds, Dataset)
    assert isinstance(A, sp.csr_array) and A.dtype == np.float64
    assert A.has_canonical_format
    assert np.all(A.data == 1.0)
    assert A.diagonal().sum() == 0
    assert abs(A - A.T).nnz == 0
    for m in (ds.train_mask, ds.val_mask, ds.test_mask, ds.feature_mask):
        assert m.dtype == np.bool_ and m.shape == (ds.num_nodes,)
    assert not (ds.train_mask & ds.val_mask).any()
    assert not (ds.train_mask & ds.test_mask).any()
    assert not (ds.val_mask & ds.test_mask).any()
    assert ds.labels.dtype == np.int64
    labelled = ds.labels >= 0
    assert ds.labels[labelled].max() == ds.num_classes - 1
    # unlabelled nodes belong to no mask
    assert not ((ds.train_mask | ds.val_mask | ds.test_mask) & ~labelled).any()
    assert ds.features.shape == (ds.num_nodes, EXPECTED[name][3])
    if name != "pubmed":
        assert ds.features_complete and ds.feature_mask.all()


# --- Planetoid --------------------------------------------------------------------------------

def _raw(name, suffix):
    with open(os.path.join(DATA, "planetoid", f"ind.{name}.{suffix}"), "rb") as f:
        return f.read()


@pytest.mark.parametrize("name", [_param(n) for n in ("cora", "citeseer", "pubmed")])
def test_planetoid_layout_is_the_canonical_one(loaded, name):
    ds = loaded(name)
    n_train, n_val, _ = EXPECTED[name][5]
    assert np.flatnonzero(ds.train_mask).tolist() == list(range(n_train))
    assert np.flatnonzero(ds.val_mask).tolist() == list(range(n_train, n_train + n_val))
    test_ids = np.array(_raw(name, "test.index").split(), dtype=np.int64)
    assert np.array_equal(np.flatnonzero(ds.test_mask), np.sort(test_ids))
    # Row i of tx/ty belongs to node test.index[i].
    tx = restricted_loads(_raw(name, "tx"))
    ty = restricted_loads(_raw(name, "ty"))
    assert abs(ds.features[test_ids] - sp.csr_array(tx)).max() == 0
    assert np.array_equal(ds.labels[test_ids], ty.argmax(1))
    assert ds.features.dtype == np.float32 and isinstance(ds.features, sp.csr_array)
    # Reference: networkx's from_dict_of_lists, as in Kipf & Welling's loader.
    G = nx.from_dict_of_lists(restricted_loads(_raw(name, "graph")))
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    ref = nx.to_scipy_sparse_array(G, nodelist=range(G.number_of_nodes()), format="csr")
    assert abs(ds.adjacency - (ref != 0)).nnz == 0


@needs("citeseer")
def test_citeseer_missing_ids(loaded):
    ds = loaded("citeseer")
    assert np.flatnonzero(ds.labels == -1).tolist() == CITESEER_MISSING
    assert ds.features[CITESEER_MISSING].nnz == 0
    masks = ds.train_mask | ds.val_mask | ds.test_mask
    assert not masks[CITESEER_MISSING].any()
    assert (ds.adjacency[CITESEER_MISSING].sum(axis=1) >= 1).all()  # in the graph
    assert ds.summary()["labelled"] == 3312


@needs("pubmed")
def test_pubmed_without_allx(loaded):
    if os.path.exists(os.path.join(DATA, "planetoid", "ind.pubmed.allx")):
        pytest.skip("ind.pubmed.allx is present in NGC_REF_DATA")
    ds = loaded("pubmed")
    msgs = [str(w.message) for w in loaded.warnings("pubmed")]
    assert len(msgs) == 1 and "ind.pubmed.allx" in msgs[0]
    assert "3b86bccf08111c37c632a9dd8ab63db25ea76361" in msgs[0]
    assert not ds.features_complete
    real = np.flatnonzero(ds.feature_mask)
    assert real.size == 1060
    assert set(real) == set(range(60)) | set(np.flatnonzero(ds.test_mask))
    assert ds.features[~ds.feature_mask].nnz == 0
    assert (ds.features[ds.feature_mask].sum(axis=1) > 0).all()
    assert (ds.labels >= 0).all()  # labels complete


@needs("pubmed")
def test_pubmed_without_allx_says_which_rows_are_real():
    """The warning's numbers, from the MANIFEST's counts: 19717 nodes, 60 training rows in x,
    1000 test ids (tx: 1000 x 500, so rows and columns differ), ally's 18717 rows (ids
    0..18716). Loaded here, not through the module's fixture: a mutation tool credits a
    fixture's one load to the first test that used it, and would never run this one."""
    if os.path.exists(os.path.join(DATA, "planetoid", "ind.pubmed.allx")):
        pytest.skip("ind.pubmed.allx is present in NGC_REF_DATA")
    with pytest.warns(UserWarning, match="Pubmed features are incomplete") as rec:
        load_dataset("pubmed", root=DATA)
    [w] = rec
    assert w.category is UserWarning
    n, n_train, n_test = 19717, 60, 1000
    assert (f"only the {n_train + n_test} feature rows of the {n_train} training nodes "
            f"(ind.pubmed.x) and the {n_test} test nodes (ind.pubmed.tx) are real; the rows of "
            f"the other {n - n_train - n_test} nodes (ids {n_train}..18716, which include the "
            f"validation nodes) are zero") in str(w.message)


def test_a_planetoid_file_that_fails_to_parse_is_named_with_its_error():
    from ngc_ref.datasets._planetoid import guarded

    def parse(data):
        raise KeyError("no graph")
    with pytest.raises(ValueError, match=r"^data file '/d/ind\.cora\.graph' could not be read "
                                         r"as a Planetoid file \(KeyError: 'no graph'\); "
                                         r"replace it with the original \(see data/README\.md "
                                         r"of ngc_ref\)$"):
        guarded("/d/ind.cora.graph", parse, b"")


def _fake_pubmed_allx(root):
    """A protocol-3 pickle of a (18717, 500) float32 csr_matrix under the old module path."""
    x = restricted_loads(_raw("pubmed", "x"))
    k = np.arange(18717 - 60)
    rest = sp.csr_matrix((np.full(k.size, 0.5, dtype=np.float32), (k, k % 500)),
                         shape=(k.size, 500))
    allx = sp.csr_matrix(sp.vstack([sp.csr_matrix(x), rest], format="csr"))
    data = pickle.dumps(allx, protocol=3).replace(b"scipy.sparse._csr\n", b"scipy.sparse.csr\n")
    with open(os.path.join(root, "planetoid", "ind.pubmed.allx"), "wb") as f:
        f.write(data)
    return allx, data


@needs("pubmed")
def test_pubmed_with_allx(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(DATA, "planetoid"), tmp_path / "planetoid",
                    ignore=lambda d, names: [f for f in names if "pubmed" not in f])
    allx, data = _fake_pubmed_allx(tmp_path)
    # An allx that is not the canonical file is refused by its git blob SHA-1.
    with pytest.raises(ValueError, match=r"ind\.pubmed\.allx.*git blob SHA-1"):
        load_dataset("pubmed", root=tmp_path)
    monkeypatch.setitem(_checksums.OPTIONAL_GIT_BLOBS, "planetoid/ind.pubmed.allx",
                        _checksums.git_blob_sha1(data))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds = load_dataset("pubmed", root=tmp_path)
    assert ds.features_complete and ds.feature_mask.all()
    assert abs(ds.features[:18717] - sp.csr_array(allx)).max() == 0


# --- Geom-GCN ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [_param(n) for n in ("cornell", "texas", "wisconsin", "actor")])
def test_geomgcn_all_splits(name):
    sizes = EXPECTED[name][5]
    trains = []
    for k in range(10):
        ds = load_dataset(name, root=DATA, split=k)
        assert ds.split == k
        assert (ds.train_mask | ds.val_mask | ds.test_mask).all()
        assert (ds.train_mask.sum(), ds.val_mask.sum(), ds.test_mask.sum()) == sizes
        trains.append(ds.train_mask)
    assert len({m.tobytes() for m in trains}) == 10
    with pytest.raises(ValueError, match="split must be in 0..9"):
        load_dataset(name, root=DATA, split=10)


@pytest.mark.parametrize("name", [_param(n) for n in ("cornell", "texas", "wisconsin", "actor")])
def test_geomgcn_symmetrised_edges_and_manifest_homophily(loaded, name):
    ds = loaded(name)
    path = os.path.join(DATA, "geom-gcn", GEOM_DIR[name], "out1_graph_edges.txt")
    e = np.loadtxt(path, skiprows=1, dtype=np.int64).reshape(-1, 2)
    e = np.unique(e, axis=0)
    same = ds.labels[e[:, 0]] == ds.labels[e[:, 1]]
    assert round(float(same.mean()), 3) == MANIFEST_HOMOPHILY[name]
    off = e[e[:, 0] != e[:, 1]]
    assert np.all(ds.adjacency[off[:, 0], off[:, 1]] == 1)
    assert np.all(ds.adjacency[off[:, 1], off[:, 0]] == 1)


@needs("actor")
def test_actor_features(loaded):
    ds = loaded("actor")
    assert sp.issparse(ds.features) and ds.features.shape[1] == 932
    assert np.all(ds.features.data == 1.0)
    assert ds.features.indices.max() == 931
    nnz = np.diff(ds.features.indptr)
    assert nnz.min() == 1 and nnz.max() == 24
    assert abs(nnz.mean() - 5.39) < 0.01


# --- Coauthor and karate --------------------------------------------------------------------

@needs("coauthor-cs")
def test_coauthor_split_is_deterministic(loaded):
    a = loaded("coauthor-cs")
    b = load_dataset("coauthor-cs", root=DATA, split=0)
    c = load_dataset("coauthor-cs", root=DATA, split=1)
    for m in ("train_mask", "val_mask", "test_mask"):
        assert np.array_equal(getattr(a, m), getattr(b, m))
        assert not np.array_equal(getattr(a, m), getattr(c, m))
    assert (a.train_mask | a.val_mask | a.test_mask).all()
    expected = random_split(a.num_nodes, 1)
    assert np.array_equal(c.train_mask, expected[0])
    perm = np.random.default_rng(1).permutation(a.num_nodes)
    assert np.array_equal(np.flatnonzero(c.train_mask), np.sort(perm[:11000]))


def test_karate_always_available():
    ds = load_dataset("KARATE")
    assert ds.summary()["n"] == 34 and ds.num_edges == 78 and ds.num_classes == 2
    assert np.array_equal(ds.features, np.eye(34))
    G = nx.karate_club_graph()
    assert [ds.labels[v] for v in (0, 33)] == [0, 1]
    assert all((ds.labels[v] == 1) == (G.nodes[v]["club"] == "Officer") for v in G)
    again = load_dataset("karate", split=0)
    other = load_dataset("karate", split=5)
    assert np.array_equal(ds.train_mask, again.train_mask)
    assert not np.array_equal(ds.train_mask, other.train_mask)
    for m in (ds, other):
        for c in (0, 1):
            sel = m.labels == c
            assert (m.train_mask[sel].sum(), m.val_mask[sel].sum(), m.test_mask[sel].sum()) == \
                (10, 3, 4)


# --- arguments --------------------------------------------------------------------------------

def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match="coauthor-physics") as info:
        load_dataset("squirrel")
    assert all(n in str(info.value) for n in DATASETS)
    with pytest.raises(TypeError, match="name"):
        load_dataset(None)


# The class/`name=` spellings of PyTorch Geometric: Coauthor(name="CS"|"Physics"),
# Planetoid(name="Cora"|"CiteSeer"|"PubMed"), Actor, KarateClub.
PYG_NAMES = {"CS": "coauthor-cs", "Physics": "coauthor-physics", "CiteSeer": "citeseer",
             "PubMed": "pubmed", "Cora": "cora", "Actor": "actor", "KarateClub": "karate"}


@pytest.mark.parametrize("alias, name", sorted(PYG_NAMES.items()))
def test_pyg_names_resolve_case_insensitively(alias, name):
    from ngc_ref.datasets import canonical_name
    for spelling in (alias, alias.lower(), alias.upper(), name):
        assert canonical_name(spelling) == name


@pytest.mark.parametrize("alias", [pytest.param(a, marks=_param(n).marks)
                                   for a, n in sorted(PYG_NAMES.items())])
def test_pyg_names_load_the_same_data(loaded, alias):
    name = PYG_NAMES[alias]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # Pubmed without allx
        ds = load_dataset(alias, root=DATA)
    want = loaded(name)
    assert ds.name == name
    assert (ds.adjacency != want.adjacency).nnz == 0
    assert np.array_equal(ds.labels, want.labels)


def test_unknown_name_lists_the_aliases_too():
    with pytest.raises(ValueError) as info:
        load_dataset("squirrel")
    msg = str(info.value)
    assert msg.startswith("name must be one of ") and msg.endswith("got 'squirrel'")
    for alias, name in PYG_NAMES.items():
        if alias.lower() != name:
            assert f"{alias.lower()!r} = {name!r}" in msg, msg
    assert "'film' = 'actor'" in msg and "case-insensitive" in msg


def test_bad_split_and_root(tmp_path, monkeypatch):
    with pytest.raises(TypeError, match="split"):
        load_dataset("karate", split=0.5)
    with pytest.raises(ValueError, match="split"):
        load_dataset("karate", split=-1)
    with pytest.raises(ValueError, match="split must be 0"):
        load_dataset("cora", root=tmp_path, split=1)
    monkeypatch.delenv("NGC_REF_DATA", raising=False)
    with pytest.raises(ValueError, match="root=.*NGC_REF_DATA"):
        load_dataset("cora")
    missing = tmp_path / "nowhere"
    monkeypatch.setenv("NGC_REF_DATA", str(missing))
    with pytest.raises(FileNotFoundError, match="nowhere.*NGC_REF_DATA"):
        load_dataset("cora")
    with pytest.raises(FileNotFoundError, match="nowhere"):
        load_dataset("cora", root=missing)
    with pytest.raises(TypeError, match="root"):
        load_dataset("cora", root=3)
    # The file, not just the folder, is named when the data set is missing.
    with pytest.raises(FileNotFoundError, match=r"planetoid.ind\.cora\.y"):
        load_dataset("cora", root=tmp_path)


# --- corrupted files (on copies) --------------------------------------------------------------

needs_cora = needs("cora")


@pytest.fixture
def cora_copy(tmp_path):
    shutil.copytree(os.path.join(DATA, "planetoid"), tmp_path / "planetoid",
                    ignore=lambda d, names: [f for f in names if ".cora." not in f])
    return tmp_path


def _accept_current_bytes(monkeypatch, root, relpath):
    """Record the tampered file's own checksum, so the loader gets as far as parsing it."""
    with open(os.path.join(root, relpath), "rb") as f:
        data = f.read()
    monkeypatch.setitem(_checksums.CHECKSUMS, relpath,
                        (len(data), hashlib.sha256(data).hexdigest(), ""))


@needs_cora
def test_flipped_byte_fails_checksum(cora_copy):
    path = cora_copy / "planetoid" / "ind.cora.tx"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"ind\.cora\.tx.*sha256.*replace it"):
        load_dataset("cora", root=cora_copy)


def _expect_errors(monkeypatch, root, relpath, name, checksum, parsed):
    """Load ``name`` after ``relpath`` was tampered with: the error matching ``checksum`` (None:
    not checked), then, with the tampered bytes accepted, the parse error matching ``parsed``."""
    if checksum is not None:
        with pytest.raises(ValueError, match=checksum):
            load_dataset(name, root=root)
    _accept_current_bytes(monkeypatch, root, relpath)
    with pytest.raises(ValueError, match=parsed):
        load_dataset(name, root=root)


def _truncate(path):
    path.write_bytes(path.read_bytes()[:1000])


def _replace_by_y(path):
    shutil.copy(path.with_name("ind.cora.y"), path)


def _as_text(path):
    path.write_text("not a pickle\n")


@needs_cora
@pytest.mark.parametrize("file, tamper, checksum, parsed", [
    pytest.param("ind.cora.allx", _truncate, r"ind\.cora\.allx.*truncated",
                 r"ind\.cora\.allx.*could not be read", id="truncated"),
    # The y pickle where the graph pickle belongs, and plain text where a pickle belongs.
    pytest.param("ind.cora.graph", _replace_by_y, r"ind\.cora\.graph.*sha256",
                 r"ind\.cora\.graph.*could not be read.*dict", id="other-pickle"),
    pytest.param("ind.cora.x", _as_text, None, r"ind\.cora\.x.*could not be read",
                 id="not-a-pickle"),
])
def test_tampered_file_is_named(cora_copy, monkeypatch, file, tamper, checksum, parsed):
    tamper(cora_copy / "planetoid" / file)
    _expect_errors(monkeypatch, cora_copy, f"planetoid/{file}", "cora", checksum, parsed)


@needs_cora
def test_missing_file(cora_copy):
    os.remove(cora_copy / "planetoid" / "ind.cora.graph")
    with pytest.raises(FileNotFoundError, match=r"ind\.cora\.graph.*kimiyoung/planetoid"):
        load_dataset("cora", root=cora_copy)


@needs("cornell")
def test_wrong_format_geomgcn_and_npz(tmp_path, monkeypatch):
    for folder in ("cornell", "splits"):
        shutil.copytree(os.path.join(DATA, "geom-gcn", folder), tmp_path / "geom-gcn" / folder,
                        ignore=lambda d, names: [f for f in names if f.endswith(".npz")
                                                 and "cornell_split_0.6_0.2_0." not in f])
    edges = tmp_path / "geom-gcn" / "cornell" / "out1_graph_edges.txt"
    edges_rel = "geom-gcn/cornell/out1_graph_edges.txt"
    edges = tmp_path / edges_rel
    edges.write_text("node_id\tnode_id\n1\t2\t3\n")
    _expect_errors(monkeypatch, tmp_path, edges_rel, "cornell", None,
                   r"out1_graph_edges\.txt.*line 2")
    edges.write_text("node_id\tnode_id\n1\t999\n")
    _expect_errors(monkeypatch, tmp_path, edges_rel, "cornell", None,
                   r"out1_graph_edges\.txt.*0\.\.182")
    shutil.copy(os.path.join(DATA, edges_rel), edges)
    _accept_current_bytes(monkeypatch, tmp_path, edges_rel)
    split_rel = "geom-gcn/splits/cornell_split_0.6_0.2_0.npz"
    split = tmp_path / split_rel
    split.write_bytes(split.read_bytes()[:300])
    _expect_errors(monkeypatch, tmp_path, split_rel, "cornell", None,
                   r"cornell_split_0\.6_0\.2_0\.npz.*could not be read")
    os.makedirs(tmp_path / "coauthor")
    (tmp_path / "coauthor" / "ms_academic_cs.npz").write_bytes(b"PK\x03\x04" + b"\0" * 100)
    _expect_errors(monkeypatch, tmp_path, "coauthor/ms_academic_cs.npz", "coauthor-cs",
                   r"ms_academic_cs\.npz.*sha256", r"ms_academic_cs\.npz.*could not be read")


@needs_cora
def test_loaders_write_nothing(cora_copy):
    before = sorted((p.name, p.stat().st_mtime_ns) for p in cora_copy.rglob("*"))
    load_dataset("cora", root=cora_copy)
    after = sorted((p.name, p.stat().st_mtime_ns) for p in cora_copy.rglob("*"))
    assert before == after


# --- the restricted unpickler ---------------------------------------------------------------

class _Evil:
    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        return (os.system, (f"touch {self.target}",))


@pytest.mark.parametrize("protocol", [2, 4])
def test_restricted_unpickler_rejects_os_system(tmp_path, protocol):
    target = tmp_path / "pwned"
    payload = pickle.dumps(_Evil(target), protocol=protocol)
    with pytest.raises(pickle.UnpicklingError, match="not allowed"):
        restricted_loads(payload)
    assert not target.exists()
    for module, name in (("builtins", "eval"), ("subprocess", "Popen"), ("numpy", "load"),
                         ("posix", "system")):
        with pytest.raises(pickle.UnpicklingError, match="not allowed"):
            RestrictedUnpickler(io.BytesIO(b""), encoding="latin1").find_class(module, name)


def test_restricted_unpickler_rejects_object_arrays():
    # Protocol 4: with protocol 2 the bytes inside are already refused (_codecs.encode).
    payload = pickle.dumps(np.array([1, "a"], dtype=object), protocol=4)
    with pytest.raises(pickle.UnpicklingError, match=r"^object arrays are not allowed \(dtype "
                                                     r"object\)$"):
        restricted_loads(payload)


class _NotAnArray:
    """Pickles as NumPy's array reconstruction applied to another allowed class."""

    def __reduce__(self):
        import collections
        return np.zeros(0).__reduce__()[0], (collections.defaultdict, (0,), b"b")


def test_restricted_unpickler_reconstructs_only_ndarrays():
    with pytest.raises(pickle.UnpicklingError, match=r"^only numpy\.ndarray may be reconstructed, "
                                                     r"got <class 'collections\.defaultdict'>$"):
        restricted_loads(pickle.dumps(_NotAnArray(), protocol=4))


@needs_cora
def test_tampered_pickle_through_loader(cora_copy, monkeypatch):
    target = cora_copy / "pwned"
    (cora_copy / "planetoid" / "ind.cora.graph").write_bytes(
        pickle.dumps(_Evil(target), protocol=2))
    _expect_errors(monkeypatch, cora_copy, "planetoid/ind.cora.graph", "cora", None,
                   r"ind\.cora\.graph.*not allowed")
    assert not target.exists()


@needs_cora
def test_checksum_table_matches_files():
    for relpath in _checksums.CHECKSUMS:
        if os.path.exists(os.path.join(DATA, relpath)):
            _checksums.read_verified(DATA, relpath)  # raises on mismatch
    assert len(_checksums.CHECKSUMS) == 73
    assert _planetoid.N_VAL == 500


# --- names, karate's record, the data folder (mutation pass of datasets/*) ------------------

def test_unknown_name_message_in_full():
    from ngc_ref.datasets import canonical_name
    with pytest.raises(ValueError) as info:
        canonical_name("squirrel")
    assert str(info.value) == (
        "name must be one of 'cora', 'citeseer', 'pubmed', 'cornell', 'texas', 'wisconsin', "
        "'actor', 'coauthor-cs', 'coauthor-physics', 'karate' or an alias ('cs' = "
        "'coauthor-cs', 'physics' = 'coauthor-physics', 'coauthor-phy' = 'coauthor-physics', "
        "'film' = 'actor', 'karateclub' = 'karate'), case-insensitive; got 'squirrel'")
    with pytest.raises(TypeError, match=r"^name must be a str, got int$"):
        canonical_name(3)


def test_karate_record_fields():
    ds = load_dataset("karate", split=5)
    assert ds.labels.dtype == np.int64 and ds.feature_mask.dtype == bool
    assert ds.feature_mask.all() and ds.features_complete is True
    assert ds.split == 5 and ds.split_description == (
        "stratified 60/20/20 split seeded with 5: within each faction (0 = 'Mr. Hi', "
        "1 = 'Officer', in that order) a permutation from one numpy.random.default_rng(5); "
        "10/3/4 nodes per faction")


def test_default_root_and_find_root_without_the_variable(tmp_path, monkeypatch):
    from ngc_ref.datasets import default_root, find_root
    from ngc_ref.datasets._checksums import CHECKSUMS
    monkeypatch.delenv("NGC_REF_DATA", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    default = tmp_path / ".cache" / "ngc_ref" / "data"
    assert default_root() == default
    assert find_root() == (None, f"NGC_REF_DATA is not set and the default data folder "
                                 f"{str(default)!r} holds no data (ngc-ref data fetch fills it)")
    relpath, (size, _, _) = next(iter(CHECKSUMS.items()))
    (default / relpath).parent.mkdir(parents=True)
    (default / relpath).write_bytes(b"\0" * size)         # of the recorded size: "fetched"
    assert find_root() == (default, "the default data folder (ngc-ref data fetch; NGC_REF_DATA "
                                    "unset)")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_root() == tmp_path / "xdg" / "ngc_ref" / "data"


def test_root_messages_say_where_the_folder_came_from(tmp_path):
    from ngc_ref.datasets import resolve_root
    from ngc_ref.datasets._root import check_root, too_deep
    missing = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError, match=rf"^data directory {re.escape(repr(str(missing)))} "
                                                r"\(given as root=\) does not exist"):
        resolve_root(missing)
    inner = tmp_path / "planetoid"
    inner.mkdir()
    with pytest.raises(ValueError, match=rf"^data directory {re.escape(repr(str(inner)))} "
                                         r"\(given as root=\) is inside the data layout \(it is "
                                         rf"the planetoid/ folder\): use its parent "
                                         rf"{re.escape(repr(str(tmp_path)))}"):
        resolve_root(inner)
    with pytest.raises(TypeError, match=r"^root must be a str or os\.PathLike path, got int$"):
        check_root(3, "root=")
    # One level below the file system's root is "inside" too.
    assert too_deep("/planetoid") == too_deep("/geom-gcn/cornell") == Path("/")


def _tiny_dataset(**changes):
    from ngc_ref.datasets._dataset import build_adjacency
    fields = dict(name="tiny", adjacency=build_adjacency([0, 1, 2, 3, 0], [1, 2, 3, 4, 2], 5),
                  features=np.arange(10.0).reshape(5, 2), labels=np.array([0, 0, 0, 1, -1]),
                  train_mask=np.array([1, 0, 0, 0, 0], bool),
                  val_mask=np.array([0, 1, 0, 0, 0], bool),
                  test_mask=np.array([0, 0, 1, 1, 0], bool), num_classes=2,
                  feature_mask=np.ones(5, bool), features_complete=True, split=3,
                  split_description="by hand")
    fields.update(changes)
    return Dataset(**fields)


def test_homophily_counts_labelled_edges_once():
    # Edges 0-1, 1-2, 0-2 (same), 2-3 (differ); 3-4 touches an unlabelled node.
    assert _tiny_dataset().homophily() == 0.75
    assert np.isnan(_tiny_dataset(labels=np.array([0, -1, -1, -1, -1])).homophily())


def test_summary_repr_and_counts():
    ds = _tiny_dataset()
    assert ds.summary() == dict(name="tiny", n=5, edges=5, features=2, classes=2, homophily=0.75,
                                train=1, val=1, test=2, labelled=4, features_complete=True)
    assert repr(ds) == ("Dataset(name='tiny', n=5, edges=5, features=2 (dense float64), "
                        "classes=2, split=3, train/val/test=1/1/2)")
    part = _tiny_dataset(features=sp.csr_array(np.eye(5, 2, dtype=np.float32)),
                         feature_mask=np.array([1, 1, 1, 0, 0], bool), features_complete=False)
    assert repr(part) == ("Dataset(name='tiny', n=5, edges=5, features=2 (sparse float32), "
                          "classes=2, split=3, train/val/test=1/1/2, features_complete=False "
                          "(3 real rows))")


@pytest.mark.parametrize("changes,pattern", [
    (dict(features=np.ones((4, 2))), r"^inconsistent shapes: adjacency \(5, 5\), features "
                                     r"\(4, 2\)$"),
    (dict(labels=np.zeros(4, int)), r"^labels must have shape \(5,\), got \(4,\)$"),
    (dict(feature_mask=np.ones(6, bool)), r"^feature_mask must have shape \(5,\), got \(6,\)$"),
    (dict(val_mask=np.array([1, 0, 0, 0, 0], bool)), r"^train_mask, val_mask and test_mask "
                                                      r"must be disjoint$"),
    (dict(test_mask=np.array([1, 0, 0, 0, 0], bool)), r"must be disjoint$"),
    (dict(val_mask=np.array([0, 0, 1, 0, 0], bool)), r"must be disjoint$"),
])
def test_dataset_record_refuses_inconsistent_fields(changes, pattern):
    with pytest.raises(ValueError, match=pattern):
        _tiny_dataset(**changes)


def test_build_adjacency_merges_and_symmetrises():
    from ngc_ref.datasets._dataset import build_adjacency
    A = build_adjacency([0, 1, 1, 2, 2], [1, 0, 1, 0, 0], 4)    # repeats, a loop, node 3 alone
    assert A.shape == (4, 4) and A.dtype == np.float64
    assert np.array_equal(A.toarray(), [[0, 1, 1, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]])
    assert np.all(A.data == 1.0)
    with pytest.raises(ValueError, match=r"^edge endpoints must lie in 0\.\.2, got range 0\.\.3$"):
        build_adjacency([0], [3], 3)


def test_stratified_split_is_per_class():
    from ngc_ref.datasets._dataset import stratified_split
    labels = np.array([0] * 5 + [1] * 10 + [-1] * 2)
    train, val, test = stratified_split(labels, 4)
    for c, counts in ((0, (3, 1, 1)), (1, (6, 2, 2))):
        sel = labels == c
        assert (train[sel].sum(), val[sel].sum(), test[sel].sum()) == counts
    assert not (train | val | test)[labels < 0].any()


# --- Coauthor's loader on a hand-made npz (no data needed) --------------------------------------

def _npz_bytes(adj, attr, labels, **extra):
    buf = io.BytesIO()
    arrays = dict(labels=labels, **extra)
    for prefix, M in (("adj", sp.csr_array(adj)), ("attr", sp.csr_array(attr))):
        arrays.update({f"{prefix}_data": M.data, f"{prefix}_indices": M.indices,
                       f"{prefix}_indptr": M.indptr, f"{prefix}_shape": np.array(M.shape)})
    np.savez(buf, **arrays)
    return buf.getvalue()


def test_coauthor_loader_on_a_small_npz(tmp_path, monkeypatch):
    # A directed adjacency with an isolated last node (its shape says 5), float32 attributes.
    adj = np.zeros((5, 5))
    adj[0, 1] = adj[1, 2] = adj[2, 0] = adj[3, 2] = 1.0
    attr = np.array([[1, 0], [0, 2], [0, 0], [3, 0], [0, 1]], dtype=np.float32)
    labels = np.array([0, 1, 1, 0, 2])
    relpath = "coauthor/ms_academic_cs.npz"
    (tmp_path / "coauthor").mkdir()
    (tmp_path / relpath).write_bytes(_npz_bytes(adj, attr, labels))
    _accept_current_bytes(monkeypatch, tmp_path, relpath)
    ds = load_dataset("cs", root=tmp_path, split=2)
    sym = ((adj + adj.T) > 0).astype(float)
    assert ds.name == "coauthor-cs" and np.array_equal(ds.adjacency.toarray(), sym)
    assert sp.issparse(ds.features) and ds.features.dtype == np.float32
    assert np.array_equal(ds.features.toarray(), attr)
    assert ds.labels.dtype == np.int64 and np.array_equal(ds.labels, labels)
    assert ds.num_classes == 3 and ds.feature_mask.dtype == bool and ds.feature_mask.all()
    assert ds.features_complete is True and ds.split == 2
    perm = np.random.default_rng(2).permutation(5)
    assert np.array_equal(np.flatnonzero(ds.train_mask), np.sort(perm[:3]))
    assert np.array_equal(np.flatnonzero(ds.val_mask), np.sort(perm[3:4]))
    assert ds.split_description == ("random 60/20/20 split: perm = numpy.random.default_rng(2)"
                                    ".permutation(5); train = perm[:3], val = the next 1, test = "
                                    "the remaining 1")
    # A file that is not an npz is named by its full path under root.
    (tmp_path / relpath).write_bytes(b"PK\x03\x04" + b"\0" * 50)
    _accept_current_bytes(monkeypatch, tmp_path, relpath)
    path = os.path.join(str(tmp_path), "coauthor", "ms_academic_cs.npz")
    with pytest.raises(ValueError, match=rf"^data file {re.escape(repr(path))} could not be read "
                                         r"as a gnn-benchmark npz \(BadZipFile: "):
        load_dataset("cs", root=tmp_path)


@pytest.mark.parametrize("change,pattern", [
    (dict(labels=np.array([0, 1])), r"^inconsistent shapes: adj \(3, 3\), attr \(3, 2\), labels "
                                    r"\(2,\)$"),
    (dict(attr=np.ones((2, 2))), r"^inconsistent shapes: adj \(3, 3\), attr \(2, 2\)"),
    (dict(adj=np.ones((3, 4))), r"^inconsistent shapes: adj \(3, 4\), attr \(3, 2\)"),
    (dict(labels=np.array([0.0, 1.0, 0.0])), r"^labels must be non-negative integers, got "
                                             r"float64$"),
    (dict(labels=np.array([0, -1, 0])), r"^labels must be non-negative integers, got int64$"),
    (dict(attr=np.array([[1.0, np.inf], [0, 0], [0, 1]])), r"^attr_data has non-finite values$"),
    (dict(labels=np.array([0, None, 1], dtype=object)), r"allow_pickle"),
])
def test_parse_npz_refuses_what_is_not_the_format(change, pattern):
    from ngc_ref.datasets._npz import parse_npz
    args = dict(adj=np.eye(3)[[1, 2, 0]], attr=np.eye(3, 2), labels=np.array([0, 1, 0]))
    args.update(change)
    with pytest.raises(ValueError, match=pattern):
        parse_npz(_npz_bytes(**args))


def test_parse_npz_checks_every_index():
    from ngc_ref.datasets._npz import parse_npz
    good = _npz_bytes(np.eye(4)[[1, 0, 3, 2]], np.eye(4, 2), np.arange(4) % 2)
    A, X, labels = parse_npz(good)
    assert A.shape == (4, 4) and X.shape == (4, 2)
    # A column index past the stored shape: only the full check of the CSR format sees it.
    z = dict(np.load(io.BytesIO(good)))
    z["attr_indices"] = np.array([0, 5], dtype=z["attr_indices"].dtype)
    buf = io.BytesIO()
    np.savez(buf, **z)
    # (SciPy's own words: 'column index values must be < 2' before SciPy 1.11)
    with pytest.raises(ValueError, match=r"^(indices|column index values) must be < 2$"):
        parse_npz(buf.getvalue())


def test_checksum_records_and_their_messages(tmp_path):
    relpath = "planetoid/ind.cora.x"
    size, sha, blob = _checksums.expected(relpath)
    assert _checksums.mismatch(relpath, size, sha, blob) is None
    assert _checksums.mismatch(relpath, size, "0" * 64, blob) == (
        f"modified: {size} bytes with sha256 {'0' * 64}, expected {size} bytes with sha256 {sha}")
    assert _checksums.mismatch(relpath, size + 1, sha, blob).startswith(
        f"truncated or extended: {size + 1} bytes")
    for bad in ("planetoid/ind.cora.nothing", "elsewhere/x"):
        with pytest.raises(KeyError, match=f"no checksum recorded for {bad!r}"):
            _checksums.expected(bad)
    for bad in ("planetoid", "elsewhere/x"):
        with pytest.raises(KeyError, match=f"no source recorded for {bad!r}"):
            _checksums.source(bad)
    # A file that exists but cannot be read (here: a folder in its place).
    (tmp_path / "planetoid" / "ind.cora.x").mkdir(parents=True)
    path = os.path.join(str(tmp_path), "planetoid", "ind.cora.x")
    with pytest.raises(FileNotFoundError, match=rf"^data file {re.escape(repr(path))} could not "
                                                r"be read: "):
        _checksums.read_verified(tmp_path, relpath)


def test_split_must_be_a_non_negative_integer_by_name():
    with pytest.raises(ValueError, match=r"^split must be >= 0, got -1$"):
        load_dataset("karate", split=-1)


# --- Geom-GCN's loader on hand-made files (no data needed) ------------------------------------

def _write_geomgcn(monkeypatch, root, folder, nodes, edges, masks, split=3, crlf=False):
    """The three files of one Geom-GCN data set under ``root``, their checksums recorded."""
    nl = "\r\n" if crlf else "\n"
    files = {f"geom-gcn/{folder}/out1_node_feature_label.txt": nl.join(nodes) + nl,
             f"geom-gcn/{folder}/out1_graph_edges.txt": nl.join(edges) + nl}
    buf = io.BytesIO()
    np.savez(buf, **dict(zip(("train_mask", "val_mask", "test_mask"), masks)))
    files[f"geom-gcn/splits/{folder}_split_0.6_0.2_{split}.npz"] = buf.getvalue()
    for relpath, content in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("ascii") if isinstance(content, str) else content)
        _accept_current_bytes(monkeypatch, root, relpath)


_WEBKB_NODES = ["node_id\tfeature\tlabel", "2\t1,1,0\t0", "0\t0,1,0\t2", "3\t0,0,0\t1",
                "1\t1,0,1\t1"]
_EDGES = ["node_id\tnode_id", "0\t1", "1\t0", "1\t1", "2\t3", "3\t1", "2\t3"]
_MASKS = (np.array([1, 1, 0, 0], np.uint8), np.array([0, 0, 1, 0], bool),
          np.array([0, 0, 0, 1], np.uint8))


@pytest.mark.parametrize("crlf", [False, True])
def test_webkb_loader_on_small_files(tmp_path, monkeypatch, crlf):
    _write_geomgcn(monkeypatch, tmp_path, "cornell", _WEBKB_NODES, _EDGES, _MASKS, crlf=crlf)
    ds = load_dataset("cornell", root=tmp_path, split=3)
    assert np.array_equal(ds.features, [[0, 1, 0], [1, 0, 1], [1, 1, 0], [0, 0, 0]])
    assert ds.features.dtype == np.float64 and np.array_equal(ds.labels, [2, 1, 0, 1])
    want = np.zeros((4, 4))
    for u, v in ((0, 1), (2, 3), (3, 1)):
        want[u, v] = want[v, u] = 1.0
    assert np.array_equal(ds.adjacency.toarray(), want)
    for got, m in zip((ds.train_mask, ds.val_mask, ds.test_mask), _MASKS):
        assert got.dtype == bool and np.array_equal(got, m.astype(bool))
    assert ds.num_classes == 3 and ds.feature_mask.dtype == bool and ds.feature_mask.all()
    assert ds.features_complete is True and ds.split == 3
    assert ds.split_description == ("Geom-GCN fixed split 3 "
                                    "(geom-gcn/splits/cornell_split_0.6_0.2_3.npz)")


def test_film_loader_reads_index_lists(tmp_path, monkeypatch):
    # No line uses column 931: the width is film's 932 all the same.
    nodes = ["node_id\tfeature(feature_amount:931)\tlabel", "1\t930,3,3\t4", "0\t\t0",
             "2\t0,5\t1", "3\t7\t2"]
    _write_geomgcn(monkeypatch, tmp_path, "film", nodes, _EDGES, _MASKS, split=0)
    ds = load_dataset("film", root=tmp_path)
    assert ds.name == "actor" and sp.issparse(ds.features) and ds.features.shape == (4, 932)
    want = np.zeros((4, 932))
    want[1, [3, 930]] = want[2, [0, 5]] = want[3, 7] = 1.0
    assert np.array_equal(ds.features.toarray(), want) and np.array_equal(ds.labels, [0, 4, 1, 2])


@pytest.mark.parametrize("which,content,pattern", [
    ("edges", ["node_id\tsrc"], r"expected the header line 'node_id\\tnode_id', got "
                                r"'node_id\\tsrc'"),
    ("edges", [""], r"expected the header line 'node_id\\tnode_id', got 'an empty file'"),
    ("edges", ["node_id\tnode_id", "0\t1", "1\t2\t3"], r"line 3 is not 'src<TAB>dst': "
                                                       r"'1\\t2\\t3'"),
    ("edges", ["node_id\tnode_id", "0\t4"], r"edge endpoints must lie in 0\.\.3, got range "
                                            r"0\.\.4"),
    ("nodes", ["node_id\tfeature\tlabel", "0\t1,0\t0", "1\t1,0"], r"line 3 is not "
     r"'id<TAB>features<TAB>label': '1\\t1,0'"),
    ("nodes", ["node_id\tfeature\tlabel", "0\t1\t0", "2\t1\t0", "3\t1\t0", "4\t1\t0"],
     r"node ids must be exactly 0\.\.3, each once"),
    ("nodes", ["node_id\tfeature\tlabel", "0\t1\t0", "0\t1\t0", "1\t1\t0", "2\t1\t0"],
     r"node ids must be exactly 0\.\.3, each once"),
    ("nodes", ["node_id\tfeature\tlabel", "0\t1\t0", "1\t1\t-1", "2\t1\t0", "3\t1\t0"],
     r"labels must be non-negative, got -1"),
    ("nodes", ["node_id\tfeature\tlabel", "0\t1,2\t0", "1\t1,0\t0", "2\t1,0\t0", "3\t1,0\t0"],
     r"feature vectors must be comma-separated 0/1 values of one length"),
])
def test_geomgcn_files_that_are_not_the_format(tmp_path, monkeypatch, which, content, pattern):
    nodes = content if which == "nodes" else _WEBKB_NODES
    edges = content if which == "edges" else _EDGES
    _write_geomgcn(monkeypatch, tmp_path, "cornell", nodes, edges, _MASKS)
    fname = "out1_graph_edges.txt" if which == "edges" else "out1_node_feature_label.txt"
    path = os.path.join(str(tmp_path), "geom-gcn", "cornell", fname)
    with pytest.raises(ValueError, match=rf"^data file {re.escape(repr(path))} could not be read "
                                         rf"as a Geom-GCN file \(ValueError: .*{pattern}.*\); "
                                         r"replace it with the original \(see data/README\.md "
                                         r"of ngc_ref\)$"):
        load_dataset("cornell", root=tmp_path, split=3)


def test_geomgcn_film_indices_and_split_masks_are_checked():
    from ngc_ref.datasets._geomgcn import parse_nodes, parse_split
    head = "node_id\tfeature(feature_amount:931)\tlabel\n"
    with pytest.raises(ValueError, match=r"^feature indices must lie in 0\.\.931, got 0\.\.932$"):
        parse_nodes((head + "0\t0,932\t0\n").encode(), film=True)
    with pytest.raises(ValueError, match=r"^feature indices must lie in 0\.\.931, got -1\.\.3$"):
        parse_nodes((head + "0\t-1,3\t0\n").encode(), film=True)
    X, _ = parse_nodes((head + "0\t\t0\n1\t2\t0\n").encode(), film=True)
    assert X.nnz == 1 and X[1, 2] == 1.0

    def npz(**masks):
        buf = io.BytesIO()
        np.savez(buf, **masks)
        return buf.getvalue()

    good = dict(train_mask=np.array([1, 0, 0]), val_mask=np.array([0, 1, 0]),
                test_mask=np.array([0, 0, 1]))
    assert [m.tolist() for m in parse_split(npz(**good), 3)] == [[True, False, False],
                                                                 [False, True, False],
                                                                 [False, False, True]]
    with pytest.raises(ValueError, match=r"^val_mask must be a 0/1 vector of shape \(3,\), got "
                                         r"int64 \(2,\)$"):
        parse_split(npz(**dict(good, val_mask=np.array([0, 1]))), 3)
    with pytest.raises(ValueError, match=r"^test_mask must be a 0/1 vector of shape \(3,\)"):
        parse_split(npz(**dict(good, test_mask=np.array([0, 2, 1]))), 3)


def test_geomgcn_parsers_types_one_column_and_long_lines():
    from ngc_ref.datasets._geomgcn import parse_edges, parse_nodes
    src, dst = parse_edges(b"node_id\tnode_id\n0\t1\n2\t0\n")
    assert src.dtype == dst.dtype == np.int64 and src.tolist() == [0, 2] and dst.tolist() == [1, 0]
    X, labels = parse_nodes(b"node_id\tfeature\tlabel\n1\t1\t0\n0\t0\t1\n", film=False)
    assert X.shape == (2, 1) and X[:, 0].tolist() == [0.0, 1.0] and labels.tolist() == [1, 0]
    long = "7" * 80
    with pytest.raises(ValueError, match=rf"^line 3 is not 'src<TAB>dst': '1\\t2\\t{'7' * 56}'$"):
        parse_edges(f"node_id\tnode_id\n0\t1\n1\t2\t{long}\n".encode())
    with pytest.raises(ValueError, match=rf"^line 2 is not 'id<TAB>features<TAB>label': "
                                         rf"'{'7' * 60}'$"):
        parse_nodes(f"node_id\tfeature\tlabel\n{long}\n".encode(), film=False)
    with pytest.raises(ValueError, match=rf"^expected the header line 'node_id\\tnode_id', got "
                                         rf"'{'7' * 60}'$"):
        parse_edges(f"{long}\n0\t1\n".encode())


def test_geomgcn_lines_end_in_lf_or_crlf_and_the_fields_are_exact():
    """A file with CRLF line ends reads as with LF; otherwise the header is the format's own
    line and a field is a tab-separated integer: a trailing space or letter, or a space for the
    tab, is refused. A split file holds plain arrays (no pickled objects)."""
    from ngc_ref.datasets._geomgcn import parse_edges, parse_nodes, parse_split
    src, dst = parse_edges(b"node_id\tnode_id\r\n0\t1\r\n2\t0\r\n")
    assert src.tolist() == [0, 2] and dst.tolist() == [1, 0]
    for bad, msg in ((b"node_id\tnode_id \n0\t1\n", r"^expected the header line"),
                     (b"node_id\tnode_idX\n0\t1\n", r"^expected the header line"),
                     (b"node_id\tnode_id\n0\t1X\n", r"'1X'"),
                     (b"node_id\tnode_id\n0 1\n", r"^line 2 is not 'src<TAB>dst': '0 1'$")):
        with pytest.raises(ValueError, match=msg):
            parse_edges(bad)
    with pytest.raises(ValueError, match=r"^feature vectors must be comma-separated 0/1 values "
                                         r"of one length$"):
        parse_nodes(b"node_id\tfeature\tlabel\n0\t1,2\t0\n1\t1,0\t0\n", film=False)
    buf = io.BytesIO()
    obj = np.array([1, 0, 0], dtype=object)
    np.savez(buf, train_mask=obj, val_mask=obj, test_mask=obj)
    with pytest.raises(ValueError, match="allow_pickle"):
        parse_split(buf.getvalue(), 3)


# --- Planetoid's loader on hand-made files (no data needed) ------------------------------------
# Today's SciPy pickles csr_matrix as scipy.sparse._csr.csr_matrix; the original files (and the
# unpickler's allow-list) name scipy.sparse.csr.csr_matrix. The test allows the new path too.

N_TRAIN, N_ALL, N = 4, 510, 514
TEST_IDS = [512, 510, 511]              # 513: in the test range, not listed (as in Citeseer)


def _planetoid_files(rng):
    onehot = np.eye(2, dtype=np.int64)
    ally = onehot[np.arange(N_ALL) % 2]
    ty = onehot[[1, 0, 0]]
    allx = sp.csr_matrix(np.where(rng.random((N_ALL, 3)) < 0.3, 1.0, 0.0).astype(np.float32))
    tx = sp.csr_matrix(np.array([[1.0, 0, 0], [0, 1.0, 1.0], [0, 0, 1.0]], np.float32))
    graph = {k: [] for k in range(N)}
    for u, v in ((0, 1), (1, 2), (510, 513), (4, 511), (3, 3)):
        graph[u].append(v)
    return dict(x=allx[:N_TRAIN], y=ally[:N_TRAIN], allx=allx, ally=ally, tx=tx, ty=ty,
                graph=graph), " ".join(map(str, TEST_IDS)).encode()


def _write_planetoid(monkeypatch, root, name, skip=()):
    from ngc_ref.datasets._planetoid import RestrictedUnpickler
    monkeypatch.setitem(RestrictedUnpickler._ALLOWED, ("scipy.sparse._csr", "csr_matrix"),
                        sp.csr_matrix)
    objs, index = _planetoid_files(np.random.default_rng(0))
    (root / "planetoid").mkdir()
    blobs = {suffix: pickle.dumps(obj, protocol=4) for suffix, obj in objs.items()}
    blobs["test.index"] = index
    for suffix, data in blobs.items():
        if suffix in skip:
            continue
        relpath = f"planetoid/ind.{name}.{suffix}"
        (root / relpath).write_bytes(data)
        _accept_current_bytes(monkeypatch, root, relpath)
    return objs


def test_planetoid_loader_checks_allx_against_the_other_files(tmp_path, monkeypatch):
    """The loader hands its own name and allx to the layout check: an allx one column wider
    than x is refused, naming the data set's files."""
    objs = _write_planetoid(monkeypatch, tmp_path, "cora")
    wide = sp.csr_matrix(sp.hstack([objs["allx"], sp.csr_matrix((N_ALL, 1))]))
    relpath = "planetoid/ind.cora.allx"
    (tmp_path / relpath).write_bytes(pickle.dumps(wide, protocol=4))
    _accept_current_bytes(monkeypatch, tmp_path, relpath)
    with pytest.raises(ValueError, match=re.escape(os.path.join(str(tmp_path), "planetoid",
                                                                "ind.cora.*"))
                       + rf".*allx has shape \({N_ALL}, 4\), expected \({N_ALL}, 3\)"):
        load_dataset("cora", root=tmp_path)


def test_planetoid_loader_names_the_file_that_fails_to_parse_under_its_root(tmp_path,
                                                                            monkeypatch):
    """A file that passes its checksum but not its parser is named by its full path, root
    included (the message a user acts on: which file to replace)."""
    _write_planetoid(monkeypatch, tmp_path, "cora")
    relpath = "planetoid/ind.cora.test.index"
    (tmp_path / relpath).write_bytes(b"7 eight 9\n")
    _accept_current_bytes(monkeypatch, tmp_path, relpath)
    path = os.path.join(str(tmp_path), "planetoid", "ind.cora.test.index")
    with pytest.raises(ValueError, match="^data file " + re.escape(repr(path))
                       + " could not be read as a Planetoid file"):
        load_dataset("cora", root=tmp_path)


def test_planetoid_loader_on_small_files(tmp_path, monkeypatch):
    objs = _write_planetoid(monkeypatch, tmp_path, "cora")
    ds = load_dataset("cora", root=tmp_path)
    want = np.zeros((N, 3))
    want[:N_ALL] = objs["allx"].toarray()
    want[TEST_IDS] = objs["tx"].toarray()
    assert sp.issparse(ds.features) and ds.features.dtype == np.float32     # as stored
    assert np.array_equal(ds.features.toarray(), want)
    labels = np.full(N, -1)
    labels[:N_ALL] = np.arange(N_ALL) % 2
    labels[TEST_IDS] = [1, 0, 0]
    assert ds.labels.dtype == np.int64 and np.array_equal(ds.labels, labels)
    assert np.flatnonzero(ds.train_mask).tolist() == [0, 1, 2, 3]
    assert np.flatnonzero(ds.val_mask).tolist() == list(range(4, 504))
    assert np.flatnonzero(ds.test_mask).tolist() == sorted(TEST_IDS)
    edges = {tuple(e) for e in np.argwhere(ds.adjacency.toarray())}
    assert edges == {(0, 1), (1, 0), (1, 2), (2, 1), (510, 513), (513, 510), (4, 511), (511, 4)}
    assert ds.num_classes == 2 and ds.feature_mask.dtype == bool and ds.feature_mask.all()
    assert ds.features_complete is True and ds.split == 0
    assert ds.split_description == ("fixed public split of Yang et al. (2016): train = ids 0..3 "
                                    "(20 per class), val = ids 4..503, test = the 3 ids in "
                                    "ind.cora.test.index")


def test_pubmed_without_allx_on_small_files(tmp_path, monkeypatch):
    objs = _write_planetoid(monkeypatch, tmp_path, "pubmed", skip=("allx",))
    allx_path = os.path.join(str(tmp_path), "planetoid", "ind.pubmed.allx")
    with pytest.warns(UserWarning) as rec:
        ds = load_dataset("pubmed", root=tmp_path)
    (w,) = rec
    # At the caller's line (under mutmut a trampoline frame sits in between: the plain run checks).
    assert w.filename == __file__ or "mutmut.mutation.trampoline" in sys.modules
    assert str(w.message).startswith(
        f"Pubmed features are incomplete: {allx_path!r} is not present, so only the 7 feature "
        f"rows of the 4 training nodes (ind.pubmed.x) and the 3 test nodes (ind.pubmed.tx) are "
        f"real; the rows of the other 507 nodes (ids 4..509, which include the validation "
        f"nodes) are zero")
    mask = np.zeros(N, bool)
    mask[:N_TRAIN] = mask[TEST_IDS] = True
    assert ds.feature_mask.dtype == bool and np.array_equal(ds.feature_mask, mask)
    assert ds.features_complete is False
    want = np.zeros((N, 3))
    want[:N_TRAIN] = objs["x"].toarray()
    want[TEST_IDS] = objs["tx"].toarray()
    assert np.array_equal(ds.features.toarray(), want)


def test_planetoid_layout_checks_name_every_problem(tmp_path):
    from ngc_ref.datasets._planetoid import _check_layout
    x, tx, ty = sp.csr_array((4, 3)), sp.csr_array((3, 3)), np.zeros((3, 2))
    good = dict(n=N, n_train=4, n_all=N_ALL, n_feat=3, x=x, tx=tx, ty=ty,
                allx=sp.csr_array((N_ALL, 3)), test_ids=np.array(TEST_IDS), classes=(2, 2, 2),
                y_matches=True)
    _check_layout(tmp_path, "cora", **good)
    path = os.path.join(str(tmp_path), "planetoid", "ind.cora.*")
    bad = dict(classes=(2, 3, 2), y_matches=False, x=sp.csr_array((5, 3)),
               ty=np.zeros((2, 2)), allx=sp.csr_array((N_ALL, 4)),
               test_ids=np.array([513, 513, 511]), n_train=11)
    with pytest.raises(ValueError) as info:
        _check_layout(tmp_path, "cora", **dict(good, **bad))
    assert str(info.value) == (
        f"data files {path!r} are inconsistent: y/ally/ty have (2, 3, 2) label columns; the "
        f"labels in y differ from the first rows of ally; x has shape (5, 3), expected (11, 3); "
        f"tx/ty have 3/2 rows for 3 test ids; allx has shape (510, 4), expected (510, 3); test "
        f"ids must be distinct and lie in 510..513; 11 train + 500 validation ids exceed the 510 "
        f"allx rows")
    for ids in ([509, 510, 511], [510, 511, 514]):         # below n_all, at n
        with pytest.raises(ValueError, match=r"test ids must be distinct and lie in 510\.\.513$"):
            _check_layout(tmp_path, "cora", **dict(good, test_ids=np.array(ids)))
    with pytest.raises(ValueError, match=r"tx/ty have 2/3 rows for 3 test ids$"):
        _check_layout(tmp_path, "cora", **dict(good, tx=sp.csr_array((2, 3))))
    with pytest.raises(ValueError, match=r"\d+ train \+ 500 validation ids exceed the 510 allx "
                                         r"rows$"):
        _check_layout(tmp_path, "cora", **dict(good, n_train=11, x=sp.csr_array((11, 3))))
    _check_layout(tmp_path, "cora", **dict(good, n_train=10, x=sp.csr_array((10, 3))))


def test_planetoid_pieces_refuse_what_is_not_the_format():
    from ngc_ref.datasets._planetoid import (_csr_from_pickled, _graph_edges, _onehot,
                                             _parse_index)
    labels, c = _onehot(np.eye(3)[[2, 0]])
    assert labels.dtype == np.int64 and labels.tolist() == [2, 0] and c == 3
    for obj, pattern in ((np.zeros(3), r"^expected a 2-D numeric one-hot label array, got "
                                       r"ndarray \(3,\)$"),
                         (np.array([["a"]]), r"^expected a 2-D numeric one-hot label array, got "
                                             r"ndarray \(1, 1\)$"),
                         ([[1, 0]], r"^expected a 2-D numeric one-hot label array, got list $"),
                         (np.array([[1, 1]]), r"^label rows must be one-hot"),
                         (np.array([[2, 0]]), r"^label rows must be one-hot \(exactly one 1 per "
                                              r"row\)$")):
        with pytest.raises(ValueError, match=pattern):
            _onehot(obj)
    n, src, dst = _graph_edges({0: [], 1: []})                   # no edges: still int64 ids
    assert n == 2 and src.dtype == dst.dtype == np.int64 and src.size == dst.size == 0
    n, src, dst = _graph_edges({1: [0], 0: [1, 2], 2: []})
    assert n == 3 and src.dtype == dst.dtype == np.int64
    assert src.tolist() == [0, 0, 1] and dst.tolist() == [1, 2, 0]
    for obj, pattern in (([[1]], r"^expected a dict of adjacency lists, got list$"),
                         ({0: [], 2: []}, r"^adjacency-list keys must be exactly the node ids "
                                          r"0 \.\. N-1$"),
                         ({"0": []}, r"^adjacency-list keys must be exactly"),
                         ({0: [], "1": []}, r"^adjacency-list keys must be exactly"),
                         ({0: (1,), 1: []}, r"^neighbours of node 0 must be a list of ints$"),
                         ({0: [1.0], 1: []}, r"^neighbours of node 0 must be a list of ints$")):
        with pytest.raises(ValueError, match=pattern):
            _graph_edges(obj)
    ids = _parse_index(b"5\n3\n")
    assert ids.dtype == np.int64 and ids.tolist() == [5, 3]
    assert _parse_index(b"7").tolist() == [7]
    with pytest.raises(ValueError, match=r"^no node ids$"):
        _parse_index(b"\n")
    X = _csr_from_pickled(sp.csr_matrix(np.array([[0.0, 2.0], [1.0, 0.0]])))
    assert isinstance(X, sp.csr_array) and X.toarray().tolist() == [[0, 2], [1, 0]]
    with pytest.raises(ValueError, match=r"^expected a pickled scipy\.sparse csr_matrix, got "
                                         r"ndarray$"):
        _csr_from_pickled(np.zeros(3))
    with pytest.raises(ValueError, match=r"^expected a pickled scipy\.sparse csr_matrix, got "
                                         r"csr_array$"):
        _csr_from_pickled(sp.csr_array(np.eye(2)))
    for state, pattern in ((dict(indptr=DROP), r"^pickled csr_matrix lacks its CSR pieces "
                                                 r"\(KeyError\('indptr'\)\)$"),
                           (dict(data=[1.0, 1.0]), r"^pickled csr_matrix pieces must be NumPy "
                                                   r"arrays$"),
                           (dict(data=np.array([1, 1])), r"^unexpected dtypes in pickled "
                            r"csr_matrix: data int64, indices int32, indptr int32$"),
                           (dict(indices=np.array([0.0, 1.0])), r"^unexpected dtypes"),
                           (dict(indptr=np.array([0.0, 1.0, 2.0])), r"^unexpected dtypes"),
                           # (SciPy 1.10's words: 'column index values must be < 2')
                           (dict(indices=np.array([0, 5], np.int32)),
                            r"^(indices|column index values) must be < 2$"),
                           (dict(data=np.array([1.0, np.nan])), r"^non-finite feature values$")):
        with pytest.raises(ValueError, match=pattern):
            _csr_from_pickled(altered(sp.csr_matrix(np.eye(2)), **state))
    # The pieces are copied: the pickled matrix is not aliased.
    M = sp.csr_matrix(np.eye(2))
    _csr_from_pickled(M).data[:] = 5.0
    assert M.data.tolist() == [1.0, 1.0]
