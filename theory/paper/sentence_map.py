"""The sentence map: every unit of the paper (:mod:`.sentences`) mapped to the statement ids that
judge it, or to the reason it states nothing the checker judges. The data is
``paper_map.toml`` beside it (package data).

Each entry of the map is anchored to exactly one unit by three things, so that an edit of the
paper cannot silently detach it: the unit's ``section`` path, a short ``quote`` (verbatim from
the unit's LaTeX, white space collapsed) and the ``hash`` of the unit's whole normalised text
(:func:`~ngc_ref_theory.paper.sentences.text_hash`); ``occurrence`` (1, 2, …) tells apart identical
sentences of one section. :func:`match` pairs entries with units and lists every problem: a
unit without an entry, an entry that matches no unit (a stale anchor: the sentence was edited),
a quote not in its unit, an entry that is neither a claim nor a reason.

An entry either names ``ids`` (the statements whose results judge the sentence, with the
``--only`` ids of ``ngc-ref check``) or gives a ``reason`` from :data:`REASONS`, with what that
reason needs (:data:`NEEDS`): the ``of`` statements a proof step, restatement or summary points
to, the ``target`` of ``ngc-ref reproduce`` that judges a table or an experiment (and the
``reproduce_claim``, a key of its quoted sentences, where one judges it), the ``proposed``
check of a sentence no result judges yet. A sentence that is not a claim but reads like one (it
compares, counts or bounds: :data:`COMPARATIVE`) carries a written ``note`` saying why.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from importlib import resources

from .sentences import normalise, text_hash

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10: the same parser, published as tomli
    import tomli as tomllib

#: Why a sentence is not judged by a statement of ``ngc-ref check``: key -> what it means.
REASONS = {
    "definition": "defines a quantity, a model, a problem or a term",
    "notation": "fixes notation",
    "literature": "describes or cites other work, or places this work among it",
    "motivation": "motivation, intuition, aims or framing; it asserts no property of its own",
    "signpost": "says what a section, proof or appendix contains, or where to find something",
    "setting": "an experimental or implementation setting: data, splits, protocol, "
               "hyper-parameters, software",
    "reproduce": "an experimental outcome, judged by `ngc-ref reproduce` (the target named)",
    "table": "a table's numbers, judged by `ngc-ref reproduce` (the target named)",
    "proof-step": "a step of a proof, checked in the proof chain of the statement named",
    "restatement": "restates what the statements named judge where the paper first states it",
    "summary": "sums up results that the statements named judge; it adds nothing checkable",
    "hypothesis": "a hypothesis the paper assumes (a condition, not a claim); the statements "
                  "named, if any, verify it where they rely on it",
    "unjudged": "states something checkable that no result judges yet (the check is proposed)",
}
#: What an entry with a reason must carry besides it.
NEEDS = {"reproduce": ("target",), "table": ("target",), "proof-step": ("of",),
         "restatement": ("of",), "summary": ("of",), "unjudged": ("proposed",)}
#: Words and symbols of a comparative or quantitative assertion: a sentence mapped to a reason
#: (not to statement ids) that contains one needs a written ``note`` saying why it is not a
#: claim of its own.
COMPARATIVE = re.compile(
    r"\b(?:better|worse|larger|smaller|faster|slower|more|less|fewer|greater|higher|lower|"
    r"best|worst|largest|smallest|highest|lowest|outperform\w*|converg\w*|significant\w*|"
    r"bound\w*|digits|increas\w*|decreas\w*|reduc\w*|improv\w*|accelerat\w*|diminish\w*|"
    r"vanish\w*|exceed\w*|superior\w*|enhanc\w*|strengthen\w*|similar\w*|linear\w*|"
    r"approximat\w*)\b|\d+(?:\.\d+)?\s*\\?%|\\leq?\b|\\geq?\b|\\approx|\\to\b|"
    r"\\rightarrow|\\mathcal\{O\}|[<>≤≥]", re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    """One entry of the map (the fields of ``paper_map.toml``'s ``[[sentence]]``)."""

    section: str
    quote: str
    hash: str
    occurrence: int = 1
    ids: tuple = ()
    reason: str = ""
    of: tuple = ()
    target: str = ""
    reproduce_claim: str = ""
    note: str = ""
    proposed: str = ""

    @property
    def is_claim(self):
        return bool(self.ids)

    def describe(self):
        return f"[{self.section}] {self.quote!r} ({self.hash})"


FIELDS = ("section", "quote", "hash", "occurrence", "ids", "reason", "of", "target",
          "reproduce_claim", "note", "proposed")


def load_map(text=None):
    """The map's entries, from ``text`` (TOML) or the shipped ``paper_map.toml``.

    ``ValueError`` on a malformed entry (an unknown field or reason, ids and a reason together,
    neither, a reason without what it needs, a wrong type)."""
    if text is None:
        text = resources.files(__package__).joinpath("paper_map.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    unknown = set(raw) - {"sentence"}
    if unknown:
        raise ValueError(f"paper map: unknown top-level keys {sorted(unknown)}")
    return [_entry(k, e) for k, e in enumerate(raw.get("sentence", []))]


def _entry(k, e):
    where = f"paper map entry {k} ({e.get('quote', '?')!r})"
    extra = set(e) - set(FIELDS)
    if extra:
        raise ValueError(f"{where}: unknown fields {sorted(extra)}; known: {', '.join(FIELDS)}")
    for key in ("section", "quote", "hash"):
        if not isinstance(e.get(key), str) or not e[key]:
            raise ValueError(f"{where}: {key} must be a non-empty string")
    kw = {key: tuple(e[key]) for key in ("ids", "of") if key in e}
    for key, value in kw.items():
        if not all(isinstance(x, str) and x for x in value):
            raise ValueError(f"{where}: {key} must be a list of statement ids")
    entry = Entry(**{**e, **kw, "quote": normalise(e["quote"])})
    if bool(entry.ids) == bool(entry.reason):
        raise ValueError(f"{where}: give either ids (a claim) or a reason (not a claim)")
    if entry.reason and entry.reason not in REASONS:
        raise ValueError(f"{where}: unknown reason {entry.reason!r}; one of "
                         f"{', '.join(REASONS)}")
    for key in NEEDS.get(entry.reason, ()):
        if not getattr(entry, key):
            raise ValueError(f"{where}: reason {entry.reason!r} needs {key}")
    if not isinstance(entry.occurrence, int) or entry.occurrence < 1:
        raise ValueError(f"{where}: occurrence must be a positive integer")
    return entry


def needs_note(text):
    """Whether a unit's text reads like a comparative or quantitative assertion
    (:data:`COMPARATIVE`), so that mapping it to a reason needs a written note.

    >>> needs_note("Denote the perturbation as $\\\\bm{\\\\delta}$.")
    False
    >>> needs_note("RNGC slightly outperforms NGC.")
    True
    >>> needs_note("The proof is in Appendix~\\\\ref{appendix:upper bound}.")    # a label's words
    False
    """
    bare = re.sub(r"\\(?:ref|eqref|label|cite[pt]?)\s*\{[^}]*\}", "", text)  # names, not words
    return COMPARATIVE.search(bare) is not None


@dataclass
class Matching:
    """The result of :func:`match`: ``entry_of`` (unit index -> its entry) and ``problems``
    (one line each; empty when the map accounts for every unit, once)."""

    entry_of: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)


def match(entries, units):
    """Pair each entry with the one unit it anchors to, and list what does not pair.

    A unit is found by (section, hash, occurrence); its text must contain the entry's quote.
    Problems: a stale entry (no unit with that section and hash: the sentence, its section, or
    its hash changed), a quote not in its unit, two entries on one unit, a unit with no entry.
    """
    by_key: dict = {}
    for u in units:
        by_key.setdefault((u.where, u.hash), []).append(u)
    out = Matching()
    for e in entries:
        found = by_key.get((e.section, e.hash), [])
        if len(found) < e.occurrence:
            out.problems.append(f"stale anchor: {e.describe()} matches no sentence"
                                + _hint(e, units))
            continue
        u = found[e.occurrence - 1]
        if e.quote not in u.text:
            out.problems.append(f"quote not in its sentence: {e.describe()} anchors to "
                                f"{u.text[:80]!r}")
            continue
        if u.index in out.entry_of:
            out.problems.append(f"two entries on one sentence: {e.describe()} and "
                                f"{out.entry_of[u.index].describe()}")
            continue
        out.entry_of[u.index] = e
    for u in units:
        if u.index not in out.entry_of:
            out.problems.append(f"unmapped sentence [{u.where}] ({u.hash}): {u.text[:100]!r}")
    return out


def _hint(e, units):
    """Where the entry's quote is now, if anywhere: the edited sentence."""
    near = [u for u in units if e.quote in u.text]
    if not near:
        return "; its quote is in no sentence"
    return "; its quote is now in " + ", ".join(
        f"[{u.where}] ({u.hash}) {u.text[:60]!r}" for u in near[:3])


def entry_for(unit, ids=(), **kw):
    """A map entry anchoring ``unit`` (a helper for writing the map and for tests)."""
    quote = kw.pop("quote", None) or _default_quote(unit.text)
    return Entry(unit.where, quote, text_hash(unit.text), ids=tuple(ids), **kw)


def _default_quote(text, words=8):
    return " ".join(text.split()[:words])


__all__ = ["COMPARATIVE", "Entry", "FIELDS", "Matching", "NEEDS", "REASONS", "entry_for",
           "load_map", "match", "needs_note"]
