"""Hypothesis strategies for graphs and signals, for testing graph code (ours and yours).

Importing this module needs ``hypothesis``, which is not a dependency of ``ngc_ref`` but part of
its ``test`` extra: ``pip install "ngc_ref[test]"`` (or ``pip install hypothesis``). Without it
the import raises ImportError saying so; the rest of the package never imports this module.
Defaults are bounded so that dense reference computations on the drawn graphs stay cheap.

Examples
--------
>>> from hypothesis import given
>>> from ngc_ref.strategies import adjacency_matrices
>>> @given(adjacency_matrices(max_nodes=6))
... def test_symmetric(A):
...     assert (A != A.T).nnz == 0
>>> test_symmetric()
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

try:
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp
except ImportError as exc:   # an optional dependency: say which extra provides it
    raise ImportError('ngc_ref.strategies needs hypothesis: pip install "ngc_ref[test]"',
                      name=exc.name or "hypothesis") from exc

__all__ = ["adjacency_matrices", "graphs", "signals", "graphs_with_signals", "lams", "orders",
           "norms"]

_FORMATS = ("csr", "csc", "coo", "lil", "dok", "dense")


@st.composite
def adjacency_matrices(draw, min_nodes=1, max_nodes=12, *, weighted=False, self_loops=False,
                       min_weight=0.1, max_weight=10.0, format="csr", connected=None):
    """Symmetric non-negative adjacency matrices (SciPy sparse, or ndarray for ``format="dense"``).

    Parameters
    ----------
    min_nodes, max_nodes : int
        Range of n.
    weighted : bool
        Edge weights drawn from [min_weight, max_weight]; otherwise 0/1.
    self_loops : bool
        Allow diagonal entries (the library replaces them by 1).
    format : {"csr", "csc", "coo", "lil", "dok", "dense"} or "any"
        Storage of the result; "any" draws one of them.
    connected : bool or None
        ``True`` adds a random spanning path so the graph is connected; ``None`` leaves it to
        chance (isolated nodes included).
    """
    n = draw(st.integers(min_nodes, max_nodes))
    if format == "any":
        format = draw(st.sampled_from(_FORMATS))
    elif format not in _FORMATS:
        raise ValueError(f"format must be one of {_FORMATS} or 'any', got {format!r}")
    iu = np.triu_indices(n, k=0 if self_loops else 1)
    m = len(iu[0])
    mask = np.array(draw(st.lists(st.booleans(), min_size=m, max_size=m)), dtype=bool)
    if weighted:
        w = np.array(draw(st.lists(st.floats(min_weight, max_weight), min_size=m, max_size=m)))
    else:
        w = np.ones(m)
    rows, cols, vals = iu[0][mask], iu[1][mask], w[mask]
    A = np.zeros((n, n))
    A[rows, cols] = vals
    A = np.maximum(A, A.T)
    if connected and n > 1:
        perm = np.array(draw(st.permutations(range(n))))
        wpath = min_weight if weighted else 1.0
        for a, b in zip(perm[:-1], perm[1:]):
            if A[a, b] == 0:
                A[a, b] = A[b, a] = wpath
    if format == "dense":
        return A
    return {"csr": sp.csr_array, "csc": sp.csc_array, "coo": sp.coo_array,
            "lil": sp.lil_array, "dok": sp.dok_array}[format](A)


@st.composite
def graphs(draw, min_nodes=1, max_nodes=12, **kwargs):
    """``networkx.Graph`` objects drawn through :func:`adjacency_matrices`.

    Edge weights are stored in the ``weight`` attribute."""
    import networkx as nx
    kwargs.setdefault("format", "csr")
    A = draw(adjacency_matrices(min_nodes, max_nodes, **kwargs))
    return nx.from_scipy_sparse_array(sp.csr_array(A))


def signals(n, d=None, *, max_d=4, min_value=-10.0, max_value=10.0, dtype=np.float64):
    """Finite node signals of shape (n, d); ``d`` drawn from 1..max_d when not given."""
    elements = st.floats(min_value, max_value, allow_nan=False, allow_infinity=False,
                         width=32 if np.dtype(dtype) == np.float32 else 64)
    if d is None:
        return st.integers(1, max_d).flatmap(
            lambda k: hnp.arrays(dtype, (n, k), elements=elements))
    return hnp.arrays(dtype, (n, d), elements=elements)


@st.composite
def graphs_with_signals(draw, min_nodes=1, max_nodes=12, max_d=4, **kwargs):
    """``(A, X)``: an adjacency from :func:`adjacency_matrices` and a matching signal."""
    A = draw(adjacency_matrices(min_nodes, max_nodes, **kwargs))
    X = draw(signals(A.shape[0], max_d=max_d))
    return A, X


def lams(min_value=1e-3, max_value=1e3):
    """λ drawn log-uniformly from [min_value, max_value]."""
    lo, hi = np.log10(min_value), np.log10(max_value)
    return st.floats(lo, hi).map(lambda e: float(10.0 ** e))


def orders(max_value=40):
    """Expansion orders S in 0..max_value."""
    return st.integers(0, max_value)


def norms():
    """The two normalisations."""
    return st.sampled_from(("sym", "rw"))
