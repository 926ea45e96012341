"""theory/kit/text.py, the checker's number formats, by what its docstrings promise: no signed
zero, a value never printed as 0 or ±1 when it is not, the sign shown on both ends of an
interval, the requested digits on both ends of a bracket. The references are written out by
hand (or by Python's own float formatting)."""

import math

import pytest

from ngc_ref_theory.kit.text import bracket, interval, number, rounded


@pytest.mark.parametrize("x", [1 + 2**-52, 1 - 2**-53, -1 - 2**-52, -1 + 2**-53,
                               1.0038, -1.0038, 0.99999])
def test_a_number_next_to_one_never_prints_as_one(x):
    """``number`` promises more digits where 3 would round onto ±1: at the last float digit
    that takes 17 significant digits, the shortest string that reads back as x."""
    s = number(x)
    assert float(s) not in (1.0, -1.0), s
    assert math.copysign(1.0, float(s)) == math.copysign(1.0, x)


def test_a_number_reads_as_the_float_it_rounds_and_non_finite_values_stay_named():
    assert [number(x) for x in (7.856, -7.856, 3e9, 0.0, -0.0)] == [
        "7.86", "-7.86", "3e+09", "0", "0"]
    assert [number(x) for x in (math.inf, -math.inf, math.nan)] == ["inf", "-inf", "nan"]
    assert [rounded(x) for x in (math.inf, -math.inf, math.nan)] == ["inf", "-inf", "nan"]
    # digits beyond float64's 17 significant ones: Python's own formatting, never None
    assert number(1 / 3, digits=17) == f"{1 / 3:.17g}"
    assert number(1 / 3, digits=20) == f"{1 / 3:.20g}"


def test_a_signed_rounding_keeps_its_sign_below_the_places_shown():
    assert rounded(0.0012, sign=True) == "+0.0012"
    assert rounded(-0.0012, sign=True) == "-0.0012"
    assert rounded(0.0012) == "0.0012"


def test_an_interval_with_sign_signs_both_ends():
    assert interval(-0.5, 0.25, sign=True) == "[-0.50, +0.25]"
    assert interval(0.5, 0.75, sign=True) == "[+0.50, +0.75]"
    assert interval(0.123, 0.456, places=1) == "[0.1, 0.5]"


def test_a_bracket_is_written_to_the_digits_asked_for_at_both_ends():
    assert bracket(0.28595, 0.28599, digits=5) == "in [0.28595, 0.28599]"
    assert bracket(0.285951, 0.285959, digits=4) == "= 0.286"
    assert bracket(0.123456, 0.123457, digits=2) == "= 0.12"
