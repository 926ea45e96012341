"""The Horner kernel on its own: rA per (dtype, r), H0 through the kernel's call, empty blocks
(tests written for the survivors of a mutation pass over ngc_ref/_spmm.py,
tools/mutation.py)."""

import numpy as np
import scipy.sparse as sp
from numpy.testing import assert_allclose

from ngc_ref._spmm import HornerKernel, horner


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
    assert_allclose(H, X) and H is not X
