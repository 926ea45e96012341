import io

from ngc_ref import cli


def test_demo_prints_four_graphs():
    out = io.StringIO()
    cli.demo(64.0, 64, "rw", out=out)
    lines = out.getvalue().splitlines()
    rows = [ln for ln in lines if ln.startswith("G")]
    assert len(rows) == 4
    assert rows[0].split()[4] == "4.0000"        # isolated nodes: tau = n


def test_main_exit_codes(capsys):
    assert cli.main(["--lam", "2", "--S", "3"]) == 0
    assert cli.main(["--lam", "-2"]) == 2
    assert "lam must be > 0" in capsys.readouterr().err
