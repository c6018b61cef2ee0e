"""What a socket's opening and closing tell the feature that keeps who is online (the lobby's).

The socket layer counts a player's sockets in the player's presence, in the same trip to the
database thread as the session check (`consumer._open`), and says on the bus when the online list
changed. The presence itself is the lobby's (`lobby.presence`, `lobby.feed`), which builds on the
bus: the lobby registers its hooks here when the site starts (`LobbyConfig.ready`), so the socket
layer imports nothing above it. Without a registration (a bare bus in a test) a socket counts
nowhere and announces nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amigos.web.accounts.models import User
    from amigos.web.realtime.hub import Hub


async def _nothing(hub: Hub) -> None:
    return None


@dataclass(frozen=True)
class PresenceHooks:
    """The presence's side of a socket's life. The first three run on the database thread."""

    #: A socket of ``user`` opened at the moment given (counted in the player's presence).
    opened: Callable[[User, datetime], None] = lambda user, now: None
    #: A socket of the player with this id closed at the moment given.
    closed: Callable[[int, datetime], None] = lambda user_id, now: None
    #: The player signed out (every socket's count goes).
    signed_out: Callable[[int], None] = lambda user_id: None
    #: Before this process's first socket counts: rebuild the counts a dead process left.
    prepare: Callable[[Hub], Awaitable[None]] = _nothing
    #: Tell every process the online list changed (never raises).
    announce: Callable[[Hub], Awaitable[None]] = _nothing


_hooks: list[PresenceHooks] = [PresenceHooks()]


def register(hooks: PresenceHooks) -> None:
    """Make ``hooks`` the presence's side of every socket (the lobby does, at start)."""
    _hooks[0] = hooks


def hooks() -> PresenceHooks:
    """The registered hooks (no-ops until the lobby registers its own)."""
    return _hooks[0]
