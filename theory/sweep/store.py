"""The JSON-lines store of a sweep: one line per finished cell, appended crash-safely.

Each line is written with a single ``os.write`` of its complete bytes (newline included) on a
file descriptor opened with ``O_APPEND``, then ``fsync``-ed. A crash or Ctrl-C can therefore
leave at most one incomplete *last* line, never a damaged earlier one; :func:`open_store`
truncates such a tail before appending, and :func:`read_records` ignores it. An exclusive
``flock`` (:func:`..output.files.try_lock`, the lock of the checker's output folders too) keeps two
sweeps from appending to the same file at once.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from pathlib import Path

from ..output.files import try_lock

SCHEMA_VERSION = 1


def _finite(x):
    """JSON has no NaN/inf: they are stored as ``null`` (the lines stay strict JSON)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {str(k): _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def encode(record):
    """The bytes of one line: compact, key-sorted, strict JSON, ending in a newline."""
    text = json.dumps(_finite(record), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return (text + "\n").encode("utf-8")


#: Keys every record has; a JSON line without them is not a record of a sweep.
RECORD_KEYS = ("id", "task", "params")


def _record(line):
    """The record on one line, or None if the line is not a complete record."""
    try:
        rec = json.loads(line)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) and all(k in rec for k in RECORD_KEYS) else None


def _complete_prefix(data):
    """Length of the part of ``data`` made of complete lines: newline-terminated ones, and a
    last line without its newline when it is a whole record (a crash between the record and
    its newline cannot happen with one write, but a hand edit or a copy can drop it)."""
    end = data.rfind(b"\n") + 1
    tail = data[end:]
    if tail.strip() and _record(tail) is not None:
        return len(data)
    return end


def read_records(path):
    """All complete records of a store, in file order (a missing file has none).

    An incomplete final line (a crash during the write) is ignored; an unreadable complete line
    (the file was edited by hand) is skipped with a warning.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    records = []
    for k, line in enumerate(data[:_complete_prefix(data)].splitlines(), 1):
        if not line.strip():
            continue
        rec = _record(line)
        if rec is None:
            warnings.warn(f"{path}: line {k} is not a sweep record (JSON with "
                          f"{', '.join(RECORD_KEYS)}); skipped", RuntimeWarning, stacklevel=2)
            continue
        records.append(rec)
    return records


def finished(records):
    """``{cell id: record}``; the first record of a cell wins (later duplicates are ignored)."""
    out = {}
    for rec in records:
        out.setdefault(rec["id"], rec)
    return out


def check_writable(path):
    """Raise ``ValueError`` unless ``path`` can be created or appended to (creates nothing)."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ValueError(f"output {str(path)!r} is a directory; give a .jsonl file name")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise ValueError(f"output {str(path)!r} is not writable")
    elif not parent.is_dir():
        raise ValueError(f"output {str(path)!r}: folder {str(parent)!r} does not exist")
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"output {str(path)!r}: folder {str(parent)!r} is not writable")


class Store:
    """An open store: :meth:`append` writes one record durably. Use as a context manager."""

    def __init__(self, path):
        self.path = Path(path)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        if not try_lock(fd):
            os.close(fd)
            raise ValueError(f"output {str(self.path)!r} is being written by another sweep "
                             "(it is locked); wait for it or choose another --out") from None
        self.fd = fd
        self.truncated = self._drop_partial_tail()

    def _drop_partial_tail(self):
        size = os.fstat(self.fd).st_size
        if size == 0:
            return 0
        data = os.pread(self.fd, size, 0)
        keep = _complete_prefix(data)
        if keep < size:
            os.ftruncate(self.fd, keep)
            os.fsync(self.fd)
        elif not data.endswith(b"\n"):   # a whole last record without its newline: keep it
            os.write(self.fd, b"\n")
            os.fsync(self.fd)
        return size - keep

    def append(self, record):
        data = encode(record)
        view = memoryview(data)
        while view:  # one write in practice; the loop only guards against a short write
            written = os.write(self.fd, view)
            view = view[written:]
        os.fsync(self.fd)

    def close(self):
        if self.fd is not None:
            os.close(self.fd)   # also releases the lock
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
