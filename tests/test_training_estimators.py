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


# --- the settings reach the trainers, the seeds, the messages ---------------------------------

def _blobs(seed=0, m=24, d=3, dtype=np.float64):
    rng = np.random.default_rng(seed)
    y = np.arange(m) % 3
    X = rng.standard_normal((m, d)) + 2.0 * np.eye(3, d)[y]
    return X.astype(dtype), y


def test_softmax_classifier_is_train_classifier_with_its_settings():
    # Every hyper-parameter reaches train_classifier: the same seed gives the same parameters.
    from ngc_ref.training import train_classifier
    X, y = _blobs()
    kw = dict(hidden=(4, 3), dropout=0.3, optimizer="gd", lr=0.7, epochs=5, weight_decay=0.01)
    clf = SoftmaxClassifier(random_state=5, **kw).fit(X, np.array(["a", "b", "c"])[y])
    res = train_classifier(X, y, 3, seed=5, **kw)
    assert len(clf.coefs_) == 3
    for got, want in zip(clf._params(), res.params):
        assert np.array_equal(got, want)
    assert np.array_equal(clf.loss_curve_, res.loss_history) and clf.n_iter_ == 5
    assert list(clf.classes_) == ["a", "b", "c"]


def test_random_state_forms():
    from ngc_ref.training import train_classifier
    X, y = _blobs()
    kw = dict(epochs=3, hidden=2)
    # A legacy RandomState draws one int32 seed from itself, as scikit-learn does.
    seed = np.random.RandomState(3).randint(np.iinfo(np.int32).max)
    clf = SoftmaxClassifier(random_state=np.random.RandomState(3), **kw).fit(X, y)
    assert np.array_equal(clf.coefs_[0], train_classifier(X, y, seed=seed, **kw).params[0])
    # A Generator is used as is, and advances.
    rng = np.random.default_rng(8)
    clf = SoftmaxClassifier(random_state=rng, **kw).fit(X, y)
    assert np.array_equal(clf.coefs_[0], train_classifier(
        X, y, seed=np.random.default_rng(8), **kw).params[0])
    assert rng.random() != np.random.default_rng(8).random()
    # None: fresh entropy, not NumPy's global state (re-seeding it does not repeat the fit).
    np.random.seed(0)
    a = SoftmaxClassifier(**kw).fit(X, y).coefs_[0]
    np.random.seed(0)
    b = SoftmaxClassifier(**kw).fit(X, y).coefs_[0]
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("fit_dtype,x_dtype,out", [
    (np.float32, np.float32, np.float32), (np.float32, np.float64, np.float64),
    (np.float64, np.float32, np.float64), (np.float64, np.float64, np.float64)])
def test_predictions_are_computed_in_the_wider_dtype(fit_dtype, x_dtype, out):
    X, y = _blobs(dtype=fit_dtype)
    clf = SoftmaxClassifier(epochs=5, random_state=0).fit(X, y)
    assert clf.coefs_[0].dtype == fit_dtype
    Xp = X[:4].astype(x_dtype)
    Z = clf.decision_function(Xp)
    assert Z.dtype == out
    W, b = (p.astype(np.float64) for p in (clf.coefs_[0], clf.intercepts_[0]))
    assert_allclose(Z, Xp.astype(np.float64) @ W + b, rtol=1e-5 if out == np.float32 else 1e-12)
    assert clf.predict_proba(Xp).dtype == out


def test_float64_input_beyond_float32_range_to_a_float32_model():
    X, y = _blobs(dtype=np.float32)
    clf = SoftmaxClassifier(epochs=5, random_state=0).fit(X, y)
    big = np.full((1, 3), 1e39)                          # inf in float32
    assert np.all(np.isfinite(clf.decision_function(big)))


def test_validation_messages_say_where():
    X, y = _blobs()
    with pytest.raises(ValueError, match=r"\(checking X and y of SoftmaxClassifier\.fit\)$"):
        SoftmaxClassifier().fit(X[:, :, None], y)
    with pytest.raises(ValueError, match=r"\(checking y of SoftmaxClassifier\.fit\)$"):
        SoftmaxClassifier().fit(X, y + 0.5)
    clf = SoftmaxClassifier(epochs=2).fit(X, y)
    with pytest.raises(ValueError, match=r"\(checking X of SoftmaxClassifier\)$"):
        clf.predict(X[:, :2])
    # A NotFittedError (a ValueError subclass) is scikit-learn's own, left as it is.
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError) as info:
        SoftmaxClassifier().predict(X)
    assert "checking" not in str(info.value)


@pytest.mark.parametrize("name,params", [
    ("ngc", dict(lam=2.0, S=3)), ("rngc", dict(lam=2.0, S=3, eps=0.3)),
    ("sgc", dict(K=3)), ("appnp", dict(K=4, alpha=0.3)), ("s2gc", dict(K=2, alpha=0.2))])
def test_pipeline_propagates_with_its_parameters(data, name, params):
    model = make_node_classifier(data.adjacency, data.features, name, norm="rw", **params)
    gp = model[0]
    assert gp.get_params()["propagation"] == name
    assert {k: gp.get_params()[k] for k in params} == params
    assert_allclose(gp.fit().propagated_,
                    propagate(name, data.adjacency, data.features, norm="rw", **params),
                    rtol=0, atol=0)


def test_pipeline_defaults_and_networkx_options():
    import networkx as nx
    model = make_node_classifier(np.eye(3), np.eye(3))
    assert model[0].propagation == "ngc" and model[0].norm == "sym"
    G = nx.Graph()
    G.add_nodes_from([2, 0, 1])
    G.add_edge(0, 1, weight=3.0, w=0.5)
    G.add_edge(1, 2, weight=1.0, w=2.0)
    X = np.arange(6.0).reshape(3, 2)
    for kw in (dict(), dict(weight="w")):
        want = propagate("sgc", G, X, K=1, nodelist=[0, 1, 2], **kw)
        got = make_node_classifier(G, X, "sgc", K=1, nodelist=[0, 1, 2], **kw)[0].fit()
        assert_allclose(got.propagated_, want, rtol=0, atol=0)
        gp = GraphPropagation(G, X, propagation="sgc", K=1, nodelist=[0, 1, 2], **kw).fit()
        assert_allclose(gp.propagated_, want, rtol=0, atol=0)
    assert gp.n_features_in_ == 1 and gp.n_nodes_ == 3


def test_graph_propagation_messages():
    A, X = np.eye(4), np.ones((4, 2))
    need = (r"^GraphPropagation needs adjacency= and features= \(the graph and the n x d "
            r"features of all nodes\)$")
    for kw in (dict(adjacency=A), dict(features=X)):
        with pytest.raises(ValueError, match=need):
            GraphPropagation(**kw).fit()
    gp = GraphPropagation(A, X, propagation="raw").fit()
    with pytest.raises(ValueError, match=r"^X must be node indices, shape \(m,\) or \(m, 1\); "
                                         r"got shape=\(2, 2\)$"):
        gp.transform(np.zeros((2, 2), int))
    with pytest.raises(ValueError, match=r"^X must hold node indices in \[0, 3\], got min=1, "
                                         r"max=4$"):
        gp.transform([[1], [4]])
    empty = GraphPropagation(np.zeros((0, 0)), np.zeros((0, 2)), propagation="raw").fit()
    with pytest.raises(ValueError, match=r"absent: the graph has no nodes, got min=0"):
        empty.transform([[0]])


def test_other_input_dtypes_are_float64_as_scikit_learn_converts_them():
    # validate_data(dtype=[float64, float32]) keeps float32 and float64 and converts anything
    # else to float64: float16 features train in float64, integer features predict in float64
    # (the wider of float64 and a float32 model's dtype).
    X, y = _blobs()
    assert SoftmaxClassifier(epochs=2).fit(X.astype(np.float16), y).coefs_[0].dtype == np.float64
    clf = SoftmaxClassifier(epochs=2).fit(X.astype(np.float32), y)
    for dtype in (np.int8, np.float16, bool):
        assert clf.decision_function(np.ones((2, 3), dtype=dtype)).dtype == np.float64
