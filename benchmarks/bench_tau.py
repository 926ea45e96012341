"""Part 3: τ at scale: exact blockwise τ vs n (threads), and the sketch estimator's error."""

from __future__ import annotations

import time
import tracemalloc

from ngc_ref import connectivity_factor
from ngc_ref._spmm import default_workers

from ._common import load_graph, synthetic


def er_ring(n, avg_degree, seed):
    """Erdős–Rényi plus a Hamiltonian ring: no isolated node (which would make τ = n trivially)."""
    import numpy as np
    import scipy.sparse as sp
    A = synthetic(n, avg_degree - 2.0, seed=seed)
    i = np.arange(n)
    R = sp.csr_array((np.ones(n), (i, (i + 1) % n)), shape=(n, n))
    return sp.csr_array(((A + R + R.T) > 0).astype(np.float64))


def timed_tau(A, lam, S, **kw):
    tracemalloc.start()
    t = time.perf_counter()
    res = connectivity_factor(A, lam, S, norm="rw", **kw)
    sec = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return res, sec, peak


def run(quick=False, log=print):
    lam, S = 32.0, 16
    workers = default_workers()
    rows = []
    sizes = (2000, 5000) if quick else (2000, 5000, 10000, 20000)
    graphs = [(f"er+ring-{n}-deg10", er_ring(n, 10.0, seed=3)) for n in sizes]
    if not quick:
        graphs.append(("pubmed", load_graph("pubmed")))
    for name, A in graphs:
        n = A.shape[0]
        nnz = A.nnz + n
        rec = {"graph": name, "n": n, "nnz_with_loops": int(nnz), "lam": lam, "S": S}
        for w in sorted({1, workers}):
            if name == "pubmed" or w == workers:
                res, sec, peak = timed_tau(A, lam, S, workers=w)
                rec[f"exact_s_{w}thr"] = sec
                rec[f"exact_peak_MB_{w}thr"] = peak / 2**20
                log(f"  tau exact {name} n={n} workers={w}: {sec:.1f} s, tau={res.tau:.4f}, "
                    f"peak {peak / 2**20:.0f} MB")
        exact = res
        rec["tau_exact"] = exact.tau
        est, sec, peak = timed_tau(A, lam, S, method="estimate", n_samples=256, seed=0)
        rec.update({"estimate_s": sec, "estimate_peak_MB": peak / 2**20,
                    "tau_lower": est.tau_lower, "tau_upper": est.tau_upper,
                    "n_exact": est.n_exact, "confidence": est.confidence,
                    "estimate_rel_error": (est.tau - exact.tau) / exact.tau,
                    "bracket_holds": bool(est.tau_lower <= exact.tau * (1 + 1e-12)
                                          and exact.tau <= est.tau_upper * (1 + 1e-12)),
                    "max_rel_err_tau_i_sketch": float(abs(est.tau_i / exact.tau_i - 1).max())})
        log(f"  tau estimate {name}: {sec:.1f} s, [{est.tau_lower:.4f}, {est.tau_upper:.4f}] "
            f"vs exact {exact.tau:.4f}, {est.n_exact} exact rows")
        rows.append(rec)
    n_big = 200_000 if quick else 1_000_000
    A = er_ring(n_big, 10.0, seed=4)
    est, sec, peak = timed_tau(A, lam, S, method="estimate", n_samples=256, seed=0,
                               max_candidates=256)
    rows.append({"graph": f"er+ring-{n_big // 1000}k-deg10", "n": n_big,
                 "nnz_with_loops": int(A.nnz + n_big), "lam": lam, "S": S,
                 "estimate_s": sec, "estimate_peak_MB": peak / 2**20,
                 "tau_lower": est.tau_lower, "tau_upper": est.tau_upper,
                 "relative_width": (est.tau_upper - est.tau_lower) / est.tau_lower,
                 "n_exact": est.n_exact, "confidence": est.confidence,
                 "exact_estimated_s": None})
    log(f"  tau estimate {n_big}: {sec:.1f} s, [{est.tau_lower:.4f}, {est.tau_upper:.4f}], "
        f"{est.n_exact} exact rows, peak {peak / 2**20:.0f} MB")
    return rows
