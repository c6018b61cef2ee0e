"""Helpers for the table screen's browser tests: sign in, start games, lay tiles as a player would."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from amigos.web.accounts.models import User
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import registry
from tests.web.conftest import PASSWORD, ServerThread
from tests.web.tables.support import play_of

#: How long a whole hand may take in the browser before a test gives up (not a pass/fail on time:
#: only a guard against a hung page).
HAND_GUARD_SECONDS = 180

#: How long one laid tile may take to leave the hand before the player tries again. Generous: CI runs
#: two browsers, two servers and their computer players on two cores (only a guard against a hang).
LAY_GUARD_MS = 15_000


def player(name: str) -> User:
    return User.objects.create_user(email=f"{name.lower()}@example.org", display_name=name, password=PASSWORD)


def sign_in_as(page: Any, name: str) -> None:
    page.goto("/accounts/sign-in/")
    page.fill("#id_username", f"{name.lower()}@example.org")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("#connection-state[data-state=live]")


def play_against_computer(page: Any, variant: str, players: int = 4) -> int:
    """From the lobby: choose the game and press the one button. Returns the new table's id."""
    page.select_option("#id_variant", variant)
    page.select_option("#id_players", str(players))
    page.click("#play-computer")
    page.wait_for_selector("#table-page")
    return int(page.get_attribute("#table-page", "data-table-id"))


def lay(page: Any, tile: Any, how: str) -> None:
    """Lay one tile the way a player would: a tap, a double click, or Tab to it and Enter; answer
    the arm question if the tile fits both ends."""
    if page.locator("#arm-dialog[open]").count():
        # The arm question of an earlier try opened late (a slow page): answer it instead.
        answer_arm(page, how)
        return
    name = tile.get_attribute("data-tile")
    # A refusal shown before this try (a tile that did not fit) is not this try's answer.
    said_before = page.evaluate('() => document.getElementById("play-feedback")?.innerText ?? ""')
    if how == "tap":
        tile.tap()
    elif how == "double-click":
        tile.dblclick()
    else:
        tile.press("Enter")  # focuses the tile, then Enter on it, as a keyboard player does
    # Either the tile leaves the hand or the arm question opens: wait for whichever comes (a fixed
    # short wait for the question missed it on a loaded machine, and the tile was never laid).
    try:
        page.wait_for_function(
            """({name, said}) => document.querySelector("#arm-dialog[open]")
                || !document.querySelector(`#my-hand .my-tile--playable[data-tile="${name}"]`)
                || (document.getElementById("play-feedback")?.innerText ?? "") !== said""",
            arg={"name": name, "said": said_before},
            timeout=LAY_GUARD_MS,
        )
    except PlaywrightTimeout:
        return
    if page.locator("#arm-dialog[open]").count():
        answer_arm(page, how)


def answer_arm(page: Any, how: str) -> None:
    """Choose the first arm the question offers, by keyboard or by pointer."""
    if how == "keyboard":
        # The question puts the focus on its first choice; a keyboard player presses Enter there.
        page.wait_for_function(
            "() => document.activeElement?.matches?.('#arm-dialog[open] [data-choice]')", timeout=LAY_GUARD_MS
        )
        page.keyboard.press("Enter")
    else:
        page.locator("#arm-dialog[open] [data-choice]").first.click()


def my_turn(page: Any) -> bool:
    return bool(page.locator("#my-hand .my-tile--playable").count())


def close_the_last_hands_result(page: Any) -> None:
    """Close the last hand's result if it is still over the table, as a player does before playing.

    It is a modal dialog: while it is open the rest of the page is inert, so a key "pressed on a
    tile" goes to the dialog instead (Enter closed it, and the test then waited in vain for the
    tile's arm question: the lost Enter of issue 38, a test's fault, not the page's)."""
    if page.locator("#hand-end[open]").count():
        page.keyboard.press("Escape")
        page.wait_for_function('() => !document.getElementById("hand-end")?.open')


def send_table_event(page: Any, kind: str, data_js: str) -> None:
    """Hand the page a made-up event of the table, numbered the one after the last it applied, as
    if the server had sent it. It is sent once the page has applied everything it holds (no
    catch-up draining): an event sent while one drains is queued behind it, and one numbered from a
    version the page had not yet shown would be taken for a duplicate and dropped. ``data_js`` is a
    JavaScript expression for the event's data, in which ``seat`` is this page's seat."""
    page.wait_for_function('() => document.getElementById("table-page")?.dataset.replaying === "false"')
    page.evaluate(
        f"""() => {{
          const table = document.getElementById("table-page");
          const seat = Number(document.querySelector(".seat--me").dataset.seat);
          document.dispatchEvent(new CustomEvent("amigos:envelope", {{ detail: {{ type: "table.events",
            payload: {{ table_id: Number(table.dataset.tableId), now: new Date().toISOString(),
              events: [{{ version: Number(table.dataset.version) + 1, kind: {kind!r},
                data: {data_js} }}] }} }} }}));
        }}"""
    )


def play_one(page: Any, how: str) -> bool:
    """If it is this page's turn, lay the first playable tile and wait for it to leave the hand."""
    playable = page.locator("#my-hand .my-tile--playable")
    if not playable.count():
        return False
    close_the_last_hands_result(page)
    name = playable.first.get_attribute("data-tile")
    # This tile, by name: `.first` is re-read on every use and may point at another tile later.
    tile = page.locator(f'#my-hand [data-tile="{name}"]')
    for _attempt in range(3):
        lay(page, tile, how)
        try:
            page.locator(f'#my-hand [data-tile="{name}"]').wait_for(state="detached", timeout=LAY_GUARD_MS)
            return True
        except PlaywrightTimeout:
            # Refused (the table moved on a moment before, or the server was busy): the page says
            # so, and a player simply plays again if the tile still stands out.
            if not page.locator(f'#my-hand .my-tile--playable[data-tile="{name}"]').count():
                return True
    raise AssertionError(f"{name} was never laid: {describe(page)}")


def describe(page: Any) -> str:
    """What the page shows when a test gives up on it: enough to tell a refusal from a lost event."""
    facts = page.evaluate(
        """() => {
          const table = document.getElementById("table-page");
          const dialog = document.getElementById("arm-dialog");
          return {
            feedback: document.getElementById("play-feedback")?.innerText ?? null,
            version: table?.dataset.version ?? null,
            replaying: table?.dataset.replaying ?? null,
            hands_ended: table?.dataset.handsEnded ?? null,
            socket: document.body.dataset.socketState ?? null,
            dialog_open: Boolean(dialog && dialog.open),
            focused: document.activeElement?.outerHTML?.slice(0, 120) ?? null,
            playable: [...document.querySelectorAll("#my-hand .my-tile--playable")]
              .map((t) => t.dataset.tile),
            announced: [...document.querySelectorAll("#announcer p")].slice(-6).map((p) => p.innerText),
          };
        }"""
    )
    return f"page: {facts!r}; server: {server_side(page)}"


def server_side(page: Any) -> str:
    """The table as the server stored it: its version and its last events (a page behind the
    server lost an event; a server behind the page never took the play)."""
    from amigos.web.tables.models import LogRow, Table

    table_id = page.get_attribute("#table-page", "data-table-id")
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return "no table"
    last = LogRow.objects.filter(table=table).order_by("-version")[:6]
    events = [(event.version, event.kind, event.data.get("seat")) for event in reversed(last)]
    return f"status {table.status}, version {table.version}, last events {events}"


def hands_ended(page: Any) -> int:
    return int(page.get_attribute("#table-page", "data-hands-ended") or 0)


def play_hand(page: Any, how: str) -> None:
    """Play until this page has seen one more hand end."""
    deadline = time.monotonic() + HAND_GUARD_SECONDS
    seen = hands_ended(page)
    while hands_ended(page) == seen:
        if time.monotonic() > deadline:
            raise AssertionError("the hand did not end")
        if not play_one(page, how):
            page.wait_for_timeout(100)


def play_out_for(
    server: ServerThread,
    table_id: int,
    user_id: int,
    versions: int | None = None,
    hands: int | None = None,
    then: int = 0,
) -> None:
    """Play the human seat's turns in the server's own loop (the first legal way) until the match
    ends, or until the table has gone ``versions`` further; the computer players play theirs.
    With ``hands``: stop sooner, ``then`` versions after the table has dealt that many more hands
    (a hand's length in versions varies too much to count on a number of them), and once the hand
    in play has a tile on the table (not while the human seat is yet to lead it)."""

    async def play_out() -> None:
        actor = registry.local_actor(table_id)
        assert actor is not None
        stop = None if versions is None else actor.version + versions
        dealt = len(actor.game.hands)
        counting = hands is not None

        def laid() -> bool:
            hand = actor.game.hand
            return hands is None or hand is None or hand.is_over or not hand.line.is_empty

        while actor.status == "playing" and (stop is None or actor.version < stop or not laid()):
            if counting and len(actor.game.hands) >= dealt + (hands or 0):
                counting = False
                stop = min(actor.version + then, stop if stop is not None else actor.version + then)
                continue
            info = actor.clock_info
            if (
                info is not None
                and info.seat == actor.game.to_move
                and actor.seats[info.seat].user_id == user_id
            ):
                with contextlib.suppress(CommandError):
                    await actor.call(
                        lambda legal=info.legal: actor.play(user_id, actor.version, play_of(legal[0]))
                    )
            await asyncio.sleep(0.02)

    asyncio.run_coroutine_threadsafe(play_out(), server.loop).result(4 * HAND_GUARD_SECONDS)


def page_state(page: Any) -> dict[str, Any]:
    """What a stuck table page shows, for a test's failure message: its version, whether it is
    laying missed moves, its tiles, the dialogs open over it and its last words."""
    return dict(
        page.evaluate(
            """() => ({
              version: document.getElementById("table-page")?.dataset.version,
              replaying: document.getElementById("table-page")?.dataset.replaying,
              tiles: document.querySelectorAll("#my-hand .my-tile").length,
              playable: document.querySelectorAll("#my-hand .my-tile--playable").length,
              dialogs: [...document.querySelectorAll("dialog[open]")].map((d) => d.id),
              feedback: document.getElementById("play-feedback")?.innerText,
              said: document.getElementById("announcer")?.innerText,
            })"""
        )
    )
