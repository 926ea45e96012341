"""The one place the checker and the sweep summaries make and save matplotlib figures.

Figures are written into the run's staging folder (see :mod:`ngc_ref_theory.cli`), which is
moved into place with the report at the end of a run, so a figure is never half-written or
newer than the report beside it; saving here is therefore a plain ``savefig``.
"""

from __future__ import annotations

import functools
from pathlib import Path


def draws(name):
    """Decorator of a check's figure: ``draw(path, norm, *args)`` saves the figure at ``path``
    and returns its file name (or None when there was nothing to draw); the decorated function
    is called ``fn(ctx, norm, *args)`` and returns ``[file name]``, or ``[]`` when the run makes
    no figures (``ctx.figure_path`` is None). ``name`` is formatted with ``norm``, e.g.
    ``"lemma-1-{norm}.png"``."""
    def deco(draw):
        @functools.wraps(draw)
        def figure_files(ctx, norm, *args, **kwargs):
            path = ctx.figure_path(name.format(norm=norm))
            if path is None:
                return []
            saved = draw(path, norm, *args, **kwargs)
            return [] if saved is None else [saved]
        return figure_files
    return deco


def subplots(nrows=1, ncols=1, **kwargs):
    """``plt.subplots`` on the non-interactive Agg backend with a constrained layout, so that
    titles and labels stay inside the canvas."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    kwargs.setdefault("layout", "constrained")
    return plt.subplots(nrows, ncols, **kwargs)


def figure(**kwargs):
    """An empty constrained-layout Agg figure, for layouts ``subplots`` cannot express
    (``fig.subplot_mosaic``, panels of unequal width)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    kwargs.setdefault("layout", "constrained")
    return plt.figure(**kwargs)


def legend_outside(fig, ax=None, handles=None, labels=None, **kwargs):
    """A legend just right of ``ax`` (default: the figure's first axes), where it cannot cover
    data; the constrained layout makes room for it and keeps it below the suptitle.

    Handles default to those of ``ax``, one per label. Pass the top-right axes of a grid.
    """
    ax = ax if ax is not None else fig.axes[0]
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    if not unique:
        return None
    kwargs.setdefault("fontsize", 8)
    return ax.legend(list(unique.values()), list(unique), loc="upper left",
                     bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)


def suptitle(fig, text, fontsize=10):
    """``fig.suptitle`` wrapped onto as many lines as the figure's width needs (a character
    is taken as 0.6 em wide), so a long title never runs to the edge of the canvas."""
    import textwrap
    chars = max(20, int(0.9 * fig.get_figwidth() * 72 / (0.6 * fontsize)))
    lines = [textwrap.fill(line, chars) for line in text.split("\n")]
    return fig.suptitle("\n".join(lines), fontsize=fontsize)


def save_figure(fig, path):
    """Save ``fig`` as PNG at ``path`` and close it; returns the file name."""
    import matplotlib.pyplot as plt
    path = Path(path)
    try:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path.name


def log_axes(axes, xlabel="n"):
    """Log-log scales and the x label on every axes of ``axes``."""
    for ax in axes:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)


def fixed_vs_grown(path, series, key, *, label, floor, floor_label, floor_key, lam, S, ylabel,
                   title):
    """Two log-log panels of one per-family quantity against n: at the fixed (λ, S) with its
    floor ``floor``, and at λ = √n, S = ⌈2λ⌉ with the per-row floor ``floor_key`` (the growth
    claims assumption-2 and noise-vanishing). ``series``: {family: (fixed rows, grown rows)}."""
    fig, axes = subplots(1, 2, figsize=(12, 4.4), sharey=True)
    for k, (fam, (fixed, grown)) in enumerate(series.items()):
        c = f"C{k % 10}"
        axes[0].plot([r["n"] for r in fixed], [r[key] for r in fixed], "o-", color=c, label=fam)
        axes[1].plot([r["n"] for r in grown], [r[key] for r in grown], "o-", color=c)
    axes[0].axhline(floor, color="k", ls="--", label=floor_label)
    anyg = next(iter(series.values()))[1]
    axes[1].plot([r["n"] for r in anyg], [r[floor_key] for r in anyg], "k--")
    axes[0].set_title(f"{label} at λ={lam:g}, S={S}")
    axes[1].set_title(f"{label} at λ=√n, S=⌈2λ⌉")
    log_axes(axes)
    axes[0].set_ylabel(ylabel)
    legend_outside(fig, axes[1], *axes[0].get_legend_handles_labels())
    fig.suptitle(title, fontsize=11)
    return save_figure(fig, path)
