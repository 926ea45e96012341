"""``ngc-ref check --thorough`` on its tiny profile (``--scale 0.01``): the whole pipeline end to
end through the sweep runner (plan → cells in the store → checks judging the records → report),
its plan's cell count, interruption and resume, and the tasks it adds."""

import json
import re

import numpy as np
import pytest

from ngc_ref import connectivity_factor
from ngc_ref.graphs import complete
from ngc_ref_theory import cli
from ngc_ref_theory import check
from ngc_ref_theory.kit.claim import Context, registry
from ngc_ref_theory.sweep.cost import parse_scale, scaled_count, scaled_sizes
from ngc_ref_theory.sweep import make_cell, read_records, run_sweep
from ngc_ref_theory.sweep.theorem1 import hyp_problem, hyp_tau, hyp_tau_bracket
from ngc_ref_theory.sweep.thorough_tasks import CompleteFilter, complete_rho

#: The planned claims (their cells run on the sweep runner) and one claim without a plan (its
#: check runs in one cell per norm).
CLAIMS = ["assumption-2", "lemma-1", "theorem-1", "neumann-identity"]
TINY = ["--thorough", "--scale", "0.01", "--no-progress", "--only", *CLAIMS]


def _check(out, *extra):
    return cli.main(["check", *TINY, "--out", str(out), *extra])


def _timeless(doc):
    """A report without what depends on when and how fast it ran."""
    doc = json.loads(json.dumps(doc))
    for k in ("started", "seconds"):
        doc["meta"].pop(k)
    for r in doc["results"]:
        r.pop("seconds")
    return doc


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("thorough") / "report"
    code = _check(out)
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return code, out, doc


@pytest.mark.slow
def test_tiny_profile_runs_end_to_end(tiny):
    code, out, doc = tiny
    assert code == 0
    assert doc["meta"]["thorough"] is True and doc["meta"]["scale"] == 0.01
    assert {r["claim"] for r in doc["results"]} == set(CLAIMS)
    assert all(r["verdict"] != "error" for r in doc["results"]), [
        r["summary"] for r in doc["results"] if r["verdict"] == "error"]
    for r in doc["results"]:
        for f in r["figures"]:
            assert (out / f).is_file()
    # The same ids and statements as a default run, and each planned result says what it ran.
    ids = {(r["id"], r["norm"]) for r in doc["results"]}
    want = {(sid, n) for c in CLAIMS for sid in registry()[c].statements
            for n in registry()[c].norms}
    # theorem-1's own statement has no result of its own (its parts do), as in a default run.
    assert ids == {(sid, n) for sid, n in want if sid != "theorem-1"}
    by = {(r["id"], r["norm"]): r for r in doc["results"]}
    sizes = by[("assumption-2", "rw")]["evidence"]["thorough"]["sizes_per_family"]
    assert sizes["ring"]["sqrt_n"] == [16, 32, 100, 300, 1000]       # 100 … 10⁵ × 0.01
    assert by[("lemma-1", "rw")]["evidence"]["thorough"]["cases"]
    assert by[("theorem-1:sum", "rw")]["evidence"]["searched"]["design_per_family"]
    # The store stays beside the report (hidden), one record per cell.
    recs = read_records(out / ".thorough" / "store.jsonl")
    assert len(recs) == len({r["id"] for r in recs})
    assert {r["task"] for r in recs} == {"tau", "lemma1", "theorem1", "check"}


@pytest.mark.slow
def test_plan_cell_count_equals_cells_run(tiny, capsys):
    _, out, _ = tiny
    assert _check(out, "--dry-run") == 0
    text = capsys.readouterr().out
    total = int(re.search(r"^total: (\d+) cells \((\d+) finished\)", text, re.M).group(1))
    done = int(re.search(r"^total: \d+ cells \((\d+) finished\)", text, re.M).group(1))
    recs = read_records(out / ".thorough" / "store.jsonl")
    assert total == done == len(recs)
    per_claim = dict(re.findall(r"^([a-z0-9-]+): (\d+) cells", text, re.M))
    assert per_claim.pop("total") == str(total)
    assert per_claim["neumann-identity"] == "2"          # one check cell per norm
    assert sum(map(int, per_claim.values())) == total


def test_dry_run_creates_nothing(tmp_path, capsys):
    out = tmp_path / "never"
    assert _check(out, "--dry-run") == 0
    assert not out.exists()
    assert "~" in capsys.readouterr().out


@pytest.mark.slow
def test_rerun_runs_nothing_and_gives_the_same_report(tiny, monkeypatch):
    _, out, doc = tiny
    ran = []
    real = check.run_sweep

    def counting(*a, on_record=None, **kw):
        return real(*a, on_record=lambda rec: ran.append(rec["id"]), **kw)

    monkeypatch.setattr(check, "run_sweep", counting)
    assert _check(out) == 0
    assert ran == []
    again = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert _timeless(again) == _timeless(doc)


@pytest.mark.slow
def test_interrupted_and_resumed_report_equals_uninterrupted(tiny, tmp_path, monkeypatch, capsys):
    _, tiny_out, doc = tiny
    total = len(read_records(tiny_out / ".thorough" / "store.jsonl"))
    out = tmp_path / "resumed"
    real = check.run_sweep
    landed = []

    def interrupt_after(k):
        def run(*a, on_record=None, **kw):
            def hook(rec):
                landed.append(rec["id"])
                if len(landed) >= k:
                    raise KeyboardInterrupt
            return real(*a, on_record=hook, **kw)
        return run

    monkeypatch.setattr(check, "run_sweep", interrupt_after(60))
    assert _check(out) == 130
    assert "re-run the same command to resume" in capsys.readouterr().err
    store = out / ".thorough" / "store.jsonl"
    first = [r["id"] for r in read_records(store)]
    # the 60th landing interrupts; cells that finished meanwhile are kept too (never lost)
    assert set(landed[:60]) <= set(first) and len(first) < total
    assert not (out / "report.json").exists()
    landed.clear()
    monkeypatch.setattr(check, "run_sweep", interrupt_after(10**9))
    assert _check(out) == 0
    recs = read_records(store)
    ids = [r["id"] for r in recs]
    assert len(ids) == len(set(ids))                     # no cell ran twice
    assert not set(landed) & set(first)                  # the finished ones were not re-run
    resumed = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert _timeless(resumed) == _timeless(doc)


def test_thorough_options_need_thorough(tmp_path, capsys):
    for extra in (["--scale", "0.5"], ["--scheduler", "tcp://127.0.0.1:1"]):
        assert cli.main(["check", "--only", "neumann-identity", "--out", str(tmp_path / "o"),
                         "--no-progress", *extra]) == 2
        assert "--thorough" in capsys.readouterr().err
    assert cli.main(["check", "--thorough", "--scale", "-1", "--only", "neumann-identity",
                     "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_default_run_on_workers_equals_the_in_process_run(tmp_path, monkeypatch):
    """``check -j 2``: each claim and norm a check cell on a local worker (its default grid,
    no store), the report the same as the one-by-one run's but for the seconds (figures
    byte for byte); a check that raises in a worker is that claim's error result, and the
    run goes on. (Seen failing with the cells' thorough=True, and with a worker's error
    dropped from the results.)"""
    ids = ["gsd-trace", "row-sum", "gsd-closed-form"]      # figures in sym and in rw
    assert cli.main(["check", "--only", *ids, "--out", str(tmp_path / "one"),
                     "--no-progress"]) == 0
    assert cli.main(["check", "--only", *ids, "-j", "2", "--out", str(tmp_path / "two"),
                     "--no-progress"]) == 0
    docs = [json.loads((tmp_path / d / "report.json").read_text(encoding="utf-8"))
            for d in ("one", "two")]
    one, two = ([{k: v for k, v in r.items() if k != "seconds"} for r in d["results"]]
                for d in docs)
    assert one == two and len(one) > 6
    pngs = sorted(p.name for p in (tmp_path / "one").glob("*.png"))
    assert pngs and pngs == sorted(p.name for p in (tmp_path / "two").glob("*.png"))
    for name in pngs:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert not (tmp_path / "two" / ".thorough").exists()
    # a worker's crash: the claim's error result, the other claims' results still there
    real = check.run_sweep

    def crashing(cells, *a, **kw):
        recs = real(cells, *a, **kw)
        return [dict(r, error="RuntimeError: planted", traceback="tb") if i == 0 else r
                for i, r in enumerate(recs)]
    monkeypatch.setattr(check, "run_sweep", crashing)
    results = check.run_checks(
        Context(seed=0, parallel=True, n_jobs=2), only=ids, progress=False)
    errors = [r for r in results if r.verdict == "error"]
    assert len(errors) == 1 and "planted" in errors[0].summary
    assert {r.claim for r in results} == set(ids)


def test_default_run_has_no_store(tmp_path):
    out = tmp_path / "d"
    assert cli.main(["check", "--only", "neumann-identity", "--out", str(out),
                     "--no-progress"]) == 0
    assert not (out / ".thorough").exists()


@pytest.mark.slow
def test_dask_cluster_runs_the_cells(tiny, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    _, _, doc = tiny
    out = tmp_path / "dask"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        code = cli.main(["check", "--thorough", "--scale", "0.01", "--no-progress", "--only",
                         "assumption-2", "--out", str(out), "--scheduler",
                         cluster.scheduler_address])
    assert code == 0
    got = json.loads((out / "report.json").read_text(encoding="utf-8"))
    mine = [r for r in _timeless(doc)["results"] if r["claim"] == "assumption-2"]
    assert _timeless(got)["results"] == mine


# ------------------------------------------------------------------ the pieces

def test_scale_helpers():
    assert scaled_sizes((100, 1000, 100000), 0.01) == (16, 1000)
    assert scaled_sizes((100, 200), 10) == (1000, 2000)
    assert scaled_count(2000, 0.01, minimum=20) == 20 and scaled_count(8, 4) == 8
    assert parse_scale("0.5") == 0.5
    for bad in ("0", "-1", "nan", "inf", "x"):
        with pytest.raises(ValueError, match="--scale"):
            parse_scale(bad)


def test_thorough_plan_counts_are_what_runs():
    ctx = Context(thorough=True, scale=0.01)
    claims = {k: c for k, c in registry().items() if k in CLAIMS}
    plan = check.thorough_plan(ctx, claims)
    assert len(plan["neumann-identity"]["rw"]) == 1
    assert plan["neumann-identity"]["rw"][0].params["thorough"] is False   # default grid < 1
    lines = check.dry_run(ctx, claims)
    total = sum(len({c.id for cs in v.values() for c in cs}) for v in plan.values())
    assert lines[-1].startswith(f"total: {total} cells")


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_the_tau_task_agrees_with_connectivity_factor_and_its_alias(norm):
    """The τ cell (one node on the ring, closed form on K_n) is τ of the built graph; the
    former name tau_large is the same task; the estimator's bracket holds the exact τ."""
    from ngc_ref_theory.paper.bounds import grown_lam_S
    from ngc_ref_theory.kit.graphs import family_graph
    for fam, n in (("ring", 60), ("er_avgdeg_2logn", 80), ("complete", 40)):
        p = {"family": fam, "n": n, "graph_seed": 3, "norm": norm, "schedule": "sqrt_n"}
        cell, alias, est = run_sweep([("tau", p), ("tau_large", p),
                                      ("tau_large", dict(p, exact_max_cost=0.0))], n_jobs=1)
        assert cell["id"] == alias["id"] and alias["task"] == "tau"
        lam, S = grown_lam_S(n)
        direct = connectivity_factor(family_graph(fam, n, 3), lam, S, norm=norm).tau
        assert np.isclose(cell["result"]["tau"], direct, rtol=1e-10)
        lo, hi = est["result"]["tau_lower"], est["result"]["tau_upper"]
        assert lo * (1 - 1e-10) <= direct <= hi * (1 + 1e-10)
        if fam != "ring":   # (the ring's one node is its own bracket either way)
            assert est["result"]["method"] == ("closed-form" if fam == "complete" else "estimate")


def test_complete_graph_closed_forms():
    A = complete(30)
    X = np.random.default_rng(0).standard_normal((30, 5))
    from ngc_ref import NeumannFilter
    for norm in ("sym", "rw"):
        assert np.allclose(NeumannFilter(A, 32.0, 16, norm=norm) @ X,
                           CompleteFilter(30, 32.0, 16) @ X, atol=1e-15)
        res = connectivity_factor(A, 32.0, 16, norm=norm)
        assert np.isclose(res.row_square_sums[0], complete_rho(30, 32.0, 16), rtol=1e-12)


def test_lemma1_trials_are_the_simulation_of_the_check():
    from ngc_ref import NeumannFilter
    from ngc_ref_theory.paper.bounds import simulate
    from ngc_ref_theory.kit.graphs import family_graph
    from ngc_ref_theory.sweep.tasks import CellSeeds
    cell = make_cell("lemma1_trials", {"family": "random_regular_4", "n": 50, "graph_seed": 2,
                                       "d": 3, "noise": "rademacher", "trials": 70})
    rec = run_sweep([cell], n_jobs=1)[0]["result"]
    filt = NeumannFilter(family_graph("random_regular_4", 50, 2), 32.0, 16, norm="rw")
    fro2, max2 = simulate(filt, "rademacher", 1.0, 3, 70,
                          CellSeeds(cell.sweep_seed, cell.seed).rng())
    assert np.allclose(rec["fro2"], fro2, rtol=1e-5) and np.allclose(rec["max2"], max2, rtol=1e-5)


def test_block_tau_bracket_contains_the_exact_tau():
    A, blocks, _, _, transitive = hyp_problem("ba-blocks", 160, 4)
    exact = hyp_tau(A, blocks, transitive, 12.6, 26, "rw")
    br = hyp_tau_bracket(A, blocks, transitive, 12.6, 26, "rw", exact_max_cost=0.0,
                         rng=np.random.default_rng(0))
    assert br["method"] == "estimate per block"
    assert br["tau_lower"] * (1 - 1e-12) <= exact <= br["tau_upper"] * (1 + 1e-12)


def test_the_thorough_time_has_one_source_and_the_cost_model_agrees():
    """check --help, the README and docs/thorough.md quote the measured time
    (_thorough.THOROUGH_MEASURED_MINUTES); the docs' cost-model figure is what --dry-run prints
    for the full run on 2 workers, and the model stays within 15% of the measurement."""
    from pathlib import Path

    from ngc_ref_theory.sweep.cost import THOROUGH_MEASURED_MINUTES as M
    root = Path(__file__).resolve().parents[1]
    helptext = " ".join(cli.build_parser()._subparsers._group_actions[0]
                        .choices["check"].format_help().split())
    assert f"about {M:.0f} min on 2 idle cores (measured;" in helptext
    readme = (root / "README.md").read_text()
    doc = " ".join((root / "docs" / "thorough.md").read_text().split())
    assert f"to n = 10⁵ ({M:.0f} min on 2 cores)" in readme
    assert f"# {M:.0f} min on 2 cores (measured)" in doc and f"**{M} min wall**" in doc
    assert f"reach n = 10⁵ in {M:.0f} min" in doc
    others = {m for m in re.findall(r"(\d+(?:\.\d+)?) min on 2 (?:idle )?cores", readme + doc)}
    assert others <= {f"{M:.0f}", "38"}, others               # 38: reproduce's own time
    ctx = Context(thorough=True, n_jobs=2)
    total = check.dry_run(ctx, registry())[-1]
    cpu, wall = map(float, re.search(r"~([\d.]+) min of compute; ~([\d.]+) min left on 2 ",
                                     total).groups())
    assert f"estimates {wall:.1f} min ({cpu:.1f} CPU-min) on 2 workers" in doc
    assert abs(wall - M) / M < 0.15
