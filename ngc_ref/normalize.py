"""Self-loops and the two normalisations of the adjacency matrix.

Notation (paper, Sec. 2): Ã = A + I, D̃ = diag(Ã 1), and

.. math::

    \\tilde{\\mathcal{A}}_{\\mathrm{sym}} = \\tilde D^{-1/2} \\tilde A \\tilde D^{-1/2},\\qquad
    \\tilde{\\mathcal{A}}_{\\mathrm{rw}} = \\tilde D^{-1} \\tilde A,\\qquad
    \\tilde L = I - \\tilde{\\mathcal{A}}.
"""

from __future__ import annotations

from . import _backend
from ._validation import check_adjacency, check_norm


def add_self_loops(A, *, symmetrize=False):
    """Ã: the adjacency with every diagonal entry set to 1.

    An existing diagonal is *replaced*, not doubled: a graph that already stores self-loops
    gets the same Ã as the graph without them. This keeps Ã = A + I exact for the paper's
    loop-free A and makes the degree of every node at least 1, so isolated nodes are valid.

    Parameters
    ----------
    A : sparse matrix, ndarray or networkx.Graph
        Symmetric adjacency with non-negative weights (see ``symmetrize``).
    symmetrize : bool or {"max", "mean"}
        How to treat a non-symmetric input; the default rejects it.

    Returns
    -------
    scipy.sparse.csr_array

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref import add_self_loops
    >>> add_self_loops(np.array([[1.0, 1.0], [1.0, 0.0]])).toarray()
    array([[1., 1.],
           [1., 1.]])
    """
    A = check_adjacency(A, symmetrize=symmetrize)
    gpu = _backend.on_gpu(A)
    xp, xsp = _backend.namespaces(gpu)
    n = A.shape[0]
    At = A - xsp.diags(A.diagonal(), format="csr") + xsp.identity(n, dtype=A.dtype, format="csr")
    At = _backend.csr_type(gpu)(At)
    At.eliminate_zeros()
    At.sort_indices()
    return At


def normalized_adjacency(A, norm="sym", *, symmetrize=False, return_degrees=False):
    """Ã_norm, the normalised adjacency with self-loops, as a CSR matrix.

    .. math::

        \\tilde{\\mathcal{A}} = \\tilde D^{-1/2}\\tilde A \\tilde D^{-1/2} \\ (\\text{"sym"})
        \\quad\\text{or}\\quad \\tilde D^{-1}\\tilde A \\ (\\text{"rw"}),
        \\qquad \\tilde A = A - \\operatorname{diag}(A) + I.

    Parameters
    ----------
    A : sparse matrix, ndarray or networkx.Graph
        Symmetric, non-negative adjacency. An existing diagonal is replaced by 1, not doubled.
    norm : {"sym", "rw"}
        Symmetric or random-walk normalisation.
    symmetrize : bool or {"max", "mean"}
        How to treat a non-symmetric input; the default rejects it with a ValueError.
    return_degrees : bool
        Also return d̃ = Ã 1 (a 1-D array; every entry is >= 1).

    Returns
    -------
    A_norm : scipy.sparse.csr_array
        Same dtype as the validated input (float32 kept, else float64).
    degrees : ndarray, only if ``return_degrees``

    Examples
    --------
    >>> import networkx as nx
    >>> from ngc_ref import normalized_adjacency
    >>> P = normalized_adjacency(nx.path_graph(3), norm="rw")
    >>> P.toarray().round(3)
    array([[0.5  , 0.5  , 0.   ],
           [0.333, 0.333, 0.333],
           [0.   , 0.5  , 0.5  ]])
    """
    norm = check_norm(norm)
    At = add_self_loops(A, symmetrize=symmetrize)
    gpu = _backend.on_gpu(At)
    xp, xsp = _backend.namespaces(gpu)
    d = xp.asarray(At.sum(axis=1)).ravel()
    if norm == "sym":
        s = 1.0 / xp.sqrt(d)
        An = xsp.diags(s) @ At @ xsp.diags(s)
    else:
        An = xsp.diags(1.0 / d) @ At
    An = _backend.csr_type(gpu)(An, dtype=At.dtype)
    An.sort_indices()
    return (An, d) if return_degrees else An
