"""Eq. 6-7 and the appendix 'row summation': row sums and row square sums of Ã_S."""

import numpy as np

import ngc_ref

from .._common import EXACT_RTOL, counterexample
from .._core import claim
from .._paper import THEORY_RW_DEFAULT, THEORY_RW_NORMS
from .._graphs import lam_S_grid, small_graphs

ROW_SUM = "row-sum"
ROW_SQ = "row-square-bounds"

ROW_SUM_CLAIM = claim(ROW_SUM, "Eq. 6, App. row summation",
                      "Every row of Ã_S sums to 1 − r^{S+1}.", order=40,
                      scope=THEORY_RW_DEFAULT, norm_scopes=THEORY_RW_NORMS)
ROW_SUM_CORRECTED = ROW_SUM_CLAIM.corrected(
    "For sym, the degree-weighted row sums hold instead: Σ_j [Ã_S]_ij √d̃_j = (1 − r^{S+1}) √d̃_i "
    "for every row i (D̃^{1/2}1 is the eigenvector of Ã_sym for eigenvalue 1).")
ROW_SQ_CLAIM = claim(ROW_SQ, "Eq. 7",
                     "(1 − r^{S+1})²/n ≤ Σ_j [Ã_S]_ij² ≤ (1 − r^{S+1})² for every row i.",
                     order=50, scope=THEORY_RW_DEFAULT, norm_scopes=THEORY_RW_NORMS)
ROW_SQ_CORRECTED = ROW_SQ_CLAIM.corrected(
    "For sym: (1 − r^{S+1})²·d̃_i/Σ_j d̃_j ≤ Σ_j [Ã_S]_ij² ≤ (1 − r^{S+1})²·d̃_i/min_j d̃_j for "
    "every row i (Eq. 7 on regular graphs).")


def _cases(ctx, norm):
    """(graph name, A, λ, S, Ã_S dense, 1 − r^{S+1}) over the search space."""
    for name, A in small_graphs(ctx).items():
        for lam, S in lam_S_grid(ctx):
            M = ngc_ref.neumann_matrix(A, lam, S, norm)
            yield name, A, lam, S, M, ngc_ref.series_mass(lam, S)


def _space(ctx):
    return {"graphs": list(small_graphs(ctx)), "lam_S": lam_S_grid(ctx)}


@ROW_SUM_CLAIM.checker
def check_row_sum(ctx, norm):
    worst = (0.0, None)
    neg = 0.0
    for name, A, lam, S, M, mass in _cases(ctx, norm):
        dev = float(np.abs(M.sum(axis=1) - mass).max() / mass)
        neg = min(neg, float(M.min()))
        if dev > worst[0]:
            worst = (dev, (name, A, lam, S, M.sum(axis=1), mass))
    ev = dict(_space(ctx), max_relative_deviation=worst[0], min_entry=neg,
              tolerance=f"relative {EXACT_RTOL:g}")
    results = []
    if worst[0] <= EXACT_RTOL:
        results.append(ROW_SUM_CLAIM.result(norm, "holds", ev,
                                   f"row sums equal 1 − r^(S+1) to {worst[0]:.1e} (relative); "
                                   f"entries ≥ {neg:.1e}"))
    else:
        name, A, lam, S, rows, mass = worst[1]
        ce = counterexample(ROW_SUM, ctx, graph=(name, A), lam=lam, S=S, expected=mass,
                            row_sums=rows.tolist(), max_relative_deviation=worst[0])
        results.append(ROW_SUM_CLAIM.result(
            norm, "fails", ev,
            f"row sums range over [{rows.min():.4f}, {rows.max():.4f}], not {mass:.4f} "
            f"({name}, λ={lam:g}, S={S}); the paper's proof uses rw (Lemma: stochastic P)", ce))
    if norm == "sym":
        # Corrected statement for sym: D̃^{1/2}1 is the eigenvector of Ã_sym for eigenvalue 1.
        worst2 = 0.0
        for _name, A, _lam, _S, M, mass in _cases(ctx, norm):
            sq = np.sqrt(ngc_ref.normalized_adjacency(A, return_degrees=True)[1])
            worst2 = max(worst2, float(np.abs(M @ sq - mass * sq).max() / (mass * sq.max())))
        ev2 = dict(_space(ctx), max_relative_deviation=worst2,
                   correction="for sym the degree-weighted sums hold: Σ_j [Ã_S]_ij √d̃_j = "
                              "(1 − r^{S+1}) √d̃_i")
        v = "holds" if worst2 <= EXACT_RTOL else "fails"
        ce2 = None if v == "holds" else counterexample(ROW_SUM_CORRECTED.id, ctx,
                                                        max_relative_deviation=worst2)
        results.append(ROW_SUM_CORRECTED.result(
            norm, v, ev2, f"Σ_j [Ã_S]_ij √d̃_j = (1 − r^(S+1)) √d̃_i to {worst2:.1e}", ce2))
    return results


@ROW_SQ_CLAIM.checker
def check_row_square(ctx, norm):
    low, high = (np.inf, None), (-np.inf, None)
    count = 0
    for name, A, lam, S, M, mass in _cases(ctx, norm):
        n = M.shape[0]
        sq = (M ** 2).sum(axis=1)
        lo = sq / (mass ** 2 / n)     # ≥ 1 required
        hi = sq / mass ** 2           # ≤ 1 required
        count += n
        i, j = int(lo.argmin()), int(hi.argmax())
        if lo[i] < low[0]:
            low = (float(lo[i]), (name, A, lam, S, i, float(sq[i]), mass ** 2 / n))
        if hi[j] > high[0]:
            high = (float(hi[j]), (name, A, lam, S, j, float(sq[j]), mass ** 2))
    ev = dict(_space(ctx), rows_checked=count, min_sq_over_lower_bound=low[0],
              max_sq_over_upper_bound=high[0], tolerance=f"relative {EXACT_RTOL:g}")
    ok_low = low[0] >= 1 - EXACT_RTOL
    ok_high = high[0] <= 1 + EXACT_RTOL
    if ok_low and ok_high:
        return ROW_SQ_CLAIM.result(norm, "holds", ev,
                           f"{count} rows: Σ sq / lower ≥ {low[0]:.4f}, Σ sq / upper ≤ "
                           f"{high[0]:.4f}")
    bad = []
    which = []
    if not ok_low:
        name, A, lam, S, i, sq, b = low[1]
        bad.append({"bound": "lower", "graph": name, "lam": lam, "S": S, "row": i,
                    "row_square_sum": sq, "bound_value": b})
        which.append(f"lower bound violated (ratio {low[0]:.3f}, {name} row {i})")
    if not ok_high:
        name, A, lam, S, i, sq, b = high[1]
        bad.append({"bound": "upper", "graph": name, "lam": lam, "S": S, "row": i,
                    "row_square_sum": sq, "bound_value": b})
        which.append(f"upper bound violated (ratio {high[0]:.3f}, {name} row {i})")
    first = low[1] if not ok_low else high[1]
    ce = counterexample(ROW_SQ, ctx, graph=(first[0], first[1]), violations=bad)
    ev["note"] = ("Eq. 7 follows from Eq. 6 and non-negativity (Cauchy–Schwarz and Σx² ≤ (Σx)²), "
                  "so it inherits Eq. 6's restriction to rw")
    results = [ROW_SQ_CLAIM.result(norm, "fails", ev, "; ".join(which), ce)]
    if norm == "sym":
        results.append(_check_sym_corrected(ctx))
    return results


def _check_sym_corrected(ctx):
    """Degree-weighted bounds for sym, from Σ_j [Ã_S]_ij √d̃_j = (1 − r^{S+1}) √d̃_i.

    Cauchy–Schwarz gives the lower bound mass²·d̃_i/vol (vol = Σ_j d̃_j); non-negativity and
    Σ_j M_ij ≤ Σ_j M_ij √(d̃_j/d̃_min) give the upper bound mass²·d̃_i/d̃_min.
    """
    lo_min, hi_max, count = np.inf, -np.inf, 0
    for _name, A, _lam, _S, M, mass in _cases(ctx, "sym"):
        d = ngc_ref.normalized_adjacency(A, return_degrees=True)[1]
        sq = (M ** 2).sum(axis=1)
        lo_min = min(lo_min, float((sq / (mass ** 2 * d / d.sum())).min()))
        hi_max = max(hi_max, float((sq / (mass ** 2 * d / d.min())).max()))
        count += len(d)
    ev = dict(_space(ctx), rows_checked=count, min_sq_over_lower_bound=lo_min,
              max_sq_over_upper_bound=hi_max,
              correction="for sym: (1 − r^{S+1})²·d̃_i/Σ_j d̃_j ≤ Σ_j [Ã_S]_ij² ≤ "
                         "(1 − r^{S+1})²·d̃_i/min_j d̃_j (equal to Eq. 7 on regular graphs)")
    ok = lo_min >= 1 - EXACT_RTOL and hi_max <= 1 + EXACT_RTOL
    ce = None if ok else counterexample(ROW_SQ_CORRECTED.id, ctx, min_ratio=lo_min,
                                        max_ratio=hi_max)
    return ROW_SQ_CORRECTED.result("sym", "holds" if ok else "fails", ev,
                                   f"degree-weighted bounds: Σ sq / lower ≥ {lo_min:.4f}, "
                                   f"Σ sq / upper ≤ {hi_max:.4f}; {count} rows", ce)
