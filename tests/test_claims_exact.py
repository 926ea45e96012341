"""Each exact-identity check must be able to hold and to fail: planted violations are caught."""

import json

import numpy as np
import pytest

import ngc_ref
from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.claims import (case_study, gsd_closed_form, inner_max, neumann_identity,
                                   neumann_truncation, row_sums, tau_range)
from ngc_ref_theory.kit.graphs import lam_S_grid, small_graphs
from ngc_ref_theory.output.report import write_report

from ._reference import gsd_inverse, neumann, norm_adj


def verdicts(ids, ctx=None):
    res = run_checks(ctx or Context(seed=0), only=ids, progress=False)
    return {(r.id, r.norm): r for r in res}


@pytest.fixture(scope="module")
def exact():
    """One run of the exact claims at seed 0, shared by the verdict test and the pins."""
    return verdicts(["gsd-closed-form", "neumann-identity", "neumann-truncation", "row-sum",
                     "row-square-bounds", "tau-range"])


def test_exact_claims_verdicts(exact):
    v = exact
    assert v[("gsd-closed-form", "sym")].verdict == "holds"
    # L̃_rw is not symmetric, so (I + λL̃)⁻¹X is not a stationary point of q: a real finding.
    assert v[("gsd-closed-form", "rw")].verdict == "fails"
    assert v[("gsd-closed-form-corrected", "rw")].verdict == "holds"
    for norm in ("sym", "rw"):
        assert v[("neumann-identity", norm)].verdict == "holds"
        assert v[("neumann-truncation", norm)].verdict == "holds"
    assert v[("row-sum", "rw")].verdict == "holds"
    assert v[("row-sum", "sym")].verdict == "fails"
    assert v[("row-sum-corrected", "sym")].verdict == "holds"
    assert v[("row-square-bounds", "rw")].verdict == "holds"
    assert v[("row-square-bounds-corrected", "sym")].verdict == "holds"
    ce = v[("row-sum", "sym")].counterexample
    assert ce["rerun"] == ("ngc-ref check --only row-sum --seed 0 --out ngc_ref_rerun/row-sum")
    assert ce["graph"]["n"] > 0


def test_planted_row_sum_violation(monkeypatch):
    monkeypatch.setattr(row_sums.ngc_ref, "series_mass", lambda lam, S: 0.9 * (
        1 - (lam / (lam + 1)) ** (S + 1)))
    v = verdicts(["row-sum"])
    assert v[("row-sum", "rw")].verdict == "fails"


def test_planted_truncation_violation(monkeypatch):
    monkeypatch.setattr(neumann_truncation, "matching_norm", lambda M, norm: 2.0 * float(
        np.abs(M).sum(axis=1).max()) + 1e-3)
    assert verdicts(["neumann-truncation"])[("neumann-truncation", "rw")].verdict == "fails"


def test_planted_spectral_radius_violation(monkeypatch):
    real = neumann_identity.dense_norm_adj
    monkeypatch.setattr(neumann_identity, "dense_norm_adj", lambda A, norm: 1.1 * real(A, norm))
    assert verdicts(["neumann-identity"])[("neumann-identity", "sym")].verdict == "fails"


def test_planted_gsd_minimiser_violation(monkeypatch):
    monkeypatch.setattr(gsd_closed_form, "EXACT_RTOL", -1.0)   # nothing can pass
    v = verdicts(["gsd-closed-form"])
    assert v[("gsd-closed-form", "sym")].verdict == "fails"


def test_planted_tau_violation(monkeypatch):
    real = ngc_ref.connectivity_factor

    def inflated(*a, **k):
        res = real(*a, **k)
        res.tau *= 2
        return res
    monkeypatch.setattr(tau_range.ngc_ref, "connectivity_factor", inflated)
    assert verdicts(["tau-range"])[("tau-range", "rw")].verdict == "fails"


def test_planted_case_study_violation(monkeypatch):
    swapped = dict(case_study.GRAPHS, G2=case_study.GRAPHS["G3"], G3=case_study.GRAPHS["G2"])
    monkeypatch.setattr(case_study, "GRAPHS", swapped)
    v = verdicts(["case-study"])
    assert v[("case-study:2", "rw")].verdict == "fails"
    assert v[("case-study", "rw")].verdict == "fails"


def test_planted_inner_max_violation(monkeypatch):
    monkeypatch.setattr(inner_max, "closed_form", lambda F, eps: -eps * (F @ F.T) / np.linalg.norm(
        F @ F.T))
    assert verdicts(["inner-max"])[("inner-max", "sym")].verdict == "fails"


def test_inner_max_value_is_the_plugged_in_objective(monkeypatch):
    """Sec. 4.2's outer objective after plugging δ*: tr(Fᵀδ*F) = ε‖FFᵀ‖_F (independently:
    ⟨εG/‖G‖_F, G⟩ = ε‖G‖_F for G = FFᵀ), and a wrong maximiser is caught."""
    rng = np.random.default_rng(1)
    F, L = rng.standard_normal((5, 2)), rng.standard_normal((5, 5))
    G = F @ F.T
    assert np.isclose(np.trace(F.T @ inner_max.closed_form(F, 0.3) @ F),
                      0.3 * np.sqrt((G ** 2).sum()), rtol=1e-13)
    assert inner_max.value_gap(F, L, 32.0, 0.3) < 1e-13
    v = verdicts(["inner-max:value"])
    assert {v[("inner-max:value", n)].verdict for n in ("sym", "rw")} == {"holds"}
    assert v[("inner-max:value", "sym")].scope == "as-stated"
    monkeypatch.setattr(inner_max, "closed_form",
                        lambda F, eps: -eps * (F @ F.T) / np.linalg.norm(F @ F.T))
    bad = verdicts(["inner-max:value"])[("inner-max:value", "sym")]
    assert bad.verdict == "fails" and bad.counterexample["rerun"].startswith(
        "ngc-ref check --only inner-max:value")


def test_inner_max_dimension_check_holds_when_square(monkeypatch):
    rng = np.random.default_rng(0)
    assert inner_max._dimension_check(rng, n=4, d=4)["paper_form_defined"]
    assert not inner_max._dimension_check(rng, n=5, d=3)["paper_form_defined"]


def test_report_is_written_atomically(tmp_path):
    res = run_checks(Context(seed=3, out_dir=tmp_path), only=["row-sum"], progress=False)
    write_report(res, tmp_path, {"seed": 3})
    doc = json.loads((tmp_path / "report.json").read_text())
    assert {r["verdict"] for r in doc["results"]} <= {"holds", "fails", "inconclusive"}
    assert all(r["verdict"] != "fails" or r["counterexample"] for r in doc["results"])
    assert "## row-sum — Eq. 6" in (tmp_path / "report.md").read_text()
    assert not list(tmp_path.glob(".*.tmp"))


def test_same_seed_same_report(tmp_path):
    def run():
        out = [r.to_dict() for r in run_checks(Context(seed=5), only=["gsd-closed-form"],
                                               progress=False)]
        for d in out:
            assert d.pop("seconds") >= 0   # wall time: the one field that may differ
        return out
    assert run() == run()


def test_unknown_id():
    with pytest.raises(ValueError, match="unknown claim id"):
        run_checks(Context(), only=["nope"], progress=False)


# --- pinned numbers (issue 34): each claim's headline evidence against a dense computation
# written here (tests/_reference.py: explicit matrix powers and inverses), on the same graphs
# and (λ, S) grid as the run.

CTX = Context(seed=0)


@pytest.fixture(scope="module")
def graphs():
    """The claims' small graphs, dense."""
    return {name: A.toarray() for name, A in small_graphs(CTX).items()}


@pytest.fixture(scope="module")
def dense_filters(graphs):
    """{(graph, λ, S, norm): dense Ã_S} over the claims' small graphs × (λ, S) grid."""
    return {(name, lam, S, norm): neumann(A, lam, S, norm)
            for name, A in graphs.items() for lam, S in lam_S_grid(CTX)
            for norm in ("sym", "rw")}


def _mass(lam, S):
    return 1 - (lam / (lam + 1)) ** (S + 1)


def test_neumann_identity_pins(exact, graphs):
    # ρ(Ã) = 1 (the Perron eigenvalue, both norms); the smallest eigenvalue over the graphs from
    # the symmetric Ã_sym (Ã_rw = D̃^{-1/2}Ã_sym D̃^{1/2} has the same spectrum); the two
    # inverses of Eq. 3 from their definitions
    low = min(np.linalg.eigvalsh(norm_adj(A, "sym")).min() for A in graphs.values())
    for norm in ("sym", "rw"):
        ev = exact["neumann-identity", norm].evidence
        assert ev["max_spectral_radius_of_A_norm"] == pytest.approx(1.0, abs=1e-12)
        assert ev["min_real_eigenvalue_of_A_norm"] == pytest.approx(low, abs=1e-12)
        assert ev["max_relative_difference_of_the_two_inverses"] <= 1e-11
    # in closed form: the minimum is the star K_{1,m}'s (m = 40 leaves, star-41), whose Ã has
    # the eigenvalues 1 and −(m − 1)/(2(m + 1)) on span{hub, Σ leaves} and 1/2 elsewhere
    assert low == pytest.approx(-39 / 82, abs=1e-12)


def test_neumann_truncation_pins(exact, graphs):
    """The bound is attained: Ã_S − (I + λL̃)⁻¹ = −Σ_{s>S} r^sÃ^s/(λ+1) has norm exactly
    r^{S+1} (the Perron direction; rw: non-negative rows summing to r^{S+1}), so the largest
    error/bound is 1 up to the rounding of bounds below 1e-9; the other norm and the number of
    cases recomputed densely on the same grid."""
    lams = sorted({lam for lam, _ in lam_S_grid(CTX)})
    for norm in ("sym", "rw"):
        ev = exact["neumann-truncation", norm].evidence
        assert ev["max_error_over_bound"] == pytest.approx(1.0, abs=1e-4)
        other, cases = 0.0, 0
        for A in graphs.values():
            An = norm_adj(A, norm)
            n = An.shape[0]
            for lam in lams:
                r = lam / (lam + 1)
                S_end = min(next(S for S in range(10**6) if r ** (S + 1) <= 1e-10), 3000)
                S_list = sorted(set(np.linspace(0, S_end, 12).astype(int).tolist()))
                inv = gsd_inverse(A, lam, norm)
                M, term = np.eye(n) / (lam + 1), np.eye(n) / (lam + 1)
                for S in range(S_end + 1):
                    if S:
                        term = r * An @ term
                        M = M + term
                    if S in S_list:
                        cases += 1
                        if r ** (S + 1) > 1e-300:
                            D = M - inv
                            o = (np.linalg.svd(D, compute_uv=False).max() if norm == "rw"
                                 else np.abs(D).sum(axis=1).max())
                            other = max(other, o / r ** (S + 1))
        assert ev["cases"] == cases == 600
        assert ev["max_error_over_bound_in_the_other_norm"] == pytest.approx(other, rel=1e-6)


def test_row_sum_pins(exact, graphs, dense_filters):
    """rw: every row sums to 1 − r^{S+1} (rounding only), entries ≥ 0 with exact zeros (the
    isolated nodes); sym: the largest relative deviation and its case recomputed densely, and
    the degree-weighted sums of the correction."""
    worst, where = 0.0, None
    weighted = 0.0
    for (name, lam, S, norm), M in dense_filters.items():
        m = _mass(lam, S)
        if norm == "sym":
            dev = np.abs(M.sum(axis=1) - m).max() / m
            if dev > worst:
                worst, where = dev, (name, lam, S, M.sum(axis=1))
            sq = np.sqrt(graphs[name].sum(axis=1) + 1.0)
            weighted = max(weighted, np.abs(M @ sq - m * sq).max() / (m * sq.max()))
    rw = exact["row-sum", "rw"].evidence
    assert rw["max_relative_deviation"] <= 1e-13 and rw["min_entry"] == 0.0
    sym = exact["row-sum", "sym"]
    assert sym.evidence["max_relative_deviation"] == pytest.approx(worst, rel=1e-12)
    name, lam, S, rows = where
    ce = sym.counterexample
    assert (ce["graph"]["name"], ce["lam"], ce["S"]) == (name, lam, S) == ("star-41", 64.0, 64)
    assert ce["expected"] == pytest.approx(_mass(lam, S), rel=1e-14)
    assert np.allclose(ce["row_sums"], rows, rtol=1e-12)
    assert exact["row-sum-corrected", "sym"].evidence["max_relative_deviation"] <= 1e-13
    assert weighted <= 1e-13


def test_row_square_bounds_pins(exact, graphs, dense_filters):
    """min ρ_i/((1 − r^{S+1})²/n) and max ρ_i/(1 − r^{S+1})² over every row, both normalisations,
    and the degree-weighted ratios of the sym correction, recomputed densely; the upper bound is
    attained (an isolated node's row is its diagonal 1/(λ+1)·Σr^s = 1 − r^{S+1})."""
    low = {"sym": np.inf, "rw": np.inf}
    high = {"sym": 0.0, "rw": 0.0}
    low_c, high_c, rows = np.inf, 0.0, 0
    for (name, lam, S, norm), M in dense_filters.items():
        m2, n = _mass(lam, S) ** 2, M.shape[0]
        rho = (M ** 2).sum(axis=1)
        low[norm] = min(low[norm], (rho / (m2 / n)).min())
        high[norm] = max(high[norm], (rho / m2).max())
        if norm == "sym":
            d = graphs[name].sum(axis=1) + 1.0
            low_c = min(low_c, (rho / (m2 * d / d.sum())).min())
            high_c = max(high_c, (rho / (m2 * d / d.min())).max())
            rows += n
    for norm in ("sym", "rw"):
        ev = exact["row-square-bounds", norm].evidence
        assert ev["rows_checked"] == rows == 1002
        assert ev["min_sq_over_lower_bound"] == pytest.approx(low[norm], rel=1e-12)
        assert ev["max_sq_over_upper_bound"] == pytest.approx(high[norm], rel=1e-12)
        assert ev["max_sq_over_upper_bound"] == pytest.approx(1.0, abs=1e-13)
    assert low["sym"] < 0.46 < 1 < low["rw"]               # sym breaks the lower bound
    ev = exact["row-square-bounds-corrected", "sym"].evidence
    assert ev["min_sq_over_lower_bound"] == pytest.approx(low_c, rel=1e-12)
    assert ev["max_sq_over_upper_bound"] == pytest.approx(high_c, rel=1e-12)


def test_tau_range_pins(exact, dense_filters):
    """τ(K8) along λ = S against the closed form 1 + 7/(Σ_{s≤S} r^s)² (exact fractions), the
    edgeless graphs' τ/n = 1, and min τ_i, max τ/n, min τ over the grid recomputed densely."""
    from fractions import Fraction
    min_tau_i = {"sym": np.inf, "rw": np.inf}
    max_over_n = {"sym": 0.0, "rw": 0.0}
    min_tau = {"sym": np.inf, "rw": np.inf}
    for (_name, lam, S, norm), M in dense_filters.items():
        n = M.shape[0]
        tau_i = n * (M ** 2).sum(axis=1) / _mass(lam, S) ** 2
        min_tau_i[norm] = min(min_tau_i[norm], tau_i.min())
        max_over_n[norm] = max(max_over_n[norm], tau_i.max() / n)
        min_tau[norm] = min(min_tau[norm], tau_i.max())
    # Σ_{s≤S} r^s at λ = S, term by term (exact)
    geo = {lam: sum(Fraction(lam, lam + 1) ** s for s in range(lam + 1))
           for lam in (1, 4, 16, 64, 256, 1024)}
    for norm in ("sym", "rw"):
        ev = exact["tau-range", norm].evidence
        for k, tau in ev["complete_K8_tau_at_lam_eq_S"]:
            assert tau == pytest.approx(float(1 + 7 / geo[k] ** 2), rel=1e-12), (norm, k)
        assert ev["complete_K8_tau_at_lam_eq_S"][0][1] == pytest.approx(37 / 9, rel=1e-14)
        assert ev["isolated_tau_over_n"] == pytest.approx([1.0] * 3, abs=1e-13)
        assert ev["min_tau_i"] == pytest.approx(min_tau_i[norm], rel=1e-12)
        assert ev["max_tau_over_n"] == pytest.approx(max_over_n[norm], rel=1e-12)
        assert ev["min_tau_over_cases"] == pytest.approx(min_tau[norm], rel=1e-12)
        # lower-limit: τ(K_n) at λ = S exactly, and the λ = S → ∞ limit on K4 minus an edge
        # (d̃ = 3, 3, 4, 4): n·Σd̃²/(Σd̃)² = 4·50/196 = 50/49 in rw, n·max d̃/Σd̃ = 16/14 in sym
        lim = exact["tau-range:lower-limit", norm].evidence
        for kn, row in lim["complete_graph_tau_at_lam_eq_S"].items():
            n = int(kn[1:])
            for lam, tau in row.items():
                assert tau == pytest.approx(float(1 + (n - 1) / geo[lam] ** 2), rel=1e-14)
        limit = lim["other_connected_graphs"]["K4 minus an edge"]["limit"]
        assert limit == pytest.approx(50 / 49 if norm == "rw" else 8 / 7, rel=1e-14)
