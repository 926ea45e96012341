"""Fuzzing the training API (``ngc_ref.training``) with the contract of ``test_fuzz.py``: every
call returns finite, correctly shaped output or raises ValueError/TypeError naming the argument.

Inputs: broken X, X_clean, eta, Y and W0 (wrong shapes, NaN/inf, complex, object, strings),
labels out of range, masks of the wrong length or dtype, empty training sets, negative/NaN
hyper-parameters, step sizes that make gradient descent diverge, unknown propagations and bad
experiment configurations. The cases are counted with those of ``test_fuzz.py`` (same ``CASES``)
and reported in pytest's terminal summary.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from ngc_ref import training
from tests._training_synth import sbm_dataset
from tests.test_fuzz import (CASES, FUZZ, LAMS, ORDERS, RETURNED, _n_of, adjacencies, call,
                             features, mostly_valid)

# The fuzzed adjacencies store diagonals on purpose; the dropped-weight warning is tested in
# test_inputs.py and would only bury the fuzzers' real output here.
pytestmark = pytest.mark.filterwarnings("ignore:A stores self-loops:UserWarning")

TRAIN_NAMES = ("A", "X", "X_clean", "eta", "Y", "y", "H", "W0", "lam", "S", "norm", "steps",
               "alpha", "l2", "tol", "seed", "tau", "tau_norm", "lipschitz_method", "method",
               "max_nodes", "symmetrize")


@st.composite
def targets(draw, n):
    """Y for the least-squares setting: (n, c) floats or (n,) integer labels, often broken."""
    kind = draw(mostly_valid(["float", "labels", "int2d"],
                             ["wrong_rows", "nan", "inf", "negative_labels", "float_labels",
                              "bool_labels", "huge_label", "complex", "object", "string", "3d"]))
    rng = np.random.default_rng(draw(st.integers(0, 99)))
    c = draw(st.sampled_from([1, 2]))
    if kind == "float":
        return rng.standard_normal((n, c))
    if kind == "labels":
        return rng.integers(0, 3, size=n)
    if kind == "int2d":
        return rng.integers(0, 2, size=(n, c))
    if kind == "wrong_rows":
        return rng.standard_normal((n + 1, c))
    if kind in ("nan", "inf"):
        Y = rng.standard_normal((max(n, 1), c))
        Y[0, 0] = np.nan if kind == "nan" else np.inf
        return Y
    if kind == "negative_labels":
        return -np.ones(max(n, 1), dtype=int)
    if kind == "float_labels":
        return rng.standard_normal(n)
    if kind == "bool_labels":
        return np.ones(n, dtype=bool)
    if kind == "huge_label":
        return np.full(max(n, 1), 10**12)
    if kind == "complex":
        return rng.standard_normal((n, c)) + 1j
    if kind == "object":
        return np.array([["a"] * c] * n, dtype=object)
    if kind == "3d":
        return np.zeros((n, c, 2))
    return "Y"


def _trajectory_parts(*args, **kwargs):
    tr = training.theory_trajectory(*args, **kwargs)
    # opt_term[0] = inf by definition (k = 0); the documented NaN noise term for n <= 1.
    noise = [tr.noise_term] if tr.settings["n"] > 1 else []
    return (tr.f, tr.objective, tr.g_gap, tr.f_gap_at_Wg, tr.W_norm, tr.grad_norm,
            tr.opt_term[1:], tr.W, tr.W_f_star, tr.W_g_star, np.array([tr.L, tr.alpha, tr.tau]),
            np.array(noise), np.array([tr.noise_norm_sq, tr.g_gap_limit]))


@FUZZ
@given(data=st.data(), A=adjacencies(), lam=LAMS, S=ORDERS,
       norm=mostly_valid(["rw", "sym"], ["none"]),
       steps=mostly_valid([0, 1, 5, 20], [-1, 2.5, None, True]),
       alpha=mostly_valid([None, None, 1e-3, 0.5], [0.0, -1.0, np.nan, np.inf, 1e6, 1e300, "1"]),
       W0=mostly_valid([None, "random", "given"],
                       ["wrong", "nan", "zeros", "ragged", "complex", "string"]),
       l2=mostly_valid([0.0, 1e-3, 1.0], [-1.0, np.nan, "0", 1e300]),
       tol=mostly_valid([None, 1e-6], [-1.0, np.nan]),
       tau=mostly_valid([None, 2.0], [-1.0, np.nan, np.inf]),
       tau_norm=mostly_valid([None, "rw", "sym"], ["bad"]),
       lipschitz_method=mostly_valid(["auto", "dense", "svds", "power"], ["nope"]),
       seed=mostly_valid([None, 0], [-1, "s"]))
def test_fuzz_theory_trajectory(data, A, lam, S, norm, steps, alpha, W0, l2, tol, tau, tau_norm,
                                lipschitz_method, seed):
    n = _n_of(A)
    X = data.draw(features(n), "X_clean")
    eta = data.draw(features(n), "eta")
    Y = data.draw(targets(n), "Y")
    d = (np.shape(X) if not sp.issparse(X) else X.shape)
    d = d[1] if len(d) == 2 else 1
    c = 2
    W0v = {"given": np.zeros((d, c)), "wrong": np.zeros((d + 1, c)),
           "nan": np.full((d, c), np.nan), "ragged": [[1.0], [1.0, 2.0]],
           "complex": np.zeros((d, c), complex), "string": "W0"}.get(W0, W0)
    out = call("theory_trajectory", _trajectory_parts, TRAIN_NAMES, A, X, eta, Y, lam, S,
               norm=norm, steps=steps, alpha=alpha, W0=W0v, l2=l2, tol=tol, seed=seed, tau=tau,
               tau_norm=tau_norm, lipschitz_method=lipschitz_method)
    if out is not None:
        f, W = out[0], out[7]
        assert f.ndim == 1 and 1 <= f.size <= steps + 1
        assert W.shape[0] == d


@st.composite
def matrices(draw, rows=None):
    kind = draw(mostly_valid(["ok", "wide", "tall", "float32", "int", "empty"],
                             ["nan", "inf", "oned", "threed", "complex", "object", "string",
                              "sparse", "none", "huge"]))
    rng = np.random.default_rng(draw(st.integers(0, 99)))
    m = rows if rows is not None else draw(st.sampled_from([1, 4, 9]))
    shape = {"wide": (m, 12), "tall": (m, 2), "empty": (m, 0)}.get(kind, (m, 3))
    Z = rng.standard_normal(shape)
    if kind == "nan" and Z.size:
        Z[0, 0] = np.nan
    if kind == "inf" and Z.size:
        Z[-1, -1] = -np.inf
    if kind == "huge":
        Z *= 1e300
    make = {"float32": lambda: Z.astype(np.float32), "int": lambda: (Z > 0).astype(int),
            "oned": lambda: Z[:, 0], "threed": lambda: Z[..., None], "complex": lambda: Z + 1j,
            "object": lambda: Z.astype(str).astype(object), "string": lambda: "Z",
            "sparse": lambda: sp.csr_array(Z), "none": lambda: None}
    return make.get(kind, lambda: Z)()


@FUZZ
@given(data=st.data(), l2=mostly_valid([0.0, 1e-3, 10.0], [-1.0, np.nan, "1", None]))
def test_fuzz_least_squares(data, l2):
    Z = data.draw(matrices(), "Z")
    rows = np.shape(Z)[0] if hasattr(Z, "shape") and np.ndim(Z) else 3
    Y = data.draw(matrices(rows=rows + data.draw(mostly_valid([0], [1]))), "Y")
    names = ("Z", "Y", "l2")
    res = call("least_squares", lambda *a, **k: _lstsq_parts(training.least_squares(*a, **k)),
               names, Z, Y, l2=l2)
    if res is not None:
        W = res[0]
        assert W.shape[0] == (np.shape(Z)[1] if np.ndim(Z) == 2 else 1)


def _lstsq_parts(res):
    return (res.W, res.singular_values, np.array([res.objective, res.rank]))


@FUZZ
@given(data=st.data(), l2=mostly_valid([0.0, 1.0], [-1.0, np.nan]),
       method=mostly_valid(["auto", "dense", "svds", "power"], ["eig", None]),
       rtol=mostly_valid([1e-12, 1e-6], [-1.0, np.nan, "x"]),
       maxiter=mostly_valid([None, 5, 1000], [0, -3, 2.5, "9"]),
       seed=mostly_valid([None, 0], [-1, "s"]),
       operator=st.booleans())
def test_fuzz_lipschitz_constant(data, l2, method, rtol, maxiter, seed, operator):
    import scipy.sparse.linalg as spla
    Z = data.draw(matrices(), "Z")
    if operator and isinstance(Z, np.ndarray) and Z.ndim == 2 and Z.dtype.kind == "f":
        Z = spla.aslinearoperator(Z)
    names = ("Z", "l2", "method", "rtol", "maxiter", "seed")
    L = call("lipschitz_constant", training.lipschitz_constant, names, Z, l2=l2, method=method,
             rtol=rtol, maxiter=maxiter, seed=seed)
    if L is not None:
        assert L >= 0


CLF_NAMES = ("H", "X", "y", "n_classes", "hidden", "dropout", "optimizer", "lr", "epochs",
             "weight_decay", "seed", "random_state")
HIDDEN = mostly_valid([0, 4, (3, 2), None], [-1, 2.5, "8", (4, -2), 10**12, True])
LRS = mostly_valid([0.2, 1e-3, 1.0], [0.0, -0.1, np.nan, np.inf, 1e300, "0.2"])
EPOCHS = mostly_valid([0, 1, 5], [-1, 2.5, np.nan, None])
DECAYS = mostly_valid([0.0, 1e-5, 5e-4], [-1e-5, np.nan])
DROPOUTS = mostly_valid([0.0, 0.5], [1.0, -0.1, np.nan])


@st.composite
def labels(draw, m):
    kind = draw(mostly_valid(["ok", "one_class", "uint"],
                             ["wrong_len", "negative", "float", "out_of_range", "twod", "empty",
                              "string", "nan"]))
    y = np.arange(m) % 3
    return {"one_class": np.zeros(m, dtype=int), "uint": y.astype(np.uint8),
            "wrong_len": np.arange(m + 1) % 3, "negative": y - 1, "float": y + 0.5,
            "out_of_range": y + 10, "twod": y[:, None].repeat(2, 1),
            "empty": np.zeros(0, dtype=int), "string": "y",
            "nan": np.full(m, np.nan)}.get(kind, y)


@FUZZ
@given(data=st.data(), n_classes=mostly_valid([None, 3, 5], [0, -1, 2, 2.5, 10**12]),
       hidden=HIDDEN, dropout=DROPOUTS, optimizer=mostly_valid(["adam", "gd"], ["sgd", None]),
       lr=LRS, epochs=EPOCHS, weight_decay=DECAYS, seed=mostly_valid([None, 0], [-1, "s"]))
def test_fuzz_train_classifier(data, n_classes, hidden, dropout, optimizer, lr, epochs,
                               weight_decay, seed):
    H = data.draw(matrices(), "H")
    m = np.shape(H)[0] if hasattr(H, "shape") and np.ndim(H) else 4
    y = data.draw(labels(m), "y")

    def run(H, y, n_classes, **kw):
        res = training.train_classifier(H, y, n_classes, **kw)
        pred = res.predict(H)
        assert pred.shape == (np.shape(H)[0],)
        return (*res.params, res.loss_history, res.logits(H))

    call("train_classifier", run, CLF_NAMES, H, y, n_classes, hidden=hidden, dropout=dropout,
         optimizer=optimizer, lr=lr, epochs=epochs, weight_decay=weight_decay, seed=seed)


@FUZZ
@given(data=st.data(), hidden=HIDDEN, dropout=DROPOUTS, lr=LRS, epochs=EPOCHS,
       weight_decay=DECAYS, random_state=mostly_valid([None, 0, np.random.RandomState(1)],
                                                      [-1, "s"]))
def test_fuzz_softmax_classifier(data, hidden, dropout, lr, epochs, weight_decay, random_state):
    X = data.draw(matrices(), "X")
    m = np.shape(X)[0] if hasattr(X, "shape") and np.ndim(X) else 4
    y = data.draw(labels(m), "y")
    Xtest = data.draw(matrices(rows=2), "Xtest")

    def run(X, y, Xtest):
        clf = training.SoftmaxClassifier(hidden=hidden, dropout=dropout, lr=lr, epochs=epochs,
                                         weight_decay=weight_decay, random_state=random_state)
        clf.fit(X, y)
        P = clf.predict_proba(Xtest)
        assert P.shape == (2, len(clf.classes_))
        return P

    call("SoftmaxClassifier", run, CLF_NAMES, X, y, Xtest)


PROP_NAMES = ("propagation", "A", "X", "adjacency", "features", "lam", "S", "eps", "K", "alpha",
              "norm", "mode", "method", "rtol", "max_nodes")
PROPS = mostly_valid(list(training.PROPAGATIONS), ["nope", "NGC", None, 3])


@FUZZ
@given(data=st.data(), A=adjacencies(), name=PROPS,
       params=st.sampled_from([{}, {"lam": 2.0}, {"S": 3}, {"K": 3}, {"alpha": 0.5},
                               {"eps": 0.5}, {"lam": -1.0}, {"K": -1}, {"alpha": 2.0},
                               {"S": 10_000}, {"lam": 1e12}, {"K": 10_000}, {"eps": np.nan},
                               {"norm": "rw"}, {"norm": "bad"}, {"bogus": 1},
                               {"method": "cg"}, {"mode": "edges"}, {"mode": "nope"}]))
def test_fuzz_propagate(data, A, name, params):
    X = data.draw(features(_n_of(A)), "X")
    out = call("propagate", training.propagate, PROP_NAMES, name, A, X, **params)
    if out is not None:
        shape = np.shape(X) if not sp.issparse(X) else X.shape
        assert out.shape == (shape if len(shape) == 2 else (shape[0], 1))
    call("get_propagation", lambda nm: (training.get_propagation(nm).name, ())[1], PROP_NAMES,
         name)


@FUZZ
@given(data=st.data(), A=adjacencies(), name=PROPS,
       lam=mostly_valid([None, 4.0], [-1.0, np.nan]), K=mostly_valid([None, 2], [-2, 1.5]),
       norm=mostly_valid(["sym", "rw"], ["x"]),
       fit_nodes=mostly_valid(["ok", "column", "float", "empty"],
                              ["out_of_range", "negative", "nan", "strings", "twod", "none"]))
def test_fuzz_graph_propagation(data, A, name, lam, K, norm, fit_nodes):
    n = _n_of(A)
    X = data.draw(features(n), "features")
    nodes = {"ok": np.arange(n), "column": np.arange(n)[:, None],
             "float": np.arange(n, dtype=float), "empty": np.zeros(0, dtype=int),
             "out_of_range": np.arange(n + 1), "negative": np.arange(n) - 1,
             "nan": np.full(max(n, 1), np.nan), "strings": np.array(["a"] * n),
             "twod": np.zeros((n, 2), dtype=int), "none": None}[fit_nodes]

    def run(A, X, nodes):
        gp = training.GraphPropagation(A, X, propagation=name, lam=lam, K=K, norm=norm)
        gp.fit(nodes)
        out = gp.transform(nodes if nodes is not None else np.arange(n))
        assert out.shape[0] == (len(nodes) if nodes is not None else n)
        return out

    call("GraphPropagation", run, PROP_NAMES + ("nodes",), A, X, nodes)


@FUZZ
@given(data=st.data(), hidden=HIDDEN, epochs=EPOCHS, lr=LRS,
       prop=mostly_valid(["ngc", "rngc", "sgc", "raw"], ["nope"]))
def test_fuzz_node_classifier(data, hidden, epochs, lr, prop):
    """make_node_classifier: the "+MLP" pipeline on node indices with broken labels."""
    A = data.draw(adjacencies(), "A")
    n = _n_of(A)
    X = data.draw(features(n), "features")
    y = data.draw(labels(n), "y")

    def run(A, X, y):
        clf = training.make_node_classifier(A, X, prop, hidden=hidden, epochs=epochs, lr=lr,
                                            dropout=0.5 if hidden else 0.0, random_state=0)
        nodes = np.arange(n)[:, None]
        clf.fit(nodes, y)
        P = clf.predict_proba(nodes)
        assert P.shape[0] == n
        return P

    call("make_node_classifier", run, PROP_NAMES + CLF_NAMES, A, X, y)


@st.composite
def datasets(draw):
    """The runner's dataset objects, with broken masks, labels and features."""
    ds = sbm_dataset(n_per_class=6, n_classes=3, d=4, seed=draw(st.integers(0, 9)),
                     n_train_per_class=2)
    n = ds.labels.size
    kind = draw(mostly_valid(["ok", "sparse_features", "no_val", "int_masks"],
                             ["mask_len", "mask_indices", "empty_train", "empty_test",
                              "label_range", "unlabelled", "float_labels", "nan_features",
                              "feature_rows", "no_attr", "directed", "labels_2d"]))
    d = vars(ds).copy()
    if kind == "sparse_features":
        d["features"] = sp.csr_array(ds.features)
    elif kind == "no_val":
        del d["val_mask"]
    elif kind == "int_masks":
        d["train_mask"] = ds.train_mask.astype(int)
    elif kind == "mask_len":
        d["test_mask"] = np.append(ds.test_mask, True)
    elif kind == "mask_indices":
        d["train_mask"] = np.flatnonzero(ds.train_mask)
    elif kind == "empty_train":
        d["train_mask"] = np.zeros(n, bool)
    elif kind == "empty_test":
        d["test_mask"] = np.zeros(n, bool)
    elif kind == "label_range":
        d["labels"] = ds.labels + 3
    elif kind == "unlabelled":
        d["labels"] = np.where(ds.train_mask, -1, ds.labels)
    elif kind == "float_labels":
        d["labels"] = ds.labels + 0.5
    elif kind == "nan_features":
        d["features"] = ds.features.copy()
        d["features"][0, 0] = np.nan
    elif kind == "feature_rows":
        d["features"] = ds.features[:-1]
    elif kind == "no_attr":
        del d["labels"]
    elif kind == "directed":
        A = ds.adjacency.tolil()
        A[0, n - 1], A[n - 1, 0] = 1.0, 0.0
        d["adjacency"] = A.tocsr()
    elif kind == "labels_2d":
        d["labels"] = ds.labels[:, None]
    return SimpleNamespace(**d)


@settings(max_examples=settings.default.max_examples)
@given(ds=datasets(),
       noise=mostly_valid(["gaussian", "flip"], ["salt", None]),
       levels=mostly_valid([(0.1,), (0.0, 0.5), ()], [0.1, (-0.1,), (np.nan,), ("x",), None]),
       models=mostly_valid([("ngc", "raw"), ("mlp",), "spec"],
                           [("nope",), "ngc", {"m": "ngc"}, "bad_spec", "bad_prop"]),
       runs=mostly_valid([1, 2], [0, -1, 1.5, None]),
       seed=mostly_valid([0, 3], [-1, "s", None]))
def test_fuzz_run_experiment(ds, noise, levels, models, runs, seed):
    spec = training.ModelSpec("sgc", {"K": 1}, {"epochs": 3, "lr": 0.1})
    if isinstance(models, str):
        models = {"spec": {"sgc": spec},
                  "bad_spec": {"m": training.ModelSpec("sgc", {"K": -1}, {"epochs": -3})},
                  "bad_prop": {"m": training.ModelSpec("nope")}}.get(models, models)
    names = ("dataset", "noise", "levels", "level", "models", "model", "runs", "seed", "X", "A",
             "K", "epochs", "propagation", "labels", "train_mask", "test_mask", "val_mask",
             "features", "adjacency", "num_classes")

    def run(ds):
        if isinstance(models, tuple) and "ngc" in models:   # keep it cheap: fewer epochs
            return _run_cheap(ds)
        res = training.run_experiment(ds, noise=noise, levels=levels, models=models, runs=runs,
                                      seed=seed)
        return np.array([r["test_acc"] for r in res.records])

    def _run_cheap(ds):
        cheap = {m: training.ModelSpec(s.propagation, {**s.propagation_params, "S": 2}
                                       if "S" in s.propagation_params else s.propagation_params,
                                       {**s.classifier_params, "epochs": 3})
                 for m, s in ((m, training.model_spec(m, "sbm", "gaussian", 0.1))
                              for m in models)}
        res = training.run_experiment(ds, noise=noise, levels=levels, models=cheap, runs=runs,
                                      seed=seed)
        return np.array([r["test_acc"] for r in res.records])

    call("run_experiment", run, names, ds)


def test_fuzz_training_counted():
    # As test_fuzz.test_fuzz_counted, for the training functions fuzzed in this module.
    mine = [k for k in CASES if k in {
        "theory_trajectory", "least_squares", "lipschitz_constant", "train_classifier",
        "SoftmaxClassifier", "propagate", "get_propagation", "GraphPropagation",
        "make_node_classifier", "run_experiment"}]
    assert mine
    assert all(RETURNED.get(k, 0) > 0 for k in mine), ({k: CASES[k] for k in mine}, RETURNED)
