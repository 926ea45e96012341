"""CuPy path: GPU results equal the CPU ones to 1e-10 in float64. Skipped without CuPy or a GPU."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

import ngc_ref

cupy = pytest.importorskip("cupy")
csp = pytest.importorskip("cupyx.scipy.sparse")
try:
    _HAS_GPU = cupy.cuda.runtime.getDeviceCount() > 0
except Exception:  # no driver / no device
    _HAS_GPU = False
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not _HAS_GPU, reason="no CUDA GPU visible")]


@pytest.fixture(scope="module")
def graph():
    rng = np.random.default_rng(0)
    n = 500
    A = sp.random(n, n, density=0.02, random_state=1, format="csr")
    A = ((A + A.T) > 0).astype(np.float64)
    X = rng.standard_normal((n, 6))
    return A, X, csp.csr_matrix(A), cupy.asarray(X)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_propagate_gpu_equals_cpu(graph, norm):
    A, X, Ag, Xg = graph
    got = ngc_ref.neumann_propagate(Ag, Xg, 8.0, 12, norm=norm)
    assert isinstance(got, cupy.ndarray)
    assert_allclose(got.get(), ngc_ref.neumann_propagate(A, X, 8.0, 12, norm=norm),
                    rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_cg_gpu_equals_cpu(graph, norm):
    A, X, Ag, Xg = graph
    got = ngc_ref.gsd_solve(Ag, Xg, 8.0, norm=norm, method="cg", rtol=1e-12)
    assert_allclose(got.get(), ngc_ref.gsd_solve(A, X, 8.0, norm=norm, method="direct"),
                    rtol=1e-9, atol=1e-10)


def test_tau_and_rngc_gpu_equal_cpu(graph):
    A, X, Ag, Xg = graph
    assert_allclose(ngc_ref.connectivity_factor(Ag, 4.0, 6).tau_i,
                    ngc_ref.connectivity_factor(A, 4.0, 6).tau_i, rtol=1e-10)
    for mode in ("full", "edges"):
        assert_allclose(ngc_ref.robust_propagate(Ag, Xg, 4.0, 6, 0.5, mode=mode).get(),
                        ngc_ref.robust_propagate(A, X, 4.0, 6, 0.5, mode=mode),
                        rtol=1e-10, atol=1e-12)


def test_mixing_devices_is_a_type_error(graph):
    A, X, Ag, Xg = graph
    with pytest.raises(TypeError, match="mix CuPy"):
        ngc_ref.neumann_propagate(Ag, X, 1.0, 2)
