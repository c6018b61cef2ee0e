"""Bring the tables back when a server process starts.

Wraps the ASGI application: on the lifespan start (or, when the server runs without lifespan, on
the first connection it serves) every unfinished table is rebuilt from its log and stored
deadlines, so clocks run and computer players move even before anybody reconnects (the inviting
tables whose invitations lapsed meanwhile are cancelled instead, `registry.cancel_lapsed`). Then every
match that ended but whose hand-over to the archive a stopped process left unfinished is handed
over (`handover.hand_over_left`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from amigos.web import collector
from amigos.web.tables import handover, registry, thinking

log = logging.getLogger("amigos.tables")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


async def _resume() -> None:
    await registry.resume_all()
    await handover.hand_over_left()


class ResumeTables:
    def __init__(self, app: App) -> None:
        self.app = app
        self._started: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._started is not loop:
            self._started = loop
            collector.pace()
            self._task = loop.create_task(_resume(), name="amigos-resume-tables")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    self._start()
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await registry.stop_all()
                    await thinking.stop()
                    await handover.stop()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        self._start()
        await self.app(scope, receive, send)
