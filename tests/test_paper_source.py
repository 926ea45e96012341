"""Where the paper's LaTeX comes from (NGC_REF_PAPER, else ../shared/paper/ beside the checkout)
and the version check: another version is refused naming both checksums, a missing file is
only "not available"."""

import hashlib
from pathlib import Path

import pytest

from ngc_ref_theory.paper import source as _paper_source
from ngc_ref_theory.paper.source import PAPER_ENV, PAPER_SHA256, paper_source


@pytest.fixture
def pinned(monkeypatch, tmp_path):
    """A small .tex whose sha256 is made the pinned one (the real paper is not needed)."""
    tex = tmp_path / "paper.tex"
    tex.write_text("\\begin{document}Noise fades.\\end{document}\n", encoding="utf-8")
    monkeypatch.setattr(_paper_source, "PAPER_SHA256",
                        hashlib.sha256(tex.read_bytes()).hexdigest())
    return tex


def test_the_variable_names_the_file(pinned):
    src = paper_source({PAPER_ENV: str(pinned)}, default="/nonexistent/x.tex")
    assert src.available and src.path == pinned
    assert src.text == pinned.read_text(encoding="utf-8")


def test_without_the_variable_the_default_path_is_read(pinned):
    src = paper_source({}, default=pinned)
    assert src.available and src.text.startswith("\\begin{document}")


def test_a_missing_file_is_not_available_with_the_reason(tmp_path):
    missing = tmp_path / "nowhere" / "paper.tex"
    src = paper_source({}, default=missing)
    assert not src.available and src.text is None
    assert str(missing) in src.why and PAPER_ENV in src.why


def test_another_version_is_refused_naming_the_variable_and_both_checksums(tmp_path):
    other = tmp_path / "v2.tex"
    other.write_text("\\begin{document}Another version.\\end{document}\n", encoding="utf-8")
    found = hashlib.sha256(other.read_bytes()).hexdigest()
    for environ, default in (({PAPER_ENV: str(other)}, None), ({}, other)):
        with pytest.raises(ValueError) as err:
            paper_source(environ, default=default)
        message = str(err.value)
        assert PAPER_ENV in message and found in message and PAPER_SHA256 in message
        assert str(other) in message


def test_a_variable_that_names_no_file_is_an_error(tmp_path):
    with pytest.raises(ValueError, match=PAPER_ENV):
        paper_source({PAPER_ENV: str(tmp_path)})          # a folder
    with pytest.raises(ValueError, match=PAPER_ENV):
        paper_source({PAPER_ENV: str(tmp_path / "typo.tex")})


def test_an_empty_variable_counts_as_unset(pinned):
    assert paper_source({PAPER_ENV: ""}, default=pinned).available


def test_the_default_is_beside_the_checkout(tmp_path, monkeypatch):
    """Beside the checkout the module is imported from (editable install), else beside the
    current directory when it is a checkout (``pip install .`` copies the module away from
    it, as CI does), else None."""
    here = Path(__file__).resolve().parents[1]          # this test's checkout
    paper = ("shared", "paper", "implicit-denoising-gnn.tex")
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / "setup.cfg").write_text("[metadata]\nname = ngc_ref\n", encoding="utf-8")
    # imported from a checkout: that checkout, wherever the current directory is
    monkeypatch.setattr(_paper_source, "__file__", str(clone / "theory" / "_paper_source.py"))
    assert _paper_source.default_path(cwd=here) == tmp_path.joinpath(*paper)
    # installed (site-packages has no setup.cfg): the current directory's checkout
    site = tmp_path / "site-packages" / "ngc_ref_theory" / "_paper_source.py"
    monkeypatch.setattr(_paper_source, "__file__", str(site))
    assert _paper_source.default_path(cwd=here) == here.parent.joinpath(*paper)
    assert _paper_source.default_path(cwd=tmp_path) is None          # not a checkout
    (clone / "setup.cfg").write_text("[metadata]\nname = other\n", encoding="utf-8")
    assert _paper_source.default_path(cwd=clone) is None             # another project's


def test_the_pinned_checksum_is_the_shared_papers(tex):
    """The tex fixture reads through paper_source, so reaching here means the checksum held;
    recomputed here independently."""
    assert hashlib.sha256(tex.encode("utf-8")).hexdigest() == PAPER_SHA256
