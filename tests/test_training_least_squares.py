"""The least-squares trainer of Theorem 1: gradients, L, closed forms, GD rate and the proof's
inequality."""

import math
import sys
import warnings

import networkx as nx
import numpy as np
import pytest
from numpy.testing import assert_allclose

from ngc_ref import connectivity_factor, neumann_matrix
from ngc_ref.training import least_squares, lipschitz_constant, theory_trajectory
from ngc_ref.training.least_squares import _targets


def _problem(n=40, d=4, c=2, seed=0, noise=0.3):
    rng = np.random.default_rng(seed)
    G = nx.connected_watts_strogatz_graph(n, 4, 0.3, seed=seed)
    Xs = rng.standard_normal((n, d))
    eta = noise * rng.standard_normal((n, d))
    Y = Xs @ rng.standard_normal((d, c)) + 0.1 * rng.standard_normal((n, c))
    return G, Xs, eta, Y


def test_least_squares_gradient_matches_finite_differences():
    rng = np.random.default_rng(1)
    Z, Y = rng.standard_normal((15, 4)), rng.standard_normal((15, 3))
    W = rng.standard_normal((4, 3))
    f = lambda V: float(np.sum((Z @ V - Y) ** 2))  # noqa: E731
    grad = 2 * Z.T @ Z @ W - 2 * Z.T @ Y
    h = 1e-6
    fd = np.zeros_like(W)
    for i in np.ndindex(W.shape):
        E = np.zeros_like(W)
        E[i] = h
        fd[i] = (f(W + E) - f(W - E)) / (2 * h)
    assert_allclose(fd, grad, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("method", ["dense", "svds", "power", "auto"])
@pytest.mark.parametrize("shape", [(30, 5), (6, 20), (25, 1)])
def test_lipschitz_constant_matches_dense_svd(method, shape):
    Z = np.random.default_rng(2).standard_normal(shape)
    sigma = np.linalg.svd(Z, compute_uv=False)[0]
    L = lipschitz_constant(Z, method=method, seed=0, l2=0.25)
    assert_allclose(L, 2 * sigma**2 + 0.5, rtol=1e-9)


def test_lipschitz_constant_is_the_gradient_lipschitz_constant():
    rng = np.random.default_rng(3)
    Z = rng.standard_normal((20, 6))
    L = lipschitz_constant(Z)
    # The top right singular vector attains ‖∇f(W1) − ∇f(W2)‖ = L‖W1 − W2‖.
    v = np.linalg.svd(Z)[2][0][:, None]
    assert_allclose(np.linalg.norm(2 * Z.T @ Z @ v), L * np.linalg.norm(v), rtol=1e-10)


def test_lipschitz_constant_on_linear_operator():
    from ngc_ref import NeumannFilter
    G = nx.cycle_graph(30)
    op = NeumannFilter(G, 3.0, 5, norm="sym")      # a LinearOperator
    dense = neumann_matrix(G, 3.0, 5, norm="sym")
    sigma = np.linalg.svd(dense, compute_uv=False)[0]
    assert_allclose(lipschitz_constant(op, method="svds", seed=0), 2 * sigma**2, rtol=1e-9)
    with pytest.raises(TypeError, match="dense"):
        lipschitz_constant(op, method="dense")


def test_least_squares_matches_numpy_and_ridge_normal_equations():
    rng = np.random.default_rng(4)
    Z, Y = rng.standard_normal((30, 5)), rng.standard_normal((30, 2))
    res = least_squares(Z, Y)
    assert_allclose(res.W, np.linalg.lstsq(Z, Y, rcond=None)[0], atol=1e-12)
    s = np.linalg.svd(Z, compute_uv=False)
    assert res.rank == 5 and math.isclose(res.cond, s[0] / s[-1], rel_tol=1e-10)
    ridge = least_squares(Z, Y, l2=0.7)
    assert_allclose(ridge.W, np.linalg.solve(Z.T @ Z + 0.7 * np.eye(5), Z.T @ Y), atol=1e-12)


def test_least_squares_reports_rank_deficiency():
    rng = np.random.default_rng(5)
    Z = rng.standard_normal((20, 3))
    Z = np.hstack([Z, Z[:, :1]])          # duplicated column: rank 3 of 4
    res = least_squares(Z, rng.standard_normal((20, 1)))
    assert res.rank == 3
    assert res.cond > 1e12
    assert_allclose(res.W, np.linalg.pinv(Z) @ (Z @ res.W), atol=1e-10)  # min-norm solution


def test_gd_converges_to_closed_form_at_least_at_rate_one_over_k():
    G, Xs, eta, Y = _problem()
    tr = theory_trajectory(G, Xs, eta, Y, lam=2.0, S=6, steps=3000, seed=0, tau=1.0)
    assert tr.lstsq_f.rank == Xs.shape[1]          # full column rank: unique W_f*
    f_star = tr.lstsq_f.objective
    # Exact O(1/k) guarantee for f, with W_f* as comparison point.
    dist = np.sum(tr.W_f_star**2)                  # W0 = 0
    k = tr.k[1:]
    assert np.all(tr.f[1:] - f_star <= dist / (2 * k * tr.alpha) + 1e-9 * tr.f[0])
    # g(W^(k)) → g(W_f*), measured: k·|g_k − g(W_f*)| does not grow (rate 1/k or better).
    err = np.abs(tr.g_gap - tr.g_gap_limit)
    assert err[-1] <= 1e-8 * max(1.0, tr.g_gap[0])
    for k1 in (1, 3, 10, 30):                      # above the rounding floor
        assert 3 * k1 * err[3 * k1] <= k1 * err[k1]
    assert_allclose(tr.W, tr.W_f_star, atol=1e-6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_descent_inequality_of_the_proof_holds(seed):
    G, Xs, eta, Y = _problem(seed=seed, noise=1.0)
    tr = theory_trajectory(G, Xs, eta, Y, lam=8.0, S=10, steps=300, W0="random", seed=seed,
                           tau=1.0)
    assert tr.descent_bound_holds()
    assert np.all(np.diff(tr.f) <= 1e-12 * tr.f[0])        # f decreases monotonically
    assert tr.alpha == pytest.approx(1.0 / tr.L)


def test_noise_term_uses_tau_from_connectivity_factor_rw_by_default():
    G, Xs, eta, Y = _problem(n=30)
    tr = theory_trajectory(G, Xs, eta, Y, lam=4.0, S=5, steps=5)
    tau = connectivity_factor(G, 4.0, 5, norm="rw").tau
    assert tr.tau_norm == "rw" and tr.tau == pytest.approx(tau)
    assert tr.noise_term == pytest.approx(tau * math.log(30) / 30)
    sym = theory_trajectory(G, Xs, eta, Y, lam=4.0, S=5, steps=5, tau_norm="sym")
    assert sym.tau == pytest.approx(connectivity_factor(G, 4.0, 5, norm="sym").tau)
    assert tr.opt_term[0] == np.inf
    assert tr.opt_term[3] == pytest.approx(np.sum(tr.W_g_star**2) / (2 * 3 * tr.alpha))
    A_S = neumann_matrix(G, 4.0, 5, norm="rw")
    assert tr.noise_norm_sq == pytest.approx(np.sum((A_S @ eta) ** 2))


def test_trajectory_records_match_direct_evaluation():
    G, Xs, eta, Y = _problem(n=25, d=3)
    tr = theory_trajectory(G, Xs, eta, Y, lam=3.0, S=4, steps=7, l2=0.1, tau=2.0)
    A_S = neumann_matrix(G, 3.0, 4, norm="rw")
    Z, Zs = A_S @ (Xs + eta), A_S @ Xs
    W = np.zeros((3, 2))
    for _ in range(7):
        W = W - tr.alpha * (2 * Z.T @ (Z @ W - Y) + 0.2 * W)
    assert_allclose(tr.W, W, rtol=1e-10, atol=1e-12)
    assert tr.f[-1] == pytest.approx(np.sum((Z @ W - Y) ** 2))
    assert tr.objective[-1] == pytest.approx(tr.f[-1] + 0.1 * np.sum(W**2))
    gstar = np.sum((Zs @ np.linalg.lstsq(Zs, Y, rcond=None)[0] - Y) ** 2)
    assert tr.g_gap[-1] == pytest.approx(np.sum((Zs @ W - Y) ** 2) - gstar)
    assert tr.L == pytest.approx(2 * np.linalg.norm(Z, 2) ** 2 + 0.2)


def test_deterministic_under_seed_and_early_stop():
    G, Xs, eta, Y = _problem()
    a = theory_trajectory(G, Xs, eta, Y, lam=2.0, S=4, steps=50, W0="random", seed=7, tau=1.0)
    b = theory_trajectory(G, Xs, eta, Y, lam=2.0, S=4, steps=50, W0="random", seed=7, tau=1.0)
    assert_allclose(a.f, b.f, rtol=0, atol=0)
    assert_allclose(a.W, b.W, rtol=0, atol=0)
    c = theory_trajectory(G, Xs, eta, Y, lam=2.0, S=4, steps=100000, tol=1e-6, tau=1.0)
    assert c.converged and c.n_steps < 100000
    assert c.grad_norm[-1] <= 1e-6 * c.grad_norm[0]
    assert len(c.f) == c.n_steps + 1


def test_step_above_one_over_L_warns_and_validation():
    G, Xs, eta, Y = _problem(n=20)
    with pytest.warns(UserWarning, match="alpha"):
        theory_trajectory(G, Xs, eta, Y, lam=2.0, S=3, steps=2, alpha=10.0, tau=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        theory_trajectory(G, Xs, eta, Y, lam=2.0, S=3, steps=2, tau=1.0)
    with pytest.raises(ValueError, match="eta"):
        theory_trajectory(G, Xs, eta[:, :2], Y, lam=2.0, S=3, tau=1.0)
    with pytest.raises(ValueError, match="W0"):
        theory_trajectory(G, Xs, eta, Y, lam=2.0, S=3, W0=np.zeros((2, 2)), tau=1.0)
    with pytest.raises(ValueError, match="W0"):
        theory_trajectory(G, Xs, eta, Y, lam=2.0, S=3, W0="ones", tau=1.0)
    with pytest.raises(TypeError, match="steps"):
        theory_trajectory(G, Xs, eta, Y, lam=2.0, S=3, steps=2.5, tau=1.0)


def test_integer_labels_are_one_hot_encoded():
    Y = _targets(np.array([0, 2, 1, 2]), 4)
    assert_allclose(Y, np.eye(3)[[0, 2, 1, 2]])
    with pytest.raises(ValueError, match="labels"):
        _targets(np.array([0.5, 1.0]), 2)


def _with_singular_values(rng, n, s):
    """``(Z, U, V)``: Z = U diag(s) Vᵀ, n x len(s), with random orthonormal columns U and a
    random orthogonal V (from ``rng``)."""
    U, _ = np.linalg.qr(rng.standard_normal((n, len(s))))
    V, _ = np.linalg.qr(rng.standard_normal((len(s), len(s))))
    return U @ np.diag(s) @ V.T, U, V


def test_least_squares_drops_directions_below_the_rank_cutoff():
    rng = np.random.default_rng(6)
    # The last singular value is below 20·eps and above LAPACK's eps.
    Z, _, _ = _with_singular_values(rng, 20, [1.0, 0.5, 1e-15])
    Y = rng.standard_normal((20, 1))
    res = least_squares(Z, Y)
    assert res.rank == 2
    assert np.linalg.norm(res.W) < 10                # not ~1e15


def test_trajectory_refuses_clean_features_too_small_for_float64():
    A = nx.path_graph(2)
    X = np.full((2, 1), 2.2250738585072014e-308)   # the smallest normal float64
    with pytest.raises(ValueError, match="X_clean is too small in scale"):
        theory_trajectory(A, X, np.ones((2, 1)), np.eye(2), 1.0, 0, norm="sym", steps=5, tau=1.0)


@pytest.mark.parametrize("d, c", [(150, 4), (40, 15), (1, 600)])
def test_random_start_has_the_documented_variance(d, c):
    # W0="random" draws N(0, 1/d) entries: with the mean known, d·‖W⁰‖_F² is χ² with d·c = 600
    # degrees of freedom, whose central 1 − 2e-6 interval is [0.75, 1.30]·d·c; N(0, 1/d²) would
    # give d times less, N(0, 1) d times more. Read at steps=0, where W is W⁰.
    from scipy.stats import chi2
    G, Xs, eta, Y = _problem(n=30, d=d, c=c, seed=3)
    for seed in range(3):
        tr = theory_trajectory(G, Xs, eta, Y, lam=2.0, S=3, steps=0, W0="random", seed=seed,
                               tau=1.0)
        W0 = tr.W
        assert W0.shape == (d, c) and tr.n_steps == 0
        stat = d * float(np.sum(W0 ** 2))
        assert chi2.ppf(1e-6, d * c) <= stat <= chi2.isf(1e-6, d * c), (stat, d * c)
        assert tr.W_norm[0] == pytest.approx(np.linalg.norm(W0))
        # Centred: the entries' sum is N(0, c) under the documented law.
        assert abs(W0.sum()) <= 5.0 * math.sqrt(c)


# --- edges of lipschitz_constant and least_squares (survivors of the mutation pass) ---------

def test_lipschitz_constant_validates_and_reports():
    Z = np.diag([3.0, 1.0])
    for kw, exc, msg in [(dict(l2=-1.0), ValueError, "^l2 must be >= 0"),
                         (dict(method="qr"), ValueError, "^method must be one of"),
                         (dict(rtol=-1.0), ValueError, "^rtol must be >= 0"),
                         (dict(maxiter=0), ValueError, "^maxiter must be >= 1"),
                         (dict(maxiter=2.5), TypeError, "^maxiter must be an integer")]:
        with pytest.raises(exc, match=msg):
            lipschitz_constant(Z, **kw)
    L, info = lipschitz_constant(Z, l2=0.5, return_info=True)
    assert L == pytest.approx(19.0, rel=1e-14)
    assert info == {"sigma_max": pytest.approx(3.0, rel=1e-14), "method": "dense",
                    "iterations": None}
    L, info = lipschitz_constant(Z, method="power", seed=0, return_info=True)
    assert L == pytest.approx(18.0, rel=1e-10) and info["method"] == "power"
    assert 1 <= info["iterations"] < 10_000
    assert lipschitz_constant(np.zeros((0, 3))) == 0.0
    assert lipschitz_constant(np.zeros((4, 0)), l2=1.0) == 2.0
    with pytest.raises(ValueError, match="not finite"):
        lipschitz_constant(np.full((2, 2), 1e200))


def test_lipschitz_constant_sparse_vectors_and_operators():
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
    rng = np.random.default_rng(7)
    Z = rng.standard_normal((12, 5))
    sigma = np.linalg.svd(Z, compute_uv=False)[0]
    # Sparse Z goes to svds (auto), in float64 even from float32 storage.
    L, info = lipschitz_constant(sp.csr_array(Z), seed=0, return_info=True)
    assert info["method"] == "svds" and L == pytest.approx(2 * sigma ** 2, rel=1e-9)
    assert lipschitz_constant(sp.csr_array(Z.astype(np.float32)), seed=0) == pytest.approx(
        2 * np.linalg.svd(Z.astype(np.float32).astype(float), compute_uv=False)[0] ** 2, rel=1e-9)
    # One column or one row: σ_max is the vector's norm (ARPACK needs k < min(n, d)).
    col, row = Z[:, :1], Z[:1, :]
    assert lipschitz_constant(col, method="svds") == pytest.approx(2 * np.sum(col ** 2), rel=1e-12)
    assert lipschitz_constant(row, method="svds") == pytest.approx(2 * np.sum(row ** 2), rel=1e-12)
    # A complex operator is refused; a zero operator has L = 2·l2 by power iteration.
    cop = spla.LinearOperator((3, 3), matvec=lambda v: v, dtype=complex)
    with pytest.raises(TypeError, match="real operator"):
        lipschitz_constant(cop)
    zero = spla.aslinearoperator(np.zeros((3, 3)))
    L, info = lipschitz_constant(zero, method="power", seed=0, l2=0.25, return_info=True)
    assert L == 0.5 and info["iterations"] == 1


def test_power_iteration_warns_when_it_runs_out_of_iterations():
    from ngc_ref.solve import ConvergenceWarning
    Z = np.diag([1.0, 0.999, 0.5])      # a gap of 0.1%: slow
    with pytest.warns(ConvergenceWarning, match=r"^power iteration did not reach rtol=1e-12 in 3"):
        L, info = lipschitz_constant(Z, method="power", seed=0, maxiter=3, return_info=True)
    assert info["iterations"] == 3 and 2 * 0.5 ** 2 < L <= 2.0
    # The warning names the caller's line (under mutmut a trampoline frame sits in between).
    with pytest.warns(ConvergenceWarning) as rec:
        lipschitz_constant(Z, method="power", seed=0, maxiter=3)
    assert rec[0].filename == __file__ or "mutmut.mutation.trampoline" in sys.modules


def test_least_squares_empty_and_overflowing_problems():
    Y = np.array([[1.0, 2.0], [3.0, 4.0]])
    res = least_squares(np.zeros((2, 0)), Y)
    assert res.W.shape == (0, 2) and res.rank == 0 and res.cond == float("inf")
    assert res.objective == 30.0 and res.singular_values.shape == (0,)
    res = least_squares(np.ones((2, 3)), np.zeros((2, 0)))
    assert res.W.shape == (3, 0) and res.objective == 0.0
    assert_allclose(res.singular_values, np.zeros(2))
    with pytest.raises(ValueError, match="‖Y‖² overflows"):
        least_squares(np.zeros((2, 0)), np.full((2, 1), 1e200))
    with pytest.raises(ValueError, match="singular values overflow"):
        least_squares(np.full((2, 2), 1e200), Y)
    with pytest.raises(ValueError, match="solution overflows"):
        least_squares(np.array([[1e-300], [1e-300]]), np.array([[1e300], [1e300]]))
    with pytest.raises(ValueError, match="^l2 must be >= 0"):
        least_squares(Y, Y, l2=-1.0)


def test_least_squares_objective_cond_and_ridge_value():
    Z = np.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])
    Y = np.array([[1.0], [1.0], [1.0]])
    res = least_squares(Z, Y)
    assert res.rank == 2 and res.cond == 2.0
    assert_allclose(res.W, [[1.0], [0.5]], rtol=1e-14)
    assert res.objective == pytest.approx(1.0, rel=1e-14)
    ridge = least_squares(Z, Y, l2=1.0)      # W = (ZᵀZ + I)⁻¹ZᵀY = [1/2, 2/5]
    assert_allclose(ridge.W, [[0.5], [0.4]], rtol=1e-13)
    want = (0.5 ** 2 + 0.2 ** 2 + 1.0) + (0.5 ** 2 + 0.4 ** 2)
    assert ridge.objective == pytest.approx(want, rel=1e-13)
    assert_allclose(ridge.singular_values, [2.0, 1.0], rtol=1e-14)
    rank1 = least_squares(np.array([[1.0, 0.0], [1.0, 0.0]]), np.ones((2, 1)))   # σ = (√2, 0)
    assert rank1.rank == 1 and rank1.cond == float("inf")


def test_trajectory_fields_against_a_direct_gradient_descent():
    # Every recorded quantity against a plain dense GD loop written out here, with a ridge
    # term, a given step, a given start, tol and a given τ (the "sym" filter, τ for "sym").
    G, Xs, eta, Y = _problem(n=15, d=3, c=2, seed=4)
    lam, S, l2, alpha, tau, steps = 2.0, 4, 0.3, None, 0.7, 25
    M = neumann_matrix(G, lam, S, norm="sym")
    Zs, Zeta = M @ Xs, M @ eta
    Z = Zs + Zeta
    L = 2 * np.linalg.svd(Z, compute_uv=False)[0] ** 2 + 2 * l2
    alpha = 0.9 / L
    W0 = np.full((3, 2), 0.5)
    tr = theory_trajectory(G, Xs, eta, Y, lam, S, norm="sym", steps=steps, alpha=alpha, W0=W0,
                           l2=l2, tol=1e-300, tau=tau, tau_norm="sym", lipschitz_method="dense")
    Wg = np.linalg.lstsq(Zs, Y, rcond=None)[0]
    Wf = np.linalg.solve(Z.T @ Z + l2 * np.eye(3), Z.T @ Y)
    f = lambda V: float(np.sum((Z @ V - Y) ** 2))      # noqa: E731
    g = lambda V: float(np.sum((Zs @ V - Y) ** 2))     # noqa: E731
    grad = lambda V: 2 * Z.T @ (Z @ V - Y) + 2 * l2 * V  # noqa: E731
    W, Ws = W0.copy(), [W0.copy()]
    for _ in range(steps):
        W = W - alpha * grad(W)
        Ws.append(W)
    n = 15
    assert tr.n_steps == steps and not tr.converged and tr.alpha == alpha
    assert tr.L == pytest.approx(L, rel=1e-10)
    assert_allclose(tr.k, np.arange(steps + 1))
    assert_allclose(tr.f, [f(V) for V in Ws], rtol=1e-9)
    assert_allclose(tr.objective, [f(V) + l2 * np.sum(V ** 2) for V in Ws], rtol=1e-9)
    assert_allclose(tr.g_gap, [g(V) - g(Wg) for V in Ws], rtol=1e-8, atol=1e-9)
    assert_allclose(tr.f_gap_at_Wg, [f(V) - f(Wg) for V in Ws], rtol=1e-8, atol=1e-9)
    assert_allclose(tr.W_norm, [np.linalg.norm(V) for V in Ws], rtol=1e-12)
    assert_allclose(tr.grad_norm, [np.linalg.norm(grad(V)) for V in Ws], rtol=1e-9)
    dist0 = np.sum((W0 - Wg) ** 2)
    assert tr.opt_term[0] == np.inf
    assert_allclose(tr.opt_term[1:], dist0 / (2 * np.arange(1, steps + 1) * alpha), rtol=1e-9)
    assert tr.noise_term == pytest.approx(tau * math.log(n) / n, rel=1e-14)
    assert tr.tau == tau and tr.tau_norm == "sym"
    assert tr.noise_norm_sq == pytest.approx(np.sum(Zeta ** 2), rel=1e-10)
    assert_allclose(tr.W, Ws[-1], rtol=1e-9)
    assert_allclose(tr.W_f_star, Wf, rtol=1e-9)
    assert_allclose(tr.W_g_star, Wg, rtol=1e-9)
    assert tr.g_gap_limit == pytest.approx(g(Wf) - g(Wg), rel=1e-8)
    assert tr.settings == dict(lam=lam, S=S, norm="sym", steps=steps, l2=l2, tol=1e-300, n=n, d=3,
                               c=2, lipschitz=tr.settings["lipschitz"], W0="given")
    assert tr.settings["lipschitz"]["method"] == "dense"
    # tol: stops at the first iterate whose gradient is within tol of the first one's.
    ratio = tr.grad_norm / tr.grad_norm[0]
    k_stop = int(np.argmax(ratio <= 0.5))
    stop = theory_trajectory(G, Xs, eta, Y, lam, S, norm="sym", steps=steps, alpha=alpha, W0=W0,
                             l2=l2, tol=0.5, tau=tau, tau_norm="sym")
    assert stop.converged and stop.n_steps == k_stop > 0
    assert_allclose(stop.W, Ws[k_stop], rtol=1e-9)
    # Defaults: α = 1/L, W⁰ = 0, τ from connectivity_factor with "rw", settings say so.
    default = theory_trajectory(G, Xs, eta, Y, lam, S, norm="sym", steps=2, tau=None)
    assert default.alpha == pytest.approx(1 / default.L, rel=1e-15)
    assert default.settings["W0"] == "zeros" and default.settings["tol"] is None
    assert default.W_norm[0] == 0.0
    assert default.tau == pytest.approx(connectivity_factor(G, lam, S, norm="rw").tau, rel=1e-12)


def test_trajectory_refusals_and_edge_cases(monkeypatch):
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    kw = dict(lam=1.0, S=2, steps=3, tau=1.0)
    with pytest.raises(ValueError, match="L = 0"):
        theory_trajectory(G, np.zeros_like(Xs), np.zeros_like(eta), Y, **kw)
    # One bad keyword at a time, each refused by name.
    for bad, message in [({"alpha": 0.0}, "^alpha must be > 0"),
                         ({"W0": "ones"}, "^W0 must be one of"),
                         ({"W0": np.zeros((2, 3))}, r"^W0 must have shape \(d, c\) = \(2, 2\)"),
                         ({"tol": -1.0}, "^tol must be >= 0"),
                         ({"tau": -1.0}, "^tau must be >= 0"),
                         ({"l2": -1.0}, "^l2 must be >= 0"),
                         ({"steps": -1}, "^steps must be >= 0")]:
        with pytest.raises(ValueError, match=message):
            theory_trajectory(G, Xs, eta, Y, **{**kw, **bad})
    with pytest.raises(ValueError, match="^eta must have the shape of X_clean"):
        theory_trajectory(G, Xs, eta[:, :1], Y, **kw)
    with pytest.raises(ValueError, match="diverged at step"), \
            pytest.warns(UserWarning, match=r"^alpha=1e\+200 exceeds 1/L="):
        theory_trajectory(G, Xs, eta, Y, alpha=1e200, **{**kw, "steps": 50})
    with pytest.raises(ValueError, match="at W0 overflows"):
        theory_trajectory(G, Xs, eta, Y, W0=np.full((2, 2), 1e200), **kw)
    # A given W0 is copied, not modified; "random" draws from the seed.
    W0 = np.ones((2, 2))
    tr = theory_trajectory(G, Xs, eta, Y, W0=W0, **kw)
    assert_allclose(W0, 1.0)
    assert tr.settings["W0"] == "given"
    assert theory_trajectory(G, Xs, eta, Y, **kw).settings["W0"] == "zeros"
    a = theory_trajectory(G, Xs, eta, Y, W0="random", seed=1, **kw)
    b = theory_trajectory(G, Xs, eta, Y, W0="random", seed=1, **kw)
    assert_allclose(a.W, b.W)
    assert a.settings["W0"] == "random" and a.W_norm[0] > 0
    # One node: log n / n is 0/1 = 0 but the theory's n → ∞ term is meaningless: NaN.
    one = theory_trajectory(nx.empty_graph(1), np.ones((1, 1)), np.zeros((1, 1)),
                            np.ones((1, 1)), **kw)
    assert math.isnan(one.noise_term)


def test_targets_refuse_bad_labels():
    with pytest.raises(ValueError, match="non-negative integer labels"):
        _targets(np.array([0, -1, 1]), 3)
    with pytest.raises(ValueError, match="^Y must have one row per node: expected 4"):
        _targets(np.array([0, 1, 1]), 4)
    assert _targets(np.array([], dtype=int), 0).shape == (0, 0)
    assert_allclose(_targets(np.array([[1, 2], [3, 4]]), 2), [[1.0, 2.0], [3.0, 4.0]])
    assert _targets(np.array([[1, 2], [3, 4]]), 2).dtype == np.float64


def test_descent_bound_holds_reads_its_arrays():
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    tr = theory_trajectory(G, Xs, eta, Y, lam=1.0, S=2, steps=5, tau=1.0)
    assert tr.descent_bound_holds()
    tr.f_gap_at_Wg = tr.f_gap_at_Wg.copy()
    tr.f_gap_at_Wg[3] = tr.opt_term[3] * 1.01 + 1e-9 * max(1.0, np.abs(tr.f).max())
    assert not tr.descent_bound_holds()
    tr.f_gap_at_Wg[0] = np.inf            # k = 0 is not part of the bound
    tr.f_gap_at_Wg[3] = tr.opt_term[3]
    assert tr.descent_bound_holds()


def test_messages_name_their_arguments(monkeypatch):
    import scipy.sparse as sp
    bad = np.array([[1.0, np.nan], [0.0, 1.0]])
    for Z in (bad, sp.csr_array(bad)):
        with pytest.raises(ValueError, match="^Z contains non-finite"):
            lipschitz_constant(Z)
    with pytest.raises(ValueError, match="^Z contains non-finite"):
        least_squares(bad, np.ones((2, 1)))
    with pytest.raises(ValueError, match="^Y contains non-finite"):
        least_squares(np.eye(2), bad)
    with pytest.raises(ValueError, match="^Y must have one row per node: expected 2"):
        least_squares(np.eye(2), np.ones((3, 1)))
    with pytest.raises(ValueError, match="^Y contains non-finite"):
        _targets(bad, 2)
    with pytest.raises(ValueError, match=r"^Z is too large in scale for float64 \(its singular "
                                         r"values overflow\); rescale Z$"):
        least_squares(np.full((2, 2), 1e200), np.ones((2, 1)))
    with pytest.raises(ValueError, match=r"^a 1-D Y must hold non-negative integer labels \(they "
                                         r"are one-hot encoded\); pass an \(n, c\) float matrix "
                                         r"otherwise$"):
        _targets(np.array([0.5, 1.0]), 2)
    from ngc_ref import NeumannFilter
    with pytest.raises(TypeError, match=r"^method='dense' needs an ndarray Z; use 'svds' or "
                                        r"'power' for a LinearOperator$"):
        lipschitz_constant(NeumannFilter(nx.path_graph(3), 1.0, 1), method="dense")
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    with pytest.raises(ValueError, match=r"^Z = Ã_S \(X_clean \+ eta\) = 0, so L = 0 and f is "
                                         r"constant: there is no step size 1/L; pass alpha= "
                                         r"explicitly or nonzero X_clean$"):
        theory_trajectory(G, np.zeros_like(Xs), np.zeros_like(eta), Y, 1.0, 2, steps=1, tau=1.0)
    # The one-hot matrix must fit the memory budget: 8·n·c bytes, named in the message.
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(8 * 4 * 3))
    assert _targets(np.array([0, 2, 1, 2]), 4).shape == (4, 3)
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", str(8 * 4 * 3 - 1))
    with pytest.raises(ValueError, match=r"^one-hot encoding the labels Y would need .*\(an 4 x 3 "
                                         r"float64 matrix for the largest label 2\).*; pass Y as "
                                         r"an \(n, c\) float matrix, or relabel the classes 0 \.\. "
                                         r"c-1\."):
        _targets(np.array([0, 2, 1, 2]), 4)


def test_step_size_warning_threshold_and_text():
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    L = theory_trajectory(G, Xs, eta, Y, 1.0, 2, steps=0, tau=1.0).L
    import warnings as w
    with w.catch_warnings():
        w.simplefilter("error")
        # 1/L itself and 1/L within the 1e-12 slack do not warn.
        theory_trajectory(G, Xs, eta, Y, 1.0, 2, steps=0, tau=1.0, alpha=1.0 / L)
        theory_trajectory(G, Xs, eta, Y, 1.0, 2, steps=0, tau=1.0, alpha=(1.0 / L) * (1 + 5e-13))
    for alpha in ((1.0 / L) * (1 + 1e-11), 1.5 / L):
        with pytest.warns(UserWarning, match=rf"^alpha={alpha:.3g} exceeds 1/L={1.0 / L:.3g}; "
                                             rf"Theorem 1 assumes alpha <= 1/L$") as rec:
            theory_trajectory(G, Xs, eta, Y, 1.0, 2, steps=0, tau=1.0, alpha=alpha)
        assert rec[0].category is UserWarning and _from_this_file(rec[0])


def _from_this_file(w):
    # The warning names the caller's line; under mutmut its trampoline adds a frame.
    return w.filename == __file__ or "mutmut" in w.filename


def test_lipschitz_seeded_runs_repeat_and_methods_report_themselves(monkeypatch):
    import importlib
    ls_mod = importlib.import_module("ngc_ref.training.least_squares")
    Z = np.random.default_rng(9).standard_normal((9, 4))
    for method in ("svds", "power"):
        a = lipschitz_constant(Z, method=method, seed=3, return_info=True)
        b = lipschitz_constant(Z, method=method, seed=3, return_info=True)
        assert a == b and a[1]["method"] == method      # same inputs, same process: bitwise
    assert lipschitz_constant(Z, method="svds", return_info=True)[1]["iterations"] is None
    monkeypatch.setattr(ls_mod, "AUTO_DENSE_MAX_ENTRIES", Z.size)
    assert lipschitz_constant(Z, return_info=True)[1]["method"] == "dense"
    monkeypatch.setattr(ls_mod, "AUTO_DENSE_MAX_ENTRIES", Z.size - 1)
    assert lipschitz_constant(Z, seed=0, return_info=True)[1]["method"] == "svds"


def test_svds_starts_from_the_vector_the_seed_draws(monkeypatch):
    # "seed: the start vector of svds": ARPACK's answer at tol=0 hardly depends on v0, so a
    # repeat-the-seed test can pass by luck; check the start vector itself.
    import scipy.sparse.linalg as spla
    from ngc_ref._validation import as_generator
    starts, svds = [], spla.svds

    def spy(*args, **kw):
        starts.append(kw.get("v0"))
        return svds(*args, **kw)

    monkeypatch.setattr(spla, "svds", spy)
    Z = np.random.default_rng(9).standard_normal((9, 4))
    for seed in (3, 4):
        lipschitz_constant(Z, method="svds", seed=seed)
        assert_allclose(starts[-1], as_generator(seed).standard_normal(4), rtol=0, atol=0)
    assert not np.array_equal(starts[0], starts[1])


def test_power_iteration_steps_exactly_as_written():
    # maxiter = 3 iterations of v ← ZᵀZv/‖ZᵀZv‖ from the seeded start: the Rayleigh quotient.
    from ngc_ref._validation import as_generator
    Z = np.diag([1.0, 0.999, 0.5])
    v = as_generator(0).standard_normal(3)
    v /= np.linalg.norm(v)
    for _ in range(3):
        w = Z.T @ (Z @ v)
        lam = float(v @ w)
        v = w / np.linalg.norm(w)
    from ngc_ref.solve import ConvergenceWarning
    with pytest.warns(ConvergenceWarning):
        L = lipschitz_constant(Z, method="power", seed=0, maxiter=3)
    assert L == pytest.approx(2 * lam, rel=1e-13)


def test_trajectory_inputs_name_themselves_and_zero_features():
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    kw = dict(lam=1.0, S=2, steps=3, tau=1.0)
    nan = np.full_like(Xs, np.nan)
    for args, msg in [((nan, eta, Y), "^X_clean contains non-finite"),
                      ((Xs, nan, Y), "^eta contains non-finite"),
                      ((Xs[:5], eta, Y), "^X_clean must have one row per node: expected 12"),
                      ((Xs, eta[:5], Y), "^eta must have one row per node: expected 12"),
                      ((Xs, eta, np.zeros(5, dtype=int)), "^Y must have one row per node"),
                      ((Xs, eta, Y[:5]), "^Y must have one row per node: expected 12")]:
        with pytest.raises(ValueError, match=msg):
            theory_trajectory(G, *args, **kw)
    with pytest.raises(ValueError, match="^W0 must have one row per node: expected 2"):
        theory_trajectory(G, Xs, eta, Y, W0=np.zeros((3, 2)), **kw)
    # Z = 0 with a given step: L = 0, no warning, and with tol the zero gradient at W⁰ stops
    # the descent before the first step.
    zero = np.zeros_like(Xs)
    tr = theory_trajectory(G, zero, zero, Y, alpha=0.1, tol=0.5, **kw)
    assert tr.L == 0.0 and tr.converged is True and tr.n_steps == 0
    tr = theory_trajectory(G, zero, zero, Y, alpha=0.1, **kw)
    assert tr.converged is False and tr.n_steps == 3
    # L < 1: a step above 1/L still warns.
    small = theory_trajectory(G, 1e-3 * Xs, 1e-3 * eta, Y, **{**kw, "steps": 0})
    assert small.L < 1
    with pytest.warns(UserWarning, match="exceeds 1/L"):
        theory_trajectory(G, 1e-3 * Xs, 1e-3 * eta, Y, alpha=2.0 / small.L, **{**kw, "steps": 0})


def test_descent_bound_slack_is_rtol_times_max_abs_f_at_least_one():
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    tr = theory_trajectory(G, Xs, eta, Y, lam=1.0, S=2, steps=4, tau=1.0)
    tr.f_gap_at_Wg = tr.opt_term.copy()
    tr.f_gap_at_Wg[0] = 0.0
    rtol = 1e-10
    tr.f = np.full_like(tr.f, 100.0)                 # slack rtol·100
    tr.f_gap_at_Wg[2] = tr.opt_term[2] + rtol * 100.0  # exactly on the slack: holds
    assert tr.descent_bound_holds(rtol)
    tr.f_gap_at_Wg[2] = tr.opt_term[2] + 3 * rtol * 100.0
    assert not tr.descent_bound_holds(rtol)
    tr.f = np.full_like(tr.f, 0.5)                   # slack rtol·1, not rtol·0.5 or rtol·2
    tr.f_gap_at_Wg[2] = tr.opt_term[2] + 0.9 * rtol
    assert tr.descent_bound_holds(rtol)
    tr.f_gap_at_Wg[2] = tr.opt_term[2] + 1.5 * rtol
    assert not tr.descent_bound_holds(rtol)


def test_targets_checks_the_rows_of_a_matrix():
    with pytest.raises(ValueError, match="^Y must have one row per node: expected 4"):
        _targets(np.ones((3, 2)), 4)


# --- the mutation pass after fb418bb (theory_trajectory mutated for the first time) ---------

@pytest.mark.parametrize("c", [1.0, 0.5, 2.0])
def test_power_iteration_on_one_column_stops_at_the_first_comparison(c):
    # For a 1 x 1 Z = [c] every unit start vector is ±1, so the Rayleigh quotient is c² from the
    # first iteration on; the change is exactly 0 at the second, where it stops even at rtol=0.
    for rtol in (1e-12, 0.0):
        L, info = lipschitz_constant(np.array([[c]]), method="power", seed=0, rtol=rtol,
                                     return_info=True)
        assert L == pytest.approx(2 * c * c, rel=1e-15) and info["iterations"] == 2


def test_power_iteration_criterion_is_relative():
    # "until the Rayleigh quotient changes by at most rtol relatively": scaling Z by 2^10
    # (exact in floating point) scales every quotient by 2^20 and changes no iteration count.
    Z = np.random.default_rng(4).standard_normal((6, 4))
    L1, i1 = lipschitz_constant(Z, method="power", seed=0, return_info=True)
    L2, i2 = lipschitz_constant(1024.0 * Z, method="power", seed=0, return_info=True)
    assert i1["iterations"] == i2["iterations"] < 10_000
    assert L2 == pytest.approx(2.0 ** 20 * L1, rel=1e-14)
    assert L1 == pytest.approx(2 * np.linalg.svd(Z, compute_uv=False)[0] ** 2, rel=1e-10)


def test_trajectory_defaults_weights_nodelist_and_steps():
    # A weighted graph in a node order other than the labels': Z = Ã_S X, Ã_S from the dense
    # weighted adjacency in nodelist order (weight="weight" by default), 1000 steps by default.
    G = nx.Graph()
    G.add_weighted_edges_from([(2, 0, 3.0), (0, 1, 0.5), (1, 3, 2.0), (3, 2, 1.0)])
    order = [3, 1, 0, 2]
    rng = np.random.default_rng(7)
    Xs, eta, Y = rng.standard_normal((4, 2)), 0.1 * rng.standard_normal((4, 2)), rng.random((4, 1))
    tr = theory_trajectory(G, Xs, eta, Y, 2.0, 3, tau=1.0, nodelist=order)
    from . import _reference as ref
    A = nx.to_numpy_array(G, nodelist=order, weight="weight")
    Z = ref.neumann(A, 2.0, 3, "rw") @ (Xs + eta)
    assert tr.L == pytest.approx(2 * np.linalg.svd(Z, compute_uv=False)[0] ** 2, rel=1e-12)
    assert tr.n_steps == 1000 and tr.k[-1] == 1000 and not tr.converged
    assert tr.f[0] == pytest.approx(float(np.sum(Y * Y)), rel=1e-14)
    W = np.zeros((2, 1))
    for _ in range(3):
        W = W - tr.alpha * 2 * Z.T @ (Z @ W - Y)
    assert tr.f[3] == pytest.approx(float(np.sum((Z @ W - Y) ** 2)), rel=1e-10)
    # The closed form of g's minimiser on Z* and its rank: Z* has full column rank 2.
    Zs = ref.neumann(nx.to_numpy_array(G, nodelist=order), 2.0, 3, "rw") @ Xs
    assert tr.lstsq_g.rank == 2
    assert_allclose(tr.W_g_star, np.linalg.lstsq(Zs, Y, rcond=None)[0], rtol=1e-9)
    # weight=None: every edge counts 1 (for Ã_S, and for τ when it is computed).
    tr1 = theory_trajectory(G, Xs, eta, Y, 2.0, 3, steps=0, nodelist=order, weight=None)
    A1 = nx.to_numpy_array(G, nodelist=order, weight=None)
    Z1 = ref.neumann(A1, 2.0, 3, "rw") @ (Xs + eta)
    assert tr1.L == pytest.approx(2 * np.linalg.svd(Z1, compute_uv=False)[0] ** 2, rel=1e-12)
    assert tr1.tau == pytest.approx(ref.tau_i(A1, 2.0, 3, "rw").max(), rel=1e-12)


def test_trajectory_seed_drives_the_lipschitz_start_vector():
    # lipschitz_method="power" starts from a vector drawn from seed: one seed, one L
    # (bitwise: same function, same inputs, same process); the method is the one asked for.
    G, Xs, eta, Y = _problem(n=12, d=3, c=2, seed=5)
    a, b = (theory_trajectory(G, Xs, eta, Y, 1.0, 2, steps=0, tau=1.0, seed=3,
                              lipschitz_method="power") for _ in range(2))
    assert a.L == b.L and a.settings["lipschitz"]["method"] == "power"
    assert a.settings["lipschitz"]["iterations"] is not None


def test_trajectory_stops_at_tol_zero_when_the_gradient_vanishes_and_two_node_noise_term():
    # S = 0, λ = 1: Ã_0 = I/2, so Z = (2I)/2 = I, L = 2, α = 1/2 and one step lands exactly on
    # W = Y, where the gradient is exactly 0 <= tol·‖∇⁰‖ with tol = 0. n = 2: τ log 2 / 2.
    Y = np.array([[1.0, -2.0], [0.5, 3.0]])
    tr = theory_trajectory(nx.path_graph(2), 2.0 * np.eye(2), np.zeros((2, 2)), Y, 1.0, 0,
                           steps=10, tol=0.0, tau=1.0)
    assert tr.L == 2.0 and tr.alpha == 0.5
    assert tr.converged and tr.n_steps == 1 and tr.grad_norm[1] == 0.0
    assert_allclose(tr.W, Y)
    assert tr.noise_term == pytest.approx(math.log(2) / 2, rel=1e-15)


def test_trajectory_inputs_are_checked_and_converted():
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    kw = dict(lam=1.0, S=2, steps=3, tau=1.0)
    with pytest.raises(ValueError, match="Y"):
        theory_trajectory(G, Xs, eta, Y[:-1], **kw)
    # A float32 or integer W0 is read as float64: the same trajectory as the float64 W0.
    W0 = np.array([[1, -2], [3, 0]])
    want = theory_trajectory(G, Xs, eta, Y, W0=W0.astype(np.float64), **kw)
    for given in (W0, W0.astype(np.float32)):
        tr = theory_trajectory(G, Xs, eta, Y, W0=given, **{**kw, "steps": 0})
        assert tr.W.dtype == np.float64 and tr.f[0] == want.f[0]
    # alpha exactly at the documented 1e-12 relative slack does not warn.
    L = want.L
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        theory_trajectory(G, Xs, eta, Y, alpha=1.0 / L * (1 + 1e-12), **kw)


def test_trajectory_overflow_messages():
    # Z = Ã_S X with X ~ 1e-310: L = 0 is fine with a given α, but W_g* overflows in the
    # least-squares solve, whose message then names the trajectory's inputs.
    with pytest.raises(ValueError, match=r"solution overflows.*with Z = Ã_S \(X_clean \+ eta\): "
                                         r"rescale X_clean and eta \(or Y\) by a common factor"):
        theory_trajectory(nx.path_graph(2), np.full((2, 1), 1e-310), np.zeros((2, 1)), np.eye(2),
                          1.0, 0, norm="sym", steps=2, tau=1.0, alpha=1.0)
    # The too-small message reports max|Ã_S X_clean| itself (here X/2 with S = 0, λ = 1).
    x = 2.2250738585072014e-308
    with pytest.raises(ValueError, match=rf"max\|Ã_S X_clean\| = {x / 2:.3g} makes"):
        theory_trajectory(nx.path_graph(2), np.full((2, 1), x), np.ones((2, 1)), np.eye(2), 1.0,
                          0, norm="sym", steps=5, tau=1.0)
    # f(W_g*) = ‖Z W_g* − Y‖² overflows (W_g* ~ 1e10 from X* ~ 1e-10, Z ~ 1e150 from η) while
    # ‖W_g*‖² does not: refused too, instead of a trajectory with f − f(W_g*) = −inf.
    G, Xs, eta, Y = _problem(n=12, d=2, c=2, seed=5)
    with pytest.raises(ValueError, match="X_clean is too small in scale"):
        theory_trajectory(G, 1e-10 * Xs, 1e150 * eta, Y, 1.0, 2, steps=2, tau=1.0)


@pytest.mark.parametrize("l2, w0, step", [(0.1, 0.25e154, 2), (1.0, 1e153, 2), (0.1, 2.5e154, 0)])
def test_divergence_is_reported_at_the_first_non_finite_step(l2, w0, step):
    # Z ≈ 0 (X* ~ 1e-100) and Y = 0: the objective is l2‖W‖², the gradient 2·l2·W, L = 2·l2, and
    # α = 3/L doubles ‖W‖ at every step: W_k = (−2)^k W⁰. The step named is the first k where
    # a recorded value is not finite: the objective (‖W_k‖² or l2‖W_k‖² above the float64
    # maximum) or ‖∇‖ (its square (2·l2‖W_k‖)² above it). l2 = 0.1: the objective first (at
    # k = 2; at k = 0 for the larger W⁰, the W⁰ message); l2 = 1: the gradient first (k = 2).
    G = nx.path_graph(3)
    Xs = 1e-100 * np.arange(1.0, 7.0).reshape(3, 2)
    W0 = np.full((2, 2), w0)
    big = float(np.finfo(np.float64).max)
    norms = [2.0 * w0 * 2.0 ** k for k in range(6)]   # ‖W_k‖ (2 x 2, all w0), Python floats

    def objective_inf(w):
        return w * w > big or l2 * w * w > big

    def gradient_inf(w):
        g = 2 * l2 * w
        return g * g > big

    first = next(k for k, w in enumerate(norms) if objective_inf(w) or gradient_inf(w))
    assert first == step
    assert objective_inf(norms[step]) != gradient_inf(norms[step])   # only one of the two
    L = 2 * l2
    match = (rf"diverged at step {step} .*alpha <= 1/L = {1.0 / L:.3g}$" if step else
             "the objective or its gradient at W0 overflows")
    with pytest.raises(ValueError, match=match), pytest.warns(UserWarning, match="exceeds 1/L"):
        theory_trajectory(G, Xs, np.zeros((3, 2)), np.zeros((3, 2)), 1.0, 1, steps=5, tau=1.0,
                          l2=l2, W0=W0, alpha=3.0 / L)


def test_least_squares_cutoff_with_ridge_rank_of_zero_and_overflowing_residual():
    # Singular values (1, 0.5, 1e-15) with n = 60: the cutoff 60·eps·σ_max ≈ 1.3e-14 drops the
    # last direction from W, with a negligible ridge too (LAPACK's own cutoff, eps, would keep
    # it and add a component of size 1e15). Reference: the truncated SVD solution.
    rng = np.random.default_rng(2)
    Z, U, V = _with_singular_values(rng, 60, [1.0, 0.5, 1e-15])
    Y = rng.standard_normal((60, 2))
    want = V[:, :2] @ np.diag([1.0, 2.0]) @ U[:, :2].T @ Y
    for l2 in (0.0, 1e-40):
        res = least_squares(Z, Y, l2=l2)
        assert res.rank == 2
        assert_allclose(res.W, want, rtol=1e-8, atol=1e-8)
    # Z = 0 has rank 0 (no singular value above 0·cutoff).
    assert least_squares(np.zeros((3, 2)), np.ones((3, 1))).rank == 0
    # Y ~ 1e200 with a residual: W ~ 1e200 is finite but ‖ZW − Y‖² is not.
    with pytest.raises(ValueError, match="solution overflows"):
        least_squares(np.array([[1.0], [1.0]]), np.array([[1e200], [-1e200]]))
    # W overflows where Z has zero entries: 0·inf inside Z @ W is no warning, a ValueError.
    with pytest.raises(ValueError, match="solution overflows"):
        least_squares(np.array([[1e-310, 0.0], [0.0, 1e-310]]), np.eye(2))


def test_lipschitz_svds_to_machine_precision_maxiter_and_failures():
    # svds runs with tol=0 (machine precision): on a 200 x 100 Gaussian matrix ARPACK's looser
    # tolerances are off by ~1e-9 relatively.
    Z = np.random.default_rng(0).standard_normal((200, 100))
    L = lipschitz_constant(Z, method="svds", seed=0)
    assert L == pytest.approx(2 * np.linalg.svd(Z, compute_uv=False)[0] ** 2, rel=1e-12)
    # maxiter reaches ARPACK: one iteration is not enough, and the failure is a ValueError.
    with pytest.raises(ValueError, match=r"^svds failed on Z \(.*\); check that Z is finite, or "
                                         r"use method='power'$"):
        lipschitz_constant(Z, method="svds", seed=0, maxiter=1)
    # An operator that returns NaN: svds fails the same way; the power iteration never meets
    # its rtol, warns after its default 10 000 iterations and refuses the NaN L.
    from scipy.sparse.linalg import LinearOperator
    from ngc_ref.solve import ConvergenceWarning
    nan = LinearOperator((5, 3), matvec=lambda v: np.full(5, np.nan),
                         rmatvec=lambda v: np.full(3, np.nan), dtype=np.float64)
    with pytest.raises(ValueError, match="^svds failed on Z"):
        lipschitz_constant(nan, method="svds", seed=0)
    with pytest.raises(ValueError, match="is not finite"), \
            pytest.warns(ConvergenceWarning, match="in 10000 iterations$"):
        lipschitz_constant(nan, method="power", seed=0)


@pytest.mark.filterwarnings("ignore:power iteration did not reach")   # NaN from inf/inf
def test_lipschitz_overflow_is_a_value_error_not_a_runtime_warning():
    # "Overflow shows as a non-finite L, refused": the power iteration on ZᵀZ of a Z ~ 1e200
    # overflows (and divides inf by inf) without RuntimeWarnings (errors in this suite).
    Z = 1e200 * np.random.default_rng(1).standard_normal((6, 4))
    with pytest.raises(ValueError, match="is not finite"):
        lipschitz_constant(Z, method="power", seed=0)


def test_trajectory_integer_labels_and_an_objective_of_inf_minus_inf_at_W0():
    rng = np.random.default_rng(8)
    G = nx.path_graph(12)
    Xs, Y = rng.random((12, 2)), rng.random((12, 2))
    # Integer labels are one-hot encoded for the trajectory too: f(0) = ‖Y‖² = n.
    labels = np.arange(12) % 3
    tr = theory_trajectory(G, Xs, np.zeros((12, 2)), labels, 1.0, 2, steps=1, tau=1.0)
    assert tr.f[0] == 12.0 and tr.W.shape == (2, 3)
    with pytest.raises(ValueError, match="^Y must have"):
        theory_trajectory(G, Xs, np.zeros((12, 2)), Y[:-1], 1.0, 2, steps=1, tau=1.0)
    # X*, Y >= 0 and Ã_S >= 0: B = ZᵀY > 0, so at W⁰ = 1e308 both ⟨W, GW⟩ and 2⟨W, B⟩
    # overflow to +inf and f(W⁰) is inf − inf: a ValueError, not a RuntimeWarning.
    with pytest.raises(ValueError, match="the objective or its gradient at W0 overflows"):
        theory_trajectory(G, Xs, np.zeros((12, 2)), Y, 1.0, 2, steps=1, tau=1.0,
                          W0=np.full((2, 2), 1e308))
