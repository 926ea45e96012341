"""A user's own graph family: the one registry (ngc_ref.graphs), ``check --family``, sweep
configs with expressions of n, ``sweep --dry-run`` and the τ estimator chosen by the cost model.

The user's families live in ``tests/_user_families.py`` and are named as a user would name
them: ``tests._user_families:ring_plus_chord``.
"""

import json
import math
import re
import sys

import networkx as nx
import numpy as np
import pytest

from ngc_ref import graphs
from ngc_ref.graphs import _registry, family_info, make_graph, register_family, resolve_family
from ngc_ref_theory import cli
from ngc_ref_theory.kit.graphs import (check_family, default_families, family_graph,
                                       is_deterministic, is_transitive)
from ngc_ref_theory.sweep import make_cell, parse_config, run_sweep
from ngc_ref_theory.sweep.expressions import evaluate
from ngc_ref_theory.sweep.summary import summarize, tau_verdicts

MINE = "tests._user_families:ring_plus_chord"


@pytest.fixture(autouse=True)
def fresh_registry():
    """Each test leaves the registry and the loaded user files as it found them: what it
    registers is dropped after it, so every test runs the registration and loading code
    itself (and mutmut, which forks its mutant runs from a process that ran the whole file
    once, sees that code run under each mutant instead of finding every spec registered)."""
    families = dict(_registry._FAMILIES)
    modules = set(sys.modules)
    path = list(sys.path)
    yield
    _registry._FAMILIES.clear()
    _registry._FAMILIES.update(families)
    for name in set(sys.modules) - modules:
        if name.startswith("ngc_ref_user_family_"):
            del sys.modules[name]
    sys.path[:] = path


def same_graph(A, B):
    return (A.shape == B.shape and np.array_equal(A.indptr, B.indptr)
            and np.array_equal(A.indices, B.indices) and np.array_equal(A.data, B.data))


# ------------------------------------------------------------------------------ the registry

def _old_checker_builders():
    """The checker's builders as theory/kit/graphs.py defined them before the one registry."""
    def sbm(n, s):
        size = n // 4
        return graphs.sbm(size * 4, 4, min(1.0, 6.0 / size), 2.0 / (3 * size), seed=s)[0]
    return {
        "ring": lambda n, s: graphs.ring(n), "path": lambda n, s: graphs.path(n),
        "grid_2d": lambda n, s: graphs.grid(round(math.sqrt(n)), round(math.sqrt(n))),
        "complete": lambda n, s: graphs.complete(n), "star": lambda n, s: graphs.star(n),
        "er_avgdeg_3": lambda n, s: graphs.erdos_renyi(n, 3.0 / (n - 1), seed=s),
        "er_avgdeg_2logn": lambda n, s: graphs.erdos_renyi(
            n, min(1.0, 2.0 * math.log(n) / (n - 1)), seed=s),
        "random_regular_4": lambda n, s: graphs.random_regular(n + (n % 2), 4, seed=s),
        "barabasi_albert_3": lambda n, s: graphs.barabasi_albert(n, 3, seed=s),
        "sbm_4_blocks_deg8": sbm}


#: The checker's default families in report order, as theory/kit/graphs.py listed them by name
#: before each family declared it (tag "checker_order"): the reference of the declarations.
CHECKER_DEFAULTS = ("ring", "path", "grid_2d", "complete", "star", "er_avgdeg_3",
                    "er_avgdeg_2logn", "random_regular_4", "barabasi_albert_3",
                    "sbm_4_blocks_deg8")


def test_the_checkers_default_families_are_those_tagged_in_the_tags_order():
    assert default_families() == CHECKER_DEFAULTS


@pytest.mark.parametrize("family", CHECKER_DEFAULTS)
def test_checker_families_are_the_registrys_and_build_the_same_graphs(family):
    old = _old_checker_builders()[family]
    for n, seed in ((101, 7), (200, 12345)):
        assert same_graph(family_graph(family, n, seed), old(n, seed)), (family, n)


def test_declared_properties_of_the_builtins():
    assert family_info("ring").vertex_transitive and family_info("torus").vertex_transitive
    assert not family_info("path").vertex_transitive
    assert family_info("star").hub and family_info("er_avgdeg_3").isolated_nodes
    assert family_info("er_avgdeg_2logn").degree(1000) == pytest.approx(2 * math.log(1000))
    assert not family_info("random_regular_4").exact_n
    assert is_transitive("complete") and not is_transitive(MINE)
    assert not is_transitive("er-avgdeg-3") and not is_deterministic("rr-blocks")   # unknown


@pytest.mark.parametrize("family", [f for f in graphs.graph_families()
                                    if f in graphs.GRAPH_FAMILIES or f in CHECKER_DEFAULTS
                                    or f == "torus"])
def test_deterministic_is_declared_exactly_where_the_seed_does_not_change_the_graph(family):
    """Measured: two seeds give the same graph exactly when the family declares it
    deterministic (n = 64 with the parametrised families' parameters below)."""
    params = {"erdos_renyi": {"p": 0.1}, "sbm": {"k": 2, "p_in": 0.3, "p_out": 0.05},
              "barabasi_albert": {"m": 2}, "random_regular": {"d": 3}}.get(family, {})
    A, B = (make_graph(family, 64, seed, **params) for seed in (1, 2))
    assert same_graph(A, B) == family_info(family).deterministic == is_deterministic(family)


def test_register_family_builds_networkx_and_refuses_bad_input():
    fam = register_family("ladder_test", lambda n, seed: nx.ladder_graph(n // 2),
                          avg_degree=3.0, replace=True)
    A = make_graph("ladder_test", 10, seed=3)
    assert A.shape == (10, 10) and A.dtype == np.float64 and not A.diagonal().any()
    assert fam.metadata()["parameters"] == [] and fam.degree(10) == 3.0
    with pytest.raises(ValueError, match="already registered"):
        register_family("ladder_test", lambda n, seed: nx.ladder_graph(n // 2))
    with pytest.raises(ValueError, match="built in"):
        register_family("ring", lambda n, seed: nx.cycle_graph(n), replace=True)
    with pytest.raises(ValueError, match="name must be"):
        register_family("Bad Name", lambda n, seed: nx.cycle_graph(n))
    with pytest.raises(ValueError, match="must take \\(n, seed\\)"):
        register_family("one_arg", lambda n: nx.cycle_graph(n))
    with pytest.raises(TypeError, match="vertex_transitive must be True or False"):
        register_family("flag", lambda n, s: nx.cycle_graph(n), vertex_transitive="yes")


def test_a_user_builder_gets_an_int_seed_and_the_same_seed_gives_the_same_graph():
    A = make_graph(MINE, 30, seed=4)
    assert same_graph(A, make_graph(MINE, 30, seed=4))
    assert not same_graph(A, make_graph(MINE, 30, seed=5))
    assert A.nnz // 2 == 31      # the ring's 30 edges and one chord (never a ring edge twice)


@pytest.mark.parametrize("spec, msg", [
    ("nosuchmod:f", "cannot import module 'nosuchmod'"),
    ("tests._user_families:nope", "has no attribute 'nope'"),
    ("tests._user_families:not_square", "shape \\(16, 17\\).*expected a square adjacency"),
    ("tests._user_families:wrong_signature", "must take \\(n, seed\\)"),
    ("no_such_family", "unknown family 'no_such_family'"),
])
def test_bad_family_specs_are_refused_naming_the_option(spec, msg):
    with pytest.raises(ValueError, match=f"--family.*{msg}"):
        check_family(spec, "--family")


def test_resolve_family_registers_the_spec_once():
    assert resolve_family(MINE) is resolve_family(MINE)
    assert MINE in graphs.graph_families()
    assert resolve_family(MINE).degree(100) == 2.0     # from ring_plus_chord.graph_family


def test_a_family_in_a_file_is_found_from_any_folder(tmp_path, monkeypatch):
    """``path/to/file.py:function``: the docs' example works outside the repository root."""
    from pathlib import Path
    here = Path(__file__).resolve().parent / "_user_families.py"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    spec = f"{here}:ring_plus_chord"
    info = resolve_family(spec, option="--family")
    assert info.name == spec and same_graph(make_graph(spec, 12, 3),
                                            make_graph(MINE, 12, 3))
    (elsewhere / "mine.py").write_text("import networkx as nx\n"
                                       "def cycle(n, seed):\n    return nx.cycle_graph(n)\n")
    assert make_graph(check_family("mine.py:cycle"), 8, 0).nnz == 16
    with pytest.raises(ValueError, match=r"--family 'nofile\.py:f': no such file"):
        check_family("nofile.py:f")


def _cycle(n, seed):
    return nx.cycle_graph(n)


def test_a_registered_familys_record_metadata_and_degree():
    """register_family's defaults and each declared property, as the record and its
    metadata() show them; degree(n) reads avg_degree (None, a number or a callable of n)."""
    plain = register_family("plain_family", _cycle)
    assert family_info("plain_family") is plain
    assert (plain.required, plain.optional, plain.int_seed) == ((), (), True)
    assert plain.degree(10) is None
    def shown(family, expected):
        meta = family.metadata()
        return {key: meta[key] for key in expected}

    expected = {"name": "plain_family", "parameters": [], "vertex_transitive": False,
                "isolated_nodes": False, "hub": False, "local": False, "exact_n": True,
                "description": ""}
    assert shown(plain, expected) == expected
    flags = dict(vertex_transitive=True, isolated_nodes=True, hub=True, local=True,
                 exact_n=False, description="every flag set")
    every = register_family("flagged_family", _cycle, avg_degree=lambda n: n / 2, **flags)
    expected = {"name": "flagged_family", "parameters": [], **flags}
    assert shown(every, expected) == expected
    assert every.degree(10) == 5.0 and isinstance(every.degree(10), float)
    # avg_degree 0 (no edges) is a valid declaration; a number gives a float.
    assert register_family("edgeless_family", _cycle, avg_degree=0).degree(7) == 0.0


def test_tags_deterministic_and_build_cost_are_declared_and_checked():
    """as_tags: a mapping sorted by name, names each True, None nothing; tag() reads one;
    deterministic and build_seconds_per_node declared like the flags, checked and named."""
    assert _registry.as_tags({"b": 2, "a": 1}) == (("a", 1), ("b", 2))
    assert _registry.as_tags(["small", "fast"]) == (("fast", True), ("small", True))
    assert _registry.as_tags(None) == ()
    for bad, msg in (("small", "tags must be a mapping of names to values or an iterable of "
                               "names, got the str 'small'"),
                     ({"": 1}, "tags: a tag's name must be a non-empty str, got ''"),
                     ([3], "tags: a tag's name must be a non-empty str, got 3")):
        with pytest.raises(TypeError, match=f"^{re.escape(msg)}$"):
            register_family("tagged", _cycle, tags=bad)
    with pytest.raises(TypeError, match="^labels: a tag's name"):
        _registry.as_tags({None: 1}, "labels")
    fam = register_family("tagged", _cycle, tags={"size": "small"}, deterministic=True,
                          build_seconds_per_node=1e-4)
    assert fam.tag("size") == "small" and fam.tag("colour") is None
    assert fam.tag("colour", "red") == "red"
    meta = fam.metadata()
    assert (meta["tags"], meta["deterministic"], meta["build_seconds_per_node"]) == (
        {"size": "small"}, True, 1e-4)
    plain = register_family("untagged", _cycle).metadata()
    assert (plain["tags"], plain["deterministic"], plain["build_seconds_per_node"]) == (
        {}, False, None)
    free = register_family("free_build", _cycle, build_seconds_per_node=0)
    assert free.build_seconds_per_node == 0
    with pytest.raises(TypeError, match="^deterministic must be True or False, got 'yes'$"):
        register_family("refused", _cycle, deterministic="yes")
    for bad in (-1e-9, float("inf"), float("nan"), True, "1"):
        with pytest.raises(ValueError, match=re.escape(
                f"build_seconds_per_node must be a finite number >= 0 or None, got {bad!r}")):
            register_family("refused", _cycle, build_seconds_per_node=bad)


def test_family_table_lists_the_families_as_rst():
    """make_graph's table: name, parameters (optional ones marked), the description; the
    columns two wider than their longest cell (the grid's note: 59 characters), the user's
    row last."""
    expected = [
        "==========  ============================  " + "=" * 61,
        "family      parameters                    notes",
        "==========  ============================  " + "=" * 61,
        "``grid``    ``cols`` (optional)           rows = n / cols; default the most square "
        "factorisation of n",
        "``sbm``     ``k``, ``p_in``, ``p_out``    labels dropped; use sbm()",
        "``path``    --",
        "your own    --                            :func:`register_family`, or "
        "``\"package.module:function\"``",
        "==========  ============================  " + "=" * 61,
    ]
    table = _registry.family_table(["grid", "sbm", "path"], indent=2)
    assert table.split("\n") == ["  " + line for line in expected]
    # make_graph's docstring holds the built-ins' table at its body's indentation (4, the
    # default).
    builtins = [f for f in graphs.graph_families() if f in _registry.BUILTIN]
    assert "\n" + _registry.family_table(builtins) + "\n" in make_graph.__doc__
    assert "\n    ====" in make_graph.__doc__ and "\n     ====" not in make_graph.__doc__


def test_log_degree_is_factor_times_log_n():
    from ngc_ref_theory.kit.graphs import _log_degree
    for n in (2, 3, 1000):
        assert _log_degree(2.5)(n) == pytest.approx(2.5 * math.log(n), rel=1e-15)
    assert family_info("er_avgdeg_2logn").degree(3) == pytest.approx(2 * math.log(3))


#: The checker's own n-scaled families (issue 36: they live with the checker, which registers
#: them in the library's registry on import), in registration order, with their declarations.
CHECKER_OWN = {
    "grid_2d": dict(deterministic=True, local=True, exact_n=False, order=30),
    "torus": dict(vertex_transitive=True, deterministic=True, local=True, exact_n=False,
                  order=None),
    "er_avgdeg_3": dict(isolated_nodes=True, order=60),
    "er_avgdeg_2logn": dict(order=70),
    "random_regular_4": dict(exact_n=False, order=80),
    "barabasi_albert_3": dict(order=90),
    "sbm_4_blocks_deg8": dict(exact_n=False, order=100),
}


def test_the_checker_registers_its_own_families_and_the_library_holds_none_of_them():
    """In a registry holding only the library's built-ins (as in a process that never imports
    the checker), the checker's registration adds exactly its own families, in order, with
    their declarations, none of them built in; run twice, it changes nothing."""
    from ngc_ref_theory.kit.graphs import register_checker_families
    assert not set(CHECKER_OWN) & _registry.BUILTIN
    library = {k: v for k, v in _registry._FAMILIES.items() if k in _registry.BUILTIN}
    _registry._FAMILIES.clear()
    _registry._FAMILIES.update(library)
    assert not set(CHECKER_OWN) & set(graphs.graph_families())
    register_checker_families()
    register_checker_families()
    assert graphs.graph_families() == (*library, *CHECKER_OWN)
    for name, want in CHECKER_OWN.items():
        info = family_info(name)
        assert info.tag("checker_order") == want.get("order"), name
        for flag in ("vertex_transitive", "deterministic", "isolated_nodes", "local"):
            assert getattr(info, flag) == want.get(flag, False), (name, flag)
        assert info.exact_n == want.get("exact_n", True), name
        assert not info.hub and info.required == () and info.optional == (), name
    assert default_families() == CHECKER_DEFAULTS


class _OneArg:
    """A callable without a __name__ that takes one argument only."""

    def __call__(self, n):
        return nx.cycle_graph(n)

    def __repr__(self):
        return "OneArg()"


@pytest.mark.parametrize("kwargs, exc, msg", [
    ({"builder": 5}, TypeError, "builder must be a callable (n, seed) -> adjacency, got int"),
    ({"vertex_transitive": "yes"}, TypeError, "vertex_transitive must be True or False, got 'yes'"),
    ({"isolated_nodes": 1}, TypeError, "isolated_nodes must be True or False, got 1"),
    ({"hub": None}, TypeError, "hub must be True or False, got None"),
    ({"local": "no"}, TypeError, "local must be True or False, got 'no'"),
    ({"exact_n": 0}, TypeError, "exact_n must be True or False, got 0"),
    ({"avg_degree": -1.0}, ValueError,
     "avg_degree must be a number >= 0, a callable of n or None, got -1.0"),
    ({"avg_degree": "3"}, ValueError,
     "avg_degree must be a number >= 0, a callable of n or None, got '3'"),
    ({"builder": _OneArg()}, ValueError,
     "family 'refused': the builder must take (n, seed), got OneArg()(n)"),
])
def test_register_family_refuses_bad_declarations_naming_them(kwargs, exc, msg):
    kwargs = {"builder": _cycle, **kwargs}
    with pytest.raises(exc, match=f"^{re.escape(msg)}$"):
        register_family("refused", **kwargs)
    assert "refused" not in graphs.graph_families()


def test_a_wrong_signature_is_named_by_the_functions_name():
    def one_arg(n):
        return nx.cycle_graph(n)
    with pytest.raises(ValueError, match=re.escape(
            "family 'one_arg_family': the builder must take (n, seed), got 'one_arg'(n)")):
        register_family("one_arg_family", one_arg)


def test_a_taken_name_is_refused_unless_replaced():
    """The registry's one insertion point (the built-in table uses it without replace=)."""
    msg = "graph family 'ring' is already registered (pass replace=True to replace it)"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        _registry._add(family_info("ring"))
    register_family("taken_family", _cycle)
    with pytest.raises(ValueError, match=re.escape(msg.replace("'ring'", "'taken_family'"))):
        register_family("taken_family", _cycle)
    assert register_family("taken_family", _cycle, hub=True, replace=True).hub


def test_resolve_family_messages_name_the_option_and_list_the_registered():
    with pytest.raises(TypeError, match="^family must be a family name or "
                                        "'package.module:function', got int 3$"):
        resolve_family(3)
    listed = ", ".join(sorted(graphs.graph_families()))
    msg = (f"family: unknown family 'no_such_family'; registered: {listed}; or give your own "
           "as 'package.module:function' or 'path/to/file.py:function' with "
           "function(n, seed) -> adjacency")
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        resolve_family("no_such_family")
    # make_graph's messages name its argument, family.
    with pytest.raises(ValueError, match=r"^family 'nosuchmod_zz:f': cannot import module "
                       r"'nosuchmod_zz' \(.*\); is it on the Python path \(PYTHONPATH, or "
                       r"installed\)\?$"):
        make_graph("nosuchmod_zz:f", 5)


def test_a_user_builder_gets_the_int_seed_given_or_one_drawn_from_the_generator():
    seen = []
    register_family("seed_probe", lambda n, seed: (seen.append(seed), nx.cycle_graph(n))[1])
    make_graph("seed_probe", 5, seed=7)
    make_graph("seed_probe", 5, seed=np.int64(8))
    make_graph("seed_probe", 5, seed=np.random.default_rng(3))
    make_graph("seed_probe", 5)
    assert seen[:3] == [7, 8, int(np.random.default_rng(3).integers(2**31))]
    assert all(type(s) is int for s in seen) and 0 <= seen[3] < 2**31


@pytest.mark.parametrize("graph, n, msg", [
    (np.zeros((4, 5)), 4, "family 'probe': the builder returned a ndarray of shape (4, 5) "
                          "for n=4; expected a square adjacency"),
    (np.array([[0.0, 1.0], [0.0, 0.0]]), 2,
     "family 'probe': the builder's graph for n=2 is not an adjacency: family 'probe''s "
     "graph is not symmetric"),
    (np.zeros((0, 0)), 3, "family 'probe': the builder returned an empty graph for n=3"),
    (nx.cycle_graph(7), 6, "family 'probe': the builder returned 7 nodes for n=6; register "
                           "it with exact_n=False if it rounds n"),
])
def test_a_user_builders_bad_graph_is_refused_naming_the_family(graph, n, msg):
    register_family("probe", lambda n, seed: graph)
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}"):
        make_graph("probe", n)


def test_a_user_builders_graph_becomes_a_float64_csr_of_its_size():
    register_family("float32_probe", lambda n, seed: np.float32(1) - np.eye(n, dtype=np.float32))
    A = make_graph("float32_probe", 3)
    assert A.dtype == np.float64 and same_graph(A, graphs.complete(3))
    register_family("one_node", lambda n, seed: nx.empty_graph(1), exact_n=False)
    assert make_graph("one_node", 5).shape == (1, 1)
    register_family("rounding", lambda n, seed: nx.cycle_graph(n + 1), exact_n=False)
    assert same_graph(make_graph("rounding", 6), graphs.ring(7))


def test_a_file_is_loaded_once_per_path_and_a_failing_one_is_named(tmp_path, monkeypatch):
    (tmp_path / "fams.py").write_text("import networkx as nx\nLOADS = []\nLOADS.append(1)\n"
                                      "def a(n, seed):\n    return nx.cycle_graph(n)\n"
                                      "def b(n, seed):\n    return nx.path_graph(n)\n")
    (tmp_path / "other.py").write_text("import networkx as nx\n"
                                       "def c(n, seed):\n    return nx.star_graph(n - 1)\n")
    (tmp_path / "bad.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.chdir(tmp_path)
    fa = resolve_family(f"{tmp_path / 'fams.py'}:a").builder
    fb = resolve_family("fams.py:b").builder          # relative: the same file, not reloaded
    assert fa.__globals__ is fb.__globals__ and fa.__globals__["LOADS"] == [1]
    assert same_graph(make_graph("fams.py:b", 4), graphs.path(4))
    assert same_graph(make_graph("other.py:c", 5), graphs.star(5))
    with pytest.raises(ValueError, match=re.escape(
            "family 'bad.py:f': loading 'bad.py' failed: RuntimeError: boom")):
        resolve_family("bad.py:f")
    # A function's declared properties (its graph_family dict) are checked like
    # register_family's keywords, and named with the spec.
    (tmp_path / "decl.py").write_text("def listed(n, seed):\n    pass\nlisted.graph_family = [1]\n"
                                      "def hub(n, seed):\n    pass\n"
                                      "hub.graph_family = {'hub': 'yes'}\n")
    with pytest.raises(ValueError, match=re.escape(
            "family 'decl.py:listed': listed.graph_family must be a dict of register_family's "
            "keywords, got list")):
        resolve_family("decl.py:listed")
    with pytest.raises(ValueError, match=re.escape(
            "family 'decl.py:hub': hub must be True or False, got 'yes'")):
        resolve_family("decl.py:hub")


def test_a_module_in_the_current_folder_is_imported_from_there(tmp_path, monkeypatch):
    """A console script does not put the current folder on the path; resolve_family adds it
    (as ``python -m`` would) when the module is not found otherwise."""
    name = "ngc_ref_test_module_in_cwd"
    (tmp_path / f"{name}.py").write_text("import networkx as nx\n"
                                         "def cyc(n, seed):\n    return nx.cycle_graph(n)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    try:
        assert same_graph(make_graph(f"{name}:cyc", 6), graphs.ring(6))
        assert sys.path[-1] == str(tmp_path)
    finally:
        sys.modules.pop(name, None)


# ------------------------------------------------------------------------------ check --family

def test_check_family_runs_assumption_2_on_the_users_family(tmp_path, capsys):
    out = tmp_path / "rep"
    code = cli.main(["check", "--only", "assumption-2", "--family", MINE, "--out", str(out),
                     "--no-progress"])
    assert code == 0
    rep = json.loads((out / "report.json").read_text())
    assert rep["meta"]["families"] == [MINE]
    grown = [r for r in rep["results"] if r["id"] == "assumption-2-corrected"]
    assert len(grown) == 2
    for r in grown:
        fam = r["evidence"]["families"]
        assert list(fam) == [MINE]                     # instead of the built-in families
        lo, hi = fam[MINE]["loglog_slope_ci95"]
        assert lo <= fam[MINE]["loglog_slope_tau_over_n"] <= hi < -0.1
        assert r["verdict"] == "holds"
        assert f"{MINE}: holds, slope " in r["summary"]
    fixed = [r for r in rep["results"] if r["id"] == "assumption-2"]
    assert all(r["verdict"] == "fails" and MINE in r["summary"] for r in fixed)


def test_check_family_outside_the_hypotheses_is_not_a_holds(tmp_path):
    out = tmp_path / "rep"
    assert cli.main(["check", "--only", "assumption-2-corrected", "--family",
                     "tests._user_families:hub_and_ring", "--out", str(out),
                     "--no-progress"]) == 0
    rep = json.loads((out / "report.json").read_text())
    for r in rep["results"]:
        assert r["verdict"] == "inconclusive"    # nothing judged: no "holds" by default
        assert "outside the hypotheses" in r["summary"]


@pytest.mark.parametrize("argv, msg", [
    (["--family", "nosuchmod:f"], "--family 'nosuchmod:f': cannot import"),
    (["--family", "tests._user_families:not_square"], "expected a square adjacency"),
    (["--family", MINE, "--thorough"], "--family applies to default runs"),
])
def test_check_family_bad_spec_exits_2(tmp_path, capsys, argv, msg):
    out = tmp_path / "rep"
    assert cli.main(["check", "--only", "assumption-2", "--out", str(out), *argv]) == 2
    err = capsys.readouterr().err
    assert msg in err and err.startswith("ngc-ref: error:")
    assert not out.exists()


#: Which statements run on --family's families (read from each check: the families it builds
#: its series on come from checker_families / hyp_list), written out independently.
FAMILY_STATEMENTS = {
    "assumption-2", "assumption-2-corrected", "assumption-2:o-n", "noise-vanishing",
    "noise-vanishing-corrected:sqrt-n", "noise-vanishing-corrected:total", "lemma-1",
    "lemma-1-corrected:max-entry", "lemma-1-corrected:frobenius", "theorem-1:sum",
    "theorem-1:mean",
    "theorem-1"}   # the whole claim (--only theorem-1 runs its λ = √n half too)


def test_the_statements_that_take_families_are_declared():
    from ngc_ref_theory.kit.claim import statement_ids
    found = {sid for sid, c in statement_ids().items() if c.uses_families(sid)}
    assert found == FAMILY_STATEMENTS


def test_family_refused_when_no_selected_statement_takes_one(tmp_path, capsys):
    out = tmp_path / "rep"
    assert cli.main(["check", "--only", "gsd-trace", "lemma-1:t", "--family", MINE,
                     "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "none of the selected statements runs on graph families" in err
    assert "assumption-2, lemma-1, noise-vanishing, theorem-1" in err
    assert not out.exists()


def test_family_named_at_the_start_and_only_in_its_statements_reruns(tmp_path, capsys):
    from ngc_ref_theory.kit.claim import Context, rerun_command, statement_ids
    ctx = Context(seed=1, families=(MINE,))
    for sid in statement_ids():
        assert ("--family" in rerun_command(sid, ctx)) is (sid in FAMILY_STATEMENTS), sid
    out = tmp_path / "rep"
    assert cli.main(["check", "--only", "gsd-trace", "assumption-2-corrected", "--family", MINE,
                     "--out", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert (f"--family {MINE} replaces the graph families of assumption-2-corrected; the other "
            "2 statements run as without it") in err
    rep = json.loads((out / "report.json").read_text())
    gsd = [r for r in rep["results"] if r["counterexample"]]
    assert gsd and all("--family" not in r["counterexample"]["rerun"] for r in gsd)
    assert "--family" not in rep["meta"]["rerun"] and rep["meta"]["families"] == [MINE]


# ------------------------------------------------------------------------------ expressions

def test_expressions_evaluate_arithmetic_of_n_only():
    assert evaluate("ceil(log(n))", 1000) == 7
    assert evaluate("min(1, 3*log(n)/n)", 2) == 1
    assert evaluate("-n // 3 + 2**3", 9) == 5
    for bad in ("__import__('os')", "n.real", "(1).__class__", "n.bit_length()", "[n][0]",
                "lambda: n", "m * 2", "open('x')", "n if n else 1", "log(n, base=2)"):
        with pytest.raises(ValueError, match="not allowed|only the calls"):
            evaluate(bad, 10, "p")
    with pytest.raises(ValueError, match="exponent"):
        evaluate("n ** 1000", 10)
    with pytest.raises(ValueError, match="division by zero"):
        evaluate("1 / (n - 10)", 10)


def test_expression_parameters_in_a_sweep_config():
    cfg = {"task": "tau", "params": {"lam": "sqrt(n)", "S": "ceil(2*sqrt(n))"},
           "grid": {"family": ["random_regular"], "n": [64, 256],
                    "graph_params": [{"d": "2*ceil(log(n)/2)"}]}}
    cells = parse_config(cfg).cells
    assert [c.params["graph_params"]["d"] for c in cells] == [6, 6]
    assert [c.params["S"] for c in cells] == [16, 32]
    assert cells[1].params["lam"] == pytest.approx(16.0)
    assert cells[0].params["exprs"] == {"S": "ceil(2*sqrt(n))", "graph_params.d":
                                        "2*ceil(log(n)/2)", "lam": "sqrt(n)"}
    # A cell without expressions keeps the id it always had (no 'exprs' key).
    plain = make_cell("tau", {"family": "ring", "n": 40, "lam": 4.0, "S": 8})
    assert "exprs" not in plain.params
    with pytest.raises(ValueError, match="S = 'sqrt\\(n\\)' at n=64 gives 8.0; S is an integer"
                       "|S = 'sqrt\\(n\\)' at n=65"):
        parse_config({"task": "tau", "params": {"S": "sqrt(n)"},
                      "grid": {"family": ["ring"], "n": [65]}})
    with pytest.raises(ValueError, match="graph_params.p.*__import__"):
        parse_config({"task": "tau", "grid": {"family": ["erdos_renyi"], "n": [10],
                                              "graph_params": [{"p": "__import__('os')"}]}})


def test_sweep_with_a_user_family_and_an_expression_draws_one_line_each(tmp_path, capsys):
    cfg = tmp_path / "mine.toml"
    cfg.write_text(
        'task = "tau"\n[params]\nschedule = "sqrt_n"\n'
        f'[[grid]]\nfamily = ["{MINE}"]\nn = [50, 100, 200, 400]\n'
        '[[grid]]\nfamily = ["erdos_renyi"]\ngraph_params = {p = "min(1, 3*log(n)/n)"}\n'
        'n = [50, 100, 200, 400]\n')
    out = tmp_path / "mine.jsonl"
    assert cli.main(["sweep", str(cfg), "--out", str(out), "-j", "1", "--no-progress"]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(recs) == 8 and all(r["result"]["method"] != "estimate" for r in recs)
    er = [r for r in recs if r["params"]["family"] == "erdos_renyi"]
    assert er[-1]["params"]["graph_params"]["p"] == pytest.approx(3 * math.log(400) / 400)
    verdicts = tau_verdicts(recs)
    assert len(verdicts) == 2                        # one series per family / expression
    by = {label: (v, slope, ci) for label, v, slope, ci, _ in verdicts}
    mine = next(k for k in by if MINE in k)
    v, slope, (lo, hi) = by[mine]
    assert v == "holds" and lo <= slope <= hi < -0.1
    assert any("p=min(1, 3*log(n)/n)" in k for k in by)
    text, figs = summarize(out, tmp_path)
    assert "verdict per series" in text and len(figs) == 1
    assert cli.main(["sweep", "--summary", str(out), "--no-plots"]) == 0
    assert f"family={MINE}" in capsys.readouterr().out


def test_sweep_dry_run_prints_the_cost_estimate_and_runs_nothing(tmp_path, capsys):
    cfg = tmp_path / "big.json"
    cfg.write_text(json.dumps({"task": "tau", "params": {"schedule": "sqrt_n"},
                               "grid": {"family": ["er_avgdeg_2logn", "ring"],
                                        "n": [1000, 8000]}}))
    out = tmp_path / "big.jsonl"
    assert cli.main(["sweep", str(cfg), "--out", str(out), "--dry-run", "-j", "2"]) == 0
    text = capsys.readouterr().out
    assert "tau × 4: " in text and "n=1000,8000" in text
    # exact τ at n = 8000, λ = √n, S = 179 costs minutes: the estimator is chosen there only.
    assert "τ estimated (bracket) in 1 of 4 tau cells" in text
    assert "er_avgdeg_2logn n=8000, S=179" in text
    assert text.rstrip().splitlines()[-1].startswith("total: 4 cells (0 finished), ~")
    assert not out.exists()


def test_tau_task_picks_the_estimator_over_the_budget_and_brackets_the_exact_tau():
    p = {"family": "er_avgdeg_2logn", "n": 300, "lam": 8.0, "S": 12, "graph_seed": 3}
    exact, est = run_sweep([("tau", p), ("tau", dict(p, exact_max_seconds=0.0))], n_jobs=1)
    assert exact["result"]["method"] == "exact" and est["result"]["method"] == "estimate"
    assert est["result"]["exact_seconds_estimate"] > 0
    lo, hi = est["result"]["tau_lower"], est["result"]["tau_upper"]
    assert lo * (1 - 1e-12) <= exact["result"]["tau"] <= hi * (1 + 1e-12)


def test_theorem_1_in_hypotheses_half_runs_on_the_users_family(monkeypatch):
    from ngc_ref_theory import Context
    from ngc_ref_theory.claims.theorem_1 import inside, readings
    monkeypatch.setattr(inside, "hyp_design",
                        lambda ctx: ((200, 283, 400, 566, 800), (2,) * 5, 3, 6, 100))
    ctx = Context(seed=0, families=(MINE,))
    fams = inside.hyp_results(ctx, "rw")
    assert list(fams) == [MINE] and fams[MINE]["judged"] and "registry" in fams[MINE]["words"]
    res = readings.reading_result(ctx, "rw", fams, "mean", [])
    assert [f["family"] for f in res.evidence["families"]] == [MINE]
    assert list(res.evidence["searched"]["families"]) == [MINE]
    assert fams[MINE]["inside"]           # no isolated node, no hub, ‖W‖ bounded
    assert MINE in res.summary and res.evidence["verdicts"][MINE] == res.verdict


# ---------------------------------------------------------------------- one task per quantity

def test_one_lemma1_task_with_the_former_trials_task_as_an_alias():
    from ngc_ref import connectivity_factor
    p = {"family": "complete", "n": 30, "d": 2, "trials": 40}
    both = make_cell("lemma1", dict(p, draws=True))
    alias = make_cell("lemma1_trials", p)
    assert alias.task == "lemma1" and alias.params["bounds"] is False and alias.params["draws"]
    rec, draws_only = (r["result"] for r in run_sweep([both, alias], n_jobs=1))
    assert "exceed_paper" not in draws_only and len(draws_only["fro2"]) == 40
    # The counts are the draws above the bounds (six-digit draws: away from the bound).
    fro2 = np.array(rec["fro2"])
    assert rec["exceed_paper"] == int((fro2 > rec["paper_bound"]).sum())
    # K_n's τ in closed form is the τ of the built graph.
    tau = connectivity_factor(graphs.complete(30), 32.0, 16, norm="rw").tau
    assert rec["tau"] == pytest.approx(tau, rel=1e-10)


def test_a_builders_self_loops_are_dropped():
    """Ã = A + I adds the self-loops, so a user builder's stored ones are removed (else they
    would count twice); the rest of the graph is kept. (Seen failing with the removal skipped;
    written for SciPy 1.10, which has no diags_array.)"""
    from types import SimpleNamespace

    import numpy as np
    import scipy.sparse as sp

    from ngc_ref.graphs._registry import user_graph
    A = sp.csr_array(np.array([[1.0, 1, 0], [1, 0, 1], [0, 1, 2]]))
    out = user_graph(SimpleNamespace(name="looped", exact_n=True), A, 3)
    assert not out.diagonal().any()
    assert np.array_equal(out.toarray(), [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
