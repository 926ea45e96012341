"""Exact arithmetic for the certificates of minimal counterexamples on small graphs.

With a rational λ every quantity of ``rw`` is rational: Ã = D̃⁻¹(A + I), r = λ/(λ+1) and
Ã_S = Σ_s r^s Ã^s/(λ+1) are computed in :class:`fractions.Fraction`. For ``sym`` the similarity

    Ã_sym = D̃^{1/2} Ã_rw D̃^{-1/2},   so   [p(Ã_sym)]_ij = [p(Ã_rw)]_ij · √(d̃_i/d̃_j)

for every polynomial p (Ã_S among them) makes each entry a rational multiple of √(d̃_i d̃_j): its
square is rational (row square sums, τ, ‖Ã_S‖_F², ‖Ã_SᵀÃ_S‖_F² stay rational) and a row sum is a
:class:`Surd`, Σ_k c_k √k over square-free k. Square roots of distinct square-free integers are
linearly independent over Q (Besicovitch 1940), so a :class:`Surd` is zero exactly when all its
coefficients are: "≠" is decided exactly, and a sign by rigorous rational bounds on each √k.

Where exact arithmetic does not apply (logarithms, tails of the normal law) the certificate is an
interval: :func:`log_bounds` brackets log x by a truncated atanh series with its remainder bound.
"""

from __future__ import annotations

import math
from fractions import Fraction

from . import chisq as _chisq
from ..kit.text import bracket, number

ZERO, ONE = Fraction(0), Fraction(1)


def frac(x):
    """An exact rational for a grid value: ints and Fractions as they are, floats by their
    shortest decimal (0.01 → 1/100)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    return Fraction(repr(float(x)))


def _squarefree(k):
    """(a, b) with k = a²·b and b square-free."""
    a, b, p = 1, 1, 2
    while p * p <= k:
        while k % (p * p) == 0:
            k //= p * p
            a *= p
        if k % p == 0:
            k //= p
            b *= p
        p += 1
    return a, b * k


class Surd:
    """A number Σ_k c_k √k (k square-free, c_k rational): exact sums of square roots.

    >>> s = Surd.sqrt(6, Fraction(1, 24)) + Fraction(5, 8)
    >>> str(s), s.is_zero(), s.sign()
    ('5/8 + √6/24', False, 1)
    """

    __slots__ = ("terms",)

    def __init__(self, terms=None):
        self.terms = {k: Fraction(c) for k, c in (terms or {}).items() if c}

    @classmethod
    def sqrt(cls, k, coef=ONE):
        """coef·√k for an integer k ≥ 0."""
        if k == 0 or coef == 0:
            return cls()
        a, b = _squarefree(int(k))
        return cls({b: Fraction(coef) * a})

    @staticmethod
    def lift(x):
        return x if isinstance(x, Surd) else Surd({1: frac(x)})

    def __add__(self, other):
        other = Surd.lift(other)
        out = dict(self.terms)
        for k, c in other.terms.items():
            out[k] = out.get(k, ZERO) + c
        return Surd(out)

    __radd__ = __add__

    def __neg__(self):
        return Surd({k: -c for k, c in self.terms.items()})

    def __sub__(self, other):
        return self + (-Surd.lift(other))

    def __rsub__(self, other):
        return Surd.lift(other) - self

    def __mul__(self, other):
        other = Surd.lift(other)
        out = Surd()
        for k1, c1 in self.terms.items():
            for k2, c2 in other.terms.items():
                out = out + Surd.sqrt(k1 * k2, c1 * c2)
        return out

    __rmul__ = __mul__

    def __truediv__(self, q):
        return Surd({k: c / frac(q) for k, c in self.terms.items()})

    def is_zero(self):
        """Exact: the √k of distinct square-free k are linearly independent over Q."""
        return not self.terms

    def __eq__(self, other):
        return (self - other).is_zero()

    def __hash__(self):
        return hash(tuple(sorted(self.terms.items())))

    def rational(self):
        """The value as a Fraction if it is rational, else None."""
        if not self.terms:
            return ZERO
        return self.terms[1] if set(self.terms) == {1} else None

    def __float__(self):
        return float(sum(float(c) * math.sqrt(k) for k, c in self.terms.items()))

    def bounds(self, bits=60):
        """Rigorous rational (lo, hi) around the value: √k in [⌊√(k·4^b)⌋, ⌊√(k·4^b)⌋+1]/2^b."""
        lo = hi = ZERO
        for k, c in self.terms.items():
            s = math.isqrt(k << (2 * bits))
            exact = s * s == k << (2 * bits)
            a, b = Fraction(s, 1 << bits), Fraction(s + (0 if exact else 1), 1 << bits)
            lo += c * (a if c > 0 else b)
            hi += c * (b if c > 0 else a)
        return lo, hi

    def sign(self):
        """−1, 0 or 1, exactly (bounds refined until they exclude 0; the value is non-zero
        whenever a coefficient is)."""
        if self.is_zero():
            return 0
        bits = 60
        while True:
            lo, hi = self.bounds(bits)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            bits *= 2

    def __str__(self):
        if not self.terms:
            return "0"
        parts = []
        for k in sorted(self.terms):
            c = self.terms[k]
            sign = "-" if c < 0 else "+"
            c = abs(c)
            if k == 1:
                body = str(c)
            else:
                root = f"√{k}"
                body = (root if c.numerator == 1 else f"{c.numerator}{root}") + (
                    f"/{c.denominator}" if c.denominator != 1 else "")
            parts.append((sign, body))
        text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
        for sign, body in parts[1:]:
            text += f" {sign} {body}"
        return text

    __repr__ = __str__


def text(x):
    """An exact value as a string: ``p/q`` or a :class:`Surd`'s closed form."""
    return str(x)


# --- matrices (lists of lists) ----------------------------------------------------------------

def identity(n):
    return [[ONE if i == j else ZERO for j in range(n)] for i in range(n)]


def matmul(X, Y):
    cols = list(zip(*Y))
    return [[sum((a * b for a, b in zip(row, col)), ZERO) for col in cols] for row in X]


def add(X, Y, a=ONE, b=ONE):
    return [[a * x + b * y for x, y in zip(rx, ry)] for rx, ry in zip(X, Y)]


def scale(X, c):
    return [[c * x for x in row] for row in X]


def transpose(X):
    return [list(col) for col in zip(*X)]


def inverse(X):
    """Gauss–Jordan inverse of a rational matrix (ValueError when singular)."""
    n = len(X)
    aug = [list(row) + [ONE if i == j else ZERO for j in range(n)] for i, row in enumerate(X)]
    for c in range(n):
        p = next((i for i in range(c, n) if aug[i][c] != 0), None)
        if p is None:
            raise ValueError("matrix is singular")
        aug[c], aug[p] = aug[p], aug[c]
        piv = aug[c][c]
        aug[c] = [x / piv for x in aug[c]]
        for i in range(n):
            if i != c and aug[i][c] != 0:
                f = aug[i][c]
                aug[i] = [x - f * y for x, y in zip(aug[i], aug[c])]
    return [row[n:] for row in aug]


def ldl_pivots(X):
    """Pivots of the symmetric elimination of X (no pivoting): X is positive definite iff they
    are all > 0; the first pivot ≤ 0 certifies that it is not (Sylvester's criterion)."""
    n = len(X)
    W = [list(row) for row in X]
    piv = []
    for c in range(n):
        p = W[c][c]
        piv.append(p)
        if p <= 0:
            break
        for i in range(c + 1, n):
            f = W[i][c] / p
            for j in range(c + 1, n):
                W[i][j] -= f * W[c][j]
    return piv


def fro2(X):
    return sum((x * x for row in X for x in row), ZERO)


# --- the paper's operators --------------------------------------------------------------------

def degrees(n, edges):
    """d̃_i = degree + 1 (the self-loop)."""
    d = [1] * n
    for u, v in edges:
        d[u] += 1
        d[v] += 1
    return d


def adjacency(n, edges):
    """A + I (integers as Fractions)."""
    At = identity(n)
    for u, v in edges:
        At[u][v] = At[v][u] = ONE
    return At


def rw_matrix(n, edges):
    """Ã_rw = D̃⁻¹(A + I)."""
    d = degrees(n, edges)
    return [[x / d[i] for x in row] for i, row in enumerate(adjacency(n, edges))]


def sym_entries(X, d):
    """The sym counterpart of a polynomial X in Ã_rw: X_ij·√(d̃_i/d̃_j), as :class:`Surd`."""
    return [[Surd.sqrt(d[i] * d[j], x / d[j]) for j, x in enumerate(row)]
            for i, row in enumerate(X)]


def sym_square(X, d):
    """Entry squares of the sym counterpart of X: X_ij²·d̃_i/d̃_j (rational)."""
    return [[x * x * d[i] / d[j] for j, x in enumerate(row)] for i, row in enumerate(X)]


def ratio_r(lam):
    lam = frac(lam)
    return lam / (lam + 1)


def mass(lam, S):
    """1 − r^{S+1}."""
    return 1 - ratio_r(lam) ** (S + 1)


def neumann_rw(n, edges, lam, S):
    """Ã_S for rw, exactly: Σ_{s=0}^S r^s Ã^s/(λ+1) (Horner)."""
    lam = frac(lam)
    r = lam / (lam + 1)
    An = rw_matrix(n, edges)
    M = identity(n)
    for _ in range(S):
        M = add(identity(n), scale(matmul(An, M), r))
    return scale(M, 1 / (lam + 1))


def neumann(n, edges, lam, S, norm):
    """Ã_S exactly: Fractions (rw) or :class:`Surd` entries (sym)."""
    M = neumann_rw(n, edges, lam, S)
    return M if norm == "rw" else sym_entries(M, degrees(n, edges))


def row_sums(n, edges, lam, S, norm):
    """Σ_j [Ã_S]_ij: Fractions (rw) or :class:`Surd` (sym)."""
    M = neumann(n, edges, lam, S, norm)
    return [sum(row, ZERO if norm == "rw" else Surd()) for row in M]


def squares(n, edges, lam, S, norm):
    """Entry squares [Ã_S]_ij², rational in both normalisations."""
    M = neumann_rw(n, edges, lam, S)
    return [[x * x for x in row] for row in M] if norm == "rw" else sym_square(
        M, degrees(n, edges))


def row_square_sums(n, edges, lam, S, norm):
    """ρ_i = Σ_j [Ã_S]_ij²."""
    return [sum(row, ZERO) for row in squares(n, edges, lam, S, norm)]


def tau_i(n, edges, lam, S, norm):
    """τ_i = n ρ_i/(1 − r^{S+1})²."""
    m2 = mass(lam, S) ** 2
    return [n * rho / m2 for rho in row_square_sums(n, edges, lam, S, norm)]


def gram_fro2(n, edges, lam, S, norm):
    """‖Ã_SᵀÃ_S‖_F² (sym: Ã_S is symmetric and Ã_S² is a polynomial in Ã_rw)."""
    M = neumann_rw(n, edges, lam, S)
    if norm == "rw":
        return fro2(matmul(transpose(M), M))
    return sum((x for row in sym_square(matmul(M, M), degrees(n, edges)) for x in row), ZERO)


def laplacian(n, edges, norm):
    """L̃ = I − Ã: Fractions (rw) or :class:`Surd` (sym)."""
    An = rw_matrix(n, edges)
    if norm == "sym":
        An = sym_entries(An, degrees(n, edges))
    return [[(ONE if i == j else ZERO) - x for j, x in enumerate(row)]
            for i, row in enumerate(An)]


# --- RNGC (Eq. 17) on small graphs ------------------------------------------------------------
#
# T = r(Ã − εP), P = XXᵀ/‖XXᵀ‖_F. With rational X, ‖XXᵀ‖_F = √q (q rational), so P's entries are
# rational multiples of one square root and T's are :class:`Surd` (rational in rw when q is a
# square, e.g. one feature column: ‖xxᵀ‖_F = ‖x‖²). Its spectral radius is bracketed exactly
# through the characteristic polynomial and the Schur–Cohn–Jury test (roots strictly inside the
# unit disc), which decides ρ(T) < a for every rational a, complex roots included.

def _zero_like(x):
    return Surd() if isinstance(x, Surd) else ZERO


def gram_normalised(X):
    """P = XXᵀ/‖XXᵀ‖_F exactly, for X a list of rows.

    Rational entries: ‖XXᵀ‖_F² = q is rational and 1/√q = √(ab)/a for q = a/b, so P is
    rational or :class:`Surd`. :class:`Surd` entries (an exact irrational feature column) are
    accepted when ‖XXᵀ‖_F is rational, which is always the case for one column (‖xxᵀ‖_F = ‖x‖²).

    >>> [[str(v) for v in row] for row in gram_normalised([[Fraction(1)], [Fraction(-2)]])]
    [['1/5', '-2/5'], ['-2/5', '4/5']]
    """
    n = len(X)
    G = [[sum((X[i][k] * X[j][k] for k in range(len(X[i]))), _zero_like(X[i][0]))
          for j in range(n)] for i in range(n)]
    if len(X[0]) == 1:      # one column: ‖xxᵀ‖_F = Σ x_i² (rational for Surd x too, or fail)
        norm = sum((G[i][i] for i in range(n)), _zero_like(G[0][0]))
        norm = Surd.lift(norm).rational() if isinstance(norm, Surd) else norm
        if norm is None:
            raise ValueError("gram_normalised: ‖x‖² is irrational; give rational features or "
                             "a column whose squared norm is rational")
        if norm == 0:
            raise ValueError("gram_normalised: X is zero (XXᵀ/‖XXᵀ‖_F is undefined)")
        return [[g / norm for g in row] for row in G]
    if any(isinstance(g, Surd) for row in G for g in row):
        raise ValueError("gram_normalised: Surd features are supported for one column only")
    q = fro2(G)
    if q == 0:
        raise ValueError("gram_normalised: X is zero (XXᵀ/‖XXᵀ‖_F is undefined)")
    inv_root = Surd.sqrt(q.numerator * q.denominator, Fraction(1, q.numerator))
    return [[g * inv_root for g in row] for row in G]


def rngc_operator(n, edges, X, lam, eps, norm):
    """T = r(Ã − εXXᵀ/‖XXᵀ‖_F) exactly (Eq. 17's ratio of the series): Fraction or
    :class:`Surd` entries."""
    lam, eps = frac(lam), frac(eps)
    r = lam / (lam + 1)
    An = rw_matrix(n, edges)
    if norm == "sym":
        An = sym_entries(An, degrees(n, edges))
    P = gram_normalised(X)
    return [[r * (An[i][j] - eps * P[i][j]) for j in range(n)] for i in range(n)]


def det(M):
    """Determinant by cofactor expansion (small matrices of Fractions or :class:`Surd`)."""
    n = len(M)
    if n == 1:
        return M[0][0]
    total = _zero_like(M[0][0])
    for j in range(n):
        minor = [row[:j] + row[j + 1:] for row in M[1:]]
        term = M[0][j] * det(minor)
        total = total + term if j % 2 == 0 else total - term
    return total


def charpoly(M):
    """Coefficients [a_{n−1}, …, a_0] of the monic det(zI − M), for n ≤ 3: a_{n−1} = −tr M,
    a_{n−2} = the sum of the principal 2 × 2 minors, a_0 = (−1)ⁿ det M."""
    n = len(M)
    if n > 3:
        raise ValueError(f"charpoly: n ≤ 3 supported, got n={n}")
    tr = sum((M[i][i] for i in range(n)), _zero_like(M[0][0]))
    if n == 1:
        return [-tr]
    minors = sum((M[i][i] * M[j][j] - M[i][j] * M[j][i]
                  for i in range(n) for j in range(i + 1, n)), _zero_like(M[0][0]))
    if n == 2:
        return [-tr, minors]
    return [-tr, minors, -det(M)]


def _sign(x):
    return Surd.lift(x).sign() if isinstance(x, Surd) else (x > 0) - (x < 0)


def _abs_less(a, b):
    """|a| < |b| exactly."""
    return _sign(Surd.lift(b) * b - Surd.lift(a) * a) > 0


def schur_stable(coeffs):
    """Whether every root of the monic z^k + a_{k−1}z^{k−1} + … + a_0 (k ≤ 3, ``coeffs`` =
    [a_{k−1}, …, a_0]) lies strictly inside the unit disc: the Schur–Cohn–Jury conditions,
    decided exactly (k = 1: |a_0| < 1; k = 2: |a_0| < 1, p(1) > 0, p(−1) > 0; k = 3: |a_0| < 1,
    p(1) > 0, −p(−1) > 0, |a_0² − 1| > |a_0a_2 − a_1|).

    >>> schur_stable([Fraction(-1, 2)]), schur_stable([Fraction(0), Fraction(-1)])
    (True, False)
    """
    k = len(coeffs)
    one = ONE
    if k == 1:
        return _abs_less(coeffs[0], one)
    if k == 2:
        a1, a0 = coeffs
        return (_abs_less(a0, one) and _sign(one + a1 + a0) > 0 and _sign(one - a1 + a0) > 0)
    if k == 3:
        a2, a1, a0 = coeffs
        return (_abs_less(a0, one) and _sign(one + a2 + a1 + a0) > 0
                and _sign(one - a2 + a1 - a0) > 0
                and _abs_less(a0 * a2 - a1, a0 * a0 - one))
    raise ValueError(f"schur_stable: degree ≤ 3 supported, got {k}")


def radius_below(M, a):
    """ρ(M) < a, exactly (a > 0 rational): the roots of det(zI − M/a) inside the unit disc."""
    a = frac(a)
    c = charpoly(M)
    return schur_stable([ci / a ** (k + 1) for k, ci in enumerate(c)])


def radius_bracket(M, rel=Fraction(1, 10**12)):
    """Rational (lo, hi) with lo ≤ ρ(M) < hi, by bisection on :func:`radius_below` (exact at
    every step; ``hi − lo ≤ rel·max(hi, 1)``). The first ``hi`` is the ∞-norm bound rounded
    up."""
    bound = max(float(sum((abs(float(x)) for x in row), 0.0)) for row in M)
    lo, hi = ZERO, Fraction(math.ceil(bound * 1024) + 1, 1024)
    if not radius_below(M, hi):
        raise ArithmeticError("radius_bracket: the ∞-norm bound did not bound ρ")
    while hi - lo > rel * max(hi, ONE):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if radius_below(M, mid) else (mid, hi)
    return lo, hi


# --- interval bounds --------------------------------------------------------------------------

_GRID = 1 << 96


def _atanh_bounds(z, terms=40):
    """atanh(z) for rational 0 ≤ z ≤ 1/3: partial sum and the remainder bound
    z^{2K+1}/((2K+1)(1 − z²))."""
    s, p = ZERO, z
    for k in range(terms):
        s += p / (2 * k + 1)
        p *= z * z
    rem = p / ((2 * terms + 1) * (1 - z * z))
    return s, s + rem


def log_bounds(x):
    """Rigorous rational (lo, hi) with lo ≤ log x ≤ hi, width ≲ 2⁻⁹⁰·(1 + |log x|).

    x = 2^k·y with y in [1, 2); log x = k·log 2 + 2 atanh((y − 1)/(y + 1)), each atanh
    bracketed by its partial sum and remainder bound; endpoints rounded outward to 2⁻⁹⁶.
    """
    x = frac(x)
    if x <= 0:
        raise ValueError(f"log_bounds needs x > 0, got {x}")
    k = x.numerator.bit_length() - x.denominator.bit_length()
    y = x / Fraction(2) ** k
    while y >= 2:
        y, k = y / 2, k + 1
    while y < 1:
        y, k = y * 2, k - 1
    l2lo, l2hi = _atanh_bounds(Fraction(1, 3))
    ylo, yhi = _atanh_bounds((y - 1) / (y + 1))
    lo = 2 * ylo + (2 * l2lo if k >= 0 else 2 * l2hi) * k
    hi = 2 * yhi + (2 * l2hi if k >= 0 else 2 * l2lo) * k
    return (Fraction(math.floor(lo * _GRID), _GRID), Fraction(math.ceil(hi * _GRID), _GRID))


def decimal(x, digits=12):
    """A Fraction as a decimal string with ``digits`` significant digits (for reading; the
    exact value is given beside it)."""
    return f"{float(x):.{digits}g}"


def down(x, digits=10):
    """A decimal string not above x (for lower bounds read off an exact value)."""
    x = frac(x)
    if x == 0:
        return "0"
    e = math.floor(math.log10(abs(float(x)))) - digits + 1
    q = Fraction(10) ** e
    return f"{float(math.floor(x / q) * q):.{digits}g}"


def up(x, digits=10):
    """A decimal string not below x."""
    return str(-float(down(-frac(x), digits))) if frac(x) else "0"


# --- certificates of the minimal counterexamples ----------------------------------------------
#
# Each returns {"fails": bool, "certified": "exact" | "interval", "exact": {name: value string},
# "why": how the numbers prove it, "numbers": floats for figures}. ``fails`` is what the exact
# computation says, whatever the float search found.

_INDEPENDENCE = ("square roots of distinct square-free integers are linearly independent over "
                 "Q, so a sum Σ c_k√k is 0 only if every c_k is")


def certify_row_sum(n, edges, lam, S, norm):
    """Eq. 6, Σ_j [Ã_S]_ij = 1 − r^{S+1}, on one graph: every row's exact sum."""
    rows = row_sums(n, edges, lam, S, norm)
    m = mass(lam, S)
    diffs = [Surd.lift(x) - m for x in rows]
    bad = [i for i, d in enumerate(diffs) if not d.is_zero()]
    exact = {"1 − r^(S+1)": text(m)}
    exact.update({f"row {i} sum": text(x) for i, x in enumerate(rows)})
    if bad:
        i = bad[0]
        exact[f"row {i} sum − (1 − r^(S+1))"] = f"{diffs[i]} ≈ {float(diffs[i]):.6g}"
    return {"fails": bool(bad), "certified": "exact", "exact": exact, "bad_rows": bad,
            "why": ("exact row sums of Ã_S" + ("" if norm == "rw" else
                    f" (sym entries [Ã_rw,S]_ij·√(d̃_i/d̃_j)); {_INDEPENDENCE}")),
            "numbers": {"rows": [float(x) for x in rows], "mass": float(m)}}


def certify_row_squares(n, edges, lam, S, norm):
    """Eq. 7, m²/n ≤ ρ_i ≤ m², on one graph: exact row square sums against both bounds."""
    rho = row_square_sums(n, edges, lam, S, norm)
    m2 = mass(lam, S) ** 2
    low, high = m2 / n, m2
    bad = [(i, "lower") for i, x in enumerate(rho) if x < low]
    bad += [(i, "upper") for i, x in enumerate(rho) if x > high]
    exact = {"(1 − r^(S+1))²/n": text(low), "(1 − r^(S+1))²": text(high)}
    exact.update({f"ρ_{i} = Σ_j [Ã_S]_{i}j²": text(x) for i, x in enumerate(rho)})
    if bad:
        i, which = bad[0]
        diff = rho[i] - (low if which == "lower" else high)
        exact[f"ρ_{i} − {which} bound"] = f"{diff} ≈ {float(diff):.6g}"
    return {"fails": bool(bad), "certified": "exact", "exact": exact, "bad_rows": bad,
            "why": "exact rational row square sums (sym: [Ã_S]_ij² = [Ã_rw,S]_ij²·d̃_i/d̃_j)",
            "numbers": {"rho": [float(x) for x in rho], "low": float(low), "high": float(high)}}


def certify_tau_only_if(n, edges, lam, S, norm):
    """'τ = n only if all nodes are isolated', on one graph: exact τ_i."""
    t = tau_i(n, edges, lam, S, norm)
    tau = max(t)
    isolated = [i for i in range(n) if not any(i in e for e in edges)]
    fails = tau == n and len(isolated) < n
    exact = {"n": str(n), "τ": text(tau)}
    exact.update({f"τ_{i}": text(x) for i, x in enumerate(t)})
    return {"fails": fails, "certified": "exact", "exact": exact,
            "why": f"τ = {tau} = n exactly while node(s) {sorted(set(range(n)) - set(isolated))} "
                   "have neighbours" if fails else "τ < n or every node is isolated",
            "numbers": {"tau_i": [float(x) for x in t]}}


def complete_tau(n, lam, S):
    """τ of the complete graph K_n, exactly: 1 + (n − 1)/((λ+1)(1 − r^{S+1}))², both
    normalisations (K_n is regular).

    Ã = J/n, so Ã^s = J/n for s ≥ 1 and every row of Ã_S is m/n − b/n off the diagonal and
    m/n − b/n + b on it, b = 1/(λ+1) (the s = 0 term): ρ_i = m²/n + b²(1 − 1/n).

    >>> complete_tau(2, 1, 1)
    Fraction(13, 9)
    """
    return 1 + Fraction(n - 1) / ((frac(lam) + 1) * mass(lam, S)) ** 2


def certify_lower_not_reached(n, edges, lam, S, norm):
    """Remark 1's 'Eq. 7 reaches its lower bound' on one graph: exact τ_i = nρ_i/(1 − r^{S+1})²
    of every row (the bound is τ_i = 1); ``fails`` (a counterexample to 'reaches') when no row
    has τ_i = 1 exactly."""
    t = tau_i(n, edges, lam, S, norm)
    low = min(t)
    exact = {f"τ_{i}": text(x) for i, x in enumerate(t)}
    exact["min_i τ_i − 1"] = f"{low - 1} ≈ {float(low - 1):.6g}"
    return {"fails": all(x != 1 for x in t), "certified": "exact", "exact": exact,
            "why": "exact rational τ_i (sym: [Ã_S]_ij² = [Ã_rw,S]_ij²·d̃_i/d̃_j is rational); "
                   "Eq. 7's lower bound is τ_i = 1",
            "numbers": {"tau_i": [float(x) for x in t]}}


def matrix_power(X, K):
    """X^K of a square rational matrix (K ≥ 0)."""
    out = identity(len(X))
    for _ in range(K):
        out = matmul(out, X)
    return out


def certify_not_power(n, edges, lam, S, K, norm):
    """Sec. 2's 'NGC covers Ã^K' (SGC: K = 2; a linear K-layer GCN) on one graph: is
    Ã_S = c·Ã^K for some c? The Perron vector forces c = 1 − r^{S+1} (Ã_S and Ã^K map 1 (rw),
    D̃^{1/2}1 (sym) to m times and 1 times itself); ``fails`` (a counterexample to 'covers')
    when an entry of Ã_S − mÃ^K is non-zero, exactly. sym entries are the rw ones times
    √(d̃_i/d̃_j) (both sides are polynomials in Ã), so they vanish together."""
    M = neumann_rw(n, edges, lam, S)
    P = matrix_power(rw_matrix(n, edges), K)
    m = mass(lam, S)
    D = add(M, P, ONE, -m)
    nz = [(i, j) for i in range(n) for j in range(n) if D[i][j] != 0]
    exact = {"1 − r^(S+1) (the only possible c)": text(m)}
    if nz:
        i, j = nz[0]
        scale = "" if norm == "rw" or i == j else f" × √(d̃_{i}/d̃_{j})"
        exact[f"[Ã_S]_{i}{j}"] = text(M[i][j]) + scale
        exact[f"(1 − r^(S+1))·[Ã^{K}]_{i}{j}"] = text(m * P[i][j]) + scale
    return {"fails": bool(nz), "certified": "exact", "exact": exact,
            "why": "exact rational Ã_S and Ã^K (rw; sym entries are the same times "
                   "√(d̃_i/d̃_j)); c is forced to 1 − r^{S+1} by the Perron vector",
            "numbers": {"nonzero_entries": len(nz)}}


def fro2_over_mass2(n, edges, lam, S, norm):
    return sum(row_square_sums(n, edges, lam, S, norm), ZERO) / mass(lam, S) ** 2


def tau(n, edges, lam, S, norm):
    return max(tau_i(n, edges, lam, S, norm))


def certify_rise(n, edges, lam, S, norm, quantity):
    """'non-increasing in S' on one graph: the exact value at S − 1 and S (``quantity`` is
    :func:`fro2_over_mass2` or :func:`tau`)."""
    a, b = quantity(n, edges, lam, S - 1, norm), quantity(n, edges, lam, S, norm)
    return {"fails": b > a, "certified": "exact",
            "exact": {f"at S−1 = {S - 1}": text(a), f"at S = {S}": text(b),
                      "difference": f"{b - a} ≈ {float(b - a):.6g}"},
            "why": "exact rational values at consecutive S",
            "numbers": {"before": float(a), "after": float(b)}}


def _q(F, L, lam):
    """q(F) = ‖F − X‖_F² + λ tr(FᵀL̃F) at X = I."""
    n = len(F)
    LF = matmul(L, F)
    trace = sum((F[k][i] * LF[k][i] for i in range(n) for k in range(n)), ZERO)
    return fro2(add(F, identity(n), ONE, -ONE)) + frac(lam) * trace


def certify_gsd_stationary(n, edges, lam):
    """Eq. 2 for rw on one graph: with X = I (one-hot features), the exact gradient of q at
    F = (I + λL̃)⁻¹ and, when I + λ(L̃ + L̃ᵀ)/2 is positive definite, how far q(F) lies above the
    minimum q(F*), F* = (I + λ(L̃ + L̃ᵀ)/2)⁻¹."""
    lam = frac(lam)
    L = laplacian(n, edges, "rw")
    Ls = scale(add(L, transpose(L)), Fraction(1, 2))
    F = inverse(add(identity(n), L, ONE, lam))
    grad = add(scale(add(F, identity(n), ONE, -ONE), 2), matmul(scale(Ls, 2 * lam), F))
    nz = [(i, j) for i in range(n) for j in range(n) if grad[i][j] != 0]
    exact = {"X": "I (one-hot features)", "‖∇q(F)‖_F²": text(fro2(grad))}
    if nz:
        i, j = nz[0]
        exact[f"∇q(F)_{i}{j}"] = text(grad[i][j])
    K = add(identity(n), Ls, ONE, lam)
    if all(p > 0 for p in ldl_pivots(K)):
        gap = _q(F, L, lam) - _q(inverse(K), L, lam)
        exact["q((I+λL̃)⁻¹) − min q"] = f"{gap} ≈ {float(gap):.6g}"
    return {"fails": bool(nz), "certified": "exact", "exact": exact,
            "why": "exact rational gradient 2(F − X) + λ(L̃ + L̃ᵀ)F at F = (I + λL̃)⁻¹X, X = I",
            "numbers": {"grad_fro2": float(fro2(grad))}}


def certify_gradient(n, edges, lam, norm):
    """Sec. 2's gradient 2L̃F + 2(F − X) against the true 2(F − X) + λ(L̃ + L̃ᵀ)F: their
    difference is the operator (2L̃ − λ(L̃ + L̃ᵀ))F; an exact non-zero entry of it."""
    lam = frac(lam)
    L = laplacian(n, edges, norm)
    zero = ZERO if norm == "rw" else Surd()
    D = [[2 * L[i][j] - lam * (L[i][j] + L[j][i]) + zero for j in range(n)] for i in range(n)]
    nz = [(i, j) for i in range(n) for j in range(n)
          if (D[i][j] != 0 if norm == "rw" else not D[i][j].is_zero())]
    exact = {}
    if nz:
        i, j = nz[0]
        exact[f"(2L̃ − λ(L̃ + L̃ᵀ))_{i}{j}"] = text(D[i][j])
        exact[f"L̃_{i}{j}"] = text(L[i][j])
    return {"fails": bool(nz), "certified": "exact", "exact": exact,
            "why": "paper − true gradient = (2L̃ − λ(L̃ + L̃ᵀ))F, non-zero for F = I"
                   + ("" if norm == "rw" else f"; {_INDEPENDENCE}"),
            "numbers": {}}


def certify_indefinite(n, edges, lam, rel=Fraction(1, 10**9)):
    """q has no minimiser when I + λ(L̃ + L̃ᵀ)/2 (rw) is not positive semi-definite: its exact
    pivots, and the threshold λ* (q bounded below for λ ≤ λ*) bracketed by exact bisection."""
    lam = frac(lam)
    L = laplacian(n, edges, "rw")
    Ls = scale(add(L, transpose(L)), Fraction(1, 2))

    def pd(x):
        return all(p > 0 for p in ldl_pivots(add(identity(n), Ls, ONE, x)))
    piv = ldl_pivots(add(identity(n), Ls, ONE, lam))
    fails = piv[-1] <= 0 and not pd(lam)
    exact = {"pivots of I + λ(L̃+L̃ᵀ)/2": ", ".join(text(p) for p in piv)}
    if fails:
        lo, hi = ZERO, lam
        while hi - lo > rel * hi:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if pd(mid) else (lo, mid)
        exact["λ* (positive definite below, not at or above)"] = (
            f"in [{down(lo)}, {up(hi)}]")
    return {"fails": fails, "certified": "exact", "exact": exact,
            "why": "a pivot ≤ 0 of the symmetric elimination: I + λ(L̃+L̃ᵀ)/2 is not positive "
                   "definite (Sylvester), so q(F + tD) → −∞ along its null/negative direction "
                   "(q is not bounded below when a pivot is < 0)",
            "numbers": {}}


def certify_lemma_1(n, edges, lam, S, d, norm):
    """Lemma 1 (Eq. 11) for Gaussian η on one graph: P(‖Ã_Sη‖_F² > bound) > 1/d by the
    Paley–Zygmund inequality, with exact moments and bracketed logarithms (σ cancels)."""
    rho = row_square_sums(n, edges, lam, S, norm)
    rmax, fro = max(rho), sum(rho, ZERO)
    E = d * fro
    V = 2 * d * gram_fro2(n, edges, lam, S, norm)
    ln_lo, ln_hi = log_bounds(n) if n > 1 else (ZERO, ZERO)
    l2_lo, l2_hi = log_bounds(2 * d)
    b_lo, b_hi = 2 * rmax * (4 * ln_lo + l2_lo), 2 * rmax * (4 * ln_hi + l2_hi)
    theta = b_hi / E
    pz = (1 - theta) ** 2 * E * E / (V + E * E) if theta < 1 else ZERO
    fails = pz > Fraction(1, d)
    exact = {"E‖Ã_Sη‖_F² / σ² = d·‖Ã_S‖_F²": text(E),
             "Var ‖Ã_Sη‖_F² / σ⁴ = 2d·‖Ã_SᵀÃ_S‖_F²": text(V),
             "max_i ρ_i = τ(1 − r^(S+1))²/n": text(rmax),
             "Eq. 11 bound / σ² = 2·max_i ρ_i·(4 log n + log 2d)": f"in [{down(b_lo)}, {up(b_hi)}]",
             "θ = bound / E (upper end)": up(theta),
             "Paley–Zygmund: P(‖Ã_Sη‖_F² > bound) ≥ (1 − θ)²E²/(Var + E²)": f"≥ {down(pz)}",
             "1/d": text(Fraction(1, d))}
    return {"fails": fails, "certified": "interval", "exact": exact,
            "shows": f"P(exceed) ≥ {number(float(pz))}" + (
                f" > 1/d = 1/{d}" if fails else f" (Paley–Zygmund), 1/d = 1/{d}"),
            "why": ("P(X > θ·EX) ≥ (1 − θ)²(EX)²/E[X²] (Paley–Zygmund), X = ‖Ã_Sη‖_F², "
                    "η ~ N(0, σ²) i.i.d.: EX = σ²d‖Ã_S‖_F² and Var X = 2σ⁴d‖Ã_SᵀÃ_S‖_F² exact "
                    "rationals; log n and log 2d bracketed by a truncated atanh series with its "
                    "remainder bound (interval width < 1e-26); θ and the lower bound evaluated "
                    "in rational arithmetic at the interval's unfavourable end"),
            "numbers": {"E": float(E), "bound": float(b_hi), "pz": float(pz)}}


def _mp_bracket(lo, hi, digits=15):
    """An mpmath bracket as text: ``= v`` when both ends agree to ``digits`` significant
    digits (the bracket is narrower than the digits shown), else ``in [lo, hi]``."""
    a, b = _chisq.mp.nstr(lo, digits), _chisq.mp.nstr(hi, digits)
    return f"= {a}" if a == b else f"in [{a}, {b}]"


def lemma_1_weights(n, edges, lam, S, norm):
    """The weights of ‖Ã_Sη‖_F²/σ² = Σ_k μ_k χ²_d (Gaussian η): the eigenvalues μ_k of
    Ã_SᵀÃ_S at :data:`_chisq.DPS` digits, their slack, and whether they are all equal
    (decided exactly: Ã_SᵀÃ_S = μI).

    rw: Ã_SᵀÃ_S is a rational symmetric matrix. sym: Ã_S = D̃^{1/2}Ã_rw,S D̃^{-1/2} is
    symmetric, its entries [Ã_rw,S]_ij √(d̃_i/d̃_j); μ_k are the squares of its eigenvalues, and
    Ã_S² = μI exactly when Ã_rw,S² = μI (similar matrices).
    """
    M = neumann_rw(n, edges, lam, S)
    if norm == "rw":
        G = matmul(transpose(M), M)
        equal = all(G[i][j] == (G[0][0] if i == j else 0) for i in range(n) for j in range(n))
        vals, slack = _chisq.symmetric_eigenvalues(G)
        return vals, slack, equal
    M2 = matmul(M, M)
    equal = all(M2[i][j] == (M2[0][0] if i == j else 0) for i in range(n) for j in range(n))
    d = degrees(n, edges)
    with _chisq.mp.workdps(_chisq.DPS):
        sym = [[_chisq.mp.mpf(x.numerator) / x.denominator
                * _chisq.mp.sqrt(_chisq.mp.mpf(d[i]) / d[j]) for j, x in enumerate(row)]
               for i, row in enumerate(M)]
        nu, slack = _chisq.symmetric_eigenvalues(sym)
        big = max(abs(v) for v in nu)
        return sorted(v * v for v in nu), slack * (2 * big + slack), equal


def certify_lemma_1_exact(n, edges, lam, S, d, norm, tol=None):
    """Lemma 1 (Eq. 11) for Gaussian η on one graph, by the exact probability:
    P(‖Ã_Sη‖_F² > 2τ(1 − r^{S+1})²σ²(4 log n + log 2d)/n) against 1/d (σ cancels).

    ‖Ã_Sη‖_F²/σ² = Σ_k μ_k χ²_d with μ_k the eigenvalues of Ã_SᵀÃ_S; its survival at the
    bound/σ² = 2·max_i ρ_i·(4 log n + log 2d) is bracketed by :func:`_chisq.sf_interval`
    (closed form for equal weights, else Moschopoulos' series with its truncation bound), with
    the eigenvalues and the logarithms widened by their error bounds. ``fails`` is True
    (P > 1/d), False (P ≤ 1/d) or None (undecided: the bracket straddles 1/d). ``tol``: the
    series' truncation tolerance (default :data:`_chisq.TOL`); a looser one is cheaper and
    still rigorous, the bracket only wider.
    """
    mp = _chisq.mp
    rho = row_square_sums(n, edges, lam, S, norm)
    rmax, fro = max(rho), sum(rho, ZERO)
    mu, slack, equal = lemma_1_weights(n, edges, lam, S, norm)
    with mp.workdps(_chisq.DPS):
        trace = mp.mpf(fro.numerator) / fro.denominator
        if abs(mp.fsum(mu) - trace) > n * slack:     # Σ μ_k = tr Ã_SᵀÃ_S = ‖Ã_S‖_F², exactly
            raise ArithmeticError(f"eigenvalues of Ã_SᵀÃ_S sum to {mp.fsum(mu)}, not "
                                  f"‖Ã_S‖_F² = {fro} (n={n}, edges={edges}, λ={lam}, S={S})")
        if equal:       # one weight, exactly ‖Ã_S‖_F²/n: no eigenvalue error at all
            mu, slack = [trace / n] * n, mp.mpf(0)
        bound = 2 * (mp.mpf(rmax.numerator) / rmax.denominator) * (
            4 * mp.log(n) + mp.log(2 * d))
        b_slack = bound * mp.mpf(10) ** (15 - _chisq.DPS)
        lo_w = [max(m - slack, mp.mpf(10) ** (-_chisq.DPS)) for m in mu]
        hi_w = [m + slack for m in mu]
        br = _chisq.sf_interval(lo_w, hi_w, d, bound - b_slack, bound + b_slack,
                                **({} if tol is None else {"tol": mp.mpf(tol)}))
        fails, margin = _chisq.decide(br, Fraction(1, d))
        method = br["method"]
        exact = {"E‖Ã_Sη‖_F² / σ² = d·‖Ã_S‖_F²": text(d * fro),
                 "max_i ρ_i = τ(1 − r^(S+1))²/n": text(rmax),
                 "Eq. 11 bound / σ² = 2·max_i ρ_i·(4 log n + log 2d)": mp.nstr(bound, 15),
                 "weights μ_k (eigenvalues of Ã_SᵀÃ_S)": ", ".join(mp.nstr(m, 12) for m in mu),
                 "P(‖Ã_Sη‖_F² > bound)": _mp_bracket(br["lo"], br["hi"]),
                 "1/d": text(Fraction(1, d)),
                 "margin from 1/d": mp.nstr(margin, 6)}
        numbers = {"P": float(br["lo"]), "P_hi": float(br["hi"]), "bound": float(bound),
                   "E": float(d * fro)}
    side = {True: ">", False: "≤"}.get(fails, "vs")
    return {"fails": fails, "certified": f"exact probability: {br['name']}, mpmath "
                                         f"{_chisq.DPS} digits",
            "exact": exact, "numbers": numbers,
            "shows": f"P(exceed) {bracket(numbers['P'], numbers['P_hi'])} {side} 1/d = 1/{d}",
            "why": ("‖Ã_Sη‖_F²/σ² = Σ_k μ_k χ²_d (Gaussian η; μ_k eigenvalues of Ã_SᵀÃ_S, by "
                    "mpmath's Jacobi method, widened by their error bound; Σ μ_k checked against "
                    "the exact ‖Ã_S‖_F²); P(> bound) bracketed by " + method + "; the "
                    "logarithms at 50 digits, widened; the probability is monotone in every "
                    "weight and in the bound, so the widened ends bracket it")}
