"""Theorem 1 (Eq. 13): gradient descent on noisy features nearly minimises the clean loss.

Notation: Z* = Ã_S X*, Z_η = Ã_S η, Z = Z* + Z_η, f(W) = ‖ZW − Y‖_F², g(W) = ‖Z*W − Y‖_F²,
W^(k) the k-th GD iterate on f from W⁰ = 0 with α = 1/L, L = 2σ_max(Z)², W_g* = argmin g,
W_f* = argmin f (the limit of W^(k)). The theorem states, with probability 1 − 1/d,

    g(W^(k)) − g(W_g*) ≤ O(1/(2kα)) + O(τ log n / n).

The O(·) hide constants; the proof's first term is exactly ‖W⁰ − W_g*‖²/(2kα), the second is never
given a constant. The check has two halves, one module per result:

* inside the hypotheses (λ = √n, S = ⌈2λ⌉; :mod:`.inside` on its families, built by
  :mod:`ngc_ref_theory.sweep.theorem1` as its ``--thorough`` cells build them, every
  assumption verified in the run by :mod:`.assumptions`): the two readings of the loss,
  ``theorem-1:sum`` and ``theorem-1:mean`` (:mod:`.readings`, with the proof's last display
  checked step by step);
* at the experiments' λ = 32, S = 16 on contextual SBMs (:mod:`.fixed_lambda`): (a) the proof's
  optimisation step and the corrected statement, both exact inequalities (:mod:`.corrected`),
  (b) the 1/k decay (:mod:`.part_b`), (c) the noise floor against τ log n / n outside
  Assumption 2 (:mod:`.part_c`).

The statements and the paper's words are in :mod:`.statements`, the figures in :mod:`.figures`.
"""

from __future__ import annotations

from ...sweep.theorem1 import hyp_problem
from .corrected import corrected_result, optimisation_step_result
from .figures import fixed_figure, hypotheses_figure
from .fixed_lambda import common_evidence, run_rows
from .inside import hyp_cells, hyp_results
from .part_b import decay_result
from .part_c import floor_result
from .readings import reading_result
from .statements import CLAIM, READINGS

#: ``hyp_problem`` is named here for the ``rebuild`` line of a reading's counterexample.
__all__ = ["CLAIM", "check", "hyp_problem"]


#: ``--thorough``: the λ = √n runs (the half whose asymptotics need n up to 10⁵) as sweep cells;
#: the fixed-λ runs stay in the check.
CLAIM.plan(hyp_cells)


@CLAIM.checker
def check(ctx, norm):
    rows = run_rows(ctx, norm)
    common = common_evidence(ctx, norm)
    figs = fixed_figure(ctx, norm, rows)
    fams = hyp_results(ctx, norm)
    hyp_figs = hypotheses_figure(ctx, norm, fams)
    return [optimisation_step_result(ctx, norm, rows, common, figs),
            decay_result(ctx, norm, rows, common),
            floor_result(ctx, norm, rows, common),
            *(reading_result(ctx, norm, fams, reading, hyp_figs) for reading in READINGS),
            corrected_result(ctx, norm, rows, common)]
