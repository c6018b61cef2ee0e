"""The organizer cancels a table whose match has not started (issue 38, item 4; spec §1.2.3):
every invitation closes, the table is `cancelled` (reason ``organizer``), every status is free and
the table leaves the lobby's list. Nobody else may, and nobody can once the match runs."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import rendering, selectors
from amigos.web.tables.models import Invitation, Seat, Table
from tests.web.tables.support import Recorder
from tests.web.tables.test_actor import against_computers
from tests.web.tables.test_cancel_and_leave import inviting_table, statuses

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]


async def test_the_organizer_cancels_before_the_start_and_everyone_goes_back(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, beto, carla, actor = await inviting_table(make_player, monkeypatch)
    organizer, first, second = Recorder(ana.pk), Recorder(beto.pk), Recorder(carla.pk)
    await actor.call(lambda: actor.join(organizer, True, None))
    await first.join(rendering.user_topic(beto.pk))
    await second.join(rendering.user_topic(carla.pk))
    await actor.call(lambda: actor.accept(carla.pk))  # Carla already sat down; Beto has not answered
    for stranger in (beto, carla):  # only the organizer may
        with pytest.raises(CommandError) as refused:
            await actor.call(lambda stranger=stranger: actor.cancel(stranger.pk))
        assert refused.value.code == "not_organizer"
    assert actor.status == "inviting"
    await actor.call(lambda: actor.cancel(ana.pk))
    assert [event["data"] for event in organizer.events("cancelled")] == [{"reason": "organizer"}]
    assert actor.status == "cancelled"
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert (table.status, table.deadline_at) == ("cancelled", None)
    pending = await sync_to_async(
        Seat.objects.filter(table_id=actor.id, invitation=Invitation.PENDING).count
    )()
    assert pending == 0
    assert ("table.invitation_closed", {"table_id": actor.id, "reason": "cancelled"}) in first.received
    assert await sync_to_async(statuses)(ana, beto, carla) == ["available"] * 3
    assert await sync_to_async(selectors.live_tables)() == []
    with pytest.raises(CommandError) as twice:
        await actor.call(lambda: actor.cancel(ana.pk))
    assert twice.value.code == "already_started"


async def test_a_started_match_cannot_be_cancelled(make_player: Callable[..., User]) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    assert actor.status == "playing"
    with pytest.raises(CommandError) as refused:
        await actor.call(lambda: actor.cancel(user.pk))
    assert refused.value.code == "already_started"
    assert actor.status == "playing"
