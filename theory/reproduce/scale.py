"""NGC and RNGC on a synthetic graph of ogbn-products' size: does the pipeline scale?

ogbn-products (tab:ogb) is not available offline. This builds an Erdős–Rényi graph with its
node and edge counts (2,449,029 nodes, 61,859,140 undirected edges: ~124 M stored entries,
``ngc_ref.graphs.erdos_renyi``, O(n + |E|)), 100 float32 features, and times the NGC
propagation and the edge-masked RNGC propagation (the paper's acceleration for this data set,
Sec. 4.2 'Scalability') with the tab:products_hyper λ and ε, reporting seconds and the peak
resident memory of the process after each step.

It runs in a fresh process so that the peak memory is this run's alone: :func:`run_scale`
starts it and reads its JSON line (by hand: ``python -m ngc_ref_theory.reproduce.scale``).
Nothing n x n is formed.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from ..output.provenance import cores

#: ogbn-products' size (the paper's Table 'stat').
PRODUCTS = {"nodes": 2_449_029, "edges": 61_859_140, "features": 100}


def _peak_gib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20   # KiB on Linux


def measure(nodes, edges, features, *, lam=32.0, S=16, eps=1e-2, seed=0):
    """Build the graph and time the propagations (in this process); a JSON-able dict."""
    import numpy as np

    from ngc_ref import neumann_propagate, robust_propagate
    from ngc_ref.graphs import erdos_renyi

    steps = []
    t_all = time.perf_counter()

    def step(name, fn):
        t0 = time.perf_counter()
        out = fn()
        steps.append({"step": name, "seconds": round(time.perf_counter() - t0, 2),
                      "peak_rss_gib": round(_peak_gib(), 3)})
        return out

    p = 2.0 * edges / (nodes * (nodes - 1.0))
    A = step(f"graph: erdos_renyi(n={nodes}, p={p:.3g})", lambda: erdos_renyi(
        nodes, p, seed=seed))
    rng = np.random.default_rng(seed + 1)
    X = step(f"features: {nodes} x {features} float32",
             lambda: rng.standard_normal((nodes, features), dtype=np.float32))
    step(f"NGC: Ã_S X (λ={lam:g}, S={S}, sym)",
         lambda: neumann_propagate(A, X, lam=lam, S=S, norm="sym"))
    step(f"RNGC, edge-masked (λ={lam:g}, S={S}, ε={eps:g})",
         lambda: robust_propagate(A, X, lam=lam, S=S, eps=eps, norm="sym",
                                  mode="edges"))
    return {"nodes": int(A.shape[0]), "edges": int(A.nnz // 2), "features": features,
            "lam": lam, "S": S, "eps": eps, "steps": steps,
            "seconds": round(time.perf_counter() - t_all, 1),
            "peak_rss_gib": round(_peak_gib(), 3), "cpus": cores()}


def run_scale(*, nodes=PRODUCTS["nodes"], edges=PRODUCTS["edges"],
              features=PRODUCTS["features"], S=16, timeout=1800):
    """:func:`measure` in a fresh Python process; its dict, or ``{"error": ...}``."""
    args = ["--nodes", str(nodes), "--edges", str(edges), "--features", str(features),
            "--S", str(S)]
    cmd = [sys.executable, "-c", "import sys; from ngc_ref_theory.reproduce.scale import main; "
           f"sys.exit(main({args!r}))"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"did not finish within {timeout} s", "command": " ".join(args)}
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["(no output)"]
        return {"error": f"exit status {proc.returncode}: {tail[0]}", "command": " ".join(args)}
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["command"] = "python -m ngc_ref_theory.reproduce.scale " + " ".join(args)
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=PRODUCTS["nodes"])
    ap.add_argument("--edges", type=int, default=PRODUCTS["edges"])
    ap.add_argument("--features", type=int, default=PRODUCTS["features"])
    ap.add_argument("--S", type=int, default=16)
    args = ap.parse_args(argv)
    print(json.dumps(measure(args.nodes, args.edges, args.features, S=args.S)))
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a subprocess
    sys.exit(main())
