"""Settings for the test suite."""

from amigos.web.settings.base import *  # noqa: F403
