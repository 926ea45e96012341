"""The fast paths of issue #6 against the slow, obviously-correct references (no timings)."""

import networkx as nx
import numpy as np
import pytest
from numpy.testing import assert_allclose

from ngc_ref import NeumannFilter, connectivity_factor, gsd_solve, neumann_propagate
from ngc_ref import graphs
from ngc_ref._spmm import HornerKernel, SparseProduct, _row_ranges, horner, resolve_workers
from ngc_ref.normalize import normalized_adjacency

from . import _reference as ref


@pytest.fixture(scope="module")
def er_graph():
    return graphs.erdos_renyi(600, 8 / 600, seed=3)


@pytest.mark.parametrize("workers", [1, 2, 3])
@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kernel_matches_plain_horner(er_graph, workers, norm, dtype):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((600, 130)).astype(dtype)
    An = normalized_adjacency(er_graph, norm=norm).astype(dtype)
    r = 16 / 17
    want = horner(An, X, r, 12)                      # a matrix: the plain steps
    got = HornerKernel(An, r, workers=workers)(X, 12)
    assert got.dtype == dtype
    tol = 1e-12 if dtype == np.float64 else 2e-5
    assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
    # The kernel through horner, with another ratio than its own: rA is scaled for that ratio.
    got = horner(HornerKernel(An, 0.5), X, r, 12, workers=workers)
    assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("transpose", [False, True])
def test_filter_against_dense_reference(er_graph, norm, transpose):
    A = er_graph[:80][:, :80]
    X = np.random.default_rng(1).standard_normal((80, 3))
    M = ref.neumann(A, 5.0, 7, norm)
    want = (M.T if transpose else M) @ X
    got = NeumannFilter(A, 5.0, 7, norm=norm, workers=2).apply(X, transpose=transpose)
    assert_allclose(got, want, rtol=1e-11, atol=1e-13)
    assert_allclose(neumann_propagate(A, X, 5.0, 7, norm=norm, workers=1),
                    NeumannFilter(A, 5.0, 7, norm=norm).apply(X), rtol=1e-13, atol=1e-15)


def test_float32_error_is_float32_sized(er_graph):
    X = np.random.default_rng(2).standard_normal((600, 5))
    H64 = neumann_propagate(er_graph, X, 32.0, 64)
    H32 = neumann_propagate(er_graph, X.astype(np.float32), 32.0, 64)
    assert H32.dtype == np.float32
    rel = np.linalg.norm(H32 - H64) / np.linalg.norm(H64)
    assert rel < 1e-5


@pytest.mark.parametrize("workers", [1, 2, 5])
def test_sparse_product_into_buffers(er_graph, workers):
    import scipy.sparse as sp
    rng = np.random.default_rng(4)
    # int64 indices with an int32 indptr, unsorted: the product must normalise them itself.
    C = sp.csr_matrix(er_graph * rng.random(er_graph.shape))
    A = sp.csr_matrix((C.data, C.indices.astype(np.int64), C.indptr), shape=C.shape)
    A.has_sorted_indices = False
    H, B = rng.standard_normal((600, 120)), rng.standard_normal((600, 120))
    Y = np.full_like(H, np.nan)   # every entry must be overwritten
    with SparseProduct(A, workers=workers) as mul:
        assert mul(H, Y) is Y
        assert_allclose(Y, C.toarray() @ H, rtol=1e-12, atol=1e-12)
        mul(H, Y, B)
        assert_allclose(Y, B + C.toarray() @ H, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method", ["cg", "chebyshev"])
@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_solvers_do_not_depend_on_workers(er_graph, method, norm):
    # Columns of very different scale converge at different iterations: exercises the
    # shrinking active set of block CG.
    X = np.random.default_rng(5).standard_normal((600, 120)) * np.logspace(-3, 3, 120)
    # An eigenvector of the SPD system (D̃^{1/2}1 for sym, D̃1 for rw, eigenvalue 1 of M) is
    # solved in one CG iteration, so the active set must shrink.
    X[:, 7] = np.sqrt(er_graph.sum(axis=1) + 1.0)
    F1, i1 = gsd_solve(er_graph, X, 32.0, norm=norm, method=method, rtol=1e-10, workers=1,
                       return_info=True)
    F2, i2 = gsd_solve(er_graph, X, 32.0, norm=norm, method=method, rtol=1e-10, workers=2,
                       return_info=True)
    assert np.array_equal(F1, F2) and i1.iterations == i2.iterations
    want = gsd_solve(er_graph, X, 32.0, norm=norm, method="dense")
    assert_allclose(F1, want, rtol=1e-7, atol=1e-9 * np.abs(want).max())
    assert i1.residual < 1e-9


def test_row_ranges_cover_rows_once():
    indptr = np.array([0, 0, 5, 5, 9, 20, 20])
    for parts in range(1, 9):
        ranges = _row_ranges(indptr, parts)
        assert ranges[0][0] == 0 and ranges[-1][1] == 6
        assert all(a < b for a, b in ranges)
        assert all(ranges[i][1] == ranges[i + 1][0] for i in range(len(ranges) - 1))


def test_resolve_workers():
    assert resolve_workers(3) == 3
    assert resolve_workers(None) >= 1 and resolve_workers(-1) >= 1
    with pytest.raises(TypeError, match="workers"):
        resolve_workers(1.5)


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("workers", [1, 2])
def test_threaded_exact_tau_matches_dense(er_graph, norm, workers):
    A = er_graph[:150][:, :150]
    want = connectivity_factor(A, 8.0, 10, norm=norm, method="dense")
    got = connectivity_factor(A, 8.0, 10, norm=norm, workers=workers, block_size=16)
    assert_allclose(got.tau_i, want.tau_i, rtol=1e-10)
    assert got.tau_lower == got.tau == got.tau_upper and got.n_exact == 150


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tau_estimate_brackets_exact(seed):
    A = graphs.erdos_renyi(400, 4 / 400, seed=seed)
    exact = connectivity_factor(A, 16.0, 12)
    est = connectivity_factor(A, 16.0, 12, method="estimate", n_samples=128, seed=seed)
    assert est.method == "estimate" and est.confidence == 0.99
    assert est.tau_lower <= exact.tau * (1 + 1e-12)
    assert exact.tau <= est.tau_upper * (1 + 1e-12)
    # τ_lower is an exact τ_i of the reported node
    assert_allclose(est.tau, exact.tau_i[est.argmax], rtol=1e-10)
    # the sketch estimates are within the chi-square spread of the truth
    ratio = est.tau_i / exact.tau_i
    assert 0.3 < ratio.min() and ratio.max() < 3.0


def test_tau_estimate_capped_candidates_gives_honest_interval():
    A = graphs.erdos_renyi(300, 10 / 300, seed=5)
    exact = connectivity_factor(A, 4.0, 6)
    est = connectivity_factor(A, 4.0, 6, method="estimate", n_samples=16, max_candidates=2,
                              seed=0)
    assert est.n_exact == 2
    assert est.tau_lower <= exact.tau <= est.tau_upper


def test_tau_estimate_same_seed_same_numbers():
    A = nx.barabasi_albert_graph(200, 2, seed=0)
    a = connectivity_factor(A, 4.0, 6, method="estimate", seed=7)
    b = connectivity_factor(A, 4.0, 6, method="estimate", seed=7)
    assert_allclose(a.tau_i, b.tau_i, rtol=0, atol=0)
    with pytest.raises(ValueError, match="confidence"):
        connectivity_factor(A, 4.0, 6, method="estimate", confidence=1.0)


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("lam", [0.5, 32.0, 1024.0])
def test_chebyshev_matches_direct(er_graph, norm, lam):
    X = np.random.default_rng(4).standard_normal((600, 3))
    want = gsd_solve(er_graph, X, lam, norm=norm, method="direct")
    got, info = gsd_solve(er_graph, X, lam, norm=norm, method="chebyshev", rtol=1e-10,
                          return_info=True)
    assert info.method == "chebyshev" and info.converged
    assert info.residual < 1e-9
    assert_allclose(got, want, rtol=1e-8, atol=1e-9 * np.abs(want).max())
    # rate bound: error factor (√κ−1)/(√κ+1) per iteration, κ = 1 + 2λ
    k = np.sqrt(1 + 2 * lam)
    assert info.iterations <= np.log(2e10) / -np.log((k - 1) / (k + 1)) + 5


def test_chebyshev_float32_and_warning(er_graph):
    X = np.random.default_rng(5).standard_normal((600, 2)).astype(np.float32)
    F = gsd_solve(er_graph, X, 4.0, method="chebyshev", rtol=1e-6)
    assert F.dtype == np.float32
    with pytest.warns(UserWarning, match="Chebyshev did not reach"):
        gsd_solve(er_graph, X, 1024.0, method="chebyshev", rtol=1e-12, maxiter=5)


@pytest.mark.parametrize("norm", ["rw", "sym"])
def test_exact_tau_sparse_start(norm):
    # On a ring the t-hop neighbourhoods stay small, so most of the S steps run sparsely.
    from ngc_ref.connectivity import _sparse_start
    A = graphs.ring(300)
    filt = NeumannFilter(A, 8.0, 40, norm=norm)
    AnT = filt.A_norm.T.tocsr()
    H, t = _sparse_start(AnT * filt.r, np.array([0, 7, 150]), 40)
    assert 3 <= t < 40 and H.shape == (300, 3)
    E = np.zeros((300, 3))
    E[[0, 7, 150], [0, 1, 2]] = 1.0
    assert_allclose(H, horner(AnT, E, filt.r, t), rtol=1e-13, atol=1e-15)
    got = connectivity_factor(A, 8.0, 40, norm=norm, workers=2).tau_i
    want = connectivity_factor(A, 8.0, 40, norm=norm, method="dense").tau_i
    assert_allclose(got, want, rtol=1e-11)
