"""theory.sweep: configs, seeding, crash-safe store, resume, joblib and Dask backends, CLI."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ngc_ref_theory import cli
from ngc_ref_theory.sweep import (
                                  Param,
                                  SweepError,
                                  as_cells,
                                  get_task,
                                  load_config,
                                  make_cell,
                                  parse_config,
                                  read_records,
                                  register_task,
                                  run_sweep,
                                  )
from ngc_ref_theory.sweep.store import Store

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------- test tasks (in-process only)

_CALLS = {"n": 0, "interrupt_after": None}


@register_task("test_draw", {"x": Param(int, min=0)}, replace=True)
def _draw(params, seeds):
    """A cheap task whose result depends on the cell seed; can simulate Ctrl-C."""
    _CALLS["n"] += 1
    if _CALLS["interrupt_after"] is not None and _CALLS["n"] > _CALLS["interrupt_after"]:
        raise KeyboardInterrupt
    return {"x2": params["x"] ** 2, "u": float(seeds.rng().random())}


@register_task("test_fail", {"x": Param(int)}, replace=True)
def _fail(params, seeds):
    if params["x"] == 2:
        raise ValueError("planted failure")
    return {"x": params["x"]}


def _by_id(records):
    return {r["id"]: (r["params"], r["result"]) for r in records}


SMALL = {"task": "tau", "seed": 3, "params": {"S": 8},
         "grid": {"family": ["ring", "er_avgdeg_3", "barabasi_albert_3"], "n": [40, 80],
                  "lam": [4, 16.0]}}
LEMMA = {"task": "lemma1", "seed": 1, "reps": 2, "params": {"trials": 20, "d": 4, "S": 6},
         "grid": {"family": ["ring", "er_avgdeg_2logn"], "n": [30, 60]}}


# ---------------------------------------------------------------- config

def test_config_expansion_and_coercion(tmp_path):
    sw = parse_config(SMALL)
    assert len(sw.cells) == 12 and sw.task == "tau" and sw.seed == 3
    # the last grid key varies fastest; lam = 4 (TOML int) is coerced to 4.0
    assert [c.params["lam"] for c in sw.cells[:2]] == [4.0, 16.0]
    assert make_cell("tau", {"family": "ring", "n": 40, "lam": 4, "S": 8}, 3).id == sw.cells[0].id
    assert len({c.id for c in sw.cells}) == 12
    cfg = tmp_path / "c.toml"
    cfg.write_text('task = "lemma1"\nreps = 3\n[params]\ntrials = 5\n'
                   '[[grid]]\nfamily = ["ring"]\nn = [20, 30]\n'
                   '[[grid]]\nfamily = "random_regular"\nn = 20\ngraph_params = [{d = 4}]\n')
    cells = load_config(cfg).cells
    assert len(cells) == 9 and {c.params["rep"] for c in cells} == {0, 1, 2}
    assert cells[-1].params["graph_params"] == {"d": 4}


@pytest.mark.parametrize("cfg, msg", [
    ({"task": "nope"}, "unknown task 'nope'; valid tasks"),
    ({"task": "tau", "grid": {"n": [10]}}, "missing required parameter(s) ['family']"),
    ({"task": "tau", "grid": {"family": ["ring"], "n": [10], "lamda": [1.0]}},
     "unknown parameter(s) ['lamda']"),
    ({"task": "tau", "grid": {"family": ["ring"], "n": [10], "lam": ["x"]}},
     "lam must be a real number"),
    ({"task": "tau", "grid": {"family": ["nope"], "n": [10]}}, "unknown family 'nope'"),
    ({"task": "tau", "grid": {"family": ["random_regular"], "n": [10]}}, "missing ['d']"),
    ({"task": "tau", "grid": {"family": ["ring"], "n": []}}, "grid.n is an empty list"),
    ({"task": "tau", "sed": 1}, "unknown key(s) ['sed']"),
    ({"task": "lemma1", "grid": {"family": ["ring"], "n": [10], "noise": ["cauchy"]}},
     "noise must be one of"),
])
def test_bad_config_cli_exit_2_no_output(tmp_path, capsys, cfg, msg):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(cfg))
    out = tmp_path / "o.jsonl"
    assert cli.main(["sweep", str(path), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1 and err.startswith("ngc-ref: error:")
    assert not out.exists()


def test_unreadable_config_and_unwritable_output(tmp_path, capsys):
    assert cli.main(["sweep", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read config" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("task = ")
    assert cli.main(["sweep", str(bad)]) == 2
    assert "is not valid TOML" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SMALL))
    assert cli.main(["sweep", str(good), "--out", str(tmp_path / "no" / "o.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli.main(["sweep", str(good), "--out", str(tmp_path)]) == 2
    assert "--out must name a .jsonl file" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


# ---------------------------------------------------------------- seeding and backends

def test_results_do_not_depend_on_workers_or_order():
    cells = as_cells(LEMMA) + as_cells(SMALL)
    serial = run_sweep(cells, n_jobs=1)
    assert [r["id"] for r in serial] == [c.id for c in cells]       # cell order
    parallel = run_sweep(cells[::-1], n_jobs=2)
    assert _by_id(serial) == _by_id(parallel)


def test_dask_local_cluster_matches_local(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    cells = as_cells(SMALL)
    local = run_sweep(cells, n_jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        out = tmp_path / "dask.jsonl"
        remote = run_sweep(SMALL, out, scheduler=address)
    assert _by_id(local) == _by_id(remote) == _by_id(read_records(out))


def test_bad_scheduler_address(capsys, tmp_path):
    pytest.importorskip("dask.distributed")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SMALL))
    assert cli.main(["sweep", str(good), "--scheduler", "localhost:8786"]) == 2
    assert "tcp://HOST:PORT" in capsys.readouterr().err


# ---------------------------------------------------------------- store, interrupt, resume

def test_interrupt_and_resume_equals_uninterrupted(tmp_path):
    spec = [("test_draw", {"x": x}) for x in range(10)]
    full = run_sweep(spec, tmp_path / "full.jsonl", n_jobs=1, seed=5)
    out = tmp_path / "resumed.jsonl"
    _CALLS.update(n=0, interrupt_after=4)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_sweep(spec, out, n_jobs=1, seed=5)
    finally:
        _CALLS["interrupt_after"] = None
    assert len(read_records(out)) == 4
    _CALLS["n"] = 0
    resumed = run_sweep(spec, out, n_jobs=1, seed=5)
    assert _CALLS["n"] == 6                           # only the unfinished cells ran
    lines = out.read_text().splitlines()
    assert len(lines) == 10 and len({json.loads(ln)["id"] for ln in lines}) == 10
    assert _by_id(resumed) == _by_id(full) == _by_id(read_records(out))
    _CALLS["n"] = 0
    run_sweep(spec, out, n_jobs=1, seed=5)            # everything done: nothing runs
    assert _CALLS["n"] == 0 and len(out.read_text().splitlines()) == 10


FOUR_CELLS = [("test_draw", {"x": x}) for x in range(4)]


def _four_records(tmp_path):
    """A finished four-cell sweep: (store path, its records)."""
    out = tmp_path / "o.jsonl"
    return out, run_sweep(FOUR_CELLS, out, n_jobs=1)


def test_partial_last_line_is_dropped_and_lock(tmp_path):
    out, full = _four_records(tmp_path)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]) + lines[2][:25])   # a write torn by a crash
    assert len(read_records(out)) == 2
    again = run_sweep(FOUR_CELLS, out, n_jobs=1)
    assert _by_id(again) == _by_id(full)
    assert [json.loads(ln) for ln in out.read_text().splitlines()]   # every line is JSON
    with Store(out), pytest.raises(ValueError, match="locked"):
        Store(out)


def _wait_for_records(proc, out, count, *, seconds, poll=0.1):
    """Until the store ``out`` holds ``count`` records (lines), ``proc`` has ended, or
    ``seconds`` have passed (a hang guard: the caller asserts what it needs)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= count:
            return
        time.sleep(poll)


def test_killed_subprocess_resumes(tmp_path):
    cfg = tmp_path / "t1.toml"
    cfg.write_text('task = "theorem1"\n[params]\nsteps = 2000\n[grid]\nn = [150, 200]\n'
                   'noise_std = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]\n')
    out = tmp_path / "t1.jsonl"
    cmd = [sys.executable, "-m", "ngc_ref_theory.cli", "sweep", str(cfg), "--out", str(out),
           "-j", "1", "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _wait_for_records(proc, out, 2, seconds=30, poll=0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = len(read_records(out))
    assert 2 <= before < 12
    assert subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=False).returncode == 0
    resumed = read_records(out)
    assert len(resumed) == 12 and len({r["id"] for r in resumed}) == 12
    reference = run_sweep(cfg, n_jobs=1)
    assert _by_id(resumed) == _by_id(reference)


def _children(pid):
    """Pids of the processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_workers_exit_when_the_sweep_is_killed(tmp_path):
    cfg = tmp_path / "t1.toml"
    cfg.write_text('task = "theorem1"\n[params]\nsteps = 20000\n[grid]\nn = [400, 500]\n'
                   'noise_std = [0.1, 0.2, 0.3, 0.4]\n')
    cmd = [sys.executable, "-m", "ngc_ref_theory.cli", "sweep", str(cfg), "--out",
           str(tmp_path / "t1.jsonl"), "-j", "2", "--no-progress"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < 2 and proc.poll() is None:
        workers = _children(proc.pid)
        time.sleep(0.1)
    assert workers, "the sweep started no worker processes"
    time.sleep(1.0)                       # the workers are busy with cells now
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # Each worker checks its parent once a second; allow generous slack on a loaded machine
    # (before the fix they lived on for loky's 5-minute idle timeout).
    deadline = time.monotonic() + 30
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [w for w in alive if Path(f"/proc/{w}").exists()
                 and Path(f"/proc/{w}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
    assert not alive, f"workers {alive} outlived the killed sweep"


#: A sweep whose later cells sit in what stands for a long C call (SIGINT ignored: a SciPy
#: product never sees the signal until it returns), on both workers, run as a user runs one
#: (a process group that Ctrl-C signals as a whole).
_SLOW_SWEEP = """
import signal, sys, time
from ngc_ref_theory.sweep import Param, register_task, run_sweep

@register_task("ctrl_c_probe", {"k": Param(int, doc="k")})
def probe(params, seeds):
    if params["k"]:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        time.sleep(600)
    return {"k": params["k"]}

try:
    run_sweep([("ctrl_c_probe", {"k": k}) for k in (0, 1, 2)], sys.argv[1], n_jobs=2)
except KeyboardInterrupt:
    sys.exit(130)
"""


@pytest.mark.slow
def test_ctrl_c_stops_a_sweep_at_once_and_keeps_the_finished_cells(tmp_path):
    """Before: 'interrupted' at once, then the exit waited for the running cell to end (here
    600 s). Now the workers are stopped at once; the finished cell is in the store."""
    script, out = tmp_path / "slow.py", tmp_path / "s.jsonl"
    script.write_text(_SLOW_SWEEP)
    proc = subprocess.Popen([sys.executable, str(script), str(out)], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_records(proc, out, 1, seconds=180)   # worker start-up on a loaded machine
        assert out.exists() and out.read_bytes().count(b"\n") == 1
        time.sleep(2.0)                            # both workers are in their long cells
        os.killpg(proc.pid, signal.SIGINT)         # Ctrl-C in a terminal: the whole group
        try:
            code = proc.wait(timeout=60)           # a hang guard, not a timing (600 s before)
        except subprocess.TimeoutExpired:
            pytest.fail("the interrupted sweep waited for its running cell")
        assert code == 130
        assert [r["params"]["k"] for r in read_records(out)] == [0]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_failed_cells_do_not_stop_the_others(tmp_path):
    out = tmp_path / "o.jsonl"
    with pytest.raises(SweepError, match="1 of 4 cells failed.*planted failure"):
        run_sweep([("test_fail", {"x": x}) for x in range(4)], out, n_jobs=1)
    assert sorted(r["result"]["x"] for r in read_records(out)) == [0, 1, 3]
    recs = run_sweep([("test_fail", {"x": x}) for x in range(4)], out, n_jobs=1,
                     raise_errors=False)
    assert "planted failure" in recs[2]["error"]


# ---------------------------------------------------------------- CLI run + summary

def test_cli_sweep_and_summary_every_task(tmp_path, capsys):
    configs = {
        "tau": {"task": "tau", "grid": {"family": ["ring", "star"], "n": [20, 40],
                                        "schedule": ["fixed", "sqrt_n"]}},
        "lemma1": {"task": "lemma1", "params": {"trials": 10, "d": 2}, "reps": 2,
                   "grid": {"family": ["ring"], "n": [20, 40]}},
        "theorem1": {"task": "theorem1", "params": {"steps": 20, "d": 4},
                     "grid": {"n": [40, 80], "noise_std": [0.0, 0.5]}},
        "node_classification": {"task": "node_classification",
                                "params": {"n": 120, "d": 30},
                                "grid": {"level": [0.0, 0.5], "model": ["ngc", "raw"]}},
    }
    for task, cfg in configs.items():
        path = tmp_path / f"{task}.json"
        path.write_text(json.dumps(cfg))
        out = tmp_path / f"{task}.jsonl"
        assert cli.main(["sweep", str(path), "--out", str(out), "-j", "1", "--no-progress"]) == 0
        assert cli.main(["sweep", "--summary", str(out)]) == 0
        text = capsys.readouterr().out
        assert f"## {task}:" in text
        assert (tmp_path / f"{task}-{task}.png").stat().st_size > 1000


def test_dask_not_imported_without_scheduler(tmp_path):
    cfg = tmp_path / "c.json"
    cfg.write_text(json.dumps({"task": "tau", "grid": {"family": ["ring"], "n": [10]}}))
    code = ("import sys; from ngc_ref_theory.cli import main; "
            f"rc = main(['sweep', {str(cfg)!r}, '--out', {str(tmp_path / 'o.jsonl')!r}, "
            "'-j', '1', '--no-progress']); "
            "assert rc == 0 and 'distributed' not in sys.modules and 'dask' not in sys.modules")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=False)
    assert res.returncode == 0, res.stderr


def test_example_configs_parse():
    files = sorted((ROOT / "benchmarks" / "configs").glob("*.*"))
    assert {load_config(f).task for f in files} >= {"tau", "lemma1", "theorem1",
                                                    "node_classification"}


def test_assumption_2_thorough_grid_matches_serial_series():
    """The checker's --thorough τ grid (planned tau_large cells on the sweep runner) gives
    tau_series' τ wherever τ is computed exactly (small n of a tiny --scale)."""
    from ngc_ref_theory import Context
    from ngc_ref_theory.claims import assumption_2 as a2
    ctx = Context(seed=2, thorough=True, scale=0.001, n_jobs=1)
    grid = a2.tau_grid(ctx, "sym")
    compared = 0
    for fam, (fixed, grown) in grid.items():
        for rows, schedule in ((fixed, lambda n: (a2.LAM, a2.S)), (grown, a2.grown_lam_S)):
            exact = [r for r in rows if r["method"] == "exact"]
            serial = a2.tau_series(fam, [r["requested_n"] for r in exact], "sym", ctx, schedule)
            for r, s in zip(exact, serial):
                assert r["n"] == s["n"] and r["tau"] == pytest.approx(s["tau"], rel=1e-12)
                compared += 1
    assert compared >= len(grid)


def test_params_record_what_the_cell_ran():
    tau = get_task("tau")
    grown = tau.coerce({"family": "ring", "n": 400, "schedule": "sqrt_n"})
    assert (grown["lam"], grown["S"]) == (20.0, 40)            # not the defaults 32, 16
    fixed = tau.coerce({"family": "ring", "n": 400})
    assert (fixed["lam"], fixed["S"]) == (32.0, 16)
    nc = get_task("node_classification")
    csbm = nc.coerce({"dataset": "csbm"})
    assert "split" not in csbm and csbm["n"] == 600


@pytest.mark.skipif(not os.environ.get("NGC_REF_DATA"), reason="needs NGC_REF_DATA")
def test_real_data_cells_carry_no_synthetic_parameters():
    p = get_task("node_classification").coerce({"dataset": "Cora", "n": 900})
    assert p["dataset"] == "cora" and p["split"] == 0
    assert not {"n", "k", "deg_in", "deg_out", "d"} & set(p)


def test_config_needing_missing_data_fails_before_anything_runs(tmp_path, empty_data_folder,
                                                                  capsys):
    cfg = tmp_path / "cora.json"
    cfg.write_text(json.dumps({"task": "node_classification",
                               "grid": {"dataset": ["cora"], "level": [0.1, 0.2]}}))
    out = tmp_path / "cora.jsonl"
    assert cli.main(["sweep", str(cfg), "--out", str(out), "-j", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ngc-ref: error:") and err.count("\n") == 1 and "cora" in err.lower()
    assert not out.exists()


def test_complete_last_record_without_newline_is_kept(tmp_path):
    out, full = _four_records(tmp_path)
    out.write_bytes(out.read_bytes().rstrip(b"\n"))     # e.g. copied by a tool that strips it
    assert len(read_records(out)) == 4
    _CALLS["n"] = 0
    again = run_sweep(FOUR_CELLS, out, n_jobs=1)
    assert _CALLS["n"] == 0 and _by_id(again) == _by_id(full)   # nothing recomputed
    assert len(out.read_text().splitlines()) == 4 and out.read_bytes().endswith(b"\n")


def test_summary_skips_json_lines_that_are_not_records(tmp_path, capsys):
    out = tmp_path / "tau.jsonl"
    run_sweep([("tau", {"family": "ring", "n": n}) for n in (20, 40)], out, n_jobs=1)
    with out.open("a") as fh:
        fh.write('{"id": "x", "note": "added by hand"}\n')
    with pytest.warns(RuntimeWarning, match="not a sweep record"):
        assert cli.main(["sweep", "--summary", str(out), "--no-plots"]) == 0
    assert "## tau: 2 cells" in capsys.readouterr().out


def test_family_names_follow_one_convention():
    import re

    from ngc_ref.graphs import GRAPH_FAMILIES
    from ngc_ref_theory.kit.graphs import FAMILIES
    names = list(FAMILIES) + list(GRAPH_FAMILIES)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", n) for n in names), names
    with pytest.raises(ValueError, match="er_avgdeg_2logn"):
        get_task("tau").coerce({"family": "er-avgdeg-2logn", "n": 100})
