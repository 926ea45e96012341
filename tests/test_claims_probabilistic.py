"""Tests of the probabilistic theory checks: the Hoeffding tail behind Lemma 1, and for every
check a case whose answer is known by construction (so each check is shown able to hold and to
fail)."""

import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from ngc_ref import NeumannFilter, connectivity_factor, normalized_adjacency, series_mass
from ngc_ref.strategies import adjacency_matrices, norms
from ngc_ref_theory import Context
from ngc_ref_theory.claims import (assumption_2, depth_denoising, lemma_1, rngc_approximation,
                                   rngc_convergence, row_normalization)
from ngc_ref_theory.kit.stats import (NOISES, bound_verdict, clopper_pearson, pyg_row_normalize,
                                      sub_gaussian_noise)

from . import _reference as ref

# ---------------------------------------------------------------------------------------------
# (a) The per-entry Hoeffding bound used in the proof of Lemma 1.

TRIALS = 3000
#: One-sided confidence for "the measured tail is above the bound": strict, so that the many
#: (example, row, t) comparisons of one run do not raise a false alarm by chance.
TAIL_CONF = 1 - 1e-7


@given(A=adjacency_matrices(min_nodes=1, max_nodes=8), norm=norms(),
       lam=st.sampled_from([0.5, 4.0, 32.0]), S=st.integers(0, 20),
       noise=st.sampled_from(NOISES), sigma=st.sampled_from([0.3, 1.0, 2.5]),
       seed=st.integers(0, 2**32 - 1))
def test_hoeffding_tail_of_aggregated_noise(A, norm, lam, S, noise, sigma, seed):
    """P(|[Ã_Sη]_ij| ≥ t) ≤ 2exp(−t²/(2σ²ρ_i)), ρ_i = Σ_p [Ã_S]_ip², for t = k·σ√ρ_i."""
    rng = np.random.default_rng(seed)      # from the drawn seed: no hidden global randomness
    filt = NeumannFilter(A, lam, S, norm=norm)
    # ρ_i from an independent dense Ã_S (explicit matrix powers): Hoeffding holds for any
    # linear map, so ρ_i and Z taken from the same (possibly wrong) filter would always agree.
    rho = (ref.neumann(A, lam, S, norm) ** 2).sum(axis=1)
    assert_allclose((filt.matrix() ** 2).sum(axis=1), rho, rtol=1e-9)
    eta = sub_gaussian_noise(rng, noise, (filt.n, TRIALS), sigma)
    Z = filt @ eta                         # row i: TRIALS i.i.d. copies of [Ã_Sη]_i0
    for i in range(filt.n):
        for k in (1.0, 2.0, 3.0):
            t = k * sigma * math.sqrt(rho[i])
            bound = 2 * math.exp(-t**2 / (2 * sigma**2 * rho[i]))
            hits = int((np.abs(Z[i]) >= t * (1 - 1e-12)).sum())
            lo = clopper_pearson(hits, TRIALS, conf=1 - 2 * (1 - TAIL_CONF))[0]
            assert lo <= bound, (i, k, hits, bound)


def test_clopper_pearson_and_bound_verdict():
    lo, hi = clopper_pearson(0, 100)
    assert lo == 0.0 and abs(hi - (1 - 0.025 ** (1 / 100))) < 1e-12
    assert bound_verdict(100, 100, 0.1)[0] == "fails"
    assert bound_verdict(0, 1000, 0.1)[0] == "holds"
    assert bound_verdict(10, 100, 0.1)[0] == "inconclusive"


@pytest.mark.parametrize("noise", NOISES)
def test_noises_have_unit_variance(noise):
    x = sub_gaussian_noise(np.random.default_rng(0), noise, 200_000, 2.0)
    assert abs(x.mean()) < 0.02 and abs(x.std() - 2.0) < 0.02


# ---------------------------------------------------------------------------------------------
# (b) Known-by-construction cases for every check.

def _ring(n):
    return nx.to_scipy_sparse_array(nx.cycle_graph(n), format="csr", dtype=float)


@pytest.mark.parametrize("scale, expected", [(1.0, "holds"), (0.01, "fails")])
def test_lemma1_max_entry_bound_holds_and_planted_small_bound_fails(scale, expected):
    A = _ring(60)
    lam, S, d, trials = 32.0, 16, 8, 200
    filt = NeumannFilter(A, lam, S, norm="rw")
    tau = connectivity_factor(A, lam, S, norm="rw").tau
    _, max2 = lemma_1.simulate(filt, "gaussian", 1.0, d, trials, np.random.default_rng(1))
    b = scale * lemma_1.max_entry_bound(tau, lam, S, 1.0, 60, d)
    rows = [{"exceed": int((max2 > b).sum()), "trials": trials, "d": d, "n": 60}]
    assert lemma_1.judge(rows, "exceed")[0] == expected


def test_lemma1_expectation_identity_and_paper_bound_below_mean():
    # E‖Ã_Sη‖_F² = σ²d Σρ_i, and the paper's bound equals 2σ² max ρ_i (4 log n + log 2d).
    A = _ring(40)
    filt = NeumannFilter(A, 32.0, 16, norm="sym")
    conn = connectivity_factor(A, 32.0, 16, norm="sym")
    fro2, _ = lemma_1.simulate(filt, "rademacher", 1.0, 4, 4000, np.random.default_rng(2))
    expect = 4 * conn.row_square_sums.sum()
    assert abs(fro2.mean() / expect - 1) < 0.03
    b = lemma_1.paper_bound(conn.tau, 32.0, 16, 1.0, 40, 4)
    assert math.isclose(b, 2 * conn.row_square_sums.max() * (4 * math.log(40) + math.log(8)))


def test_assumption2_floor_is_exact_for_isolated_nodes_and_judges():
    lam, S = 32.0, 16
    res = connectivity_factor(sp.csr_array((5, 5)), lam, S)
    assert math.isclose(res.tau / 5, 1.0)                       # isolated: τ = n
    # Complete graph: every τ_i ≥ n/((λ+1)m)² (the universal floor) — identity-level check.
    res = connectivity_factor(nx.complete_graph(30), lam, S)
    assert res.tau_i.min() >= 30 * assumption_2.floor_tau_over_n(lam, S) * (1 - 1e-12)
    floor = assumption_2.floor_tau_over_n(lam, S)
    assert assumption_2.judge_fixed([{"tau_over_n": 2 * floor}], floor)[0] == "fails"
    assert assumption_2.judge_fixed([{"tau_over_n": floor / 2}], floor)[0] == "inconclusive"
    ns = [100, 200, 400, 800]
    decay = [{"n": n, "tau_over_n": n ** -0.5, "isolated_nodes": 0} for n in ns]
    flat = [{"n": n, "tau_over_n": 0.3, "isolated_nodes": 0} for n in ns]
    iso = [{"n": n, "tau_over_n": 1.0, "isolated_nodes": 3} for n in ns]
    assert assumption_2.judge_grown(decay)[0] == "holds"
    assert assumption_2.judge_grown(flat)[0] == "fails"
    assert assumption_2.judge_grown(iso)[0] == "fails"


def test_assumption2_growing_lambda_restores_complete_but_not_isolated():
    ctx = Context(seed=0)
    rows = assumption_2.tau_series("complete", (50, 100, 200, 400), "rw", ctx,
                                   assumption_2.grown_lam_S)
    assert assumption_2.judge_grown(rows)[0] == "holds"
    rows = assumption_2.tau_series("er_avgdeg_3", (100, 200, 400, 800), "rw", ctx,
                                   assumption_2.grown_lam_S)
    # fixed seeds: the sparse ER graphs of seed 0 have isolated nodes
    assert rows[-1]["isolated_nodes"] > 0 and assumption_2.judge_grown(rows)[0] == "fails"


def test_depth_sequences_known_cases():
    A = sp.csr_array((4, 4))        # isolated nodes: Ã_S = m I exactly
    fro2, tau, mass = depth_denoising.energy_sequences(A, 2.0, 10, "sym")
    assert np.allclose(fro2, 4 * mass**2)                       # raw energy rises with S
    assert depth_denoising.first_rise(fro2) == 1
    assert depth_denoising.first_rise(fro2 / mass**2) is None   # normalised: constant n
    assert np.allclose(tau, 4.0)
    assert depth_denoising.first_rise(np.array([3.0, 2.0, 2.0, 1.0])) is None
    assert depth_denoising.first_rise(np.array([3.0, 2.0, 2.5])) == 2


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_depth_convergence_bound_holds_and_planted_small_bound_fails(norm):
    A = nx.to_scipy_sparse_array(nx.barbell_graph(4, 2), format="csr", dtype=float)
    eta = np.random.default_rng(3).standard_normal((A.shape[0], 3))
    (ratio, _), gap, _ = depth_denoising.convergence_check(A, 4.0, norm, eta, [0, 2, 8, 200])
    assert ratio <= 1.0 and gap < 1e-10
    (ratio, _), _, _ = depth_denoising.convergence_check(A, 4.0, norm, eta, [0, 2, 8],
                                                         bound_scale=0.01)
    assert ratio > 1.0


def test_rngc_approximation_exact_at_tiny_eps_and_judge():
    A = _ring(20)
    X = np.random.default_rng(4).random((20, 3))
    rows = rngc_approximation.error_curve(A, X, 32.0, "sym", [1e-9, 3.0])
    assert rows[0]["converged"] and rows[0]["rel_error"] < 1e-6       # F ≈ X is exact at ε → 0
    assert rows[1]["rel_error"] > 1e-3
    ok = {"c": [{"eps": 0.5, "rel_error": 0.01, "converged": True}]}
    bad = {"c": [{"eps": 0.5, "rel_error": 0.5, "converged": True}]}
    unc = {"c": [{"eps": 0.5, "rel_error": 0.01, "converged": False}]}
    assert rngc_approximation.judge(ok)[0] == "holds"
    assert rngc_approximation.judge(bad)[0] == "fails"
    assert rngc_approximation.judge(unc)[0] == "inconclusive"


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_rngc_spectral_radius_matches_dense(norm):
    G = nx.barabasi_albert_graph(60, 2, seed=5)
    A = nx.to_scipy_sparse_array(G, format="csr", dtype=float)
    X = np.random.default_rng(5).random((60, 4))
    An = normalized_adjacency(A, norm=norm)
    for eps in (0.0, 0.5, 3.0):
        P = X @ X.T / np.linalg.norm(X @ X.T)
        dense = np.abs(np.linalg.eigvals(An.toarray() - eps * P)).max()
        rho = rngc_convergence.spectral_radius(An, X, eps, norm, rng=np.random.default_rng(0))
        assert abs(rho - dense) < 1e-7


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_rngc_radius_bracket_contains_dense_spectral_radius(norm):
    # A disconnected graph (repeated eigenvalue 1, the case that stalls ARPACK) and a
    # connected one; the bracket must contain the dense ρ whatever ARPACK manages.
    G = nx.disjoint_union_all([nx.path_graph(3)] * 10 + [nx.barabasi_albert_graph(40, 2, seed=1)])
    A = nx.to_scipy_sparse_array(G, format="csr", dtype=float)
    n = A.shape[0]
    X = np.random.default_rng(2).random((n, 5))
    An = normalized_adjacency(A, norm=norm)
    P = X @ X.T / np.linalg.norm(X @ X.T)
    two, inf = rngc_convergence.p_norms(X)
    for eps in (0.0, 1e-3, 0.5, 3.0):
        dense = np.abs(np.linalg.eigvals(An.toarray() - eps * P)).max()
        lo, hi, how = rngc_convergence.radius_bracket(
            An, X, eps, norm, p_norm=two if norm == "sym" else inf, r_max=0.999,
            rng=np.random.default_rng(0))
        assert lo - 1e-7 <= dense <= hi + 1e-7, (eps, lo, dense, hi, how)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_rngc_planted_bipartite_diverges_exactly_where_predicted(norm):
    a, lam = 20, 1024.0
    A = nx.to_scipy_sparse_array(nx.complete_bipartite_graph(a, a), format="csr", dtype=float)
    X = np.zeros((2 * a, 2))
    X[:a, 0] = X[a:, 1] = 1.0
    An = normalized_adjacency(A, norm=norm)
    r = lam / (lam + 1)
    for eps, verdict in ((1.0, "fails"), (1e-5, "holds")):
        rho = r * rngc_convergence.spectral_radius(An, X, eps, norm)
        # K_{a,a} (regular, so rw = sym): P acts as 1/√2 on both 1 and 1_A − 1_B, where Ã has
        # eigenvalues 1 and −1 + 2/(a+1); elsewhere Ã has 1/(a+1) and P is 0.
        expect = r * max(1 - eps / math.sqrt(2), 1 - 2 / (a + 1) + eps / math.sqrt(2),
                         1 / (a + 1))
        assert abs(rho - expect) < 1e-7
        assert rngc_convergence.judge([{"rho": rho}])[0] == verdict


def test_row_normalization_pyg_semantics_and_planted_rescaling():
    X = np.array([[2.0, 2.0], [0.25, 0.25], [-3.0, 1.0]])
    assert np.allclose(pyg_row_normalize(X), [[0.5, 0.5], [0.25, 0.25], [-3.0, 1.0]])
    rng = np.random.default_rng(6)
    y = np.repeat([0, 1], 30)
    A = _ring(60)
    Xs = (rng.random((60, 40)) < 0.2).astype(float)
    eta = rng.standard_normal(Xs.shape)
    # A uniform rescaling shrinks the noise std (a) but cannot raise SNR (b) or Fisher (c).
    m = row_normalization.measure(A, Xs, y, 10.0, eta, "sym", normalize=lambda Z: Z / 10)
    assert m["noise_std_rn"] < m["noise_std_raw"]
    assert math.isclose(m["snr_rn"], m["snr_raw"])
    assert math.isclose(m["fisher_agg_rn"], m["fisher_agg_raw"])
    rows = [dict(m, xi=10.0)]
    assert row_normalization.judge(rows, lambda r: r["noise_std_rn"] < r["noise_std_raw"])[0] \
        == "holds"
    assert row_normalization.judge(rows, lambda r: r["snr_rn"] > r["snr_raw"] * (1 + 1e-9))[0] \
        == "fails"
    mixed = [dict(m, xi=1.0, draw=0, ok=True), dict(m, xi=1.0, draw=1, ok=False)]
    assert row_normalization.judge(mixed, lambda r: r["ok"])[0] == "inconclusive"


def test_series_mass_in_lemma1_bounds():
    m = series_mass(32.0, 16)
    tau, n, d = 3.0, 100, 8
    assert math.isclose(lemma_1.max_entry_bound(tau, 32.0, 16, 1.0, n, d),
                        2 * tau * m**2 * math.log(2 * n * d * d) / n)
    assert math.isclose(lemma_1.frobenius_bound(tau, 32.0, 16, 1.0, n, d),
                        n * d * lemma_1.max_entry_bound(tau, 32.0, 16, 1.0, n, d))


def test_rngc_p_norms_dense_sparse_and_signed_agree_with_dense_P():
    import scipy.sparse as sp
    rng = np.random.default_rng(3)
    for X in (rng.random((40, 6)) * (rng.random((40, 6)) < 0.3),   # non-negative: fast path
              rng.standard_normal((40, 6))):                         # signed: blockwise path
        P = X @ X.T / np.linalg.norm(X @ X.T)
        expect = (np.linalg.norm(P, 2), np.abs(P).sum(axis=1).max())
        for Xin in (X, sp.csr_array(X)):
            assert np.allclose(rngc_convergence.p_norms(Xin), expect, rtol=1e-10)
            v = rng.standard_normal(40)
            op = rngc_convergence.perturbed_operator(sp.csr_array(sp.identity(40)), Xin, 0.7)
            assert np.allclose(op @ v, v - 0.7 * P @ v, rtol=1e-10)
