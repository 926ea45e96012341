"""Issue #37, part 2: the CuPy path on a real GPU, timed against torch.sparse in the same run.

On a machine with CuPy and a CUDA GPU (``benchmarks/gpu_check.sh`` runs it after the tests)::

    NGC_REF_DATA=DATA python benchmarks/gpu_check.py --out DIR
    python benchmarks/gpu_check.py --stand-in --quick --out DIR     # anywhere: checks this script

``--stand-in`` runs every step through ``tests/_fake_cupy.py`` (NumPy in CuPy's clothes, no
torch), on small graphs: it checks the script, not a device. Side by side, best of ``--repeat``
runs after a warm-up, CUDA-synchronised wall clock:

1. one product Ã X and the S = 16 propagation Ã_S X (``NeumannFilter.apply``) on Pubmed
   (d = 500) and on a 2,000,000-node random graph (mean degree 10, d = 100): CuPy (cupyx CSR)
   against ``torch.sparse.mm`` with a CSR tensor on CUDA running the same Horner steps;
2. ``gsd_solve(method="cg")`` to rtol 1e-8 at λ = 32 on Pubmed, 64 columns (the whole call),
   against Jacobi-preconditioned block CG in torch on (I + λL̃)F = X to the same tolerance;
3. exact τ on Pubmed (λ = 32, S = 16, rw; the whole ``connectivity_factor`` call) against the
   same blocks of identity columns through the same Horner steps in torch;
4. a triad a = b + s·c (one fused CuPy kernel, 2^27 float64 per array): the device's attainable
   memory bandwidth, the yardstick of the percentages.

Byte model (float64 values, int32 indices, every dense operand read or written once per pass,
the matrix once per product): a product moves 12·nnz + 4·(n+1) + 16·n·d bytes (the matrix, X
read, Y written); one plain Horner step H ← X + r·(Ã H), as the GPU path runs it, 12·nnz +
4·(n+1) + 56·n·d (product 16, H *= r 16, H += X 24); one CG iteration of ``_block_cg`` with k
columns 12·nnz + 4·(n+1) + 200·n·k (the product and 23 passes of its vector updates; k = 64
throughout, an upper bound); τ the Horner steps of every block plus 24·n·b per block (E, the
copy, the norms); the triad 24·N (STREAM's count). GB/s = bytes / time, and a percentage of
the triad's GB/s.

Writes ``DIR/gpu_check.json`` (every number, the command, the GPU model, CUDA runtime and driver,
CuPy, torch, NumPy, SciPy and Python versions, the commit) and ``DIR/gpu_check.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ngc_ref  # noqa: E402
from ngc_ref.connectivity import _BLOCK_ELEMENTS  # noqa: E402


def random_graph(n, degree, seed):
    """A symmetric 0/1 adjacency with about ``degree`` neighbours per node, no self-loop."""
    rng = np.random.default_rng(seed)
    m = n * degree // 2
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = r != c
    A = sp.csr_array((np.ones(2 * keep.sum()), (np.r_[r[keep], c[keep]], np.r_[c[keep], r[keep]])),
                     shape=(n, n))
    A.data[:] = 1.0                      # duplicates were summed
    return A


def pubmed(quick):
    """(name, adjacency): Pubmed from NGC_REF_DATA, else a random graph of its size."""
    if not quick:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                root = os.environ.get("NGC_REF_DATA")
                return "pubmed", ngc_ref.load_dataset("pubmed", root=root).adjacency
        except Exception as exc:  # no data: say so in the results, time a graph of its size
            print(f"Pubmed not loaded ({exc}); a random graph of its size instead", flush=True)
    n = 2000 if quick else 19717
    return f"random-{n}-deg4.5 (Pubmed's size)", random_graph(n, 5, seed=1)


class Clock:
    """Best wall-clock seconds of ``fn`` over ``repeat`` runs, the device synchronised."""

    def __init__(self, cp, repeat):
        self.sync, self.repeat = cp.cuda.Device().synchronize, repeat

    def __call__(self, fn, repeat=None):
        fn()                 # warm-up: kernel compilation, the memory pool
        self.sync()
        best = float("inf")
        for _ in range(repeat or self.repeat):
            self.sync()
            t = time.perf_counter()
            fn()
            self.sync()
            best = min(best, time.perf_counter() - t)
        return best


def torch_csr(torch, M):
    """A cupyx CSR matrix as a torch CSR tensor on the same memory (DLPack, no copy)."""
    f = torch.from_dlpack
    return torch.sparse_csr_tensor(f(M.indptr), f(M.indices), f(M.data), size=M.shape)


def torch_horner(torch, At, X, r, S):
    """Σ_{s<=S} (r Ã)^s X by the plain steps H ← X + r·(Ã H), as ngc_ref's GPU path runs them."""
    H = X.clone()
    for _ in range(S):
        H = torch.sparse.mm(At, H)
        H.mul_(r)
        H.add_(X)
    return H


def torch_cg(torch, At, A_diag, X, lam, rtol, maxiter=10000):
    """Jacobi-preconditioned CG, one recurrence per column, on ((1+λ)I − λÃ_sym) F = X, until
    every column's residual is below rtol·‖x_j‖ (Ã_sym's diagonal given as ``A_diag``)."""
    inv = 1.0 / ((1.0 + lam) - lam * A_diag)[:, None]

    def mul(P):
        return (1.0 + lam) * P - lam * torch.sparse.mm(At, P)

    F = torch.zeros_like(X)
    R = X.clone()
    Z = inv * R
    P = Z.clone()
    rz = (R * Z).sum(0)
    stop = rtol * torch.linalg.norm(X, dim=0)
    for it in range(1, maxiter + 1):
        Q = mul(P)
        alpha = rz / (P * Q).sum(0)
        F += alpha * P
        R -= alpha * Q
        if bool((torch.linalg.norm(R, dim=0) <= stop).all()):
            return F, it
        Z = inv * R
        rz_new = (R * Z).sum(0)
        P = Z + (rz_new / rz) * P
        rz = rz_new
    return F, maxiter


def torch_tau(torch, AnT, n, r, S, scale, block):
    """Σ_j [Ã_S]_ij² for every i: blocks of identity columns through the Horner steps."""
    out = torch.empty(n, dtype=torch.float64, device=AnT.device)
    for start in range(0, n, block):
        b = min(block, n - start)
        E = torch.zeros((n, b), dtype=torch.float64, device=AnT.device)
        E[torch.arange(start, start + b, device=AnT.device), torch.arange(b, device=AnT.device)] = 1
        H = torch_horner(torch, AnT, E, r, S)
        out[start:start + b] = (H * H).sum(0) * scale**2
    return out


def torch_side(torch, extra, fn):
    """``fn()`` (the torch side of a case), or None without torch or when it fails: the error
    is recorded in ``extra``, and the CuPy numbers, which are the point, survive it."""
    if torch is None:
        extra["torch"] = "not available"
        return None
    try:
        return fn()
    except Exception as exc:  # an unexpected torch version
        extra["torch_error"] = f"{type(exc).__name__}: {exc}"[:400]
        print("torch side failed:", extra["torch_error"], flush=True)
        return None


def row(case, graph, n, nnz, d, nbytes, cupy_s, torch_s, triad, **extra):
    rec = dict(case=case, graph=graph, n=n, nnz=nnz, d=d, bytes=nbytes, cupy_s=cupy_s,
               torch_s=torch_s, cupy_GBps=nbytes / cupy_s / 1e9, **extra)
    rec["cupy_pct_of_triad"] = 100 * rec["cupy_GBps"] / triad
    if torch_s is not None:
        rec["torch_GBps"] = nbytes / torch_s / 1e9
        rec["torch_pct_of_triad"] = 100 * rec["torch_GBps"] / triad
        rec["cupy_over_torch"] = cupy_s / torch_s
    print(json.dumps(rec), flush=True)
    return rec


def triad(cp, clock, N):
    """Attainable bandwidth, GB/s: a = b + s·c in one kernel (two passes on the stand-in)."""
    b, c, a = cp.ones(N), cp.ones(N), cp.empty(N)
    if hasattr(cp, "ElementwiseKernel"):
        kernel = cp.ElementwiseKernel("float64 b, float64 c, float64 s", "float64 a",
                                      "a = b + s * c", "ngc_ref_triad")

        def step():
            kernel(b, c, 3.0, a)
    else:
        def step():
            cp.multiply(c, 3.0, out=a)
            cp.add(a, b, out=a)
    sec = clock(step, repeat=10)
    return dict(N=N, bytes=24 * N, seconds=sec, GBps=24 * N / sec / 1e9)


def propagation_cases(cp, csp, torch, clock, name, A, d, S, triad_bw, seed):
    """One product and the S-step propagation, CuPy against torch, on one graph."""
    n = A.shape[0]
    X = cp.asarray(np.random.default_rng(seed).standard_normal((n, d)))
    filt = ngc_ref.NeumannFilter(csp.csr_matrix(sp.csr_matrix(A)), 1.0, S)
    An = filt.A_norm
    nnz = int(An.nnz)
    mat = 12 * nnz + 4 * (n + 1)
    out, extra = [], {}

    def on_torch():
        At, Xt = torch_csr(torch, An), torch.from_dlpack(X)
        H_t = torch_horner(torch, At, Xt, filt.r, S) * (1.0 / (filt.lam + 1.0))
        extra["max_abs_diff_torch"] = float((H_t - torch.from_dlpack(filt.apply(X))).abs().max())
        return (clock(lambda: torch.sparse.mm(At, Xt)),
                clock(lambda: torch_horner(torch, At, Xt, filt.r, S)))
    t_prod, t_prop = torch_side(torch, extra, on_torch) or (None, None)
    out.append(row("product", name, n, nnz, d, mat + 16 * n * d, clock(lambda: An @ X), t_prod,
                   triad_bw))
    out.append(row(f"propagation S={S}", name, n, nnz, d, S * (mat + 56 * n * d),
                   clock(lambda: filt.apply(X)), t_prop, triad_bw, **extra))
    return out


def cg_case(cp, csp, torch, clock, name, A, triad_bw, lam=32.0, k=64, rtol=1e-8):
    n = A.shape[0]
    Ag = csp.csr_matrix(sp.csr_matrix(A))
    X = cp.asarray(np.random.default_rng(2).standard_normal((n, k)))
    F, info = ngc_ref.gsd_solve(Ag, X, lam, method="cg", rtol=rtol, return_info=True)
    sec = clock(lambda: ngc_ref.gsd_solve(Ag, X, lam, method="cg", rtol=rtol), repeat=3)
    nnz = int(ngc_ref.normalized_adjacency(Ag).nnz)
    extra = dict(cupy_iterations=info.iterations, lam=lam, rtol=rtol)

    def on_torch():
        An = ngc_ref.normalized_adjacency(Ag)
        At, Xt, diag = torch_csr(torch, An), torch.from_dlpack(X), torch.from_dlpack(An.diagonal())
        F_t, its = torch_cg(torch, At, diag, Xt, lam, rtol)
        extra.update(torch_iterations=its, max_abs_diff_torch=float(
            (F_t - torch.from_dlpack(F)).abs().max()))
        return clock(lambda: torch_cg(torch, At, diag, Xt, lam, rtol), repeat=3)
    t_torch = torch_side(torch, extra, on_torch)
    its = info.iterations
    return row("CG to 1e-8, λ=32", name, n, nnz, k,
               its * (12 * nnz + 4 * (n + 1) + 200 * n * k), sec, t_torch, triad_bw, **extra)


def tau_case(cp, csp, torch, clock, name, A, triad_bw, lam=32.0, S=16):
    n = A.shape[0]
    Ag = csp.csr_matrix(sp.csr_matrix(A))
    res = ngc_ref.connectivity_factor(Ag, lam, S, norm="rw")
    sec = clock(lambda: ngc_ref.connectivity_factor(Ag, lam, S, norm="rw"), repeat=2)
    An = ngc_ref.normalized_adjacency(Ag, norm="rw")
    # The library's block on the GPU (one worker): _BLOCK_ELEMENTS // n columns, at most 1024.
    nnz, block = int(An.nnz), int(min(1024, max(1, _BLOCK_ELEMENTS // n)))
    blocks = -(-n // block)
    nbytes = blocks * S * (12 * nnz + 4 * (n + 1)) + S * 56 * n * n + 24 * n * n
    extra = dict(lam=lam, S=S, tau=res.tau, block=block)

    def on_torch():
        AnT = torch_csr(torch, An.T.tocsr())
        r, scale = lam / (lam + 1.0), 1.0 / (lam + 1.0)
        sq = torch_tau(torch, AnT, n, r, S, scale, block)
        extra["max_rel_diff_torch"] = float(np.max(np.abs(
            sq.cpu().numpy() - res.row_square_sums) / res.row_square_sums))
        return clock(lambda: torch_tau(torch, AnT, n, r, S, scale, block), repeat=2)
    t_torch = torch_side(torch, extra, on_torch)
    return row(f"exact τ (λ={lam:g}, S={S}, rw)", name, n, nnz, n, nbytes, sec, t_torch,
               triad_bw, **extra)


def environment(cp, torch, stand_in):
    rt = cp.cuda.runtime
    props = rt.getDeviceProperties(0)
    name = props["name"]
    env = dict(gpu=name.decode() if isinstance(name, bytes) else str(name),
               gpu_memory_bytes=int(props.get("totalGlobalMem", 0)),
               cuda_runtime=rt.runtimeGetVersion(), cuda_driver=rt.driverGetVersion(),
               cupy=cp.__version__, stand_in=stand_in, numpy=np.__version__,
               scipy=scipy.__version__, python=platform.python_version(),
               torch=None if torch is None else torch.__version__,
               torch_cuda=None if torch is None else torch.version.cuda,
               command=" ".join([Path(sys.executable).name, *sys.argv]),
               commit=os.environ.get("NGC_REF_COMMIT") or _git_commit())
    with contextlib.suppress(Exception):
        env["nvidia_smi"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv"],
            capture_output=True, text=True, timeout=20).stdout.strip()
    return env


def _git_commit():
    with contextlib.suppress(Exception):
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip() or None
    return None


def _torch(stand_in):
    if stand_in:
        return None
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


def markdown(env, tri, rows):
    lines = [f"# GPU check: {env['gpu']}", "",
             f"CuPy {env['cupy']}, CUDA runtime {env['cuda_runtime']}, driver "
             f"{env['cuda_driver']}, torch {env['torch']} (CUDA {env['torch_cuda']}), NumPy "
             f"{env['numpy']}, SciPy {env['scipy']}; commit {env['commit']}; "
             f"`{env['command']}`" + (" — **stand-in, not a device**" if env["stand_in"] else ""),
             "", f"Triad a = b + s·c, 2^{int(np.log2(tri['N']))} float64 per array: "
             f"**{tri['GBps']:.0f} GB/s** (24·N bytes in {tri['seconds'] * 1e3:.2f} ms).", "",
             "| case | graph | n | nnz | d | CuPy | torch | CuPy / torch | CuPy GB/s (% triad) | "
             "torch GB/s (% triad) |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        t = r["torch_s"]
        lines.append(
            f"| {r['case']} | {r['graph']} | {r['n']:,} | {r['nnz']:,} | {r['d']} | "
            f"{r['cupy_s'] * 1e3:.2f} ms | " + ("–" if t is None else f"{t * 1e3:.2f} ms") +
            " | " + ("–" if t is None else f"{r['cupy_over_torch']:.2f}") +
            f" | {r['cupy_GBps']:.0f} ({r['cupy_pct_of_triad']:.0f}%) | " +
            ("–" if t is None else f"{r['torch_GBps']:.0f} ({r['torch_pct_of_triad']:.0f}%)") +
            " |")
    lines += ["", "Byte model: see the docstring of benchmarks/gpu_check.py.", ""]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="benchmarks/results/gpu")
    parser.add_argument("--quick", action="store_true",
                        help="small graphs (2,000 and 20,000 nodes) and a 2^20 triad")
    parser.add_argument("--stand-in", action="store_true",
                        help="run through tests/_fake_cupy.py (checks the script, not a GPU)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if args.stand_in:
        sys.path.insert(0, str(ROOT / "tests"))
        import _fake_cupy
        context = _fake_cupy.installed()
    else:
        context = contextlib.nullcontext()
    with context:
        import cupy as cp
        import cupyx.scipy.sparse as csp
        torch = _torch(args.stand_in)
        env = environment(cp, torch, args.stand_in)
        print(json.dumps(env), flush=True)
        clock = Clock(cp, args.repeat)
        tri = triad(cp, clock, 2**20 if args.quick else 2**27)
        print(json.dumps(dict(triad=tri)), flush=True)
        name, P = pubmed(args.quick)
        n_big = 20_000 if args.quick else 2_000_000
        big = random_graph(n_big, 10, seed=0)
        rows = propagation_cases(cp, csp, torch, clock, name, P, 500, 16, tri["GBps"], 3)
        rows += propagation_cases(cp, csp, torch, clock, f"random-{n_big}-deg10", big, 100, 16,
                                  tri["GBps"], 4)
        rows.append(cg_case(cp, csp, torch, clock, name, P, tri["GBps"]))
        rows.append(tau_case(cp, csp, torch, clock, name, P, tri["GBps"]))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "gpu_check.json").write_text(json.dumps(dict(environment=env, triad=tri, rows=rows),
                                                   indent=1), encoding="utf-8")
    (out / "gpu_check.md").write_text(markdown(env, tri, rows), encoding="utf-8")
    print(markdown(env, tri, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
