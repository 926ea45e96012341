import io

from ngc_ref_theory import cli


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

    from ngc_ref_theory.report import atomic_write_text
    mask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "r.md", "x")
        assert (tmp_path / "r.md").stat().st_mode & 0o777 == 0o644
        assert (tmp_path / "r.md").read_text() == "x"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]
    finally:
        os.umask(mask)
