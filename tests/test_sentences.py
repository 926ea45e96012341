"""The paper's body split into units (sentences, footnotes, caption sentences, tables): a pure
function of the LaTeX, tested on small hand-written documents and, where the paper is
available, on the paper itself against counts taken from its source independently."""

import re

import pytest

from ngc_ref_theory.paper.sentences import label_numbers, normalise, split_sentences, text_hash


def doc(body, preamble=""):
    return (f"\\documentclass{{article}}{preamble}\\title{{T}}\\author{{A. B. \\\\ Univ.}}"
            f"\\begin{{document}}\\maketitle{body}\\end{{document}}")


def texts(body, **kw):
    return [u.text for u in split_sentences(doc(body, **kw))]


@pytest.mark.parametrize("sentence", [
    r"Noise fades, e.g. Cora shows it.",
    r"Rows are uniform, i.e. $x_i = 1/n$ for all i.",
    r"As Fig. 3 and Eqs. 4-5 show, it holds.",
    r"As in Ma et al. \citep{ma}, it holds.",
    r"See Sec. 3 and cf. Table 2, resp. Table 3.",
    r"Accuracy v.s. Noise level, and vs. Depth.",
    r"See Eq.~(\ref{x}) for the bound.",
    r"See Eq. (\ref{x}) for the bound.",
    r"Fig.~\ref{f} shows it.",
    r"As Ma et al.~\citep{ma} show, it holds.",
    r"As will be discussed in Sec.~\ref{s}, it converges.",
    r"Each entry is i.i.d. Gaussian with mean 0.",
    r"Accuracy v.s. noise level is plotted.",
    r"It holds for $x = 1. Y$ as written.",
    r"The second term smooths the graph., i.e., nearby vertices agree.",
    r"As the inequality (Lemma.~\ref{h}) suggests, it converges.",
])
def test_no_split_inside_abbreviations_math_and_references(sentence):
    assert texts(f"\\section{{S}} {sentence} Next one.") == [sentence, "Next one."]


def test_sentences_split_at_stops_before_capitals_digits_commands_and_math():
    got = texts(r"""\section{S} First ends in Appendix~\ref{a}. Second? Third!
    1) Fourth. \name is fifth. $\mathbf{Y}$ denotes the sixth.
    Seventh by \citet{x}. ogbn-products is the eighth. It is a lemma. The end.""")
    assert got == [r"First ends in Appendix~\ref{a}.", "Second?", "Third!", "1) Fourth.",
                   r"\name is fifth.", r"$\mathbf{Y}$ denotes the sixth.",
                   r"Seventh by \citet{x}.", "ogbn-products is the eighth.",
                   "It is a lemma.", "The end."]


def test_a_display_belongs_to_its_sentence_and_a_capital_after_it_starts_the_next():
    got = texts(r"""\section{S} We have

    \begin{equation}\label{e} x = \frac{a}{b}. \end{equation}
    where $b > 0$. Since that, we stop:
    \begin{equation*} y = 1 \end{equation*}
    Then done.""")
    assert got == [r"We have \begin{equation}\label{e} x = \frac{a}{b}. \end{equation} "
                   r"where $b > 0$.",
                   r"Since that, we stop: \begin{equation*} y = 1 \end{equation*}",
                   "Then done."]


def test_a_footnote_is_its_own_unit_right_after_the_sentence_that_carries_it():
    us = split_sentences(doc(r"""\section{S} The row sums hold\footnote{For rw only. See
    Appendix~\ref{a}.} for every row. Next.\footnote{Second note.} Last."""))
    assert [(u.kind, u.text, u.number) for u in us] == [
        ("sentence", r"The row sums hold\footnotemark[1] for every row.", ""),
        ("footnote", r"For rw only. See Appendix~\ref{a}.", "1"),
        ("sentence", r"Next.\footnotemark[2]", ""),
        ("footnote", "Second note.", "2"),
        ("sentence", "Last.", "")]
    assert all(u.section == ("1 S",) for u in us)


def test_captions_are_split_and_each_tabular_is_one_unit():
    us = split_sentences(doc(r"""\section{S} Text.
    \begin{figure}[t]\includegraphics{ }\caption{A picture. Two sentences.}\label{f}\end{figure}
    \begin{table}\caption{Results (10 runs).}\label{t}
    \begin{tabular}{cc} a & 1.5 \\ b & 2. \\ \end{tabular}\end{table}"""))
    assert [(u.kind, u.number, u.text) for u in us] == [
        ("sentence", "", "Text."),
        ("caption", "Figure 1", "A picture."), ("caption", "Figure 1", "Two sentences."),
        ("caption", "Table 1", "Results (10 runs)."),
        ("table", "Table 1", r"\begin{tabular}{cc} a & 1.5 \\ b & 2. \\ \end{tabular}")]


def test_preamble_title_authors_headings_and_bibliography_are_not_units():
    got = texts(r"""\begin{abstract} We study noise. \end{abstract}
    \section{Intro} % a comment. With a stop.
    Body text. \paragraph{Notes.} More text.
    \bibliography{cite} \bibliographystyle{plain}""",
                preamble=r"\newcommand{\x}{Preamble text. Not a sentence.}")
    assert got == ["We study noise.", "Body text.", "More text."]


def test_section_paths_and_theorem_numbering_with_appendix_lemmas():
    us = split_sentences(doc(r"""\section{Theory}\label{s:t}
    \begin{definition}[Factor] We define it. \end{definition}
    \begin{lemma}\label{l1} It holds. \end{lemma}
    \begin{proof} Easy. \end{proof}
    \begin{remark}{\textbf{Effect.}} So it goes. \end{remark}
    \subsection{More} \paragraph{Case.} Insight.
    \appendix \section{Proofs}
    \begin{lemma}\rm{\textbf{(Hoeffding)~\citep{h}}} Bound. \end{lemma}
    Text between. \begin{proof} Not of B.1. \end{proof}
    \begin{lemma} Another. \end{lemma}
    \begin{proof}[Proof of Lemma~\ref{l1}.] Done. \end{proof}"""))
    assert [(u.where, u.text) for u in us] == [
        ("1 Theory / Definition 1 (Factor)", "We define it."),
        ("1 Theory / Lemma 1", "It holds."),
        ("1 Theory / Proof of Lemma 1", "Easy."),
        ("1 Theory / Remark 1 (Effect)", "So it goes."),
        ("1 Theory / 1.1 More / Case", "Insight."),
        ("A Proofs / Lemma A.1 (Hoeffding)", "Bound."),
        ("A Proofs", "Text between."),
        ("A Proofs / Proof", "Not of B.1."),
        ("A Proofs / Lemma A.2", "Another."),
        ("A Proofs / Proof of Lemma 1", "Done.")]
    assert [u.index for u in us] == list(range(len(us)))


def test_label_numbers_follow_latex_counters():
    labels = label_numbers(doc(r"""\section{A}\label{sA}
    \begin{equation}\label{e1} a \end{equation}
    \begin{equation*} b \end{equation*}
    \begin{assumption} x \begin{equation} c \end{equation} \end{assumption}
    \begin{equation}\label{e3} d \end{equation}
    \begin{lemma}\label{l} y \end{lemma}
    \paragraph{P.}\label{p}
    \subsection{B}\label{sB}
    \begin{figure}\caption{F}\label{f}\end{figure}
    \begin{table}\caption{T1}\label{t1}\end{table}\begin{table}\caption{T2}\label{t2}\end{table}
    \appendix\section{C}\label{sC}\begin{lemma}\label{lc} z \end{lemma}"""))
    assert labels == {"sA": "1", "e1": "1", "e3": "3", "l": "1", "p": "1", "sB": "1.1",
                      "f": "1", "t1": "1", "t2": "2", "sC": "A", "lc": "A.1"}


def test_normalised_text_and_its_hash():
    assert normalise(" a \n\t b ") == "a b"
    assert text_hash("a\n b") == text_hash("a b") != text_hash("a  c")
    assert re.fullmatch(r"[0-9a-f]{12}", text_hash("x"))


# --- on the paper itself -------------------------------------------------------------------

def _body(tex):
    body = tex[tex.index("\\begin{document}"):]
    return re.sub(r"(?<!\\)%[^\n]*", "", body)


def test_every_unit_is_verbatim_in_the_paper(tex):
    flat = normalise(_body(tex))
    for u in split_sentences(tex):
        pieces = [p for p in re.split(r"\s*\\footnotemark\[\d+\]\s*", u.text) if p]
        assert all(normalise(p) in flat for p in pieces), (u.index, u.text[:80])


def test_the_papers_footnotes_captions_tables_and_displays_are_all_there(tex):
    body = _body(tex)
    us = split_sentences(tex)
    kinds = [u.kind for u in us]
    assert kinds.count("footnote") == body.count("\\footnote{") == 14
    assert kinds.count("table") == body.count("\\begin{tabular}") == 12
    assert len({u.number for u in us if u.kind == "caption"}) == body.count("\\caption{") == 17
    assert (sum(u.text.count("\\begin{equation}") for u in us)
            == body.count("\\begin{equation}") == 34)


def test_the_papers_labels_are_numbered_as_latex_prints_them(tex):
    labels = label_numbers(tex)
    assert {k: labels[k] for k in ("row sum", "range", "loss function", "eq:main",
                                   "eq:advF", "RNGC filter", "theorem:main", "hoeffding",
                                   "Minimization of the Optimization Problem",
                                   "graph structure", "tab:row normalization",
                                   "fig:depth_rngc")} == {
        "row sum": "6", "range": "7", "loss function": "8", "eq:main": "13", "eq:advF": "16",
        "RNGC filter": "17", "theorem:main": "1", "hoeffding": "D.1",
        "Minimization of the Optimization Problem": "4.2", "graph structure": "3",
        "tab:row normalization": "12", "fig:depth_rngc": "5"}


def test_the_papers_sentences_end_where_sentences_end(tex):
    """The sentences the sentence map anchors its planned statements to are whole."""
    us = split_sentences(tex)
    for start in ("When the high-order graph has a high connectivity, i.e., the elements",
                  "Intuitively, as the General Hoeffding Inequality",
                  "Therefore, we can draw the conclusion that our proposed NGC is",
                  "Our spectral convolution"):
        hits = [u.text for u in us if u.text.startswith(start)]
        assert len(hits) == 1 and hits[0].endswith("."), start
