"""Hypothesis profiles: ``ci`` (deterministic, used by .ci/run) and ``thorough`` (for a person).

Choose with ``--hypothesis-profile=NAME`` or the environment variable ``HYPOTHESIS_PROFILE``;
the default is ``ci``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", deadline=None, print_blob=True, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
