"""The claim kit: a check is measure → judge → ``judged`` (evidence, counterexample, summary);
an erratum part is an erratum in every norm; claim modules import no private name of another
claim module."""

import ast
import sys
from pathlib import Path

import pytest

from ngc_ref_theory.kit.evidence import EXACT_RTOL, Judgement, judged, plain
from ngc_ref_theory.kit import claim as _core
from ngc_ref_theory.kit.claim import (CORRECTED_STATEMENT, PAPER_STATEMENT, RELATIONS, SCOPES,
                                      TOLERANCES, UNMEASURED_SECONDS, VERDICTS, Claim, Context,
                                      Result, Scope, Statement, Tolerance, Violation, as_stated,
                                      erratum, extension, format_exception, match_id, rerun_command,
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


# --- the kit's declared contracts, each against its docstring (issue #34, mutation pass) ---

def test_the_scope_vocabulary_and_its_refusals():
    assert SCOPES == ("as-stated", "extension", "erratum")
    for make, name in ((as_stated, "as-stated"), (extension, "extension"),
                       (erratum, "erratum")):
        assert make("why") == Scope(name, "why")
    assert (PAPER_STATEMENT.name, CORRECTED_STATEMENT.name) == ("as-stated", "extension")
    with pytest.raises(ValueError, match=r"scope must be one of .*got 'maybe'"):
        Scope("maybe", "because")
    with pytest.raises(ValueError, match=r"^a scope needs its reason \(quote the paper\)$"):
        Scope("erratum", "")
    with pytest.raises(ValueError, match=r"scope must be one of .*got 'maybe'"):
        Result("x", "x", "Eq. 0", "s", "rw", "holds", {}, scope="maybe")


@pytest.mark.parametrize("verdict, counterexample, message", [
    ("passes", None, r"^verdict must be one of \('holds', 'fails', 'inconclusive', "
                     r"'error'\), got 'passes'$"),
    ("fails", None, r"^x: a 'fails' verdict needs a counterexample$"),
    ("fails", {}, r"^x: a 'fails' verdict needs a counterexample$"),
])
def test_a_result_refuses_an_unknown_verdict_and_a_fails_without_counterexample(
        verdict, counterexample, message):
    with pytest.raises(ValueError, match=message):
        Result("x", "x", "Eq. 0", "s", "rw", verdict, {}, counterexample=counterexample)


def test_a_result_record_holds_its_fields_and_becomes_json():
    r = Result("x", "x", "Eq. 0", "s", "rw", "inconclusive",
               {"a": np.float64(0.5), "n": np.int64(3), "ok": np.bool_(True),
                "arr": np.arange(2), "t": (1, float("nan")), 4: float("-inf"),
                "nested": [{"x": np.float64("inf")}, np.array([[1.5]])]})
    assert (r.summary, r.figures, r.counterexample, r.corrects, r.scope, r.scope_reason,
            r.search, r.minimal_counterexample, r.steps, r.seconds) == (
        "", [], None, None, "as-stated", "", None, None, None, None)
    d = r.to_dict()
    assert d["evidence"] == {"a": 0.5, "n": 3, "ok": True, "arr": [0, 1], "t": [1, "nan"],
                             "4": "-inf", "nested": [{"x": "inf"}, [[1.5]]]}
    assert type(d["evidence"]["n"]) is int and type(d["evidence"]["ok"]) is bool
    assert type(d["evidence"]["a"]) is float
    assert Result("y", "y", "", "s", "sym", "holds", {}).figures == []
    assert Result("y", "y", "", "s", "sym", "holds", {}).figures is not \
        Result("y", "y", "", "s", "sym", "holds", {}).figures


@pytest.mark.parametrize("value", [-1e-300, float("inf"), float("nan")])
def test_a_tolerance_is_finite_and_non_negative(value):
    with pytest.raises(ValueError, match=f"^a tolerance must be finite and >= 0, got "
                                         f"{value!r}$"):
        Tolerance(value)


def test_a_tolerance_is_remembered_and_zero_is_one():
    assert Tolerance(0.0) == 0.0
    Tolerance(3.25e-7)
    assert 3.25e-7 in TOLERANCES
    with pytest.raises(ValueError, match="numerical tolerance"):
        Violation("x", 1.0, "≤", 3.25e-7)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"relation": "<="}, ValueError,
     r"^Violation relation must be one of \('≤', '<', '≥', '>', '=', '→'\), got '<='$"),
    ({"measured_is": ">="}, ValueError,
     r"^Violation measured_is must be '=', '≥' or '≤', got '>='$"),
    ({"measured": True}, TypeError, r"^Violation measured must be a real number, got bool$"),
    ({"bound": "1"}, TypeError, r"^Violation bound must be a real number, got str$"),
    ({"measured": float("inf")}, ValueError, r"^Violation measured must be finite, got inf$"),
    ({"bound": float("nan")}, ValueError, r"^Violation bound must be finite, got nan$"),
    ({"bound": Tolerance(0.0)}, ValueError, r"^Violation bound=0 is a numerical tolerance, "
                                            r"not a side of the statement: state the measured "
                                            r"q against the statement's own side \(0 for a "
                                            r"quantity it claims to vanish\)$"),
])
def test_a_violation_refuses_each_bad_argument_by_name(kwargs, error, message):
    args = {"quantity": "q", "measured": 2.0, "relation": "≤", "bound": 1.5, **kwargs}
    with pytest.raises(error, match=message):
        Violation(**args)


@pytest.mark.parametrize("relation", RELATIONS)
@pytest.mark.parametrize("measured_is", ("=", "≥", "≤"))
def test_a_violation_accepts_every_relation_numpy_numbers_and_a_bound_of_zero(relation,
                                                                           measured_is):
    v = Violation("q", np.float32(3.0), relation, np.int64(0), measured_is=measured_is)
    assert v.ratio is None
    shown = "q 3" if measured_is == "=" else f"q {measured_is} 3"
    says = "0" if relation == "=" else f"{relation} 0"
    assert v.text() == f"{shown}; the statement says {says}"


@pytest.mark.parametrize("bound, ratio", [(0, None), (1, None), (1.0, None), (2.0, 1.5),
                                          (-4, -0.75)])
def test_a_violations_ratio_is_measured_over_bound_except_against_0_and_1(bound, ratio):
    v = Violation("q", 3.0, "<", bound, bound_name="b")
    assert v.ratio == ratio
    tail = f" ({_core.number(ratio)}×)" if ratio is not None else ""
    assert v.text() == f"q 3; the statement says < b = {_core.number(bound)}{tail}"


def test_a_statements_scope_per_norm_and_its_result_record():
    rw_only = Scope("extension", "the paper states it for rw only")
    st = Statement("c:p", "words", "c", "Eq. 9", corrects="c", scope=PAPER_STATEMENT,
                   norm_scopes=(("sym", rw_only),))
    assert st.scope_for("sym") == rw_only and st.scope_for("rw") == PAPER_STATEMENT
    r = st.result("sym", "fails", {"e": 1}, "off", {"rerun": "x"}, ("c-sym.png",),
                  search={"grid": 1}, minimal_counterexample={"n": 3}, steps=[{"step": 1}],
                  violation=Violation("q", 2.0, "≤", 1.0, case="P3"))
    assert (r.id, r.claim, r.paper_ref, r.statement, r.corrects, r.norm, r.verdict) == (
        "c:p", "c", "Eq. 9", "words", "c", "sym", "fails")
    assert (r.evidence, r.counterexample, r.figures, r.search, r.minimal_counterexample,
            r.steps) == ({"e": 1}, {"rerun": "x"}, ["c-sym.png"], {"grid": 1}, {"n": 3},
                         [{"step": 1}])
    assert (r.scope, r.scope_reason) == ("extension", "the paper states it for rw only")
    assert r.summary == "extension: off [q 2 on P3; the statement says ≤ 1]"
    over = st.result("rw", "holds", {}, "fine", scope=Scope("erratum", "a typo"))
    assert (over.scope, over.scope_reason, over.summary) == ("erratum", "a typo",
                                                             "erratum: fine")
    bare = st.result("rw", "holds", {}, "fine")
    assert bare.summary == "as-stated: fine"
    assert (bare.counterexample, bare.figures, bare.search, bare.minimal_counterexample,
            bare.steps, bare.seconds) == (None, [], None, None, None, None)
    with pytest.raises(TypeError, match=r"^c:p: violation must be a Violation naming the "
                                        r"statement's two sides \(quantity, measured, "
                                        r"relation, bound\), got float$"):
        st.result("rw", "fails", {}, "off", {"rerun": "x"}, violation=2.0)
    with pytest.raises(ValueError, match=r"^c:p: name the case of the violation \(q; case=\): "
                                         r"the summary also names a minimal counterexample$"):
        st.result("rw", "fails", {}, "off", {"rerun": "x"}, minimal_counterexample={"n": 3},
                  violation=Violation("q", 2.0, "≤", 1.0))


@pytest.mark.parametrize("seconds", [(1.0,), (1.0, 2.0, 3.0), (-1.0, 2.0), (1.0, -0.5),
                                     (float("nan"), 1.0), (1.0, float("inf")), 3.0, "ab",
                                     (None, 1.0)])
def test_declared_seconds_are_two_finite_numbers_at_least_zero(seconds):
    with pytest.raises(ValueError, match=r"^claim 'x': seconds must be \(default, thorough\) "
                                         r"CPU seconds per norm, two finite numbers >= 0"):
        Claim("x", "Eq. 6", "...", seconds=seconds)


def test_a_claims_declaration_and_its_defaults():
    c = Claim("kit-c", "Eq. 6", "the words")
    assert (c.id, c.paper_ref, c.statement, c.norms, c.order, c.rule, c.doc) == (
        "kit-c", "Eq. 6", "the words", ("sym", "rw"), 0, None, "")
    assert c.seconds == UNMEASURED_SECONDS == (5.0, 30.0)
    assert (c.data_sets, c.needs_data, c.families, c.planned) == ((), False, False, False)
    assert c.scope == PAPER_STATEMENT and c.norm_scopes == {}
    assert list(c.statements) == ["kit-c"] and c.own.text == "the words"
    assert c.own.corrects is None and c.own.scope == PAPER_STATEMENT
    d = Claim("kit-d", "Eq. 7", "w", norms=["rw"], order=4, rule="theory", seconds=(0, 2.5),
              doc="one line", data_sets=["cora"], families=("kit-d:a",))
    assert (d.norms, d.order, d.rule, d.seconds, d.doc, d.data_sets, d.needs_data) == (
        ("rw",), 4, "theory", (0.0, 2.5), "one line", ("cora",), True)


@pytest.mark.parametrize("kwargs, message", [
    ({"rule": 3}, r"^claim 'x': rule must be a str \(a kind of the normalisation rule\), "
                  r"got int$"),
    ({"doc": 3}, r"^claim 'x': doc must be a str, got int$"),
    ({"data_sets": "cora"}, r"^data_sets must be a tuple of data set names, got 'cora'$"),
    ({"families": "ring"}, r"^families must be True/False or a tuple of statement ids, "
                           r"got 'ring'$"),
    ({"families": ["ring"]}, r"^families must be True/False"),
])
def test_a_claims_declaration_refuses_each_bad_option_by_name(kwargs, message):
    with pytest.raises(TypeError, match=message):
        Claim("x", "Eq. 6", "...", **kwargs)


def test_a_claims_parts_corrections_and_their_scopes():
    rw = {"sym": Scope("extension", "rw only")}
    c = Claim("kit-p", "Lemma 9", "own", scope=Scope("as-stated", "own why"), norm_scopes=rw)
    assert c.own.norm_scopes == (("sym", rw["sym"]),)
    a = c.part("a", "part a")
    assert (a.id, a.text, a.claim, a.paper_ref, a.corrects) == (
        "kit-p:a", "part a", "kit-p", "Lemma 9", None)
    assert a.scope == c.scope and a.scope_for("sym") == rw["sym"]
    b = c.part("b", "part b", scope=Scope("extension", "b why"), norm_scopes={})
    assert b.scope_for("sym") == b.scope_for("rw") == Scope("extension", "b why")
    fix = c.corrected("fixed")
    assert (fix.id, fix.text, fix.corrects, fix.scope, fix.norm_scopes) == (
        "kit-p-corrected", "fixed", "kit-p", CORRECTED_STATEMENT, ())
    fix_a = c.corrected("fixed a", key="a", corrects="kit-p:a", scope=Scope("erratum", "t"))
    assert (fix_a.id, fix_a.corrects, fix_a.scope.name) == ("kit-p-corrected:a", "kit-p:a",
                                                            "erratum")
    assert list(c.statements) == ["kit-p", "kit-p:a", "kit-p:b", "kit-p-corrected",
                                  "kit-p-corrected:a"]
    typo = c.erratum("t", "as written", "what is meant")
    assert (typo.id, typo.text, typo.scope) == ("kit-p:t", "as written",
                                                Scope("erratum", "what is meant"))
    with pytest.raises(ValueError, match=r"^statement 'kit-p:a' declared twice$"):
        c.part("a", "again")
    r = c.result("sym", "holds", {}, "ok")
    assert (r.id, r.scope, r.statement) == ("kit-p", "extension", "own")
    assert (r.counterexample, r.figures, r.minimal_counterexample) == (None, [], None)
    r = c.result("rw", "fails", {}, "off", {"rerun": "x"}, ["kit-p-rw.png"],
                 minimal_counterexample={"n": 2})
    assert (r.counterexample, r.figures, r.minimal_counterexample) == (
        {"rerun": "x"}, ["kit-p-rw.png"], {"n": 2})


@pytest.mark.parametrize("families, asked, expected", [
    (True, None, True), (True, "c:a", True), (False, None, False), (False, "c:a", False),
    (("c:a",), None, True), (("c:a",), "c", True), (("c:a",), "c:a", True),
    (("c:a",), "c:b", False), ((), None, False), ((), "c", False),
])
def test_which_statements_run_on_the_families(families, asked, expected):
    assert Claim("c", "Eq. 0", "w", families=families).uses_families(asked) is expected


def test_a_claim_runs_its_check_and_consults_its_plan_only_when_thorough():
    c = _claim()
    with pytest.raises(ValueError, match=r"^claim 'kit-test' has no check \(decorate one "
                                         r"with \.checker\)$"):
        c.run(Context(), "rw")
    one = c.result("rw", "holds", {}, "ok")
    assert c.checker(lambda ctx, norm: one) is not None and c.run(Context(), "rw") == [one]
    d = _claim()
    d.checker(lambda ctx, norm: (one, one))
    assert d.run(Context(), "rw") == [one, one]
    assert d.cells(Context(thorough=True), "rw") == [] and not d.planned
    plan = d.plan(lambda ctx, norm: iter([("task", {"norm": norm, "seed": ctx.seed})]))
    assert callable(plan) and d.planned
    assert d.cells(Context(thorough=False), "rw") == []
    assert d.cells(Context(seed=5, thorough=True), "sym") == [("task", {"norm": "sym",
                                                                          "seed": 5})]


def test_the_run_context_defaults_its_seeded_streams_figures_and_skips(tmp_path):
    ctx = Context()
    assert (ctx.seed, ctx.thorough, ctx.out_dir, ctx.data_root, ctx.skipped, ctx.current,
            ctx.scale, ctx.store, ctx.n_jobs, ctx.scheduler, ctx.parallel, ctx.families) == (
        0, False, None, None, [], (None, None), 1.0, None, -1, None, False, ())
    assert ctx.figure_path("a.png") is None
    assert Context(out_dir=tmp_path).figure_path("a.png") == tmp_path / "a.png"
    # a stream is seeded by [seed, key words]: an int key by its low 32 bits, any other
    # key by the first 8 hex digits of the SHA-256 of its str
    import hashlib
    word = int(hashlib.sha256(b"ring").hexdigest()[:8], 16)
    expect = np.random.default_rng([7, 5, word, 3]).random(3)
    assert np.array_equal(Context(seed=7).rng(5, "ring", 2 ** 32 + 3).random(3), expect)
    assert np.array_equal(Context(seed=7).rng(np.int64(-1)).random(2),
                          np.random.default_rng([7, 2 ** 32 - 1]).random(2))
    ctx.current = ("c", "rw")
    entry = ctx.skip("Cora", "no data")
    assert entry == {"claim": "c", "norm": "rw", "what": "Cora", "why": "no data"}
    ctx.skip("Cora", "no data")
    ctx.skip("Cora", "other")
    assert ctx.skipped == [entry, {"claim": "c", "norm": "rw", "what": "Cora",
                                   "why": "other"}]
    assert Context().skipped is not Context().skipped


def test_claim_registers_once_and_the_registry_is_in_report_order(monkeypatch):
    _core.registry()                         # the project's claims, imported before the swap
    monkeypatch.setattr(_core, "_REGISTRY", {})
    b = _core.claim("kit-b", "Eq. 1", "w", order=2, doc="b", seconds=(1, 2), rule="free")
    assert (b.doc, b.seconds, b.rule, b.norms, b.order) == ("b", (1.0, 2.0), "free",
                                                          ("sym", "rw"), 2)
    assert (b.scope, b.data_sets, b.families) == (PAPER_STATEMENT, (), False)
    a2 = _core.claim("kit-a2", "Eq. 1", "w", ("rw",), 1)
    a1 = _core.claim("kit-a1", "Eq. 1", "w", order=1)
    a1.part("x", "part")
    z = _core.claim("kit-z", "Eq. 1", "z words")        # order 0 by default: reported first
    assert (z.order, z.statement) == (0, "z words")
    assert a2.norms == ("rw",) and a2.order == 1
    with pytest.raises(ValueError, match=r"^claim 'kit-b' registered twice$"):
        _core.claim("kit-b", "Eq. 1", "again")
    assert _core._REGISTRY["kit-b"] is b
    assert list(_core.registry()) == ["kit-z", "kit-a1", "kit-a2", "kit-b"]   # (order, id)
    assert {k: v.id for k, v in _core.statement_ids().items()} == {
        "kit-z": "kit-z", "kit-a1": "kit-a1", "kit-a1:x": "kit-a1", "kit-a2": "kit-a2",
        "kit-b": "kit-b"}


@pytest.mark.parametrize("name, expected", [("Lemma-1", "lemma-1"), ("THEOREM-1", "theorem-1"),
                                            ("x", "X")])
def test_match_id_finds_the_entry_up_to_letter_case(name, expected):
    assert match_id(name, ["lemma-1", "theorem-1", "X", "x2"]) == expected


CHOICES = ["lemma-1", "LEMMA-22", "lemma-22", "Lemma-333", "lemma-4444", "theorem-1"]


@pytest.mark.parametrize("name, message", [
    # difflib's ratios: against "lemma1" 12/13, 10/14, 10/15, 10/16; against "lemma-" 12/13,
    # 12/14, 12/15, 12/16: the three closest, in that order, each spelled as first given
    ("lemma1", r"^unknown claim id 'lemma1'; did you mean 'lemma-1' or 'LEMMA-22' or "
               r"'Lemma-333'\?$"),
    ("lemma-", r"^unknown claim id 'lemma-'; did you mean 'lemma-1' or 'LEMMA-22' or "
               r"'Lemma-333'\?$"),
    ("zzzzzz", r"^unknown claim id 'zzzzzz'$"),
])
def test_match_id_names_what_is_unknown_and_suggests_the_closest(name, message):
    with pytest.raises(ValueError, match=message):
        match_id(name, CHOICES, "claim id")
    assert match_id("lemma-22", CHOICES) == "LEMMA-22"      # the first of two spellings


def test_match_id_refuses_a_non_str_and_defaults_to_id():
    with pytest.raises(TypeError, match=r"^id must be a str, got int$"):
        match_id(3, ["a"])
    with pytest.raises(ValueError, match=r"^unknown id 'b'$"):
        match_id("b", ["zzz"])


def test_a_rerun_command_names_seed_scale_families_output_and_data(tmp_path):
    data = tmp_path / "my data"
    ctx = Context(seed=3, thorough=True, scale=0.5, families=("ring", "a b"), data_root=data)
    assert rerun_command("c:a/b", ctx, needs_data=False, families=False) == (
        "ngc-ref check --only c:a/b --seed 3 --thorough --scale 0.5 "
        "--out ngc_ref_rerun/c_a_b")
    assert rerun_command("c", ctx, needs_data=True, families=True) == (
        f"NGC_REF_DATA='{data}' ngc-ref check --only c --seed 3 --thorough --scale 0.5 "
        "--family ring --family 'a b' --out ngc_ref_rerun/c")
    assert rerun_command("c", Context(seed=1), needs_data=True) == (
        "ngc-ref check --only c --seed 1 --out ngc_ref_rerun/c")
    assert rerun_command("no-such-statement", ctx) == (
        "ngc-ref check --only no-such-statement --seed 3 --thorough --scale 0.5 "
        "--out ngc_ref_rerun/no-such-statement")


def test_a_rerun_command_reads_the_claims_declarations(monkeypatch):
    _core.registry()
    monkeypatch.setattr(_core, "_REGISTRY", {})
    c = _core.claim("kit-r", "Eq. 1", "w", data_sets=("cora",), families=("kit-r:f",))
    c.part("f", "on families")
    c.part("g", "on its own graphs")
    ctx = Context(seed=2, data_root="/d", families=("ring",))
    assert rerun_command("kit-r:f", ctx) == (
        "NGC_REF_DATA=/d ngc-ref check --only kit-r:f --seed 2 --family ring "
        "--out ngc_ref_rerun/kit-r_f")
    assert rerun_command("kit-r", ctx) == (
        "NGC_REF_DATA=/d ngc-ref check --only kit-r --seed 2 --family ring "
        "--out ngc_ref_rerun/kit-r")
    assert rerun_command("kit-r:g", ctx) == (
        "NGC_REF_DATA=/d ngc-ref check --only kit-r:g --seed 2 --out ngc_ref_rerun/kit-r_g")
    assert rerun_command("Kit-R:G", ctx).endswith(" --out ngc_ref_rerun/Kit-R_G")


def test_format_exception_is_type_and_message_on_one_line():
    assert format_exception(ValueError("bad n")) == "ValueError: bad n"
    assert format_exception(KeyError("k")) == "KeyError: 'k'"
    if sys.version_info >= (3, 11):         # exception notes (PEP 678)
        noted = ValueError("bad n")
        noted.add_note("while reading x")   # a note is a line of its own after the message
        assert format_exception(noted) == "ValueError: bad n\nwhile reading x"


def test_the_refusals_of_a_figure_name_and_of_a_second_check_say_what_is_expected():
    with pytest.raises(ValueError, match=r"^c: figure 'c_rw\.png' is not named "
                                         r"'c\[-what\]-rw\.png' \(the claim id, lowercase "
                                         r"words joined by hyphens, the norm\)$"):
        Result("c", "c", "Eq. 0", "s", "rw", "holds", {}, figures=["c_rw.png"])
    c = _claim()
    c.checker(lambda ctx, norm: [])
    c.plan(lambda ctx, norm: [])
    with pytest.raises(ValueError, match=r"^claim 'kit-test' has two checks$"):
        c.checker(lambda ctx, norm: [])
    with pytest.raises(ValueError, match=r"^claim 'kit-test' has two plans$"):
        c.plan(lambda ctx, norm: [])
