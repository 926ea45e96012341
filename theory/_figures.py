"""The one place the checker and the sweep summaries make and save matplotlib figures.

Figures are written into the run's staging folder (see :mod:`ngc_ref_theory.cli`), which is
moved into place with the report at the end of a run, so a figure is never half-written or
newer than the report beside it; saving here is therefore a plain ``savefig``.
"""

from __future__ import annotations

from pathlib import Path


def subplots(nrows=1, ncols=1, **kwargs):
    """``plt.subplots`` on the non-interactive Agg backend with a constrained layout, so that
    titles and labels stay inside the canvas."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    kwargs.setdefault("layout", "constrained")
    return plt.subplots(nrows, ncols, **kwargs)


def save_figure(fig, path):
    """Save ``fig`` as PNG at ``path`` and close it; returns the file name."""
    import matplotlib.pyplot as plt
    path = Path(path)
    try:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path.name
