"""rngc-convergence on the smallest inputs (issue 33): the minimal divergent input, certified in
exact arithmetic, and the two-node impossibility, as a proof checked step by step. The
statements are declared in :mod:`.rngc_convergence`; their results are built here.

**The walk** (``rngc-convergence:minimal``). Every input is visited in minimal order — fewest
nodes, fewest edges (atlas order), fewest feature columns d, the simplest integer features
(height max|x_i|, then fewest non-zeros), the simplest (λ, ε) of the appendix tables (height of
λ, then of ε) — and each is decided exactly: ρ(T) < 1 or not for T = r(Ã − εXXᵀ/‖XXᵀ‖_F), by the
Schur–Cohn–Jury test on T's characteristic polynomial
(:func:`..exact.certificates.radius_below`; entries rational, or
:class:`..exact.certificates.Surd` in sym). The walk stops at the first divergent input, so
every input before it is certified to converge.

**Two nodes** (``rngc-convergence:two-nodes``). On n = 2, Ã is symmetric with λ_min(Ã) ≥ 0 in
both normalisations and P ⪰ 0 with ‖P‖₂ ≤ 1, so Weyl's inequality puts spec(Ã − εP) in [−ε, 1]:
ρ(T) ≤ r < 1 for every X, every 0 ≤ ε ≤ 1 and every λ. The displayed steps are
:data:`..exact.proofs.TWO_NODE_CHAIN`; they run on seeded two-node instances, and once on the
minimal three-node failure, where the step λ_min(Ã) ≥ 0 is the one that breaks.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np

from ..exact import certificates as ex
from ..exact.atlas import NON_DEGENERATE, adjacency, graph, simplicity, stacks
from ..kit.evidence import Judgement, counterexample, judged
from ..paper.hyperparams import PAPER_HYPERPARAMS
from ..exact.proofs import TWO_NODE_CHAIN, Instance, first_failure, run_chain

#: Largest n, feature height and d the walk may reach (it stops at the first failure: P3).
MAX_N, MAX_HEIGHT, MAX_D = 3, 2, 2
#: S of the truncation error reported with the failure: the citation table's S.
S_REPORTED = 16
#: Seeded two-node instances of the proof chain.
TWO_NODE_INSTANCES = 40


def paper_settings():
    """The (λ, ε) of every RNGC row of the appendix tables, simplest λ first, then simplest ε
    (each with the table rows it comes from)."""
    out: dict = {}
    for (model, ds, _noise, level), row in PAPER_HYPERPARAMS.items():
        if model == "rngc":
            key = (row["lam"], row["eps"])
            out.setdefault(key, set()).add(f"{row['table']} ({ds}"
                                           + ("" if level is None else f", level {level:g}")
                                           + ")")
    order = sorted(out, key=lambda le: (simplicity(le[0]), simplicity(le[1])))
    return [(lam, eps, sorted(out[(lam, eps)])) for lam, eps in order]


def feature_columns(n, height):
    """Primitive integer vectors of length n with max|x_i| = ``height``, up to sign (first
    non-zero entry positive; P = xxᵀ/‖x‖² does not see the scale or the sign), fewest non-zeros
    first, then lexicographic."""
    out = []
    for v in itertools.product(range(-height, height + 1), repeat=n):
        nz = [x for x in v if x]
        if (nz and max(map(abs, v)) == height and nz[0] > 0
                and math.gcd(*(abs(x) for x in nz)) == 1):
            out.append(v)
    return sorted(out, key=lambda v: (sum(1 for x in v if x), v))


def _features(n, d, height):
    """Feature matrices of d columns: d = 1, the columns above; d = 2, pairs of them (the
    second of height ≤ ``height``) — only reached when no single column diverges."""
    cols = feature_columns(n, height)
    if d == 1:
        return [[[Fraction(x)] for x in v] for v in cols]
    others = [c for h in range(1, height + 1) for c in feature_columns(n, h)]
    return [[[Fraction(a), Fraction(b)] for a, b in zip(u, w)] for u in cols for w in others]


def walk(norm, min_n=3, max_n=MAX_N, max_height=MAX_HEIGHT, max_d=MAX_D):
    """The first divergent input in minimal order, every earlier one certified convergent:
    ``{"minimal": where or None, "converging_before": count, "by_graph": {...}}``. It starts
    at ``min_n`` = 3: on two nodes no input diverges at ε ≤ 1 (:func:`two_nodes_result`, a
    proof for every X, not a search)."""
    settings = paper_settings()
    before, by_graph = 0, {}
    for st in stacks():
        if st.n > max_n:
            break
        if st.n < min_n:
            continue
        ok = NON_DEGENERATE.graphs(st)
        for g in sorted(np.nonzero(ok)[0], key=lambda g: (int(st.edges[g]), int(st.index[g]))):
            index = int(st.index[g])
            n, edges = graph(index)
            for d in range(1, max_d + 1):
                for height in range(1, max_height + 1):
                    for X in _features(n, d, height):
                        for lam, eps, tables in settings:
                            T = ex.rngc_operator(n, edges, X, lam, eps, norm)
                            if ex.radius_below(T, 1):
                                before += 1
                                by_graph[f"G{index}"] = by_graph.get(f"G{index}", 0) + 1
                                continue
                            return {"minimal": {"atlas_index": index, "n": n, "edges": edges,
                                                "d": d, "X": X, "lam": lam, "eps": eps,
                                                "tables": tables, "T": T},
                                    "converging_before": before, "by_graph": by_graph}
    return {"minimal": None, "converging_before": before, "by_graph": by_graph}


def _mp(v):
    """A Fraction or :class:`Surd` at the working mpmath precision."""
    return mp.fsum(mp.mpf(c.numerator) / c.denominator * mp.sqrt(k)
                   for k, c in ex.Surd.lift(v).terms.items())


def truncation_error(n, edges, X, lam, eps, S, norm):
    """‖R_SX − (I − T)⁻¹X‖_F / ‖(I − T)⁻¹X‖_F at 50 digits (mpmath), R_S = Σ_{s≤S} T^s: how
    far Eq. 17's truncated series is from the inverse it expands (the factor 1/(λ+1)
    cancels)."""
    with mp.workdps(50):
        T = ex.rngc_operator(n, edges, X, lam, eps, norm)
        Tm = mp.matrix([[_mp(v) for v in row] for row in T])
        Xm = mp.matrix([[_mp(v) for v in row] for row in X])
        exact = (mp.eye(n) - Tm) ** -1 * Xm
        H, P = Xm.copy(), Xm.copy()
        for _ in range(S):
            P = Tm * P
            H += P
        return float(mp.mnorm(H - exact, "f") / mp.mnorm(exact, "f"))


def _x_text(X):
    return "(" + ", ".join(str(row[0]) if len(row) == 1 else "(" + ", ".join(map(str, row)) + ")"
                           for row in X) + ")ᵀ"


def eigenvector_case(n, edges, norm, lam, eps):
    """The exact case of the P3 failure: features along the eigenvector of Ã's eigenvalue −1/6
    (sym: x with x_centre = −2√6/3, leaves 1; rw: the left eigenvector, x_centre = −2, leaves 1,
    rational). Then T x = qx (sym) or xᵀT = qxᵀ (rw) with q = r(−1/6 − ε): ρ(T) = |q| exactly
    (no root of larger modulus by Schur–Cohn), and in sym the truncation error of the series
    on X = x is |q|^{S+1} exactly."""
    centre = max(range(n), key=lambda i: sum(i in e for e in edges))
    if norm == "sym":
        x = [ex.Surd.sqrt(6, Fraction(-2, 3)) if i == centre else ex.Surd({1: ex.ONE})
             for i in range(n)]
    else:
        x = [Fraction(-2) if i == centre else ex.ONE for i in range(n)]
    X = [[v] for v in x]
    T = ex.rngc_operator(n, edges, X, lam, eps, norm)
    q = ex.ratio_r(lam) * (Fraction(-1, 6) - ex.frac(eps))
    M = T if norm == "sym" else ex.transpose(T)
    Tx = [sum((M[i][j] * x[j] for j in range(n)), ex.Surd()) for i in range(n)]
    is_eig = all((ex.Surd.lift(Tx[i]) - ex.Surd.lift(x[i]) * q).is_zero() for i in range(n))
    top = ex.radius_below(T, abs(q) * (1 + Fraction(1, 10**12)))
    if norm == "sym":       # X = x is an eigenvector: the error is |q|^{S+1}, exactly
        err, how = float(abs(q) ** (S_REPORTED + 1)), f"|q|^{S_REPORTED + 1}, exact"
    else:
        err = truncation_error(n, edges, X, float(lam), float(eps), S_REPORTED, norm)
        how = "mpmath, 50 digits (x is a left eigenvector only)"
    return {"features": _x_text(X), "q": ex.text(q), "rho": ex.text(abs(q)),
            "certified": bool(is_eig and top),
            "why": ("T x = q x exactly (sym; xᵀT = q xᵀ in rw) in exact arithmetic, so |q| is an "
                    "eigenvalue's modulus; ρ(T) < |q|(1 + 10⁻¹²) by Schur–Cohn: ρ = |q|"),
            "truncation_error": err, "truncation_error_how": how, "S": S_REPORTED}


def minimal_result(st, ctx, norm, words):
    """``rngc-convergence:minimal``: the walk, its first divergent input certified exactly.
    Returns ``(result, the divergent input or None)``."""
    w = walk(norm)
    m = w["minimal"]
    ev = {"words": words, "order": "fewest nodes (n = 2 cannot diverge at ε ≤ 1: "
                                   "rngc-convergence:two-nodes), fewest edges, fewest feature "
                                   "columns d, simplest integer features (height, then fewest "
                                   "non-zeros), simplest (λ, ε) of the appendix tables",
          "searched": f"atlas graphs with 3 ≤ n ≤ {MAX_N} (no isolated node), d ≤ {MAX_D}, "
                      f"integer features of height ≤ {MAX_HEIGHT}, every (λ, ε) of the tables",
          "settings": [[lam, eps, tables] for lam, eps, tables in paper_settings()],
          "converging_before": w["converging_before"], "by_graph": w["by_graph"],
          "certificate": "ρ(T) < a decided exactly for rational a: Schur–Cohn–Jury on det(zI − "
                         "T/a) (rational entries, or Σc_k√k in sym, signs exact)"}
    if m is None:
        return st.result(norm, "holds", ev, f"no divergent input up to n = {MAX_N}, height "
                                            f"{MAX_HEIGHT}, d = {MAX_D}"), None
    n, edges, X, lam, eps = m["n"], m["edges"], m["X"], m["lam"], m["eps"]
    lo, hi = ex.radius_bracket(m["T"])
    err = truncation_error(n, edges, X, lam, eps, S_REPORTED, norm)
    eig = eigenvector_case(n, edges, norm, lam, eps)
    name = ("P3 (path on 3 nodes, centre 0)" if (n, len(edges)) == (3, 2)
            else f"atlas G{m['atlas_index']}")
    exact = {"ρ(r(Ã − εP))": f"in [{ex.down(lo, 13)}, {ex.up(hi, 13)}] (rational bracket)",
             f"relative error of the series at S = {S_REPORTED}": f"{err:.6g} (mpmath, 50 "
                                                                   "digits)",
             "features along Ã's eigenvalue −1/6": eig}
    mc = {"atlas_index": m["atlas_index"], "n": n, "edges": edges, "lam": lam, "d": m["d"],
          "case": f"{name}, X = {_x_text(X)}, ε = {eps:g}", "eps": eps, "tables": m["tables"],
          "certified": "exact", "exact": exact, "norm": norm,
          "range": "n ≥ 2, no isolated node, the tables' (λ, ε)"}
    ev["minimal"] = mc
    labels = sorted({t.split(" (")[0] for t in m["tables"]})
    summ = (f"smallest divergent input: {name}, d = {m['d']}, X = {_x_text(X)}, λ = {lam:g}, "
            f"ε = {eps:g} ({', '.join(labels)}): ρ(r(Ã − εP)) = {float(lo):.10f} > 1 "
            f"(exact bracket); at S = {S_REPORTED} the truncated series is off by "
            f"{err:.3g} (relative) and the error grows like ρ^S; {w['converging_before']} "
            f"simpler inputs certified convergent before it; along Ã's eigenvalue −1/6 "
            f"({eig['features']}): ρ = {eig['rho']} exactly")
    res = judged(st, ctx, norm, Judgement("fails", [], m), ev, summ,
                 lambda m: dict(graph=(name, adjacency(n, edges)), d=m["d"],
                                features=_x_text(X), lam=lam, eps=eps, S=S_REPORTED,
                                norm=norm, rho_bracket=[float(lo), float(hi)],
                                relative_error_at_S=err),
                 minimal_counterexample=mc)
    return res, m


def two_node_instances(rng, count=TWO_NODE_INSTANCES):
    """Seeded instances on two nodes (K2 and no edge, both norms): features of 1 to 5
    columns, Gaussian (signed) or uniform (non-negative), ε ∈ [0, 1] with the ends, λ from the
    tables."""
    lams = sorted({lam for lam, _e, _t in paper_settings()})
    out = []
    for k in range(count):
        edges = [[0, 1]] if k % 2 == 0 else []
        norm = "sym" if k % 4 < 2 else "rw"
        d = int(rng.integers(1, 6))
        X = rng.standard_normal((2, d)) if k % 3 else rng.random((2, d))
        eps = (0.0, 1.0)[k % 2] if k % 5 == 0 else float(rng.uniform(0, 1))
        out.append(Instance(f"{'K2' if edges else '2 isolated nodes'}-{k}", 2, edges, norm,
                            float(rng.choice(lams)), 0, d=d, seed=k,
                            extra={"X": X, "eps": eps}))
    return out


def two_nodes_result(st, ctx, norm, mc_where=None):
    """``rngc-convergence:two-nodes``: the proof's steps on seeded two-node instances (both
    norms in every run), and the same chain on the minimal three-node failure, where the step
    λ_min(Ã) ≥ 0 breaks (a control: the lemma's hypothesis is what n = 3 escapes)."""
    steps = run_chain(TWO_NODE_CHAIN, two_node_instances(ctx.rng("rngc-convergence",
                                                                 "two-nodes")),
                      show=("lam", "d"))
    bad = first_failure(steps)
    ev = {"proof": [f"{s.key}: {s.text}" for s in TWO_NODE_CHAIN],
          "instances": f"{TWO_NODE_INSTANCES} seeded: K2 and two isolated nodes, sym and rw, "
                       "d = 1..5, signed and non-negative features, ε ∈ [0, 1] (0 and 1 "
                       "included), λ from the tables"}
    if mc_where is not None:
        X = np.array([[float(v) for v in row] for row in mc_where["X"]])
        ctrl = Instance("P3 (the minimal failure)", 3, mc_where["edges"], norm,
                        float(mc_where["lam"]), 0, d=X.shape[1],
                        extra={"X": X, "eps": float(mc_where["eps"])})
        rows = run_chain(TWO_NODE_CHAIN, [ctrl], show=("lam", "d"))
        ev["control_on_P3"] = {r["step"]: r["verdict"] for r in rows}
    verdict = "holds" if bad is None else "fails"
    summ = ("two nodes cannot diverge at ε ≤ 1: spec(Ã) ⊂ [0, 1], P ⪰ 0 with ‖P‖₂ ≤ 1, so by "
            "Weyl spec(Ã − εP) ⊂ [−ε, 1] and ρ(r(Ã − εP)) ≤ r < 1; every step holds on "
            f"{TWO_NODE_INSTANCES} instances" if bad is None else
            f"step {bad['step']} fails on {bad['where']}")
    if "control_on_P3" in ev:
        broken = [k for k, v in ev["control_on_P3"].items() if v == "fails"]
        summ += f"; on the three-node failure the chain breaks at {', '.join(broken)}"
    ce = None if bad is None else counterexample(st.id, ctx, step=bad)
    return st.result(norm, verdict, ev, summ, ce, steps=steps)
