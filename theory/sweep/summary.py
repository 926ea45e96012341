"""Tables and plots of a sweep store, per task.

=======================  =====================================================================
task                     plot
=======================  =====================================================================
``tau``                  τ/n and τ·log n/n vs n per family (log axes), with the floor
                         1/((λ+1)m)² of Assumption 2's check
``lemma1``               exceedance probability vs n, Clopper–Pearson 95% intervals, against
                         1/d: the paper's Frobenius bound and the corrected max-entry bound
``theorem1``             excess clean loss g(W_k) − g(W_g*) vs n per noise level, and per node
                         beside the noise term τ·log n/n
``node_classification``  test accuracy (mean ± std over reps) vs noise level per model
=======================  =====================================================================

A *series* is a set of cells that differ only in the x-axis parameter and ``rep``; its label
lists the parameters that vary across the store (others are in the title).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from .store import read_records

#: Parameters never shown as series (replicates are averaged; graph seeds follow from them).
_NOISE_KEYS = ("rep", "graph_seed")


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, dict):
        return ",".join(f"{k}={_fmt(x)}" for k, x in v.items()) or "{}"
    return str(v)


def _key(v):
    return json.dumps(v, sort_keys=True)


def varying(records, exclude=()):
    """Parameter names whose value differs between records (minus ``exclude``)."""
    names = sorted(set().union(*(r["params"] for r in records)))
    return [k for k in names if k not in exclude and k not in _NOISE_KEYS
            and len({_key(r["params"].get(k)) for r in records}) > 1]


def constant(records, exclude=()):
    names = sorted(set().union(*(r["params"] for r in records)))
    var = set(varying(records))
    return {k: records[0]["params"].get(k) for k in names
            if k not in var and k not in exclude and k not in _NOISE_KEYS}


def group(records, keys):
    """``{tuple of values of keys: [records]}`` in first-seen order."""
    out = {}
    for r in records:
        out.setdefault(tuple(_key(r["params"].get(k)) for k in keys), []).append(r)
    return out


def _sort_key(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, v, "")
    return (1, 0, _key(v))


def _label(keys, gkey):
    return ", ".join(f"{k}={_fmt(json.loads(v))}" for k, v in zip(keys, gkey)) or "all"


def _mean_std(values):
    vals = np.array([v for v in values if v is not None], dtype=float)
    if vals.size == 0:
        return math.nan, math.nan
    return float(vals.mean()), float(vals.std())


def text_table(header, rows):
    cols = list(zip(header, *rows)) if rows else [(h,) for h in header]
    widths = [max(len(str(c)) for c in col) for col in cols]
    lines = ["  ".join(str(h).rjust(w) for h, w in zip(header, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(str(c).rjust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(lines)


def _series(records, x):
    """(series keys, {series key: {x value: [records]}}) with x values sorted."""
    keys = varying(records, exclude=(x,))
    out = {}
    groups = group(records, keys)
    # Sorted by parameter values, not by completion order (the store's order).
    for gkey in sorted(groups, key=lambda g: [_sort_key(json.loads(v)) for v in g]):
        recs = groups[gkey]
        by_x = group(recs, (x,))
        out[gkey] = dict(sorted(((json.loads(k[0]), v) for k, v in by_x.items()),
                                key=lambda kv: kv[0]))
    return keys, out


def _title(records, x, extra=""):
    const = constant(records, exclude=(x,))
    const.pop("graph_params", None) if const.get("graph_params") == {} else None
    return (extra + " " + ", ".join(f"{k}={_fmt(v)}" for k, v in const.items())).strip()


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# ------------------------------------------------------------------------------ per task

def summarize_tau(records, plot_path=None):
    keys, series = _series(records, "n")
    rows = []
    for gkey, by_n in series.items():
        for n, recs in by_n.items():
            res = [r["result"] for r in recs]
            tn, sd = _mean_std(r["tau_over_n"] for r in res)
            tau = _mean_std(r["tau"] for r in res)[0]
            rows.append((_label(keys, gkey), n, len(recs), f"{tau:.4g}", f"{tn:.4g}", f"{sd:.2g}",
                         f"{_mean_std(r['tau_log_n_over_n'] for r in res)[0]:.4g}",
                         f"{res[0]['floor']:.3g}"))
    table = text_table(("series", "n", "reps", "tau", "tau/n", "sd", "tau*log(n)/n", "floor"), rows)
    figs = []
    if plot_path is not None:
        def draw(ax, row, recs, colour_label):
            by_n = sorted(group(recs, ("n",)).items(), key=lambda kv: json.loads(kv[0][0]))
            ns = [float(np.mean([r["result"]["n"] for r in v])) for _, v in by_n]
            key = ("tau_over_n", "tau_log_n_over_n")[row]
            ax.plot(ns, [_mean_std(r["result"][key] for r in v)[0] for _, v in by_n], "o-",
                    label=colour_label)
            if row == 0:
                ax.plot(ns, [v[0]["result"]["floor"] for _, v in by_n], "k--", lw=0.8)
        figs.append(_facet_plot(records, "n", ("family", "graph_params"),
                                ("τ/n (dashed: floor 1/((λ+1)m)²)", "τ·log n / n"), draw,
                                plot_path, "τ vs n:", logy=True))
    return table, figs


def _facet_plot(records, x, colour_keys, ylabels, draw, path, title, *, logx=True, logy=False,
                ylim=None):
    """Rows: one per y label; columns: one per combination of the varying parameters other
    than ``x`` and ``colour_keys`` (at most 8); in each panel one line per colour value."""
    plt = _plt()
    facet_keys = varying(records, exclude=(x, *colour_keys))
    facets = group(records, facet_keys)
    order = sorted(facets, key=lambda g: [_sort_key(json.loads(v)) for v in g])[:8]
    ckeys = [k for k in colour_keys if k in varying(records)]
    ncol, nrow = len(order), len(ylabels)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.6 * ncol + 2.2, 3.3 * nrow), squeeze=False,
                             sharex=True, sharey="row")
    for j, fkey in enumerate(order):
        lines = group(facets[fkey], ckeys)
        for ckey in sorted(lines, key=lambda g: [_sort_key(json.loads(v)) for v in g]):
            for i in range(nrow):
                draw(axes[i][j], i, lines[ckey], _label(ckeys, ckey))
        axes[0][j].set_title(_label(facet_keys, fkey), fontsize=8)
        axes[-1][j].set_xlabel(x)
        for i in range(nrow):
            ax = axes[i][j]
            if logx:
                ax.set_xscale("log")
            if logy:
                ax.set_yscale("log")
            if ylim is not None:
                ax.set_ylim(*ylim)
    for i, lab in enumerate(ylabels):
        axes[i][0].set_ylabel(lab, fontsize=8)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="center right", fontsize=7)
        fig.subplots_adjust(right=1 - 2.0 / (3.6 * ncol + 2.2))
    fig.suptitle(_title(records, x, title), fontsize=9)
    return _save(fig, path)


def _cp(k, n):
    from ..claims._stats import clopper_pearson
    return clopper_pearson(k, n)


def summarize_lemma1(records, plot_path=None):
    keys, series = _series(records, "n")
    rows, pts = [], {}
    for gkey, by_n in series.items():
        for n, recs in by_n.items():
            res = [r["result"] for r in recs]
            trials = sum(r["trials"] for r in res)
            p_max = res[0]["p_max"]
            entry = []
            for key in ("exceed_paper", "exceed_max_entry", "exceed_frobenius"):
                k = sum(r[key] for r in res)
                lo, hi = _cp(k, trials)
                entry.append((k / trials, lo, hi))
            pts.setdefault(gkey, []).append((float(np.mean([r["n"] for r in res])), entry, p_max))
            verdict = ("fails" if entry[0][1] > p_max else "holds" if entry[0][2] <= p_max
                       else "inconclusive")
            rows.append((_label(keys, gkey), n, trials, f"{p_max:.3g}",
                         f"{entry[0][0]:.3f} [{entry[0][1]:.3f}, {entry[0][2]:.3f}]", verdict,
                         f"{entry[1][0]:.3f} [{entry[1][1]:.3f}, {entry[1][2]:.3f}]",
                         f"{_mean_std(r['mean_fro2'] / r['paper_bound'] for r in res)[0]:.3g}"))
    table = text_table(("series", "n", "trials", "1/d", "P(exceed Eq.9) [95% CP]", "Eq.9",
                        "P(exceed max-entry) [95% CP]", "mean/bound"), rows)
    figs = []
    if plot_path is not None:
        def draw(ax, row, recs, colour_label):
            key = ("exceed_paper", "exceed_max_entry")[row]
            by_n = sorted(group(recs, ("n",)).items(), key=lambda kv: json.loads(kv[0][0]))
            ns, est, lo, hi = [], [], [], []
            for _, v in by_n:
                k = sum(r["result"][key] for r in v)
                t = sum(r["result"]["trials"] for r in v)
                a, b = _cp(k, t)
                ns.append(float(np.mean([r["result"]["n"] for r in v])))
                est.append(k / t)
                lo.append(k / t - a)
                hi.append(b - k / t)
            ax.errorbar(ns, est, yerr=[lo, hi], fmt="o-", capsize=3, label=colour_label)
            for p_max in sorted({r["result"]["p_max"] for r in recs}):
                ax.axhline(p_max, color="k", ls="--", lw=0.8)
        figs.append(_facet_plot(
            records, "n", ("family", "graph_params"),
            ("P(‖Ã_Sη‖_F² > Eq. 9 bound)", "P(max_ij [Ã_Sη]_ij² > corrected)"), draw,
            plot_path,
            "Lemma 1 exceedance (95% Clopper–Pearson; dashed: 1/d):", ylim=(-0.03, 1.03)))
    return table, figs


def summarize_theorem1(records, plot_path=None):
    keys, series = _series(records, "n")
    rows = []
    for gkey, by_n in series.items():
        for n, recs in by_n.items():
            res = [r["result"] for r in recs]
            m, sd = _mean_std(r["excess_loss"] for r in res)
            rows.append((_label(keys, gkey), n, len(recs), f"{m:.4g}", f"{sd:.2g}",
                         f"{_mean_std(r['excess_loss_per_node'] for r in res)[0]:.4g}",
                         f"{_mean_std(r['noise_term'] for r in res)[0]:.4g}",
                         f"{_mean_std(r['excess_loss_limit'] for r in res)[0]:.4g}",
                         sum(r["descent_bound_holds"] for r in res)))
    table = text_table(("series", "n", "reps", "excess loss", "sd", "per node",
                        "tau*log(n)/n", "k->inf limit", "descent ok"), rows)
    figs = []
    if plot_path is not None:
        def draw(ax, row, recs, colour_label):
            by_n = sorted(group(recs, ("n",)).items(), key=lambda kv: json.loads(kv[0][0]))
            ns = [float(np.mean([r["result"]["n"] for r in v])) for _, v in by_n]
            if row == 0:
                ms = [_mean_std(r["result"]["excess_loss"] for r in v) for _, v in by_n]
                ax.errorbar(ns, [m for m, _ in ms], yerr=[s for _, s in ms], fmt="o-",
                            capsize=3, label=colour_label)
            else:
                line = ax.plot(ns, [_mean_std(r["result"]["excess_loss_per_node"] for r in v)[0]
                                    for _, v in by_n], "o-")
                ax.plot(ns, [_mean_std(r["result"]["noise_term"] for r in v)[0]
                             for _, v in by_n], "x--", color=line[0].get_color())
        figs.append(_facet_plot(
            records, "n", ("noise_std",),
            ("g(W_k) − g(W_g*) (mean ± sd)", "per node (o); τ·log n/n (x, dashed)"), draw,
            plot_path, "Theorem 1 excess loss:", logy=True))
    return table, figs


def summarize_node_classification(records, plot_path=None):
    keys, series = _series(records, "level")
    rows = []
    for gkey, by_lv in series.items():
        for lv, recs in by_lv.items():
            m, sd = _mean_std(r["result"]["test_acc"] for r in recs)
            rows.append((_label(keys, gkey), f"{lv:g}", len(recs), f"{100 * m:.1f}",
                         f"{100 * sd:.1f}"))
    table = text_table(("series", "level", "reps", "test acc %", "sd"), rows)
    figs = []
    if plot_path is not None:
        plt = _plt()
        panel_keys = [k for k in keys if k != "model"]
        panels = group(records, panel_keys)
        fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.2), squeeze=False)
        for ax, (pkey, precs) in zip(axes[0], panels.items()):
            for (model,), recs in group(precs, ("model",)).items():
                by_lv = sorted(group(recs, ("level",)).items(), key=lambda kv: json.loads(kv[0][0]))
                lv = [json.loads(k[0]) for k, _ in by_lv]
                ms = [_mean_std(r["result"]["test_acc"] for r in v) for _, v in by_lv]
                ax.errorbar(lv, [100 * m for m, _ in ms], yerr=[100 * s for _, s in ms],
                            fmt="o-", capsize=3, label=json.loads(model))
            ax.set_title(_label(panel_keys, pkey), fontsize=8)
            ax.set_xlabel("noise level")
            ax.set_ylabel("test accuracy % (mean ± sd)")
            ax.legend(fontsize=7)
        fig.suptitle(_title(records, "level", "Accuracy vs noise:"), fontsize=9)
        figs.append(_save(fig, plot_path))
    return table, figs


SUMMARIES = {"tau": summarize_tau, "lemma1": summarize_lemma1, "theorem1": summarize_theorem1,
             "node_classification": summarize_node_classification}


def _save(fig, path):
    from .._figures import save_figure
    save_figure(fig, path)
    return str(path)


def summarize(path, plots_dir=None, *, plots=True):
    """The text summary of a store and the plots written: ``(text, [figure paths])``.

    Plots go to ``plots_dir`` (default: beside the store) as ``<store stem>-<task>.png``.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"--summary: {str(path)!r} is not a file")
    records = read_records(path)
    if not records:
        raise ValueError(f"--summary: {str(path)!r} holds no finished cells")
    if plots:
        plots_dir = Path(plots_dir) if plots_dir is not None else path.parent
        if not plots_dir.is_dir():
            raise ValueError(f"--plots {str(plots_dir)!r} is not a directory")
    by_task = {}
    for r in records:
        by_task.setdefault(r["task"], []).append(r)
    parts, figs = [], []
    for task, recs in by_task.items():
        seconds = sum(r.get("seconds") or 0 for r in recs)
        head = f"## {task}: {len(recs)} cells, {seconds:.1f} s of cell time"
        fn = SUMMARIES.get(task)
        if fn is None:
            parts.append(f"{head}\n(no summary for this task)")
            continue
        out = plots_dir / f"{path.stem}-{task}.png" if plots else None
        table, f = fn(recs, out)
        parts.append(f"{head}\n{table}")
        figs += f
    return "\n\n".join(parts), figs
