"""depth-denoising's judges at their thresholds (the first rise at RISE_RTOL, (d)'s error/bound ≤ 1)
and its headline numbers against closed forms written here: ‖Ã_S‖_F² of the 200-ring at λ = 1
(50 → 70.83 from S = 0 to 1, reading (a)'s counterexample), a dense Ã_S for τ and the mass, and
(d)'s worst error/bound on isolated nodes, r/(r + 10⁻¹²) at S = 0, λ = 32 (Ã = I there, so the
bound κr^{S+1}‖(I + λL̃)⁻¹η‖ is attained)."""

import networkx as nx
import numpy as np
import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.kit.graphs import family_graph
from ngc_ref_theory.claims import depth_denoising as dd
from ._reference import neumann as _neumann   # Ã_S with explicit matrix powers

UP, DOWN = np.inf, -np.inf


def test_first_rise_at_rise_rtol():
    t = dd.RISE_RTOL
    assert t == 1e-10
    x = 0.75
    at = x * (1 + t)                                   # the threshold itself: not a rise
    assert dd.first_rise(np.array([1.0, x, at, at])) is None
    assert dd.first_rise(np.array([1.0, x, np.nextafter(at, UP), 0.0])) == 2
    assert dd.first_rise(np.array([1.0, 2.0])) == 1
    assert dd.first_rise(np.array([3.0])) is None
    bad, ratio = dd._rise(np.array([[1.0], [x], [at], [np.nextafter(at, UP) * (1 + t)]]))
    assert bad[:, 0].tolist() == [False, False, False, True]
    assert ratio[0, 0] == 1.0 and ratio[2, 0] == at / x


def test_convergence_verdict_at_one():
    assert dd.convergence_verdict(1.0, None) == "holds"
    assert dd.convergence_verdict(np.nextafter(1.0, UP), None) == "fails"
    assert dd.convergence_verdict(0.5, {"n": 2}) == "fails"



def test_energy_sequences_against_closed_forms_and_a_dense_sum():
    """Ring of 200 at λ = 1: Ã_0 = I/2 (‖·‖_F² = 50), Ã_1 = (7/12)I + A/12 (200·51/144)."""
    ring = family_graph("ring", 200, 0)
    for norm in ("sym", "rw"):
        fro2, tau, mass = dd.energy_sequences(ring, 1.0, 3, norm)
        assert fro2[0] == pytest.approx(50.0, rel=1e-14, abs=0)
        assert fro2[1] == pytest.approx(200 * 51 / 144, rel=1e-14, abs=0)
    G = nx.disjoint_union(nx.star_graph(3), nx.path_graph(3))
    A = nx.to_numpy_array(G)
    for norm in ("sym", "rw"):
        fro2, tau, mass = dd.energy_sequences(nx.to_scipy_sparse_array(G, format="csr"), 32.0, 5,
                                              norm)
        for S in range(6):
            M = _neumann(A, 32.0, S, norm)
            m = 1 - (32 / 33) ** (S + 1)
            assert mass[S] == pytest.approx(m, rel=1e-14, abs=0)
            assert fro2[S] == pytest.approx((M ** 2).sum(), rel=1e-12, abs=0)
            assert tau[S] == pytest.approx(7 * (M ** 2).sum(axis=1).max() / m ** 2, rel=1e-12,
                                           abs=0)


def test_convergence_headline_is_attained_on_isolated_nodes():
    G = {"ring-200": family_graph("ring", 200, 0),
         "isolated-5": nx.to_scipy_sparse_array(nx.empty_graph(5), format="csr", dtype=float)}
    r = dd._convergence_result(Context(seed=0), "rw", G)
    assert r.verdict == "holds"
    w = r.evidence["worst"]
    assert (w["graph"], w["lam"], w["S"], w["kappa"]) == ("isolated-5", 32.0, 0, 1.0)
    rr = 32 / 33
    assert r.evidence["worst_error_over_bound"] == pytest.approx(rr / (rr + 1e-12), rel=1e-14,
                                                                 abs=0)
    # ‖Ã^k‖_2 ≤ κ on the atlas, with equality (1) on every regular graph: the maximum is 1
    assert r.search["worst_ratio"] == pytest.approx(1.0, rel=1e-13, abs=0)


def test_convergence_check_on_a_star_against_a_dense_solve():
    """K1,3 in rw: κ = √(d̃_max/d̃_min) = √(4/2); error/bound per S from a dense Ã_S and a dense
    (I + λL̃)⁻¹η, written here."""
    A = nx.to_numpy_array(nx.star_graph(3))
    At = A + np.eye(4)
    L = np.eye(4) - At / At.sum(axis=1)[:, None]
    eta = np.random.default_rng(2).standard_normal((4, 2))
    F = np.linalg.solve(np.eye(4) + 2.0 * L, eta)
    kappa = np.sqrt(2.0)
    ours = [np.linalg.norm(_neumann(A, 2.0, S, "rw") @ eta - F)
            / ((kappa * (2 / 3) ** (S + 1) + 1e-12) * np.linalg.norm(F)) for S in (0, 1, 3)]
    (ratio, S_at), _gap, k = dd.convergence_check(nx.to_scipy_sparse_array(nx.star_graph(3)),
                                                  2.0, "rw", eta, [0, 1, 3])
    assert k == pytest.approx(kappa, rel=1e-15, abs=0)
    assert ratio == pytest.approx(max(ours), rel=1e-10, abs=0)
    assert S_at == (0, 1, 3)[int(np.argmax(ours))]
