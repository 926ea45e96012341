import dataclasses
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from numpy.testing import assert_allclose

from ngc_ref import ConvergenceWarning, gsd_solve, normalized_adjacency
from ngc_ref.solve import METHODS, SOLVERS, _Problem, _spd_system
from ngc_ref.strategies import graphs_with_signals, lams, norms

from . import _reference as ref


def _random_graph(n, avg_deg, seed):
    rng = np.random.default_rng(seed)
    m = n * avg_deg // 2
    i, j = rng.integers(0, n, m), rng.integers(0, n, m)
    A = sp.coo_array((np.ones(m), (i, j)), shape=(n, n)).tocsr()
    A = ((A + A.T) > 0).astype(float)
    A.setdiag(0)
    A.eliminate_zeros()
    return A


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(), norms())
def test_methods_agree_with_numpy_solve(AX, lam, norm):
    A, X = AX
    eye = np.eye(A.shape[0])
    want = np.linalg.solve(eye + lam * (eye - ref.norm_adj(A, norm)), X)
    scale = max(1.0, np.abs(X).max())
    for method in ("dense", "direct", "cg", "auto"):
        F, info = gsd_solve(A, X, lam, norm=norm, method=method, rtol=1e-12, return_info=True)
        assert info.converged
        assert_allclose(F, want, rtol=1e-9, atol=1e-9 * scale, err_msg=method)
        assert info.residual <= 1e-9


@given(graphs_with_signals(max_nodes=10, weighted=True), lams(), norms())
def test_closed_form_is_stationary_point_of_gsd_objective(AX, lam, norm):
    # ∇q(F) = 2(F − X) + 2λ L̃ F = 0 at F = (I + λL̃)⁻¹X (paper Eq. 2, L̃ as written).
    A, X = AX
    F = gsd_solve(A, X, lam, norm=norm, method="direct")
    L = np.eye(A.shape[0]) - ref.norm_adj(A, norm)
    grad = 2 * (F - X) + 2 * lam * L @ F
    assert np.abs(grad).max() <= 1e-9 * max(1.0, lam) * max(1.0, np.abs(X).max())


def test_cg_on_larger_graph_reports_iterations_and_residual():
    A = _random_graph(3000, 8, 0)
    X = np.random.default_rng(1).standard_normal((3000, 4))
    for norm in ("sym", "rw"):
        F_cg, info = gsd_solve(A, X, 32.0, norm=norm, method="cg", rtol=1e-10, return_info=True)
        F_lu = gsd_solve(A, X, 32.0, norm=norm, method="direct")
        assert info.converged and 0 < info.iterations < 300
        assert len(info.residual_history) == info.iterations
        assert info.residual_history[-1] <= 1e-10
        assert info.residual <= 1e-8
        assert_allclose(F_cg, F_lu, rtol=1e-7, atol=1e-8)


def test_cg_iterations_grow_with_lambda():
    A = _random_graph(2000, 6, 2)
    X = np.random.default_rng(3).standard_normal((2000, 2))
    its = [gsd_solve(A, X, lam, norm="sym", method="cg", rtol=1e-8, return_info=True)[1].iterations
           for lam in (1.0, 100.0)]
    assert its[0] < its[1]


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("lam", [0.5, 3.0, 100.0])
def test_cg_takes_one_iteration_per_distinct_eigenvalue(norm, lam):
    # In exact arithmetic CG ends after as many iterations as the operator has distinct
    # eigenvalues on the right-hand side. The hypercube Q_k with self-loops has Ã_norm
    # eigenvalues (1 + k − 2i)/(k + 1), i = 0..k (regular, so Jacobi is a constant and sym =
    # rw); i = 0 is the null space, split off exactly, which leaves k: CG must take exactly k,
    # for every λ. K_n has one eigenvalue besides the null space: exactly 1 iteration.
    X = np.random.default_rng(0).standard_normal((2**5, 3))
    Q5 = nx.to_scipy_sparse_array(nx.hypercube_graph(5), dtype=float)
    _, info = gsd_solve(Q5, X, lam, norm=norm, method="cg", rtol=1e-10, return_info=True)
    assert info.converged and info.iterations == 5
    # One iteration before the end the residual is still far from rounding.
    assert info.residual_history[-2] > 1e-4 and info.residual <= 1e-10
    K9 = nx.to_scipy_sparse_array(nx.complete_graph(9), dtype=float)
    _, info = gsd_solve(K9, X[:9], lam, norm=norm, method="cg", rtol=1e-10, return_info=True)
    assert info.converged and info.iterations == 1


def _chebyshev_residuals(A, X, lam, norm, iterations):
    """The residuals X − (I + λL̃)F_t of Chebyshev iteration after t = 0..iterations steps,
    from its residual polynomial r_t = T_t((θ − K)/δ) r_0 / T_t(θ/δ), K = aI + bL̃ (the
    preconditioned operator, spectrum in [a, a + 2b] = [lmin, lmax]), r_0 = X − F∞, with the
    Chebyshev polynomials by their three-term recurrence on dense matrices (connected graph)."""
    n = A.shape[0]
    a, b = (1.0, lam) if lam <= 1 else (1.0 / lam, 1.0)
    K = a * np.eye(n) + b * (np.eye(n) - ref.norm_adj(A, norm))
    theta, delta = a + b, b
    d = ref.tilde(A).sum(axis=1)
    u, w = (np.sqrt(d), np.sqrt(d)) if norm == "sym" else (np.ones(n), d)
    R0 = X - np.outer(u, w @ X) / (w @ u)     # minus F∞, the null-space part
    Y = (theta * np.eye(n) - K) / delta
    V_prev, V = R0, Y @ R0
    T_prev, T = 1.0, theta / delta
    out = [R0, V / T]
    for _ in range(iterations - 1):
        V_prev, V = V, 2 * Y @ V - V_prev
        T_prev, T = T, 2 * (theta / delta) * T - T_prev
        out.append(V / T)
    return out


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("lam", [0.7, 6.0])
def test_chebyshev_follows_its_residual_polynomial(norm, lam):
    # Chebyshev iteration's residual after t steps is a known polynomial of the operator: the
    # history must equal it step by step, the iteration count must be the first t where every
    # column meets rtol, and (sym, where ‖r_0‖ <= ‖x‖) that count must lie within the bound
    # from the condition number κ = (a + 2b)/a = 1 + 2λ: 1/T_t(σ) <= rtol for
    # t >= acosh(1/rtol)/acosh(σ), σ = (1 + λ)/λ.
    A = nx.to_scipy_sparse_array(nx.connected_watts_strogatz_graph(60, 4, 0.3, seed=1),
                                 dtype=float)
    X = np.random.default_rng(2).standard_normal((60, 2))
    rtol = 1e-7
    F, info = gsd_solve(A, X, lam, norm=norm, method="chebyshev", rtol=rtol, return_info=True)
    xn = np.linalg.norm(X, axis=0)
    pred = [np.max(np.linalg.norm(R, axis=0) / xn)
            for R in _chebyshev_residuals(A, X, lam, norm, info.iterations + 1)]
    want_its = next(t for t, p in enumerate(pred) if p <= rtol)
    assert pred[want_its] < 0.9 * rtol < rtol / 0.9 < pred[want_its - 1]   # not borderline
    assert info.converged and info.iterations == want_its
    assert_allclose(info.residual_history, pred[1:want_its + 1], rtol=1e-6)
    sigma = (1 + lam) / lam   # θ/δ = (a + b)/b
    if norm == "sym":
        assert want_its <= np.ceil(np.arccosh(1 / rtol) / np.arccosh(sigma))


def test_nonconvergence_warns_and_says_so():
    A = _random_graph(500, 6, 4)
    X = np.random.default_rng(5).standard_normal((500, 2))
    with pytest.warns(ConvergenceWarning, match="did not reach rtol"):
        F, info = gsd_solve(A, X, 100.0, method="cg", rtol=1e-12, maxiter=2, return_info=True)
    assert not info.converged and info.iterations == 2


def test_zero_columns_and_float32():
    A = _random_graph(100, 4, 6)
    X = np.zeros((100, 2), dtype=np.float32)
    X[:, 1] = 1.0
    F, info = gsd_solve(A, X, 5.0, norm="rw", method="cg", return_info=True)
    assert F.dtype == np.float32 and info.converged
    assert_allclose(F[:, 0], 0.0)
    assert_allclose(F[:, 1], 1.0, rtol=1e-6)   # constants are fixed points for rw


def test_dense_guard_and_bad_options():
    A = _random_graph(100, 4, 7)
    X = np.ones((100, 1))
    with pytest.raises(ValueError, match="max_nodes"):
        gsd_solve(A, X, 1.0, method="dense", max_nodes=50)
    with pytest.raises(ValueError, match="method must be one of 'auto', 'cg', 'direct', 'dense'"):
        gsd_solve(A, X, 1.0, method="chol")
    with pytest.raises(ValueError, match="rtol must be >= 0"):
        gsd_solve(A, X, 1.0, rtol=-1)
    with pytest.raises(ValueError, match="both be 0"):
        gsd_solve(A, X, 1.0, rtol=0.0)
    with pytest.raises(ValueError, match="lam must be > 0"):
        gsd_solve(A, X, 0.0)


def test_input_untouched():
    A = _random_graph(50, 4, 8)
    A0 = A.copy()
    X = np.random.default_rng(0).standard_normal((50, 2))
    X0 = X.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gsd_solve(A, X, 3.0, method="cg")
    assert_allclose(X, X0)
    assert (A != A0).nnz == 0


def _three_components():
    """Karate club (unweighted), a path of 3 and an isolated node: 38 nodes, 3 components."""
    import networkx as nx
    K = nx.to_scipy_sparse_array(nx.karate_club_graph(), weight=None, dtype=float)
    P = nx.to_scipy_sparse_array(nx.path_graph(3), dtype=float)
    return sp.csr_array(sp.block_diag([K, P, sp.csr_array((1, 1))]))


def _spectral_solution(A, X, lam, norm, n_components):
    """(I + λL̃)⁻¹X from the eigenvectors of L̃_sym, with its null space set exactly to 0:
    accurate for every λ, since nothing of size λ is ever rounded against 1."""
    Ad = ref.tilde(A)
    d = Ad.sum(axis=1)
    mu, U = np.linalg.eigh(np.eye(len(d)) - Ad / np.sqrt(np.outer(d, d)))
    mu[:n_components] = 0.0
    Y = X if norm == "sym" else np.sqrt(d)[:, None] * X
    F = U @ ((U.T @ Y) / (1.0 + lam * mu)[:, None])
    return F if norm == "sym" else F / np.sqrt(d)[:, None]


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("lam", [1e4, 1e12, 1e16, 1e100, 1e300])
def test_huge_lam_tends_to_the_null_space_projection(norm, lam):
    # λ → ∞: F → the projection of X onto null(L̃) (per component). Before: 'direct' said
    # converged=True with residual 0.27 and error 1.7 at λ = 1e16 on the karate club, CG gave
    # NaN on the isolated node and 'dense' raised "Singular matrix".
    A = _three_components()
    X = np.random.default_rng(0).standard_normal((A.shape[0], 3))
    want = _spectral_solution(A, X, lam, norm, n_components=3)
    for method in ("direct", "cg", "dense", "auto", "chebyshev"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)   # Chebyshev at huge λ
            F, info = gsd_solve(A, X, lam, norm=norm, method=method, rtol=1e-12, return_info=True)
        assert np.isfinite(F).all() and np.isfinite(info.residual), method
        if method == "chebyshev" and not info.converged:
            continue    # κ = 1 + 2λ: it runs out of iterations, and says so
        assert info.converged, method
        assert info.residual <= 1e-9, (method, info.residual)
        assert_allclose(F, want, rtol=1e-9, atol=1e-9 * np.abs(want).max(), err_msg=method)


def test_a_wrong_answer_is_never_reported_as_converged(monkeypatch):
    # The residual of the original system is checked after every solve: a direct solver that
    # returned garbage is caught, reported as not converged, and warned about.
    A = _three_components()
    X = np.random.default_rng(1).standard_normal((A.shape[0], 2))
    real_splu = sp.linalg.splu

    class BrokenLU:
        def __init__(self, M, **kw):
            self.lu = real_splu(M, **kw)
            self.L, self.U = self.lu.L, self.lu.U

        def solve(self, B):
            return 1.5 * self.lu.solve(B)

    monkeypatch.setattr(sp.linalg, "splu", BrokenLU)
    with pytest.warns(ConvergenceWarning, match="residual"):
        F, info = gsd_solve(A, X, 3.0, method="direct", return_info=True)
    assert not info.converged and info.residual > 1e-3



# --- every method, one dispatcher: each against a dense reference --------------------------

@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("lam", [0.3, 8.0])
@pytest.mark.parametrize("shape", ["1-D", "2-D"])
def test_each_method_against_the_dense_inverse(method, norm, lam, shape):
    # Three components and an isolated node; 1-D right-hand sides stay 1-D.
    A = _three_components()
    n = A.shape[0]
    rng = np.random.default_rng(2)
    X = rng.standard_normal(n) if shape == "1-D" else rng.standard_normal((n, 3))
    want = ref.gsd_inverse(A, lam, norm) @ X
    F, info = gsd_solve(A, X, lam, norm=norm, method=method, rtol=1e-12, return_info=True)
    assert F.shape == X.shape
    assert info.method == ("direct" if method == "auto" else method)
    assert info.converged and info.residual <= 1e-10, (method, info.residual)
    assert (info.iterations is not None) == (info.method in ("cg", "chebyshev"))
    assert (info.factor_nnz is not None) == (info.method == "direct")
    assert_allclose(F, want, rtol=1e-9, atol=1e-10 * np.abs(want).max())


@pytest.mark.parametrize("solver", ["cg", "chebyshev", "direct", "dense"])
@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_private_solvers_solve_the_spd_system(solver, norm):
    # Each entry of SOLVERS is a function (system, problem) -> (Z, SolveInfo) solving M Z = B;
    # on a connected graph and a moderate λ the SPD matrix M is well conditioned.
    A = sp.csr_array(_random_graph(80, 5, 9))
    An, d = normalized_adjacency(A, norm=norm, return_degrees=True)
    sysm = _spd_system(An, d, 2.0, norm, False)
    X = np.random.default_rng(3).standard_normal((80, 2))
    # B⊥ = mass·(X − F∞): no part along the null space, as the direct methods' border asks.
    B = sysm.mass[:, None] * (X - sysm.project(X))
    want = np.linalg.solve(sysm.M.toarray(), B)
    problem = _Problem(B=B, Z0=None, bnorm=np.linalg.norm(B, axis=0), rscale=None,
                       rtol=1e-12, atol=0.0, maxiter=1000, workers=None, max_nodes=100,
                       step=None)
    if solver == "chebyshev" and norm == "rw":
        # Chebyshev's interval is that of D̃⁻¹M, the preconditioner the row weights give.
        problem = dataclasses.replace(problem, rscale=1.0 / sysm.mass)
    Z, info = SOLVERS[solver](sysm, problem)
    assert info.method == solver and info.converged
    assert_allclose(Z, want, rtol=1e-9, atol=1e-10 * np.abs(want).max())


# --- rw: the caller's scale, on a graph with hubs ------------------------------------------

def _hubs_graph(n=400, seed=0):
    """Erdős–Rényi (p = 0.01) with three hubs joined to half the nodes each: d̃ from 1 to ~200,
    so the rw system's D̃ weighting differs from the caller's scale by two orders."""
    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n, 0.01, seed=seed)
    for hub in range(3):
        G.add_edges_from((hub, int(v)) for v in rng.choice(n, n // 2, replace=False) if v != hub)
    return nx.to_scipy_sparse_array(G, dtype=float)


@pytest.mark.parametrize("method", ["cg", "chebyshev"])
@pytest.mark.parametrize("lam", [2.0, 50.0])
@pytest.mark.parametrize("rtol, atol", [(1e-4, 0.0), (1e-12, 1e-3)])
def test_rw_meets_the_callers_tolerances_on_a_graph_with_hubs(method, lam, rtol, atol):
    # rw is solved as the D̃-weighted SPD system, but rtol and atol are promised for the
    # caller's (I + λL̃_rw)F = X. Before: the stopping rule was met in the weighted scale only,
    # and the caller's relative residual was 1.5e-4 at rtol = 1e-4 (λ = 50, CG).
    A = _hubs_graph()
    n = A.shape[0]
    X = np.random.default_rng(1).standard_normal((n, 3))
    F, info = gsd_solve(A, X, lam, norm="rw", method=method, rtol=rtol, atol=atol,
                        return_info=True)
    R = X - (np.eye(n) + lam * (np.eye(n) - ref.norm_adj(A, "rw"))) @ F
    rn, xn = np.linalg.norm(R, axis=0), np.linalg.norm(X, axis=0)
    assert info.converged
    assert np.all(rn <= np.maximum(rtol * xn, atol)), (rn / xn, rn)
    # A loose tolerance leaves a residual far above rounding: SolveInfo.residual must be this
    # residual of the caller's equation, not the weighted one (smaller by up to max d̃).
    assert (rn / xn).max() > 1e-7
    assert_allclose(info.residual, (rn / xn).max(), rtol=1e-6)
