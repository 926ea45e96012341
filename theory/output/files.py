"""Where a run reads and writes: output that is never half-written, one run per output folder,
and the data folder of ``NGC_REF_DATA``.

The checker's report (``ngc-ref check``) and ``ngc-ref reproduce`` both write through
:func:`staged_output`: the output folder is locked for the whole run (a second run into the
same folder stops at once, naming the first), the files are staged in a hidden folder inside it
and moved into place by renames with SIGINT held off (:func:`sigint_held`), so Ctrl-C or
``kill -9`` never leaves a report beside another run's figures. The sweep store takes the same
lock (:func:`try_lock`) on its file.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import json
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from ngc_ref.datasets import find_root

#: Prefix of the hidden staging folders inside an output folder.
STAGING_PREFIX = ".ngc-ref-staging-"
#: The lock file of an output folder (held with ``flock`` while a run writes there).
LOCK_NAME = ".ngc-ref.lock"


def _default_mode():
    """0o666 less the process umask: what ``open(path, "w")`` would have given the file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_text(path, text):
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp creates 0600; a report is meant to be shared like any other output file.
        os.fchmod(fd, _default_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def sigint_held():
    """Hold SIGINT off for the block (where the platform can); a Ctrl-C meanwhile is delivered
    when the block ends."""
    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


# ------------------------------------------------------------------------------- the lock

def try_lock(fd):
    """Take an exclusive ``flock`` on the open file ``fd`` without waiting; False when another
    open file holds it. The kernel releases it when the holder closes the file or dies (also
    by ``kill -9``), so a lock is never stale."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(path):
    """What the holder of the lock file ``path`` wrote into it (pid, start, command), or {}."""
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _describe(holder):
    if not holder:
        return "another ngc-ref run"
    return (f"another ngc-ref run (pid {holder.get('pid')}, started {holder.get('started')}: "
            f"{holder.get('command')})")


def acquire_folder_lock(folder):
    """Lock ``folder`` for this process: returns the open lock file's descriptor.

    The lock is an ``flock`` on ``folder/.ngc-ref.lock``, which holds this process's pid, start
    time and command line for the message another run gets: ``ValueError`` naming the holder.
    Release it with :func:`release_folder_lock`, which removes the file. (A file removed by
    its holder between another process's ``open`` and ``flock`` is detected by comparing
    inodes, and that process opens the new file.)
    """
    path = Path(folder) / LOCK_NAME
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if not try_lock(fd):
            os.close(fd)
            raise ValueError(f"--out {str(folder)!r} is in use by {_describe(_holder(path))}; "
                             "wait for it to finish, or write elsewhere with --out OTHER")
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    holder = {"pid": os.getpid(), "command": " ".join(["ngc-ref", *sys.argv[1:]]),
              "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(holder).encode("utf-8"), 0)
    return fd


def release_folder_lock(folder, fd):
    """Remove the lock file of ``folder`` and release the lock (in that order: see above)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(Path(folder) / LOCK_NAME)
    os.close(fd)


# ------------------------------------------------------------------------- staged output

class Staged:
    """The staging folder of one run (``.dir``) and the move of its files into ``.out``."""

    def __init__(self, out, stage):
        self.out, self.dir, self.committed = Path(out), Path(stage), False

    def commit(self, names, remove=()):
        """Move ``names`` from the staging folder into the output folder, in this order (the
        file a reader opens first last), then delete ``remove`` there; SIGINT is held off
        meanwhile, so the folder never mixes two runs' files."""
        with sigint_held():
            for name in names:
                os.replace(self.dir / name, self.out / name)
            for name in remove:
                (self.out / name).unlink(missing_ok=True)
            self.committed = True


def remove_stale_staging(folder):
    """Delete the staging folders a killed run left in ``folder`` (call with its lock held:
    then no live run owns one). Returns their names."""
    gone = []
    for p in sorted(Path(folder).glob(STAGING_PREFIX + "*")):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
            gone.append(p.name)
    return gone


def _make_folder(out):
    try:
        out.mkdir(parents=True, exist_ok=True)
        return acquire_folder_lock(out)
    except OSError as exc:
        raise ValueError(f"--out {str(out)!r} is not a writable directory: "
                         f"{exc.strerror}") from None


@contextlib.contextmanager
def staged_output(out):
    """Lock the output folder ``out`` (created if missing) for the block and yield a
    :class:`Staged` whose ``dir`` is a fresh hidden staging folder inside it.

    On entry the staging folders of killed runs are removed. On exit the staging folder is
    removed, the lock released, and ``out`` removed again if this run created it and left
    nothing in it (no commit). ``ValueError``: ``out`` cannot be created or written, or
    another run holds it (the message names that run: pid, start time, command).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report"
    >>> with staged_output(out) as staged:
    ...     _ = (staged.dir / "a.txt").write_text("done")
    ...     staged.commit(["a.txt"])
    >>> sorted(p.name for p in out.iterdir())
    ['a.txt']
    """
    out = Path(out)
    created = not out.exists()
    fd = _make_folder(out)
    staged = None
    try:
        remove_stale_staging(out)
        try:
            staged = Staged(out, tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
        except OSError as exc:
            raise ValueError(f"--out {str(out)!r} is not a writable directory: "
                             f"{exc.strerror}") from None
        try:
            yield staged
        finally:
            shutil.rmtree(staged.dir, ignore_errors=True)
    finally:
        release_folder_lock(out, fd)
        if created and not (staged and staged.committed):
            with contextlib.suppress(OSError):
                out.rmdir()   # only when empty: a store the run began stays


# ----------------------------------------------------------------------------- the data

def data_root(needed_by=None):
    """The data folder of the run as an absolute path, or None when there is none:
    ``NGC_REF_DATA`` when it is set, else the default data folder of ``ngc-ref data fetch``
    when that holds data (:func:`ngc_ref.datasets.find_root`; :func:`data_origin_line`).

    ``ValueError`` when ``NGC_REF_DATA`` is set but is not a folder (a typo must not cost a
    whole run that then skips every data set) or is a folder inside the layout (its parent
    is suggested), and when ``needed_by`` (a command that cannot run without the data, e.g.
    ``"ngc-ref reproduce"``) is given and there is no data folder.
    """
    root = os.environ.get("NGC_REF_DATA") or None
    layout = "the folder that holds planetoid/, geom-gcn/ and coauthor/ (see data/README.md)"
    if root is not None and not os.path.isdir(root):
        unset = "" if needed_by else ", or unset it to run without the data sets"
        raise ValueError(f"NGC_REF_DATA={root!r} is not a folder; set it to {layout}{unset}")
    found, why = find_root()
    if found is None:
        if needed_by:
            raise ValueError(f"{needed_by} needs the paper's data sets: run `ngc-ref data "
                             f"fetch`, or set NGC_REF_DATA to {layout}, e.g. "
                             f"NGC_REF_DATA=/path/to/data {needed_by} ({why})")
        return None
    return os.path.abspath(found)


def data_origin_line(root):
    """The line a run prints when it reads the data from the default data folder (``root``
    found without ``NGC_REF_DATA``), else None."""
    if root is None or os.environ.get("NGC_REF_DATA"):
        return None
    return (f"ngc-ref: NGC_REF_DATA is not set: reading the paper's data sets from {root}, the "
            "default data folder that `ngc-ref data fetch` filled")


__all__ = ["LOCK_NAME", "STAGING_PREFIX", "Staged", "acquire_folder_lock", "atomic_write_text",
           "data_origin_line", "data_root", "release_folder_lock", "remove_stale_staging",
           "sigint_held", "staged_output", "try_lock"]
