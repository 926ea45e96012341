"""Run every speed benchmark of issue #6 and write JSON, a markdown summary and PNG plots.

    NGC_REF_DATA=../shared/data PYTHONPATH=. python benchmarks/run.py [--quick] [--out DIR]
        [--only series,propagation,tau,reorder] [--update]

``--quick`` (smaller synthetic graphs, fewer λ on them, shorter budgets) finishes in under
5 minutes on 2 cores. Timings are the minimum over repeats; ratios are measured in the same run.
``--update`` reruns only the ``--only`` parts and keeps the other parts of ``OUT/speed.json``
(the rerun's command, environment, triad and the results it replaced are recorded under
``updates``). Every file is
written atomically (temporary file + rename): an interrupted run leaves the previous output.
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

from benchmarks import (_common, bench_propagation, bench_reorder, bench_series,  # noqa: E402
                        bench_tau)
from benchmarks._report import plots, summary  # noqa: E402
from ngc_ref_theory.output.report import atomic_write_text  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results", "speed"))
    p.add_argument("--only", default="series,propagation,tau,reorder")
    p.add_argument("--update", action="store_true",
                   help="rerun only the --only parts, keep the others from OUT/speed.json")
    a = p.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    parts = a.only.split(",")
    t0 = time.perf_counter()

    def log(msg):
        print(f"[{time.perf_counter() - t0:7.1f}s] {msg}", flush=True)

    command = ("NGC_REF_DATA=../shared/data PYTHONPATH=. python benchmarks/run.py "
               + " ".join(argv if argv is not None else sys.argv[1:])).strip()
    path = os.path.join(a.out, "speed.json")
    log("triad")
    triad = _common.triad_bandwidth()
    log(f"  {triad}")
    if a.update and os.path.exists(path):
        with open(path) as f:
            res = json.load(f)
        # What the rerun replaces is kept with it: nothing measured is lost.
        run = {"command": command, "parts": parts, "environment": _common.environment(),
               "triad": triad, "replaced": {k: res[k] for k in parts if k in res}}
        res.setdefault("updates", []).append(run)
    else:
        res = run = {"command": command, "quick": a.quick,
                     "environment": _common.environment(), "triad": triad}

    def save():
        atomic_write_text(path, json.dumps(res, indent=1))

    # The parts in this order; the two measured against the memory roofline record it.
    roofline = triad["roofline_GBps"]
    benches = {"series": lambda: bench_series.run(quick=a.quick, log=log),
               "propagation": lambda: bench_propagation.run(roofline, quick=a.quick, log=log),
               "tau": lambda: bench_tau.run(quick=a.quick, log=log),
               "reorder": lambda: bench_reorder.run(
                   roofline, quick=a.quick, log=log,
                   done=lambda rows: (res.__setitem__("reorder", rows), save()))}
    for part, bench in benches.items():
        if part in parts:
            if part in ("propagation", "reorder"):
                res[f"{part}_roofline_GBps"] = roofline
            res[part] = bench()
            save()
    run["triad_end"] = _common.triad_bandwidth()
    run["total_seconds"] = time.perf_counter() - t0
    try:
        run["loadavg_at_end"] = os.getloadavg()
    except OSError:
        pass
    save()
    plots(res, a.out)
    atomic_write_text(os.path.join(a.out, "speed.md"), summary(res))
    log(f"done: {a.out}")


if __name__ == "__main__":
    main()
