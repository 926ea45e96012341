"""Where the paper's LaTeX comes from, and whether it is the version this checker was written
against. The one home of the paper's path and checksum.

The paper is not part of the repository. :func:`paper_source` finds it in the environment
variable ``NGC_REF_PAPER`` (a path to the ``.tex``), else at ``../shared/paper/`` beside the
checkout (:func:`default_path`: the checkout the module is imported from, else the current
directory's), and checks its sha256 against :data:`PAPER_SHA256`: a sentence map and quoted
words written for one version must not be read against another, so a different file is refused
(``ValueError`` naming ``NGC_REF_PAPER`` and both checksums), while a missing one is only *not
available* (the tests that read it skip, ``ngc-ref check`` writes no ``paper.md``).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

#: The environment variable naming the paper's ``.tex`` file.
PAPER_ENV = "NGC_REF_PAPER"
#: The file's name in the shared folder beside the checkout.
PAPER_FILENAME = "implicit-denoising-gnn.tex"
#: The paper on arXiv; its source is where the ``.tex`` comes from (README, "The paper").
ARXIV_ID = "2209.14514"
#: sha256 of the version the checker's quotes, numbers and sentence map were written against.
PAPER_SHA256 = "ee72be10c31dc1dbe3997dbd02cc63e731aff5acd8fbc66af337a2854f7f8927"


@dataclass(frozen=True)
class PaperSource:
    """The paper's LaTeX (``text``, read from ``path``), or why it is not available (``why``,
    with ``text`` None)."""

    path: Path | None
    text: str | None
    why: str = ""

    @property
    def available(self):
        return self.text is not None


def _checkout_of(folder):
    """``folder`` if it is the root of an ngc_ref checkout (its ``setup.cfg`` names the
    project), else None."""
    cfg = Path(folder) / "setup.cfg"
    try:
        named = "name = ngc_ref" in cfg.read_text(encoding="utf-8")
    except OSError:
        return None
    return Path(folder).resolve() if named else None


def default_path(cwd=None):
    """``../shared/paper/implicit-denoising-gnn.tex`` beside the checkout: the one this module
    is imported from (an editable install), else the current directory when it is a checkout
    (``pip install .`` copies the modules away from it, as CI does); None when neither is.

    Parameters
    ----------
    cwd : path, optional
        The directory to try second (default the current working directory).
    """
    for folder in (Path(__file__).resolve().parents[1], Path.cwd() if cwd is None else cwd):
        root = _checkout_of(folder)
        if root is not None:
            return root.parent / "shared" / "paper" / PAPER_FILENAME
    return None


def sha256_of(data):
    """The hex sha256 of ``data`` (bytes).

    >>> sha256_of(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def paper_source(environ=None, default=None):
    """The paper's LaTeX, or why it is not available.

    Parameters
    ----------
    environ : mapping, optional
        Where to read ``NGC_REF_PAPER`` (default ``os.environ``).
    default : path, optional
        The path used when ``NGC_REF_PAPER`` is unset (default :func:`default_path`).

    Returns
    -------
    PaperSource
        ``.text`` the file's text; or ``.text`` None and ``.why`` saying where it looked.

    Raises
    ------
    ValueError
        The file exists but its sha256 is not :data:`PAPER_SHA256` (another version of the
        paper), or ``NGC_REF_PAPER`` names something that is not a file. The message names
        ``NGC_REF_PAPER``, the file and both checksums.

    Examples
    --------
    >>> src = paper_source({"NGC_REF_PAPER": ""}, default="/nonexistent/paper.tex")
    >>> src.available, src.why.split(";")[0]
    (False, "the paper's LaTeX is not at /nonexistent/paper.tex")
    """
    environ = os.environ if environ is None else environ
    given = environ.get(PAPER_ENV) or None
    if given is not None:
        path = Path(given)
        if not path.is_file():
            raise ValueError(f"{PAPER_ENV}={given!r} is not a file; set it to the paper's .tex "
                             f"(arXiv {ARXIV_ID}, sha256 {PAPER_SHA256}) or unset it")
    else:
        path = Path(default) if default is not None else default_path()
        if path is None or not path.is_file():
            where = "not beside this checkout" if path is None else f"not at {path}"
            return PaperSource(path, None, f"the paper's LaTeX is {where}; set {PAPER_ENV} to "
                                           f"the .tex of arXiv {ARXIV_ID} (see README, "
                                           "'The paper')")
    data = path.read_bytes()
    found = sha256_of(data)
    if found != PAPER_SHA256:
        raise ValueError(f"{path} is another version of the paper than this checker was "
                         f"written against: sha256 {found}, expected {PAPER_SHA256}; set "
                         f"{PAPER_ENV} to the expected version (README, 'The paper')")
    return PaperSource(path, data.decode("utf-8"))


__all__ = ["ARXIV_ID", "PAPER_ENV", "PAPER_FILENAME", "PAPER_SHA256", "PaperSource",
           "default_path", "paper_source", "sha256_of"]
