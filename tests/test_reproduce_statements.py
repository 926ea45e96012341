"""The paper's experiment sentences as claims of the kit: each target of ``ngc-ref reproduce``
is a :class:`~ngc_ref_theory.kit.claim.Claim` whose parts are the sentences it judges, each a
``Statement`` with the paper's words and a scope; none of them joins ``ngc-ref check``.

:data:`DECISIONS` is this test's own reading of the paper (Sec. 5.1, 5.2 and the appendix
analyses), written apart from ``paper.experiments.SAID_OF``: which experiment each sentence is
said of, so judging it there is as-stated and elsewhere our extension."""

import pytest

from ngc_ref_theory.kit.claim import SCOPES, VERDICTS, registry, statement_ids
from ngc_ref_theory.paper.experiments import METHOD_QUOTES, QUOTES
from ngc_ref_theory.paper.sentence_map import load_map
from ngc_ref_theory.paper.words import rule_problems
from ngc_ref_theory.reproduce.targets import TARGETS

#: (target, sentence) -> scope. The sentences of the Fig. 2 paragraph are about Fig. 2; the
#: heterophily paragraph's about Table 1; "The first- and second-highest accuracies are
#: highlighted in bold." is said of Table 1 and of Tables 2-3 (Table 4 bolds without saying
#: what bold means); "This implies the weak denoising effect of MLP" (so worded) follows
#: Tables 2-3's MLP sentence; each appendix sentence is about its own table or figures.
DECISIONS = {
    **{("fig:noise", k): "as-stated" for k in ("mlp-random-guess", "ngc-best-fig",
                                               "rngc-over-ngc", "gcn-pubmed")},
    **{("tab:heterophily", k): "as-stated" for k in ("bold", "heterophily-rngc",
                                                     "heterophily-mlp")},
    **{("tab:coauthor", k): "as-stated" for k in ("bold", "coauthor-mlp", "coauthor-gcn",
                                                  "ngc-beats-mlp")},
    ("tab:flip", "flip-rngc"): "as-stated",
    ("tab:row normalization", "row-norm"): "as-stated",
    ("fig:depth", "depth-clean"): "as-stated", ("fig:depth", "depth-noisy"): "as-stated",
    # judged beyond the experiment the paper says them of
    **{(t, "rngc-over-ngc"): "extension" for t in ("tab:heterophily", "tab:coauthor",
                                                   "tab:flip")},
    **{(t, "ngc-beats-mlp"): "extension" for t in ("tab:heterophily", "tab:flip")},
    ("tab:flip", "bold"): "extension",
}


def _sentences():
    return {(key, sid[len(key) + 1:]): st for key, t in TARGETS.items()
            for sid, st in t.statements.items() if sid != key}


def test_every_quoted_sentence_is_a_statement_of_a_target_with_its_words():
    found = _sentences()
    assert {k for _, k in found} == set(QUOTES)
    for (key, k), st in found.items():
        assert st.id == f"{key}:{k}" and st.claim == key and st.text == QUOTES[k]
        assert TARGETS[key].sentence(k) is st
    assert not set(METHOD_QUOTES) & {k for _, k in found}     # the method is followed, not judged


def test_each_sentence_has_the_scope_the_papers_words_give_it():
    found = _sentences()
    assert set(found) == set(DECISIONS)
    for pair, st in found.items():
        assert st.scope.name == DECISIONS[pair] and st.scope.name in SCOPES, pair
        assert "the paper says it of" in st.scope.why and "'" in st.scope.why, pair


def test_targets_are_claims_that_check_never_sees():
    ids = set(statement_ids())
    claims = set(registry())
    for key, t in TARGETS.items():
        assert key not in claims and not set(t.statements) & ids
        assert t.norms == ("sym",) and rule_problems(t) == []    # the experiments' Ã_sym


def test_a_sentence_a_target_does_not_judge_is_refused():
    with pytest.raises(ValueError, match="does not judge the sentence 'bold'"):
        TARGETS["fig:noise"].sentence("bold")


def test_every_sentence_the_map_gives_a_target_is_one_of_its_statements():
    for e in load_map():
        if e.reproduce_claim:
            assert TARGETS[e.target].sentence(e.reproduce_claim).text == QUOTES[
                e.reproduce_claim]


#: The fields of a sentence's record in reproduce.json (``reading`` where its target runs its
#: sentences per reading, ``rerun`` where it fails).
FIELDS = {"claim", "quote", "verdict", "rule", "summary", "evidence", "target", "id", "scope",
          "scope_reason"}


def test_each_record_is_made_by_its_targets_statement():
    """Every sentence of every target is judged by judge_target, and its record names the
    target it was judged on, with that statement's id, words and scope."""
    from tests.test_reproduce_verdicts import _all_records
    recs = _all_records()
    assert {(r["target"], r["claim"]) for r in recs} == set(DECISIONS)
    for r in recs:
        assert set(r) - {"reading", "rerun"} == FIELDS and r["verdict"] in VERDICTS
        assert ("rerun" in r) == (r["verdict"] == "fails")
        st = TARGETS[r["target"]].sentence(r["claim"])
        assert (r["id"], r["quote"], r["scope"], r["scope_reason"]) == (
            st.id, QUOTES[r["claim"]], DECISIONS[r["target"], r["claim"]], st.scope.why)
