"""Tests of ngc_ref.noise: determinism, moments with 5-sigma margins, sub-Gaussian parameters,
flip rates, row normalisation closed forms, no mutation, and input validation."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from ngc_ref.noise import (add_subgaussian_noise, corrupt, flip_features, gaussian_noise,
                           row_normalize, subgaussian_noise)

SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=40)


def binary(shape, density=0.3, seed=0):
    return (np.random.default_rng(seed).random(shape) < density).astype(np.float64)


def same(a, b):
    if sp.issparse(a) or sp.issparse(b):
        return (type(a) is type(b) and a.shape == b.shape and a.dtype == b.dtype
                and (a != b).nnz == 0)
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)


# ------------------------------------------------------------------------------ determinism

DRAWS = {
    "gaussian_noise": lambda s: gaussian_noise(np.ones((20, 5)), 0.7, seed=s),
    "subgaussian_gaussian": lambda s: subgaussian_noise((20, 5), "gaussian", 2.0, seed=s)[0],
    "subgaussian_rademacher": lambda s: subgaussian_noise((20, 5), "rademacher", seed=s)[0],
    "subgaussian_uniform": lambda s: subgaussian_noise((20, 5), "uniform", seed=s)[0],
    "add_subgaussian": lambda s: add_subgaussian_noise(np.ones((20, 5)), "uniform", 1.0, s)[0],
    "flip_dense": lambda s: flip_features(binary((20, 5)), 0.3, seed=s),
    "flip_sparse": lambda s: flip_features(sp.csr_array(binary((20, 5))), 0.3, seed=s),
    "corrupt_gaussian": lambda s: corrupt(binary((20, 5)), "gaussian", 0.5, seed=s),
    "corrupt_flip": lambda s: corrupt(binary((20, 5)), "flip", 0.2, seed=s),
}


@pytest.mark.parametrize("name", list(DRAWS))
def test_same_seed_same_output_different_seed_different(name):
    draw = DRAWS[name]
    assert same(draw(3), draw(3))
    assert same(draw(np.random.default_rng(3)), draw(3))
    assert not same(draw(3), draw(4))


# ------------------------------------------------------------------------- Gaussian noise

def test_gaussian_noise_moments():
    X = np.full((200, 500), 3.0)
    xi = 2.0
    eta = (gaussian_noise(X, xi, seed=0) - X).ravel()
    N = eta.size
    assert abs(eta.mean()) < 5 * xi / math.sqrt(N)
    # Sample variance of N(0, s^2) has sd s^2 sqrt(2 / N) (to first order).
    assert abs(eta.var() - xi**2) < 5 * xi**2 * math.sqrt(2 / N)
    # Columns and rows are independent: a correlation of two columns is O(1/sqrt(n)).
    E = eta.reshape(X.shape)
    assert abs(np.corrcoef(E[:, 0], E[:, 1])[0, 1]) < 5 / math.sqrt(200)


def test_gaussian_noise_shapes_and_dtypes():
    x = np.arange(4)
    out = gaussian_noise(x, 0.0, seed=0)
    assert out.shape == (4,) and out.dtype == np.float64
    np.testing.assert_array_equal(out, x)
    assert gaussian_noise(np.ones((3, 2), np.float32), 1.0, seed=0).dtype == np.float32
    Xs = sp.csr_array(binary((6, 4)))
    out = gaussian_noise(Xs, 0.1, seed=0)
    assert isinstance(out, np.ndarray) and out.shape == (6, 4)
    np.testing.assert_allclose(out, gaussian_noise(Xs.toarray(), 0.1, seed=0))


# --------------------------------------------------------------------- sub-Gaussian noise

def test_subgaussian_sigmas_follow_the_table():
    assert subgaussian_noise(3, "gaussian", 2.5, seed=0)[1] == 2.5
    assert subgaussian_noise(3, "rademacher", 2.5, seed=0)[1] == 2.5
    assert subgaussian_noise(3, "uniform", 2.5, seed=0)[1] == 2.5
    assert subgaussian_noise(3, "uniform", 2.5, seed=0, proxy="optimal")[1] == pytest.approx(
        2.5 / math.sqrt(3))
    assert subgaussian_noise(3, "gaussian", 2.5, seed=0, proxy="optimal")[1] == 2.5


def test_subgaussian_mgf_bounds_hold_in_closed_form():
    # Assumption 1: E exp(t eta) <= exp(sigma^2 t^2 / 2). Closed-form MGFs on a grid of t.
    t = np.linspace(-30, 30, 2001)
    t = t[t != 0]
    s = 0.7
    assert np.all(np.cosh(s * t) <= np.exp(s**2 * t**2 / 2))                  # Rademacher
    mgf_uniform = np.sinh(s * t) / (s * t)
    assert np.all(mgf_uniform <= np.exp(s**2 * t**2 / 2))                     # Hoeffding
    assert np.all(mgf_uniform <= np.exp((s / math.sqrt(3))**2 * t**2 / 2) * (1 + 1e-12))
    # ... and s/sqrt(3) is the smallest: any smaller sigma fails near t = 0.
    small = 0.99 * s / math.sqrt(3)
    tt = np.array([0.1, 0.2])
    assert np.all(np.sinh(s * tt) / (s * tt) > np.exp(small**2 * tt**2 / 2))


def test_rademacher_moments():
    s = 1.7
    eta, _ = subgaussian_noise((300, 300), "rademacher", s, seed=1)
    assert set(np.unique(eta).tolist()) == {-s, s}
    N = eta.size
    assert abs(eta.mean()) < 5 * s / math.sqrt(N)
    np.testing.assert_allclose((eta**2).mean(), s**2)


def test_uniform_moments():
    a = 3.0
    eta, _ = subgaussian_noise((300, 300), "uniform", a, seed=2)
    N = eta.size
    assert eta.min() >= -a and eta.max() <= a
    assert abs(eta.mean()) < 5 * (a / math.sqrt(3)) / math.sqrt(N)
    # E U^2 = a^2/3, Var U^2 = a^4/5 - a^4/9 = 4 a^4 / 45.
    assert abs((eta**2).mean() - a**2 / 3) < 5 * math.sqrt(4 * a**4 / 45 / N)


def test_add_subgaussian_noise_matches_gaussian_noise():
    X = binary((30, 7))
    Xn, sigma = add_subgaussian_noise(X, "gaussian", 0.4, seed=5)
    assert sigma == 0.4
    np.testing.assert_array_equal(Xn, gaussian_noise(X, 0.4, seed=5))
    Xr, _ = add_subgaussian_noise(X, "rademacher", 0.25, seed=5)
    np.testing.assert_allclose(np.abs(Xr - X), 0.25)


def test_subgaussian_zero_size_and_scale():
    eta, sigma = subgaussian_noise((0, 3), "uniform", 1.0, seed=0)
    assert eta.shape == (0, 3) and sigma == 1.0
    assert not subgaussian_noise((4,), "gaussian", 0.0, seed=0)[0].any()


# ------------------------------------------------------------------------------- flipping

def test_flip_rate_binomial_interval():
    X = binary((300, 200), density=0.2, seed=1)
    p = 0.1
    Xf = flip_features(X, p, seed=0)
    flipped = Xf != X
    N = X.size
    assert abs(flipped.sum() - N * p) < 5 * math.sqrt(N * p * (1 - p))
    # Flips do not depend on the value: same rate on ones and zeros.
    for mask in (X == 1, X == 0):
        m = mask.sum()
        assert abs(flipped[mask].sum() - m * p) < 5 * math.sqrt(m * p * (1 - p))
    assert set(np.unique(Xf).tolist()) <= {0.0, 1.0}


def test_flip_extremes_and_dtypes():
    X = binary((8, 9), seed=2)
    np.testing.assert_array_equal(flip_features(X, 0.0, seed=0), X)
    np.testing.assert_array_equal(flip_features(X, 1.0, seed=0), 1 - X)
    Xb = X.astype(bool)
    out = flip_features(Xb, 1.0)
    assert out.dtype == np.bool_ and np.array_equal(out, ~Xb)
    Xi = X.astype(np.int8)
    assert flip_features(Xi, 0.5, seed=0).dtype == np.int8
    x1 = np.array([0, 1, 1])
    np.testing.assert_array_equal(flip_features(x1, 1.0), [1, 0, 0])


@pytest.mark.parametrize("fmt", [sp.csr_array, sp.csr_matrix, sp.csc_array, sp.coo_matrix])
def test_flip_sparse_same_kind_and_same_flips_as_dense(fmt):
    X = binary((40, 30), density=0.1, seed=3)
    Xs = fmt(X)
    out = flip_features(Xs, 0.2, seed=9)
    assert type(out) is type(Xs) and out.dtype == Xs.dtype
    np.testing.assert_array_equal(out.toarray(), flip_features(X, 0.2, seed=9))
    out = out.tocsr()
    out.sum_duplicates()
    assert np.all(out.data == 1.0)  # no explicit zeros, no duplicates summed to 2


def test_flip_sparse_with_explicit_zeros_and_bool():
    Xs = sp.csr_array((np.array([1.0, 0.0]), (np.array([0, 1]), np.array([0, 1]))),
                      shape=(2, 2))
    np.testing.assert_array_equal(flip_features(Xs, 1.0).toarray(), [[0, 1], [1, 1]])
    Xb = sp.csr_array(np.eye(3, dtype=bool))
    out = flip_features(Xb, 1.0)
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out.toarray(), ~np.eye(3, dtype=bool))


def test_flip_rejects_non_binary():
    with pytest.raises(ValueError, match="binary"):
        flip_features(np.array([[0.0, 0.5]]), 0.1)
    with pytest.raises(ValueError, match="binary"):
        flip_features(sp.csr_array(np.array([[0.0, 2.0]])), 0.1)
    with pytest.raises(ValueError, match="binary"):
        flip_features(np.array([[np.nan, 1.0]]), 0.1)


# ------------------------------------------------------------------------ row normalisation

finite_rows = arrays(np.float64, st.tuples(st.integers(1, 12), st.integers(1, 6)),
                     elements=st.floats(-5, 5, allow_nan=False, allow_subnormal=False))


@SETTINGS
@given(finite_rows)
def test_pyg_closed_form(X):
    out = row_normalize(X)
    s = X.sum(axis=1)
    big = s >= 1
    np.testing.assert_allclose(out[big].sum(axis=1), 1.0, rtol=1e-10)
    np.testing.assert_array_equal(out[~big], X[~big])  # divided by 1: unchanged exactly
    np.testing.assert_allclose(out[big], X[big] / s[big, None])
    assert np.all(np.isfinite(out))


@SETTINGS
@given(finite_rows)
def test_l1_l2_closed_forms(X):
    nz = np.abs(X).sum(axis=1) > 0
    out1 = row_normalize(X, "l1")
    np.testing.assert_allclose(np.abs(out1[nz]).sum(axis=1), 1.0, rtol=1e-10)
    out2 = row_normalize(X, "l2")
    np.testing.assert_allclose(np.linalg.norm(out2[nz], axis=1), 1.0, rtol=1e-10)
    assert not out1[~nz].any() and not out2[~nz].any()
    # Sparse in, same numbers out.
    for method in ("pyg", "l1", "l2"):
        out_s = row_normalize(sp.csr_array(X), method)
        assert isinstance(out_s, sp.csr_array)
        np.testing.assert_allclose(out_s.toarray(), row_normalize(X, method), rtol=1e-12,
                                   atol=1e-300)


def test_zero_rows_stay_zero_never_nan():
    X = np.array([[0.0, 0.0, 0.0], [1.0, -1.0, 0.0], [1e-300, 0.0, 2e-300]])
    for method in ("pyg", "pyg_shift", "l1", "l2"):
        out = row_normalize(X, method)
        assert np.all(np.isfinite(out))
        if method != "pyg_shift":
            assert not out[0].any()
    # Row 1 sums to zero but is not zero: pyg leaves it, l1 scales it by 1/2.
    np.testing.assert_array_equal(row_normalize(X)[1], [1.0, -1.0, 0.0])
    np.testing.assert_allclose(row_normalize(X, "l1")[1], [0.5, -0.5, 0.0])
    # A tiny row is normalised, not lost to underflow.
    np.testing.assert_allclose(row_normalize(X, "l2")[2], [1 / math.sqrt(5), 0, 2 / math.sqrt(5)])
    Xs = sp.csr_array(X)
    assert not row_normalize(Xs, "l2").toarray()[0].any()


def test_pyg_after_gaussian_noise_leaves_negative_rows_unnormalised():
    X = binary((500, 100), density=0.05, seed=4)
    Xn = gaussian_noise(X, 1.0, seed=0)
    out = row_normalize(Xn)
    s = Xn.sum(axis=1)
    assert (s < 0).any() and (s >= 1).any()
    np.testing.assert_array_equal(out[s < 1], Xn[s < 1])
    np.testing.assert_allclose(out[s >= 1].sum(axis=1), 1.0)


def test_pyg_shift():
    X = np.array([[-1.0, 1.0], [0.0, 3.0]])
    # min = -1 -> [[0, 2], [1, 4]] -> rows / [2, 5]
    np.testing.assert_allclose(row_normalize(X, "pyg_shift"), [[0, 1], [0.2, 0.8]])
    Xs = sp.csr_array(np.array([[0.0, 2.0], [1.0, 3.0]]))
    np.testing.assert_allclose(row_normalize(Xs, "pyg_shift").toarray(), [[0, 1], [0.25, 0.75]])
    with pytest.raises(ValueError, match="toarray"):
        row_normalize(sp.csr_array(X), "pyg_shift")


def test_row_normalize_kinds_and_dtypes():
    X = binary((5, 4), seed=5) * 3
    assert row_normalize(X.astype(np.float32)).dtype == np.float32
    assert row_normalize(X.astype(int)).dtype == np.float64
    out = row_normalize(sp.csc_matrix(X), "l1")
    assert isinstance(out, sp.csc_matrix)
    np.testing.assert_allclose(out.toarray(), row_normalize(X, "l1"))
    assert row_normalize(np.array([2.0, 0.5, -3.0])).shape == (3,)
    np.testing.assert_array_equal(row_normalize(np.array([2.0, 0.5, -3.0])), [1.0, 0.5, -3.0])


# ------------------------------------------------------------------------------- pipeline

def test_corrupt_is_noise_then_normalisation():
    X = binary((50, 20), seed=6)
    np.testing.assert_array_equal(corrupt(X, "gaussian", 0.3, seed=1),
                                  row_normalize(gaussian_noise(X, 0.3, seed=1), "pyg"))
    np.testing.assert_array_equal(corrupt(X, "gaussian", 0.3, seed=1, normalize=False),
                                  gaussian_noise(X, 0.3, seed=1))
    np.testing.assert_array_equal(corrupt(X, "flip", 0.2, seed=1, normalize_method="l2"),
                                  row_normalize(flip_features(X, 0.2, seed=1), "l2"))
    np.testing.assert_array_equal(
        corrupt(X, "uniform", 0.5, seed=1, normalize=False),
        add_subgaussian_noise(X, "uniform", 0.5, seed=1)[0])
    out = corrupt(sp.csr_array(X), "flip", 0.1, seed=1)
    assert isinstance(out, sp.csr_array)
    np.testing.assert_allclose(out.toarray(), corrupt(X, "flip", 0.1, seed=1))


@pytest.mark.parametrize("kind", ["gaussian", "flip", "rademacher", "uniform"])
@pytest.mark.parametrize("normalize", [True, False])
@pytest.mark.parametrize("make, dtype", [(sp.csr_array, np.float32), (sp.csr_matrix, np.float64),
                                         (sp.coo_array, np.float64), (sp.csc_array, np.int64)],
                         ids=["csr_array-f32", "csr_matrix-f64", "coo_array-f64", "csc_array-i64"])
def test_corrupt_keeps_sparsity_and_dtype_as_given(kind, normalize, make, dtype):
    X = binary((40, 12), seed=3)
    Xs = make(X.astype(dtype))
    # float32 kept, other dtypes float64; "flip" without normalisation keeps X's own dtype.
    want = dtype if (dtype == np.float32 or (kind == "flip" and not normalize)) else np.float64
    zero = corrupt(Xs, kind, 0.0, seed=1, normalize=normalize)
    assert type(zero) is type(Xs) and zero.dtype == want, (type(zero), zero.dtype)
    assert zero is not Xs and zero.nnz == Xs.nnz
    # The dense path's numbers (row sums of 0/1 entries are exact, so equal to the bit).
    np.testing.assert_array_equal(zero.toarray(), corrupt(Xs.toarray(), kind, 0.0, seed=1,
                                                          normalize=normalize))
    noisy = corrupt(Xs, kind, 0.3, seed=1, normalize=normalize)
    assert noisy.dtype == want
    if kind == "flip":                    # flipping keeps it sparse at every level
        assert type(noisy) is type(Xs)
    else:                                 # noise on every entry: dense, as the draw is
        assert isinstance(noisy, np.ndarray)
    dense = corrupt(Xs.toarray(), kind, 0.3, seed=1, normalize=normalize)
    np.testing.assert_allclose(noisy.toarray() if sp.issparse(noisy) else noisy, dense,
                               rtol=1e-6 if want == np.float32 else 1e-12, atol=1e-7)


# ----------------------------------------------------------------------------- no mutation

@pytest.mark.parametrize("call", [
    lambda X: gaussian_noise(X, 1.0, seed=0),
    lambda X: add_subgaussian_noise(X, "rademacher", 1.0, seed=0),
    lambda X: flip_features(X, 0.5, seed=0),
    lambda X: row_normalize(X, "pyg"),
    lambda X: row_normalize(X, "l2"),
    lambda X: corrupt(X, "gaussian", 1.0, seed=0),
    lambda X: corrupt(X, "flip", 0.5, seed=0),
])
@pytest.mark.parametrize("sparse", [False, True])
def test_inputs_not_mutated(call, sparse):
    X = binary((10, 6), density=0.4, seed=7) * 1.0
    X = sp.csr_array(X) if sparse else X
    before = X.copy()
    out = call(X)
    out = out[0] if isinstance(out, tuple) else out
    assert out is not X
    assert same(X, before)


def test_output_never_aliases_input():
    X = np.ones((3, 3))
    out = gaussian_noise(X, 0.0, seed=0)
    out[0, 0] = 5.0
    assert X[0, 0] == 1.0
    out = flip_features(X, 0.0, seed=0)
    out[0, 0] = 5.0
    assert X[0, 0] == 1.0


# ------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("call,exc,match", [
    (lambda: gaussian_noise(np.ones((2, 2)), -0.1), ValueError, "xi must be >= 0"),
    (lambda: gaussian_noise(np.ones((2, 2)), float("inf")), ValueError, "xi must be finite"),
    (lambda: gaussian_noise(np.ones((2, 2)), "1"), TypeError, "xi must be a real number"),
    (lambda: gaussian_noise(np.ones((2, 2), complex), 0.1), TypeError, "X must have a real"),
    (lambda: gaussian_noise(np.array([["a"]], dtype=object), 0.1), TypeError, "X must have"),
    (lambda: gaussian_noise(np.ones((2, 2, 2)), 0.1), ValueError, "X must be 1-D or 2-D"),
    (lambda: gaussian_noise(np.array([[np.nan]]), 0.1), ValueError, "non-finite"),
    (lambda: gaussian_noise(None, 0.1), TypeError, "X must be"),
    (lambda: gaussian_noise(np.ones(2), 0.1, seed=1.5), TypeError, "seed"),
    (lambda: subgaussian_noise((2, -1)), ValueError, "shape must be >= 0"),
    (lambda: subgaussian_noise([2, 2]), TypeError, "shape must be an int or a tuple"),
    (lambda: subgaussian_noise(3, "cauchy"), ValueError, "kind must be one of 'gaussian'"),
    (lambda: subgaussian_noise(3, scale=-1.0), ValueError, "scale must be >= 0"),
    (lambda: subgaussian_noise(3, proxy="tight"), ValueError, "proxy must be one of"),
    (lambda: flip_features(np.ones(3), 1.5), ValueError, "p must be <= 1"),
    (lambda: flip_features(np.ones(3), -0.5), ValueError, "p must be >= 0"),
    (lambda: flip_features(np.ones(3, complex), 0.5), TypeError, "X must have a real"),
    (lambda: flip_features(sp.csr_array(np.ones((2, 2), complex)), 0.5), TypeError, "real"),
    (lambda: row_normalize(np.ones((2, 2)), "max"), ValueError, "method must be one of 'pyg'"),
    (lambda: row_normalize(np.ones((2, 2), complex)), TypeError, "X must have a real"),
    (lambda: corrupt(np.ones((2, 2)), "blur", 0.1), ValueError, "kind must be one of"),
    (lambda: corrupt(np.ones((2, 2)), "flip", 1.5), ValueError, "level must be <= 1"),
    (lambda: corrupt(np.ones((2, 2)), "gaussian", -1.0), ValueError, "level must be >= 0"),
    (lambda: corrupt(np.ones((2, 2)), "gaussian", 0.1, normalize="yes"), TypeError,
     "normalize must be a bool"),
    (lambda: corrupt(np.ones((2, 2)), "gaussian", 0.1, normalize_method="l3"), ValueError,
     "normalize_method must be one of"),
])
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# --- add_subgaussian_noise's plumbing (survivors of the mutation pass) ----------------------

def test_add_subgaussian_noise_defaults_messages_and_sigma():
    from ngc_ref.noise import add_subgaussian_noise
    X = np.arange(6.0).reshape(3, 2)
    Xn, sigma = add_subgaussian_noise(X, seed=0)          # gaussian, scale 1
    np.testing.assert_allclose(Xn, X + np.random.default_rng(0).standard_normal((3, 2)),
                               rtol=1e-15)
    assert sigma == 1.0
    _, sigma = add_subgaussian_noise(X, "uniform", 0.6, seed=0, proxy="optimal")
    assert sigma == pytest.approx(0.6 / np.sqrt(3.0), rel=1e-15)
    for kw, msg in [(dict(kind="cauchy"), "^kind must be one of"),
                    (dict(proxy="best"), "^proxy must be one of"),
                    (dict(scale=-1.0), "^scale must be >= 0")]:
        with pytest.raises(ValueError, match=msg):
            add_subgaussian_noise(X, **kw)


def test_add_subgaussian_noise_overflow_messages():
    from ngc_ref.noise import add_subgaussian_noise
    X32 = np.ones((3, 2), dtype=np.float32)
    with pytest.raises(ValueError, match=r"^add_subgaussian_noise: scale=1e\+200 gives noise that "
                                         r"float32 cannot represent \(it overflows to ±inf beyond "
                                         r"3\.4e\+38\); use a smaller scale or float64 features$"):
        add_subgaussian_noise(X32, "rademacher", 1e200, seed=0)
    with pytest.raises(ValueError, match=r"^add_subgaussian_noise: scale=1e\+308 gives noise that "
                                         r"float64 cannot represent \(it overflows to ±inf beyond "
                                         r"1\.8e\+308\); use a smaller scale$"):
        add_subgaussian_noise(np.full((3, 2), 1e308), "rademacher", 1e308, seed=1)


@pytest.mark.parametrize("dtype, per_entry", [(np.float64, 8), (np.float32, 12)])
@pytest.mark.parametrize("shape", [(20, 3), (20,)])
def test_add_subgaussian_noise_memory_budget(exact_budget, dtype, per_entry, shape):
    # One float64 draw (and its float32 cast for float32 X): 8 or 12 bytes per entry.
    from ngc_ref.noise import add_subgaussian_noise
    X = np.zeros(shape, dtype=dtype)
    n, d = (shape + (1,))[:2]
    assert exact_budget(per_entry * X.size, lambda: add_subgaussian_noise(X, seed=0),
                        rf"^add_subgaussian_noise would need .*a dense {n} x {d} array of "
                        rf"{per_entry} bytes per entry: the noise draw \(float64\) and its cast "
                        rf"to X's dtype\).*; pass X a block of columns at a time\."
                        )[0].shape == shape


def test_overflow_messages_name_the_caller_and_its_argument():
    X32 = np.ones((3, 2), dtype=np.float32)
    tail = (r" gives noise that float32 cannot represent \(it overflows to ±inf beyond "
            r"3\.4e\+38\); use a smaller {} or float64 features$")
    with pytest.raises(ValueError, match=r"^gaussian_noise: xi=1e\+200" + tail.format("xi")):
        gaussian_noise(X32, 1e200, seed=0)
    with pytest.raises(ValueError, match=r"^corrupt: level=1e\+200" + tail.format("level")):
        corrupt(X32, "gaussian", 1e200, seed=0, normalize=False)


# --- the mutation pass after fb418bb --------------------------------------------------------

def test_messages_name_the_argument_and_the_type_given():
    with pytest.raises(TypeError, match="^shape must be an int or a tuple of ints, got list$"):
        subgaussian_noise([3, 2])
    for bad, got in (("abc", "str"), (None, "NoneType"), (b"01", "bytes")):
        with pytest.raises(TypeError, match=f"^X must be a NumPy array or SciPy sparse matrix, "
                                            f"got {got}$"):
            flip_features(bad, 0.1)
    with pytest.raises(TypeError, match=r"^X must have a real numeric \(bool, int or float\) "
                                        r"dtype, got complex128$"):
        flip_features(np.zeros((2, 2), dtype=complex), 0.1)
    with pytest.raises(TypeError, match=r"^X must have a real numeric \(bool, int or float\) "
                                        r"dtype, got complex128$"):
        flip_features(sp.csr_array(np.eye(2, dtype=complex)), 0.1)
    with pytest.raises(TypeError, match="^normalize must be a bool, got str"):
        corrupt(np.ones((2, 2)), "gaussian", 0.1, normalize="yes")


def test_non_binary_entries_are_named_first_three():
    # The message shows the offending entries (not the valid ones), at most three of them.
    with pytest.raises(ValueError, match=r"found \[2\.0, 3\.0, 4\.0\] among its entries$"):
        flip_features(np.array([[0.0, 2.0, 1.0, 3.0], [4.0, 5.0, 0.0, 1.0]]), 0.1)


def test_subgaussian_noise_default_scale_is_one():
    # scale=1.0 by default: N(0, 1) entries, σ = 1. The variance of 40 000 draws lies within
    # 5 standard errors (√(2/m) relative) of 1.
    eta, sigma = subgaussian_noise((200, 200), seed=0)
    assert sigma == 1.0
    m = eta.size
    assert abs(float(np.mean(eta ** 2)) - 1.0) <= 5 * math.sqrt(2.0 / m)


@pytest.mark.parametrize("method", ["pyg", "pyg_shift", "l1", "l2"])
def test_row_normalize_empty_shapes(method):
    # No columns or no rows: nothing to divide, the shape (and dtype) kept.
    for shape in ((3, 0), (0, 3)):
        out = row_normalize(np.zeros(shape, dtype=np.float32), method)
        assert out.shape == shape and out.dtype == np.float32


def test_pyg_shift_subtracts_a_minimum_of_one_too():
    # x − min(x) with min(x) = 1, then rows divided by max(sum, 1).
    X = np.array([[1.0, 3.0], [2.0, 2.0], [1.0, 1.0]])
    np.testing.assert_allclose(row_normalize(X, "pyg_shift"),
                               [[0.0, 1.0], [0.5, 0.5], [0.0, 0.0]], rtol=1e-15)


@pytest.mark.parametrize("method", ["l1", "l2"])
def test_all_zero_rows_stay_zero_whatever_the_memory_held(method):
    # Rows with divisor 0 are written as 0, not left as whatever the output buffer held:
    # freed buffers full of NaN of the output's size are offered to the allocator first.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((64, 32))
    X[::3] = 0.0
    want = X / (np.abs(X).sum(axis=1, keepdims=True) if method == "l1" else
                np.linalg.norm(X, axis=1, keepdims=True)).clip(min=1e-300)
    for _ in range(5):
        junk = [np.full_like(X, np.nan) for _ in range(4)]
        del junk
        out = row_normalize(X, method)
        np.testing.assert_allclose(out, want, rtol=1e-13, atol=0)
        assert np.all(out[::3] == 0.0)

