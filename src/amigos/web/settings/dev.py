"""Development settings: the default of `amigos serve` and `amigos manage` (SQLite, in-memory bus)."""

from amigos.web.settings.base import *  # noqa: F403

DEBUG = True
