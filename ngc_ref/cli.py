"""Library side of the ``ngc-ref`` command: the Figure 1 demo table (the entry point is
:mod:`theory.cli`, which adds the theory checker)."""

from __future__ import annotations

import sys

import numpy as np

from . import NeumannFilter, connectivity_factor, series_ratio
from . import graphs as _graphs


#: Row labels of the demo table for the Figure 1 graphs of :func:`ngc_ref.graphs.figure1`.
FIGURE1_LABELS = {"G1": "G1 isolated n=4", "G2": "G2 star n=4", "G3": "G3 complete n=4",
                  "G4": "G4 ring n=8"}


def figure1_graphs():
    """The paper's Figure 1 graphs G1-G4 keyed by their demo-table label."""
    return {FIGURE1_LABELS[k]: A for k, A in _graphs.figure1_graphs().items()}


def demo(lam=64.0, S=64, norm="rw", out=sys.stdout):
    """Print τ, τ·log n/n and the truncation error of Ã_S against (I + λL̃)⁻¹ for G1-G4."""
    r = series_ratio(lam)
    ord_name = "inf" if norm == "rw" else "2"
    print(f"Figure 1 graphs at lam={lam:g}, S={S}, norm={norm!r} "
          f"(truncation bound r^(S+1) = {r ** (S + 1):.4g}, {ord_name}-norm)", file=out)
    header = f"{'graph':<18}{'n':>4}{'tau':>10}{'tau*log(n)/n':>15}{'||A_S - inv||':>16}"
    print(header, file=out)
    print("-" * len(header), file=out)
    for name, G in figure1_graphs().items():
        res = connectivity_factor(G, lam, S, norm=norm)
        filt = NeumannFilter(G, lam, S, norm)
        exact = filt.exact(np.eye(filt.n), method="dense")
        err = np.linalg.norm(filt.matrix() - exact, ord=np.inf if norm == "rw" else 2)
        print(f"{name:<18}{res.n:>4}{res.tau:>10.4f}{res.tau_log_n_over_n:>15.4f}{err:>16.4e}",
              file=out)
