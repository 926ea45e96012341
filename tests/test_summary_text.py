"""The report's text reads without a calculator (#35 §5): no signed zero ("-0.00 [-0.00,
0.00]"), an empty list said in words (not "decays on 0/0 families … (slopes )"), an interval
whose ends agree printed once and rounded (not "[0.285954861574119, 0.285954861574119]")."""

import re

import pytest

from ngc_ref_theory import Context
from ngc_ref_theory.exact.certificates import certify_lemma_1_exact
from ngc_ref_theory.kit.stats import family_verdicts, no_hub_hypotheses
from ngc_ref_theory.kit.text import bracket, interval, listing, number, rounded
from ngc_ref_theory.claims import assumption_2, noise_vanishing

#: A signed zero as a summary would print it.
SIGNED_ZERO = re.compile(r"(?<![\d.])[-+]0\.0+(?![\d])")


def test_numbers_never_print_a_signed_zero_and_keep_their_size():
    assert [rounded(x) for x in (-0.0012, -0.0, 0.0, 0.456, -1e-17)] == [
        "-0.0012", "0.00", "0.00", "0.46", "-1e-17"]
    assert [rounded(x, sign=True) for x in (0.45, -0.0004, 0.0)] == ["+0.45", "-0.0004", "0.00"]
    assert interval(-0.0021, 0.0004) == "[-0.0021, 0.0004]"
    assert number(1.0038) == "1.004" and number(-0.0) == "0" and number(0.999999) == "0.999999"
    assert bracket(0.285954861574119, 0.285954861574119) == "= 0.286"
    assert bracket(0.2859, 0.2901) == "in [0.286, 0.29]"
    assert listing([]) == "none" and listing(["a", "b"]) == "a, b"


def test_a_family_line_with_a_near_zero_slope_has_no_signed_zero():
    """The --family line printed 'star: outside the hypotheses, slope -0.00 [-0.00, 0.00]'."""
    line = family_verdicts([("star", "outside the hypotheses", -0.0013, (-0.0021, 0.0004))])
    assert line == "star: outside the hypotheses, slope -0.0013 [-0.0021, 0.0004]"
    ok, why = no_hub_hypotheses([{"n": n, "isolated_nodes": 0, "max_degree_share": 0.5 - 1e-4 * k}
                                 for k, n in enumerate((100, 200, 400, 800))], "τ_i = n")
    assert not ok and not SIGNED_ZERO.search(why), why


def _star_series(key):
    """A hub family at λ = √n: its degree share stays put (outside the hypotheses)."""
    return [{"n": n, "isolated_nodes": 0, "max_degree_share": 0.25, key: 0.5 - 1e-4 * k,
             "graph_seed": 1, "lam": n ** 0.5, "S": 1} for k, n in enumerate((100, 200, 400, 800))]


def test_no_family_inside_the_hypotheses_is_said_in_words():
    """`--family star` printed 'λ=√n: τ/n decays on 0/0 families inside the hypotheses
    (slopes )': with no family inside, the summary says so."""
    series = {"star": _star_series("tau_over_n")}
    r = assumption_2._grown_result(Context(families=("star",)), "rw", series, [])
    said = r.summary
    assert "0/0" not in said and "()" not in said and "(slopes )" not in said, said
    assert "no family inside the hypotheses" in said and "outside: star" in said
    assert not SIGNED_ZERO.search(said), said
    series = {"star": ([], _star_series("per_node_energy"))}
    r = noise_vanishing._grown_result(Context(families=("star",)), "rw", series, [])
    assert "slopes none (no family inside the hypotheses)" in r.summary, r.summary
    assert not SIGNED_ZERO.search(r.summary + str(r.evidence["outside_the_hypotheses"]))


def test_an_exact_probability_whose_bracket_ends_agree_is_one_number():
    """Lemma 1 on K2 (λ = S = 1, d = 4): the certificate's bracket is narrower than 15 digits;
    it is written once ('= 0.285954861574119'), and rounded where a reader meets it."""
    c = certify_lemma_1_exact(2, [[0, 1]], 1.0, 1, 4, "rw")
    P = c["exact"]["P(‖Ã_Sη‖_F² > bound)"]
    assert P.startswith("= 0.28595486157") and "[" not in P
    assert c["shows"] == "P(exceed) = 0.286 > 1/d = 1/4"
    assert c["numbers"]["P"] == pytest.approx(0.285954861574119, rel=1e-12)
