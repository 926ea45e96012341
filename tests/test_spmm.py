"""The Horner kernel on its own: rA per (dtype, r), H0 through the kernel's call, empty blocks
(tests written for the survivors of a mutation pass over ngc_ref/_spmm.py,
tools/mutation.py)."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from ngc_ref._spmm import HornerKernel, horner, take_rows


def _series(A, X, r, S):
    """Σ_{s=0}^{S} (rA)^s X with dense matrix powers."""
    A = A.toarray()
    return sum(np.linalg.matrix_power(r * A, s) @ X for s in range(S + 1))


def _matrix():
    # The last column is empty: a shape read off the indices would lose it.
    return sp.csr_array(np.array([[0.5, 0.25, 0.0], [0.25, 0.5, 0.0], [1.0, 0.0, 0.0]]))


def test_scaled_matrix_is_kept_per_dtype_and_ratio():
    A = _matrix()
    k = HornerKernel(A, 0.5, workers=1)
    for dtype, r in [(np.float64, 0.5), (np.float32, 0.5), (np.float64, 0.25),
                     (np.float32, 0.25), (np.float64, 0.5)]:
        M = k._scaled_for(dtype, r)
        assert M.dtype == dtype and M.shape == (3, 3)
        assert_allclose(M.toarray(), r * A.toarray(), rtol=1e-7)
    assert k._scaled_for(np.float64) is k._scaled_for(np.float64, 0.5)   # its own r by default


def test_kernel_call_continues_from_a_partial_sum():
    A = _matrix()
    X = np.random.default_rng(0).standard_normal((3, 2))
    k = HornerKernel(A, 0.8, workers=1)
    assert_allclose(k(X, 4), _series(A, X, 0.8, 4), rtol=1e-12)
    # H0 = the sum up to s = 2; three more steps give the sum up to s = 5.
    H0 = _series(A, X, 0.8, 2)
    assert_allclose(k(X, 3, H0=H0.copy()), _series(A, X, 0.8, 5), rtol=1e-12)
    assert_allclose(horner(A, X, 0.8, 3, H0=H0.copy()), _series(A, X, 0.8, 5), rtol=1e-12)


def test_empty_block_and_zero_steps():
    A = _matrix()
    k = HornerKernel(A, 0.8, workers=2)
    assert horner(k, np.empty((3, 0)), 0.8, 5).shape == (3, 0)
    X = np.ones((3, 2))
    H = horner(k, X, 0.8, 0)
    assert_allclose(H, X)
    assert H is not X


@pytest.mark.parametrize("S", [1, 2, 3])
def test_kernel_reads_x_in_place_and_leaves_it_alone(S):
    # The first fused step reads X itself as H: X must come back unchanged, and the result
    # must be a new array at every S (S = 1 returns the first buffer, S = 2 the second).
    A = _random_sparse(50, 3, 1)
    X = np.random.default_rng(2).standard_normal((50, 4))
    X0 = X.copy()
    H = horner(HornerKernel(A, 0.3, workers=2), X, 0.3, S)
    assert np.array_equal(X, X0)
    assert not np.shares_memory(H, X)
    assert_allclose(H, _series(A, X, 0.3, S), rtol=1e-12)


@pytest.mark.parametrize("shape, dtype", [((3000, 100), np.float64), ((3000, 100), np.float32),
                                          ((300_000,), np.float64), ((40, 3), np.float64)])
def test_take_rows_is_fancy_indexing(shape, dtype):
    # (3000, 100) and 300,000 entries reach the threaded path (>= 2 x 65,536 elements);
    # (40, 3) the one-thread path. Copies of values: bitwise equal to X[index].
    rng = np.random.default_rng(3)
    X = rng.standard_normal(shape).astype(dtype)
    X0 = X.copy()
    index = rng.permutation(shape[0])
    out = take_rows(X, index, workers=2)
    assert out.dtype == dtype and out.flags.c_contiguous
    assert np.array_equal(out, X[index])
    assert np.array_equal(X, X0) and not np.shares_memory(out, X)
    # A strided view gathers its own rows, not the base array's.
    V = X[:, ::2] if X.ndim == 2 else X[::2]
    assert np.array_equal(take_rows(V, index[:V.shape[0]] % V.shape[0], workers=2),
                          V[index[:V.shape[0]] % V.shape[0]])


class _Pools:
    """A spy for ``_spmm.ThreadPoolExecutor``: the max_workers of every pool made."""

    def __init__(self, monkeypatch):
        from concurrent.futures import ThreadPoolExecutor

        from ngc_ref import _spmm
        self.made = []
        spy = self

        class Spy(ThreadPoolExecutor):
            def __init__(self, max_workers=None, *a, **k):
                spy.made.append(max_workers)
                super().__init__(max_workers, *a, **k)
        monkeypatch.setattr(_spmm, "ThreadPoolExecutor", Spy)


@pytest.mark.parametrize("shape, workers, threads", [
    ((3000, 100), 2, 2),       # 300,000 elements: two parts
    ((3000, 100), 1, None),    # workers=1: never a thread
    ((1000, 100), 2, None),    # 100,000 < 2 x 65,536 elements: one part
    ((2, 70_000), 2, 2),       # two rows are enough to split
    ((1, 200_000), 2, None),   # one row is not
])
def test_take_rows_splits_the_rows_over_its_workers(monkeypatch, shape, workers, threads):
    # Documented: the parts run on ``workers`` threads when each gets >= 65,536 elements.
    pools = _Pools(monkeypatch)
    X = np.random.default_rng(4).standard_normal(shape)
    index = np.random.default_rng(5).permutation(shape[0])
    assert np.array_equal(take_rows(X, index, workers=workers), X[index])
    assert pools.made == ([] if threads is None else [threads])


@pytest.mark.parametrize("kernel_workers, call_workers, threads", [
    (1, None, None), (2, None, 2), (1, 2, 2), (2, 1, None)])
def test_horner_runs_on_the_kernels_or_the_calls_workers(monkeypatch, kernel_workers,
                                                         call_workers, threads):
    # "workers: threads of the kernel for this call (default: its own setting)"; the numbers
    # do not depend on it. 1000 x 160 = 160,000 output elements: room for two threads.
    pools = _Pools(monkeypatch)
    A = _random_sparse(1000, 5, 0)
    X = np.random.default_rng(1).standard_normal((1000, 160))
    H = horner(HornerKernel(A, 0.5, workers=kernel_workers), X, 0.5, 2, workers=call_workers)
    assert_allclose(H, X + 0.5 * (A @ X) + 0.25 * (A @ (A @ X)), rtol=1e-12, atol=1e-12)
    assert pools.made == ([] if threads is None else [threads])


def test_horner_scales_the_matrix_in_the_features_dtype():
    # rA is kept per (dtype, r): a float32 series reads a float32 rA (SciPy's kernel needs one
    # dtype; a float64 rA would send it down the slow public path, with other roundings).
    A = _random_sparse(50, 3, 1)
    k = HornerKernel(A, 0.3, workers=1)
    H = horner(k, np.ones((50, 2), np.float32), 0.3, 2)
    assert H.dtype == np.float32
    assert sorted(k._scaled) == [(np.dtype(np.float32), 0.3)]


def _random_sparse(n, per_row, seed):
    rng = np.random.default_rng(seed)
    i = np.repeat(np.arange(n), per_row)
    j = rng.integers(0, n, n * per_row)
    return sp.csr_array((rng.random(n * per_row), (i, j)), shape=(n, n))


@pytest.mark.parametrize("fallback", [False, True])
def test_sparse_product_on_several_row_ranges(monkeypatch, fallback):
    # n·d = 1000·160 output elements: two threads, two row ranges (the second starts at a > 0).
    # fallback: the public A[a:b] @ H path taken when SciPy's private kernel is missing.
    from ngc_ref import _spmm
    if fallback:
        monkeypatch.setattr(_spmm, "_csr_matvecs", None)
    A = _random_sparse(1000, 5, 0)
    rng = np.random.default_rng(1)
    H, B = rng.standard_normal((1000, 160)), rng.standard_normal((1000, 160))
    with _spmm.SparseProduct(A, workers=2) as mul:
        assert len(mul._ranges_for(160)) == 2
        Y = np.empty_like(H)
        assert_allclose(mul(H, Y, B), B + A @ H, rtol=1e-12, atol=1e-12)
        assert_allclose(mul(H, Y), A @ H, rtol=1e-12, atol=1e-12)
    # The pool is shut down on exit and a new one started when the product is used again.
    with mul:
        assert_allclose(mul(H, Y, B), B + A @ H, rtol=1e-12, atol=1e-12)


def test_kernel_reads_unsorted_indices_and_mixed_index_dtypes():
    dense = np.array([[0.0, 2.0, 1.0], [3.0, 0.0, 0.0], [0.0, 1.0, 4.0]])
    unsorted = sp.csr_array((np.array([1.0, 2.0, 3.0, 4.0, 1.0]),
                             np.array([2, 1, 0, 2, 1]), np.array([0, 2, 3, 5])), shape=(3, 3))
    assert not unsorted.has_sorted_indices
    mixed = sp.csr_array(_matrix())          # its last column is empty
    mixed.indptr = mixed.indptr.astype(np.int64)
    mixed.indices = mixed.indices.astype(np.int32)
    assert mixed.indices.dtype != mixed.indptr.dtype
    X = np.random.default_rng(2).standard_normal((3, 2))
    for A, want in ((unsorted, dense), (mixed, _matrix().toarray())):
        k = HornerKernel(A, 0.3, workers=1)
        assert k.A.shape == (3, 3)
        assert_allclose(k(X, 3), _series(sp.csr_array(want), X, 0.3, 3), rtol=1e-12)


def test_resolve_workers_joblib_style():
    from ngc_ref._spmm import default_workers, resolve_workers
    cores = default_workers()
    assert resolve_workers(None) == resolve_workers(0) == cores
    assert resolve_workers(1) == 1 and resolve_workers(3) == 3
    assert resolve_workers(-1) == cores                  # all cores, as in joblib
    assert resolve_workers(-2) == max(1, cores - 1)
    assert resolve_workers(-100) == 1
    with pytest.raises(TypeError, match=r"^workers must be an int or None, got str$"):
        resolve_workers("2")
    with pytest.raises(TypeError, match="got bool"):
        resolve_workers(True)


def test_accumulate_rows_touches_only_its_rows():
    # "Y[a:b] += A[a:b] @ H in place": rows outside [a, b) keep their values (a range that
    # does not start at row 0 is what the threads of SparseProduct get).
    from ngc_ref._spmm import _accumulate_rows, _kernel_csr
    rng = np.random.default_rng(5)
    # (sp.random, not sp.random_array: the SciPy floor, 1.10, has no random_array)
    A = _kernel_csr(sp.csr_array(sp.random(10, 10, density=0.5, random_state=rng, format="csr")))
    H = rng.standard_normal((10, 3))
    Y = np.full((10, 3), 7.0)
    _accumulate_rows(A, H, Y, 2, 5)
    want = np.full((10, 3), 7.0)
    want[2:5] += A.toarray()[2:5] @ H
    np.testing.assert_allclose(Y, want, rtol=1e-13, atol=1e-13)
