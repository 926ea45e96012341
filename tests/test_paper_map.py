"""The sentence map (theory/paper/paper_map.toml) accounts for every unit of the paper once, with
anchors that an edit of the paper breaks loudly, ids the checker knows, and a written reason
wherever a sentence that reads like a claim is called no claim."""

import dataclasses

import pytest

from ngc_ref_theory.kit.claim import statement_ids
from ngc_ref_theory.paper.sentence_map import (NEEDS, REASONS, Entry, entry_for, load_map, match,
                                               needs_note)
from ngc_ref_theory.paper.sentences import split_sentences
from ngc_ref_theory.paper.experiments import QUOTES
from ngc_ref_theory.reproduce.targets import NOT_RUN, TARGETS

#: Statement ids the map already names that other parts of this round are adding to the
#: checker (the lead deletes this constant after merging them).
@pytest.fixture(scope="module")
def units(tex):
    return split_sentences(tex)


@pytest.fixture(scope="module")
def entries():
    return load_map()


def test_every_sentence_is_mapped_once_and_every_entry_anchors_one_sentence(units, entries):
    m = match(entries, units)
    assert m.problems == []
    assert len(entries) == len(units) == len(m.entry_of)


def test_every_registered_statement_is_anchored_to_a_sentence(entries):
    anchored = {sid for e in entries for sid in e.ids}
    assert set(statement_ids()) - anchored == set()


def test_every_id_the_map_names_exists():
    named = {sid for e in load_map() for sid in (*e.ids, *e.of)}
    assert named - set(statement_ids()) == set()


def test_reproduce_targets_and_claims_exist(entries):
    for e in entries:
        if e.target:
            assert e.target in TARGETS or e.target in NOT_RUN, e.describe()
        if e.reproduce_claim:
            assert e.target and e.reproduce_claim in QUOTES, e.describe()
            assert e.reproduce_claim in TARGETS[e.target].quotes + ("rngc-over-ngc",)


def test_a_sentence_that_reads_like_a_claim_needs_a_written_reason(units, entries):
    m = match(entries, units)
    silent = [u.text[:90] for u in units
              if not m.entry_of[u.index].ids and needs_note(u.text)
              and not (m.entry_of[u.index].note or m.entry_of[u.index].proposed)]
    assert silent == []


def test_every_reason_has_what_it_needs(entries):
    for e in entries:
        assert e.reason in ("", *REASONS)
        for key in NEEDS.get(e.reason, ()):
            assert getattr(e, key), e.describe()


# --- the detection itself, on mutated copies -------------------------------------------------

def test_a_deleted_entry_leaves_its_sentence_unmapped(units, entries):
    problems = match(entries[:10] + entries[11:], units).problems
    assert problems == [f"unmapped sentence [{units[10].where}] ({units[10].hash}): "
                        f"{units[10].text[:100]!r}"]


def test_an_edited_sentence_detaches_its_entry_loudly(tex, entries):
    edited = tex.replace("Deeper GNNs can have a faster convergence rate.",
                         "Deeper GNNs can have a slower convergence rate.")
    assert edited != tex
    problems = match(entries, split_sentences(edited)).problems
    assert len(problems) == 2
    assert problems[0].startswith("stale anchor: [1 Introduction] 'Deeper GNNs can have a "
                                  "faster convergence rate.'")
    assert "its quote is in no sentence" in problems[0]
    assert problems[1].startswith("unmapped sentence [1 Introduction]")


def test_a_moved_sentence_is_found_under_its_new_section(units, entries):
    k = next(i for i, u in enumerate(units) if u.text.startswith("Deeper GNNs"))
    moved = [dataclasses.replace(u, section=("8 Elsewhere",)) if i == k else u
             for i, u in enumerate(units)]
    problems = match(entries, moved).problems
    assert "its quote is now in [8 Elsewhere]" in problems[0]


def test_a_quote_must_be_in_its_sentence(units, entries):
    k = 30
    wrong = entries[:k] + [dataclasses.replace(entries[k], quote="not in the paper")] \
        + entries[k + 1:]
    assert match(wrong, units).problems[0].startswith("quote not in its sentence")


def test_two_entries_on_one_sentence_are_reported(units, entries):
    twice = entries + [entries[5]]
    assert any(p.startswith("two entries on one sentence") for p in match(twice, units).problems)


def test_an_unknown_id_is_caught_by_the_id_check():
    known = set(statement_ids())
    bad = Entry("1 Introduction", "x", "0" * 12, ids=("lemma-2",))
    assert {sid for sid in bad.ids} - known == {"lemma-2"}


@pytest.mark.parametrize("toml, message", [
    ('[[sentence]]\nsection = "S"\nquote = "q"\nhash = "h"\n', "either ids"),
    ('[[sentence]]\nsection = "S"\nquote = "q"\nhash = "h"\nids = ["a"]\nreason = "notation"\n',
     "either ids"),
    ('[[sentence]]\nsection = "S"\nquote = "q"\nhash = "h"\nreason = "vibes"\n',
     "unknown reason 'vibes'"),
    ('[[sentence]]\nsection = "S"\nquote = "q"\nhash = "h"\nreason = "proof-step"\n',
     "needs of"),
    ('[[sentence]]\nsection = "S"\nquote = "q"\nhash = "h"\nreason = "unjudged"\n',
     "needs proposed"),
    ('[[sentence]]\nsection = "S"\nquote = "q"\nhash = "h"\nreason = "notation"\nwhy = "x"\n',
     "unknown fields"),
    ('[[sentence]]\nsection = "S"\nquote = ""\nhash = "h"\nreason = "notation"\n',
     "quote must be"),
    ('[[sentence]]\nsection = "S"\nquote = "q"\nhash = "h"\nids = [1]\n', "list of statement"),
])
def test_malformed_entries_are_refused(toml, message):
    with pytest.raises(ValueError, match=message):
        load_map(toml)


def test_entry_for_anchors_a_unit(units):
    u = units[42]
    e = entry_for(u, ids=("lemma-1",))
    assert match([e], [u]).problems == [] and e.quote in u.text


@pytest.mark.parametrize("text, flagged", [
    ("RNGC slightly outperforms NGC.", True), ("A larger graph converges faster.", True),
    (r"It holds that $a \leq b$.", True), ("Accuracy drops by 5\\%.", True),
    ("Denote the perturbation by delta.", False), ("We use PyG to implement it.", False),
    (r"See Appendix~\ref{appendix:upper bound with hoeffding}.", False),
])
def test_comparative_or_quantitative_words_are_flagged(text, flagged):
    assert needs_note(text) is flagged
