"""A match that ended while its hand-over to the archive never finished (the process was killed in
between) is handed over when a process starts (regression: it stayed unarchived for good, out of
every statistics page and rating)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.archive.models import ArchivedMatch, MatchSeat
from amigos.web.tables import handover, registry
from amigos.web.tables.models import MatchRecord
from tests.web.tables.support import Recorder
from tests.web.tables.test_actor import against_computers, play_my_turns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_registry")]


async def test_a_match_left_unarchived_is_handed_over_at_the_next_start(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = handover._archive

    def killed(*args: Any, **options: Any) -> None:
        raise RuntimeError("the process was killed before the archive took the match")

    monkeypatch.setattr(handover, "_archive", killed)
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await play_my_turns(actor, me, user)
    await registry.stop_all()
    source = f"table:{actor.id}:match:1"

    def state() -> tuple[bool, int]:
        row = MatchRecord.objects.get(table_id=actor.id, number=1)
        assert row.ended_at is not None
        return row.archived, ArchivedMatch.objects.filter(source=source).count()

    assert await sync_to_async(state)() == (False, 0)

    monkeypatch.setattr(handover, "_archive", archive)  # a new process starts
    await handover.hand_over_left()
    assert await sync_to_async(state)() == (True, 1)
    seated = await sync_to_async(
        lambda: list(MatchSeat.objects.filter(match__source=source).order_by("seat").values_list("user_id"))
    )()
    assert seated == [(user.pk,), (None,), (None,), (None,)]  # the player, and three computers

    await handover.hand_over_left()  # and the next start finds nothing left
    assert await sync_to_async(state)() == (True, 1)


async def test_a_match_in_progress_is_not_handed_over(make_player: Callable[..., User]) -> None:
    _, actor = await against_computers(make_player, "amigos-100")
    await registry.stop_all()
    await handover.hand_over_left()
    assert not await ArchivedMatch.objects.filter(source=f"table:{actor.id}:match:1").aexists()
    row = await MatchRecord.objects.aget(table_id=actor.id, number=1)
    assert row.ended_at is None and not row.archived


async def test_a_starting_process_resumes_its_tables_then_hands_over_what_was_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    from amigos.web.tables import startup

    done: list[str] = []

    async def resume_all() -> None:
        done.append("tables resumed")

    async def hand_over_left() -> None:
        done.append("matches handed over")

    monkeypatch.setattr(registry, "resume_all", resume_all)
    monkeypatch.setattr(handover, "hand_over_left", hand_over_left)
    sent: list[dict[str, Any]] = []
    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(0.05)
        return next(messages)

    async def send(message: Any) -> None:
        sent.append(message)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the lifespan is the wrapper's own")

    await startup.ResumeTables(app)({"type": "lifespan"}, receive, send)
    assert done == ["tables resumed", "matches handed over"]
    assert [message["type"] for message in sent] == [
        "lifespan.startup.complete",
        "lifespan.shutdown.complete",
    ]
