"""Locality order of the sparse products: reverse Cuthill–McKee, decided and kept per operator.

A product Y = Ã H reads row j of H once for every nonzero (i, j), row i after row i. Between two
reads of row j (rows i < i' of column j: for the symmetric pattern of Ã, two neighbours of j)
the sweep reads about (i' − i)·(nnz/n) other rows of H; when that fits in the core's cache the
second read is a hit. Real graphs arrive in arbitrary node orders (crawl order, ids sorted by
name), so most of those gaps are long; reverse Cuthill–McKee (RCM, a breadth-first order,
:func:`scipy.sparse.csgraph.reverse_cuthill_mckee`) puts the neighbours of a node next to each
other. The operators then run on P Ã Pᵀ and P X and permute the result back:

.. math:: \\tilde{\\mathcal{A}}_S X = P^\\top\\,(P\\tilde{\\mathcal{A}}P^\\top)_S\\,(P X),

the same numbers up to the order of the sums (rounding: 1e-15 relative in float64, measured
≤ 1e-14 after 16 steps on Pubmed).

``reorder`` (the operators' parameter, checked by :func:`check_reorder`):

* ``None``: the caller's order.
* ``"rcm"``: always RCM (computed once per operator, on the host from the pattern, for CuPy
  input too: O(nnz) integers leave the device once, the permutation goes back).
* ``"auto"``: RCM where the cost model below says it pays, else the caller's order. On a GPU it
  never reorders: the model is measured on CPU caches only.

Locality. ``locality(W)`` is the fraction of the gaps between consecutive reads of a row of H
(consecutive nonzeros of a column) that are at most W rows, over a sample of :data:`SAMPLE_ROWS`
evenly spaced columns: O(sample·degree) integers. W = :data:`CACHE_BYTES` / (row bytes · nnz/n),
the rows the sweep can read between two reads of one row before the core's cache (1 MiB: the L2
of current x86 cores) has turned over. Measured at W = 128 (d = 128, float64; before → after
RCM): Pubmed 0.11 → 0.45, Coauthor-CS 0.13 → 0.49, Coauthor-Physics 0.12 → 0.51, a shuffled
geometric graph 0.01 → 0.82, an Erdős–Rényi graph 0.01 → 0.08.

Random graphs. Erdős–Rényi, random regular and Barabási–Albert graphs have no order with short
gaps (every order has bandwidth ~n), and they are told apart cheaply, before RCM is computed:
breadth-first balls of :data:`BALL_NODES` nodes from :data:`BALL_SEEDS` evenly spaced seeds are
*locally tree-like and expanding* — fewer than :data:`CYCLE_MIN` of the entries that a spanning
tree of the ball does not need stay inside it, and more than :data:`EXPANSION_MIN` of its
volume leaves it. Measured (fraction inside, fraction leaving): ER degree 10 (0.002, 0.82),
ER degree 3 (0.001, 0.50), random 4-regular (0.001, 0.50), Barabási–Albert m = 5 (0.010, 0.97);
the real graphs all keep cycles inside their balls: Pubmed (0.12, 0.73), Coauthor-CS
(0.22, 0.69), Coauthor-Physics (0.26, 0.68), Cora (0.36, 0.42), CiteSeer (0.30, 0.11); a path or
a tree has no cycles but no expansion either (0.00, ≤ 0.06), a grid or geometric graph both
(≥ 0.83, ≤ 0.09). The balls cost O(seeds · ball · degree), independent of n.

Cost model of ``"auto"``, in units of the time a product spends per byte of a row of H it reads
(:data:`COSTS`):

* one product: nnz · (row_bytes + ``base``), the cost of the gathers in the caller's order;
* RCM: nnz · ``rcm``; the permuted copy P Ã Pᵀ: nnz · ``matrix``; X in and the result out:
  n · row_bytes · ``rows``;
* measuring the graph (the locality sample and the balls below, about
  (min(n, :data:`SAMPLE_ROWS`) + :data:`BALL_SEEDS` · :data:`BALL_NODES`) · nnz/n entries read,
  sorted and deduplicated): ``measure`` per entry;
* a product in the new order saves the fraction locality_after − locality_before of its cost
  (an underestimate on every graph measured: Pubmed saves 0.49 of a product where the locality
  gains 0.34).

Measured (medians of 5 runs on a shared 2-core AMD EPYC, float64, on Pubmed, Coauthor-CS and
400,000-node geometric and ER graphs): a product costs 0.17-2.3 ns per nonzero and byte of row
(0.3-0.9 for rows of 1-4 KB); RCM 16-190 ns per nonzero, i.e. 84-230 units; P Ã Pᵀ 35-145 ns,
98-180 units; X in and out 0.3-6 ns per byte, 1-11 units; measuring 65-300 ns per entry,
400-860 units (Cora, Pubmed at d = 16 and 128, ER graphs of 3,000 and 20,000 nodes; one outlier
of 2,500 under a load of 5). The constants sit at or above nearly all of these (rcm 300, matrix
200, rows 6, measure 1000), so the model errs towards keeping the caller's order.

``"auto"`` reorders when, for the number of products the call makes (S for the series, an
estimate of the iterations for the solvers, S per block for τ; a call of none, S = 0, keeps
the caller's order):

1. X does not fit in the cache (n · row_bytes > :data:`CACHE_BYTES`: no gap is long then);
2. the graph is not random (the balls above);
3. even the best case, every product saving all of its misses (1 − locality_before), pays for
   RCM, P Ã Pᵀ and the permutations of X — only then is RCM computed, so where reordering
   cannot pay nothing is spent but the sample (and not even the sample where turning every
   read into a hit would not pay, or where measuring would cost more than
   :data:`MEASURE_SHARE` of the call's products: the graph is measured once per operator, and
   a call that keeps the caller's order then costs at most that share more than
   ``reorder=None``);
4. the locality RCM reaches, measured on the same sample, gains at least :data:`MIN_GAIN` and
   its saving pays for P Ã Pᵀ and the permutations of X (RCM is spent by then).

An operator keeps what it learnt (the permutation, the localities, whether P Ã Pᵀ is made), so a
second call pays only for what it still needs.

Examples
--------
S = 16 products on 32 float64 columns: a grid in a shuffled order is reordered, a random graph
is left alone without computing RCM.

>>> import numpy as np
>>> from ngc_ref import graphs, normalized_adjacency
>>> from ngc_ref._order import Reorder
>>> p = np.random.default_rng(0).permutation(128 * 128)
>>> grid = Reorder(normalized_adjacency(graphs.grid(128, 128)[p][:, p], norm="sym"), "auto")
>>> grid.ordering(16, 32, 8) is not None, grid.decision.reason
(True, 'RCM pays')
>>> er = Reorder(normalized_adjacency(graphs.erdos_renyi(20000, 8 / 20000, seed=0), norm="sym"),
...              "auto")
>>> er.ordering(16, 32, 8), er.decision.reason, er.order
(None, 'a random graph: no order has short gaps', None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from . import _backend, _memory
from ._spmm import take_rows

#: The values of ``reorder``.
REORDERS = ("auto", "rcm", None)

#: The cache (bytes) a row of H must stay in between two reads to be a hit: the per-core L2
#: of current x86 CPUs (1 MiB on the machine measured; 1-2 MiB on recent Intel and AMD cores).
CACHE_BYTES = 1 << 20

#: Columns sampled for the locality (evenly spaced; all of them for smaller graphs).
SAMPLE_ROWS = 2048

#: Breadth-first balls of the random-graph test: seeds, nodes per ball, levels at most.
BALL_SEEDS = 4
BALL_NODES = 256
BALL_LEVELS = 64

#: A ball with fewer than this fraction of its non-tree entries inside ...
CYCLE_MIN = 0.05
#: ... and more than this fraction of its volume leaving it is a random graph's.
EXPANSION_MIN = 0.3

#: The locality gain below which a reorder is not trusted to pay (ER: 0.07; real graphs >= 0.2).
MIN_GAIN = 0.1

#: The cost model (see the module docstring), in bytes of gathered rows per nonzero / per byte
#: / per entry measured.
COSTS = {"base": 16.0, "rcm": 300.0, "matrix": 200.0, "rows": 6.0, "measure": 1000.0}

#: The graph is measured only where that costs at most this share of the call's products in
#: the caller's order: what "auto" may lose when it then keeps that order (issue #38: within
#: 5 % of reorder=None).
MEASURE_SHARE = 0.05


def check_reorder(reorder):
    """``reorder`` if it is one of :data:`REORDERS`, else ValueError listing them."""
    if reorder is None or (isinstance(reorder, str) and reorder in REORDERS):
        return reorder
    raise ValueError(f"reorder must be one of 'auto', 'rcm' or None; got {reorder!r}")


def _segments(indptr, rows):
    """(positions into ``indices``, owner of each): the entries of ``rows``, row by row."""
    starts, counts = indptr[rows], indptr[rows + 1] - indptr[rows]
    owner = np.repeat(np.arange(len(rows)), counts)
    first = np.cumsum(counts) - counts
    return np.arange(int(counts.sum())) - np.repeat(first - starts, counts), owner


@dataclass(frozen=True)
class Ordering:
    """A permutation of the nodes: position k of the new order holds the caller's node
    ``perm[k]``, and the caller's node i sits at ``inv[i]`` (NumPy arrays, or CuPy arrays for
    an operator on the GPU)."""

    perm: object
    inv: object
    gpu: bool = False

    def take(self, X, what, work_arrays=0):
        """P X: the rows of ``X`` (1-D or n x d) in the new order, a new array. It and
        ``work_arrays`` more arrays like it must fit the memory budget."""
        _memory.check_dense_work(X.shape if X.ndim == 2 else (X.shape[0], 1), X.itemsize,
                                 1 + work_arrays, what, "pass reorder=None",
                                 detail="X in the locality order and the product's buffers",
                                 gpu=self.gpu)
        return self._rows(X, self.perm)

    def restore(self, Y):
        """Pᵀ Y: rows of a result in the new order back in the caller's."""
        return self._rows(Y, self.inv)

    def _rows(self, X, index):
        """``X[index]``: CuPy's on the GPU, on CPU threads for NumPy
        (:func:`ngc_ref._spmm.take_rows`)."""
        return X[index] if self.gpu else take_rows(X, index)

    def positions(self, nodes):
        """Where the caller's ``nodes`` (a NumPy index array) sit in the new order."""
        return _backend.to_numpy(self.inv)[nodes]

    def matrix(self, A, what):
        """P A Pᵀ as CSR with sorted indices (A: square CSR on the ordering's device), through
        the memory guard: its values and indices, and the O(nnz) indices that build it."""
        n, nnz = A.shape[0], A.nnz
        _memory.check_memory(nnz * (A.data.itemsize + 4 * A.indices.itemsize) + 8 * (n + 1),
                             what, "pass reorder=None",
                             detail=f"the adjacency in the locality order ({nnz} nonzeros)",
                             gpu=self.gpu)
        if self.gpu:
            # cupyx has no fancy indexing of both axes: through COO (entries renamed).
            C = A.tocoo()
            B = _backend.csr_type(True)((C.data, (self.inv[C.row], self.inv[C.col])),
                                        shape=A.shape)
        else:
            B = sp.csr_array(A[self.perm][:, self.perm])
        B.sort_indices()
        return B


def rcm(A, gpu=False):
    """The reverse Cuthill–McKee :class:`Ordering` of the symmetric pattern of ``A``."""
    from scipy.sparse.csgraph import reverse_cuthill_mckee
    indptr, indices = _backend.to_numpy(A.indptr), _backend.to_numpy(A.indices)
    n = A.shape[0]
    # The pattern only (the values do not matter), as SciPy's CSR matrix its function takes.
    pattern = sp.csr_matrix((np.ones(len(indices), dtype=np.int8), indices, indptr),
                            shape=(n, n))
    perm = np.asarray(reverse_cuthill_mckee(pattern, symmetric_mode=True), dtype=np.int64)
    inv = np.empty_like(perm)
    inv[perm] = np.arange(n)
    if gpu:
        xp, _ = _backend.namespaces(True)
        perm, inv = xp.asarray(perm), xp.asarray(inv)
    return Ordering(perm, inv, gpu)


def measured_entries(n, nnz):
    """About how many entries of the pattern ``"auto"`` reads to measure a graph of n nodes and
    nnz nonzeros: the sampled columns of :func:`reuse_gaps` and the balls of
    :func:`random_like`, each of mean degree nnz / n."""
    return (min(n, SAMPLE_ROWS) + BALL_SEEDS * BALL_NODES) * nnz / max(n, 1)


def _sample(n):
    """Up to :data:`SAMPLE_ROWS` evenly spaced indices of 0..n-1."""
    return np.unique(np.linspace(0, n - 1, min(n, SAMPLE_ROWS)).astype(np.int64))


def reuse_gaps(indptr, indices, order=None):
    """Gaps between consecutive nonzeros of sampled columns (rows of the symmetric pattern):
    in the caller's order, or in ``order``'s (an :class:`Ordering` on the host), the sample
    taken at evenly spaced positions of that order."""
    cols = _sample(len(indptr) - 1)
    if order is not None:
        cols = order.perm[cols]                  # the nodes at those new positions
    src, owner = _segments(indptr, cols)
    rows = indices[src] if order is None else order.inv[indices[src]]
    # One int64 key, column then row, sorted: np.lexsort of the two was ~6 ms for 18,000
    # entries, more than RCM itself on graphs of a few thousand nodes.
    n = len(indptr) - 1
    key = np.sort(owner * n + rows)
    return np.diff(key)[key[1:] // n == key[:-1] // n]


def locality(gaps, window):
    """Fraction of the reuse ``gaps`` of at most ``window`` rows (1 where there are none)."""
    return float(np.mean(gaps <= window)) if len(gaps) else 1.0


def random_like(indptr, indices):
    """``(verdict, cycles, expansion)``: whether breadth-first balls look like a random
    graph's. Balls of :data:`BALL_NODES` nodes (at most :data:`BALL_LEVELS` levels) grow from
    :data:`BALL_SEEDS` evenly spaced seeds; ``cycles`` is the fraction of their off-diagonal
    entries beyond a spanning tree's 2(size − 1) that stay inside, ``expansion`` the fraction
    of all their off-diagonal entries that leave. Random: ``cycles`` < :data:`CYCLE_MIN` (locally
    tree-like) and ``expansion`` > :data:`EXPANSION_MIN`."""
    n = len(indptr) - 1
    seen = np.zeros(n, dtype=bool)
    inside = spare = leaving = volume = 0
    for seed in (np.arange(BALL_SEEDS) * n) // BALL_SEEDS + n // (2 * BALL_SEEDS):
        ball, front, size = [np.array([seed])], np.array([seed]), 1
        seen[seed] = True
        for _ in range(BALL_LEVELS):
            if size >= BALL_NODES or not len(front):
                break
            nb = np.unique(indices[_segments(indptr, front)[0]])
            front = nb[~seen[nb]][:BALL_NODES - size]
            seen[front] = True
            ball.append(front)
            size += len(front)
        members = np.concatenate(ball)
        src, owner = _segments(indptr, members)
        cols = indices[src]
        cols = cols[cols != members[owner]]          # the diagonal is no edge
        kept = int(seen[cols].sum())
        inside += kept - 2 * (size - 1)
        spare += len(cols) - 2 * (size - 1)
        leaving += len(cols) - kept
        volume += len(cols)
        seen[members] = False
    cycles = inside / spare if spare > 0 else 0.0
    expansion = leaving / volume if volume else 0.0
    return cycles < CYCLE_MIN and expansion > EXPANSION_MIN, cycles, expansion


@dataclass(frozen=True)
class Decision:
    """What ``reorder="auto"`` decided for one call, and from what (``nan``: not measured).

    ``window``: W in rows; ``before``/``after``: the locality at W in the caller's order and
    in RCM's; ``cycles``/``expansion``: the random-graph test of :func:`random_like`;
    ``saving``/``cost``: the model's predicted saving and the cost it had to pay for, in units
    of a byte of gathered row (see the module docstring)."""

    reorder: bool
    reason: str
    window: int = 0
    before: float = math.nan
    after: float = math.nan
    cycles: float = math.nan
    expansion: float = math.nan
    saving: float = math.nan
    cost: float = math.nan


class Reorder:
    """The locality order of one operator's matrix ``A`` (square CSR with a symmetric pattern):
    the ``reorder`` option, the permutation once computed, what ``"auto"`` measured (computed
    once and kept: the operator asks again for every call), and the last :class:`Decision`."""

    def __init__(self, A, reorder, *, gpu=False):
        self.option = check_reorder(reorder)
        self.A, self.gpu = A, gpu
        self.order = None            # the Ordering, once computed
        self.matrix_made = False     # a P A Pᵀ exists (the operator keeps it)
        self.decision = None
        self._measured = {}

    def ordering(self, products, columns, itemsize):
        """The :class:`Ordering` a call of ``products`` sparse products on ``columns`` columns
        of ``itemsize`` bytes should run in, or None for the caller's order."""
        if self.option is None or self.A.shape[0] < 2:
            return None
        if self.option == "auto":
            self.decision = self._decide(products, columns, itemsize)
            if not self.decision.reorder:
                return None
        return self._rcm()

    def matrix(self, M, what):
        """P M Pᵀ in the order of :meth:`ordering` (M: the operator's matrix or its transpose)."""
        self.matrix_made = True
        return self._rcm().matrix(M, what)

    def _rcm(self):
        if self.order is None:
            self.order = rcm(self.A, self.gpu)
        return self.order

    def _measure(self, key, compute):
        if key not in self._measured:
            self._measured[key] = compute()
        return self._measured[key]

    def _decide(self, products, columns, itemsize):
        """The :class:`Decision` of ``"auto"``: steps 1-4 of the module docstring."""
        n, nnz = self.A.shape[0], self.A.nnz
        row_bytes = columns * itemsize
        if self.gpu:
            return Decision(False, "on a GPU (the cost model is measured on CPU caches)")
        if products < 1:
            return Decision(False, "no products: nothing to reorder for")
        if n * row_bytes <= CACHE_BYTES:
            return Decision(False, "the rows of X fit in the cache: every order reads them "
                                   "from it")
        product = nnz * (row_bytes + COSTS["base"])
        cost = (COSTS["rows"] * n * row_bytes
                + (0.0 if self.matrix_made else COSTS["matrix"] * nnz))
        ahead = cost + (0.0 if self.order is not None else COSTS["rcm"] * nnz)
        few = "too few products: even the best order would not pay for the permutation"
        if products * product < ahead:         # not even every read turned into a hit
            return Decision(False, few, saving=products * product, cost=ahead)
        if not {"before", "random"} <= self._measured.keys():
            # The sample and the balls are ~1-3 ms whatever the call: on a small call that is
            # a large part of it, lost if the caller's order is kept (measured once per
            # operator, then kept, so only its first call pays).
            measure = COSTS["measure"] * measured_entries(n, nnz)
            if measure > MEASURE_SHARE * products * product:
                return Decision(False, "too few products: measuring the order would cost more "
                                f"than {MEASURE_SHARE:.0%} of them",
                                saving=MEASURE_SHARE * products * product, cost=measure)
        indptr, indices = self.A.indptr, self.A.indices
        window = max(1, int(CACHE_BYTES / (row_bytes * nnz / n)))
        before = locality(self._measure("before", lambda: reuse_gaps(indptr, indices)), window)
        random, cycles, expansion = self._measure("random", lambda: random_like(indptr, indices))
        seen = dict(window=window, before=before, cycles=cycles, expansion=expansion)
        if random:
            return Decision(False, "a random graph: no order has short gaps", **seen)
        best = products * product * (1.0 - before)
        if best < ahead:
            return Decision(False, few, saving=best, cost=ahead, **seen)
        order = self._rcm()
        after = locality(self._measure("after", lambda: reuse_gaps(indptr, indices, order)),
                         window)
        saving = products * product * (after - before)
        if after - before < MIN_GAIN or saving < cost:
            return Decision(False, "RCM does not improve the locality enough to pay",
                            after=after, saving=saving, cost=cost, **seen)
        return Decision(True, "RCM pays", after=after, saving=saving, cost=cost, **seen)
