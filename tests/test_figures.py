"""The checker's figures: every result that should carry a figure lists it, and the file is a
readable PNG of a sensible size.

Only two cheap claims run here (about 5 s together, no data sets); the full run with every
figure is tests/test_check_full.py.
"""

import pytest

from ngc_ref_theory import Context, run_checks

#: claim id -> (figure file stem, the statements whose results must list it).
FIGURES = {
    "neumann-truncation": ("neumann-truncation-{norm}", ("neumann-truncation",)),
    "case-study": ("case-study-{norm}", ("case-study",) + tuple(f"case-study:{i}"
                                                                for i in range(1, 6))),
}
#: (depth-denoising's and row-normalization's figures, 10 s more here, are checked in the full
#: run: tests/test_check_full.py lists every result's figures and finds each file.)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("figures")
    results = run_checks(Context(seed=0, out_dir=out), only=list(FIGURES), progress=False)
    return out, results


def _read_png(path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return mpimg.imread(path)


@pytest.mark.parametrize("claim", list(FIGURES))
def test_results_list_their_figure_and_it_is_a_readable_png(run, claim):
    out, results = run
    stem, statements = FIGURES[claim]
    mine = [r for r in results if r.claim == claim]
    assert mine, f"no results for {claim}"
    assert not [r for r in mine if r.verdict == "error"], [r.evidence for r in mine
                                                           if r.verdict == "error"]
    for norm in ("sym", "rw"):
        name = stem.format(norm=norm) + ".png"
        for sid in statements:
            (r,) = [r for r in mine if r.id == sid and r.norm == norm]
            assert name in r.figures, f"{sid} [{norm}] lists {r.figures}, not {name}"
        img = _read_png(out / name)
        h, w = img.shape[:2]
        assert 300 <= w <= 4000 and 250 <= h <= 3000, f"{name}: {w} x {h} px"
        assert img[..., :3].std() > 0.05, f"{name} is blank"


def test_every_listed_figure_exists(run):
    out, results = run
    listed = {f for r in results for f in r.figures}
    assert listed
    assert not [f for f in listed if not (out / f).is_file()]


def test_no_figures_without_an_output_folder():
    results = run_checks(Context(seed=0), only=["case-study"], progress=False)
    assert all(r.figures == [] for r in results)


def test_sqrt_n_panels_name_the_rule_not_one_cells_numbers():
    from ngc_ref_theory.sweep.summary import _schedule_symbols
    recs = [{"params": {"schedule": "sqrt_n", "lam": 10.0, "S": 20, "n": 100}},
            {"params": {"schedule": "fixed", "lam": 32.0, "S": 16, "n": 100}}]
    grown, fixed = _schedule_symbols(recs)
    assert (grown["params"]["lam"], grown["params"]["S"]) == ("√n", "⌈2λ⌉")
    assert (fixed["params"]["lam"], fixed["params"]["S"]) == (32.0, 16)
    assert recs[0]["params"]["lam"] == 10.0   # the store's records are not changed
