"""The paper's body as a list of units: sentences, footnotes, caption sentences and tables.

Pure: :func:`split_sentences` takes the LaTeX as a string and returns
:class:`Unit` records (section path, index, text, kind), the text kept as LaTeX (math included)
with whitespace collapsed; :func:`label_numbers` gives the numbers LaTeX prints for each
``\\label`` (equations, sections, theorem-like environments, figures, tables, footnotes), which
a renderer needs for ``\\ref``. The sentence map (:mod:`.sentence_map`) anchors each unit by its
section path and a hash of its text (:func:`text_hash`), and ``paper.md`` renders them.

What a unit is:

* a sentence of the abstract, a section, a paragraph, a theorem-like environment (definition,
  assumption, theorem, lemma, remark) or a proof. A displayed equation belongs to the sentence
  that contains it; a display whose text ends with a full stop ends its sentence. Sentences end
  at ``.``, ``?`` or ``!`` followed by white space and a capital letter, a digit, ``$``, or a
  command (``\\name``, ``\\textbf``); never after an abbreviation (:data:`ABBREVIATIONS`), nor
  at a full stop followed by ``~`` (``Eq.~(\\ref{…})``, ``Sec.~\\ref``, ``et al.~\\citep``) or
  ``,``;
  math, footnotes and braces are opaque to the split;
* a footnote, whole (kind ``footnote``), placed right after the sentence that carries it; that
  sentence keeps the mark ``\\footnotemark[N]`` in its place;
* a sentence of a figure's or table's caption (kind ``caption``);
* a table's numbers, one unit per ``tabular`` (kind ``table``): a table is judged as a whole.

Skipped: the preamble, title and author block, ``\\bibliography``, ``\\includegraphics``, and
section and paragraph headings (they are the units' section path).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

#: Abbreviations whose full stop never ends a sentence (compared case-insensitively with the
#: word before the stop).
ABBREVIATIONS = ("e.g.", "i.e.", "eq.", "eqs.", "fig.", "figs.", "sec.", "secs.", "al.",
                 "i.i.d.", "v.s.", "vs.", "cf.", "resp.", "s.t.", "w.r.t.")
#: Theorem-like environments: their name in a section path, and their counter.
THEOREMS = {"definition": "Definition", "assumption": "Assumption", "theorem": "Theorem",
            "lemma": "Lemma", "remark": "Remark"}
#: Display-math environments (kept whole, inside their sentence).
DISPLAYS = ("equation", "equation*", "align", "align*", "gather", "gather*", "multline",
            "multline*", "eqnarray", "eqnarray*", "displaymath")
#: Commands dropped with their arguments (layout, not text).
_DROP = re.compile(r"\\(?:maketitle|newpage|normalem|appendix|centering|normalsize|small|"
                   r"noindent|bibliographystyle\{[^}]*\}|bibliography\{[^}]*\}|"
                   r"vskip\s*-?[\d.]+\s*(?:in|pt|cm|em)|vspace\*?\{[^}]*\})")


@dataclass(frozen=True)
class Unit:
    """One unit of the paper: where it is (``section``: the heading path, e.g. ``("3 Main
    Theory", "Lemma 1")``), its position (``index``, from 0 through the document), its text
    (LaTeX, white space collapsed), its ``kind`` (``sentence``, ``footnote``, ``caption``,
    ``table``), the ``paragraph`` it belongs to (numbered through the document) and, for a
    footnote, caption or table, its ``number`` (``"3"``, ``"Table 2"``, ``"Figure 1"``)."""

    section: tuple
    index: int
    text: str
    kind: str = "sentence"
    paragraph: int = 0
    number: str = ""

    @property
    def where(self):
        """The section path as one string: ``"3 Main Theory / Lemma 1"``."""
        return " / ".join(self.section)

    @property
    def hash(self):
        return text_hash(self.text)


def normalise(text):
    """White space collapsed to single spaces and stripped: the form a unit's text is kept,
    quoted and hashed in.

    >>> normalise("  a\\n  b\\tc ")
    'a b c'
    """
    return re.sub(r"\s+", " ", text).strip()


def text_hash(text):
    """The first 12 hex digits of the sha256 of the normalised ``text``: a sentence's anchor.

    >>> text_hash("a  b") == text_hash("a b")
    True
    """
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()[:12]


# --------------------------------------------------------------------------- scanning

def _closing(s, i, open_="{", close="}"):
    """Index just after the group that opens at ``s[i]`` (``ValueError`` if unbalanced).
    ``\\{`` and ``\\}`` are not group delimiters."""
    if s[i] != open_:
        raise ValueError(f"expected {open_!r} at offset {i}, got {s[i:i + 20]!r}")
    depth, k = 0, i
    while k < len(s):
        ch = s[k]
        if ch == "\\":
            k += 2
            continue
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    raise ValueError(f"unbalanced {open_!r} at offset {i}: {s[i:i + 40]!r}")


def _argument(s, i):
    """``(argument, end)`` of a ``{...}`` argument starting at or after white space at ``i``."""
    while s[i].isspace():
        i += 1
    end = _closing(s, i)
    return s[i + 1:end - 1], end


def _env_end(s, name, start):
    """Index just after the ``\\end{name}`` that closes the environment whose body starts at
    ``start`` (environments of the same name may nest)."""
    begin, end = f"\\begin{{{name}}}", f"\\end{{{name}}}"
    depth, k = 1, start
    while True:
        b, e = s.find(begin, k), s.find(end, k)
        if e < 0:
            raise ValueError(f"\\begin{{{name}}} is not closed")
        if 0 <= b < e:
            depth, k = depth + 1, b + len(begin)
            continue
        depth, k = depth - 1, e + len(end)
        if depth == 0:
            return k


def _strip_comments(tex):
    return re.sub(r"(?<!\\)%[^\n]*", "", tex)


def _body(tex):
    start = tex.find("\\begin{document}")
    if start < 0:
        raise ValueError("tex has no \\begin{document}")
    body = tex[start + len("\\begin{document}"):]
    end = body.find("\\end{document}")
    return body if end < 0 else body[:end]


# --------------------------------------------------------------------------- labels

_LABELLED = re.compile(
    r"\\(?P<sec>section|subsection)\*?\s*\{|\\begin\{(?P<env>[A-Za-z*]+)\}|"
    r"\\end\{(?P<close>[A-Za-z*]+)\}|\\(?P<app>appendix)\b|\\(?P<cap>caption)\s*\{|"
    r"\\label\s*\{(?P<label>[^}]*)\}")
_NUMBERED = ("equation", "align", "gather", "multline", "eqnarray")


def label_numbers(tex):
    """``{label: number}`` as LaTeX prints them for ``\\ref``: sections ``"3"``, ``"4.2"``,
    appendix sections ``"B"``; equations ``"6"`` (every numbered display counts, labelled or
    not); theorem-like environments ``"1"`` (appendix lemmas ``"B.2"``, the paper's
    ``\\counterwithin{lemma}{section}``); figures and tables by their captions. As in LaTeX, a
    label inside an equation, a theorem-like environment or a float takes that one's number,
    and one outside them the number of the last section or subsection.

    >>> tex = (r"\\begin{document}\\section{A}\\label{s}\\begin{equation}x\\label{e}"
    ...        r"\\end{equation}\\label{t}\\end{document}")
    >>> label_numbers(tex)
    {'s': '1', 'e': '1', 't': '1'}
    """
    body = _strip_comments(_body(tex))
    numbers, counters = {}, {"equation": 0, "figure": 0, "table": 0,
                             **{name: 0 for name in THEOREMS}}
    sec, sub, appendix = 0, 0, False
    outer, stack = "", []                 # the section number; the open numbered groups
    for m in _LABELLED.finditer(body):
        env = (m["env"] or "").rstrip("*")
        if m["app"]:
            appendix, sec = True, 0
        elif m["sec"] == "section":
            sec, sub = sec + 1, 0
            if appendix:
                counters["lemma"] = 0
            outer = _section_number(sec, appendix)
        elif m["sec"] == "subsection":
            sub += 1
            outer = f"{_section_number(sec, appendix)}.{sub}"
        elif m["env"] in _NUMBERED:
            counters["equation"] += 1
            stack.append([m["env"], str(counters["equation"])])
        elif env in THEOREMS:
            counters[env] += 1
            k = counters[env]
            stack.append([env, f"{_section_number(sec, appendix)}.{k}"
                          if appendix and env == "lemma" else str(k)])
        elif env in ("figure", "table"):
            stack.append([env, ""])
        elif m["close"] and stack and m["close"].rstrip("*") == stack[-1][0]:
            stack.pop()
        elif m["cap"] and stack and stack[-1][0] in ("figure", "table"):
            counters[stack[-1][0]] += 1
            stack[-1][1] = str(counters[stack[-1][0]])
        elif m["label"] is not None:
            numbers[m["label"]] = stack[-1][1] if stack else outer
    return numbers


def _section_number(sec, appendix):
    return chr(ord("A") + sec - 1) if appendix else str(sec)


# --------------------------------------------------------------------------- splitting

#: Placeholder marks (private-use characters never found in LaTeX source).
_MARK = "\ue000"
_END = "\ue001"
_STRUCT = re.compile(
    r"\\(?P<head>section|subsection|paragraph)\*?\s*(?=\{)|"
    r"\\begin\{(?P<begin>abstract|definition|assumption|theorem|lemma|remark|proof|center)\}"
    r"(?P<opt>\[[^\]]*\])?|"
    r"\\end\{(?P<end>abstract|definition|assumption|theorem|lemma|remark|proof|center)\}|"
    r"\\(?P<appendix>appendix)\b|"
    + _MARK + r"F(?P<float>\d+)" + _END)


class _Splitter:
    """The state of one pass over the body: section path, counters, units."""

    def __init__(self, body, labels):
        self.labels = labels
        self.units = []
        self.paragraph = 0
        self.sec = self.sub = 0
        self.appendix = False
        self.counters = {name: 0 for name in THEOREMS}
        self.footnotes = 0
        self.figures = self.tables = 0
        self.path = []              # [section, subsection?, paragraph?, environment?]
        self.levels = []            # the kind of each path element
        self.last_env = None        # "Lemma B.2": a proof right after it is its proof
        self.floats, self.maths, self.notes = [], [], []
        body = self._protect(body)
        self._walk(body)

    # -- protection of what sentence splitting must not look into
    def _protect(self, s):
        out, k = [], 0
        pattern = re.compile(r"\\begin\{(figure\*?|table\*?|wrapfigure|" + "|".join(
            re.escape(d) for d in DISPLAYS) + r")\}|\\footnote\s*\{|\\\[|\$\$")
        while True:
            m = pattern.search(s, k)
            if m is None:
                out.append(s[k:])
                break
            out.append(s[k:m.start()])
            name = m.group(1)
            if name and name.rstrip("*") in ("figure", "table", "wrapfigure"):
                end = _env_end(s, name, m.end())
                self.floats.append((name.rstrip("*"), s[m.end():end - len(f"\\end{{{name}}}")]))
                out.append(f"\n\n{_MARK}F{len(self.floats) - 1}{_END}\n\n")
            elif name:
                end = _env_end(s, name, m.end())
                out.append(self._math(s[m.start():end], "D"))
            elif m.group(0).startswith("\\footnote"):
                end = _closing(s, m.end() - 1)
                self.notes.append(s[m.end():end - 1])
                out.append(f"{_MARK}N{len(self.notes) - 1}{_END}")
            else:
                close = "\\]" if m.group(0) == "\\[" else "$$"
                end = s.index(close, m.end()) + len(close)
                out.append(self._math(s[m.start():end], "D"))
            k = end
        return self._protect_inline("".join(out))

    def _math(self, latex, tag="M"):
        """A placeholder for math: ``D`` a display, ``M`` inline."""
        self.maths.append(latex)
        return f"{_MARK}{tag}{len(self.maths) - 1}{_END}"

    def _protect_inline(self, s):
        out, k = [], 0
        while True:
            i = s.find("$", k)
            while i > 0 and s[i - 1] == "\\":
                i = s.find("$", i + 1)
            if i < 0:
                out.append(s[k:])
                return "".join(out)
            j = s.find("$", i + 1)
            while j > 0 and s[j - 1] == "\\":
                j = s.find("$", j + 1)
            if j < 0:
                raise ValueError(f"unclosed $ at offset {i}: {s[i:i + 40]!r}")
            out += [s[k:i], self._math(s[i:j + 1])]
            k = j + 1

    def _restore(self, s):
        """The LaTeX of a protected string (footnotes become ``\\footnotemark[N]``)."""
        def put(m):
            kind, k = m.group(1), int(m.group(2))
            if kind in "MD":
                return self.maths[k]
            return f"\\footnotemark[{self._note_numbers[k]}]"
        return re.sub(_MARK + r"([MDN])(\d+)" + _END, put, s)

    # -- the walk over structure
    def _walk(self, s):
        self._note_numbers = {}
        k = 0
        for m in _STRUCT.finditer(s):
            if m.start() < k:
                continue
            self._text(s[k:m.start()])
            k = m.end()
            if m["head"]:
                title, k = _argument(s, m.end())
                self._heading(m["head"], title)
            elif m["begin"]:
                k = self._begin(m["begin"], m["opt"], s, k)
            elif m["end"]:
                self._end(m["end"])
            elif m["appendix"]:
                self.appendix, self.sec = True, 0
            elif m["float"] is not None:
                self._float(*self.floats[int(m["float"])])
        self._text(s[k:])

    def _set(self, level, title):
        order = ("section", "subsection", "paragraph", "env")
        keep = [i for i, lv in enumerate(self.levels) if order.index(lv) < order.index(level)]
        self.path = [self.path[i] for i in keep] + [title]
        self.levels = [self.levels[i] for i in keep] + [level]

    def _heading(self, kind, title):
        title = _plain(self._restore(self._protect_inline(title)), self.labels).rstrip(". ")
        if kind == "section":
            self.sec, self.sub = self.sec + 1, 0
            if self.appendix:
                self.counters["lemma"] = 0
            self._set("section", f"{_section_number(self.sec, self.appendix)} {title}")
        elif kind == "subsection":
            self.sub += 1
            self._set("subsection", f"{_section_number(self.sec, self.appendix)}.{self.sub} "
                                    f"{title}")
        else:
            self._set("paragraph", title)
        self.last_env = None

    def _begin(self, env, opt, s, k):
        if env == "abstract":
            self._set("section", "Abstract")
            return k
        if env == "center":
            return k
        title = opt[1:-1] if opt else ""
        k, bold = _leading_title(s, k)
        title = title or bold
        if env == "proof":
            name = _plain(self._restore(self._protect_inline(title)), self.labels).rstrip(". ")
            name = name or (f"Proof of {self.last_env}" if self.last_env else "Proof")
        else:
            self.counters[env] += 1
            n = self.counters[env]
            number = (f"{_section_number(self.sec, self.appendix)}.{n}"
                      if self.appendix and env == "lemma" else str(n))
            name = f"{THEOREMS[env]} {number}"
            if title:
                shown = _plain(self._restore(self._protect_inline(title)), self.labels,
                               citations=False).strip(" .()")
                name += f" ({shown})"
        self._set("env", name)
        self.last_env = None
        self.paragraph += 1
        return k

    def _end(self, env):
        if env in ("center", "abstract"):
            return
        if self.levels and self.levels[-1] == "env":
            name = self.path.pop()
            self.levels.pop()
            self.last_env = None if env == "proof" else name.split(" (")[0]
        self.paragraph += 1

    # -- text and floats
    def _text(self, s):
        s = _DROP.sub(" ", s)
        s = re.sub(r"\\label\s*\{[^}]*\}", "", s)
        # a blank line before a display, or after one before a lower-case word ("where"),
        # does not end the sentence around it
        s = re.sub(r"\n\s*\n(\s*" + _MARK + "D)", r"\n\1", s)
        s = re.sub("(" + _MARK + r"D\d+" + _END + r")\s*\n\s*\n(\s*[a-z])", r"\1\n\2", s)
        for para in re.split(r"\n\s*\n", s):
            sentences = _split(para)
            if not sentences:
                continue
            self.last_env = None       # text between a lemma and a proof: not its proof
            self.paragraph += 1
            for sent in sentences:
                self._sentence(sent, "sentence")

    def _sentence(self, protected, kind, number=""):
        notes = [int(k) for k in re.findall(_MARK + r"N(\d+)" + _END, protected)]
        for k in notes:
            self.footnotes += 1
            self._note_numbers[k] = self.footnotes
        text = normalise(self._restore(protected))
        text = normalise(re.sub(r"^(?:\\\\\s*)+|(?:\s*\\\\)+$", "", text))
        if not _has_words(text):
            return
        self._add(text, kind, number)
        for k in notes:
            note = normalise(self._restore(self._protect(self.notes[k])))
            self._add(note, "footnote", str(self._note_numbers[k]))

    def _add(self, text, kind, number):
        self.units.append(Unit(tuple(self.path), len(self.units), text, kind, self.paragraph,
                               number))

    def _float(self, name, content):
        """A figure's or table's caption sentences and, for a table, one unit per tabular."""
        self.paragraph += 1
        pattern = re.compile(r"\\caption\s*\{|\\begin\{tabular\}")
        k, number = 0, ""
        while True:
            m = pattern.search(content, k)
            if m is None:
                return
            if m.group(0).startswith("\\caption"):
                caption, k = _argument(content, m.end() - 1)
                if name == "table":
                    self.tables += 1
                    number = f"Table {self.tables}"
                else:
                    self.figures += 1
                    number = f"Figure {self.figures}"
                caption = re.sub(r"\\label\s*\{[^}]*\}", "", caption)
                for sent in _split(self._protect(caption)):
                    self._sentence(sent, "caption", number)
                self.paragraph += 1
            else:
                k = _env_end(content, "tabular", m.end())
                self._add(normalise(_strip_comments(content[m.start():k])), "table", number)
                self.paragraph += 1


def _leading_title(s, k):
    """A bold title at the start of an environment's body (after labels and ``\\rm``):
    ``{\\textbf{Denoising Effect.}}``, ``\\textbf{Effect of ...}``, ``\\rm {\\textbf{(Gelfand
    formula)~\\citep{...}} }``: ``(end, title)``; ``(k, "")`` when there is none."""
    m = re.compile(r"\s*(?:\\label\s*\{[^}]*\}\s*)*(?:\\rm\s*)?").match(s, k)
    i = m.end()
    if s.startswith("\\textbf", i):
        title, end = _argument(s, i + len("\\textbf"))
        return end, title
    if s.startswith("{", i):
        inner_end = _closing(s, i)
        inner = s[i + 1:inner_end - 1].strip()
        if inner.startswith("\\textbf"):
            title, _ = _argument(inner, len("\\textbf"))
            return inner_end, title
    return k, ""


#: A full stop (or ? !), a LaTeX line break or white space, and what may begin a sentence:
#: a capital, a digit ("2) The complete graph"), a command, math; or a lower-case word after
#: a citation or reference ("... by \\citet{pei2020geom}. ogbn-products is ...").
_NOTES = _MARK + r"N\d+" + _END
_SPLIT = re.compile(r"(?P<stop>[.?!](?:" + _NOTES + r")*)(?:(?:\\\\)?\s+|\\\\)"
                    r"(?=\{?[A-Z0-9\\$" + _MARK + r"])|"
                    r"(?<=\})(?P<stop2>[.?!](?:" + _NOTES + r")*)\s+(?=[a-z])")


def _split(para):
    """Sentences of one protected paragraph (math, footnotes and floats are placeholders)."""
    para = para.strip()
    if not para:
        return []
    pieces, k = [], 0
    for m in _SPLIT.finditer(para):
        if _abbreviation(para, m.start()):
            continue
        pieces.append(para[k:m.end("stop") if m["stop"] else m.end("stop2")])
        k = m.end()
    pieces.append(para[k:])
    out = []
    for piece in pieces:
        out += _split_after_displays(piece)
    return [p for p in out if normalise(p)]


def _split_after_displays(piece):
    """A display followed by a capital letter ends its sentence (the display's own full stop
    is inside the math, or the paper leaves it out before "Since ...")."""
    out, k = [], 0
    for m in re.finditer(_MARK + r"D\d+" + _END + r"(\s+)(?=[A-Z])", piece):
        out.append(piece[k:m.start(1)])
        k = m.end()
    out.append(piece[k:])
    return out


def _abbreviation(s, i):
    word = re.search(r"(\S+)$", s[:i + 1])
    w = word.group(1).lower().lstrip("({[~") if word else ""
    return any(w.endswith(a) and (len(w) == len(a) or not w[-len(a) - 1].isalpha())
               for a in ABBREVIATIONS)


def _has_words(text):
    return re.search(r"[A-Za-z]{2}", re.sub(r"\$[^$]*\$|\\[A-Za-z]+", "", text)) is not None


# --------------------------------------------------------------------------- plain text

def _plain(latex, labels, citations=True):
    """A heading's LaTeX as plain text: ``\\ref`` numbered, ``~`` a space, commands and braces
    dropped (math kept between ``$``)."""
    text = re.sub(r"\\ref\s*\{([^}]*)\}", lambda m: labels.get(m.group(1), "??"), latex)
    text = re.sub(r"\\cite[pt]?\s*\{([^}]*)\}",
                  (lambda m: f"({m.group(1)})") if citations else "", text)
    text = text.replace("~", " ").replace("R\\name", "RNGC").replace("\\name", "NGC")
    text = re.sub(r"\\(?:textbf|emph|textit|rm)\b", "", text)
    return normalise(text.replace("{", "").replace("}", ""))


def split_sentences(tex):
    """The paper's body as :class:`Unit` records, in reading order.

    Parameters
    ----------
    tex : str
        The whole LaTeX file (preamble included: only the body between ``\\begin{document}``
        and ``\\end{document}`` is read).

    Returns
    -------
    list of Unit
        Sentences, footnotes, caption sentences and tables, ``index`` 0, 1, … in reading order.

    Examples
    --------
    >>> tex = r'''\\begin{document}\\section{Intro}
    ... Noise hurts, e.g. on Cora. It fades as $n \\to \\infty$.\\footnote{See Sec.~\\ref{s}.}
    ... We prove it:
    ... \\begin{equation} x = 1. \\end{equation}
    ... Then we stop.
    ... \\label{s}\\end{document}'''
    >>> for u in split_sentences(tex):
    ...     print(u.where, "|", u.kind, "|", u.text)
    1 Intro | sentence | Noise hurts, e.g. on Cora.
    1 Intro | sentence | It fades as $n \\to \\infty$.\\footnotemark[1]
    1 Intro | footnote | See Sec.~\\ref{s}.
    1 Intro | sentence | We prove it: \\begin{equation} x = 1. \\end{equation}
    1 Intro | sentence | Then we stop.
    """
    labels = label_numbers(tex)
    body = _strip_comments(_body(tex))
    return _Splitter(body, labels).units


__all__ = ["ABBREVIATIONS", "Unit", "label_numbers", "normalise", "split_sentences",
           "text_hash"]
