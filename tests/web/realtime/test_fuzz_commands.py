"""A fuzz of every socket command with its own field names (issue 8, "Tests"; issue 11, item 17).

A fuzz that sends `{"x": ...}` to `table.play` only ever meets the first field check. Here each
registered command gets payloads built from the fields it really reads (`FIELDS`, checked against
the registry so a new command cannot be left out), holding hostile values (wrong types, integers
past 64 bits, negatives, 1e400 which JSON parsers read as infinity, the non-JSON `NaN`, lone
surrogates, nesting, long strings) and valid-looking ones (the ids of real tables, players, chat
lines and events, most of them another player's), plus envelopes and frames that are not commands.

What docs/protocol.md promises, checked after every frame: exactly one answer (an `ack` to the
command's own id, or an `error` whose code the document lists), sent before the next frame is
read; nothing in the database changed by a refused command; no exception logged by the server;
and the socket still open, answering a heartbeat at the end.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.apps import apps
from django.contrib.sessions.models import Session
from hypothesis import HealthCheck, event, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from amigos.web.events.models import Event
from amigos.web.lobby import chat
from amigos.web.lobby.models import Presence
from amigos.web.realtime import commands
from amigos.web.tables.models import LogRow, Seat, Status, Table
from amigos.web.tables.services import SeatChoice, create_table
from tests.web.conftest import ServerThread, SignedIn, in_ci
from tests.web.test_socket import WAIT, Peer, connect, of_type

pytestmark = pytest.mark.django_db(transaction=True)

PROTOCOL = Path(__file__).parents[3] / "docs" / "protocol.md"

# The fields each command reads (src/amigos/web/*/socket.py), and for the table commands the
# fields the server adds itself on the way to the table's process (a client must not forge them).
FORGED = ["socket_key", "seat", "closed"]
FIELDS: dict[str, list[str]] = {
    "heartbeat": [],
    "chat.send": ["text"],
    "events.watch": ["event_id"],
    "tables.subscribe": [],
    "tables.unsubscribe": [],
    "table.join": ["table_id", "since", "as", *FORGED],
    "table.leave": ["table_id"],
    "table.play": ["table_id", "version", "tile", "arm", "lead_left", *FORGED],
    "table.reshuffle": ["table_id", "version", *FORGED],
    "table.cancel": ["table_id", *FORGED],
    "table.start": ["table_id", *FORGED],
    "table.invite.accept": ["table_id", *FORGED],
    "table.invite.refuse": ["table_id", *FORGED],
    "table.vote": ["table_id", "version", "choice", *FORGED],
    "table.chat": ["table_id", "text", *FORGED],
    "moderation.report": ["player_id", "comment", "table_id", "table_line_id", "lobby_line_id"],
    "moderation.mute": ["player_id"],
    "moderation.unmute": ["player_id"],
    "moderation.watch": ["table_id"],
}
# Words that fields of these names take when they are right.
WORDS: dict[str, list[str]] = {
    "tile": ["6-6", "6-4", "0-0", "4-6", "7-7", "6–6"],
    "arm": ["up", "down", "left", "right", "UP", "middle"],
    "choice": ["rematch", "rotate", "communicate", "Rematch"],
    "as": ["seat", "spectator", "organizer"],
    "text": ["hola", " ", "¿jugamos?", "<script>alert(1)</script>", "\u202eevil"],
    "comment": ["insulta", "", "x" * 501],
    "socket_key": ["", "other-socket", "1"],
}


def documented_codes() -> set[str]:
    """Every refusal code docs/protocol.md lists: its error-code tables and "Refusal codes"."""
    codes: set[str] = set()
    in_table = False
    lines = PROTOCOL.read_text().splitlines()
    for number, line in enumerate(lines):
        if line.startswith("| code |"):
            in_table = True
        elif in_table and line.startswith("|"):
            codes |= set(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
        else:
            in_table = False
        if line.startswith("Refusal codes:"):
            paragraph = " ".join(lines[number : number + 5]).split("\n\n")[0]
            codes |= set(re.findall(r"`([a-z_]+)`", paragraph))
    return codes - {"code"}


@dataclass(frozen=True)
class Inf:
    """A number JSON can write but not hold: ``1e400`` reads as infinity, ``NaN`` is not JSON."""

    text: str


def encode(value: Any) -> str:
    """JSON text, with `Inf` written as its raw token and lone surrogates escaped (``\\ud800``)."""
    if isinstance(value, Inf):
        return value.text
    if isinstance(value, list):
        return "[" + ",".join(encode(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(k))}:{encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float) and not math.isfinite(value):
        return "1e400" if value > 0 else "-1e400"
    return json.dumps(value)


MAX_DEPTH = 32  # arrays and objects, docs/protocol.md


def depth(text: str) -> int:
    """How deep a frame's arrays and objects nest (brackets inside strings do not count)."""
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def nested(depth: int) -> Any:
    value: Any = 1
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


BIG_INTS = [2**31 - 1, 2**31, 2**53, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, 10**30]
hostile = st.one_of(
    st.sampled_from(
        [None, True, False, 0, -1, 1.5, -0.0, 1e-300, float("inf"), float("-inf"), Inf("NaN"), "", "1", "-1"]
    ),
    st.sampled_from(BIG_INTS),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "x" * 3000, "9" * 400]),
    st.text(max_size=20),
    st.sampled_from([[], {}, [1], {"table_id": 1}, nested(30), nested(33)]),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=6,
    ),
)


@dataclass
class World:
    """The fuzzing player, and objects whose ids make payloads look valid (most are others')."""

    player: SignedIn
    ids: list[int]


@pytest.fixture
def world(sign_in: Callable[..., SignedIn], make_player: Callable[..., Any], settings: Any) -> World:
    settings.AMIGOS_SOCKET_COMMAND_BURST = 100_000
    settings.AMIGOS_SOCKET_COMMANDS_PER_SECOND = 100_000
    settings.AMIGOS_SOCKETS_PER_PLAYER = 100
    ana = sign_in("Ana")
    beto, carla = make_player("Beto"), make_player("Carla")
    now = datetime.datetime.now(datetime.UTC)
    # Correspondence tables (a day to answer, no clock ticking during the test): one where Ana is
    # invited, one of other players only.
    invited = create_table(
        organizer=beto,
        name="Con Ana",
        variant="amigos-100",
        kind="correspondence",
        seats={1: SeatChoice(user_id=ana.user.pk), 2: SeatChoice(level="easy"), 3: SeatChoice(level="easy")},
    )
    others = create_table(
        organizer=beto,
        name="Sin Ana",
        variant="amigos-100",
        kind="correspondence",
        seats={1: SeatChoice(user_id=carla.pk), 2: SeatChoice(level="easy"), 3: SeatChoice(level="easy")},
    )
    lines = [chat.post(beto, "hola", now).id, chat.post(carla, "buenas", now).id]
    event = Event.objects.create(name="Recreo", date=now.date(), player_count=4, organizer=beto)
    ids = [ana.user.pk, beto.pk, carla.pk, invited.pk, others.pk, event.pk, *lines]
    return World(ana, sorted(set(ids)))


def payloads(kind: str, ids: list[int]) -> st.SearchStrategy[dict[str, Any]]:
    """Payloads of ``kind``'s own fields: mostly right, with a few fields made hostile or left out
    (so the handler gets past its first checks), and now and then a stranger field."""
    valid_ints = st.sampled_from([*ids, 0, 1, 2, 3])
    fields = FIELDS.get(kind, ["text", "table_id"])
    read = [name for name in fields if name not in FORGED]

    def right(name: str) -> st.SearchStrategy[Any]:
        return st.sampled_from(WORDS[name]) if name in WORDS else valid_ints

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        payload = {name: draw(right(name)) for name in read}
        for name in draw(st.lists(st.sampled_from(fields), max_size=3, unique=True)) if fields else []:
            spoiled = draw(st.sampled_from(["hostile", "hostile", "missing", "right"]))
            if spoiled == "missing":
                payload.pop(name, None)
            else:
                payload[name] = draw(hostile if spoiled == "hostile" else right(name))
        if draw(st.integers(0, 9)) == 0:
            payload[draw(st.sampled_from(["x", "id", "type", "payload"]))] = draw(hostile)
        return payload

    return build()


@dataclass
class Frame:
    text: str
    ident: int | None  # the id the answer must carry, when the frame is a well-formed command
    kind: str = "frame"


def frames(kinds: list[str], ids: list[int], counter: Iterator[int]) -> st.SearchStrategy[Frame]:
    def command(kind: str, payload: dict[str, Any]) -> Frame:
        ident = next(counter)
        return Frame(encode({"type": kind, "id": ident, "payload": payload}), ident, kind)

    commands_ = st.sampled_from(kinds).flatmap(
        lambda kind: payloads(kind, ids).map(lambda p: command(kind, p))
    )
    envelopes = st.builds(
        lambda kind, ident, payload: Frame(encode({"type": kind, "id": ident, "payload": payload}), None),
        st.sampled_from(kinds) | hostile,
        hostile,
        hostile,
    )
    raw = st.one_of(
        hostile.map(lambda value: Frame(encode(value), None)),
        st.text(max_size=40).map(lambda text: Frame(text, None)),
        st.sampled_from(['{"type": "heartbeat", "id": NaN}', "[" * 40 + "]" * 40, "", "{"]).map(
            lambda text: Frame(text, None)
        ),
    )
    return st.one_of(*[commands_] * 6, envelopes, raw)


class Errors(logging.Handler):
    """Every record at ERROR or above, or carrying a traceback, from the server's loggers."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(record)


async def next_answer(peer: Peer, start: int) -> tuple[dict[str, Any], int]:
    """The first ``ack`` or ``error`` at or after ``start`` in what ``peer`` received (waiting for
    it), and where the search for the next one starts. Answers come in the order of the frames, so
    a frame answered twice shifts every later answer, up to the final heartbeat's."""

    async def wait() -> tuple[dict[str, Any], int]:
        index = start
        while True:
            while index < len(peer.received):
                envelope = peer.received[index]
                index += 1
                if envelope["type"] in ("ack", "error"):
                    return envelope, index
            peer._keep(json.loads(await peer.connection.recv()))

    return await asyncio.wait_for(wait(), WAIT)


LOGGERS = ["", "uvicorn", "uvicorn.error", "django.request", "django.server"]
VOLATILE: set[type[Any]] = {Session, Presence}  # written by the socket's idle clock and heartbeats, by design
#: Columns a background task renews by design: a table's lease (owner and until when), every few
#: seconds while its process holds it (PostgreSQL runs share tables across processes).
VOLATILE_FIELDS = {"owner", "lease_until"}


def computers_to_move() -> bool:
    """Whether a table is still moving on its own: a computer player to move, or the next hand to
    deal. A command that starts a table (an accepted invitation) is answered when the start is
    stored; the computer players' moves follow, and a refusal read meanwhile must not be blamed for
    them (seen in CI: the next frame's snapshot caught a computer's move)."""
    for table in Table.objects.filter(status=Status.PLAYING):
        last = LogRow.objects.filter(table=table).order_by("-version").first()
        if last is None or last.kind != "clock":
            return True
        seat = Seat.objects.filter(table=table, number=last.data["seat"]).first()
        if seat is not None and seat.user_id is None:
            return True
    return False


async def settled() -> None:
    """Wait until no table moves on its own any more (see `computers_to_move`)."""

    async def wait() -> None:
        while await sync_to_async(computers_to_move)():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), WAIT)


def database() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every model (the test database is tiny), but the sessions and presences."""
    return {
        model._meta.label: list(
            model._default_manager.order_by("pk").values_list(
                *[
                    field.attname
                    for field in model._meta.concrete_fields
                    if not (model is Table and field.name in VOLATILE_FIELDS)
                ]
            )
        )
        for model in apps.get_models()
        if model not in VOLATILE
        and model._meta.app_label in ("accounts", "lobby", "tables", "moderation", "events")
    }


def test_fields_cover_every_command() -> None:
    """A command registered without its fields here would only ever be fuzzed with strangers."""
    assert set(FIELDS) == {kind for kind in commands.registered() if not kind.startswith("test.")}
    assert {"bad_payload", "table_not_found", "unknown_player", "not_found", "too_deep"} <= documented_codes()


@hypothesis_settings(
    max_examples=150 if in_ci() else 40,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_fuzz_every_command_then_the_socket_still_answers(
    site_server: ServerThread, world: World, data: st.DataObject
) -> None:
    codes = documented_codes()
    counter = iter(range(1, 10**9))
    kinds = [*FIELDS, "no.such"]
    sent = data.draw(st.lists(frames(kinds, world.ids, counter), min_size=6, max_size=20))
    sent = [frame for frame in sent if len(frame.text.encode("utf-8", "surrogatepass")) <= 8192]
    errors = Errors()
    for name in LOGGERS:
        logging.getLogger(name).addHandler(errors)

    async def run() -> None:
        peer = await connect(site_server, world.player)
        await peer.expect(of_type("welcome"))
        before = await sync_to_async(database)()
        position = len(peer.received)
        for frame in sent:
            await peer.send_raw(frame.text)
            reply, position = await next_answer(peer, position)
            await settled()
            after = await sync_to_async(database)()
            if depth(frame.text) > MAX_DEPTH:  # refused before its id is read
                assert reply["payload"]["code"] == "too_deep", (frame.text, reply)
            elif frame.ident is not None:
                assert reply["payload"]["reply_to"] == frame.ident, (frame.text, reply)
            # How deep the fuzz gets: `--hypothesis-show-statistics` lists each command's answers.
            event(f"{frame.kind} -> {reply['payload'].get('code', 'ack')}")
            if reply["type"] == "error":
                assert reply["payload"]["code"] in codes, (frame.text, reply)
                assert after == before, (frame.text, reply)  # a refusal changes nothing
            before = after
        # The socket is open and answers; and no stray second answer to any frame came before it.
        ident = await peer.send("heartbeat")
        last, _ = await next_answer(peer, position)
        assert last["type"] == "ack" and last["payload"]["reply_to"] == ident, last
        await peer.connection.close()

    try:
        asyncio.run(asyncio.wait_for(run(), 4 * WAIT))
        assert [errors.format(record) for record in errors.records] == []
    finally:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(errors)


#: The integer fields of the commands (ids, versions, a lead's side).
INTEGER_FIELDS = sorted(
    (kind, name)
    for kind, names in FIELDS.items()
    for name in names
    if name.endswith("_id") or name in ("version", "since", "lead_left")
)


def test_integers_beyond_the_databases_keys_are_refused(site_server: ServerThread, world: World) -> None:
    """Regression (the fuzz, in CI): a `player_id` of 2**63 reached SQLite's driver, which raised
    OverflowError, and the socket closed with 1011. Every integer field of every command is sent
    just outside a 64-bit key, the other fields right: each is refused with a documented code,
    nothing changes, and the socket goes on answering."""
    codes = documented_codes()

    async def run() -> None:
        peer = await connect(site_server, world.player)
        await peer.expect(of_type("welcome"))
        position = len(peer.received)
        before = await sync_to_async(database)()
        for kind, name in INTEGER_FIELDS:
            for value in (2**63, -(2**63) - 1):
                payload: dict[str, Any] = {
                    field: WORDS[field][0] if field in WORDS else world.ids[-1]
                    for field in FIELDS[kind]
                    if field not in FORGED
                }
                payload[name] = value
                await peer.send(kind, payload)
                reply, position = await next_answer(peer, position)
                assert reply["type"] == "error" and reply["payload"]["code"] in codes, (kind, name, reply)
        await settled()
        assert await sync_to_async(database)() == before
        ident = await peer.send("heartbeat")
        last, _ = await next_answer(peer, position)
        assert last["type"] == "ack" and last["payload"]["reply_to"] == ident, last
        await peer.connection.close()

    asyncio.run(asyncio.wait_for(run(), 4 * WAIT))
