"""Hypothesis properties of the trainers on graphs drawn by ``ngc_ref.strategies``."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from ngc_ref import strategies as ngs
from ngc_ref.training import propagate, theory_trajectory


@st.composite
def theory_problems(draw):
    A, X = draw(ngs.graphs_with_signals(min_nodes=2, max_nodes=10, max_d=3))
    n, d = X.shape
    eta = draw(ngs.signals(n, d, min_value=-1.0, max_value=1.0))
    Y = draw(ngs.signals(n, 2))
    return A, X, eta, Y


def _representable(p):
    # Features of scale ≲ 1e-150 make W_g* overflow float64; theory_trajectory refuses those
    # (tested in test_training_least_squares.py), so they are not examples of the inequality.
    return np.abs(p[1] + p[2]).max() > 1e-3 and (np.abs(p[1]).max() == 0
                                                 or np.abs(p[1]).max() > 1e-100)


@given(theory_problems().filter(_representable),
       ngs.lams(1e-2, 1e2), ngs.orders(12), ngs.norms())
def test_descent_inequality_of_theorem_1_proof(problem, lam, S, norm):
    A, X, eta, Y = problem
    tr = theory_trajectory(A, X, eta, Y, lam, S, norm=norm, steps=40, tau=1.0)
    assert tr.descent_bound_holds(rtol=1e-9)
    assert np.all(np.diff(tr.objective) <= 1e-9 * max(1.0, tr.objective[0]))


def _dense_T(A, norm):
    A = np.asarray(A.toarray() if hasattr(A, "toarray") else A, dtype=float)
    A = A - np.diag(np.diag(A)) + np.eye(A.shape[0])
    d = A.sum(1)
    return A / np.sqrt(np.outer(d, d)) if norm == "sym" else A / d[:, None]


@given(ngs.graphs_with_signals(max_nodes=10), ngs.norms(), st.integers(1, 6),
       st.floats(0.0, 1.0))
def test_linear_baselines_match_dense_polynomials(graph, norm, K, alpha):
    A, X = graph
    T = _dense_T(A, norm)
    Tk = [np.linalg.matrix_power(T, k) for k in range(K + 1)]
    scale = max(1.0, np.abs(X).max())
    assert_allclose(propagate("sgc", A, X, K=K, norm=norm), Tk[K] @ X, atol=1e-12 * scale)
    s2 = alpha * X + (1 - alpha) / K * sum(Tk[k] @ X for k in range(1, K + 1))
    assert_allclose(propagate("s2gc", A, X, K=K, alpha=alpha, norm=norm), s2,
                    atol=1e-12 * scale)
    # APPNP after K steps: Σ_{k<K} α(1−α)^k T^k X + (1−α)^K T^K X.
    ap = sum(alpha * (1 - alpha) ** k * Tk[k] @ X for k in range(K)) + (1 - alpha) ** K * Tk[K] @ X
    assert_allclose(propagate("appnp", A, X, K=K, alpha=alpha, norm=norm), ap,
                    atol=1e-12 * scale)
