"""The data sets' names: the canonical ones, their aliases, and the one lookup of both."""

from __future__ import annotations

from ._geomgcn import NAMES as _GEOM_NAMES
from ._npz import NAMES as _COAUTHOR_NAMES
from ._planetoid import NAMES as _PLANETOID_NAMES

#: Names accepted by :func:`load_dataset` (case-insensitive).
DATASETS = _PLANETOID_NAMES + _GEOM_NAMES + _COAUTHOR_NAMES + ("karate",)
#: Other names for them, lower case (matched case-insensitively). PyTorch Geometric's spellings
#: -- ``Coauthor(name="CS" | "Physics")``, ``Planetoid(name="Cora" | "CiteSeer" | "PubMed")``,
#: ``Actor``, ``KarateClub`` -- are the data sets' names here up to case, or listed below.
ALIASES = {"cs": "coauthor-cs", "physics": "coauthor-physics", "coauthor-phy": "coauthor-physics",
           "film": "actor", "karateclub": "karate"}


def canonical_name(name):
    """The name of :data:`DATASETS` that ``name`` stands for (case-insensitive, aliases resolved).

    Raises
    ------
    TypeError
        ``name`` is not a str.
    ValueError
        An unknown name; the message lists the valid names and the aliases.

    Examples
    --------
    >>> from ngc_ref.datasets import canonical_name
    >>> canonical_name("CS"), canonical_name("PubMed"), canonical_name("film")
    ('coauthor-cs', 'pubmed', 'actor')
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    key = ALIASES.get(name.lower(), name.lower())
    if key not in DATASETS:
        valid = ", ".join(repr(d) for d in DATASETS)
        aliases = ", ".join(f"{a!r} = {d!r}" for a, d in ALIASES.items())
        raise ValueError(f"name must be one of {valid} or an alias ({aliases}), "
                         f"case-insensitive; got {name!r}")
    return key
