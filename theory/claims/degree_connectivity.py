"""Sec. 5: "Compared with the above small datasets, the node degree on these three datasets is
larger, which means they have better connectivity" — the inference from degree to connectivity,
in the paper's own measure of connectivity.

**The measure.** The paper's connectivity of a graph is its high-order connectivity factor τ
(Def. 1), read against n: "In a well-connected graph, τ is usually relatively small compared
with n" (after Assumption 2), and "when the high-order graph connectivity is high, τ → 1 and
when the graph is less connected, τ → n" (Remark 1). So "better connectivity" is a smaller τ/n.
τ depends on (λ, S) as well as on the graph; the graphs are compared at the same (λ, S), those
of the large data sets' own NGC rows (the co-author table: λ = 1 and 128 for Coauthor-CS, 1 and
1024 for Coauthor-Phy, S = 16), every small data set at each of them. τ is the theory's, stated
for D̃⁻¹Ã (the footnote to Eq. 6), so the claim runs in rw.

**The bracket.** τ/n comes as an interval (:func:`._paper_data.tau_over_n`): exact where
S·nnz·n ≤ 2·10⁸ (2·10¹¹ with ``--thorough``), else the estimator's bracket, whose lower end is
the exact τ_i of one node (a true lower bound) and whose upper end holds at 99% confidence. A
pair (large L, small s) at a setting is *better* when L's upper end is below s's lower end,
*worse* when L's lower end is at or above s's upper end — certain when s's τ is exact, since L's
lower end is an exact τ_i. The statement holds when every pair is better, fails when one is
worse, and is inconclusive otherwise. ogbn-products is not available offline.
"""

from __future__ import annotations

from ..kit.evidence import counterexample
from ..kit.claim import Violation, claim
from ..paper.words import RW_FOOTNOTE, theory_rw
from ._paper_data import load, ngc_settings, tau_over_n

ID = "degree-connectivity"
WORDS = ("Sec. 5 (large-scale graphs): 'Compared with the above small datasets, the node degree "
         "on these three datasets is larger, which means they have better connectivity.'")
MEASURE_WORDS = ("after Assumption 2: 'In a well-connected graph, τ is usually relatively small "
                 "compared with n'; Remark 1: 'when the high-order graph connectivity is high, "
                 "τ → 1 and when the graph is less connected, τ → n'")
STATEMENT = ("'Better connectivity' in the paper's measure τ/n (Def. 1's τ against n): at each "
             "(λ, S) of the large data sets' own NGC rows (λ = 1, 128 for Coauthor-CS; 1, 1024 "
             "for Coauthor-Phy; S = 16), τ/n of Coauthor-CS and Coauthor-Phy is below τ/n of "
             "every small data set (Cora, Citeseer, Pubmed, Cornell, Texas, Wisconsin, Actor) at "
             "the same (λ, S). τ exact where S·nnz·n ≤ 2·10⁸ (2·10¹¹ with --thorough), else the "
             "estimator's bracket (lower end an exact τ_i, upper end at 99% confidence); "
             "ogbn-products is not available offline.")
CLAIM = claim(ID, "Sec. 5 (results on the large-scale graphs)", STATEMENT, norms=("rw",),
              order=172, data_sets=("coauthor-cs", "coauthor-physics", "cora", "citeseer",
                                    "pubmed", "cornell", "texas", "wisconsin", "actor"),
              **theory_rw(f"{WORDS}, in the paper's measure of connectivity ({MEASURE_WORDS})",
                          "τ is the theory's factor, stated for D̃⁻¹Ã"),
              rule="theory", seconds=(1.5, 250.0),
              doc=("\"… which means they have better connectivity\": τ/n (the paper's measure) "
                   "of Coauthor-CS/Phy against every small data set at the co-author rows' (λ, "
                   "S), by exact τ or the estimator's bracket (rw)"))

LARGE = ("coauthor-cs", "coauthor-physics")
SMALL = ("cora", "citeseer", "pubmed", "cornell", "texas", "wisconsin", "actor")
#: Exact τ up to this cost S·nnz·n (the estimator's bracket above it), and the estimator's
#: (probes, candidates), by default and with --thorough (as isolated-tau:paper-data).
BUDGET, BUDGET_THOROUGH = 2e8, 2e11
SAMPLES, SAMPLES_THOROUGH = (32, 16), (256, 256)


def measure(ctx, norm):
    """{(name, λ, S): bracket row} at every (λ, S) of the large data sets' NGC rows."""
    data = load(ctx, LARGE + SMALL)
    settings = sorted({s for b in LARGE if b in data for s in ngc_settings(b)})
    budget = BUDGET_THOROUGH if ctx.thorough else BUDGET
    samples = SAMPLES_THOROUGH if ctx.thorough else SAMPLES
    rows = {}
    for name, ds in data.items():
        own = set(ngc_settings(name))
        for lam, S in settings:
            if name in LARGE and (lam, S) not in own:
                continue
            t = tau_over_n(ds.adjacency, lam, S, norm, budget=budget, samples=samples,
                           seed=ctx.rng(ID, norm, name, lam, S))
            iso = t["isolated_tau_i_over_n"]
            rows[name, lam, S] = {"dataset": name, "lam": lam, "S": S, "n": ds.adjacency.shape[0],
                                  "lower": max(t["non_isolated"], iso[1] if iso else 0.0),
                                  "upper": max(t["upper"], iso[1] if iso else 0.0),
                                  "exact": t["method"] == "exact", "method": t["method"],
                                  "argmax": t["argmax"], "isolated": t["isolated"],
                                  "A": ds.adjacency}
    return rows


def judge(rows):
    """Every (large, small) pair at a large set's own setting: ('better' | 'worse' |
    'undecided', large row, small row)."""
    out = []
    for (name, lam, S), big in sorted(rows.items()):
        if name not in LARGE:
            continue
        for s in SMALL:
            small = rows.get((s, lam, S))
            if small is None:
                continue
            how = ("better" if big["upper"] < small["lower"] else
                   "worse" if big["lower"] >= small["upper"] else "undecided")
            out.append((how, big, small))
    return out


def verdict(pairs):
    """The statement's verdict from the judged pairs (:func:`judge`): ``fails`` when a large
    data set is ``worse`` than a small one on some pair, else ``inconclusive`` when a pair is
    ``undecided`` by the brackets, else ``holds``.

    Examples
    --------
    >>> verdict([("better", {}, {}), ("undecided", {}, {})])
    'inconclusive'
    """
    hows = {h for h, _big, _small in pairs}
    return "fails" if "worse" in hows else "inconclusive" if "undecided" in hows else "holds"


def _pair(big, small):
    sign = "" if big["exact"] else "≥ "
    return (f"{big['dataset']} τ/n {sign}{big['lower']:.4g} vs {small['dataset']} "
            f"{'' if small['exact'] else '≤ '}{small['upper']:.4g} (λ={big['lam']:g}, "
            f"S={big['S']})")


@CLAIM.checker
def check(ctx, norm):
    rows = measure(ctx, norm)
    ctx.skip("ogbn-products", "not available offline")
    pairs = judge(rows)
    if not pairs:           # a data set missing: the skip list says which and why
        return []
    ev = {"words": WORDS, "measure": MEASURE_WORDS, "theory": RW_FOOTNOTE,
          "rule": "better: the large set's upper end below the small set's lower end; worse: "
                  "its lower end (an exact τ_i) at or above the small set's upper end",
          "brackets": [{k: v for k, v in r.items() if k != "A"} for r in rows.values()],
          "pairs": [{"how": h, "large": b["dataset"], "small": s["dataset"], "lam": b["lam"],
                     "S": b["S"]} for h, b, s in pairs],
          "not_available": "ogbn-products (no offline source)"}
    worse = [p for p in pairs if p[0] == "worse"]
    counts = {h: sum(p[0] == h for p in pairs) for h in ("better", "worse", "undecided")}
    tally = ", ".join(f"{v} {k}" for k, v in counts.items())
    v = verdict(pairs)
    if v == "holds":
        return CLAIM.result(norm, "holds", ev, f"τ/n of each large data set is below every small "
                                               f"one's at its settings ({tally} pairs)")
    if v == "inconclusive":
        return CLAIM.result(norm, "inconclusive", ev, f"the brackets do not decide every pair "
                                                      f"({tally})")
    worse.sort(key=lambda p: (p[2]["exact"], p[1]["lower"] / p[2]["upper"]), reverse=True)
    _, b, s = worse[0]
    ce = counterexample(ID, ctx, graph=(b["dataset"], b["A"]), dataset=b["dataset"],
                        against=s["dataset"], lam=b["lam"], S=b["S"], norm=norm,
                        node=b["argmax"], tau_i_over_n_of_node=b["lower"],
                        against_tau_over_n=s["upper"], against_exact=s["exact"])
    listing = "; ".join(_pair(b_, s_) for _, b_, s_ in worse[:3])
    return CLAIM.result(norm, "fails", ev, f"the larger degree does not give the better τ/n: a "
                                           f"large data set's τ/n is at or above a small one's "
                                           f"on {counts['worse']} of {len(pairs)} pairs "
                                           f"({counts['better']} better, {counts['undecided']} "
                                           f"undecided by the brackets); largest: {listing}", ce,
                        violation=Violation(f"τ/n of {b['dataset']}", b["lower"], "<",
                                            s["upper"], f"{s['dataset']}'s τ/n",
                                            case=f"λ={b['lam']:g}, S={b['S']}",
                                            measured_is="≥"))
