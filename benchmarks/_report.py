"""Markdown summary and PNG plots for benchmarks/run.py."""

from __future__ import annotations

import os


def _f(x, fmt="{:.3g}"):
    return "–" if x is None else fmt.format(x)


def summary(res):
    """``speed.md``: the run and the memory roofline (:func:`_run_lines`), then one section
    per part that ran (series, propagation, τ, reorder)."""
    def roofline(part):
        # The one recorded with the part (an --update run's own triad), else the run's.
        return res.get(f"{part}_roofline_GBps", res["triad"]["roofline_GBps"])

    sections = {"series": _series_section,
                "propagation": lambda rows: _propagation_section(rows, roofline("propagation")),
                "tau": _tau_section,
                "reorder": lambda rows: _reorder_section(rows, roofline("reorder"))}
    L = _run_lines(res)
    for part, section in sections.items():
        if part in res:
            L += section(res[part])
    return "\n".join(L) + "\n"


def _table(title, intro, columns):
    """A section's heading, its introduction (lines) and its table's header."""
    return [f"## {title}\n", *intro, "| " + " | ".join(columns) + " |",
            "|" + "---|" * len(columns)]


def _triad(tri, thr):
    """The triad's GB/s, 1 thread and ``thr`` threads: STREAM's count / the bytes moved."""
    return (f"1 thread {tri['GBps_stream_count_1thr']:.1f} / "
            f"{tri['GBps_bytes_moved_1thr']:.1f}, {thr} threads "
            f"{tri[f'GBps_stream_count_{thr}thr']:.1f} / {tri[f'GBps_bytes_moved_{thr}thr']:.1f}")


def _run_lines(res):
    """The title, the command, the machine and versions, the triad bandwidth at start and end
    and the roofline, and one line per later partial rerun (``--update``)."""
    env = res["environment"]
    tri, thr = res["triad"], res["triad"]["threads"]
    L = ["# Speed and scale benchmarks (issue #6)\n",
         f"Command: `{res['command']}`  ",
         f"Commit `{env['commit']}` (dirty={env['dirty']}), {env['time']}, "
         f"{env['cpu']}, {env['cores_available']} cores, load at start {env['loadavg_at_start']}, "
         f"at end {res.get('loadavg_at_end')}  ",
         f"Python {env['python']}, NumPy {env['numpy']}, SciPy {env['scipy']}, "
         f"torch {env['torch']}. Total {res['total_seconds']:.0f} s.\n",
         "STREAM-style triad in NumPy, GB/s (STREAM count of 3 arrays / bytes NumPy's two "
         "passes actually move, 5 arrays):  ",
         f"start: {_triad(tri, thr)}; end: {_triad(res['triad_end'], thr)}.  ",
         f"Roofline (the largest of the start figures): "
         f"**{tri['roofline_GBps']:.1f} GB/s**.\n"]
    for u in res.get("updates", []):
        e = u["environment"]
        L.append(f"Part(s) {', '.join(u['parts'])} rerun by `{u['command']}` at commit "
                 f"`{e['commit']}` (dirty={e['dirty']}), {e['time']}, load at start "
                 f"{e['loadavg_at_start']}, {u['total_seconds']:.0f} s; roofline then "
                 f"{u['triad']['roofline_GBps']:.1f} GB/s.\n")
    return L


def _series_section(series):
    """Section 1: the S the truncated series needs against CG, Chebyshev and a direct solve,
    and the time each takes to a tolerance; then the direct solver's factor and fill."""
    L = _table("1. Truncated series vs exact solve (norm='sym', d random columns)", [
        "S the series needs for a relative error (measured, or extrapolated from the "
        "measured decay when the budget ran out), the bound S of `neumann_order`, and CG "
        "iterations for the same error; time to reach the error for each method "
        "(series and CG/Chebyshev single-threaded; direct = SuperLU factor + solve).\n"],
        ["graph", "λ", "tol", "series S", "bound S", "(λ+1)ln(1/tol)", "CG its", "t series",
         "t CG", "t Cheb", "t direct", "series/CG"])
    for r in series:
        for tol, s in r["series_S"].items():
            tt = r["time_to"][tol]
            ratio = (tt["series_s"] / tt["cg_s"]) if tt["series_s"] and tt["cg_s"] else None
            L.append(f"| {r['graph']} | {r['lam']:g} | {tol} | {_f(s['S'], '{}')}"
                     f"{'*' if s['how'] == 'extrapolated' else ''} | {s['bound_S']} | "
                     f"{s['(lam+1)ln(1/tol)']:.0f} | {_f(r['cg_iterations'][tol], '{}')} | "
                     f"{_f(tt['series_s'])} | {_f(tt['cg_s'])} | {_f(tt['chebyshev_s'])} | "
                     f"{_f(tt['direct_s'])} | {_f(ratio, '{:.1f}x')} |")
    L.append("\n`*` extrapolated S (time = S x measured time per product). Direct: ")
    for r in series:
        d = r["direct"]
        if "factor_nnz" in d:
            L.append(f"{r['graph']} λ={r['lam']:g}: factor {d['factor_s']:.2f} s, "
                     f"fill {d['factor_nnz'] / d['matrix_nnz']:.1f}x nnz;")
        else:
            L.append(f"{r['graph']} λ={r['lam']:g}: {d['skipped']};")
    return L + [""]


def _propagation_section(rows, roof):
    """Section 2: each propagation variant's time per product, bandwidth against the
    roofline ``roof`` (GB/s), speed-up and difference from the plain float64 product."""
    L = _table("2. Propagation Ã_S X (λ=32, norm='sym')", [
        "Bytes per product = nnz·(value+index) + indptr + n·d·itemsize read + n·d·itemsize "
        "written (the minimum a sparse x dense product must move).\n"],
        ["graph", "d", "variant", "ms/product", "GB/s", "% of roofline", "GFMA/s",
         "speedup vs plain", "rel. diff vs plain f64"])
    L.append(f"Roofline for this part: {roof:.1f} GB/s.\n")
    for r in rows:
        if "seconds_per_product" not in r:
            L.append(f"| {r['graph']} | | {r['variant']} | skipped: {r.get('skipped')} "
                     "| | | | | |")
            continue
        L.append(f"| {r['graph']} | {r.get('d', '')} | {r['variant']}"
                 f"{' (' + r['impl'] + ')' if 'impl' in r else ''} | "
                 f"{r['seconds_per_product'] * 1e3:.1f} | {r['GBps']:.2f} | "
                 f"{100 * r['fraction_of_triad']:.1f}% | {_f(r.get('GFMAps'), '{:.2f}')} | "
                 f"{r['speedup_vs_plain']:.2f}x | "
                 f"{_f(r.get('rel_diff_vs_plain'), '{:.1e}')} |")
    return L + [""]


def _tau_section(rows):
    """Section 3: τ exact (1 thread, all threads) against the estimator's bracket, time and
    peak memory."""
    L = _table("3. τ at scale (norm='rw', λ=32, S=16)", [],
               ["graph", "n", "exact 1 thr (s)", "exact all thr (s)", "peak MB", "estimate (s)",
                "est. peak MB", "τ exact", "[τ_lower, τ_upper]", "exact rows", "bracket holds",
                "max sketch err τ_i"])
    for r in rows:
        thr = [k for k in r if k.startswith("exact_s_")]
        t1 = r.get("exact_s_1thr")
        tw = max((r[k] for k in thr if k != "exact_s_1thr"), default=None)
        pk = max((v for k, v in r.items() if k.startswith("exact_peak")), default=None)
        L.append(f"| {r['graph']} | {r['n']} | {_f(t1)} | {_f(tw)} | {_f(pk, '{:.0f}')} | "
                 f"{r['estimate_s']:.1f} | {r['estimate_peak_MB']:.0f} | "
                 f"{_f(r.get('tau_exact'), '{:.4f}')} | [{r['tau_lower']:.4f}, "
                 f"{r['tau_upper']:.4f}] | {r['n_exact']} | {r.get('bracket_holds', '–')} | "
                 f"{_f(r.get('max_rel_err_tau_i_sketch'), '{:.2f}')} |")
    L.append("\nEstimator: 256 Gaussian probes, confidence 0.99, ≤256 exact rows; "
             "τ_lower is an exact τ_i, τ ≤ τ_upper with probability ≥ 0.99.\n")
    return L


def _reorder_section(rows, roof):
    """Section 4: the locality order, none / rcm / auto, as ratios of medians of one run."""
    L = _table("4. Locality order: reorder=None / 'rcm' / 'auto' (λ=32, norm='sym', float64)", [
        "Medians of interleaved rounds. *call*: `neumann_propagate(A, X, λ, S, reorder=...)` "
        "(normalisation, decision, permutation, X in and out included); *filter*: a kept "
        "`NeumannFilter`'s `filt @ X` (X in and out included); *kernel*: the fused kernel on "
        "P Ã Pᵀ and P X (X permuted outside the timing). Ratios none / rcm and none / auto "
        "(> 1: faster than the caller's order) of the wall-clock medians, and in brackets of "
        "the best (minimum) times of the same rounds (`speed.json` also has CPU-time "
        "medians, `cpu_*`). % of triad: bytes per product "
        "(nnz·(8+4) + (n+1)·4 + 2·n·d·8) × S / time, over the triad of the same run "
        f"({roof:.1f} GB/s).\n"],
        ["graph", "n", "nnz", "d", "S", "rounds", "call none (s)", "call rcm", "call auto",
         "filter rcm", "filter auto", "kernel rcm", "RCM (s)", "P Ã Pᵀ (s)", "X in+out (s)",
         "auto decides (s)", "auto", "% triad filter none / rcm (best)",
         "% of the rounds' triad, filter rcm", "max abs diff", "load"])
    for r in rows:
        m, dec = r["median_seconds"], r["auto_decision"]

        def ratio(key):
            return f"{r[key]:.2f}x ({r['best_' + key]:.2f}x)"
        L.append(f"| {r['graph']} | {r['n']:,} | {r['nnz']:,} | {r['d']} | {r['S']} | "
                 f"{r['rounds']} | {m['call/None']:.3f} | "
                 f"{ratio('call_ratio_none_over_rcm')} | {ratio('call_ratio_none_over_auto')} | "
                 f"{ratio('filter_ratio_none_over_rcm')} | "
                 f"{ratio('filter_ratio_none_over_auto')} | "
                 f"{ratio('kernel_ratio_none_over_rcm')} | {r['seconds_rcm']:.3f} | "
                 f"{r['seconds_permuted_matrix']:.3f} | {r['seconds_x_in_and_out']:.3f} | "
                 f"{r['seconds_auto_decision']:.4f} "
                 f"({100 * r['seconds_auto_decision'] / m['call/None']:.1f}% of the call) | "
                 f"{'rcm' if dec['reorder'] else 'none'}: {dec['reason']} | "
                 f"{100 * r['filter_fraction_of_triad/None']:.1f}% / "
                 f"{100 * r['filter_fraction_of_triad/rcm']:.1f}% "
                 f"({100 * r['best_filter_fraction_of_triad/rcm']:.1f}%) | "
                 f"{100 * r['rounds_filter_fraction_of_triad/rcm']:.1f}% of "
                 f"{r['triad_GBps_in_rounds']:.1f} GB/s | "
                 f"{r['max_abs_diff_vs_none']:.1e} | "
                 f"{r['loadavg_before'][0]:.1f} → {r['loadavg_after'][0]:.1f} |")
    # On a shared machine the wall-clock medians move with the other processes' load; the
    # CPU time of this process (all its threads) leaves out the time they held the cores.
    L += ["", "The same ratios from the **CPU-time** medians of the same rounds (this process, "
          "all its threads: the time other processes held the cores left out, so these move "
          "less with the machine's load, though not to nothing: the cores' caches and memory are "
          "still shared). % of triad from CPU time: bytes per product × S / CPU seconds, over the "
          "triad measured at the start of the run; CPU seconds are at least the wall-clock "
          "seconds of one busy thread, so over an idle machine's triad this bounds the idle "
          "wall-clock figure from below (a triad measured under load is itself too low).\n",
          "| graph | call rcm | call auto | filter rcm | filter auto | kernel rcm | "
          "% triad (CPU) filter none / rcm |", "|" + "---|" * 7]
    for r in rows:
        L.append(f"| {r['graph']} | {r['cpu_call_ratio_none_over_rcm']:.2f}x | "
                 f"{r['cpu_call_ratio_none_over_auto']:.2f}x | "
                 f"{r['cpu_filter_ratio_none_over_rcm']:.2f}x | "
                 f"{r['cpu_filter_ratio_none_over_auto']:.2f}x | "
                 f"{r['cpu_kernel_ratio_none_over_rcm']:.2f}x | "
                 f"{100 * r['cpu_filter_fraction_of_triad/None']:.1f}% / "
                 f"{100 * r['cpu_filter_fraction_of_triad/rcm']:.1f}% |")
    return L + [""]


def plots(res, out):
    """``series.png``, ``propagation.png`` and ``tau.png`` in the folder ``out``, one per
    part that ran; nothing without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    for part, draw in (("series", _series_plot), ("propagation", _propagation_plot),
                       ("tau", _tau_plot)):
        if part in res:
            fig = draw(plt, res[part])
            fig.tight_layout()
            fig.savefig(os.path.join(out, f"{part}.png"), dpi=80)
            plt.close(fig)


def _series_plot(plt, ser):
    """Per graph: the series' error against S (top) and every method's error against time
    (bottom)."""
    graphs = list(dict.fromkeys(r["graph"] for r in ser))
    fig, axes = plt.subplots(2, len(graphs), figsize=(5 * len(graphs), 8), squeeze=False)
    for j, g in enumerate(graphs):
        for r in [r for r in ser if r["graph"] == g]:
            ax = axes[0, j]
            ax.semilogy(r["series"]["S"], r["series"]["rel_error"], label=f"λ={r['lam']:g}")
            ax.set(title=f"{g}: series error", xlabel="S", ylabel="rel. error vs exact")
            ax.set_xscale("symlog", linthresh=10)
            ax2 = axes[1, j]
            c = ax2.loglog(r["series"]["seconds"][1:], r["series"]["rel_error"][1:],
                           label=f"series λ={r['lam']:g}")[0].get_color()
            for m, mk in (("cg", "o"), ("chebyshev", "s")):
                pts = r[m]
                ax2.loglog([p["seconds"] for p in pts], [p["rel_error"] for p in pts],
                           mk + "--", color=c, ms=3, label=f"{m} λ={r['lam']:g}")
            if "seconds" in r["direct"]:
                ax2.loglog([r["direct"]["seconds"]], [max(r["direct"]["rel_error"], 1e-16)],
                           "*", color=c, ms=10, label=f"direct λ={r['lam']:g}")
            ax2.set(title=f"{g}: time to accuracy", xlabel="seconds", ylabel="rel. error")
        axes[0, j].legend(fontsize=7)
        axes[1, j].legend(fontsize=6)
    return fig


def _propagation_plot(plt, propagation):
    """Each propagation variant's share of the roofline bandwidth (the 25 % target dashed)."""
    rows = [r for r in propagation if "GBps" in r]
    fig, ax = plt.subplots(figsize=(9, 4))
    labels = [f"{r['graph']}\n{r['variant'][:28]}" for r in rows]
    ax.barh(range(len(rows)), [100 * r["fraction_of_triad"] for r in rows])
    ax.set_yticks(range(len(rows)), labels, fontsize=6)
    ax.axvline(25, color="k", ls="--", lw=0.8)
    ax.set_xlabel("% of the roofline (triad) bandwidth (dashed: 25% target)")
    return fig


def _tau_plot(plt, tau):
    """Seconds against n: exact τ (the fastest thread count) and the estimator."""
    fig, ax = plt.subplots(figsize=(6, 4))
    for key, lab in (("exact", "exact (all threads)"), ("estimate_s", "estimate")):
        pts = []
        for r in tau:
            if key == "exact":
                v = [r[k] for k in r if k.startswith("exact_s_")]
                if v:
                    pts.append((r["n"], min(v)))
            else:
                pts.append((r["n"], r[key]))
        pts.sort()
        ax.loglog(*zip(*pts), "o-", label=lab)
    ax.set(xlabel="n", ylabel="seconds", title="τ (λ=32, S=16)")
    ax.legend()
    return fig
