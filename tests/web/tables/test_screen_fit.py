"""The table fits one screen (issue 38): a whole Amigos-100 match against the computer, on a phone
and on a laptop, without ever scrolling the page.

At every hand's end the line of play, the player's tiles and the result dialog are all inside the
viewport (their bounding boxes are asserted), the dialog holds the keyboard focus, and the clock has
stopped. At the end of the match the match's dialog shows the final sheet. Screenshots of the start
and of the end are written at five sizes when ``AMIGOS_SCREENSHOTS`` names a folder (for a person
to judge; the test itself asserts geometry only).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.web.axe import assert_accessible
from tests.web.tables.screen_support import (
    HAND_GUARD_SECONDS,
    play_against_computer,
    play_one,
    player,
    sign_in_as,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIZES = ((360, 640), (390, 844), (768, 1024), (1280, 800), (1920, 1080))


def box(page: Any, selector: str) -> dict[str, float]:
    """The element's box, read inside the page in one step.

    The table redraws the hand and the line on every message (the computer players keep moving), so
    a locator's element can be replaced between finding it and measuring it; Playwright then
    answers "not visible". Reading the box in the page's own task sees one consistent drawing.
    """
    try:
        found = page.wait_for_function(
            """(selector) => {
                const element = document.querySelector(selector);
                if (!element) return null;
                const r = element.getBoundingClientRect();
                if (r.width <= 0 || r.height <= 0) return null;
                return {x: r.x, y: r.y, width: r.width, height: r.height};
            }""",
            arg=selector,
            timeout=10_000,
        ).json_value()
    except PlaywrightTimeout:
        found = None
    assert found is not None, f"{selector} is not on the screen"
    return dict(found)


def inside_viewport(page: Any, selector: str) -> None:
    viewport = page.viewport_size
    b = box(page, selector)
    assert b["width"] > 0 and b["height"] > 0, (selector, b)
    assert b["x"] >= -0.5 and b["y"] >= -0.5, (selector, b)
    assert b["x"] + b["width"] <= viewport["width"] + 0.5, (selector, b, viewport)
    assert b["y"] + b["height"] <= viewport["height"] + 0.5, (selector, b, viewport)


def no_page_scroll(page: Any) -> None:
    assert page.evaluate("() => window.scrollY") == 0
    # The felt ends inside the viewport (whatever lies below it is not needed to play).
    inside_viewport(page, "#felt")


def everything_in_view(page: Any, dialog: str) -> None:
    no_page_scroll(page)
    inside_viewport(page, dialog)
    # The drawn tiles, not just the drawing's frame: the first, the last, and the whole line.
    inside_viewport(page, "#line")
    tiles = page.locator("#line .domino")
    assert tiles.count() > 0
    for index in (0, tiles.count() - 1):
        b = tiles.nth(index).bounding_box()
        line = box(page, "#line")
        assert b is not None
        assert b["x"] >= line["x"] - 0.5 and b["x"] + b["width"] <= line["x"] + line["width"] + 0.5
        assert b["y"] >= line["y"] - 0.5 and b["y"] + b["height"] <= line["y"] + line["height"] + 0.5
    if page.locator("#my-hand .my-tile").count():
        inside_viewport(page, "#my-hand")
        last = page.locator("#my-hand .my-tile").last
        inside_viewport(page, f'#my-hand [data-tile="{last.get_attribute("data-tile")}"]')


def shoot(page: Any, moment: str) -> None:
    """Screenshots at the five sizes (only with AMIGOS_SCREENSHOTS), then back to the page's size."""
    folder = os.environ.get("AMIGOS_SCREENSHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    original = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("() => document.getElementById('line').getBoundingClientRect().width > 0")
        page.screenshot(path=str(Path(folder) / f"{moment}-{width}x{height}.png"))
    page.set_viewport_size(original)


#: Installed in the page before it loads: the moment a result dialog opens, the page measures
#: what the player sees (synchronously, after the table is drawn for the event), so the check does
#: not race the dialog's own closing a few seconds into the next hand.
WATCH = """
window.__results = [];
document.addEventListener("DOMContentLoaded", () => {
  const rect = (node) => {
    if (!node) return null;
    const r = node.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  for (const id of ["hand-end", "votes"]) {
    const dialog = document.getElementById(id);
    if (!dialog) continue;
    new MutationObserver(() => {
      if (!dialog.open) return;
      const tiles = [...document.querySelectorAll("#line .domino")];
      const clock = document.getElementById("clock");
      window.__results.push({
        dialog: id,
        hands: Number(document.getElementById("table-page").dataset.handsEnded || 0),
        viewport: { width: window.innerWidth, height: window.innerHeight },
        scrollY: window.scrollY,
        rects: {
          dialog: rect(dialog),
          felt: rect(document.getElementById("felt")),
          line: rect(document.getElementById("line")),
          hand: rect(document.getElementById("my-hand")),
          first_tile: rect(tiles[0]), last_tile: rect(tiles[tiles.length - 1]),
          my_last_tile: rect([...document.querySelectorAll("#my-hand .my-tile")].pop()),
        },
        tiles: tiles.length,
        focus_inside: dialog.contains(document.activeElement),
        clock_hidden: getComputedStyle(clock).display === "none",
        revealed: dialog.querySelectorAll(".revealed__seat").length,
        sheet_rows: dialog.querySelectorAll(".sheet__table tbody tr").length,
      });
    }).observe(dialog, { attributes: true, attributeFilter: ["open"] });
  }
});
"""


def check_result(record: dict[str, Any]) -> None:
    """What the player saw when a result opened: everything in view, no page scroll."""
    viewport = record["viewport"]
    assert record["scrollY"] == 0, record
    rects = record["rects"]
    names = ["dialog", "felt", "line", "first_tile", "last_tile", "hand"]
    if rects["my_last_tile"] is not None:
        names.append("my_last_tile")
    for name in names:
        b = rects[name]
        assert b is not None and b["width"] > 0 and b["height"] > 0, (name, record)
        assert b["x"] >= -0.5 and b["y"] >= -0.5, (name, record)
        assert b["x"] + b["width"] <= viewport["width"] + 0.5, (name, record)
        assert b["y"] + b["height"] <= viewport["height"] + 0.5, (name, record)
    assert record["tiles"] > 0 and record["focus_inside"] and record["clock_hidden"], record
    assert record["revealed"] == 4 and record["sheet_rows"] == record["hands"] + 1, record


def play_match(page: Any) -> list[dict[str, Any]]:
    """Plays the whole match by keyboard; returns what the page measured at every result."""
    deadline = time.monotonic() + 12 * HAND_GUARD_SECONDS
    checked = False
    while not page.locator("#votes[open]").count():
        assert time.monotonic() < deadline, "the match did not end"
        if not checked and page.locator("#hand-end[open]").count():
            assert_accessible(page)  # the dialog over the table, with the sheet in it
            checked = True
        if not play_one(page, "keyboard"):
            page.wait_for_timeout(50)
        else:
            no_page_scroll(page)
    results: list[dict[str, Any]] = page.evaluate("() => window.__results")
    return results


@pytest.mark.parametrize(("width", "height", "shots"), [(390, 844, False), (1280, 800, True)])
def test_a_whole_match_fits_the_screen(
    open_page: Callable[..., Any], width: int, height: int, shots: bool
) -> None:
    player("Ana")
    page = open_page(width, height)
    page.add_init_script(WATCH)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    expect(page.locator("#my-hand .my-tile")).to_have_count(7)
    no_page_scroll(page)
    inside_viewport(page, "#my-hand")
    if shots:
        page.locator("#line .domino, #my-hand .my-tile--playable").first.wait_for()
        if not page.locator("#line .domino").count():
            play_one(page, "keyboard")  # Ana leads: the first tile is hers
        page.locator("#line .domino").first.wait_for()
        shoot(page, "start")
    results = play_match(page)
    hands = [r for r in results if r["dialog"] == "hand-end"]
    # Every hand but the last shows its own result (the last one's opens the match's dialog).
    assert len(hands) >= 2 and [r["hands"] for r in hands] == list(range(1, len(hands) + 1))
    for record in results:
        check_result(record)
    votes = page.locator("#votes[open]")
    expect(votes.locator(".sheet__totals td").filter(has_text="100")).to_have_count(1)
    expect(votes.locator(".revealed__seat")).to_have_count(4)
    # Only people vote (docs/rules.md, "After the match"): the computer players are not listed as
    # still to choose, which read as if Ana had to wait for them.
    expect(votes.locator("#vote-list li")).to_have_count(1)
    expect(votes.locator("#vote-list li")).to_contain_text("Ana")
    everything_in_view(page, "#votes")
    assert page.evaluate("() => document.getElementById('votes').contains(document.activeElement)")
    expect(page.locator("#clock")).to_be_hidden()
    assert_accessible(page)
    if shots:
        shoot(page, "end")


#: Where a seat's name breaks from one line to the next, when not after a space or a soft hyphen
#: ("Computador|a Oeste" in a 360 px seat box: Chromium does not hyphenate Spanish).
MID_WORD_BREAKS = """() => [...document.querySelectorAll(".seat__name")].flatMap((name) => {
  const text = name.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  const range = document.createRange();
  const bad = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    const here = text.data[i];
    if (here === " " || here === "\u00ad") continue;
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    // The lowest of the letter's boxes: the letter after a soft hyphen that broke also has the
    // hyphen's box, at the end of the line above.
    const hereTop = Math.max(...[...range.getClientRects()].map((r) => r.top));
    const before = text.data[i - 1];
    if (top !== null && hereTop > top + 1 && before !== " " && before !== "\u00ad") {
      bad.push(text.data.slice(0, i) + "|" + text.data.slice(i));
    }
    top = hereTop;
  }
  return bad;
})"""

#: The clock, the draw for the first leader and the like (the felt's status row) that lie on a
#: seat's box or on the line's drawing: pairs of (status item, seat number or "board").
STATUS_ON_OTHERS = """() => {
  const box = (node) => node.getBoundingClientRect();
  const shown = (node) => { const r = box(node); return r.width > 0 && r.height > 0; };
  const overlap = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const items = [...document.querySelectorAll(".table-status > *")].filter(shown);
  const others = [...document.querySelectorAll(".seat, #board")].filter(shown);
  return items.flatMap((item) =>
    others
      .filter((other) => overlap(box(item), box(other)))
      .map((other) => [item.id, other.dataset.seat || other.id])
  );
}"""


def test_the_start_of_a_match_fits_every_size(open_page: Callable[..., Any]) -> None:
    """Portrait and landscape, phone to desktop: the felt, the line and my tiles need no scroll; the
    seats' names break between words or at a soft hyphen, never inside a word; and the clock's row
    lies on no seat's box and not on the line (on a phone held sideways the clock's pill ran under
    the side seats, and the line's drawing, squeezed below its least height, over the clock)."""
    player("Ana")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    play_against_computer(page, "cuban-2v2")  # ten tiles in hand: the widest hand
    expect(page.locator("#my-hand .my-tile")).to_have_count(10)
    for width, height in (*SIZES, (640, 360), (844, 390), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "([w]) => window.innerWidth === w && Math.round(document.getElementById('felt')"
            ".getBoundingClientRect().top + window.scrollY) === parseInt("
            "document.getElementById('table-page').style.getPropertyValue('--felt-top'))",
            arg=[width],
        )
        no_page_scroll(page)
        inside_viewport(page, "#line")
        inside_viewport(page, "#my-hand")
        last = page.locator("#my-hand .my-tile").last.get_attribute("data-tile")
        inside_viewport(page, f'#my-hand [data-tile="{last}"]')
        expect(page.locator("#clock")).to_be_visible()  # the clock's row has its pill to check
        assert page.evaluate(MID_WORD_BREAKS) == [], (width, height)
        assert page.evaluate(STATUS_ON_OTHERS) == [], (width, height)
        folder = os.environ.get("AMIGOS_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / f"cuban-start-{width}x{height}.png"))
