"""Self-loops and the two normalisations of the adjacency matrix.

Notation (paper, Sec. 2): Ã = A + I, D̃ = diag(Ã 1), and

.. math::

    \\tilde{\\mathcal{A}}_{\\mathrm{sym}} = \\tilde D^{-1/2} \\tilde A \\tilde D^{-1/2},\\qquad
    \\tilde{\\mathcal{A}}_{\\mathrm{rw}} = \\tilde D^{-1} \\tilde A,\\qquad
    \\tilde L = I - \\tilde{\\mathcal{A}}.
"""

from __future__ import annotations

import math

import numpy as np

from . import _backend
from ._docs import fill_doc
from ._validation import _check_adjacency, _warn, check_norm


def add_self_loops(A, *, symmetrize=False, weight="weight", nodelist=None):
    """Ã: the adjacency with every diagonal entry set to 1.

    An existing diagonal is *replaced*, not doubled: a graph that already stores self-loops
    gets the same Ã as the graph without them. This keeps the paper's Ã = A + I exact for its
    loop-free A and makes the degree of every node at least 1, so isolated nodes are valid.
    A stored self-loop weight other than 1 is therefore dropped, with a UserWarning naming the
    nodes (PyTorch Geometric's ``gcn_norm`` keeps such a weight instead, e.g. Ã₀₀ = 2.5 for a
    self-loop of weight 2.5, where Ã₀₀ = 1 here). Remove the self-loops (``A.setdiag(0)``,
    ``G.remove_edges_from(nx.selfloop_edges(G))``) to make the choice without the warning.

    Parameters
    ----------
    A : sparse matrix, ndarray or networkx.Graph
        Symmetric adjacency with non-negative weights (see ``symmetrize``).
    %(graph_options)s

    Returns
    -------
    scipy.sparse.csr_array

    Warns
    -----
    UserWarning
        Where a stored self-loop weight other than 1 is dropped (naming the first few nodes:
        their labels for a networkx graph, their rows for a matrix), besides the warnings of
        :func:`ngc_ref.validation.check_adjacency` (node order, a multigraph's parallel edges).

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref import add_self_loops
    >>> add_self_loops(np.array([[1.0, 1.0], [1.0, 0.0]])).toarray()
    array([[1., 1.],
           [1., 1.]])

    A networkx graph: its ``weight`` attribute and its node order, unless told otherwise.

    >>> import networkx as nx
    >>> G = nx.Graph()
    >>> G.add_edge("b", "a", weight=5.0)
    >>> G.add_edge("a", "c")                                     # no attribute: weight 1
    >>> add_self_loops(G, nodelist=list(G)).toarray()            # rows: b, a, c (G's order)
    array([[1., 5., 0.],
           [5., 1., 1.],
           [0., 1., 1.]])
    >>> add_self_loops(G, weight=None, nodelist=["a", "b", "c"]).toarray()
    array([[1., 1., 1.],
           [1., 1., 0.],
           [1., 0., 1.]])
    """
    A, labels = _check_adjacency(A, symmetrize=symmetrize, weight=weight, nodelist=nodelist)
    gpu = _backend.on_gpu(A)
    xp, xsp = _backend.namespaces(gpu)
    n = A.shape[0]
    _warn_if_loop_weights_dropped(A.diagonal(), labels, xp)
    At = A - xsp.diags(A.diagonal(), format="csr") + xsp.identity(n, dtype=A.dtype, format="csr")
    At = _backend.csr_type(gpu)(At)
    At.eliminate_zeros()
    At.sort_indices()
    return At


fill_doc(add_self_loops)


def _warn_if_loop_weights_dropped(diag, labels, xp, k=5):
    """Name the nodes whose stored self-loop weight (≠ 0, ≠ 1) Ã = A − diag(A) + I drops."""
    dropped = xp.flatnonzero((diag != 0) & (diag != 1))
    if dropped.size == 0:
        return
    rows = _backend.to_numpy(dropped[:k]).tolist()
    weights = _backend.to_numpy(diag[dropped[:k]]).tolist()
    if labels is None:
        named = ", ".join(f"row {i} (weight {w:g})" for i, w in zip(rows, weights))
    else:
        named = ", ".join(f"node {labels[i]!r} (weight {w:g})" for i, w in zip(rows, weights))
    more = f" and {dropped.size - k} more" if dropped.size > k else ""
    _warn(f"A stores self-loops of weight other than 1 at {dropped.size} node(s): {named}{more}. "
          f"Ã = A - diag(A) + I (the paper's Ã = A + I) sets every self-loop to 1, so these "
          f"weights are dropped (PyTorch Geometric's gcn_norm would keep them). Remove the "
          f"self-loops (A.setdiag(0), or G.remove_edges_from(nx.selfloop_edges(G))) to make "
          f"this choice without this warning", UserWarning)


def normalized_adjacency(A, *, norm="sym", symmetrize=False, weight="weight", nodelist=None,
                         return_degrees=False):
    """Ã_norm, the normalised adjacency with self-loops, as a CSR matrix.

    .. math::

        \\tilde{\\mathcal{A}} = \\tilde D^{-1/2}\\tilde A \\tilde D^{-1/2} \\ (\\text{"sym"})
        \\quad\\text{or}\\quad \\tilde D^{-1}\\tilde A \\ (\\text{"rw"}),
        \\qquad \\tilde A = A - \\operatorname{diag}(A) + I.

    Parameters
    ----------
    %(A)s
    %(norm)s
    %(graph_options)s
    return_degrees : bool
        Also return d̃ = Ã 1 (a 1-D array; every entry is >= 1). Refused (ValueError naming
        A) when a degree overflows the dtype: weights that large are fine for Ã_norm, which is
        computed from Ã scaled by a power of two (it does not change under a common scale of
        Ã, self-loops included), but not for d̃ itself.

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
    An, d_scaled, exp = _normalized_adjacency(A, norm, symmetrize=symmetrize, weight=weight,
                                              nodelist=nodelist)
    return (An, _degrees_from_scaled(d_scaled, exp)) if return_degrees else An


fill_doc(normalized_adjacency)


def _normalized_adjacency(A, norm, *, symmetrize=False, weight="weight", nodelist=None):
    """``(Ã_norm, d̃·2^-exp, exp)``: the normalised adjacency and the degrees, scaled.

    ``exp`` is 0 unless a degree overflows the dtype (weights near its maximum): then Ã, self-
    loops included, is scaled by 2^-exp (exact: a power of two) before the degrees are summed.
    Ã_norm does not change under a common scale of Ã, so it is exact either way; the degrees
    are only defined up to that scale, which is all the solvers need.
    """
    norm = check_norm(norm)
    At = add_self_loops(A, symmetrize=symmetrize, weight=weight, nodelist=nodelist)
    gpu = _backend.on_gpu(At)
    xp, xsp = _backend.namespaces(gpu)
    with np.errstate(over="ignore"):
        d = xp.asarray(At.sum(axis=1)).ravel()
    exp = 0
    if not bool(xp.isfinite(d).all()):
        # An even exponent keeps sqrt(2^-exp) exact too; the largest weight becomes < 1, so no
        # sum of a row can overflow.
        exp = math.frexp(float(At.data.max()))[1]
        exp += exp % 2
        At.data = xp.ldexp(At.data, -exp)
        d = xp.asarray(At.sum(axis=1)).ravel()
    if norm == "sym":
        s = 1.0 / xp.sqrt(d)
        An = xsp.diags(s) @ At @ xsp.diags(s)
    else:
        An = xsp.diags(1.0 / d) @ At
    An = _backend.csr_type(gpu)(An, dtype=At.dtype)
    An.sort_indices()
    return An, d, exp


def _degrees_from_scaled(d_scaled, exp, name="A"):
    """d̃ = d_scaled·2^exp, or ValueError naming ``name`` where it is not representable."""
    if exp == 0:
        return d_scaled
    raise ValueError(f"the degrees of {name} overflow {d_scaled.dtype} (edge weights up to "
                     f"about 2^{exp}); Ã_norm is still computed exactly, from Ã scaled by "
                     f"2^-{exp}, but d̃ itself cannot be returned: divide {name} by a constant "
                     f"(which changes Ã_norm, as the self-loops keep weight 1)")
