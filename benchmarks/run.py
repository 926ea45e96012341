"""Run every speed benchmark of issue #6 and write JSON, a markdown summary and PNG plots.

    PYTHONPATH=. python benchmarks/run.py [--quick] [--out DIR] [--only series,propagation,tau]

``--quick`` (smaller synthetic graphs, fewer λ on them, shorter budgets) finishes in under
5 minutes on 2 cores. Timings are the minimum over repeats; ratios are measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "benchmarks"

from benchmarks import _common, bench_propagation, bench_series, bench_tau  # noqa: E402
from benchmarks._report import plots, summary  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results", "speed"))
    p.add_argument("--only", default="series,propagation,tau")
    a = p.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    parts = a.only.split(",")
    t0 = time.perf_counter()

    def log(msg):
        print(f"[{time.perf_counter() - t0:7.1f}s] {msg}", flush=True)

    res = {"command": "PYTHONPATH=. python benchmarks/run.py " + " ".join(argv or sys.argv[1:]),
           "quick": a.quick, "environment": _common.environment()}
    log("triad")
    res["triad"] = _common.triad_bandwidth()
    log(f"  {res['triad']}")
    path = os.path.join(a.out, "speed.json")
    if "series" in parts:
        res["series"] = bench_series.run(quick=a.quick, log=log)
        json.dump(res, open(path, "w"), indent=1)
    if "propagation" in parts:
        res["propagation"] = bench_propagation.run(res["triad"]["roofline_GBps"],
                                                   quick=a.quick, log=log)
        json.dump(res, open(path, "w"), indent=1)
    if "tau" in parts:
        res["tau"] = bench_tau.run(quick=a.quick, log=log)
    res["triad_end"] = _common.triad_bandwidth()
    res["total_seconds"] = time.perf_counter() - t0
    try:
        res["loadavg_at_end"] = os.getloadavg()
    except OSError:
        pass
    json.dump(res, open(path, "w"), indent=1)
    plots(res, a.out)
    with open(os.path.join(a.out, "speed.md"), "w") as f:
        f.write(summary(res))
    with open(os.path.join(a.out, "FINISHED"), "w") as f:
        f.write(f"{res['total_seconds']:.0f} s\n")
    log(f"done: {a.out}")


if __name__ == "__main__":
    main()
