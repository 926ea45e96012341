"""How the checker writes numbers in its summaries: one home for the rules a reader relies on.

A summary is read without a calculator, so a number never misleads by its format: no signed
zero ("-0.00"), a ratio just above 1 does not print as 1, an interval whose two ends print
alike is one number, and an empty list is said in words, not left as "()" or "0/0".
"""

from __future__ import annotations

import math


def number(x, digits=3):
    """``x`` to ``digits`` significant digits, with more where that would round it onto 0 or
    ±1 (a ratio of 1.0038 must not read as 1), and never a signed zero.

    Examples
    --------
    >>> number(7.856), number(1.0038), number(-0.0), number(3e9)
    ('7.86', '1.004', '0', '3e+09')
    """
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    s = f"{x:.{digits}g}"
    # up to 17 significant digits: enough for every float64 to read back as itself, so a
    # value one ulp from ±1 (1 + 2⁻⁵², which 16 digits still print as 1) is never shown as ±1
    for more in range(digits, 18):
        s = f"{x:.{more}g}"
        if float(s) not in (0.0, 1.0, -1.0) or float(s) == x:
            break
    return s


def rounded(x, places=2, sign=False):
    """``x`` to ``places`` decimals (with its sign, ``+`` too, when ``sign``), but never a
    signed zero: a non-zero ``x`` that would print as ±0.00 keeps two significant digits,
    and zero prints as ``0.00``.

    Examples
    --------
    >>> rounded(-0.0012), rounded(-0.0), rounded(0.456, sign=True), rounded(0.0, sign=True)
    ('-0.0012', '0.00', '+0.46', '0.00')
    """
    x = float(x)
    if x == 0:
        return f"{0.0:.{places}f}"
    if not math.isfinite(x):
        return str(x)
    s = f"{x:+.{places}f}" if sign else f"{x:.{places}f}"
    if float(s) == 0:
        s = f"{x:+.2g}" if sign else f"{x:.2g}"
    return s


def interval(lo, hi, places=2, sign=False):
    """``[lo, hi]`` with each end written by :func:`rounded`.

    >>> interval(-0.0021, 0.0004)
    '[-0.0021, 0.0004]'
    """
    return f"[{rounded(lo, places, sign)}, {rounded(hi, places, sign)}]"


def bracket(lo, hi, digits=3):
    """A value known to lie in ``[lo, hi]``, to ``digits`` significant digits: ``= v`` when
    both ends print alike (the bracket is narrower than the digits shown), else
    ``in [lo, hi]``.

    Examples
    --------
    >>> bracket(0.285954861574119, 0.285954861574119)
    '= 0.286'
    >>> bracket(0.2859, 0.2901)
    'in [0.286, 0.29]'
    """
    a, b = number(lo, digits), number(hi, digits)
    return f"= {a}" if a == b else f"in [{a}, {b}]"


def listing(items, empty="none"):
    """``items`` joined by ", ", or ``empty`` when there are none (never an empty "()").

    >>> listing(["ring -0.26", "path -0.20"]), listing([])
    ('ring -0.26, path -0.20', 'none')
    """
    items = list(items)
    return ", ".join(map(str, items)) if items else empty
