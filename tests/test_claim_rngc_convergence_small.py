"""rngc-convergence:minimal and :two-nodes (issue 33): the exact spectral-radius test against
numpy's eigenvalues, the minimal divergent input against an independent float enumeration, the
two-node lemma against brute force, and the scope of the constructed inputs."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.exact import certificates as ex
from ngc_ref_theory.claims import _rngc_convergence_small as small
from ngc_ref_theory.claims import rngc_convergence as rc


def _dense_T(n, edges, x, lam, eps, norm):
    """r(Ã − εxxᵀ/‖x‖²) in float64, written out from the definitions (the reference)."""
    A = np.zeros((n, n))
    for u, v in edges:
        A[u, v] = A[v, u] = 1.0
    At = A + np.eye(n)
    deg = At.sum(axis=1)
    An = At / deg[:, None] if norm == "rw" else At / np.sqrt(np.outer(deg, deg))
    x = np.asarray(x, dtype=float)
    return lam / (lam + 1) * (An - eps * np.outer(x, x) / (x @ x))


def test_exact_radius_against_numpy_eigenvalues():
    rng = np.random.default_rng(3)
    for _ in range(60):
        n = int(rng.integers(1, 4))
        M = [[Fraction(int(rng.integers(-9, 10)), int(rng.integers(1, 7))) for _ in range(n)]
             for _ in range(n)]
        rho = float(np.abs(np.linalg.eigvals(np.array(M, dtype=float))).max())
        for a in (Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(3)):
            if abs(rho - float(a)) > 1e-9:
                assert ex.radius_below(M, a) == (rho < float(a)), (M, a, rho)
        lo, hi = ex.radius_bracket(M)
        assert float(lo) - 1e-12 <= rho <= float(hi) + 1e-12


def test_exact_radius_with_square_roots():
    # sym entries carry √(d̃_i d̃_j): P3 with the centre's column at −1/6's eigenvector
    x = [[ex.Surd.sqrt(6, Fraction(-2, 3))], [ex.Surd({1: ex.ONE})], [ex.Surd({1: ex.ONE})]]
    T = ex.rngc_operator(3, [[0, 1], [0, 2]], x, 32, 1, "sym")
    lo, hi = ex.radius_bracket(T)
    assert float(lo) <= 112 / 99 <= float(hi) and float(hi - lo) < 1e-11
    ref = _dense_T(3, [[0, 1], [0, 2]], [-2 * math.sqrt(6) / 3, 1, 1], 32, 1, "sym")
    assert abs(np.abs(np.linalg.eigvalsh(ref)).max() - 112 / 99) < 1e-13


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_minimal_divergent_input_against_a_float_enumeration(norm):
    res, where = small.minimal_result(rc.MINIMAL, Context(seed=0), norm, "words")
    assert res.verdict == "fails" and res.scope == "as-stated"
    assert where["n"] == 3 and len(where["edges"]) == 2            # P3
    x = [float(row[0]) for row in where["X"]]
    # the reference: every P3 feature column of height 1 in the walk's order, every (λ, ε)
    order = [v for v in itertools.product((-1, 0, 1), repeat=3)
             if any(v) and [c for c in v if c][0] > 0]
    order.sort(key=lambda v: (sum(1 for c in v if c), v))
    settings = [(lam, eps) for lam, eps, _ in small.paper_settings()]
    first = None
    for v in order:
        rhos = [np.abs(np.linalg.eigvals(_dense_T(3, where["edges"], v, lam, eps, norm))).max()
                for lam, eps in settings]
        bad = [k for k, r in enumerate(rhos) if r > 1 + 1e-9]
        assert all(r < 1 - 1e-9 or r > 1 + 1e-9 for r in rhos)     # no tie to decide in float
        if bad:
            first = (v, settings[bad[0]], rhos[bad[0]])
            break
    assert tuple(x) == first[0] and (where["lam"], where["eps"]) == first[1]
    lo, hi = res.counterexample["rho_bracket"]
    assert lo <= first[2] <= hi and lo > 1
    # the truncated series against the inverse it expands, float64
    T = _dense_T(3, where["edges"], x, where["lam"], where["eps"], norm)
    X = np.array(x)[:, None]
    H = sum(np.linalg.matrix_power(T, s) @ X for s in range(17))
    exact = np.linalg.solve(np.eye(3) - T, X)
    err = np.linalg.norm(H - exact) / np.linalg.norm(exact)
    assert res.counterexample["relative_error_at_S"] == pytest.approx(err, rel=1e-9)


def test_eigenvector_case_is_exactly_112_over_99():
    for norm in ("sym", "rw"):
        eig = small.eigenvector_case(3, [[0, 1], [0, 2]], norm, 32.0, 1.0)
        assert eig["certified"] and eig["rho"] == "112/99"
    sym = small.eigenvector_case(3, [[0, 1], [0, 2]], "sym", 32.0, 1.0)
    assert sym["truncation_error"] == pytest.approx((112 / 99) ** 17, rel=1e-12)   # 8.15
    x = np.array([-2 * math.sqrt(6) / 3, 1, 1])
    T = _dense_T(3, [[0, 1], [0, 2]], x, 32, 1, "sym")
    H = sum(np.linalg.matrix_power(T, s) @ x for s in range(17))
    exact = np.linalg.solve(np.eye(3) - T, x)
    assert np.linalg.norm(H - exact) / np.linalg.norm(exact) == pytest.approx(8.15, abs=0.01)


def test_two_nodes_never_diverge_by_brute_force_and_the_chain_holds():
    rng = np.random.default_rng(5)
    for _ in range(300):
        edges = [[0, 1]] if rng.random() < 0.5 else []
        norm = ("sym", "rw")[int(rng.integers(2))]
        X = rng.standard_normal((2, int(rng.integers(1, 6))))
        lam, eps = float(rng.choice([0.5, 1, 32, 1024])), float(rng.uniform(0, 1))
        A = np.zeros((2, 2))
        if edges:
            A[0, 1] = A[1, 0] = 1.0
        At = A + np.eye(2)
        An = At / At.sum(axis=1)[:, None]              # K2 is regular: rw = sym
        G = X @ X.T
        T = lam / (lam + 1) * (An - eps * G / np.linalg.norm(G))
        assert np.abs(np.linalg.eigvals(T)).max() <= lam / (lam + 1) * (1 + 1e-12), norm
    r = small.two_nodes_result(rc.TWO_NODES, Context(seed=0), "sym")
    assert r.verdict == "holds" and r.scope == "extension"
    assert [s["verdict"] for s in r.steps] == ["holds"] * len(r.steps)
    # the control: on the three-node failure the chain breaks where the lemma's hypothesis does
    _, where = small.minimal_result(rc.MINIMAL, Context(seed=0), "sym", "words")
    ctrl = small.two_nodes_result(rc.TWO_NODES, Context(seed=0), "sym", where)
    assert ctrl.evidence["control_on_P3"]["R2.2 spectrum of Ã"] == "fails"
    assert ctrl.evidence["control_on_P3"]["R2.6 convergence"] == "fails"


def test_constructed_inputs_are_as_stated():
    """Eq. 12 is derived for any graph and features (Sec. 4.2): the constructed inputs are in
    the statement's scope in both normalisations; two nodes is the checker's lemma."""
    for part in ("planted", "heterophilous", "homophilous"):
        for norm in ("sym", "rw"):
            sc = rc.GROUPS[part].scope_for(norm)
            assert sc.name == "as-stated" and "any graph and features" in sc.why
    assert rc.MINIMAL.scope_for("rw").name == "as-stated"
    assert rc.TWO_NODES.scope_for("sym").name == "extension"


def test_p_norms_are_the_same_numbers_each_call():
    """‖P‖₂ by ARPACK starts from a fixed vector: ARPACK's own start is random, and the last
    digits of P_norm differed between runs of the same seed."""
    import scipy.sparse as sp

    from ngc_ref_theory.claims.rngc_convergence import p_norms
    X = sp.random(400, 60, density=0.05, random_state=3, format="csr")
    first = p_norms(X)
    assert all(p_norms(X) == first for _ in range(3))
