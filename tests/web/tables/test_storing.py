"""Tables' writes grouped into shared transactions (`storing`, `store.append_many`): each table still
gets exactly its own outcome, a write that cannot be stored costs the others nothing, and a group's
failure frees the writer for the next ones. Runs on SQLite and again on PostgreSQL."""

from __future__ import annotations

import asyncio
import copy
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import DatabaseError, connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amigos.web.accounts.models import User
from amigos.web.tables import store, storing
from amigos.web.tables.loop_store import LoopConnections
from amigos.web.tables.models import LogRow, MatchRecord, Seat, Table
from tests.web.tables.support import stored_table

pytestmark = pytest.mark.django_db(transaction=True)

AT = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)


async def tables(make_player: Callable[..., User], count: int) -> list[int]:
    def build() -> list[int]:
        organizer = make_player("org")
        return [stored_table([organizer, None, None, None], AT).pk for _ in range(count)]

    return await sync_to_async(build)()


def a_play(number: int) -> store.Write:
    return store.Write(rows=[("played", {"seat": 0, "n": number}), ("clock", {"seat": 1})], at=AT)


async def stored(table_id: int) -> tuple[int, list[tuple[int, str]]]:
    def read() -> tuple[int, list[tuple[int, str]]]:
        version = Table.objects.values_list("version", flat=True).get(pk=table_id)
        events = list(
            LogRow.objects.filter(table_id=table_id).order_by("version").values_list("version", "kind")
        )
        return version, events

    return await sync_to_async(read)()


async def outcomes(writes: list[tuple[int, int, store.Write]]) -> list[Any]:
    """Every write sent at once, as many actors would; what each one was answered."""
    return list(
        await asyncio.gather(
            *(storing.append(table_id, expected, write) for table_id, expected, write in writes),
            return_exceptions=True,
        )
    )


async def test_a_write_given_its_loop_joins_the_group_of_the_writes_that_find_it(
    make_player: Callable[..., User],
) -> None:
    """An actor names its loop (`TableActor.loop`) instead of asking for the running one; its write
    still waits with the others of that loop and goes in their transaction."""
    ids = await tables(make_player, 4)
    loop = asyncio.get_running_loop()
    answers = await asyncio.gather(
        *(storing.append(table_id, 0, a_play(n), loop if n % 2 else None) for n, table_id in enumerate(ids))
    )
    assert answers == [2] * 4
    assert storing.writer(loop) is storing.writer()
    assert storing.writer().groups[-1] == 4


async def test_writes_that_wait_together_are_stored_in_one_transaction(
    make_player: Callable[..., User],
) -> None:
    ids = await tables(make_player, 6)
    answers = await outcomes([(table_id, 0, a_play(n)) for n, table_id in enumerate(ids)])
    assert answers == [2] * 6
    assert storing.writer().groups[-1] == 6
    for table_id in ids:
        assert await stored(table_id) == (2, [(1, "played"), (2, "clock")])
    # The next round goes on from the new versions, in order.
    assert await outcomes([(table_id, 2, a_play(9)) for table_id in ids]) == [4] * 6


async def test_a_table_that_moved_on_loses_only_its_own_write(make_player: Callable[..., User]) -> None:
    first, stale, last = await tables(make_player, 3)
    answers = await outcomes([(first, 0, a_play(1)), (stale, 5, a_play(2)), (last, 0, a_play(3))])
    assert answers[0] == answers[2] == 2
    assert isinstance(answers[1], store.LostWrite)
    assert await stored(stale) == (0, [])
    assert (await stored(first))[0] == (await stored(last))[0] == 2


async def test_a_write_that_breaks_the_transaction_costs_the_others_nothing(
    make_player: Callable[..., User],
) -> None:
    """A stray event where the write's first one goes breaks the shared transaction (one event per
    version): every write is tried again alone, and only the faulty one fails."""
    first, broken, last = await tables(make_player, 3)
    await sync_to_async(LogRow.objects.create)(table_id=broken, version=1, kind="stray", data={}, at=AT)
    answers = await outcomes([(first, 0, a_play(1)), (broken, 0, a_play(2)), (last, 0, a_play(3))])
    assert storing.writer().groups[-1] == 3
    assert answers[0] == answers[2] == 2
    assert isinstance(answers[1], DatabaseError)
    assert await stored(broken) == (0, [(1, "stray")])
    assert await stored(first) == await stored(last) == (2, [(1, "played"), (2, "clock")])


async def test_a_group_whose_thread_fails_answers_everyone_and_frees_the_writer(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every way a group is written failing at once (on PostgreSQL a play's group goes on the
    loop's connection, then one by one on a store thread; on SQLite on Django's thread)."""
    ids = await tables(make_player, 2)

    def failing(writes: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
        raise RuntimeError("the store thread died")

    async def failing_on_loop(self: LoopConnections, writes: list[tuple[int, int, store.Write]]) -> None:
        raise RuntimeError("the loop's connection broke")

    with monkeypatch.context() as patched:
        patched.setattr(store, "append_many", failing)
        patched.setattr(store, "append_each", failing)
        patched.setattr(LoopConnections, "write", failing_on_loop)
        answers = await outcomes([(table_id, 0, a_play(0)) for table_id in ids])
    assert all(isinstance(answer, RuntimeError) for answer in answers)
    assert storing.writer().writing == 0
    assert await outcomes([(table_id, 0, a_play(0)) for table_id in ids]) == [2, 2]


async def test_a_seat_change_survives_being_tried_twice(make_player: Callable[..., User]) -> None:
    """A group that fails is tried again write by write: a write must come out of the first try as
    it went in (regression: storing a seat change consumed its ``number``, so the retry failed)."""
    first, broken = await tables(make_player, 2)
    await sync_to_async(LogRow.objects.create)(table_id=broken, version=1, kind="stray", data={}, at=AT)
    seat = {"number": 1, "level": "hard"}
    change = store.Write(rows=[("seat_changed", {"seat": 1})], at=AT, seats=[seat])
    answers = await outcomes([(first, 0, change), (broken, 0, a_play(2))])
    assert answers[0] == 1
    level = await sync_to_async(lambda: Seat.objects.get(table_id=first, number=1).level)()
    assert level == "hard"


def _postgresql() -> bool:
    return connection.vendor == "postgresql"


async def test_a_play_group_is_written_on_the_loop_s_own_connection(make_player: Callable[..., User]) -> None:
    """On PostgreSQL a group of plays goes on a connection of the loop's, kept for the next
    group; SQLite's writes never open one."""
    ids = await tables(make_player, 3)
    assert await outcomes([(table_id, 0, a_play(n)) for n, table_id in enumerate(ids)]) == [2] * 3
    connections = storing.writer().connections
    opened = 1 if _postgresql() else 0
    assert (connections.opened, len(connections.idle)) == (opened, opened)
    assert await outcomes([(table_id, 2, a_play(n)) for n, table_id in enumerate(ids)]) == [4] * 3
    assert (connections.opened, len(connections.idle)) == (opened, opened)
    for table_id in ids:
        assert await stored(table_id) == (4, [(1, "played"), (2, "clock"), (3, "played"), (4, "clock")])


async def test_a_connection_the_database_dropped_costs_no_write(make_player: Callable[..., User]) -> None:
    """The database ends the loop's connection between two groups (a restart, an administrator):
    the next group fails on it, its writes are stored one by one on a store thread, the broken
    connection is closed, and the group after that opens a new one."""
    if not _postgresql():
        pytest.skip("only PostgreSQL writes groups on the event loop's connections")
    ids = await tables(make_player, 2)
    assert await outcomes([(table_id, 0, a_play(0)) for table_id in ids]) == [2, 2]
    connections = storing.writer().connections
    [held] = connections.idle

    def terminate(pid: int) -> None:
        with connection.cursor() as cursor:  # waits up to 5 s for the backend to be gone
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])

    await sync_to_async(terminate)(held.info.backend_pid)
    assert await outcomes([(table_id, 2, a_play(1)) for table_id in ids]) == [4, 4]
    assert held.closed and connections.idle == []
    assert await outcomes([(table_id, 4, a_play(2)) for table_id in ids]) == [6, 6]
    assert connections.opened == 2
    for table_id in ids:
        assert (await stored(table_id))[0] == 6


async def test_closing_the_store_closes_the_loop_s_connections(make_player: Callable[..., User]) -> None:
    """`storing.close` (a test session's end, before its database is dropped) closes them too."""
    if not _postgresql():
        pytest.skip("only PostgreSQL writes groups on the event loop's connections")
    [table_id] = await tables(make_player, 1)
    assert await outcomes([(table_id, 0, a_play(0))]) == [2]
    [held] = storing.writer().connections.idle
    storing.close()
    assert held.closed and storing.writer().connections.idle == []
    assert await outcomes([(table_id, 2, a_play(1))]) == [4]


_at = st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2027, 1, 1), timezones=st.just(UTC))
_moments = st.none() | _at


@st.composite
def _writes(draw: st.DrawFn, next_table: int) -> tuple[int, store.Write]:
    """A write of any shape the actor makes, with how far its expected version is off (0: right)."""
    # Any text in the events (quotes, backslashes, braces, accents: the arrays PostgreSQL gets must
    # carry them as they are); not NUL, which PostgreSQL's JSON cannot hold.
    text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=8)
    events = [("e", {"n": n, "said": draw(text)}) for n in range(draw(st.integers(0, 3)))]
    deadline = draw(st.none() | st.tuples(_moments, st.sampled_from(["", "card", "deal"])))
    if deadline is not None and deadline[0] is None:
        deadline = (None, "")
    record = draw(st.none() | st.fixed_dictionaries({"hands": st.lists(st.integers(0, 9), max_size=3)}))
    ended = record is not None and draw(st.booleans())
    write = store.Write(
        rows=events,
        at=draw(_at),
        status=draw(st.none() | st.sampled_from(["playing", "voting", "finished"])),
        started_at=draw(_moments),
        ended_at=draw(_moments),
        deadline=deadline,
        match_number=draw(st.none() | st.integers(1, 4)),
        seats=draw(
            st.lists(
                st.fixed_dictionaries(
                    {"number": st.integers(1, 3), "level": st.sampled_from(["easy", "hard"])}
                ),
                max_size=2,
            )
        ),
        record=record,
        record_started_at=draw(_moments),
        record_ended=ended,
        termination=draw(st.sampled_from(["target", "abandonment"])) if ended else "",
        next_table_id=draw(st.none() | st.just(next_table)),
    )
    return draw(st.sampled_from([0, 0, 0, 1])), write


def _state(table_id: int) -> dict[str, Any]:
    """Everything a write may change, for one table."""
    return {
        "table": Table.objects.filter(pk=table_id)
        .values(
            "version",
            "status",
            "started_at",
            "ended_at",
            "deadline_at",
            "deadline_kind",
            "match_number",
            "next_table_id",
        )
        .get(),
        "events": list(
            LogRow.objects.filter(table_id=table_id)
            .order_by("version")
            .values_list("version", "kind", "data", "at")
        ),
        "records": list(
            MatchRecord.objects.filter(table_id=table_id)
            .order_by("number")
            .values_list("number", "record", "started_at", "ended_at", "termination")
        ),
        "seats": list(
            Seat.objects.filter(table_id=table_id).order_by("number").values_list("number", "level")
        ),
    }


def _on_loop(writes: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
    """A group written as the event loop writes it, on a connection of its own."""

    async def write() -> list[store.Outcome]:
        connections = LoopConnections()
        try:
            return await connections.write(writes)
        finally:
            connections.close()

    return asyncio.run(write())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize("route", ["store thread", "loop"])
def test_a_group_stores_exactly_what_its_writes_store_one_by_one(
    make_player: Callable[..., User], data: st.DataObject, route: str
) -> None:
    """Whatever the writes' shapes (on PostgreSQL a group, even of one write, is one statement that
    updates the tables, inserts the events and upserts the records), the tables end as if each
    write had been stored alone, statement by statement, and each write gets the same answer.
    Twice in a row, so the second round also meets records and events that exist. The loop's
    route (PostgreSQL's, for groups of one statement) runs the statement on an asynchronous
    connection of its own: it must store the same."""
    if route == "loop" and not _postgresql():
        pytest.skip("only PostgreSQL writes groups on the event loop's connections")
    organizer = make_player(f"org-{uuid.uuid4().hex[:8]}")
    next_table = stored_table([organizer, None, None, None], AT).pk
    count = data.draw(st.integers(1, 5), label="tables")
    grouped = [stored_table([organizer, None, None, None], AT).pk for _ in range(count)]
    alone = [stored_table([organizer, None, None, None], AT).pk for _ in range(count)]
    versions = [0] * count
    for _round in range(2):
        drawn = [data.draw(_writes(next_table), label="write") for _ in range(count)]
        if route == "loop":  # the loop takes only groups of one statement: no seat changes
            for _, write in drawn:
                write.seats = []
        group = [
            (table_id, versions[n] + off, copy.deepcopy(write))
            for n, (table_id, (off, write)) in enumerate(zip(grouped, drawn, strict=True))
        ]
        answers = store.append_many(group) if route == "store thread" else _on_loop(group)
        singles = [
            store._alone(table_id, versions[n] + off, copy.deepcopy(write))
            for n, (table_id, (off, write)) in enumerate(zip(alone, drawn, strict=True))
        ]
        assert [type(a).__name__ if isinstance(a, Exception) else a for a in answers] == [
            type(a).__name__ if isinstance(a, Exception) else a for a in singles
        ]
        for left, right in zip(grouped, alone, strict=True):
            assert _state(left) == _state(right)
        for (table_id, expected, write), answer in zip(group, answers, strict=True):
            if isinstance(answer, int):
                stored_events = LogRow.objects.filter(table_id=table_id, version__gt=expected).order_by(
                    "version"
                )
                assert [(row.kind, row.data) for row in stored_events] == write.rows
            if isinstance(answer, int) and write.record is not None:
                match = Table.objects.values_list("match_number", flat=True).get(pk=table_id)
                row = MatchRecord.objects.filter(table_id=table_id, number=match).first()
                assert row is not None and row.record == write.record
                if write.record_ended:
                    assert (row.ended_at, row.termination) == (write.at, write.termination)
        versions = [a if isinstance(a, int) else versions[n] for n, a in enumerate(answers)]


async def test_a_finished_group_reaches_its_actors_within_two_turns_of_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A busy loop's turn lasts tens of milliseconds, so every pass through it between the store
    thread and the actors delays every play (regression: asgiref's `sync_to_async` took four turns).
    Now the thread's one callback answers the actors, who run at the turn after it."""
    monkeypatch.setattr(storing, "_postgresql", lambda: True)  # the store threads' path, no database
    monkeypatch.setattr(store, "one_statement", lambda writes: False)
    written, handed_back = threading.Event(), threading.Event()
    release = threading.Event()

    def append_many(writes: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
        written.set()
        release.wait()
        return [expected + len(write.rows) for _, expected, write in writes]

    real_hand_back = storing.Writer._hand_back

    def hand_back(self: storing.Writer, *args: Any) -> None:
        real_hand_back(self, *args)
        handed_back.set()

    monkeypatch.setattr(store, "append_many", append_many)
    monkeypatch.setattr(storing.Writer, "_hand_back", hand_back)
    writer = storing.Writer(storing.LANES, asyncio.get_running_loop())
    actors = [asyncio.ensure_future(writer.append(table_id, 4, a_play(table_id))) for table_id in (1, 2)]
    await asyncio.to_thread(written.wait)
    release.set()
    handed_back.wait()  # the loop's thread waits: the answer is queued, no turn has passed
    turns = 0
    while not all(actor.done() for actor in actors):
        await asyncio.sleep(0)
        turns += 1
        assert turns <= 2, "the actors were not answered within two turns of the loop"
    assert [actor.result() for actor in actors] == [6, 6]
    assert writer.groups[-1] == 2 and writer.writing == 0


async def test_a_play_s_statement_leaves_at_the_loop_s_next_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: the first write of a group scheduled a callback for the loop's next turn, which
    then started the group's task, whose first step, where the statement leaves, came a turn
    later still: one more pass through a busy loop before every play's write. The group's task
    now starts with the first write, and the writes made in the same turn still go together."""
    monkeypatch.setattr(storing, "_postgresql", lambda: True)  # the loop's connection, faked
    monkeypatch.setattr(store, "one_statement", lambda writes: True)
    sent: list[int] = []
    turns = 0

    async def write(writes: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
        sent.append(turns)
        return [expected + len(play.rows) for _, expected, play in writes]

    writer = storing.Writer(storing.LANES, asyncio.get_running_loop())
    monkeypatch.setattr(writer.connections, "write", write)
    actors = [asyncio.ensure_future(writer.append(table_id, 4, a_play(table_id))) for table_id in (1, 2, 3)]
    # Turn 1: the actors' writes; turn 2: their group's statement.
    while not sent:
        await asyncio.sleep(0)
        turns += 1
        assert turns <= 2, "the statement did not leave at the turn after the writes"
    assert sent == [1] and list(writer.groups) == [3]
    assert await asyncio.gather(*actors) == [6, 6, 6]
    assert writer.writing == 0 and not writer._starting
