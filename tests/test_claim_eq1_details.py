"""gsd-trace: the appendix's edge-sum form of tr(FᵀL̃F) holds for sym and not for rw (path-3 with
F = e_0: 1/2 against 5/12); agsd-stationarity: Eq. 11 is ∇ρ = 0 only for a symmetric L̃, and for
rw ρ can be unbounded below."""

import numpy as np
import pytest

from ngc_ref_theory.claims import eq1_details as eq

from ._claims import run_claims




def test_trace_verdicts_and_the_hand_checkable_counterexample():
    res = run_claims("gsd-trace")
    assert res["gsd-trace", "sym"].verdict == "holds"
    rw = res["gsd-trace", "rw"]
    assert rw.verdict == "fails" and rw.scope == "as-stated"
    ce = rw.counterexample
    assert ce["graph"]["edges"] == [[0, 1], [1, 2]]
    assert ce["trace"] == pytest.approx(0.5) and ce["appendix_half_double_sum"] == pytest.approx(
        5 / 12)
    assert res["gsd-trace-corrected", "rw"].verdict == "holds"
    regular = {c["graph"] for c in rw.evidence["cases"] if c["rel_diff_half_double_sum"] < 1e-10}
    assert {"ring-8", "complete-6", "isolated-5"} <= regular


def test_stationarity_verdicts():
    res = run_claims("agsd-stationarity")
    assert res["agsd-stationarity", "sym"].verdict == "holds"
    assert res["agsd-stationarity", "rw"].verdict == "fails"
    for norm in ("sym", "rw"):
        assert res["agsd-stationarity-corrected", norm].verdict == "holds"
        assert res["agsd-stationarity", norm].evidence[
            "gradient_vs_central_differences_max_rel_error"] < 1e-6
        assert res["agsd-stationarity", norm].scope == "as-stated"
    assert res["agsd-stationarity:minimum", "sym"].verdict == "holds"
    m = res["agsd-stationarity:minimum", "rw"]
    assert m.verdict == "fails"
    values = list(m.counterexample["rho_along_t_v_e1"].values())
    assert values[-1] < values[-2] < 0                       # ρ → −∞ along the direction


def test_gradient_formula_against_finite_differences():
    rng = np.random.default_rng(1)
    L = rng.standard_normal((6, 6))
    F, X, V = (rng.standard_normal((6, 2)) for _ in range(3))
    g = eq.grad_rho(F, X, L, 3.0, 0.7)
    h = 1e-6
    num = (eq.rho(F + h * V, X, L, 3.0, 0.7) - eq.rho(F - h * V, X, L, 3.0, 0.7)) / (2 * h)
    assert num == pytest.approx(float((g * V).sum()), rel=1e-6)


def test_planted_asymmetric_sym_laplacian_fails(monkeypatch):
    real = eq.dense_laplacian

    def skewed(A, norm):
        L = real(A, norm)
        L[0, -1] += 0.3                                        # no longer symmetric
        return L
    monkeypatch.setattr(eq, "dense_laplacian", skewed)
    res = run_claims("gsd-trace", "agsd-stationarity")
    assert res["gsd-trace", "sym"].verdict == "fails"
    assert res["agsd-stationarity", "sym"].verdict == "fails"
    assert res["agsd-stationarity-corrected", "sym"].verdict == "holds"


# ---------------------------------------------------------------------------------------------
# the judges at their threshold TOL = 1e-10 and the headline numbers against formulas written here

UP, DOWN = np.inf, -np.inf


def test_within_tol_and_trace_failures_at_the_threshold():
    assert eq.TOL == 1e-10
    assert eq.within_tol(1e-10) == "holds" and eq.within_tol(np.nextafter(1e-10, DOWN)) == "holds"
    assert eq.within_tol(np.nextafter(1e-10, UP)) == "fails"
    rows = [{"rel_diff_half_double_sum": x} for x in (0.0, 1e-10, np.nextafter(1e-10, UP), 0.1)]
    assert eq.trace_failures(rows) == rows[2:]


def _mrow(rank1, convex):
    return {"min_eig_rank_one_coefficient": rank1, "min_eig_I_plus_lam_Ls": convex}


def test_judge_minimum_at_the_threshold():
    t = -1e-10
    assert eq.judge_minimum([_mrow(t, t)]) == ("holds", [], [])          # −TOL itself is not below
    below = np.nextafter(t, DOWN)
    v, unb, nonc = eq.judge_minimum([_mrow(1.0, 1.0), _mrow(below, below)])
    assert (v, unb, nonc) == ("fails", [_mrow(below, below)], [_mrow(below, below)])
    v, unb, nonc = eq.judge_minimum([_mrow(t, below)])           # convexity lost, ρ bounded
    assert (v, unb, len(nonc)) == ("inconclusive", [], 1)


def _rw_laplacian(A):
    At = A + np.eye(len(A))
    return np.eye(len(A)) - At / At.sum(axis=1)[:, None]


def test_sym_path_3_and_rw_minimum_against_formulas():
    """sym: path-3 with F = e_0 gives tr(FᵀL̃F) = 1 − 1/2 = ½Σ_ij Ã_ij‖F_i/√d̃_i − F_j/√d̃_j‖²
    = 1/2. rw minimum: the smallest eigenvalue of (L̃ + L̃ᵀ)/2 of each graph (dense, here) and
    ρ(t·v e_1ᵀ) = t²(1 + λμ + λε) − 2t·1ᵀv + n along the counterexample's direction."""
    import networkx as nx

    res = run_claims("gsd-trace", "agsd-stationarity")
    p3 = next(c for c in res["gsd-trace", "sym"].evidence["cases"] if c["graph"] == "path-3")
    assert p3["trace"] == pytest.approx(0.5, rel=1e-14, abs=0)
    assert p3["half_double_sum"] == pytest.approx(0.5, rel=1e-14, abs=0)
    assert p3["edge_sum"] == pytest.approx(0.5, rel=1e-14, abs=0)
    m = res["agsd-stationarity:minimum", "rw"]
    from ngc_ref_theory.kit.graphs import small_graphs
    from ngc_ref_theory import Context
    graphs = small_graphs(Context(seed=0))
    for case in m.evidence["cases"]:
        A = nx.to_numpy_array(nx.from_scipy_sparse_array(graphs[case["graph"]]))
        L = _rw_laplacian(A)
        mu = float(np.linalg.eigvalsh((L + L.T) / 2)[0])
        assert case["min_eig_sym_part"] == pytest.approx(mu, abs=1e-12)
        lam, eps = case["lam"], case["eps"]
        assert case["min_eig_I_plus_lam_Ls"] == pytest.approx(1 + lam * mu, abs=1e-10)
        assert case["min_eig_rank_one_coefficient"] == pytest.approx(1 + lam * eps + lam * mu,
                                                                      abs=1e-10)
    ce = m.counterexample
    n, lam, eps, mu = ce["graph"]["n"], ce["lam"], ce["eps"], ce["min_eig_sym_part"]
    for t, got in zip((1.0, 10.0, 100.0), ce["rho_along_t_v_e1"].values()):
        # 1ᵀv is unknown (v's sign and direction): recover it from t = 1 and check the rest
        q = t * t * (1 + lam * mu + lam * eps) + n
        if t == 1.0:
            s = (q - got) / 2
        assert got == pytest.approx(q - 2 * t * s, rel=1e-9)
    assert abs(s) <= np.sqrt(n) + 1e-12                           # |1ᵀv| ≤ ‖1‖‖v‖
