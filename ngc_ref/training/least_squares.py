"""The least-squares setting of the paper's main theory (Sec. 3, Eq. 8-13, Theorem 1).

With Z = Ã_S X on noisy features X = X* + η and Z* = Ã_S X* on clean ones,

.. math::

    f(W) = \\|Z W - Y\\|_F^2 \\;(\\text{Eq. 8}),\\qquad
    g(W) = \\|Z^* W - Y\\|_F^2 \\;(\\text{Eq. 12}),

    g(W_f^{(k)}) - g(W_g^*) \\le \\mathcal{O}\\Big(\\frac{1}{2k\\alpha}\\Big)
        + \\mathcal{O}\\Big(\\frac{\\tau\\log n}{n}\\Big) \\;(\\text{Eq. 13}),

where W_f^{(k)} is the k-th gradient-descent iterate on f with step α ≤ 1/L and
L = 2σ_max(Z)² is the smoothness constant of f (∇f(W) = 2Zᵀ(ZW − Y)). The proof (appendix,
"Proof of the Main Theorem") gives the exact intermediate inequality

.. math:: f(W_f^{(k)}) - f(W_g^*) \\le \\frac{\\|W^{(0)} - W_g^*\\|_F^2}{2k\\alpha},

which :class:`TheoryTrajectory` records beside the two terms of Eq. 13; the constants hidden
in the O(·) are not given by the paper, so the terms are reported, not summed into a bound.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .._docs import fill_doc
from ..exceptions import ConvergenceWarning
from .._validation import (as_generator, check_adjacency, check_array, check_features,
                           check_norm, check_option, check_scalar)
from ..neumann import NeumannFilter

LIPSCHITZ_METHODS = ("auto", "dense", "svds", "power")


#: ``method="auto"`` uses a dense SVD up to this many entries of Z, ``svds`` above.
AUTO_DENSE_MAX_ENTRIES = 4_000_000


def lipschitz_constant(Z, *, l2=0.0, method="auto", seed=None, rtol=1e-12, maxiter=None,
                       return_info=False):
    """L = 2σ_max(Z)² + 2·l2, the smoothness constant of ‖ZW − Y‖_F² + l2‖W‖_F².

    Parameters
    ----------
    Z : ndarray or scipy.sparse.linalg.LinearOperator, shape (n, d)
    l2 : float
        Ridge weight (adds 2·l2 to the Hessian 2ZᵀZ).
    method : {"auto", "dense", "svds", "power"}
        ``"dense"``: ``scipy.linalg.svdvals`` (exact to rounding); ``"svds"``:
        ``scipy.sparse.linalg.svds(k=1)`` (ARPACK, tol=0, i.e. machine precision);
        ``"power"``: power iteration on ZᵀZ until the Rayleigh quotient changes by at most
        ``rtol`` relatively; ``"auto"``: dense for arrays with at most 4e6 entries, else svds.
    %(seed)s
        Start vector of svds / power iteration.
    return_info : bool
        Also return ``{"sigma_max", "method", "iterations"}``.

    Notes
    -----
    ``svds`` and power iteration converge to σ_max from below, so L may be underestimated by
    about ``rtol`` relatively; a step α = 1/L then exceeds 1/L_true by at most that factor,
    which the descent inequality of the proof tolerates up to α < 2/L.

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.training import lipschitz_constant
    >>> lipschitz_constant(np.diag([3.0, 1.0]))      # 2 * 3^2
    18.0
    """
    l2 = check_scalar(l2, "l2", min_val=0.0)
    check_option(method, "method", LIPSCHITZ_METHODS)
    rtol = check_scalar(rtol, "rtol", min_val=0.0)
    if maxiter is not None:
        maxiter = check_scalar(maxiter, "maxiter", min_val=1, integer=True)
    if sp.issparse(Z):
        Z = sp.csr_array(check_features(Z, Z.shape[0], name="Z", allow_sparse=True),
                         dtype=np.float64)
    elif not isinstance(Z, spla.LinearOperator):
        Z = check_array(Z, name="Z").astype(np.float64, copy=False)
    elif Z.dtype is not None and np.dtype(Z.dtype).kind not in "biuf":
        raise TypeError(f"Z must be a real operator, got dtype={Z.dtype}")
    is_array = isinstance(Z, np.ndarray)
    if method == "auto":
        method = "dense" if is_array and Z.size <= AUTO_DENSE_MAX_ENTRIES else "svds"
    iterations = None
    # Overflow shows as a non-finite L, refused below.
    with np.errstate(over="ignore", invalid="ignore"):
        if Z.shape[0] == 0 or Z.shape[1] == 0:
            sigma = 0.0
        elif method == "dense":
            if not is_array:
                raise TypeError("method='dense' needs an ndarray Z; use 'svds' or 'power' for a "
                                "LinearOperator")
            sigma = float(sla.svdvals(Z)[0])
        elif method == "svds":
            rng = as_generator(seed)
            if min(Z.shape) == 1:  # ARPACK needs k < min(n, d)
                sigma = float(np.linalg.norm(Z @ np.ones(Z.shape[1])) if Z.shape[1] == 1
                              else np.linalg.norm(Z.T @ np.ones(Z.shape[0])))
            else:
                v0 = rng.standard_normal(min(Z.shape))
                try:
                    sigma = float(spla.svds(spla.aslinearoperator(Z), k=1, tol=0, v0=v0,
                                            maxiter=maxiter, return_singular_vectors=False)[0])
                # A LinearOperator that returns NaN: ArpackError, or on older SciPy (1.10,
                # the floor) the ValueError of its finiteness check.
                except (spla.ArpackError, ValueError) as exc:
                    raise ValueError(f"svds failed on Z ({exc}); check that Z is finite, or use "
                                     f"method='power'") from None
        else:
            sigma, iterations = _power_sigma(spla.aslinearoperator(Z), as_generator(seed), rtol,
                                             maxiter or 10_000)
    L = 2.0 * sigma * sigma + 2.0 * l2   # Python floats: inf on overflow
    if not math.isfinite(L):
        raise ValueError(f"L = 2·σ_max(Z)² + 2·l2 is not finite (σ_max(Z) = {sigma:.3g}, "
                         f"l2 = {l2:.3g}); Z must be finite; rescale Z (or l2)")
    if return_info:
        return L, {"sigma_max": sigma, "method": method, "iterations": iterations}
    return L


fill_doc(lipschitz_constant)


def _power_sigma(op, rng, rtol, maxiter):
    v = rng.standard_normal(op.shape[1])
    v /= np.linalg.norm(v)
    lam_old = 0.0
    for it in range(1, maxiter + 1):
        w = op.rmatvec(op.matvec(v))
        lam = float(v @ w)
        nw = np.linalg.norm(w)
        if nw == 0:
            return 0.0, it
        v = w / nw
        if abs(lam - lam_old) <= rtol * abs(lam):
            return math.sqrt(max(lam, 0.0)), it
        lam_old = lam
    warnings.warn(f"power iteration did not reach rtol={rtol} in {maxiter} iterations",
                  ConvergenceWarning, stacklevel=3)
    return math.sqrt(max(lam, 0.0)), maxiter


@dataclass
class LeastSquaresResult:
    """argmin_W ‖ZW − Y‖_F² + l2‖W‖_F², by ``scipy.linalg.lstsq`` (SVD-based ``gelsd``).

    Attributes
    ----------
    W : ndarray (d, c)
        The minimiser (the minimum-norm one when Z is rank deficient and l2 = 0).
    rank : int
        Numerical rank of Z: singular values above max(n, d)·eps·σ_max (the same cutoff is
        used for the solve, so directions below it do not enter W).
    cond : float
        σ_max(Z)/σ_min(Z) over the min(n, d) singular values (inf if σ_min = 0).
    singular_values : ndarray
        Singular values of Z (not of the ridge-augmented system).
    objective : float
        ‖ZW − Y‖_F² + l2‖W‖_F² at W.
    """

    W: np.ndarray
    rank: int
    cond: float
    singular_values: np.ndarray
    objective: float


def least_squares(Z, Y, *, l2=0.0):
    """Closed-form minimiser of ‖ZW − Y‖_F² + l2‖W‖_F² without forming ZᵀZ.

    The ridge case solves the augmented problem [Z; √l2 I] W ≈ [Y; 0], so the normal
    equations (whose condition number is cond(Z)²) are never formed.

    Examples
    --------
    >>> import numpy as np
    >>> from ngc_ref.training import least_squares
    >>> res = least_squares(np.array([[1.0], [1.0]]), np.array([[1.0], [3.0]]))
    >>> res.W, res.rank, res.objective
    (array([[2.]]), 1, 2.0)
    """
    l2 = check_scalar(l2, "l2", min_val=0.0)
    Z = check_array(Z, name="Z").astype(np.float64, copy=False)
    Y = check_features(Y, Z.shape[0], name="Y").astype(np.float64, copy=False)
    if Z.size == 0 or Y.shape[1] == 0:   # nothing to fit: W = 0 is the minimum-norm minimiser
        W = np.zeros((Z.shape[1], Y.shape[1]))
        with np.errstate(over="ignore"):
            obj = float(np.sum(Y * Y))
        if not math.isfinite(obj):
            raise ValueError(f"the least-squares objective ‖Y‖² overflows float64 (max|Y| = "
                             f"{np.abs(Y).max():.3g}, and Z has no columns to fit it); rescale Y")
        return LeastSquaresResult(W=W, rank=0, cond=float("inf"),
                                  singular_values=np.zeros(min(Z.shape)), objective=obj)
    with np.errstate(over="ignore", invalid="ignore"):
        s = sla.svdvals(Z) if np.isfinite(np.sum(Z * Z)) else np.full(min(Z.shape), np.inf)
    if not np.all(np.isfinite(s)):
        raise ValueError("Z is too large in scale for float64 (its singular values "
                         "overflow); rescale Z")
    # One relative cutoff for the reported rank and for the solve (LAPACK's gelsd would use
    # eps alone and keep directions with σ/σ_max ~ 1e-14, whose inverse blows W_g* up).
    rcond = max(Z.shape) * np.finfo(np.float64).eps
    # LAPACK's residual sums may overflow for huge Y: the result is checked below instead.
    with np.errstate(over="ignore", invalid="ignore"):
        if l2 > 0:
            d = Z.shape[1]
            Za = np.vstack([Z, math.sqrt(l2) * np.eye(d)])
            Ya = np.vstack([Y, np.zeros((d, Y.shape[1]))])
            W, _, _, _ = sla.lstsq(Za, Ya, cond=rcond, lapack_driver="gelsd")
        else:
            W, _, _, _ = sla.lstsq(Z, Y, cond=rcond, lapack_driver="gelsd")
    rank = int(np.sum(s > rcond * (s[0] if s.size else 0.0)))
    cond = float(s[0] / s[-1]) if s.size and s[-1] > 0 else float("inf")
    with np.errstate(over="ignore", invalid="ignore"):
        R = Z @ W - Y
        # The penalty only when there is one: 0·‖W‖² would turn an overflowing ‖W‖² (features
        # of scale 1e-165 give W ~ 1e165) into NaN.
        obj = float(np.sum(R * R) + (l2 * np.sum(W * W) if l2 > 0 else 0.0))
    if not (np.all(np.isfinite(W)) and math.isfinite(obj)):
        raise ValueError(f"the least-squares solution overflows float64 (Z and Y differ too "
                         f"much in scale: max|Z| = {np.abs(Z).max():.3g}, max|Y| = "
                         f"{np.abs(Y).max():.3g}); rescale Z or Y")
    return LeastSquaresResult(W=W, rank=rank, cond=cond, singular_values=s, objective=obj)


@dataclass
class TheoryTrajectory:
    """Gradient descent on f (Eq. 8) with the quantities of Theorem 1 at every iterate.

    Arrays are indexed by the iteration k = 0, ..., n_steps (``k[0] = 0`` is W⁰).

    Attributes
    ----------
    k : ndarray of int
    f : ndarray
        f(W^(k)) = ‖ZW^(k) − Y‖_F² (data term only).
    objective : ndarray
        f(W^(k)) + l2‖W^(k)‖_F², the function GD minimises.
    g_gap : ndarray
        g(W^(k)) − g(W_g*), the left side of Eq. 13.
    f_gap_at_Wg : ndarray
        f(W^(k)) − f(W_g*), bounded by ``opt_term`` in the proof (for l2 = 0).
    W_norm : ndarray
        ‖W^(k)‖_F (Assumption 3).
    grad_norm : ndarray
        ‖∇objective(W^(k))‖_F.
    opt_term : ndarray
        ‖W⁰ − W_g*‖_F²/(2kα) (inf at k = 0), the first term of Eq. 13.
    noise_term : float
        τ·log n / n, the second term of Eq. 13.
    tau, tau_norm :
        τ and the normalisation it was computed with (the paper defines τ with "rw").
    noise_norm_sq : float
        ‖Ã_S η‖_F², the quantity Lemma 1 bounds.
    W, W_f_star, W_g_star : ndarray
        Last iterate and the closed-form minimisers of the objective and of g.
    lstsq_f, lstsq_g : LeastSquaresResult
        Rank and condition number of Z and Z*.
    g_gap_limit : float
        g(W_f*) − g(W_g*): where g_gap tends as k → ∞ (if Z has full column rank).
    L, alpha, n_steps, converged, settings :
        L = 2σ_max(Z)² + 2·l2, the step used, the iterations run, whether ``tol`` was met.
    """

    k: np.ndarray
    f: np.ndarray
    objective: np.ndarray
    g_gap: np.ndarray
    f_gap_at_Wg: np.ndarray
    W_norm: np.ndarray
    grad_norm: np.ndarray
    opt_term: np.ndarray
    noise_term: float
    tau: float
    tau_norm: str
    noise_norm_sq: float
    W: np.ndarray
    W_f_star: np.ndarray
    W_g_star: np.ndarray
    lstsq_f: LeastSquaresResult
    lstsq_g: LeastSquaresResult
    g_gap_limit: float
    L: float
    alpha: float
    n_steps: int
    converged: bool
    settings: dict = field(default_factory=dict)

    def descent_bound_holds(self, rtol=1e-10):
        """Whether f(W^(k)) − f(W_g*) ≤ ‖W⁰ − W_g*‖²/(2kα) for every k ≥ 1 (proof of Thm 1).

        Only meaningful for l2 = 0 and α ≤ 1/L; a relative slack ``rtol`` absorbs rounding.
        """
        lhs = self.f_gap_at_Wg[1:]
        rhs = self.opt_term[1:]
        scale = max(1.0, float(np.max(np.abs(self.f))))
        return bool(np.all(lhs <= rhs + rtol * scale))


def _targets(Y, n):
    Y = np.asarray(Y)
    if Y.ndim == 1:
        if Y.dtype.kind not in "iu" or (Y.size and Y.min() < 0):
            raise ValueError("a 1-D Y must hold non-negative integer labels (they are one-hot "
                             "encoded); pass an (n, c) float matrix otherwise")
        if Y.shape[0] != n:
            raise ValueError(f"Y must have one row per node: expected {n}, got shape={Y.shape}")
        c = int(Y.max()) + 1 if Y.size else 0
        from .._memory import check_memory
        check_memory(8.0 * n * c, "one-hot encoding the labels Y",
                     "pass Y as an (n, c) float matrix, or relabel the classes 0 .. c-1",
                     detail=f"an {n} x {c} float64 matrix for the largest label {c - 1}")
        out = np.zeros((n, c))
        out[np.arange(n), Y] = 1.0
        return out
    return check_features(Y, n, name="Y").astype(np.float64)


def theory_trajectory(A, X_clean, eta, Y, lam, S, *, norm="rw", steps=1000, alpha=None, W0=None,
                      l2=0.0, tol=None, seed=None, tau=None, tau_norm=None,
                      lipschitz_method="auto", weight="weight", nodelist=None):
    """Run gradient descent on f (Eq. 8) and record the terms of Theorem 1 (Eq. 13).

    .. math::

        W^{(k+1)} = W^{(k)} - \\alpha\\big(2Z^\\top(ZW^{(k)} - Y) + 2\\,l_2 W^{(k)}\\big),
        \\qquad Z = \\tilde{\\mathcal{A}}_S(X^* + \\eta),\\quad \\alpha \\le 1/L.

    Parameters
    ----------
    %(A)s
    X_clean : array_like or sparse, shape (n, d)
        X*.
    eta : array_like, shape (n, d)
        The noise η; the observed features are X* + η.
    Y : array_like, shape (n, c) float, or (n,) int labels (one-hot encoded)
    lam, S : float, int
        λ and the expansion order of Ã_S.
    %(norm)s
        Default ``"rw"`` here, by that rule: Theorem 1 is stated for D̃⁻¹Ã; ``"sym"`` runs the
        same descent with the experiments' filter.
    steps : int
        Maximum number of GD steps.
    alpha : float, optional
        Step size; default 1/L with L computed by :func:`lipschitz_constant`. A larger α warns
        (Theorem 1 assumes α ≤ 1/L).
    W0 : None, "random" or array (d, c)
        Start point: zeros (default), N(0, 1/d) entries drawn from ``seed``, or given.
    l2 : float
        Optional ridge penalty l2‖W‖_F² added to f for the descent (g, W_g* stay unpenalised).
    tol : float, optional
        Early stop when ‖∇objective(W^(k))‖_F ≤ tol · ‖∇objective(W^(0))‖_F.
    %(seed)s
        For ``W0="random"`` and the start vector of svds.
    tau : float, optional
        τ if already known; computed otherwise with :func:`ngc_ref.connectivity_factor`.
    tau_norm : {"rw", "sym"}, optional
        Normalisation for τ (default: ``"rw"``, as the paper defines τ: Def. 1, Eq. 5, with
        the row sums of Eq. 6).
    lipschitz_method : str
        Passed to :func:`lipschitz_constant`.
    %(weight)s
    %(nodelist)s
        Here the signals are ``X_clean``, ``eta`` and ``Y``.

    Returns
    -------
    TheoryTrajectory

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from ngc_ref.training import theory_trajectory
    >>> rng = np.random.default_rng(0)
    >>> G = nx.connected_watts_strogatz_graph(60, 6, 0.2, seed=0)
    >>> Xs = rng.standard_normal((60, 3)); Y = Xs @ rng.standard_normal((3, 2))
    >>> tr = theory_trajectory(G, Xs, 0.1 * rng.standard_normal((60, 3)), Y, lam=4.0, S=8,
    ...                        steps=200, seed=0)
    >>> tr.descent_bound_holds(), bool(tr.f[-1] < tr.f[0]), tr.tau_norm
    (True, True, 'rw')
    """
    steps = check_scalar(steps, "steps", min_val=0, integer=True)
    l2 = check_scalar(l2, "l2", min_val=0.0)
    check_norm(norm)
    tau_norm = check_norm(tau_norm or "rw")
    rng = as_generator(seed)
    # Read the graph once: Ã_S and τ below must see the same weights and node order.
    A = check_adjacency(A, weight=weight, nodelist=nodelist)
    filt = NeumannFilter(A, lam, S, norm=norm)
    Xs, eta, Y = _trajectory_data(filt.n, X_clean, eta, Y)
    Zs, Zeta = _propagate_both(filt, Xs, eta)
    Z = Zs + Zeta
    L, linfo, alpha = _step_size(Z, l2, alpha, lipschitz_method, rng)
    W = _start_point(W0, Xs.shape[1], Y.shape[1], rng)
    if tol is not None:
        tol = check_scalar(tol, "tol", min_val=0.0)
    if tau is None:
        from ..connectivity import connectivity_factor
        tau = connectivity_factor(A, lam, S, norm=tau_norm).tau
    else:
        tau = check_scalar(tau, "tau", min_val=0.0)
    lsq_f, lsq_g = _closed_forms(Z, Zs, Y, l2)
    q = _Quadratics(Z, Zs, Y, lsq_g.W)
    rec, W_last, n_steps, converged = _descend(q, W, alpha, l2, steps, tol, L)

    n, d, c = filt.n, Xs.shape[1], Y.shape[1]
    ks = np.arange(n_steps + 1)
    dist0 = float(np.sum((W - lsq_g.W) ** 2))
    with np.errstate(divide="ignore"):
        opt_term = np.where(ks > 0, dist0 / (2.0 * np.maximum(ks, 1) * alpha), np.inf)
    f_arr = np.asarray(rec["f"])
    settings = dict(lam=filt.lam, S=filt.S, norm=norm, steps=steps, l2=l2, tol=tol, n=n, d=d,
                    c=c, lipschitz=linfo, W0="zeros" if W0 is None else (
                        W0 if isinstance(W0, str) else "given"))
    return TheoryTrajectory(
        k=ks, f=f_arr, objective=np.asarray(rec["objective"]),
        g_gap=np.asarray(rec["g"]) - q.g_star, f_gap_at_Wg=f_arr - q.f_at_Wg,
        W_norm=np.asarray(rec["W_norm"]), grad_norm=np.asarray(rec["grad_norm"]),
        opt_term=opt_term, noise_term=tau * math.log(n) / n if n > 1 else float("nan"),
        tau=float(tau), tau_norm=tau_norm, noise_norm_sq=float(np.sum(Zeta * Zeta)),
        W=W_last, W_f_star=lsq_f.W, W_g_star=lsq_g.W, lstsq_f=lsq_f, lstsq_g=lsq_g,
        g_gap_limit=q.g(lsq_f.W) - q.g_star, L=L, alpha=float(alpha), n_steps=n_steps,
        converged=converged, settings=settings)


fill_doc(theory_trajectory)


def _trajectory_data(n, X_clean, eta, Y):
    """X*, η (float64, n rows, the same shape) and Y (one-hot if given as labels)."""
    Xs = check_features(X_clean, n, name="X_clean").astype(np.float64)
    eta = check_features(eta, n, name="eta").astype(np.float64)
    if eta.shape != Xs.shape:
        raise ValueError(f"eta must have the shape of X_clean {Xs.shape}, got {eta.shape}")
    return Xs, eta, _targets(Y, n)


def _propagate_both(filt, Xs, eta):
    """(Ã_S X*, Ã_S η) in one Horner pass over [X*, η]."""
    d = Xs.shape[1]
    P = filt.apply(np.hstack([Xs, eta]))
    return P[:, :d], P[:, d:]


def _step_size(Z, l2, alpha, lipschitz_method, rng):
    """(L, its info, α): α = 1/L by default; a given α above 1/L warns (Theorem 1: α ≤ 1/L)."""
    L, linfo = lipschitz_constant(Z, l2=l2, method=lipschitz_method, seed=rng, return_info=True)
    if alpha is None:
        if L == 0:
            raise ValueError("Z = Ã_S (X_clean + eta) = 0, so L = 0 and f is constant: there "
                             "is no step size 1/L; pass alpha= explicitly or nonzero X_clean")
        return L, linfo, 1.0 / L
    alpha = check_scalar(alpha, "alpha", min_val=0.0, include_min=False)
    if L > 0 and alpha > 1.0 / L * (1 + 1e-12):
        warnings.warn(f"alpha={alpha:.3g} exceeds 1/L={1.0 / L:.3g}; Theorem 1 assumes "
                      f"alpha <= 1/L", UserWarning, stacklevel=3)
    return L, linfo, alpha


def _start_point(W0, d, c, rng):
    """W⁰ (d x c): zeros (None), N(0, 1/d) entries (``"random"``), or a copy of the given one."""
    if W0 is None:
        return np.zeros((d, c))
    if isinstance(W0, str):
        check_option(W0, "W0", ("random",))
        return rng.standard_normal((d, c)) / math.sqrt(max(d, 1))
    W = np.array(check_features(W0, d, name="W0"), dtype=np.float64)
    if W.shape != (d, c):
        raise ValueError(f"W0 must have shape (d, c) = {(d, c)}, got {W.shape}")
    return W


def _closed_forms(Z, Zs, Y, l2):
    """The minimisers of the objective (on Z, with l2) and of g (on Z*, without)."""
    try:
        return least_squares(Z, Y, l2=l2), least_squares(Zs, Y)
    except ValueError as exc:
        raise ValueError(f"{exc}, with Z = Ã_S (X_clean + eta): rescale X_clean and eta (or Y) "
                         f"by a common factor") from None


class _Quadratics:
    """f and g as quadratics in W through the d x d Gram matrices, so that each value costs
    O(d²c) instead of O(ndc); also g* = g(W_g*) and f(W_g*), checked for overflow."""

    def __init__(self, Z, Zs, Y, Wg):
        self.G, self.B = Z.T @ Z, Z.T @ Y
        self.Gs, self.Bs = Zs.T @ Zs, Zs.T @ Y
        self.yy = float(np.sum(Y * Y))
        with np.errstate(over="ignore", invalid="ignore"):
            self.g_star = self.g(Wg)
            self.f_at_Wg = self.f(Wg)
            wg_sq = float(np.sum(Wg * Wg))
        if not (np.isfinite(self.g_star) and np.isfinite(self.f_at_Wg) and np.isfinite(wg_sq)):
            # Ã_S X* of scale ~1e-300 makes W_g* ~ 1e300: f(W_g*) and ‖W⁰ − W_g*‖² overflow
            # float64 and every bound term would be inf or NaN.
            scale = float(np.abs(Zs).max()) if Zs.size else 0.0
            raise ValueError(f"X_clean is too small in scale for float64: max|Ã_S X_clean| = "
                             f"{scale:.3g} makes the clean least-squares solution W_g* "
                             f"overflow (‖W_g*‖² = {wg_sq:.3g}); rescale X_clean (and eta) by "
                             f"a common factor")

    def _quad(self, Gm, Bm, V):  # ‖MV − Y‖² = tr(VᵀGV) − 2tr(VᵀB) + ‖Y‖²
        return float(np.sum(V * (Gm @ V)) - 2.0 * np.sum(V * Bm) + self.yy)

    def f(self, V):
        return self._quad(self.G, self.B, V)

    def g(self, V):
        return self._quad(self.Gs, self.Bs, V)

    def grad(self, V, l2):
        """∇(f + l2‖·‖²)(V)."""
        return 2.0 * (self.G @ V - self.B) + 2.0 * l2 * V


def _descend(q, W, alpha, l2, steps, tol, L):
    """Gradient descent from W, recording f, the objective, g, ‖W‖ and ‖∇‖ at every iterate.

    Returns (the records, the last iterate, the steps run, whether ``tol`` was met)."""
    rec = {key: [] for key in ("f", "objective", "g", "W_norm", "grad_norm")}

    def record(V, grad):
        fv = q.f(V)
        rec["f"].append(fv)
        rec["objective"].append(fv + l2 * float(np.sum(V * V)))
        rec["g"].append(q.g(V))
        rec["W_norm"].append(float(np.linalg.norm(V)))
        rec["grad_norm"].append(float(np.linalg.norm(grad)))

    with np.errstate(over="ignore", invalid="ignore"):
        grad = q.grad(W, l2)
        record(W, grad)
    if not (math.isfinite(rec["objective"][0]) and math.isfinite(rec["grad_norm"][0])):
        raise ValueError(f"the objective or its gradient at W0 overflows float64 (l2={l2:.3g}, "
                         f"‖W0‖={rec['W_norm'][0]:.3g}); use a smaller l2 or W0, or rescale "
                         f"X_clean and eta")
    g0 = rec["grad_norm"][0]
    converged = bool(tol is not None and g0 == 0.0)
    k_done = 0
    for k in range(1, steps + 1):
        if converged:
            break
        with np.errstate(over="ignore", invalid="ignore"):
            W = W - alpha * grad
            grad = q.grad(W, l2)
            record(W, grad)
        if not (math.isfinite(rec["objective"][-1]) and math.isfinite(rec["grad_norm"][-1])):
            raise ValueError(f"gradient descent diverged at step {k} (the objective overflowed "
                             f"float64) with alpha={alpha:.3g}; Theorem 1 needs "
                             f"alpha <= 1/L = {1.0 / L:.3g}")
        k_done = k
        if tol is not None and rec["grad_norm"][-1] <= tol * g0:
            converged = True
    return rec, W, k_done, converged
