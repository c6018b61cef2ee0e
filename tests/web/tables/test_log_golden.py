"""What a live table stores and publishes, byte for byte, for seeded matches played at the actor.

The stored log and the `table.events` payloads are a contract with every client and with the rows
the database already holds: a change to how the server builds its log entries (typed entries and
their codec, issue 37) must leave both exactly as they were. These matches are played with a fake
clock, seeded deals and seeded moves, deterministic computer players and table ids counted from 1,
so each run writes the same rows and sends the same frames. The files ``golden/log-*.txt`` hold them
as the code before the typed entries wrote them; the test compares line by line.

Set ``AMIGOS_WRITE_GOLDEN=1`` to write the file again (only when the wire is meant to change).
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web import jsontext
from amigos.web.accounts.models import User
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import actor as actor_module
from amigos.web.tables import registry, services, store, storing, thinking
from amigos.web.tables.actor import TableActor
from tests.web.tables.support import FakeClock
from tests.web.tables.test_actor import OFFER_SEAT_1, until
from tests.web.tables.test_actor_agrees_with_model import play_side_by_side

pytestmark = [
    pytest.mark.django_db(transaction=True, reset_sequences=True),
    pytest.mark.usefixtures("fake_clock"),
]

GOLDEN = Path(__file__).parent / "golden" / "log.txt"  # one file per scenario beside it


class Capture:
    """Every row the actors store (as it goes to the database, keys in order) and every frame the
    hub publishes, one line each, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lines: list[str] = []
        append = storing.append

        async def stored(table_id: int, version: int, write: store.Write, loop: Any) -> int:
            for offset, (kind, data) in enumerate(write.rows, start=1):
                self.lines.append(f"row {table_id} {version + offset} {kind} {jsontext.dumps(data)}")
            return await append(table_id, version, write, loop)

        monkeypatch.setattr(actor_module.storing, "append", stored)
        hub = get_hub()
        publish_encoded = hub.publish_encoded

        async def published(topic: str, kind: str, payload_json: str) -> None:
            # An invitation's deadline is the services' own clock's, not the table's: left out.
            if kind != "table.invited":
                self.lines.append(f"pub {topic} {kind} {payload_json}")
            await publish_encoded(topic, kind, payload_json)

        monkeypatch.setattr(hub, "publish_encoded", published)
        publish_encoded_many = hub.publish_encoded_many

        async def published_many(messages: list[tuple[str, str, str]]) -> None:
            # A play's audiences go out together (one round trip to the bus): one line each.
            for topic, kind, payload_json in messages:
                self.lines.append(f"pub {topic} {kind} {payload_json}")
            await publish_encoded_many(messages)

        monkeypatch.setattr(hub, "publish_encoded_many", published_many)

    async def read_back(self, table_id: int) -> None:
        """The rows as the database gives them back (keys sorted: PostgreSQL's jsonb orders them)."""
        rows = await sync_to_async(store.rows_between)(table_id, 0, 10_000)
        for version, kind, data in rows:
            self.lines.append(f"db {table_id} {version} {kind} {jsontext.dumps(_sorted(data))}")


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def seeded_computers(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Computer players that choose as the easy bot with a fixed seed, and seeded deals."""
    draw = random.Random(seed)

    async def think(view: Any, level: str) -> Any:
        return thinking.choose(view, "easy", 0)

    monkeypatch.setattr(thinking, "think", think)
    monkeypatch.setattr(
        actor_module, "new_deal_key", lambda: str(uuid.UUID(int=draw.getrandbits(128), version=4))
    )
    monkeypatch.setattr(actor_module, "random_seat", lambda players: draw.randrange(players))


async def computers_match(
    make_player: Callable[..., User], variant: str, players: int | None, name: str
) -> TableActor:
    """A match of one person (who lays the first legal tile offered) against computer players."""
    user = await sync_to_async(make_player)(name)
    table = await sync_to_async(services.play_against_computer)(
        user=user, variant=variant, players=players, level="easy"
    )
    actor = await registry.get_actor(table.pk)
    assert actor is not None
    seat = actor.seat_of(user.pk)
    assert seat is not None
    for _ in range(400):
        await until(lambda: actor.status != "playing" or actor.game.to_move == seat or _dealing(actor))
        if actor.status != "playing":
            break
        if _dealing(actor):
            await actor.fire_deadline()
            continue

        async def mine() -> None:
            # Inside the actor: a computer player may have moved since the check above.
            hand = actor.game.hand
            if actor.status == "playing" and hand is not None and actor.game.to_move == seat:
                await actor.play(user.pk, actor.version, hand.legal_actions()[0])

        await actor.call(mine)
    if actor.status == "voting":
        await actor.call(lambda: actor.vote(user.pk, actor.version, "communicate"))
    return actor


def _dealing(actor: TableActor) -> bool:
    return actor.status == "playing" and not actor.game.in_hand and actor.deadline_kind == "deal"


async def people_match(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, seed: int
) -> list[int]:
    """Four people: cards, notices, system moves, absences, restarts and abandonment (absences),
    or a match without absences."""
    await play_side_by_side(make_player, monkeypatch, fake_clock, seed, absences=seed == 4)
    table_id = max(await sync_to_async(registry_ids)())
    return [table_id]


async def computers_matches(make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Computer players: the draw for the first lead and a deal voided (Cuban), tiles drawn from
    the boneyard (draw-100)."""
    seeded_computers(monkeypatch, 7)
    keys = [OFFER_SEAT_1]
    original = actor_module.new_deal_key
    monkeypatch.setattr(actor_module, "new_deal_key", lambda: keys.pop(0) if keys else original())
    tables = []
    for variant, players, name in (("cuban-1v1", None, "Eva"), ("draw-100", 2, "Fede")):
        actor = await computers_match(make_player, variant, players, name)
        tables.append(actor.id)
        await registry.stop_all()
    return tables


async def invitations(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> list[int]:
    """One invitation refused (the table is cancelled), and a table its organizer calls off."""
    tables = []
    for answer in ("refuse", "cancel"):
        host = await sync_to_async(make_player)(f"Gabi {answer}")
        guest = await sync_to_async(make_player)(f"Hugo {answer}")
        monkeypatch.setattr(services, "_online_ids", lambda now, ids={host.pk, guest.pk}: ids)
        table = await sync_to_async(services.create_table)(
            organizer=host,
            name="Mesa",
            variant="cuban-1v1",
            seats={1: services.SeatChoice(user_id=guest.pk)},
            now=fake_clock.now(),
        )
        actor = await registry.get_actor(table.pk)
        assert actor is not None
        if answer == "refuse":
            await actor.call(lambda actor=actor, guest=guest: actor.refuse(guest.pk))
        else:
            await actor.call(lambda actor=actor, host=host: actor.cancel(host.pk))
        tables.append(actor.id)
        await registry.stop_all()
    return tables


#: Each scenario and the kinds of log entry it must have stored (so the golden file covers them).
SCENARIOS: dict[str, set[str]] = {
    "absences": {"started", "hand_started", "played", "clock", "card", "notice", "seat_changed"}
    | {"disconnected", "reconnected", "match_ended"},
    "people": {"hand_ended", "passed"},
    "computers": {"hand_voided", "drew", "hand_started", "match_ended", "vote", "votes_closed"},
    "invitations": {"invitation_refused", "cancelled"},
}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
async def test_the_stored_log_and_the_wire_stay_byte_for_byte_the_same(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, scenario: str
) -> None:
    capture = Capture(monkeypatch)
    if scenario == "absences":
        tables = await people_match(make_player, monkeypatch, fake_clock, 4)
    elif scenario == "people":
        tables = await people_match(make_player, monkeypatch, fake_clock, 1)
    elif scenario == "computers":
        tables = await computers_matches(make_player, monkeypatch)
    else:
        tables = await invitations(make_player, monkeypatch, fake_clock)
    await registry.stop_all()
    for table_id in tables:
        await capture.read_back(table_id)
    kinds = {line.split(" ")[3] for line in capture.lines if line.startswith("row ")}
    assert kinds >= SCENARIOS[scenario], SCENARIOS[scenario] - kinds
    text = "\n".join(capture.lines) + "\n"
    golden = GOLDEN.parent / f"log-{scenario}.txt"
    if os.environ.get("AMIGOS_WRITE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text)
    expected = golden.read_text().splitlines()
    got = text.splitlines()
    for number, (want, have) in enumerate(zip(expected, got, strict=False), start=1):
        assert have == want, f"{golden.name}: line {number} differs"
    assert len(got) == len(expected)


def registry_ids() -> list[int]:
    from amigos.web.tables.models import Table

    return list(Table.objects.values_list("pk", flat=True))
