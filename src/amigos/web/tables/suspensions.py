"""Whether a seated player's account is suspended: the one question the actor asks of accounts.

Apart from the event log (`store`), so the store, which writes a play, imports nothing of accounts
or moderation; this asks when a player's sockets go, outside any play's transaction.
"""

from __future__ import annotations

from datetime import datetime

from amigos.web.accounts.models import User


def account_suspended(user_id: int, now: datetime) -> bool:
    """Whether the player's account is suspended at ``now``, whatever suspended it (the table's own
    cards, a desk decision, an administrator): the actor asks when the player's sockets go."""
    return User.objects.filter(pk=user_id, suspended_until__gt=now).exists()
