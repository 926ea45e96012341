"""Part 2: Ã_S X throughput: plain SciPy Horner vs the fused threaded kernel, vs the roofline."""

from __future__ import annotations

import gc
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

from ngc_ref._spmm import HornerKernel, SparseProduct, default_workers
from ngc_ref._spmm import horner as plain_horner  # the baseline loop
from ngc_ref.normalize import normalized_adjacency

from ._common import best_time, load_graph, synthetic


def column_block_horner(kern, X, S, k, workers):
    """The Horner loop on column blocks of k columns, each block through all S steps.

    Columns of Σ (rA)^s X are independent, so a block's three n x k buffers can stay in the
    last-level cache for all S products, and each thread owns whole blocks (no barrier per
    step). What is left to move from memory per product is the matrix alone.
    """
    rA = kern._scaled_for(X.dtype)
    out = np.empty_like(X)
    d = X.shape[1]

    def block(j):
        Xb = np.ascontiguousarray(X[:, j:j + k])
        H, Y = Xb.copy(), np.empty_like(Xb)
        with SparseProduct(rA, workers=1) as mul:
            for _ in range(S):
                mul(H, Y, Xb)
                H, Y = Y, H
        out[:, j:j + k] = H

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(block, range(0, d, k)))
    return out


def cache_block_columns(n, itemsize, workers, cache_bytes=16 * 2**20):
    """Largest power-of-two k with 3 n x k buffers per thread inside ``cache_bytes`` (0: none)."""
    k = cache_bytes // (3 * n * itemsize * workers)
    return 0 if k < 4 else 1 << (int(k).bit_length() - 1)


def product_bytes(An, n, d, itemsize):
    """Bytes one sparse x dense product must move at least: A once, H read once, Y written once."""
    idx = An.indices.dtype.itemsize
    return An.nnz * (itemsize + idx) + (n + 1) * An.indptr.dtype.itemsize + 2 * n * d * itemsize


def appnp_peers(An, X, lam, S, repeat, max_message_bytes=4 * 2**30):
    """PyTorch peers on the CPU (all cores): PyG ``APPNP`` (K=S, α=1/(λ+1)) on ``edge_index``
    (it materialises an |E| x d message tensor, so only where that fits ``max_message_bytes``)
    and on a ``torch.sparse_csr`` adjacency (PyG then calls torch's CSR product); without PyG,
    the same recursion written with ``torch.sparse``. torch is an optional benchmark
    dependency only.
    """
    try:
        import torch
    except ImportError:
        return [{"skipped": "torch not installed (optional benchmark dependency)"}]
    torch.set_num_threads(default_workers())
    C = An.tocoo()
    alpha = 1.0 / (lam + 1.0)
    Xt = torch.from_numpy(X)
    At = torch.sparse_csr_tensor(torch.from_numpy(An.indptr.astype(np.int64)),
                                 torch.from_numpy(An.indices.astype(np.int64)),
                                 torch.from_numpy(An.data.astype(X.dtype)), size=An.shape)
    runs = []
    try:
        from torch_geometric.nn import APPNP
        layer = APPNP(K=S, alpha=alpha, cached=False, add_self_loops=False, normalize=False)
        if C.nnz * X.shape[1] * X.itemsize <= max_message_bytes:
            ei = torch.from_numpy(np.vstack([C.row, C.col]).astype(np.int64))
            w = torch.from_numpy(C.data.astype(X.dtype))
            runs.append(("torch_geometric APPNP, edge_index", lambda: layer(Xt, ei, w)))
        runs.append(("torch_geometric APPNP, torch.sparse_csr adj", lambda: layer(Xt, At)))
        impl_version = __import__("torch_geometric").__version__
    except ImportError:
        def recursion():
            H = Xt
            for _ in range(S):
                H = (1 - alpha) * (At @ H) + alpha * Xt
            return H
        runs.append(("APPNP recursion, torch.sparse_csr (torch_geometric not installed)",
                     recursion))
        impl_version = None
    out = []
    for impl, fn in runs:
        with torch.no_grad():
            t, H = best_time(fn, repeat=repeat)
        out.append({"impl": impl, "torch": torch.__version__, "torch_geometric": impl_version,
                    "threads": torch.get_num_threads(), "seconds": t,
                    "seconds_per_product": t / S, "H": H.numpy()})
    return out


def case(name, A, d, S, lam, triad_GBps, log, repeat, rcm=False, peer=True):
    An = normalized_adjacency(A, norm="sym")
    del A
    n = An.shape[0]
    r = lam / (lam + 1.0)
    rows = []
    X64 = np.random.default_rng(0).standard_normal((n, d))
    log(f"  propagation {name} n={n} nnz={An.nnz} d={d}")
    t_plain, H_plain = best_time(lambda: plain_horner(An, X64, r, S), repeat=repeat)
    workers = default_workers()
    variants = [("scipy plain Horner (baseline)", t_plain, np.float64, H_plain)]
    # The kernel NeumannFilter.apply uses (An is already normalised: do not normalise twice).
    kern = HornerKernel(An, r)
    for w in sorted({1, workers}):
        t, H = best_time(lambda w=w: kern(X64, S, workers=w), repeat=repeat)
        variants.append((f"fused kernel, {w} thread(s)", t, np.float64, H))
    k = cache_block_columns(n, 8, workers)
    if k and k < d:
        t, H = best_time(lambda: column_block_horner(kern, X64, S, k, workers), repeat=repeat)
        variants.append((f"column blocks of {k} in cache, {workers} thread(s)", t, np.float64, H))
    X32 = X64.astype(np.float32)
    t32, H32 = best_time(lambda: kern(X32, S, workers=workers), repeat=repeat)
    variants.append((f"fused kernel float32, {workers} thread(s)", t32, np.float32, H32))
    if rcm:
        perm = reverse_cuthill_mckee(sp.csr_matrix(An), symmetric_mode=True)
        Ap = sp.csr_array(An[perm][:, perm])
        fp = HornerKernel(Ap, r)
        Xp = np.ascontiguousarray(X64[perm])
        t, Hp = best_time(lambda: fp(Xp, S, workers=workers), repeat=repeat)
        H = np.empty_like(Hp)
        H[perm] = Hp
        variants.append((f"fused kernel + RCM order, {workers} thread(s)", t, np.float64, H))
        del fp, Ap, Xp, Hp
    norm_ref = np.linalg.norm(H_plain)
    for label, t, dt, H in variants:
        tp = t / S
        nbytes = product_bytes(An, n, d, np.dtype(dt).itemsize)
        rows.append({"graph": name, "n": n, "nnz": int(An.nnz), "d": d, "S": S,
                     "variant": label, "dtype": np.dtype(dt).name, "seconds": t,
                     "seconds_per_product": tp, "bytes_per_product": nbytes,
                     "GBps": nbytes / tp / 1e9, "GFMAps": An.nnz * d / tp / 1e9,
                     "fraction_of_triad": nbytes / tp / 1e9 / triad_GBps,
                     "speedup_vs_plain": t_plain / t,
                     "rel_diff_vs_plain": float(np.linalg.norm(H.astype(np.float64) - H_plain)
                                                / norm_ref)})
        log(f"    {label}: {tp * 1e3:.1f} ms/product, {rows[-1]['GBps']:.2f} GB/s, "
            f"x{t_plain / t:.2f} vs plain")
    del variants, H_plain
    gc.collect()
    if peer:
        for p in appnp_peers(An, X64, lam, S, repeat):
            p.update({"graph": name, "d": d, "variant": "peer: APPNP"})
            if "seconds" in p:
                p.pop("H")  # APPNP adds r^K Ã^K X where Ã_S X has α·r^K Ã^K X: not comparable
                p["speedup_vs_plain"] = t_plain / p["seconds"]
                p["GBps"] = product_bytes(An, n, d, 8) / p["seconds_per_product"] / 1e9
                p["GFMAps"] = An.nnz * d / p["seconds_per_product"] / 1e9
                p["fraction_of_triad"] = p["GBps"] / triad_GBps
            rows.append(p)
            log(f"    peer: {p}")
    return rows


def run(triad_GBps, quick=False, log=print):
    rows = []
    rows += case("pubmed", load_graph("pubmed"), 500, 4 if quick else 8, 32.0, triad_GBps, log,
                 repeat=2 if quick else 3)
    n_big = 400_000 if quick else 2_000_000
    rows += case(f"er-{n_big // 1000}k-deg25", synthetic(n_big, 25.0, seed=2), 100,
                 2, 32.0, triad_GBps, log, repeat=1 if quick else 2, rcm=not quick,
                 peer=True)
    return rows
