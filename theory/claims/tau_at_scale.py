"""τ as the graph grows, at the paper's own λ and S: "when the high-order graph connectivity is
high, τ → 1" (Remark 1, after Def. 1) and "a large well-connected graph tend to have a better
denoising performance since n is large and τ is close to 1" (Remark 2).

**The floor.** Every power Ã^s is entrywise non-negative (both normalisations) and the s = 0
term of Ã_S = (1/(λ+1))Σ_{s=0}^{S}(rÃ)^s is I/(λ+1), so [Ã_S]_ii ≥ 1/(λ+1) and

    τ ≥ τ_i = n Σ_j [Ã_S]_ij² / m² ≥ n / ((λ+1) m)²,      m = 1 − r^{S+1}, r = λ/(λ+1),

for every graph and every node: at fixed λ, S, τ grows at least linearly in n.

**Complete graphs, exactly.** With self-loops, Ã = J/n in both normalisations (Ã + I = J, every
degree n), so Ã^s = J/n for s ≥ 1 and Ã_S = I/(λ+1) + c·J/n with c = r − r^{S+1}. A row has the
diagonal 1/(λ+1) + c/n and n − 1 entries c/n; with u = 1/(λ+1) and m = u + c,

    τ(K_n) = (n u² + 2uc + c²)/m² = 1 + (n − 1)/((λ+1) m)²,

which is the floor plus 1 − 1/((λ+1)m)²: the best-connected graph sits on the floor, and its τ
tends to 1 only while n ≪ ((λ+1)m)² (≈ 1,703 at λ = S = 64, ≈ 182 at λ = 32, S = 16).

**What λ(n) restores τ → 1.** From the floor, τ → 1 needs (λ+1)m ≥ √n(1 − o(1)): λ must grow
at least like √n. On K_n, τ − 1 = (n − 1)/((λ+1)m)² → 0 iff (λ+1)m/√n → ∞: λ = √n with
S = ⌈2λ⌉ (Theorem 1's schedule) leaves τ → 1 + 1/(1 − e⁻²)² ≈ 2.34; λ = n (S = ⌈2λ⌉) gives
τ − 1 ≈ 1/(n(1 − e⁻²)²) → 0.

The check computes τ(K_n) by the closed form (checked against
:func:`ngc_ref.connectivity_factor` on K_4 … K_64, relative 1e-10), τ of dense random graphs
G(n, 1/2) (a lower bound from the exact τ_i of the 16 nodes of extreme degree, enough to show
growth), and the exact τ of the largest connected component of the paper's Cora and Citeseer
(the whole graphs too with --thorough; their small components put τ near n/2 and n, see
isolated-tau) when NGC_REF_DATA is set.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ngc_ref import connectivity_factor, graphs, series_mass

from ..exact import certificates as ex
from ..exact.atlas import simplicity
from ..paper.bounds import floor_tau_over_n
from ..kit.evidence import counterexample
from ..kit.claim import claim, extension
from ..paper.words import theory_rw
from ..kit.stats import loglog_slope, seed_of
from ._paper_data import load

ID = "tau-at-scale"
REMARK_1 = ("Remark 1 (after Def. 1): 'When the high-order graph has a high connectivity, i.e., "
            "the elements in row i of Ã_S are more uniformly distributed, Eq. (7) reaches its "
            "lower bound ... when the high-order graph connectivity is high, τ → 1 and when the "
            "graph is less connected, τ → n'")
REMARK_2 = ("Remark 2: 'A large well-connected graph tend to have a better denoising performance "
            "since n is large and τ is close to 1'")
#: The paper's (λ, S): Figure 1's, and the experiments' (the citation table's NGC rows).
SETTINGS = ((64.0, 64, "Figure 1: 'For computing τ, λ and S are set to be 64'"),
            (32.0, 16, "the experiments (citation table, 'NGC and RNGC model with 16 layers "
                       "(S=16)')"))
COMPLETE_SIZES = tuple(2 ** k for k in range(2, 21))          # 4 … 1,048,576
COMPLETE_CHECKED = (4, 8, 16, 32, 64)                          # against the library
DENSE_SIZES = (100, 200, 400)
#: ``--thorough``: more G(n, 1/2) sizes.
THOROUGH_DENSE_SIZES = (100, 200, 400, 800, 1600)
DENSE_ROWS = 16
#: G(n, 1/2) sizes of the λ(n) schedules (S = 2n steps at λ = n).
LAMBDA_SIZES = (50, 100, 200)
CLOSED_FORM_RTOL = 1e-10
STATEMENT = (
    "At the paper's λ and S (Figure 1: λ = S = 64; experiments: λ = 32, S = 16), a large "
    "well-connected graph has τ close to 1, τ → 1 for high connectivity: on complete graphs "
    "(the best connected), dense random graphs G(n, 1/2) and the paper's data sets (Cora, "
    "Citeseer when NGC_REF_DATA is set), τ does not grow without bound as n grows. Measured "
    "against the floor τ ≥ n/((λ+1)(1 − r^{S+1}))² (every graph: [Ã_S]_ii ≥ 1/(λ+1)); on "
    "complete graphs exactly, τ(K_n) = 1 + (n − 1)/((λ+1)(1 − r^{S+1}))². Fails if τ(K_n) is "
    "unbounded in n (no threshold on 'close to 1' is needed).")
CLAIM = claim(ID, "Remark 1 (after Def. 1); Remark 2; Sec. 3 case study", STATEMENT, order=65,
              **theory_rw(f"{REMARK_1}; {REMARK_2}", "τ and its range are the theory's, built "
                                                     "on D̃⁻¹Ã"),
              data_sets=("cora", "citeseer"),
              rule="theory",
              doc=("does τ stay near 1 on large well-connected graphs at the paper's λ, S "
                   "(τ(K_n) = 1 + (n−1)/((λ+1)m)², m = 1 − r^{S+1}; the headline: the first K_n "
                   "with τ ≥ 2 over the paper's settings, exact); what λ(n) restores τ → 1 "
                   "(`:lambda`, ours); case-study insight 5 beyond Figure 1's sizes "
                   "(`case-study:5-at-scale`: minimal over n, then λ, then S)"))
LAMBDA = CLAIM.part(
    "lambda", "What λ(n) restores τ → 1: τ → 1 needs (λ+1)(1 − r^{S+1}) ≥ √n(1 − o(1)) on every "
              "graph (the floor); on K_n, τ → 1 iff (λ+1)(1 − r^{S+1})/√n → ∞. With S = ⌈2λ⌉: "
              "λ = √n leaves τ(K_n) → 1 + 1/(1 − e⁻²)² ≈ 2.34, λ = n gives τ → 1. Measured on "
              "K_n (closed form) and dense G(n, 1/2) (τ lower bound from 16 rows): τ − 1 must "
              "decrease along n at λ = n and stay above 1 + 1/(1 − e⁻²)² − 1 at λ = √n.",
    scope=extension("our derivation of a λ(n) schedule the paper does not state (it fixes λ: "
                    f"{SETTINGS[0][2]}; {SETTINGS[1][2]})"),
    norm_scopes={})
SQRT_LIMIT = 1.0 + 1.0 / (1.0 - math.exp(-2.0)) ** 2


def complete_tau(n, lam, S):
    """τ(K_n) = 1 + (n − 1)/((λ+1)(1 − r^{S+1}))², exactly (both normalisations).

    Examples
    --------
    >>> round(complete_tau(4, 64.0, 64), 6)
    1.001761
    """
    return 1.0 + (n - 1) * floor_tau_over_n(lam, S)


def complete_row_energy(n, lam, S):
    """Σ_j [Ã_S]_ij² of K_n (every row): u² + 2uc/n + c²/n, u = 1/(λ+1), c = r − r^{S+1}."""
    u = 1.0 / (lam + 1.0)
    c = series_mass(lam, S) - u
    return u * u + 2 * u * c / n + c * c / n


def check_closed_form(norm, lam, S, sizes=COMPLETE_CHECKED):
    """Largest relative difference of :func:`complete_tau` from the library's τ on K_n."""
    worst = 0.0
    for n in sizes:
        res = connectivity_factor(graphs.complete(n), lam, S, norm=norm, nodes=np.array([0]))
        worst = max(worst, abs(res.tau / complete_tau(n, lam, S) - 1.0))
    return worst


def closed_form_agrees(closed):
    """Whether the closed form of τ(K_n) matched the library at every setting (``closed``:
    {setting: largest relative difference}, :func:`check_closed_form`) to
    :data:`CLOSED_FORM_RTOL`; if not, the check has a bug and gives no verdict."""
    return max(closed.values()) <= CLOSED_FORM_RTOL


@functools.lru_cache(maxsize=16)
def dense_graph(n, seed):
    """G(n, 1/2) as CSR (seeded; each pair an edge with probability 1/2). Cached: the
    schedules of one run share their graphs."""
    upper = np.triu(np.random.default_rng(seed).random((n, n)) < 0.5, k=1)
    return sp.csr_array((upper | upper.T).astype(float))


def tau_lower(A, lam, S, norm, rows=DENSE_ROWS):
    """max τ_i over the ``rows`` nodes of extreme degree (half the lowest, whose self-weight is
    largest in rw, half the highest, whose row mass is largest in sym): a lower bound on τ
    (exact τ_i)."""
    deg = np.asarray(A.sum(axis=1)).ravel()
    order = np.argsort(deg, kind="stable")
    nodes = np.unique(np.concatenate([order[:rows // 2], order[-(rows - rows // 2):]]))
    return float(connectivity_factor(A, lam, S, norm=norm, nodes=nodes).tau)


def dense_series(ctx, norm, schedule, sizes=DENSE_SIZES):
    """[{n, lam, S, tau_lower, floor}] on G(n, 1/2) under ``schedule(n) -> (λ, S)``."""
    out = []
    for n in sizes:
        lam, S = schedule(n)
        s = seed_of(ctx.rng(ID, "dense", n))
        t = tau_lower(dense_graph(n, s), lam, S, norm)
        out.append({"n": n, "graph_seed": s, "lam": lam, "S": S, "tau_lower": t,
                    "floor": n * floor_tau_over_n(lam, S)})
    return out


def paper_rows(ctx, norm, settings, thorough=False):
    """Exact τ of the largest component of Cora and Citeseer (and of the whole graphs when
    ``thorough``) at ``settings``."""
    rows = []
    for name, ds in load(ctx, ("cora", "citeseer")).items():
        A = sp.csr_array(ds.adjacency)
        G = nx.from_scipy_sparse_array(A)
        lcc = np.array(sorted(max(nx.connected_components(G), key=len)))
        parts = ((name, A),) if thorough else ()
        for label, B in parts + ((f"{name}-largest-component", A[lcc][:, lcc]),):
            for lam, S, _ in settings:
                res = connectivity_factor(B, lam, S, norm=norm)
                rows.append({"graph": label, "n": res.n, "lam": lam, "S": S, "tau": res.tau,
                             "tau_over_n": res.tau / res.n, "method": res.method,
                             "floor": res.n * floor_tau_over_n(lam, S)})
    return rows


def _complete_table(lam, S):
    return [{"n": n, "tau": complete_tau(n, lam, S), "floor": n * floor_tau_over_n(lam, S)}
            for n in COMPLETE_SIZES]


def _first_n(lam, S, target):
    """Smallest n with τ(K_n) ≥ target: 1 + (target − 1)/floor."""
    return int(math.ceil(1 + (target - 1) / floor_tau_over_n(lam, S)))


def complete_tau_exact(n, lam, S):
    """τ(K_n) = 1 + (n − 1)/((λ+1)(1 − r^{S+1}))² in exact arithmetic (λ rational)."""
    lam = ex.frac(lam)
    return 1 + Fraction(n - 1) / ((lam + 1) * ex.mass(lam, S)) ** 2


def first_complete_reaching(lam, S, target=2):
    """The smallest n with τ(K_n) ≥ ``target``, exactly: n = 1 + ⌈(target − 1)((λ+1)m)²⌉,
    with τ(K_n) and τ(K_{n−1}) (< target) as fractions."""
    lam = ex.frac(lam)
    n = 1 + math.ceil((target - 1) * ((lam + 1) * ex.mass(lam, S)) ** 2)
    return n, complete_tau_exact(n, lam, S), complete_tau_exact(n - 1, lam, S)


def minimal_growth(settings, target=2):
    """The headline counterexample, minimal over the statement's parameters: the smallest
    complete graph with τ ≥ ``target`` over the paper's (λ, S) (n first, then the simplest λ),
    exact; the closed form is checked exactly against the definition
    (:func:`..exact.certificates.tau`) on K_2 … K_5 at each setting."""
    rows = []
    for lam, S, words in settings:
        n, t, before = first_complete_reaching(lam, S, target)
        agrees = all(ex.tau(k, [[i, j] for i in range(k) for j in range(i + 1, k)], lam, S,
                            "rw") == complete_tau_exact(k, lam, S) for k in range(2, 6))
        rows.append({"n": n, "lam": lam, "S": S, "setting": words, "tau": ex.text(t),
                     "tau_float": float(t), "tau_before": float(before),
                     "closed_form_exact_on_K2_to_K5": agrees})
    best = min(rows, key=lambda r: (r["n"], simplicity(r["lam"])))
    return best, rows


@CLAIM.checker
def check(ctx, norm):
    return [_as_stated(ctx, norm), _lambda(ctx, norm)]


def _as_stated(ctx, norm):
    settings = SETTINGS
    closed = {f"λ={lam:g},S={S}": check_closed_form(norm, lam, S) for lam, S, _ in settings}
    complete = {f"λ={lam:g},S={S}": _complete_table(lam, S) for lam, S, _ in settings}
    sizes = THOROUGH_DENSE_SIZES if ctx.thorough else DENSE_SIZES
    dense = {f"λ={lam:g},S={S}": dense_series(ctx, norm, lambda n, lam=lam, S=S: (lam, S), sizes)
             for lam, S, _ in settings}
    # The paper's data: rw (its theory's norm) at the experiments' setting by default; both
    # norms and Figure 1's setting with --thorough (~5 s per graph and setting).
    paper_settings = settings if ctx.thorough else settings[1:]
    paper = (paper_rows(ctx, norm, paper_settings, ctx.thorough) if norm == "rw" or ctx.thorough
             else [])
    dense_slopes = {k: loglog_slope([r["n"] for r in v], [r["tau_lower"] for r in v])
                    for k, v in dense.items()}
    ev = {"words": [REMARK_1, REMARK_2], "settings": [s[2] for s in settings],
          "floor": "τ ≥ n/((λ+1)(1 − r^{S+1}))² for every graph: [Ã_S]_ii ≥ 1/(λ+1) (the s = 0 "
                   "term; every term ≥ 0 in both normalisations)",
          "complete_closed_form": "τ(K_n) = 1 + (n − 1)/((λ+1)(1 − r^{S+1}))² (Ã = J/n)",
          "closed_form_vs_library_max_rel_diff": closed,
          "closed_form_checked_on": list(COMPLETE_CHECKED),
          "complete": complete, "dense_gnp_half": dense,
          "dense_loglog_slope_tau_vs_n": dense_slopes,
          "dense_method": f"lower bound: exact τ_i of the {DENSE_ROWS} nodes of lowest degree",
          "paper_data": paper,
          "paper_data_note": ("rw at λ = 32, S = 16 by default; sym and λ = S = 64 with "
                              "--thorough" if not ctx.thorough else "both settings"),
          "n_where_tau_K_n_reaches": {f"λ={lam:g},S={S}": {str(t): _first_n(lam, S, t)
                                                           for t in (2, 10)}
                                      for lam, S, _ in settings}}
    if not closed_form_agrees(closed):
        return CLAIM.result(norm, "inconclusive", ev, f"closed form of τ(K_n) disagrees with "
                                                      f"the library ({closed}): checker problem")
    lam, S, _ = settings[0]
    big = complete[f"λ={lam:g},S={S}"][-1]
    lam2, S2, _ = settings[1]
    big2 = complete[f"λ={lam2:g},S={S2}"][-1]
    d2 = dense[f"λ={lam2:g},S={S2}"]
    paper_txt = "; ".join(f"{r['graph']} (n={r['n']}) τ = {r['tau']:.4g} (floor {r['floor']:.3g})"
                          for r in paper if r["lam"] == 32.0)
    per_setting, mc, ce, head = _headline(ctx, norm, settings)
    ev["minimal_tau_at_least_2"] = per_setting
    summ = (f"{head}τ grows linearly with n even on complete graphs: τ(K_n) = 1 + (n−1)/"
            f"{1 / floor_tau_over_n(lam, S):.0f} at λ=S=64 (τ = {big['tau']:.0f} at n = "
            f"{big['n']:,}), "
            f"1 + (n−1)/{1 / floor_tau_over_n(lam2, S2):.0f} at λ=32, S=16 (τ = "
            f"{big2['tau']:.0f} at n = {big2['n']:,}); G(n, 1/2) at λ=32, S=16: τ ≥ "
            + " → ".join(f"{r['tau_lower']:.3g}" for r in d2)
            + f" (n {d2[0]['n']}→{d2[-1]['n']}, slope {dense_slopes[f'λ={lam2:g},S={S2}']:.2f})"
            + (f"; {paper_txt}" if paper_txt else ""))
    return CLAIM.result(norm, "fails", ev, summ, ce, minimal_counterexample=mc)


def _headline(ctx, norm, settings):
    """The headline counterexample: the first complete graph with τ ≥ 2 over the paper's
    settings (:func:`minimal_growth`), as the per-setting rows, the minimal counterexample, the
    counterexample record and the summary's first clause."""
    best, per_setting = minimal_growth(settings)
    mc = {"case": f"K{best['n']} (complete graph): τ = {best['tau_float']:.6g} ≥ 2 "
                  f"(K{best['n'] - 1}: {best['tau_before']:.6g})",
          "n": best["n"], "lam": best["lam"], "S": best["S"], "norm": norm,
          "certified": "exact: τ(K_n) = 1 + (n − 1)/((λ+1)(1 − r^{S+1}))² in fractions (the "
                       "closed form checked exactly against Def. 1 on K_2 … K_5)",
          "exact": {"τ": best["tau"]},
          "range": "the paper's (λ, S); n first, then the simplest λ"}
    ce = counterexample(ID, ctx, graph=(f"K{best['n']} (complete graph)",
                                        graphs.complete(best["n"])),
                        family="complete graph K_n", n=best["n"], lam=best["lam"],
                        S=best["S"], norm=norm, tau=best["tau_float"], tau_exact=best["tau"],
                        why="τ(K_n) = 1 + (n − 1)/((λ+1)(1 − r^{S+1}))² grows without bound in n "
                            "(closed form, exact; checked against connectivity_factor on "
                            "K_4..K_64 and against Def. 1 exactly on K_2..K_5)")
    head = (f"complete graphs K_n (the best connected): τ(K_n) = 1 + (n−1)/"
            f"{1 / floor_tau_over_n(best['lam'], best['S']):.2f} at λ = {best['lam']:g}, "
            f"S = {best['S']}, unbounded in n; the first with τ ≥ 2 is K{best['n']} (τ = "
            f"{best['tau_float']:.5f}, exact; K{best['n'] - 1}: {best['tau_before']:.5f}), the "
            "smallest over the paper's two settings (" + ", ".join(
                f"K{r['n']} at λ = {r['lam']:g}, S = {r['S']}" for r in per_setting) + "); ")
    return per_setting, mc, ce, head


#: How close τ(K_n) at the largest n must come to its λ = √n limit 1 + 1/(1 − e⁻²)².
SQRT_LIMIT_ATOL = 0.05


def lambda_holds(dense_gap, complete_at_n, complete_sqrt_last, complete_fixed):
    """The λ(n) part's rule: at λ = n, |τ − 1| on G(n, 1/2) (``dense_gap``) and τ(K_n)
    (``complete_at_n``) never increase along n; at λ = √n τ(K_n) at the largest n is within
    0.05 of :data:`SQRT_LIMIT`; at fixed λ τ(K_n) grows from the first n to the last.

    >>> lambda_holds([0.3, 0.2, 0.2], [1.5, 1.1], SQRT_LIMIT, [2.0, 9.0])
    True
    >>> lambda_holds([0.3, 0.2, 0.25], [1.5, 1.1], SQRT_LIMIT, [2.0, 9.0])
    False
    """
    return (all(b <= a for a, b in zip(dense_gap, dense_gap[1:]))
            and all(b <= a for a, b in zip(complete_at_n, complete_at_n[1:]))
            and abs(complete_sqrt_last - SQRT_LIMIT) < SQRT_LIMIT_ATOL
            and complete_fixed[-1] > complete_fixed[0])


def _lambda(ctx, norm):
    schedules = {"fixed λ=32, S=16": lambda n: (32.0, 16),
                 "λ=√n, S=⌈2λ⌉": lambda n: (math.sqrt(n), int(math.ceil(2 * math.sqrt(n)))),
                 "λ=n, S=⌈2λ⌉": lambda n: (float(n), 2 * n)}
    complete = {k: [{"n": n, "tau": complete_tau(n, *f(n))} for n in COMPLETE_SIZES]
                for k, f in schedules.items()}
    sizes = LAMBDA_SIZES
    dense = {k: dense_series(ctx, norm, f, sizes) for k, f in schedules.items()}
    ev = {"derivation": "τ ≥ n/((λ+1)m)² on every graph, so τ → 1 needs (λ+1)m ≥ √n(1 − o(1)); "
                        "τ(K_n) − 1 = (n − 1)/((λ+1)m)² → 0 iff (λ+1)m/√n → ∞",
          "sqrt_n_limit_on_K_n": SQRT_LIMIT, "complete": complete, "dense_gnp_half": dense,
          "criterion": "λ = n: τ − 1 decreasing along n on K_n, |τ − 1| on G(n, 1/2) (lower "
                       "bound); "
                       "λ = √n: τ(K_n) → 1 + 1/(1 − e⁻²)², not 1; fixed λ: τ grows"}
    t_n = [abs(r["tau_lower"] - 1) for r in dense["λ=n, S=⌈2λ⌉"]]
    kn_n = [r["tau"] for r in complete["λ=n, S=⌈2λ⌉"]]
    kn_sqrt = complete["λ=√n, S=⌈2λ⌉"][-1]["tau"]
    kn_fixed = [r["tau"] for r in complete["fixed λ=32, S=16"]]
    ok = lambda_holds(t_n, kn_n, kn_sqrt, kn_fixed)
    summ = (f"K_n at n = {COMPLETE_SIZES[-1]:,}: τ = {kn_fixed[-1]:.4g} (fixed λ = 32), "
            f"{kn_sqrt:.4f} (λ = √n; limit {SQRT_LIMIT:.4f}), {kn_n[-1]:.7f} (λ = n); "
            f"G(n, 1/2) at λ = n: τ ≥ " + " → ".join(f"{r['tau_lower']:.5f}"
                                                     for r in dense["λ=n, S=⌈2λ⌉"])
            + f" (n {sizes[0]}→{sizes[-1]}); at λ = √n: τ ≥ "
            + " → ".join(f"{r['tau_lower']:.4f}" for r in dense["λ=√n, S=⌈2λ⌉"]))
    if ok:
        return LAMBDA.result(norm, "holds", ev, summ)
    ce = counterexample(LAMBDA.id, ctx, dense=dense, complete_last={
        k: v[-1] for k, v in complete.items()})
    return LAMBDA.result(norm, "fails", ev, summ, ce)
