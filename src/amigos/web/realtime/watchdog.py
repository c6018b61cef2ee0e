"""One idle and suspension watchdog per process, for all its sockets.

A socket must notice that its session lapsed (idle, suspended, signed out in another tab) without a
command from the player. Each socket reading its own session on its own clock cost two queries per
socket every check: with two thousand sockets, hundreds of queries a second for nothing. The
process instead checks all its sockets together, in two queries, every `idle_check_interval()`.

The same check writes the players' actions on the idle clock: a socket only notes when its player
last acted, and the check records the notes of all sockets in one transaction.

With many sockets the round is cut into slices, checked one after another across the interval: each
socket is still judged once per interval, and the process never stops for all of them at once (at
four thousand sockets one check held the interpreter for a fifth of a second every 15 s, and every
play in flight waited).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Protocol

from channels.db import database_sync_to_async
from django.conf import settings

from amigos.web.accounts import sessions
from amigos.web.realtime.hub import Hub

log = logging.getLogger("amigos.realtime.watchdog")

db_verdicts = database_sync_to_async(sessions.verdicts)

#: A round is cut into one slice per this many sockets (so a few hundred sockets are checked in one
#: go, as before), at most MAX_SLICES.
SLICE_SOCKETS = 250
MAX_SLICES = 15


def activity_window() -> float:
    """How much of the idle clock a session may lose to save writes: an action less than this
    after the last one recorded is not written (30 s, or a twentieth of the idle timeout when that
    is shorter: at most 5% of it)."""
    return min(30.0, settings.AMIGOS_IDLE_TIMEOUT_SECONDS / 20)


def idle_check_interval() -> float:
    """How often sockets re-read their sessions: a quarter of the idle timeout, at most the configured
    AMIGOS_IDLE_CHECK_SECONDS, never more often than twice a second."""
    return max(0.5, min(float(settings.AMIGOS_IDLE_CHECK_SECONDS), settings.AMIGOS_IDLE_TIMEOUT_SECONDS / 4))


class Watched(Protocol):
    def watched_session(self) -> tuple[str | None, int] | None:
        """(session key, player id) while signed in, else None."""

    def action_time(self) -> float | None:
        """The time of the socket's latest action not yet on the idle clock (None: none)."""

    def action_recorded(self, at: float) -> None:
        """The check wrote the action of ``at``: the socket forgets it, unless it acted again since."""

    async def session_lapsed(self, verdict: sessions.Verdict) -> None: ...


class SessionWatch:
    def __init__(self) -> None:
        self.sockets: set[Watched] = set()
        self._task: asyncio.Task[None] | None = None

    def add(self, socket: Watched) -> None:
        self.sockets.add(socket)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="amigos-session-watch")

    def discard(self, socket: Watched) -> None:
        self.sockets.discard(socket)

    async def check(self, sockets: list[Watched] | None = None) -> None:
        """Judge the sessions of ``sockets`` (all the watched sockets when None) now; sign out
        those that lapsed."""
        chosen = (
            list(self.sockets)
            if sockets is None
            else [socket for socket in sockets if socket in self.sockets]
        )
        watched = [(socket, socket.watched_session()) for socket in chosen]
        live = [(socket, session) for socket, session in watched if session is not None]
        if not live:
            return
        acted = [socket.action_time() for socket, _ in live]
        verdicts = await db_verdicts([session for _, session in live], time.time(), acted, activity_window())
        for (socket, _), at in zip(live, acted, strict=True):
            if at is not None:
                socket.action_recorded(at)
        for (socket, _), verdict in zip(live, verdicts, strict=True):
            if verdict.state is not sessions.State.ACTIVE and socket in self.sockets:
                self.sockets.discard(socket)
                try:
                    await socket.session_lapsed(verdict)
                except Exception:
                    log.exception("could not sign out a socket whose session lapsed")

    async def _run(self) -> None:
        """Round after round, each socket once per `idle_check_interval()`, in slices spread over
        it. A socket that opens during a round is in the next one."""
        while self.sockets:
            interval = idle_check_interval()
            round_ = list(self.sockets)
            slices = max(1, min(MAX_SLICES, len(round_) // SLICE_SOCKETS))
            for index in range(slices):
                await asyncio.sleep(interval / slices)
                try:
                    await self.check(round_[index::slices])
                except Exception:  # the database is away: try again next time
                    log.exception("the session watchdog could not check its sockets")


def session_watch(hub: Hub) -> SessionWatch:
    watch = hub.features.get("session_watch")
    if not isinstance(watch, SessionWatch):
        watch = SessionWatch()
        hub.features["session_watch"] = watch
    return watch
