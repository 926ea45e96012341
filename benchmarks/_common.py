"""Shared helpers for the speed benchmarks: environment record, timing, STREAM triad, data."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time

import numpy as np

DATA_DEFAULT = "/work/shared/data"


def environment():
    """Versions, machine and commit, recorded in every result file."""
    import scipy
    import ngc_ref
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                    cwd=here, capture_output=True, text=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", None
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    try:
        torch_version = __import__("torch").__version__
    except ImportError:
        torch_version = None
    return {"python": sys.version.split()[0], "numpy": np.__version__,
            "scipy": scipy.__version__, "ngc_ref": ngc_ref.__version__, "torch": torch_version,
            "platform": platform.platform(), "cpu": cpu,
            "cores_available": len(os.sched_getaffinity(0)), "loadavg_at_start": load,
            "commit": commit, "dirty": dirty, "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def best_time(fn, repeat=3, min_total=0.0):
    """min wall time over ``repeat`` calls (noisy shared machine: the min is the signal)."""
    best, out = float("inf"), None
    t_start = time.perf_counter()
    k = 0
    while k < repeat or (time.perf_counter() - t_start) < min_total:
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
        k += 1
    return best, out


def triad_bandwidth(n=20_000_000, repeat=5):
    """STREAM-style triad a = b + s·c in NumPy, GB/s counting 3 arrays x 8 bytes per element.

    NumPy needs two passes (``np.multiply`` into a, then ``np.add``), which move 5 arrays'
    worth; we count the STREAM 3 (what a fused loop moves), so this is a *lower* estimate of
    the machine's bandwidth when the two passes are not cache resident. Both figures are
    returned.
    """
    b = np.random.default_rng(0).random(n)
    c = np.random.default_rng(1).random(n)
    a = np.empty(n)

    def triad():
        np.multiply(c, 3.0, out=a)
        np.add(a, b, out=a)

    triad()
    t, _ = best_time(triad, repeat=repeat)
    return {"triad_GBps_stream_count": 3 * 8 * n / t / 1e9,
            "triad_GBps_bytes_moved": 5 * 8 * n / t / 1e9, "seconds": t, "n": n}


def load_graph(name):
    """Adjacency of a real data set (NGC_REF_DATA, default /work/shared/data)."""
    import warnings
    from ngc_ref import load_dataset
    root = os.environ.get("NGC_REF_DATA") or DATA_DEFAULT
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_dataset(name, root=root).adjacency


def synthetic(n, avg_degree, seed=0):
    from ngc_ref import graphs
    return graphs.erdos_renyi(n, avg_degree / n, seed=seed)
