"""The checker's report: a table for the terminal, ``report.json`` and ``report.md``.

``report.json`` keeps every number; ``report.md`` is for reading and citing: first "What fails as
stated" (one line per failing statement of the paper, with its minimal counterexample and the
command that reruns it), then the table, then one section per claim and, inside it, one per
statement (the paper's own, its parts, the corrected statements) with its words, and per
normalisation the verdict, the evidence a reader needs, the counterexample and the figures. Bulk
numbers (per-case arrays, long edge lists) stay in ``report.json`` and are referenced from the
markdown by their path.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from ..kit.evidence import SQRT_N_KEY
from ..kit.claim import SCOPES, VERDICTS, registry
from .files import atomic_write_text
from ..kit.text import number

SCHEMA_VERSION = 2
NORM_ORDER = {"sym": 0, "rw": 1}


def sort_results(results, claims):
    """Report order: claims in table order, statements in declaration order, sym before rw.

    Results of one statement and norm keep the order the check produced them in.
    """
    rank = {}
    for i, c in enumerate(claims.values()):
        for j, sid in enumerate(c.statements):
            rank[sid] = (i, j)
    keyed = [(rank.get(r.id, (len(rank), 0)), NORM_ORDER.get(r.norm, 2), k, r)
             for k, r in enumerate(results)]
    return [r for *_, r in sorted(keyed, key=lambda t: t[:3])]


def format_table(results, width=70):
    """The terminal table: id, paper reference, norm, verdict, one-line evidence."""
    rows = [("id", "paper", "norm", "verdict", "evidence")]
    for r in results:
        summary = r.summary if len(r.summary) <= width else r.summary[:width - 1] + "…"
        rows.append((r.id, r.paper_ref, r.norm, r.verdict, summary))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for k, row in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(row[:4], widths)) + "  " + row[4])
        if k == 0:
            lines.append("-" * (sum(widths) + 8 + min(width, max(len(r[4]) for r in rows))))
    return "\n".join(lines)


def counts(results):
    """``{scope: {verdict: count}}``; the ``as-stated`` counts are the paper's headline."""
    out = {sc: dict.fromkeys(VERDICTS, 0) for sc in SCOPES}
    for r in results:
        out[r.scope][r.verdict] += 1
    return out


def counts_line(c, scope):
    return ", ".join(f"{c[scope][v]} {v}" for v in VERDICTS if c[scope][v] or v != "error")


def skipped_lines(skipped):
    """One line per distinct (what, why), naming the claims it affected."""
    merged: dict = {}
    for s in skipped:
        merged.setdefault((s["what"], s["why"]), []).append(s["claim"])
    return [f"skipped: {what} ({', '.join(dict.fromkeys(c for c in ids if c))}) — {why}"
            for (what, why), ids in merged.items()]


def report_document(results, meta):
    return {"schema_version": SCHEMA_VERSION, "meta": meta, "counts": counts(results),
            "results": [r.to_dict() for r in results]}


def write_report(results, out_dir, meta, claims=None):
    """Write ``report.json`` and ``report.md`` into ``out_dir`` (which must exist).

    ``claims`` (default: all registered) gives the sections of ``report.md``."""
    out_dir = Path(out_dir)
    doc = report_document(results, meta)
    atomic_write_text(out_dir / "report.json", json.dumps(doc, indent=1) + "\n")
    atomic_write_text(out_dir / "report.md", render_markdown(results, meta, claims))


# --- the markdown digest of evidence -------------------------------------------------------

#: Inline lists and dicts up to this many characters; longer ones are referenced.
INLINE_CHARS = 160
#: Strings (explanations, formulas) up to this many characters are quoted whole.
TEXT_CHARS = 700


def _fmt(v):
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, float):
        return f"{v:.6g}" if math.isfinite(v) else str(v)
    if isinstance(v, str):
        return v
    return json.dumps(v, ensure_ascii=False)


def _inline(v):
    """A one-line rendering of small lists and dicts of scalars, else None."""
    scalar = (int, float, bool, type(None))

    def flat(x):
        if isinstance(x, str):
            return None if len(x) > 60 else f'"{x}"'
        if isinstance(x, scalar):
            return _fmt(x)
        if isinstance(x, list):
            parts = [flat(e) for e in x]
            return None if None in parts else "[" + ", ".join(parts) + "]"
        if isinstance(x, dict):
            parts = [flat(e) for e in x.values()]
            return None if None in parts else "{" + ", ".join(
                f"{k}: {p}" for k, p in zip(x, parts)) + "}"
        return None
    text = flat(v)
    return text if text is not None and len(text) <= INLINE_CHARS else None


def _is_scalar(v):
    return isinstance(v, (int, float, bool, type(None))) or (isinstance(v, str) and len(v) < 200)


def _is_text_list(v):
    return (isinstance(v, list) and 0 < len(v) <= 12 and all(isinstance(e, str) for e in v)
            and sum(map(len, v)) <= 3 * TEXT_CHARS)


def _describe(v):
    if isinstance(v, list):
        if v and all(isinstance(e, dict) for e in v):
            keys = list(dict.fromkeys(k for e in v for k in e))
            more = f", … ({len(keys)} fields)" if len(keys) > 8 else ""
            return f"{len(v)} records with fields {', '.join(keys[:8])}{more}"
        return f"a list of {len(v)} items"
    if isinstance(v, dict):
        return f"a table of {len(v)} entries ({', '.join(list(map(str, v))[:6])}" + (
            ", …)" if len(v) > 6 else ")")
    return type(v).__name__


def digest(obj, where, depth=0, max_depth=1):
    """Markdown bullet lines for a dict of evidence: scalars and short items in full, bulk as a
    pointer into report.json (``where`` is the JSON path of ``obj``)."""
    lines = []
    pad = "  " * depth
    for k, v in obj.items():
        path = f"{where}.{k}"
        if isinstance(v, str):
            text = v if len(v) <= TEXT_CHARS else v[:TEXT_CHARS] + "… (full text in report.json)"
            lines.append(f"{pad}- **{k}**: {text}")
            continue
        inline = _inline(v)
        if inline is not None:
            lines.append(f"{pad}- **{k}**: {inline}")
        elif _is_text_list(v):
            lines.append(f"{pad}- **{k}**:")
            lines += [f"{pad}  - {e}" for e in v]
        elif isinstance(v, dict) and len(v) <= 30 and all(
                _is_scalar(e) or _inline(e) is not None for e in v.values()):
            lines.append(f"{pad}- **{k}**: " + "; ".join(
                f"{kk} = {_fmt(e) if _is_scalar(e) else _inline(e)}" for kk, e in v.items()))
        elif isinstance(v, dict) and depth < max_depth and len(v) <= 12:
            lines.append(f"{pad}- **{k}**:")
            lines += digest(v, path, depth + 1, max_depth)
        else:
            lines.append(f"{pad}- **{k}**: {_describe(v)} — `report.json` {path}")
    return lines


def _counterexample_lines(ce, where):
    ce = dict(ce)
    lines = [f"- **rerun**: `{ce.pop('rerun')}`"] if "rerun" in ce else []
    graph = ce.pop("graph", None)
    if graph:
        edges = graph.get("edges")
        shown = (f"edges {json.dumps(edges)}" if edges is not None and len(edges) <= 20
                 else f"edge list in `report.json` {where}.graph")
        lines.append(f"- **graph**: {graph['name']} (n = {graph['n']}, {graph['n_edges']} edges, "
                     f"sha256 {graph['edges_sha256'][:12]}…); {shown}")
    return lines + digest(ce, where)


def _minimal_lines(mc, where):
    mc = dict(mc)
    lines = []
    if "certified" in mc:
        lines.append(f"- **certified**: {mc.pop('certified')}")
    if "edges" in mc:
        lines.append(f"- **graph**: n = {mc.get('n')}, edges {json.dumps(mc.pop('edges'))}")
    exact = mc.pop("exact", None)
    lines += digest(mc, where)
    if exact:
        lines.append("- **exact values**:")
        lines += [f"  - {k} = `{v}`" for k, v in exact.items()]
    return lines


def cell(text):
    """A markdown table cell: ``|`` escaped as ``\\|`` (GitHub and CommonMark tables read it
    as a literal bar, so |τ/n − 1| and E[η | X=0] keep their meaning) and line breaks as
    spaces.

    >>> cell("|τ/n − 1| ≤ 4.4e-16")
    '\\\\|τ/n − 1\\\\| ≤ 4.4e-16'
    """
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


#: The lines around the claim table of docs/checker.md, which :func:`claim_table` writes.
CLAIM_TABLE_BEGIN = ("<!-- the claim table: written from each claim's declaration by "
                     "`python tools/claim_table.py`; tests/test_extension_points.py checks it -->")
CLAIM_TABLE_END = "<!-- end of the claim table -->"


def claim_table(claims=None):
    """The claim table of docs/checker.md, one row per claim in report order, from each
    claim's declaration: its id, where the paper makes it (``paper_ref``) and what is checked
    (``doc``); ``claims`` defaults to the registry.

    >>> from ngc_ref_theory.kit.claim import Claim
    >>> print("\\n".join(claim_table({"x": Claim("x", "Eq. 6", "...", doc="rows sum to 1")})))
    | id | paper | what is checked |
    |---|---|---|
    | `x` | Eq. 6 | rows sum to 1 |
    """
    claims = registry() if claims is None else claims
    lines = ["| id | paper | what is checked |", "|---|---|---|"]
    for c in sorted(claims.values(), key=lambda c: (c.order, c.id)):
        lines.append(f"| `{c.id}` | {cell(c.paper_ref)} | {cell(c.doc)} |")
    return lines


def with_claim_table(page, claims=None):
    """``page`` (the text of docs/checker.md) with the lines between
    :data:`CLAIM_TABLE_BEGIN` and :data:`CLAIM_TABLE_END` replaced by :func:`claim_table`;
    ``ValueError`` when the page lacks either line."""
    lines = page.split("\n")
    try:
        a, b = lines.index(CLAIM_TABLE_BEGIN), lines.index(CLAIM_TABLE_END)
    except ValueError:
        raise ValueError("the page has no claim table between the lines CLAIM_TABLE_BEGIN and "
                         "CLAIM_TABLE_END of ngc_ref_theory.output.report") from None
    return "\n".join(lines[:a + 1] + claim_table(claims) + lines[b:])


def _steps_lines(steps):
    lines = ["| step | verdict | worst ratio | where | the paper's step |",
             "|---|---|---|---|---|"]
    for st in steps:
        ratio = st.get("worst_ratio")
        lines.append(f"| {cell(st.get('step'))} | **{st.get('verdict')}** | "
                     f"{_fmt(ratio) if ratio is not None else ''} | "
                     f"{cell(st.get('where', ''))} | "
                     f"{cell(st.get('text', ''))} |")
    first = next((st for st in steps if st.get("verdict") == "fails"), None)
    if first is not None:
        lines += ["", f"First false step: **{first.get('step')}** — {first.get('text')}"]
    return lines


def _first_clause(text, limit=220):
    """The summary's first clause: up to the first '; ' outside brackets and parentheses."""
    depth = 0
    for k, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and text.startswith("; ", k):
            text = text[:k]
            break
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _atlas_graph(m):
    """A minimal counterexample's graph in one line ('' for a record without one)."""
    return (f"atlas G{m['atlas_index']} " if "atlas_index" in m else "") + (
        f"(n={m['n']}, edges {json.dumps(m['edges'])})" if "edges" in m else "")


def _case(m):
    """A minimal counterexample record in one line: graph, setting, what it shows there (its
    certificate's ``shows``, e.g. 'P(exceed) = 0.286 > 1/d = 1/4'), certificate."""
    params = ", ".join(f"{k}={_fmt(m[k])}" for k in ("lam", "S", "d") if m.get(k) is not None)
    out = ", ".join(p for p in (_atlas_graph(m), params.replace("lam=", "λ="), m.get("case"))
                    if p)
    if m.get("shows"):
        out += f": {m['shows']}"
    return out + (f" ({m['certified']})" if m.get("certified") else "")


#: What the headline says of a failing result whose counterexample names no graph.
NO_GRAPH_RECORDED = "graph not recorded"


def counterexample_graph(r):
    """The graph a failing result's counterexample is on, in words: the minimal
    counterexample's graph, the counterexample's graph record, its data set, or why the
    statement involves no graph (``no_graph``); None when it names none — a checker defect
    the headline marks (:data:`NO_GRAPH_RECORDED`) and :func:`graphless` lists."""
    m, ce = r.minimal_counterexample or {}, r.counterexample or {}
    g = ce.get("graph")
    for found in (_atlas_graph(m),
                  g and f"{g['name']} (n = {g['n']}, {g['n_edges']} edges)",
                  ce.get("dataset") and f"{ce['dataset']} (data set)",
                  ce.get("no_graph") and f"no graph ({ce['no_graph']})"):
        if found:
            return found
    return None


def graphless(results):
    """The failing results whose counterexample names no graph (:func:`counterexample_graph`):
    every counterexample must, so a report's headline always shows one."""
    return [r for r in results if r.verdict == "fails" and counterexample_graph(r) is None]


def _headline_case(r):
    """The minimal (non-degenerate) counterexample of a result, else its counterexample's
    graph (:func:`counterexample_graph`, always first) and setting, in one line; the degenerate
    minimum beside the minimal one, labelled."""
    m = r.minimal_counterexample
    if m and (_atlas_graph(m) or "case" in m):
        line = _case(m)
        if m.get("range"):
            line = f"{line}, smallest with {m['range']}"
        low = m.get("degenerate_minimal")
        if low:
            line += f"; degenerate minimum (outside that range): {_case(low)}"
        return line
    ce = r.counterexample or {}
    graph = counterexample_graph(r)
    keys = ("lam", "S", "d", "eps", "p", "noise", "xi") if graph else (
        "family", "n", "lam", "S", "d", "eps", "p", "noise", "xi")
    parts = [graph or NO_GRAPH_RECORDED]
    parts += [f"{_SYMBOL.get(k, k)}={_fmt(ce[k])}" for k in keys
              if isinstance(ce.get(k), (int, float, str)) and not isinstance(ce.get(k), bool)]
    return ", ".join(parts)


#: The paper's symbols for the parameters a headline shows.
_SYMBOL = {"lam": "λ", "eps": "ε", "xi": "ξ"}


def what_fails_lines(results):
    """The section "What fails as stated": one line per failing ``as-stated`` result — id,
    norm, the violation (the summary's first clause), the minimal counterexample, the rerun
    command."""
    bad = [r for r in results if r.scope == "as-stated" and r.verdict == "fails"]
    lines = ["## What fails as stated", ""]
    if not bad:
        return lines + ["No statement of the paper fails as stated in this run."]
    lines += [f"{len(bad)} of the paper's statements fail under their own hypotheses (the "
              "minimal counterexample is the smallest inside the statement's non-degenerate "
              "range; sections below give the evidence):", ""]
    for r in bad:
        rerun = (r.counterexample or {}).get("rerun", f"ngc-ref check --only {r.id}")
        lines.append(f"- {_link(r)} ({r.norm}): {_first_clause(r.said)} — counterexample: "
                     f"{_headline_case(r)} — rerun `{rerun}`")
    return lines


#: The statement whose evidence carries the structural finding (its fixed-λ floor of τ/n).
ASSUMPTION_2 = "assumption-2"


def structural_finding_lines(results):
    """The paragraph at the top of ``report.md`` that states the structural finding once: at
    fixed λ no graph family meets Assumption 2, so Lemma 1 and Theorem 1 under their stated
    hypotheses are vacuous unless λ grows with n; and which results therefore run at λ = √n.

    Every number is the run's own: λ, S, the floor of τ/n and the families from the evidence
    and counterexample of the ``assumption-2`` result (the paper's own scope first), 1/(λ+1)
    from that λ; the λ = √n results are those whose evidence carries ``SQRT_N_KEY``. ``[]``
    when the run has no failing ``assumption-2`` result (e.g. ``--only`` left it out).
    """
    a2 = [r for r in results if r.id == ASSUMPTION_2 and r.verdict == "fails"]
    if not a2:
        return []
    r = min(a2, key=lambda r: r.scope != "as-stated")
    ev, ce = r.evidence, r.counterexample or {}
    lam, S, floor = ev["lam"], ev["S"], ev["floor_tau_over_n"]
    fams = ev.get("families", {})
    above = sum(f.get("verdict") == "fails" for f in fams.values())
    closest = (f"; closest, {ce['family']}: τ/n = {number(ce['tau_over_n'])} at n = {ce['n']}"
               if {"family", "tau_over_n", "n"} <= set(ce) else "")
    lines = [
        f"**At fixed λ no graph family meets Assumption 2.** Every diagonal entry of 𝒜̃_S is at "
        f"least 1/(λ+1) (its s = 0 term; no term is negative), so τ_i ≥ n/((λ+1)²(1−r^{{S+1}})²) "
        f"on every graph, and τ/n stays above a positive floor whatever n: at λ = {lam:g}, "
        f"S = {S}, 1/(λ+1) = {number(1 / (lam + 1))} and τ/n ≥ "
        f"{number(floor)} ({_link(r)}, {r.norm}: {above} of {len(fams)} families stay above "
        f"it{closest}). Lemma 1 and Theorem 1 assume Assumption 2, so under their stated "
        "hypotheses they are vacuous unless λ grows with n."]
    grown: dict = {}
    for x in results:
        if SQRT_N_KEY in x.evidence:
            grown.setdefault(x.id, []).append(x)
    if grown:
        ordered = sorted(grown.values(), key=lambda rs: all(x.scope != "as-stated" for x in rs))
        listed = "; ".join(f"{_link(rs[0])} (" + ", ".join(f"{x.norm} {x.scope}: {x.verdict}"
                                                           for x in rs) + ")"
                           for rs in ordered)
        lines[0] += (" The results that need Assumption 2 therefore run at λ = √n, S = ⌈2λ⌉: "
                     f"{listed}.")
    return lines


def render_markdown(results, meta, claims=None):
    """The whole ``report.md``: the run and its counts (:func:`_run_lines`), the structural
    finding (:func:`structural_finding_lines`), "What fails as stated", the table of results,
    then one section per claim (:func:`_claim_lines`).

    A new section of ``report.md`` is one more function returning its lines, called here."""
    claims = registry() if claims is None else claims
    finding = structural_finding_lines(results)
    lines = [*_run_lines(results, meta), "", *((*finding, "") if finding else ()),
             *what_fails_lines(results), "", *_results_table(results)]
    index = {id(r): k for k, r in enumerate(results)}
    by_statement: dict = {}
    for r in results:
        by_statement.setdefault(r.id, []).append(r)
    shown_figures = set()
    for cl in claims.values():
        lines += _claim_lines(cl, by_statement, meta, index, shown_figures)
    return "\n".join(lines) + "\n"


def _run_lines(results, meta):
    """The title, the run (seed, mode, code, start, seconds), the counts by scope, how to
    rerun, what the scopes mean, and what the run skipped."""
    c = counts(results)
    source = meta.get("source") or {}
    code = (f"commit `{source['commit'][:12]}`" + (" (with local changes)" if source.get("dirty")
                                                    else "")
            if source.get("commit") else f"ngc_ref {source.get('version', meta.get('version'))}")
    return [
        "# ngc_ref theory check",
        "",
        "Paper: *How Powerful is Implicit Denoising in Graph Neural Networks*. "
        f"Run: seed {meta.get('seed')}, {'thorough' if meta.get('thorough') else 'default'} "
        f"mode, {code}, {meta.get('started')}, {meta.get('seconds')} s.",
        "",
        f"**The paper's statements as stated: {counts_line(c, 'as-stated')}.** "
        f"Our extensions and corrections: {counts_line(c, 'extension')}. "
        f"Errata (typos whose intended statement is clear): {counts_line(c, 'erratum')}.",
        "",
        f"Re-run one statement with `{meta.get('rerun', 'ngc-ref check --only ID --seed N')}`; "
        "every number below is in `report.json`. Scopes: *as-stated* — the paper's statement "
        "under its own hypotheses and normalisation; *extension* — our generalisation (the other "
        "normalisation, settings beyond the hypotheses, constructed graphs) or a corrected "
        "statement; *erratum* — a typo whose intended statement is clear.",
        "",
        *(f"- {line}" for line in skipped_lines(meta.get("skipped", []))),
        *paper_lines(meta.get("paper")),
    ]


def paper_lines(paper):
    """The line of ``report.md`` about ``paper.md``: where it is, or why this run wrote none
    (``meta["paper"]``; nothing for a report without that record)."""
    if not paper:
        return []
    if paper.get("file"):
        return [f"- The paper sentence by sentence, each claim with its verdicts from this run: "
                f"[{paper['file']}]({paper['file']})."]
    return [f"- skipped: paper.md — {paper.get('why')}"]


def _results_table(results):
    """The table of all results: id (linked to its section), paper, norm, scope, verdict,
    summary."""
    lines = ["| id | paper | norm | scope | verdict | evidence |", "|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {_link(r)} | {cell(r.paper_ref)} | {r.norm} | {r.scope} | "
                     f"**{r.verdict}** | {cell(r.said)} |")
    return lines


def _claim_lines(cl, by_statement, meta, index, shown_figures):
    """One claim's section: its words and skips, then each of its statements that has results
    (``by_statement``: id -> results), with its own heading unless it is the claim's own;
    ``[]`` when none has."""
    sids = [sid for sid in cl.statements if sid in by_statement]
    if not sids:
        return []
    lines = ["", f"## {cl.id} — {cl.paper_ref}", "", f'<a id="{_anchor(cl.id)}"></a>', "",
             f"> {cl.statement}", ""]
    skipped = [s for s in meta.get("skipped", []) if s["claim"] == cl.id]
    for line in skipped_lines(skipped):
        lines += [f"*{line}*", ""]
    for sid in sids:
        st = cl.statements[sid]
        if sid != cl.id:   # the claim's own statement is quoted under the claim's heading
            lines += ["", f"### {sid}", "", f'<a id="{_anchor(sid)}"></a>', ""]
            if st.corrects:
                lines += [f"Corrected statement (corrects `{st.corrects}`, the paper's):", ""]
            lines += [f"> {st.text}", ""]
        for r in by_statement[sid]:
            lines += _result_lines(r, f"results[{index[id(r)]}]", shown_figures)
    return lines


def _result_lines(r, where, shown_figures):
    """One result (``where``: its JSON path in ``report.json``): verdict, summary, scope, the
    evidence digest, what was searched, the minimal counterexample, the proof steps, the
    counterexample and the figures (a figure already shown is referenced, not repeated)."""
    d = r.to_dict()
    lines = [f"#### {r.id}, norm = {r.norm}: **{r.verdict}** ({r.scope})", "",
             r.summary, "", f"*Scope: {r.scope}* — {r.scope_reason}", ""]
    lines += ["Evidence:", ""] + digest(d["evidence"], f"{where}.evidence")
    if r.search:
        lines += ["", "Searched:", ""] + digest(d["search"], f"{where}.search")
    if r.minimal_counterexample:
        lines += ["", "Minimal counterexample:", ""] + _minimal_lines(
            d["minimal_counterexample"], f"{where}.minimal_counterexample")
    if r.steps:
        lines += ["", "Proof steps:", ""] + _steps_lines(r.steps)
    if r.counterexample:
        lines += ["", "Counterexample:", ""] + _counterexample_lines(
            d["counterexample"], f"{where}.counterexample")
    for f in r.figures:
        if f in shown_figures:
            lines += ["", f"Figure: `{f}` (shown above)."]
        else:
            shown_figures.add(f)
            lines += ["", f"![{r.id} {r.norm}]({f})"]
    lines.append("")
    return lines


def _link(r):
    """The result's id as a link to its statement's section."""
    return f"[`{r.id}`](#{_anchor(r.id)})"




def _anchor(sid):
    return "s-" + "".join(ch if ch.isalnum() else "-" for ch in sid)
