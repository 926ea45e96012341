"""The README's and docs/*.md's code blocks run as written and print what they say they print.

A user copies these blocks first, so each kind of fence is checked:

* ``python`` blocks are doctests. The blocks of one page share one namespace, in page order (as
  a reader runs them), in an empty working folder. Printed output must match: ``...`` elides,
  whitespace is normalised, and a float matches to the precision it is written with (``0.1461``
  matches any value within 1e-4): BLAS kernels differ per CPU, so the pages print a few digits.
* ``bash`` blocks: every ``ngc-ref`` command parses with the real argument parser, its ``--only``
  ids are known and its config files exist; nothing long is run.
* ``toml`` blocks are valid sweep configs; ``text`` blocks (output, schemas) are not run.
* ``<!-- needs: NGC_REF_DATA -->`` on the line before a fence skips that block without the data.

Every relative link of these pages must resolve (a moved section must not leave a dead link).
"""

from __future__ import annotations

import dataclasses
import doctest
import os
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LANGS = ("python", "bash", "toml", "text")

FENCE = re.compile(r"(?:^<!--\s*(?P<directive>[^>]*?)\s*-->[ \t]*\n)?"
                   r"^```(?P<lang>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)


@dataclasses.dataclass
class Block:
    page: Path
    line: int
    lang: str
    body: str
    directive: str | None

    @property
    def where(self):
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def missing(self):
        """Why this block cannot run here (its ``needs:`` directive), or None."""
        if self.directive and self.directive.startswith("needs:"):
            var = self.directive.split(":", 1)[1].strip()
            if not os.environ.get(var):
                return f"{self.where} needs {var}"
        return None


def blocks(page, text=None):
    text = page.read_text(encoding="utf-8") if text is None else text
    out = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start("lang")) + 1
        out.append(Block(page, line, m.group("lang").strip(), m.group("body"),
                         m.group("directive")))
    return out


def page_id(page):
    return str(page.relative_to(ROOT))


# --- python: doctest with floats compared to the written precision ---------------------------

class WrittenPrecisionChecker(doctest.OutputChecker):
    """An ``OutputChecker`` under which a float in the expected output matches any printed
    number within one unit of its last written digit (``1.8110`` matches 1.8111, as pytest's
    ``NUMBER`` option does) and within half its own size (so ``1e-05`` does not match 1e-06);
    everything else is compared as doctest compares it. One unit, not half: two machines may
    round a value near a boundary to neighbouring last digits."""

    NUMBER = re.compile(r"(?<![\w.])[+-]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][+-]?\d+)?(?![\w.])")

    def check_output(self, want, got, optionflags):
        if super().check_output(want, got, optionflags):
            return True
        wants, gots = list(self.NUMBER.finditer(want)), list(self.NUMBER.finditer(got))
        if len(wants) != len(gots):
            return False
        pieces, last = [], 0
        for w, g in zip(wants, gots):
            mantissa, _, exponent = w.group().lower().partition("e")
            decimals = len(mantissa.partition(".")[2])
            unit = 10.0 ** (int(exponent or 0) - decimals)
            tol = min(unit, abs(float(w.group())) / 2) * (1 + 1e-9)
            if abs(float(w.group()) - float(g.group())) > tol:
                return False
            pieces += [got[last:g.start()], w.group()]
            last = g.end()
        return super().check_output(want, "".join(pieces) + got[last:], optionflags)


def run_python(block, globs):
    """Run one python block as a doctest in ``globs``; return the failure report ('' if none)."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.body, globs, block.where, str(block.page), block.line)
    report = []
    runner = doctest.DocTestRunner(
        checker=WrittenPrecisionChecker(),
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.append, clear_globs=False)
    return "".join(report)


def python_pages():
    return [p for p in PAGES if any(b.lang == "python" for b in blocks(p))]


@pytest.mark.parametrize("page", python_pages(), ids=page_id)
def test_python_examples_print_what_the_page_says(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # an example that writes files writes them here
    globs, failures, skipped = {"__name__": "__docs__"}, [], []
    for block in (b for b in blocks(page) if b.lang == "python"):
        assert ">>> " in block.body, f"{block.where}: write the example as a doctest (>>> lines)"
        why = block.missing()
        if why:
            skipped.append(why)
            continue
        failures.append(run_python(block, globs))
    assert not "".join(failures), "".join(failures)
    if skipped:
        pytest.skip("; ".join(skipped))


def test_a_changed_number_fails_the_example():
    """The checker is not vacuous: a digit planted wrong, or a missing line, fails."""
    page = ROOT / "README.md"
    good = Block(page, 1, "python", ">>> print(f'{2 / 3:.4f} {1e-6:.0e}')\n0.6667 1e-06\n", None)
    assert run_python(good, {}) == ""
    for wrong in ("0.6677 1e-06", "0.6667 1e-05", "0.6667", "0.667 1e-06 7"):
        bad = dataclasses.replace(good, body=good.body.replace("0.6667 1e-06", wrong))
        assert "Failed example" in run_python(bad, {}), wrong
    # written precision: 0.667 allows ±0.001 around 0.6667; 0.67 allows ±0.01
    for loose in ("0.667 1e-06", "0.67 1e-06", "0.6667 1.0e-06"):
        ok = dataclasses.replace(good, body=good.body.replace("0.6667 1e-06", loose))
        assert run_python(ok, {}) == "", loose


# --- bash: every ngc-ref command parses -------------------------------------------------------

def commands(body):
    """The simple commands of a bash block: continuation lines joined, comments dropped, split
    at ``&&``, ``||``, ``;``, ``|`` and ``&``, leading ``VAR=value`` assignments removed."""
    out = []
    for line in body.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        words = []
        for tok in [*lexer, ";"]:
            if tok and set(tok) <= set(";&|"):
                while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):
                    words.pop(0)
                if words:
                    out.append(words)
                words = []
            else:
                words.append(tok)
    return out


def check_ngc_ref(argv, where):
    """Parse ``ngc-ref ARGV`` as the CLI does and validate what parsing alone does not."""
    from ngc_ref_theory.cli import UsageError, build_parser

    if argv[-1:] in (["--help"], ["-h"]):
        argv = argv[:-1]          # the help of a subcommand: the rest must parse
    try:
        args = build_parser().parse_args(argv)
    except (SystemExit, UsageError) as exc:
        raise AssertionError(f"{where}: `ngc-ref {shlex.join(argv)}` does not parse") from exc
    if args.command == "check":
        from ngc_ref_theory.check import resolve_ids, select
        select(resolve_ids(args.only))               # unknown ids raise ValueError
        for flag, given in (("--scale", args.scale), ("--scheduler", args.scheduler)):
            assert given is None or args.thorough, f"{where}: {flag} needs --thorough"
    elif args.command == "reproduce" and args.only:
        from ngc_ref_theory.reproduce.targets import parse_only
        parse_only(args.only)
    elif args.command == "sweep" and args.config:
        from ngc_ref_theory.sweep import load_config
        load_config(ROOT / args.config)


def bash_blocks():
    return [b for p in PAGES for b in blocks(p) if b.lang == "bash"]


@pytest.mark.parametrize("block", bash_blocks(), ids=lambda b: b.where)
def test_shell_commands_parse(block):
    for words in commands(block.body):
        if words[0] == "ngc-ref":
            check_ngc_ref(words[1:], block.where)
        elif words[0] == "python" and words[1:2] != ["-m"]:
            assert (ROOT / words[1]).is_file(), f"{block.where}: no script {words[1]}"


def test_commands_are_split_as_the_shell_splits_them():
    body = ("NGC_REF_DATA=/d A=1 ngc-ref check --only row-sum   # comment && not a command\n"
            "python -m pip install . && ngc-ref check \\\n  --out r\n"
            "dask scheduler --port 8786 &  dask worker tcp://h:8786 &\n")
    assert commands(body) == [["ngc-ref", "check", "--only", "row-sum"],
                              ["python", "-m", "pip", "install", "."],
                              ["ngc-ref", "check", "--out", "r"],
                              ["dask", "scheduler", "--port", "8786"],
                              ["dask", "worker", "tcp://h:8786"]]
    with pytest.raises(ValueError, match="unknown claim"):
        check_ngc_ref(["check", "--only", "lemma-one"], "here")
    with pytest.raises(AssertionError, match="does not parse"):
        check_ngc_ref(["check", "--no-such-option"], "here")


# --- toml: valid sweep configs ----------------------------------------------------------------

@pytest.mark.parametrize("block", [b for p in PAGES for b in blocks(p) if b.lang == "toml"],
                         ids=lambda b: b.where)
def test_toml_examples_are_valid_sweep_configs(block):
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    from ngc_ref_theory.sweep.config import parse_config
    assert parse_config(tomllib.loads(block.body), source=block.where).cells


# --- every fence has a checked kind; every link resolves ---------------------------------------

def test_every_code_block_is_of_a_checked_kind():
    found = [b for p in PAGES for b in blocks(p)]
    assert len(found) >= 10 and any(b.lang == "python" for b in blocks(PAGES[0]))
    for b in found:
        assert b.lang in LANGS, f"{b.where}: fence ```{b.lang} (use one of {LANGS})"
        assert b.directive is None or re.fullmatch(r"needs: [A-Z_]+", b.directive), b.where
    # no fence the pattern missed (an unclosed or indented one would hide a block)
    for p in PAGES:
        text = p.read_text(encoding="utf-8")
        assert len(re.findall(r"^```", text, re.M)) == 2 * len(blocks(p, text)), p


def anchors(page):
    """GitHub's anchors of a page's headings (lower case, punctuation dropped, spaces to -)."""
    heads = re.findall(r"^#{1,6} (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", [*PAGES, ROOT / "ARCHITECTURE.md"], ids=page_id)
def test_relative_links_resolve(page):
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page_id(page)}: link to {target} (no {dest})"
        assert ROOT in dest.parents or dest == ROOT, f"{page_id(page)}: {target} leaves the repo"
        if anchor and dest.suffix == ".md":
            assert anchor in anchors(dest), f"{page_id(page)}: no heading for #{anchor} in {path}"


def test_readme_is_short_and_links_every_docs_page():
    text = PAGES[0].read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for page in PAGES[1:]:
        assert f"(docs/{page.name}" in text, f"README.md does not link docs/{page.name}"


def test_the_readme_states_the_test_command_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# --- the README's test command, verbatim ---") + 1]
    assert f"`{command}`" in PAGES[0].read_text(encoding="utf-8")
