"""The claim kit: a check is measure → judge → ``judged`` (evidence, counterexample, summary);
an erratum part is an erratum in every norm; claim modules import no private name of another
claim module."""

import ast
from pathlib import Path

import pytest

from ngc_ref_theory._common import EXACT_RTOL, Judgement, judged, plain
from ngc_ref_theory._core import (VERDICTS, Claim, Context, Result, Tolerance, Violation,
                                   severity, worst_verdict)

import numpy as np

ROWS = [{"case": "a", "x": 0.5, "draws": np.array([0.1, 0.2])},
        {"case": "b", "x": 3.0, "draws": np.array([2.5, 3.5])}]


def _claim():
    return Claim("kit-test", "Eq. 0", "x ≤ 1", norms=("sym", "rw"))


def test_judged_builds_the_counterexample_only_on_fails():
    c = _claim()
    w = ROWS[1]
    fails = judged(c, Context(seed=4), "rw", Judgement("fails", ROWS, w), {"rule": "x ≤ 1"},
                   lambda w: f"x = {w['x']:g} on {w['case']}",
                   lambda w: {"case": w["case"], "x": w["x"]}, rows_key="cases",
                   violation=Violation("x", 3.0, "≤", 1, case="b"))
    assert fails.verdict == "fails"
    assert fails.counterexample["x"] == 3.0 and fails.counterexample["case"] == "b"
    assert fails.counterexample["rerun"].startswith("ngc-ref check --only kit-test --seed 4")
    assert fails.summary == "as-stated: x = 3 on b [x 3 on b; the statement says ≤ 1]"
    assert fails.evidence["rule"] == "x ≤ 1"
    assert fails.evidence["cases"][1]["draws"] == [2.5, 3.5]      # arrays as lists
    holds = judged(c, Context(), "sym", Judgement("holds", ROWS[:1], ROWS[0]), {}, "ok",
                   lambda w: 1 / 0)                                # never called on holds
    assert holds.verdict == "holds" and holds.counterexample is None
    assert "cases" not in holds.evidence


def test_judged_refuses_a_fails_without_its_fields():
    with pytest.raises(ValueError, match="failure="):
        judged(_claim(), Context(), "sym", Judgement("fails", ROWS, ROWS[1]), {}, "bad")


def test_judged_graph_field_becomes_the_graph_record():
    import networkx as nx
    A = nx.to_scipy_sparse_array(nx.path_graph(3), format="csr", dtype=float)
    r = judged(_claim(), Context(), "sym", ("fails", [], None), {}, "bad",
               {"graph": ("path-3", A), "lam": 1.0})
    assert r.counterexample["graph"]["edges"] == [[0, 1], [1, 2]]
    assert r.counterexample["lam"] == 1.0


def test_plain_keeps_the_rows_and_lists_their_arrays():
    out = plain(ROWS)
    assert out[0]["draws"] == [0.1, 0.2] and isinstance(ROWS[0]["draws"], np.ndarray)


def test_erratum_part_is_an_erratum_in_every_norm():
    c = Claim("kit-rw", "Eq. 0", "words", norm_scopes={"sym": Claim("x", "", "").scope})
    st = c.erratum("typo", "as written", "what is meant")
    assert st.id == "kit-rw:typo"
    for norm in ("sym", "rw"):
        assert st.scope_for(norm).name == "erratum"
        assert st.scope_for(norm).why == "what is meant"


def test_a_claim_takes_one_check_and_one_plan():
    c = _claim()
    c.checker(lambda ctx, norm: [])
    with pytest.raises(ValueError, match="two checks"):
        c.checker(lambda ctx, norm: [])
    c.plan(lambda ctx, norm: [])
    with pytest.raises(ValueError, match="two plans"):
        c.plan(lambda ctx, norm: [])


def test_no_claim_module_imports_a_private_name_of_another():
    claims = Path(__file__).resolve().parents[1] / "theory" / "claims"
    bad = []
    for path in claims.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level >= 1 and node.module and \
                    not node.module.split(".")[-1].startswith("_"):
                bad += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                        if a.name.startswith("_")]
    assert not bad, bad


# --- a violation in the statement's own units ---------------------------------------------

def test_a_violation_names_the_statements_two_sides_and_reads_in_its_units():
    """#33 §4: the size of a violation is the measured side against the paper's side — the
    ratio of the two, or for a quantity claimed to vanish the quantity itself."""
    v = Violation("P(exceed)", 0.982, "≤", 0.125, "1/d", case="ring n=1000", measured_is="≥")
    assert v.ratio == pytest.approx(0.982 / 0.125)
    assert v.text() == ("P(exceed) ≥ 0.982 on ring n=1000; the statement says ≤ 1/d = 0.125 "
                        "(7.86×)")
    grad = Violation("relative gradient", 0.3, "=", 0, case="star-41, λ=0.5")
    assert grad.ratio is None
    assert grad.text() == "relative gradient 0.3 on star-41, λ=0.5; the statement says 0"
    # a value or ratio a hair above 1 is not printed as 1; against 1 the value is the ratio
    assert Violation("ρ", 1.0038, "<", 1).text() == "ρ 1.004; the statement says < 1"
    assert Violation("s", 2.0076, "≤", 2.0).text().endswith("(1.004×)")


def test_a_violation_refuses_a_numerical_tolerance_as_the_statements_side():
    """Planted: the old gsd-closed-form violation, the relative gradient over EXACT_RTOL (3e9),
    is refused in both forms a check could write it."""
    c = _claim()
    for old in (0.3 / EXACT_RTOL, 3.0):     # a bare number: which two sides? refused
        with pytest.raises(TypeError, match="Violation naming the statement's two sides"):
            c.result("rw", "fails", {}, "grad", {"rerun": "x"}, violation=old)
    with pytest.raises(ValueError, match="numerical tolerance"):
        Violation("relative gradient", 0.3, "≤", EXACT_RTOL)
    with pytest.raises(ValueError, match="numerical tolerance"):   # a copy of its value too
        Violation("relative gradient", 0.3, "≤", 1e-10)
    assert isinstance(EXACT_RTOL, Tolerance) and EXACT_RTOL == 1e-10
    with pytest.raises(ValueError, match="relation"):
        Violation("x", 1.0, "<=", 2.0)
    with pytest.raises(ValueError, match="finite"):
        Violation("x", float("nan"), "≤", 2.0)


def test_a_violation_beside_a_minimal_counterexample_names_its_case():
    c = _claim()
    with pytest.raises(ValueError, match="name the case"):
        c.result("rw", "fails", {}, "off; minimal: P3", {"rerun": "x"},
                 violation=Violation("x", 2.0, "≤", 1.0), minimal_counterexample={"n": 3})


def test_a_figure_is_named_claim_id_then_norm():
    """#35 §5: one pattern for every figure, ``<claim id>[-what]-<norm>.png`` (the old
    ``neumann_truncation_rw.png`` is refused)."""
    def result(name, claim="neumann-truncation"):
        return Result(id=claim, claim=claim, paper_ref="Eq. 4", statement="s", norm="rw",
                      verdict="holds", evidence={}, figures=[name])
    assert result("neumann-truncation-rw.png").figures == ["neumann-truncation-rw.png"]
    result("neumann-truncation-minimal-rw.png")
    for bad in ("neumann_truncation_rw.png", "neumann-truncation-sym.png",
                "gsd-gradient-minimal-rw.png", "Neumann-truncation-rw.png"):
        with pytest.raises(ValueError, match="is not named"):
            result(bad)


def test_verdicts_combine_worst_first_fails_error_inconclusive_holds():
    """The one order of combination, written out here: every pair of verdicts (and each alone)
    against the rank fails > error > inconclusive > holds; nothing judged is inconclusive."""
    rank = {"holds": 0, "inconclusive": 1, "error": 2, "fails": 3}
    assert set(rank) == set(VERDICTS)
    for a in VERDICTS:
        assert severity(a) == rank[a] and worst_verdict([a]) == a
        for b in VERDICTS:
            assert worst_verdict([a, b]) == worst_verdict([b, a]) == max(a, b, key=rank.get)
    assert worst_verdict([]) == "inconclusive"
    assert worst_verdict(iter(["holds", "inconclusive", "holds"])) == "inconclusive"
    with pytest.raises(ValueError, match="verdict must be one of"):
        worst_verdict(["holds", "passes"])
