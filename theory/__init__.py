"""Numerical checks of the paper's claims (built on :mod:`ngc_ref`; see issue #5)."""
