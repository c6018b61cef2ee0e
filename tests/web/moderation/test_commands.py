"""The moderation socket commands: report, mute, unmute (refusals carry a code, change nothing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.lobby import chat
from amigos.web.moderation import selectors
from amigos.web.moderation import socket as moderation_socket
from amigos.web.moderation.models import Report
from amigos.web.realtime.commands import CommandError
from tests.web.moderation.support import START
from tests.web.tables.support import Recorder

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"comment": 5}, "bad_payload"),
        ({"comment": "hola", "player_id": "3"}, "bad_payload"),
        ({"comment": "hola", "player_id": True}, "bad_payload"),
        ({"comment": "", "player_id": 0}, "bad_comment"),
    ],
)
async def test_bad_reports_are_refused(
    make_player: Callable[..., User], payload: dict[str, Any], code: str
) -> None:
    me = await sync_to_async(make_player)()
    if payload.get("player_id") == 0:
        other = await sync_to_async(make_player)()
        payload = {**payload, "player_id": other.pk}
    with pytest.raises(CommandError) as refused:
        await moderation_socket.report(Recorder(me.pk), payload)
    assert refused.value.code == code
    assert not await sync_to_async(Report.objects.exists)()


async def test_a_lobby_line_is_reported_and_its_author_muted(make_player: Callable[..., User]) -> None:
    me = await sync_to_async(make_player)("Ana")
    rude = await sync_to_async(make_player)("Bruto")
    line = await sync_to_async(chat.post)(rude, "palabrota", START)
    answer = await moderation_socket.report(
        Recorder(me.pk), {"player_id": rude.pk, "lobby_line_id": line.id, "comment": "grosero"}
    )
    row = await sync_to_async(Report.objects.get)(pk=answer["report_id"])
    assert (row.place, row.lobby_line_id, row.reported_id) == ("lobby", line.id, rude.pk)
    await moderation_socket.mute(Recorder(me.pk), {"player_id": rude.pk})
    assert await sync_to_async(selectors.muted_by)(me.pk) == {rude.pk}
    await moderation_socket.unmute(Recorder(me.pk), {"player_id": rude.pk})
    assert await sync_to_async(selectors.muted_by)(me.pk) == set()
