"""Eq. 6-7 and the appendix 'row summation': row sums and row square sums of Ã_S."""

import numpy as np

import ngc_ref

from ..exact.atlas import (NON_DEGENERATE, atlas_counterexample, atlas_minimal, combine_search,
                           exact_line, lam_grid, minimal_figure, scan, setting)
from ..kit.evidence import EXACT_RTOL, counterexample
from ..kit.claim import Violation, claim
from ..exact.certificates import certify_row_squares, certify_row_sum
from ..paper.words import THEORY_RW_SCOPES
from ..kit.graphs import lam_S_grid, small_graphs
from ..exact.proofs import ROW_SUM_CHAIN, first_failure, instance_from, random_instances, run_chain

ROW_SUM = "row-sum"
ROW_SQ = "row-square-bounds"

ROW_SUM_CLAIM = claim(ROW_SUM, "Eq. 6, App. row summation",
                      "Every row of Ã_S sums to 1 − r^{S+1}.", order=40,
                      **THEORY_RW_SCOPES,
                      rule="theory", seconds=(0.6, 1.9),
                      doc="rows of Ã_S sum to 1 − r^{S+1} (stated for rw)")
ROW_SUM_CORRECTED = ROW_SUM_CLAIM.corrected(
    "For sym, the degree-weighted row sums hold instead: Σ_j [Ã_S]_ij √d̃_j = (1 − r^{S+1}) √d̃_i "
    "for every row i (D̃^{1/2}1 is the eigenvector of Ã_sym for eigenvalue 1).")
ROW_SQ_CLAIM = claim(ROW_SQ, "Eq. 7",
                     "(1 − r^{S+1})²/n ≤ Σ_j [Ã_S]_ij² ≤ (1 − r^{S+1})² for every row i.",
                     order=50, **THEORY_RW_SCOPES,
                     rule="theory", seconds=(0.2, 1.7),
                     doc="(1−r^{S+1})²/n ≤ Σ_j[Ã_S]_ij² ≤ (1−r^{S+1})²")
ROW_SQ_CORRECTED = ROW_SQ_CLAIM.corrected(
    "For sym: (1 − r^{S+1})²·d̃_i/Σ_j d̃_j ≤ Σ_j [Ã_S]_ij² ≤ (1 − r^{S+1})²·d̃_i/min_j d̃_j for "
    "every row i (Eq. 7 on regular graphs).")


def _cases(ctx, norm):
    """(graph name, A, λ, S, Ã_S dense, 1 − r^{S+1}) over the search space."""
    for name, A in small_graphs(ctx).items():
        for lam, S in lam_S_grid(ctx):
            M = ngc_ref.neumann_matrix(A, lam, S, norm=norm)
            yield name, A, lam, S, M, ngc_ref.series_mass(lam, S)


def _space(ctx):
    return {"graphs": list(small_graphs(ctx)), "lam_S": lam_S_grid(ctx)}


#: Random instances the proof chains run on besides the minimal counterexample.
PROOF_INSTANCES = 30


def within(deviation, tol=EXACT_RTOL):
    """Eq. 6's identity (a row sum of Ã_S is 1 − r^{S+1}) holds on the sampled cases: the
    largest relative deviation is at most ``tol`` (float64 rounding of an exact identity)."""
    return deviation <= tol


def bounds_hold(min_over_lower, max_over_upper, tol=EXACT_RTOL):
    """Eq. 7's two bounds hold on the sampled rows: min ρ_i/lower ≥ 1 − ``tol`` and
    max ρ_i/upper ≤ 1 + ``tol``; ``(lower ok, upper ok)``.

    >>> bounds_hold(1.0, 1.0), bounds_hold(0.5, 1.0), bounds_hold(1.0, 1.5)
    ((True, True), (False, True), (True, False))
    """
    return min_over_lower >= 1 - tol, max_over_upper <= 1 + tol


def _row_sum_test(c):
    """Atlas test of Eq. 6: relative deviation of every row sum from 1 − r^{S+1}."""
    dev = np.abs(c.row_sums - c.mass[:, None, None]).max(axis=2) / c.mass[:, None]
    return dev > EXACT_RTOL, dev


def _weighted_row_sum_test(c):
    """Atlas test of the corrected sym statement: Σ_j [Ã_S]_ij √d̃_j = (1 − r^{S+1}) √d̃_i."""
    sq = np.sqrt(c.stack.degrees)
    lhs = np.einsum("sgij,gj->sgi", c.M, sq)
    dev = (np.abs(lhs - c.mass[:, None, None] * sq[None]).max(axis=2)
           / (c.mass[:, None] * sq.max(axis=1)[None]))
    return dev > EXACT_RTOL, dev


def _row_square_test(c):
    """Atlas test of Eq. 7: ρ_i against (1 − r^{S+1})²/n and (1 − r^{S+1})²; ratio ≥ 1 fails."""
    m2 = c.mass[:, None, None] ** 2
    low = ((m2 / c.n) / c.rho).max(axis=2)         # > 1: lower bound violated
    high = (c.rho / m2).max(axis=2)                 # > 1: upper bound violated
    ratio = np.maximum(low, high)
    return ratio > 1 + EXACT_RTOL, ratio


def _row_square_corrected_test(c):
    """Atlas test of the corrected sym bounds m²d̃_i/Σd̃ ≤ ρ_i ≤ m²d̃_i/min d̃."""
    d = c.stack.degrees[None]
    m2 = c.mass[:, None, None] ** 2
    low = (m2 * d / d.sum(axis=2, keepdims=True) / c.rho).max(axis=2)
    high = (c.rho / (m2 * d / d.min(axis=2, keepdims=True))).max(axis=2)
    ratio = np.maximum(low, high)
    return ratio > 1 + EXACT_RTOL, ratio


def _proof_steps(ctx, norm, mc):
    """Appendix C's chain on the minimal counterexample and seeded random graphs."""
    inst = [instance_from(mc, norm)] if mc else []
    inst += random_instances(ctx.rng(ROW_SUM, norm, "proof"), PROOF_INSTANCES, norm)
    return run_chain(ROW_SUM_CHAIN, inst, show=("lam", "S"))


def _exact_row_text(mc, key="row"):
    return {int(k.split()[1]): v for k, v in mc["exact"].items()
            if k.startswith(f"{key} ") and k.endswith("sum")}


def _sampled_row_sums(ctx, norm):
    """Measure Eq. 6 (the row sums) on the sampled cases: ``(worst deviation, its case,
    smallest entry)``."""
    worst = (0.0, None)
    neg = 0.0
    for name, A, lam, S, M, mass in _cases(ctx, norm):
        dev = float(np.abs(M.sum(axis=1) - mass).max() / mass)
        neg = min(neg, float(M.min()))
        if dev > worst[0]:
            worst = (dev, (name, A, lam, S, M.sum(axis=1), mass))
    return worst, neg


def _row_sum_minimal_text(mc):
    """The summary's words on the atlas's minimal counterexample of Eq. 6."""
    v = Violation("largest row sum", max(mc["numbers"]["rows"]), "=", mc["numbers"]["mass"],
                  "1 − r^(S+1)", case="that minimal graph")
    return f"; minimal: {setting(mc)}, {mc['certified']} [{v.text()}]"


@ROW_SUM_CLAIM.checker
def check_row_sum(ctx, norm):
    worst, neg = _sampled_row_sums(ctx, norm)
    ev = dict(_space(ctx), max_relative_deviation=worst[0], min_entry=neg,
              tolerance=f"relative {EXACT_RTOL:g}")
    atlas = scan(norm, _row_sum_test, lams=lam_grid(ctx), within=NON_DEGENERATE,
                 ratio="max_i |Σ_j [Ã_S]_ij − (1 − r^(S+1))| / (1 − r^(S+1))")
    mc = atlas_minimal(atlas, lambda w: certify_row_sum(w["n"], w["edges"], w["lam"], w["S"],
                                                        norm), norm)
    search = combine_search(atlas, _space(ctx))
    steps = _proof_steps(ctx, norm, mc)
    broken = first_failure(steps)
    ev["proof_first_false_step"] = broken["step"] if broken else None
    extra = [_row_sum_corrected(ctx, norm)] if norm == "sym" else []
    if within(worst[0]) and mc is None:
        return [ROW_SUM_CLAIM.result(norm, "holds", ev,
                                     f"row sums equal 1 − r^(S+1) to {worst[0]:.1e} "
                                     f"(relative); entries ≥ {neg:.1e}; {atlas.describe()}",
                                     search=search, steps=steps), *extra]
    if within(worst[0]):
        ce = atlas_counterexample(ctx, ROW_SUM, mc, exact=mc["exact"])
        return [ROW_SUM_CLAIM.result(
            norm, "fails", ev, f"sampled graphs hold; atlas minimal counterexample "
                               f"{setting(mc)} ({mc['certified']})", ce,
            _row_sum_figure(ctx, norm, mc), search=search, minimal_counterexample=mc,
            steps=steps), *extra]
    name, A, lam, S, rows, mass = worst[1]
    ce = counterexample(ROW_SUM, ctx, graph=(name, A), lam=lam, S=S, expected=mass,
                        row_sums=rows.tolist(), max_relative_deviation=worst[0])
    # Each violation names the case it was measured on (the minimal case has its own).
    v = Violation("largest row sum", float(rows.max()), "=", mass, "1 − r^(S+1)",
                  case=f"{name}, λ={lam:g}, S={S}")
    return [ROW_SUM_CLAIM.result(
        norm, "fails", ev,
        f"row sums range over [{rows.min():.4f}, {rows.max():.4f}], not {mass:.4f} "
        f"({name}, λ={lam:g}, S={S}) [{v.text()}]; the paper's proof uses rw (Lemma: "
        "stochastic P)"
        f"{_row_sum_minimal_text(mc) if mc else ''}", ce, _row_sum_figure(ctx, norm, mc),
        search=search, minimal_counterexample=mc, steps=steps), *extra]


def _row_sum_corrected(ctx, norm):
    """The corrected statement for sym: D̃^{1/2}1 is the eigenvector of Ã_sym for eigenvalue
    1, so the degree-weighted row sums are (1 − r^{S+1})√d̃_i."""
    worst2 = 0.0
    for _name, A, _lam, _S, M, mass in _cases(ctx, norm):
        sq = np.sqrt(ngc_ref.normalized_adjacency(A, return_degrees=True)[1])
        worst2 = max(worst2, float(np.abs(M @ sq - mass * sq).max() / (mass * sq.max())))
    ev2 = dict(_space(ctx), max_relative_deviation=worst2,
               correction="for sym the degree-weighted sums hold: Σ_j [Ã_S]_ij √d̃_j = "
                          "(1 − r^{S+1}) √d̃_i")
    atlas2 = scan(norm, _weighted_row_sum_test, lams=lam_grid(ctx),
                  ratio="max_i |Σ_j [Ã_S]_ij √d̃_j − m√d̃_i| / (m max √d̃)")
    mc2 = atlas_minimal(atlas2, None, norm)
    v = "holds" if within(worst2) and mc2 is None else "fails"
    ce2 = None
    if not within(worst2):
        ce2 = counterexample(ROW_SUM_CORRECTED.id, ctx, max_relative_deviation=worst2)
    elif mc2 is not None:
        ce2 = atlas_counterexample(ctx, ROW_SUM_CORRECTED.id, mc2)
    return ROW_SUM_CORRECTED.result(
        norm, v, ev2, f"Σ_j [Ã_S]_ij √d̃_j = (1 − r^(S+1)) √d̃_i to {worst2:.1e}; "
                      f"{atlas2.describe()}", ce2,
        search=combine_search(atlas2, _space(ctx)), minimal_counterexample=mc2)


def _row_sum_figure(ctx, norm, mc):
    if mc is None:
        return []
    rows = _exact_row_text(mc)
    m = mc["exact"]["1 − r^(S+1)"]
    return minimal_figure(
        ctx, f"row-sum-minimal-{norm}.png", mc,
        f"Eq. 6 fails ({norm}): minimal counterexample, atlas G{mc['atlas_index']}, "
        f"λ = {mc['lam']:g}, S = {mc['S']}\nrow sums of Ã_S (red) ≠ 1 − r^(S+1) = {m}",
        {i: v for i, v in rows.items()},
        caption=f"certified {mc['certified']}: {exact_line(mc, '(1 − r^(S+1))')}"
                + ("; √6 etc. are irrational (linearly independent over Q)" if norm == "sym"
                   else ""))


def _sampled_row_squares(ctx, norm):
    """Measure Eq. 7 on the sampled cases: the smallest ρ_i/lower and largest ρ_i/upper, each
    ``(ratio, (graph, A, λ, S, row, ρ_i, bound))``, and the number of rows."""
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
    return low, high, count


def _row_square_minimal_text(mc):
    """The summary's words on the minimal counterexample of Eq. 7 (the row square bounds)."""
    nums = mc["numbers"]
    i, which = mc["bad_rows"][0]
    if which == "lower":
        return (f"; minimal: {setting(mc)}, {mc['certified']} [{which} bound over ρ_{i} "
                f"= {nums['low'] / nums['rho'][i]:.9g} there]")
    return (f"; minimal: {setting(mc)}, {mc['certified']} [ρ_{i} over the {which} "
            f"bound = {nums['rho'][i] / nums['high']:.9g} there]")


def _row_square_violations(ctx, low, high):
    """The sampled violations of Eq. 7 (the bounds on the row square sums): the counterexample
    and the summary's words."""
    bad, which = [], []
    ok_low, ok_high = bounds_hold(low[0], high[0])
    for bound, ok_bound, (_ratio, where) in (("lower", ok_low, low),
                                            ("upper", ok_high, high)):
        if not ok_bound:
            name, _A, lam, S, i, sq, b = where
            bad.append({"bound": bound, "graph": name, "lam": lam, "S": S, "row": i,
                        "row_square_sum": sq, "bound_value": b})
            # The violation next to the case it was measured on: Σ_j[Ã_S]_ij² against the
            # bound's side of Eq. 7.
            v = Violation("Σ_j[Ã_S]_ij²", sq, "≥" if bound == "lower" else "≤", b,
                          "(1 − r^(S+1))²/n" if bound == "lower" else "(1 − r^(S+1))²",
                          case=f"{name} row {i}, λ={lam:g}, S={S}")
            which.append(f"{bound} bound violated [{v.text()}]")
    first = low[1] if not ok_low else high[1]
    return (counterexample(ROW_SQ, ctx, graph=(first[0], first[1]), violations=bad),
            "; ".join(which))


@ROW_SQ_CLAIM.checker
def check_row_square(ctx, norm):
    low, high, count = _sampled_row_squares(ctx, norm)
    ev = dict(_space(ctx), rows_checked=count, min_sq_over_lower_bound=low[0],
              max_sq_over_upper_bound=high[0], tolerance=f"relative {EXACT_RTOL:g}")
    sampled_ok = all(bounds_hold(low[0], high[0]))
    atlas = scan(norm, _row_square_test, lams=lam_grid(ctx), within=NON_DEGENERATE,
                 ratio="max(bound_low/ρ_i, ρ_i/bound_high) (> 1: a bound fails)")
    mc = atlas_minimal(atlas, lambda w: certify_row_squares(w["n"], w["edges"], w["lam"],
                                                            w["S"], norm), norm)
    search = combine_search(atlas, _space(ctx))
    extra = [_check_sym_corrected(ctx)] if norm == "sym" else []
    if sampled_ok and mc is None:
        return [ROW_SQ_CLAIM.result(norm, "holds", ev,
                                    f"{count} rows: Σ sq / lower ≥ {low[0]:.4f}, Σ sq / upper ≤ "
                                    f"{high[0]:.4f}; {atlas.describe()}", search=search),
                *extra]
    ev["note"] = ("Eq. 7 (the bounds on ρ_i) follows from the row sums of Eq. 6 and "
                  "non-negativity (Cauchy–Schwarz and Σx² ≤ (Σx)²), so it inherits the row "
                  "sums' (Eq. 6) restriction to rw")
    figs = _row_square_figure(ctx, norm, mc)
    atlas_text = _row_square_minimal_text(mc) if mc else ""
    if sampled_ok:
        ce, text = atlas_counterexample(ctx, ROW_SQ, mc, exact=mc["exact"]), "sampled graphs hold"
    else:
        ce, text = _row_square_violations(ctx, low, high)
    return [ROW_SQ_CLAIM.result(norm, "fails", ev, text + atlas_text, ce, figs, search=search,
                                minimal_counterexample=mc), *extra]


def _row_square_figure(ctx, norm, mc):
    if mc is None:
        return []
    rho = mc["numbers"]["rho"]
    i, which = mc["bad_rows"][0] if "bad_rows" in mc else (0, "")
    return minimal_figure(
        ctx, f"row-square-bounds-minimal-{norm}.png", mc,
        f"Eq. 7 fails ({norm}): minimal counterexample, atlas G{mc['atlas_index']}, "
        f"λ = {mc['lam']:g}, S = {mc['S']}\nρ_i = Σ_j [Ã_S]_ij² (red) against "
        f"[{mc['numbers']['low']:.6g}, {mc['numbers']['high']:.6g}]; row {i}: {which} bound",
        {k: f"ρ={v:.6g}" for k, v in enumerate(rho)},
        caption=f"certified {mc['certified']}: {exact_line(mc, 'bound')}")


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
    atlas = scan("sym", _row_square_corrected_test, lams=lam_grid(ctx),
                 ratio="max(bound_low/ρ_i, ρ_i/bound_high) (> 1: a bound fails)")
    mc = atlas_minimal(atlas, None, "sym")
    ok = all(bounds_hold(lo_min, hi_max))
    ce = None
    if not ok:
        ce = counterexample(ROW_SQ_CORRECTED.id, ctx, min_ratio=lo_min, max_ratio=hi_max)
    elif mc is not None:
        ce = atlas_counterexample(ctx, ROW_SQ_CORRECTED.id, mc)
    return ROW_SQ_CORRECTED.result("sym", "holds" if ok and mc is None else "fails", ev,
                                   f"degree-weighted bounds: Σ sq / lower ≥ {lo_min:.4f}, "
                                   f"Σ sq / upper ≤ {hi_max:.4f}; {count} rows; "
                                   f"{atlas.describe()}", ce,
                                   search=combine_search(atlas, _space(ctx)),
                                   minimal_counterexample=mc)
