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

from .._figures import legend_outside, save_figure, subplots, suptitle
from .cells import dataset as load_cached
from .cells import parse_model
from .judge import judge_cell, mark, summarize
from .paper import NOT_RUN_MODELS, PAPER_ROW, TABLES, lookup
from .targets import DEPTH_S, MODEL_HELP, NOT_RUN, TARGETS
from .verdicts import judge_target

CONTROL = "ngc/control"
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


def build(records):
    """The report's content (a dict; ``reproduce.json`` minus ``meta``), in the order of
    :data:`TARGETS`, then data set, level and reading."""
    acc, meta = collect(records)
    cells, claims, readings = [], [], []
    for key in [k for k in TARGETS if k in acc]:
        t = TARGETS[key]
        label = _paper_label(key)
        numbers = {}
        columns = acc[key]
        for col in sorted(columns, key=_column_order(t)):
            models = columns[col]
            dataset, level, reading = col
            numbers[col] = {}
            control = summarize(_runs_in_order(models[CONTROL])) if CONTROL in models else None
            for model in [m for m in (*t.models, CONTROL) if m in models]:
                by_run = models[model]
                values = _runs_in_order(by_run)
                numbers[col][model] = values
                base, _, S, is_control = parse_model(model)
                entry = None
                if label is not None and not is_control:
                    entry = _paper_entry(key, base, dataset, level, reading)
                s = summarize(values)
                j = judge_cell(values, entry.mean if entry else None,
                               entry.std if entry else None,
                               TABLES[label].runs if entry else None)
                first = by_run[min(by_run)]
                errors = sorted({r["error"] for r in by_run.values() if r.get("error")})
                cells.append({
                    "target": key, "paper_label": label, "dataset": dataset, "noise": t.noise,
                    "level": level, "reading": reading, "model": model,
                    "paper": None if entry is None else {
                        "mean": entry.mean, "std": entry.std, "bold": entry.bold,
                        "runs": TABLES[label].runs, "row": _paper_row(key, base, reading)},
                    "runs": values, "n_runs": s["runs"], "mean": s["mean"], "std": s["std"],
                    "ci": s["ci"], "interval": j["interval"], "verdict": j["verdict"],
                    "gap": j["gap"], "control": None if is_control else control,
                    "failed_runs": sum(v is None for v in values), "errors": errors,
                    "config": first.get("config"),
                    "seconds": round(sum(r.get("seconds", 0.0) for r in by_run.values()), 2)})
        for c in judge_target(key, numbers, _n_classes):
            c["target"] = key
            claims.append(c)
        readings.extend(compare_readings(key, [c for c in cells if c["target"] == key]))
    not_run_rows = []
    for key in [k for k in TARGETS if k in acc]:
        label = _paper_label(key)
        if label is None:
            continue
        ran = {PAPER_ROW.get(parse_model(m)[0]) for m in TARGETS[key].models}
        table = TABLES[label]
        for row in table.rows:
            if row in ran or key == "tab:row normalization":
                continue
            cols = {(c[0], c[1]) for c in acc[key]}
            for k, (d, lv) in enumerate(table.columns):
                if (d, lv) in cols:
                    e = table.rows[row][k]
                    not_run_rows.append({"target": key, "paper_label": label, "dataset": d,
                                         "level": lv, "model": row, "verdict": "not run",
                                         "reason": NOT_RUN_MODELS.get(row, "not run here"),
                                         "paper": {"mean": e.mean, "std": e.std,
                                                   "bold": e.bold, "runs": table.runs}})
    return {"cells": cells, "not_run_rows": not_run_rows, "claims": claims,
            "readings": readings, "timing": {f"{k[0]} | {k[1]}": v for k, v in meta.items()}}


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
    """One target's table(s), laid out as in the paper: paper │ ours, verdict marks."""
    t = TARGETS[key]
    cells = [c for c in report["cells"] if c["target"] == key]
    if not cells:
        return []
    lines = []
    label = t.paper_label
    cols_all = sorted({(c["dataset"], c["level"]) for c in cells},
                      key=lambda dl: (list(t.levels).index(dl[0]), dl[1]))
    readings = [r for r in t.readings if any(c["reading"] == r for c in cells)]
    index = {(c["dataset"], c["level"], c["reading"], c["model"]): c for c in cells}
    if key == "tab:row normalization":
        head = "| | " + " | ".join(f"{DATASET[d]} {_level(lv)}" for d, lv in cols_all) + " |"
        lines += [head, "|---|" + "---|" * len(cols_all)]
        for reading, row in (("raw", "w/o RN"), ("rn", "w RN")):
            parts = []
            for d, lv in cols_all:
                c = index.get((d, lv, reading, "ngc"))
                parts.append(_pair(c))
            lines.append(f"| {row} | " + " | ".join(parts) + " |")
        for reading, row in (("raw", "control w/o RN"), ("rn", "control w RN")):
            parts = [_ours(index.get((d, lv, reading, CONTROL))) for d, lv in cols_all]
            lines.append(f"| {row} | " + " | ".join(parts) + " |")
        return lines
    for reading in readings:
        if len(t.readings) > 1:
            lines.append(f"\n**Reading `{reading}`**: {t.readings[reading]}\n")
        head = "| model | " + " | ".join(f"{DATASET[d]} {_level(lv)}" for d, lv in cols_all) \
            + " |"
        lines += [head, "|---|" + "---|" * len(cols_all)]
        models = [m for m in t.models if any(k[3] == m for k in index)]
        rows = []
        if label is not None:
            table = TABLES[label]
            ours_by_row = defaultdict(list)
            for m in models:
                ours_by_row[PAPER_ROW.get(parse_model(m)[0])].append(m)
            for row in table.rows:
                for m in ours_by_row.get(row, []) or [None]:
                    rows.append((row, m))
            rows += [(None, m) for m in models if PAPER_ROW.get(parse_model(m)[0]) not in
                     table.rows]
        else:
            rows = [(None, m) for m in models]
        rows.append((None, CONTROL))
        for row, m in rows:
            name = pretty(m) if m is not None else row
            parts = []
            for d, lv in cols_all:
                if m is None:
                    e = lookup(label, row, d, lv)
                    parts.append(f"{_paper(e)} │ not run" if e else "—")
                else:
                    parts.append(_pair(index.get((d, lv, reading, m))))
            lines.append(f"| {name} | " + " | ".join(parts) + " |")
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
    if c["paper"] is None:
        return ours
    e = c["paper"]
    paper = _pm(e["mean"], e["std"])
    if e["bold"]:
        paper = f"**{paper}**"
    return f"{paper} │ {ours} {mark(c['verdict'], c['gap'] or 0.0)}"


def markdown(report, meta, figures):
    """The whole ``reproduce.md``."""
    L = ["# `ngc-ref reproduce`: the paper's experiments beside the paper's numbers", ""]
    L.append(f"Command: `{meta['command']}`  ")
    src = meta["source"]
    code = (f"commit `{src['commit']}`" + (" (dirty)" if src["dirty"] else "")
            if src["commit"] else f"ngc_ref {src['version']}")
    L.append(f"Code: {code}; "
             f"NumPy {meta['numpy']}, SciPy {meta['scipy']}, Python {meta['python']}; "
             f"{meta['cpus']} CPUs; seed {meta['seed']}; {meta['seconds']:.0f} s "
             f"(this invocation), data `{meta['data_root']}`."
             + (f" The cells ran from {meta['cells_span']['first_start']} to "
                f"{meta['cells_span']['last_end']} ({meta['cells_span']['seconds'] / 60:.1f} "
                f"min from first start to last end, pauses between resumed invocations "
                f"included; {meta['cells_span']['cpu_seconds'] / 60:.1f} CPU-min in the "
                f"cells)."
                if meta.get("cells_span") else ""))
    L += ["", "Each cell: **paper │ ours** — the paper's mean ± std (bold as in the paper) and "
          "ours (mean ± std over our runs, std with ddof = 0), then the verdict: ✓ reproduced "
          "(the paper's mean inside our 95 % t-interval widened by the paper's own 95 % "
          "half-width t·std/√runs), ▼ below / ▲ above by the gap in points, ? inconclusive "
          "(one run and no paper std). Every model of a run is trained on the same noisy "
          "features (the paper's protocol); the last row of each table is the structure-only "
          "control: NGC on signal-free features of the same shape and scale.", ""]
    L.append("## Run counts")
    L.append("")
    L.append("Seconds are summed over the cells (wall and CPU time of the cells themselves, "
             "whenever they ran; cells of a resumed run keep the time of the run that made "
             "them).")
    L.append("")
    L.append("| target | data set | our runs | paper's runs | wall s | CPU s |")
    L.append("|---|---|---:|---:|---:|---:|")
    for row in meta["run_counts"]:
        L.append(f"| {row['target']} | {DATASET.get(row['dataset'], row['dataset'])} | "
                 f"{row['runs']} | {row['paper_runs'] or 'not stated'} | "
                 f"{row.get('seconds', 0):.0f} | {row.get('cpu_seconds', 0):.0f} |")
    L += ["", "## Not run", ""]
    for key, why in NOT_RUN.items():
        L.append(f"* `{key}`: {why}.")
    for row, why in NOT_RUN_MODELS.items():
        L.append(f"* model rows {row}: {why}.")
    if meta.get("skipped_targets"):
        for item in meta["skipped_targets"]:
            L.append(f"* {item}")
    summary = verdict_counts(report)
    L += ["", "## Summary", "", "Cells with a paper number, by verdict, and the paper's claims "
          "(holds / fails / inconclusive; the figures have claims only).", "",
          "| target | reproduced | below | above | inconclusive | claims: holds | fails | "
          "inconclusive |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for key in [k for k in TARGETS if any(c["target"] == k for c in report["cells"])]:
        c = summary.get(key)
        cl = [x["verdict"] for x in report["claims"] if x["target"] == key]
        counts = (" | ".join(str(c[v]) for v in ("reproduced", "below", "above",
                                                  "inconclusive")) if c else "— | — | — | —")
        L.append(f"| {key} | {counts} | {cl.count('holds')} | {cl.count('fails')} | "
                 f"{cl.count('inconclusive')} |")
    for key, t in TARGETS.items():
        lines = table_markdown(key, report)
        if not lines:
            continue
        L += ["", f"## `{key}` — {t.title}", ""]
        runs = sorted({c["n_runs"] for c in report["cells"] if c["target"] == key})
        L.append(f"Our runs per cell: {', '.join(map(str, runs))} (paper: "
                 f"{t.paper_runs or 'not stated'}). Noise: {t.noise}. "
                 + ("The paper's figure prints no numbers (its \\includegraphics are empty "
                    "in the LaTeX): ours only, and its sentences judged below. "
                    if t.paper_label is None else "")
                 + " ".join(t.notes))
        L.append("")
        L += lines
        for fig in figures.get(key, []):
            L += ["", f"![{key}]({fig})"]
        rd = [r for r in report["readings"] if r["target"] == key]
        for r in rd:
            L += ["", f"**Unstated choice — {r['choice']}:** " + "; ".join(
                f"`{o['name']}` reproduces {o['reproduced']} of {o['cells']} cells, mean |gap| "
                f"{o['mean_abs_gap']:.1f} points" for o in r["options"] if
                o["mean_abs_gap"] is not None) + f". Closer to the paper: `{r['matches_paper']}`."]
        cl = [x for x in report["claims"] if x["target"] == key]
        if cl:
            L += ["", "**The paper's claims:**", ""]
            for x in cl:
                rd_ = f" (reading `{x['reading']}`)" if len(t.readings) > 1 and x.get(
                    "reading") else ""
                L.append(f"* **{x['verdict']}**{rd_} — “{x['quote']}” — {x['summary']}. "
                         f"_Rule: {x['rule']}._")
    if meta.get("scale"):
        L += ["", "## Scale: NGC/RNGC on a synthetic graph of ogbn-products' size", ""]
        L += scale_markdown(meta["scale"])
    L += ["", "## Models", ""]
    L += [f"* `{k}` — {v}" for k, v in MODEL_HELP.items()]
    return "\n".join(L) + "\n"


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


def verdict_counts(report):
    out = {}
    for c in report["cells"]:
        if c["verdict"] is None:
            continue
        d = out.setdefault(c["target"], {v: 0 for v in ("reproduced", "below", "above",
                                                         "inconclusive")})
        d[c["verdict"]] += 1
    return out


def terminal_lines(report):
    """Cell by cell: the paper's number beside ours, the interval and the verdict."""
    lines = []
    for c in report["cells"]:
        where = (f"{c['target']:<22} {c['dataset']:<16} "
                 f"{'ξ' if c['noise'] == 'gaussian' else 'p'}={_level(c['level']):<5} "
                 f"{c['reading']:<5} {c['model']:<12}")
        ours = (f"ours {_pm(c['mean'], c['std'])} ({c['n_runs']} runs"
                + (f", {c['failed_runs']} failed" if c["failed_runs"] else "") + ")")
        if c["paper"] is None:
            lines.append(f"{where} {ours}")
            continue
        iv = c["interval"]
        ivs = f" [{iv[0]:.1f}, {iv[1]:.1f}]" if iv else ""
        lines.append(f"{where} paper {_pm(c['paper']['mean'], c['paper']['std'])}  {ours}"
                     f"{ivs}  {c['verdict']} ({c['gap']:+.1f})")
    for c in report["not_run_rows"]:
        lines.append(f"{c['target']:<22} {c['dataset']:<16} level={_level(c['level']):<5} "
                     f"{'':<5} {c['model']:<12} paper {_pm(c['paper']['mean'], c['paper']['std'])}"
                     f"  not run: {c['reason']}")
    return lines


# ------------------------------------------------------------------------------ figures

def figures(report, stage):
    """PNG figures for Fig. 2 and the depth figures into ``stage``; ``{target: [names]}``."""
    out = {}
    cells = report["cells"]
    noise = [c for c in cells if c["target"] == "fig:noise"]
    if noise:
        datasets = [d for d in TARGETS["fig:noise"].levels if any(c["dataset"] == d
                                                                   for c in noise)]
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
            ax.set_title(DATASET[d])
            ax.set_xlabel("noise level ξ")
            ax.set_ylabel("test accuracy (%)")
        legend_outside(fig, axes[0][-1])
        suptitle(fig, "Fig. 2 reproduced: accuracy vs Gaussian noise (mean ± std over runs)")
        out["fig:noise"] = [save_figure(fig, stage / "fig_noise.png")]
    depth = [c for c in cells if c["target"] == "fig:depth" and "@" in c["model"]]
    if depth:
        datasets = [d for d in TARGETS["fig:depth"].levels if any(c["dataset"] == d
                                                                   for c in depth)]
        fig, axes = subplots(2, len(datasets), figsize=(4.0 * len(datasets) + 1.5, 6.4),
                             squeeze=False)
        for i, base in enumerate(("ngc", "rngc")):
            for ax, d in zip(axes[i], datasets):
                for lv, label in ((0.0, "clean"), (1.0, "noisy ξ = 1")):
                    pts = []
                    for S in DEPTH_S:
                        c = next((c for c in depth if c["dataset"] == d and c["level"] == lv
                                  and c["model"] == f"{base}@S={S}"), None)
                        if c is not None and c["mean"] is not None:
                            pts.append((S, c["mean"], c["std"]))
                    if pts:
                        ax.errorbar(*zip(*[(p[0], p[1]) for p in pts]),
                                    yerr=[p[2] for p in pts], marker="o", ms=3, capsize=2,
                                    label=label)
                ax.set_xscale("log", base=2)
                ax.set_title(f"{PRETTY[base]} — {DATASET[d]}")
                ax.set_xlabel("S (depth)")
                ax.set_ylabel("test accuracy (%)")
        legend_outside(fig, axes[0][-1])
        suptitle(fig, "Depth figures reproduced: accuracy vs S (λ = 32), clean and noisy")
        out["fig:depth"] = [save_figure(fig, stage / "fig_depth.png")]
    return out


__all__ = ["build", "collect", "compare_readings", "figures", "markdown", "scale_markdown",
           "table_markdown", "terminal_lines", "verdict_counts"]
