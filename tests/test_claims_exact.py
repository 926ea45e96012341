"""Each exact-identity check must be able to hold and to fail: planted violations are caught."""

import json

import numpy as np
import pytest

import ngc_ref
from ngc_ref_theory import Context, run_checks
from ngc_ref_theory.claims import (case_study, gsd_closed_form, inner_max, neumann_identity,
                           neumann_truncation, row_sums, tau_range)
from ngc_ref_theory.report import write_report


def verdicts(ids, ctx=None):
    res = run_checks(ctx or Context(seed=0), only=ids, progress=False)
    return {(r.id, r.norm): r for r in res}


def test_exact_claims_verdicts():
    v = verdicts(["gsd-closed-form", "neumann-identity", "neumann-truncation", "row-sum",
                  "row-square-bounds", "tau-range"])
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
