"""From the finished cells to ``reproduce.json`` and ``reproduce.md`` (and the figures).

:func:`build` turns the sweep records into one record per (target, data set, level, reading,
model) — the paper's value, our runs, mean, std, interval, verdict, the structure-only control
of that column, the configuration that ran and its seconds — plus the rows of the paper's
tables that were not run (with the reason), the claims, and which reading of an unstated
choice matches the paper. :func:`markdown` lays each table out as in the paper, paper | ours
side by side.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from ..output.figures import legend_outside, save_figure, subplots, suptitle
from .cells import dataset as load_cached
from .cells import parse_model
from .judge import (WEAK_HALF_WIDTH, control_mark, half_width, judge_cell, mark, sentence_json,
                    summarize, versus_control)
from ..paper.experiments import NOT_RUN_MODELS, PAPER_ROW, TABLES, lookup
from .targets import DEPTH_S, MODEL_HELP, NOT_RUN, TARGETS
from .verdicts import judge_target

CONTROL = "ngc/control"
#: How many cells the summary names (the tables mark every one).
SUMMARY_LIST = 12
PRETTY = {"ngc": "NGC", "rngc": "RNGC", "mlp": "MLP", "gcn": "GCN", "sgc": "SGC",
          "s2gc": "S²GC", "appnp": "APPNP-style", "ngc-rw": "NGC (rw)",
          "rngc-rw": "RNGC (rw)", CONTROL: "control: NGC on signal-free features"}
DATASET = {"cora": "Cora", "citeseer": "Citeseer", "pubmed": "Pubmed", "cornell": "Cornell",
           "texas": "Texas", "wisconsin": "Wisconsin", "actor": "Actor",
           "coauthor-cs": "Coauthor-CS", "coauthor-physics": "Coauthor-Phy",
           "ogbn-products": "ogbn-products"}


def pretty(model):
    base, _, S, _ = parse_model(model)
    if S is not None:
        return f"{PRETTY.get(base, base)} S={S}"
    return PRETTY.get(model, model)


def collect(records):
    """``{target: {(dataset, level, reading): {model: {run: result}}}}`` and cell meta."""
    acc = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    meta = defaultdict(lambda: {"seconds": 0.0, "cpu_seconds": 0.0, "cells": 0,
                                "noise_seconds": 0.0})
    for rec in records:
        if rec is None or "error" in rec:
            continue
        p, res = rec["params"], rec["result"]
        col = (p["dataset"], float(p["level"]), p["reading"])
        for model, r in res["models"].items():
            acc[p["target"]][col][model][p["run"]] = r
        m = meta[(p["target"], p["dataset"])]
        m["seconds"] += rec.get("seconds", 0.0)
        m["cpu_seconds"] += res.get("cpu_seconds", 0.0)
        m["cells"] += 1
        m["noise_seconds"] += res.get("noise_seconds", 0.0)
        m["dtype"] = res.get("dtype")
    return acc, meta


def _runs_in_order(by_run):
    return [by_run[r]["test_acc"] * 100.0 if by_run[r].get("test_acc") is not None else None
            for r in sorted(by_run)]


def _paper_label(target):
    return TARGETS[target].paper_label


def _column_order(t):
    datasets, readings = list(t.levels), list(t.readings)
    return lambda col: (datasets.index(col[0]), col[1], readings.index(col[2]))


def build(records, ctx=None):
    """The report's content (a dict; ``reproduce.json`` minus ``meta``), in the order of
    :data:`TARGETS`, then data set, level and reading. The paper's sentences are judged as
    the run of ``ctx`` (a :class:`.targets.RunContext`; default: a default run) ran them,
    which their ``rerun`` commands repeat (:func:`.judge.sentence_json`), and kept where it
    reports them (``--only TARGET:SENTENCE``: :meth:`.targets.RunContext.reports`)."""
    acc, meta = collect(records)
    cells, claims, readings = [], [], []
    for key in [k for k in TARGETS if k in acc]:
        numbers = {}
        columns = acc[key]
        for col in sorted(columns, key=_column_order(TARGETS[key])):
            models = columns[col]
            control_runs = _runs_in_order(models[CONTROL]) if CONTROL in models else None
            numbers[col] = {}
            for model in [m for m in (*TARGETS[key].models, CONTROL) if m in models]:
                cells.append(_cell_record(key, col, model, models[model], control_runs))
                if cells[-1]["mean"] is not None:   # failed in every run: nothing to judge
                    numbers[col][model] = cells[-1]["runs"]
        claims.extend(sentence_json(r)                           # each names its target
                      for r in judge_target(key, numbers, _n_classes, ctx)
                      if ctx is None or ctx.reports(r.id))
        readings.extend(compare_readings(key, [c for c in cells if c["target"] == key]))
    return {"cells": cells, "not_run_rows": _not_run_rows(acc), "claims": claims,
            "readings": readings, "strength": strength(cells),
            "timing": {f"{k[0]} | {k[1]}": v for k, v in meta.items()}}


def _cell_record(key, col, model, by_run, control_runs):
    """One cell of the report: ``model``'s runs in column ``col = (dataset, level, reading)``
    of target ``key`` (``by_run``: ``{run: result}``) beside the paper's number, judged,
    and compared with the control's runs (``control_runs``; None without a control)."""
    label = _paper_label(key)
    dataset, level, reading = col
    values = _runs_in_order(by_run)
    base, _, _, is_control = parse_model(model)
    entry = None
    if label is not None and not is_control:
        entry = _paper_entry(key, base, dataset, level, reading)
    s = summarize(values)
    j = judge_cell(values, entry.mean if entry else None, entry.std if entry else None,
                   TABLES[label].runs if entry else None)
    first = by_run[min(by_run)]
    return {
        "target": key, "paper_label": label, "dataset": dataset, "noise": TARGETS[key].noise,
        "level": level, "reading": reading, "model": model,
        "paper": None if entry is None else {
            "mean": entry.mean, "std": entry.std, "bold": entry.bold,
            "runs": TABLES[label].runs, "row": _paper_row(key, base, reading)},
        "runs": values, "n_runs": s["runs"], "mean": s["mean"], "std": s["std"],
        "ci": s["ci"], "interval": j["interval"], "verdict": j["verdict"],
        "gap": j["gap"], "interval_half_width": half_width(j["interval"]),
        "own_half_width": half_width(s["ci"]) if j["verdict"] else None,
        "paper_half_width": j["paper_half_width"],
        "control": None if is_control or control_runs is None else summarize(control_runs),
        "vs_control": (None if is_control or control_runs is None
                       else versus_control(values, control_runs)),
        "failed_runs": sum(v is None for v in values),
        "errors": sorted({r["error"] for r in by_run.values() if r.get("error")}),
        "config": first.get("config"),
        "seconds": round(sum(r.get("seconds", 0.0) for r in by_run.values()), 2)}


def _not_run_rows(acc):
    """The rows of the paper's tables that no model of ours reproduces, in the columns that
    ran, with the paper's number and the reason."""
    out = []
    for key in [k for k in TARGETS if k in acc]:
        label = _paper_label(key)
        if label is None or key == "tab:row normalization":
            continue
        ran = {PAPER_ROW.get(parse_model(m)[0]) for m in TARGETS[key].models}
        table = TABLES[label]
        cols = {(c[0], c[1]) for c in acc[key]}
        for row in [r for r in table.rows if r not in ran]:
            for k, (d, lv) in enumerate(table.columns):
                if (d, lv) in cols:
                    e = table.rows[row][k]
                    out.append({"target": key, "paper_label": label, "dataset": d,
                                "level": lv, "model": row, "verdict": "not run",
                                "reason": NOT_RUN_MODELS.get(row, "not run here"),
                                "paper": {"mean": e.mean, "std": e.std, "bold": e.bold,
                                          "runs": table.runs}})
    return out


def strength(cells):
    """Per target, how much its verdicts can say: ``{target: {runs, half_width, widest,
    own_half_width, paper_half_width, weak}}`` — our run counts; the median and the largest
    half-width (points) of the intervals the judged cells were judged by; the medians of
    their two parts, ours (t·s/√n, what more runs narrow; infinite for one run) and the
    paper's; and ``weak``: our part exceeds both :data:`~.judge.WEAK_HALF_WIDTH` and the
    paper's part, i.e. the run count makes "reproduced" say little (the paper's mean may sit
    ``half_width`` points from ours)."""
    out = {}
    for key in dict.fromkeys(c["target"] for c in cells):
        mine = [c for c in cells if c["target"] == key]
        judged = [c for c in mine if c.get("interval_half_width") is not None]
        widths = [c["interval_half_width"] for c in judged]
        own = [math.inf if c["own_half_width"] is None else c["own_half_width"]
               for c in judged]
        paper = [c["paper_half_width"] for c in judged if c["paper_half_width"] is not None]
        runs = sorted({c["n_runs"] for c in mine if c["model"] != CONTROL})
        med = float(np.median(widths)) if widths else None
        own_med = float(np.median(own)) if own else None
        paper_med = float(np.median(paper)) if paper else 0.0
        out[key] = {"runs": runs, "half_width": med,
                    "widest": max(widths) if widths else None,
                    "own_half_width": own_med, "paper_half_width": paper_med,
                    "weak": own_med is not None and own_med > max(WEAK_HALF_WIDTH, paper_med)}
    return out


def strength_text(st):
    """``3 runs: ±25 points`` (the median interval half-width), or ``""`` without one."""
    if not st or st["half_width"] is None:
        return ""
    runs = "/".join(map(str, st["runs"])) or "0"
    return f"{runs} run{'s' if st['runs'] != [1] else ''}: ±{st['half_width']:.0f} points"


def _n_classes(dataset):
    try:
        return int(load_cached(dataset, 0).num_classes)
    except (OSError, ValueError):   # pragma: no cover - the data went away mid-run
        return 2


def _paper_row(target, base, reading):
    if target == "tab:row normalization":
        return "w RN" if reading == "rn" else "w/o RN"
    return PAPER_ROW.get(base)


def _paper_entry(target, base, dataset, level, reading):
    label = _paper_label(target)
    row = _paper_row(target, base, reading)
    if row is None:
        return None
    return lookup(label, row, dataset, level)


def compare_readings(key, cells):
    """Which reading (or Ã normalisation) matches the paper: judged cells, reproduced, mean
    |gap| per reading, over the cells that have a paper number."""
    out = []
    t = TARGETS[key]
    groups = defaultdict(list)
    if len(t.readings) > 1:
        for c in cells:
            if c["verdict"] is not None and c["model"] != CONTROL and key != \
                    "tab:row normalization":
                groups[("reading", c["reading"])].append(c)
    if any(m.endswith("-rw") for m in t.models):
        for c in cells:
            base, norm, _, _ = parse_model(c["model"])
            if c["verdict"] is not None and base in ("ngc", "rngc"):
                groups[("norm", norm or "sym")].append(c)
    if not groups:
        return out
    rows = []
    for (kind, name), cs in sorted(groups.items()):
        gaps = [abs(c["gap"]) for c in cs if c["gap"] is not None]
        rows.append({"kind": kind, "name": name, "cells": len(cs),
                     "reproduced": sum(c["verdict"] == "reproduced" for c in cs),
                     "mean_abs_gap": float(np.mean(gaps)) if gaps else None})
    for kind in {r["kind"] for r in rows}:
        rs = [r for r in rows if r["kind"] == kind]
        best = min(rs, key=lambda r: (-r["reproduced"], r["mean_abs_gap"] or math.inf))
        out.append({"target": key, "choice": "row normalisation after the noise" if kind ==
                    "reading" else "normalisation of Ã (NGC/RNGC rows)", "options": rs,
                    "matches_paper": best["name"]})
    return out


# ------------------------------------------------------------------------------ markdown

def _pm(mean, std, digits=1):
    if mean is None:
        return "—"
    return f"{mean:.{digits}f}" + (f"±{std:.{digits}f}" if std is not None else "")


def _level(x):
    return f"{x:g}"


def _ours(c):
    if c is None or c["mean"] is None:
        return "failed" if c and c["failed_runs"] else "—"
    s = _pm(c["mean"], c["std"] if c["n_runs"] > 1 else None)
    if c["failed_runs"]:
        s += f" ({c['failed_runs']} failed)"
    return s


def table_markdown(key, report):
    """One target's table(s), laid out as in the paper: paper │ ours, verdict marks; one
    table per reading, its rows in the paper's order (:func:`_table_rows`), the control
    last."""
    t = TARGETS[key]
    cells = [c for c in report["cells"] if c["target"] == key]
    if not cells:
        return []
    cols = sorted({(c["dataset"], c["level"]) for c in cells},
                  key=lambda dl: (list(t.levels).index(dl[0]), dl[1]))
    index = {(c["dataset"], c["level"], c["reading"], c["model"]): c for c in cells}
    weak = _weak_header(report.get("strength", {}).get(key))
    if key == "tab:row normalization":
        return _row_normalization_table(cols, index, weak)
    lines = []
    for reading in [r for r in t.readings if any(c["reading"] == r for c in cells)]:
        if len(t.readings) > 1:
            lines.append(f"\n**Reading `{reading}`**: {t.readings[reading]}\n")
        lines += _table_head(f"model{' ' + weak if weak else ''}", cols)
        models = [m for m in t.models if any(k[3] == m for k in index)]
        for row, m in _table_rows(t.paper_label, models):
            if m is None:      # a row of the paper's table we did not run
                parts = [f"{_paper(e)} │ not run" if e else "—"
                         for e in (lookup(t.paper_label, row, d, lv) for d, lv in cols)]
            else:
                parts = [_pair(index.get((d, lv, reading, m))) for d, lv in cols]
            lines.append(_table_row(pretty(m) if m is not None else row, parts))
    return lines


def _table_head(first, cols):
    """A table's header (first cell ``first``, then one column per (data set, level)) and
    its rule."""
    return [f"| {first} | " + " | ".join(f"{DATASET[d]} {_level(lv)}" for d, lv in cols)
            + " |", "|---|" + "---|" * len(cols)]


def _table_row(name, parts):
    return f"| {name} | " + " | ".join(parts) + " |"


def _table_rows(label, models):
    """``(paper row, model)`` pairs in the paper's order: each row of the paper's table with
    the models that reproduce it (``None``: not run here), then our models without a paper
    row, then the control; a figure (``label`` None) lists our models."""
    if label is None:
        return [(None, m) for m in models] + [(None, CONTROL)]
    table = TABLES[label]
    ours_by_row = defaultdict(list)
    for m in models:
        ours_by_row[PAPER_ROW.get(parse_model(m)[0])].append(m)
    rows = [(row, m) for row in table.rows for m in ours_by_row.get(row, []) or [None]]
    rows += [(None, m) for m in models if PAPER_ROW.get(parse_model(m)[0]) not in table.rows]
    return rows + [(None, CONTROL)]


def _row_normalization_table(cols, index, weak):
    """Table ``tab:row normalization``: NGC without and with row normalisation (the paper's
    two rows), then the control of each reading."""
    lines = _table_head(weak, cols)
    for reading, row in (("raw", "w/o RN"), ("rn", "w RN")):
        lines.append(_table_row(row, [_pair(index.get((d, lv, reading, "ngc")))
                                      for d, lv in cols]))
    for reading, row in (("raw", "control w/o RN"), ("rn", "control w RN")):
        lines.append(_table_row(row, [_ours(index.get((d, lv, reading, CONTROL)))
                                      for d, lv in cols]))
    return lines


def _paper(e):
    if e is None:
        return "—"
    s = _pm(e.mean, e.std)
    return f"**{s}**" if e.bold else s


def _pair(c):
    if c is None:
        return "—"
    ours = _ours(c)
    flag = control_mark(c.get("vs_control"))
    if c["paper"] is None:
        return f"{ours} {flag}" if flag else ours
    e = c["paper"]
    paper = _pm(e["mean"], e["std"])
    if e["bold"]:
        paper = f"**{paper}**"
    return f"{paper} │ {ours} {mark(c['verdict'], c['gap'] or 0.0)}" + (
        f" {flag}" if flag else "")


def _weak_header(st):
    """The first header cell's warning where the run count makes "reproduced" weak."""
    if not st or not st["weak"]:
        return ""
    return f"({strength_text(st)}: ✓ weak)"


def like_control(report, key=None):
    """The cells whose model is indistinguishable from its structure-only control (of
    ``key``, or all), reproduced or not."""
    return [c for c in report["cells"] if (key is None or c["target"] == key)
            and (c.get("vs_control") or {}).get("reading") == "indistinguishable"]


def markdown(report, meta, figures):
    """The whole ``reproduce.md``: the run, how to read a cell, the run counts, what was not
    run, the summary, one section per target (:func:`target_section`), the scale run and the
    models.

    A new section of ``reproduce.md`` is one more function returning its lines, called here.
    """
    L = [*_run_lines(meta), *_legend_lines(), *_run_count_lines(meta), *_not_run_lines(meta),
         *_summary_lines(report)]
    for key in TARGETS:
        L += target_section(key, report, figures.get(key, []))
    if meta.get("scale"):
        L += ["", "## Scale: NGC/RNGC on a synthetic graph of ogbn-products' size", ""]
        L += scale_markdown(meta["scale"])
    L += ["", "## Models", ""]
    L += [f"* `{k}` — {v}" for k, v in MODEL_HELP.items()]
    return "\n".join(L) + "\n"


def _run_lines(meta):
    """The title and the run: command, code, versions, machine, seed, time, data, and when
    the cells ran."""
    src = meta["source"]
    code = (f"commit `{src['commit']}`" + (" (dirty)" if src["dirty"] else "")
            if src["commit"] else f"ngc_ref {src['version']}")
    span = meta.get("cells_span")
    cells = (f" The cells ran from {span['first_start']} to {span['last_end']} "
             f"({span['seconds'] / 60:.1f} min from first start to last end, pauses between "
             f"resumed invocations included; {span['cpu_seconds'] / 60:.1f} CPU-min in the "
             f"cells)." if span else "")
    return ["# `ngc-ref reproduce`: the paper's experiments beside the paper's numbers", "",
            f"Command: `{meta['command']}`  ",
            f"Code: {code}; NumPy {meta['numpy']}, SciPy {meta['scipy']}, Python "
            f"{meta['python']}; {meta['cpus']} CPUs; seed {meta['seed']}; {meta['seconds']:.0f} "
            f"s (this invocation), data `{meta['data_root']}`." + cells]


def _legend_lines():
    """How to read a cell: paper │ ours, the verdict marks, the control flags, weak tables."""
    return ["", "Each cell: **paper │ ours** — the paper's mean ± std (bold as in the paper) and "
            "ours (mean ± std over our runs, std with ddof = 0), then the verdict: ✓ reproduced "
            "(the paper's mean inside our 95 % t-interval widened by the paper's own 95 % "
            "half-width t·std/√runs), ▼ below / ▲ above by the gap in points, ? inconclusive "
            "(one run and no paper std). Every model of a run is trained on the same noisy "
            "features (the paper's protocol); the last row of each table is the structure-only "
            "control: NGC on signal-free features of the same shape and scale. **≈ctrl** "
            "flags a model indistinguishable from that control (the 95 % t-interval of its "
            "per-run paired difference to the control contains 0; **=ctrl**: the two score "
            "the same in every run): it scores what the graph alone gives, so a ✓ there "
            "reproduces the paper's number without showing any use of the features; **<ctrl** "
            "a model significantly below it. A table whose header says `(3 runs: ±25 points: ✓ "
            "weak)` judges its cells by 95 % intervals that wide (median half-width over its "
            "cells), mostly because of our few runs (our own part of the interval, t·s/√runs, "
            f"is wider than ±{WEAK_HALF_WIDTH:g} points and than the paper's part): a ✓ there "
            "only says the paper's mean is within that many points of ours.", ""]


def _run_count_lines(meta):
    """The section "Run counts": ours and the paper's per target and data set, with the
    seconds the cells took."""
    L = ["## Run counts", "",
         "Seconds are summed over the cells (wall and CPU time of the cells themselves, "
         "whenever they ran; cells of a resumed run keep the time of the run that made them).",
         "", "| target | data set | our runs | paper's runs | wall s | CPU s |",
         "|---|---|---:|---:|---:|---:|"]
    for row in meta["run_counts"]:
        L.append(f"| {row['target']} | {DATASET.get(row['dataset'], row['dataset'])} | "
                 f"{row['runs']} | {row['paper_runs'] or 'not stated'} | "
                 f"{row.get('seconds', 0):.0f} | {row.get('cpu_seconds', 0):.0f} |")
    return L


def _not_run_lines(meta):
    """The section "Not run": the targets and model rows never run, and what this run
    skipped."""
    L = ["", "## Not run", ""]
    L += [f"* `{key}`: {why}." for key, why in NOT_RUN.items()]
    L += [f"* model rows {row}: {why}." for row, why in NOT_RUN_MODELS.items()]
    L += [f"* {item}" for item in meta.get("skipped_targets") or ()]
    return L


def _summary_lines(report):
    """The section "Summary": per target the judged cells by verdict, the width of their
    intervals and the claims' verdicts; then the weak targets and the cells that score what
    the control scores."""
    summary = verdict_counts(report)
    strengths = report.get("strength", {})
    L = ["", "## Summary", "", "Cells with a paper number, by verdict (of the reproduced: how "
         "many are indistinguishable from the structure-only control, ≈ctrl), the width of "
         "the intervals behind them (runs: median 95 % half-width; weak where our runs' own "
         f"part exceeds ±{WEAK_HALF_WIDTH:g} points and the paper's part), and the paper's "
         "claims (holds / fails / inconclusive; the figures have claims only).", "",
         "| target | reproduced | of which ≈ctrl | below | above | inconclusive | interval | "
         "claims: holds | fails | inconclusive |",
         "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for key in [k for k in TARGETS if any(c["target"] == k for c in report["cells"])]:
        c = summary.get(key)
        cl = [x["verdict"] for x in report["claims"] if x["target"] == key]
        st = strengths.get(key)
        width = (strength_text(st) + (" (weak)" if st["weak"] else "")) if st and \
            st["half_width"] is not None else "—"
        counts = (" | ".join(str(c[v]) for v in ("reproduced", "reproduced_like_control",
                                                  "below", "above", "inconclusive"))
                  if c else "— | — | — | — | —")
        L.append(f"| {key} | {counts} | {width} | {cl.count('holds')} | {cl.count('fails')} | "
                 f"{cl.count('inconclusive')} |")
    weak = [k for k, st in strengths.items() if st["weak"]]
    if weak:
        L += ["", "**Weak at this run count:** " + "; ".join(
            f"`{k}` ({strength_text(strengths[k])})" for k in weak)
            + ": a ✓ there only says the paper's mean lies within that many points of ours; "
            "more runs (`--runs`) narrow it."]
    return L + _like_control_lines(report)


def _like_control_lines(report):
    """The paragraph naming the cells indistinguishable from the structure-only control (the
    first :data:`SUMMARY_LIST`, reproduced ones first), or nothing."""
    flagged = like_control(report)
    if not flagged:
        return []
    # The reproduced ones first: those are the verdicts the flag qualifies.
    flagged.sort(key=lambda c: c["verdict"] != "reproduced")
    more = len(flagged) - SUMMARY_LIST
    return ["", f"**Indistinguishable from the structure-only control ({len(flagged)} "
            f"cells, {sum(c['verdict'] == 'reproduced' for c in flagged)} of them "
            "✓; =ctrl: the same accuracy in every run):** " + "; ".join(
                f"{c['target']} {DATASET.get(c['dataset'], c['dataset'])} "
                f"{_level(c['level'])}"
                + (f" `{c['reading']}`" if shown_reading(c) else "")
                + f" {pretty(c['model'])}"
                + (" ✓" if c["verdict"] == "reproduced" else "")
                + (" (=ctrl)" if c["vs_control"].get("identical") else "")
                for c in flagged[:SUMMARY_LIST])
            + (f"; and {more} more (marked in the tables)" if more > 0 else "")
            + ". These models score what NGC on signal-free features scores: the graph "
            "alone, not the features, explains their accuracy."]


def target_section(key, report, figures=()):
    """One target's section of ``reproduce.md``: what ran, its table(s)
    (:func:`table_markdown`), its figures (file names), the unstated choices and the paper's
    claims; ``[]`` when the report has no cell of ``key``."""
    lines = table_markdown(key, report)
    if not lines:
        return []
    t = TARGETS[key]
    L = ["", f"## `{key}` — {t.title}", "", _target_intro(key, report), "", *lines]
    for fig in figures:
        L += ["", f"![{key}]({fig})"]
    for r in report["readings"]:
        if r["target"] == key:
            L += ["", f"**Unstated choice — {r['choice']}:** " + "; ".join(
                f"`{o['name']}` reproduces {o['reproduced']} of {o['cells']} cells, mean |gap| "
                f"{o['mean_abs_gap']:.1f} points" for o in r["options"] if
                o["mean_abs_gap"] is not None) + f". Closer to the paper: `{r['matches_paper']}`."]
    cl = [x for x in report["claims"] if x["target"] == key]
    if cl:
        L += ["", "**The paper's claims:**", ""]
        L += [f"* **{x['verdict']}**"
              + (f" (reading `{x['reading']}`)" if shown_reading(x) else "")
              + f" — “{x['quote']}” — {x['summary']}. _Rule: {x['rule']}._" for x in cl]
    return L


def shown_reading(rec):
    """The reading of a cell or claim (``rec``) where its target runs several, which the
    report then names; else None."""
    return rec.get("reading") if len(TARGETS[rec["target"]].readings) > 1 else None


def _target_intro(key, report):
    """The paragraph under a target's heading: run counts, noise, interval width, cells like
    the control, a figure's missing numbers, the target's notes."""
    t = TARGETS[key]
    runs = sorted({c["n_runs"] for c in report["cells"] if c["target"] == key})
    st = report.get("strength", {}).get(key)
    weak_words = (f"The 95 % intervals behind the verdicts are ±{st['half_width']:.0f} "
                  f"points (median half-width; up to ±{st['widest']:.0f}): "
                  + ("at this run count \"reproduced\" is weak. " if st["weak"] else "")
                  if st and st["half_width"] is not None else "")
    n_like = len(like_control(report, key))
    like_words = (f"{n_like} cell(s) indistinguishable from the control (≈ctrl, =ctrl). "
                  if n_like else "")
    return (f"Our runs per cell: {', '.join(map(str, runs))} (paper: "
            f"{t.paper_runs or 'not stated'}). Noise: {t.noise}. " + weak_words + like_words
            + ("The paper's figure prints no numbers (its \\includegraphics are empty in the "
               "LaTeX): ours only, and its sentences judged below. "
               if t.paper_label is None else "")
            + " ".join(t.notes))


def scale_markdown(s):
    if "error" in s:
        return [f"The scale run failed: {s['error']}"]
    lines = [f"{s['nodes']:,} nodes, {s['edges']:,} undirected edges (Erdős–Rényi, the "
             f"ogbn-products size; its degrees are not power-law), {s['features']} float32 "
             f"features, λ = {s['lam']:g}, S = {s['S']} (tab:products_hyper uses S = 128: the "
             f"time grows linearly in S).", "",
             "| step | seconds | peak RSS of the process so far (GiB) |", "|---|---:|---:|"]
    for step in s["steps"]:
        lines.append(f"| {step['step']} | {step['seconds']:.1f} | {step['peak_rss_gib']:.2f} |")
    lines.append("")
    lines.append(f"Peak memory {s['peak_rss_gib']:.2f} GiB, total {s['seconds']:.0f} s "
                 f"({s['cpus']} CPUs)" + (f"; {s['note']}" if s.get("note") else "") + ".")
    if s.get("command"):
        lines.append(f"Command: `{s['command']}`.")
    return lines


def _control_words(vs):
    """``  indistinguishable from the control (model − control +0.3 [-2.1, +2.7])``."""
    if not control_mark(vs):
        return ""
    what = "indistinguishable from" if vs["reading"] == "indistinguishable" else "below"
    if vs["ci"] is not None and vs["ci"][0] == vs["ci"][1] == vs["mean"]:
        how = f"{vs['mean']:+.1f} in every run"
    elif vs["ci"] is not None:
        how = f"{vs['mean']:+.1f} [{vs['ci'][0]:+.1f}, {vs['ci'][1]:+.1f}]"
    else:
        how = f"{vs['mean']:+.1f}, one run"
    return f"  {what} the control (model − control {how})"


def verdict_counts(report):
    """Per target, the judged cells by verdict, and ``reproduced_like_control``: the
    reproduced cells indistinguishable from their control."""
    out = {}
    like = like_control(report)
    for c in report["cells"]:
        if c["verdict"] is None:
            continue
        d = out.setdefault(c["target"], {v: 0 for v in ("reproduced", "below", "above",
                                                         "inconclusive",
                                                         "reproduced_like_control")})
        d[c["verdict"]] += 1
        if c["verdict"] == "reproduced" and c in like:
            d["reproduced_like_control"] += 1
    return out


def _noise_label(noise):
    """The noise level's symbol as the paper writes it: ξ for Gaussian noise, p for flipping."""
    return "ξ" if noise == "gaussian" else "p"


def terminal_lines(report):
    """Cell by cell: the paper's number beside ours, the interval and the verdict; a
    ``reproduced`` of a target whose run count makes it weak (:func:`strength`) says so, as
    reproduce.md's ``✓ weak`` does."""
    lines = []
    strengths = report.get("strength", {})
    for c in report["cells"]:
        where = (f"{c['target']:<22} {c['dataset']:<16} "
                 f"{_noise_label(c['noise'])}={_level(c['level']):<5} "
                 f"{c['reading']:<5} {c['model']:<12}")
        ours = (f"ours {_pm(c['mean'], c['std'])} ({c['n_runs']} runs"
                + (f", {c['failed_runs']} failed" if c["failed_runs"] else "") + ")")
        flag = _control_words(c.get("vs_control"))
        if c["paper"] is None:
            lines.append(f"{where} {ours}{flag}")
            continue
        iv = c["interval"]
        ivs = f" [{iv[0]:.1f}, {iv[1]:.1f}]" if iv else ""
        # no verdict where every run failed
        st = strengths.get(c["target"])
        weak = (f"; weak: {strength_text(st)}" if c["verdict"] == "reproduced" and st
                and st["weak"] else "")
        judged = (f"  {c['verdict']} ({c['gap']:+.1f}{weak})" if c["verdict"] is not None
                  else "")
        lines.append(f"{where} paper {_pm(c['paper']['mean'], c['paper']['std'])}  {ours}"
                     f"{ivs}{judged}{flag}")
    for c in report["not_run_rows"]:
        lines.append(f"{c['target']:<22} {c['dataset']:<16} "
                     f"{_noise_label(TARGETS[c['target']].noise)}={_level(c['level']):<5} "
                     f"{'':<5} {c['model']:<12} paper {_pm(c['paper']['mean'], c['paper']['std'])}"
                     f"  not run: {c['reason']}")
    return lines


# ------------------------------------------------------------------------------ figures

def figures(report, stage):
    """PNG figures for Fig. 2 and the depth figures into ``stage``; ``{target: [names]}``.

    A new figure of ``reproduce`` is one more ``_<target>_figure(cells, stage)`` here."""
    out = {}
    cells = report["cells"]
    noise = [c for c in cells if c["target"] == "fig:noise"]
    if noise:
        out["fig:noise"] = [_noise_figure(noise, stage)]
    depth = [c for c in cells if c["target"] == "fig:depth" and "@" in c["model"]]
    if depth:
        out["fig:depth"] = [_depth_figure(depth, stage)]
    return out


def _present(target, cells):
    """The data sets of ``target`` that ``cells`` have, in the target's order."""
    return [d for d in TARGETS[target].levels if any(c["dataset"] == d for c in cells)]


def _noise_figure(noise, stage):
    """Fig. 2: accuracy against the Gaussian noise level ξ, one panel per data set, each model
    and the control (dashed), chance dotted; returns the file name."""
    datasets = _present("fig:noise", noise)
    fig, axes = subplots(1, len(datasets), figsize=(4.2 * len(datasets) + 1.5, 3.6),
                         squeeze=False)
    for ax, d in zip(axes[0], datasets):
        for m in (*TARGETS["fig:noise"].models, CONTROL):
            cs = sorted((c for c in noise if c["dataset"] == d and c["model"] == m
                         and c["mean"] is not None), key=lambda c: c["level"])
            if not cs:
                continue
            ax.errorbar([c["level"] for c in cs], [c["mean"] for c in cs],
                        yerr=[c["std"] for c in cs], label=pretty(m), capsize=2,
                        linestyle="--" if m == CONTROL else "-", marker="o", ms=3)
        ax.axhline(100.0 / _n_classes(d), color="grey", lw=0.8, ls=":", label="chance")
        _accuracy_axes(ax, DATASET[d], "noise level ξ")
    legend_outside(fig, axes[0][-1])
    suptitle(fig, "Fig. 2 reproduced: accuracy vs Gaussian noise (mean ± std over runs)")
    return save_figure(fig, stage / "fig_noise.png")


def _depth_figure(depth, stage):
    """The depth figures: accuracy against S (log scale), NGC above and RNGC below, clean and
    at ξ = 1, one column per data set; returns the file name."""
    datasets = _present("fig:depth", depth)
    fig, axes = subplots(2, len(datasets), figsize=(4.0 * len(datasets) + 1.5, 6.4),
                         squeeze=False)
    for i, base in enumerate(("ngc", "rngc")):
        for ax, d in zip(axes[i], datasets):
            for lv, label in ((0.0, "clean"), (1.0, "noisy ξ = 1")):
                found = (next((c for c in depth if c["dataset"] == d and c["level"] == lv
                               and c["model"] == f"{base}@S={S}"), None) for S in DEPTH_S)
                pts = [(S, c["mean"], c["std"]) for S, c in zip(DEPTH_S, found)
                       if c is not None and c["mean"] is not None]
                if pts:
                    ax.errorbar(*zip(*[(p[0], p[1]) for p in pts]),
                                yerr=[p[2] for p in pts], marker="o", ms=3, capsize=2,
                                label=label)
            ax.set_xscale("log", base=2)
            _accuracy_axes(ax, f"{PRETTY[base]} — {DATASET[d]}", "S (depth)")
    legend_outside(fig, axes[0][-1])
    suptitle(fig, "Depth figures reproduced: accuracy vs S (λ = 32), clean and noisy")
    return save_figure(fig, stage / "fig_depth.png")


def _accuracy_axes(ax, title, xlabel):
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("test accuracy (%)")


__all__ = ["build", "collect", "compare_readings", "figures", "like_control", "markdown",
           "scale_markdown", "shown_reading", "strength", "strength_text", "table_markdown",
           "terminal_lines", "verdict_counts"]
