"""report.md says what it found: it opens with the structural finding (at fixed λ no family
meets Assumption 2) and "What fails as stated" (one line per failing as-stated statement, with
its graph, its minimal non-degenerate counterexample and rerun command), table cells keep the
mathematics (| escaped, not replaced), and each violation is in the statement's own units and
names its case."""

import re

import pytest

from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.kit.claim import Result
from ngc_ref_theory.kit.evidence import SQRT_N_KEY, SQRT_N_WHY
from ngc_ref_theory.output.report import (NO_GRAPH_RECORDED, _headline_case, cell,
                                          counterexample_graph, graphless, render_markdown,
                                          structural_finding_lines, what_fails_lines)


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


#: A violation's words: "<quantity> [≥ ]<measured>[ on <case>]; the statement says <side>".
VIOLATION = re.compile(r"(?P<q>.+?) (?P<rel>≥ |≤ )?(?P<m>-?[\d.]+(?:e[+-]\d+)?)"
                       r"(?: on (?P<on>.*?))?; the statement says (?P<says>.*)")


def violations(summary):
    """The violations a summary states (a bracket holding "; the statement says "), parsed;
    brackets are matched, since a quantity such as Σ_j[Ã_S]_ij² has its own."""
    out, stack = [], []
    for k, ch in enumerate(summary):
        if ch == "[":
            stack.append(k)
        elif ch == "]" and stack:
            inner = summary[stack.pop() + 1:k]
            if "; the statement says " in inner:
                m = VIOLATION.fullmatch(inner)
                assert m, inner
                out.append(m.groupdict())
    return out


def test_each_violation_names_the_case_it_comes_from():
    res = run_checks(Context(seed=0), only=["row-square-bounds"], progress=False)
    sym = next(r for r in res if r.id == "row-square-bounds" and r.norm == "sym")
    # karate's violation stands beside karate; the minimal P3 gets its own number.
    found = violations(sym.summary)
    assert found and all(v["on"] for v in found), sym.summary
    assert "on karate-34 row" in sym.summary
    bad = sym.counterexample["violations"][0]
    v = found[0]
    assert v["q"] == "Σ_j[Ã_S]_ij²" and v["on"].startswith(f"{bad['graph']} row {bad['row']}")
    assert float(v["m"]) == pytest.approx(bad["row_square_sum"], rel=5e-3)
    assert v["says"].startswith("≥ (1 − r^(S+1))²/n = ")
    assert v["says"].endswith(f"({bad['row_square_sum'] / bad['bound_value']:.3g}×)")
    assert re.search(r"minimal: atlas G6 .*\[lower bound over ρ_\d = 1\.00\d+ there\]",
                     sym.summary)


def test_a_violation_is_in_the_statements_units_never_over_the_tolerance():
    """#33 §4: gsd-closed-form (rw) said "[measured/bound = 3e+09 …]", the relative gradient
    over the 1e-10 tolerance. Its violation is the relative gradient itself (the statement says
    0), and the gradient errata's the relative difference from the true gradient: the numbers
    the evidence and counterexample hold (planted: the old ratio fails here)."""
    ctx = Context(seed=0)
    by = {(r.id, r.norm): r for r in run_checks(ctx, only=["gsd-closed-form"], progress=False)}
    r = by["gsd-closed-form", "rw"]
    assert r.verdict == "fails"
    v, = violations(r.summary)
    assert v["q"] == "relative gradient ‖∇q‖/((1+2λ)‖X‖)" and v["says"] == "0"
    assert float(v["m"]) == pytest.approx(r.evidence["worst_relative_gradient"], rel=5e-3)
    assert v["on"] == f"{r.counterexample['graph']['name']}, λ={r.counterexample['lam']:g}"
    for key in (("gsd-closed-form:gradient", "sym"), ("gsd-closed-form:gradient", "rw"),
                ("gsd-closed-form:gradient-meant", "rw")):
        res = by[key]
        assert res.verdict == "fails", res.summary
        v, = violations(res.summary)
        assert (v["q"], v["says"]) == ("relative difference from the true gradient", "0")
        assert float(v["m"]) == pytest.approx(res.evidence["max_relative_difference"], rel=5e-3)
        assert float(v["m"]) < 10            # a relative difference, not a ratio to 1e-10
    for res in by.values():
        assert "measured/bound" not in res.summary, res.summary


# --- every counterexample names its graph in the headline ----------------------------------

GRAPH = {"name": "complete-64", "n": 64, "n_edges": 2016, "edges_sha256": "ab" * 32}


def test_the_headline_shows_the_graph_of_every_counterexample():
    """#33 §4: tau-at-scale headlined "counterexample: λ=64, S=64". The headline starts with
    the graph (record, minimal counterexample, data set, or why there is none); one without
    is marked and listed by ``graphless`` (planted: the old headline has no graph)."""
    bare = _result("tau-at-scale", "fails", "as-stated", "τ grows")
    bare.counterexample.update(family="complete graph K_n", n=15333, lam=64.0, S=64)
    named = _result("assumption-2", "fails", "as-stated", "τ/n stays")
    named.counterexample.update(graph=GRAPH, lam=32.0, S=16)
    data = _result("row-normalization:table", "fails", "as-stated", "8/9 cells")
    data.counterexample.update(dataset="cora", xi=1.0)
    noise = _result("flip-noise", "fails", "as-stated", "E[η | X=0] = +p",
                    minimal_counterexample={"case": "one entry (n = d = 1)", "p": 0.1})
    noise.counterexample.update(no_graph="about the noise alone", p=0.4)
    res = [bare, named, data, noise]
    assert [_headline_case(r) for r in res] == [
        f"{NO_GRAPH_RECORDED}, family=complete graph K_n, n=15333, λ=64, S=64",
        "complete-64 (n = 64, 2016 edges), λ=32, S=16",
        "cora (data set), ξ=1",
        "one entry (n = d = 1)"]
    assert graphless(res) == [bare]
    assert counterexample_graph(noise) == "no graph (about the noise alone)"
    lines = what_fails_lines(res)
    assert f"— counterexample: {NO_GRAPH_RECORDED}, family=" in lines[4]
    assert "— counterexample: complete-64 (n = 64, 2016 edges), λ=32, S=16 — " in lines[5]
    assert graphless([_result("ok", "holds", "as-stated", "fine")]) == []


def test_the_minimal_counterexample_shows_its_value_beside_its_graph():
    """#35 §5: Lemma 1's exact probability was printed as '[0.285954861574119,
    0.285954861574119]' deep in the report; a certificate's rounded ``shows`` stands beside
    its graph in the headline instead."""
    mc = {"atlas_index": 3, "n": 2, "edges": [[0, 1]], "lam": 1.0, "S": 1, "d": 4,
          "shows": "P(exceed) = 0.286 > 1/d = 1/4", "certified": "exact probability"}
    r = _result("lemma-1", "fails", "as-stated", "P(exceed) > 1/d", minimal_counterexample=mc)
    assert _headline_case(r) == ("atlas G3 (n=2, edges [[0, 1]]), λ=1, S=1, d=4: P(exceed) = "
                                 "0.286 > 1/d = 1/4 (exact probability)")


# --- the structural finding, once, at the top -----------------------------------------------

def _assumption_2(lam=32.0, S=16, floor=0.005534501111840462, families=10, tau_over_n=0.00678):
    r = _result("assumption-2", "fails", "as-stated", "τ/n ≥ floor")
    r.evidence.update(lam=lam, S=S, floor_tau_over_n=floor,
                      families={f"fam{k}": {"verdict": "fails"} for k in range(families)})
    r.counterexample.update(family="complete", n=800, tau_over_n=tau_over_n)
    return r


def test_the_structural_finding_opens_the_report_with_the_runs_own_numbers():
    """#33 §4: one paragraph, before "What fails as stated", from assumption-2's evidence: the
    floor, 1/(λ+1) of its λ, its families; and the results at λ = √n (their evidence's key).
    Changing the evidence changes the paragraph: nothing in it is written by hand."""
    grown = _result("theorem-1:sum", "fails", "as-stated", "sum reading")
    grown.evidence[SQRT_N_KEY] = SQRT_N_WHY
    ext = _result("assumption-2-corrected", "holds", "extension", "decays")
    ext.evidence[SQRT_N_KEY] = SQRT_N_WHY
    res = [_assumption_2(), ext, grown]
    (para,) = structural_finding_lines(res)
    assert para.startswith("**At fixed λ no graph family meets Assumption 2.**")
    assert "τ_i ≥ n/((λ+1)²(1−r^{S+1})²)" in para
    assert "at λ = 32, S = 16, 1/(λ+1) = 0.0303 and τ/n ≥ 0.00553" in para
    assert "10 of 10 families stay above it; closest, complete: τ/n = 0.00678 at n = 800" in para
    assert "vacuous unless λ grows with n" in para
    # the as-stated result first, then the extension, each with its verdict
    assert para.endswith("λ = √n, S = ⌈2λ⌉: [`theorem-1:sum`](#s-theorem-1-sum) (rw as-stated: "
                         "fails); [`assumption-2-corrected`](#s-assumption-2-corrected) "
                         "(rw extension: holds).")
    text = render_markdown(res, {"seed": 0}, claims={})
    assert text.index("**At fixed λ") < text.index("## What fails as stated")
    assert text.count("At fixed λ no graph family") == 1
    # another run's evidence, another paragraph
    (other,) = structural_finding_lines([_assumption_2(lam=64.0, S=64, floor=0.000237,
                                                       families=3, tau_over_n=0.0004)])
    assert "at λ = 64, S = 64, 1/(λ+1) = 0.0154 and τ/n ≥ 0.000237" in other
    assert "3 of 3 families" in other and "0.00553" not in other and "√n" not in other
    # no failing assumption-2 in the run (e.g. --only): no paragraph
    assert structural_finding_lines([grown]) == []
    assert "At fixed λ" not in render_markdown([grown], {"seed": 0}, claims={})


# --- every verdict × scope: only an as-stated result counts for or against the paper --------

GRID = [(scope, verdict) for scope in ("as-stated", "extension", "erratum")
        for verdict in ("holds", "fails", "inconclusive", "error")]


def _grid_result(scope, verdict, id=None):
    return _result(id or f"{scope}-{verdict}", verdict, scope, f"{verdict} as {scope}")


@pytest.mark.parametrize("scope, verdict", GRID)
def test_one_result_of_each_verdict_and_scope_lands_in_its_own_count_only(scope, verdict):
    """A run of one result: "What fails as stated" lists it only when it is an as-stated
    failure; the counts line counts it under its own scope and verdict, and nowhere else; an
    extension's or erratum's failure is never counted as the paper's."""
    from ngc_ref_theory.output.report import counts, counts_line
    r = _grid_result(scope, verdict)
    fails = what_fails_lines([r])
    listed = [line for line in fails if line.startswith("- ")]
    if (scope, verdict) == ("as-stated", "fails"):
        assert fails[2].startswith("1 of the paper's statements fail under their own hypotheses")
        assert listed == [f"- [`{r.id}`](#s-as-stated-fails) (rw): fails as as-stated — "
                          f"counterexample: {NO_GRAPH_RECORDED} — rerun "
                          f"`ngc-ref check --only {r.id} --seed 0`"]
    else:
        assert listed == [] and fails[-1] == ("No statement of the paper fails as stated in "
                                              "this run.")
    c = counts([r])
    assert c == {sc: {v: int((sc, v) == (scope, verdict))
                      for v in ("holds", "fails", "inconclusive", "error")}
                 for sc in ("as-stated", "extension", "erratum")}
    words = {sc: counts_line(c, sc) for sc in c}
    for sc, line in words.items():
        ones = {v for v in ("holds", "fails", "inconclusive", "error") if f"1 {v}" in line}
        assert ones == ({verdict} if sc == scope else set()), (sc, line)
        assert ("error" in line) == (sc == scope and verdict == "error")   # 0 error: unsaid
        if sc != scope:                                  # every other count said, as 0
            assert line == "0 holds, 0 fails, 0 inconclusive"
    text = render_markdown([r], {"seed": 0}, claims={})
    head = text.split("\n\n")[2]
    assert head == (f"**The paper's statements as stated: {words['as-stated']}.** Our "
                    f"extensions and corrections: {words['extension']}. Errata (typos whose "
                    f"intended statement is clear): {words['erratum']}.")
    assert "At fixed λ" not in text


def test_the_lists_of_a_run_with_every_verdict_and_scope():
    """All twelve at once, and a second as-stated failure: exactly the two as-stated failures
    are listed (in run order) and counted as the paper's."""
    from ngc_ref_theory.output.report import counts, counts_line
    res = [_grid_result(*sv) for sv in GRID]
    res.append(_grid_result("as-stated", "fails", id="second-failure"))
    items = [line for line in what_fails_lines(res) if line.startswith("- ")]
    assert [line.split("`")[1] for line in items] == ["as-stated-fails", "second-failure"]
    assert what_fails_lines(res)[2].startswith("2 of the paper's statements fail")
    c = counts(res)
    assert counts_line(c, "as-stated") == "1 holds, 2 fails, 1 inconclusive, 1 error"
    assert counts_line(c, "extension") == "1 holds, 1 fails, 1 inconclusive, 1 error"
    assert counts_line(c, "erratum") == "1 holds, 1 fails, 1 inconclusive, 1 error"
    text = render_markdown(res, {"seed": 0}, claims={})
    assert "**The paper's statements as stated: 1 holds, 2 fails, 1 inconclusive, 1 error.**" \
        in text
    table = [line for line in text.splitlines() if line.startswith("| [`")]
    assert len(table) == 13 and all(f"| {r.scope} | **{r.verdict}** |" in row
                                    for r, row in zip(res, table))
    # the summary's own "scope: " prefix is not repeated in the table or the list
    assert "as-stated: fails as as-stated" not in text


@pytest.mark.parametrize("scope, verdict", GRID)
def test_the_structural_finding_comes_only_from_a_failing_assumption_2(scope, verdict):
    """Only a failing assumption-2 states the finding (its floor is a counterexample); an
    inconclusive, holding or erroring one says nothing at the top of the report."""
    r = _assumption_2()
    r.scope, r.verdict = scope, verdict
    if verdict != "fails":
        r.counterexample = None
    lines = structural_finding_lines([r])
    assert bool(lines) == (verdict == "fails")
    if lines:
        assert "[`assumption-2`](#s-assumption-2), rw:" in lines[0]


def test_the_structural_finding_takes_the_papers_own_scope_first():
    ext = _assumption_2(lam=64.0, S=64, floor=0.000237, families=3)
    ext.scope = "extension"
    own = _assumption_2()
    own.norm = "sym"
    for order in ([ext, own], [own, ext]):
        (para,) = structural_finding_lines(order)
        assert "at λ = 32, S = 16" in para and "[`assumption-2`](#s-assumption-2), sym:" in para
    (para,) = structural_finding_lines([ext])            # only an extension: it speaks
    assert "at λ = 64, S = 64" in para
