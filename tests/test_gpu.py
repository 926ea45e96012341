"""The GPU branches: CuPy input gives the CPU's results, on the device it came from.

Every test runs twice, through the ``gpu`` fixture:

* ``stand-in``: on every machine, with ``tests/_fake_cupy.py`` installed as ``cupy`` /
  ``cupyx.scipy.sparse`` for the duration. It is NumPy and SciPy in CuPy's clothes (a device
  array that refuses implicit conversion, ``.get()`` to leave the device, CuPy's dtype and
  sparse rules, a device memory the tests set), so it runs our GPU code paths (dispatch, dtype
  and memory handling, conversions back to NumPy, the guard on device memory), not the device.
* ``cupy`` (marked ``gpu``): the same tests on real CuPy and a CUDA GPU; skipped without them.

"Equal" is 1e-10 for float64 (the CPU and GPU paths differ only in summation order: the fused
threaded kernel and sparse first steps on the CPU, plain products on the GPU) and the float32
rounding estimate of :func:`ngc_ref.neumann.float32_error_estimate` for float32.
"""

import re
import sys
from collections import namedtuple

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

import ngc_ref
from ngc_ref import _backend, _memory, _order, graphs
from ngc_ref.neumann import float32_error_estimate
from ngc_ref.solve import gsd_solve_normalized
from ngc_ref.validation import check_adjacency

from . import _fake_cupy

Backend = namedtuple("Backend", "cp csp device")


@pytest.fixture(scope="module", params=["stand-in", pytest.param("cupy", marks=pytest.mark.gpu)])
def gpu(request):
    """``(cupy, cupyx.scipy.sparse, device)``: the stand-in (``device`` its settable memory)
    or real CuPy on a GPU (``device`` None)."""
    if request.param == "stand-in":
        with _fake_cupy.installed() as (cp, csp, device):
            yield Backend(cp, csp, device)
        return
    cp = pytest.importorskip("cupy")
    csp = pytest.importorskip("cupyx.scipy.sparse")
    try:
        visible = cp.cuda.runtime.getDeviceCount() > 0
    except Exception:  # no driver / no device
        visible = False
    if not visible:
        pytest.skip("no CUDA GPU visible")
    yield Backend(cp, csp, None)


@pytest.fixture
def stand_in(gpu):
    """The stand-in's device (its memory settable); skips on real CuPy."""
    if gpu.device is None:
        pytest.skip("sets the simulated device's memory")
    saved = vars(gpu.device).copy()
    yield gpu.device
    vars(gpu.device).update(saved)


def graph(n=40, isolated=3, seed=0, dtype=np.float64):
    """A weighted random graph on n nodes whose last ``isolated`` nodes have no edge."""
    rng = np.random.default_rng(seed)
    A = sp.random(n - isolated, n - isolated, density=0.15, random_state=seed, format="csr")
    A = sp.csr_array(A + A.T)
    A.data = 0.5 + rng.random(A.nnz)
    A = sp.block_diag([A, sp.csr_array((isolated, isolated))], format="csr")
    A = sp.csr_array((A + A.T) * 0.5)
    A.setdiag(0.0)
    A.eliminate_zeros()
    return A.astype(dtype)


def features(n=40, d=3, seed=1, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal((n, d)).astype(dtype)


def on_device(gpu, A, X=None):
    """A (a SciPy matrix) and X as CuPy data."""
    Ag = gpu.csp.csr_matrix(sp.csr_matrix(A))
    return Ag if X is None else (Ag, gpu.cp.asarray(X))


def host(x, dtype=None):
    """A device array's host copy, after checking it is one (and its dtype)."""
    assert _backend.is_cupy_array(x), f"expected a CuPy array, got {type(x).__name__}"
    if dtype is not None:
        assert x.dtype == dtype
    return x.get()


def assert_equal_f64(got, want):
    assert_allclose(got, want, rtol=1e-10, atol=1e-10 * max(1.0, float(np.abs(want).max(
        initial=0.0))))


def assert_equal_f32(got, want, lam, S):
    tol = 10 * float32_error_estimate(lam, S) * max(1.0, float(np.abs(want).max(initial=0.0)))
    assert_allclose(got, want, rtol=0, atol=tol)


def assert_equal_in(dtype, got, want, lam, S):
    """``got``, computed in ``dtype``, against the float64 ``want``: to rounding in float64,
    within the float32 error estimate of a series (λ, S) in float32."""
    if dtype == np.float64:
        assert_equal_f64(got, want)
    else:
        assert_equal_f32(got, want, lam, S)


# --- the stand-in behaves like CuPy where the library relies on it -------------------------

def test_device_arrays_refuse_implicit_conversion(gpu):
    cp = gpu.cp
    x = cp.asarray(np.arange(4.0))
    assert not isinstance(x, np.ndarray) and _backend.is_cupy_array(x)
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(x)
    with pytest.raises(TypeError):
        x + np.ones(4)          # a host operand: CuPy's "Unsupported type"
    with pytest.raises((TypeError, ValueError)) as info:
        sp.csr_array(x.reshape(2, 2))                 # SciPy may wrap the TypeError
    assert "Implicit conversion" in str(info.value) + str(info.value.__cause__)
    got = x.get()
    got[0] = 99.0               # a copy: the device array is unchanged
    assert isinstance(got, np.ndarray) and float(x[0]) == 0.0
    assert _backend.is_cupy_array(cp.max(x)) and cp.max(x).ndim == 0  # 0-d, not a scalar
    assert _backend.is_cupy_array(np.sum(x))                           # NumPy dispatches
    assert isinstance(cp.asnumpy(x), np.ndarray)


def test_device_sparse_rules(gpu):
    cp, csp = gpu.cp, gpu.csp
    A = csp.csr_matrix(sp.csr_matrix(np.array([[0.0, 1.0], [2.0, 0.0]])))
    assert _backend.is_cupy_sparse(A) and A.T.format == "csc"
    y = A @ cp.ones((2, 3), dtype=np.float32)
    assert _backend.is_cupy_array(y) and y.dtype == np.float64
    assert _backend.is_cupy_array(A.sum(axis=1)) and A.sum(axis=1).shape == (2, 1)
    assert isinstance(A.get(), sp.spmatrix)
    with pytest.raises(NotImplementedError):
        A.maximum(A.T)          # CSR maximum takes CSR only
    with pytest.raises(ValueError):
        csp.csr_matrix(np.ones((2, 2)))      # host data is not an initializer
    with pytest.raises(ValueError, match="Only bool, float32, float64"):
        csp.csr_matrix((cp.ones(2, dtype=np.int64), cp.arange(2, dtype=np.int32),
                        cp.arange(3, dtype=np.int32)), shape=(2, 2))
    with pytest.raises(ValueError):
        A @ 2.0
    free, total = cp.cuda.runtime.memGetInfo()
    assert 0 <= free <= total


def test_the_stand_in_lives_only_inside_its_context():
    before = {k: v for k, v in sys.modules.items() if k.split(".")[0] in ("cupy", "cupyx")}
    with _fake_cupy.installed() as (cp, csp, _):
        import cupy
        import cupyx.scipy.sparse
        assert cupy is cp and cupyx.scipy.sparse is csp
    after = {k: v for k, v in sys.modules.items() if k.split(".")[0] in ("cupy", "cupyx")}
    assert after == before          # the real CuPy (or its absence) is back


# --- propagation ---------------------------------------------------------------------------

@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_propagate_equals_cpu(gpu, norm, dtype):
    A, X = graph(dtype=dtype), features(dtype=dtype)
    Ag, Xg = on_device(gpu, A, X)
    got = host(ngc_ref.neumann_propagate(Ag, Xg, 8.0, 12, norm=norm), dtype)
    want = ngc_ref.neumann_propagate(A.astype(np.float64), X.astype(np.float64), 8.0, 12,
                                     norm=norm)
    assert_equal_in(dtype, got, want, 8.0, 12)
    assert_allclose(got[-3:], X[-3:] * (1 - (8 / 9) ** 13), rtol=1e-5)   # isolated nodes


def test_float32_features_on_a_float64_graph_stay_float32(gpu):
    Ag, Xg = on_device(gpu, graph(), features(dtype=np.float32))
    got = host(ngc_ref.neumann_propagate(Ag, Xg, 2.0, 4), np.float32)
    assert_equal_f32(got, ngc_ref.neumann_propagate(graph(), features(), 2.0, 4), 2.0, 4)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_filter_methods_equal_cpu(gpu, norm):
    A, X = graph(), features()
    Ag, Xg = on_device(gpu, A, X)
    cpu, dev = ngc_ref.NeumannFilter(A, 3.0, 5, norm=norm), \
        ngc_ref.NeumannFilter(Ag, 3.0, 5, norm=norm)
    assert_equal_f64(host(dev.apply(Xg, transpose=True)), cpu.apply(X, transpose=True))
    assert_equal_f64(host(dev @ Xg[:, 0]), cpu @ X[:, 0])          # a 1-D signal
    assert_equal_f64(host(dev.matrix()), cpu.matrix())
    assert_equal_f64(host(dev.row_sums()), cpu.row_sums())
    assert_equal_f64(host(dev.exact(Xg, method="cg", rtol=1e-13)), cpu.exact(X))
    assert_equal_f64(host(ngc_ref.neumann_matrix(Ag, 3.0, 5, norm=norm)), cpu.matrix())
    assert_equal_f64(host(dev.degrees), cpu.degrees)


def test_normalisation_on_the_device(gpu):
    A = graph()
    looped = sp.csr_array(A + sp.diags(np.r_[2.0, np.ones(39)]))  # Ã drops the 2
    with pytest.warns(UserWarning, match=r"1 node\(s\): row 0 \(weight 2\)"):
        At = ngc_ref.add_self_loops(on_device(gpu, looped))
    assert _backend.is_cupy_sparse(At)
    assert_equal_f64(At.get().toarray(), ngc_ref.add_self_loops(A).toarray())
    Ag = on_device(gpu, A)
    for norm in ("sym", "rw"):
        An, d = ngc_ref.normalized_adjacency(Ag, norm=norm, return_degrees=True)
        An0, d0 = ngc_ref.normalized_adjacency(A, norm=norm, return_degrees=True)
        assert _backend.is_cupy_sparse(An)
        assert_equal_f64(An.get().toarray(), An0.toarray())
        assert_equal_f64(host(d), d0)


@pytest.mark.parametrize("symmetrize", [True, "mean"])
def test_symmetrize_on_the_device(gpu, symmetrize):
    A = sp.csr_array(sp.triu(graph()))              # directed: one triangle
    Ag = on_device(gpu, A)
    got = check_adjacency(Ag, symmetrize=symmetrize)
    assert _backend.is_cupy_sparse(got)
    assert_equal_f64(got.get().toarray(), check_adjacency(A, symmetrize=symmetrize).toarray())


def test_other_device_inputs(gpu):
    cp, csp = gpu.cp, gpu.csp
    A, X = graph(), features()
    for dense in (A.toarray(), A.toarray() > 0):                      # dense float, bool
        got = ngc_ref.neumann_propagate(cp.asarray(dense), cp.asarray(X), 1.0, 3)
        assert_equal_f64(host(got), ngc_ref.neumann_propagate(dense, X, 1.0, 3))
    Xs = sp.random(40, 3, density=0.3, random_state=2, format="csr")      # sparse features
    got = host(ngc_ref.neumann_propagate(on_device(gpu, A), csp.csr_matrix(Xs), 1.0, 3))
    assert_equal_f64(got, ngc_ref.neumann_propagate(A, Xs, 1.0, 3))
    Xi = np.arange(120).reshape(40, 3)                                    # integer features
    got = host(ngc_ref.neumann_propagate(on_device(gpu, A), cp.asarray(Xi), 1.0, 3), np.float64)
    assert_equal_f64(got, ngc_ref.neumann_propagate(A, Xi, 1.0, 3))


# --- the exact solve -----------------------------------------------------------------------

@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("method", ["cg", "chebyshev", "dense"])
def test_solve_equals_cpu(gpu, norm, method):
    A, X = graph(), features()
    Ag, Xg = on_device(gpu, A, X)
    F, info = ngc_ref.gsd_solve(Ag, Xg, 8.0, norm=norm, method=method, rtol=1e-13,
                                return_info=True)
    want = ngc_ref.gsd_solve(A, X, 8.0, norm=norm, method="direct")
    assert_equal_f64(host(F, np.float64), want)
    assert info.method == method and info.converged and info.residual < 1e-12
    assert_allclose(host(F)[-3:], X[-3:], rtol=1e-14)            # isolated: F = X


def test_solve_float32_and_1d(gpu):
    A, X = graph(), features(dtype=np.float32)
    Ag, Xg = on_device(gpu, A, X)
    F = host(ngc_ref.gsd_solve(Ag, Xg[:, 0], 2.0, method="cg"), np.float32)
    assert F.shape == (40,)
    assert_allclose(F, ngc_ref.gsd_solve(A, X[:, 0].astype(np.float64), 2.0), rtol=0,
                    atol=1e-6 * float(np.abs(X).max()))


def test_solve_methods_and_devices(gpu):
    A, X = graph(), features()
    Ag, Xg = on_device(gpu, A, X)
    assert ngc_ref.gsd_solve(Ag, Xg, 1.0, return_info=True)[1].method == "cg"   # auto
    with pytest.raises(ValueError, match=r"^method='direct' is CPU only; use method='cg' "
                                         r"for CuPy input$"):
        ngc_ref.gsd_solve(Ag, Xg, 1.0, method="direct")
    with pytest.raises(TypeError, match=r"^x0 must be on the same device as X and the graph "
                                        r"\(NumPy for NumPy/SciPy input, CuPy for CuPy input\)$"):
        ngc_ref.gsd_solve(Ag, Xg, 1.0, x0=X)
    seen = []
    F = ngc_ref.gsd_solve(Ag, Xg, 1.0, method="cg", x0=Xg, callback=seen.append, rtol=1e-13)
    assert seen and all(_backend.is_cupy_array(f) for f in seen)
    assert_equal_f64(host(F), ngc_ref.gsd_solve(A, X, 1.0))
    An, d = ngc_ref.normalized_adjacency(Ag, norm="rw", return_degrees=True)
    got = gsd_solve_normalized(An, d, Xg, 1.0, norm="rw", method="cg", rtol=1e-13)
    assert_equal_f64(host(got), ngc_ref.gsd_solve(A, X, 1.0, norm="rw"))
    with pytest.raises(TypeError, match="mix CuPy"):
        gsd_solve_normalized(An, d.get(), Xg, 1.0, norm="rw")
    with pytest.raises(TypeError, match="mix CuPy"):
        ngc_ref.gsd_solve(Ag, X, 1.0)


# --- τ -------------------------------------------------------------------------------------

@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("method", ["exact", "dense"])
def test_tau_equals_cpu(gpu, norm, method):
    A = graph()
    nodes = np.array([39, 0, 5, 5, 17])
    kw = dict(norm=norm, method=method, nodes=nodes)
    got = ngc_ref.connectivity_factor(on_device(gpu, A), 4.0, 6, block_size=2, **kw)
    want = ngc_ref.connectivity_factor(A, 4.0, 6, **kw)
    for name in ("tau_i", "row_sums", "row_square_sums"):        # host arrays, as on the CPU
        assert isinstance(getattr(got, name), np.ndarray), name
        assert_equal_f64(getattr(got, name), getattr(want, name))
    assert got.tau == pytest.approx(want.tau, rel=1e-10) and got.argmax == want.argmax
    assert got.tau_i[0] == pytest.approx(40.0, rel=1e-12)           # isolated: τ_i = n


def test_tau_of_a_float32_graph_runs_in_float64(gpu):
    A = graph(dtype=np.float32)
    got = ngc_ref.connectivity_factor(on_device(gpu, A), 1e3, 50).tau_i
    assert_equal_f64(got, ngc_ref.connectivity_factor(A.astype(np.float64), 1e3, 50).tau_i)


def test_tau_estimate_is_cpu_only(gpu):
    with pytest.raises(ValueError, match=r"^method='estimate' is CPU only; use method='exact' "
                                         r"for CuPy input$"):
        ngc_ref.connectivity_factor(on_device(gpu, graph()), 1.0, 2, method="estimate")


def test_partial_sums_are_cpu_only(gpu):
    Ag, Xg = on_device(gpu, graph(), features())
    for args in ((Ag, Xg), (Ag, features()), (graph(), Xg)):
        with pytest.raises((ValueError, TypeError), match=r"CPU only|mix CuPy"):
            ngc_ref.neumann_partial_sums(*args, 2.0, (1, 2))
    with pytest.raises(ValueError, match=r"^neumann_partial_sums is CPU only; use "
                                         r"neumann_propagate or robust_propagate \(one S per "
                                         r"call\) for CuPy input$"):
        ngc_ref.neumann_partial_sums(Ag, Xg, 2.0, (1, 2), eps=0.5)


# --- RNGC ----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["full", "edges"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_robust_equals_cpu(gpu, mode, dtype):
    A, X = graph(), features(dtype=dtype)
    Ag, Xg = on_device(gpu, A, X)
    got = host(ngc_ref.robust_propagate(Ag, Xg, 4.0, 6, 0.5, mode=mode), dtype)
    want = ngc_ref.robust_propagate(A, X.astype(np.float64), 4.0, 6, 0.5, mode=mode)
    assert_equal_in(dtype, got, want, 4.0, 6)
    assert_equal_f64(host(ngc_ref.robust_propagate(Ag, Xg * 0, 4.0, 6, 0.5)), 0 * want)
    got1 = host(ngc_ref.robust_propagate(Ag, Xg[:, 0], 4.0, 6, 0.5, mode=mode))
    assert got1.shape == (40,)


# --- the locality order (reorder=) ------------------------------------------------------------

@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_rcm_order_on_the_device(gpu, norm):
    """reorder="rcm" runs on the device too (the permutation computed on the host from the
    pattern, then kept on the device): every operator gives the CPU's unreordered numbers."""
    A, X = graph(), features()
    Ag, Xg = on_device(gpu, A, X)
    dev = ngc_ref.NeumannFilter(Ag, 3.0, 5, norm=norm, reorder="rcm")
    cpu = ngc_ref.NeumannFilter(A, 3.0, 5, norm=norm, reorder=None)
    assert_equal_f64(host(dev @ Xg), cpu @ X)
    assert_equal_f64(host(dev.apply(Xg, transpose=True)), cpu.apply(X, transpose=True))
    assert _backend.is_cupy_array(dev._order.order.perm)      # kept on the device
    X32 = features(dtype=np.float32)
    assert_equal_f32(host(ngc_ref.neumann_propagate(Ag, gpu.cp.asarray(X32), 3.0, 5, norm=norm,
                                                    reorder="rcm"), np.float32),
                     cpu @ X32.astype(np.float64), 3.0, 5)
    for method in ("cg", "chebyshev"):
        assert_equal_f64(host(ngc_ref.gsd_solve(Ag, Xg, 3.0, norm=norm, method=method,
                                                rtol=1e-13, reorder="rcm")),
                         ngc_ref.gsd_solve(A, X, 3.0, norm=norm, method=method, rtol=1e-13,
                                           reorder=None))
    for mode in ("full", "edges"):
        assert_equal_f64(host(ngc_ref.robust_propagate(Ag, Xg, 3.0, 5, 0.4, norm=norm,
                                                       mode=mode, reorder="rcm")),
                         ngc_ref.robust_propagate(A, X, 3.0, 5, 0.4, norm=norm, mode=mode,
                                                  reorder=None))
    nodes = np.array([39, 2, 11])
    got = ngc_ref.connectivity_factor(Ag, 3.0, 5, norm=norm, nodes=nodes, reorder="rcm")
    want = ngc_ref.connectivity_factor(A, 3.0, 5, norm=norm, nodes=nodes, reorder=None)
    assert_equal_f64(got.tau_i, want.tau_i)
    assert got.argmax == want.argmax


def test_auto_keeps_the_callers_order_on_the_device(gpu):
    """The cost model of reorder="auto" is measured on CPU caches: on a GPU it never reorders
    (here X is 40 x 4000 float64, 1.3 MB: past the cache, so a CPU would measure)."""
    A, X = graph(), features(d=4000)
    Ag, Xg = on_device(gpu, A, X)
    dev = ngc_ref.NeumannFilter(Ag, 3.0, 5, reorder="auto")
    assert_equal_f64(host(dev @ Xg), ngc_ref.NeumannFilter(A, 3.0, 5, reorder=None) @ X)
    assert dev._order.order is None and "GPU" in dev._order.decision.reason


# --- degenerate graphs and bad input -------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1])
def test_empty_and_single_node_graphs(gpu, n):
    cp, csp = gpu.cp, gpu.csp
    A, X = sp.csr_array((n, n)), np.arange(2.0 * n).reshape(n, 2) + 1
    Ag, Xg = csp.csr_matrix((n, n)), cp.asarray(X)
    assert_equal_f64(host(ngc_ref.neumann_propagate(Ag, Xg, 2.0, 3)),
                     ngc_ref.neumann_propagate(A, X, 2.0, 3))
    assert_equal_f64(host(ngc_ref.gsd_solve(Ag, Xg, 2.0, method="cg")), X)
    assert_equal_f64(host(ngc_ref.robust_propagate(Ag, Xg, 2.0, 3, 0.5)),
                     ngc_ref.robust_propagate(A, X, 2.0, 3, 0.5))
    if n == 0:
        with pytest.raises(ValueError, match="no nodes"):
            ngc_ref.connectivity_factor(Ag, 2.0, 3)
    else:
        assert ngc_ref.connectivity_factor(Ag, 2.0, 3).tau == pytest.approx(1.0, rel=1e-12)


def test_bad_device_input_is_refused_as_on_the_cpu(gpu):
    cp = gpu.cp
    A, X = graph(), features()
    directed = on_device(gpu, sp.triu(A))
    with pytest.raises(ValueError, match="A is not symmetric"):
        ngc_ref.neumann_propagate(directed, cp.asarray(X), 1.0, 2)
    with pytest.raises(ValueError, match=r"negative edge weights \(min -"):
        check_adjacency(on_device(gpu, -A))
    with pytest.raises(ValueError, match="non-finite"):
        check_adjacency(on_device(gpu, A * np.inf))
    with pytest.raises(ValueError, match="X contains non-finite"):
        ngc_ref.neumann_propagate(on_device(gpu, A), cp.asarray(X * np.nan), 1.0, 2)
    with pytest.raises(TypeError, match="mix CuPy"):
        ngc_ref.neumann_propagate(on_device(gpu, A), X, 1.0, 2)
    with pytest.raises(TypeError, match="mix CuPy"):
        ngc_ref.robust_propagate(A, cp.asarray(X), 1.0, 2, 0.1)


# --- the memory guard on device memory -----------------------------------------------------

def test_a_dense_request_larger_than_the_device_is_refused(gpu, monkeypatch):
    # 100,000 nodes: three dense n x n float64 arrays are 240 GB, more than any GPU has.
    monkeypatch.delenv(_memory.GPU_ENV_VAR, raising=False)
    filt = ngc_ref.NeumannFilter(on_device(gpu, graphs.ring(100_000)), 1.0, 2)
    with pytest.raises(ValueError) as info:
        filt.matrix(max_nodes=10**6)
    msg = str(info.value)
    assert "NeumannFilter.matrix would need 224 GiB on the GPU" in msg, msg
    assert "free memory on GPU" in msg and _memory.GPU_ENV_VAR in msg


def test_the_guard_counts_device_memory_not_host_memory(gpu, stand_in, monkeypatch):
    A, X = graph(200, isolated=0), features(200)
    Ag, Xg = on_device(gpu, A, X)
    monkeypatch.setenv(_memory.ENV_VAR, "1KiB")           # the host's budget: irrelevant
    stand_in.free = 256 * 1024
    refusals = [
        (lambda: ngc_ref.NeumannFilter(Ag, 1.0, 2).matrix(), "NeumannFilter.matrix", "938 KiB"),
        (lambda: ngc_ref.gsd_solve(Ag, Xg, 1.0, method="dense"), "gsd_solve(method='dense')",
         "625 KiB"),
        (lambda: ngc_ref.connectivity_factor(Ag, 1.0, 2, method="dense"),
         "connectivity_factor(method='dense')", "1.22 MiB"),
        (lambda: ngc_ref.connectivity_factor(Ag, 1.0, 2, block_size=200),
         "connectivity_factor(method='exact')", "938 KiB"),
    ]
    for call, what, need in refusals:
        with pytest.raises(ValueError) as info:
            call()
        msg = str(info.value)
        assert f"{what} would need {need} on the GPU" in msg, msg
        assert "only 256 KiB is available (free memory on GPU 0 (stand-in GPU))" in msg, msg
        assert _memory.GPU_ENV_VAR in msg and _memory.ENV_VAR not in msg
    stand_in.free = 2**30                                  # room on the device: all run
    for call, _, _ in refusals:
        call()


def test_device_work_arrays_are_guarded(gpu, stand_in, monkeypatch):
    A, X = graph(200, isolated=0), features(200, d=64)      # X: 100 KiB
    Ag, Xg = on_device(gpu, A, X)
    monkeypatch.delenv(_memory.ENV_VAR, raising=False)
    stand_in.free = 150 * 1024                 # X fits, two more n x d arrays do not
    for call, what, need in [
            (lambda: ngc_ref.neumann_propagate(Ag, Xg, 1.0, 2), "neumann_propagate",
             "200 KiB on the GPU (2 dense 200 x 64"),
            (lambda: ngc_ref.neumann_propagate(Ag, gpu.csp.csr_matrix(Xg), 1.0, 2),
             "neumann_propagate", "300 KiB on the GPU (3 dense 200 x 64"),
            (lambda: ngc_ref.robust_propagate(Ag, Xg, 1.0, 2, 0.1), "robust_propagate",
             "400 KiB on the GPU (4 dense 200 x 64"),
            (lambda: ngc_ref.gsd_solve(Ag, Xg, 1.0, method="cg"), "gsd_solve(method='cg')",
             "600 KiB on the GPU (6 dense 200 x 64")]:
        with pytest.raises(ValueError, match=f"^{re.escape(what)} would need {re.escape(need)}"):
            call()
    stand_in.free = 800 * 1024                 # the solve's set-up fits, CG's buffers do not
    with pytest.raises(ValueError, match=r"would need 1000 KiB on the GPU \(10 dense"):
        ngc_ref.gsd_solve(Ag, Xg, 1.0, method="cg")
    stand_in.free, stand_in.pool_free = 0, 2**30           # the pool's free blocks count
    ngc_ref.gsd_solve(Ag, Xg, 1.0, method="cg")


def test_device_budget_variable(gpu, monkeypatch):
    Ag = on_device(gpu, graph())
    monkeypatch.setenv(_memory.GPU_ENV_VAR, "1KiB")
    with pytest.raises(ValueError, match=r"only 1 KiB is available \(the budget "
                                         r"NGC_REF_GPU_MEMORY_BUDGET=1KiB\)"):
        ngc_ref.NeumannFilter(Ag, 1.0, 2).matrix()
    monkeypatch.setenv(_memory.GPU_ENV_VAR, "lots")
    with pytest.raises(ValueError, match=f"^{_memory.GPU_ENV_VAR} must be a number of bytes"):
        ngc_ref.NeumannFilter(Ag, 1.0, 2).matrix()



def test_permuted_matrix_on_the_device_keeps_its_shape(gpu):
    """P A Pᵀ on the device (built through COO) is n x n and equals the permuted dense matrix
    even where the nodes in the last positions of the new order have no entry at all."""
    A = graph()                                  # nodes 37-39 isolated, no diagonal
    n = A.shape[0]
    perm = np.roll(np.arange(n), 1)              # the new last position holds node 38
    inv = np.empty_like(perm)
    inv[perm] = np.arange(n)
    order = _order.Ordering(gpu.cp.asarray(perm), gpu.cp.asarray(inv), gpu=True)
    B = order.matrix(on_device(gpu, A), "test")
    assert B.shape == (n, n) and B.has_sorted_indices
    assert_allclose(B.get().toarray(), A.toarray()[perm][:, perm], rtol=0, atol=0)
