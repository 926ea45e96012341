"""``ngc-ref reproduce``: the paper's experiments, table by table, beside the paper's numbers.

Modules
-------
paper     the paper's reported numbers and quoted claims, entered once (checked against the
          LaTeX by tests/test_reproduce_paper.py).
targets   the experiments (tables and figures), their models, readings and run counts.
cells     one run of one noise setting: the sweep task ``reproduce``.
judge     per-cell verdicts (reproduced / below / above) and the paired comparisons.
verdicts  the paper's claims per table, judged on our runs.
report    reproduce.json, reproduce.md and the figures.
scale     NGC/RNGC on a synthetic graph of ogbn-products' size (time, peak memory).
run       the command: plan, run through the resumable store, judge, write.

A layer of the checker between the sweeps and the command line: it imports the library, the
checker's base parts (kit, paper, exact, output) and the sweeps, and nothing imports it but
the command line.
"""

from ..paper.experiments import TABLES, lookup
from .run import reproduce
from .targets import NOT_RUN, TARGETS

__all__ = ["NOT_RUN", "TABLES", "TARGETS", "lookup", "reproduce"]
