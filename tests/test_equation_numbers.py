"""The paper's equation numbers: one table (_paper.EQUATIONS) checked against the numbers its
LaTeX prints, and every "Eq. N" the checker, the library and their documentation write checked
against the words around it — a number must be one the text names there, so a wrong number
(the numbering of earlier reports: Lemma 1's bound as 9, Theorem 1's as 10) fails."""

import re
from pathlib import Path

import pytest

from ngc_ref_theory.paper.words import EQ, EQUATIONS, eq
from ngc_ref_theory.paper.sentences import label_numbers

ROOT = Path(__file__).resolve().parents[1]
#: Where a reader meets the numbers: the checker (its texts become report.md and paper.md), the
#: library's docstrings, the sentence map, the documentation, the benchmarks' notes.
SCANNED = ("theory/**/*.py", "theory/paper/paper_map.toml", "ngc_ref/**/*.py", "docs/*.md",
           "README.md", "ARCHITECTURE.md", "data/README.md", "benchmarks/**/*.py",
           "benchmarks/**/*.md", "benchmarks/**/*.toml")
#: A reference: "Eq. 11", "Eq. (7)", "Eq.~(3)", "Eqs. 6–7", "Eq. 16 → 17", "Eq. 8, 12",
#: "Eq. 8 and 12".
REFERENCE = re.compile(r"\bEqs?\.[~\s]*\(?(?P<first>\d+)\)?(?P<rest>(?:\s*(?:[-–,]|and|→)\s*"
                       r"(?:Eq\.\s*)?\(?\d+\)?(?![\d.]))*)")
#: Names that fix the number when they stand right before the reference ("Lemma 1, Eq. N",
#: "Theorem 1 (Eq. N)").
ADJACENT = re.compile(r"(Lemma 1|Theorem 1|Assumption 1|Assumption 4|Def(?:inition|\.) 1)"
                      r"(?:'s bound)?(?:,| \(|:)? ?$")
ADJACENT_KEY = {"Lemma 1": "lemma-1", "Theorem 1": "theorem-1", "Assumption 1": "assumption-1",
                "Assumption 4": "assumption-4", "Def. 1": "tau", "Definition 1": "tau"}
#: Another work cited right before a reference ("Zhu & Koniusz 2021, Eq. 8", "ICLR 2017, Eq.
#: (8)"): its equation, not the paper's.
OTHER_WORK = re.compile(r"(?:19|20)\d\d,\s*$")
#: Characters around a reference in which its equation must be named.
WINDOW = 150
NAMES = {number: re.compile(names) for _label, number, _what, names in EQUATIONS.values()}


def references(text):
    """(position, [numbers]) of every equation reference in ``text``."""
    for m in REFERENCE.finditer(text):
        nums = [int(m["first"])] + [int(x) for x in re.findall(r"\d+", m["rest"])]
        yield m.start(), m.end(), nums


def chunk_of(text, pos, kind):
    """The stretch of ``text`` a reference at ``pos`` is read in: its line in TOML and in a
    Markdown table, else its paragraph (blank lines bound it)."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    line = text[start:end]
    if kind == ".toml" or (kind == ".md" and line.lstrip().startswith("|")):
        return start, end
    a = text.rfind("\n\n", 0, pos)
    b = text.find("\n\n", pos)
    return (0 if a < 0 else a + 2), (len(text) if b < 0 else b)


def problems(text, kind=".md"):
    """Every reference of ``text`` whose numbers the words around it do not name, or whose
    number differs from the one a name right before it fixes."""
    out = []
    for pos, end, nums in references(text):
        a, b = chunk_of(text, pos, kind)
        window = text[max(a, pos - WINDOW):min(b, end + WINDOW)]
        before = text[max(a, pos - 30):pos]
        if OTHER_WORK.search(text[max(a, pos - 12):pos]):
            continue
        m = ADJACENT.search(before)
        if m and EQ[ADJACENT_KEY[m[1]]] != nums[0]:
            out.append(f"{text[pos:end]!r} right after {m[1]!r}, which is "
                       f"{eq(ADJACENT_KEY[m[1]])}")
            continue
        for n in nums:
            if n not in NAMES:
                out.append(f"{text[pos:end]!r}: the paper has no numbered Eq. {n} in the text")
            elif not NAMES[n].search(window.replace(text[pos:end], " ")):
                out.append(f"{text[pos:end]!r}: nothing around it names Eq. {n} "
                           f"({EQUATIONS[_key(n)][2]}): …{window.strip()[:160]!r}…")
    return out


def _key(number):
    return next(k for k, v in EQ.items() if v == number)


def _files():
    seen = set()
    for pattern in SCANNED:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file() and path not in seen:
                seen.add(path)
                yield path


def _table_region(text):
    """The equation table itself (paper/words.py) is the reference, not a text citing it."""
    a = re.search(r"# -+ equation numbers", text)
    b = re.search(r"# -+ Table 6", text)
    return (a.start(), b.start()) if a and b else (0, 0)


def test_every_equation_number_in_the_texts_is_the_one_its_words_name():
    found = []
    for path in _files():
        text = path.read_text(encoding="utf-8")
        if path.relative_to(ROOT).as_posix() == "theory/paper/words.py":
            a, b = _table_region(text)
            text = text[:a] + text[b:]
        found += [f"{path.relative_to(ROOT)}: {p}" for p in problems(text, path.suffix)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("text, ok", [
    ("Lemma 1, Eq. 11 (proof: appendix 'Proof of Lemma 1')", True),
    ("Lemma 1, Eq. 9 (proof: appendix 'Proof of Lemma 1')", False),     # the old numbering
    ("Theorem 1 (Eq. 10): gradient descent on noisy features", False),
    ("the RNGC series of Eq. 17 converges", True),
    ("the RNGC series of Eq. 12 converges", False),
    ("Eq. 16 → Eq. 17: replacing F by X inside the RNGC inverse", True),
    ("Eq. 11 → Eq. 12: replacing F by X inside the RNGC inverse", False),
    ("rows of Ã_S sum to 1 − r^{S+1} (Eq. 6)", True),
    ("rows of Ã_S sum to 1 − r^{S+1} (Eq. 7)", False),
    ("see Eq. 40 for the rest", False),                               # no such display
    ("(Zhu & Koniusz 2021, Eq. 8)", True),                            # another paper's
    ("(Székely & Bakirov 2003), and Eq. 9's bound over the mean", False),
])
def test_the_scan_fails_a_wrong_number(text, ok):
    assert (problems(text) == []) is ok, problems(text)


def _numbered_display_after(tex, label):
    """The number LaTeX prints for the first numbered display after ``\\label{label}``: the
    display inside an assumption, or the one after a labelled display."""
    i = tex.index(f"\\label{{{label}}}")
    j = tex.index("\\begin{equation}", i + 1)
    probe = tex[:j] + "\\begin{equation}\\label{@probe}" + tex[j + len("\\begin{equation}"):]
    return label_numbers(probe)["@probe"]


def test_the_table_is_the_numbering_of_the_shipped_latex(tex):
    numbers = label_numbers(tex)
    for key, (label, number, _what, _names) in EQUATIONS.items():
        where, _, name = label.partition(":")
        got = (_numbered_display_after(tex, name) if where in ("in", "after")
               else numbers[label])
        assert got == str(number), (key, label, got, number)
    # every numbered display of the body before the appendix has its row in the table
    body = tex[tex.index("\\begin{document}"):tex.index("\\appendix")]
    in_body = [k for k, v in EQ.items() if v <= EQ["rngc"]]
    assert len(re.findall(r"\\begin\{equation\}", body)) == EQ["rngc"] == len(in_body)


def test_eq_writes_the_table():
    assert eq("lemma-1") == "Eq. 11" and eq("rngc", parens=True) == "Eq. (17)"
    assert eq("fixed-point", "rngc") == "Eq. 16–17" and eq("loss-f", "loss-g") == "Eq. 8, 12"
    with pytest.raises(ValueError, match="unknown equation key"):
        eq("lemma-2")
