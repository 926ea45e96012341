"""The least-squares trainer of Theorem 1: gradients, L, closed forms, GD rate and the proof's
inequality."""

import math
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


def test_least_squares_drops_directions_below_the_rank_cutoff():
    rng = np.random.default_rng(6)
    U, _ = np.linalg.qr(rng.standard_normal((20, 3)))
    V, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    Z = U @ np.diag([1.0, 0.5, 1e-15]) @ V.T      # below 20·eps, above LAPACK's eps
    Y = rng.standard_normal((20, 1))
    res = least_squares(Z, Y)
    assert res.rank == 2
    assert np.linalg.norm(res.W) < 10                # not ~1e15


def test_trajectory_refuses_clean_features_too_small_for_float64():
    A = nx.path_graph(2)
    X = np.full((2, 1), 2.2250738585072014e-308)   # the smallest normal float64
    with pytest.raises(ValueError, match="X_clean is too small in scale"):
        theory_trajectory(A, X, np.ones((2, 1)), np.eye(2), 1.0, 0, norm="sym", steps=5, tau=1.0)


@pytest.mark.parametrize("d, c", [(150, 4), (40, 15)])
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
