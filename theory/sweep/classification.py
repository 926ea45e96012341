"""The ``node_classification`` sweep task: one noisy-feature node-classification run of the
paper's Sec. 5 protocol (:func:`ngc_ref.training.run_experiment`) on a contextual SBM or one of
the paper's data sets, with its summary (test accuracy against the noise level per model)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from ngc_ref.graphs.stochastic import sbm_degrees

from ..paper.hyperparams import paper_config
from ..kit.stats import class_bag_of_words
from .summary import summarize_node_classification
from .tasks import Param, _sbm_params, register_task

_DATASET_CACHE: dict = {}


#: node_classification parameters that describe the synthetic data set only.
CSBM_ONLY = ("n", "k", "deg_in", "deg_out", "d")


def _nc_validate(params):
    if params["noise"] == "flip" and params["level"] > 1:
        raise ValueError(f"level is a probability for noise='flip', got {params['level']}")
    if params["dataset"] != "csbm":
        # Loads (and caches) the data now, so that a sweep whose data is missing stops
        # before any cell runs, with the loader's message naming the file and NGC_REF_DATA.
        _real_dataset(params["dataset"], params["split"])


def _nc_resolve(params):
    """A real-data cell carries no contextual-SBM sizes; a csbm cell no split."""
    if params["dataset"] == "csbm":
        params.pop("split")
    else:
        params["dataset"] = _real_dataset(params["dataset"], params["split"]).name
        for k in CSBM_ONLY:
            params.pop(k)
    return params


def _real_dataset(name, split):
    import os

    from ngc_ref.datasets import load_dataset
    key = (os.environ.get("NGC_REF_DATA"), name.lower(), split)
    if key not in _DATASET_CACHE:
        _DATASET_CACHE[key] = load_dataset(name, split=split)
    return _DATASET_CACHE[key]


def _csbm_dataset(params, seed):
    n, k = params["n"], params["k"]
    A, labels = sbm_degrees(n, k, params["deg_in"], params["deg_out"], seed)
    rng = np.random.default_rng(seed)
    X = class_bag_of_words(rng, labels, d=params["d"])
    perm = rng.permutation(len(labels))
    train = np.zeros(len(labels), bool)
    for c in range(k):  # 20 labelled nodes per class, as in the Planetoid splits
        train[perm[labels[perm] == c][:20]] = True
    rest = perm[~train[perm]]
    val, test = np.zeros_like(train), np.zeros_like(train)
    val[rest[:len(rest) // 3]] = True
    test[rest[len(rest) // 3:]] = True
    return SimpleNamespace(name="csbm", adjacency=A, features=X, labels=labels, train_mask=train,
                           val_mask=val, test_mask=test, num_classes=k)


@register_task("node_classification", {
    "dataset": Param(str, "csbm", doc="'csbm' (synthetic, homophilous SBM + bag of words) or a "
                                      "name for ngc_ref.datasets.load_dataset (needs "
                                      "NGC_REF_DATA)"),
    "split": Param(int, 0, min=0, doc="split of a real dataset"),
    **_sbm_params(600, 3, 6.0, 2.0, n_min=10, what="csbm: "),
    "d": Param(int, 120, min=2, doc="csbm: vocabulary size"),
    "noise": Param(str, "gaussian", choices=("gaussian", "flip", "rademacher", "uniform")),
    "level": Param(float, 0.1, min=0.0, doc="ξ (gaussian), p (flip) or s"),
    "model": Param(str, "ngc", choices=("ngc", "rngc", "gsd", "raw", "mlp", "sgc", "s2gc",
                                        "appnp")),
}, validate=_nc_validate, resolve=_nc_resolve, summary=summarize_node_classification)
def node_classification_task(params, seeds):
    """One node-classification run (Sec. 5 protocol) with ngc_ref.training.run_experiment.

    The noise seed does not depend on ``model``, so models of one (dataset, noise, level, rep)
    see the same noisy features, as in the paper's protocol.
    """
    from ngc_ref.training import run_experiment
    ds = params["dataset"]
    if ds == "csbm":
        dseed = seeds.derived("csbm-nc", params["n"], params["k"], params["deg_in"],
                              params["deg_out"], params["d"], params["rep"])
        data = _csbm_dataset(params, dseed)
    else:
        data = _real_dataset(ds, params["split"])
    run_seed = seeds.derived("nc-run", {k: v for k, v in params.items() if k != "model"})
    res = run_experiment(data, noise=params["noise"], levels=(params["level"],),
                         models=(params["model"],), runs=1, seed=run_seed,
                         hyperparams=paper_config)
    rec = res.records[0]
    spec = next(iter(res.specs.values()))
    return {"test_acc": float(rec["test_acc"]),
            "val_acc": None if math.isnan(rec["val_acc"]) else float(rec["val_acc"]),
            "final_loss": float(rec["final_loss"]), "run_seed": int(run_seed),
            "n": int(data.adjacency.shape[0]), "hyperparams": spec.source}
