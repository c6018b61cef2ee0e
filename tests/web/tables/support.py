"""Helpers for the table server's tests: a fake clock, a recording connection, a leak detector."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from amigos.engine import Play, Tile
from amigos.engine.actions import Arm
from amigos.web.accounts.models import User
from amigos.web.realtime.hub import get_hub
from amigos.web.tables.models import Invitation, Seat, Table

TILE = re.compile(r"^[0-9]-[0-9]$")


def play_of(entry: dict[str, Any]) -> Play:
    """The play one entry of a clock's `legal` list describes, by its first arm and lead side (the
    way tests choose a play for a seat)."""
    arm = Arm(entry["arms"][0]) if entry["arms"] else None
    lead_left = entry["lead_left"][0] if entry["lead_left"] else None
    return Play(Tile.parse(entry["tile"]), arm, lead_left)


def stored_table(seated: list[User | None], created_at: datetime, *, accepted: bool = True) -> Table:
    """A four-seat Amigos table stored as it is (no actor): seat 0 organizes, a None seat is an easy
    computer player, and every invitation is accepted (or, with ``accepted=False``, still open)."""
    table = Table.objects.create(
        name="Mesa", variant="amigos-100", players=4, organizer=seated[0], created_at=created_at
    )
    for number, user in enumerate(seated):
        Seat.objects.create(
            table=table,
            number=number,
            user=user,
            level="" if user else "easy",
            invitation=Invitation.ACCEPTED if accepted or number == 0 else Invitation.PENDING,
        )
    return table


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or datetime(2026, 11, 22, 20, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


class Recorder:
    """A stand-in for a socket (a `Connection`): it joins real hub topics and keeps what it gets."""

    def __init__(self, user_id: int, name: str = "test") -> None:
        self._user_id = user_id
        self.name = name
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.topics: set[str] = set()

    @property
    def user_id(self) -> int:
        return self._user_id

    @property
    def display_name(self) -> str:
        return self.name

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        self.received.append((kind, payload))

    def hold_frames(self) -> None:
        """Nothing to hold: what is pushed is kept at once."""

    async def join(self, topic: str) -> None:
        self.topics.add(topic)
        await get_hub().join(topic, self)

    async def leave(self, topic: str) -> None:
        self.topics.discard(topic)
        await get_hub().leave(topic, self)

    async def activity(self) -> bool:
        return True

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            event
            for name, payload in self.received
            for event in flat_events(name, payload)
            if kind is None or event["kind"] == kind
        ]

    async def close(self) -> None:
        for topic in list(self.topics):
            await self.leave(topic)


def flat_events(kind: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of a `table.events` message one by one, each with the message's `table_id` and
    `now` (as the page's script takes them); none for any other message."""
    if kind != "table.events":
        return []
    return [{"table_id": payload["table_id"], "now": payload["now"], **event} for event in payload["events"]]


def event_in(envelope: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """The first event of ``kind`` in a socket envelope (see `flat_events`), or None."""
    events = flat_events(str(envelope.get("type", "")), envelope.get("payload") or {})
    return next((event for event in events if event["kind"] == kind), None)


def same_tile(text: str) -> str:
    """One spelling per tile, high end first: move notation writes a tile as it is laid ("1-6"),
    hands write it "6-1". Comparing raw texts made the detector report a seat's own legal moves as
    a leak whenever the snapshot came on its turn (the intermittent draw-100-2 failure)."""
    low, high = sorted(text.split("-"))
    return f"{high}-{low}"


def tiles_in(value: Any) -> set[str]:
    """Every tile text ("a-b") anywhere in a JSON value, spelled by ``same_tile``."""
    found: set[str] = set()
    if isinstance(value, str):
        if TILE.match(value):
            found.add(same_tile(value))
    elif isinstance(value, dict):
        for item in value.values():
            found |= tiles_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= tiles_in(item)
    return found


class LeakDetector:
    """Follows one audience's messages in order and fails on any tile it may not know.

    An audience may know its own tiles (dealt, or drawn by itself) and every tile laid on the table.
    Everything becomes public when a hand ends (`hand_ended` reveals the hands and the key).
    Cuban: the tiles drawn for the first lead (`lead_draw`) are public too, as at a real table where
    they are drawn face up; they come from the set-aside tiles, which nobody holds or plays.
    """

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.known: set[str] = set()
        self.checked = 0
        self.offers = 0  # reshuffle offers this audience was told of (its own)
        self.voided: list[str] = []  # the keys of the voided deals it was told
        self.version = 0  # the version the audience's client stands at
        self.versions: list[int] = []  # the events it applied, in order

    def _check(self, what: str, value: Any) -> None:
        leaked = tiles_in(value) - self.known
        assert not leaked, f"{what} shows {sorted(leaked)} to audience {self.seat}"
        self.checked += 1

    def offer(self, offered: object, hand: list[str]) -> None:
        """A Cuban reshuffle offer says its seat holds 5 or more doubles: only that seat may see it."""
        assert offered in (None, False, True), offered
        if offered:
            assert self.seat is not None and sum(1 for tile in hand if tile[0] == tile[-1]) >= 5, (
                f"audience {self.seat} is told of a reshuffle offer that is not its own"
            )
            self.offers += 1

    def event(self, payload: dict[str, Any]) -> None:
        kind, data = payload["kind"], payload["data"]
        if kind == "hand_started":
            self.known = {same_tile(tile) for tile in data["hand"]}
            self.known |= {same_tile(tile) for _, tile in data.get("lead_draw") or ()}
            self.offer(data.get("reshuffle"), data["hand"])
            if self.seat is None:
                assert data["hand"] == []
        elif kind == "hand_voided":
            # A voided deal reveals its key (anyone may derive its tiles: none of them is in play);
            # it names no tile, and the next deal is another key's.
            assert set(data) == {"number", "seat", "id", "key", "commitment"}, data
            self.voided.append(data["key"])
        elif kind == "played" or (kind == "drew" and data["seat"] == self.seat and data["tile"] is not None):
            self.known.add(same_tile(data["tile"]))
        if kind == "hand_ended":
            self.known = set()
            return
        if kind in ("match_ended",):
            return
        if kind == "clock":
            self.turn(data)
        self._check(kind, data)

    def turn(self, data: dict[str, Any]) -> None:
        """The clock of another seat's turn must not say how long it is: its length tells whether
        that seat has a single legal tile (5 s) or a play that may block (60 s)."""
        if data["seat"] == self.seat or data.get("situation") in ("timed", "computer", "correspondence"):
            return
        shown = {name: data.get(name) for name in ("situation", "seconds", "deadline")}
        assert shown == dict.fromkeys(shown), f"audience {self.seat} sees seat {data['seat']}'s clock {shown}"
        self.checked += 1

    def snapshot(self, payload: dict[str, Any]) -> None:
        hand = payload.get("hand")
        if hand is None:
            return
        view = hand["view"]
        self.known = tiles_in(view["hand"]) | tiles_in([p["tile"] for p in view["line"]["placements"]])
        self.offer(hand.get("reshuffle"), view["hand"])
        if payload.get("turn") is not None:
            self.turn(payload["turn"])
        # (lead_draw: the first deal's public draw for the lead, history like the sheet)
        checked = {
            key: value
            for key, value in payload.items()
            if key not in ("previous_hands", "sheet", "lead_draw")
        }
        self._check("snapshot", checked)

    def feed(self, kind: str, payload: dict[str, Any]) -> None:
        """Take the messages as a client does: an event published just before a join may also
        arrive live after the snapshot, and the client drops it (docs/protocol.md, "Joining")."""
        if kind == "table.events":
            for event in flat_events(kind, payload):
                if event["version"] <= self.version:
                    continue
                self.version = event["version"]
                self.versions.append(self.version)
                self.event(event)
        elif kind == "table.snapshot":
            self.version = payload["version"]
            self.snapshot(payload)


class PublishedHub:
    """A hub that keeps what is published instead of sending it (the `hub` fixture puts it where
    `forwarding` finds its hub): the forwarding tests read the requests and answers it holds."""

    def __init__(self) -> None:
        self.published: list[tuple[str, str, dict[str, Any]]] = []

    async def publish(self, topic: str, kind: str, payload: dict[str, Any]) -> None:
        self.published.append((topic, kind, payload))
