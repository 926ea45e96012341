"""``ngc-ref reproduce``: the paper's experiments, table by table, beside the paper's numbers.

Modules
-------
targets   the experiments (tables and figures), each a claim of the kit: its sentences
          (statements with scopes), its models, readings and run counts, its cells (a plan).
cells     one run of one noise setting: the sweep task ``reproduce``.
judge     per-cell verdicts (reproduced / below / above), the paired comparisons and the
          record of a judged sentence.
verdicts  the paper's claims per table, judged on our runs.
tables    reproduce.json, reproduce.md and the figures.
scale     NGC/RNGC on a synthetic graph of ogbn-products' size (time, peak memory).
run       the command: plan, run through the resumable store, judge, write.

The paper's reported numbers and quoted sentences are entered once in
:mod:`ngc_ref_theory.paper.experiments` (checked against the LaTeX by
tests/test_reproduce_paper.py).

A layer of the checker between the sweeps and the command line: it imports the library, the
checker's base parts (kit, paper, exact, output) and the sweeps, and nothing imports it but
the command line.
"""

from ..paper.experiments import TABLES, lookup
from .run import reproduce
from .targets import NOT_RUN, TARGETS

__all__ = ["NOT_RUN", "TABLES", "TARGETS", "lookup", "reproduce"]
