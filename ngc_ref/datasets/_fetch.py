"""Download the raw data files from their source repositories at the pinned commits, and check a
data folder (``ngc-ref data fetch`` / ``ngc-ref data verify``).

Each file's URL is built from its :class:`~._checksums.Source` (repository, commit, path: the
data MANIFEST's §6) as ``{base}/{repository}/{commit}/{path}``, the raw-file address of
GitHub by default (:data:`DEFAULT_BASE_URL`; ``base_url=`` or ``NGC_REF_DATA_URL`` point it at
a mirror or a test server).

A download goes to a hidden ``.NAME.part`` file in the destination folder, is flushed to disk
(``fsync``), checked against the recorded size and sha256 (the git blob SHA-1 for the one
optional file known by that only) and only then moved into place with ``os.replace``, so the
data folder never holds a half-written or unverified file under a data file's name. A file
already there and matching its record is never downloaded or written again; one that does not
match is left alone and reported. An interrupted or truncated transfer keeps its ``.part`` file
and the next fetch resumes it with an HTTP ``Range`` request (a server that ignores the range
gets a fresh download); a resumed file that then fails its checksum is discarded and fetched
once more from the start. A server error or a checksum mismatch leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import NamedTuple

from ._checksums import CHECKSUMS, OPTIONAL_GIT_BLOBS, expected, mismatch, source
from ._geomgcn import DIRS as _GEOM_DIRS
from ._names import DATASETS, canonical_name
from ._npz import FILES as _COAUTHOR_FILES
from ._planetoid import NAMES as _PLANETOID_NAMES
from ._root import ENV_VAR, check_root, default_root

#: Where raw files are downloaded from: ``{base}/{repository}/{commit}/{path}``.
DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
#: Environment variable overriding :data:`DEFAULT_BASE_URL` (a mirror, or a test server).
URL_ENV = "NGC_REF_DATA_URL"
#: What the paper uses that no command can fetch, and why: named in every fetch's output.
NOT_FETCHED = {
    "ogbn-products": "no pinned source in the data MANIFEST (§5: not included); `ngc-ref "
                     "reproduce --scale-run` times NGC/RNGC on a synthetic graph of its size",
    "Metattack-perturbed Cora/Citeseer/Pubmed (Table 'attack')": "no pinned source in the data "
                     "MANIFEST; that table is not run",
}
_CHUNK = 1 << 16


class FileOutcome(NamedTuple):
    """What :func:`fetch` or :func:`verify` found for one file.

    ``status``: ``"present"`` (there and verified), ``"fetched"`` (downloaded, verified, moved
    into place), ``"failed"`` (could not be fetched), ``"missing"``, ``"mismatch"`` (there but
    not as recorded), ``"partial"`` (only a resumable ``.part`` download), ``"optional"`` (an
    optional file that is absent). ``detail`` says why, ``source`` where the file comes from.
    """

    relpath: str
    status: str
    detail: str
    source: str

    @property
    def ok(self):
        return self.status in ("present", "fetched", "optional")


class FetchError(OSError):
    """Some files could not be fetched; ``outcomes`` lists every file (the others are in place)."""

    def __init__(self, outcomes):
        self.outcomes = list(outcomes)
        bad = [o for o in self.outcomes if not o.ok]
        super().__init__(f"{len(bad)} of {len(self.outcomes)} data file(s) could not be "
                         "fetched: " + "; ".join(f"{o.relpath} ({o.detail})" for o in bad))


def dataset_files(name):
    """The data files of the data set ``name`` (any accepted name), relative to the data root:
    the recorded ones, then an optional one (Pubmed's ``ind.pubmed.allx``); ``[]`` for
    ``karate`` (networkx).

    Examples
    --------
    >>> from ngc_ref.datasets import dataset_files
    >>> dataset_files("cs")
    ['coauthor/ms_academic_cs.npz']
    >>> len(dataset_files("cornell")), dataset_files("pubmed")[-1]
    (12, 'planetoid/ind.pubmed.allx')
    """
    key = canonical_name(name)
    if key in _PLANETOID_NAMES:
        prefixes = (f"planetoid/ind.{key}.",)
    elif key in _GEOM_DIRS:
        d = _GEOM_DIRS[key]
        prefixes = (f"geom-gcn/{d}/", f"geom-gcn/splits/{d}_split_")
    elif key in _COAUTHOR_FILES:
        prefixes = (_COAUTHOR_FILES[key],)
    else:
        return []
    return ([p for p in CHECKSUMS if p.startswith(prefixes)]
            + [p for p in OPTIONAL_GIT_BLOBS if p.startswith(prefixes)])


def _files(names):
    names = DATASETS if names is None else ([names] if isinstance(names, str) else names)
    return list(dict.fromkeys(p for n in names for p in dataset_files(n)))


def file_url(relpath, base_url=None):
    """The URL of ``relpath``'s source file: ``{base}/{repository}/{commit}/{path}``, the base
    from ``base_url``, else ``NGC_REF_DATA_URL``, else :data:`DEFAULT_BASE_URL`.

    Examples
    --------
    >>> from ngc_ref.datasets._fetch import file_url
    >>> file_url("planetoid/ind.cora.x")
    'https://raw.githubusercontent.com/kimiyoung/planetoid/af6abf468a772cc055bec88c52e4d6f51b7c37e3/data/ind.cora.x'
    """
    base = base_url or os.environ.get(URL_ENV) or DEFAULT_BASE_URL
    src = source(relpath)
    return f"{base.rstrip('/')}/{src.repo}/{src.commit}/{urllib.parse.quote(src.path)}"


def fetch_root(root=None):
    """The folder :func:`fetch` and :func:`verify` work on: ``root``, else ``NGC_REF_DATA``,
    else :func:`default_root` (it need not exist yet), as an absolute path.

    Examples
    --------
    >>> import os
    >>> from ngc_ref.datasets import fetch_root
    >>> fetch_root("some/folder") == fetch_root(os.path.abspath("some/folder"))
    True
    """
    if root is None:
        root = os.environ.get(ENV_VAR) or default_root()
    if not isinstance(root, (str, os.PathLike)):
        raise TypeError(f"root must be a str or os.PathLike path, got {type(root).__name__}")
    path = Path(os.path.abspath(os.fspath(root)))
    if path.exists():
        check_root(path, "the data folder")
    return path


def _digests(path):
    """(size, sha256, git blob SHA-1) of a file, read in chunks."""
    size = os.path.getsize(path)
    sha, blob = hashlib.sha256(), hashlib.sha1(b"blob %d\0" % size)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            sha.update(chunk)
            blob.update(chunk)
    return size, sha.hexdigest(), blob.hexdigest()


def _part(dest):
    return dest.with_name(f".{dest.name}.part")


def verify(names=None, root=None):
    """Check the data files of ``names`` (default: every data set) in ``root`` (default: as
    :func:`fetch`) against their recorded size and sha256; returns a :class:`FileOutcome` per
    file, in order (``present``, ``missing``, ``mismatch``, ``partial`` or ``optional``).

    Examples
    --------
    >>> import tempfile
    >>> from ngc_ref.datasets import verify
    >>> [o.status for o in verify("cs", root=tempfile.mkdtemp())]
    ['missing']
    """
    root = fetch_root(root)
    out = []
    for relpath in _files(names):
        dest, src = root / relpath, str(source(relpath))
        if dest.is_file():
            problem = mismatch(relpath, *_digests(dest))
            out.append(FileOutcome(relpath, "mismatch", problem, src) if problem else
                       FileOutcome(relpath, "present", "verified", src))
        elif _part(dest).is_file():
            out.append(FileOutcome(relpath, "partial", f"only a partial download "
                                   f"({_part(dest).stat().st_size} bytes in {_part(dest).name}); "
                                   "`ngc-ref data fetch` resumes it", src))
        elif relpath in OPTIONAL_GIT_BLOBS:
            out.append(FileOutcome(relpath, "optional", "optional, absent (Pubmed then loads "
                                   "with features only for its training and test nodes)", src))
        else:
            out.append(FileOutcome(relpath, "missing", "missing", src))
    return out


class _Failed(Exception):
    """One file could not be fetched (the message says why and what was kept)."""


def fetch(names=None, root=None, *, base_url=None, progress=True, log=None, timeout=60):
    """Download the data files of ``names`` (default: every data set) into ``root`` (default:
    ``NGC_REF_DATA``, else :func:`default_root`) in the documented layout.

    Every file is verified (size and sha256) before it is moved into place; files already
    there and verified are skipped, never written again (see the module notes for partial
    and failed downloads).

    Parameters
    ----------
    names : str or sequence of str, optional
        Data set names as :func:`load_dataset` accepts them.
    root : str or os.PathLike, optional
    base_url : str, optional
        Where the repositories are served (:func:`file_url`).
    progress : bool
        A progress bar over the bytes to download (tqdm).
    log : callable, optional
        Called with one line per file fetched (e.g. ``tqdm.write``, which keeps the bar whole).
    timeout : float
        Seconds to wait for the server per request.

    Returns
    -------
    list of FileOutcome
        One per file, ``present`` or ``fetched`` (``optional`` for an optional file that could
        not be fetched, with why).

    Raises
    ------
    FetchError
        Some file could not be fetched (server error, connection, truncated transfer, checksum
        mismatch, a different file already in its place); every other file was fetched, and
        ``FetchError.outcomes`` lists them all. The optional file (Pubmed's allx) is not
        fatal: its outcome is ``optional`` with the reason.
    ValueError
        An unknown data set name, or ``root`` inside the layout.

    Examples
    --------
    Nothing listens on port 9 here, so the one file fails and says why:

    >>> import tempfile
    >>> from ngc_ref.datasets import FetchError, fetch
    >>> try:
    ...     fetch("cs", root=tempfile.mkdtemp(), base_url="http://127.0.0.1:9", progress=False)
    ... except FetchError as exc:
    ...     print(exc.outcomes[0].status, exc.outcomes[0].relpath)
    failed coauthor/ms_academic_cs.npz
    """
    relpaths = _files(names)
    root = fetch_root(root)
    todo, out = [], {}
    for relpath in relpaths:
        dest = root / relpath
        if dest.is_file():
            problem = mismatch(relpath, *_digests(dest))
            out[relpath] = (FileOutcome(relpath, "failed", f"a different file is in its place "
                                        f"({problem}); fetch never overwrites a file it did not "
                                        "verify: delete it and fetch again", str(source(relpath)))
                            if problem else FileOutcome(relpath, "present", "already there, "
                                                        "verified", str(source(relpath))))
        else:
            todo.append(relpath)
    from tqdm.auto import tqdm
    total = sum((expected(p)[0] or 0) for p in todo)
    with tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, disable=not progress,
              desc="ngc-ref data fetch", dynamic_ncols=True) as bar:
        for relpath in todo:
            src = str(source(relpath))
            try:
                size = _download(relpath, root / relpath, file_url(relpath, base_url), bar,
                                 timeout)
            except _Failed as exc:
                # an optional file (Pubmed's allx) that cannot be had is named, not fatal
                out[relpath] = (FileOutcome(relpath, "optional", f"optional, not fetched: {exc}",
                                            src) if relpath in OPTIONAL_GIT_BLOBS else
                                FileOutcome(relpath, "failed", str(exc), src))
                continue
            out[relpath] = FileOutcome(relpath, "fetched", f"{size:,} bytes, verified", src)
            if log is not None:
                log(f"fetched {relpath} ({size:,} bytes) from {src}")
    outcomes = [out[p] for p in relpaths]
    if not all(o.ok for o in outcomes):
        raise FetchError(outcomes)
    return outcomes


def _download(relpath, dest, url, bar, timeout, fresh=False):
    """Fetch ``url`` into ``dest`` through its ``.part`` file (resumed unless ``fresh``); the
    verified size. ``_Failed`` says what went wrong and what was kept."""
    want_size = expected(relpath)[0]
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = _part(dest)
    start = 0 if fresh or not part.is_file() else part.stat().st_size
    if want_size is not None and start > want_size:
        part.unlink()
        start = 0
    headers = {"User-Agent": "ngc-ref data fetch"}
    if start:
        headers["Range"] = f"bytes={start}-"
    try:
        resp = urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                      timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and start:     # the part holds the whole file already
            return _finish(relpath, dest, part, url, bar, timeout, resumed=True)
        raise _Failed(f"{url}: the server answered {exc.code} {exc.reason}; "
                      f"{_kept(part)}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise _Failed(f"{url}: could not connect ({reason}); {_kept(part)}") from None
    with resp:
        resumed = bool(start) and resp.status == 206 and re.match(
            rf"bytes {start}-", resp.headers.get("Content-Range", "")) is not None
        if start and not resumed:     # the server sent the whole file: start afresh
            start = 0
        length = resp.headers.get("Content-Length")
        total = want_size if want_size is not None else (
            start + int(length) if length is not None else None)
        if want_size is None and length is not None:
            bar.total += int(length)
            bar.refresh()
        bar.update(start)
        try:
            with open(part, "ab" if resumed else "wb") as f:
                for chunk in iter(lambda: resp.read(_CHUNK), b""):
                    f.write(chunk)
                    bar.update(len(chunk))
                f.flush()
                os.fsync(f.fileno())
        except (OSError, ValueError) as exc:   # connection reset, timeout, IncompleteRead
            raise _Failed(f"{url}: the transfer broke off ({exc}); {_kept(part)}") from None
    got = part.stat().st_size
    if total is not None and got < total:
        raise _Failed(f"{url}: truncated download, {got:,} of {total:,} bytes; "
                      f"{_kept(part)}")
    return _finish(relpath, dest, part, url, bar, timeout, resumed=resumed)


def _finish(relpath, dest, part, url, bar, timeout, resumed):
    """Verify the complete ``part`` and move it to ``dest``; a resumed one that fails is
    fetched once more from the start, a fresh one that fails is deleted."""
    problem = mismatch(relpath, *_digests(part))
    if problem:
        part.unlink()
        if resumed:
            return _download(relpath, dest, url, bar, timeout, fresh=True)
        raise _Failed(f"{url}: checksum mismatch ({problem}); the download was deleted, "
                      "nothing was written")
    os.replace(part, dest)
    _fsync_dir(dest.parent)
    return dest.stat().st_size


def _kept(part):
    if part.is_file() and part.stat().st_size:
        return (f"the {part.stat().st_size:,} bytes received are kept in {part.name} and the "
                "next `ngc-ref data fetch` resumes from there")
    with contextlib.suppress(FileNotFoundError):
        part.unlink()
    return "nothing was written"


def _fsync_dir(folder):
    """Make the rename durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
