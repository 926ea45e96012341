"""Which data folder a loader reads: ``root=``, the environment variable ``NGC_REF_DATA``, or
the default folder that ``ngc-ref data fetch`` fills (the user cache, as PyTorch's hub and
pooch keep theirs): ``$XDG_CACHE_HOME/ngc_ref/data``, by default ``~/.cache/ngc_ref/data``.

The default folder is used only when ``NGC_REF_DATA`` is unset and it holds fetched data (a
data file of the recorded size: fetch moves a file there only after verifying it; the loaders
verify every file again before parsing it). A folder that is one level inside the layout
(``…/data/planetoid``) is refused with its parent suggested.
"""

from __future__ import annotations

import os
from pathlib import Path

from ._checksums import CHECKSUMS

ENV_VAR = "NGC_REF_DATA"
#: The top folders of the layout (data/README.md).
LAYOUT = ("planetoid", "geom-gcn", "coauthor")
_LAYOUT_WORDS = "the folder that contains planetoid/, geom-gcn/ and coauthor/ (data/README.md)"


def default_root():
    """The default data folder: ``$XDG_CACHE_HOME/ngc_ref/data``, or ``~/.cache/ngc_ref/data``
    when ``XDG_CACHE_HOME`` is unset (on every platform, as ``torch.hub`` does).

    Examples
    --------
    >>> import os
    >>> from ngc_ref.datasets import default_root
    >>> default_root().parts[-2:]
    ('ngc_ref', 'data')
    """
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "ngc_ref" / "data"


def holds_data(root):
    """Whether ``root`` holds at least one data file of its recorded size (a cheap test:
    ``os.stat`` only; the loaders verify the sha256 of what they read)."""
    root = Path(root)
    for relpath, (size, _, _) in CHECKSUMS.items():
        try:
            if (root / relpath).stat().st_size == size:
                return True
        except OSError:
            continue
    return False


def too_deep(root):
    """The folder ``root`` should have been when it is one or two levels inside the layout
    (``…/data/planetoid``, ``…/data/geom-gcn/cornell``), else None. Read from the names only:
    a folder holding any of :data:`LAYOUT` is never too deep."""
    root = Path(os.path.abspath(root))
    if any((root / top).is_dir() for top in LAYOUT):
        return None
    for up in (1, 2):
        if len(root.parents) < up:
            break
        parent = root.parents[up - 1]
        inner = root.relative_to(parent).as_posix() + "/"
        if any(key.startswith(inner) for key in CHECKSUMS):
            return parent
    return None


def check_root(root, origin):
    """``root`` as a ``Path`` after checking that it is a folder and not one level inside the
    layout; ``origin`` says where it came from (``"NGC_REF_DATA"``, ``"root="``) in the message.

    Raises
    ------
    FileNotFoundError
        Not a folder.
    ValueError
        A folder inside the layout (the message suggests the right one).
    """
    if not isinstance(root, (str, os.PathLike)):
        raise TypeError(f"root must be a str or os.PathLike path, got {type(root).__name__}")
    path = Path(os.fspath(root))
    if not path.is_dir():
        raise FileNotFoundError(f"data directory {str(path)!r} ({origin}) does not exist or is "
                                f"not a directory; it must be {_LAYOUT_WORDS}")
    parent = too_deep(path)
    if parent is not None:
        raise ValueError(f"data directory {str(path)!r} ({origin}) is inside the data layout "
                         f"(it is the {path.name}/ folder): use its parent {str(parent)!r}, "
                         f"{_LAYOUT_WORDS}")
    return path


def find_root():
    """``(folder, origin)`` of the data the run reads when no ``root=`` is given, or
    ``(None, why)``: ``NGC_REF_DATA`` when it is set (checked by :func:`check_root`), else the
    :func:`default_root` when it holds fetched data.

    Examples
    --------
    >>> import os, tempfile
    >>> from ngc_ref.datasets import find_root
    >>> os.environ["NGC_REF_DATA"] = folder = tempfile.mkdtemp()
    >>> find_root() == (Path(folder), "NGC_REF_DATA")
    True
    >>> del os.environ["NGC_REF_DATA"]
    """
    env = os.environ.get(ENV_VAR) or None
    if env is not None:
        return check_root(env, f"the environment variable {ENV_VAR}"), ENV_VAR
    default = default_root()
    if holds_data(default):
        return default, "the default data folder (ngc-ref data fetch; NGC_REF_DATA unset)"
    return None, (f"{ENV_VAR} is not set and the default data folder {str(default)!r} holds no "
                  "data (ngc-ref data fetch fills it)")


def resolve_root(root=None):
    """The data folder a loader reads: ``root`` when given, else :func:`find_root`'s;
    ``ValueError`` when there is none (the message says how to get one).

    Examples
    --------
    >>> import os, tempfile
    >>> from ngc_ref.datasets import resolve_root
    >>> data = tempfile.mkdtemp()
    >>> os.mkdir(os.path.join(data, "planetoid"))
    >>> resolve_root(data).is_dir()
    True
    >>> resolve_root(os.path.join(data, "planetoid"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: data directory '...planetoid' (given as root=) is inside the data layout ...
    """
    if root is not None:
        return check_root(root, "given as root=")
    found, why = find_root()
    if found is None:
        raise ValueError(f"no data directory given: pass root='/path/to/data', set {ENV_VAR} "
                         f"to {_LAYOUT_WORDS}, or run `ngc-ref data fetch` ({why})")
    return found
