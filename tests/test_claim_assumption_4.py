"""assumption-4: the smallest L of f(W) = ‖Ã_S X W − Y‖_F² is 2σ_max(Ã_S X)², checked against
closed forms written here: a regular graph with X = I (σ_max(Ã_S) = 1 − r^{S+1} for rw), the
K2 certificate by hand, and the norms of a hand-made Kronecker Hessian."""


import networkx as nx
import numpy as np
import pytest

from ngc_ref_theory.claims import assumption_4 as a4

from ._claims import run_claims


def test_regular_graph_with_identity_features_by_closed_form():
    """K4 in rw, X = I: Ã_S is symmetric with every row summing to m = 1 − r^{S+1} and
    non-negative entries, so σ_max(Ã_S) = m and L = 2m²."""
    A = nx.to_numpy_array(nx.complete_graph(4))
    Y = np.eye(2)[[0, 1, 0, 1]]
    for lam, S in ((1.0, 1), (32.0, 16), (1000.0, 8)):
        m = 1 - (lam / (lam + 1)) ** (S + 1)
        row = a4.case(4, [], A, np.eye(4), Y, lam, S, "rw")
        assert row["L_svd"] == pytest.approx(2 * m * m, rel=1e-12)
        assert row["L_frobenius"] == pytest.approx(2 * m * m, rel=1e-10)
        assert row["L_spectral"] == pytest.approx(2 * m * m, rel=1e-10)


def test_gains_of_a_kronecker_hessian():
    M = np.array([[3.0, 1.0], [1.0, 2.0]])
    L_fro, L_spec, kron = a4.smallest_L(np.kron(M, np.eye(3)), 2, 3)
    top = (5 + np.sqrt(5)) / 2                      # the larger eigenvalue of M, by hand
    assert L_fro == pytest.approx(top) and L_spec == pytest.approx(top) and kron == 0.0
    H = np.kron(M, np.eye(3))
    H[0, 1] = H[1, 0] = 0.5                         # not Δ ↦ MΔ any more
    assert a4.smallest_L(H, 2, 3)[2] > 0.1


def test_hessian_from_values_of_a_quadratic():
    Q = np.array([[2.0, 1.0, 0.0], [1.0, 4.0, -1.0], [0.0, -1.0, 6.0]])
    g = np.array([1.0, -2.0, 0.5])
    f = lambda w: 0.5 * w @ Q @ w + g @ w + 3.0            # noqa: E731
    for step in (1.0, 1e3):
        assert np.allclose(a4.hessian(lambda v: f(np.asarray(v)), 3, step=step), Q, rtol=1e-9)


def test_k2_certificate_by_hand():
    """Ã_S of K2 at λ = S = 1 is [[5, 1], [1, 5]]/8; B = Ã_S [[1, 2], [0, 1]] = [[5, 11],
    [1, 7]]/8; BᵀB = [[26, 62], [62, 170]]/64; 2λ_max = 49/16 + √2257/16."""
    k2 = a4.certify_k2()
    assert k2["hessian_is_2BtB_kron_I"] is True
    assert k2["BtB"] == [["13/32", "31/32"], ["31/32", "85/32"]]
    assert k2["L"] == "49/16 + √2257/16"
    assert float(k2["L_decimal"]) == pytest.approx((49 + 2257 ** 0.5) / 16)


def test_verdict_and_a_planted_missing_factor_two(monkeypatch):
    monkeypatch.setattr(a4, "NODES", (2, 3))       # the atlas up to 3 nodes: a few seconds less
    res = run_claims("assumption-4")
    for norm in ("sym", "rw"):
        r = res["assumption-4", norm]
        assert (r.verdict, r.scope) == ("holds", "as-stated")
        assert r.evidence["worst"]["rel_err"] < 1e-12
        assert "spectral norm" in r.evidence["norms"]
    real = a4.case

    def half(*args):                                  # L = σ_max², the factor 2 dropped
        row = real(*args)
        row["L_svd"] /= 2
        row["rel_err"] = max(abs(row["L_frobenius"] / row["L_svd"] - 1),
                             abs(row["L_spectral"] / row["L_svd"] - 1))
        return row
    monkeypatch.setattr(a4, "case", half)
    r = run_claims("assumption-4")["assumption-4", "rw"]
    assert r.verdict == "fails" and "the statement says 1" in r.summary
