"""Deterministic graph families and the four graphs of the paper's Figure 1.

Every function returns a symmetric ``scipy.sparse.csr_array`` of dtype float64 with unit edge
weights, no self-loops, no duplicate entries and sorted indices. Node ``i`` is row ``i``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._docs import fill_doc
from .._validation import DEFAULT_MAX_DENSE_NODES, check_dense_size, check_option
from ._build import check_n, empty, from_edges

FIGURE1_NAMES = ("G1", "G2", "G3", "G4")


def isolated(n):
    """``n`` isolated nodes: the all-zero adjacency (Figure 1, G1 for n = 4).

    Parameters
    ----------
    %(n)s

    Returns
    -------
    scipy.sparse.csr_array
        ``n x n``, no stored entries.

    Examples
    --------
    >>> from ngc_ref.graphs import isolated
    >>> isolated(3).nnz
    0
    """
    return empty(check_n(n))


fill_doc(isolated)


def star(n):
    """Star graph: node 0 (the paper's centre v1) joined to every other node.

    Degrees are ``n - 1`` for node 0 and 1 for the others; ``n - 1`` edges.

    Parameters
    ----------
    n : int
        Number of nodes including the centre, ``n >= 1`` (``n = 1`` is a single node).

    Returns
    -------
    scipy.sparse.csr_array

    Examples
    --------
    >>> from ngc_ref.graphs import star
    >>> star(4).sum(axis=1)
    array([3., 1., 1., 1.])
    """
    n = check_n(n)
    leaves = np.arange(1, n)
    return from_edges(n, np.zeros_like(leaves), leaves)


def complete(n, *, max_nodes=DEFAULT_MAX_DENSE_NODES):
    """Complete graph K_n: every pair of distinct nodes joined (Figure 1, G3 for n = 4).

    It stores ``n (n - 1)`` entries, so like every n x n object in :mod:`ngc_ref` it is guarded.

    Parameters
    ----------
    %(n)s
    max_nodes : int
        Refuse ``n > max_nodes`` (default 5000, i.e. 25 million stored entries).

    Returns
    -------
    scipy.sparse.csr_array

    Raises
    ------
    ValueError
        If ``n > max_nodes``.

    Examples
    --------
    >>> from ngc_ref.graphs import complete
    >>> complete(3).toarray()
    array([[0., 1., 1.],
           [1., 0., 1.],
           [1., 1., 0.]])
    """
    n = check_n(n)
    check_dense_size(n, max_nodes, "complete(n)")
    u, v = np.triu_indices(n, k=1)
    return from_edges(n, u, v)


fill_doc(complete)


def ring(n):
    """Ring (cycle) C_n: node ``i`` joined to ``i ± 1 (mod n)`` (Figure 1, G4 for n = 8).

    Every degree is 2 and there are ``n`` edges.

    Parameters
    ----------
    n : int
        Number of nodes, ``n >= 3`` (smaller cycles would need a self-loop or a double edge).

    Returns
    -------
    scipy.sparse.csr_array

    Examples
    --------
    >>> from ngc_ref.graphs import ring
    >>> ring(5).sum(axis=0)
    array([2., 2., 2., 2., 2.])
    """
    n = check_n(n, min_val=3)
    u = np.arange(n)
    return from_edges(n, u, (u + 1) % n)


cycle = ring


def torus(p):
    """The p×p torus (2-D grid with wrap-around) C_p □ C_p: 4-regular, vertex-transitive.

    Node ``(r, c)`` is index ``r * p + c``, joined to ``(r ± 1 mod p, c)`` and
    ``(r, c ± 1 mod p)``; it has ``2 p²`` edges.

    Parameters
    ----------
    p : int
        Side, ``p >= 3``.

    Returns
    -------
    scipy.sparse.csr_array

    Examples
    --------
    >>> from ngc_ref.graphs import torus
    >>> A = torus(4)
    >>> A.shape, set(A.sum(axis=1).tolist()), A.nnz // 2
    ((16, 16), {4.0}, 32)
    """
    # Checked here, not by ring(p), so that a bad side is reported as p (not n).
    p = check_n(p, "p", min_val=3)
    C = ring(p)
    Id = sp.identity(C.shape[0], format="csr")
    A = sp.csr_array(sp.kron(C, Id) + sp.kron(Id, C))
    A.sort_indices()
    return A


def path(n):
    """Path P_n: node ``i`` joined to ``i + 1``; ``n - 1`` edges, end degrees 1.

    Parameters
    ----------
    %(n)s

    Returns
    -------
    scipy.sparse.csr_array

    Examples
    --------
    >>> from ngc_ref.graphs import path
    >>> path(4).sum(axis=1)
    array([1., 2., 2., 1.])
    """
    n = check_n(n)
    u = np.arange(n - 1)
    return from_edges(n, u, u + 1)


fill_doc(path)


def grid(rows, cols):
    """2-D lattice with 4-neighbourhoods; node ``(r, c)`` is index ``r * cols + c``.

    It has ``rows * (cols - 1) + cols * (rows - 1)`` edges.

    Parameters
    ----------
    rows, cols : int
        Lattice size, both ``>= 1``.

    Returns
    -------
    scipy.sparse.csr_array
        ``rows*cols x rows*cols``.

    Examples
    --------
    >>> from ngc_ref.graphs import grid
    >>> A = grid(2, 3)
    >>> A.shape, A.nnz // 2
    ((6, 6), 7)
    """
    rows = check_n(rows, "rows")
    cols = check_n(cols, "cols")
    idx = np.arange(rows * cols).reshape(rows, cols)
    u = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    v = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    return from_edges(rows * cols, u, v)


def figure1(name):
    """One of the four illustration graphs of the paper's Figure 1 (Sec. 3, case study).

    ``"G1"``: 4 isolated nodes; ``"G2"``: star with 4 nodes, centre v1 = node 0;
    ``"G3"``: complete graph on 4 nodes; ``"G4"``: ring with 8 nodes.

    Parameters
    ----------
    name : {"G1", "G2", "G3", "G4"}

    Returns
    -------
    scipy.sparse.csr_array

    Raises
    ------
    ValueError
        For any other name (the message lists the valid ones).

    References
    ----------
    .. [1] "How Powerful is Implicit Denoising in Graph Neural Networks", Sec. 3,
       Figure 1 and the paragraph "Case Study: the Influence of Graph Structure".

    Examples
    --------
    >>> from ngc_ref.graphs import figure1
    >>> figure1("G2").toarray()
    array([[0., 1., 1., 1.],
           [1., 0., 0., 0.],
           [1., 0., 0., 0.],
           [1., 0., 0., 0.]])
    """
    check_option(name, "name", FIGURE1_NAMES)
    return {"G1": lambda: isolated(4), "G2": lambda: star(4), "G3": lambda: complete(4),
            "G4": lambda: ring(8)}[name]()


def figure1_graphs():
    """All four Figure 1 graphs as an ordered dict ``{"G1": A1, ..., "G4": A4}``.

    Examples
    --------
    >>> from ngc_ref.graphs import figure1_graphs
    >>> {k: A.shape[0] for k, A in figure1_graphs().items()}
    {'G1': 4, 'G2': 4, 'G3': 4, 'G4': 8}
    """
    return {name: figure1(name) for name in FIGURE1_NAMES}
