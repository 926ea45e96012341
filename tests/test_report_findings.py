"""report.md says what it found: it opens with "What fails as stated" (one line per failing
as-stated statement, with its minimal non-degenerate counterexample and rerun command), table
cells keep the mathematics (| escaped, not replaced), and each [measured/bound] names its case."""

import re

import pytest

from ngc_ref_theory import Context, run_checks
from ngc_ref_theory._core import Result
from ngc_ref_theory.report import cell, render_markdown, what_fails_lines


def _result(id, verdict, scope, summary, **kw):
    ce = {"rerun": f"ngc-ref check --only {id} --seed 0"} if verdict == "fails" else None
    return Result(id=id, claim=id, paper_ref="Eq. 9", statement="s", norm="rw",
                  verdict=verdict, evidence={}, summary=f"{scope}: {summary}", scope=scope,
                  scope_reason="quoted", counterexample=ce, **kw)


def _cells(row):
    """Split a markdown table row on the bars that are not escaped."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]


def test_bars_in_a_table_cell_are_escaped_not_replaced():
    res = [_result("iso", "holds", "as-stated", "every setting: |τ/n − 1| ≤ 4.4e-16; E[η | X=0]")]
    text = render_markdown(res, {"seed": 0}, claims={})
    row = next(line for line in text.splitlines() if line.startswith("| [`iso`]"))
    assert r"\|τ/n − 1\| ≤ 4.4e-16" in row and r"E[η \| X=0]" in row
    assert "/τ/n − 1/" not in text
    cells = _cells(row)
    assert len(cells) == 6 and cells[5] == r"every setting: \|τ/n − 1\| ≤ 4.4e-16; E[η \| X=0]"
    assert cell("a\\|b") == "a\\\\\\|b"          # a backslash before a bar stays a backslash


def test_what_fails_as_stated_opens_the_report_one_line_per_failing_statement():
    mc = {"atlas_index": 3, "n": 2, "edges": [[0, 1]], "lam": 1.0, "S": 1, "d": 4,
          "certified": "exact probability", "range": "S ≥ 1, n ≥ 2, no isolated node, d ≥ 2",
          "degenerate_minimal": {"atlas_index": 1, "n": 1, "edges": [], "lam": 1.0, "S": 0,
                                 "d": 4, "certified": "exact probability"}}
    res = [_result("lemma-1", "fails", "as-stated", "P(exceed) > 1/d; more",
                   minimal_counterexample=mc),
           _result("row-sum", "fails", "extension", "row sums off"),
           _result("tau-range", "holds", "as-stated", "fine"),
           _result("flip-noise", "fails", "as-stated", "E[η | X=0] = +p (closed form); more")]
    text = render_markdown(res, {"seed": 0}, claims={})
    head = text.index("## What fails as stated")
    assert head < text.index("| id | paper |")
    section = text[head:text.index("| id | paper |")]
    items = [line for line in section.splitlines() if line.startswith("- ")]
    assert len(items) == 2                           # the extension and the holding one: no
    lem = items[0]
    assert lem.startswith("- [`lemma-1`](#s-lemma-1) (rw): P(exceed) > 1/d — ")
    assert "atlas G3 (n=2, edges [[0, 1]]), λ=1, S=1, d=4 (exact probability)" in lem
    assert "smallest with S ≥ 1, n ≥ 2, no isolated node, d ≥ 2" in lem
    assert "degenerate minimum (outside that range): atlas G1 (n=1" in lem
    assert lem.endswith("rerun `ngc-ref check --only lemma-1 --seed 0`")
    # the first clause is cut at '; ' outside brackets only
    assert "E[η | X=0] = +p (closed form) — " in items[1]
    assert what_fails_lines([res[2]])[-1].startswith("No statement of the paper fails")


def test_each_measured_over_bound_names_the_case_it_comes_from():
    res = run_checks(Context(seed=0), only=["row-square-bounds"], progress=False)
    sym = next(r for r in res if r.id == "row-square-bounds" and r.norm == "sym")
    # karate's ratio stands beside karate; the minimal P3 gets its own number.
    for m in re.finditer(r"\[measured/bound = ([^\]]+)\]", sym.summary):
        assert " on " in m.group(1), sym.summary
    assert "on karate-34 row" in sym.summary
    assert re.search(r"minimal: atlas G6 .*\[lower bound over ρ_\d = 1\.00\d+ there\]",
                     sym.summary)


def test_a_measured_over_bound_number_names_its_case_beside_a_minimal_counterexample():
    """#26: "[measured/bound = …]" must belong to the case the summary names. Beside a minimal
    counterexample a bare number would read as the minimal case's, so the case is required."""
    from ngc_ref_theory.claims import gsd_closed_form

    st = gsd_closed_form.GRADIENT
    mc = {"n": 3, "edges": [[0, 1], [0, 2]]}
    with pytest.raises(ValueError, match="name the case"):
        st.result("rw", "fails", {}, "off; minimal: P3", {"rerun": "x"}, violation=2.0,
                  minimal_counterexample=mc)
    r = st.result("rw", "fails", {}, "off; minimal: P3", {"rerun": "x"}, violation=2.0,
                  violation_case="star-41, λ=0.5", minimal_counterexample=mc)
    assert r.summary.endswith("[measured/bound = 2 on star-41, λ=0.5]")
    # the claims that put a number beside their minimal case name it (the real run)
    ctx = Context(seed=0)
    for res in run_checks(ctx, only=["gsd-closed-form"], progress=False):
        assert res.verdict != "error", res.summary
        for m in re.finditer(r"\[measured/bound = [^\]]*\]", res.summary):
            assert " on " in m.group(0) or " there" in m.group(0), res.summary
