"""Where a number came from: package versions and the source commit, recorded by every output.

The one home of this record for the checker's report, the sweep store and the benchmarks.
"""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from pathlib import Path


@functools.lru_cache(maxsize=1)
def versions():
    """Versions of the packages the numbers depend on, and of Python."""
    import networkx
    import numpy
    import scipy

    import ngc_ref
    return {"ngc_ref": ngc_ref.__version__, "numpy": numpy.__version__,
            "scipy": scipy.__version__, "networkx": networkx.__version__,
            "python": platform.python_version()}


def _git(args, cwd):
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10,
                         check=False)
    return out.stdout.strip() if out.returncode == 0 else None


@functools.lru_cache(maxsize=1)
def source():
    """``{"commit", "dirty", "version"}`` of the code that runs.

    ``commit`` is the git commit when this package is imported from a git checkout in which
    its files are tracked (an editable install or the source tree); otherwise ``None``, and the
    installed ``version`` identifies the code. ``dirty`` says whether tracked files differ from
    the commit (``None`` without a checkout).
    """
    import ngc_ref
    here = Path(__file__).resolve().parent
    rec = {"commit": None, "dirty": None, "version": ngc_ref.__version__}
    try:
        # A venv inside a checkout would otherwise report the checkout's commit for an
        # installed copy: the file itself must be tracked there.
        if _git(["ls-files", "--error-unmatch", Path(__file__).name], here) is None:
            return rec
        commit = _git(["rev-parse", "HEAD"], here)
        status = _git(["status", "--porcelain", "--untracked-files=no"], here)
    except (OSError, subprocess.SubprocessError):
        return rec
    if commit:
        rec.update(commit=commit, dirty=bool(status))
    return rec


def cores():
    """The cores this process may run on: its CPU affinity (all cores where the platform
    keeps none)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count()


def machine():
    """The machine: architecture, usable cores (:func:`cores`), host name."""
    return {"machine": platform.machine(), "cpus": cores(), "host": platform.node()}
