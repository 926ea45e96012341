"""Part 4 (issue #38): the locality order — reorder=None / "rcm" / "auto" — on four graphs.

Pubmed and Coauthor-CS (their own node orders), a random geometric graph with local structure
whose nodes are numbered in the order its points were drawn (a shuffled order), and an
Erdős–Rényi graph of the same size and mean degree, where no order has locality. For each, in one
run and interleaved (variant by variant within each repeat, so a change of the machine's load
hits all three alike), the median of ``k`` repeats of:

* the call a user makes, ``neumann_propagate(A, X, λ, S, reorder=...)``: normalisation, the
  decision, the permutation, X in and the result out included;
* a kept filter's ``filt @ X`` (the permutation made before the timing; X in and out
  included);
* the kernel alone on P Ã Pᵀ and P X (X permuted outside the timing: the issue's measure);

and the permutation's own parts: reverse Cuthill–McKee, P Ã Pᵀ, X in and out, and what "auto"
spends deciding. Ratios (none / rcm, none / auto) are between medians of the same run.

Byte model of a product (as part 2, ``bench_propagation.product_bytes``): the matrix once
(nnz values and column indices, n + 1 row pointers) plus H read once and the result written
once, 2·n·d·itemsize — the least a product must move; the fraction of the triad divides it per
product by the triad's bandwidth measured at the start of the same run, and by the median of a
triad timed in every round beside the propagations (the same load for both).
"""

from __future__ import annotations

import gc
import os
import time

import numpy as np
import scipy.sparse as sp

from ngc_ref import NeumannFilter, _order, graphs, neumann_propagate
from ngc_ref._spmm import HornerKernel
from ngc_ref.normalize import normalized_adjacency

from ._common import load_graph, threaded_triad
from .bench_propagation import product_bytes

LAM = 32.0


def geometric(n, avg_degree, seed=0):
    """Random geometric graph: n points uniform in the unit square, joined within the radius
    that gives ``avg_degree`` neighbours on average; nodes numbered in the order the points were
    drawn, i.e. in a random order with respect to space."""
    from scipy.spatial import cKDTree
    pts = np.random.default_rng(seed).random((n, 2))
    pairs = cKDTree(pts).query_pairs(np.sqrt(avg_degree / (np.pi * n)), output_type="ndarray")
    A = sp.coo_array((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    return sp.csr_array(A + A.T)


def interleaved_medians(fns, k):
    """``(wall, cpu, all wall times, results)``: the median wall-clock and CPU seconds (this
    process, all its threads: ``time.process_time``) of ``k`` rounds, each round timing every
    ``fns[name]()`` once in turn; the results of the last round. CPU time leaves out the time
    other processes held the cores, so its ratios move less with the machine's load."""
    wall, cpu = {name: [] for name in fns}, {name: [] for name in fns}
    out = {}
    for _ in range(k):
        for name, fn in fns.items():
            gc.collect()
            c, t = time.process_time(), time.perf_counter()
            out[name] = fn()
            wall[name].append(time.perf_counter() - t)
            cpu[name].append(time.process_time() - c)
    med = {name: float(np.median(ts)) for name, ts in wall.items()}
    return med, {name: float(np.median(ts)) for name, ts in cpu.items()}, wall, out


def _best(times):
    return {name: float(np.min(ts)) for name, ts in times.items()}


def _triad(n=20_000_000):
    """A function running the STREAM-style triad a = b + 3c once on every core (NumPy's two
    passes, 5 arrays of n float64 moved, as ``_common.triad_bandwidth`` counts them), and the
    bytes it moves: timed in every round beside the propagations, so that the fraction of the
    triad compares the two under the same load."""
    from concurrent.futures import ThreadPoolExecutor
    from ngc_ref_theory.output.provenance import cores
    threads = cores()
    b, c, a = np.ones(n), np.ones(n), np.empty(n)
    pool = ThreadPoolExecutor(threads)
    return threaded_triad(a, b, c, pool, threads), 5 * 8 * n, pool


def _median(fn, k):
    return interleaved_medians({"x": fn}, k)[0]["x"]


def _ratios(row, med, prefix, nbytes, S, triad_GBps):
    """none / rcm and none / auto of the medians ``med``, and each variant's fraction of the
    triad, into ``row`` under ``prefix``."""
    for what in ("call", "filter", "kernel"):
        for r in ("rcm", "auto") if what != "kernel" else ("rcm",):
            row[f"{prefix}{what}_ratio_none_over_{r}"] = med[f"{what}/None"] / med[f"{what}/{r}"]
        for r in (None, "rcm", "auto") if what != "kernel" else (None, "rcm"):
            row[f"{prefix}{what}_fraction_of_triad/{r}"] = (
                nbytes * S / med[f"{what}/{r}"] / 1e9 / triad_GBps)


def case(name, A, d, S, triad_GBps, log, k):
    n = A.shape[0]
    X = np.random.default_rng(0).standard_normal((n, d))
    An = sp.csr_array(normalized_adjacency(A, norm="sym"))
    log(f"  reorder {name}: n={n} nnz={An.nnz} d={d} S={S}, {k} rounds")
    row = {"graph": name, "n": n, "nnz": int(An.nnz), "d": d, "S": S, "lam": LAM,
           "rounds": k, "loadavg_before": os.getloadavg()}
    # The permutation's own parts.
    order = _order.rcm(An)
    row["seconds_rcm"] = _median(lambda: _order.rcm(An), k)
    row["seconds_permuted_matrix"] = _median(lambda: order.matrix(An, "benchmark"), k)
    row["seconds_x_in_and_out"] = _median(lambda: order.restore(order.take(X, "benchmark")), k)

    def decide():
        r = _order.Reorder(An, "auto")
        r.ordering(S, d, 8)
        return r.decision
    row["seconds_auto_decision"] = _median(decide, k)
    decision = decide()
    row["auto_decision"] = {f: getattr(decision, f) for f in decision.__dataclass_fields__}
    log(f"    rcm {row['seconds_rcm']:.3f} s, P A P^T {row['seconds_permuted_matrix']:.3f} s, "
        f"X in+out {row['seconds_x_in_and_out']:.3f} s, auto decides in "
        f"{row['seconds_auto_decision']:.3f} s: {decision.reason}")
    # The user's call, a kept filter, and the kernel alone.
    filters = {r: NeumannFilter(A, LAM, S, reorder=r) for r in (None, "rcm", "auto")}
    for f in filters.values():
        f @ X[:, :1]                   # make the kernels and (rcm) the permutation
        f @ X
    Ap = order.matrix(An, "benchmark")
    Xp = order.take(X, "benchmark")
    kern = {None: HornerKernel(An, LAM / (LAM + 1)), "rcm": HornerKernel(Ap, LAM / (LAM + 1))}
    fns = {}
    for r in (None, "rcm", "auto"):
        fns[f"call/{r}"] = lambda r=r: neumann_propagate(A, X, LAM, S, reorder=r)
        fns[f"filter/{r}"] = lambda r=r: filters[r] @ X
    fns["kernel/None"] = lambda: kern[None](X, S)
    fns["kernel/rcm"] = lambda: kern["rcm"](Xp, S)
    fns["triad"], triad_bytes, pool = _triad()
    med, cpu, times, out = interleaved_medians(fns, k)
    pool.shutdown()
    row["triad_GBps_in_rounds"] = triad_bytes / med["triad"] / 1e9
    ref = out["call/None"]
    diff = max(float(np.abs(out[f"call/{r}"] - ref).max()) for r in ("rcm", "auto"))
    kdiff = float(np.abs(order.restore(out["kernel/rcm"]) - out["kernel/None"]).max())
    nbytes = product_bytes(An, n, d, 8)
    row.update({"median_seconds": med, "median_cpu_seconds": cpu, "all_seconds": times,
                "max_abs_diff_vs_none": diff, "kernel_max_abs_diff": kdiff,
                "max_abs_result": float(np.abs(ref).max()),
                "bytes_per_product": nbytes, "loadavg_after": os.getloadavg()})
    _ratios(row, med, "", nbytes, S, triad_GBps)
    _ratios(row, med, "rounds_", nbytes, S, row["triad_GBps_in_rounds"])
    _ratios(row, _best(times), "best_", nbytes, S, triad_GBps)
    _ratios(row, cpu, "cpu_", nbytes, S, triad_GBps)
    # What "auto" adds to the caller's order when it keeps it: the decision, against the call.
    row["auto_decision_fraction_of_call"] = row["seconds_auto_decision"] / med["call/None"]
    log(f"    call none/rcm/auto {med['call/None']:.3f}/{med['call/rcm']:.3f}/"
        f"{med['call/auto']:.3f} s: x{row['call_ratio_none_over_rcm']:.2f} (rcm), "
        f"x{row['call_ratio_none_over_auto']:.2f} (auto); filter "
        f"x{row['filter_ratio_none_over_rcm']:.2f} / x{row['filter_ratio_none_over_auto']:.2f};"
        f" kernel x{row['kernel_ratio_none_over_rcm']:.2f}; best of {k}: call "
        f"x{row['best_call_ratio_none_over_rcm']:.2f} / x{row['best_call_ratio_none_over_auto']:.2f}"
        f", filter x{row['best_filter_ratio_none_over_rcm']:.2f} / "
        f"x{row['best_filter_ratio_none_over_auto']:.2f}; "
        f"{row['filter_fraction_of_triad/rcm']:.1%} of the triad at the start, "
        f"{row['rounds_filter_fraction_of_triad/rcm']:.1%} of the rounds' triad "
        f"({row['triad_GBps_in_rounds']:.1f} GB/s) (filter, rcm); "
        f"max |diff| {diff:.1e}")
    del filters, kern, Ap, Xp, out
    gc.collect()
    return row


def run(triad_GBps, quick=False, log=print, done=None):
    """Pubmed and Coauthor-CS at d = 128, S = 16; the 400,000-node geometric and ER graphs
    (mean degree 10) at d = 64, S = 8 (``quick``: d = 16, and fewer rounds). ``done(rows)`` is
    called after each graph with the rows so far, so that a run killed later (the 400k graphs
    hold ~2 GB) keeps what it measured."""
    k_small, k_big = (5, 2) if quick else (11, 3)
    d_big = 16 if quick else 64
    n = 400_000
    cases = [("pubmed", lambda: load_graph("pubmed"), 128, 16, k_small),
             ("coauthor-cs", lambda: load_graph("coauthor-cs"), 128, 16, k_small),
             (f"geometric-{n // 1000}k-deg10 (points in drawn order)",
              lambda: geometric(n, 10.0, seed=0), d_big, 8, k_big),
             (f"er-{n // 1000}k-deg10", lambda: graphs.erdos_renyi(n, 10.0 / n, seed=2), d_big,
              8, k_big)]
    rows = []
    for name, graph, d, S, k in cases:
        rows.append(case(name, graph(), d, S, triad_GBps, log, k))
        if done is not None:
            done(rows)
    return rows
