"""One registry of the paper's hyper-parameters for NGC and RNGC (appendix, Sec. "Hyperparameter
Details", Tables 8-12 of the arXiv version; the LaTeX labels are given per entry). In the
checker's part for the paper: the paper's numbers live with the checker, not in the library
(issue 36), which takes them as ``ngc_ref.training.run_experiment(...,
hyperparams=paper_config)``.

Every entry is keyed by ``(model, dataset, noise, level)`` where ``noise`` is ``"gaussian"`` or
``"flip"`` and ``level`` is the noise level ξ or flip probability p the row applies to
(``None`` for a row that holds for every level). Values are copied from the tables as printed:

* ``runs``, ``lr``, ``epochs``, ``weight_decay`` (Adam's L2-style weight decay),
* ``hidden`` (0: "propagate once, then one linear layer"; > 0: the "+MLP" variant),
* ``dropout``, ``S``, ``lam`` (λ), ``eps`` (ε, RNGC only; ``None`` for NGC),
* ``layers`` (ogbn-products only), ``table`` (the LaTeX label of the source table).

The tables do not state the normalisation; the paper's footnote to Eq. 6 says the experiments
use Ã_sym, so :func:`paper_config` returns ``norm="sym"``.

:func:`paper_config` has the signature of the ``hyperparams`` argument of
:func:`ngc_ref.training.model_spec` and :func:`ngc_ref.training.run_experiment`, whose
``ValueError`` (no row) falls back to the library's defaults.

Examples
--------
>>> from ngc_ref_theory.paper.hyperparams import paper_config
>>> cfg = paper_config("ngc", "cora", noise="flip", level=0.1)
>>> cfg["S"], cfg["lam"], cfg["lr"], cfg["epochs"], cfg["weight_decay"], cfg["table"]
(32, 64.0, 0.2, 100, 1e-05, 'tab:citation_hyper_flip')
>>> paper_config("rngc", "cora", noise="gaussian", level=0.3)["eps"]
1.0
>>> from ngc_ref.training import model_spec
>>> model_spec("ngc", "cora", "flip", 0.1, hyperparams=paper_config).propagation_params
{'lam': 64.0, 'S': 32, 'norm': 'sym'}
"""

from __future__ import annotations

import math

from ngc_ref.datasets import ALIASES as _DATASET_ALIASES
from ngc_ref.validation import check_option

MODELS = ("ngc", "rngc")
NOISES = ("gaussian", "flip")

_CITATION = ("cora", "citeseer", "pubmed")
_HETERO = ("cornell", "texas", "wisconsin", "actor")


def _row(runs, lr, epochs, wd, hidden, dropout, S, lam, eps, table, **extra):
    row = dict(runs=runs, lr=lr, epochs=epochs, weight_decay=wd, hidden=hidden, dropout=dropout,
               S=S, lam=float(lam), eps=None if eps is None else float(eps), table=table)
    row.update(extra)
    return row


def _build():
    reg = {}
    # Table "tab:citation_hyper": Gaussian noise on the citation graphs, every ξ.
    for model, eps in (("ngc", None), ("rngc", 1.0)):
        for ds in _CITATION:
            reg[(model, ds, "gaussian", None)] = _row(100, 0.2, 100, 1e-5, 0, 0.0, 16, 32, eps,
                                                      "tab:citation_hyper")
    # Table "tab:heterophily_hyper" (all rows are "+MLP = y").
    het = {"cornell": (200, 16), "texas": (200, 16), "wisconsin": (1000, 2), "actor": (1000, 2)}
    for model in MODELS:
        for ds, (epochs, S) in het.items():
            for level, lam in ((0.01, 1), (1.0, 1024)):
                if model == "ngc":
                    eps = None
                else:
                    eps = 1.0 if ds in ("cornell", "texas") else 1e-5
                reg[(model, ds, "gaussian", level)] = _row(
                    10, 0.2, epochs, 5e-4, 16, 0.5, S, lam, eps, "tab:heterophily_hyper")
    # Table "tab:co-author_hyper".
    for model, eps in (("ngc", None), ("rngc", 1.0)):
        for level, lam in ((0.1, 1), (1.0, 128)):
            reg[(model, "coauthor-cs", "gaussian", level)] = _row(
                10, 0.2, 1000, 1e-7, 0, 0.0, 16, lam, eps, "tab:co-author_hyper")
        for level, lam in ((0.1, 1), (1.0, 1024)):
            reg[(model, "coauthor-physics", "gaussian", level)] = _row(
                10, 0.2, 200, 5e-4, 16, 0.5, 16, lam, eps, "tab:co-author_hyper")
    # Table "tab:products_hyper" (no weight-decay column: PyTorch's default 0 is assumed).
    for model, eps in (("ngc", None), ("rngc", 1e-2)):
        for level, lam in ((0.1, 32), (1.0, 256)):
            reg[(model, "ogbn-products", "gaussian", level)] = _row(
                10, 0.01, 300, 0.0, 256, 0.5, 128, lam, eps, "tab:products_hyper", layers=3)
    # Table "tab:citation_hyper_flip".
    flip_eps = {("cora", 0.1): 1e-5, ("cora", 0.2): 1e-5, ("cora", 0.4): 1e-1,
                ("citeseer", 0.1): 1e-5, ("citeseer", 0.2): 1e-5, ("citeseer", 0.4): 1e-5,
                ("pubmed", 0.1): 1e-1, ("pubmed", 0.2): 1e-1, ("pubmed", 0.4): 1e-1}
    for ds in _CITATION:
        for p in (0.1, 0.2, 0.4):
            S, lam = (32, 64) if (ds, p) == ("cora", 0.1) else (16, 32)
            reg[("ngc", ds, "flip", p)] = _row(100, 0.2, 100, 1e-5, 0, 0.0, S, lam, None,
                                               "tab:citation_hyper_flip")
            reg[("rngc", ds, "flip", p)] = _row(100, 0.2, 100, 1e-5, 0, 0.0, S, lam,
                                                flip_eps[(ds, p)], "tab:citation_hyper_flip")
    return reg


#: ``{(model, dataset, noise, level): hyper-parameters}``; ``level=None`` means "every level".
PAPER_HYPERPARAMS = _build()

# The data sets' own aliases (one list, shared with load_dataset), and the one table-only name.
_ALIASES = {**_DATASET_ALIASES, "products": "ogbn-products"}


def paper_config(model, dataset, *, noise="gaussian", level=None):
    """The appendix hyper-parameters for ``model`` on ``dataset`` at one noise setting.

    Parameters
    ----------
    model : {"ngc", "rngc"}
    dataset : str
        Case-insensitive, with the aliases of :data:`ngc_ref.datasets.ALIASES` (``"Cora"``,
        ``"CS"``, ``"Physics"``, ``"film"`` = Actor, ...) and ``"products"``.
    noise : {"gaussian", "flip"}
    level : float, optional
        ξ (Gaussian) or p (flip). Needed where the table has one row per level.

    Returns
    -------
    dict
        A fresh copy with ``norm="sym"`` added (see the module docstring).

    Raises
    ------
    ValueError
        Unknown model/noise, or no table row for the combination (the message lists the rows
        that exist for that model and dataset).

    Examples
    --------
    >>> from ngc_ref_theory.paper.hyperparams import paper_config
    >>> cfg = paper_config("ngc", "Cora", level=1.0)
    >>> cfg["lam"], cfg["S"], cfg["norm"]
    (32.0, 16, 'sym')
    """
    check_option(model, "model", MODELS)
    check_option(noise, "noise", NOISES)
    if not isinstance(dataset, str):
        raise TypeError(f"dataset must be a str, got {type(dataset).__name__}")
    ds = dataset.lower()
    ds = _ALIASES.get(ds, ds)
    row = PAPER_HYPERPARAMS.get((model, ds, noise, None))
    if row is None and level is not None:
        for (m, d, z, lv), r in PAPER_HYPERPARAMS.items():
            if (m, d, z) == (model, ds, noise) and lv is not None and math.isclose(lv, level):
                row = r
                break
    if row is None:
        avail = sorted(str(lv) for (m, d, z, lv) in PAPER_HYPERPARAMS
                       if (m, d, z) == (model, ds, noise))
        raise ValueError(f"no appendix row for model={model!r}, dataset={dataset!r}, "
                         f"noise={noise!r}, level={level!r}; levels with a row: "
                         f"{', '.join(avail) or 'none'}")
    out = dict(row)
    out["norm"] = "sym"
    return out
