"""The paper's data sets for the checks that read them: loading (with the skip record when they
are not there) and the settings of their own appendix tables. Not a claim (the registry imports
only modules without a leading underscore)."""

from __future__ import annotations

import warnings

from ngc_ref import datasets
from ngc_ref.training import PAPER_HYPERPARAMS

#: The paper's data sets with rows in the appendix tables (ogbn-products is not offline).
PAPER_DATASETS = ("cora", "citeseer", "pubmed", "cornell", "texas", "wisconsin", "actor",
                  "coauthor-cs", "coauthor-physics")
NO_DATA = "NGC_REF_DATA is not set"


def load(ctx, names=PAPER_DATASETS, *, warn=False):
    """``{name: Dataset}`` for the data sets that load; the others are noted with ``ctx.skip``
    (all of them, in one entry, when no data folder is set). A missing file is not a finding
    about the paper. ``warn``: let the loader's warnings through (Pubmed without
    ``ind.pubmed.allx`` warns that most feature rows are missing: silenced for the checks
    that read its graph only)."""
    if ctx.data_root is None:
        ctx.skip(", ".join(_pretty(n) for n in names), NO_DATA)
        return {}
    out = {}
    for name in names:
        try:
            with warnings.catch_warnings():
                if not warn:
                    warnings.simplefilter("ignore", UserWarning)
                out[name] = datasets.load_dataset(name, root=ctx.data_root)
        except (OSError, ValueError) as exc:
            ctx.skip(_pretty(name), f"could not load it from {ctx.data_root}: {exc}")
    return out


def note(ctx, names, loaded):
    """What the evidence says of the data sets ``names`` after :func:`load`: ``"loaded"``,
    ``"NGC_REF_DATA not set"``, or which ones did not load (the skip list says why)."""
    if ctx.data_root is None:
        return "NGC_REF_DATA not set"
    missing = [_pretty(n) for n in names if n not in loaded]
    return (", ".join(missing) + " could not be loaded (see the skipped parts)"
            if missing else "loaded")


def ngc_settings(name):
    """The distinct (λ, S) of the NGC rows of the appendix tables for data set ``name``."""
    return sorted({(row["lam"], row["S"]) for (model, ds, _noise, _level), row
                   in PAPER_HYPERPARAMS.items() if model == "ngc" and ds == name})


def rngc_settings(name):
    """The distinct (λ, S, ε, table) of the RNGC rows of the appendix tables for ``name``."""
    out = set()
    for (model, ds, noise, level), row in PAPER_HYPERPARAMS.items():
        if model == "rngc" and ds == name:
            lv = "every ξ" if level is None else f"{'p' if noise == 'flip' else 'ξ'}={level:g}"
            out.add((row["lam"], row["S"], row["eps"], f"{row['table']} ({noise}, {lv})"))
    return sorted(out)


def _pretty(name):
    return {"cora": "Cora", "citeseer": "Citeseer", "pubmed": "Pubmed",
            "coauthor-cs": "Coauthor-CS", "coauthor-physics": "Coauthor-Physics"}.get(
                name, name.capitalize())
