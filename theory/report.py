"""Writing the checker's report: a table for the terminal, report.json, report.md, figures.

Every file is written atomically (temporary file in the same folder, then ``os.replace``), so an
interrupted run never leaves a half-written report where a complete one stood.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

SCHEMA_VERSION = 1


def _default_mode():
    """0o666 less the process umask: what ``open(path, "w")`` would have given the file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_text(path, text):
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp creates 0600; a report is meant to be shared like any other output file.
        os.fchmod(fd, _default_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_figure(fig, path):
    """Save a matplotlib figure atomically as PNG and close it; returns the file name."""
    import matplotlib.pyplot as plt
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".png")
    os.fchmod(fd, _default_mode())
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110, bbox_inches="tight")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    finally:
        plt.close(fig)
    return path.name


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
    out = {"holds": 0, "fails": 0, "inconclusive": 0}
    for r in results:
        out[r.verdict] += 1
    return out


def write_report(results, out_dir, meta):
    """Write ``report.json`` and ``report.md`` into ``out_dir`` (which must exist)."""
    out_dir = Path(out_dir)
    doc = {"schema_version": SCHEMA_VERSION, "meta": meta, "counts": counts(results),
           "results": [r.to_dict() for r in results]}
    atomic_write_text(out_dir / "report.json", json.dumps(doc, indent=2, sort_keys=False) + "\n")
    atomic_write_text(out_dir / "report.md", render_markdown(results, meta))


def compact_json(obj, indent=1, _level=0):
    """JSON with short lists and dicts of scalars on one line, so evidence tables stay readable."""
    pad, inner = " " * (indent * _level), " " * (indent * (_level + 1))
    flat = json.dumps(obj, ensure_ascii=False)
    scalar = (str, int, float, bool, type(None))
    if len(flat) <= 100 or (isinstance(obj, list) and all(isinstance(v, scalar) for v in obj)):
        return flat
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: "
                 f"{compact_json(v, indent, _level + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(obj, list):
        items = [inner + compact_json(v, indent, _level + 1) for v in obj]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return flat


def _json_block(obj, limit):
    """A fenced JSON block for report.md, cut at a line boundary with a pointer to report.json."""
    text = compact_json(obj)
    if len(text) > limit:
        text = text[:limit].rsplit("\n", 1)[0] + "\n… (cut here; the full record is in report.json)"
    return ["```json", text, "```"]


def render_markdown(results, meta):
    c = counts(results)
    lines = [
        "# ngc_ref theory check",
        "",
        f"Paper: *How Powerful is Implicit Denoising in Graph Neural Networks*. "
        f"Run: seed {meta.get('seed')}, {'thorough' if meta.get('thorough') else 'default'} "
        f"mode, ngc_ref {meta.get('version')}, {meta.get('started')}.",
        "",
        f"**{c['holds']} holds, {c['fails']} fails, {c['inconclusive']} inconclusive.** "
        f"Re-run one claim with `{meta.get('rerun', 'ngc-ref check --only ID --seed N')}`.",
        "",
        "| id | paper | norm | verdict | evidence |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(f"| `{r.id}` | {r.paper_ref} | {r.norm} | **{r.verdict}** | "
                     f"{r.summary.replace('|', '/')} |")
    lines.append("")
    seen = set()
    for r in results:
        if r.id not in seen:
            seen.add(r.id)
            lines += ["", f"## `{r.id}` — {r.paper_ref}", "", f"> {r.statement}", ""]
        lines += [f"### norm = {r.norm}: {r.verdict}", "", r.summary, ""]
        lines += ["Evidence:", ""] + _json_block(r.to_dict()["evidence"], 6000)
        if r.counterexample:
            lines += ["", "Counterexample:", ""] + _json_block(r.to_dict()["counterexample"],
                                                               4000)
        for f in r.figures:
            lines += ["", f"![{r.id} {r.norm}]({f})"]
        lines.append("")
    return "\n".join(lines) + "\n"
