"""rngc-tau:paper-inputs (issue 33): the two factors against row-by-row references, the dense
filter against Horner's loop, the exact K2 minimal counterexamples against float64, and — with
NGC_REF_DATA — one data set's cases against an independent pipeline."""

import os
from pathlib import Path

import numpy as np
import pytest

from ngc_ref import datasets, normalized_adjacency
from ngc_ref.noise import corrupt
from ngc_ref_theory import Context
from ngc_ref_theory.claims import _rngc_tau_inputs as ti
from ngc_ref_theory.claims import rngc_tau

DATA = os.environ.get("NGC_REF_DATA") or None


def _horner(An, X, lam, S, eps):
    """The filter by its definition, one power at a time."""
    T = lam / (lam + 1) * np.asarray(An, dtype=float)
    if eps:
        G = X @ X.T
        T = T - lam / (lam + 1) * eps * G / np.linalg.norm(G)
    M = np.eye(T.shape[0])
    for _ in range(S):
        M = np.eye(T.shape[0]) + T @ M
    return M / (lam + 1)


def _factors(M, lam, S):
    """Def. 1's τ and τ' row by row."""
    n, m = M.shape[0], 1 - (lam / (lam + 1)) ** (S + 1)
    rows = [(sum(v * v for v in row), sum(abs(v) for v in row)) for row in M]
    return (max(n * q / m ** 2 for q, _ in rows),
            max(n * q / a ** 2 if a else n for q, a in rows))


@pytest.mark.parametrize("norm", ["sym", "rw"])
def test_dense_filter_and_factors_against_references(norm):
    rng = np.random.default_rng(4)
    A = np.triu((rng.random((40, 40)) < 0.1).astype(float), 1)
    A = A + A.T
    An = normalized_adjacency(A, norm=norm).toarray()
    X = rng.standard_normal((40, 6))
    for S, eps in ((0, 1.0), (2, 1e-5), (16, 1.0), (17, 0.1)):
        M = ti.dense_filter(An, X, 32.0, S, eps, symmetric=norm == "sym")
        ref = _horner(An, X, 32.0, S, eps)
        assert np.abs(M - ref).max() <= 1e-12 * np.abs(ref).max()
        assert ti.factors(ref, 32.0, S) == pytest.approx(_factors(ref, 32.0, S), rel=1e-12)
    # τ' is scale-free and in [1, n]; Def. 1's τ is not (X = I₂ on K2, ε = 1: 0.0128)
    M = _horner(np.full((2, 2), 0.5), np.eye(2), 32.0, 16, 1.0)
    tau, uni = ti.factors(M, 32.0, 16)
    assert tau == pytest.approx(0.01275, abs=1e-5) and 1 <= uni <= 2
    assert ti.factors(3 * M, 32.0, 16)[1] == pytest.approx(uni, rel=1e-12)


def test_minimal_k2_counterexamples_against_float64():
    """The exact walks' first failures, and the brief's float example, in float64."""
    K2 = np.full((2, 2), 0.5)
    for which, k in (("uniform", 1), ("def1", 0)):
        m = ti.minimal_k2(which)
        x = np.array(m["x"], dtype=float)[:, None]
        rngc = _factors(_horner(K2, x, m["lam"], m["S"], m["eps"]), m["lam"], m["S"])[k]
        ngc = _factors(_horner(K2, x, m["lam"], m["S"], 0.0), m["lam"], m["S"])[k]
        assert rngc == pytest.approx(float(m["rngc"]), rel=1e-9) and rngc > ngc
        assert ngc == pytest.approx(float(m["ngc"]), rel=1e-12)
        other = _factors(_horner(K2, x, m["lam"], m["S"], m["eps"]), m["lam"], m["S"])[1 - k]
        assert other == pytest.approx(float(m["other"][0]), rel=1e-9)
    assert ti.minimal_k2("uniform")["x"] == [1, 0] and ti.minimal_k2("uniform")["held_before"] == 0
    d1 = ti.minimal_k2("def1")
    assert (d1["x"], d1["lam"], d1["S"], d1["eps"]) == ([1, -2], 1.0, 16, 1.0)  # signed
    # every (height ≤ 2, setting) case before it is below NGC in Def. 1's τ, float64
    held = 0
    for height in (1, 2):
        for x in ti.k2_columns(height):
            for lam, S, eps in ti.table_settings():
                if list(x) == d1["x"] and (lam, S, eps) == (d1["lam"], d1["S"], d1["eps"]):
                    assert held == d1["held_before"]
                    return
                xf = np.array(x, dtype=float)[:, None]
                a = _factors(_horner(K2, xf, lam, S, eps), lam, S)[0]
                b = _factors(_horner(K2, xf, lam, S, 0.0), lam, S)[0]
                assert a < b
                held += 1
    raise AssertionError("the Def. 1 minimal was not reached")


def test_brief_example_signed_rows_raise_def1_tau():
    X = np.array([[0.194, 1.112], [-0.206, -0.926]])
    K2 = np.full((2, 2), 0.5)
    ngc = ti.factors(ti.dense_filter(K2, X, 32.0, 16, 0.0), 32.0, 16)[0]
    rngc = ti.factors(ti.dense_filter(K2, X, 32.0, 16, 1.0), 32.0, 16)[0]
    assert ngc == pytest.approx(1.00553, abs=1e-5) and rngc == pytest.approx(1.02468, abs=1e-5)


def test_without_data_the_part_is_skipped():
    ctx = Context(seed=0)
    assert ti.paper_inputs_result(rngc_tau.PAPER_INPUTS, ctx, "sym", "w") is None
    assert any("NGC_REF_DATA" in s["why"] for s in ctx.skipped)


@pytest.mark.skipif(DATA is None, reason="NGC_REF_DATA is not set")
def test_paper_inputs_on_cornell_against_an_independent_pipeline(monkeypatch):
    monkeypatch.setattr(ti, "DEFAULT_SETS", ("cornell",))
    ctx = Context(seed=0, data_root=Path(DATA))
    r = ti.paper_inputs_result(rngc_tau.PAPER_INPUTS, ctx, "sym", "words")
    assert r.scope == "as-stated" and r.verdict == "fails"
    ds = datasets.load_dataset("cornell", root=DATA)
    An = normalized_adjacency(ds.adjacency, norm="sym").toarray()
    for case in r.evidence["cases"][::3]:
        raw = corrupt(ds.features, "gaussian", case["xi"], seed=case["noise_seed"],
                      normalize=False)
        X = raw / np.maximum(raw.sum(axis=1, keepdims=True), 1.0)   # PyG 2.0.3's clamp
        lam, S, eps = case["lam"], case["S"], case["eps"]
        assert case["uniform_rngc"] == pytest.approx(
            _factors(_horner(An, X, lam, S, eps), lam, S)[1], rel=1e-9)
        assert case["uniform_ngc"] == pytest.approx(
            _factors(_horner(An, X, lam, S, 0.0), lam, S)[1], rel=1e-9)
        assert case["negative_entries"] > 0.3               # the features take both signs
    w = r.counterexample
    assert w["dataset"] == "cornell" and w["uniform_rngc"] > w["uniform_ngc"]
    assert r.minimal_counterexample["case"].startswith("constructed: K2")


def test_exact_factors_take_absolute_row_masses():
    from fractions import Fraction
    M = [[Fraction(1), Fraction(-2)], [Fraction(3, 2), Fraction(1, 4)]]
    tau, uni = ti.exact_factors(M, 1, 1)
    ref = _factors(np.array(M, dtype=float), 1, 1)
    assert float(tau) == pytest.approx(ref[0], rel=1e-15)
    assert float(uni) == pytest.approx(ref[1], rel=1e-15) and uni == Fraction(74, 49)


# --- the judge at its threshold (issue 34) ---------------------------------------------------

def test_lowers_and_raises_at_the_relative_tolerance():
    assert ti.TOL == 1e-9                                 # "strict within relative 1e-9"
    low, high = 1 - ti.TOL, 1 + ti.TOL
    for key in ("tau", "uniform", "energy"):
        row = lambda x, key=key: {f"{key}_rngc": x, f"{key}_ngc": 1.0}    # noqa: E731
        assert not ti.lowers(row(low), key) and ti.lowers(row(np.nextafter(low, 0)), key)
        assert not ti.raises(row(high), key) and ti.raises(row(np.nextafter(high, 2)), key)
        assert not ti.lowers(row(1.0), key) and not ti.raises(row(1.0), key)


def test_judge_fails_on_one_case_not_lowered_and_names_the_worst():
    def row(u, k):
        return {"uniform_rngc": u, "uniform_ngc": 1.0, "uniform_ratio": u, "k": k}
    low = 1 - ti.TOL
    v, w, bad = ti._judge([row(0.5, 0), row(np.nextafter(low, 0), 1)], "uniform")
    assert v == "holds" and bad == [] and w["k"] == 1        # the worst is the largest ratio
    v, w, bad = ti._judge([row(0.5, 0), row(low, 1), row(0.9, 2)], "uniform")
    assert v == "fails" and [r["k"] for r in bad] == [1] and w["k"] == 1
