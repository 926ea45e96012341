"""The parameter paragraphs that many public docstrings share, written once.

A docstring names a shared paragraph by a line holding only its placeholder, ``%(weight)s``;
:func:`fill_doc` replaces that line by the paragraph, indented like the placeholder (the idea of
SciPy's ``scipy._lib.doccer``), so ``help(fn)`` and the rendered docs show the full text.
Lines indented further right after a placeholder continue its description::

    def f(A, *, nodelist=None):
        \"\"\"...

        Parameters
        ----------
        %(nodelist)s
            Also the order of ``tau_i``.
        \"\"\"


    fill_doc(f)

``fill_doc`` is called after the definition, not used as a decorator: mutmut (the mutation
tool of ``tools/mutation.py``) leaves every decorated function unmutated, so a decorator would
hide the public functions from the mutation pass.
"""

from __future__ import annotations

import re

#: name -> paragraph (a numpydoc parameter entry: the name line, then its description).
PARAMS = {
    "A": """\
A : sparse matrix, ndarray or networkx.Graph
    Symmetric adjacency of n nodes with non-negative weights (see ``symmetrize``). Its
    diagonal is set to 1, not added to: Ã = A − diag(A) + I (see
    :func:`ngc_ref.add_self_loops`; a stored self-loop weight other than 1 is dropped with a
    UserWarning). A networkx ``MultiGraph``'s parallel edges are added up (with a
    UserWarning).""",
    "X": """\
X : array_like or sparse, shape (n,) or (n, d)
    Node features, one row per node, or one signal (1-D); the result has the shape of ``X``.
    Sparse ``X`` is densified (an n x d array, never n x n).""",
    "lam": """\
lam : float
    λ > 0, the weight of the smoothness term of the GSD problem (paper Eq. 1); the series
    ratio is r = λ/(λ+1).""",
    "S": """\
S : int
    The expansion order S >= 0 of the truncated Neumann series (paper Eq. 3-4).""",
    "norm": """\
norm : {"sym", "rw"}
    The normalisation of Ã: D̃^{-1/2} Ã D̃^{-1/2} (``"sym"``) or D̃⁻¹Ã (``"rw"``). The
    operators default to ``"sym"``, the paper's experiments ("in experiments we adopt more
    commonly used D̃^{-1/2}ÃD̃^{-1/2}", footnote to Remark 1); τ
    (:func:`ngc_ref.connectivity_factor`) and the theory's trajectory
    (:func:`ngc_ref.training.theory_trajectory`) default to ``"rw"``, in which the paper
    states its theory ("obtained by using D̃⁻¹Ã for the ease of theoretical analysis").""",
    "symmetrize": """\
symmetrize : bool or {"max", "mean"}
    How to treat a non-symmetric ``A``: ``False`` (default) rejects it with a ValueError,
    ``True`` or ``"max"`` takes max(A, Aᵀ) (the union of the edges), ``"mean"`` (A + Aᵀ)/2.""",
    "weight": """\
weight : str or None, default 'weight'
    Edge attribute used as the weight when ``A`` is a networkx graph (networkx's own
    default); edges without it weigh 1. ``None``: every edge weighs 1. Ignored for
    matrices.""",
    "nodelist": """\
nodelist : sequence, optional
    For a networkx graph: its nodes in the order of the rows (and columns) of the matrices,
    of the signals and of the result, each exactly once, as in
    ``networkx.to_scipy_sparse_array``. Default: ``G.nodes()`` order, i.e. insertion order,
    not label order; one rule for every label type: a UserWarning says so when that order
    differs from the sorted labels (pass ``nodelist=sorted(G)`` for label order, or
    ``nodelist=list(G)`` to keep G's order without the warning). Labels that cannot be
    sorted together (``1`` and ``"a"``) get no warning. Not accepted for matrices.""",
}

#: How a graph argument is read, in the order of the signatures: one placeholder for the three.
PARAMS["graph_options"] = "\n".join(PARAMS[k] for k in ("symmetrize", "weight", "nodelist"))
PARAMS["workers"] = """\
workers : int or None
    CPU threads for the sparse products (``None``: the cores this process may use, at most 8;
    ``1``: single-threaded). The result does not depend on it. Ignored for CuPy input."""

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)%\((?P<name>\w+)\)s[ \t]*$", re.M)


def fill_doc(obj):
    """Replace each placeholder line ``%(name)s`` of ``obj.__doc__`` by ``PARAMS[name]``.

    An unknown name raises KeyError at import time. Under ``python -OO`` (no docstrings)
    ``obj`` is returned unchanged. Returns ``obj``; call it after the definition (see the
    module docstring).
    """
    if obj.__doc__:
        def paragraph(m):
            indent = m.group("indent")
            return "\n".join(indent + line if line else line
                             for line in PARAMS[m.group("name")].splitlines())
        obj.__doc__ = _PLACEHOLDER.sub(paragraph, obj.__doc__)
    return obj
