"""The neighbouring floats of a threshold, for the judges' boundary tests: a value at, just
above and just below each threshold."""

import numpy as np


def up(x):
    """The next float above ``x``."""
    return np.nextafter(x, np.inf)


def down(x):
    """The next float below ``x``."""
    return np.nextafter(x, -np.inf)
