"""Exact search and certificates: every graph with at most 7 nodes (:mod:`.atlas`),
exact arithmetic for the minimal counterexamples (:mod:`.certificates`), weighted
χ² tails (:mod:`.chisq`) and the appendix proofs step by step (:mod:`.proofs`)."""
