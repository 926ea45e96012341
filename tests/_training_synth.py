"""Small synthetic node-classification data for the training tests (no downloads)."""

from types import SimpleNamespace

import numpy as np
import scipy.sparse as sp


def sbm_dataset(n_per_class=40, n_classes=3, d=12, p_in=0.2, p_out=0.01, signal=1.0, seed=0,
                n_train_per_class=5):
    """A stochastic block model with class-dependent Gaussian features, in load_dataset's form."""
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.arange(n_classes), n_per_class)
    n = labels.size
    P = np.where(labels[:, None] == labels[None, :], p_in, p_out)
    U = np.triu(rng.random((n, n)) < P, 1)
    A = sp.csr_array((U | U.T).astype(np.float64))
    means = rng.standard_normal((n_classes, d)) * signal
    X = np.abs(means[labels] + 0.5 * rng.standard_normal((n, d)))
    train = np.zeros(n, bool)
    for c in range(n_classes):
        train[np.flatnonzero(labels == c)[:n_train_per_class]] = True
    rest = np.flatnonzero(~train)
    val = np.zeros(n, bool)
    val[rest[::4]] = True
    test = ~train & ~val
    return SimpleNamespace(adjacency=A, features=X, labels=labels, train_mask=train,
                           val_mask=val, test_mask=test, num_classes=n_classes, name="sbm")


def fake_corrupt(X, kind, level, *, seed=None, normalize=True, normalize_method="pyg"):
    """Stand-in for ngc_ref.noise.corrupt with the same signature (tests only)."""
    rng = np.random.default_rng(seed)
    X = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64)
    if kind == "gaussian":
        Xn = X + level * rng.standard_normal(X.shape)
    else:
        flip = rng.random(X.shape) < level
        Xn = np.where(flip, 1.0 - (X > 0), X)
    if normalize:
        Xn = Xn / np.maximum(Xn.sum(axis=1, keepdims=True), 1.0)
    return Xn
