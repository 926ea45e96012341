"""Verdicts: each cell's mean against the paper's number, and the paper's claims per table.

**A cell** (one model in one column of a table) gets

* ``reproduced`` when the paper's mean lies inside our interval: the 95 % t-interval of our
  mean over runs, widened on each side by the paper's own 95 % half-width t·s_p/√n_p where
  the paper gives a std s_p over n_p runs (so a cell is not called off because the paper's
  own mean is uncertain). With a single run of ours there is no spread of our own: the
  interval is then our value ± t·s_p·√(1 + 1/n_p) (a prediction interval for one new run,
  from the paper's per-run spread), and without a paper std the cell is ``inconclusive``;
* ``below`` / ``above`` when the paper's mean lies above / below that interval, with the gap
  (ours − paper) in points;
* no verdict where the paper has no number (figures, models the table lacks).

**Against the structure-only control** (NGC on signal-free features of the same shape and
scale, run on the same splits and seeds): :func:`versus_control` pairs a cell's runs with the
control's and reads the 95 % t-interval of the mean difference: ``above`` (the model took
something from the features), ``indistinguishable`` (the interval contains 0, or every paired
difference is 0: the model scores what the graph alone gives), ``below``, or ``one run`` (a
single nonzero difference, no interval). A cell ``reproduced`` but ``indistinguishable`` from
its control reproduces the paper's number without showing any use of the features.

**How much "reproduced" says** depends on the run count: the interval a cell is judged by is
our own t(n−1)·s/√n on each side (t = 4.30 at 3 runs) plus the paper's. Where our own part
is the larger and exceeds :data:`WEAK_HALF_WIDTH` points (medians over a table's cells), the
run count, not the paper, makes "reproduced" weak, and the report says so with the whole
interval's half-width (``3 runs: ±25 points``); one run of ours always counts as weak.

**A claim** of the paper (a quoted sentence) is judged from paired per-run differences (the
models of one run share the noisy features): ``holds`` when every comparison it needs has its
95 % interval on the claimed side, ``fails`` when some comparison's Bonferroni-corrected
interval (over the comparisons of the claim) lies on the other side, ``inconclusive``
otherwise. Claims that speak of ranks ("first or second") or of "most" are decided on means,
as the paper's bold marks are, and say so. Thresholds that turn words into numbers ("close to
random guessing", "barely changes", "matches") are stated in the evidence.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..kit.claim import Statement
from ..kit.evidence import Judgement, judged
from ..kit.stats import CONFIDENCE, mean_ci, paired_comparison, t_quantile

#: A cell's reading against the paper's number (not a claim's verdict: the paper's sentences
#: take the kit's :data:`~ngc_ref_theory.kit.claim.VERDICTS`).
CELL_VERDICTS = ("reproduced", "below", "above", "inconclusive")

#: Margin (points) within which "matches" / "better or matches" counts as matching.
MATCH_MARGIN = 2.0
#: "close to random guessing": the mean accuracy within this many points above chance.
CHANCE_MARGIN = 10.0
#: A table whose own (run-count) interval half-width exceeds this many points, and the
#: paper's own, is reported as weak: the paper's tables separate their models by a few
#: points, which such an interval cannot.
WEAK_HALF_WIDTH = 5.0
#: The readings of :func:`versus_control`.
CONTROL_READINGS = ("above", "indistinguishable", "below", "one run")
#: Depth: "barely changes" = the range of the means over S at most this (points) ...
BARELY = 3.0
#: ... and "changes greatly" = at least this.
GREATLY = 6.0


def summarize(values):
    """``{runs, mean, std, ci}`` of accuracies (in points); std with ddof = 0 (the runner's
    and, presumably, the paper's), the interval a t-interval (ddof = 1)."""
    v = np.asarray([x for x in values if x is not None], dtype=float)
    if v.size == 0:
        return {"runs": 0, "mean": None, "std": None, "ci": None}
    mu, ci = mean_ci(v)
    return {"runs": int(v.size), "mean": float(mu), "std": float(np.std(v)),
            "ci": None if math.isnan(ci[0]) else [float(ci[0]), float(ci[1])]}


def judge_cell(values, paper_mean=None, paper_std=None, paper_runs=None):
    """Our values (points) against the paper's mean: ``{interval, verdict, gap}``.

    Examples
    --------
    >>> judge_cell([70.0, 71.0, 72.0], 71.5)["verdict"]
    'reproduced'
    >>> r = judge_cell([50.0, 51.0, 52.0], 75.0, 2.0, 10)
    >>> r["verdict"], round(r["gap"], 1)
    ('below', -24.0)
    >>> judge_cell([90.0], 75.0)["verdict"]          # one run, no std in the paper
    'inconclusive'
    """
    s = summarize(values)
    out = {"interval": None, "verdict": None, "gap": None, "paper_half_width": None}
    if paper_mean is None or s["runs"] == 0:
        return out
    mean = s["mean"]
    out["gap"] = mean - paper_mean
    widen = 0.0
    if paper_std is not None and paper_runs and paper_runs > 1:
        widen = t_quantile(paper_runs - 1) * paper_std / math.sqrt(paper_runs)
        out["paper_half_width"] = widen
    if s["ci"] is not None:
        lo, hi = s["ci"][0] - widen, s["ci"][1] + widen
    elif paper_std is not None:
        df = (paper_runs - 1) if paper_runs and paper_runs > 1 else math.inf
        half = (t_quantile(df) if math.isfinite(df) else 1.959963984540054) * paper_std * math.sqrt(
            1.0 + (1.0 / paper_runs if paper_runs else 0.0))
        lo, hi = mean - half, mean + half
    else:
        out["verdict"] = "inconclusive"
        return out
    out["interval"] = [lo, hi]
    out["verdict"] = ("reproduced" if lo <= paper_mean <= hi
                      else "below" if hi < paper_mean else "above")
    return out


def mark(verdict, gap):
    """The verdict as the report prints it: ✓, ▼ gap, ▲ gap, ?."""
    if verdict == "reproduced":
        return "✓"
    if verdict == "below":
        return f"▼{abs(gap):.1f}"
    if verdict == "above":
        return f"▲{abs(gap):.1f}"
    if verdict == "inconclusive":
        return "?"
    return ""


def half_width(interval):
    """Half the width of a cell's interval (points), or None without one."""
    return None if interval is None else (interval[1] - interval[0]) / 2.0


def versus_control(values, control):
    """A model's runs against its structure-only control's, paired by run.

    Returns ``{mean, ci, runs, reading, identical}`` (points; the t-interval of the mean
    paired difference model − control; ``identical``: the two scored the same in every run)
    with ``reading`` one of :data:`CONTROL_READINGS`, or None where no run has both.

    Examples
    --------
    >>> versus_control([33.0, 40.0, 35.0], [33.0, 40.0, 35.0])["reading"]   # Texas ξ = 1
    'indistinguishable'
    >>> versus_control([70.0, 72.0, 71.0], [50.0, 49.0, 53.0])["reading"]
    'above'
    >>> versus_control([60.0, 40.0, 55.0], [50.0, 50.0, 50.0])["reading"]   # wide interval
    'indistinguishable'
    >>> versus_control([70.0], [50.0])["reading"]
    'one run'
    """
    d = paired(values, control)
    if d.size == 0:
        return None
    row = compare(d, 1)
    if row["reading"] == "holds":
        reading = "above"
    elif row["reading"] == "fails":
        reading = "below"
    elif d.size == 1 and d[0] != 0.0:
        reading = "one run"
    else:
        reading = "indistinguishable"
    ci = None if math.isnan(row["ci"][0]) else row["ci"]
    return {"mean": row["mean"], "ci": ci, "runs": row["runs"], "reading": reading,
            "identical": bool((d == 0.0).all())}


def control_mark(vs):
    """The report's flag for a cell against its control: ``=ctrl`` (the same accuracy in
    every run), ``≈ctrl`` (indistinguishable), ``<ctrl`` (below) or ``""``."""
    if vs is None:
        return ""
    if vs["reading"] == "indistinguishable" and vs.get("identical"):
        return "=ctrl"
    return {"indistinguishable": "≈ctrl", "below": "<ctrl"}.get(vs["reading"], "")


# ------------------------------------------------------------------------------ claims

def paired(a, b):
    """Per-run differences a − b over the runs where both exist (None = a failed run)."""
    pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    return np.array([x - y for x, y in pairs], dtype=float)


def compare(delta, m, threshold=0.0, conf=CONFIDENCE):
    """One comparison "mean Δ > threshold" among ``m``
    (:func:`~ngc_ref_theory.kit.stats.paired_comparison`) as a report row: ``mean``, ``ci``,
    ``ci_bonferroni``, ``runs`` and the three-way ``reading``."""
    c = paired_comparison(delta, m, threshold=threshold, conf=conf)
    return {"mean": c.mean, "ci": list(c.ci), "ci_bonferroni": list(c.ci_bonferroni),
            "runs": c.runs, "reading": c.verdict}


class Sentence(NamedTuple):
    """One of the paper's sentences judged on one target's runs, before its result: the
    sentence's :class:`~ngc_ref_theory.kit.claim.Statement` (a part of its target's claim,
    :class:`.targets.Target`), the verdict, the comparisons it was decided on (``rows``), the
    one-line summary and the ``rule`` that turned the words into numbers. What a judge of
    :mod:`.verdicts` returns; :func:`sentence_result` makes it the statement's result."""

    statement: Statement
    verdict: str
    rows: list
    summary: str
    rule: str


def sentence_result(sentence, ctx, reading=None):
    """The kit's :class:`~ngc_ref_theory.kit.claim.Result` of a judged :class:`Sentence`, made
    by its statement (:func:`~ngc_ref_theory.kit.evidence.judged`), so its id, words, target
    and scope cannot disagree; a ``fails`` carries a counterexample whose ``rerun`` command
    re-runs the sentence as the run of ``ctx`` (a :class:`.targets.RunContext`) ran it, naming
    the data sets of its failing comparisons (all of them where none fails alone).

    The evidence holds the ``rule``, the ``reading`` (where the target runs several) and the
    comparisons (``rows``); :func:`sentence_json` writes it as ``reproduce.json`` holds it.
    ``ValueError`` for a verdict outside the kit's
    :data:`~ngc_ref_theory.kit.claim.VERDICTS` (the kit's Result refuses it) or a statement
    that is not a part of its claim.

    Examples
    --------
    >>> from ngc_ref_theory.kit.claim import Statement
    >>> from ngc_ref_theory.reproduce.targets import RunContext
    >>> st = Statement("tab:x:bold", "the words", "tab:x", "Table 9")
    >>> res = sentence_result(Sentence(st, "holds", [], "s", "r"), RunContext())
    >>> res.id, res.claim, res.scope, res.summary
    ('tab:x:bold', 'tab:x', 'as-stated', 'as-stated: s')
    >>> rec = sentence_json(res)
    >>> rec["claim"], rec["target"], rec["scope"], rec["summary"], rec["rule"]
    ('bold', 'tab:x', 'as-stated', 's', 'r')
    >>> sentence_result(Sentence(st, "reproduced", [], "s", "r"), RunContext())
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: verdict must be one of ('holds', 'fails', ...), got 'reproduced'
    """
    st, verdict, rows, summary, rule = sentence
    prefix = f"{st.claim}:"
    if not st.id.startswith(prefix) or st.id == prefix:
        raise ValueError(f"statement {st.id!r} is not a part of its claim {st.claim!r} (a "
                         "sentence's id is '<target>:<key>')")
    failing = [r for r in rows if r.get("reading") == "fails"] or rows
    datasets = sorted({r["column"][0] for r in failing if r.get("column")})
    evidence = {"rule": rule} | ({} if reading is None else {"reading": reading})
    # "sym": a target's one norm, the experiments' Ã_sym (each model states its own Ã)
    return judged(st, ctx, "sym", Judgement(verdict, rows), evidence, summary,
                  {"dataset": ", ".join(datasets)}, rows_key="rows")


def sentence_json(result):
    """A sentence's :class:`~ngc_ref_theory.kit.claim.Result` (:func:`sentence_result`) as
    ``reproduce.json`` holds it: ``{claim, quote, verdict, rule, summary, evidence, target, id,
    scope, scope_reason}``, ``reading`` where the target runs several, and ``rerun`` (the
    command that re-runs it, as printed) where it fails. ``claim`` is the sentence's key (the
    statement id after ``"<target>:"``), ``quote`` its words, ``evidence`` its comparisons;
    the summary without the scope the result's summary starts with (the record has its own
    ``scope`` field, and reproduce.md does not print it). Example: :func:`sentence_result`.
    """
    ev = result.evidence
    out = {"claim": result.id[len(result.claim) + 1:], "quote": result.statement,
           "verdict": result.verdict, "rule": ev["rule"],
           "summary": result.said,
           "evidence": ev["rows"], "target": result.claim, "id": result.id,
           "scope": result.scope, "scope_reason": result.scope_reason}
    if "reading" in ev:
        out["reading"] = ev["reading"]
    if result.counterexample:
        out["rerun"] = result.counterexample["rerun"]
    return out


def interval_text(row, digits=1):
    """``+1.2 [+0.3, +2.1]``, or the mean alone where there is no interval (one run)."""
    if math.isnan(row["ci"][0]):
        return f"{row['mean']:+.{digits}f} (no interval from {row['runs']} run(s))"
    return (f"{row['mean']:+.{digits}f} [{row['ci'][0]:+.{digits}f}, "
            f"{row['ci'][1]:+.{digits}f}]")


_fmt = interval_text


def beats_all(acc, columns, ours, baselines, *, threshold=0.0):
    """Comparisons "ours − baseline > threshold" for every column, model, baseline present.

    ``acc[column][model]`` is the per-run list of accuracies (points)."""
    todo = [(c, m, b) for c in columns for m in ours for b in baselines
            if m in acc[c] and b in acc[c]]
    rows = []
    for c, m, b in todo:
        row = compare(paired(acc[c][m], acc[c][b]), len(todo), threshold)
        row.update(column=list(c), model=m, baseline=b)
        rows.append(row)
    return rows


def worst(rows):
    """The row furthest from holding (lowest interval bound)."""
    finite = [r for r in rows if not math.isnan(r["ci"][0])]
    return min(finite, key=lambda r: r["ci"][0]) if finite else (rows[0] if rows else None)


def describe(row):
    if row is None:
        return "no comparison could be made"
    col = " ".join(f"{x:g}" if isinstance(x, float) else str(x) for x in row["column"])
    return f"{row['model']} − {row['baseline']} on {col}: {_fmt(row)} points ({row['runs']} runs)"


def top_two(acc, columns, ours, others):
    """Per column: are the best of ``ours`` first or second by means among ours + others?
    ``fails`` where two others each beat every one of ours (paired, Bonferroni)."""
    rows = []
    m_tests = len(columns) * len(others) * len(ours)
    for c in columns:
        present = [m for m in (*ours, *others) if m in acc[c]]
        means = {m: summarize(acc[c][m])["mean"] for m in present}
        means = {m: v for m, v in means.items() if v is not None}
        best_ours = max((means[m] for m in ours if m in means), default=None)
        if best_ours is None:
            continue
        ahead = sorted(b for b in others if b in means and means[b] > best_ours)
        significant = [b for b in ahead
                       if all(compare(paired(acc[c][b], acc[c][m]), m_tests)["ci_bonferroni"][0]
                              > 0 for m in ours if m in acc[c])]
        reading = ("holds" if len(ahead) <= 1 else
                   "fails" if len(significant) >= 2 else "inconclusive")
        rank = 1 + len(ahead)
        rows.append({"column": list(c), "rank_of_best_ours": rank, "ahead": ahead,
                     "significantly_ahead": significant,
                     "means": {m: round(v, 2) for m, v in means.items()}, "reading": reading})
    return rows


__all__ = ["BARELY", "CELL_VERDICTS", "CHANCE_MARGIN", "CONTROL_READINGS", "GREATLY",
           "MATCH_MARGIN", "WEAK_HALF_WIDTH", "beats_all", "compare", "control_mark", "describe",
           "half_width", "interval_text", "judge_cell", "mark", "paired", "Sentence",
           "sentence_json", "sentence_result", "summarize", "top_two", "versus_control", "worst"]
