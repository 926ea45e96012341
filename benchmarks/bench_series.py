"""Part 1: truncated series Ã_S X vs exact (I + λL̃)⁻¹ X; time-to-accuracy of four methods."""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ngc_ref import gsd_solve, neumann_order
from ngc_ref._spmm import HornerKernel, _accumulate_rows
from ngc_ref.normalize import normalized_adjacency

from ._common import best_time, load_graph, synthetic

TOLS = (1e-3, 1e-6, 1e-8, 1e-10)
RTOLS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12)
LAMS = (1.0, 32.0, 1024.0)


def _rel(F, ref):
    return float(np.linalg.norm(F - ref) / np.linalg.norm(ref))


def series_curve(An, X, lam, ref, budget_s, s_max):
    """Rel. error of Ã_S X for S = 0, 1, ... (every product timed, error checks not timed)."""
    r = lam / (lam + 1.0)
    kern = HornerKernel(An, r)
    rA = kern._scaled_for(X.dtype)
    H = X.copy()
    Y = np.empty_like(H)
    c = 1.0 / (lam + 1.0)
    S_list, err, t_list = [0], [_rel(c * H, ref)], [0.0]
    t_acc = 0.0
    s = 0
    check_every = 1
    while s < s_max and t_acc < budget_s and err[-1] > 1e-12:
        t = time.perf_counter()
        for _ in range(check_every):
            Y[...] = X
            _accumulate_rows(rA, H, Y, 0, H.shape[0])
            H, Y = Y, H
        t_acc += time.perf_counter() - t
        s += check_every
        S_list.append(s)
        err.append(_rel(c * H, ref))
        t_list.append(t_acc)
        check_every = max(1, s // 50)  # ~50 points per decade of S
    return {"S": S_list, "rel_error": err, "seconds": t_list,
            "seconds_per_product": t_acc / max(s, 1)}


def _s_for(curve, tol, lam):
    """Smallest measured S with error <= tol, else extrapolated from the measured tail rate."""
    S, e = np.asarray(curve["S"]), np.asarray(curve["rel_error"])
    hit = np.flatnonzero(e <= tol)
    if hit.size:
        return int(S[hit[0]]), "measured"
    k = max(2, len(S) // 3)
    rate = (math.log(e[-1]) - math.log(e[-k])) / (S[-1] - S[-k])  # log error per step
    if not rate < 0:
        return None, "no decay"
    return int(S[-1] + math.ceil((math.log(tol) - math.log(e[-1])) / rate)), "extrapolated"


def solver_curve(M_args, An, X, lam, ref, method, norm="sym"):
    out = []
    for rtol in RTOLS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t, (F, info) = best_time(
                lambda rtol=rtol: gsd_solve(*M_args, X, lam, norm=norm, method=method, rtol=rtol,
                                            return_info=True, workers=1), repeat=1)
        out.append({"rtol": rtol, "seconds": t, "iterations": info.iterations,
                    "rel_error": _rel(F, ref), "converged": info.converged})
    return out


def direct_solve(An, X, lam):
    n = An.shape[0]
    M = sp.csc_matrix((1.0 + lam) * sp.identity(n) - lam * An)
    t0 = time.perf_counter()
    lu = spla.splu(M, permc_spec="MMD_AT_PLUS_A")
    t1 = time.perf_counter()
    F = lu.solve(X)
    t2 = time.perf_counter()
    return F, {"factor_s": t1 - t0, "solve_s": t2 - t1, "seconds": t2 - t0,
               "factor_nnz": int(lu.L.nnz + lu.U.nnz), "matrix_nnz": int(M.nnz)}


def time_to(curve_points, tol):
    ok = [p for p in curve_points if p["rel_error"] <= tol]
    return min((p["seconds"] for p in ok), default=None)


def run(quick=False, log=print):
    graphs = [("cora", load_graph("cora")), ("coauthor-cs", load_graph("coauthor-cs"))]
    n_syn = 50_000 if quick else 200_000
    graphs.append((f"er-{n_syn // 1000}k-deg10", synthetic(n_syn, 10.0, seed=1)))
    d = 8 if quick else 16
    budget = 10.0 if quick else 30.0
    s_max = 4000 if quick else 30000
    results = []
    for gname, A in graphs:
        An = normalized_adjacency(A, norm="sym")
        n = An.shape[0]
        X = np.random.default_rng(0).standard_normal((n, d))
        for lam in LAMS:
            if quick and lam == 1024.0 and n > 20000:
                continue
            log(f"  series {gname} n={n} lam={lam:g}")
            # Reference: CG to the rounding floor.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = gsd_solve(A, X, lam, norm="sym", method="cg", rtol=1e-14)
            sc = series_curve(An, X, lam, ref, budget, s_max)
            rec = {"graph": gname, "n": n, "nnz": int(An.nnz), "d": d, "lam": lam,
                   "series": sc, "series_S": {}, "cg_iterations": {}, "time_to": {}}
            for tol in TOLS:
                S, how = _s_for(sc, tol, lam)
                rec["series_S"][f"{tol:g}"] = {"S": S, "how": how,
                                               "bound_S": neumann_order(lam, tol),
                                               "(lam+1)ln(1/tol)": (lam + 1) * math.log(1 / tol)}
            rec["cg"] = solver_curve((A,), An, X, lam, ref, "cg")
            rec["chebyshev"] = solver_curve((A,), An, X, lam, ref, "chebyshev")
            if n <= 30000:
                F, dinfo = direct_solve(An, X, lam)
                dinfo["rel_error"] = _rel(F, ref)
                rec["direct"] = dinfo
            else:
                rec["direct"] = {"skipped": "sparse LU fill-in on a random graph of this size "
                                            "(n > 30000) exceeds memory/time; see README"}
            tpp = sc["seconds_per_product"]
            for tol in TOLS:
                S = rec["series_S"][f"{tol:g}"]["S"]
                row = {"series_s": None if S is None else S * tpp,
                       "cg_s": time_to(rec["cg"], tol),
                       "chebyshev_s": time_to(rec["chebyshev"], tol),
                       "direct_s": (rec["direct"].get("seconds")
                                    if rec["direct"].get("rel_error", 1) <= tol else None)}
                its = [p["iterations"] for p in rec["cg"] if p["rel_error"] <= tol]
                rec["cg_iterations"][f"{tol:g}"] = min(its) if its else None
                rec["time_to"][f"{tol:g}"] = row
            results.append(rec)
    return results
