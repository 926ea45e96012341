"""Tables and plots of a sweep store, per task.

=======================  =====================================================================
task                     plot
=======================  =====================================================================
``tau``                  τ/n and τ·log n/n vs n per family (log axes), with the floor
                         1/((λ+1)m)² of Assumption 2's check; a panel per (schedule, norm),
                         ``sqrt_n`` panels labelled λ = √n, S = ⌈2λ⌉
``lemma1``               measured mean / bound vs n per family (log axis), and the exceedance
                         probability with Clopper–Pearson 95% intervals against 1/d (logit
                         axis): the paper's Frobenius bound and the corrected max-entry bound
``theorem1``             excess clean loss g(W_k) − g(W_g*) vs n per noise level, and per node
                         beside the noise term τ·log n/n (symlog axes: without noise the
                         excess is rounding-level)
``node_classification``  test accuracy (mean ± std over reps) vs noise level per model
=======================  =====================================================================

Each task declares its summary where it is registered (``register_task(..., summary=fn)``);
:func:`summarize` reads the declaration for each task of a store.

A *series* is a set of cells that differ only in the x-axis parameter and ``rep``; its label
lists the parameters that vary across the store (others are in the title).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from ..output.figures import legend_outside, save_figure, subplots, suptitle
from ..kit.stats import (bound_verdict, clopper_pearson, loglog_slope, no_hub_hypotheses,
                         slope_interval, tau_decay_verdict)
from .cost import plural, with_expressions as params_with_expressions
from .store import read_records
from .tasks import get_task

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


def with_expressions(record):
    """The record with each parameter a config gave as an expression of n written as that
    expression (:func:`ngc_ref_theory.sweep.cost.with_expressions`), so the cells of one
    expression form one series, drawn as one connected line."""
    return dict(record, params=params_with_expressions(record["params"]))


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
        by_x = {}
        # One point per x value, not per JSON text: 0.0 and -0.0 (or 100 and 100.0) are two
        # cells of one point, and a dict keyed by the value would keep only one's records.
        for k, recs in group(groups[gkey], (x,)).items():
            by_x.setdefault(json.loads(k[0]), []).extend(recs)
        out[gkey] = dict(sorted(by_x.items(), key=lambda kv: kv[0]))
    return keys, out


def _points(records, x):
    """Every point of every series, in order: (series key, its label, x value, the records,
    their results)."""
    keys, series = _series(records, x)
    for gkey, by_x in series.items():
        for xv, recs in by_x.items():
            yield gkey, _label(keys, gkey), xv, recs, [r["result"] for r in recs]


def _title(records, x, extra=""):
    const = constant(records, exclude=(x,))
    const.pop("graph_params", None) if const.get("graph_params") == {} else None
    return (extra + " " + ", ".join(f"{_SYMBOLS.get(k, k)}={_fmt(v)}"
                                    for k, v in const.items())).strip().rstrip(":")


# ------------------------------------------------------------------------------ per task

def tau_verdicts(records):
    """Per series of a ``tau`` store (cells differing only in n and rep): Assumption 2's
    verdict on τ/n along n as the checker gives it (:mod:`..claims.assumption_2`), its
    log-log slope with the 95% t-interval, and whether the series is inside the corrected
    statement's hypotheses. At a fixed (λ, S) τ/n ≥ 1/((λ+1)m)² for every graph: ``fails``.
    Returns ``[(label, verdict, slope, (lo, hi) or None, note)]``."""
    out = []
    records = _schedule_symbols([with_expressions(r) for r in records])
    keys, series = _series(records, "n")
    for gkey, by_n in series.items():
        rows = []
        for recs in by_n.values():
            res = [r["result"] for r in recs]
            mean = {k: _mean_std(r.get(k, r.get("tau_over_n")) for r in res)[0]
                    for k in ("tau_over_n", "tau_upper_over_n", "max_degree_share", "floor")}
            rows.append({**mean, "n": float(np.mean([r["n"] for r in res])),
                         "isolated_nodes": max(r["isolated_nodes"] for r in res),
                         "method": "estimate" if any(r.get("method") == "estimate"
                                                     for r in res) else "exact"})
        label = _label(keys, gkey)
        if len(rows) < 2:
            out.append((label, "inconclusive", math.nan, None, "one size: no trend"))
            continue
        ci = slope_interval(rows, "tau_over_n")
        if len({r["floor"] for r in rows}) == 1:   # fixed λ, S: the floor holds every τ/n up
            slope = loglog_slope([r["n"] for r in rows], [r["tau_over_n"] for r in rows])
            out.append((label, "fails", slope, ci, f"fixed λ, S: τ/n ≥ floor "
                                                   f"{rows[0]['floor']:.3g} at every n"))
            continue
        trend = tau_decay_verdict(rows)
        inside, why = no_hub_hypotheses(rows, "their τ_i = n for every λ, S")
        note = ("" if inside else f"outside the hypotheses: {why}") + (
            "; τ estimated (bracket)" if any(r["method"] == "estimate" for r in rows) else "") + (
            f"; to decide: {trend.to_decide}" if trend.to_decide else "")
        out.append((label, trend.verdict, trend.slope, ci, note.strip("; ")))
    return out


def _verdict_table(verdicts):
    rows = [(label, v, f"{slope:.3f}" if np.isfinite(slope) else "-",
             f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "-", note)
            for label, v, slope, ci, note in verdicts]
    return text_table(("series", "Assumption 2 (τ/n → 0)", "log-log slope", "95% interval",
                       "note"), rows)


def summarize_tau(records, plot_path=None):
    records = _schedule_symbols(records)   # a sqrt_n series is one series, not one per n
    rows = []
    for _, label, n, recs, res in _points(records, "n"):
        tn, sd = _mean_std(r["tau_over_n"] for r in res)
        tau = _mean_std(r["tau"] for r in res)[0]
        rows.append((label, n, len(recs), f"{tau:.4g}", f"{tn:.4g}", f"{sd:.2g}",
                     f"{_mean_std(r['tau_log_n_over_n'] for r in res)[0]:.4g}",
                     f"{res[0]['floor']:.3g}"))
    table = text_table(("series", "n", "reps", "tau", "tau/n", "sd", "tau*log(n)/n", "floor"), rows)
    estimated = sum(r["result"].get("method") == "estimate" for r in records)
    if estimated:
        table += (f"\n{estimated} of {plural(len(records), 'cell')} estimated τ (the "
                  "estimator's value is "
                  "the exact τ_i of its likeliest maximiser; tau_upper in the record bounds τ "
                  "with the record's confidence)")
    table += "\n\nverdict per series (criteria of ngc-ref check's assumption-2):\n" + \
        _verdict_table(tau_verdicts(records))
    figs = []
    if plot_path is not None:
        from matplotlib.lines import Line2D

        def draw(ax, row, recs, style):
            ns, by_n = by_size(recs)
            key = ("tau_over_n", "tau_log_n_over_n")[row]
            ax.plot(ns, [_mean_std(r["result"][key] for r in v)[0] for _, v in by_n], "o-",
                    color=style["color"], ms=4)
            if row == 0:
                ax.plot(ns, [v[0]["result"]["floor"] for _, v in by_n], "k--", lw=0.8)
        floor = Line2D([], [], color="k", ls="--", lw=0.8,
                       label="floor 1/((λ+1)m)² of τ/n,\nm = 1 − r^(S+1)")
        figs.append(_facet_plot(records, "n", ("family", "graph_params"),
                                ("τ/n", "τ·log n / n"), draw, plot_path, "τ against n:",
                                yscales=("log", "log"), extra_handles=[floor]))
    return table, figs


def _schedule_symbols(records):
    """Records whose λ and S follow n (``schedule = "sqrt_n"``) with those parameters written
    as the rule, so panels and titles say λ = √n, S = ⌈2λ⌉ rather than one cell's numbers."""
    out = []
    for r in records:
        if r["params"].get("schedule") == "sqrt_n":
            r = dict(r, params=dict(r["params"], lam="√n", S="⌈2λ⌉"))
        out.append(r)
    return out


#: How a parameter name is written in plot labels.
_SYMBOLS = {"lam": "λ", "noise_std": "σ", "sigma": "σ"}


def _plot_label(keys, gkey):
    """Like :func:`_label`, with paper symbols (λ, σ) for the parameter names."""
    return ", ".join(f"{_SYMBOLS.get(k, k)}={_fmt(json.loads(v))}"
                     for k, v in zip(keys, gkey)) or "all"


def _scale(ax, yscale):
    """``yscale``: a scale name, or ``(name, keyword arguments)``."""
    name, kw = (yscale, {}) if isinstance(yscale, str) else yscale
    ax.set_yscale(name, **kw)


def _facet_plot(records, x, colour_keys, ylabels, draw, path, title, *, logx=True,
                yscales=None, ylim=None, extra_handles=()):
    """Rows: one per y label; columns: one per combination of the varying parameters other
    than ``x`` and ``colour_keys`` (at most 8); in each panel one line per colour value.

    ``draw(ax, row, recs, style)`` draws one line; ``style`` holds its ``color``, ``label``,
    ``index`` and ``count`` (for dodging overlapping points), fixed per colour value so a
    family keeps its colour in every panel. The legend (colours, then ``extra_handles`` for
    line styles) sits right of the panels. ``yscales`` gives each row's y scale.
    """
    from matplotlib.lines import Line2D

    facet_keys = varying(records, exclude=(x, *colour_keys))
    facets = group(records, facet_keys)
    order = sorted(facets, key=lambda g: [_sort_key(json.loads(v)) for v in g])
    shown = order[:8]
    ckeys = [k for k in colour_keys if k in varying(records)]
    colours = sorted(group(records, ckeys), key=lambda g: [_sort_key(json.loads(v)) for v in g])
    ncol, nrow = len(shown), len(ylabels)
    yscales = list(yscales or ["linear"] * nrow)
    fig, axes = subplots(nrow, ncol, figsize=(max(4.2 * ncol, 6.0) + 2.8, 3.3 * nrow + 0.6),
                         squeeze=False, sharex=True, sharey="row")
    for j, fkey in enumerate(shown):
        lines = group(facets[fkey], ckeys)
        for c, ckey in enumerate(colours):
            if ckey not in lines:
                continue
            style = {"color": f"C{c % 10}", "label": _plot_label(ckeys, ckey), "index": c,
                     "count": len(colours)}
            for i in range(nrow):
                draw(axes[i][j], i, lines[ckey], style)
        if facet_keys:
            axes[0][j].set_title(_plot_label(facet_keys, fkey), fontsize=9)
        axes[-1][j].set_xlabel(x)
        for i in range(nrow):
            ax = axes[i][j]
            if logx:
                ax.set_xscale("log")
            _scale(ax, yscales[i])
            if ylim is not None and ylim[i] is not None:
                ax.set_ylim(*ylim[i])
            if logx:
                xs = sorted({r["params"][x] for r in facets[fkey]})
                ax.set_xticks(xs, [_fmt(v) for v in xs])
                ax.set_xticks([], minor=True)
    for i, lab in enumerate(ylabels):
        axes[i][0].set_ylabel(lab, fontsize=9)
    handles = [Line2D([], [], color=f"C{c % 10}", lw=2.5, label=_plot_label(ckeys, ckey))
               for c, ckey in enumerate(colours)] if ckeys else []
    handles += list(extra_handles)
    legend_outside(fig, axes[0][-1], handles, [h.get_label() for h in handles])
    more = f" (first 8 of {len(order)} panels)" if len(order) > len(shown) else ""
    suptitle(fig, _title(records, x, title) + more, fontsize=10)
    return _save(fig, path)


def _cp(k, n):
    return clopper_pearson(k, n)


def summarize_lemma1(records, plot_path=None):
    records = [r for r in records if "exceed_paper" in r["result"]]
    if not records:   # draws-only blocks (bounds = false) are judged by the claim, not here
        return "(trial blocks without bounds: see ngc-ref check --thorough's lemma-1)", []
    rows = []
    for _, label, n, _, res in _points(records, "n"):
        trials = sum(r["trials"] for r in res)
        p_max = res[0]["p_max"]
        entry = []
        for key in ("exceed_paper", "exceed_max_entry", "exceed_frobenius"):
            k = sum(r[key] for r in res)
            lo, hi = _cp(k, trials)
            entry.append((k / trials, lo, hi))
        verdict = bound_verdict(sum(r["exceed_paper"] for r in res), trials, p_max)[0]
        rows.append((label, n, trials, f"{p_max:.3g}",
                     f"{entry[0][0]:.3f} [{entry[0][1]:.3f}, {entry[0][2]:.3f}]", verdict,
                     f"{entry[1][0]:.3f} [{entry[1][1]:.3f}, {entry[1][2]:.3f}]",
                     f"{_mean_std(r['mean_fro2'] / r['paper_bound'] for r in res)[0]:.3g}"))
    table = text_table(("series", "n", "trials", "1/d", "P(exceed Eq.11) [95% CP]", "Eq.11",
                        "P(exceed max-entry) [95% CP]", "mean/bound"), rows)
    figs = []
    if plot_path is not None:
        figs.append(_plot_lemma1(records, plot_path))
    return table, figs


def _plot_lemma1(records, path):
    """Top: measured mean / bound on a log axis (1 = the bound; the paper's Eq. 11 solid, the
    corrected max-entry bound dashed), one line per family. Bottom: exceedance probability
    with 95% Clopper–Pearson intervals on a logit axis, which spreads out both ends, so an
    interval such as [0.982, 1] or [0, 0.018] stays visible; families are dodged along n."""
    from matplotlib.lines import Line2D
    trials = max(sum(r["result"]["trials"] for r in v)
                 for v in group(records, varying(records) + ["n"]).values())
    edge = 0.25 / trials     # estimates of exactly 0 or 1 are drawn at the axis edges
    spread = 0.12            # dodge: total width in log10(n)

    def draw(ax, row, recs, style):
        ns, by_n = by_size(recs)
        ns = np.array(ns)
        if row == 0:
            for mean, bound, fmt in (("mean_fro2", "paper_bound", "o-"),
                                     ("mean_max2", "max_entry_bound", "x--")):
                ax.plot(ns, [np.mean([r["result"][mean] / r["result"][bound] for r in v])
                             for _, v in by_n], fmt, color=style["color"], ms=5)
            ax.axhline(1.0, color="k", lw=0.8)
            return
        shift = 10 ** (spread * ((style["index"] + 0.5) / style["count"] - 0.5))
        for key, fmt, mfc, nudge in (("exceed_paper", "o-", None, 1.0),
                                     ("exceed_max_entry", "s--", "none", 1.012)):
            est, lo, hi = [], [], []
            for _, v in by_n:
                k = sum(r["result"][key] for r in v)
                t = sum(r["result"]["trials"] for r in v)
                a, b = _cp(k, t)
                est.append(k / t)
                lo.append(a)
                hi.append(b)
            est, lo, hi = (np.clip(np.array(z), edge, 1 - edge) for z in (est, lo, hi))
            ax.errorbar(ns * shift * nudge, est, yerr=[est - lo, hi - est], fmt=fmt, ms=4,
                        mfc=mfc, capsize=3, color=style["color"], lw=1)
        for p_max in sorted({r["result"]["p_max"] for r in recs}):
            ax.axhline(p_max, color="k", ls=":", lw=1.2)

    extra = [Line2D([], [], color="k", marker="o", label="paper's Eq. 11 bound (‖·‖_F²)"),
             Line2D([], [], color="k", marker="x", ls="--",
                    label="corrected max-entry bound\n(bottom: squares)"),
             Line2D([], [], color="k", lw=0.8, label="mean = bound"),
             Line2D([], [], color="k", ls=":", lw=1.2, label="1/d: the allowed exceedance"),
             Line2D([], [], color="0.4", marker="|", ms=10, ls="",
                    label="95% Clopper–Pearson interval")]
    return _facet_plot(
        records, "n", ("family", "graph_params"),
        ("measured mean / bound (log)", f"P(exceed bound) (logit axis;\n0 and 1 drawn at "
                                        f"{edge:.2g}, 1 − {edge:.2g})"),
        draw, path, "Lemma 1:",
        yscales=("log", ("logit", {"nonpositive": "clip"})),
        ylim=(None, (edge * 0.8, 1 - edge * 0.8)), extra_handles=extra)


def by_size(recs, key="n"):
    """``(sizes, [(group key, records)])``: ``recs`` grouped by the requested ``key`` in
    increasing order, each group's size the mean n of its graphs as built."""
    groups = sorted(group(recs, (key,)).items(), key=lambda kv: json.loads(kv[0][0]))
    return [float(np.mean([r["result"]["n"] for r in v])) for _, v in groups], groups


def summarize_theorem1(records, plot_path=None):
    """The fixed-λ cells (a contextual SBM, no ``family``): excess loss per n and noise level,
    and the plot; the λ = √n cells (a ``family``): τ/n and the floor per node per n."""
    grown = [r for r in records if "family" in r["params"]]
    records = [r for r in records if "family" not in r["params"]]
    tables, figs = [], []
    if records:
        tables.append(_theorem1_fixed_table(records))
        if plot_path is not None:
            figs.append(_plot_theorem1(records, plot_path))
    if grown:
        tables.append(_theorem1_grown_table(grown))
    return "\n\n".join(tables), figs


def _theorem1_grown_table(records):
    rows = []
    for key, recs in group(records, ("family", "norm", "n")).items():
        runs = [run for r in recs for run in r["result"]["runs"]]
        taus = [r["result"]["graph"].get("tau", float("nan")) / r["result"]["graph"]["n"]
                for r in recs]
        rows.append((*(json.loads(k) for k in key), len(recs), len(runs),
                     f"{np.mean(taus):.4g}", f"{np.mean([r['floor'] / r['n'] for r in runs]):.4g}"))
    return "λ = √n, S = ⌈2λ⌉:\n" + text_table(
        ("family", "norm", "n", "graphs", "runs", "tau/n", "floor/n"), rows)


def _theorem1_fixed_table(records):
    rows = []
    for _, label, n, recs, res in _points(records, "n"):
        m, sd = _mean_std(r["excess_loss"] for r in res)
        rows.append((label, n, len(recs), f"{m:.4g}", f"{sd:.2g}",
                     f"{_mean_std(r['excess_loss_per_node'] for r in res)[0]:.4g}",
                     f"{_mean_std(r['noise_term'] for r in res)[0]:.4g}",
                     f"{_mean_std(r['excess_loss_limit'] for r in res)[0]:.4g}",
                     sum(r["descent_bound_holds"] for r in res)))
    return text_table(("series", "n", "reps", "excess loss", "sd", "per node",
                       "tau*log(n)/n", "k->inf limit", "descent ok"), rows)


def _symlog_threshold(values, span=1e-6):
    """A linear threshold for a symlog axis: the smallest |value| within ``span`` of the
    largest, rounded down to a power of ten (rounding-level values, e.g. the excess loss
    without noise, then sit in the linear band around 0 instead of stretching the axis)."""
    mags = np.abs([v for v in values if v is not None and np.isfinite(v)])
    big = mags.max(initial=0.0)
    keep = mags[mags > span * big]
    return 10.0 ** np.floor(np.log10(keep.min())) if keep.size else 1.0


def _plot_theorem1(records, path):
    """Top: excess clean loss (mean ± sd over reps) per noise level. Bottom: the same per node
    beside Theorem 1's noise term τ·log n/n (one black line: it depends on the graph only).
    Symlog axes: without noise the excess is rounding-level and may be negative."""
    from matplotlib.lines import Line2D

    def draw(ax, row, recs, style):
        ns, by_n = by_size(recs)
        key = ("excess_loss", "excess_loss_per_node")[row]
        ms = [_mean_std(r["result"][key] for r in v) for _, v in by_n]
        ax.errorbar(ns, [m for m, _ in ms], yerr=[s for _, s in ms], fmt="o-", capsize=3,
                    ms=4, color=style["color"])
        if row == 1 and style["index"] == 0:
            ax.plot(ns, [_mean_std(r["result"]["noise_term"] for r in v)[0] for _, v in by_n],
                    "x--", color="k", ms=6)
        ax.axhline(0.0, color="0.6", lw=0.6)

    res = [r["result"] for r in records]
    thresholds = [_symlog_threshold([r["excess_loss"] for r in res]),
                  _symlog_threshold([r["excess_loss_per_node"] for r in res]
                                    + [r["noise_term"] for r in res])]
    extra = [Line2D([], [], color="k", marker="x", ls="--", label="τ·log n / n (Theorem 1's "
                                                                   "noise term)"),
             Line2D([], [], color="0.4", marker="o", label="mean ± sd over reps")]
    return _facet_plot(
        records, "n", ("noise_std",),
        (f"g(W_k) − g(W_g*)\n(symlog, linear below {thresholds[0]:.0e})",
         f"per node (÷ n)\n(symlog, linear below {thresholds[1]:.0e})"),
        draw, path, "Theorem 1 excess clean loss:",
        yscales=[("symlog", {"linthresh": t}) for t in thresholds],
        ylim=[(-0.5 * t, None) for t in thresholds], extra_handles=extra)


def summarize_node_classification(records, plot_path=None):
    rows = []
    for _, label, lv, recs, res in _points(records, "level"):
        m, sd = _mean_std(r["test_acc"] for r in res)
        rows.append((label, f"{lv:g}", len(recs), f"{100 * m:.1f}", f"{100 * sd:.1f}"))
    table = text_table(("series", "level", "reps", "test acc %", "sd"), rows)
    figs = []
    if plot_path is not None:
        panel_keys = [k for k in varying(records, exclude=("level",)) if k != "model"]
        panels = group(records, panel_keys)
        fig, axes = subplots(1, len(panels), figsize=(5.0 * len(panels) + 1.6, 4.2),
                             squeeze=False, sharey=True)
        for ax, (pkey, precs) in zip(axes[0], panels.items()):
            for (model,), recs in group(precs, ("model",)).items():
                by_lv = sorted(group(recs, ("level",)).items(), key=lambda kv: json.loads(kv[0][0]))
                lv = [json.loads(k[0]) for k, _ in by_lv]
                ms = [_mean_std(r["result"]["test_acc"] for r in v) for _, v in by_lv]
                ax.errorbar(lv, [100 * m for m, _ in ms], yerr=[100 * s for _, s in ms],
                            fmt="o-", capsize=3, label=json.loads(model))
            if panel_keys:
                ax.set_title(_plot_label(panel_keys, pkey), fontsize=9)
            ax.set_xlabel("noise level")
        axes[0][0].set_ylabel("test accuracy % (mean ± sd over reps)")
        legend_outside(fig, axes[0][-1], *axes[0][0].get_legend_handles_labels())
        suptitle(fig, _title(records, "level", "Accuracy vs noise:"), fontsize=10)
        figs.append(_save(fig, plot_path))
    return table, figs


def _declared_summary(task):
    """The summary the task declares (``register_task(..., summary=fn)``; an alias's is its
    task's), or None: a task without one, or a name no longer registered."""
    try:
        return get_task(task).summary
    except ValueError:
        return None


def _save(fig, path):
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
        by_task.setdefault(r["task"], []).append(with_expressions(r))
    parts, figs = [], []
    for task, recs in by_task.items():
        seconds = sum(r.get("seconds") or 0 for r in recs)
        head = f"## {task}: {plural(len(recs), 'cell')}, {seconds:.1f} s of cell time"
        fn = _declared_summary(task)
        if fn is None:
            parts.append(f"{head}\n(no summary for this task)")
            continue
        out = plots_dir / f"{path.stem}-{task}.png" if plots else None
        table, f = fn(recs, out)
        parts.append(f"{head}\n{table}")
        figs += f
    return "\n\n".join(parts), figs
