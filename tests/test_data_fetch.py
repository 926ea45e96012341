"""``ngc-ref data fetch`` / ``data verify`` (ngc_ref.datasets.fetch, verify) against a local HTTP
server that serves files the test makes: complete, truncated, corrupted, server errors, resumed.

There is no network here (and none in CI), so GitHub itself is never contacted: the URLs are
tested by their construction, against rows copied from the data MANIFEST §6 (and against every
row of the MANIFEST when it is beside the checkout).
"""

from __future__ import annotations

import hashlib
import http.server
import os
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from ngc_ref import datasets
from ngc_ref.datasets import _checksums, _fetch
from ngc_ref_theory.cli import main

# ------------------------------------------------------------------------ URLs from the MANIFEST

#: Rows of MANIFEST §6 (path | source repository @ commit : path), copied by hand: one per
#: repository and folder rule.
MANIFEST_ROWS = [
    ("planetoid/ind.cora.x", "kimiyoung/planetoid", "af6abf468a772cc055bec88c52e4d6f51b7c37e3",
     "data/ind.cora.x"),
    ("planetoid/ind.pubmed.test.index", "kimiyoung/planetoid",
     "af6abf468a772cc055bec88c52e4d6f51b7c37e3", "data/ind.pubmed.test.index"),
    ("geom-gcn/film/out1_node_feature_label.txt", "graphdml-uiuc-jlu/geom-gcn",
     "f1fc0d14b3b019c562737240d06ec83b07d16a8f", "new_data/film/out1_node_feature_label.txt"),
    ("geom-gcn/splits/wisconsin_split_0.6_0.2_7.npz", "graphdml-uiuc-jlu/geom-gcn",
     "f1fc0d14b3b019c562737240d06ec83b07d16a8f", "splits/wisconsin_split_0.6_0.2_7.npz"),
    ("coauthor/ms_academic_phy.npz", "shchur/gnn-benchmark",
     "1e72912a0810cdf27ae54fd589a3b43358a2b161", "data/npz/ms_academic_phy.npz"),
]


@pytest.mark.parametrize("relpath, repo, commit, path", MANIFEST_ROWS)
def test_url_is_the_raw_file_at_the_pinned_commit(relpath, repo, commit, path):
    assert _fetch.file_url(relpath) == f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    assert _fetch.file_url(relpath, "http://mirror/x/") == f"http://mirror/x/{repo}/{commit}/{path}"


def _manifest():
    for base in (os.environ.get("NGC_REF_DATA"),
                 Path(__file__).resolve().parents[2] / "shared" / "data"):
        if base and (Path(base) / "MANIFEST.md").is_file():
            return (Path(base) / "MANIFEST.md").read_text(encoding="utf-8")
    pytest.skip("the data MANIFEST is not beside the checkout (nor in NGC_REF_DATA)")


def test_every_manifest_row_gives_its_url_size_and_sha256():
    """Every file row of MANIFEST §6: the URL is built from its first 'repo @ commit : path'
    (the canonical source), and the recorded size and sha256 are the row's."""
    rows = re.findall(r"^\| ([\w./-]+) \| (\d+) \| ([0-9a-f]{64}) \| [0-9a-f]{40} \| "
                      r"([\w./-]+) @ ([0-9a-f]{40}) : ([\w./-]+)", _manifest(), re.M)
    assert len(rows) == len(_checksums.CHECKSUMS) == 73
    for relpath, size, sha, repo, commit, path in rows:
        assert _fetch.file_url(relpath, "B") == f"B/{repo}/{commit}/{path}"
        assert _checksums.CHECKSUMS[relpath][:2] == (int(size), sha)


def test_every_file_belongs_to_exactly_one_data_set():
    files = [p for name in datasets.DATASETS for p in datasets.dataset_files(name)]
    assert sorted(files) == sorted([*_checksums.CHECKSUMS, *_checksums.OPTIONAL_GIT_BLOBS])
    assert datasets.dataset_files("karate") == []


# ------------------------------------------------------------------------ a local server

class Server:
    """Serves ``files`` ({URL path: bytes}); ``mode`` per path: "ok", "truncate" (declares the
    whole length, sends half, closes), "corrupt" (same length, other bytes), an int status
    (500, 404), "norange" (ignores Range). Honours ``Range: bytes=K-`` with 206. Records the
    requests as (path, Range header)."""

    def __init__(self):
        self.files, self.mode, self.requests = {}, {}, []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                rng = self.headers.get("Range")
                server.requests.append((self.path, rng))
                mode = server.mode.get(self.path, "ok")
                body = server.files.get(self.path)
                if isinstance(mode, int) or body is None:
                    self.send_error(mode if isinstance(mode, int) else 404)
                    return
                if mode == "corrupt":
                    body = bytes(b ^ 0xFF for b in body)
                start = 0
                if rng and mode != "norange":
                    start = int(re.fullmatch(r"bytes=(\d+)-", rng)[1])
                    if start >= len(body):
                        self.send_error(416)
                        return
                    self.send_response(206)
                    self.send_header("Content-Range",
                                     f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                part = body[start:]
                if mode == "truncate":
                    part = part[:len(part) // 2]
                self.wfile.write(part)
                self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def path_of(self, relpath):
        return _fetch.file_url(relpath, self.url)[len(self.url):]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


#: The data sets the fake tables hold: Pubmed (its optional allx known by a git blob SHA-1
#: only) and Coauthor-CS (one file large enough for several chunks).
FAKE = {"pubmed": [f"planetoid/ind.pubmed.{s}" for s in
                   ("ally", "graph", "test.index", "tx", "ty", "x", "y")],
        "coauthor-cs": ["coauthor/ms_academic_cs.npz"]}
ALLX = "planetoid/ind.pubmed.allx"


@pytest.fixture
def served(monkeypatch):
    """A server holding test-made bytes for the fake tables' files, and those tables in place of
    the recorded ones (sizes and sha256 of these bytes)."""
    rng = np.random.default_rng(0)
    content = {p: rng.integers(0, 256, 300_000 if p.endswith(".npz") else
                               int(rng.integers(100, 3000)), dtype=np.uint8).tobytes()
               for ps in FAKE.values() for p in ps}
    content[ALLX] = rng.integers(0, 256, 5000, dtype=np.uint8).tobytes()
    table = {p: (len(b), hashlib.sha256(b).hexdigest(), _checksums.git_blob_sha1(b))
             for p, b in content.items() if p != ALLX}
    saved, saved_opt = dict(_checksums.CHECKSUMS), dict(_checksums.OPTIONAL_GIT_BLOBS)
    _checksums.CHECKSUMS.clear()
    _checksums.CHECKSUMS.update(table)
    _checksums.OPTIONAL_GIT_BLOBS.clear()
    _checksums.OPTIONAL_GIT_BLOBS[ALLX] = _checksums.git_blob_sha1(content[ALLX])
    server = Server()
    server.content = content
    for p, b in content.items():
        server.files[server.path_of(p)] = b
    monkeypatch.delenv("NGC_REF_DATA", raising=False)
    monkeypatch.delenv(_fetch.URL_ENV, raising=False)
    yield server
    server.close()
    _checksums.CHECKSUMS.clear()
    _checksums.CHECKSUMS.update(saved)
    _checksums.OPTIONAL_GIT_BLOBS.clear()
    _checksums.OPTIONAL_GIT_BLOBS.update(saved_opt)


def _leftovers(root):
    """Files under root that are not data files in place (partial downloads, temporaries)."""
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*")
                  if p.is_file() and str(p.relative_to(root)) not in
                  {*_checksums.CHECKSUMS, *_checksums.OPTIONAL_GIT_BLOBS})


def _fetch_all(server, root, **kw):
    return datasets.fetch(None, root, base_url=server.url, progress=False, **kw)


def test_fetch_places_every_file_verified_then_never_again(served, tmp_path):
    root = tmp_path / "data"
    outcomes = _fetch_all(served, root)
    assert {o.status for o in outcomes} == {"fetched"} and len(outcomes) == 9
    for p, b in served.content.items():
        assert (root / p).read_bytes() == b
    assert _leftovers(root) == []
    assert {o.status for o in datasets.verify(None, root)} == {"present"}
    stamps = {p: os.stat(root / p).st_mtime_ns for p in served.content}
    served.requests.clear()
    again = _fetch_all(served, root)
    assert {o.status for o in again} == {"present"} and served.requests == []
    assert stamps == {p: os.stat(root / p).st_mtime_ns for p in served.content}


@pytest.mark.parametrize("status", [500, 404])
def test_server_error_names_the_file_and_leaves_nothing(served, tmp_path, status):
    bad = "planetoid/ind.pubmed.graph"
    served.mode[served.path_of(bad)] = status
    with pytest.raises(datasets.FetchError) as err:
        _fetch_all(served, tmp_path)
    failed = [o for o in err.value.outcomes if not o.ok]
    assert [o.relpath for o in failed] == [bad]
    assert str(status) in failed[0].detail and "nothing was written" in failed[0].detail
    assert failed[0].source.startswith("kimiyoung/planetoid @ af6abf4")
    assert not (tmp_path / bad).exists() and _leftovers(tmp_path) == []
    assert sum(o.status == "fetched" for o in err.value.outcomes) == 8


def test_the_optional_file_failing_is_named_not_fatal(served, tmp_path, capsys):
    served.mode[served.path_of(ALLX)] = 404
    outcomes = _fetch_all(served, tmp_path)
    [o] = [o for o in outcomes if o.relpath == ALLX]
    assert o.status == "optional" and "404" in o.detail and not (tmp_path / ALLX).exists()
    assert main(["data", "fetch", "--root", str(tmp_path), "--base-url", served.url,
                 "--no-progress"]) == 0
    assert f"{ALLX} (from kimiyoung/planetoid @ af6abf4" in capsys.readouterr().err


def test_checksum_mismatch_is_deleted(served, tmp_path):
    bad = "coauthor/ms_academic_cs.npz"
    served.mode[served.path_of(bad)] = "corrupt"
    with pytest.raises(datasets.FetchError, match=r"ms_academic_cs\.npz.*checksum mismatch"):
        _fetch_all(served, tmp_path)
    assert not (tmp_path / bad).exists() and _leftovers(tmp_path) == []


def test_truncated_download_is_kept_apart_and_resumed(served, tmp_path):
    bad = "coauthor/ms_academic_cs.npz"
    served.mode[served.path_of(bad)] = "truncate"
    with pytest.raises(datasets.FetchError, match=r"truncated download, 150,000 of 300,000"):
        _fetch_all(served, tmp_path)
    assert not (tmp_path / bad).exists()
    assert _leftovers(tmp_path) == ["coauthor/.ms_academic_cs.npz.part"]
    assert [o.status for o in datasets.verify("cs", tmp_path)] == ["partial"]
    served.mode.clear()
    served.requests.clear()
    outcomes = _fetch_all(served, tmp_path)
    assert [o.status for o in outcomes if o.relpath == bad] == ["fetched"]
    assert served.requests == [(served.path_of(bad), "bytes=150000-")]
    assert (tmp_path / bad).read_bytes() == served.content[bad] and _leftovers(tmp_path) == []


def test_resume_against_a_server_without_ranges_and_a_bad_partial(served, tmp_path):
    """A server that answers a Range request with the whole file: the file starts afresh. A
    partial download holding other bytes: the resumed file fails its checksum and is fetched
    once more from the start."""
    cs, x = "coauthor/ms_academic_cs.npz", "planetoid/ind.pubmed.x"
    (tmp_path / "coauthor").mkdir()
    (tmp_path / "coauthor" / ".ms_academic_cs.npz.part").write_bytes(served.content[cs][:1000])
    served.mode[served.path_of(cs)] = "norange"
    (tmp_path / "planetoid").mkdir()
    (tmp_path / "planetoid" / ".ind.pubmed.x.part").write_bytes(b"\0" * 10)
    _fetch_all(served, tmp_path)
    assert (tmp_path / cs).read_bytes() == served.content[cs]
    assert (tmp_path / x).read_bytes() == served.content[x] and _leftovers(tmp_path) == []
    assert [r for r in served.requests if r[0] == served.path_of(x)] == [
        (served.path_of(x), "bytes=10-"), (served.path_of(x), None)]


def test_a_different_file_in_place_is_never_overwritten(served, tmp_path):
    y = "planetoid/ind.pubmed.y"
    (tmp_path / "planetoid").mkdir()
    (tmp_path / y).write_bytes(b"mine")
    with pytest.raises(datasets.FetchError, match=r"ind\.pubmed\.y.*never overwrites"):
        _fetch_all(served, tmp_path)
    assert (tmp_path / y).read_bytes() == b"mine"
    assert [o.status for o in datasets.verify("pubmed", tmp_path) if o.relpath == y] == [
        "mismatch"]


def test_cli_fetch_and_verify(served, tmp_path, capsys):
    root = str(tmp_path / "d")
    assert main(["data", "verify", "--root", root]) == 1
    out = capsys.readouterr().out
    assert "missing: coauthor/ms_academic_cs.npz (from shchur/gnn-benchmark @ 1e72912" in out
    served.mode[served.path_of("planetoid/ind.pubmed.ty")] = 500
    assert main(["data", "fetch", "--root", root, "--base-url", served.url,
                 "--no-progress"]) == 1
    cap = capsys.readouterr()
    assert re.search(r"could not fetch planetoid/ind\.pubmed\.ty \(from kimiyoung/planetoid "
                     r"@ af6abf4\w+ : data/ind\.pubmed\.ty\): .*500", cap.err)
    assert "9 files in" in cap.out and "8 fetched" in cap.out and "ogbn-products" in cap.out
    served.mode.clear()
    assert main(["data", "fetch", "pubmed", "--root", root, "--base-url", served.url,
                 "--no-progress"]) == 0
    assert "1 fetched, 7 already there" in capsys.readouterr().out
    assert main(["data", "verify", "--root", root]) == 0
    assert "9 of 9 files verified" in capsys.readouterr().out
    assert main(["data", "fetch", "nosuch", "--root", root]) == 2


def test_default_root_is_the_user_cache_and_the_runs_find_it(served, tmp_path, monkeypatch,
                                                            capsys):
    from ngc_ref_theory._files import data_root
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    default = tmp_path / "cache" / "ngc_ref" / "data"
    assert datasets.default_root() == default
    assert datasets.find_root()[0] is None and data_root() is None
    with pytest.raises(ValueError, match="ngc-ref data fetch"):
        datasets.load_dataset("cora")
    datasets.fetch("cs", base_url=served.url, progress=False)
    assert (default / "coauthor" / "ms_academic_cs.npz").is_file()
    assert datasets.find_root()[0] == default and data_root() == str(default)
    monkeypatch.setenv("NGC_REF_DATA", str(tmp_path))     # the variable wins
    assert datasets.find_root()[0] == tmp_path


@pytest.mark.parametrize("inner", ["planetoid", "geom-gcn", "geom-gcn/cornell"])
def test_a_data_folder_inside_the_layout_names_its_parent(tmp_path, monkeypatch, capsys, inner):
    (tmp_path / inner).mkdir(parents=True)
    monkeypatch.setenv("NGC_REF_DATA", str(tmp_path / inner))
    assert main(["check", "--only", "gsd-trace", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert f"use its parent {str(tmp_path)!r}" in err
    with pytest.raises(ValueError, match="use its parent"):
        datasets.load_dataset("cora")
    monkeypatch.setenv("NGC_REF_DATA", str(tmp_path))     # the right folder, even empty: fine
    assert main(["check", "--only", "gsd-trace", "--dry-run"]) == 0
