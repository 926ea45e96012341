"""theory/output/files.py's atomic_write_text: an interrupted write leaves the old file whole.

Each test interrupts a write part-way — a writer that fails after half the text (disk full), a
real SIGINT delivered mid-write, a SIGKILL of the writing process — and checks that the file
keeps its old content byte for byte and that no temporary file is left behind (except after
SIGKILL, which no cleanup can survive: then only a hidden ``.NAME.*.tmp`` may remain).
"""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from ngc_ref_theory.output.files import atomic_write_text

from ._interrupt import NEW, OLD, interrupt_writes

def _disk_full():
    raise OSError(28, "No space left on device")


def _sigint():
    # A real signal: Python's handler raises KeyboardInterrupt at the next bytecode.
    os.kill(os.getpid(), signal.SIGINT)


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("interrupt, error", [(_disk_full, OSError),
                                              (_sigint, KeyboardInterrupt)])
def test_interrupted_write_keeps_the_old_file_whole(tmp_path, monkeypatch, interrupt, error):
    path = tmp_path / "report.md"
    path.write_text(OLD, encoding="utf-8")
    with monkeypatch.context() as m:
        interrupt_writes(m, interrupt)
        with pytest.raises(error):
            atomic_write_text(path, NEW)
    assert path.read_text(encoding="utf-8") == OLD
    assert _listing(tmp_path) == ["report.md"]          # no temporary file left
    atomic_write_text(path, NEW)                          # and the next write works
    assert path.read_text(encoding="utf-8") == NEW
    assert _listing(tmp_path) == ["report.md"]


def test_interrupted_first_write_leaves_no_file(tmp_path, monkeypatch):
    with monkeypatch.context() as m:
        interrupt_writes(m, _disk_full)
        with pytest.raises(OSError, match="No space"):
            atomic_write_text(tmp_path / "report.md", NEW)
    assert _listing(tmp_path) == []


def test_failed_rename_keeps_the_old_file_and_removes_the_temporary(tmp_path, monkeypatch):
    path = tmp_path / "report.md"
    path.write_text(OLD, encoding="utf-8")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        atomic_write_text(path, NEW)
    assert path.read_text(encoding="utf-8") == OLD
    assert _listing(tmp_path) == ["report.md"]


def test_sigkill_mid_write_keeps_the_old_file_whole(tmp_path):
    # SIGKILL cannot be caught: the writing process dies with half the text on disk. The old
    # file must still be whole; only the hidden temporary may remain.
    path = tmp_path / "report.md"
    path.write_text(OLD, encoding="utf-8")
    # The child loads only _files.py and the interrupting helper (not the checker's package)
    # and routes its writes through them, with SIGKILL as the interruption.
    import ngc_ref_theory.output.files as files

    from . import _interrupt
    script = textwrap.dedent(f"""
        import importlib.util, os, signal

        def load(name, path):
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod

        class Patch:
            setattr = staticmethod(setattr)

        files = load("_files", {files.__file__!r})
        helper = load("_interrupt", {_interrupt.__file__!r})
        helper.interrupt_writes(Patch, lambda: os.kill(os.getpid(), signal.SIGKILL))
        files.atomic_write_text({str(path)!r}, helper.NEW)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    assert path.read_text(encoding="utf-8") == OLD
    left = [name for name in _listing(tmp_path) if name != "report.md"]
    assert all(name.startswith(".report.md.") and name.endswith(".tmp") for name in left), left
    # The half-written text went to the temporary, never to the report.
    assert all(0 < (tmp_path / name).stat().st_size < len(NEW) for name in left)


def test_a_completed_write_replaces_the_whole_file(tmp_path):
    path = tmp_path / "report.md"
    path.write_text(NEW, encoding="utf-8")
    atomic_write_text(path, "short\n")   # shorter than before: nothing of the old tail stays
    assert path.read_text(encoding="utf-8") == "short\n"
    assert _listing(tmp_path) == ["report.md"]
