"""The table's timer under uvloop, which the server runs on (regression: a forwarded heartbeat failed).

uvloop answers a `call_at` already due with a plain handle that has no `when`; arming the timer
again before it fired read `when` and raised, and the command that armed it (a heartbeat forwarded
from another host, seen at 300 tables across three hosts) failed with `busy`.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import uvloop

from amigos.web.tables.actor_timer import TimerMixin


class Clock:
    def __init__(self) -> None:
        self.moment = datetime(2026, 11, 29, 1, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.moment


class Timed(TimerMixin):
    """Just what `_set_timer` reads of an actor."""

    def __init__(self, loop: Any) -> None:
        self.loop = loop
        self.clock = Clock()
        self._timer: Any = None
        self.fired = 0

    def _deadline_due(self) -> None:
        self.fired += 1


def test_a_timer_due_at_once_is_kept_by_a_later_arming() -> None:
    loop = uvloop.new_event_loop()
    try:
        timed = Timed(loop)
        timed._set_timer(timed.clock.now(), keep_earlier=False)  # due now: a plain handle
        first = timed._timer
        assert not hasattr(first, "when")
        timed._set_timer(timed.clock.now() + timedelta(seconds=30), keep_earlier=True)
        assert timed._timer is first  # the earlier one stays
        timed._set_timer(timed.clock.now() + timedelta(seconds=30), keep_earlier=False)
        assert timed._timer is not first and timed._timer.when() > loop.time() + 29
        loop.run_until_complete(_turn())
        assert timed.fired == 0  # the replaced handle was cancelled
    finally:
        loop.close()


async def _turn() -> None:
    await asyncio.sleep(0)
