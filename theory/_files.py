"""Output files that are never half-written: an atomic text write and a SIGINT-free block.

The checker's report (``report.py``, ``cli.py``) and ``ngc-ref reproduce`` both stage their
files and move them into place by renames; Ctrl-C between two renames would leave a report
beside another run's figures, so the renames run with SIGINT held off (:func:`sigint_held`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
from pathlib import Path


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


__all__ = ["atomic_write_text", "sigint_held"]
