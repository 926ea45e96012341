"""The import layers of the project (ARCHITECTURE.md), checked on the source with ``ast``.

    ngc_ref (library)              imports nothing of the checker
    theory/_*.py (leaf modules)    import only ngc_ref and other leaf modules
    theory/sweep/                  imports only ngc_ref, leaf modules and itself
    theory/claims/                 imports ngc_ref, leaf modules, sweep (claims may use sweeps)
    theory/reproduce/              imports ngc_ref, leaf modules, sweep (the paper's experiments)
    theory/{runner,report,cli}.py  the top: anything

and no module of the checker imports another of the checker's modules inside a function (a
function-local import is how a cycle is hidden) — except the registry's discovery of the claim
modules (``_core.registry``) and the command line, which imports a subcommand's modules only
when that subcommand runs.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAZY_ALLOWED = {"theory/_core.py", "theory/cli.py"}


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


def _layer(mod):
    parts = mod.split(".")
    if parts[0] == "ngc_ref":
        return "library"
    if parts[0] != "ngc_ref_theory":
        return "external"
    if len(parts) == 1:
        return "top"
    if parts[1] == "sweep":
        return "sweep"
    if parts[1] == "claims":
        return "claims"
    if parts[1] == "reproduce":
        return "reproduce"
    if parts[1].startswith("_") and parts[1] != "__init__":
        return "leaf"
    return "top"


ALLOWED = {
    "library": {"library", "external"},
    "leaf": {"library", "external", "leaf"},
    "sweep": {"library", "external", "leaf", "sweep"},
    "claims": {"library", "external", "leaf", "sweep", "claims"},
    "reproduce": {"library", "external", "leaf", "sweep", "reproduce"},
    "top": {"library", "external", "leaf", "sweep", "claims", "reproduce", "top"},
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
    assert _layer("ngc_ref_theory._stats") == "leaf"
    assert _layer("ngc_ref_theory.sweep.tasks") == "sweep"
    assert _layer("ngc_ref_theory.claims.lemma_1") == "claims"
    assert _layer("ngc_ref_theory.cli") == "top"
    assert _layer("ngc_ref_theory.reproduce.cells") == "reproduce"
    assert "claims" not in ALLOWED["sweep"] and "claims" not in ALLOWED["leaf"]
    assert "reproduce" not in ALLOWED["claims"] and "claims" not in ALLOWED["reproduce"]
    tree_mods = {m for _, m, _ in _modules("theory", "ngc_ref_theory")}
    assert {"ngc_ref_theory._bounds", "ngc_ref_theory.sweep.tasks"} <= tree_mods
