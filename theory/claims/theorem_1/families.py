"""The graph families of the in-hypotheses half (λ = √n, S = ⌈2λ⌉), their features and targets,
and their exact τ. The graphs are built by :func:`ngc_ref_theory._graphs.hyp_problem` and τ by
:func:`ngc_ref_theory.sweep.thorough_tasks.hyp_tau` (the ``--thorough`` sweep cells use both).

The families judged: the ring and the 2-D torus (vertex-transitive, X* = the four slowest
Fourier modes, Y = one-hot quarter / quadrant: not realisable, g(W_g*) ∝ n), and four disjoint
random 6-regular or Barabási–Albert (m = 3) blocks (X* = Y = one-hot block, so
Ã_S X* = (1−r^{S+1}) X* in rw: realisable). Assumption 3 (‖W‖_F ≤ C independent of n) needs
the clean features to live in the slow modes of Ã_S, which damps a mode of L̃ with eigenvalue μ
by 1/(1+λμ): on the fixed-degree contextual SBM of the fixed-λ setting ‖W_g*‖_F grows like
n^0.47 at λ = √n (8.9 → 33 for n = 400 → 6400), outside Assumption 3; the run probes that
family and lists it as outside.
"""

from __future__ import annotations

from ..._graphs import HYP_K, hyp_problem, torus
from ...sweep.thorough_tasks import hyp_tau

#: Families judged inside Assumptions 1-4, and the one probed (fixed-degree contextual SBM)
#: whose ‖W_g*‖_F grows at λ = √n: listed as outside Assumption 3.
HYP_FAMILIES = ("ring", "torus", "rr-blocks", "ba-blocks")
HYP_PROBES = ("csbm-fixed-degree",)
#: One graph per n, whose runs differ only in the noise.
DETERMINISTIC = ("ring", "torus")

__all__ = ["DETERMINISTIC", "FAMILY_WORDS", "HYP_FAMILIES", "HYP_K", "HYP_PROBES", "family_words",
           "hyp_list", "hyp_problem", "hyp_tau", "torus"]


def hyp_list(ctx):
    """The families of the λ = √n half: Theorem 1's own (judged, then the probe), or those of
    ``ngc-ref check --family`` (all judged; X* = Y = one-hot of HYP_K blocks of node indices,
    :func:`ngc_ref_theory._graphs.hyp_problem`)."""
    given = tuple(getattr(ctx, "families", ()) or ())
    return given or HYP_FAMILIES + HYP_PROBES


def family_words(family):
    """How a family of the λ = √n half is built (for the evidence)."""
    return FAMILY_WORDS.get(family, f"{family} (ngc_ref.graphs registry); X* = Y = one-hot of "
                                    f"{HYP_K} contiguous blocks of node indices")

FAMILY_WORDS = {
    "ring": "ring C_n (vertex-transitive); X* = √2[cos θ, sin θ, cos 2θ, sin 2θ], θ_i = 2πi/n; "
            "Y = one-hot quarter ⌊4i/n⌋ (not realisable)",
    "torus": "2-D torus p×p, n = p² (vertex-transitive); X* = √2[cos a, sin a, cos b, sin b], "
             "(a, b) = 2π(x, y)/p; Y = one-hot quadrant (not realisable)",
    "rr-blocks": f"{HYP_K} disjoint random 6-regular graphs of n/{HYP_K} nodes; X* = Y = one-hot "
                 "block (realisable: Ã_S X* = (1−r^{S+1})X*)",
    "ba-blocks": f"{HYP_K} disjoint Barabási–Albert (m = 3) graphs of n/{HYP_K} nodes; X* = Y = "
                 "one-hot block (realisable in rw)",
    "csbm-fixed-degree": "the contextual SBM of part (c) (expected degree 16 in / 4 out of the "
                         "class, X* = Y = one-hot class): probed for Assumption 3 only",
}
