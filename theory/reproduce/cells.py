"""One cell of ``ngc-ref reproduce``: one run of one noise setting, every model of the target
trained on the same noisy features (the paper's protocol), registered as the sweep task
``reproduce`` so that the crash-safe store resumes a run at cell granularity.

Per cell: load the data set (cached per process) with the run's split, corrupt the features
once (``ngc_ref.noise.corrupt``, with or without row normalisation as the reading says), build
every model's configuration (:func:`model_config`: the appendix hyper-parameters,
``paper.hyperparams.paper_config``, through ``ngc_ref.training.model_spec``) and fit them all with
the library's per-run loop, :func:`ngc_ref.training.fit_models` (what
:func:`ngc_ref.training.run_experiment` calls for every run): propagate, train, read the test
accuracy after the last epoch; the depth figures' S grid from one pass of the series
(:func:`ngc_ref.neumann_partial_sums`); a diverging model recorded with its error, not fatal.
The structure-only control (``ngc/control``) is NGC on signal-free features of the same shape
and Frobenius norm (``ngc_ref.training.controls.signal_free_features``).

Seeds (from the sweep seed and the cell's coordinates, never from the order cells run in):
the noise of (data set, noise, level, run) is the same in every reading and target, so
readings are paired run by run; the initialisation seed is shared by every model of the cell;
the control's Z is one draw per (data set, run), shared by the levels.

The task declares its cost model (:func:`reproduce_seconds`, the measured :data:`COST`), by
which :func:`plan` orders a run's cells.

This module adds the cell's own seeds, readings and model keys.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from itertools import zip_longest

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from ngc_ref.datasets import load_dataset
from ngc_ref.noise import corrupt, row_normalize
from ngc_ref.training import ModelSpec, fit_models, model_spec
from ngc_ref.training.gcn import GCN_KEYS

from ..paper.hyperparams import paper_config
from ..sweep import Param, cell_seconds, register_task
from .targets import MODEL_HELP, TARGETS

_DATA: dict = {}


def split_for(target, run):
    """The data split of run ``run``: Geom-GCN split k for run k, the random 60/20/20 split
    of seed k for Coauthor, the one fixed split otherwise."""
    splits = TARGETS[target].options.get("splits")
    if splits == "geom-gcn":
        return run % 10
    if splits == "random":
        return run
    return 0


def dataset(name, split=0):
    """``load_dataset(name, split=split)`` from ``NGC_REF_DATA``, cached in this process (the
    Pubmed warning about its missing ``allx`` is the target's note, not repeated per cell)."""
    key = (os.environ.get("NGC_REF_DATA"), name, split)
    if key not in _DATA:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Pubmed features are incomplete")
            _DATA[key] = load_dataset(name, split=split)
    return _DATA[key]


def adjacency(data, dtype):
    """The adjacency in the features' float dtype (cached): float32 features then propagate
    in float32 in every model (SciPy would otherwise promote A @ H to float64)."""
    key = ("adjacency", id(data), np.dtype(dtype).str)
    if key not in _DATA:
        A = data.adjacency
        _DATA[key] = A.astype(dtype) if np.dtype(dtype) == np.float32 else A
    return _DATA[key]


def clean_features(target, data):
    """The features the noise is applied to: binarised (X > 0) for flipping when they are not
    0/1 (Pubmed's TF-IDF weights), else as loaded."""
    X = data.features
    if TARGETS[target].noise != "flip":
        return X
    values = X.data if sp.issparse(X) else np.asarray(X)
    if np.all((values == 0) | (values == 1)):
        return X
    if sp.issparse(X):
        B = X.copy()
        B.data = (B.data > 0).astype(B.dtype)
        B.eliminate_zeros()
        return B
    return (np.asarray(X) > 0).astype(np.asarray(X).dtype)


def rownorm(target, reading):
    """Whether the features are row-normalised after the noise in this reading."""
    per = TARGETS[target].options.get("rownorm")
    return True if per is None else bool(per[reading])


def parse_model(model):
    """``"rngc-rw@S=4/control"`` -> (base, norm or None, S or None, control)."""
    control = model.endswith("/control")
    core = model[:-len("/control")] if control else model
    core, _, depth = core.partition("@")
    base, _, norm = core.partition("-")
    S = int(depth.split("=", 1)[1]) if depth else None
    return base, (norm or None), S, control


def model_config(target, model, dataset_name, level):
    """What ``model`` runs in ``target`` at ``level``: a JSON-able dict (the record's config).

    ``kind`` is ``"propagation"`` (a propagation, then ``train_classifier``) or ``"gcn"``.
    """
    t = TARGETS[target]
    base, norm, S, _ = parse_model(model)
    spec = model_spec(base, dataset_name, t.noise, level, hyperparams=paper_config)
    if base == "gcn":     # ModelSpec(trainer="gcn"): pygcn's settings, Ã_sym
        return {"kind": "gcn", **{k: spec.classifier_params[k] for k in GCN_KEYS
                                  if k in spec.classifier_params}, "source": spec.source}
    prop = dict(spec.propagation_params)
    if norm is not None:
        prop["norm"] = norm
    if S is not None:
        prop["S"] = S
    out = {"kind": "propagation", "propagation": spec.propagation,
           "propagation_params": prop, "classifier": dict(spec.classifier_params),
           "source": spec.source}
    if base == "rngc":
        mode = t.options.get("rngc_mode")
        if mode is not None:
            prop["mode"] = mode
        else:
            out["evaluator"] = RNGC_EVALUATOR
    return out


#: How the exact ('full') RNGC series is evaluated here: the same series as
#: ngc_ref.robust_propagate(mode="full"), summed forward with the XXᵀ term applied at the
#: cheapest cost (sparse X; (XXᵀ)V when n < d); tests/test_robust.py checks both agree.
RNGC_EVALUATOR = "ngc_ref.neumann_partial_sums"


def _spec(cfg, model):
    """The library's :class:`~ngc_ref.training.ModelSpec` of ``model`` with its configuration
    ``cfg``: a control for ``/control``; H from :func:`ngc_ref.neumann_partial_sums` for the
    depth figures' models (``@S=``: the grid from one pass) and the RNGC evaluator."""
    _, _, S, control = parse_model(model)
    if cfg["kind"] == "gcn":
        return ModelSpec("raw", {}, {k: cfg[k] for k in GCN_KEYS if k in cfg}, trainer="gcn",
                         control=control)
    return ModelSpec(cfg["propagation"], cfg["propagation_params"], cfg["classifier"],
                     control=control,
                     partial_sums=S is not None or cfg.get("evaluator") == RNGC_EVALUATOR)


def _record(cfg, fit):
    """A model's record in the cell's result: a failed fit (a diverging training or series)
    keeps its error's first line instead of accuracies."""
    rec = {"config": cfg}
    if fit["error"] is None:
        rec.update(test_acc=float(fit["test_acc"]),
                   val_acc=None if math.isnan(fit["val_acc"]) else float(fit["val_acc"]))
    else:
        rec.update(test_acc=None, val_acc=None, error=fit["error"].splitlines()[0])
    return rec | {"seconds": round(fit["seconds"], 3),
                  "cpu_seconds": round(fit["cpu_seconds"], 3)}


def _validate(params):
    t = TARGETS[params["target"]]
    if params["dataset"] not in t.levels:
        raise ValueError(f"{t.key} runs on {list(t.datasets)}, not {params['dataset']!r}")
    if not any(math.isclose(params["level"], lv) for lv in t.levels[params["dataset"]]):
        raise ValueError(f"{t.key} on {params['dataset']} runs the levels "
                         f"{list(t.levels[params['dataset']])}, not {params['level']}")
    if params["reading"] not in t.readings:
        raise ValueError(f"{t.key} has the readings {list(t.readings)}, not "
                         f"{params['reading']!r}")
    for m in params["models"].split(","):
        base, norm, S, control = parse_model(m)
        if base not in MODEL_HELP or norm not in (None, "rw") or (S is not None and S < 0):
            raise ValueError(f"unknown model {m!r} in models={params['models']!r}")


#: Measured CPU seconds of one cell (one run of one level and reading) per (target, data set):
#: the mean over the cells of one default run on the idle 2-core development machine (each
#: cell on one core, one BLAS thread): the ``reproduce`` task's cost model
#: (:func:`reproduce_seconds`). The plan orders cells by it (longest first) and the default
#: run counts come from it.
COST = {
    ("fig:noise", "cora"): 5.1, ("fig:noise", "citeseer"): 18.6, ("fig:noise", "pubmed"): 9.6,
    ("tab:heterophily", "cornell"): 0.9, ("tab:heterophily", "texas"): 0.9,
    ("tab:heterophily", "wisconsin"): 3.0, ("tab:heterophily", "actor"): 52.3,
    ("tab:coauthor", "coauthor-cs"): 500.0, ("tab:coauthor", "coauthor-physics"): 478.0,
    ("tab:flip", "cora"): 6.2, ("tab:flip", "citeseer"): 18.5, ("tab:flip", "pubmed"): 9.1,
    ("tab:row normalization", "cora"): 0.3, ("tab:row normalization", "citeseer"): 1.0,
    ("tab:row normalization", "pubmed"): 1.0,
    ("fig:depth", "cora"): 4.7, ("fig:depth", "citeseer"): 19.0, ("fig:depth", "pubmed"): 6.3,
}


#: A cell of a (target, data set) not measured in :data:`COST`.
UNMEASURED_SECONDS = 10.0


def reproduce_seconds(params):
    """The cost model of a ``reproduce`` cell (declared with the task, read through
    :func:`~ngc_ref_theory.sweep.cell_seconds`): its measured CPU seconds, :data:`COST`, or
    :data:`UNMEASURED_SECONDS`.

    >>> reproduce_seconds({"target": "tab:heterophily", "dataset": "actor"})
    52.3
    """
    return COST.get((params["target"], params["dataset"]), UNMEASURED_SECONDS)


@register_task("reproduce", {
    "target": Param(str, choices=tuple(TARGETS), doc="experiment (paper label)"),
    "dataset": Param(str, doc="canonical data set name"),
    "level": Param(float, min=0.0, doc="ξ (Gaussian) or p (flip); 0 = clean"),
    "reading": Param(str, "paper", doc="which reading of an unstated choice"),
    "run": Param(int, 0, min=0, doc="run number (split and seeds)"),
    "models": Param(str, doc="comma-separated model keys, in order"),
}, validate=_validate, cost=reproduce_seconds)
def reproduce_task(params, seeds):
    """One run of one noise setting of a paper experiment, every model on the same features.

    BLAS runs on one thread: the cells themselves run in parallel (one per core), the small
    data sets' matrices gain nothing from threads (OpenBLAS's threads spin when the cores are
    shared), and even a Coauthor cell measured no faster with two (most of its time is in
    memory-bound products). Fixed here, so the numbers do not depend on ``-j``.
    """
    with threadpool_limits(limits=1):
        return _run_cell(params, seeds)


def _run_cell(params, seeds):
    target, name, level = params["target"], params["dataset"], params["level"]
    run, reading = params["run"], params["reading"]
    t = TARGETS[target]
    split = split_for(target, run)
    data = dataset(name, split)
    labels = np.asarray(data.labels)
    t0, c0 = time.perf_counter(), time.process_time()
    noise_rng = np.random.default_rng(seeds.derived("noise", name, t.noise, level, run))
    if level == 0.0:   # clean features (sparse kept sparse), no noise stream drawn
        X0 = clean_features(target, data)
        Xn = row_normalize(X0) if rownorm(target, reading) else X0
    else:
        Xn = corrupt(clean_features(target, data), t.noise, level, seed=noise_rng,
                     normalize=rownorm(target, reading))
    init_seed = seeds.derived("init", name, t.noise, level, run)
    noise_seconds = time.perf_counter() - t0
    configs = {m: model_config(target, m, name, level) for m in params["models"].split(",")}
    fits = fit_models({m: _spec(cfg, m) for m, cfg in configs.items()},
                      adjacency(data, Xn.dtype), Xn, labels, data.train_mask, data.val_mask,
                      data.test_mask, data.num_classes, init_seed,
                      control_seed=seeds.derived("control", name, run), errors="record")
    models = {m: _record(cfg, fits[m]) for m, cfg in configs.items()}
    return {"models": models, "split": split, "n": int(labels.shape[0]),
            "features": list(Xn.shape), "dtype": str(Xn.dtype),
            "rownorm": rownorm(target, reading), "noise_seconds": round(noise_seconds, 3),
            "init_seed": int(init_seed), "cpu_seconds": round(time.process_time() - c0, 3)}


#: Data sets whose cells hold several GB while they run: the plan alternates them, so that
#: two workers starting on the longest cells hold one of each, not two of the largest.
LARGE = ("coauthor-physics", "coauthor-cs")


def plan(ctx):
    """The planned cells (:meth:`.targets.Target.planned_cells`) of the targets ``ctx.chosen``
    selects, as ``(task, params)``, longest first by the task's cost model
    (:func:`~ngc_ref_theory.sweep.cell_seconds`: :func:`reproduce_seconds`), the :data:`LARGE`
    data sets' cells alternating."""
    cells = [cell for key in ctx.chosen if key in TARGETS
             for cell in TARGETS[key].cells(ctx, "sym")]
    cells.sort(key=lambda c: -cell_seconds(*c))
    large = [c for c in cells if c[1]["dataset"] in LARGE]
    by_ds = [[c for c in large if c[1]["dataset"] == d] for d in LARGE]
    mixed = [c for group in zip_longest(*by_ds) for c in group if c is not None]
    return mixed + [c for c in cells if c[1]["dataset"] not in LARGE]


__all__ = ["COST", "LARGE", "UNMEASURED_SECONDS", "clean_features", "dataset", "model_config",
           "parse_model", "plan", "reproduce_seconds", "reproduce_task", "rownorm", "split_for"]
