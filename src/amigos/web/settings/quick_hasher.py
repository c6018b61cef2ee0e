"""Argon2 at its smallest cost, for the test settings only.

The hash keeps Argon2's format (its parameters are written in it), so a password made with it
checks with Django's own Argon2 hasher too; only the work per hash differs.
"""

from django.contrib.auth.hashers import Argon2PasswordHasher


class QuickArgon2PasswordHasher(Argon2PasswordHasher):
    """One pass over 64 KiB with one lane: about a thousandth of production's work."""

    time_cost = 1
    memory_cost = 64
    parallelism = 1
