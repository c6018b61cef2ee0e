"""Settings shared by the whole suite.

Hypothesis: no example ever fails for taking long (`deadline=None`): a loaded CI machine must not
turn a correct test red, and no test passes or fails on wall-clock time. Under CI the examples are
derandomized so a run is reproducible; on a developer's machine they stay random to keep finding
new cases.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")
