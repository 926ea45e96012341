"""theory/_text.py, the checker's number formats, by what its docstrings promise: no signed
zero, a value never printed as 0 or ±1 when it is not, the sign shown on both ends of an
interval, the requested digits on both ends of a bracket. The references are written out by
hand (or by Python's own float formatting)."""

import math

import pytest

from ngc_ref_theory._text import bracket, interval, number, rounded


@pytest.mark.parametrize("x", [1 + 2**-52, 1 - 2**-53, -1 - 2**-52, -1 + 2**-53,
                               1.0038, -1.0038, 0.99999])
def test_a_number_next_to_one_never_prints_as_one(x):
    """``number`` promises more digits where 3 would round onto ±1: at the last float digit
    that takes 17 significant digits, the shortest string that reads back as x."""
    s = number(x)
    assert float(s) not in (1.0, -1.0), s
    assert math.copysign(1.0, float(s)) == math.copysign(1.0, x)

