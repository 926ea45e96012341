"""A new claim, graph family and sweep task is one module each (ARCHITECTURE.md, "Where things
go"): everything the checker, the cost model, the report and the docs read of it is declared
where it is registered.

The three toy modules below are written into a temporary folder and found as the project finds
its own: the claim module in a folder added to ``ngc_ref_theory.claims.__path__`` (the
registry's discovery imports it), the task module in one added to
``ngc_ref_theory.sweep.__path__`` (``load_task_modules``), the family as a user's
``module:function`` on ``sys.path``. Nothing else is edited; the registries are restored after.
Then ``ngc-ref check --only``, ``check --dry-run`` (default and thorough), ``ngc-ref sweep``
(run, ``--dry-run``, ``--summary``), the normalisation rule's check and the docs table see them.
"""

import importlib
import json
import math
import sys
import textwrap
from pathlib import Path

import pytest

import ngc_ref_theory.claims as claims_pkg
import ngc_ref_theory.sweep as sweep_pkg
from ngc_ref.graphs import _registry as family_registry
from ngc_ref_theory import cli
from ngc_ref_theory.kit import claim as _core
from ngc_ref_theory.kit.graphs import default_families, is_deterministic, is_transitive
from ngc_ref_theory.paper.words import rule_problems
from ngc_ref_theory.output.report import claim_table, with_claim_table

# the module (the package's ``tasks`` is the function listing them)
task_registry = importlib.import_module("ngc_ref_theory.sweep.tasks")

ROOT = Path(__file__).resolve().parents[1]

FAMILY = "toy_ext_family:toy_ring"
FAMILY_MODULE = '''
import networkx as nx


def toy_ring(n, seed):
    """A ring: the same graph for every seed."""
    return nx.cycle_graph(n)


toy_ring.graph_family = {"vertex_transitive": True, "deterministic": True, "avg_degree": 2.0,
                         "build_seconds_per_node": 0.25, "tags": {"checker_order": 15}}
'''

CLAIM_MODULE = '''
"""A toy claim: the rows of Ã_S sum to 1 − r^{S+1} (rw), on the run's families."""
import numpy as np

from ngc_ref import NeumannFilter, series_mass

from ..kit.claim import claim
from ..kit.graphs import checker_families, family_graph, is_deterministic, is_transitive
from ..paper.words import THEORY_RW_SCOPES

ID = "toy-claim"
CLAIM = claim(ID, "Eq. 6", "the rows of Ã_S sum to 1 − r^{S+1} in rw", norms=("rw",),
              order=41, families=True, **THEORY_RW_SCOPES, rule="theory",
              seconds=(42.0, 420.0), doc="toy: the row sums of Ã_S on the run's families")


@CLAIM.checker
def check(ctx, norm):
    rows = []
    for fam in checker_families(ctx):
        A = family_graph(fam, 12, 0)
        sums = NeumannFilter(A, 2.0, 3, norm=norm) @ np.ones(A.shape[0])
        rows.append({"family": fam, "transitive": is_transitive(fam),
                     "deterministic": is_deterministic(fam),
                     "error": float(np.abs(sums - series_mass(2.0, 3)).max())})
    ok = all(r["error"] < 1e-12 for r in rows)
    return CLAIM.result(norm, "holds" if ok else "inconclusive", {"rows": rows}, "toy")
'''

TASK_MODULE = '''
"""A toy task: the edge count of a family's graph at n, with its cost model and summary."""
from .cost import build_seconds
from .tasks import GRAPH_PARAMS, Param, _check_family, _graph_seed, register_task
from ..kit.graphs import family_graph


def toy_seconds(params):
    return 3.0 + build_seconds(params["family"], params["n"])


def toy_summary(records, plot_path):
    return "toy edges: " + ", ".join(str(r["result"]["edges"]) for r in records), []


@register_task("toy_edges", {**GRAPH_PARAMS, "scale": Param(int, 1, min=1)},
               validate=_check_family, cost=toy_seconds, summary=toy_summary)
def toy_edges(params, seeds):
    A = family_graph(params["family"], params["n"], _graph_seed(params, seeds))
    return {"edges": int(A.nnz // 2) * params["scale"]}
'''


@pytest.fixture
def toys(tmp_path, monkeypatch):
    """The three toy modules found as the project finds its own; registries restored after."""
    for folder, name, text in (("claims_ext", "toy_claim.py", CLAIM_MODULE),
                               ("sweep_ext", "toy_task.py", TASK_MODULE),
                               ("path", "toy_ext_family.py", FAMILY_MODULE)):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    _core.registry()                       # the project's own claims, before the snapshot
    saved = [(reg, dict(reg)) for reg in (_core._REGISTRY, task_registry._TASKS,
                                          family_registry._FAMILIES)]
    monkeypatch.setattr(claims_pkg, "__path__", [*claims_pkg.__path__, str(tmp_path /
                                                                           "claims_ext")])
    monkeypatch.setattr(sweep_pkg, "__path__", [*sweep_pkg.__path__, str(tmp_path / "sweep_ext")])
    monkeypatch.syspath_prepend(str(tmp_path / "path"))
    sweep_pkg.load_task_modules()          # what importing the sweep package does
    yield tmp_path
    for reg, before in saved:
        reg.clear()
        reg.update(before)
    for mod in ("ngc_ref_theory.claims.toy_claim", "ngc_ref_theory.sweep.toy_task",
                "toy_ext_family"):
        sys.modules.pop(mod, None)


def test_a_toy_claim_family_and_task_run_through_check_sweep_and_the_docs(toys, capsys):
    out = toys / "report"
    # check --only: the claim is discovered, runs on the toy family, reads its declarations
    assert cli.main(["check", "--only", "toy-claim", "--family", FAMILY, "--out", str(out),
                     "--no-progress"]) == 0
    (res,) = json.loads((out / "report.json").read_text(encoding="utf-8"))["results"]
    assert (res["id"], res["norm"], res["verdict"], res["scope"]) == (
        "toy-claim", "rw", "holds", "as-stated")
    assert res["evidence"]["rows"] == [{"family": FAMILY, "transitive": True,
                                        "deterministic": True, "error": pytest.approx(0.0)}]
    capsys.readouterr()
    # --dry-run: the claim's declared seconds are its check cell's cost, default and thorough
    assert cli.main(["check", "--only", "toy-claim", "--dry-run"]) == 0
    assert "toy-claim: 1 cell, ~42 s on one core" in capsys.readouterr().out
    assert cli.main(["check", "--only", "toy-claim", "--thorough", "--dry-run", "-j", "1"]) == 0
    assert "toy-claim: 1 cell, ~7.0 min on one core" in capsys.readouterr().out

    # the family: registered by its spec with what it declares; the checker reads it
    assert is_transitive(FAMILY) and is_deterministic(FAMILY)
    assert default_families()[:2] == ("ring", FAMILY)          # checker_order 15: after ring

    # sweep: the discovered task runs on the toy family; its cost model and summary are used
    config = toys / "toy.toml"
    config.write_text(f'task = "toy_edges"\n[params]\nfamily = "{FAMILY}"\n[grid]\n'
                      'n = [10, 20]\nscale = [1, 3]\n', encoding="utf-8")
    store = toys / "toy.jsonl"
    assert cli.main(["sweep", str(config), "--out", str(store), "--dry-run", "-j", "1"]) == 0
    # 4 cells of 3 s + 0.25 s per node (the family's build_seconds_per_node), n = 10, 10,
    # 20, 20: 12 + 15 = 27 s
    assert "total: 4 cells (0 finished), ~27 s of compute" in capsys.readouterr().out
    assert cli.main(["sweep", str(config), "--out", str(store), "-j", "1",
                     "--no-progress"]) == 0
    capsys.readouterr()
    assert cli.main(["sweep", "--summary", str(store), "--no-plots"]) == 0
    assert "toy edges: 10, 30, 20, 60" in capsys.readouterr().out

    # the normalisation rule's check and the docs table read the declaration
    toy = _core.registry()["toy-claim"]
    assert rule_problems(toy) == []
    page = (ROOT / "docs" / "checker.md").read_text(encoding="utf-8")
    table = claim_table()
    row = "| `toy-claim` | Eq. 6 | toy: the row sums of Ã_S on the run's families |"
    assert table[table.index(row) - 1].startswith("| `row-sum` |")     # order 41: after 40
    new = with_claim_table(page)
    assert [ln for ln in new.split("\n") if ln not in page.split("\n")] == [row]


def test_the_docs_claim_table_is_the_registrys():
    """docs/checker.md's claim table is written from the declarations (tools/claim_table.py):
    a declaration changed without rewriting the page fails here."""
    page = (ROOT / "docs" / "checker.md").read_text(encoding="utf-8")
    assert with_claim_table(page) == page, "run python tools/claim_table.py"
    assert len(claim_table()) == 2 + len(_core.registry())


def test_the_task_and_claim_declarations_are_checked():
    with pytest.raises(ValueError, match="seconds must be"):
        _core.Claim("x", "Eq. 6", "...", seconds=(1.0,))
    with pytest.raises(ValueError, match="seconds must be"):
        _core.Claim("x", "Eq. 6", "...", seconds=(1.0, math.inf))
    with pytest.raises(TypeError, match="rule must be a str"):
        _core.Claim("x", "Eq. 6", "...", rule=3)
    with pytest.raises(TypeError, match="cost must be callable"):
        task_registry.register_task("nope", {}, cost=3.0)
    assert rule_problems(_core.Claim("x", "Eq. 6", "...", rule="nope"))[0].startswith(
        "x: rule 'nope' is not a kind")
