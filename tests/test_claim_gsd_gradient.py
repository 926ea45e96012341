"""gsd-closed-form:gradient-meant: the erratum's meant gradient 2λL̃F + 2(F − X) is the gradient
of q for the symmetric L̃ (sym) and is still not for rw, where it needs λ(L̃ + L̃ᵀ)F; the minimal
rw counterexample is the 3-node path, certified exactly."""

from fractions import Fraction

from ngc_ref_theory.claims import gsd_closed_form as gcf

from ._claims import run_claims


def test_meant_gradient_holds_for_sym_and_fails_for_rw():
    res = run_claims("gsd-closed-form")
    sym, rw = res["gsd-closed-form:gradient-meant", "sym"], res["gsd-closed-form:gradient-meant",
                                                                 "rw"]
    assert sym.verdict == "holds" and sym.scope == "erratum"
    assert rw.verdict == "fails" and rw.scope == "erratum"
    assert "∇q(F) = 2L̃F + 2(F − X)" in rw.scope_reason           # the written words
    assert rw.evidence["meant"] == "∇q(F) = 2λL̃F + 2(F − X)"
    mc = rw.minimal_counterexample
    assert mc["certified"] == "exact" and mc["n"] == 3 and len(mc["edges"]) == 2
    assert rw.counterexample["rerun"]
    # the written gradient (without λ) stays an erratum that fails in both norms
    assert {res["gsd-closed-form:gradient", n].verdict for n in ("sym", "rw")} == {"fails"}


def test_certificate_is_exact_on_the_path():
    # P3 centred at 0: d̃ = (3, 2, 2); L̃_rw,01 = −1/3, L̃_rw,10 = −1/2
    out = gcf.certify_meant_gradient(3, [(0, 1), (0, 2)], 2.0)
    assert out["fails"] and out["exact"]["λ(L̃ − L̃ᵀ)_01"] == str(2 * Fraction(1, 6))
    assert not gcf.certify_meant_gradient(2, [(0, 1)], 2.0)["fails"]    # regular: symmetric
