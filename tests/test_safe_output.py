"""``ngc-ref check`` runs and reruns that never destroy a report.

A printed rerun runs as printed (its own ``--out``, ``NGC_REF_DATA`` where the claim reads the
data) and replaces no report; a run does not replace a report of a larger selection; one run at
a time per output folder, and what a killed run leaves is cleaned up by the next; a typo in
``NGC_REF_DATA`` stops ``check`` at once; ``--only`` ids in any case, with suggestions.
"""

import inspect
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ngc_ref_theory import Context, cli, registry
from ngc_ref_theory.kit.claim import RERUN_DIR, rerun_command
from ngc_ref_theory.output.files import (LOCK_NAME, STAGING_PREFIX, acquire_folder_lock,
                                         release_folder_lock)
from ngc_ref_theory.check import data_notice, resolve_ids, select

DATA = os.environ.get("NGC_REF_DATA")
needs_data = pytest.mark.skipif(not DATA, reason="NGC_REF_DATA is not set")
#: The claims whose check reads the paper's data sets (they skip them without NGC_REF_DATA).
DATA_CLAIMS = {"dataset-statistics", "degree-connectivity", "denoising-accuracy", "flip-noise",
               "isolated-tau", "rngc-convergence", "rngc-edge-cost", "rngc-smoothness",
               "rngc-tau", "row-normalization", "tau-at-scale"}


def _check(out, *ids, extra=()):
    return cli.main(["check", "--only", *ids, "--out", str(out), "--no-progress", *extra])


def _doc(out):
    return json.loads((Path(out) / "report.json").read_text(encoding="utf-8"))


def _numbers(doc):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in doc["results"]]


def _files(folder):
    return {p.name: p.read_bytes() for p in Path(folder).iterdir() if p.is_file()}


def _shell_env():
    """The environment a user's shell gives a printed command: ``ngc-ref`` on PATH, no
    NGC_REF_DATA of its own (the command must carry it)."""
    env = {k: v for k, v in os.environ.items() if k != "NGC_REF_DATA"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def _run_as_printed(line, cwd):
    return subprocess.run(line + " --no-progress", shell=True, cwd=cwd, env=_shell_env(),
                          capture_output=True, text=True, timeout=300)


# ------------------------------------------------------------------------------ reruns

def test_rerun_command_has_its_own_folder_and_the_data_the_run_used():
    data = Path("/data/with space")
    with_data = Context(seed=4, data_root=data)
    line = rerun_command("row-normalization:b", with_data)
    assert shlex.split(line) == [f"NGC_REF_DATA={data}", "ngc-ref", "check", "--only",
                                 "row-normalization:b", "--seed", "4", "--out",
                                 f"{RERUN_DIR}/row-normalization_b"]
    # a claim that reads no data, or a run that had none: nothing to carry
    assert rerun_command("row-sum", with_data) == (
        "ngc-ref check --only row-sum --seed 4 --out ngc_ref_rerun/row-sum")
    assert not rerun_command("row-normalization", Context(seed=4)).startswith("NGC_REF_DATA")
    thorough = rerun_command("lemma-1", Context(seed=0, thorough=True, scale=0.25))
    assert "--thorough --scale 0.25 " in thorough


def test_the_claims_that_read_data_declare_it():
    claims = registry()
    assert {c.id for c in claims.values() if c.needs_data} == DATA_CLAIMS
    # ... and they are the claims of the modules that read the data folder
    by_module = {}
    for c in claims.values():
        by_module.setdefault(sys.modules[c._check.__module__].__file__, []).append(c)
    for path, mine in by_module.items():
        text = Path(path).read_text(encoding="utf-8")
        reads = "data_root" in text or re.search(r"_paper_data import [^\n]*\bload\b", text)
        assert bool(reads) == any(c.needs_data for c in mine), path


def test_a_printed_rerun_runs_as_printed_and_replaces_no_report(tmp_path):
    main = tmp_path / "ngc_ref_report"
    assert _check(main, "row-sum", "neumann-identity") == 0
    before = _files(main)
    doc = _doc(main)
    lines = {r["counterexample"]["rerun"] for r in doc["results"] if r["counterexample"]}
    assert lines == {"ngc-ref check --only row-sum --seed 0 --out ngc_ref_rerun/row-sum"}
    done = _run_as_printed(lines.pop(), tmp_path)
    assert done.returncode == 0, done.stderr
    assert _files(main) == before                         # the main report is untouched
    again = _doc(tmp_path / RERUN_DIR / "row-sum")
    assert _numbers(again) == [n for n in _numbers(doc) if n["claim"] == "row-sum"]


@needs_data
def test_a_rerun_of_a_claim_on_the_data_carries_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NGC_REF_DATA", os.path.relpath(DATA, tmp_path))   # relative on purpose
    assert _check(tmp_path / "main", "isolated-tau:paper-data") == 0
    doc = _doc(tmp_path / "main")
    lines = {r["counterexample"]["rerun"] for r in doc["results"] if r["counterexample"]}
    assert lines == {f"NGC_REF_DATA={shlex.quote(os.path.abspath(DATA))} ngc-ref check --only "
                     "isolated-tau:paper-data --seed 0 --out "
                     "ngc_ref_rerun/isolated-tau_paper-data"}
    assert doc["meta"]["data_root"] == os.path.abspath(DATA)
    done = _run_as_printed(lines.pop(), tmp_path)
    assert done.returncode == 0, done.stderr
    again = _doc(tmp_path / RERUN_DIR / "isolated-tau_paper-data")
    assert _numbers(again) == _numbers(doc) and not again["meta"]["skipped"]


# ------------------------------------------------------------------ a larger report stays

def test_a_report_of_a_larger_selection_is_not_replaced(tmp_path, capsys):
    out = tmp_path / "r"
    assert _check(out, "row-sum", "neumann-identity") == 0
    before = _files(out)
    capsys.readouterr()
    assert _check(out, "ROW-SUM") == 2
    err = capsys.readouterr().err
    assert "--out ngc_ref_rerun/row-sum" in err and "--force" in err
    assert "does not check 1 of its 3 statements" in err
    assert _files(out) == before and not [p for p in out.iterdir() if p.name.startswith(".")]
    # the same or a larger selection replaces it; so does --force
    assert _check(out, "neumann-identity", "row-sum") == 0
    assert _check(out, "row-sum", extra=["--force"]) == 0
    assert {r["claim"] for r in _doc(out)["results"]} == {"row-sum"}


def test_a_thorough_or_unreadable_report_is_not_replaced(tmp_path, capsys):
    out = tmp_path / "r"
    out.mkdir()
    (out / "report.json").write_text(json.dumps(
        {"meta": {"thorough": True}, "results": [{"id": "neumann-identity"}]}))
    assert _check(out, "neumann-identity") == 2
    assert "it is a --thorough report and this run is not" in capsys.readouterr().err
    (out / "report.json").write_text("{not json")
    assert _check(out, "neumann-identity") == 2
    assert "cannot read" in capsys.readouterr().err
    assert (out / "report.json").read_text() == "{not json"


# ------------------------------------------------------------------ one run per folder

HOLDER = """
import sys, time
from ngc_ref_theory.output.files import staged_output
sys.argv = ["ngc-ref", "check", "--only", "lemma-1"]
with staged_output({out!r}) as staged:
    (staged.dir / "half-written.png").write_bytes(b"x")
    print("held", flush=True)
    time.sleep(120)
"""


def _hold(out):
    """A process that holds ``out`` (as a run does) until it is killed; returns it once the
    lock is taken."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER.format(out=str(out))],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_run_into_a_held_folder_refuses_at_once_naming_the_first(tmp_path, capsys):
    out = tmp_path / "r"
    proc = _hold(out)
    try:
        t0 = time.monotonic()
        assert _check(out, "neumann-identity") == 2
        err = capsys.readouterr().err
        assert f"in use by another ngc-ref run (pid {proc.pid}, started " in err
        assert "ngc-ref check --only lemma-1" in err and "--out OTHER" in err
        assert time.monotonic() - t0 < 30        # refused before any check ran
        assert not (out / "report.json").exists()
    finally:
        proc.kill()
        proc.wait()


def test_reproduce_takes_the_same_lock(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NGC_REF_DATA", raising=False)
    out = tmp_path / "rep"
    out.mkdir()
    fd = acquire_folder_lock(out)
    try:
        assert cli.main(["reproduce", "--only", "tab:ogb", "--out", str(out),
                         "--no-progress"]) == 2
        assert f"pid {os.getpid()}" in capsys.readouterr().err
    finally:
        release_folder_lock(out, fd)
    assert not (out / LOCK_NAME).exists()


def _a_report(tmp_path):
    """A folder holding a report (of neumann-identity), and its files."""
    out = tmp_path / "r"
    assert _check(out, "neumann-identity") == 0
    return out, _files(out)


def _whole_then_cleaned(out, before):
    """After a killed run: the report is as it was (the dead run's lock file aside), and the
    next run takes the folder (the dead holder's lock is not held) and leaves nothing hidden
    (the staging folder removed)."""
    assert {k: v for k, v in _files(out).items() if k != LOCK_NAME} == before
    assert _check(out, "neumann-identity") == 0
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []


def test_a_killed_run_leaves_the_report_whole_and_the_next_run_cleans_up(tmp_path):
    out, before = _a_report(tmp_path)
    proc = _hold(out)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    left = [p.name for p in out.iterdir() if p.name.startswith(STAGING_PREFIX)]
    assert left and (out / left[0] / "half-written.png").exists()
    _whole_then_cleaned(out, before)


def test_a_killed_check_leaves_the_previous_report_whole(tmp_path):
    out, before = _a_report(tmp_path)
    exe = str(Path(sys.executable).parent / "ngc-ref")
    proc = subprocess.Popen([exe, "check", "--only", "neumann-identity", "lemma-1", "--out",
                             str(out), "--no-progress"], env=_shell_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not list(out.glob(STAGING_PREFIX + "*")) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert list(out.glob(STAGING_PREFIX + "*")), "the run never staged"
    _whole_then_cleaned(out, before)


# ------------------------------------------------------------------------------ the data

def test_a_data_path_that_is_not_a_folder_stops_check_at_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NGC_REF_DATA", str(tmp_path / "typo"))
    out = tmp_path / "r"
    assert _check(out, "neumann-identity") == 2
    check_err = capsys.readouterr().err
    assert not out.exists()
    assert cli.main(["reproduce", "--only", "tab:flip", "--out", str(out)]) == 2
    reproduce_err = capsys.readouterr().err
    same = f"NGC_REF_DATA={str(tmp_path / 'typo')!r} is not a folder; set it to the folder"
    assert same in check_err and same in reproduce_err
    assert "unset it" in check_err and not out.exists()


def test_the_data_sets_to_skip_are_named_before_any_check_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("NGC_REF_DATA", raising=False)
    c = registry()["flip-noise"]
    seen = []

    def first(ctx, norm):
        seen.append(capsys.readouterr().err)   # what the terminal showed before the check
        raise KeyboardInterrupt
    monkeypatch.setattr(c, "_check", first)
    assert _check(tmp_path / "r", "flip-noise") == 130
    assert ("ngc-ref: NGC_REF_DATA is not set: skipping the paper's data sets cora, citeseer "
            "(used by flip-noise)") in seen[0]


def test_data_notice_names_each_data_set_that_does_not_load(empty_data_folder):
    claims, _ = select(["flip-noise", "row-sum"])
    lines = data_notice(Context(data_root=Path(os.environ["NGC_REF_DATA"])), claims)
    assert [ln.split(":")[0] for ln in lines] == ["ngc-ref"] * 2
    assert lines[0].startswith("ngc-ref: skipping cora (used by flip-noise): could not load it")
    assert data_notice(Context(), select(["row-sum"])[0]) == []


# ------------------------------------------------------------------------------ --only ids

def test_only_ids_in_any_case_and_suggestions_for_typos(tmp_path, capsys):
    assert resolve_ids(["Lemma-1", "ROW-SUM", "row-sum"]) == ["lemma-1", "row-sum"]
    assert cli.main(["check", "--only", "lemma1", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "unknown claim id 'lemma1'; did you mean 'lemma-1'" in err
    assert len(err) < 300 and "neumann-identity" not in err      # no list of every id
    assert not (tmp_path / "r").exists()


def test_reproduce_targets_in_any_case_and_suggestions(tmp_path, capsys):
    from ngc_ref_theory.reproduce.targets import parse_only
    assert parse_only(["TAB:Heterophily:Texas", "Flip"]) == {"tab:heterophily": {"texas"},
                                                            "tab:flip": None}
    assert cli.main(["reproduce", "--only", "tab:heterophilly", "--out",
                     str(tmp_path / "r")]) == 2
    assert "did you mean 'tab:heterophily'" in capsys.readouterr().err


# ------------------------------------------------------------------------------ arguments

@pytest.mark.parametrize("argv, message", [
    (["check", "--seed", "-1"], "--seed must be a non-negative integer, got '-1'"),
    (["check", "--seed", "x"], "--seed must be a non-negative integer, got 'x'"),
    (["check", "--thorough", "-j", "0"], "--jobs must be a non-zero integer"),
    (["check", "--thorough", "--scale", "nan"], "--scale must be a positive number"),
    (["reproduce", "--runs", "0"], "--runs must be a positive integer"),
    (["sweep", "-j", "0"], "--jobs must be a non-zero integer"),
])
def test_bad_numbers_are_usage_errors(argv, message, tmp_path, capsys):
    assert cli.main([*argv, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("usage: ngc-ref ")
    assert len([ln for ln in err.splitlines() if "error" in ln]) == 1
    assert not (tmp_path / "o").exists()


def test_check_command_function_is_short():
    assert len(inspect.getsource(cli._check).splitlines()) < 60


def test_help_documents_the_replacement_rule(capsys):
    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--force" in text and "A run replaces the report in --out only if" in text
    assert "One run at a time per output folder" in text
