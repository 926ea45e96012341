"""The paper's claims about its experiments, judged on our runs (rules in :mod:`.judge`).

:func:`judge_target` takes ``acc[(dataset, level, reading)][model]`` — per-run test accuracies
in points, aligned by run (None for a failed run) — and returns one kit result per claim and
reading: the quoted sentence, the verdict, the rule that turned the words into numbers, a
one-line summary and the comparisons behind it, and for a ``fails`` the command that re-runs
it. Each judge here returns a :class:`.judge.Sentence` of the sentence's statement on its
target (``TARGETS[target].sentence(key)``), made a result by :func:`.judge.sentence_result`,
so a sentence judged on several targets (``bold``, ``rngc-over-ngc``, ``ngc-beats-mlp``) is
told which."""

from __future__ import annotations

import math

import numpy as np

from ..kit.claim import worst_verdict
from ..kit.stats import interval_verdict
from .judge import (BARELY, CHANCE_MARGIN, GREATLY, MATCH_MARGIN, beats_all, compare, describe,
                    Sentence, interval_text, paired, sentence_result, summarize, top_two, worst)
from ..paper.experiments import ROW_NORMALIZATION, lookup
from .targets import DEPTH_S, TARGETS, RunContext

BASELINES = ("mlp", "gcn", "sgc", "s2gc", "appnp")


def _columns(acc, reading):
    return [c for c in acc if c[2] == reading]


def _highest(columns):
    """The column with the highest level per data set."""
    best = {}
    for c in columns:
        if c[0] not in best or c[1] > best[c[0]][1]:
            best[c[0]] = c
    return list(best.values())


def _beats(statement, acc, columns, ours, baselines, rule_words, threshold=0.0):
    rows = beats_all(acc, columns, ours, baselines, threshold=threshold)
    verdict = worst_verdict(r["reading"] for r in rows)
    failing = [r for r in rows if r["reading"] == "fails"]
    if failing:
        w = min(failing, key=lambda r: r["ci_bonferroni"][1])
        text = (f"{len(failing)} of {len(rows)} paired comparisons on the other side "
                f"(Bonferroni); most: {describe(w)}")
    else:
        text = f"{len(rows)} paired comparisons; weakest: {describe(worst(rows))}"
    return Sentence(statement, verdict, rows, text, rule_words)


def rngc_over_ngc(acc, columns, target):
    """"in general, RNGC still slightly outperforms NGC": the pooled paired mean of RNGC − NGC
    over every run of every column (the paper's 'in general'), judged on ``target``."""
    deltas, rows = [], []
    for c in columns:
        if "rngc" in acc[c] and "ngc" in acc[c]:
            d = paired(acc[c]["rngc"], acc[c]["ngc"])
            deltas.extend(d.tolist())
            row = compare(d, 1)
            row.update(column=list(c))
            rows.append(row)
    pooled = compare(np.asarray(deltas), 1)
    return Sentence(
        TARGETS[target].sentence("rngc-over-ngc"), pooled["reading"], rows,
        f"RNGC − NGC pooled over {len(rows)} columns ({pooled['runs']} paired runs): "
        f"{interval_text(pooled, 2)} points",
        "holds when the 95 % interval of the pooled paired mean RNGC − NGC lies above "
        "0, fails when it lies below 0")


def bold(acc, columns, others, target):
    rows = top_two(acc, columns, ("ngc", "rngc"), others)
    verdict = worst_verdict(r["reading"] for r in rows)
    off = [r for r in rows if r["reading"] != "holds"]
    summary = (f"best of NGC/RNGC first or second (by means) in {len(rows) - len(off)} of "
               f"{len(rows)} columns" + (": not in " + "; ".join(
                   f"{r['column'][0]} {r['column'][1]:g} (rank {r['rank_of_best_ours']}, behind "
                   f"{', '.join(r['ahead'])})" for r in off) if off else ""))
    return Sentence(
        TARGETS[target].sentence("bold"), verdict, rows, summary,
        "the paper's bold: NGC or RNGC first or second in each column, by means, "
        f"among the models run here ({', '.join(('ngc', 'rngc', *others))}); a column "
        "fails when two models each beat both NGC and RNGC (paired, Bonferroni)")


def mlp_weak(acc, columns, target):
    return _beats(TARGETS[target].sentence("ngc-beats-mlp"), acc, _highest(columns), ("ngc",),
                  ("mlp",),
                  "at the highest noise level of each data set, NGC − MLP > 0 (paired 95 % "
                  "interval; fails on a Bonferroni interval below 0)")


def _chance(acc, columns, n_classes):
    rows = []
    for c in _highest(columns):
        if "mlp" not in acc[c]:
            continue
        s = summarize(acc[c]["mlp"])
        chance = 100.0 / n_classes(c[0])
        lo, hi = s["ci"] if s["ci"] else (s["mean"], s["mean"])
        reading = interval_verdict((lo, hi), holds_at_most=chance + CHANCE_MARGIN,
                                   fails_above=chance + CHANCE_MARGIN)
        rows.append({"column": list(c), "mlp_mean": s["mean"], "ci": [lo, hi],
                     "chance": chance, "reading": reading})
    summary = "; ".join(f"{r['column'][0]} ξ={r['column'][1]:g}: MLP {r['mlp_mean']:.1f} "
                        f"(chance {r['chance']:.1f})" for r in rows)
    verdict = worst_verdict(r["reading"] for r in rows)
    return Sentence(
        TARGETS["fig:noise"].sentence("mlp-random-guess"), verdict, rows, summary,
        f"at the highest level of each data set MLP's 95 % interval lies within "
        f"{CHANCE_MARGIN:g} points of chance (100/C); fails when it lies above")


def especially_pubmed(verdict, rows):
    """The one reading of "especially on Pubmed" (``gcn-pubmed``: GCN's "denoising performance
    is limited especially on Pubmed"; ``depth-noisy``: shallow RNGC "not good as deeper RNGC
    models, especially on the large graph like Pubmed"): ``verdict`` (the comparisons'),
    turned ``fails`` where it holds but Pubmed's comparison is not the one of largest mean
    gain among ``rows`` (by means, one row per data set; the first of equal means counts as
    the largest). Without a Pubmed row, or a verdict other than ``holds``, ``verdict``.

    Examples
    --------
    >>> rows = [{"column": ["cora", 1.0], "mean": 2.0}, {"column": ["pubmed", 1.0], "mean": 5.0}]
    >>> especially_pubmed("holds", rows), especially_pubmed("holds", rows[::-1][1:])
    ('holds', 'holds')
    >>> rows[1]["mean"] = 1.0
    >>> especially_pubmed("holds", rows), especially_pubmed("inconclusive", rows)
    ('fails', 'inconclusive')
    """
    pub = [r for r in rows if r["column"][0] == "pubmed"]
    if pub and verdict == "holds" and max(rows, key=lambda r: r["mean"]) is not pub[0]:
        return "fails"
    return verdict


def _gcn_pubmed(acc, columns):
    rows = []
    for c in _highest(columns):
        if "ngc" in acc[c] and "gcn" in acc[c]:
            row = compare(paired(acc[c]["ngc"], acc[c]["gcn"]), 1)
            row.update(column=list(c))
            rows.append(row)
    pub = [r for r in rows if r["column"][0] == "pubmed"]
    if not pub:
        return None
    verdict = especially_pubmed(pub[0]["reading"], rows)
    summary = "NGC − GCN at the highest level: " + "; ".join(
        f"{r['column'][0]} {interval_text(r)}" for r in rows)
    return Sentence(
        TARGETS["fig:noise"].sentence("gcn-pubmed"), verdict, rows, summary,
        "NGC − GCN > 0 on Pubmed at its highest level (paired 95 % interval) and the "
        "gap largest on Pubmed among the data sets ('especially'), by means")


def _heterophily_mlp(acc, columns):
    rows = []
    gnns = ("gcn", "s2gc", "ngc", "rngc")
    for c in columns:
        if "mlp" not in acc[c]:
            continue
        m = summarize(acc[c]["mlp"])["mean"]
        present = [g for g in gnns if g in acc[c]]
        beaten = [g for g in present if summarize(acc[c][g])["mean"] < m]
        rows.append({"column": list(c), "mlp_beats": beaten, "of": present,
                     "reading": "holds" if len(beaten) > len(present) / 2 else "fails"})
    most = sum(r["reading"] == "holds" for r in rows)
    # no column with MLP's number (it failed in every run): nothing to judge
    verdict = "inconclusive" if not rows else "holds" if most > len(rows) / 2 else "fails"
    return Sentence(
        TARGETS["tab:heterophily"].sentence("heterophily-mlp"), verdict, rows,
        f"MLP beats most GNNs (by means) in {most} of {len(rows)} columns",
        "by means: MLP above more than half of GCN, S²GC, NGC, RNGC in more than half "
        "of the columns")


def _depth(acc, columns):
    out = []
    rows = []
    for c in columns:
        if c[1] != 0.0:
            continue
        for m in ("ngc", "rngc"):
            # keyed by S: an S that failed in every run leaves a gap, not a shift of the others
            by_S = {s: summarize(acc[c].get(f"{m}@S={s}", []))["mean"] for s in DEPTH_S}
            by_S = {s: x for s, x in by_S.items() if x is not None}
            if not by_S:
                continue
            means = list(by_S.values())
            spread = max(means) - min(means)
            late = [x for s, x in by_S.items() if s >= 4]
            late_spread = max(late) - min(late) if late else None
            want = "greatly" if c[0] == "citeseer" else "barely"
            if want == "barely":
                reading = ("holds" if spread <= BARELY else "fails" if spread >= GREATLY
                           else "inconclusive")
            else:
                reading = ("holds" if spread >= GREATLY else "fails" if spread <= BARELY
                           else "inconclusive")
            rows.append({"column": list(c), "model": m, "range": spread,
                         "range_from_S4": late_spread, "expected": want,
                         "means_by_S": {str(s): x for s, x in by_S.items()},
                         "reading": reading})
    if rows:
        verdict = worst_verdict(r["reading"] for r in rows)
        out.append(Sentence(
            TARGETS["fig:depth"].sentence("depth-clean"), verdict, rows,
            "; ".join(f"{r['model']} {r['column'][0]}: range {r['range']:.1f} "
                      + (f"({r['range_from_S4']:.1f} from S = 4 on; "
                         if r["range_from_S4"] is not None else "(")
                      + f"expected {r['expected']})" for r in rows),
            f"clean features: the range of the mean accuracy over S ∈ "
            f"{list(DEPTH_S)} is 'barely' ≤ {BARELY:g} points (fails ≥ {GREATLY:g}) "
            f"on Cora and Pubmed and 'greatly' ≥ {GREATLY:g} (fails ≤ {BARELY:g}) "
            "on Citeseer"))
    rows = []
    for c in columns:
        if c[1] == 0.0 or "rngc@S=1" not in acc[c] or "rngc@S=16" not in acc[c]:
            continue
        row = compare(paired(acc[c]["rngc@S=16"], acc[c]["rngc@S=1"]), 1)
        row.update(column=list(c))
        rows.append(row)
    if rows:
        verdict = especially_pubmed(worst_verdict(r["reading"] for r in rows), rows)
        out.append(Sentence(
            TARGETS["fig:depth"].sentence("depth-noisy"), verdict, rows,
            "RNGC S=16 − S=1 at ξ = 1: " + "; ".join(
                f"{r['column'][0]} {interval_text(r)}" for r in rows),
            "noisy features (ξ = 1): RNGC at S = 16 beats S = 1 on every data set "
            "(paired 95 % interval) and gains most on Pubmed ('especially', by "
            "means)"))
    return out


def _row_norm(acc, columns):
    rows = []
    pairs = sorted({(c[0], c[1]) for c in columns})
    m = sum(1 for d, lv in pairs if (d, lv, "rn") in acc and (d, lv, "raw") in acc)
    for d, lv in pairs:
        a, b = acc.get((d, lv, "rn")), acc.get((d, lv, "raw"))
        if a is None or b is None or "ngc" not in a or "ngc" not in b:
            continue
        row = compare(paired(a["ngc"], b["ngc"]), m)
        row.update(column=[d, lv])
        rows.append(row)
    paper = []
    for d, lv in pairs:
        w, wo = lookup(ROW_NORMALIZATION.label, "w RN", d, lv), lookup(
            ROW_NORMALIZATION.label, "w/o RN", d, lv)
        if w is not None and wo is not None:
            paper.append(f"{d} ξ={lv:g} {w.mean - wo.mean:+.1f}")
    verdict = worst_verdict(r["reading"] for r in rows)
    return Sentence(
        TARGETS["tab:row normalization"].sentence("row-norm"), verdict, rows,
        "NGC with − without RN, ours: " + "; ".join(
            f"{r['column'][0]} ξ={r['column'][1]:g} {interval_text(r)}" for r in rows)
        + ". The paper's own table: " + "; ".join(paper),
        "with − without row normalisation > 0 for every (data set, ξ), paired on the "
        "same noise draws (95 %; fails on a Bonferroni interval below 0)")


def judge_target(key, acc, n_classes, ctx=None):
    """The results of target ``key``'s sentences (:func:`.judge.sentence_result`: kit
    results, their ``fails`` rerun as the run of ``ctx`` ran them; default: a default run) from
    ``acc[(dataset, level, reading)][model]``; ``n_classes(dataset)`` gives the number of
    classes (chance = 100/C)."""
    ctx = RunContext() if ctx is None else ctx
    return [sentence_result(s, ctx, reading) for s, reading in _judged(key, acc, n_classes)]


def _judged(key, acc, n_classes):
    """``(Sentence, reading or None)`` of each sentence target ``key`` judges on ``acc``."""
    t = TARGETS[key]
    out = []
    if key == "tab:row normalization":
        return [(_row_norm(acc, list(acc)), None)] if acc else []
    if key == "fig:depth":
        return [(s, None) for s in _depth(acc, list(acc))]
    for reading in t.readings:
        cols = _columns(acc, reading)
        if not cols:
            continue
        found = []
        others = tuple(m for m in t.models if m in BASELINES)
        if key == "fig:noise":
            found.append(_chance(acc, cols, n_classes))
            found.append(_beats(t.sentence("ngc-best-fig"), acc, cols, ("ngc", "rngc"), others,
                                "NGC − b > 0 and RNGC − b > 0 for every baseline b and column "
                                "(paired 95 % intervals; fails on a Bonferroni interval below "
                                "0)"))
            g = _gcn_pubmed(acc, cols)
            if g is not None:
                found.append(g)
        else:
            found.append(bold(acc, cols, others, key))
        if key == "tab:heterophily":
            found.append(_beats(t.sentence("heterophily-rngc"), acc, cols, ("rngc",), others,
                                f"'better or matches': RNGC − b > −{MATCH_MARGIN:g} points for "
                                f"every baseline b and column (paired 95 %); fails when a "
                                f"Bonferroni interval lies below −{MATCH_MARGIN:g}",
                                threshold=-MATCH_MARGIN))
            found.append(_heterophily_mlp(acc, cols))
        if key == "tab:coauthor":
            found.append(_beats(t.sentence("coauthor-mlp"), acc, cols, ("gcn", "rngc"),
                                ("mlp",),
                                "GCN − MLP > 0 and RNGC − MLP > 0 in every column (paired 95 "
                                "%; fails on a Bonferroni interval below 0)"))
            found.append(_beats(t.sentence("coauthor-gcn"), acc, cols, ("rngc",), ("gcn",),
                                "RNGC − GCN > 0 in every column (paired 95 %; fails on a "
                                "Bonferroni interval below 0)"))
        if key == "tab:flip":
            high = [c for c in cols if math.isclose(c[1], 0.4)]
            found.append(_beats(t.sentence("flip-rngc"), acc, high, ("rngc",), others,
                                "at p = 0.4, RNGC − b > 0 for every baseline b and data set "
                                "(paired 95 %; fails on a Bonferroni interval below 0)"))
        found.append(rngc_over_ngc(acc, cols, key))
        if key != "fig:noise":
            found.append(mlp_weak(acc, cols, key))
        out.extend((s, reading) for s in found)
    return out


__all__ = ["especially_pubmed", "judge_target", "rngc_over_ngc"]
