"""Random graphs: Erdős–Rényi, stochastic block model, contextual SBM, BA, random regular.

``erdos_renyi`` and ``sbm`` sample the *exact* product-Bernoulli distributions (every node pair
independently) with geometric skipping (see :mod:`ngc_ref._sampling`): time and memory are
O(n + number of edges), with no loop over nodes or pairs: graphs with 10^6 nodes and average
degree 10 build in about 1-2 s (measured, 2-core machine). ``barabasi_albert`` and
``random_regular`` delegate to networkx (Python loops) and are meant for n up to about 10^5
(5-8 s at n = 10^5, average degree 10).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.sparse as sp

from .._docs import fill_doc
from .._memory import check_memory
from .._sampling import bernoulli_positions, lower_triangle_pairs
from .._validation import as_generator, check_adjacency, check_option, check_per_row, check_scalar
from ._build import check_n, check_prob, from_edges


def _networkx_seed(rng):
    # An int seed keeps networkx's own stream reproducible across networkx versions, whatever
    # they accept as a random state.
    return int(rng.integers(2**63 - 1))


def _networkx_to_csr(G, n):
    import networkx as nx
    A = nx.to_scipy_sparse_array(G, nodelist=range(n), weight=None, dtype=np.float64,
                                 format="csr")
    A = sp.csr_array(A)
    A.sort_indices()
    return A


def block_sizes(n, k):
    """Balanced block sizes: ``n // k`` each, the first ``n % k`` blocks one node more.

    Examples
    --------
    >>> from ngc_ref.graphs import block_sizes
    >>> block_sizes(10, 3)
    array([4, 3, 3])
    """
    n = check_n(n)
    k = check_scalar(k, "k", min_val=1, max_val=n, integer=True)
    sizes = np.full(k, n // k, dtype=np.int64)
    sizes[: n % k] += 1
    return sizes


#: Peak bytes per sampled edge, from the geometric draws to the finished CSR (int64 indices):
#: 96 measured with tracemalloc for n = 5000 ... 100000 and 5e6 ... 1.1e7 edges.
_BYTES_PER_EDGE = 96


def _sample_block_edges(sizes, P, rng, what):
    """Edges of a block model with block sizes ``sizes`` and k x k probabilities ``P``.

    Loops over the k (k + 1) / 2 block pairs only; inside a pair every node pair is an
    independent Bernoulli trial, sampled by geometric skipping. Refused (ValueError, from the
    memory guard of :mod:`ngc_ref._memory`) before anything is drawn when the expected number
    of edges cannot be held: ``what`` names the caller in that message.
    """
    sizes_f = np.asarray(sizes, dtype=np.float64)
    pairs = np.outer(sizes_f, sizes_f)
    pairs[np.diag_indices_from(pairs)] = sizes_f * (sizes_f - 1) / 2
    expected = float(np.sum(np.triu(pairs * np.asarray(P, dtype=np.float64))))
    check_memory(_BYTES_PER_EDGE * expected + 8.0 * sizes_f.sum(), what,
                 "use a smaller n or smaller edge probabilities",
                 detail=f"about {expected:.3g} edges at {_BYTES_PER_EDGE} bytes each while "
                        f"they are sampled and assembled")
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    us, vs = [], []
    for a in range(len(sizes)):
        for b in range(a, len(sizes)):
            na, nb = int(sizes[a]), int(sizes[b])
            if a == b:
                pos = bernoulli_positions(na * (na - 1) // 2, P[a][a], rng)
                i, j = lower_triangle_pairs(pos)
                us.append(offsets[a] + i)
                vs.append(offsets[a] + j)
            else:
                pos = bernoulli_positions(na * nb, P[a][b], rng)
                us.append(offsets[a] + pos // nb)
                vs.append(offsets[b] + pos % nb)
    return np.concatenate(us), np.concatenate(vs)


def erdos_renyi(n, p, seed=None):
    """Erdős–Rényi graph G(n, p), sampled exactly.

    Each of the ``n (n - 1) / 2`` unordered node pairs is an edge independently with
    probability ``p``; the number of edges is therefore Binomial(n (n - 1) / 2, p). Sampling
    uses geometric skipping over the pairs (Batagelj & Brandes), so the cost is O(n + edges)
    and no duplicate or self-loop ever arises, at every density.

    Parameters
    ----------
    %(n)s
    p : float
        Edge probability, ``0 <= p <= 1``. For average degree ``c`` use ``p = c / (n - 1)``.
    %(seed)s

    Returns
    -------
    scipy.sparse.csr_array
        Symmetric, float64, 0/1 entries, no self-loops, sorted indices.

    Raises
    ------
    ValueError
        If ``n < 1`` or ``p`` is outside [0, 1]; or if the expected p·n(n−1)/2 edges (96 bytes
        each while sampling and building the CSR) exceed the memory budget of
        :mod:`ngc_ref._memory` (checked before anything is drawn; the same holds for
        :func:`sbm`).
    TypeError
        If ``n`` is not an integer or ``seed`` is not None/int/Generator.

    References
    ----------
    .. [1] V. Batagelj and U. Brandes, "Efficient generation of large random networks",
       Phys. Rev. E 71, 036113 (2005).

    Examples
    --------
    >>> from ngc_ref.graphs import erdos_renyi
    >>> A = erdos_renyi(1000, 0.01, seed=0)
    >>> A.shape, (A != A.T).nnz, int(A.diagonal().sum())
    ((1000, 1000), 0, 0)
    """
    n = check_n(n)
    p = check_prob(p, "p")
    rng = as_generator(seed)
    u, v = _sample_block_edges(np.array([n]), [[p]], rng, f"erdos_renyi(n={n}, p={p!r})")
    return from_edges(n, u, v)


fill_doc(erdos_renyi)


def sbm(n, k, p_in, p_out, seed=None):
    """Stochastic block model with ``k`` balanced blocks, sampled exactly.

    Nodes are split into ``k`` contiguous blocks: block ``c`` holds the nodes
    ``offsets[c] <= i < offsets[c + 1]`` and the sizes are ``n // k``, with the ``n % k``
    remainder nodes given one each to the *first* ``n % k`` blocks (see :func:`block_sizes`).
    Each pair of distinct nodes is an edge independently, with probability ``p_in`` inside a
    block and ``p_out`` between blocks. Cost O(k^2 + n + edges) (geometric skipping per block
    pair, no loop over nodes).

    Parameters
    ----------
    %(n)s
    k : int
        Number of blocks (classes), ``1 <= k <= n``.
    p_in, p_out : float
        Within- and between-block edge probabilities in [0, 1]; ``p_in > p_out`` gives a
        homophilous graph, ``p_in < p_out`` a heterophilous one.
    %(seed)s

    Returns
    -------
    adjacency : scipy.sparse.csr_array
        Symmetric, float64, 0/1, no self-loops, sorted indices.
    labels : numpy.ndarray of int64
        Block of each node (non-decreasing, since the blocks are contiguous).

    Examples
    --------
    >>> from ngc_ref.graphs import sbm
    >>> A, y = sbm(7, 3, 0.5, 0.1, seed=0)
    >>> y
    array([0, 0, 0, 1, 1, 2, 2])
    """
    n = check_n(n)
    sizes = block_sizes(n, k)
    p_in = check_prob(p_in, "p_in")
    p_out = check_prob(p_out, "p_out")
    rng = as_generator(seed)
    k = len(sizes)
    P = np.full((k, k), p_out)
    np.fill_diagonal(P, p_in)
    u, v = _sample_block_edges(sizes, P, rng, f"sbm(n={n}, k={k})")
    labels = np.repeat(np.arange(k, dtype=np.int64), sizes)
    return from_edges(n, u, v), labels


fill_doc(sbm)


def barabasi_albert(n, m, seed=None):
    """Barabási–Albert preferential-attachment graph (networkx's construction).

    Starts from a star on ``m + 1`` nodes; every later node attaches to ``m`` distinct existing
    nodes chosen with probability proportional to their degree. It has ``m (n - m)`` edges.
    Built by :func:`networkx.barabasi_albert_graph`, a Python loop over nodes and edges: about
    5 s for n = 10^5, m = 5 (measured), linear in ``n m``; practical up to a few 10^5 nodes.

    Parameters
    ----------
    n : int
        Number of nodes.
    m : int
        Edges per new node, ``1 <= m < n``.
    %(seed)s

    Returns
    -------
    scipy.sparse.csr_array

    Examples
    --------
    >>> from ngc_ref.graphs import barabasi_albert
    >>> barabasi_albert(50, 2, seed=0).nnz // 2
    96
    """
    import networkx as nx
    n = check_n(n, min_val=2)
    m = check_scalar(m, "m", min_val=1, max_val=n - 1, integer=True)
    rng = as_generator(seed)
    return _networkx_to_csr(nx.barabasi_albert_graph(n, m, seed=_networkx_seed(rng)), n)


fill_doc(barabasi_albert)


def random_regular(n, d, seed=None):
    """Random ``d``-regular simple graph (networkx's pairing algorithm, approximately uniform).

    Built by :func:`networkx.random_regular_graph` (Steger–Wormald pairing), a Python loop
    over the ``n d / 2`` edges: about 8 s for n = 10^5, d = 10 (measured); practical up to
    ~10^5 nodes with small ``d``. The law is only asymptotically uniform for ``d`` small
    compared with ``n^(1/3)`` (networkx's documentation).

    Parameters
    ----------
    n : int
        Number of nodes.
    d : int
        Degree, ``0 <= d < n`` and ``n * d`` even.
    %(seed)s

    Returns
    -------
    scipy.sparse.csr_array

    Raises
    ------
    ValueError
        If ``d >= n`` or ``n * d`` is odd.

    Examples
    --------
    >>> from ngc_ref.graphs import random_regular
    >>> set(random_regular(10, 3, seed=0).sum(axis=1).tolist())
    {3.0}
    """
    import networkx as nx
    n = check_n(n)
    d = check_scalar(d, "d", min_val=0, max_val=n - 1, integer=True)
    if (n * d) % 2:
        raise ValueError(f"n * d must be even for a d-regular graph, got n={n}, d={d}")
    rng = as_generator(seed)
    return _networkx_to_csr(nx.random_regular_graph(d, n, seed=_networkx_seed(rng)), n)


fill_doc(random_regular)


@dataclasses.dataclass(frozen=True, eq=False)
class ContextualSBM:
    """A contextual SBM sample: graph, labels and clean/noisy features (see :func:`contextual_sbm`).

    Attributes
    ----------
    adjacency : scipy.sparse.csr_array
        n x n SBM adjacency.
    labels : numpy.ndarray of int64
        Class of each node (contiguous balanced blocks).
    Y : numpy.ndarray
        n x k one-hot float64 label matrix (the regression target of the paper's Eq. (8)).
    X_clean : numpy.ndarray
        n x d clean features X* = ``signal * class_means[labels]``.
    X : numpy.ndarray
        n x d observed features X = X* + ``noise_std`` * eta, eta i.i.d. N(0, 1).
    class_means : numpy.ndarray
        k x d unit-norm class mean directions.
    p_in, p_out, signal, noise_std : float
        The generating parameters.
    """

    adjacency: sp.csr_array
    labels: np.ndarray
    Y: np.ndarray
    X_clean: np.ndarray
    X: np.ndarray
    class_means: np.ndarray
    p_in: float
    p_out: float
    signal: float
    noise_std: float

    @property
    def n(self):
        return self.adjacency.shape[0]

    @property
    def k(self):
        return self.Y.shape[1]

    @property
    def d(self):
        return self.X_clean.shape[1]

    @property
    def eta(self):
        """The noise actually added, ``X - X_clean`` (= noise_std * eta)."""
        return self.X - self.X_clean

    @property
    def snr(self):
        """Feature signal-to-noise ratio ``signal / noise_std`` (inf without noise)."""
        return np.inf if self.noise_std == 0 else self.signal / self.noise_std


MEANS = ("onehot", "random")


def contextual_sbm(n, k, p_in, p_out, d, *, signal=1.0, noise_std=0.0, means="onehot",
                   seed=None):
    """Contextual SBM: an SBM graph whose nodes carry class-dependent features plus noise.

    The testbed of Theorem 1: the clean feature matrix is

    .. math::

        X^* = \\mathrm{signal}\\cdot M_{y_i,:}, \\qquad X = X^* + \\mathrm{noise\\_std}\\,\\eta,
        \\quad \\eta_{ij} \\overset{iid}{\\sim} N(0, 1),

    where ``M`` (``class_means``, k x d) has unit-norm rows: the standard basis vectors
    ``e_0 .. e_{k-1}`` for ``means="onehot"`` (needs ``d >= k``; class means are then
    orthogonal at distance ``signal * sqrt(2)``), or independent uniformly random unit
    vectors for ``means="random"``. So every row of X* has norm ``signal`` and depends on the
    class only; the noise is a sub-Gaussian matrix with parameter sigma = ``noise_std``
    (Assumption 1). Homophily is set by ``p_in``/``p_out`` (see :func:`edge_homophily`), the
    feature signal-to-noise ratio by ``signal / noise_std``, independently.

    The graph, the class means and the noise are drawn from three independent child streams
    of ``seed`` (``Generator.spawn``), so for one seed the graph is the same whatever
    ``noise_std``, ``d`` or ``means`` are. Any other corruption is applied to ``X_clean``
    with :mod:`ngc_ref.noise`, e.g. ``noise.corrupt(data.X_clean, "gaussian", xi, seed=1)``
    (the paper's X* + xi * eta followed by row normalisation) or
    ``noise.add_subgaussian_noise(data.X_clean, "rademacher", s, seed=1)``.

    Parameters
    ----------
    n, k, p_in, p_out :
        As in :func:`sbm`.
    d : int
        Feature dimension, ``d >= 1``.
    signal : float
        Norm of each clean feature row, ``>= 0``.
    noise_std : float
        Standard deviation of the Gaussian noise in ``X``, ``>= 0`` (0: ``X`` equals ``X_clean``).
    means : {"onehot", "random"}
        Class mean directions, see above.
    %(seed)s

    Returns
    -------
    ContextualSBM

    Raises
    ------
    ValueError
        For out-of-range parameters, or ``means="onehot"`` with ``d < k``.

    References
    ----------
    .. [1] Paper, Sec. 3: Eq. (8) (f(W) = ||Ã_S (X* + η) W - Y||_F²), Assumption 1 and
       Theorem 1.
    .. [2] Y. Deshpande, S. Sen, A. Montanari, E. Mossel, "Contextual stochastic block models",
       NeurIPS 2018.

    Examples
    --------
    >>> from ngc_ref.graphs import contextual_sbm
    >>> data = contextual_sbm(6, 2, 0.9, 0.1, 3, signal=2.0, seed=0)
    >>> data.labels
    array([0, 0, 0, 1, 1, 1])
    >>> data.X_clean[[0, 3]]
    array([[2., 0., 0.],
           [0., 2., 0.]])
    """
    n = check_n(n)
    sizes = block_sizes(n, k)
    k = len(sizes)
    d = check_n(d, "d")
    signal = check_scalar(signal, "signal", min_val=0.0)
    noise_std = check_scalar(noise_std, "noise_std", min_val=0.0)
    check_option(means, "means", MEANS)
    if means == "onehot" and d < k:
        raise ValueError(f"means='onehot' needs d >= k (one coordinate per class), got d={d}, "
                         f"k={k}; pass means='random' or a larger d")
    graph_rng, means_rng, noise_rng = as_generator(seed).spawn(3)
    A, labels = sbm(n, k, p_in, p_out, seed=graph_rng)
    if means == "onehot":
        M = np.eye(k, d)
    else:
        M = means_rng.standard_normal((k, d))
        M /= np.linalg.norm(M, axis=1, keepdims=True)
    Y = np.eye(k)[labels]
    X_clean = signal * M[labels]
    X = X_clean + noise_std * noise_rng.standard_normal((n, d))
    return ContextualSBM(adjacency=A, labels=labels, Y=Y, X_clean=X_clean, X=X, class_means=M,
                         p_in=float(p_in), p_out=float(p_out), signal=signal,
                         noise_std=noise_std)


fill_doc(contextual_sbm)


def edge_homophily(adjacency, labels, *, weight="weight", nodelist=None):
    """Edge homophily: the fraction of edges whose two end nodes share a label.

    .. math::

        h = \\frac{|\\{(u, v) \\in E : y_u = y_v\\}|}{|E|}

    Computed on the edge set (the non-zero pattern, weights ignored), self-loops excluded.

    Parameters
    ----------
    adjacency : sparse matrix, ndarray or networkx.Graph
        Symmetric adjacency.
    labels : array_like of int, length n
        In the order of the rows of ``adjacency`` (for a networkx graph: of ``nodelist``).
    %(weight)s
        The ratio counts edges and ignores their weights, so this only decides which
        attribute is checked (finite, non-negative; a zero weight removes the edge).
    %(nodelist)s
        Here also the order of ``labels``.

    Returns
    -------
    float
        In [0, 1]; ``nan`` for a graph without edges (the ratio is undefined).

    References
    ----------
    .. [1] J. Zhu et al., "Beyond homophily in graph neural networks", NeurIPS 2020.

    Examples
    --------
    >>> from ngc_ref.graphs import edge_homophily, path
    >>> edge_homophily(path(4), [0, 0, 1, 1])
    0.6666666666666666
    """
    A = check_adjacency(adjacency, name="adjacency", weight=weight, nodelist=nodelist)
    labels = check_per_row(labels, A.shape[0], "labels")
    coo = sp.triu(A, k=1, format="coo")
    if coo.nnz == 0:
        return float("nan")
    return float(np.mean(labels[coo.row] == labels[coo.col]))


fill_doc(edge_homophily)


# ------------------------------------------------------------------ SBM by expected degrees

def sbm_degree_probabilities(n, k, deg_in, deg_out):
    """Edge probabilities of an SBM with ``k`` equal blocks given by expected degrees.

    With m = n // k nodes per block, a node's expected degree is ``deg_in`` inside its block
    and ``deg_out`` to the other blocks: p_in = deg_in/(m − 1), p_out = deg_out/(m(k − 1)),
    each capped at 1 (denominators of 0 read as 1).

    Parameters
    ----------
    n : int
        Number of nodes (``n // k`` per block).
    k : int
        Number of blocks, ``1 <= k <= n``.
    deg_in, deg_out : float
        Expected degree inside the block and to the other blocks, ``>= 0``.

    Returns
    -------
    p_in, p_out : float

    See Also
    --------
    sbm_degrees : the graph itself.

    Examples
    --------
    >>> from ngc_ref.graphs.stochastic import sbm_degree_probabilities
    >>> sbm_degree_probabilities(400, 4, 8.0, 2.0)
    (0.08080808080808081, 0.006666666666666667)
    """
    n = check_n(n)
    k = check_scalar(k, "k", min_val=1, max_val=n, integer=True)
    deg_in = check_scalar(deg_in, "deg_in", min_val=0.0)
    deg_out = check_scalar(deg_out, "deg_out", min_val=0.0)
    size = n // k
    return (min(1.0, deg_in / max(size - 1, 1)), min(1.0, deg_out / max(size * (k - 1), 1)))


def sbm_degrees(n, k, deg_in, deg_out, seed=None):
    """Stochastic block model with ``k`` equal blocks given by expected degrees.

    :func:`sbm` on k blocks of m = n // k nodes (n rounded down to a multiple of k) with the
    probabilities of :func:`sbm_degree_probabilities`: expected degree ``deg_in`` inside the
    block and ``deg_out`` to the other blocks. ``deg_in > deg_out`` gives a homophilous graph,
    ``deg_in < deg_out`` a heterophilous one.

    Parameters
    ----------
    n, k, deg_in, deg_out
        As in :func:`sbm_degree_probabilities`; the graph has ``k * (n // k)`` nodes.
    seed : None, int or numpy.random.Generator

    Returns
    -------
    adjacency : scipy.sparse.csr_array
    labels : numpy.ndarray of int64
        Block of each node, as :func:`sbm` returns them.

    See Also
    --------
    sbm : the same model given by probabilities.

    Examples
    --------
    >>> from ngc_ref.graphs.stochastic import sbm_degrees
    >>> A, y = sbm_degrees(10, 3, 2.0, 1.0, seed=0)
    >>> A.shape, y.tolist()
    ((9, 9), [0, 0, 0, 1, 1, 1, 2, 2, 2])
    """
    p_in, p_out = sbm_degree_probabilities(n, k, deg_in, deg_out)
    size = int(n) // int(k)
    return sbm(size * int(k), int(k), p_in, p_out, seed=seed)
