"""``annotated.py``'s LaTeX → Markdown and its small pieces, by their docstrings: math kept as
LaTeX (inline ``$…$``, displays as numbered ``$$…$$`` blocks), references from the labels,
citations in parentheses, emphasis as ``**``/``*``, footnote marks, tables, headings, the
pointer lines under non-claims and the verdict lines under claims. The expected Markdown is
written out by hand. (paper.md as a whole, its counts and links: tests/test_paper_md.py.)"""

from types import SimpleNamespace

import pytest

from ngc_ref_theory.output import paper_md as A


def test_inline_math_references_and_citations():
    labels = {"eq:a": "3", "sec": "2.1"}
    assert A.latex_markdown(r"See Eq.~(\ref{eq:a}) in Sec.~\ref{sec}, \eqref{eq:a} and "
                            r"\ref{nope}.", labels) == \
        "See Eq. (3) in Sec. 2.1, equation 3 and ?."
    assert A.latex_markdown(r"As \citep{a, b} and \cite{c} show, \citet{d} says", {}) == \
        "As (a, b) and (c) show, d says"
    assert A.latex_markdown(r"with $x \to \ref{eq:a}$ and $\bm{x} = \1 \label{q}$", labels) == \
        r"with $x \to 3$ and $\boldsymbol{x} = \mathbf{1}$"
    assert A.latex_markdown(r"cost \$5 and $a$", {}) == r"cost \$5 and $a$"



def test_unknown_labels_and_citation_lists_without_spaces():
    """A reference to a label the paper does not define reads ``?`` (as LaTeX prints it), in
    prose, in ``\\eqref`` and inside math; a citation list is split at its commas."""
    assert A.latex_markdown(r"see \citep{a,b} and \eqref{nope}, $\ref{nope} + 1$", {}) == \
        "see (a, b) and equation ?, $? + 1$"


def test_prose_escapes_names_and_urls():
    assert A.latex_markdown(r"\name and R\name\xspace: 5\% of a\_b \& c\#d ``q'' x~y", {}) == \
        "NGC and RNGC: 5% of a_b & c#d “q” x y"
    assert A.latex_markdown(r"at https://x.org/a. And {braces} \small here\\ there", {}) == \
        "at <https://x.org/a>. And braces here  there"
    assert A.latex_markdown(r"mark\footnotemark[2] end", {}) == "mark<sup>2</sup> end"


def test_emphasis_and_a_group_cut_off_by_the_unit():
    assert A.latex_markdown(r"\textbf{bold $x_{1}$} and \emph{it} and \textit{too}", {}) == \
        "**bold $x_{1}$** and *it* and *too*"
    assert A.latex_markdown(r"\emph{starts here and runs on", {}) == "*starts here and runs on*"
    assert A.latex_markdown(r"\textbf{a \{b\} c}", {}) == r"**a \b\ c**"
    # the group ends at its own closing brace, whatever follows it
    assert A.latex_markdown(r"\emph{a}b", {}) == "*a*b"
    # an escaped character (\{, \%) is skipped whole: it neither opens nor closes the group
    assert A.latex_markdown(r"\emph{x \{ y} z", {}) == r"*x \ y* z"
    assert A.latex_markdown(r"\emph{\%} z", {}) == "*%* z"


@pytest.mark.parametrize("env, numbered, wrap", [
    ("equation", True, None), ("equation*", False, None), ("align", True, "aligned"),
    ("align*", False, "aligned"), ("gather", True, "gathered"), ("multline", True, None),
    ("eqnarray", True, "aligned"), ("displaymath", False, None)])
def test_displays_are_blocks_numbered_when_their_environment_is(env, numbered, wrap):
    text = rf"We have \begin{{{env}}} x = \ref{{e}} \label{{e}} \end{{{env}}} so."
    got = A.latex_markdown(text, {"e": "4"}, iter([7, 8]))
    body = "x = 4"
    if wrap:
        body = rf"\begin{{{wrap}}}x = 4\end{{{wrap}}}"
    tag = " \\tag{7}" if numbered else ""
    assert got == f"We have\n\n$$\n{body}{tag}\n$$\n\nso."


def test_bracket_and_dollar_displays_and_running_out_of_numbers():
    assert A.latex_markdown(r"a \[ y \] b $$ z $$ c", {}, iter([1])) == \
        "a\n\n$$\ny\n$$\n\nb\n\n$$\nz\n$$\n\nc"
    assert A.latex_markdown(r"a \[\] b", {}) == "a\n\n$$\n\n$$\n\nb"      # an empty display
    assert A.latex_markdown(r"\begin{equation} y \end{equation}", {}, iter(())) == "$$\ny\n$$"
    assert A.latex_markdown(r"\begin{equation} y \end{equation}", {}) == "$$\ny\n$$"


def test_a_tabular_as_a_markdown_table():
    latex = (r"\begin{tabular}{lcc} \hline Model & \multicolumn{2}{c}{Cora} \\ \cmidrule(lr){2-3}"
             r" & 0.1 & 0.5 \\ \midrule NGC & \textbf{80.1$\pm$0.5} & 7|8 \\"
             r" \multirow{2}{*}{GCN} & 1 \\ \bottomrule \end{tabular}")
    assert A.tabular_markdown(latex, {}) == (
        "| Model | Cora |  |\n|---|---|---|\n|  | 0.1 | 0.5 |\n"
        "| NGC | **80.1±0.5** | 7\\|8 |\n| GCN | 1 |  |")


def test_headings_name_theorems_in_bold_and_sections_by_depth():
    assert A._headings([], ("Theory", "Lemma 1", "Deep", "d4", "d5", "d6")) == [
        "", "## Theory", "", "**Lemma 1.**", "", "#### Deep", "", "##### d4", "", "###### d5",
        "", "###### d6"]
    assert A._headings(["Theory", "Old"], ("Theory", "New")) == ["", "### New"]
    assert A._headings(["Theory"], ("Theory",)) == []
    for word in ("Definition", "Assumption", "Theorem", "Remark", "Proof"):
        assert A._headings([], (f"{word} 2",)) == ["", f"**{word} 2.**"]


def test_a_title_repeated_under_a_new_parent_is_shown_again():
    """Two sections with a paragraph of the same title: the second section's is shown under
    it too (a heading is kept only while every level above it is the same)."""
    assert A._headings(["1 A", "Setup"], ("2 B", "Setup")) == ["", "## 2 B", "", "### Setup"]
    assert A._headings(["1 A", "Proof"], ("1 A", "Lemma 2", "Proof")) == [
        "", "**Lemma 2.**", "", "**Proof.**"]
    assert A._headings(["1 A", "Setup"], ("1 A", "Setup", "Proof")) == ["", "**Proof.**"]


def test_an_untitled_paragraph_has_no_heading_line():
    """``\\paragraph{}`` puts an empty title in the unit's section path: no heading is shown
    for it (not an empty ``###``), and the titled levels around it are shown as ever."""
    assert A._headings([], ("1 A", "")) == ["", "## 1 A"]
    assert A._headings(["1 A", ""], ("1 A", "", "Lemma 1")) == ["", "**Lemma 1.**"]
    assert A._headings(["1 A", ""], ("2 B", "")) == ["", "## 2 B"]


def _entry(**kw):
    base = dict(ids=(), reason=None, of=(), target=None, reproduce_claim=None, proposed=None)
    return SimpleNamespace(**{**base, **kw})


def test_pointer_lines_under_the_units_that_are_not_claims():
    linked = {"lemma-1"}
    assert A._pointer(_entry(reason="proof-step", of=("lemma-1", "x")), linked) == \
        "*proof step, checked through [`lemma-1`](report.md#s-lemma-1), `x`*"
    assert A._pointer(_entry(reason="restatement", of=("x",)), linked) == \
        "*restates what is judged by `x`*"
    assert A._pointer(_entry(reason="summary", of=("x",)), linked).startswith("*sums up what")
    assert A._pointer(_entry(reason="hypothesis", of=("x",)), linked).startswith(
        "*a hypothesis, verified where it is used by")
    assert A._pointer(_entry(reason="proof-step"), linked) is None        # of nothing
    assert A._pointer(_entry(reason="reproduce", target="tab:flip"), linked) == \
        "*judged by `ngc-ref reproduce --only 'tab:flip'`*"
    assert A._pointer(_entry(reason="table", target="tab:flip", reproduce_claim="bold"),
                      linked) == ("*numbers compared with our runs by `ngc-ref reproduce "
                                  "--only 'tab:flip'`, its claim `bold`*")
    assert A._pointer(_entry(reason="unjudged"), linked) == \
        "*checkable, not judged yet (see the end)*"
    assert A._pointer(_entry(reason="setting"), linked) is None


def test_verdict_lines_of_a_claim_sentence():
    r = SimpleNamespace(id="lemma-1", norm="rw", scope="as-stated", verdict="fails")
    a = A.Annotation((r,), (("x", "why one"), ("y", "why one"), ("z", "why two")))
    e = _entry(ids=("lemma-1",), target="tab:flip", reproduce_claim="bold",
               proposed="measure it")
    assert A._verdict_lines(e, a) == [
        "- [`lemma-1`](report.md#s-lemma-1) · rw · as-stated · **fails**",
        "- why one: `x`, `y`", "- why two: `z`",
        "- also compared with the paper's runs by `ngc-ref reproduce --only 'tab:flip'` "
        "(its claim `bold`)",
        "- not judged yet: measure it"]
    assert A._verdict_lines(_entry(ids=("a",), target="t"), A.Annotation((), ()))[-1] == \
        "- also compared with the paper's runs by `ngc-ref reproduce --only 't'`"


def test_short_quotes_and_plain_text():
    assert A._shorten("a  b\nc") == "a b c"
    assert A._shorten("x" * 200) == "x" * 139 + "…" and A._shorten("x" * 140) == "x" * 140
    assert A._shorten("x" * 20, limit=5) == "xxxx…"
    assert A._plain_text("a $$\nx\n$$ b $y$") == "a [display] b $y$"
    assert A._n(1, "unit") == "1 unit" and A._n(2, "unit") == "2 units"
    assert A._n(2, "claim", "claimz") == "2 claimz" and A._n(0, "unit") == "0 units"


def _counts(**kw):
    """paper.md's head numbers, all zero but ``kw``."""
    zero = {v: 0 for v in ("holds", "fails", "inconclusive", "error")}
    c = dict(units=1, claims=1, statements=1, partly_unjudged=0, not_claims={}, unjudged=0,
             results={sc: dict(zero) for sc in ("as-stated", "extension", "erratum")},
             sentences={v: 0 for v in A.SENTENCE_VERDICTS})
    return {**c, **kw}


@pytest.mark.parametrize("meta, code", [
    ({"source": {"commit": "0123456789abcdef0", "version": "0.2"}, "version": "0.1"},
     "commit `0123456789ab`"),
    ({"source": {"version": "0.2"}, "version": "0.1"}, "ngc_ref 0.2"),
    ({"source": {"commit": ""}, "version": "0.1"}, "ngc_ref 0.1"),
    ({"source": None, "version": "0.1"}, "ngc_ref 0.1"),
    ({}, "ngc_ref ?")])
def test_the_head_names_the_code_that_ran(meta, code):
    """The commit when the run knows it, else the version of the source, else the run's
    version, else ``?``."""
    intro = A._head(_counts(), {**meta, "seed": 5})[2]
    assert intro.endswith(f"([report.md](report.md); seed 5, {code}).")


@pytest.mark.parametrize("k, words", [(0, "0 claims have"), (1, "1 claim has"),
                                      (2, "2 claims have")])
def test_the_partly_unjudged_claims_agree_in_number(k, words):
    lines = A._head(_counts(partly_unjudged=k, unjudged=3), {})
    assert ("- **3 state something checkable that no result judges yet** (and "
            f"{words} a part no result judges): the proposed checks are listed at the end."
            ) in lines


def test_the_reasons_by_count_then_by_name():
    """Ties in count are ordered by name, whatever order the counts come in."""
    lines = A._head(_counts(not_claims={"table": 1, "setting": 4, "reproduce": 1,
                                        "definition": 4}), {})
    assert ("- **10 are not claims**, by reason: definition 4, setting 4, reproduce 1, "
            "table 1.") in lines


def test_an_id_of_no_claim_of_this_version_stands_for_no_result():
    """A result whose claim is not among ``claims`` (another version's) does not stand for
    an entry naming that claim: the id is reported as not a statement of this checker."""
    r = SimpleNamespace(id="ghost:x", claim="ghost", norm="rw", scope="as-stated",
                        verdict="fails")
    a = A.annotate(_entry(ids=("ghost",)), [r], {})
    assert a == A.Annotation((), (("ghost", "not a statement of this version of the checker"),))
