"""The appendix proofs, one displayed step at a time, as numerical checks.

A proof is a chain of :class:`Step` objects in the paper's order: each is one ``=`` or ``≤``
between consecutive displayed expressions (or one displayed implication), quoted from the paper,
with a check ``check(inst) -> (ratio, ok)`` on one :class:`Instance` (a graph, a normalisation,
λ, S, d, σ). ``ratio`` is oriented so that larger is worse (measured/allowed for ``≤``, the larger
of lhs/rhs and rhs/lhs for ``=``); ``ok`` is the step's verdict on that instance. :func:`run_chain`
runs a chain on a list of instances (the minimal counterexample and seeded random graphs) and
returns the rows of a result's ``steps``: each step's verdict (``fails`` if it fails on any
instance), its worst ratio and where.

Chains: :data:`NEUMANN_CHAIN` (appendix 'Additional Details on the Neumann Series'),
:data:`ROW_SUM_CHAIN` (appendix 'The Row Summation of the Neumann Series', Eq. 6),
:data:`TWO_NODE_CHAIN` (the checker's own lemma: Eq. 17's series converges on two nodes at ε ≤ 1),
:data:`LEMMA_1_CHAIN` (appendix 'Proof of Lemma 1') and :data:`THEOREM_1_LAST` (the last display
of the appendix 'Proof of the Main Theorem', with its Cauchy–Schwarz correction). A step judged on
something other than instances (a trend over a claim's runs) makes its row with :func:`step_row`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Callable

import networkx as nx
import numpy as np

from . import certificates as ex

#: Relative tolerance of a float64 equality step.
EQ_RTOL = 1e-10
#: Relative margin of a float64 inequality step (rounding of erfc/exp in libm is ~1e-16).
LE_RTOL = 1e-9


@dataclass(frozen=True)
class Step:
    """One displayed step: ``key`` (e.g. ``"C.4 Eq. 6, second ="``, the row sums' second
    equality), ``text`` (the paper's line), ``check(inst) -> (ratio, ok)``."""

    key: str
    text: str
    check: Callable


@dataclass
class Instance:
    """One setting a chain is run on (a dense graph of any size)."""

    name: str
    n: int
    edges: list
    norm: str
    lam: float
    S: int
    d: int = 8
    sigma: float = 1.0
    seed: int = 0
    extra: dict = field(default_factory=dict)

    def describe(self, show=("lam", "S", "d", "sigma")):
        """'name (n, edges), norm, λ=…' with the parameters in ``show``."""
        names = {"lam": f"λ={self.lam:g}", "S": f"S={self.S}", "d": f"d={self.d}",
                 "sigma": f"σ={self.sigma:g}"}
        return ", ".join([f"{self.name} (n={self.n}, {len(self.edges)} edges)", self.norm]
                         + [names[k] for k in show])

    @cached_property
    def A(self):
        A = np.zeros((self.n, self.n))
        for u, v in self.edges:
            A[u, v] = A[v, u] = 1.0
        return A

    @cached_property
    def deg(self):
        return self.A.sum(axis=1) + 1.0

    @cached_property
    def An(self):
        At = self.A + np.eye(self.n)
        if self.norm == "rw":
            return At / self.deg[:, None]
        s = 1.0 / np.sqrt(self.deg)
        return s[:, None] * At * s[None, :]

    @cached_property
    def rw(self):
        return (self.A + np.eye(self.n)) / self.deg[:, None]

    @property
    def r(self):
        return self.lam / (self.lam + 1.0)

    @cached_property
    def M(self):
        M = np.eye(self.n)
        for _ in range(self.S):
            M = np.eye(self.n) + self.r * self.An @ M
        return M / (self.lam + 1.0)

    @property
    def mass(self):
        return 1.0 - self.r ** (self.S + 1)

    @cached_property
    def rho(self):
        return (self.M ** 2).sum(axis=1)

    @property
    def tau(self):
        return float(self.n * self.rho.max() / self.mass ** 2)


def instance_from(where, norm, **kw):
    """An :class:`Instance` from an atlas ``where`` record (or any dict with n, edges, lam, S)."""
    name = f"atlas G{where['atlas_index']}" if "atlas_index" in where else where.get("name", "")
    return Instance(name, where["n"], [list(e) for e in where["edges"]], norm,
                    float(where["lam"]), int(where.get("S", 0)), **kw)


def random_instances(rng, count, norm, *, d_values=(2, 8, 64), sigmas=(1.0,)):
    """``count`` seeded G(n, p) instances: n in 2..12, p in [0.15, 0.9], λ from the paper's
    range, S in 0..20, d from ``d_values``, σ from ``sigmas``."""
    out = []
    for k in range(count):
        n = int(rng.integers(2, 13))
        p = float(rng.uniform(0.15, 0.9))
        gseed = int(rng.integers(2**31))
        G = nx.gnp_random_graph(n, p, seed=gseed)
        out.append(Instance(f"gnp-{n}-{p:.2f}-seed{gseed}", n, [list(e) for e in G.edges()],
                            norm, float(rng.choice([0.5, 1.0, 2.0, 32.0, 64.0])),
                            int(rng.integers(0, 21)), d=int(rng.choice(d_values)),
                            sigma=float(rng.choice(sigmas)), seed=k))
    return out


def run_chain(steps, instances, show=("lam", "S", "d", "sigma")):
    """Each step of ``steps`` on every instance: rows for a result's ``steps`` field (``show``:
    the parameters named in each row's ``where``)."""
    rows = []
    for st in steps:
        worst, worst_bad, n_bad = (-math.inf, None), (-math.inf, None), 0
        for inst in instances:
            ratio, ok = st.check(inst)
            ratio = float(ratio)
            if ratio > worst[0]:
                worst = (ratio, inst)
            if not ok:
                n_bad += 1
                if ratio > worst_bad[0]:
                    worst_bad = (ratio, inst)
        ratio, inst = worst_bad if n_bad else worst
        rows.append(step_row(st.key, st.text, "fails" if n_bad else "holds", ratio,
                             inst.describe(show) if inst else "", len(instances), n_bad))
    return rows


def step_row(key, text, verdict, worst_ratio, where, instances, failing_instances):
    """One row of a result's ``steps`` (what :func:`run_chain` makes per step), for a step
    judged on something other than instances (e.g. a trend over the runs of a claim)."""
    return {"step": key, "text": text, "verdict": verdict, "worst_ratio": worst_ratio,
            "where": where, "instances": instances, "failing_instances": failing_instances}


def first_failure(rows):
    """The first failing step of a chain's rows, or None."""
    return next((r for r in rows if r["verdict"] == "fails"), None)


def _eq(lhs, rhs, scale=None):
    """(ratio, ok) of an equality of arrays: ratio = 1 + max |lhs − rhs| / scale."""
    lhs, rhs = np.asarray(lhs, float), np.asarray(rhs, float)
    scale = scale if scale is not None else max(float(np.abs(rhs).max(initial=0.0)), 1e-300)
    dev = float(np.abs(lhs - rhs).max(initial=0.0)) / scale
    return 1.0 + dev, dev <= EQ_RTOL


def _le(lhs, rhs):
    """(ratio, ok) of lhs ≤ rhs elementwise: ratio = max lhs/rhs."""
    lhs, rhs = np.asarray(lhs, float), np.asarray(rhs, float)
    ratio = float(np.max(lhs / rhs))
    return ratio, ratio <= 1.0 + LE_RTOL


# --- Neumann series (appendix B) ---------------------------------------------------------------

def _sym_eig_to_rw(inst):
    s = 1.0 / np.sqrt(inst.deg)
    sym = s[:, None] * (inst.A + np.eye(inst.n)) * s[None, :]
    mu, V = np.linalg.eigh(sym)
    U = s[:, None] * V                        # D̃^{-1/2} v
    res = np.linalg.norm(inst.rw @ U - U * mu, axis=0) / np.linalg.norm(U, axis=0)
    return 1.0 + float(res.max()), float(res.max()) <= EQ_RTOL


def _gershgorin(inst):
    P = inst.rw
    mu = np.linalg.eigvals(P)
    c, R = np.diag(P), np.abs(P).sum(axis=1) - np.abs(np.diag(P))
    # for each eigenvalue, the best disc: min_i |μ − a_ii| / R_i (≤ 1: inside; R_i = 0: a_ii)
    dist = np.abs(mu[:, None] - c[None, :])
    ratio = np.where(R[None, :] > 0, dist / np.where(R > 0, R, 1.0)[None, :],
                     np.where(dist <= 1e-12, 0.0, np.inf)).min(axis=1)
    return float(ratio.max()), bool(ratio.max() <= 1 + LE_RTOL)


def _eig_range(inst):
    mu = np.linalg.eigvals(inst.An).real
    lo = 2.0 / inst.deg - 1.0                 # a_ii − Σ_{j≠i} a_ij for rw rows
    ok = mu.max() <= 1 + EQ_RTOL and mu.min() > -1 and bool((lo > -1).all())
    return float(max(mu.max(), -mu.min())), ok


def _spectral_radius(inst):
    rho = float(np.abs(np.linalg.eigvals(inst.r * inst.An)).max())
    return rho / inst.r if inst.r else 0.0, rho <= inst.r * (1 + EQ_RTOL) and inst.r < 1


def _gelfand(inst):
    A = inst.r * inst.An
    rho = float(np.abs(np.linalg.eigvals(A)).max())
    norm1 = np.linalg.norm(A, 2)
    worst, ok, P = 0.0, True, np.eye(inst.n)
    for k in range(1, max(inst.S, 1) + 2):
        P = P @ A
        g = np.linalg.norm(P, 2) ** (1.0 / k)
        worst = max(worst, rho / g if g else 0.0, g / norm1 if norm1 else 0.0)
        ok &= rho <= g * (1 + EQ_RTOL) and g <= norm1 * (1 + EQ_RTOL)
    return worst, ok


def _telescoping(inst):
    A = inst.r * inst.An
    Sk, P = np.zeros((inst.n, inst.n)), np.eye(inst.n)
    for _ in range(inst.S + 1):
        Sk, P = Sk + P, P @ A
    return _eq((np.eye(inst.n) - A) @ Sk, np.eye(inst.n) - P, 1.0)


def _gsd_identity(inst):
    n = inst.n
    lhs = np.linalg.inv(np.eye(n) + inst.lam * (np.eye(n) - inst.An))
    rhs = np.linalg.inv(np.eye(n) - inst.r * inst.An) / (inst.lam + 1)
    return _eq(lhs, rhs)


def _series_limit(inst):
    A = inst.r * inst.An
    K = int(math.ceil(math.log(1e-14) / math.log(inst.r))) if 0 < inst.r < 1 else 1
    Sk, P = np.zeros((inst.n, inst.n)), np.eye(inst.n)
    for _ in range(min(K, 200000) + 1):
        Sk, P = Sk + P, P @ A
    inv = np.linalg.inv(np.eye(inst.n) - A)
    ratio, _ = _eq(Sk, inv)
    return ratio, ratio - 1 <= 1e-8 * (1 + inst.lam)


NEUMANN_CHAIN = (
    Step("B.1 eigen-pair transfer",
         "(D̃^{-1/2}ÃD̃^{-1/2})v = λv ⟹ (D̃⁻¹Ã)D̃^{-1/2}v = λD̃^{-1/2}v, i.e. (λ, D̃^{-1/2}v) is "
         "an eigen-pair of D̃⁻¹Ã (printed 'D̃⁻¹A')", _sym_eig_to_rw),
    Step("B.2 Gerschgorin",
         "there exists i such that |λ − (D̃⁻¹Ã)_ii| ≤ Σ_{j≠i}|(D̃⁻¹Ã)_ij|", _gershgorin),
    Step("B.3 eigenvalue range",
         "−1 < (D̃⁻¹Ã)_ii − Σ_{j≠i}|(D̃⁻¹Ã)_ij| ≤ λ ≤ (D̃⁻¹Ã)_ii + Σ_{j≠i}|(D̃⁻¹Ã)_ij| = 1",
         _eig_range),
    Step("B.4 spectral radius", "ρ((λ/(λ+1))Ã) ≤ λ/(λ+1) < 1", _spectral_radius),
    Step("B.5 Gelfand", "ρ(A) = lim_k |||A^k|||^{1/k} = inf_{k≥1} |||A^k|||^{1/k} ≤ |||A||| "
                        "(A = rÃ, 2-norm, k = 1..S+1)", _gelfand),
    Step("B.6 telescoping", "(I − A)S_k = I − A^{k+1}, S_k = A⁰ + ... + A^k (A = rÃ, k = S)",
         _telescoping),
    Step("B.7 series limit", "(I − (λ/(λ+1))Ã)⁻¹ = Σ_{k=0}^∞ ((λ/(λ+1))Ã)^k (partial sum to "
                             "r^K ≤ 1e-14)", _series_limit),
    Step("B.8 GSD identity",
         "(I + λL̃)⁻¹ = (1/(λ+1))(I − (λ/(λ+1))Ã)⁻¹", _gsd_identity),
)


# --- Row summation (appendix C, Eq. 6) ---------------------------------------------------------

def _stochastic_hypothesis(inst):
    rows = inst.An.sum(axis=1)
    return _eq(rows, np.ones(inst.n), 1.0)


def _powers_stochastic(inst):
    P, worst, ok = np.eye(inst.n), 1.0, True
    for _ in range(max(inst.S, 1)):
        P = P @ inst.An
        ratio, good = _eq(P.sum(axis=1), np.ones(inst.n), 1.0)
        worst, ok = max(worst, ratio), ok and good
    return worst, ok


def _series_row_sums(inst):
    """Σ_s r^s (Ã^s 1), the row sums of the series term by term."""
    P, total = np.eye(inst.n), np.zeros(inst.n)
    for s in range(inst.S + 1):
        total += inst.r ** s * P.sum(axis=1)
        P = P @ inst.An
    return total


def _row_linearity(inst):
    return _eq(inst.M.sum(axis=1), _series_row_sums(inst) / (inst.lam + 1.0))


def _row_powers_to_one(inst):
    rhs = sum(inst.r ** s for s in range(inst.S + 1))
    return _eq(_series_row_sums(inst), np.full(inst.n, rhs))


def _geometric(inst):
    lam = ex.frac(inst.lam)
    r = lam / (lam + 1)
    lhs = sum((r ** s for s in range(inst.S + 1)), Fraction(0)) / (lam + 1)
    return (1.0 if lhs == ex.mass(lam, inst.S) else math.inf), lhs == ex.mass(lam, inst.S)


ROW_SUM_CHAIN = (
    Step("C.1 hypothesis of the transition-matrix lemma, P = Ã",
         "Consider a probability matrix P ... P_ij ≥ 0 ... for all i, Σ_j P_ij = 1",
         _stochastic_hypothesis),
    Step("C.2 transition-matrix lemma, P = Ã",
         "for any s ∈ Z₊, Σ_j P^s_ij = 1 (s = 1..S)", _powers_stochastic),
    Step("C.3 Eq. 6, first =",
         "Σ_j [Ã_S]_ij = (1/(λ+1)) Σ_{s=0}^S ((λ/(λ+1))[Ã]_ij)^s (read: Σ_s r^s Σ_j [Ã^s]_ij; "
         "the printed [Ã]_ij^s is an entrywise power)", _row_linearity),
    Step("C.4 Eq. 6, second =",
         "= (1/(λ+1)) Σ_{s=0}^S (λ/(λ+1))^s", _row_powers_to_one),
    Step("C.5 Eq. 6, third =", "= 1 − (λ/(λ+1))^{S+1} (exact, rational λ)", _geometric),
)


# --- RNGC on two nodes: the series of Eq. 17 cannot diverge at ε ≤ 1 (our lemma) --------------
#
# Instances carry the features and ε in ``extra``: {"X": (2, d) array, "eps": ε in [0, 1]}.

def _rngc_P(inst):
    X = np.asarray(inst.extra["X"], dtype=float)
    G = X @ X.T
    return G / np.linalg.norm(G)


def _two_symmetric(inst):
    return _eq(inst.An, inst.An.T, 1.0)


def _two_spectrum(inst):
    """λ_min(Ã) ≥ 0 (ratio: 1 − λ_min, ≤ 1 when it holds); exact: the 2 × 2 Ã is J/2 or I."""
    mu = np.linalg.eigvalsh((inst.An + inst.An.T) / 2)
    exact = ex.rw_matrix(inst.n, inst.edges)
    ok = inst.n == 2 and exact in ([[Fraction(1, 2)] * 2] * 2, ex.identity(2))
    return 1.0 - float(mu.min()), ok and float(mu.min()) >= -EQ_RTOL


def _p_psd(inst):
    """P ⪰ 0 and ‖P‖₂ ≤ ‖P‖_F = 1 (ratio: ‖P‖₂ and −λ_min(P) against 1 and 0)."""
    P = _rngc_P(inst)
    mu = np.linalg.eigvalsh(P)
    fro = float(np.linalg.norm(P))
    ok = mu.min() >= -EQ_RTOL and mu.max() <= fro * (1 + EQ_RTOL) and abs(fro - 1) <= EQ_RTOL
    return max(float(mu.max()), 1.0 - float(mu.min())), bool(ok)


def _weyl(inst):
    """λ_k(Ã) − ε‖P‖₂ ≤ λ_k(Ã − εP) ≤ λ_k(Ã) for each k (sorted eigenvalues)."""
    P, eps = _rngc_P(inst), float(inst.extra["eps"])
    a = np.linalg.eigvalsh(inst.An)
    b = np.linalg.eigvalsh(inst.An - eps * P)
    p2 = float(np.linalg.eigvalsh(P).max())
    over = max(float((b - a).max()), float((a - eps * p2 - b).max()))
    return 1.0 + max(over, 0.0), over <= EQ_RTOL


def _two_interval(inst):
    """spec(Ã − εP) ⊂ [−ε, 1] ⊂ [−1, 1] (ratio: the largest |eigenvalue|, ≤ 1)."""
    eps = float(inst.extra["eps"])
    b = np.linalg.eigvalsh(inst.An - eps * _rngc_P(inst))
    ok = b.max() <= 1 + EQ_RTOL and b.min() >= -eps - EQ_RTOL and 0 <= eps <= 1
    return float(np.abs(b).max()), bool(ok)


def _two_radius(inst):
    """ρ(r(Ã − εP)) ≤ r < 1 (ratio: ρ/r)."""
    eps = float(inst.extra["eps"])
    rho = float(np.abs(np.linalg.eigvals(inst.r * (inst.An - eps * _rngc_P(inst)))).max())
    return rho / inst.r, rho <= inst.r * (1 + EQ_RTOL) and inst.r < 1


TWO_NODE_CHAIN = (
    Step("R2.1 symmetric Ã",
         "on n = 2 nodes Ã is symmetric in both normalisations: K2 is regular (D̃⁻¹Ã = "
         "D̃^{-1/2}ÃD̃^{-1/2} = J/2) and two isolated nodes give Ã = I", _two_symmetric),
    Step("R2.2 spectrum of Ã",
         "spec(Ã) = {1, 0} (K2) or {1, 1} (no edge): λ_min(Ã) ≥ 0 (exact 2 × 2 Ã_rw = J/2 or I)",
         _two_spectrum),
    Step("R2.3 P is PSD, ‖P‖₂ ≤ 1",
         "P = XXᵀ/‖XXᵀ‖_F is symmetric positive semi-definite and ‖P‖₂ ≤ ‖P‖_F = 1",
         _p_psd),
    Step("R2.4 Weyl", "λ_k(Ã) − ε‖P‖₂ ≤ λ_k(Ã − εP) ≤ λ_k(Ã) for k = 1, 2 (Ã, P symmetric, "
                      "εP ⪰ 0 with ‖εP‖₂ ≤ ε)", _weyl),
    Step("R2.5 interval", "hence spec(Ã − εP) ⊂ [λ_min(Ã) − ε, 1] ⊂ [−ε, 1] ⊂ [−1, 1] for "
                          "0 ≤ ε ≤ 1", _two_interval),
    Step("R2.6 convergence", "ρ((λ/(λ+1))(Ã − εP)) ≤ λ/(λ+1) < 1: the series of Eq. 17 "
                             "converges", _two_radius),
)


# --- Lemma 1 (appendix D) ----------------------------------------------------------------------

def _tail_grid(inst):
    """t values where the tail bounds are compared: σ√ρ_max·x, x in [0.25, 12]."""
    return inst.sigma * math.sqrt(float(inst.rho.max())) * np.linspace(0.25, 12.0, 96)


def _entry_definition(inst):
    rng = np.random.default_rng([inst.seed, inst.n, inst.d])
    eta = rng.standard_normal((inst.n, inst.d)) * inst.sigma
    Z = inst.M @ eta
    Z2 = np.einsum("ip,pj->ij", inst.M, eta)
    return _eq(Z2, Z)


def _hoeffding_entry(inst):
    t = _tail_grid(inst)
    m2s2 = inst.tau * inst.mass ** 2 * inst.sigma ** 2
    bound = 2.0 * np.exp(-inst.n * t ** 2 / (2.0 * m2s2))
    rho = inst.rho[inst.rho > 0]
    exact = np.array([[math.erfc(x / (inst.sigma * math.sqrt(2 * p))) for x in t] for p in rho])
    return _le(exact.max(axis=0), bound)


def _union_pairs(inst):
    """Lower bound of P(max_ij |Z_ij| ≥ t) for Gaussian η (independent columns) against the
    printed 2n²exp(·) (n² pairs)."""
    t = _tail_grid(inst)
    rmax = float(inst.rho.max())
    q = np.array([math.erfc(x / (inst.sigma * math.sqrt(2 * rmax))) for x in t])
    lower = -np.expm1(inst.d * np.log1p(-np.minimum(q, 1 - 1e-300)))
    printed = 2.0 * inst.n ** 2 * np.exp(-t ** 2 / (2.0 * inst.sigma ** 2 * rmax))
    return _le(lower, printed)


def _frobenius_to_max(inst):
    """Realise Z = Ã_Sη = c·1 (n × d): ‖Z‖_F² = nd·c² ≥ t := nd·c², yet ‖Z‖_max² = c² < t."""
    Z = np.ones((inst.n, inst.d))
    eta = np.linalg.solve(inst.M, Z)
    Zr = inst.M @ eta
    fro2, max2 = float((Zr ** 2).sum()), float((Zr ** 2).max())
    return fro2 / max2, inst.n * inst.d == 1


def _choice_of_t(inst):
    """2n⁴exp(−n t/(2τm²σ²)) at the proof's t = 2τm²(4 log n + log 2d)/n (no σ²) against 1/d."""
    expo = (4 * math.log(inst.n) + math.log(2 * inst.d)) / inst.sigma ** 2
    prob = 2.0 * inst.n ** 4 * math.exp(-expo)
    return prob * inst.d, prob <= (1 + LE_RTOL) / inst.d


def _conclusion(inst):
    """Eq. 11 for Gaussian η: Paley–Zygmund lower bound on P(‖Ã_Sη‖_F² > bound) against 1/d
    (float64 here; the minimal counterexample carries the interval certificate)."""
    fro2 = float((inst.M ** 2).sum())
    E = inst.d * fro2
    V = 2 * inst.d * float(((inst.M.T @ inst.M) ** 2).sum())
    B = 2 * float(inst.rho.max()) * (4 * math.log(inst.n) + math.log(2 * inst.d))
    theta = B / E
    pz = (1 - theta) ** 2 * E ** 2 / (V + E ** 2) if theta < 1 else 0.0
    return pz * inst.d, pz <= (1 + LE_RTOL) / inst.d


LEMMA_1_CHAIN = (
    Step("D.1 entry", "[Ã_Sη]_ij = Σ_{p=1}^n (Ã_S)_ip η_pj", _entry_definition),
    Step("D.2 Hoeffding, one entry",
         "P(|[Ã_Sη]_ij| ≥ t) ≤ 2exp{−nt²/(2τ(1 − (λ/(λ+1))^{S+1})²σ²)} (printed with "
         "Σ_s((λ/(λ+1))Ã_S)^s/(λ+1) for Ã_S; checked for Gaussian η, exact tail erfc)",
         _hoeffding_entry),
    Step("D.3 first union bound (n² pairs)",
         "Applying union bound to all possible pairs of i ∈ [n], j ∈ [n]: "
         "P(‖Ã_Sη‖_{∞,∞} ≥ t) ≤ Σ_{i,j} P([Ã_Sη]_ij ≥ t) ≤ 2n²exp{...} (Ã_Sη is n × d: nd "
         "entries; lower bound 1 − (1 − P(|Z_ij| ≥ t))^d from the d independent columns)",
         _union_pairs),
    Step("D.4 second union bound (‖·‖_F² ≥ t ⇒ ‖·‖_max² ≥ t)",
         "P(‖Ã_Sη‖_F² ≥ t) ≤ Σ_{i,j} P(‖Ã_Sη‖_{∞,∞} ≥ √t) ≤ 2n⁴exp{−nt/(2τ(...)²σ²)} (uses "
         "‖M‖_F² ≥ t ⇒ max_ij M_ij² ≥ t; only max_ij M_ij² ≥ t/(nd) follows; ratio = "
         "‖Z‖_F²/‖Z‖_max² on Z = Ã_Sη = 1)", _frobenius_to_max),
    Step("D.5 choice of t",
         "Choose t = 2τ(1 − (λ/(λ+1))^{S+1})²(4 log n + log 2d)/n and with probability "
         "1 − 1/d ... (the t has no σ²: 2n⁴exp{−nt/(2τm²σ²)} = 1/d only for σ = 1)",
         _choice_of_t),
    Step("D.6 conclusion (Eq. 11)",
         "‖Ã_Sη‖_F² ≤ 2τ(1 − (λ/(λ+1))^{S+1})²σ²(4 log n + log 2d)/n with probability ≥ "
         "1 − 1/d (ratio = d × Paley–Zygmund lower bound on the exceedance probability, Gaussian "
         "η)", _conclusion),
)


# --- Theorem 1, last display (appendix E) -------------------------------------------------------

#: The printed noise term and the one Cauchy–Schwarz gives, a = ‖Ã_Sη‖_F‖W‖_F, b = ‖R‖_F.
_SQUARED = "‖Ã_Sη‖_F²‖W‖_F²(2‖R‖_F² + ‖Ã_Sη‖_F²‖W‖_F²) = a²(2b² + a²)"
_FIRST_POWERS = "2‖Ã_Sη‖_F‖W‖_F‖R‖_F + ‖Ã_Sη‖_F²‖W‖_F² = a(2b + a)"


def _theorem_setting(inst):
    """X*, η, Y = Ã_SX*W_true (clean labels the model fits exactly), W_g* = argmin g, and
    W_f^(k): k = ``inst.extra["k"]`` (default 5000) gradient steps on f from W⁰ = 0 with
    α = 1/L. Kept on the instance (both steps use it)."""
    if "theorem" in inst.extra:
        return inst.extra["theorem"]
    rng = np.random.default_rng([inst.seed, inst.n, 17])
    c = 2
    Xs = rng.standard_normal((inst.n, inst.d))
    eta = inst.sigma * rng.standard_normal((inst.n, inst.d))
    M = inst.M
    Y = M @ Xs @ rng.standard_normal((inst.d, c))
    Wg = np.linalg.lstsq(M @ Xs, Y, rcond=None)[0]
    H = M @ (Xs + eta)
    L = 2.0 * np.linalg.norm(H, 2) ** 2
    alpha, k = 1.0 / L, int(inst.extra.get("k", 5000))
    W0 = np.zeros((inst.d, c))
    W = W0.copy()
    for _ in range(k):
        W = W - alpha * 2.0 * H.T @ (H @ W - Y)
    inst.extra["theorem"] = (Xs, eta, Y, Wg, W, W0, alpha, k)
    return inst.extra["theorem"]


def _t1_expansion(inst):
    Xs, eta, Y, Wg, W, *_ = _theorem_setting(inst)
    M = inst.M
    f = lambda V: float(np.sum((M @ (Xs + eta) @ V - Y) ** 2))   # noqa: E731
    g = lambda V: float(np.sum((M @ Xs @ V - Y) ** 2))           # noqa: E731
    a, ag = M @ eta @ W, M @ eta @ Wg
    rhs = (f(W) - f(Wg) + 2 * np.sum(ag * (M @ Xs @ Wg - Y)) + np.sum(ag * ag)
           - 2 * np.sum(a * (M @ Xs @ W - Y)) - np.sum(a * a))
    return _eq(g(W) - g(Wg), rhs, max(abs(g(W) - g(Wg)), 1.0))


def _t1_terms(inst):
    """(lhs, first, (a_g, b_g), (a_f, b_f)) of the last display: lhs = g(W^(k)) − g(W_g*),
    first = ‖W⁰ − W_g*‖_F²/(2kα), a = ‖Ã_Sη‖_F‖W‖_F and b the residual's ‖·‖_F (clean features
    for W_g*, ‖Ã_SX*W_g* − Y‖_F; the noisy ones for W^(k), ‖Ã_SXW^(k) − Y‖_F, as printed)."""
    Xs, eta, Y, Wg, W, W0, alpha, k = _theorem_setting(inst)
    M = inst.M
    g = lambda V: float(np.sum((M @ Xs @ V - Y) ** 2))           # noqa: E731
    e = float(np.linalg.norm(M @ eta))
    first = float(np.sum((W0 - Wg) ** 2)) / (2 * k * alpha)
    ab_g = (e * float(np.linalg.norm(Wg)), float(np.linalg.norm(M @ Xs @ Wg - Y)))
    ab_f = (e * float(np.linalg.norm(W)), float(np.linalg.norm(M @ (Xs + eta) @ W - Y)))
    return g(W) - g(Wg), first, ab_g, ab_f


def _t1_bound(inst):
    """The printed bound: each noise term a²(2b² + a²), squared norms throughout."""
    Xs, eta, Y, Wg, W, W0, alpha, k = _theorem_setting(inst)
    M = inst.M
    g = lambda V: float(np.sum((M @ Xs @ V - Y) ** 2))           # noqa: E731
    e2 = float(np.sum((M @ eta) ** 2))
    wg2, w2 = float(np.sum(Wg ** 2)), float(np.sum(W ** 2))
    rhs = (float(np.sum((W0 - Wg) ** 2)) / (2 * k * alpha)
           + e2 * wg2 * (2 * float(np.sum((M @ Xs @ Wg - Y) ** 2)) + e2 * wg2)
           + e2 * w2 * (2 * float(np.sum((M @ (Xs + eta) @ W - Y) ** 2)) + e2 * w2))
    lhs = g(W) - g(Wg)
    return (lhs / rhs if rhs > 0 else math.inf), lhs <= rhs * (1 + LE_RTOL)


def _t1_cauchy_schwarz(inst):
    """The bound Cauchy–Schwarz gives: each noise term a(2b + a), first powers."""
    lhs, first, (ag, bg), (af, bf) = _t1_terms(inst)
    rhs = first + ag * (2 * bg + ag) + af * (2 * bf + af)
    return (lhs / rhs if rhs > 0 else math.inf), lhs <= rhs * (1 + LE_RTOL)


THEOREM_1_LAST = (
    Step("E.last =", "g(W_f^(k)) − g(W_g*) = f(W_f^(k)) − f(W_g*) + 2⟨Ã_SηW_g*, Ã_SX*W_g* − Y⟩ "
                     "+ ⟨Ã_SηW_g*, Ã_SηW_g*⟩ − 2⟨Ã_SηW_f^(k), Ã_SX*W_f^(k) − Y⟩ − "
                     "⟨Ã_SηW_f^(k), Ã_SηW_f^(k)⟩", _t1_expansion),
    Step("E.last ≤", "≤ (1/(2kα))‖W_f^(0) − W_g*‖_F² + ‖Ã_Sη‖_F²‖W_g*‖_F²(2‖Ã_SX*W_g* − Y‖_F² + "
                     "‖Ã_Sη‖_F²‖W_g*‖_F²) + ‖Ã_Sη‖_F²‖W_f^(k)‖_F²(2‖Ã_SXW_f^(k) − Y‖_F² + "
                     "‖Ã_Sη‖_F²‖W_f^(k)‖_F²) (Y = Ã_SX*W, k gradient steps from W⁰ = 0, "
                     "α = 1/L). Where it is false, why: each inner-product term is bounded "
                     f"with squared norms, {_SQUARED}, where Cauchy–Schwarz gives first powers, "
                     f"{_FIRST_POWERS}; with a, b < 1 (small noise) a²(2b² + a²) is far below "
                     "a(2b + a) and below the terms it bounds", _t1_bound),
    Step("E.last ≤ (Cauchy–Schwarz)",
         "corrected step: ≤ (1/(2kα))‖W_f^(0) − W_g*‖_F² + a_g(2b_g + a_g) + a_f(2b_f + a_f), "
         "a = ‖Ã_Sη‖_F‖W‖_F, b_g = ‖Ã_SX*W_g* − Y‖_F, b_f = ‖Ã_SXW_f^(k) − Y‖_F: "
         "g(W) − g(W_g*) = f(W) − f(W_g*) + h(W_g*) − h(W) with h(W) = f(W) − g(W) = "
         "2⟨Ã_SηW, Ã_SX*W − Y⟩ + ‖Ã_SηW‖_F² = 2⟨Ã_SηW, Ã_SXW − Y⟩ − ‖Ã_SηW‖_F², and "
         "|⟨Ã_SηW, R⟩| ≤ ‖Ã_SηW‖_F‖R‖_F ≤ ‖Ã_Sη‖_F‖W‖_F‖R‖_F (Cauchy–Schwarz, ‖·‖_F "
         "sub-multiplicative); f(W^(k)) − f(W_g*) ≤ ‖W⁰ − W_g*‖_F²/(2kα) as the proof shows",
         _t1_cauchy_schwarz),
)
