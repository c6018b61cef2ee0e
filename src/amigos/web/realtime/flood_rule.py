"""The flood rule of everything a player writes for others: chat lines, reports and mutes.

It lives with the bus, below every feature that applies it: the lobby's and the tables' chats count
their own stored lines with it, moderation its reports (`moderation.flood` gathers the three
counts), and none of them imports another for it.

One rule for all of them, the lobby chat's: at most ``AMIGOS_CHAT_FLOOD_COUNT`` of a kind within
``AMIGOS_CHAT_FLOOD_WINDOW_SECONDS``, per player, refused with the code ``flood``. The kinds are
counted apart (`Budget`): a player's table chat does not use up their lobby chat, and reporting
a player does not stop one from muting them.

It is enforced twice, because a player may hold sockets in several processes:

* in memory, per process and per player (`RecentActions`, shared by all of a player's sockets in
  the process), before any database work: a flood of lines from many sockets costs a dictionary
  lookup each, and more sockets do not buy more lines;
* in the database, where the writing is (`window_start`, `room_for_one`): the rows a kind leaves (lobby lines,
  table lines, reports) are counted, so sockets spread over processes do not multiply the limit
  either. Mutes leave no countable row (unmuting deletes it); they have the memory count only,
  so a player with sockets in several processes may mute that many times the limit.

Every attempt that passes the checks needing nothing (payload shape, empty or too long line)
counts in memory, even one refused later (a table the player may not chat at): the count bounds
the work a player can cause, not only the lines stored.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from enum import StrEnum

from django.conf import settings
from django.utils.translation import gettext as _

from amigos.web.realtime.commands import CommandError
from amigos.web.realtime.hub import get_hub


class Budget(StrEnum):
    """What is counted apart."""

    LOBBY_CHAT = "lobby_chat"
    TABLE_CHAT = "table_chat"  # every table's chat together
    REPORT = "report"
    MUTE = "mute"  # mutes and unmutes together


CODE = "flood"


def count() -> int:
    return int(settings.AMIGOS_CHAT_FLOOD_COUNT)


def window_seconds() -> float:
    return float(settings.AMIGOS_CHAT_FLOOD_WINDOW_SECONDS)


def flood_message() -> str:
    """What the lobby's page shows (it prints the refusal's text; other pages translate the code)."""
    return _("You are sending messages too quickly; wait a few seconds.")


def refusal() -> CommandError:
    return CommandError(CODE, flood_message())


class RecentActions:
    """When each player last acted, per budget, in this process (monotonic seconds)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._times: dict[tuple[Budget, int], deque[float]] = {}
        self._swept = clock()

    def take(self, budget: Budget, user_id: int) -> bool:
        """Count one action of ``user_id`` if the rule allows it; False (nothing counted) if not.

        Decided and counted without awaiting anything, so two sockets of one player cannot both
        pass on the same last place."""
        now = self.clock()
        since = now - window_seconds()
        self._sweep(now, since)
        times = self._times.setdefault((budget, user_id), deque())
        while times and times[0] <= since:
            times.popleft()
        if len(times) >= count():
            return False
        times.append(now)
        return True

    def _sweep(self, now: float, since: float) -> None:
        """Forget players whose every action left the window (at most once per window), so the
        memory held is that of the players who acted lately, not of all who ever did."""
        if now - self._swept < window_seconds():
            return
        self._swept = now
        for key in [key for key, times in self._times.items() if not times or times[-1] <= since]:
            del self._times[key]

    def __len__(self) -> int:
        return len(self._times)


def recent_actions() -> RecentActions:
    """This process's count (kept by the hub, so a test's server starts with its own)."""
    hub = get_hub()
    recent = hub.features.get("moderation.flood")
    if not isinstance(recent, RecentActions):
        recent = RecentActions()
        hub.features["moderation.flood"] = recent
    return recent


def spend(budget: Budget, user_id: int) -> None:
    """Count one action, or refuse it with ``flood`` (before any database work)."""
    if not recent_actions().take(budget, user_id):
        raise refusal()


def window_start(now: datetime) -> datetime:
    """The start of the window that ends at ``now``: the rows written after it count."""
    return now - timedelta(seconds=window_seconds())


def room_for_one(stored: int) -> bool:
    """Whether ``stored`` rows of a kind within the window leave room for one more."""
    return stored < count()
