"""A writer interrupted half-way, for tests of never-half-written files (no pytest import: a
child process loads this file by path)."""

import builtins
import io
import os

OLD = "old report\n" * 1000
NEW = "new report, longer than the old one\n" * 5000


class _HalfThenFail:
    """A text file wrapper whose ``write`` writes the first half, flushes it to disk and then
    calls ``interrupt`` (which raises, or sends a signal)."""

    def __init__(self, fh, interrupt):
        self._fh, self._interrupt = fh, interrupt

    def write(self, text):
        self._fh.write(text[:len(text) // 2])
        self._fh.flush()
        self._interrupt()
        return self._fh.write(text[len(text) // 2:])

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self._fh.__exit__(*exc)


def interrupt_writes(monkeypatch, interrupt):
    """Route every Python-level way of opening a file for writing (os.fdopen, io.open,
    open) through :class:`_HalfThenFail`, so any implementation is interrupted mid-write."""
    for module, name in ((os, "fdopen"), (io, "open"), (builtins, "open")):
        real = getattr(module, name)

        def opener(*args, _real=real, **kw):
            fh = _real(*args, **kw)
            mode = kw.get("mode", args[1] if len(args) > 1 else "r")
            return _HalfThenFail(fh, interrupt) if any(c in mode for c in "wax+") else fh

        monkeypatch.setattr(module, name, opener)
