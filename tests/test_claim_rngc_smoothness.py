"""rngc-smoothness: the Dirichlet quotient q(H) = tr(HᵀL̃H)/‖H‖_F² of RNGC's and NGC's propagated
features, against a dense reference written here (matrix powers summed term by term, not
Horner), the constructed K2 input against exact fractions, and the verdict on the paper's data
when NGC_REF_DATA is set."""

import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from ngc_ref_theory import Context
from ngc_ref_theory.claims import rngc_smoothness as rs

from ._claims import run_claims

DATA = os.environ.get("NGC_REF_DATA")


def reference_q(A, X, lam, S, eps, norm):
    """(q of Ã_S X, q of R_S X) from dense matrices: Ã from its formula, the series as a sum of
    matrix powers, L̃ = I − Ã."""
    A = np.asarray(A, dtype=float)
    At = A + np.eye(len(A))
    d = At.sum(axis=1)
    An = At / np.sqrt(np.outer(d, d)) if norm == "sym" else At / d[:, None]
    r = lam / (lam + 1)
    G = X @ X.T
    out = []
    for e in (0.0, eps):
        T = r * (An - e * G / np.linalg.norm(G))
        R = sum(np.linalg.matrix_power(T, s) for s in range(S + 1)) / (lam + 1)
        H = R @ X
        out.append(np.trace(H.T @ (np.eye(len(A)) - An) @ H) / np.sum(H * H))
    return out


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("dense_max", [1000, 0])      # the dense R_S and the sparse series
def test_quotients_match_a_dense_reference(norm, dense_max, monkeypatch):
    monkeypatch.setattr(rs, "DENSE_MAX", dense_max)
    rng = np.random.default_rng(5)
    A = np.triu((rng.random((24, 24)) < 0.2).astype(float), 1)
    A = A + A.T
    X = (rng.random((24, 6)) < 0.3).astype(float)
    X[0, 0] = 1.0
    for lam, S, eps in ((32.0, 16, 1.0), (1.0, 2, 0.1), (1024.0, 16, 1.0)):
        row = rs.case_row("g", "synthetic", "test", sp.csr_array(A), sp.csr_array(X),
                          (lam, S, eps, "t"), norm, reference=True)
        q0, q1 = reference_q(A, X, lam, S, eps, norm)
        assert row["q_ngc"] == pytest.approx(q0, rel=1e-10)
        assert row["q_rngc"] == pytest.approx(q1, rel=1e-10)
        assert row["reference_rel_diff"] < 1e-12
        assert row["ratio"] == pytest.approx(q1 / q0, rel=1e-10)


def test_constructed_k2_lowers_q_exactly():
    """K2, x = (1, 0)ᵀ, λ = 1, S = 2, ε = 1e-5: RNGC's q is below NGC's, by hand in fractions."""
    k2 = rs.constructed_k2()
    assert (k2["x"], k2["lam"], k2["S"], k2["eps"]) == ([1, 0], 1.0, 2, 1e-5)
    half, r = Fraction(1, 2), Fraction(1, 2)
    eps = Fraction(1, 10**5)

    def q(e):
        # T = r(Ã − e·xxᵀ/‖x‖²) with Ã = [[1/2, 1/2], [1/2, 1/2]], x = e₀
        T = [[r * (half - e), r * half], [r * half, r * half]]
        T2 = [[sum(T[i][k] * T[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
        h = [(int(i == 0) + T[i][0] + T2[i][0]) / 2 for i in range(2)]     # R_S e₀, λ + 1 = 2
        return (h[0] - h[1]) ** 2 / 2 / (h[0] ** 2 + h[1] ** 2)           # hᵀL̃h / ‖h‖²
    assert k2["q_ngc"] == str(q(Fraction(0))) == "16/65"
    assert k2["q_rngc"] == str(q(eps)) and q(eps) < q(Fraction(0))


def test_synthetic_verdict_scope_and_a_planted_swap(monkeypatch):
    res = run_claims("rngc-smoothness")
    assert ("rngc-smoothness", "sym") not in res                 # no data folder here
    for norm in ("sym", "rw"):
        r = res["rngc-smoothness:synthetic", norm]
        assert r.scope == "extension" and r.verdict == "fails"
        assert r.counterexample["q_rngc"] > r.counterexample["q_ngc"]
        assert r.evidence["reference_max_rel_diff_vs_robust_propagate"] < 1e-12
        assert "the statement says < 1" in r.summary
    real = rs.propagate
    monkeypatch.setattr(rs, "propagate", lambda *a: real(*a)[::-1])     # NGC and RNGC swapped
    assert run_claims("rngc-smoothness")["rngc-smoothness:synthetic", "rw"].verdict == "holds"


@pytest.mark.skipif(DATA is None, reason="NGC_REF_DATA is not set")
def test_on_the_paper_data_rngc_is_less_smooth():
    ctx = Context(seed=0, data_root=Path(DATA))
    r = rs.CLAIM.run(ctx, "rw")[0]
    assert (r.id, r.scope, r.verdict) == ("rngc-smoothness", "as-stated", "fails")
    worst = r.counterexample
    assert worst["dataset"] in ("cornell", "texas") and worst["lam"] == 1024.0
    assert worst["q_rngc"] > 10 * worst["q_ngc"]
    assert "universal over the paper's own inputs" in r.evidence["quantifier"]
