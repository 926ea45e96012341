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
import time
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
    (500, 404), "norange" (ignores Range), "norange-cr" (ignores Range but sends a
    Content-Range header for it), "206-no-range" (answers a range with 206 but no
    Content-Range header), "stall" (declares the whole length, sends half, then waits
    2 s), "no-length" (no Content-Length header), "hangup" (closes the connection without
    an answer). Honours ``Range: bytes=K-`` with 206. Records the requests as (path, Range header)
    and their User-Agent headers."""

    def __init__(self):
        self.files, self.mode, self.requests, self.agents = {}, {}, [], []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                rng = self.headers.get("Range")
                server.requests.append((self.path, rng))
                server.agents.append(self.headers.get("User-Agent"))
                mode = server.mode.get(self.path, "ok")
                body = server.files.get(self.path)
                if mode == "hangup":
                    return
                if isinstance(mode, int) or body is None:
                    self.send_error(mode if isinstance(mode, int) else 404)
                    return
                if mode == "corrupt":
                    body = bytes(b ^ 0xFF for b in body)
                start = 0
                if rng and mode == "norange-cr":
                    self.send_response(200)
                    self.send_header("Content-Range", f"bytes {rng[6:]}{len(body) - 1}/"
                                                      f"{len(body)}")
                elif rng and mode == "206-no-range":
                    start = int(re.fullmatch(r"bytes=(\d+)-", rng)[1])
                    self.send_response(206)
                elif rng and mode != "norange":
                    start = int(re.fullmatch(r"bytes=(\d+)-", rng)[1])
                    if start >= len(body):
                        self.send_error(416)
                        return
                    self.send_response(206)
                    self.send_header("Content-Range",
                                     f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                if mode != "no-length":
                    self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                part = body[start:]
                if mode in ("truncate", "stall"):
                    part = part[:len(part) // 2]
                self.wfile.write(part)
                if mode == "stall":
                    self.wfile.flush()
                    time.sleep(2.0)
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
    from ngc_ref_theory.output.files import data_root
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


# ------------------------------------------------------------------------ the details, in full

class _Bar:
    """Stands in for tqdm: records its settings, its total and its updates."""

    made = []

    def __init__(self, **kw):
        self.kw, self.total, self.updates = kw, kw["total"], []
        _Bar.made.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        self.updates.append(n)

    def refresh(self):
        pass


@pytest.fixture
def recorded(monkeypatch):
    """The progress bars made and the timeouts of every request."""
    import tqdm.auto
    import urllib.request
    _Bar.made = []
    monkeypatch.setattr(tqdm.auto, "tqdm", _Bar)
    timeouts, urlopen = [], urllib.request.urlopen

    def spy(req, timeout):
        timeouts.append(timeout)
        return urlopen(req, timeout=timeout)

    monkeypatch.setattr(_fetch.urllib.request, "urlopen", spy)
    return _Bar.made, timeouts


def test_progress_bar_counts_the_bytes_and_requests_carry_the_settings(served, tmp_path,
                                                                       recorded):
    bars, timeouts = recorded
    cs = "coauthor/ms_academic_cs.npz"
    (tmp_path / "coauthor").mkdir()
    (tmp_path / "coauthor" / ".ms_academic_cs.npz.part").write_bytes(served.content[cs][:1000])
    datasets.fetch(None, tmp_path, base_url=served.url)          # progress and timeout: defaults
    (bar,) = bars
    recorded_sizes = sum(len(b) for p, b in served.content.items() if p != ALLX)
    # Bytes with binary prefixes, under the command's name; the optional file (known by its git
    # blob only) adds its Content-Length when its download starts.
    assert bar.kw == dict(total=recorded_sizes, unit="B", unit_scale=True, unit_divisor=1024,
                          disable=False, desc="ngc-ref data fetch", dynamic_ncols=True)
    assert bar.total == recorded_sizes + len(served.content[ALLX])
    assert sum(bar.updates) == bar.total and 1000 in bar.updates       # the resumed part counted
    assert set(timeouts) == {60} and len(timeouts) == 9
    assert set(served.agents) == {"ngc-ref data fetch"}
    # A bad partial: resumed, then fetched again from the start, with the timeout given.
    x = "planetoid/ind.pubmed.x"
    (tmp_path / x).unlink()
    (tmp_path / "planetoid" / ".ind.pubmed.x.part").write_bytes(b"\0" * 10)
    timeouts.clear()
    datasets.fetch("pubmed", tmp_path, base_url=served.url, progress=False, timeout=7)
    assert bars[-1].kw["disable"] is True and timeouts == [7, 7]


def test_outcomes_and_the_error_in_full(served, tmp_path):
    src = {p: str(_checksums.source(p)) for p in served.content}
    graph, ty, y = ("planetoid/ind.pubmed.graph", "planetoid/ind.pubmed.ty",
                    "planetoid/ind.pubmed.y")
    (tmp_path / "planetoid").mkdir()
    (tmp_path / y).write_bytes(b"mine")
    (tmp_path / "planetoid" / ".ind.pubmed.ty.part").write_bytes(b"\0" * 10)
    served.mode[served.path_of(graph)] = 500
    served.mode[served.path_of(ty)] = 500
    with pytest.raises(datasets.FetchError) as err:
        datasets.fetch("pubmed", tmp_path, base_url=served.url, progress=False)
    out = {o.relpath: o for o in err.value.outcomes}
    problem = _checksums.mismatch(y, 4, hashlib.sha256(b"mine").hexdigest(), "")
    assert out[y] == _fetch.FileOutcome(
        y, "failed", f"a different file is in its place ({problem}); fetch never overwrites a "
        "file it did not verify: delete it and fetch again", src[y])
    assert out[graph] == _fetch.FileOutcome(
        graph, "failed", f"{served.url}{served.path_of(graph)}: the server answered 500 Internal "
        "Server Error; nothing was written", src[graph])
    assert out[ty].detail == (f"{served.url}{served.path_of(ty)}: the server answered 500 "
                              "Internal Server Error; the 10 bytes received are kept in "
                              ".ind.pubmed.ty.part and the next `ngc-ref data fetch` resumes "
                              "from there")
    x = "planetoid/ind.pubmed.x"
    assert out[x] == _fetch.FileOutcome(x, "fetched",
                                        f"{len(served.content[x]):,} bytes, verified", src[x])
    assert str(err.value) == (f"3 of 8 data file(s) could not be fetched: {graph} "
                              f"({out[graph].detail}); {ty} ({out[ty].detail}); {y} "
                              f"({out[y].detail})")
    served.mode.clear()
    again = {o.relpath: o for o in datasets.verify("pubmed", tmp_path)}
    assert again[x] == _fetch.FileOutcome(x, "present", "verified", src[x])
    assert again[y] == _fetch.FileOutcome(y, "mismatch", problem, src[y])
    assert again[graph] == _fetch.FileOutcome(graph, "missing", "missing", src[graph])
    assert again[ty] == _fetch.FileOutcome(ty, "partial", "only a partial download (10 bytes in "
                                           ".ind.pubmed.ty.part); `ngc-ref data fetch` resumes "
                                           "it", src[ty])
    assert again[ALLX].status == "present"
    empty = {o.relpath: o for o in datasets.verify("pubmed", tmp_path / "empty")}
    assert empty[ALLX] == _fetch.FileOutcome(ALLX, "optional", "optional, absent (Pubmed then "
                                             "loads with features only for its training and "
                                             "test nodes)", src[ALLX])
    (tmp_path / y).unlink()
    done = {o.relpath: o for o in datasets.fetch("pubmed", tmp_path, base_url=served.url,
                                                 progress=False)}
    assert done[x] == _fetch.FileOutcome(x, "present", "already there, verified", src[x])


def test_a_complete_or_too_long_partial(served, tmp_path):
    # The whole file in the part: the server answers 416 to the range, the part is verified and
    # moved into place. A part longer than the file: deleted, fetched from the start.
    x, y = "planetoid/ind.pubmed.x", "planetoid/ind.pubmed.y"
    (tmp_path / "planetoid").mkdir()
    (tmp_path / "planetoid" / ".ind.pubmed.x.part").write_bytes(served.content[x])
    (tmp_path / "planetoid" / ".ind.pubmed.y.part").write_bytes(served.content[y] + b"extra")
    outcomes = {o.relpath: o.status for o in datasets.fetch("pubmed", tmp_path,
                                                             base_url=served.url,
                                                             progress=False)}
    assert outcomes[x] == outcomes[y] == "fetched"
    assert [r for r in served.requests if r[0] == served.path_of(x)] == [
        (served.path_of(x), f"bytes={len(served.content[x])}-")]
    assert [r for r in served.requests if r[0] == served.path_of(y)] == [(served.path_of(y), None)]
    assert (tmp_path / x).read_bytes() == served.content[x]
    assert (tmp_path / y).read_bytes() == served.content[y] and _leftovers(tmp_path) == []


def test_the_optional_file_truncated_is_kept_and_resumed(served, tmp_path):
    served.mode[served.path_of(ALLX)] = "truncate"
    out = {o.relpath: o for o in datasets.fetch("pubmed", tmp_path, base_url=served.url,
                                                progress=False)}
    url = f"{served.url}{served.path_of(ALLX)}"
    assert out[ALLX].status == "optional" and out[ALLX].detail == (
        f"optional, not fetched: {url}: truncated download, 2,500 of 5,000 bytes; the 2,500 "
        "bytes received are kept in .ind.pubmed.allx.part and the next `ngc-ref data fetch` "
        "resumes from there")
    served.mode.clear()
    served.requests.clear()
    out = {o.relpath: o for o in datasets.fetch("pubmed", tmp_path, base_url=served.url,
                                                progress=False)}
    assert out[ALLX].status == "fetched" and served.requests == [(served.path_of(ALLX),
                                                                   "bytes=2500-")]
    assert (tmp_path / ALLX).read_bytes() == served.content[ALLX]


def test_servers_that_ignore_the_range(served, tmp_path):
    # Without a 206 the whole file came: it is written afresh, with or without a (wrong)
    # Content-Range header, in one request.
    for mode in ("norange", "norange-cr"):
        cs = "coauthor/ms_academic_cs.npz"
        folder = tmp_path / mode / "coauthor"
        folder.mkdir(parents=True)
        (folder / ".ms_academic_cs.npz.part").write_bytes(served.content[cs][:1000])
        served.mode[served.path_of(cs)] = mode
        served.requests.clear()
        assert [o.status for o in datasets.fetch("cs", tmp_path / mode, base_url=served.url,
                                                 progress=False)] == ["fetched"]
        assert served.requests == [(served.path_of(cs), "bytes=1000-")]
        assert (folder / "ms_academic_cs.npz").read_bytes() == served.content[cs]


def test_connection_and_transfer_failures_say_what_happened(served, tmp_path):
    with pytest.raises(datasets.FetchError) as err:
        datasets.fetch("cs", tmp_path, base_url="http://127.0.0.1:9", progress=False)
    (o,) = err.value.outcomes
    assert re.fullmatch(r"http://127\.0\.0\.1:9/\S+: could not connect \(\[Errno \d+\] "
                        r"Connection refused\); nothing was written", o.detail), o.detail
    cs = "coauthor/ms_academic_cs.npz"
    served.mode[served.path_of(cs)] = "stall"          # half the bytes, then silence
    with pytest.raises(datasets.FetchError) as err:
        datasets.fetch("cs", tmp_path, base_url=served.url, progress=False, timeout=0.5)
    (o,) = err.value.outcomes
    assert re.fullmatch(rf"{re.escape(served.url)}/\S+: the transfer broke off \(timed out\); "
                        r"the [\d,]+ bytes received are kept in \.ms_academic_cs\.npz\.part "
                        r"and the next `ngc-ref data fetch` resumes from there", o.detail), o.detail


def test_fetch_root_checks_its_argument(tmp_path):
    with pytest.raises(TypeError, match=r"^root must be a str or os\.PathLike path, got int$"):
        _fetch.fetch_root(3)
    (tmp_path / "planetoid").mkdir()
    with pytest.raises(ValueError, match=r"\(the data folder\) is inside the data layout"):
        _fetch.fetch_root(tmp_path / "planetoid")
    # A base URL ending in a letter keeps it: only slashes are trimmed.
    assert _fetch.file_url("coauthor/ms_academic_phy.npz", "http://mirror/X//").startswith(
        "http://mirror/X/shchur/")


def test_a_206_without_content_range_is_not_taken_as_resumed(served, tmp_path):
    # Without a Content-Range for the requested start the answer cannot be appended: the part
    # is rewritten with what came, which is short, and kept for the next fetch.
    cs = "coauthor/ms_academic_cs.npz"
    (tmp_path / "coauthor").mkdir()
    (tmp_path / "coauthor" / ".ms_academic_cs.npz.part").write_bytes(served.content[cs][:1000])
    served.mode[served.path_of(cs)] = "206-no-range"
    with pytest.raises(datasets.FetchError, match=r"truncated download, 299,000 of 300,000 "
                                                  r"bytes"):
        datasets.fetch("cs", tmp_path, base_url=served.url, progress=False)


def test_every_resume_path_counts_each_byte_once_with_the_settings(served, tmp_path, recorded):
    # A server ignoring the range: the whole file afresh, counted once (not the part's bytes
    # too). A part longer than the file: deleted, fetched from the start. A part of the
    # file's size but other bytes: the server answers 416, the part fails its checksum and is
    # fetched once more from the start, with the same URL, bar and timeout.
    bars, timeouts = recorded
    cs, x, y = "coauthor/ms_academic_cs.npz", "planetoid/ind.pubmed.x", "planetoid/ind.pubmed.y"
    (tmp_path / "coauthor").mkdir()
    (tmp_path / "planetoid").mkdir()
    (tmp_path / "coauthor" / ".ms_academic_cs.npz.part").write_bytes(served.content[cs][:1000])
    (tmp_path / "planetoid" / ".ind.pubmed.y.part").write_bytes(served.content[y] + b"extra")
    (tmp_path / "planetoid" / ".ind.pubmed.x.part").write_bytes(b"\0" * len(served.content[x]))
    served.mode[served.path_of(cs)] = "norange"
    outcomes = datasets.fetch(None, tmp_path, base_url=served.url, timeout=7)
    assert {o.status for o in outcomes} == {"fetched"}
    (bar,) = bars
    assert sum(bar.updates) == bar.total == sum(len(b) for b in served.content.values())
    assert timeouts == [7] * len(served.requests) and len(served.requests) == 10
    assert [r for r in served.requests if r[0] == served.path_of(cs)] == [
        (served.path_of(cs), "bytes=1000-")]
    assert [r for r in served.requests if r[0] == served.path_of(y)] == [(served.path_of(y), None)]
    assert [r for r in served.requests if r[0] == served.path_of(x)] == [
        (served.path_of(x), f"bytes={len(served.content[x])}-"), (served.path_of(x), None)]
    for p, b in served.content.items():
        assert (tmp_path / p).read_bytes() == b
    assert _leftovers(tmp_path) == []


def test_a_resumed_file_failing_its_checksum_is_fetched_once_more_then_reported(served,
                                                                                 tmp_path):
    cs = "coauthor/ms_academic_cs.npz"
    (tmp_path / "coauthor").mkdir()
    (tmp_path / "coauthor" / ".ms_academic_cs.npz.part").write_bytes(served.content[cs][:1000])
    served.mode[served.path_of(cs)] = "corrupt"
    with pytest.raises(datasets.FetchError) as err:
        datasets.fetch("cs", tmp_path, base_url=served.url, progress=False)
    (o,) = err.value.outcomes
    bad = bytes(b ^ 0xFF for b in served.content[cs])
    problem = _checksums.mismatch(cs, len(bad), hashlib.sha256(bad).hexdigest(),
                                  _checksums.git_blob_sha1(bad))
    assert o.detail == (f"{served.url}{served.path_of(cs)}: checksum mismatch ({problem}); the "
                        "download was deleted, nothing was written")
    assert served.requests == [(served.path_of(cs), "bytes=1000-"), (served.path_of(cs), None)]
    assert _leftovers(tmp_path) == [] and not (tmp_path / cs).exists()


def test_no_content_length_and_a_hang_up(served, tmp_path):
    # Without a Content-Length the optional file (known by its git blob only) is read to the
    # end and verified; a server closing the connection without an answer is named as such.
    graph = "planetoid/ind.pubmed.graph"
    served.mode[served.path_of(ALLX)] = "no-length"
    served.mode[served.path_of(graph)] = "hangup"
    with pytest.raises(datasets.FetchError) as err:
        datasets.fetch("pubmed", tmp_path, base_url=served.url, progress=False)
    out = {o.relpath: o for o in err.value.outcomes}
    assert out[ALLX].status == "fetched"
    assert (tmp_path / ALLX).read_bytes() == served.content[ALLX]
    assert out[graph].detail == (f"{served.url}{served.path_of(graph)}: could not connect "
                                 "(Remote end closed connection without response); nothing "
                                 "was written")
