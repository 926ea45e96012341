"""``paper.md``: the paper's own text, sentence by sentence, with the verdicts of a run.

``ngc-ref check`` writes it beside ``report.md`` when the paper's LaTeX is available
(:mod:`..paper.source`). Its first lines count the units (:mod:`..paper.sentences`): how many
are claims and what their results say as stated, how many state something checkable that no
result judges yet, and how many are not claims, by reason (:mod:`..paper.sentence_map`). Then
the text, section by section (Markdown headings, math kept as LaTeX between ``$…$`` /
``$$…$$``), each claim sentence followed by one line per result — statement id (linked to its
section of ``report.md``), norm, scope, verdict — and a statement this run did not check marked
as such.

The output depends only on its inputs (the paper, the map, the results, the run's seed and
code): the same run writes the same bytes.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from pathlib import Path

from ..kit.claim import SCOPES, VERDICTS, registry, worst_verdict
from .files import atomic_write_text
from ..paper.sentence_map import REASONS, load_map, match
from ..paper.source import ARXIV_ID
from ..paper.sentences import label_numbers, split_sentences
from .report import _anchor

#: Where a result's section is (``report.md`` beside ``paper.md``).
REPORT = "report.md"
#: How a sentence of the paper stands, as stated, from its results (:func:`sentence_verdict`).
SENTENCE_VERDICTS = ("holds", "fails", "inconclusive", "error", "beyond", "not run")
_SENTENCE_WORDS = {
    "holds": "every as-stated result holds",
    "fails": "an as-stated result fails",
    "inconclusive": "an as-stated result is inconclusive (none fails)",
    "error": "an as-stated result could not run (none fails)",
    "beyond": "judged only by extensions, corrections or errata (no as-stated result)",
    "not run": "no result in this run",
}


#: The file's name inside ``--out``.
PAPER_MD = "paper.md"


def write_paper(results, out_dir, meta, source, keep=None):
    """Write ``paper.md`` into ``out_dir`` from the run's ``results`` and ``meta`` and the
    paper's ``source`` (a :class:`~..paper.source.PaperSource` whose text is available).

    ``ValueError`` when the sentence map does not account for every sentence of the paper
    once (``tests/test_paper_map.py`` keeps it from happening for the pinned version).
    ``keep`` is the run's selection of statement ids (``--only``; None: all)."""
    units = split_sentences(source.text)
    matching = match(load_map(), units)
    if matching.problems:
        raise ValueError("the sentence map (theory/paper/paper_map.toml) does not fit the paper: "
                         + "; ".join(matching.problems[:3]))
    text = render(units, matching, results, meta, registry(), label_numbers(source.text), keep)
    atomic_write_text(Path(out_dir) / PAPER_MD, text)
    return PAPER_MD


@dataclass(frozen=True)
class Annotation:
    """What ``paper.md`` says under one unit: its results, and what its statements lack."""

    results: tuple         # Result objects, report order, each once
    missing: tuple         # (statement id, why it has no result here)


def annotate(entry, results, claims, keep=None, skipped=()):
    """The results that judge a map ``entry`` in this run, and why each of its statements that
    has none has none.

    An id stands for the results of that statement; a claim's id whose own statement has no
    result (a claim judged through its parts) stands for all of the claim's results. ``keep``
    is the run's selection (``--only``'s statement ids; None: all), ``skipped`` its
    ``meta["skipped"]``.
    """
    by_id, by_claim = {}, {}
    for r in results:
        by_id.setdefault(r.id, []).append(r)
        by_claim.setdefault(r.claim, []).append(r)
    found, missing = [], []
    owner = {sid: c for c in claims.values() for sid in c.statements}
    for sid in entry.ids:
        got = by_id.get(sid) or (by_claim.get(sid, []) if sid in claims else [])
        if got:
            found += [r for r in got if r not in found]
        elif sid not in owner:
            missing.append((sid, "not a statement of this version of the checker"))
        elif keep is not None and sid not in keep:
            missing.append((sid, "not run in this report (--only)"))
        else:
            why = [f"{s['what']}: {s['why']}" for s in skipped
                   if s.get("claim") == owner[sid].id]
            missing.append((sid, "no result in this run" + (f" (skipped {'; '.join(why)})"
                                                             if why else "")))
    return Annotation(tuple(found), tuple(missing))


def sentence_verdict(annotation):
    """A claim sentence's standing as stated: ``fails`` if any of its as-stated results fails,
    else ``error``, ``inconclusive``, ``holds`` (all hold); ``beyond`` when it has only
    extension or erratum results (never counted for or against the paper), ``not run`` when it
    has none."""
    stated = [r.verdict for r in annotation.results if r.scope == "as-stated"]
    if not annotation.results:
        return "not run"
    if not stated:
        return "beyond"
    return worst_verdict(stated)


def counts(units, matching, results, claims):
    """The numbers of ``paper.md``'s first lines (a dict; see :func:`render`): results and
    sentence verdicts, which the run's selection (``--only``) and skips do not change (those
    only word the lines of what has no result)."""
    entries = [matching.entry_of[u.index] for u in units]
    claim_entries = [e for e in entries if e.ids]
    judged, sentence = [], {v: 0 for v in SENTENCE_VERDICTS}
    for e in claim_entries:
        a = annotate(e, results, claims)
        judged += [r for r in a.results if r not in judged]
        sentence[sentence_verdict(a)] += 1
    by_scope = {sc: {v: 0 for v in VERDICTS} for sc in SCOPES}
    for r in judged:
        by_scope[r.scope][r.verdict] += 1
    reasons = {k: 0 for k in REASONS}
    for e in entries:
        if e.reason:
            reasons[e.reason] += 1
    return {"units": len(units), "claims": len(claim_entries),
            "statements": len({sid for e in claim_entries for sid in e.ids}),
            "results": by_scope, "sentences": sentence,
            "partly_unjudged": sum(1 for e in claim_entries if e.proposed),
            "not_claims": {k: v for k, v in reasons.items() if v and k != "unjudged"},
            "unjudged": reasons["unjudged"]}


# --------------------------------------------------------------------------------- render

def render(units, matching, results, meta, claims, labels, keep=None):
    """The whole ``paper.md`` (a string ending in a newline).

    ``units`` and ``labels`` come from :mod:`..paper.sentences`, ``matching`` from
    :func:`..paper.sentence_map.match` (every unit must have its entry), ``results`` and
    ``meta`` from the run (``meta``: ``seed``, ``source``, ``skipped``), ``claims`` the
    registry, ``keep`` the run's selection of statement ids (None: all).
    """
    skipped = meta.get("skipped", [])
    c = counts(units, matching, results, claims)
    lines = _head(c, meta)
    lines += _body(units, matching, results, claims, labels, keep, skipped)
    lines += _unjudged(units, matching, labels)
    return "\n".join(lines).rstrip("\n") + "\n"


def _n(k, word, plural=None):
    return f"{k} {word if k == 1 else plural or word + 's'}"


def _head(c, meta):
    source = meta.get("source") or {}
    code = (f"commit `{source['commit'][:12]}`" if source.get("commit")
            else f"ngc_ref {source.get('version', meta.get('version', '?'))}")
    res = c["results"]

    def scope_line(scope):
        return ", ".join(f"{res[scope][v]} {v}" for v in VERDICTS
                         if res[scope][v] or v != "error")
    s = c["sentences"]
    per = "; ".join(f"{s[v]} — {_SENTENCE_WORDS[v]}" for v in SENTENCE_VERDICTS if s[v])
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(c["not_claims"].items(),
                                                       key=lambda kv: (-kv[1], kv[0])))
    return [
        "# The paper, sentence by sentence, with the verdicts of this run",
        "",
        f"*How Powerful is Implicit Denoising in Graph Neural Networks* (arXiv {ARXIV_ID}), "
        f"its body as {_n(c['units'], 'unit')} — sentences, footnotes, caption sentences and "
        f"tables — each followed, where it is a claim, by the results of this run "
        f"([report.md]({REPORT}); seed {meta.get('seed')}, {code}).",
        "",
        f"- **{c['units']} units.**",
        f"- **{_n(c['claims'], 'claim')}**, judged by {_n(c['statements'], 'statement')}. "
        f"Their results as stated: **{scope_line('as-stated')}**; extensions and corrections "
        f"beside them: {scope_line('extension')}; errata: {scope_line('erratum')}. "
        f"Per claim sentence, as stated: {per}.",
        f"- **{c['unjudged']} state something checkable that no result judges yet** (and "
        f"{_n(c['partly_unjudged'], 'claim')} {'has' if c['partly_unjudged'] == 1 else 'have'} "
        f"a part no result judges): the proposed checks are listed at the end.",
        f"- **{sum(c['not_claims'].values())} are not claims**, by reason: {reasons}.",
        "",
        "Reasons: " + "; ".join(f"*{k}* — {v}" for k, v in REASONS.items()) + ".",
        "",
        "Under a claim, one line per result: the statement (linked to its section of "
        f"`{REPORT}`), the normalisation, the scope (*as-stated*: the paper's statement under "
        "its own hypotheses; *extension*: ours; *erratum*: a clear typo) and the verdict. "
        "Equations are numbered as this LaTeX numbers them (every numbered display counts, "
        "Assumptions 1 and 4's too), as the report's 'Eq.' numbers are.",
    ]


def _body(units, matching, results, claims, labels, keep, skipped):
    lines, shown, para, text = [], [], None, []
    pending = None                   # a pointer line shared by consecutive units

    def flush():
        if text:
            joined = text[0]
            for piece in text[1:]:      # a display ends its line: no text after its $$
                sep = "\n\n" if joined.endswith("$$") or piece.startswith("$$") else " "
                joined += sep + piece
            lines.extend(["", joined.strip()])
            text.clear()

    equations = itertools.count(1)   # the numbered displays, 1, 2, … in reading order
    linked = {r.id for r in results} | {r.claim for r in results}   # anchors of report.md
    for k, u in enumerate(units):
        e = matching.entry_of[u.index]
        pointer = _pointer(e, linked) if not e.ids else None
        if pending and pending != pointer:
            flush()
            lines += ["", pending]
            pending = None
        new = _headings(shown, u.section)
        if new or (para is not None and u.paragraph != para) or u.kind in ("footnote",
                                                                            "table"):
            flush()
        lines += new
        shown = list(u.section)
        para = u.paragraph
        rendered = _unit_markdown(u, labels, equations,
                                  first=not (k and units[k - 1].kind == "caption"
                                             and units[k - 1].number == u.number))
        if u.kind == "footnote":
            lines += ["", f"> <sup>{u.number}</sup> {rendered}"]
        elif u.kind == "table":
            lines += ["", rendered]
        else:
            text.append(rendered)
        if e.ids:
            flush()
            a = annotate(e, results, claims, keep, skipped)
            lines += [""] + _verdict_lines(e, a)
        else:
            pending = pointer
    flush()
    if pending:
        lines += ["", pending]
    return lines


def _headings(shown, section):
    """The heading lines of ``section`` not already ``shown``: every title from the first
    level that differs on (a title repeated under a new parent is shown again)."""
    out, same = [], True
    for depth, title in enumerate(section):
        same = same and depth < len(shown) and shown[depth] == title
        if same or not title:
            continue                 # shown already, or untitled (a bare \paragraph{})
        if title.split(" ")[0] in ("Definition", "Assumption", "Theorem", "Lemma", "Remark",
                                   "Proof"):
            out += ["", f"**{title}.**"]
        else:
            out += ["", f"{'#' * min(depth + 2, 6)} {title}"]
    return out


def _verdict_lines(e, a):
    lines = [f"- [`{r.id}`]({REPORT}#{_anchor(r.id)}) · {r.norm} · {r.scope} · **{r.verdict}**"
             for r in a.results]
    missing = {}
    for sid, why in a.missing:
        missing.setdefault(why, []).append(f"`{sid}`")
    lines += [f"- {why}: {', '.join(ids)}" for why, ids in missing.items()]
    if e.target:
        also = f" (its claim `{e.reproduce_claim}`)" if e.reproduce_claim else ""
        lines.append(f"- also compared with the paper's runs by `ngc-ref reproduce --only "
                     f"'{e.target}'`{also}")
    if e.proposed:
        lines.append(f"- not judged yet: {e.proposed}")
    return lines


def _pointer(e, linked):
    """The italic line under a run of non-claim units that point elsewhere, or None; a
    statement is linked to its section of ``report.md`` when that has one (``linked``)."""
    if e.reason in ("proof-step", "restatement", "summary", "hypothesis") and e.of:
        word = {"proof-step": "proof step, checked through",
                "restatement": "restates what is judged by",
                "summary": "sums up what is judged by",
                "hypothesis": "a hypothesis, verified where it is used by"}[e.reason]
        ids = ", ".join(f"[`{sid}`]({REPORT}#{_anchor(sid)})" if sid in linked else f"`{sid}`"
                        for sid in e.of)
        return f"*{word} {ids}*"
    if e.reason in ("reproduce", "table"):
        also = f", its claim `{e.reproduce_claim}`" if e.reproduce_claim else ""
        return (f"*{'judged' if e.reason == 'reproduce' else 'numbers compared with our runs'}"
                f" by `ngc-ref reproduce --only '{e.target}'`{also}*")
    if e.reason == "unjudged":
        return "*checkable, not judged yet (see the end)*"
    return None


def _unjudged(units, matching, labels):
    rows = [(u, matching.entry_of[u.index]) for u in units]
    rows = [(u, e) for u, e in rows if e.proposed]
    if not rows:
        return []
    lines = ["", "## Not judged yet", "",
             "Sentences that state something checkable which no result of the checker judges "
             "yet, with the check proposed:", ""]
    for u, e in rows:
        quote = _plain_text(_unit_markdown(u, labels, iter(())) if u.kind != "table"
                            else u.number)
        lines.append(f"- {u.where}: “{_shorten(quote)}” — {e.proposed}")
    return lines


def _shorten(text, limit=140):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _plain_text(md):
    return re.sub(r"\$\$.*?\$\$", "[display]", md, flags=re.S)


# ------------------------------------------------------------------------ LaTeX -> Markdown

_DISPLAY = re.compile(r"\\begin\{(equation\*?|align\*?|gather\*?|multline\*?|eqnarray\*?|"
                      r"displaymath)\}(.*?)\\end\{\1\}|\\\[(.*?)\\\]|\$\$(.*?)\$\$", re.S)
_INLINE = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$", re.S)


def _unit_markdown(u, labels, equations, first=True):
    """A unit as Markdown; the first sentence of a caption (``first``) opens with its float's
    number."""
    if u.kind == "table":
        return tabular_markdown(u.text, labels)
    text = latex_markdown(u.text, labels, equations)
    if u.kind == "caption" and u.number and first:
        text = f"*{u.number}:* {text}"
    return text


def latex_markdown(text, labels, equations=None):
    """A unit's LaTeX as Markdown: math kept as LaTeX (``$…$``; a display as a ``$$…$$``
    block, numbered with ``\\tag`` from ``equations``, an iterator of numbers, when the
    environment is numbered), references numbered from ``labels``, citations as ``(key)``,
    ``\\textbf``/``\\emph`` as ``**``/``*``, footnote marks as ``<sup>N</sup>``.

    >>> latex_markdown(r"See Eq.~(\\ref{e}) of \\name~\\citep{a,b}: $x \\to 1$.", {"e": "4"})
    'See Eq. (4) of NGC (a, b): $x \\\\to 1$.'
    >>> print(latex_markdown(r"We have \\begin{equation}\\label{e} x = 1. \\end{equation}",
    ...                      {}, iter([7])))
    We have
    <BLANKLINE>
    $$
    x = 1. \\tag{7}
    $$
    """
    out, k = [], 0
    for m in _DISPLAY.finditer(text):
        out.append(_text_markdown(text[k:m.start()], labels))
        out.append(_display(m, labels, equations))
        k = m.end()
    out.append(_text_markdown(text[k:], labels))
    return re.sub(r"[ \t]*\n[ \t]*", "\n", "".join(out)).strip()


def _display(m, labels, equations):
    env = m.group(1) or ""
    body = m.group(2) if m.group(1) else (m.group(3) or m.group(4) or "")
    body = _math(body, labels)
    base = env.rstrip("*")
    if base in ("align", "eqnarray"):
        body = f"\\begin{{aligned}}{body}\\end{{aligned}}"
    elif base == "gather":
        body = f"\\begin{{gathered}}{body}\\end{{gathered}}"
    numbered = env in ("equation", "align", "gather", "multline", "eqnarray")
    tag = ""
    if numbered and equations is not None:
        number = next(equations, None)
        tag = f" \\tag{{{number}}}" if number is not None else ""
    return f"\n\n$$\n{body.strip()}{tag}\n$$\n\n"


def _math(s, labels):
    s = re.sub(r"\\label\s*\{[^}]*\}", "", s)
    s = re.sub(r"\\ref\s*\{([^}]*)\}", lambda m: labels.get(m.group(1), "?"), s)
    s = s.replace("\\bm{", "\\boldsymbol{").replace("\\1", "\\mathbf{1}")
    return " ".join(s.split())


def _text_markdown(s, labels):
    s = _emphasis(s)
    out, k = [], 0
    for m in _INLINE.finditer(s):
        out.append(_prose(s[k:m.start()], labels))
        out.append(f"${_math(m.group(1), labels).strip()}$")
        k = m.end()
    out.append(_prose(s[k:], labels))
    return "".join(out)


def _prose(s, labels):
    s = re.sub(r"\\footnotemark\[(\d+)\]", r"<sup>\1</sup>", s)
    s = re.sub(r"\\cite[pt]?\s*\{([^}]*)\}",
               lambda m: "(" + ", ".join(x.strip() for x in m.group(1).split(",")) + ")"
               if "citet" not in m.group(0) else m.group(1), s)
    s = re.sub(r"\\eqref\s*\{([^}]*)\}", lambda m: f"equation {labels.get(m.group(1), '?')}", s)
    s = re.sub(r"\\ref\s*\{([^}]*)\}", lambda m: labels.get(m.group(1), "?"), s)
    s = s.replace("\\name", "NGC").replace("\\xspace", "")     # R\name becomes RNGC too
    s = re.sub(r"\\(?:rm|scriptsize|small|normalsize)\b\s*", "", s)
    s = (s.replace("\\\\", " ").replace("~", " ").replace("\\%", "%").replace("\\_", "_")
         .replace("\\&", "&").replace("\\#", "#").replace("``", "“").replace("''", "”"))
    s = s.replace("{", "").replace("}", "")
    s = re.sub(r"(https?://\S+?)([.,;]?)(\s|$)", r"<\1>\2\3", s)
    return s


_EMPHASIS = re.compile(r"\\(textbf|textit|emph)\s*\{")


def _emphasis(s):
    """``\\textbf{…}`` as ``**…**``, ``\\emph{…}`` and ``\\textit{…}`` as ``*…*`` (math inside
    kept); a group the unit cuts off (an ``\\emph`` spanning two sentences) ends with it."""
    while True:
        m = _EMPHASIS.search(s)
        if m is None:
            return s
        depth, k = 1, m.end()
        while k < len(s) and depth:
            if s[k] == "\\":
                k += 2
                continue
            depth += (s[k] == "{") - (s[k] == "}")
            k += 1
        mark = "**" if m.group(1) == "textbf" else "*"
        inner = s[m.end():k - 1] if depth == 0 else s[m.end():]
        s = s[:m.start()] + mark + inner.strip() + mark + (s[k:] if depth == 0 else "")


def tabular_markdown(latex, labels):
    """A ``tabular`` as a Markdown table: one row per ``\\\\``, ``\\multicolumn`` spread over
    its columns, rules dropped, ``\\textbf`` kept as bold, ``$\\pm$`` as ±.

    >>> print(tabular_markdown(r"\\begin{tabular}{cc} \\toprule A & \\multicolumn{2}{c}{B} \\\\"
    ...                        r" \\midrule x & \\textbf{1\\scriptsize{$\\pm$0.5}} & 2 \\\\ "
    ...                        r"\\bottomrule \\end{tabular}", {}))
    | A | B |  |
    |---|---|---|
    | x | **1±0.5** | 2 |
    """
    body = re.sub(r"^\\begin\{tabular\}\{[^}]*\}|\\end\{tabular\}$", "", latex.strip())
    body = re.sub(r"\\(?:toprule|midrule|bottomrule|hline)|\\cmidrule(?:\([a-z]*\))?\{[^}]*\}",
                  "", body)
    rows = [r for r in (x.strip() for x in re.split(r"\\\\", body)) if r]
    table = []
    for row in rows:
        cells = []
        for cell in re.split(r"(?<!\\)&", row):
            cell = cell.strip()
            m = re.fullmatch(r"\\multicolumn\{(\d+)\}\{[^}]*\}\{(.*)\}", cell, re.S)
            span = 1
            if m:
                span, cell = int(m.group(1)), m.group(2)
            cell = re.sub(r"\\multirow\{[^}]*\}\{[^}]*\}\{(.*)\}", r"\1", cell)
            cell = cell.replace("$\\pm$", "±")
            cell = _text_markdown(cell, labels).replace("|", "\\|").strip()
            cells += [cell] + [""] * (span - 1)
        table.append(cells)
    width = max(len(r) for r in table)
    table = [r + [""] * (width - len(r)) for r in table]
    lines = ["| " + " | ".join(table[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in table[1:]]
    return "\n".join(lines)


__all__ = ["Annotation", "PAPER_MD", "REPORT", "SENTENCE_VERDICTS", "annotate", "counts",
           "latex_markdown", "render", "sentence_verdict", "tabular_markdown", "write_paper"]
