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
    # The one statement of the default rule of ``norm``: every public function with a ``norm``
    # parameter takes it keyword-only and includes this paragraph; tests/test_api.py checks
    # each default against the functions named here.
    "norm": """\
norm : {"sym", "rw"}
    The normalisation of Ã: D̃^{-1/2} Ã D̃^{-1/2} (``"sym"``) or D̃⁻¹Ã (``"rw"``). The
    default is the paper's for what the function computes: ``"sym"``, the paper's
    experiments, for the operators, solvers and trainers; ``"rw"``, the paper's theory, for
    τ (:func:`ngc_ref.connectivity_factor`) and Theorem 1's trajectory
    (:func:`ngc_ref.training.theory_trajectory`) only: "this result is obtained by using
    D̃⁻¹Ã for the ease of theoretical analysis while in experiments we adopt more commonly
    used D̃^{-1/2}ÃD̃^{-1/2}" (footnote to Remark 1).""",
    "symmetrize": """\
symmetrize : bool or {"max", "mean"}
    How to treat a non-symmetric ``A``: ``False`` (default) rejects it with a ValueError,
    ``True`` or ``"max"`` takes max(A, Aᵀ) (the union of the edges), ``"mean"`` (A + Aᵀ)/2.""",
    "weight": """\
weight : str or None, default 'weight'
    Edge attribute used as the weight when the graph is a networkx graph (networkx's own
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
    "n": """\
n : int
    Number of nodes, ``n >= 1``.""",
    "seed": """\
seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
    The source of the random numbers, made a Generator once by
    :func:`ngc_ref.validation.as_generator`: the same seed gives the same numbers; a
    Generator passed in is advanced.""",
    "loss_history": """\
loss_history : ndarray, shape (epochs,)
    Training cross-entropy (without the decay term) before each update.""",
}

#: How a graph argument is read, in the order of the signatures: one placeholder for the three.
PARAMS["graph_options"] = "\n".join(PARAMS[k] for k in ("symmetrize", "weight", "nodelist"))
PARAMS["workers"] = """\
workers : int or None
    CPU threads for the sparse products (``None``: the cores this process may use, at most 8;
    ``1``: single-threaded). The result does not depend on it. Ignored for CuPy input."""
PARAMS["reorder"] = """\
reorder : {"auto", "rcm", None}, default "auto"
    The node order the sparse products run in. ``"rcm"``: the graph is permuted once by
    reverse Cuthill–McKee (:func:`scipy.sparse.csgraph.reverse_cuthill_mckee`; the permutation
    and the permuted copy of Ã_norm are kept with the operator and go through the memory
    guard), X into that order and the result back, so that each product finds the rows of X
    it reads in the cache (1.4-6x faster per product on real and geometric graphs,
    docs/benchmarks.md). ``None``: the caller's order. ``"auto"``: RCM where the cost model of
    :mod:`ngc_ref._order` says it pays — not on a random graph (no order has locality), not
    when the rows of X fit in the cache, not when the call makes too few products to pay for
    the permutation, and not on a GPU (the model is measured on CPU caches; ``"rcm"`` runs
    there too). The result is in the caller's node order either way and equal to the
    unreordered one to rounding (the sums are added in another order: about 1e-15 relative
    in float64, 1e-7 in float32); pass ``None`` for the caller's order bit for bit (what is
    trained on the result, a GCN's accuracy, can move by more than the rounding)."""

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)%\((?P<name>\w+)\)s[ \t]*$", re.M)


#: A numpydoc section that comes after See Also: the header line and its underline.
_AFTER_SEE_ALSO = re.compile(r"^(?P<indent>[ \t]*)(?:Notes|References|Examples)[ \t]*\n"
                             r"(?P=indent)-{3,}[ \t]*$", re.M)
_SEE_ALSO = re.compile(r"^[ \t]*See Also[ \t]*$", re.M)


def with_see_also(doc, entries):
    r"""``doc`` with a numpydoc See Also section listing ``entries`` (``(name, description)``).

    The section goes before ``Notes``, ``References`` or ``Examples`` (numpydoc's order), or
    at the end, indented like the docstring's body. A docstring that has a See Also section
    already, or none at all (``python -OO``), is returned unchanged.

    Examples
    --------
    >>> from ngc_ref._docs import with_see_also
    >>> print(with_see_also("Summary.\n\nNotes\n-----\nWhy.", [("f", "Its twin")]))
    Summary.
    <BLANKLINE>
    See Also
    --------
    f : Its twin.
    <BLANKLINE>
    Notes
    -----
    Why.
    """
    if not doc or _SEE_ALSO.search(doc):
        return doc
    later = _AFTER_SEE_ALSO.search(doc)
    if later:
        indent = later.group("indent")
    else:
        body = [line for line in doc.splitlines()[1:] if line.strip()]
        indent = min((line[:len(line) - len(line.lstrip())] for line in body), key=len,
                     default="    ")
    section = "\n".join([f"{indent}See Also", f"{indent}--------"]
                        + [f"{indent}{name} : {text}." for name, text in entries])
    if later:
        return f"{doc[:later.start()]}{section}\n\n{doc[later.start():]}"
    stripped = doc.rstrip()
    return f"{stripped}\n\n{section}\n{doc[len(stripped):].lstrip(chr(10))}"


def add_see_also(package):
    """Write the See Also section of every imported object of ``package`` (a module name, or a
    prefix of module names) listed in :data:`ngc_ref._see_also.SEE_ALSO` into its docstring.

    Called once at the end of ``ngc_ref/__init__.py`` and of ``ngc_ref/training/__init__.py``
    (imported on first use); a module not imported yet is left for its own package's call, and
    an object a module makes on first use (``ngc_ref.exceptions.ConvergenceWarning``) for the
    call that module makes then: it is looked up in the module's namespace, not with
    ``getattr``, which would make it now.
    """
    import sys
    from ._see_also import SEE_ALSO
    for key, entries in SEE_ALSO.items():
        module, _, name = key.rpartition(".")
        if (module == package or module.startswith(package + ".")) and module in sys.modules:
            obj = vars(sys.modules[module]).get(name)
            if obj is not None:
                obj.__doc__ = with_see_also(obj.__doc__, entries)


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
