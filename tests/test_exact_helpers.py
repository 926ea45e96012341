"""The exact-arithmetic helpers of ``theory/exact/certificates.py`` against references written here.

``tests/test_exact_certificates.py`` checks the certificates; this file checks the pieces they
are built from, each against an independent computation: determinants by the Leibniz sum over
permutations, characteristic polynomials by the Leibniz sum over polynomial entries,
inverses by their product, Schur stability by numpy's roots, spectral radii by numpy's
eigenvalues, logarithms by mpmath at 60 digits, square-free parts by trial factorisation, and
the decimal strings by their defining inequalities.
"""

import itertools
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from ngc_ref_theory.exact import certificates as ex

S2, S3, S6 = ex.Surd.sqrt(2), ex.Surd.sqrt(3), ex.Surd.sqrt(6)


def parity(perm):
    return sum(1 for i in range(len(perm)) for j in range(i + 1, len(perm))
               if perm[i] > perm[j]) % 2


def leibniz(M, zero=F(0), one=F(1)):
    total = zero
    for perm in itertools.permutations(range(len(M))):
        term = one
        for i, j in enumerate(perm):
            term = term * M[i][j]
        total = total - term if parity(perm) else total + term
    return total


# polynomials in z as coefficient lists [c_0, c_1, ...]
def padd(p, q):
    n = max(len(p), len(q))
    return [(p[i] if i < len(p) else 0) + (q[i] if i < len(q) else 0) for i in range(n)]


def pmul(p, q):
    out = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] = out[i + j] + a * b
    return out


def charpoly_reference(M):
    """det(zI − M) by the Leibniz sum, as [a_{n−1}, ..., a_0] of the monic polynomial."""
    n = len(M)
    Z = [[[-M[i][j], 1] if i == j else [-M[i][j]] for j in range(n)] for i in range(n)]
    total = [0]
    for perm in itertools.permutations(range(n)):
        term = [1]
        for i, j in enumerate(perm):
            term = pmul(term, Z[i][j])
        total = padd(total, [-c for c in term] if parity(perm) else term)
    assert total[n] == 1
    return [total[k] for k in range(n - 1, -1, -1)]


MATRICES = [
    [[F(3)]],
    [[F(1), F(2)], [F(3), F(4)]],
    [[F(0), F(1)], [F(1), F(0)]],                       # a zero pivot: row exchange
    [[F(2), F(-1), F(1, 3)], [F(1), F(1), F(5)], [F(-2, 7), F(1), F(1)]],   # entries of 1
    [[F(1), F(1), F(0)], [F(1), F(2), F(1)], [F(0), F(1), F(3)]],
]


@pytest.mark.parametrize("M", MATRICES, ids=range(len(MATRICES)))
def test_det_charpoly_and_inverse_against_leibniz(M):
    n = len(M)
    assert ex.det(M) == leibniz(M)
    assert ex.charpoly(M) == charpoly_reference(M)
    Minv = ex.inverse(M)
    assert ex.matmul(M, Minv) == ex.identity(n) and ex.matmul(Minv, M) == ex.identity(n)


def test_det_and_charpoly_of_surd_matrices():
    M = [[S2, F(1), F(0)], [F(1), S3 / 2, S6], [F(1, 2), F(0), F(2)]]
    M = [[ex.Surd.lift(x) for x in row] for row in M]
    assert ex.det(M) == leibniz(M, ex.Surd(), ex.Surd.lift(1))
    assert ex.charpoly(M) == charpoly_reference(M)
    assert ex.charpoly([[S2]]) == [-S2]
    with pytest.raises(ValueError, match=r"charpoly: n ≤ 3 supported, got n=4"):
        ex.charpoly(ex.identity(4))


def test_inverse_refuses_a_singular_matrix():
    for M in ([[F(1), F(2)], [F(2), F(4)]], [[F(0), F(0)], [F(0), F(1)]]):
        with pytest.raises(ValueError, match="^matrix is singular$"):
            ex.inverse(M)


def test_ldl_pivots_are_the_leading_minor_ratios():
    # pivot k = det(X[:k+1, :k+1]) / det(X[:k, :k]) while the earlier pivots are > 0
    for X in ([[F(4), F(2), F(1)], [F(2), F(3), F(1, 2)], [F(1), F(1, 2), F(1, 5)]],
              [[F(1, 2), F(1, 4)], [F(1, 4), F(1, 3)]],        # pivots below 1, all > 0
              [[F(2), F(1), F(1)], [F(1), F(2), F(1)], [F(1), F(1), F(2)]]):
        minors = [F(1)] + [leibniz([row[:k] for row in X[:k]]) for k in range(1, len(X) + 1)]
        assert ex.ldl_pivots(X) == [minors[k + 1] / minors[k] for k in range(len(X))]
    # the walk stops at the first pivot ≤ 0, a zero pivot included (Sylvester: not PD)
    assert ex.ldl_pivots([[F(1), F(1), F(0)], [F(1), F(1), F(0)], [F(0), F(0), F(5)]]) == [1, 0]
    assert ex.ldl_pivots([[F(-1), F(0)], [F(0), F(1)]]) == [-1]


def test_matmul_fro2_add_scale_transpose():
    X = [[F(1), F(2, 3)], [F(-1), F(0)], [F(5), F(1, 2)]]
    Y = [[F(2), F(-1), F(0)], [F(1, 3), F(1), F(4)]]
    want = [[sum((X[i][k] * Y[k][j] for k in range(2)), F(0)) for j in range(3)]
            for i in range(3)]
    assert ex.matmul(X, Y) == want and all(type(v) is F for row in want for v in row)
    assert ex.fro2(X) == 1 + F(4, 9) + 1 + 25 + F(1, 4) and type(ex.fro2(X)) is F
    assert ex.add(X, X, F(2), F(-1)) == X and ex.scale(X, 2) == ex.add(X, X)
    assert ex.transpose(X) == [[F(1), F(-1), F(5)], [F(2, 3), F(0), F(1, 2)]]


# --- Schur stability and the spectral radius ----------------------------------------------------

def roots_inside(coeffs):
    return bool(np.all(np.abs(np.roots([1.0] + [float(c) for c in coeffs])) < 1 - 1e-12))


@pytest.mark.parametrize("coeffs", [
    [F(-1, 2)], [F(1)], [F(-1)], [F(0)], [F(2)],
    [F(0), F(-1, 4)], [F(0), F(-1)], [F(-1), F(0)], [F(1), F(0)], [F(-3, 2), F(9, 16)],
    [F(0), F(1, 2)], [F(1, 2), F(1, 2)],
    [F(0), F(0), F(1, 8)], [F(-1, 2), F(0), F(0)], [F(0), F(-1), F(0)], [F(1, 2), F(0), F(0)],
    [F(-3), F(3), F(-1)], [F(0), F(0), F(-1)], [F(1), F(1), F(1)], [F(-1), F(1), F(-1)],
    [F(-1, 2), F(1, 4), F(-1, 8)],
    # a root exactly at 1 or −1 with every other condition met: (z + 1)(z − 1/2),
    # (z + 1)(z² + 1/4), (z − 1)(z² + 1/4)
    [F(1, 2), F(-1, 2)], [F(1), F(1, 4), F(1, 4)], [F(-1), F(1, 4), F(-1, 4)],
])
def test_schur_stable_against_numpy_roots(coeffs):
    # boundary cases (a root on the unit circle: p(1) = 0, p(−1) = 0, |a_0| = 1) are not stable
    assert ex.schur_stable(coeffs) == roots_inside(coeffs)


def test_schur_stable_with_surds_and_its_refusal():
    assert ex.schur_stable([S2 / 2 - 1])              # |√2/2 − 1| < 1
    assert not ex.schur_stable([S2])
    assert ex.schur_stable([ex.Surd.lift(0), S2 / 2 - F(1, 2)])
    with pytest.raises(ValueError, match="schur_stable: degree ≤ 3 supported, got 4"):
        ex.schur_stable([F(0)] * 4)


@pytest.mark.parametrize("M", [
    [[F(2000)]],                                      # ρ far above 1024
    [[F(1, 2), F(1, 3)], [F(1, 4), F(-1, 5)]],
    [[F(0), F(3)], [F(3), F(0)]],
    [[F(1), F(2), F(0)], [F(0), F(1), F(2)], [F(2), F(0), F(1)]],
])
def test_radius_bracket_contains_numpy_radius(M):
    lo, hi = ex.radius_bracket(M)
    rho = max(abs(np.linalg.eigvals(np.array(M, dtype=float))))
    assert float(lo) <= rho * (1 + 1e-12) and rho <= float(hi) * (1 + 1e-12)
    assert hi - lo <= F(1, 10 ** 12) * max(hi, 1)
    assert ex.radius_below(M, hi) and not ex.radius_below(M, lo if lo else F(1, 10 ** 30))
    lo6, hi6 = ex.radius_bracket(M, F(1, 10 ** 6))
    assert hi6 - lo6 <= F(1, 10 ** 6) * max(hi6, 1) and lo6 <= rho * (1 + 1e-12) <= hi6 * (
        1 + 1e-12) + 1e-300


# --- Surd ---------------------------------------------------------------------------------------

def test_squarefree_against_factorisation():
    for k in range(1, 2000):
        a, b = ex._squarefree(k)
        assert a * a * b == k
        assert all(b % (p * p) for p in range(2, math.isqrt(b) + 1)), (k, a, b)


def test_surd_values_bounds_signs_strings_and_hashes():
    cases = [(F(5, 8) + S6 / 24, 5 / 8 + math.sqrt(6) / 24, "5/8 + √6/24"),
             (1 - S2, 1 - math.sqrt(2), "1 - √2"),
             (S3 * 2 - S2 * 3, 2 * math.sqrt(3) - 3 * math.sqrt(2), "-3√2 + 2√3"),
             (-S2 / 3, -math.sqrt(2) / 3, "-√2/3"),
             (ex.Surd.lift(F(-7, 2)), -3.5, "-7/2")]
    for s, value, text in cases:
        lo, hi = s.bounds()
        assert lo <= F(value) + F(1, 10 ** 15) and F(value) - F(1, 10 ** 15) <= hi
        assert hi - lo < F(1, 2 ** 55)
        lo8, hi8 = s.bounds(8)
        assert lo8 <= F(value) + F(1, 10 ** 15) and F(value) - F(1, 10 ** 15) <= hi8
        assert s.sign() == (1 if value > 0 else -1) and str(s) == text
        assert float(s) == pytest.approx(value, rel=1e-15)
    assert str(ex.Surd()) == "0" and ex.Surd().sign() == 0
    assert ex.Surd.sqrt(8) == 2 * S2 and hash(ex.Surd.sqrt(8)) == hash(2 * S2)
    assert hash(S2 + S3) == hash(S3 + S2) and len({S2 + 1, 1 + S2, S3}) == 2
    assert ex.Surd.sqrt(0) == ex.Surd() and ex.Surd.sqrt(5, 0) == ex.Surd()
    # a value closer to 0 than 2^-60 needs more bits: sign still decides it exactly
    def true_sign(a, p, q):               # the sign of a·√2 − p/q at 60 digits
        with mpmath.workdps(60):
            return int(mpmath.sign(a * mpmath.sqrt(2) - mpmath.mpf(p) / q))
    for a, p, q in ((1, 665857, 470832),            # continued-fraction convergents of √2:
                    (1, 131836323, 93222358),       # |√2 − p/q| ≈ 1.6e-12 and 4.1e-17
                    (10 ** 20, 141421356237309504880, 1),
                    # closer to √2 than the first bounds' 2⁻⁶⁰: the bits are refined
                    (1, 4478554083, 3166815962), (1, 10812186007, 7645370045)):
        s = S2 * a - F(p, q)
        assert s.sign() == true_sign(a, p, q) != 0 and (-s).sign() == -s.sign()
    assert (S2 - F(1, 10 ** 30)).sign() == 1 and (S2 * F(1, 10 ** 30)).sign() == 1


def test_sign_and_abs_less_at_zero_and_at_equality():
    assert ex._sign(F(0)) == 0 and ex._sign(0) == 0 and ex._sign(F(-1, 3)) == -1
    assert ex._sign(F(2)) == 1 and ex._sign(ex.Surd()) == 0 and ex._sign(-S2) == -1
    assert not ex._abs_less(F(1), F(1)) and not ex._abs_less(F(-1), F(1))
    assert ex._abs_less(F(-1, 2), F(1)) and not ex._abs_less(S2, F(1))
    assert ex._abs_less(S2 - 1, F(1, 2)) and not ex._abs_less(S2 / 2, S2 / 2)


def test_gram_normalised_against_its_definition_and_its_refusals():
    X = [[F(1), F(2)], [F(0), F(-1)], [F(3), F(1, 2)]]
    G = [[sum(a * b for a, b in zip(X[i], X[j])) for j in range(3)] for i in range(3)]
    P = ex.gram_normalised(X)
    q = sum(g * g for row in G for g in row)          # ‖XXᵀ‖_F², rational, not a square
    for i in range(3):
        for j in range(3):
            # P_ij² = G_ij²/q and the sign of G_ij, exactly
            assert P[i][j] * P[i][j] == G[i][j] ** 2 / q
            assert ex._sign(P[i][j]) == ex._sign(G[i][j])
    one = ex.gram_normalised([[F(1)], [F(-2)]])
    assert one == [[F(1, 5), F(-2, 5)], [F(-2, 5), F(4, 5)]]
    surd = ex.gram_normalised([[S2], [ex.Surd.lift(1)]])   # ‖x‖² = 3, rational
    assert surd == [[F(2, 3), S2 / 3], [S2 / 3, F(1, 3)]]
    with pytest.raises(ValueError, match=r"^gram_normalised: ‖x‖² is irrational; give "
                                         r"rational features or a column whose squared norm "
                                         r"is rational$"):
        ex.gram_normalised([[S2 + 1], [ex.Surd.lift(1)]])
    for zero in ([[F(0)], [F(0)]], [[F(0), F(0)], [F(0), F(0)]]):
        with pytest.raises(ValueError, match=r"^gram_normalised: X is zero \(XXᵀ/‖XXᵀ‖_F is "
                                             r"undefined\)$"):
            ex.gram_normalised(zero)
    with pytest.raises(ValueError, match="^gram_normalised: Surd features are supported for "
                                         "one column only$"):
        ex.gram_normalised([[S2, F(1)], [F(1), F(0)]])


# --- logarithms and decimal strings -------------------------------------------------------------

def _mpf(q):
    """The rational ``q`` as an mpmath number at the working precision."""
    q = F(q)
    return mpmath.mpf(q.numerator) / q.denominator


@pytest.mark.parametrize("x", [F(1), F(3, 2), F(2), F(4), F(1, 2), F(1, 3), F(7, 4), F(1023),
                               F(1024), F(1, 1024), F(3, 10 ** 9), F(10 ** 12 + 1, 7), 2, 0.01,
                               F(1, 10 ** 6), 3, F(10 ** 9 + 7, 3), 10 ** 30])
def test_log_bounds_bracket_mpmath_tightly(x):
    lo, hi = ex.log_bounds(x)
    with mpmath.workdps(60):
        true = mpmath.log(_mpf(ex.frac(x)))
        assert _mpf(lo) <= true <= _mpf(hi)
    # "width ≲ 2⁻⁹⁰·(1 + |log x|)", on the 2⁻⁹⁶ grid
    assert hi - lo < F(1, 2 ** 85) * (1 + abs(float(true)))
    assert lo.denominator <= 2 ** 96 and hi.denominator <= 2 ** 96


@pytest.mark.parametrize("bad, text", [(0, "0"), (-1, "-1"), (F(-1, 2), "-1/2")])
def test_log_bounds_refuses_non_positive(bad, text):
    with pytest.raises(ValueError, match=f"^log_bounds needs x > 0, got {text}$"):
        ex.log_bounds(bad)


def test_atanh_bounds_bracket_and_their_remainder():
    for z in (F(0), F(1, 7), F(1, 3)):
        s, t = ex._atanh_bounds(z)
        with mpmath.workdps(60):
            assert _mpf(s) <= mpmath.atanh(_mpf(z)) <= _mpf(t)
        assert t - s <= z ** 81 / (81 * (1 - z * z)) if z else t == s == 0


def test_decimal_down_and_up_strings():
    third = F(1, 3)
    assert ex.decimal(third) == "0.333333333333" and ex.decimal(third, 3) == "0.333"
    assert ex.down(F(2, 3)) == "0.6666666666" and ex.up(F(2, 3)) == "0.6666666667"
    assert ex.down(F(2, 3), 3) == "0.666" and ex.up(F(2, 3), 3) == "0.667"
    assert ex.down(F(-2, 3)) == "-0.6666666667" and ex.up(F(-2, 3)) == "-0.6666666666"
    assert ex.down(0) == "0" and ex.up(0) == "0" and ex.up(F(0)) == "0"
    for x in (F(123456789012, 7), F(1, 7 * 10 ** 9), F(5)):
        lo, hi = ex.down(x), ex.up(x)
        assert F(lo) <= x <= F(hi)
        assert F(hi) - F(lo) <= F(10) ** (math.floor(math.log10(float(x))) - 9) * 2


# --- the exact operators' sums ---------------------------------------------------------------

def test_row_sums_types_and_the_sums_of_squares():
    P3 = [[0, 1], [1, 2]]
    rw = ex.row_sums(3, P3, 1, 2, "rw")
    assert all(type(v) is F for v in rw) and rw == [ex.mass(1, 2)] * 3
    sym = ex.row_sums(3, P3, 1, 2, "sym")
    assert all(isinstance(v, ex.Surd) for v in sym)
    M = ex.neumann(3, P3, 1, 2, "sym")
    assert sym == [sum(row[1:], ex.Surd.lift(row[0])) for row in M]
    rho = ex.row_square_sums(3, P3, 1, 2, "sym")
    assert all(type(v) is F for v in rho)
    assert rho == [sum((x * x for x in row), ex.Surd()).rational() for row in M]
    assert ex.fro2_over_mass2(3, P3, 1, 2, "sym") == sum(rho) / ex.mass(1, 2) ** 2
    assert type(ex.fro2_over_mass2(3, P3, 1, 2, "rw")) is F


def test_lemma_1_weights_equal_flag_and_values():
    P3 = [[0, 1], [1, 2]]
    for norm in ("rw", "sym"):
        mu, slack, equal = ex.lemma_1_weights(3, P3, 2, 0, norm)   # Ã_0 = I/(λ+1): one weight
        with mpmath.workdps(60):
            assert equal and all(abs(m - mpmath.mpf(1) / 9) <= slack for m in mu)
        mu, slack, equal = ex.lemma_1_weights(3, P3, 2, 1, norm)
        assert not equal
        M = np.array([[float(x) for x in row] for row in ex.neumann(3, P3, 2, 1, norm)])
        want = np.sort(np.linalg.eigvalsh(M.T @ M))
        np.testing.assert_allclose([float(m) for m in mu], want, rtol=1e-12)
        assert 0 < slack < 1e-30
    # K2 is regular: Ã_sym = Ã_rw, and Ã_S² is not a multiple of I at S = 1
    assert not ex.lemma_1_weights(2, [[0, 1]], 1, 1, "sym")[2]
