"""Small shared pieces of the checks: dense operators of the paper and counterexample records."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from ngc_ref import normalized_adjacency

from .claim import Tolerance, rerun_command
from .graphs import as_dense

#: Relative tolerance for identities that are exact in real arithmetic (float64 checks); a
#: :class:`~.claim.Tolerance`, so no violation is ever stated as a ratio to it.
EXACT_RTOL = Tolerance(1e-10)

#: Why the results inside Lemma 1's and Theorem 1's hypotheses run at λ = √n: stated in their
#: summaries, and under :data:`SQRT_N_KEY` in their evidence, where the report's opening
#: paragraph finds them (``report.structural_finding_lines``).
SQRT_N_WHY = "λ = √n because at fixed λ Assumption 2 fails for every family (see assumption-2)"
SQRT_N_KEY = "why_lambda_sqrt_n"


def dense_norm_adj(A, norm):
    return normalized_adjacency(A, norm=norm).toarray()


def dense_laplacian(A, norm):
    An = dense_norm_adj(A, norm)
    return np.eye(An.shape[0]) - An


def dense_series(T, S):
    """Σ_{s=0}^S T^s of a dense square ``T`` by Horner (M ← I + T M, S times): the
    obviously-correct reference of a truncated series, for small graphs. With T = rÃ it is
    (λ + 1)·Ã_S (Eq. 4); with T = r(Ã − εXXᵀ/‖XXᵀ‖_F), (λ + 1)·R_S (Eq. 17).

    Examples
    --------
    >>> import numpy as np
    >>> dense_series(np.array([[0.0, 0.5], [0.5, 0.0]]), 2)
    array([[1.25, 0.5 ],
           [0.5 , 1.25]])
    """
    n = T.shape[0]
    M = np.eye(n)
    for _ in range(S):
        M = np.eye(n) + T @ M
    return M


#: Edge lists up to this length are stored in counterexamples; longer graphs are identified by
#: their generator (family, n, seed in the name: the ``rerun`` command rebuilds them) and a hash.
MAX_RECORDED_EDGES = 300


def graph_record(name, A):
    """Enough to identify the graph: n, the edge count, a SHA-256 of the undirected edge list,
    and the edge list itself when it is short enough to copy by hand."""
    import hashlib
    A = sp.triu(sp.csr_array(A), k=1).tocoo()
    order = np.lexsort((A.col, A.row))
    edges = np.stack([A.row[order], A.col[order]], axis=1).astype(np.int64)
    rec = {"name": name, "n": int(A.shape[0]), "n_edges": int(A.nnz),
           "edges_sha256": hashlib.sha256(edges.tobytes()).hexdigest()}
    if A.nnz <= MAX_RECORDED_EDGES:
        rec["edges"] = edges.tolist()
    return rec


def public(row, drop=("A",)):
    """``row`` without its adjacency (and the other keys in ``drop``): what the evidence keeps."""
    return {k: v for k, v in row.items() if k not in drop}


def counterexample(claim_id, ctx, graph=None, no_graph=None, **fields):
    """The record of a counterexample: its ``rerun`` command (:func:`.claim.rerun_command`:
    safe and complete as printed), the graph (:func:`graph_record`) and ``fields``.

    A counterexample names its graph (``graph=(name, A)``; the report's headline shows it), or
    a data set (``dataset=``), or says why the statement involves none (``no_graph="..."``:
    a statement about the noise alone, or about matrix shapes)."""
    if graph is not None and no_graph is not None:
        raise ValueError(f"{claim_id}: a counterexample has a graph or no_graph, not both")
    out = {"rerun": rerun_command(claim_id, ctx)}
    if graph is not None:
        out["graph"] = graph_record(*graph)
    if no_graph is not None:
        out["no_graph"] = str(no_graph)
    out.update(fields)
    return out


class Judgement(NamedTuple):
    """What a judge decides from the measured rows: the verdict, the rows it was decided on and
    the row that decides it (the worst case; None where there is none). It unpacks as
    ``verdict, rows, worst``."""

    verdict: str
    rows: list
    worst: dict | None = None


def plain(rows):
    """``rows`` (dicts) with their arrays as lists: what the evidence keeps of a judge's rows."""
    return [{k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in r.items()}
            for r in rows]


def judged(statement, ctx, norm, judgement, evidence, summary, failure=None, *, rows_key=None,
           figures=(), **options):
    """The result of ``statement`` in ``norm`` from a judge's :class:`Judgement`: a check is
    measure (the rows) → judge (the verdict and the worst row) → ``judged``.

    Parameters
    ----------
    statement : Statement or Claim
        What the result is about (its ``result`` method makes it, its ``id`` is rerun).
    ctx : Context
        The run (the counterexample's ``rerun`` command).
    norm : str
        The normalisation.
    judgement : Judgement or tuple
        ``(verdict, rows, worst)``.
    evidence : dict
        What was measured and the rule that judged it; with ``rows_key`` the judgement's rows
        are added under that key (:func:`plain`).
    summary : str or callable
        The one-line evidence, or ``summary(worst) -> str``.
    failure : mapping or callable, optional
        The counterexample's fields (``graph=(name, A)`` among them, see
        :func:`counterexample`), or ``failure(worst) -> fields``; used on ``fails`` only,
        where it is required.
    rows_key : str, optional
        Where the rows go in the evidence (None: they are not added).
    figures, **options
        As :meth:`Statement.result` (``violation=`` a :class:`~.claim.Violation`,
        ``search=``, ...).

    Examples
    --------
    >>> from ngc_ref_theory.kit.claim import Claim, Context
    >>> C = Claim("doc-judged", "Sec. 0", "x ≤ 1", norms=("sym",))
    >>> rows = [{"case": "a", "x": 0.5}, {"case": "b", "x": 3.0}]
    >>> worst = max(rows, key=lambda r: r["x"])
    >>> res = judged(C, Context(), "sym", Judgement("fails", rows, worst),
    ...              {"rule": "x ≤ 1"}, f"x = {worst['x']:g} on {worst['case']}",
    ...              lambda w: {"case": w["case"], "x": w["x"]}, rows_key="cases")
    >>> res.summary, res.counterexample["x"], len(res.evidence["cases"])
    ('as-stated: x = 3 on b', 3.0, 2)
    """
    verdict, rows, worst = judgement
    if rows_key is not None:
        evidence = dict(evidence, **{rows_key: plain(rows)})
    if callable(summary):
        summary = summary(worst)
    ce = None
    if verdict == "fails":
        if failure is None:
            raise ValueError(f"{statement.id}: a 'fails' judgement needs failure= (the "
                             "counterexample's fields)")
        fields = dict(failure(worst) if callable(failure) else failure)
        ce = counterexample(statement.id, ctx, **fields)
    return statement.result(norm, verdict, evidence, summary, ce, figures, **options)


def matching_norm(M, norm):
    """∞-norm for rw (where ‖Ã_rw‖_∞ = 1) and 2-norm for sym (where ‖Ã_sym‖_2 = 1)."""
    return float(np.linalg.norm(as_dense(M), ord=np.inf if norm == "rw" else 2))
