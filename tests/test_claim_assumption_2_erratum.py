"""assumption-2:o-n: Assumption 2 writes 'O(n), i.e. lim τ/n = 0'; O(n) holds for every graph
(τ ≤ n) while τ/n stays above the floor, so o(n) is meant; the meant statement's verdicts are
those of assumption-2 and assumption-2-corrected."""

from ngc_ref_theory import Context
from ngc_ref_theory.claims import assumption_2 as a2


def test_o_n_erratum_result():
    out = {r.id: r for r in a2.check(Context(seed=0), "rw")}
    r = out["assumption-2:o-n"]
    assert r.verdict == "fails" and r.scope == "erratum" and r.counterexample["rerun"]
    assert "is O(n), i.e., lim_{n→∞} τ/n = 0" in r.scope_reason        # the written words
    assert "o(n) is meant" in r.scope_reason
    ev = r.evidence
    assert ev["O_n_on_every_graph"]["max_tau_over_n"] <= 1 + 1e-12       # O(n) holds
    lim = ev["limit_not_implied"]
    assert lim["tau_over_n"] >= lim["floor"] > 0                         # no limit 0
    assert ev["meant_verdicts"] == {"assumption-2": out["assumption-2"].verdict,
                                    "assumption-2-corrected":
                                        out["assumption-2-corrected"].verdict}
    assert ev["meant_verdicts"]["assumption-2"] == "fails"
