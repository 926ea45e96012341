"""The paper's claims about its experiments (``reproduce.verdicts``), each judged on hand-made
per-run accuracies at, just above and just below the threshold its rule states (the rule is
quoted in each record), so a flipped comparison or a shifted threshold fails here in seconds.
The references are the rules' words: a mean and an interval written out in the test, the
paper's own table difference read from ``reproduce.paper``."""

import math

import numpy as np
import pytest

from ngc_ref_theory.reproduce import verdicts as V
from ngc_ref_theory.reproduce.judge import BARELY, CHANCE_MARGIN, GREATLY, MATCH_MARGIN, compare
from ngc_ref_theory.reproduce.paper import QUOTES

#: Per-run offsets with mean 0 and a small spread (the models of a run share them).
JITTER = np.array([-0.2, 0.1, 0.0, 0.3, -0.2])


def runs(mean, spread=1.0):
    return list(mean + spread * JITTER)


def _by_claim(records):
    return {r["claim"]: r for r in records}


# --- depth: keyed by S ----------------------------------------------------------------------

def test_depth_means_keep_their_S_when_one_S_never_ran():
    """Bug: the means of the S that ran were zipped with S = 1, 2, 4, … from the start, so
    when S = 1 failed in every run S = 2's mean was labelled S = 1 and 'from S = 4 on' began
    at S = 8."""
    c = ("cora", 0.0, "paper")
    acc = {c: {f"ngc@S={s}": [70.0 + s / 10] for s in (2, 4, 8, 16, 32)}}
    acc[c]["ngc@S=1"] = [None, None]
    [rec] = V._depth(acc, [c])
    row = rec["evidence"][0]
    assert row["means_by_S"] == pytest.approx({"2": 70.2, "4": 70.4, "8": 70.8, "16": 71.6,
                                               "32": 73.2})
    assert row["range"] == pytest.approx(3.0) and row["range_from_S4"] == pytest.approx(2.8)
    only_shallow = {c: {"ngc@S=1": [70.0], "ngc@S=2": [71.0]}}        # no S ≥ 4: no late range
    [rec] = V._depth(only_shallow, [c])
    assert rec["evidence"][0]["range_from_S4"] is None
    assert rec["summary"] == "ngc cora: range 1.0 (expected barely)"
