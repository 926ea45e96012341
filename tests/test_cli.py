import io

import pytest

from ngc_ref_theory import cli
from ngc_ref_theory.cli import main


def test_demo_prints_four_graphs():
    out = io.StringIO()
    cli.demo(64.0, 64, "rw", out=out)
    rows = [ln for ln in out.getvalue().splitlines() if ln.startswith("G")]
    assert len(rows) == 4
    assert rows[0].split()[4] == "4.0000"        # isolated nodes: tau = n


def test_main_exit_codes(capsys):
    assert cli.main(["demo", "--lam", "2", "--S", "3"]) == 0
    assert cli.main([]) == 0
    assert cli.main(["demo", "--lam", "-2"]) == 2
    assert "lam must be > 0" in capsys.readouterr().err


def test_check_unwritable_out(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert cli.main(["check", "--only", "row-sum", "--out", str(f / "sub"), "--no-progress"]) == 2
    assert "not a writable directory" in capsys.readouterr().err


def test_check_unknown_id(tmp_path, capsys):
    assert cli.main(["check", "--only", "nope", "--out", str(tmp_path), "--no-progress"]) == 2
    assert "unknown claim id" in capsys.readouterr().err


def test_report_files_get_ordinary_permissions(tmp_path):
    # Atomic writes go through mkstemp (mode 0600); the final file must not stay private.
    import os

    from ngc_ref_theory.output.report import atomic_write_text
    mask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "r.md", "x")
        assert (tmp_path / "r.md").stat().st_mode & 0o777 == 0o644
        assert (tmp_path / "r.md").read_text() == "x"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]
    finally:
        os.umask(mask)


# ------------------------------------------------------------------ newcomer's rough edges

def test_version_names_the_installed_distribution(capsys):
    from importlib.metadata import version
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip().startswith(f"ngc-ref {version('ngc_ref')} (Python ")


def test_errors_print_plain_numbers_not_numpy_reprs():
    import numpy as np
    from ngc_ref import connectivity_factor
    from ngc_ref.validation import check_scalar
    with pytest.raises(ValueError) as err:
        connectivity_factor(np.array([[0.0, -1.0], [-1.0, 0.0]]), 1.0, 1)
    assert "(min -1)" in str(err.value) and "np." not in str(err.value)
    for value, kw in ((np.float64(1.0), {"integer": True}), (np.float64(np.nan), {}),
                      (np.int64(-3), {"min_val": 0})):
        with pytest.raises((TypeError, ValueError)) as err:
            check_scalar(value, "S", **kw)
        assert "np." not in str(err.value), str(err.value)


def test_one_cell_is_one_cell(tmp_path, capsys):
    cfg = tmp_path / "one.toml"
    cfg.write_text('task = "tau"\n[params]\nfamily = "ring"\nn = 16\nlam = 1.0\nS = 2\n'
                   'norm = "rw"\n')
    assert main(["sweep", str(cfg), "--out", str(tmp_path / "one.jsonl"), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "total: 1 cell (0 finished)" in out and "1 cells" not in out
    assert main(["sweep", str(cfg), "--out", str(tmp_path / "one.jsonl"), "-j", "1",
                 "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("1 cell of task 'tau' in ")
