"""The neighbouring floats of a threshold, for the judges' boundary tests: a value at, just
above and just below each threshold."""

import numpy as np


def up(x):
    """The next float above ``x``."""
    return np.nextafter(x, np.inf)


def down(x):
    """The next float below ``x``."""
    return np.nextafter(x, -np.inf)


def assert_interval_rule(verdict, t):
    """``verdict(lo, hi)`` follows the interval rule at threshold ``t``
    (:func:`ngc_ref_theory.kit.stats.interval_verdict`): ``holds`` with the upper end at ``t``,
    ``fails`` with the lower end just above it, ``inconclusive`` with either end one float on
    the other side."""
    assert verdict(t - 1.0, t) == "holds"
    assert verdict(t - 1.0, up(t)) == "inconclusive"
    assert verdict(t, t + 1.0) == "inconclusive"
    assert verdict(up(t), t + 1.0) == "fails"
