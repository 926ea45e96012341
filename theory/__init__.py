"""Numerical checks of the paper's claims, built on :mod:`ngc_ref` (which never imports this)."""

from ._core import VERDICTS, Claim, Context, Result, claim, registry
from .runner import run_checks

__all__ = ["VERDICTS", "Claim", "Context", "Result", "claim", "registry", "run_checks"]
