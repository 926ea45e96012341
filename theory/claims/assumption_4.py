"""Assumption 4 and the sentence after it: "The L-smoothness of f depends on the largest singular
value of Ã_S X" (Sec. 3).

f(W) = ‖BW − Y‖_F² with B = Ã_S X (Eq. 8) is quadratic in W, so ∇f(W₁) − ∇f(W₂) is the Hessian
applied to W₁ − W₂, and the smallest L of Assumption 4 is the Hessian's norm as a map of d × c
matrices. Assumption 4 writes ‖·‖_2 for those matrices, the spectral norm (the Frobenius norm is
‖·‖_F throughout the paper); the claim asks for L in both norms. Both are 2σ_max(B)²: the
Hessian is 2BᵀB ⊗ I_c (Δ ↦ 2BᵀBΔ), whose norm is 2‖BᵀB‖_2 = 2σ_max(B)² for either.

The check does not use the gradient formula: it builds the Hessian from values of f alone
(second differences, exact for a quadratic up to rounding: f(e_k + e_l) − f(e_k) − f(e_l) +
f(0) = H_kl), reads the smallest L from it in each norm and compares with 2σ_max(Ã_S X)² from an
SVD, on every atlas graph with 2 to 5 nodes × the λ, S grid with Gaussian X (d = 3) and one-hot
Y (c = 2); and, exactly (fractions), on K2 at λ = S = 1 with integer X.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ngc_ref import neumann_matrix

from ..exact import certificates as ex
from ..exact.atlas import adjacency, graph_name, stacks
from ..kit.evidence import EXACT_RTOL, Judgement, counterexample
from ..kit.claim import Violation, claim
from ..kit.graphs import lam_S_grid
from ..paper.words import eq, generic

ID = "assumption-4"
WORDS = ("Sec. 3, after Assumption 4: 'The L-smoothness of f depends on the largest singular "
         "value of Ã_S X'")
ASSUMPTION_WORDS = (f"Assumption 4 ({eq('assumption-4')}): 'The loss function in "
                    f"{eq('loss-f', parens=True)} is L-smooth, ‖∇f(W₁) − ∇f(W₂)‖_2 ≤ "
                    "L‖W₁ − W₂‖_2 for all W₁, W₂ ∈ R^{d×c}'")
STATEMENT = (f"f(W) = ‖Ã_S X W − Y‖_F² ({eq('loss-f')}) is L-smooth with the smallest constant "
             "L = 2σ_max(Ã_S X)², the largest singular value the sentence names, in the norm "
             "Assumption 4 writes (‖·‖_2 on d × c matrices: the spectral norm) and in the "
             "Frobenius norm alike. Checked with the Hessian built from values of f alone, on "
             "every atlas graph with 2 to 5 nodes × the λ, S grid (X Gaussian, d = 3; Y one-hot, "
             "c = 2), within relative 1e-10; exactly on K2 at λ = S = 1.")
CLAIM = claim(ID, f"Assumption 4 ({eq('assumption-4')}) and the sentence after it (Sec. 3)",
              STATEMENT, order=98,
              **generic(f"{WORDS}; {ASSUMPTION_WORDS}; f is {eq('loss-f')}, written with Ã_S for "
                        "a generic Ã (nothing of Eq. 6's row sums)"),
              rule="generic", seconds=(0.6, 0.9),
              doc=("\"the L-smoothness of f depends on the largest singular value of Ã_S X\": "
                   "the smallest L of Eq. 8's f is 2σ_max(Ã_S X)² in the spectral norm "
                   "Assumption 4 writes and in the Frobenius norm (Hessian from f's values, "
                   "atlas; exact on K2)"))

#: Feature and class dimensions of the float cases.
D, C = 3, 2
NODES = (2, 3, 4, 5)


def hessian(f, size, zero=0.0, step=1.0):
    """The Hessian of a quadratic ``f`` of a flat vector of ``size`` entries from its values:
    H_kl = (f(h(e_k + e_l)) − f(he_k) − f(he_l) + f(0))/h², exact for a quadratic (Fractions
    stay exact). In floats a step h with h²‖B‖² ≫ f(0) keeps the rounding of the cancelling
    linear and constant terms far below the quadratic one."""
    def at(*ks):
        v = [zero] * size
        for k in ks:
            v[k] = v[k] + step
        return v
    f0 = f(at())
    fk = [f(at(k)) for k in range(size)]
    return [[(f(at(k, m)) - fk[k] - fk[m] + f0) / (step * step) for m in range(size)]
            for k in range(size)]


def smallest_L(Hm, d, c):
    """(L in the Frobenius norm, L in the spectral norm, Kronecker deviation) of the map
    vec(Δ) ↦ H vec(Δ) (row-major vec of d × c matrices): the largest |eigenvalue| of H; and,
    when H = M ⊗ I_c (M read off its first column block), ‖M‖_2 — the map is Δ ↦ MΔ, whose
    spectral-norm gain is ‖M‖_2."""
    Hm = np.asarray(Hm, dtype=float)
    L_fro = float(np.abs(np.linalg.eigvalsh((Hm + Hm.T) / 2)).max())
    M = Hm[::c, ::c]
    kron = float(np.abs(Hm - np.kron(M, np.eye(c))).max() / max(np.abs(Hm).max(), 1e-300))
    return L_fro, float(np.linalg.norm(M, 2)), kron


def case(n, edges, A, X, Y, lam, S, norm):
    """One graph and setting: L from the Hessian of f in both norms against 2σ_max(Ã_S X)²."""
    B = neumann_matrix(A, lam, S, norm=norm) @ X
    d, c = X.shape[1], Y.shape[1]

    def f(w):
        return float(np.sum((B @ np.reshape(w, (d, c)) - Y) ** 2))
    step = 1e4 * max(1.0, float(np.linalg.norm(Y))) / max(float(np.linalg.norm(B)), 1e-300)
    L_fro, L_spec, kron = smallest_L(hessian(f, d * c, step=step), d, c)
    L_svd = 2.0 * float(np.linalg.svd(B, compute_uv=False)[0]) ** 2
    return {"n": n, "edges": edges, "lam": lam, "S": S, "L_svd": L_svd, "L_frobenius": L_fro,
            "L_spectral": L_spec, "kronecker_rel_dev": kron,
            "rel_err": max(abs(L_fro / L_svd - 1), abs(L_spec / L_svd - 1))}


def measure(ctx, norm):
    rows = []
    for st in stacks():
        if st.n not in NODES:
            continue
        rng = ctx.rng(ID, st.n)
        X = rng.standard_normal((st.n, D))
        Y = np.eye(C)[np.arange(st.n) % C]
        for g, index in enumerate(st.index):
            n, edges = st.n, [[int(u), int(v)] for u, v in zip(*np.nonzero(np.triu(st.A[g])))]
            for lam, S in lam_S_grid(ctx):
                rows.append(dict(case(n, edges, st.A[g], X, Y, lam, S, norm),
                                 atlas_index=int(index)))
    return rows


def certify_k2():
    """Exact: on K2 (regular: sym = rw) at λ = S = 1 with X = [[1, 2], [0, 1]], Y = I₂, the
    Hessian of f (from f's values, in fractions) is 2BᵀB ⊗ I₂, B = Ã_S X, and the smallest L in
    either norm is 2λ_max(BᵀB) = a + c + √((a − c)² + 4b²) for BᵀB = [[a, b], [b, c]]."""
    M = ex.neumann(2, [[0, 1]], 1, 1, "rw")       # K2 is regular: Ã_sym = Ã_rw, rational
    X = [[Fraction(1), Fraction(2)], [Fraction(0), Fraction(1)]]
    Y = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    B = ex.matmul(M, X)

    def f(w):
        W = [w[0:2], w[2:4]]
        R = ex.add(ex.matmul(B, W), Y, ex.ONE, -ex.ONE)
        return sum((v * v for row in R for v in row), ex.ZERO)
    Hm = hessian(f, 4, ex.ZERO, ex.ONE)
    G = ex.matmul(ex.transpose(B), B)
    kron = [[2 * G[k // 2][m // 2] * int(k % 2 == m % 2) for m in range(4)] for k in range(4)]
    a, b, c = G[0][0], G[0][1], G[1][1]
    disc = (a - c) ** 2 + 4 * b * b
    L = a + c + ex.Surd.sqrt(disc.numerator * disc.denominator, Fraction(1, disc.denominator))
    return {"graph": "K2", "lam": 1, "S": 1, "X": [[1, 2], [0, 1]], "Y": "I₂",
            "hessian_is_2BtB_kron_I": Hm == kron, "BtB": [[ex.text(v) for v in row] for row in G],
            "L": ex.text(L), "L_decimal": f"{float(L):.12g}", "certified": "exact (fractions)"}


def judge(rows, k2_exact):
    """``holds`` when every case's L (both norms) is 2σ_max(Ã_S X)² and its Hessian is M ⊗ I_c
    to :data:`~..kit.evidence.EXACT_RTOL` (relative; ≤ it passes) and the exact K2 Hessian is
    2BᵀB ⊗ I (``k2_exact``); else ``fails``. The rows are the failing cases, the worst the case
    of the largest deviation.

    Examples
    --------
    >>> judge([{"rel_err": 1e-10, "kronecker_rel_dev": 0.0}], True).verdict
    'holds'
    >>> judge([{"rel_err": 0.5, "kronecker_rel_dev": 0.0}], True).verdict
    'fails'
    """
    w = max(rows, key=lambda r: max(r["rel_err"], r["kronecker_rel_dev"]))
    bad = [r for r in rows if r["rel_err"] > EXACT_RTOL or r["kronecker_rel_dev"] > EXACT_RTOL]
    return Judgement("holds" if not bad and k2_exact else "fails", bad, w)


@CLAIM.checker
def check(ctx, norm):
    rows = measure(ctx, norm)
    k2 = certify_k2()
    verdict, bad, w = judge(rows, k2["hessian_is_2BtB_kron_I"])
    ev = {"words": WORDS, "assumption": ASSUMPTION_WORDS,
          "norms": "Assumption 4 writes ‖·‖_2 on d × c matrices (the spectral norm; the paper's "
                   "Frobenius norm is ‖·‖_F); L is the Hessian's gain in each, and both are "
                   "2σ_max(Ã_S X)²",
          "searched": f"{len({r['atlas_index'] for r in rows})} atlas graphs (n = 2..5) × "
                      f"{len(lam_S_grid(ctx))} (λ, S); X ~ N(0, 1), d = {D}; Y one-hot, c = {C}",
          "tolerance": f"relative {EXACT_RTOL:g} (the Hessian from f's values rounds at ~1e-14)",
          "worst": {k: w[k] for k in ("atlas_index", "lam", "S", "L_svd", "L_frobenius",
                                      "L_spectral", "kronecker_rel_dev", "rel_err")},
          "exact_k2": k2}
    where = f"{graph_name(w['atlas_index'])}, λ={w['lam']:g}, S={w['S']}"
    if verdict == "holds":
        return CLAIM.result(norm, "holds", ev, f"the smallest L is 2σ_max(Ã_S X)² in both norms "
                                               f"on all {len(rows)} cases (worst relative "
                                               f"difference {w['rel_err']:.1e}, {where}); exact "
                                               f"on K2 (λ = S = 1): Hessian 2BᵀB ⊗ I, L = "
                                               f"{k2['L']} ≈ {k2['L_decimal']}")
    ce = counterexample(ID, ctx, graph=(graph_name(w["atlas_index"]),
                                        adjacency(w["n"], w["edges"])), lam=w["lam"],
                        S=w["S"], norm=norm, L_svd=w["L_svd"], L_frobenius=w["L_frobenius"],
                        L_spectral=w["L_spectral"])
    return CLAIM.result(norm, "fails", ev, f"the Hessian's gain differs from 2σ_max(Ã_S X)² on "
                                           f"{len(bad)}/{len(rows)} cases", ce,
                        violation=Violation("L_Hessian/(2σ_max²)", w["L_frobenius"] / w["L_svd"],
                                            "=", 1, case=where))


__all__ = ["CLAIM", "certify_k2", "check", "hessian", "judge", "smallest_L"]
