"""The high-order graph connectivity factor τ (paper Definition 1, Eq. 5).

.. math::

    \\tau = \\max_i \\tau_i,\\qquad
    \\tau_i = \\frac{n \\sum_j [\\tilde{\\mathcal{A}}_S]_{ij}^2}{(1 - r^{S+1})^2}.

Row i of Ã_S is column i of Ã_Sᵀ, which is the same polynomial in Ã_normᵀ. The exact method
therefore applies that polynomial to blocks of columns of the identity with sparse products
(memory O(nnz + n·block), never n x n) and reads the squared row norms off each block.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from . import _backend
from ._memory import check_memory
from ._docs import fill_doc
from ._spmm import HornerKernel, horner, resolve_workers
from ._validation import (DEFAULT_MAX_DENSE_NODES, as_generator, check_adjacency,
                          check_dense_size, check_option, check_scalar)
from .neumann import NeumannFilter, series_mass

TAU_METHODS = ("exact", "dense", "estimate")

# Elements (n x block) of one dense block; with the Horner temporaries that is ~3 such arrays.
_BLOCK_ELEMENTS = 2**23


@dataclass(kw_only=True)
class ConnectivityResult:
    """τ and its ingredients for one graph and (λ, S, norm).

    Attributes
    ----------
    tau : float
        max_i τ_i over the nodes computed.
    tau_i : ndarray
        τ_i for each node computed (all n nodes unless ``nodes`` was given).
    nodes : ndarray
        The node indices that ``tau_i`` refers to.
    row_sums : ndarray, shape (n,)
        Ã_S 1 (exactly 1 − r^{S+1} for ``"rw"``).
    row_square_sums : ndarray
        Σ_j [Ã_S]_ij² for the nodes computed.
    argmax : int
        A node attaining τ.
    n, lam, S, norm :
        The setting.
    mass : float
        1 − r^{S+1}.
    method : str
        ``"exact"``, ``"dense"`` or ``"estimate"``.
    tau_lower, tau_upper : float
        An interval for τ. For the exact methods both equal ``tau``. For ``"estimate"``,
        ``tau_lower`` (= ``tau``) is the exact τ_i of a node, so it never exceeds the true τ,
        and τ <= ``tau_upper`` holds with probability at least ``confidence``.
    confidence : float
        1 for the exact methods; the coverage probability of ``tau_upper`` for ``"estimate"``.
    n_exact : int
        How many τ_i were computed exactly (all nodes for the exact methods; the candidate
        maximisers for ``"estimate"``).
    tau_i_lower, tau_i_upper : ndarray or None
        ``"estimate"`` only (None for the exact methods): the sketch's bracket of each τ_i,
        c·q_i/χ²_m(1 − δ/2k) and c·q_i/χ²_m(δ/2k) (c = n/mass², k = len(nodes), see
        :func:`connectivity_factor`'s Notes), before any exact recomputation; all k hold at
        once with probability >= ``confidence``, each one alone with 1 − δ/k.
    """

    tau: float
    tau_i: np.ndarray
    nodes: np.ndarray
    row_sums: np.ndarray
    row_square_sums: np.ndarray
    argmax: int
    n: int
    lam: float
    S: int
    norm: str
    mass: float
    method: str = "exact"
    tau_lower: float = float("nan")
    tau_upper: float = float("nan")
    confidence: float = 1.0
    n_exact: int = -1
    tau_i_lower: np.ndarray | None = None
    tau_i_upper: np.ndarray | None = None

    @property
    def tau_log_n_over_n(self):
        """τ·log n / n, the noise-floor term of Theorem 1."""
        return self.tau * math.log(self.n) / self.n if self.n > 1 else float("nan")


def connectivity_factor(A, lam, S, *, norm="rw", method="exact", nodes=None, block_size=None,
                        symmetrize=False, weight="weight", nodelist=None,
                        max_nodes=DEFAULT_MAX_DENSE_NODES, workers=None, n_samples=256,
                        confidence=0.99, max_candidates=256, seed=None, reorder="auto"):
    """τ and τ_i of Ã_S (paper Eq. 5), exactly and without forming Ã_S, or estimated with a bound.

    Parameters
    ----------
    %(A)s
        Read in float64, also when it is float32 (see Notes).
    %(lam)s
    %(S)s
    %(norm)s
        Default ``"rw"`` here, by that rule: the paper defines τ with the row sums 1 − r^{S+1}
        of Remark 1, which hold for D̃⁻¹Ã; ``"sym"`` gives τ of the experiments' filter.
    method : {"exact", "dense", "estimate"}
        ``"exact"``: blockwise sparse products, O(nnz + n·block·workers) memory.
        ``"dense"``: forms Ã_S (refused above ``max_nodes``); a reference for small graphs.
        ``"estimate"``: a Gaussian sketch of all row norms plus exact τ_i for the candidate
        maximisers (see Notes); for graphs where the exact cost S·nnz·n is too high.
    nodes : array_like of int, optional
        Compute τ_i only for these nodes (τ is then their max), given as row indices (for a
        networkx graph: positions in ``nodelist``). Default: all nodes.
    block_size : int, optional
        Identity columns per block (default: about 8M elements per block in all, shared by the
        workers, at most 1024 columns). The exact method holds 3·n·block_size·workers float64
        numbers at once and refuses (ValueError, with the numbers) when they exceed the memory
        budget: the available memory or ``NGC_REF_MEMORY_BUDGET`` (see :mod:`ngc_ref._memory`).
    %(graph_options)s
        Here the rows are those of ``tau_i`` and ``row_sums``, and of the indices ``nodes``
        and ``argmax``.
    workers : int or None
        Threads (default: the cores this process may use). With one block per thread, the
        blocks run concurrently; the result does not depend on it.
    n_samples : int
        ``"estimate"`` only: Gaussian probe vectors m (cost S·nnz·m; memory
        O(nnz + n·min(m, 64)), the probes go through in blocks of 64).
    confidence : float in (0, 1)
        ``"estimate"`` only: the probability 1 − δ with which ``tau_upper`` bounds τ.
    max_candidates : int
        ``"estimate"`` only: at most this many τ_i are recomputed exactly (cost S·nnz each).
    seed : None, non-negative int, numpy.random.SeedSequence or numpy.random.Generator
        ``"estimate"`` only (validated for every method).
    %(reorder)s
        ``"exact"`` makes S sparse products per block of identity columns (S·n columns in
        all), so on large graphs it is where the order pays most; ``tau_i``, ``nodes``,
        ``argmax`` and ``row_sums`` are in the caller's order.

    Returns
    -------
    ConnectivityResult

    Notes
    -----
    The exact cost is S·nnz(Ã) per column, i.e. S·nnz·n for all nodes. Everything runs in
    float64, also for a float32 adjacency (its weights are exact in float64): float32 rounding
    of Ã_norm would compound over the S steps (by about eps(float32)·min(S, λ)).

    ``"estimate"``: with Z an n x m matrix of independent N(0, 1) entries, row i of
    Y = Ã_S Z has m independent N(0, ‖b_i‖²) entries (b_i the i-th row of Ã_S), so
    q_i = ‖Y_i‖² / ‖b_i‖² follows χ²_m *exactly*. With the Bonferroni level δ/n per node,
    every ‖b_i‖² lies in [q_i / χ²_m(1 − δ/2n), q_i / χ²_m(δ/2n)] simultaneously with
    probability >= 1 − δ. Let L be the largest lower bound; every node whose upper bound is
    >= L is a candidate maximiser, and its τ_i is recomputed exactly (the
    ``max_candidates`` largest upper bounds, if there are more). Then ``tau`` = ``tau_lower``
    = the largest exact τ_i (always a true τ_i, so never above τ) and ``tau_upper`` = max of
    ``tau`` and the upper bounds of the nodes not recomputed. If all candidates were
    recomputed, ``tau_upper == tau`` unless the bounds failed (probability <= δ). ``tau_i``
    holds the sketch estimates q_i·n/(m·mass²), with the exact values where recomputed.

    Examples
    --------
    >>> import networkx as nx
    >>> from ngc_ref import connectivity_factor
    >>> res = connectivity_factor(nx.empty_graph(4), lam=64, S=64)   # isolated: τ = n
    >>> round(res.tau, 10)
    4.0
    >>> round(connectivity_factor(nx.complete_graph(4), lam=64, S=64).tau, 6)   # near 1
    1.001761
    >>> est = connectivity_factor(nx.star_graph(30), lam=4, S=8, method="estimate", seed=0)
    >>> exact = connectivity_factor(nx.star_graph(30), lam=4, S=8).tau
    >>> bool(est.tau_lower * (1 - 1e-12) <= exact <= est.tau_upper * (1 + 1e-12))  # to rounding
    True
    """
    method = check_option(method, "method", TAU_METHODS)
    rng = as_generator(seed)   # before any work, so a bad seed fails fast
    workers = resolve_workers(workers)
    # τ measures the theory, so it is computed in float64 even for a float32 adjacency (whose
    # weights are read exactly): Ã_rw rounded to float32 has rows summing to 1 − 6e-8, and
    # over S steps that error compounds (τ_i < 1 at λ = 1e6, S = 1e4, against Remark 1).
    A = check_adjacency(A, symmetrize=symmetrize, weight=weight, nodelist=nodelist)
    filt = NeumannFilter(A.astype(np.float64), lam, S, norm=norm, workers=workers,
                         reorder=reorder)
    n = filt.n
    gpu = filt._gpu
    xp, _ = _backend.namespaces(gpu)
    if nodes is None:
        nodes = np.arange(n)
    else:
        nodes = np.asarray(nodes)
        if nodes.ndim != 1 or nodes.dtype.kind not in "iu":
            raise TypeError(f"nodes must be a 1-D array of integer node indices, got "
                            f"dtype={nodes.dtype}, ndim={nodes.ndim}")
        if nodes.size == 0:
            raise ValueError("nodes must not be empty")
        if nodes.min() < 0 or nodes.max() >= n:
            raise ValueError(f"nodes must lie in [0, {n - 1}], got min={nodes.min()}, "
                             f"max={nodes.max()}")
    if n == 0:
        raise ValueError("A has no nodes; τ is undefined for an empty graph")
    mass = series_mass(filt.lam, filt.S)
    if block_size is not None:
        block_size = check_scalar(block_size, "block_size", min_val=1, integer=True)
    if method == "dense":
        check_dense_size(n, max_nodes, "connectivity_factor(method='dense')", arrays=4, gpu=gpu)
        M = filt.matrix(max_nodes=max_nodes)
        sq = (M[xp.asarray(nodes)] ** 2).sum(axis=1)
    elif method == "exact":
        sq = _row_square_sums(filt, nodes, block_size, xp, workers)
    else:
        if gpu:
            raise ValueError("method='estimate' is CPU only; use method='exact' for CuPy input")
        return _estimate(filt, nodes, mass, block_size, workers, n_samples, confidence,
                         max_candidates, rng)
    sq = _backend.to_numpy(sq)
    row_sums = _backend.to_numpy(filt.row_sums())
    tau_i = n * sq / mass**2
    k = int(np.argmax(tau_i))
    tau = float(tau_i[k])
    return ConnectivityResult(tau=tau, tau_i=tau_i, nodes=nodes, row_sums=row_sums,
                              row_square_sums=sq, argmax=int(nodes[k]), n=n, lam=filt.lam,
                              S=filt.S, norm=filt.norm, mass=mass, method=method,
                              tau_lower=tau, tau_upper=tau, confidence=1.0,
                              n_exact=len(nodes))


fill_doc(connectivity_factor)


#: ``_sparse_start`` stops once its partial sums fill this fraction of the n x block array.
SPARSE_START_DENSITY = 0.2


def _sparse_start(rAT, idx, S):
    """(H_t as a dense array, t): H_t = Σ_{s=0}^{t} (rÃᵀ)^s E for the identity columns ``idx``.

    The first Horner steps from identity columns only touch the t-hop neighbourhoods of the
    block's nodes, so they are computed with sparse products, H_{t+1} = E + rÃᵀ H_t, until the
    partial sums fill ``SPARSE_START_DENSITY`` of the block (or t = S); the dense kernel does
    the remaining S − t steps. On Pubmed (S = 16, blocks of 202 nodes) this skips 5 of the 16
    dense products per block: exact τ took 24.3 s instead of 29–31 s.
    """
    n, b = rAT.shape[0], len(idx)
    E = sp.csr_array((np.ones(b), (np.asarray(idx), np.arange(b))), shape=(n, b))
    H, t = E, 0
    while t < S and H.nnz < SPARSE_START_DENSITY * n * b:
        H = horner(rAT, E, 1.0, 1, H0=H)     # one step: E + rÃᵀ H (r already in rAT)
        t += 1
    return H.toarray(), t


def _row_square_sums(filt, nodes, block_size, xp, workers=1, method="exact"):
    """Σ_j [Ã_S]_ij² for i in ``nodes``: column norms of Ã_Sᵀ E_block, blocks on threads."""
    n = filt.n
    out = xp.empty(len(nodes), dtype=np.float64)
    scale = 1.0 / (filt.lam + 1.0)
    gpu = filt._gpu
    workers = 1 if gpu else max(1, min(workers, len(nodes)))
    if block_size is None:
        # ~8M elements in all; each worker holds ~3 n x block arrays.
        per = _BLOCK_ELEMENTS // workers
        block_size = int(min(1024, max(1, per // max(n, 1))))
        # Enough blocks that every worker gets one.
        block_size = max(1, min(block_size, -(-len(nodes) // workers)))
    # E, H and the Horner temporary: three n x block float64 arrays per worker.
    need = 3 * 8 * n * block_size * workers
    check_memory(need, f"connectivity_factor(method={method!r})",
                 "pass a smaller block_size (or fewer workers)"
                 + (", or use method='estimate'" if method == "exact" else ""),
                 detail=f"{workers} worker(s) x 3 blocks of {n} x {block_size} float64",
                 gpu=gpu)
    # The blocks run in the filter's locality order: rows of P Ã_S Pᵀ are rows of Ã_S.
    order = filt._order.ordering(filt.S * -(-len(nodes) // block_size), block_size, 8)
    at = nodes if order is None else order.positions(nodes)
    # Ã_Sᵀ is the same series in Ã_normᵀ (Ã_sym is symmetric, Ã_rwᵀ = Ã D̃⁻¹).
    AnT = filt._operator_for(np.float64, order)
    AnT = AnT.T.tocsr() if filt.norm == "rw" else AnT
    kernel = None if gpu else HornerKernel(AnT, filt.r, workers=1)
    # The same rÃᵀ (float64) the kernel multiplies by, for the sparse first steps.
    rAT = None if gpu else kernel._scaled_for(np.float64, filt.r)

    def run(start):
        idx = at[start:start + block_size]
        if gpu:
            E = xp.zeros((n, len(idx)), dtype=np.float64)
            E[xp.asarray(idx), xp.arange(len(idx))] = 1.0
            H = horner(AnT, E, filt.r, filt.S)
        else:
            H0, t = _sparse_start(rAT, idx, filt.S)
            E = np.zeros((n, len(idx)))
            E[idx, np.arange(len(idx))] = 1.0
            H = horner(kernel, E, filt.r, filt.S - t, H0=H0)
        out[start:start + len(idx)] = xp.einsum("ij,ij->j", H, H) * scale**2

    starts = range(0, len(nodes), block_size)
    if workers == 1:
        for s0 in starts:
            run(s0)
    else:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(run, starts))
    return out


#: Probe columns pushed through Ã_S at once by ``method="estimate"``.
PROBE_BLOCK = 64


def _estimate(filt, nodes, mass, block_size, workers, n_samples, confidence, max_candidates,
              rng):
    """Gaussian-sketch bounds on every τ_i, exact τ_i for the candidate maximisers."""
    from scipy.stats import chi2

    m = check_scalar(n_samples, "n_samples", min_val=1, integer=True)
    conf = check_scalar(confidence, "confidence", min_val=0.0, max_val=1.0, include_min=False,
                        include_max=False)
    max_candidates = check_scalar(max_candidates, "max_candidates", min_val=1, integer=True)
    n = filt.n
    k_nodes = len(nodes)
    # Probes go through in blocks of PROBE_BLOCK columns: memory O(nnz + n·PROBE_BLOCK) however
    # many probes, and no slower (blocks of 64-128 columns ran as fast as 256 at once on a
    # 200k-node graph). Z, Ã_S Z and the Horner temporary are alive together.
    block = min(m, PROBE_BLOCK)
    check_memory(3 * 8 * n * block, "connectivity_factor(method='estimate')",
                 "pass a smaller n_samples", detail=f"3 blocks of {n} x {block} float64")
    q = np.zeros(k_nodes)
    for start in range(0, m, block):
        # Rows of Ã_S are what τ_i measures, so probe Ã_S itself (not its transpose).
        Y = filt.apply(rng.standard_normal((n, min(block, m - start))))[nodes]
        q += np.einsum("ij,ij->i", Y, Y)
        del Y
    delta = 1.0 - conf
    lo_q = chi2.ppf(1.0 - delta / (2 * k_nodes), m)
    hi_q = chi2.ppf(delta / (2 * k_nodes), m)
    c = n / mass**2
    est = c * q / m
    lower = c * q / lo_q
    upper = c * q / hi_q
    L = float(lower.max())
    cand = np.flatnonzero(upper >= L)
    cand = cand[np.argsort(-upper[cand], kind="stable")][:max_candidates]
    sq = _row_square_sums(filt, nodes[cand], block_size, np, workers, method="estimate")
    exact_tau = c * sq
    tau_i = est.copy()
    tau_i[cand] = exact_tau
    k = int(np.argmax(exact_tau))
    tau = float(exact_tau[k])
    rest = np.ones(k_nodes, dtype=bool)
    rest[cand] = False
    tau_upper = max(tau, float(upper[rest].max())) if rest.any() else tau
    # ...but an upper bound below L cannot exceed the best exact candidate unless the bounds
    # failed, so clip to tau when every candidate was recomputed.
    if rest.any() and float(upper[rest].max()) < L:
        tau_upper = tau
    row_sums = filt.row_sums()
    row_sq = tau_i / c
    return ConnectivityResult(tau=tau, tau_i=tau_i, nodes=nodes, row_sums=row_sums,
                              row_square_sums=row_sq, argmax=int(nodes[cand[k]]), n=n,
                              lam=filt.lam, S=filt.S, norm=filt.norm, mass=mass,
                              method="estimate", tau_lower=tau, tau_upper=tau_upper,
                              confidence=conf, n_exact=len(cand), tau_i_lower=lower,
                              tau_i_upper=upper)
