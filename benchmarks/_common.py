"""Shared helpers for the speed benchmarks: environment record, timing, STREAM triad, data."""

from __future__ import annotations

import os
import platform
import time

import numpy as np

def environment():
    """Versions, machine and commit, recorded in every result file."""
    from ngc_ref_theory.output.provenance import cores, source, versions
    src, ver = source(), versions()
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
    return {"python": ver["python"], "numpy": ver["numpy"], "scipy": ver["scipy"],
            "ngc_ref": ver["ngc_ref"], "torch": torch_version,
            "platform": platform.platform(), "cpu": cpu,
            "cores_available": cores(), "loadavg_at_start": load,
            "commit": src["commit"] or "unknown", "dirty": src["dirty"],
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


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


def threaded_triad(a, b, c, pool, threads):
    """A function running the triad a = b + 3c once, in NumPy's two passes, each of ``threads``
    equal slices on ``pool`` (NumPy's ufuncs release the GIL)."""
    cuts = np.linspace(0, len(a), threads + 1).astype(int)

    def part(k):
        sl = slice(cuts[k], cuts[k + 1])
        np.multiply(c[sl], 3.0, out=a[sl])
        np.add(a[sl], b[sl], out=a[sl])

    return lambda: list(pool.map(part, range(threads)))


def triad_bandwidth(n=20_000_000, repeat=5, threads=None):
    """STREAM-style triad a = b + s·c in NumPy, on one thread and on every core.

    NumPy needs two passes (``np.multiply`` into a, then ``np.add``), which move 5 arrays'
    worth; STREAM counts 3 (what a fused loop moves). Both counts are returned, for one thread
    and for ``threads`` threads each running the triad on its own slice (NumPy's ufuncs
    release the GIL). The roofline the propagation benchmark divides by is the *largest* of
    these figures (``roofline_GBps``): the most bandwidth we have seen this machine deliver.
    """
    from concurrent.futures import ThreadPoolExecutor
    from ngc_ref_theory.output.provenance import cores
    threads = threads or cores()
    b = np.random.default_rng(0).random(n)
    c = np.random.default_rng(1).random(n)
    a = np.empty(n)
    out = {"n": n, "threads": threads}
    with ThreadPoolExecutor(threads) as pool:
        for label, fn in (("1thr", lambda: (np.multiply(c, 3.0, out=a), np.add(a, b, out=a))),
                          (f"{threads}thr", threaded_triad(a, b, c, pool, threads))):
            fn()
            t, _ = best_time(fn, repeat=repeat)
            out[f"GBps_stream_count_{label}"] = 3 * 8 * n / t / 1e9
            out[f"GBps_bytes_moved_{label}"] = 5 * 8 * n / t / 1e9
            out[f"seconds_{label}"] = t
    out["roofline_GBps"] = max(v for k, v in out.items() if k.startswith("GBps_"))
    return out


def load_graph(name):
    """Adjacency of a real data set (NGC_REF_DATA, else the default data folder of
    ``ngc-ref data fetch``: :func:`ngc_ref.datasets.find_root`)."""
    import warnings
    from ngc_ref import load_dataset
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_dataset(name).adjacency


def synthetic(n, avg_degree, seed=0):
    from ngc_ref import graphs
    return graphs.erdos_renyi(n, avg_degree / n, seed=seed)
