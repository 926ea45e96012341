"""The introduction's headline: "a larger high-order graph connectivity factor, i.e., nodes are
more uniformly distributed in the neighborhood, accelerates the convergence of the noise matrix".

Def. 1 names τ = max_i τ_i, τ_i = nρ_i/(1 − r^{S+1})² with ρ_i = Σ_j [Ã_S]_ij², the "high-order
graph connectivity factor"; a *larger* τ is a *less* uniform row (τ_i = 1 for a uniform row of
rw, τ_i = n for a row with one entry: Remark 1). The sentence's "i.e." says the opposite, the
naming inversion that ``rngc-tau:literal`` meets in Sec. 1's RNGC sentence.

How fast the noise matrix Ã_Sη converges is measured, at one n, by its size: for η i.i.d. with
mean 0 and variance σ², E‖Ã_Sη‖_F² = σ²d‖Ã_S‖_F² = σ²d Σ_i ρ_i exactly, and Lemma 1 bounds
‖Ã_Sη‖_F² by 2τ(1 − r^{S+1})²σ²(4 log n + log 2d)/n. So two graphs with the same n, λ, S are
compared by their τ and their ‖Ã_S‖_F²:

* ``tau-headline`` (as written, τ of Def. 1): the graph with the larger τ has the smaller noise.
  Lemma 1's bound, linear in τ, already says the opposite; the exact energies do too on the
  smallest pair (P3 against K3).
* ``tau-headline:meant`` (the "i.e.": more uniform rows, a smaller τ): the graph with the smaller
  τ has the smaller noise. The bound orders them so by construction, but the energy is the sum
  of the ρ_i and τ their maximum: a graph can have the smaller τ and the larger energy.

Both are searched over every pair of atlas graphs with the same n (no isolated node) × the λ, S
grid, vectorised (per S, partners sorted by τ, a running minimum of the energy), the minimal
pair certified in exact arithmetic (rational τ and ‖Ã_S‖_F², both normalisations).
"""

from __future__ import annotations

import math

import numpy as np

from ..exact import certificates as ex
from ..exact.atlas import (NON_DEGENERATE, adjacency, cells, certified_minimal, graph, graph_name,
                           lam_grid, scan, stacks)
from ..kit.evidence import counterexample
from ..kit.claim import claim, erratum
from ..paper.words import RW_FOOTNOTE, theory_rw

ID = "tau-headline"
WORDS = ("Sec. 1: 'Intuitively, as the General Hoeffding Inequality (Lemma. hoeffding) suggests, a "
         "larger high-order graph connectivity factor, i.e., nodes are more uniformly distributed "
         "in the neighborhood, accelerates the convergence of the noise matrix and a larger graph "
         "size leads to faster convergence.'")
DEF_WORDS = ("Def. 1: 'We define the high-order graph connectivity factor τ as τ = max_i τ_i, "
             "where τ_i = nΣ_j[Ã_S]_ij²/(1 − (λ/(λ+1))^{S+1})²', and Remark 1: 'when the "
             "high-order graph connectivity is high, τ → 1 and when the graph is less connected, "
             "τ → n'")
STATEMENT = ("As written, with τ the number Def. 1 names the high-order graph connectivity "
             "factor: a larger τ accelerates the convergence of the noise matrix Ã_Sη, i.e. of "
             "two graphs with the same n, λ, S the one with the larger τ has the smaller noise "
             "E‖Ã_Sη‖_F² = σ²d‖Ã_S‖_F² (and Lemma 1's bound 2τ(1 − r^{S+1})²σ²(4 log n + "
             "log 2d)/n would be smaller). Checked on every pair of atlas graphs with the same n "
             "(n ≥ 2, no isolated node) × the λ, S grid (S ≥ 1), the minimal pair exactly.")
INVERSION = (f"a naming inversion: written, {WORDS}; Def. 1 and Remark 1 make a larger τ a less "
             f"uniform filter ({DEF_WORDS}); the sentence's own 'i.e.' says what is meant, more "
             f"uniform rows, a smaller τ — the same inversion, and the same reading, as rngc-tau's "
             f"'increase the high-order graph connectivity factor' (rngc-tau:literal is its "
             f"erratum); τ and Lemma 1 are stated for D̃⁻¹Ã: {RW_FOOTNOTE}")
#: As written (τ of Def. 1 larger) the sentence contradicts its own "i.e.": a typo whose meant
#: statement is clear, so an erratum in both normalisations (as rngc-tau:literal); the meant
#: statement (`:meant`) is the paper's, as-stated in rw.
CLAIM = claim(ID, "Introduction (Sec. 1)", STATEMENT, order=62, scope=erratum(INVERSION),
              rule="theory", seconds=(0.8, 1.6),
              doc=("\"a larger connectivity factor, i.e., more uniform rows, accelerates the "
                   "convergence of the noise\": with Def. 1's τ as written (the naming "
                   "inversion: an erratum, as `rngc-tau:literal`), and `:meant` (the \"i.e.\": "
                   "a smaller τ; the paper's statement, as-stated in rw), on every pair of "
                   "atlas graphs with the same n"))
MEANT = CLAIM.part(
    "meant", "As meant by the sentence's own 'i.e., nodes are more uniformly distributed in the "
             "neighborhood' (more uniform rows of Ã_S, a smaller τ): of two graphs with the same "
             "n, λ, S the one with the smaller τ has the smaller noise E‖Ã_Sη‖_F² = "
             "σ²dΣ_iρ_i, i.e. faster convergence. Lemma 1's bound, linear in τ, orders them so "
             "by construction; the check asks it of the noise itself, on every pair of atlas "
             "graphs with the same n (no isolated node) × the λ, S grid, the minimal pair exactly.",
    **theory_rw(f"{WORDS}, read as its 'i.e.' means ({INVERSION})",
                "τ and Lemma 1's bound are the theory's, stated for D̃⁻¹Ã"))

#: Relative margin for "larger" / "smaller" in the float screen (the certificate is exact).
MARGIN = 1e-9
#: Lemma 1's bound is evaluated for the pair at this d and σ (it is linear in σ², and its order
#: between two graphs of the same n does not depend on d).
BOUND_D, BOUND_SIGMA = 2, 1.0
SECOND_HALF = (
    "the sentence's second half, 'a larger graph size leads to faster convergence', is judged by "
    "noise-vanishing (does the noise per node vanish as n grows: not at the experiments' fixed "
    "λ, where Σ_iρ_i/n ≥ 1/(λ+1)², and its corrected :sqrt-n with λ = √n) and, through Lemma "
    "1's bound τ log n/n, by assumption-2 and tau-at-scale (at fixed λ, τ grows like n)")


def _partners(c, direction):
    """``(S_MAX + 1, G)``: for each graph g1 (each S ≥ 1), the smallest ‖Ã_S‖_F² among the
    graphs g2 of the same n in range whose τ is below g1's ('literal': g1 is the larger τ) or
    above it ('meant': g1 is the smaller τ); inf where there is none. Per S the partners are
    sorted by τ with a running minimum of the energy; the rows are searched at once by offsetting
    row S by S·(2n + 2) (every τ lies in [0, n])."""
    ok = np.flatnonzero(NON_DEGENERATE.graphs(c.stack))
    out = np.full(c.tau.shape, np.inf)
    if ok.size < 2:
        return out
    t, e = c.tau[1:, ok], c.fro2[1:, ok]
    order = np.argsort(t, axis=1, kind="stable")
    ts, es = np.take_along_axis(t, order, 1), np.take_along_axis(e, order, 1)
    rows, width = np.arange(t.shape[0])[:, None], ok.size
    offset = rows * (2.0 * c.n + 2.0)
    if direction == "literal":       # partners with τ2 < τ1(1 − margin): a prefix
        run = np.minimum.accumulate(es, axis=1)
        k = np.searchsorted((ts + offset).ravel(), (c.tau[1:] * (1 - MARGIN) + offset).ravel(),
                            side="left").reshape(c.tau[1:].shape) - rows * width
        out[1:] = np.where(k > 0, run[rows, np.maximum(k - 1, 0)], np.inf)
    else:                            # partners with τ2 > τ1(1 + margin): a suffix
        run = np.minimum.accumulate(es[:, ::-1], axis=1)[:, ::-1]
        k = np.searchsorted((ts + offset).ravel(), (c.tau[1:] * (1 + MARGIN) + offset).ravel(),
                            side="right").reshape(c.tau[1:].shape) - rows * width
        out[1:] = np.where(k < width, run[rows, np.minimum(k, width - 1)], np.inf)
    return out


def _test(direction):
    def test(c):
        """Fails at g1 where a partner (see :func:`_partners`) has less noise: the larger τ
        with more noise ('literal'), or the smaller τ with more noise ('meant'); ratio: g1's
        ‖Ã_S‖_F² over the partner's."""
        ratio = c.fro2 / _partners(c, direction)
        return ratio > 1 + MARGIN, ratio
    return test


def _stack_of(n):
    return next(k for k, st in enumerate(stacks()) if st.n == n)


def certify_pair(where, norm, direction, tries=8):
    """The exact certificate of the failing cell ``where`` (g1): its partner g2 is the first,
    in atlas order, of the float screen's partners; τ and ‖Ã_S‖_F² of both are exact rationals,
    and ``fails`` is True when the strict inequalities hold exactly."""
    n, lam, S = where["n"], where["lam"], where["S"]
    k = _stack_of(n)
    c, st = cells(k, norm, lam), stacks()[k]
    g1 = int(np.flatnonzero(st.index == where["atlas_index"])[0])
    t1, e1 = c.tau[S, g1], c.fro2[S, g1]
    ok = NON_DEGENERATE.graphs(st)
    tau_side = (c.tau[S] < t1 * (1 - MARGIN)) if direction == "literal" else (
        c.tau[S] > t1 * (1 + MARGIN))
    cand = np.flatnonzero(ok & tau_side & (c.fro2[S] < e1 * (1 - MARGIN)))
    exact1 = (ex.tau(n, where["edges"], lam, S, norm),
              sum(ex.row_square_sums(n, where["edges"], lam, S, norm), ex.ZERO))
    for g2 in cand[:tries]:
        index2 = int(st.index[g2])
        edges2 = graph(index2)[1]
        exact2 = (ex.tau(n, edges2, lam, S, norm),
                  sum(ex.row_square_sums(n, edges2, lam, S, norm), ex.ZERO))
        tau_ok = exact1[0] > exact2[0] if direction == "literal" else exact1[0] < exact2[0]
        if tau_ok and exact1[1] > exact2[1]:
            return {"fails": True, "certified": "exact", "partner_index": index2,
                    "partner_edges": edges2,
                    "exact": {"τ (this graph)": ex.text(exact1[0]),
                              "τ (partner)": ex.text(exact2[0]),
                              "‖Ã_S‖_F² (this graph)": ex.text(exact1[1]),
                              "‖Ã_S‖_F² (partner)": ex.text(exact2[1])},
                    "numbers": {"tau": (float(exact1[0]), float(exact2[0])),
                                "fro2": (float(exact1[1]), float(exact2[1]))},
                    "why": "exact rational τ and ‖Ã_S‖_F² = Σ_iρ_i (sym: squared entries are "
                           "rational); E‖Ã_Sη‖_F² = σ²d‖Ã_S‖_F²"}
    return {"fails": False}


def lemma_1_bound(tau, lam, S, n, d=BOUND_D, sigma=BOUND_SIGMA):
    """Lemma 1's bound 2τ(1 − r^{S+1})²σ²(4 log n + log 2d)/n (float)."""
    return 2 * tau * float(ex.mass(lam, S)) ** 2 * sigma ** 2 * (
        4 * math.log(n) + math.log(2 * d)) / n


def _pair_text(mc, norm):
    """'P3 (…) against K3 (…), λ = 1, S = 1: τ 13/6 > 17/9 and ‖Ã_S‖_F² 7/6 > 17/16'."""
    e = mc["exact"]
    return (f"{graph_name(mc['atlas_index'])} against {graph_name(mc['partner_index'])}, "
            f"λ = {mc['lam']:g}, S = {mc['S']} ({norm}): τ {e['τ (this graph)']} vs "
            f"{e['τ (partner)']}, ‖Ã_S‖_F² {e['‖Ã_S‖_F² (this graph)']} vs "
            f"{e['‖Ã_S‖_F² (partner)']} (exact)")


def _judge(statement, ctx, norm, direction, atlas, what):
    """The result of one reading: the scan, its minimal pair certified, Lemma 1's bound on it."""
    mc = certified_minimal(atlas, lambda w: certify_pair(w, norm, direction))
    ev = {"words": WORDS, "definition": DEF_WORDS, "second_half": SECOND_HALF,
          "convergence_measured_by": "E‖Ã_Sη‖_F² = σ²d‖Ã_S‖_F² = σ²dΣ_iρ_i (exact for η i.i.d., "
                                     "mean 0, variance σ²) at the same n, λ, S; Lemma 1's bound "
                                     "2τ(1 − r^{S+1})²σ²(4 log n + log 2d)/n beside it",
          "tau_is_a_max_energy_a_sum": "τ = n·max_i ρ_i/(1 − r^{S+1})², ‖Ã_S‖_F² = Σ_i ρ_i: the "
                                       "bound follows the largest row, the noise all rows",
          "criterion": f"a pair fails where τ and ‖Ã_S‖_F² are ordered {what} (relative margin "
                       f"{MARGIN:g} in the float screen; the minimal pair exact)",
          "failing_share": f"{atlas.failing_cases:,} of {atlas.cases:,} (graph, λ, S) cases have "
                           "such a partner"}
    if mc is None:
        return statement.result(norm, "holds", ev, f"no pair of atlas graphs with the same n is "
                                f"ordered {what}; {atlas.describe()}", search=atlas.search())
    mc = dict(mc, norm=norm)
    bounds = [lemma_1_bound(float(mc["numbers"]["tau"][k]), mc["lam"], mc["S"], mc["n"])
              for k in (0, 1)]
    ev["minimal_pair_lemma_1_bound"] = {"d": BOUND_D, "sigma": BOUND_SIGMA,
                                        "this_graph": bounds[0], "partner": bounds[1]}
    ce = counterexample(statement.id, ctx, graph=(graph_name(mc["atlas_index"]),
                                                  adjacency(mc["n"], mc["edges"])),
                        partner=graph_name(mc["partner_index"]),
                        partner_edges=mc["partner_edges"], lam=mc["lam"], S=mc["S"], norm=norm,
                        exact=mc["exact"], lemma_1_bound_d2_sigma1=bounds)
    return statement.result(norm, "fails", ev, _summary(direction, mc, norm, atlas, bounds), ce,
                            search=atlas.search(), minimal_counterexample=mc)


def _summary(direction, mc, norm, atlas, bounds):
    share = f"{atlas.failing_cases:,} of {atlas.cases:,} cases"
    if direction == "literal":
        return (f"as written (larger τ, faster convergence) it fails: the larger τ has the "
                f"larger noise and the larger Lemma 1 bound ({bounds[0]:.4g} vs {bounds[1]:.4g} "
                f"at d = {BOUND_D}, σ = 1); minimal: {_pair_text(mc, norm)}; {share} have a "
                f"partner with smaller τ and less noise. The 'i.e.' means a smaller τ "
                f"({MEANT.id}, the statement judged as-stated)")
    return (f"as meant (smaller τ, more uniform rows, faster convergence) it fails for the noise "
            f"itself, though Lemma 1's bound orders the pair as meant ({bounds[0]:.4g} < "
            f"{bounds[1]:.4g}): τ follows the largest row, the noise all rows; minimal: "
            f"{_pair_text(mc, norm)}; {share} have a partner with larger τ and less noise")


@CLAIM.checker
def check(ctx, norm):
    lams = lam_grid(ctx)
    out = []
    for statement, direction, what in ((CLAIM, "literal", "alike (larger τ, more noise)"),
                                       (MEANT, "meant", "oppositely (smaller τ, more noise)")):
        atlas = scan(norm, _test(direction), lams=lams, within=NON_DEGENERATE,
                     ratio="‖Ã_S‖_F² over the partner's")
        out.append(_judge(statement, ctx, norm, direction, atlas, what))
    return out

