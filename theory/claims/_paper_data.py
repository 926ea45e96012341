"""The paper's data sets for the checks that read them: loading (with the skip record when they
are not there) and the settings of their own appendix tables. Not a claim (the registry imports
only modules without a leading underscore)."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp

from ngc_ref import connectivity_factor, datasets

from ..paper.hyperparams import PAPER_HYPERPARAMS

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


def isolated(A):
    """Nodes without a neighbour (a boolean mask)."""
    return np.asarray(sp.csr_array(A).sum(axis=1)).ravel() == 0


def tau_over_n(A, lam, S, norm, *, budget, samples, seed):
    """τ/n of a data set's graph at (λ, S), as a bracket, without the n × n filter.

    The isolated nodes' τ_i exactly (``nodes=``); the others' τ on the graph without them (τ_i/n
    = Σ_j [Ã_S]_ij²/m² of a node with a neighbour does not change when other components are
    dropped): exact when S·nnz·n ≤ ``budget``, else ``method="estimate"`` with ``samples`` =
    (probes, candidates) and ``seed`` — its lower end the exact τ_i of a candidate maximiser
    (a true lower bound), its upper end at the estimator's 99% confidence.

    Returns a dict: ``isolated`` (count), ``isolated_tau_i_over_n`` ((min, max) or None),
    ``non_isolated`` (the lower end over the others), ``upper`` (their upper end), ``method``,
    ``argmax`` (the node, an index of ``A``, whose exact τ_i is the lower end).
    """
    n = A.shape[0]
    iso = isolated(A)
    if iso.any():
        res = connectivity_factor(A, lam, S, norm=norm, nodes=np.flatnonzero(iso))
        iso_ratio = (float(res.tau_i.min() / n), float(res.tau_i.max() / n))
    else:
        iso_ratio = None
    keep = np.flatnonzero(~iso)
    B = A[keep][:, keep] if iso.any() else A
    if S * B.nnz * B.shape[0] <= budget:
        res = connectivity_factor(B, lam, S, norm=norm)
        low, up, method = res.tau / B.shape[0], res.tau / B.shape[0], "exact"
    else:
        res = connectivity_factor(B, lam, S, norm=norm, method="estimate", n_samples=samples[0],
                                  max_candidates=samples[1], seed=seed)
        low, up = res.tau_lower / B.shape[0], res.tau_upper / B.shape[0]
        method = (f"estimate (exact τ_i of {res.n_exact} candidates; upper end at "
                  f"confidence {res.confidence:g})")
    return {"isolated": int(iso.sum()), "isolated_tau_i_over_n": iso_ratio,
            "non_isolated": low, "upper": up, "method": method,
            "argmax": int(keep[res.argmax])}


def _pretty(name):
    return {"cora": "Cora", "citeseer": "Citeseer", "pubmed": "Pubmed",
            "coauthor-cs": "Coauthor-CS", "coauthor-physics": "Coauthor-Physics"}.get(
                name, name.capitalize())
