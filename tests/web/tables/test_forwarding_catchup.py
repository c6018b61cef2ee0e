"""A forwarded join hears its topics from before it asks, and reads no log (issue 40).

After the owner answers a join, the asking process listens to the socket's topics; what the table
published in between never reaches it there. The asker read the log after every forwarded join to
find it: a statement on the database thread that every socket's opening and every table's commands
share, and with a thousand tables' sockets joining at once those reads queued for seconds each. Now
the asker listens to every topic the join may hand over from before it asks (`forwarding._Heard`),
so nothing goes by unheard and the log is not read.

One process plays both parts on real Redis, as in `test_forwarding_join`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from amigos.web.accounts.models import User
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import forwarding, rendering, store
from tests.web.tables.support import FakeClock, Recorder
from tests.web.tables.test_actor import among_people
from tests.web.tables.test_forwarding_join import (  # noqa: F401  (the fixtures)
    from_elsewhere,
    shared,
    until,
    versions,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.redis,
    pytest.mark.usefixtures("shared", "from_elsewhere"),
]


@pytest.fixture
def log_reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Each read of a table's log rows (`store.rows_between`): the table and the version after."""
    reads: list[tuple[int, int]] = []
    real = store.rows_between

    def counted(table_id: int, after: int, upto: int) -> Any:
        reads.append((table_id, after))
        return real(table_id, after, upto)

    monkeypatch.setattr(store, "rows_between", counted)
    return reads


def moving_on_after_the_answer(
    monkeypatch: pytest.MonkeyPatch, actor: Any, fake_clock: FakeClock
) -> list[int]:
    """Between the owner's answer and the asker's catch-up, every seat's silence runs out and the
    table tells each away (events published before the asker would listen, were it not already);
    the table's version at that moment."""
    real = forwarding._replay
    moved: list[int] = []

    async def late(*args: Any, **kwargs: Any) -> None:
        moved.append(actor.version)
        fake_clock.advance(31)
        await actor.fire_deadline()
        assert actor.version > moved[-1]
        await real(*args, **kwargs)

    monkeypatch.setattr(forwarding, "_replay", late)
    return moved


async def test_joins_that_bring_the_table_back_read_no_log(
    fake_clock: FakeClock,
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    log_reads: list[tuple[int, int]],
) -> None:
    people, actor = await among_people(make_player, monkeypatch)
    fake_clock.advance(31)  # every seat away: each join below commits the seat's return
    await actor.fire_deadline()
    sockets = [Recorder(user.pk, f"seat {seat}") for seat, user in enumerate(people)]
    for seat, socket in enumerate(sockets):
        before = actor.version
        answer = await forwarding.run(
            "table.join", actor.id, socket, {"table_id": actor.id, "socket_key": f"socket-{seat}"}
        )
        assert answer["version"] > before  # the join moved the table on after its snapshot
    assert log_reads == []
    for socket in sockets:
        await until(lambda socket=socket: versions(socket)[-1] == actor.version)
        seen = versions(socket)
        assert seen == list(range(seen[0], actor.version + 1))  # once each, in order
        await socket.close()


@pytest.mark.parametrize("as_", ["seat", "spectator"])
async def test_what_the_table_published_after_the_answer_reaches_the_socket_without_the_log(
    as_: str,
    fake_clock: FakeClock,
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    log_reads: list[tuple[int, int]],
) -> None:
    people, actor = await among_people(make_player, monkeypatch)
    moved = moving_on_after_the_answer(monkeypatch, actor, fake_clock)
    socket = Recorder(people[0].pk, as_)
    await forwarding.run(
        "table.join", actor.id, socket, {"table_id": actor.id, "as": as_, "socket_key": "socket-0"}
    )
    assert len(moved) == 1 and log_reads == []
    await until(lambda: bool(versions(socket)) and versions(socket)[-1] == actor.version)
    seen = versions(socket)
    assert seen[0] <= moved[0] and seen == list(range(seen[0], actor.version + 1))
    mine = rendering.seat_topic(actor.id, 0) if as_ == "seat" else rendering.watch_topic(actor.id)
    assert socket.topics == {mine, rendering.chat_topic(actor.id)}
    # The topics the join did not hand over are let go (nobody else here listens to them).
    hub = get_hub()
    others = [rendering.seat_topic(actor.id, seat) for seat in range(4)] + [rendering.watch_topic(actor.id)]
    assert [topic for topic in others if topic != mine and hub.has_local(topic)] == []
    await socket.close()
