"""The paper's appendix hyper-parameter tables (the checker's ``ngc_ref_theory.paper.hyperparams``,
moved out of the library by issue 36) against the tables as printed, and the checker's runs
that read them through the library's ``hyperparams=``."""

import doctest

import pytest

from ngc_ref.training import ModelSpec, model_spec, run_experiment
from ngc_ref_theory.paper import hyperparams as _hyperparams
from ngc_ref_theory.paper.hyperparams import PAPER_HYPERPARAMS, paper_config
from ngc_ref_theory.reproduce import cells

from ._training_synth import sbm_dataset

_CITATION = dict(lr=0.2, epochs=100, weight_decay=1e-5, hidden=0, dropout=0.0)


def test_paper_hyperparameters_match_the_appendix_tables():
    cfg = paper_config("ngc", "Cora", noise="gaussian", level=0.3)
    assert (cfg["S"], cfg["lam"], cfg["lr"], cfg["epochs"], cfg["weight_decay"],
            cfg["hidden"], cfg["dropout"], cfg["eps"]) == (16, 32.0, 0.2, 100, 1e-5, 0, 0.0, None)
    assert cfg["table"] == "tab:citation_hyper" and cfg["norm"] == "sym"
    flips = {p: paper_config("ngc", "cora", noise="flip", level=p) for p in (0.1, 0.2, 0.4)}
    assert [(c["S"], c["lam"]) for c in flips.values()] == [(32, 64.0), (16, 32.0), (16, 32.0)]
    assert paper_config("rngc", "cora", noise="flip", level=0.4)["eps"] == 0.1
    assert paper_config("rngc", "pubmed", noise="flip", level=0.1)["eps"] == 0.1
    het = paper_config("ngc", "wisconsin", level=1.0)
    assert (het["hidden"], het["dropout"], het["epochs"], het["S"], het["lam"]) == (
        16, 0.5, 1000, 2, 1024.0)
    assert paper_config("rngc", "film", level=0.01)["eps"] == 1e-5
    assert paper_config("ngc", "coauthor-cs", level=1.0)["lam"] == 128.0
    assert paper_config("rngc", "products", level=0.1)["layers"] == 3
    assert all("table" in row for row in PAPER_HYPERPARAMS.values())
    with pytest.raises(ValueError, match="levels with a row: 0.1, 0.2, 0.4"):
        paper_config("ngc", "cora", noise="flip", level=0.3)
    with pytest.raises(ValueError, match=r"^model must be one of 'ngc', 'rngc'; got 'gcn'$"):
        paper_config("gcn", "cora")
    with pytest.raises(ValueError,
                       match=r"^noise must be one of 'gaussian', 'flip'; got 'uniform'$"):
        paper_config("ngc", "cora", noise="uniform")
    cfg["S"] = -1
    assert paper_config("ngc", "cora")["S"] == 16          # copies, not the registry


def test_the_module_examples():
    assert doctest.testmod(_hyperparams).failed == 0      # the checker's doctests do not run


@pytest.mark.parametrize("args,want", [
    # The appendix rows (tab:citation_hyper_flip, tab:heterophily_hyper) and the fallback.
    (("ngc", "cora", "flip", 0.1),
     ModelSpec("ngc", dict(lam=64.0, S=32, norm="sym"), _CITATION,
               "tab:citation_hyper_flip (ngc, cora, flip, 0.1)")),
    (("rngc", "cora", "flip", 0.4),
     ModelSpec("rngc", dict(lam=32.0, S=16, eps=0.1, norm="sym"), _CITATION,
               "tab:citation_hyper_flip (rngc, cora, flip, 0.4)")),
    (("gsd", "cornell", "gaussian", 1.0),
     ModelSpec("gsd", dict(lam=1024.0, norm="sym"),
               dict(lr=0.2, epochs=200, weight_decay=5e-4, hidden=16, dropout=0.5),
               "S=inf; tab:heterophily_hyper (ngc, cornell, gaussian, 1.0)")),
    (("rngc", "sbm", "flip", 0.3),
     ModelSpec("rngc", dict(lam=32.0, S=16, eps=1.0, norm="sym"), _CITATION,
               "fallback: library defaults (the paper's citation-table settings); hyperparams "
               "has no row for 'sbm', flip, 0.3")),
    (("ngc/control", "cora", "flip", 0.1),
     ModelSpec("ngc", dict(lam=64.0, S=32, norm="sym"), _CITATION,
               "structure-only control (signal-free features) of tab:citation_hyper_flip "
               "(ngc, cora, flip, 0.1)", control=True)),
    (("mlp", "cora", "gaussian", 0.5),
     ModelSpec("raw", {}, dict(lr=0.01, epochs=200, weight_decay=5e-4, hidden=16, dropout=0.5),
               "pygcn MLP settings")),
])
def test_model_spec_with_the_paper_tables(args, want):
    assert model_spec(*args, hyperparams=paper_config) == want


def test_reproduce_runs_the_paper_tables():
    # Cora with flipping at p = 0.1 is the one citation row off the library's defaults.
    cfg = cells.model_config("tab:flip", "ngc", "cora", 0.1)
    assert cfg["propagation_params"] == {"lam": 64.0, "S": 32, "norm": "sym"}
    assert cfg["source"] == "tab:citation_hyper_flip (ngc, cora, flip, 0.1)"


def test_run_experiment_gets_the_row_of_its_data_set_noise_and_level():
    data = sbm_dataset(n_per_class=6, n_classes=2, d=4, seed=3, n_train_per_class=3)
    data.name = "cora"
    res = run_experiment(data, noise="flip", levels=(0.1,), models=("ngc",), runs=1,
                         noise_fn=lambda X, *a, **k: X, hyperparams=paper_config)
    assert res.specs[(0.1, "ngc")].propagation_params == dict(lam=64.0, S=32, norm="sym")
    assert res.specs[(0.1, "ngc")].source == "tab:citation_hyper_flip (ngc, cora, flip, 0.1)"
