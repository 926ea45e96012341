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
from dataclasses import dataclass

import numpy as np

from . import _backend
from ._validation import (DEFAULT_MAX_DENSE_NODES, check_dense_size, check_option, check_scalar)
from .neumann import NeumannFilter, _horner, series_mass

TAU_METHODS = ("exact", "dense")

# Elements (n x block) of one dense block; with the Horner temporaries that is ~3 such arrays.
_BLOCK_ELEMENTS = 2**23


@dataclass
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

    @property
    def tau_log_n_over_n(self):
        """τ·log n / n, the noise-floor term of Theorem 1."""
        return self.tau * math.log(self.n) / self.n if self.n > 1 else float("nan")


def connectivity_factor(A, lam, S, norm="rw", method="exact", *, nodes=None, block_size=None,
                        symmetrize=False, max_nodes=DEFAULT_MAX_DENSE_NODES):
    """τ and τ_i of Ã_S (paper Eq. 5), exactly and without forming Ã_S.

    Parameters
    ----------
    A : sparse matrix, ndarray or networkx.Graph
    lam : float
        λ > 0.
    S : int
        S >= 0.
    norm : {"rw", "sym"}
        The paper defines τ with ``"rw"`` (its default here); ``"sym"`` is offered for the
        experiments' normalisation.
    method : {"exact", "dense"}
        ``"exact"``: blockwise sparse products, O(n·block) memory. ``"dense"``: forms Ã_S
        (refused above ``max_nodes``); a reference for small graphs.
    nodes : array_like of int, optional
        Compute τ_i only for these nodes (τ is then their max). Default: all nodes.
    block_size : int, optional
        Identity columns per block (default: about 8M elements per block, at most 1024 columns).

    Returns
    -------
    ConnectivityResult

    Notes
    -----
    The cost is S·nnz(Ã) per column, i.e. S·nnz·n for all nodes: a few seconds for Cora,
    about a minute on two cores for Pubmed at S = 16.

    Examples
    --------
    >>> import networkx as nx
    >>> from ngc_ref import connectivity_factor
    >>> res = connectivity_factor(nx.empty_graph(4), lam=64, S=64)   # isolated: τ = n
    >>> round(res.tau, 10)
    4.0
    >>> round(connectivity_factor(nx.complete_graph(4), lam=64, S=64).tau, 6)   # near 1
    1.001761
    """
    method = check_option(method, "method", TAU_METHODS)
    filt = NeumannFilter(A, lam, S, norm, symmetrize=symmetrize)
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
    if method == "dense":
        check_dense_size(n, max_nodes, "connectivity_factor(method='dense')")
        M = filt.matrix(max_nodes=max_nodes)
        sq = (M[xp.asarray(nodes)] ** 2).sum(axis=1)
    else:
        if block_size is None:
            block_size = int(min(1024, max(1, _BLOCK_ELEMENTS // max(n, 1))))
        block_size = check_scalar(block_size, "block_size", min_val=1, integer=True)
        sq = _row_square_sums(filt, nodes, block_size, xp)
    sq = _backend.to_numpy(sq)
    row_sums = _backend.to_numpy(filt.row_sums())
    tau_i = n * sq / mass**2
    k = int(np.argmax(tau_i))
    return ConnectivityResult(tau=float(tau_i[k]), tau_i=tau_i, nodes=nodes, row_sums=row_sums,
                              row_square_sums=sq, argmax=int(nodes[k]), n=n, lam=filt.lam,
                              S=filt.S, norm=filt.norm, mass=mass)


def _row_square_sums(filt, nodes, block_size, xp):
    """Σ_j [Ã_S]_ij² for i in ``nodes``: column norms of Ã_Sᵀ E_block."""
    n = filt.n
    # Ã_Sᵀ is the same series in Ã_normᵀ (Ã_sym is symmetric, Ã_rwᵀ = Ã D̃⁻¹).
    AnT = filt.A_norm.T.tocsr() if filt.norm == "rw" else filt.A_norm
    out = xp.empty(len(nodes), dtype=np.float64)
    scale = 1.0 / (filt.lam + 1.0)
    for start in range(0, len(nodes), block_size):
        idx = nodes[start:start + block_size]
        E = xp.zeros((n, len(idx)), dtype=np.float64)
        E[xp.asarray(idx), xp.arange(len(idx))] = 1.0
        H = _horner(AnT, E, filt.r, filt.S)
        out[start:start + len(idx)] = (H * H).sum(axis=0) * scale**2
    return out
