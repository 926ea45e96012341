"""The import layers of the project (ARCHITECTURE.md), checked on the source with ``ast``.

    ngc_ref (library)             imports nothing of the checker
    theory/output/ (files, provenance, figures)
                                  imports only the library (what every part writes with)
    theory/kit/                   the claim kit: the library and itself
    theory/paper/                 the paper's words and numbers: the library, the kit, itself
    theory/exact/                 exact search and certificates: the parts above and itself
    theory/sweep/                 the sweep engine: the parts above and itself, never a claim
    theory/claims/                the parts above, sweep (claims may use sweeps), itself
    theory/reproduce/             the parts above, sweep, itself (never a claim)
    theory/{cli,check}.py, output/{report,paper_md}.py
                                  the top: anything

and no module of the checker imports another of the checker's modules inside a function (a
function-local import is how a cycle is hidden) — except the registry's discovery of the claim
modules (``kit.claim.registry``) and the command line, which imports a subcommand's modules only
when that subcommand runs.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAZY_ALLOWED = {"theory/kit/claim.py", "theory/cli.py"}


def _modules(folder, package):
    for path in sorted((ROOT / folder).rglob("*.py")):
        rel = path.relative_to(ROOT / folder).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
            pkg = ".".join([package, *parts])
        else:
            pkg = ".".join([package, *parts[:-1]])
        yield path, ".".join([package, *parts]), pkg


def _imports(path, pkg):
    """(imported module, is_function_local) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    local = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            local.update(id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, id(node) in local
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            for a in node.names:
                yield (f"{mod}.{a.name}" if node.level and not node.module else mod), \
                    id(node) in local


#: The layer of a checker module: the most specific prefix that matches (the writers of the
#: report and of paper.md read every claim's results, so they sit at the top of ``output/``).
LAYERS = (
    ("ngc_ref_theory.output.report", "top"),
    ("ngc_ref_theory.output.paper_md", "top"),
    ("ngc_ref_theory.output", "output"),
    ("ngc_ref_theory.kit", "kit"),
    ("ngc_ref_theory.paper", "paper"),
    ("ngc_ref_theory.exact", "exact"),
    ("ngc_ref_theory.sweep", "sweep"),
    ("ngc_ref_theory.claims", "claims"),
    ("ngc_ref_theory.reproduce", "reproduce"),
)


def _layer(mod):
    parts = mod.split(".")
    if parts[0] == "ngc_ref":
        return "library"
    if parts[0] != "ngc_ref_theory":
        return "external"
    for prefix, layer in LAYERS:
        if mod == prefix or mod.startswith(prefix + "."):
            return layer
    return "top"


_BASE = {"library", "external"}
ALLOWED = {
    "library": _BASE,
    "output": _BASE | {"output"},
    "kit": _BASE | {"kit"},
    "paper": _BASE | {"kit", "paper"},
    "exact": _BASE | {"output", "kit", "paper", "exact"},
    "sweep": _BASE | {"output", "kit", "paper", "exact", "sweep"},
    "claims": _BASE | {"output", "kit", "paper", "exact", "sweep", "claims"},
    "reproduce": _BASE | {"output", "kit", "paper", "exact", "sweep", "reproduce"},
    "top": _BASE | {"output", "kit", "paper", "exact", "sweep", "claims", "reproduce", "top"},
}


def _violations():
    out = []
    for folder, package in (("ngc_ref", "ngc_ref"), ("theory", "ngc_ref_theory")):
        for path, mod, pkg in _modules(folder, package):
            src = _layer(mod)
            rel = str(path.relative_to(ROOT))
            for target, is_local in _imports(path, pkg):
                if is_local and rel in LAZY_ALLOWED:
                    continue
                if target.split(".")[0] == "theory":
                    out.append(f"{rel} imports the repository folder name 'theory'")
                    continue
                dst = _layer(target)
                if dst not in ALLOWED[src]:
                    out.append(f"{rel} ({src}) imports {target} ({dst})")
                if is_local and src != "library" and dst not in ("library", "external"):
                    out.append(f"{rel}: function-local import of {target}")
    return out


def test_import_layers():
    assert _violations() == []


def test_the_checker_layers_are_detected():
    # The rules see what they are meant to see (a rule that can never fire proves nothing).
    assert _layer("ngc_ref_theory.kit.stats") == "kit"
    assert _layer("ngc_ref_theory.paper.bounds") == "paper"
    assert _layer("ngc_ref_theory.exact.atlas") == "exact"
    assert _layer("ngc_ref_theory.output.figures") == "output"
    assert _layer("ngc_ref_theory.output.report") == "top"
    assert _layer("ngc_ref_theory.sweep.tasks") == "sweep"
    assert _layer("ngc_ref_theory.claims.lemma_1") == "claims"
    assert _layer("ngc_ref_theory.cli") == "top"
    assert _layer("ngc_ref_theory.check") == "top"
    assert _layer("ngc_ref_theory.reproduce.cells") == "reproduce"
    assert "claims" not in ALLOWED["sweep"] and "sweep" not in ALLOWED["exact"]
    assert "reproduce" not in ALLOWED["claims"] and "claims" not in ALLOWED["reproduce"]
    assert "paper" not in ALLOWED["kit"] and "exact" not in ALLOWED["paper"]


def test_every_checker_module_is_in_a_named_part():
    # No module sits flat in theory/ but the command line, the run of `check` and the package's
    # own __init__: every other one belongs to a part (issue 36: the checker in named parts).
    found = list(_modules("theory", "ngc_ref_theory"))
    tree_mods = {m for _, m, _ in found}
    flat = {m for path, m, _ in found if m.count(".") == 1 and path.name != "__init__.py"}
    assert flat == {"ngc_ref_theory.cli", "ngc_ref_theory.check"}
    parts = {m.split(".")[1] for m in tree_mods if m.count(".") >= 1} - {"cli", "check"}
    assert parts == {"claims", "exact", "kit", "output", "paper", "reproduce", "sweep"}
    assert all(_layer(m) != "top" or m.split(".")[1] in ("cli", "check", "output")
               for m in tree_mods if m != "ngc_ref_theory")
    assert {"ngc_ref_theory.paper.bounds", "ngc_ref_theory.sweep.tasks"} <= tree_mods


def test_one_file_for_each_name():
    # Three runner.py and two report.py made "which runner?" a question (issue 36).
    names = {}
    for folder in ("ngc_ref", "theory"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name != "__init__.py":
                names.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert not names.get("runner.py") and len(names.get("report.py", [])) <= 1
