"""Fuzzing the public operators: every call returns finite, correctly shaped output or raises
ValueError/TypeError whose message names the offending argument — never another exception, a
silent NaN or a modified input.

The inputs mix valid and broken pieces: dense arrays of every dtype (bool, int, float16/32/64,
complex, object), sparse matrices in coo/csr/csc/lil/dia format with duplicate entries and
explicit zeros, NaN/inf, negative weights, empty and 1-node graphs, directed inputs, mismatched
X, extreme λ (1e-12 … 1e12), S from 0 to 10⁴ and ε from 0 to 1e6. The number of cases tried is
printed in pytest's terminal summary (see ``conftest.py``).
"""

from __future__ import annotations

import re
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import ngc_ref
from ngc_ref import graphs, noise

# The fuzzed adjacencies store diagonals on purpose; the dropped-weight warning is tested in
# test_inputs.py and would only bury the fuzzers' real output here.
pytestmark = pytest.mark.filterwarnings("ignore:A stores self-loops:UserWarning")

#: Cases tried per fuzzed function, reported by conftest.pytest_terminal_summary.
CASES: dict[str, int] = {}
#: Of those, the cases that returned a result (the rest raised ValueError/TypeError).
RETURNED: dict[str, int] = {}



@st.composite
def adjacencies(draw):
    """An adjacency in any representation, often broken on purpose."""
    n = draw(st.sampled_from([0, 1, 2, 3, 5, 8]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    M = (rng.random((n, n)) < 0.4).astype(float)
    M = np.triu(M, 1)
    M = M + M.T
    kind = draw(mostly_valid(["ok", "weights", "diag"],
                             ["directed", "negative", "nan", "inf", "nonsquare", "oned"]))
    if kind == "weights":
        M = M * rng.uniform(0.1, 10, size=M.shape)
        M = np.triu(M, 1) + np.triu(M, 1).T
    elif kind == "directed" and n > 1:
        M[0, 1], M[1, 0] = 1.0, 0.0
    elif kind == "negative" and n > 1:
        M[0, 1] = M[1, 0] = -1.0
    elif kind == "nan" and n > 0:
        M[0, 0] = np.nan
    elif kind == "inf" and n > 1:
        M[0, 1] = M[1, 0] = np.inf
    elif kind == "nonsquare":
        M = np.ones((n, n + 1))
    elif kind == "oned":
        M = np.ones(n)
    elif kind == "diag" and n > 0:
        M[np.arange(n), np.arange(n)] = 3.0
    dtype = draw(mostly_valid([np.bool_, np.int64, np.float32, np.float64],
                              [np.int8, np.float16, np.complex128, object], weight=2))
    fmt = draw(mostly_valid(["coo", "csr", "csc", "lil", "dia", "dense", "networkx"], ["list"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # casting NaN/inf to int is part of the point
        arr = M.astype(dtype) if dtype is not object else M.astype(object)
        if fmt == "dense" or M.ndim != 2:
            return arr
        if fmt == "list":
            return arr.tolist()
        if fmt == "networkx":
            if M.shape[0] != M.shape[1] or not np.isfinite(M).all():
                return arr
            return nx.from_numpy_array(
                M, create_using=nx.DiGraph if kind == "directed" else nx.Graph)
        if dtype is object or dtype is np.float16:   # scipy.sparse has no float16
            return arr
        S = sp.coo_array(arr)
    if fmt == "coo" and S.nnz:
        # duplicates and explicit zeros: COO keeps both until summed
        S = sp.coo_array((np.concatenate([S.data, np.zeros(1, S.dtype)]),
                          (np.concatenate([S.row, S.row[:1]]),
                           np.concatenate([S.col, S.col[:1]]))), shape=S.shape)
    return S.asformat(fmt)


def _n_of(A):
    if isinstance(A, nx.Graph):
        return A.number_of_nodes()
    shape = np.shape(A) if not sp.issparse(A) else A.shape
    return shape[0] if len(shape) else 0


@st.composite
def features(draw, n):
    kind = draw(mostly_valid(["ok", "oned", "float32", "int", "sparse"],
                             ["wrong_rows", "nan", "complex", "string"]))
    rows = max(n, 0) + (1 if kind == "wrong_rows" else 0)
    d = draw(st.sampled_from([1, 3]))
    X = np.random.default_rng(draw(st.integers(0, 99))).standard_normal((rows, d))
    if kind == "nan" and X.size:
        X[0, 0] = np.nan
    if kind == "oned":
        return X[:, 0]
    if kind == "float32":
        return X.astype(np.float32)
    if kind == "int":
        return (X > 0).astype(int)
    if kind == "sparse":
        return sp.csr_array(X)
    if kind == "complex":
        return X.astype(complex)
    if kind == "string":
        return "X"
    return X


def mostly_valid(valid, invalid, weight=4):
    """Valid values ``weight`` times as likely as each broken one, so that the calls that
    should succeed are exercised as much as the ones that should be refused."""
    return st.sampled_from(list(valid) * weight + list(invalid))


LAMS = mostly_valid([1e-12, 1e-3, 1.0, 32.0, 1e6, 1e12, 3, np.float32(2.0)],
                    [0.0, -1.0, np.nan, np.inf, True, "32", None])
ORDERS = mostly_valid([0, 1, 16, 10_000, np.int64(4)], [-1, 2.5, 16.0, True, None, "4"])
EPSS = mostly_valid([0.0, 1e-5, 1.0, 1e6], [-1.0, np.nan, "1"])
NORMS = mostly_valid(["sym", "rw"], ["SYM", "none", 1])
#: Fuzz tests run five times the profile's example count (they are cheap).
FUZZ = settings(max_examples=5 * settings.default.max_examples)


def _named(msg, names):
    return any(re.search(rf"(^|\W){re.escape(nm)}(\W|$)", msg) for nm in names)


def call(fname, fn, names, *args, shape=None, **kwargs):
    """Run fn; assert the contract; return the output or None when it raised properly."""
    CASES[fname] = CASES.get(fname, 0) + 1
    snapshot = [a.copy() if isinstance(a, np.ndarray) else
                (a.copy() if sp.issparse(a) else None) for a in args]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ngc_ref.ConvergenceWarning)
            out = fn(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        assert _named(str(exc), names), f"{fname}: message does not name an argument: {exc}"
        return None
    for a, before in zip(args, snapshot):
        if isinstance(a, np.ndarray) and a.dtype != object:
            assert np.array_equal(a, before, equal_nan=True), f"{fname} modified its input"
        elif sp.issparse(a) and before is not None:
            assert (a != before).nnz == 0, f"{fname} modified its input"
    RETURNED[fname] = RETURNED.get(fname, 0) + 1
    if hasattr(out, "tau_i"):        # ConnectivityResult
        parts = [out.tau_i, out.row_sums, np.asarray(out.tau)]
    elif isinstance(out, tuple):     # (A, labels) and similar
        parts = list(out)
    elif isinstance(out, (int, float)):
        parts = [np.asarray(out)]
    else:
        parts = [out]
    for p in parts:
        arr = p.toarray() if sp.issparse(p) else np.asarray(p)
        assert np.isfinite(arr).all(), f"{fname} returned non-finite values"
    if shape is not None:
        arr = out.toarray() if sp.issparse(out) else np.asarray(out)
        assert arr.shape == shape, (fname, arr.shape, shape)
    return out


ADJ_NAMES = ("A", "adjacency", "symmetrize", "norm", "lam", "S", "X", "eps", "method",
             "max_nodes", "mode", "tol")


@FUZZ
@given(A=adjacencies(), norm=NORMS)
def test_fuzz_normalized_adjacency(A, norm):
    n = _n_of(A)
    call("normalized_adjacency", ngc_ref.normalized_adjacency, ADJ_NAMES, A, norm=norm,
         shape=(n, n))


@FUZZ
@given(data=st.data(), A=adjacencies(), lam=LAMS, S=ORDERS, norm=NORMS)
def test_fuzz_neumann_propagate(data, A, lam, S, norm):
    X = data.draw(features(_n_of(A)))
    out = call("neumann_propagate", ngc_ref.neumann_propagate, ADJ_NAMES, A, X, lam, S,
               norm=norm)
    if out is not None:
        shape = np.shape(X) if not sp.issparse(X) else X.shape
        assert out.shape == shape   # documented: the shape of X, 1-D or 2-D


@FUZZ
@given(A=adjacencies(), lam=LAMS, S=ORDERS, norm=NORMS)
def test_fuzz_connectivity_factor(A, lam, S, norm):
    res = call("connectivity_factor", ngc_ref.connectivity_factor, ADJ_NAMES, A, lam, S,
               norm=norm)
    if res is not None and norm == "rw":
        n = res.tau_i.shape[0]
        # Remark 1 (rw: rows of Ã_S are non-negative and sum to 1 − r^{S+1}, so Cauchy–Schwarz
        # gives τ_i ≥ 1 and Σ a² ≤ (Σ a)² gives τ_i ≤ n; for sym both can fail, a known finding).
        assert np.all(res.tau_i >= 1 - 1e-9) and np.all(res.tau_i <= n * (1 + 1e-9))


@FUZZ
@given(data=st.data(), A=adjacencies(), lam=LAMS, norm=NORMS,
       method=st.sampled_from(["auto", "cg", "direct", "dense", "lu"]))
def test_fuzz_gsd_solve(data, A, lam, norm, method):
    X = data.draw(features(_n_of(A)))
    out = call("gsd_solve", ngc_ref.gsd_solve, ADJ_NAMES, A, X, lam, norm=norm, method=method)
    if (out is not None and isinstance(X, np.ndarray) and X.dtype == np.float64 and X.size
            and float(lam) < 1e6):
        # The solution satisfies (I + λL̃)F = X (the dense reference is small here).
        L = np.eye(len(X)) - ngc_ref.normalized_adjacency(A, norm=norm).toarray()
        Xm = X.reshape(len(X), -1)
        res = (np.eye(len(X)) + lam * L) @ np.asarray(out).reshape(Xm.shape) - Xm
        assert np.linalg.norm(res) <= 1e-6 * (1 + lam) * max(np.linalg.norm(Xm), 1e-300)


@FUZZ
@given(data=st.data(), A=adjacencies(), lam=LAMS, S=st.sampled_from([0, 2, 16]), eps=EPSS,
       norm=NORMS, mode=st.sampled_from(["full", "edges", "low-rank"]))
def test_fuzz_robust_propagate(data, A, lam, S, eps, norm, mode):
    X = data.draw(features(_n_of(A)))
    call("robust_propagate", ngc_ref.robust_propagate, ADJ_NAMES, A, X, lam, S, eps, norm=norm,
         mode=mode)


@FUZZ
@given(A=adjacencies(), lam=LAMS, S=st.sampled_from([0, 3, 64]), norm=NORMS)
def test_fuzz_neumann_matrix(A, lam, S, norm):
    n = _n_of(A)
    call("neumann_matrix", ngc_ref.neumann_matrix, ADJ_NAMES, A, lam, S, norm=norm,
         shape=(n, n))


@FUZZ
@given(lam=LAMS, tol=st.sampled_from([1e-12, 1e-3, 0.5, 0.0, 1.0, -1.0, np.nan]), norm=NORMS)
def test_fuzz_neumann_order(lam, tol, norm):
    out = call("neumann_order", ngc_ref.neumann_order, ADJ_NAMES, lam, tol, norm=norm)
    if out is not None:
        assert isinstance(out, int) and out >= 0


@FUZZ
@given(n=st.sampled_from([0, 1, 2, 50, -1, 2.5, True, "5"]),
       p=st.sampled_from([0.0, 0.1, 1.0, -0.1, 1.5, np.nan]),
       seed=st.sampled_from([None, 0, 7, -1, "s", np.random.default_rng(1)]))
def test_fuzz_graph_generators(n, p, seed):
    names = ("n", "p", "seed", "k", "p_in", "p_out")
    A = call("erdos_renyi", graphs.erdos_renyi, names, n, p, seed=seed)
    if A is not None:
        assert A.shape == (n, n) and (A != A.T).nnz == 0 and A.diagonal().sum() == 0
    out = call("sbm", graphs.sbm, names, n, 2, p, p / 2 if isinstance(p, float) else p,
               seed=seed)
    if out is not None:
        assert out[0].shape == (n, n) and out[1].shape == (n,)


@FUZZ
@given(data=st.data(), level=st.sampled_from([0.0, 0.1, 1.0, 1e6, -0.1, np.nan]),
       kind=st.sampled_from(["gaussian", "flip", "uniform", "nope"]))
def test_fuzz_noise(data, level, kind):
    X = data.draw(features(6))
    if kind == "flip" and isinstance(X, np.ndarray) and X.dtype.kind == "f":
        X = (X > 0).astype(float) if data.draw(st.booleans()) else X
    names = ("X", "kind", "level", "p", "xi", "seed", "normalize_method")
    out = call("corrupt", noise.corrupt, names, X, kind, level, seed=0)
    if out is not None:
        assert out.shape == (np.shape(X) if not sp.issparse(X) else X.shape)


NOISE_NAMES = ("X", "xi", "p", "kind", "scale", "seed", "proxy", "method", "shape")
SCALES = mostly_valid([0.0, 0.5, 1.0, 1e6], [-1.0, np.nan, np.inf, "1", None])


@FUZZ
@given(data=st.data(), xi=SCALES, p=mostly_valid([0.0, 0.1, 1.0], [-0.1, 1.5, np.nan]),
       kind=mostly_valid(["gaussian", "rademacher", "uniform"], ["cauchy", 3]),
       method=mostly_valid(["pyg", "l1", "l2"], ["max", None]),
       seed=mostly_valid([None, 0, 5, np.random.default_rng(2)], [-1, "s", 1.5]))
def test_fuzz_noise_functions(data, xi, p, kind, method, seed):
    X = data.draw(features(7))
    shape = np.shape(X) if not sp.issparse(X) else X.shape
    for name, fn, args, kw in (
            ("gaussian_noise", noise.gaussian_noise, (X, xi), {"seed": seed}),
            ("add_subgaussian_noise", noise.add_subgaussian_noise, (X, kind, xi),
             {"seed": seed}),
            ("flip_features", noise.flip_features, (X, p), {"seed": seed}),
            ("row_normalize", noise.row_normalize, (X, method), {})):
        out = call(name, fn, NOISE_NAMES, *args, **kw)
        if out is not None:
            out = out[0] if isinstance(out, tuple) else out
            assert (out.shape if hasattr(out, "shape") else np.shape(out)) == shape, name
    out = call("subgaussian_noise", noise.subgaussian_noise, NOISE_NAMES,
               data.draw(mostly_valid([(3, 2), 4, (0, 3)], [(-1, 2), "3", (2.5,)])), kind, xi,
               seed=seed)


@FUZZ
@given(family=mostly_valid(list(graphs.GRAPH_FAMILIES), ["nope", None]),
       n=mostly_valid([1, 2, 5, 30], [0, -3, 2.5, True]),
       params=st.sampled_from([{}, {"p": 0.2}, {"k": 2, "p_in": 0.5, "p_out": 0.1}, {"m": 2},
                               {"d": 2}, {"cols": 5}, {"p": 2.0}, {"m": -1}, {"bogus": 1}]),
       seed=mostly_valid([None, 0, 9], [-1, "s"]))
def test_fuzz_make_graph(family, n, params, seed):
    names = ("family", "n", "seed", "p", "k", "p_in", "p_out", "m", "d", "cols", "rows",
             "max_nodes", "bogus", "params", "grid", "ring", "n_edges")
    A = call("make_graph", graphs.make_graph, names, family, n, seed, **params)
    if A is not None:
        assert A.shape == (n, n) and (A != A.T).nnz == 0 and A.diagonal().sum() == 0
        assert set(np.unique(A.data)) <= {1.0}


@st.composite
def cli_argvs(draw, tmp):
    """Command lines for ``ngc-ref``, mostly wrong: bad numbers, missing and unwritable paths,
    unknown ids and options. ``check`` always gets a cheap ``--only`` so a valid line is fast."""
    cmd = draw(st.sampled_from(["check", "sweep", "demo", "nope", ""]))
    vocab = {
        "check": [["--only", "gsd-trace"], ["--only", "no-such-claim"], ["--seed", "x"],
                  ["--seed", "-3"], ["--out", str(tmp / "out")], ["--out", "/proc/nope"],
                  ["--out", str(tmp / "file.txt")], ["--no-progress"], ["--thorough"]],
        "sweep": [[str(tmp / "missing.toml")], [str(tmp / "bad.toml")], [str(tmp / "bad.json")],
                  ["--summary", str(tmp / "missing.jsonl")], ["-j", "x"], ["-j", "0"],
                  ["--out", "/proc/nope.jsonl"], ["--scheduler", "nonsense"], ["--list-tasks"],
                  ["--no-progress"]],
        "demo": [["--lam", "-1"], ["--lam", "nan"], ["--lam", "x"], ["--S", "-2"],
                 ["--S", "1.5"], ["--norm", "bad"], ["--lam", "2"], ["--S", "3"]],
        "nope": [["--x"]], "": [["--debug"]],
    }[cmd]
    argv = [cmd] if cmd else []
    for opt in draw(st.lists(st.sampled_from(vocab), max_size=3)):
        argv += opt
    if cmd == "check" and "--only" not in argv:
        argv += ["--only", "gsd-trace", "--no-progress"]
    if cmd == "check" and "--thorough" in argv:
        argv.remove("--thorough")
    return argv


def test_fuzz_cli(tmp_path_factory, monkeypatch):
    """Every command line ends with exit status 0, 1 or 2, one-line errors, no traceback."""
    import contextlib
    import io

    from hypothesis import HealthCheck

    from ngc_ref_theory import cli

    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "file.txt").write_text("x")
    (tmp / "bad.toml").write_text("task = [unclosed")
    (tmp / "bad.json").write_text('{"task": "nope", "grid": {}}')
    # Default output paths (ngc_ref_report/, CONFIG.jsonl) are relative to the working
    # directory: run there, never in the checkout.
    monkeypatch.chdir(tmp)

    @settings(max_examples=settings.default.max_examples,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(argv=cli_argvs(tmp))
    def run(argv):
        CASES["ngc-ref CLI"] = CASES.get("ngc-ref CLI", 0) + 1
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = cli.main(argv)
            except SystemExit as exc:      # argparse usage errors
                code = exc.code
        text = err.getvalue()
        assert code in (0, 1, 2), (argv, code, text)
        assert "Traceback" not in text, (argv, text)
        if code == 2 and text:
            errors = [ln for ln in text.splitlines() if "error" in ln]
            assert len(errors) == 1, (argv, text)
        if code == 0:
            RETURNED["ngc-ref CLI"] = RETURNED.get("ngc-ref CLI", 0) + 1
    run()


def test_fuzz_counted():
    # Last in the module (pytest keeps file order): both outcomes were exercised for every
    # fuzzed function that ran; a fuzzer whose inputs are all rejected tests nothing.
    assert CASES
    assert all(RETURNED.get(k, 0) > 0 for k in CASES), (CASES, RETURNED)
