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
    "norm": """\
norm : {"sym", "rw"}
    The normalisation of Ã: D̃^{-1/2} Ã D̃^{-1/2} (``"sym"``) or D̃⁻¹Ã (``"rw"``).""",
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
