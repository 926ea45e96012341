"""scikit-learn contract: estimator checks, cross_val_score, GridSearchCV, pipelines.

``SoftmaxClassifier`` is an ordinary estimator and runs the full ``parametrize_with_checks``
suite. ``GraphPropagation`` is graph-bound: its samples are node indices of one fixed graph,
so the generic checks that feed random float matrices of arbitrary shape to ``fit`` do not
apply. It runs the checks about the estimator API itself (construction, ``get_params`` /
``set_params``, cloning, repr, no attributes set in ``__init__``), and its fitting behaviour
is tested directly below.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils import estimator_checks as ec
from sklearn.utils.estimator_checks import parametrize_with_checks

from ._training_synth import sbm_dataset
from ngc_ref.training import (GraphPropagation, SoftmaxClassifier, make_node_classifier,
                              propagate)


@parametrize_with_checks([SoftmaxClassifier(random_state=0),
                          SoftmaxClassifier(hidden=8, dropout=0.2, random_state=0)])
def test_softmax_classifier_passes_sklearn_checks(estimator, check):
    check(estimator)


API_CHECKS = ["check_no_attributes_set_in_init", "check_get_params_invariance",
              "check_set_params", "check_estimator_cloneable", "check_estimator_repr",
              "check_parameters_default_constructible",
              "check_do_not_raise_errors_in_init_or_set_params"]


@pytest.mark.parametrize("check_name", API_CHECKS)
def test_graph_propagation_api_checks(check_name):
    data = sbm_dataset()
    est = GraphPropagation(data.adjacency, data.features, propagation="ngc", lam=4.0, S=4)
    getattr(ec, check_name)("GraphPropagation", est)


@pytest.fixture(scope="module")
def data():
    return sbm_dataset(n_per_class=30, signal=0.6, seed=1)


def test_transform_returns_rows_of_the_propagation(data):
    gp = GraphPropagation(data.adjacency, data.features, propagation="s2gc", K=3).fit()
    H = propagate("s2gc", data.adjacency, data.features, K=3)
    idx = np.array([[5], [0], [89]])
    assert_allclose(gp.transform(idx), H[[5, 0, 89]])
    assert_allclose(gp.transform(np.array([5.0, 0.0])), H[[5, 0]])     # integral floats
    assert gp.propagation_params() == {"K": 3, "alpha": 0.05, "norm": "sym"}
    with pytest.raises(ValueError, match="node indices"):
        gp.transform([[90]])
    with pytest.raises(TypeError, match="integer"):
        gp.transform([[0.5]])
    with pytest.raises(ValueError, match="adjacency"):
        GraphPropagation().fit()


def test_cross_val_score_and_pipeline_on_node_indices(data):
    nodes = np.arange(len(data.labels))[:, None]
    model = make_node_classifier(data.adjacency, data.features, "ngc", lam=8.0, S=8,
                                 epochs=50, random_state=0)
    scores = cross_val_score(model, nodes, data.labels, cv=StratifiedKFold(3))
    assert scores.shape == (3,) and scores.mean() > 0.8
    # Any sklearn classifier can follow the propagation step.
    lr = make_pipeline(GraphPropagation(data.adjacency, data.features, propagation="sgc"),
                       LogisticRegression(max_iter=200))
    assert cross_val_score(lr, nodes, data.labels, cv=3).mean() > 0.8


def test_grid_search_over_propagation_parameters(data):
    nodes = np.arange(len(data.labels))[:, None]
    model = make_node_classifier(data.adjacency, data.features, "ngc", epochs=30,
                                 random_state=0)
    grid = {"graphpropagation__lam": [1.0, 8.0], "graphpropagation__S": [0, 8],
            "softmaxclassifier__lr": [0.2]}
    gs = GridSearchCV(model, grid, cv=StratifiedKFold(3)).fit(nodes, data.labels)
    assert gs.best_params_["graphpropagation__lam"] in (1.0, 8.0)
    assert len(gs.cv_results_["mean_test_score"]) == 4
    assert gs.score(nodes, data.labels) > 0.8
    # The graph-aware settings beat S = 0 (no propagation, X/(λ+1)) on this noisy SBM.
    res = {(p["graphpropagation__lam"], p["graphpropagation__S"]): s
           for p, s in zip(gs.cv_results_["params"], gs.cv_results_["mean_test_score"])}
    assert res[(8.0, 8)] > res[(8.0, 0)]


def test_clone_keeps_graph_parameters_and_refits(data):
    gp = GraphPropagation(data.adjacency, data.features, propagation="ngc", lam=2.0, S=3)
    c = clone(gp).set_params(S=5)
    assert c.get_params()["S"] == 5 and c.get_params()["lam"] == 2.0
    assert not hasattr(c, "propagated_")
    assert c.fit().propagated_.shape == data.features.shape
