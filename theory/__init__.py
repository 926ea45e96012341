"""Numerical checks of the paper's claims, built on :mod:`ngc_ref` (which never imports this)."""

from .kit.claim import VERDICTS, Claim, Context, Result, claim, registry
from .check import run_checks
from .kit import graphs as _graphs  # noqa: F401  (registers the checker's own graph families)

__all__ = ["VERDICTS", "Claim", "Context", "Result", "claim", "registry", "run_checks"]
