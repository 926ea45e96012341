"""Mutation testing of the core modules, one module at a time against its own fast tests.

A developer command, not part of CI (see ``docs/contributing-mutation.md``)::

    .venv/bin/python tools/mutation.py                      # every module in MODULES
    .venv/bin/python tools/mutation.py normalize robust     # just these
    .venv/bin/python tools/mutation.py --list               # the modules and their tests

For each module it copies ``ngc_ref/``, ``tests/``, ``setup.cfg`` and ``pyproject.toml`` into
``build/mutation/<module>/``, appends to that copy's ``[mutmut]`` section (shared options live
in the repository's ``setup.cfg``) the one file to mutate and the module's own test files, and
runs ``nice -n 10 mutmut run --max-children 1`` there. A checker module (``theory/...``) is
mutated in a copy of ``theory/`` laid out under its import name, ``ngc_ref_theory/``: mutmut
puts its ``mutants/`` folder first on ``sys.path``, so the tests' ``import ngc_ref_theory``
finds the mutated copy before the editable install's finder (which maps the name to
``theory/``). mutmut (3.x) runs each mutant only
against the tests that reach the mutated function, so a module takes minutes. Then it prints
mutants / killed / equivalent / survivors per module, where a survivor listed in
``tools/mutation_equivalent.toml`` (with the reason it cannot change any result) counts as
equivalent, and writes the table to ``build/mutation/summary.json``. It exits 1 if any
survivor is not named there.

After adding tests, ``--survivors`` reruns only the previous survivors of the named modules;
``--names PATTERN...`` runs only the mutants whose names match (fnmatch).
Inspect one survivor with
``cd build/mutation/<module> && ../../../.venv/bin/python -m mutmut show NAME``.
A rerun of the same module resumes from mutmut's cache unless ``--fresh`` is given.
"""

from __future__ import annotations

import argparse
import ast
import copy
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: repository folder -> the package it installs as (setup.cfg's package_dir): the checker lives
#: in theory/ but is imported as ngc_ref_theory.
PACKAGES = {"ngc_ref": "ngc_ref", "theory": "ngc_ref_theory"}

#: pytest arguments that leave out tests/test_paper_md.py's two-interpreter test.
_NOT_SAME_BYTES = ["-k", "not the_same_inputs_give_the_same_bytes"]

#: module -> its own fast test files. A library module is named by its path under ngc_ref/
#: ("normalize"), a checker module by its path from the repository root ("theory/kit/stats").
#: tests/test_gpu.py runs the GPU branches on every machine (through the CuPy stand-in of
#: tests/_fake_cupy.py), so the modules with CuPy branches run it too.
MODULES = {
    "normalize": ["tests/test_normalize.py", "tests/test_normalize_weights.py",
                  "tests/test_gpu.py"],
    # tests/test_order.py: robust_propagate's reorder= (its values checked, the RCM order's
    # numbers against the dense reference).
    "robust": ["tests/test_robust.py", "tests/test_gpu.py", "tests/test_order.py"],
    "_spmm": ["tests/test_spmm.py", "tests/test_speed_paths.py", "tests/test_neumann.py"],
    "connectivity": ["tests/test_connectivity.py", "tests/test_gpu.py"],
    # robust_propagate runs on NeumannFilter (its _columns check and, on the CPU too, the
    # per-dtype operator of _operator_for): its tests reach those methods.
    "neumann": ["tests/test_neumann.py", "tests/test_robust.py", "tests/test_gpu.py"],
    "noise": ["tests/test_noise.py"],
    "training/least_squares": ["tests/test_training_least_squares.py"],
    "solve": ["tests/test_solve.py", "tests/test_solve_api.py", "tests/test_gpu.py"],
    # The rest of the library (issue 34, item 2).
    # tests/test_api.py: the renamed keywords' deprecation (init_gcn_params' rng=,
    # match_frobenius' norm=) is tested there, with the other renamed keywords.
    "training/gcn": ["tests/test_training_gcn.py", "tests/test_training_gradients.py",
                     "tests/test_training_norms.py", "tests/test_api.py"],
    "training/propagations": ["tests/test_training_propagations.py",
                              "tests/test_training_gradients.py",
                              "tests/test_training_norms.py"],
    "training/estimators": ["tests/test_training_estimators.py",
                            "tests/test_training_norms.py"],
    "training/controls": ["tests/test_training_experiment.py", "tests/test_api.py"],
    "training/experiment": ["tests/test_training_experiment.py", "tests/test_training_norms.py",
                        "tests/test_paper_hyperparams.py"],
    # The input checks: their own tests, the memory guard's refusals (check_dense_size's and
    # check_array's messages, tests/test_memory.py), the device branches through the CuPy
    # stand-in (gpu= of the guards, tests/test_gpu.py) and the renamed keywords
    # (renamed_keyword, tests/test_api.py); each file runs in under 2 s.
    "_validation": ["tests/test_inputs.py", "tests/test_normalize.py",
                    "tests/test_normalize_weights.py", "tests/test_memory.py",
                    "tests/test_gpu.py", "tests/test_api.py"],
    "graphs/__init__": ["tests/test_graphs.py", "tests/test_user_families.py"],
    "graphs/_build": ["tests/test_graphs.py", "tests/test_user_families.py"],
    "graphs/_registry": ["tests/test_graphs.py", "tests/test_user_families.py"],
    "graphs/deterministic": ["tests/test_graphs.py"],
    "graphs/stochastic": ["tests/test_graphs.py"],
    "datasets/__init__": ["tests/test_datasets.py", "tests/test_data_fetch.py"],
    "datasets/_checksums": ["tests/test_datasets.py", "tests/test_data_fetch.py"],
    "datasets/_dataset": ["tests/test_datasets.py"],
    "datasets/_fetch": ["tests/test_data_fetch.py"],
    "datasets/_geomgcn": ["tests/test_datasets.py"],
    "datasets/_karate": ["tests/test_datasets.py"],
    "datasets/_names": ["tests/test_datasets.py"],
    "datasets/_npz": ["tests/test_datasets.py"],
    "datasets/_planetoid": ["tests/test_datasets.py"],
    "datasets/_root": ["tests/test_datasets.py", "tests/test_data_fetch.py"],
    # The library's warning classes (the scikit-learn subclass made on first use).
    "exceptions": ["tests/test_api.py", "tests/test_solve_api.py"],
    # The locality order: every operator's reorder= tests, and its device branches.
    "_order": ["tests/test_order.py", "tests/test_gpu.py"],
    # The checker (theory/, imported as ngc_ref_theory).
    "theory/kit/text": ["tests/test_summary_text.py", "tests/test_text.py"],
    "theory/kit/stats": ["tests/test_stats.py", "tests/test_interval_verdicts.py",
                         "tests/test_summary_text.py"],
    "theory/kit/evidence": ["tests/test_common.py", "tests/test_claim_kit.py",
                            "tests/test_report_findings.py"],
    "theory/paper/bounds": ["tests/test_bounds.py"],
    # The claim kit: Statement, results, the registry, the one worst-verdict combiner.
    "theory/kit/claim": ["tests/test_claim_kit.py", "tests/test_common.py", "tests/test_scopes.py",
                         "tests/test_extension_points.py", "tests/test_report_findings.py"],
    # paper.md's byte-for-byte test renders in two fresh interpreters (7 s a mutant): left
    # out for time; a mutant only it would kill shows up as a survivor to look at.
    "theory/output/report": ["tests/test_report_render.py", "tests/test_report_findings.py",
                             "tests/test_paper_md.py", *_NOT_SAME_BYTES],
    "theory/output/paper_md": ["tests/test_annotated.py", "tests/test_paper_md.py",
                               *_NOT_SAME_BYTES],
    "theory/reproduce/judge": ["tests/test_reproduce_judge.py", "tests/test_stats.py",
                               "tests/test_reproduce.py"],
    "theory/reproduce/verdicts": ["tests/test_reproduce_verdicts.py", "tests/test_reproduce.py"],
    "theory/reproduce/tables": ["tests/test_reproduce_report.py", "tests/test_reproduce.py"],
    # The exact side: the atlas search, exact fractions, chi-square certificates, proof chains.
    "theory/exact/atlas": ["tests/test_atlas_units.py", "tests/test_atlas.py",
                           "tests/test_claim_lemma_1_front.py", "tests/test_claim_remark_1.py",
                           "tests/test_claim_tau_headline.py"],
    "theory/exact/certificates": ["tests/test_atlas.py", "tests/test_chisq.py",
                                  "tests/test_claim_lemma_1_front.py",
                                  "tests/test_claim_ngc_framework.py",
                                  "tests/test_claim_remark_1.py",
                                  "tests/test_claim_rngc_convergence_small.py",
                                  "tests/test_summary_text.py", "tests/test_exact_certificates.py",
                                  "tests/test_exact_helpers.py"],
    "theory/exact/chisq": ["tests/test_chisq.py", "tests/test_claim_lemma_1_front.py"],
    # The proof chains are run by the claims that import them (row-sums, neumann-identity,
    # lemma-1, rngc-convergence's small cases, theorem-1's readings): their tests too.
    "theory/exact/proofs": ["tests/test_proof_steps.py", "tests/test_atlas.py",
                            "tests/test_claim_theorem_1.py",
                            "tests/test_judges_neumann_identity.py",
                            "tests/test_judges_row_sums.py",
                            "tests/test_judges_rngc_convergence.py",
                            "tests/test_claim_rngc_convergence_small.py",
                            "tests/test_claim_lemma_1_exact.py"],
    "theory/sweep/summary": ["tests/test_sweep_summary.py", "tests/test_interval_verdicts.py",
                             "tests/test_sweep_theorem1.py", "tests/test_user_families.py"],
}

#: Code left unmutated, per module: a regular expression matching the first line of each
#: compound statement to skip whole (a function, an ``if`` with its block) -> why. Only
#: figure drawing: the tests check that a figure is written and named, not what it draws, so
#: its mutants (colours, sizes, labels, axis scales) would all survive without saying anything
#: about the numbers. mutmut's own do_not_mutate_patterns skips only the expressions that
#: start on a matching line (3.8.1: a matching ``def`` line left its body mutated, 546 mutants
#: of sweep/summary's plots), so :func:`skip_blocks` marks each statement in the work copy with
#: mutmut's ``# pragma: no mutate block`` on its header line instead.
NOT_MUTATED = {
    "theory/sweep/summary": {
        r"^def (_facet_plot|_plot_lemma1|_plot_theorem1|_plot_label|_scale|_save)\(":
            "figure drawing (matplotlib calls, colours, sizes, labels)",
        r"^    if plot_path is not None:": "each summary's figure branch",
    },
    "theory/reproduce/tables": {
        r"^def (figures|_present|_noise_figure|_depth_figure|_accuracy_axes)\(":
            "figure drawing (matplotlib calls, colours, sizes, labels)",
    },
    "theory/exact/atlas": {
        r"^def draw_graph\(": "figure drawing (networkx/matplotlib calls, colours, sizes, labels)",
    },
}

def skip_blocks(source, patterns):
    """``source`` with ``  # pragma: no mutate block`` ending the header line (the line of the
    colon) of every compound statement whose first line matches one of ``patterns``: mutmut
    then skips the statement and its whole block. The number of statements marked, too (a
    pattern matching nothing is a stale table entry: the caller refuses it)."""
    lines = source.splitlines(keepends=True)
    compiled = [re.compile(p) for p in patterns]
    marked = {p: 0 for p in patterns}
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list) or not body or not hasattr(node, "lineno"):
            continue
        first = lines[node.lineno - 1]
        hits = [c.pattern for c in compiled if c.search(first.rstrip("\n"))]
        if not hits:
            continue
        # The header ends on the last line before the block whose code ends with ":".
        header = next(i for i in range(body[0].lineno - 2, node.lineno - 2, -1)
                      if lines[i].split("#", 1)[0].rstrip().endswith(":"))
        code = lines[header].rstrip("\n")
        lines[header] = code + "  # pragma: no mutate block" + lines[header][len(code):]
        for h in hits:
            marked[h] += 1
    return "".join(lines), marked


#: mutmut through this interpreter: a venv that sees a system-wide mutmut has no script of its
#: own next to its python.
_MUTMUT = [sys.executable, "-m", "mutmut"]

#: Survivors shown equivalent by hand, with the reason: mutant name -> reason.
EQUIVALENT_FILE = ROOT / "tools" / "mutation_equivalent.toml"

#: "<import path>:<function>" -> fingerprint of that function's code when its named survivors
#: were last reviewed. mutmut numbers a function's mutants from its code alone, so a name keeps
#: meaning the same mutant exactly as long as its function is unchanged; after an edit it may
#: fall on another one (when horner began to read X in place, the name given for a thread
#: count fell on ``H -= X``, the name for ``mode=`` on a dropped buffer). A named survivor
#: whose function changed since counts as a survivor until its reason is checked against the
#: mutant again and ``--relock`` records the new code.
LOCK_FILE = ROOT / "tools" / "mutation_equivalent.lock.json"

_NAME = re.compile(r"^(?P<path>.+?)\.x(?:ǁ(?P<cls>\w+)ǁ(?P<meth>\w+)|_(?P<func>\w+))"
                   r"__mutmut_\d+$")


def function_key(name):
    """The function a mutant is in: ``"ngc_ref._order:Ordering.take"`` for
    ``ngc_ref._order.xǁOrderingǁtake__mutmut_3``, ``"ngc_ref._spmm:horner"`` for
    ``ngc_ref._spmm.x_horner__mutmut_52``; None if the name is not mutmut's."""
    m = _NAME.match(name)
    if m is None:
        return None
    func = m["func"] if m["func"] is not None else f"{m['cls']}.{m['meth']}"
    return f"{m['path']}:{func}"


def fingerprint(source, qualname):
    """A hash of the function ``qualname`` ("f" or "Class.method") in the module ``source``:
    its code without its docstring (comments and layout never reach the AST), or None if the
    module has no such function."""
    return _fingerprint(ast.parse(source), qualname)


def _fingerprint(tree, qualname):
    """:func:`fingerprint` in a parsed module ``tree`` (left unchanged: it may be cached)."""
    scope = tree.body
    node = None
    for part in qualname.split("."):
        node = next((n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                            ast.ClassDef)) and n.name == part),
                    None)
        if node is None:
            return None
        scope = node.body
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        node = copy.copy(node)          # the docstring dropped from a copy, not the tree
        node.body = body[1:] or [ast.Pass()]
    return hashlib.sha1(ast.unparse(node).encode()).hexdigest()[:16]


def _module_path(import_path):
    """The repository file of an import path (``ngc_ref_theory.x`` lives in ``theory/x.py``)."""
    package, _, rest = import_path.partition(".")
    folder = {v: k for k, v in PACKAGES.items()}[package]
    base = ROOT / folder / Path(*rest.split(".")) if rest else ROOT / folder
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"


@functools.lru_cache(maxsize=None)
def _module_tree(file):
    """The parsed module at ``file`` (None if there is none): parsed once per run, since every
    named survivor of a module asks for one of its functions."""
    return ast.parse(file.read_text(encoding="utf-8")) if file.is_file() else None


def current_fingerprint(key):
    """:func:`fingerprint` of a :func:`function_key` in today's repository."""
    path, func = key.split(":")
    tree = _module_tree(_module_path(path))
    return None if tree is None else _fingerprint(tree, func)


def stale_names(named, lock):
    """The named survivors whose function's code differs from the one recorded in ``lock``."""
    return [n for n in named
            if lock.get(function_key(n)) is None
            or lock[function_key(n)] != current_fingerprint(function_key(n))]


def _source(module):
    """(repository folder, import package, file path in the work copy) of a MODULES key:
    "normalize" -> ("ngc_ref", "ngc_ref", "ngc_ref/normalize.py"), "theory/kit/stats" ->
    ("theory", "ngc_ref_theory", "ngc_ref_theory/kit/stats.py")."""
    folder, sep, rest = module.partition("/")
    if not (sep and folder in PACKAGES and folder != "ngc_ref"):
        folder, rest = "ngc_ref", module
    return folder, PACKAGES[folder], f"{PACKAGES[folder]}/{rest}.py"


def _workdir(module, fresh):
    """build/mutation/<module>/ with the sources, the tests and a per-module [mutmut] config."""
    folder, package, target = _source(module)
    work = ROOT / "build" / "mutation" / module.replace("/", ".")
    if fresh and work.exists():
        shutil.rmtree(work)    # statuses.json too
    work.mkdir(parents=True, exist_ok=True)
    copies = [("ngc_ref", "ngc_ref"), ("tests", "tests")]
    if package != "ngc_ref":
        # The mutated copy under the import name (mutants/ngc_ref_theory shadows the editable
        # install), and the folder itself under its own name for the tests that read its
        # files by path (tests/test_layers.py); copied into mutants/ unmutated (also_copy).
        copies += [(folder, package), (folder, folder)]
    for src, dest in copies:
        shutil.copytree(ROOT / src, work / dest, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    # Pages some tests read (a claim table checked against docs/checker.md).
    shutil.copytree(ROOT / "docs", work / "docs", dirs_exist_ok=True)
    shutil.copy2(ROOT / "pyproject.toml", work / "pyproject.toml")
    cfg = (ROOT / "setup.cfg").read_text(encoding="utf-8")
    if "[mutmut]" not in cfg:
        cfg += "\n[mutmut]\n"
    # Appended keys land in the [mutmut] section only if it is the last section.
    assert cfg.rstrip().rsplit("\n[", 1)[-1].startswith("mutmut]"), \
        "keep [mutmut] the last section of setup.cfg"
    tests = "\n    ".join(MODULES[module])
    extra = ""
    if package != "ngc_ref":
        # configparser refuses a repeated key: widen the shared source_paths in place.
        assert cfg.count("\nsource_paths = ngc_ref\n") == 1, \
            "setup.cfg's [mutmut] source_paths changed: update tools/mutation.py"
        cfg = cfg.replace("\nsource_paths = ngc_ref\n",
                          f"\nsource_paths =\n    ngc_ref\n    {package}\n")
        extra = f"also_copy =\n    {folder}\n    docs\n"
    else:
        extra = "also_copy =\n    docs\n"
    if module in NOT_MUTATED:
        copy = work / target
        text, marked = skip_blocks(copy.read_text(encoding="utf-8"), NOT_MUTATED[module])
        stale = [p for p, k in marked.items() if k == 0]
        if stale:
            raise SystemExit(f"NOT_MUTATED[{module!r}]: no statement matches {stale}")
        copy.write_text(text, encoding="utf-8")
    cfg = (cfg.rstrip() + f"\nonly_mutate = {target}\n"
           f"pytest_add_cli_args_test_selection =\n    {tests}\n" + extra)
    (work / "setup.cfg").write_text(cfg, encoding="utf-8")
    return work


def _run(module, fresh, timeout, names=()):
    work = _workdir(module, fresh)
    cmd = ["nice", "-n", "10", *_MUTMUT, "run", "--max-children", "1", *names]
    print(f"== {module}: {' '.join(MODULES[module])}", flush=True)
    with open(work / "mutmut.log", "w", encoding="utf-8") as log:
        try:
            proc = subprocess.run(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=timeout,
                                  env={**os.environ, "HYPOTHESIS_PROFILE": "ci"})
        except subprocess.TimeoutExpired:
            # Keep what was checked; the rest shows as "not checked" (a rerun resumes).
            print(f"   stopped after {timeout:.0f} s", flush=True)
            return work
    if proc.returncode != 0:
        tail = (work / "mutmut.log").read_text(encoding="utf-8")[-3000:]
        raise SystemExit(f"mutmut failed on {module} (exit {proc.returncode}):\n{tail}")
    return work


def _statuses(work):
    """{mutant name: status} from ``mutmut results --all true``."""
    out = subprocess.run([*_MUTMUT, "results", "--all", "true"], cwd=work,
                         capture_output=True, text=True, check=True).stdout
    status = {}
    for line in out.splitlines():
        name, sep, state = line.strip().rpartition(": ")
        if sep and name.startswith(tuple(f"{p}." for p in PACKAGES.values())):
            status[name] = state.strip()
    return status


def _merged_statuses(work):
    """This run's statuses, with "not checked" filled in from the previous run's (a run of
    named survivors leaves the others unchecked; tests were only added since, so what was
    killed stays killed). Saved as statuses.json for the next run."""
    status = _statuses(work)
    saved = work / "statuses.json"
    if saved.exists():
        old = json.loads(saved.read_text(encoding="utf-8"))
        status = {n: old.get(n, s) if s == "not checked" else s for n, s in status.items()}
    saved.write_text(json.dumps(status, indent=0), encoding="utf-8")
    return status


def summarize(module, work, equivalent, lock=None):
    """The module's row: mutants, killed, named (``equivalent``: survivors with a reason whose
    function is unchanged since it was recorded in ``lock``), survivors (the rest, a stale
    name among them marked ``"named for older code"``), not run."""
    status = _merged_statuses(work)
    # A mutant the tests stop by mutmut's time limit (an endless loop) or that crashes the
    # interpreter is detected too.
    detected = {"killed", "timeout", "segfault"}
    survivors = sorted(n for n, s in status.items() if s not in detected | {"not checked"})
    named = [n for n in survivors if n in equivalent]
    stale = set(stale_names(named, {} if lock is None else lock))
    named = [n for n in named if n not in stale]
    open_ = [n for n in survivors if n not in named]
    row = dict(module=module, mutants=len(status),
               killed=sum(s in detected for s in status.values()),
               timeouts=sum(s == "timeout" for s in status.values()),
               equivalent=len(named), survivors=len(open_),
               not_run=sum(s == "not checked" for s in status.values()),
               survivor_names={n: "named for older code" if n in stale else status[n]
                               for n in open_})
    return row


def relock(lock, names):
    """``lock`` with today's fingerprint of the function of every mutant in ``names``."""
    out = dict(lock)
    for name in names:
        key = function_key(name)
        if key is not None and current_fingerprint(key) is not None:
            out[key] = current_fingerprint(key)
    return dict(sorted(out.items()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"default: all of {', '.join(MODULES)}")
    parser.add_argument("--list", action="store_true", help="print the modules and tests")
    parser.add_argument("--fresh", action="store_true", help="discard mutmut's cache first")
    parser.add_argument("--timeout", type=float, default=3600.0,
                        help="seconds allowed per module (default 3600)")
    parser.add_argument("--survivors", action="store_true",
                        help="rerun only the previous run's survivors (after adding tests)")
    parser.add_argument("--names", nargs="+", metavar="PATTERN",
                        help="run only the mutants matching these fnmatch patterns (e.g. "
                             "'ngc_ref.connectivity.x__row_square_sums__mutmut_*'); the others "
                             "keep their previous status or count as not run")
    parser.add_argument("--summary-only", action="store_true",
                        help="only summarise the runs already in build/mutation/")
    parser.add_argument("--relock", action="store_true",
                        help="after checking each named survivor's reason against its mutant "
                             "(mutmut show NAME), record its function's code as reviewed")
    args = parser.parse_args(argv)
    if args.list:
        for module, tests in MODULES.items():
            folder, _, target = _source(module)
            print(f"{folder}/{target.split('/', 1)[1]}: {' '.join(tests)}")
            for pattern, why in NOT_MUTATED.get(module, {}).items():
                print(f"    not mutated: {pattern} ({why})")
        return 0
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        parser.error(f"unknown module(s) {unknown}; choose from {list(MODULES)}")
    equivalent = tomllib.loads(EQUIVALENT_FILE.read_text(encoding="utf-8")) \
        if EQUIVALENT_FILE.exists() else {}
    lock = json.loads(LOCK_FILE.read_text(encoding="utf-8")) if LOCK_FILE.exists() else {}
    rows = []
    for module in args.modules or list(MODULES):
        work = ROOT / "build" / "mutation" / module.replace("/", ".")
        if not args.summary_only:
            names = tuple(args.names or ())
            if args.survivors:
                names = [n for n, s in _merged_statuses(work).items()
                         if s not in ("killed", "timeout", "segfault") and n not in equivalent]
                if not names:
                    print(f"== {module}: no survivors to rerun")
            if names or not args.survivors:
                work = _run(module, args.fresh, args.timeout, names)
        if args.relock:
            lock = relock(lock, [n for n in _merged_statuses(work) if n in equivalent])
            LOCK_FILE.write_text(json.dumps(lock, indent=0) + "\n", encoding="utf-8")
        row = summarize(module, work, equivalent, lock)
        rows.append(row)
        print(f"   mutants {row['mutants']}, killed {row['killed']} ({row['timeouts']} by "
              f"timeout), equivalent {row['equivalent']}, survivors {row['survivors']}, not run "
              f"{row['not_run']}", flush=True)
        for name, state in row["survivor_names"].items():
            print(f"     {state}: {name}")
        if "named for older code" in row["survivor_names"].values():
            print("   'named for older code': the function changed since its named survivors "
                  "were reviewed, so a name may now fall on another mutant: compare each "
                  "reason with `mutmut show NAME`, fix the toml, then rerun with --relock")
    out = ROOT / "build" / "mutation" / "summary.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 1 if any(r["survivors"] or r["not_run"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
