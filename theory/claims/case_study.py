"""Figure 1 and its five numbered insights (G1 isolated, G2 star, G3 complete, G4 ring)."""

import math

import ngc_ref
from ngc_ref.graphs import figure1_graphs

from .._common import counterexample
from .._core import claim

ID = "case-study"
STATEMENT = ("At λ = S = 64: 1) G1 (isolated, n=4) has no denoising (largest τ·log n/n, τ = n); "
             "2) the complete G3 has the smallest τ among the n = 4 graphs; 3) the star G2 has a "
             "larger τ than G3; 4) the decentralised ring G4 also gets a small τ; 5) the larger "
             "graph G4 denoises better (smaller τ·log n/n than G3).")
GRAPHS = figure1_graphs()
CLAIM = claim(ID, "Figure 1, Sec. 3 case study", STATEMENT, order=70)
#: The five insights as the checker reads them (insight 4's "also can get a smaller τ" is vague).
INSIGHTS = {
    1: CLAIM.part(1, "G1 (four isolated nodes) has the largest τ·log n/n of the four graphs "
                     "and τ = n: no denoising."),
    2: CLAIM.part(2, "The complete graph G3 has the smallest τ among G1–G3."),
    3: CLAIM.part(3, "The star G2 has a larger τ than the complete graph G3: τ(G2) > τ(G3)."),
    4: CLAIM.part(4, "The decentralised ring G4 also gets a small τ: below the star's and within "
                     "10% of the complete graph's (checker's reading of 'also can get a "
                     "smaller τ')."),
    5: CLAIM.part(5, "The larger graph G4 denoises better than G3: τ·log n/n(G4) < "
                     "τ·log n/n(G3)."),
}


@CLAIM.checker
def check(ctx, norm):
    tau, tln = {}, {}
    for k, G in GRAPHS.items():
        res = ngc_ref.connectivity_factor(G, 64, 64, norm=norm)
        tau[k], tln[k] = res.tau, res.tau_log_n_over_n
    table = {k: {"n": GRAPHS[k].shape[0], "tau": tau[k], "tau_log_n_over_n": tln[k]}
             for k in GRAPHS}
    insights = {
        1: ("G1 has the largest τ·log n/n and τ = n",
            tln["G1"] == max(tln.values()) and math.isclose(tau["G1"], 4.0, rel_tol=1e-12)),
        2: ("G3 has the smallest τ among G1–G3", tau["G3"] < min(tau["G1"], tau["G2"])),
        3: ("τ(G2) > τ(G3)", tau["G2"] > tau["G3"]),
        4: ("G4's τ is small: below the star's and within 10% of the complete graph's "
            "(checker's reading of 'also can get a smaller τ')",
            tau["G4"] < tau["G2"] and tau["G4"] <= 1.1 * tau["G3"]),
        5: ("τ·log n/n(G4) < τ·log n/n(G3)", tln["G4"] < tln["G3"]),
    }
    all_ok = all(ok for _, ok in insights.values())
    results = [CLAIM.result(norm, "holds" if all_ok else "fails",
                           {"lam": 64, "S": 64, "table": table},
                           "; ".join(f"{k}: τ={tau[k]:.4f}, τ·log n/n={tln[k]:.4f}"
                                     for k in GRAPHS),
                           None if all_ok else counterexample(ID, ctx, table=table, failed=[
                               i for i, (_, ok) in insights.items() if not ok]))]
    for i, (text, ok) in insights.items():
        ev = {"insight": text, "lam": 64, "S": 64, "table": table}
        ce = None if ok else counterexample(INSIGHTS[i].id, ctx, insight=i, table=table)
        results.append(INSIGHTS[i].result(norm, "holds" if ok else "fails", ev,
                                          f"insight {i}: {text}", ce))
    return results
