"""gsd_solve's SciPy-style options (x0, callback), its solver table, its records and its public
entry point for an Ã_norm already built (#28 item 4)."""

import dataclasses
import inspect
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from numpy.testing import assert_allclose

from ngc_ref import ConvergenceWarning, NeumannFilter, SolveInfo, gsd_solve, normalized_adjacency
from ngc_ref import solve as solve_mod
from ngc_ref.solve import gsd_solve_normalized

from . import _reference as ref


def _hubs_graph(n=120, seed=0):
    """Erdős–Rényi with two hubs joined to half the nodes, and an isolated node: d̃ from 1 to
    ~60, so the rw system's D̃ weighting is far from the caller's scale; two components."""
    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n - 1, 0.04, seed=seed)
    for hub in range(2):
        G.add_edges_from((hub, int(v)) for v in rng.choice(n - 1, n // 2, replace=False)
                         if v != hub)
    G.add_node(n - 1)
    return nx.to_scipy_sparse_array(G, nodelist=range(n), dtype=float)


_A = _hubs_graph()
_N = _A.shape[0]


def _system_matrix(A, lam, norm):
    n = A.shape[0]
    return np.eye(n) + lam * (np.eye(n) - ref.norm_adj(A, norm))


def _relres(A, X, F, lam, norm):
    """max_j ‖x_j − (I + λL̃) f_j‖/‖x_j‖, computed densely from the definition."""
    X2, F2 = np.atleast_2d(X.T).T, np.atleast_2d(F.T).T
    R = X2 - _system_matrix(A, lam, norm) @ F2
    return float(np.max(np.linalg.norm(R, axis=0) / np.linalg.norm(X2, axis=0)))


# --- x0: a warm start in the caller's scale ------------------------------------------------

@pytest.mark.parametrize("method", ["cg", "chebyshev"])
@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("lam", [0.5, 50.0])
def test_x0_at_the_solution_takes_no_iteration(method, norm, lam):
    # λ = 50 > 1 exercises the 1/λ scaling of the split system (a ≠ 1), rw on a graph with hubs
    # the D̃ weighting: a guess mapped into the wrong scale would need the full iteration again.
    X = np.random.default_rng(1).standard_normal((_N, 2))
    F, cold = gsd_solve(_A, X, lam, norm=norm, method=method, rtol=1e-9, return_info=True)
    assert cold.converged and cold.iterations >= 4
    F2, warm = gsd_solve(_A, X, lam, norm=norm, method=method, rtol=1e-9, x0=F,
                         return_info=True)
    # As scipy.sparse.linalg.cg: a guess that meets the tolerance takes no iteration at all.
    assert warm.converged and warm.iterations == 0 and warm.residual <= 1e-9
    assert_allclose(F2, F, rtol=1e-8, atol=1e-10 * np.abs(F).max())


@pytest.mark.parametrize("method", ["cg", "chebyshev"])
@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_random_x0_converges_to_the_same_solution(method, norm):
    rng = np.random.default_rng(2)
    X = rng.standard_normal(_N)                      # 1-D: x0 1-D as well
    want = np.linalg.solve(_system_matrix(_A, 6.0, norm), X)
    x0 = 10.0 * rng.standard_normal(_N)
    F, info = gsd_solve(_A, X, 6.0, norm=norm, method=method, rtol=1e-11, x0=x0,
                        return_info=True)
    assert F.shape == X.shape and info.converged and info.iterations > 1
    assert_allclose(F, want, rtol=1e-8, atol=1e-9 * np.abs(want).max())


def test_x0_only_its_part_outside_the_null_space_matters():
    # F∞ (the null-space part) is computed exactly; a guess off by any constant on each
    # component (rw's null space) starts from the same point.
    X = np.random.default_rng(3).standard_normal((_N, 2))
    F = gsd_solve(_A, X, 20.0, norm="rw", method="direct")
    _, info = gsd_solve(_A, X, 20.0, norm="rw", method="cg", x0=F + 7.0, return_info=True)
    assert info.iterations <= 1


@pytest.mark.parametrize("method", ["direct", "dense"])
def test_direct_methods_ignore_x0(method):
    X = np.random.default_rng(4).standard_normal((_N, 2))
    F = gsd_solve(_A, X, 3.0, method=method)
    G = gsd_solve(_A, X, 3.0, method=method, x0=np.full((_N, 2), 1e6))
    assert_allclose(G, F, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("x0, error, match", [
    (np.ones((_N, 3)), ValueError,
     r"x0 must have the shape of X, \(120, 2\); got shape=\(120, 3\)"),
    (np.ones((1, 2)), ValueError, r"x0 must have the shape of X"),        # would broadcast
    (np.ones(_N), ValueError, r"x0 must have the shape of X"),
    (np.full((_N, 2), np.nan), ValueError, r"x0 contains non-finite values"),
    (np.ones((_N, 2), dtype=complex), TypeError, r"x0 must have a real numeric"),
    ("zeros", TypeError, r"x0 must be a NumPy array"),
])
def test_bad_x0_is_refused_by_name(x0, error, match):
    X = np.ones((_N, 2))
    for method in ("cg", "direct"):                  # validated even where it is not used
        with pytest.raises(error, match=match):
            gsd_solve(_A, X, 1.0, method=method, x0=x0)


def test_bad_x0_shape_for_a_vector():
    with pytest.raises(ValueError, match=r"x0 must have the shape of X, \(120,\)"):
        gsd_solve(_A, np.ones(_N), 1.0, method="cg", x0=np.ones((_N, 1)))


# --- callback: each iterate, in the caller's scale -----------------------------------------

@pytest.mark.parametrize("method", ["cg", "chebyshev"])
@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_callback_sees_each_iterate_in_the_callers_scale(method, norm):
    # One column: the history is the max over the columns still iterating, which for one
    # column is its residual at every step.
    X = 1e-3 * np.random.default_rng(5).standard_normal(_N)     # ‖x‖ < 1: relative ≠ absolute
    seen = []
    F, info = gsd_solve(_A, X, 30.0, norm=norm, method=method, rtol=1e-6,
                        callback=lambda fk: seen.append(fk.copy()), return_info=True)
    assert info.converged and len(seen) == info.iterations >= 5
    # The residual of each iterate, from the definition, is the one the iteration tracked
    # (in the caller's scale for rw too), and decreases to below rtol.
    true = [_relres(_A, X, fk, 30.0, norm) for fk in seen]
    assert_allclose(true, info.residual_history, rtol=1e-6)
    assert true[-1] <= 1e-6 and true[0] > 1e4 * true[-1]
    # The answer is the last iterate (up to its null-space part, of the order of rtol).
    assert_allclose(seen[-1], F, rtol=0, atol=1e-5 * np.abs(F).max())


def test_callback_iterates_have_the_callers_shape_and_dtype():
    X = np.random.default_rng(5).standard_normal(_N).astype(np.float32)
    seen = []
    F = gsd_solve(_A, X, 3.0, norm="rw", method="cg", rtol=1e-5, callback=seen.append)
    assert len(seen) > 1 and F.dtype == np.float32
    assert all(fk.shape == (_N,) and fk.dtype == np.float32 for fk in seen)


def test_callback_iterates_keep_the_columns_that_converged_first():
    # Block CG drops converged columns from its buffers: the iterate handed out still holds
    # them. Column 0 is nearly a null-space vector (converges at once), column 1 is not.
    rng = np.random.default_rng(12)
    X = np.column_stack([np.ones(_N) + 1e-3 * rng.standard_normal(_N),
                         rng.standard_normal(_N)])
    seen = []
    _, info = gsd_solve(_A, X, 30.0, norm="rw", method="cg", rtol=1e-8,
                        callback=lambda fk: seen.append(fk.copy()), return_info=True)
    assert info.converged and info.iterations > 5
    M = _system_matrix(_A, 30.0, "rw")
    rel = [np.linalg.norm(X - M @ fk, axis=0) / np.linalg.norm(X, axis=0) for fk in seen]
    # Column 0 meets rtol several iterations before the end, and keeps that value from then
    # on (copied from the output buffer, not iterated further).
    k0 = next(k for k, r in enumerate(rel) if r[0] <= 1e-8)
    assert k0 < len(seen) - 4 and all(r[0] <= 1e-8 for r in rel[k0:])
    assert all(np.array_equal(fk[:, 0], seen[-1][:, 0]) for fk in seen[k0:])
    assert rel[-2][1] > 1e-8 >= rel[-1][1]


def test_callback_iterates_converge_monotonically_in_energy_for_cg():
    # Preconditioned CG minimises the M-norm of the error over growing Krylov spaces:
    # ‖F_k − F‖_M cannot grow (sym: M = I + λL̃, a multiple of the split system's matrix).
    X = np.random.default_rng(6).standard_normal(_N)
    want = np.linalg.solve(_system_matrix(_A, 4.0, "sym"), X)
    M = _system_matrix(_A, 4.0, "sym")
    seen = []
    gsd_solve(_A, X, 4.0, method="cg", rtol=1e-12, callback=seen.append)
    energy = [float((fk - want) @ M @ (fk - want)) for fk in seen]
    assert len(energy) > 5
    assert all(e1 <= e0 * (1 + 1e-9) + 1e-28 for e0, e1 in zip(energy, energy[1:]))


@pytest.mark.parametrize("method", ["direct", "dense"])
def test_direct_methods_call_back_once_with_the_solution(method):
    X = np.random.default_rng(7).standard_normal(_N)
    seen = []
    F = gsd_solve(_A, X, 2.0, method=method, callback=seen.append)
    assert len(seen) == 1
    assert_allclose(seen[0], F, rtol=1e-12, atol=1e-14)


def test_callback_with_a_warm_start_at_the_solution_is_not_called():
    # As scipy.sparse.linalg.cg: no iteration, no call.
    X = np.random.default_rng(8).standard_normal(_N)
    F = gsd_solve(_A, X, 2.0, method="cg", rtol=1e-10)
    seen = []
    gsd_solve(_A, X, 2.0, method="cg", rtol=1e-10, x0=F, callback=seen.append)
    assert seen == []


def test_non_callable_callback_is_refused_by_name():
    with pytest.raises(TypeError, match="callback must be callable.*got list"):
        gsd_solve(_A, np.ones(_N), 1.0, method="cg", callback=[])


# --- the solver table ----------------------------------------------------------------------

#: SciPy's relative tolerance keyword: ``rtol`` since 1.12, ``tol`` before (the floor is 1.10).
_CG_RTOL = "rtol" if "rtol" in inspect.signature(spla.cg).parameters else "tol"


def _scipy_cg(system, problem):
    """A method added in one place: SciPy's CG on each column of M Z = B."""
    Z = np.column_stack([spla.cg(system.M, b, atol=0.0, maxiter=2000, **{_CG_RTOL: 1e-13})[0]
                         for b in problem.B.T])
    return Z, SolveInfo("scipy-cg", converged=True)


def test_a_solver_added_to_the_table_is_usable_by_name(monkeypatch):
    monkeypatch.setitem(solve_mod.SOLVERS, "scipy-cg", _scipy_cg)
    X = np.random.default_rng(9).standard_normal((_N, 2))
    for norm in ("sym", "rw"):
        F, info = gsd_solve(_A, X, 40.0, norm=norm, method="scipy-cg", return_info=True)
        want = np.linalg.solve(_system_matrix(_A, 40.0, norm), X)
        assert info.method == "scipy-cg" and info.converged and info.residual <= 1e-10
        assert_allclose(F, want, rtol=1e-8, atol=1e-9 * np.abs(want).max())
    # It is listed where a wrong name is refused, and "auto" does not pick it.
    with pytest.raises(ValueError, match="'chebyshev', 'scipy-cg'; got 'nope'"):
        gsd_solve(_A, X, 1.0, method="nope")
    assert gsd_solve(_A, X, 1.0, return_info=True)[1].method == "direct"


def test_table_and_methods_agree():
    assert solve_mod.METHODS == ("auto", *solve_mod.SOLVERS)
    assert set(solve_mod.SOLVERS) == {"cg", "chebyshev", "direct", "dense"}


# --- the records are immutable -------------------------------------------------------------

def test_system_and_problem_records_are_frozen():
    An, d = normalized_adjacency(_A, norm="rw", return_degrees=True)
    system = solve_mod._spd_system(An, d, 5.0, "rw", False)
    assert (system.a, system.b) == (0.2, 1.0) and system.n_components == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        system.a = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        system.extra = 1.0
    names = [f.name for f in dataclasses.fields(system)]
    assert names[:3] == ["M", "a", "b"] and "denom" in names
    problem = solve_mod._Problem(B=np.ones((_N, 1)), Z0=None, bnorm=np.ones(1), rscale=None,
                                 rtol=1e-8, atol=0.0, maxiter=10, workers=1, max_nodes=10,
                                 step=None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.rtol = 1.0


# --- the public entry point for a normalised operator --------------------------------------

@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_gsd_solve_normalized_equals_gsd_solve(norm):
    X = np.random.default_rng(10).standard_normal((_N, 2))
    An, d = normalized_adjacency(_A, norm=norm, return_degrees=True)
    for method in ("cg", "direct"):
        F = gsd_solve_normalized(An, 3.0 * d, X, 7.0, norm=norm, method=method)  # d up to scale
        assert_allclose(F, gsd_solve(_A, X, 7.0, norm=norm, method=method), rtol=1e-12,
                        atol=1e-14)
    filt = NeumannFilter(_A, 7.0, 3, norm=norm)
    assert_allclose(filt.exact(X, method="cg", x0=F), F, rtol=1e-9, atol=1e-12)


def test_gsd_solve_normalized_refuses_what_does_not_belong_together():
    An, d = normalized_adjacency(_A, norm="sym", return_degrees=True)
    X = np.ones(_N)
    with pytest.raises(ValueError, match=r"not Ã_rw and d̃ of one graph: Ã_rw 1 = 1 fails"):
        gsd_solve_normalized(An, d, X, 1.0, norm="rw")
    with pytest.raises(ValueError, match=r"Ã_sym d̃\^\(1/2\) = d̃\^\(1/2\) fails"):
        gsd_solve_normalized(An, d[::-1].copy(), X, 1.0, norm="sym")
    with pytest.raises(ValueError, match="degrees must be the n = 120 positive"):
        gsd_solve_normalized(An, -d, X, 1.0)
    with pytest.raises(ValueError, match="degrees must have one row per node"):
        gsd_solve_normalized(An, d[:5], X, 1.0)
    with pytest.raises(TypeError, match="A_norm must be a square sparse matrix"):
        gsd_solve_normalized(An.toarray(), d, X, 1.0)
    with pytest.raises(TypeError, match="A_norm must be a square sparse matrix"):
        gsd_solve_normalized(sp.csr_array(np.ones((3, 4))), np.ones(3), np.ones(3), 1.0)


# --- warnings name the caller's line -------------------------------------------------------

def _from_this_file(w):
    # Under mutmut each library call runs through its trampoline (in mutmut's package), the
    # first frame outside ngc_ref then: accepted there only (as in test_neumann).
    return w.filename == __file__ or "mutmut" in w.filename


def test_convergence_warnings_point_at_the_caller():
    X = np.random.default_rng(11).standard_normal((_N, 2))
    with pytest.warns(ConvergenceWarning, match="CG did not reach") as rec:
        gsd_solve(_A, X, 100.0, method="cg", rtol=1e-12, maxiter=2)
    assert len(rec) == 1 and _from_this_file(rec[0])
    filt = NeumannFilter(_A, 100.0, 3)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        _, info = filt.exact(X, method="chebyshev", rtol=1e-12, maxiter=3, return_info=True)
    (w,) = [w for w in rec if w.category is ConvergenceWarning]
    assert _from_this_file(w)
    assert str(w.message) == (f"gsd_solve: Chebyshev did not reach rtol=1e-12 in maxiter=3 "
                              f"iterations (final max relative residual "
                              f"{info.residual_history[-1]:.3e})")
    assert not info.converged and info.iterations == 3 and len(info.residual_history) == 3
    assert len({f"{h:.3e}" for h in info.residual_history}) == 3


def test_docstrings_have_every_shared_paragraph_filled_in():
    # _fill_solve_doc runs at import; under mutmut (which imports before it activates a
    # mutant) its mutants cannot show, so this is checked by a plain test run.
    for func in (gsd_solve, gsd_solve_normalized):
        doc = func.__doc__
        assert "%(" not in doc
        for entry in ("    x0 : array_like, shape of ``X``, optional\n",
                      "    callback : callable, optional\n", "    max_nodes : int\n",
                      "    F : ndarray, shape of ``X``", "    method : {\"auto\", \"cg\""):
            assert doc.count(entry) == 1, (func.__name__, entry)
    assert "    symmetrize : bool or" in gsd_solve.__doc__


# --- details the mutation pass (tools/mutation.py solve) asked for -------------------------

@pytest.mark.parametrize("method", ["cg", "chebyshev"])
def test_a_zero_right_hand_side_takes_no_iteration(method):
    # X = 0 (and X in the null space, where F = X): nothing to iterate, as SciPy's cg.
    for X in (np.zeros((_N, 2)), np.ones((_N, 2))):
        F, info = gsd_solve(_A, X, 5.0, norm="rw", method=method, atol=0.0, return_info=True)
        assert info.iterations == 0 and info.converged and info.residual_history == []
        assert_allclose(F, X, atol=1e-12)


def test_iterative_work_arrays_are_checked_against_the_budget(monkeypatch):
    # One 120 x 2 float64 array is 1920 bytes: the solve's own 6 fit 15000 bytes (the refusal
    # is the iteration's), its 10 (19200 bytes) do not; 20000 bytes hold them (but not 11,
    # nor 10 of 9 bytes).
    from ngc_ref import _memory
    X = np.ones((_N, 2))
    monkeypatch.setenv(_memory.ENV_VAR, "15000")
    for method in ("cg", "chebyshev"):
        with pytest.raises(ValueError) as err:
            gsd_solve(_A, X, 1.0, method=method)
        msg = str(err.value)
        assert msg.startswith(f"gsd_solve(method={method!r}) would need 18.8 KiB (10 dense "
                              f"120 x 2 arrays of 8 bytes per entry: the solution and the "
                              f"solver's buffers) but only 14.6 KiB is available"), msg
        assert "; pass X a block of columns at a time (each column is solved on its own)" in msg
    monkeypatch.setenv(_memory.ENV_VAR, "20000")
    for method in ("cg", "chebyshev"):
        gsd_solve(_A, X, 1.0, method=method)


def test_dense_guard_names_the_method_and_counts_two_matrices(monkeypatch):
    # One 120 x 120 float64 matrix is 115200 bytes; 'dense' forms two.
    from ngc_ref import _memory
    X = np.ones(_N)
    with pytest.raises(ValueError, match=r"^gsd_solve\(method='dense'\) would form a dense "
                                         r"120 x 120 array .* above max_nodes=100;"):
        gsd_solve(_A, X, 1.0, method="dense", max_nodes=100)
    An, d = normalized_adjacency(_A, norm="sym", return_degrees=True)
    with pytest.raises(ValueError, match="above max_nodes=100"):
        gsd_solve_normalized(An, d, X, 1.0, method="dense", max_nodes=100)
    monkeypatch.setenv(_memory.ENV_VAR, "200000")
    with pytest.raises(ValueError, match=r"^gsd_solve\(method='dense'\) would need 225 KiB "
                                         r"\(2 dense 120 x 120 arrays"):
        gsd_solve(_A, X, 1.0, method="dense")
    monkeypatch.setenv(_memory.ENV_VAR, "300000")
    gsd_solve(_A, X, 1.0, method="dense")


def test_gsd_solve_normalized_defaults_and_options_reach_the_solve():
    An, d = normalized_adjacency(_A, norm="rw", return_degrees=True)
    X = np.random.default_rng(13).standard_normal(_N)
    F, info = gsd_solve_normalized(An, d, X, 2.0, norm="rw", return_info=True)  # "auto"
    assert info.method == "direct" and info.residual <= 1e-10
    seen = []
    G = gsd_solve_normalized(An, d, X, 2.0, norm="rw", method="cg", callback=seen.append)
    assert len(seen) > 1
    assert_allclose(G, F, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("scale", [1e-12, 1.0, 1e12])
def test_degrees_are_accepted_at_any_scale_and_checked_relatively(scale):
    An, d = normalized_adjacency(_A, norm="sym", return_degrees=True)
    X = np.ones(_N)
    gsd_solve_normalized(An, scale * d, X, 1.0)
    wrong = d.copy()
    wrong[[3, 4]] = wrong[[4, 3]] + 1.0                # two rows off
    with pytest.raises(ValueError, match="fails by"):
        gsd_solve_normalized(An, scale * wrong, X, 1.0)


def test_gsd_solve_normalized_messages_in_full():
    An, d = normalized_adjacency(_A, norm="sym", return_degrees=True)
    X = np.ones(_N)
    with pytest.raises(TypeError, match=r"square sparse matrix \(Ã_norm from "
                                        r"normalized_adjacency\); got ndarray of shape "
                                        r"\(120, 120\)$"):
        gsd_solve_normalized(An.toarray(), d, X, 1.0)
    with pytest.raises(TypeError, match=r"got list of shape None$"):
        gsd_solve_normalized([[1.0]], np.ones(1), np.ones(1), 1.0)
    zero = d.copy()
    zero[5] = 0.0
    for bad in (-d, zero):
        with pytest.raises(ValueError, match=r"^degrees must be the n = 120 positive degrees "
                                             r"d̃ = Ã1; got shape \(120,\), not all positive$"):
            gsd_solve_normalized(An, bad, X, 1.0)
    with pytest.raises(ValueError, match=r"d̃ = Ã1; got shape \(120, 1\)$"):
        gsd_solve_normalized(An, d[:, None], X, 1.0)


@pytest.mark.parametrize("method", ["cg", "chebyshev"])
def test_a_zero_column_beside_a_nonzero_one(method):
    # ‖x_j‖ = 0: the relative residual of that column is taken as absolute (divided by 1).
    X = np.column_stack([np.zeros(_N), np.random.default_rng(14).standard_normal(_N)])
    F, info = gsd_solve(_A, X, 5.0, norm="rw", method=method, rtol=1e-8, return_info=True)
    assert info.converged and info.iterations > 1 and np.isfinite(info.residual_history).all()
    assert_allclose(F[:, 0], 0.0, atol=1e-12)
    assert info.residual_history[-1] <= 1e-8


def test_a_warm_start_is_judged_in_the_callers_scale():
    # rw: the SPD residual mass·r (mass = d̃/max d̃, down to 1/60 here) is far smaller than
    # the caller's r. A guess whose caller's residual is twice rtol must be iterated on, even
    # though its SPD residual is below rtol.
    X = np.random.default_rng(15).standard_normal((_N, 1))
    F1 = gsd_solve(_A, X, 10.0, norm="rw", method="cg", rtol=1e-4)
    R = X - _system_matrix(_A, 10.0, "rw") @ F1
    xn = np.linalg.norm(X)
    rho = np.linalg.norm(R) / xn
    mass = ref.tilde(_A).sum(axis=1) / ref.tilde(_A).sum(axis=1).max()
    assert np.linalg.norm(mass[:, None] * R) / xn < rho / 2     # the case this test is about
    F2, info = gsd_solve(_A, X, 10.0, norm="rw", method="cg", rtol=rho / 2, x0=F1,
                         return_info=True)
    assert info.iterations >= 1 and info.converged
    assert _relres(_A, X, F2, 10.0, "rw") <= rho / 2


@pytest.mark.parametrize("method", ["cg", "chebyshev"])
def test_the_residual_of_a_zero_right_hand_side_is_absolute(method):
    # x = 0 with a nonzero guess: ‖x‖ = 0, so the history (and atol) are absolute residuals.
    x0, seen = np.random.default_rng(16).standard_normal(_N), []
    F, info = gsd_solve(_A, np.zeros(_N), 4.0, method=method, rtol=1e-8, atol=1e-9, x0=x0,
                        callback=seen.append, return_info=True)
    M = _system_matrix(_A, 4.0, "sym")
    true = [np.linalg.norm(M @ fk) for fk in seen]
    assert info.converged and len(true) > 3
    assert_allclose(true, info.residual_history, rtol=1e-6, atol=1e-14)   # rounding of M @ fk
    assert true[-1] <= 1e-9 < true[-2]
    assert_allclose(F, 0.0, atol=1e-9)


def test_direct_factor_estimate_formula():
    # bytes = 12·entries, entries = min(n², nnz + c·n²), c = min(1, 0.033·max(0, d̄ − 2)),
    # d̄ = max(0, nnz/n − 1).
    est = solve_mod.direct_factor_estimate
    assert_allclose(est(1000, 7000), (12 * 139000.0, 139000.0, 6.0), rtol=1e-12)
    assert_allclose(est(10, 15), (180.0, 15.0, 0.5), rtol=1e-12)          # d̄ < 2: no fill
    assert_allclose(est(1, 3), (12.0, 1.0, 2.0), rtol=1e-12)              # capped at n²
    assert_allclose(est(10**6, 3 * 10**6), (3.6e7, 3e6, 2.0), rtol=1e-12)  # a path
    assert est(0, 0) == (0.0, 0.0, 0.0)


def test_direct_refusal_message_in_full(monkeypatch):
    from ngc_ref import _memory
    monkeypatch.setenv(_memory.ENV_VAR, "15000")
    with pytest.raises(ValueError) as err:
        gsd_solve(_A, np.ones(_N), 1.0, method="direct")
    assert str(err.value).startswith(
        "gsd_solve(method='direct') would need 38 KiB (an estimated 3.25e+03 nonzeros in the "
        "sparse LU factors of a graph of 120 nodes with mean degree 6.8; the fill grows like "
        "n² on graphs without small separators) but only 14.6 KiB is available "), err.value
    assert ("; use method='cg' or method='chebyshev' (memory O(nnz + n·d)). Set "
            in str(err.value))


def test_direct_factors_are_those_of_mmd_on_the_bordered_matrix():
    # The fill estimate was fitted for SuperLU's MMD on AᵀA + A; factor_nnz is nnz(L) + nnz(U)
    # of that factorisation (COLAMD's fills almost twice as much on this graph).
    An, d = normalized_adjacency(_A, norm="sym", return_degrees=True)
    system = solve_mod._spd_system(An, d, 2.0, "sym", False)
    K, _ = solve_mod._bordered(system, np.ones((_N, 1)))
    lu = spla.splu(K, permc_spec="MMD_AT_PLUS_A")
    colamd = spla.splu(K, permc_spec="COLAMD")
    _, info = gsd_solve(_A, np.ones(_N), 2.0, method="direct", return_info=True)
    assert info.factor_nnz == lu.L.nnz + lu.U.nnz < colamd.L.nnz + colamd.U.nnz


@pytest.mark.parametrize("method", ["direct", "dense"])
@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_a_two_node_component_is_constrained_at_huge_lambda(method, norm):
    # Past λ ≈ 1/eps the split matrix is singular to rounding on every component of two or
    # more nodes; each needs its constraint row (an isolated node needs none: its Z is 0).
    A = sp.csr_array(sp.block_diag([nx.to_scipy_sparse_array(nx.path_graph(2)),
                                    nx.to_scipy_sparse_array(nx.cycle_graph(5))]))
    X = np.random.default_rng(17).standard_normal((7, 2))
    d = ref.tilde(A).sum(axis=1)
    F, info = gsd_solve(A, X, 1e300, norm=norm, method=method, return_info=True)
    for comp in (slice(0, 2), slice(2, 7)):
        dc = d[comp]
        u, w = (np.sqrt(dc), np.sqrt(dc)) if norm == "sym" else (np.ones(dc.size), dc)
        want = np.outer(u, w @ X[comp]) / (w @ u)
        assert_allclose(F[comp], want, rtol=1e-9, atol=1e-12)
    assert info.converged


def _garbage_solver(system, problem):
    """A method that returns a wrong Z (random) and claims success: the check must catch it."""
    Z = np.random.default_rng(18).standard_normal(problem.B.shape)
    return Z, SolveInfo("garbage", converged=True)


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_a_wrong_answer_is_caught_and_its_residual_reported_per_column(monkeypatch, norm):
    # SolveInfo.residual and the warning's number are max_j ‖x_j − (I + λL̃) f_j‖/‖x_j‖, the
    # residual absolute where x_j = 0: compared with the definition, on a zero column beside a
    # large one (the zero column's absolute residual is the max) and on one column of norm < 1.
    monkeypatch.setitem(solve_mod.SOLVERS, "garbage", _garbage_solver)
    rng = np.random.default_rng(19)
    M = _system_matrix(_A, 3.0, norm)
    for X in (np.column_stack([np.zeros(_N), 100.0 * rng.standard_normal(_N)]),
              0.01 * rng.standard_normal((_N, 1))):
        with pytest.warns(ConvergenceWarning) as rec:
            F, info = gsd_solve(_A, X, 3.0, norm=norm, method="garbage", return_info=True)
        rn, xn = np.linalg.norm(X - M @ F, axis=0), np.linalg.norm(X, axis=0)
        want = np.max(np.where(xn > 0, rn / np.where(xn > 0, xn, 1.0), rn))
        assert info.converged is False
        assert_allclose(info.residual, want, rtol=1e-9)
        (w,) = rec
        assert str(w.message) == (
            f"gsd_solve(method='garbage'): the residual of the solution, max_j ‖x_j − (I + "
            f"λL̃) f_j‖/‖x_j‖ = {info.residual:.3e}, exceeds rtol=1e-10 (and atol=0) beyond "
            f"rounding; the result is not accurate")
    assert xn[0] < 1.0          # the last X: a column of norm below 1


@pytest.mark.parametrize("norm", ["sym", "rw"])
@pytest.mark.parametrize("method", ["direct", "dense"])
def test_a_rounding_level_answer_counts_as_converged_at_any_rtol(norm, method):
    # rtol = 1e-16 cannot be met beyond rounding: the check allows 100·eps·(‖b‖ + ‖M‖·‖z‖)
    # (over min d̃/max d̃ for rw, whose hubs make it ~60 here), and an exact method meets that.
    X = np.random.default_rng(20).standard_normal((_N, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        _, info = gsd_solve(_A, X, 1e3, norm=norm, method=method, rtol=1e-16, return_info=True)
    assert info.converged and info.residual < 1e-12


def test_gsd_solve_keyword_defaults():
    # symmetrize=False refuses a non-symmetric A; weight='weight' reads networkx weights.
    A = sp.csr_array(np.triu(np.ones((4, 4)), 1))
    with pytest.raises(ValueError, match="symmetri"):
        gsd_solve(A, np.ones(4), 1.0)
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, {(0, 1): 3.0, (1, 2): 0.5, (2, 3): 2.0}, "weight")
    W = nx.to_scipy_sparse_array(G, weight="weight", dtype=float)
    X = np.arange(4.0)
    assert_allclose(gsd_solve(G, X, 2.0), gsd_solve(W, X, 2.0), rtol=1e-12)
    assert not np.allclose(gsd_solve(G, X, 2.0), gsd_solve(G, X, 2.0, weight=None))
    # symmetrize and nodelist reach the normalisation.
    assert_allclose(gsd_solve(A, np.ones(4), 1.0, symmetrize=True),
                    gsd_solve(A + A.T, np.ones(4), 1.0), rtol=1e-12)
    order = [3, 1, 0, 2]
    assert_allclose(gsd_solve(G, X[order], 2.0, nodelist=order), gsd_solve(G, X, 2.0)[order],
                    rtol=1e-12)


def test_tolerance_and_maxiter_messages():
    X = np.ones(_N)
    with pytest.raises(ValueError, match=r"^atol must be >= 0"):
        gsd_solve(_A, X, 1.0, atol=-1e-3)
    with pytest.raises(ValueError, match=r"^maxiter must be >= 1"):
        gsd_solve(_A, X, 1.0, method="cg", maxiter=0)
    with pytest.raises(ValueError, match=r"^rtol and atol cannot both be 0: the stopping rule "
                                         r"could never be met$"):
        gsd_solve(_A, X, 1.0, rtol=0.0, atol=0.0)
    with pytest.warns(ConvergenceWarning, match="maxiter=1 "):
        _, info = gsd_solve(_A, np.random.default_rng(21).standard_normal(_N), 1.0,
                            method="cg", maxiter=1, return_info=True)
    assert info.iterations == 1


@pytest.mark.parametrize("n, want", [(5, 100), (120, 1200)])
def test_default_maxiter_is_ten_n_but_at_least_100(n, want):
    # Chebyshev at λ = 1e6 (κ ≈ 2e6) needs ~5e4 iterations for rtol = 1e-15: it stops at the cap.
    A = _A if n == _N else sp.csr_array(nx.to_scipy_sparse_array(nx.path_graph(n)))
    with pytest.warns(ConvergenceWarning, match=rf"in maxiter={want} iterations"):
        _, info = gsd_solve(A, np.arange(float(n)), 1e6, method="chebyshev", rtol=1e-15,
                            return_info=True)
    assert info.iterations == want


def test_auto_resolution_boundaries(monkeypatch):
    # 'direct' up to 5000 nodes (inclusive) when its factors fit, else 'cg'.
    from ngc_ref import _memory
    monkeypatch.delenv(_memory.ENV_VAR, raising=False)
    for n, want in ((5000, "direct"), (5001, "cg")):
        ring = sp.csr_array(nx.to_scipy_sparse_array(nx.cycle_graph(n)))
        X = np.random.default_rng(22).standard_normal(n)
        assert gsd_solve(ring, X, 1.0, return_info=True)[1].method == want, n
    # _A's LU factors: an estimated 3.25e3 entries, 39 kB; they do not fit 20000 bytes.
    monkeypatch.setenv(_memory.ENV_VAR, "20000")
    assert gsd_solve(_A, np.ones(_N), 1.0, return_info=True)[1].method == "cg"


@pytest.mark.parametrize("method", ["cg", "direct"])
def test_empty_and_one_node_problems(method):
    # d = 0 columns and n = 0 nodes: nothing to solve, F is a new array shaped like X.
    X = np.ones((_N, 0), dtype=np.float32)
    F, info = gsd_solve(_A, X, 2.0, method=method, return_info=True)
    assert F.shape == (_N, 0) and F.dtype == np.float32 and F is not X
    assert (info.method, info.converged, info.residual) == (method, True, 0.0)
    assert info.iterations is None and info.factor_nnz is None
    E = sp.csr_array((0, 0))
    F, info = gsd_solve(E, np.ones(0), 2.0, method=method, return_info=True)
    assert F.shape == (0,) and (info.converged, info.residual) == (True, 0.0)
    assert info.iterations is None and info.factor_nnz is None     # no method ran
    assert gsd_solve(E, np.ones(0), 2.0, method=method).shape == (0,)
    # n = 1 is solved: F = X, 0 iterations or a 1-entry factor.
    F, info = gsd_solve(sp.csr_array((1, 1)), np.array([3.0]), 2.0, method=method,
                        return_info=True)
    assert F.tolist() == [3.0] and info.residual == 0.0
    assert (info.iterations, info.factor_nnz) == ((0, None) if method == "cg" else (None, 2))


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_isolated_nodes_return_x_exactly(norm):
    # F = X on an isolated node by construction (F∞ = X, Z = 0 there), not X·(w·b)/(w·b).
    X = np.random.default_rng(23).standard_normal((_N, 64))
    for method in ("cg", "direct", "dense", "chebyshev"):
        F = gsd_solve(_A, X, 7.0, norm=norm, method=method)
        assert np.array_equal(F[_N - 1], X[_N - 1]), method


def test_x_with_the_wrong_number_of_rows():
    with pytest.raises(ValueError, match=r"X must have one row per node: expected 120 rows"):
        gsd_solve(_A, np.ones((_N + 1, 2)), 1.0)


def test_the_solves_own_work_arrays_are_checked(monkeypatch):
    # 6 float64 120 x 2 arrays (11520 bytes) do not fit 10000 bytes: refused before the
    # method runs (direct's factor estimate, 38 KiB, is not the message).
    from ngc_ref import _memory
    monkeypatch.setenv(_memory.ENV_VAR, "10000")
    with pytest.raises(ValueError) as err:
        gsd_solve(_A, np.ones((_N, 2)), 1.0, method="direct")
    assert str(err.value).startswith(
        "gsd_solve(method='direct') would need 11.2 KiB (6 dense 120 x 2 arrays of 8 bytes per "
        "entry: the solution and the solver's buffers) but only 9.77 KiB is available"), err.value
    assert "; pass X a block of columns at a time (each column is solved on its own)" in str(
        err.value)
    # A sparse X is densified under the same budget, and the message names the solve.
    # (sp.random, not sp.random_array: the SciPy floor, 1.10, has no random_array)
    Xs = sp.csr_array(sp.random(_N, 20, density=0.01, random_state=0, format="csr"))
    with pytest.raises(ValueError, match=r"gsd_solve\(method='cg'\) would need"):
        gsd_solve(_A, Xs, 1.0, method="cg")


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_cg_is_jacobi_preconditioned_cg(norm):
    # The residual history equals that of a plain dense Jacobi-PCG on the split system M Z = B⊥
    # (the caller's residual: weighted back by 1/mass for rw), step by step.
    lam = 9.0
    X = np.random.default_rng(24).standard_normal(_N)
    _, info = gsd_solve(_A, X, lam, norm=norm, method="cg", rtol=1e-10, return_info=True)
    An, d = normalized_adjacency(_A, norm=norm, return_degrees=True)
    system = solve_mod._spd_system(An, d, lam, norm, False)
    M = system.M.toarray()
    F_inf = system.project(X[:, None])[:, 0]
    F_inf[system.single] = X[system.single]
    b = system.mass * (X - F_inf)
    b[system.single] = 0.0
    w = 1.0 / system.mass if norm == "rw" else np.ones(_N)
    pre = 1.0 / np.diag(M)
    z, r = np.zeros(_N), b.copy()
    s = pre * r
    p, rs = s.copy(), r @ s
    hist = []
    for _ in range(info.iterations):
        q = M @ p
        alpha = rs / (p @ q)
        z, r = z + alpha * p, r - alpha * q
        hist.append(np.linalg.norm(w * r) / np.linalg.norm(X))
        s = pre * r
        rs, rs_old = r @ s, rs
        p = s + (rs / rs_old) * p
    assert_allclose(info.residual_history, hist, rtol=1e-6)


def _offset_solver(factor, column_x):
    """A method whose answer misses by ``factor`` times the rounding allowance of _verify:
    Z = M⁻¹(B + t(e_k − e_j)), the caller's residual t(e_k/mass_k − e_j/mass_j), with the
    allowance 100·eps·(‖mass∘x‖ + ‖M‖_∞·‖z‖)/min mass computed here from its definition."""
    def solve(system, problem):
        M = system.M.toarray()
        Z = np.linalg.solve(M, problem.B)
        mass = system.mass
        # Nodes of the big component (the last node is isolated): the offset t(e_k − e_j)
        # sums to 0, so M⁻¹ of it has no null-space part for _verify to project away.
        k, j = int(np.argmin(mass[:-1])), int(np.argmax(mass[:-1]))
        allowance = (100 * np.finfo(float).eps
                     * (np.linalg.norm(mass * column_x) + np.abs(M).sum(axis=1).max()
                        * np.linalg.norm(Z[:, 0])) / mass.min())
        t = factor * allowance / np.hypot(1 / mass[k], 1 / mass[j])
        e = np.zeros_like(problem.B)
        e[k, 0], e[j, 0] = t, -t
        return Z + np.linalg.solve(M, e), SolveInfo("offset", converged=True)
    return solve


@pytest.mark.parametrize("case", ["null-space X", "random X"])
def test_the_rounding_allowance_is_no_wider_than_stated(monkeypatch, case):
    # An answer off by 3 allowances is not converged; one off by 0.3 is (rtol = 1e-16, so the
    # allowance decides). X nearly in rw's null space makes ‖mass∘x‖ the allowance's main term
    # (‖x‖ ≈ 5 times larger on this graph); a random X makes ‖M‖_∞·‖z‖ the main term.
    rng = np.random.default_rng(25)
    x = (np.ones(_N) + 1e-9 * rng.standard_normal(_N)) if case == "null-space X" else \
        rng.standard_normal(_N)
    for factor, converged in ((3.0, False), (0.3, True)):
        monkeypatch.setitem(solve_mod.SOLVERS, "offset", _offset_solver(factor, x))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            _, info = gsd_solve(_A, x[:, None], 4.0, norm="rw", method="offset", rtol=1e-16,
                                return_info=True)
        assert info.converged is converged, (factor, info.residual)


@pytest.mark.parametrize("method", ["direct", "cg", "chebyshev", "dense"])
def test_reorder_is_checked_whatever_the_method(method):
    # a bad value is refused up front, also by the methods that never reorder
    with pytest.raises(ValueError, match="reorder must be one of"):
        gsd_solve(nx.path_graph(6), np.ones(6), lam=2.0, method=method, reorder="bogus")


@pytest.mark.parametrize("solver", ["gsd_solve", "gsd_solve_normalized"])
def test_reorder_reaches_the_iterative_solve(monkeypatch, solver):
    # the locality order changes speed only, so a spy on the Reorder the solve makes shows it
    seen = []
    real = solve_mod.Reorder

    def spy(An, reorder, **kwargs):
        seen.append(reorder)
        return real(An, reorder, **kwargs)

    monkeypatch.setattr(solve_mod, "Reorder", spy)
    G = nx.path_graph(30)
    X = np.random.default_rng(0).standard_normal((30, 2))
    if solver == "gsd_solve":
        run = lambda **kw: gsd_solve(G, X, lam=4.0, method="cg", **kw)   # noqa: E731
    else:
        An, d = normalized_adjacency(G, norm="sym", return_degrees=True)
        run = lambda **kw: gsd_solve_normalized(   # noqa: E731
            An, d, X, lam=4.0, norm="sym", method="cg", **kw)
    want = run(reorder=None)
    assert seen == []                                 # None: no locality order considered
    np.testing.assert_allclose(run(reorder="rcm"), want, rtol=1e-8)
    run(reorder="auto")
    assert seen == ["rcm", "auto"]
