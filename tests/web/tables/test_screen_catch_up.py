"""A page that comes back after missing whole hands: the hands that ended meanwhile are applied at
once, and only the hand still on the table is laid move by move, faster when it is long.

Regression: a page that missed up to 200 moves (more, and it gets a snapshot) laid every one of
them, hand after hand, 180 ms apart: 36 s before its player could play again.

The page's catch-up steps are counted, not timed: the test wraps `setTimeout` and keeps the pause
each step of `drain` asked for."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.tables.models import LogRow
from amigos.web.tables.store import TAIL
from tests.web.conftest import ServerThread
from tests.web.tables.screen_support import (
    HAND_GUARD_SECONDS,
    play_against_computer,
    play_out_for,
    player,
    sign_in_as,
)
from tests.web.tables.support import FakeClock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Keeps the pause each catch-up step asks for, in `window.__drainSteps`.
COUNT_DRAIN_STEPS = """
window.__drainSteps = [];
const plainSetTimeout = window.setTimeout;
window.setTimeout = function (callback, ms, ...rest) {
  if (typeof callback === "function" && callback.name === "drain") window.__drainSteps.push(ms);
  return plainSetTimeout.call(this, callback, ms, ...rest);
};
"""


def test_a_page_back_after_several_hands_lays_only_the_last_one(
    open_page: Callable[..., Any], screen_clock: FakeClock, site_server: ServerThread
) -> None:
    ana = player("Ana")
    page = open_page()
    page.add_init_script(COUNT_DRAIN_STEPS)
    heard = {"now": True}
    sockets: list[Any] = []

    def through(route: Any) -> None:
        # The server's messages pass to the page only while it "hears"; its own go through always, so
        # the server counts Ana present while her page misses everything.
        sockets.append(route)
        server = route.connect_to_server()
        server.on_message(lambda message: route.send(message) if heard["now"] else None)

    page.route_web_socket(re.compile(r"/ws/(\?.*)?$"), through)
    sign_in_as(page, "Ana")
    table_id = play_against_computer(page, "amigos-100")
    page.wait_for_selector("#table-page[data-replaying=false]")
    missed_from = int(page.get_attribute("#table-page", "data-version") or "0")

    heard["now"] = False
    # Ana's seat and the computers play on: the rest of this hand, a whole hand and some 30 versions
    # of the next (long enough to be laid faster), fewer than the server sends as events to a page
    # that comes back (`store.TAIL`; past it, a snapshot). A fixed TAIL // 2 versions once held a
    # single deal: hands vary in length.
    play_out_for(site_server, table_id, ana.pk, versions=TAIL - 10, hands=2, then=30)
    heard["now"] = True
    sockets[-1].close(code=4000, reason="back")  # the page connects again and asks what it missed
    page.wait_for_function("() => window.__drainSteps.length > 0")
    page.wait_for_selector("#table-page[data-replaying=false]", timeout=HAND_GUARD_SECONDS * 1000)
    kinds = list(
        LogRow.objects.filter(table_id=table_id, version__gt=missed_from)
        .order_by("version")
        .values_list("kind", flat=True)
    )
    starts = [at for at, kind in enumerate(kinds) if kind == "hand_started"]
    assert len(starts) >= 2, "fewer than two hands started: nothing to skip"
    last_hand = len(kinds) - starts[-1]
    assert page.get_attribute("#table-page", "data-version") == str(missed_from + len(kinds))
    steps: list[float] = page.evaluate("window.__drainSteps")
    # One step to begin, then one a move of the hand in play: the hands that ended took none.
    assert 0 < len(steps) <= last_hand + 1, (len(steps), last_hand, len(kinds))
    # The steps shrink while many moves are still to lay (about 3 s shared among them, at most 180 ms a
    # step), and never fall below the floor.
    if last_hand > 24:
        assert min(steps) < 180
    assert min(steps) >= 25
    expect(page.locator("#line .domino").first).to_be_visible()
