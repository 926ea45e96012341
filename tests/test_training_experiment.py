"""The experiments of ngc_ref.training.experiment, on a synthetic SBM with a stand-in noise."""

import re
import sys

import numpy as np
import pytest
import scipy.sparse as sp

from ._planted import DROP, altered
from ._training_synth import fake_corrupt, sbm_dataset
from ngc_ref.training import (ModelSpec, frobenius_norm, match_frobenius, model_spec,
                              run_experiment, signal_free_features)


@pytest.fixture(scope="module")
def data():
    return sbm_dataset(n_per_class=40, signal=0.5, seed=2)


def test_same_noise_for_all_models_within_a_run(data):
    calls = []

    def counting(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
        out = fake_corrupt(X, kind, level, seed=seed, normalize=normalize)
        calls.append((level, out))
        return out

    res = run_experiment(data, levels=(0.5, 1.0), models=("ngc", "raw", "sgc"), runs=3,
                         noise_fn=counting)
    assert len(calls) == 2 * 3                          # once per (level, run), not per model
    noisy = [c[1] for c in calls]
    assert not np.allclose(noisy[0], noisy[1])          # a fresh draw per run
    assert len(res.records) == 2 * 3 * 3


def test_deterministic_under_seed(data):
    kw = dict(levels=(1.0,), models=("ngc", "mlp"), runs=2, noise_fn=fake_corrupt)
    a = run_experiment(data, seed=5, **kw).records
    b = run_experiment(data, seed=5, **kw).records
    c = run_experiment(data, seed=6, **kw).records
    assert a == b
    assert [r["test_acc"] for r in a] != [r["test_acc"] for r in c]


def test_graph_denoises_on_a_homophilous_graph(data):
    res = run_experiment(data, levels=(2.0,), models=("ngc", "raw", "s2gc", "gsd"), runs=4,
                         noise_fn=fake_corrupt)
    s = res.summary()
    acc = {m: s[("sbm", "gaussian", 2.0, m)][0] for m in ("ngc", "raw", "s2gc", "gsd")}
    assert acc["ngc"] > acc["raw"] + 0.1
    assert acc["gsd"] > acc["raw"] + 0.1
    assert res.specs[(2.0, "ngc")].source == _DEFAULTS      # no hyperparams: the defaults


def test_custom_model_specs_flip_noise_and_markdown(data):
    models = {"NGC S=4": ModelSpec("ngc", dict(lam=4.0, S=4), dict(epochs=30)),
              "RNGC": ModelSpec("rngc", dict(lam=4.0, S=4, eps=0.1), dict(epochs=30))}
    res = run_experiment(data, noise="flip", levels=(0.1, 0.2), models=models, runs=2,
                         noise_fn=fake_corrupt)
    md = res.to_markdown()
    lines = md.splitlines()
    assert lines[0] == "| model | sbm flip 0.1 | sbm flip 0.2 |"
    assert lines[2].startswith("| NGC S=4 | ") and "±" in lines[2]
    assert all(v[2] == 2 for v in res.summary().values())


def test_runner_validation(data):
    with pytest.raises(ValueError, match="noise"):
        run_experiment(data, noise="laplace", noise_fn=fake_corrupt)
    with pytest.raises(ValueError, match="model"):
        run_experiment(data, models=("gat",), noise_fn=fake_corrupt)
    with pytest.raises(ValueError, match="/control"):
        run_experiment(data, models=("gat/control",), noise_fn=fake_corrupt)
    with pytest.raises(ValueError, match=r"models\['m'\].trainer"):
        run_experiment(data, models={"m": ModelSpec("raw", trainer="svm")},
                       noise_fn=fake_corrupt)
    with pytest.raises(TypeError, match=r"models\['m'\].control"):
        run_experiment(data, models={"m": ModelSpec("raw", control="yes")},
                       noise_fn=fake_corrupt)
    with pytest.raises(TypeError, match="adjacency"):
        run_experiment(object(), noise_fn=fake_corrupt)


def test_normalize_flag_reaches_the_noise_function(data):
    seen = []

    def spy(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
        seen.append((kind, level, normalize))
        return fake_corrupt(X, kind, level, seed=seed, normalize=normalize)

    res = run_experiment(data, noise="flip", levels=(0.2,), models=("raw",), runs=1,
                         normalize=False, noise_fn=spy)
    assert seen == [("flip", 0.2, False)]
    assert res.settings["normalize"] is False


@pytest.mark.parametrize("noise,expected", [("gaussian", True), ("flip", False)])
def test_default_row_normalisation_is_the_papers_order(data, noise, expected):
    # Fig. 2 row-normalises after Gaussian noise; Table 4 reproduces only without it (flip).
    seen = []

    def spy(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
        seen.append(normalize)
        return fake_corrupt(X, "gaussian", level, seed=seed, normalize=normalize)

    level = 0.1 if noise == "flip" else 0.5
    run_experiment(data, noise=noise, levels=(level,), models=("raw",), runs=1, noise_fn=spy)
    assert seen == [expected]
    run_experiment(data, noise=noise, levels=(level,), models=("raw",), runs=1, noise_fn=spy,
                   normalize=not expected)
    assert seen[-1] == (not expected)
    with pytest.raises(TypeError, match="normalize"):
        run_experiment(data, noise=noise, levels=(level,), models=("raw",), runs=1,
                       normalize="yes")


def test_gcn_is_a_runner_model_that_uses_the_graph(data):
    spec = model_spec("gcn", "sbm", "gaussian", 2.0)
    assert spec.trainer == "gcn" and spec.propagation == "raw" and not spec.control
    assert spec.classifier_params == dict(hidden=16, dropout=0.5, lr=0.01, weight_decay=5e-4,
                                          epochs=200, norm="sym")
    res = run_experiment(data, levels=(2.0,), models=("gcn", "mlp"), runs=3,
                         noise_fn=fake_corrupt)
    s = res.summary()
    gcn, mlp = (s[("sbm", "gaussian", 2.0, m)][0] for m in ("gcn", "mlp"))
    assert gcn > mlp + 0.1
    rec = [r for r in res.records if r["model"] == "gcn"]
    assert all(np.isfinite(r["val_acc"]) and np.isfinite(r["final_loss"]) for r in rec)
    # A propagation in front of the GCN, and the GCN's own settings, through a ModelSpec.
    custom = {"sgc+gcn": ModelSpec("sgc", {"K": 1}, dict(epochs=20, hidden=8, norm="rw"),
                                   trainer="gcn")}
    res = run_experiment(data, levels=(2.0,), models=custom, runs=1, noise_fn=fake_corrupt)
    assert 0.0 <= res.records[0]["test_acc"] <= 1.0


def test_control_model_names_and_specs():
    for base in ("ngc", "rngc", "sgc", "raw", "gcn"):
        spec, ctrl = (model_spec(m, "cora", "gaussian", 0.3) for m in (base, base + "/control"))
        assert ctrl.control and not spec.control
        assert (ctrl.propagation, ctrl.propagation_params, ctrl.classifier_params,
                ctrl.trainer) == (spec.propagation, spec.propagation_params,
                                  spec.classifier_params, spec.trainer)
        assert ctrl.source.startswith("structure-only control")


def test_signal_free_features_match_shape_scale_and_dtype():
    X = np.random.default_rng(0).random((30, 7)).astype(np.float32)
    Z = signal_free_features(X, seed=1)
    assert Z.shape == X.shape and Z.dtype == np.float32
    assert frobenius_norm(Z) == pytest.approx(frobenius_norm(X), rel=1e-6)
    assert_same = signal_free_features(3 * X.astype(np.float64), seed=1)
    assert assert_same.dtype == np.float64
    assert frobenius_norm(assert_same) == pytest.approx(3 * frobenius_norm(X), rel=1e-6)
    assert np.array_equal(signal_free_features(X, seed=1), Z)          # same seed, same Z
    S = sp.csr_array(X * (X > 0.5))
    assert frobenius_norm(signal_free_features(S, seed=0)) == pytest.approx(frobenius_norm(S))
    assert frobenius_norm(match_frobenius(Z, 2.0)) == pytest.approx(2.0, rel=1e-6)
    assert not match_frobenius(np.zeros((2, 2)), 1.0).any()
    with pytest.raises(ValueError, match="X"):
        signal_free_features(np.ones(3))


def test_control_sees_only_the_shape_and_scale_of_the_noisy_features(data):
    # Two noise functions whose matrices share shape and Frobenius norm but not content. The
    # second flips the sign of a random half of the entries: the squares, hence ‖X‖_F, are the
    # same bits by construction (same values, same order), so the controls must give the very
    # same records, while the models themselves, which see the content, do not. (A matrix
    # merely rescaled to the same norm agrees only to rounding, and which last bit differs
    # depends on the CPU's BLAS kernel: issue #25.)
    def flipped(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
        Xn = fake_corrupt(X, kind, level, seed=seed, normalize=normalize)
        sign = np.where(np.random.default_rng(99).random(Xn.shape) < 0.5, -1.0, 1.0)
        return Xn * sign

    models = ("sgc", "sgc/control", "ngc/control", "gcn/control")
    kw = dict(levels=(0.5, 1.0), models=models, runs=2, seed=4)
    a = run_experiment(data, noise_fn=fake_corrupt, **kw).records
    b = run_experiment(data, noise_fn=flipped, **kw).records
    assert [r["model"] for r in a] == [r["model"] for r in b]
    for ra, rb in zip(a, b):
        if ra["model"].endswith("/control"):
            assert ra == rb
    assert [r["test_acc"] for r in a if r["model"] == "sgc"] != [
        r["test_acc"] for r in b if r["model"] == "sgc"]


def test_control_features_are_a_function_of_shape_and_scale_alone():
    # The control's features, called directly: equal norms to the bit give equal features to
    # the bit; norms equal only to rounding give features equal to rounding.
    rng = np.random.default_rng(3)
    X = rng.random((20, 6))
    Y = X * np.where(rng.random(X.shape) < 0.5, -1.0, 1.0)      # same ‖·‖_F bits
    assert frobenius_norm(X) == frobenius_norm(Y) and not np.allclose(X, Y)
    assert np.array_equal(signal_free_features(X, seed=7), signal_free_features(Y, seed=7))
    R = match_frobenius(rng.standard_normal(X.shape), frobenius_norm(X))
    np.testing.assert_allclose(signal_free_features(R, seed=7),
                               signal_free_features(X, seed=7), rtol=1e-12, atol=0)
    # ... and only the scale: twice the norm, twice the features, same draw.
    np.testing.assert_allclose(signal_free_features(2 * X, seed=7),
                               2 * signal_free_features(X, seed=7), rtol=1e-12, atol=0)


def test_controls_leave_the_other_models_unchanged_and_are_paired(data):
    kw = dict(levels=(0.1, 1.0), runs=3, seed=2, noise_fn=fake_corrupt)
    plain = run_experiment(data, models=("ngc", "raw"), **kw).records
    both = run_experiment(data, models=("ngc", "ngc/control", "raw"), **kw).records
    assert [r for r in both if r["model"] != "ngc/control"] == plain
    s = run_experiment(data, models=("ngc", "ngc/control"), **kw).summary()
    # Signal in the features at low noise: NGC beats its structure-only control there.
    assert s[("sbm", "gaussian", 0.1, "ngc")][0] > s[("sbm", "gaussian", 0.1, "ngc/control")][0]


def test_match_frobenius_rescales_small_norms_too():
    assert_allclose = np.testing.assert_allclose
    assert_allclose(match_frobenius(np.array([[0.3, 0.4]]), 10.0), [[6.0, 8.0]], rtol=1e-15)
    assert_allclose(match_frobenius(np.array([[0.3, 0.4]]), 0.5), [[0.3, 0.4]], rtol=1e-15)


def test_signal_free_features_dtype_and_degenerate_shapes():
    X = np.arange(6.0).reshape(3, 2)
    assert signal_free_features(X, seed=0, dtype=np.float32).dtype == np.float32
    assert signal_free_features(X.astype(np.float32), seed=0, dtype="float64").dtype == np.float64
    with pytest.raises(TypeError, match=r"^dtype must be float32 or float64, got int64$"):
        signal_free_features(X, seed=0, dtype=np.int64)
    with pytest.raises(ValueError, match=r"^X must be a 2-D \(n, d\) array, got shape=None$"):
        signal_free_features([[1.0, 2.0]])
    # One entry: Z = ±‖X‖_F whatever the draw (|N(0, 1)| is below 1 for most seeds).
    for seed in range(6):
        assert abs(signal_free_features(np.array([[5.0]]), seed=seed)[0, 0]) == 5.0
    # No entries: nothing to rescale (no 0/0).
    assert signal_free_features(np.zeros((0, 3)), seed=0).shape == (0, 3)


def test_signal_free_features_memory_guard_names_the_control(monkeypatch):
    monkeypatch.setenv("NGC_REF_MEMORY_BUDGET", "1KiB")
    with pytest.raises(ValueError, match=(
            r"^signal_free_features would need 1.56 KiB \(a dense 40 x 5 array of 8 bytes per "
            r"entry: the control features Z\) but only 1 KiB is available .*; use a smaller "
            r"data set or a float32 X\.")):
        signal_free_features(np.ones((40, 5)), seed=0)


# --- model specs, labels and masks, the trainers' paths, seeds, messages, the table ----------

_CITATION = dict(lr=0.2, epochs=100, weight_decay=1e-5, hidden=0, dropout=0.0)
_DEFAULTS = "library defaults (the paper's citation-table settings)"


@pytest.mark.parametrize("args,want", [
    # Without hyperparams: the library's defaults, the paper's citation-table row (the
    # appendix rows per data set are the checker's: tests/test_paper_hyperparams.py).
    (("ngc", "cora", "flip", 0.1),
     ModelSpec("ngc", dict(lam=32.0, S=16, norm="sym"), _CITATION, _DEFAULTS)),
    (("rngc", "sbm", "flip", 0.3),
     ModelSpec("rngc", dict(lam=32.0, S=16, eps=1.0, norm="sym"), _CITATION, _DEFAULTS)),
    (("gsd", "cornell", "gaussian", 1.0),
     ModelSpec("gsd", dict(lam=32.0, norm="sym"), _CITATION, "S=inf; " + _DEFAULTS)),
    (("sgc", "cora", "gaussian", 0.1),
     ModelSpec("sgc", {}, _CITATION, "registry defaults + NGC classifier")),
    (("raw", "cora", "gaussian", 0.1),
     ModelSpec("raw", {}, _CITATION, "registry defaults + NGC classifier")),
    (("mlp", "cora", "gaussian", 0.1),
     ModelSpec("raw", {}, dict(lr=0.01, epochs=200, weight_decay=5e-4, hidden=16, dropout=0.5),
               "pygcn MLP settings")),
    (("gcn", "cora", "gaussian", 0.1),
     ModelSpec("raw", {}, dict(hidden=16, dropout=0.5, lr=0.01, weight_decay=5e-4, epochs=200,
                               norm="sym"),
               "pygcn settings (Kipf & Welling 2017)", trainer="gcn")),
    (("ngc/control", "cora", "flip", 0.1),
     ModelSpec("ngc", dict(lam=32.0, S=16, norm="sym"), _CITATION,
               "structure-only control (signal-free features) of " + _DEFAULTS, control=True)),
])
def test_model_spec_table(args, want):
    assert model_spec(*args) == want


def _mine(model, dataset, *, noise, level):
    """A user's table: one row per model, other values than the defaults everywhere."""
    if dataset != "sbm":
        raise ValueError(f"no row for {dataset!r}")
    return dict(S=3 if model == "ngc" else 5, lam=2.0, eps=0.5, norm="rw", lr=0.05, epochs=7,
                weight_decay=0.0, hidden=4, dropout=0.1, table=f"mine/{noise}/{level}")


def test_model_spec_takes_its_settings_from_hyperparams():
    calls = []

    def spy(model, dataset, **kw):
        calls.append((model, dataset, kw))
        return _mine(model, dataset, **kw)

    clf = dict(lr=0.05, epochs=7, weight_decay=0.0, hidden=4, dropout=0.1)
    assert model_spec("rngc/control", "sbm", "flip", 0.3, hyperparams=spy) == ModelSpec(
        "rngc", dict(lam=2.0, S=5, eps=0.5, norm="rw"), clf,
        "structure-only control (signal-free features) of mine/flip/0.3 (rngc, sbm, flip, 0.3)",
        control=True)
    assert model_spec("gsd", "sbm", "gaussian", 2.0, hyperparams=spy) == ModelSpec(
        "gsd", dict(lam=2.0, norm="rw"), clf, "S=inf; mine/gaussian/2.0 (ngc, sbm, gaussian, 2.0)")
    # gsd reads the ngc row; models without these settings do not call it
    assert model_spec("sgc", "sbm", "gaussian", 2.0, hyperparams=spy).classifier_params == _CITATION
    assert calls == [("rngc", "sbm", dict(noise="flip", level=0.3)),
                     ("ngc", "sbm", dict(noise="gaussian", level=2.0))]


def test_hyperparams_without_a_row_fall_back_to_the_defaults():
    spec = model_spec("ngc", "cora", "gaussian", 0.5, hyperparams=_mine)   # _mine: ValueError
    assert spec == ModelSpec("ngc", dict(lam=32.0, S=16, norm="sym"), _CITATION,
                             "fallback: " + _DEFAULTS + "; hyperparams has no row for 'cora', "
                             "gaussian, 0.5")


def test_run_experiment_passes_hyperparams_to_its_models(data):
    kw = dict(levels=(0.5,), runs=2, seed=1, noise_fn=fake_corrupt)
    res = run_experiment(data, models=("ngc", "rngc"), hyperparams=_mine, **kw)
    clf = dict(lr=0.05, epochs=7, weight_decay=0.0, hidden=4, dropout=0.1)
    want = {"ngc": ModelSpec("ngc", dict(lam=2.0, S=3, norm="rw"), clf,
                             "mine/gaussian/0.5 (ngc, sbm, gaussian, 0.5)"),
            "rngc": ModelSpec("rngc", dict(lam=2.0, S=5, eps=0.5, norm="rw"), clf,
                              "mine/gaussian/0.5 (rngc, sbm, gaussian, 0.5)")}
    assert {m: res.specs[(0.5, m)] for m in want} == want
    # the records are those of the same settings given as ModelSpecs
    ref = run_experiment(data, models=want, **kw)
    assert [r["test_acc"] for r in res.records] == [r["test_acc"] for r in ref.records]


@pytest.mark.parametrize("models", [("ngc",), {"m": ModelSpec("raw")}])
def test_hyperparams_must_be_callable(data, models):
    msg = (r"^hyperparams must be None or a callable hyperparams\(model, dataset, noise=\.\.\., "
           r"level=\.\.\.\) -> dict, got dict \{'S': 4\}$")
    with pytest.raises(TypeError, match=msg):
        model_spec("ngc", "sbm", "gaussian", 0.1, hyperparams={"S": 4})
    with pytest.raises(TypeError, match=msg):
        run_experiment(data, models=models, hyperparams={"S": 4}, noise_fn=fake_corrupt)


def test_model_spec_refuses_other_names():
    msg = (r"^model must be one of 'ngc', 'rngc', 'gsd', 'raw', 'mlp', 'sgc', 's2gc', 'appnp', "
           r"'gcn', or one of them \+ '/control' for its structure-only control \(e\.g\. "
           r"'ngc/control'\); got 'gcn_control'$")
    with pytest.raises(ValueError, match=msg):
        model_spec("gcn_control", "cora", "gaussian", 0.1)       # "gcn" + 8 characters


def _toy(**changes):
    return altered(sbm_dataset(n_per_class=6, n_classes=2, d=4, seed=3, n_train_per_class=3),
                   **changes)


_RAW = {"raw": ModelSpec("raw", {}, dict(epochs=3))}


def _records(data, models=None, **kw):
    return run_experiment(data, levels=(0.0,), models=models or _RAW, runs=1,
                          noise_fn=_identity, **kw).records


def _identity(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
    return X


@pytest.mark.parametrize("change,pattern", [
    (dict(labels=np.zeros((12, 1), int)), r"^dataset\.labels must be a 1-D array of integer class "
     r"labels \(-1 for unlabelled\), got dtype=int64, shape=\(12, 1\)$"),
    (dict(labels=np.zeros(12)), r"^dataset\.labels must be a 1-D array of integer class labels"),
    (dict(train_mask=np.ones(11, bool)), r"^dataset\.train_mask must be a boolean mask with one "
     r"entry per node \(12\), got shape=\(11,\)$"),
    (dict(test_mask=np.arange(12)), r"^dataset\.test_mask must be a boolean mask \(or 0/1\), got "
     r"dtype=int64 with values other than 0 and 1 \(node indices\? pass a mask\)$"),
    (dict(val_mask=np.full(12, 0.0)), r"^dataset\.val_mask must be a boolean mask \(or 0/1\), got "
     r"dtype=float64"),
    (dict(train_mask=np.zeros(12, bool)), r"^dataset\.train_mask selects no nodes$"),
    (dict(test_mask=np.zeros(12, bool)), r"^dataset\.test_mask selects no nodes$"),
    (dict(num_classes=0), r"^dataset\.num_classes must be >= 1, got 0$"),
    (dict(num_classes=1), r"^dataset\.labels has label 1 >= dataset\.num_classes=1$"),
])
def test_dataset_checks_name_the_field(change, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        _records(_toy(**change))


def test_unlabelled_nodes_only_outside_train_and_test():
    data = _toy()
    for mask in ("train_mask", "test_mask"):
        labels = data.labels.copy()
        labels[np.flatnonzero(getattr(data, mask))[0]] = -1
        with pytest.raises(ValueError, match=r"^dataset\.train_mask/test_mask select unlabelled "
                                             r"nodes \(label -1\)$"):
            _records(_toy(labels=labels))
    labels = data.labels.copy()
    outside = ~(data.train_mask | data.test_mask)
    labels[outside] = -1
    assert _records(_toy(labels=labels, val_mask=np.zeros(12, bool)))


def test_masks_as_zero_one_integers_and_optional_val_and_num_classes():
    data = _toy()
    want = _records(data)
    as_int = _toy(train_mask=data.train_mask.astype(np.int64),
                  test_mask=data.test_mask.astype(np.uint8))
    assert _records(as_int) == want
    # No val_mask (absent or None): val_acc is NaN; no num_classes: max(label) + 1.
    for change in (dict(val_mask=DROP), dict(val_mask=None)):
        (rec,) = _records(_toy(**change))
        assert np.isnan(rec["val_acc"]) and rec["test_acc"] == want[0]["test_acc"]
    assert _records(_toy(num_classes=DROP)) == want
    assert _records(_toy(num_classes=None)) == want


def test_num_classes_reaches_both_trainers():
    # More classes than labels used: the trainers get num_classes (wider output layers); the
    # accuracies are read on the test and validation nodes.
    from ngc_ref.training import train_classifier, train_gcn
    from .test_training_norms import _init_seed
    data = sbm_dataset(n_per_class=10, n_classes=3, d=4, signal=0.4, seed=5)
    data.num_classes = 5
    seed = _init_seed(0)
    models = {"raw": ModelSpec("raw", {}, dict(epochs=3)),
              "gcn": ModelSpec("raw", {}, dict(epochs=30, hidden=4, lr=0.05), trainer="gcn")}
    recs = {r["model"]: r for r in _records(data, models)}
    X, y, train = data.features, data.labels, data.train_mask
    clf = train_classifier(X[train], y[train], 5, epochs=3, seed=seed)
    assert recs["raw"]["final_loss"] == clf.loss_history[-1]
    gcn = train_gcn(data.adjacency, X, y, train, 5, epochs=30, hidden=4, lr=0.05, seed=seed)
    # (The three accuracies differ here, so each is told apart.)
    assert len({gcn.accuracy(y), gcn.accuracy(y, data.test_mask),
                gcn.accuracy(y, data.val_mask)}) == 3
    assert recs["gcn"]["final_loss"] == gcn.loss_history[-1]
    assert recs["gcn"]["test_acc"] == gcn.accuracy(y, data.test_mask)
    assert recs["gcn"]["val_acc"] == gcn.accuracy(y, data.val_mask)
    assert recs["raw"]["test_acc"] == clf.accuracy(X[data.test_mask], y[data.test_mask])
    assert recs["raw"]["val_acc"] == clf.accuracy(X[data.val_mask], y[data.val_mask])


def test_final_loss_is_the_last_epochs_and_nan_without_epochs():
    from ngc_ref.training import train_classifier
    from .test_training_norms import _init_seed
    data = _toy()
    (rec,) = _records(data, {"raw": ModelSpec("raw", {}, dict(epochs=3))})
    res = train_classifier(data.features[data.train_mask], data.labels[data.train_mask], 2,
                           epochs=3, seed=_init_seed(0))
    assert rec["final_loss"] == res.loss_history[2]
    (rec,) = _records(data, {"raw": ModelSpec("raw", {}, dict(epochs=0))})
    assert np.isnan(rec["final_loss"])


def test_the_gcn_gets_x_itself_or_its_propagation():
    # "raw" in front of the GCN: X as given (a sparse X stays sparse); a propagation with
    # its registry defaults otherwise (SGC: K = 2).
    from ngc_ref.training import propagate, train_gcn
    from .test_training_norms import _init_seed
    data = _toy()
    Xs = sp.csr_array(np.where(data.features > 1.0, data.features, 0.0))
    data.features = Xs
    kw = dict(epochs=3, hidden=4)
    models = {"gcn": ModelSpec("raw", {}, kw, trainer="gcn"),
              "sgc+gcn": ModelSpec("sgc", {}, kw, trainer="gcn"),
              "raw": ModelSpec("raw", {}, dict(epochs=3))}
    recs = {r["model"]: r for r in _records(data, models)}
    seed, y, train = _init_seed(0), data.labels, data.train_mask
    assert recs["gcn"]["final_loss"] == train_gcn(data.adjacency, Xs, y, train, 2, seed=seed,
                                                  **kw).loss_history[-1]
    H = propagate("sgc", data.adjacency, Xs)
    assert recs["sgc+gcn"]["final_loss"] == train_gcn(data.adjacency, H, y, train, 2,
                                                      seed=seed, **kw).loss_history[-1]
    assert np.isfinite(recs["raw"]["final_loss"])


def test_the_gcn_without_a_propagation_trains_on_the_sparse_x_itself(monkeypatch):
    # fit_and_score's documented shortcut: a sparse X reaches train_gcn as the same object,
    # not as a dense copy made by the "raw" propagation (the same numbers, n x d more memory).
    from ngc_ref.training import experiment, fit_and_score
    data = _toy()
    Xs = sp.csr_array(np.where(data.features > 1.0, data.features, 0.0))
    seen = []
    real = experiment.train_gcn
    monkeypatch.setattr(experiment, "train_gcn", lambda A, H, *a, **k: seen.append(H) or
                        real(A, H, *a, **k))
    spec = ModelSpec("raw", {}, dict(epochs=2, hidden=4), trainer="gcn")
    fit_and_score(spec, data.adjacency, Xs, data.labels, data.train_mask, data.val_mask,
                  data.test_mask, 2, 0)
    assert len(seen) == 1 and seen[0] is Xs


def test_documented_streams():
    # The noise of (run, level li) from default_rng([*noise.generate_state(2), li]); the
    # control features from default_rng([*child.generate_state(2), 0xC0]).
    data = _toy()
    seen = []

    def spy(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
        seen.append(seed.random())
        return X

    models = {"raw/control": ModelSpec("raw", {}, dict(epochs=2), control=True)}
    res = run_experiment(data, levels=(0.0, 0.5), models=models, runs=2, seed=9, noise_fn=spy)
    children = np.random.SeedSequence(9).spawn(2)
    want = []
    for li in range(2):
        for child in children:
            noise = child.spawn(2)[0]
            want.append(np.random.default_rng([*noise.generate_state(2), li]).random())
    assert seen == want
    from ngc_ref.training import train_classifier
    child = np.random.SeedSequence(9).spawn(2)[0]
    Z = signal_free_features(data.features, seed=np.random.default_rng(
        [*child.generate_state(2), 0xC0]))
    init = int(child.spawn(2)[1].generate_state(1)[0])
    clf = train_classifier(Z[data.train_mask], data.labels[data.train_mask], 2, epochs=2,
                           seed=init)
    assert res.records[0]["final_loss"] == clf.loss_history[-1]
    assert [r["run"] for r in res.records] == [0, 1, 0, 1]


def test_string_names_load_with_split_and_root(tmp_path):
    from ngc_ref.datasets import load_dataset
    from ngc_ref.training import train_classifier
    from .test_training_norms import _init_seed
    from ngc_ref.training import propagate
    (rec,) = run_experiment("karate", levels=(0.0,), models=("sgc",), runs=1, split=4,
                            noise_fn=_identity).records

    def test_acc(split):
        ds = load_dataset("karate", split=split)
        H = propagate("sgc", ds.adjacency, ds.features)
        res = train_classifier(H[ds.train_mask], ds.labels[ds.train_mask], 2,
                               seed=_init_seed(0), **_CITATION)
        return res.accuracy(H[ds.test_mask], ds.labels[ds.test_mask])

    assert rec["test_acc"] == test_acc(4) != test_acc(0)
    assert rec["dataset"] == "karate"
    with pytest.raises((FileNotFoundError, ValueError), match=re.escape(str(tmp_path))):
        run_experiment("cora", root=tmp_path, noise_fn=_identity)


def test_a_dataset_without_a_name_and_the_settings():
    data = _toy(name=DROP)
    res = run_experiment(data, levels=(0.0, 0.5), models=_RAW, runs=2, seed=4, split=0,
                         noise_fn=_identity)
    assert {r["dataset"] for r in res.records} == {"dataset"}
    assert res.settings == dict(dataset="dataset", noise="gaussian", levels=[0.0, 0.5], runs=2,
                                seed=4, split=0, normalize=True)


def test_run_experiment_defaults_in_use(capsys):
    # The defaults as they act (inspect.signature does not see a default mutated by mutmut).
    res = run_experiment(_toy(), noise_fn=_identity)
    assert res.settings == dict(dataset="sbm", noise="gaussian", levels=[0.1], runs=10, seed=0,
                                split=0, normalize=True)
    assert [r["model"] for r in res.records[:2]] == ["ngc", "raw"] and len(res.records) == 20
    assert capsys.readouterr().out == ""


def test_run_experiment_defaults():
    import inspect
    sig = {k: p.default for k, p in inspect.signature(run_experiment).parameters.items()
           if k != "dataset"}
    assert sig == dict(noise="gaussian", levels=(0.1,), models=("ngc", "raw"), runs=10, seed=0,
                       split=0, root=None, normalize=None, noise_fn=None, verbose=False,
                       hyperparams=None)


@pytest.mark.parametrize("kw,exc,pattern", [
    (dict(noise="laplace"), ValueError, r"^noise must be one of 'gaussian', 'flip', "),
    (dict(runs=0), ValueError, r"^runs must be >= 1, got 0$"),
    (dict(seed=-1), ValueError, r"^seed must be >= 0, got -1$"),
    (dict(levels=5), TypeError, r"^levels must be a sequence of noise levels, got int 5$"),
    (dict(levels="0.1"), TypeError, r"^levels must be a sequence of noise levels, got str "),
    (dict(levels=(0.1, -1.0)), ValueError, r"^levels\[1\] must be >= 0\.0, got -1\.0$"),
    (dict(models="ngc"), TypeError, r"^models must be a sequence of model names or a dict of "
     r"ModelSpec, got str 'ngc'$"),
    (dict(models=3), TypeError, r"^models must be a sequence of model names or a dict of "
     r"ModelSpec, got int 3$"),
    (dict(models={"m": "ngc"}), TypeError, r"^models\['m'\] must be a ModelSpec, got str$"),
    (dict(dataset=object()), TypeError, r"^dataset must be a name or an object with \.adjacency "
     r"\(see ngc_ref\.datasets\.load_dataset\); got object$"),
])
def test_run_experiment_messages(kw, exc, pattern):
    kw = {"dataset": _toy(), "noise_fn": _identity, **kw}
    with pytest.raises(exc, match=pattern):
        run_experiment(kw.pop("dataset"), **kw)


def test_verbose_prints_one_line_per_level_and_run(capsys):
    res = run_experiment(sbm_dataset(n_per_class=12, seed=1), levels=(0.0, 0.5),
                         models={**_RAW, "r2": _RAW["raw"]}, runs=2, noise_fn=_identity,
                         verbose=True)
    assert any(round(r["test_acc"], 3) != round(r["test_acc"], 4) for r in res.records)
    lines = capsys.readouterr().out.splitlines()
    want = []
    for i in range(0, len(res.records), 2):
        a, b = res.records[i:i + 2]
        accs = {a["model"]: round(a["test_acc"], 3), b["model"]: round(b["test_acc"], 3)}
        want.append(f"sbm gaussian={a['level']:g} run {a['run']}: {accs}")
    assert lines == want and len(lines) == 4


def test_no_levels_warns_at_the_caller():
    with pytest.warns(UserWarning, match=r"^no levels given: nothing was run$") as rec:
        res = run_experiment(_toy(), levels=(), models=_RAW, noise_fn=_identity)
    assert res.records == []
    # At the caller's line (under mutmut a trampoline frame sits in between: the plain run checks).
    assert rec[0].filename == __file__ or "mutmut.mutation.trampoline" in sys.modules


def test_summary_and_markdown_table():
    from ngc_ref.training import ExperimentResult
    recs = [dict(dataset=d, noise=z, level=lv, run=r, model=m, test_acc=a)
            for d, z, lv, m, r, a in [
                ("b", "flip", 0.1, "ngc", 0, 0.5), ("b", "flip", 0.1, "ngc", 1, 0.7),
                ("a", "gaussian", 0.5, "ngc", 0, 0.25), ("a", "gaussian", 0.1, "ngc", 0, 0.125),
                ("a", "gaussian", 0.1, "raw", 0, 1.0), ("a", "flip", 0.5, "raw", 0, 0.5)]]
    res = ExperimentResult(records=recs, specs={}, settings={})
    s = res.summary()
    assert s[("b", "flip", 0.1, "ngc")] == pytest.approx((0.6, 0.1, 2))
    assert res.to_markdown().splitlines() == [
        "| model | a flip 0.5 | a gaussian 0.1 | a gaussian 0.5 | b flip 0.1 |",
        "|---|---:|---:|---:|---:|",
        "| ngc | — | 12.5 ± 0.0 | 25.0 ± 0.0 | 60.0 ± 10.0 |",
        "| raw | 50.0 ± 0.0 | 100.0 ± 0.0 | — | — |"]
    assert res.to_markdown(percent=False, digits=2).splitlines()[2:] == [
        "| ngc | — | 0.12 ± 0.00 | 0.25 ± 0.00 | 0.60 ± 0.10 |",
        "| raw | 0.50 ± 0.00 | 1.00 ± 0.00 | — | — |"]


def test_fit_and_score_is_propagate_then_train_and_takes_a_precomputed_h(data):
    """The one experiment step (run_experiment's and reproduce's): H = propagation(A, X), the
    classifier on H's training rows, accuracies on the masks; a given H skips the propagation
    (the spec's own would give other numbers, so a propagation run anyway shows)."""
    from ngc_ref import neumann_propagate
    from ngc_ref.training import fit_and_score, train_classifier
    A, X, y = data.adjacency, data.features, data.labels
    tr, va, te = data.train_mask, data.val_mask, data.test_mask
    spec = model_spec("ngc", "sbm", "gaussian", 0.0)
    H = neumann_propagate(A, X, spec.propagation_params["lam"], spec.propagation_params["S"])
    clf = train_classifier(H[tr], y[tr], data.num_classes, seed=3, **spec.classifier_params)
    rec = fit_and_score(spec, A, X, y, tr, va, te, data.num_classes, 3)
    assert rec["test_acc"] == clf.accuracy(H[te], y[te])
    assert rec["val_acc"] == clf.accuracy(H[va], y[va])
    assert rec["final_loss"] == float(clf.loss_history[-1])
    # A given H (here the raw features) is what the classifier trains on.
    Xd = np.asarray(X.toarray() if sp.issparse(X) else X)
    raw = train_classifier(Xd[tr], y[tr], data.num_classes, seed=3, **spec.classifier_params)
    rec = fit_and_score(spec, A, X, y, tr, va, te, data.num_classes, 3, H=Xd)
    assert rec["test_acc"] == raw.accuracy(Xd[te], y[te])
    # No validation node: NaN, for both trainers.
    none = np.zeros_like(va)
    assert np.isnan(fit_and_score(spec, A, X, y, tr, none, te, data.num_classes, 3)["val_acc"])
    gcn = model_spec("gcn", "sbm", "gaussian", 0.0)
    gcn.classifier_params["epochs"] = 3
    assert np.isnan(fit_and_score(gcn, A, X, y, tr, none, te, data.num_classes, 3)["val_acc"])


# ------------------------------------------------------------------ fit_models: the per-run loop

def _dense_series(A, F, lam, S, *, eps=None, norm="sym"):
    """H_S = (1/(λ+1)) Σ_{s=0}^{S} (rM)^s F, dense: M = Ã (NGC) or Ã − ε FFᵀ/‖FFᵀ‖_F (RNGC),
    Ã = D̃^{-1/2}(A+I)D̃^{-1/2} ("sym") or D̃^{-1}(A+I) ("rw"), r = λ/(λ+1)."""
    At = A.toarray() + np.eye(A.shape[0])
    deg = At.sum(axis=1)
    M = At / np.sqrt(np.outer(deg, deg)) if norm == "sym" else At / deg[:, None]
    if eps:
        G = F @ F.T
        M = M - eps * G / np.linalg.norm(G)
    r = lam / (lam + 1.0)
    term, H = F, F.copy()
    for _ in range(S):
        term = r * (M @ term)
        H = H + term
    return H / (lam + 1.0)


def _fit_specs(data):
    """Specs of one run: registry propagations, controls, and four depth groups (NGC sym, NGC
    rw, NGC on the control's features, RNGC), each S of a group from one pass."""
    clf = dict(lr=0.2, epochs=30)
    depth = {f"ngc@S={S}": ModelSpec("ngc", dict(lam=4.0, S=S), clf, partial_sums=True)
             for S in (1, 3)}
    depth |= {"ngc-rw@S=2": ModelSpec("ngc", dict(lam=4.0, S=2, norm="rw"), clf,
                                      partial_sums=True),
              "ngc@S=2/control": ModelSpec("ngc", dict(lam=4.0, S=2), clf, control=True,
                                           partial_sums=True)}
    depth |= {f"rngc@S={S}": ModelSpec("rngc", dict(lam=4.0, S=S, eps=0.5), clf,
                                       partial_sums=True) for S in (2, 4)}
    return {"ngc": ModelSpec("ngc", dict(lam=4.0, S=2), clf),
            "raw/control": ModelSpec("raw", {}, clf, control=True), **depth,
            "gcn/control": ModelSpec("raw", {}, dict(epochs=5), trainer="gcn", control=True)}


def test_fit_models_is_the_hand_written_loop(data):
    """Reference beside fast: one Z for every control (drawn from control_seed), the same seed
    for every model, and each depth spec's H_S -- one pass per S here, checked against the
    dense series -- equal to the shared pass of its group (the forward sum's H_S does not
    depend on the deeper S summed after it, so the records are equal bit for bit)."""
    from ngc_ref import neumann_partial_sums
    from ngc_ref.training import fit_and_score, fit_models
    A, X, y = data.adjacency, data.features, data.labels
    masks = data.train_mask, data.val_mask, data.test_mask
    specs = _fit_specs(data)
    fits = fit_models(specs, A, X, y, *masks, data.num_classes, 7, control_seed=11)
    Z = signal_free_features(X, seed=11)
    assert list(fits) == list(specs)
    for label, spec in specs.items():
        F = Z if spec.control else X
        H = None
        if spec.partial_sums:
            p = {"norm": "sym", "eps": None, **spec.propagation_params}
            H = neumann_partial_sums(A, F, p["lam"], (p["S"],), eps=p["eps"],
                                     norm=p["norm"])[p["S"]]
            np.testing.assert_allclose(H, _dense_series(A, F, p["lam"], p["S"], eps=p["eps"],
                                                        norm=p["norm"]), rtol=1e-10)
        ref = fit_and_score(spec, A, F, y, *masks, data.num_classes, 7, H=H)
        assert {k: fits[label][k] for k in ref} == ref, label
        assert fits[label]["error"] is None and fits[label]["seconds"] >= 0.0


def test_fit_models_draws_the_control_once_and_only_when_needed(data, monkeypatch):
    """One signal-free draw for all the controls, none without one (a Generator's stream does
    not advance); one partial-sums pass per depth group, over the group's S."""
    from ngc_ref.training import experiment, fit_models
    from ._spy import record_calls
    A, X, y = data.adjacency, data.features, data.labels
    args = (A, X, y, data.train_mask, data.val_mask, data.test_mask, data.num_classes, 7)
    draws = record_calls(monkeypatch, experiment, "signal_free_features", "seed")
    passes = record_calls(monkeypatch, experiment, "neumann_partial_sums", "eps", "norm")
    fit_models(_fit_specs(data), *args, control_seed=11)
    assert draws == [(11,)]
    assert sorted(passes, key=str) == sorted(
        [(None, "sym"), (None, "rw"), (None, "sym"), (0.5, "sym")], key=str)
    rng = np.random.default_rng(3)
    state = rng.bit_generator.state
    no_control = {k: s for k, s in _fit_specs(data).items() if not s.control}
    fit_models(no_control, *args, control_seed=rng)
    assert len(draws) == 1 and rng.bit_generator.state == state
    with pytest.raises(ValueError, match=r"^control_seed must be given when a spec is a control "
                       r"\(control=True\): its signal-free features are drawn from it; got None$"):
        fit_models(_fit_specs(data), *args)


def test_fit_models_records_a_diverging_model_and_goes_on(data):
    """errors="record": the diverging model's record holds the ValueError and NaN scores, the
    models after it are fitted as alone; errors="raise" (default) raises it."""
    from ngc_ref.training import fit_and_score, fit_models
    A, X, y = data.adjacency, data.features, data.labels
    masks = data.train_mask, data.val_mask, data.test_mask
    good = ModelSpec("ngc", dict(lam=4.0, S=2), dict(lr=0.2, epochs=30))
    specs = {"diverges": ModelSpec("raw", {}, dict(lr=1e300, epochs=30)), "ngc": good}
    fits = fit_models(specs, A, X, y, *masks, data.num_classes, 7, errors="record")
    assert fits["diverges"]["error"].startswith("training diverged")
    assert all(np.isnan(fits["diverges"][k]) for k in ("test_acc", "val_acc", "final_loss"))
    ref = fit_and_score(good, A, X, y, *masks, data.num_classes, 7)
    assert {k: fits["ngc"][k] for k in ref} == ref and fits["ngc"]["error"] is None
    with pytest.raises(ValueError, match="training diverged"):
        fit_models(specs, A, X, y, *masks, data.num_classes, 7)


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(specs=[ModelSpec("raw")]), TypeError,
     r"^specs must be a dict \{label: ModelSpec\}, got list \[ModelSpec\("),
    (dict(specs={"m": "raw"}), TypeError, r"^specs\['m'\] must be a ModelSpec"),
    (dict(specs={"m": ModelSpec("sgc", partial_sums=True)}), ValueError,
     r"^specs\['m'\].partial_sums needs the propagation 'ngc' or 'rngc'"),
    (dict(specs={"m": ModelSpec("rngc", dict(mode="edges"), partial_sums=True)}), ValueError,
     r"^specs\['m'\].partial_sums sums RNGC's exact series"),
    (dict(specs={"m": ModelSpec("ngc", dict(K=2), partial_sums=True)}), TypeError,
     r"^specs\['m'\].propagation_params has unexpected parameter\(s\) \['K'\]; 'ngc' "
     r"takes \['S', 'lam', 'norm'\]$"),
    (dict(specs={"m": ModelSpec("ngc", dict(S=-1), partial_sums=True)}), ValueError,
     r"^specs\['m'\]\.propagation_params\['S'\] must be >= 0, got -1$"),
    (dict(specs={"m": ModelSpec("ngc", partial_sums=1)}), TypeError,
     r"^specs\['m'\].partial_sums must be True or False"),
    (dict(errors="ignore"), ValueError, r"^errors must be one of 'raise', 'record'; got 'ignore'$"),
    (dict(seed=-1), ValueError, r"^seed must be >= 0"),
])
def test_fit_models_refuses_bad_input_by_name(data, kwargs, exc, match):
    from ngc_ref.training import fit_models
    kw = dict(specs={"raw": ModelSpec("raw")}, seed=0, errors="raise") | kwargs
    with pytest.raises(exc, match=match):
        fit_models(kw["specs"], data.adjacency, data.features, data.labels, data.train_mask,
                   data.val_mask, data.test_mask, data.num_classes, kw["seed"],
                   errors=kw["errors"])


def test_run_experiment_runs_each_run_through_fit_models(data, monkeypatch):
    """The per-run loop has one home: run_experiment's records are fit_models' scores, one call
    per (level, run), each with its run's own control stream."""
    from ngc_ref.training import experiment
    calls = []
    real = experiment.fit_models

    def spy(specs, *args, **kwargs):
        calls.append((list(specs), kwargs["control_seed"], real(specs, *args, **kwargs)))
        return calls[-1][2]

    monkeypatch.setattr(experiment, "fit_models", spy)
    res = run_experiment(data, levels=(0.5, 1.0), models=("raw", "ngc/control"), runs=2,
                         seed=3, noise_fn=fake_corrupt)
    assert len(calls) == 4 and all(c[0] == ["raw", "ngc/control"] for c in calls)
    assert calls[0][1].entropy == calls[2][1].entropy != calls[1][1].entropy   # per run
    scores = [{k: f[k] for k in ("test_acc", "val_acc", "final_loss")}
              for _, _, fits in calls for f in fits.values()]
    assert [{k: r[k] for k in ("test_acc", "val_acc", "final_loss")}
            for r in res.records] == scores


def test_fit_models_times_each_model_inside_the_call(data):
    """Each record's seconds and cpu_seconds are the model's own: non-negative and within the
    wall and CPU time of the whole call (measured around it here; no speed is asserted)."""
    import time
    from ngc_ref.training import fit_models
    specs = {"raw": ModelSpec("raw", {}, dict(epochs=5)), "ngc": ModelSpec("ngc", dict(S=2))}
    t0, c0 = time.perf_counter(), time.process_time()
    fits = fit_models(specs, data.adjacency, data.features, data.labels, data.train_mask,
                      data.val_mask, data.test_mask, data.num_classes, 0)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert [sorted(f) for f in fits.values()] == [sorted(
        ["test_acc", "val_acc", "final_loss", "error", "seconds", "cpu_seconds"])] * 2
    assert 0.0 <= sum(f["seconds"] for f in fits.values()) <= wall
    assert 0.0 <= sum(f["cpu_seconds"] for f in fits.values()) <= cpu + 1e-6


def test_run_experiment_without_levels_warns_at_the_callers_line(data):
    with pytest.warns(UserWarning, match="^no levels given: nothing was run$") as rec:
        run_experiment(data, levels=(), models=("raw",), runs=1, noise_fn=fake_corrupt)
    # At the caller's line (under mutmut a trampoline frame sits in between: the plain run checks).
    assert len(rec) == 1
    assert rec[0].filename == __file__ or "mutmut.mutation.trampoline" in sys.modules
