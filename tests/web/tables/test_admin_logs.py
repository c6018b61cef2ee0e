"""Issue 36, item 8: the admin neither shows a live match's secrets nor lets anyone edit a table's log.

A real actor deals a match against computer players; the admin's pages of that table, of each of
its events and of its match record are rendered as a superuser and searched for the deal key and
for every tile no one has played yet. Once the match is over, the same pages show them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.tables import registry, services
from amigos.web.tables.models import LogRow, MatchRecord, Status, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_registry")]

# A tile as the log and the record write it ("6-4"), not inside a longer word or number.
TILE = re.compile(r"(?<![\w-])[0-9]-[0-9](?![\w-])")


async def dealt_match(make_player: Callable[..., User]) -> Table:
    """A live match whose first hand is dealt and being played (the actor stopped, the table left
    as it is: playing)."""
    user = await sync_to_async(make_player)("Ana")
    table = await sync_to_async(services.play_against_computer)(user=user, variant="amigos-100", level="easy")
    assert await registry.get_actor(table.pk) is not None

    async def dealt() -> None:
        exists = sync_to_async(LogRow.objects.filter(table=table, kind="hand_started").exists)
        while not await exists():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(dealt(), 60)
    await registry.stop_all()
    return table


def staff_client(make_player: Callable[..., User]) -> Client:
    client = Client()
    client.force_login(make_player("Admin", is_staff=True, is_superuser=True))
    return client


def pages(client: Client, table: Table) -> dict[str, str]:
    """Every admin page about the table: its own, its log's list and each event, its record."""
    urls = [
        f"/admin/tables/table/{table.pk}/change/",
        f"/admin/tables/logrow/?table__id__exact={table.pk}",
    ]
    urls += [
        f"/admin/tables/logrow/{pk}/change/"
        for pk in LogRow.objects.filter(table=table).values_list("pk", flat=True)
    ]
    urls += ["/admin/tables/matchrecord/"]
    urls += [
        f"/admin/tables/matchrecord/{pk}/change/"
        for pk in MatchRecord.objects.filter(table=table).values_list("pk", flat=True)
    ]
    found = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        found[url] = response.content.decode()
    return found


def editable(body: str) -> list[str]:
    """The form fields a person could change or submit (hidden bookkeeping, such as the CSRF token
    and an inline's management form, and the admin's menu filter are none)."""
    fields = re.findall(r"<(?:input|textarea|select)\b[^>]*>", body)
    return [field for field in fields if not re.search(r'type="(hidden|search)"', field)]


def secrets_of(table: Table) -> tuple[str, set[str]]:
    """The first hand's deal key, and the tiles dealt that have not been played."""
    dealt = LogRow.objects.get(table=table, kind="hand_started").data
    played = {event.data["tile"] for event in LogRow.objects.filter(table=table, kind="played")}
    return dealt["key"], {tile for hand in dealt["hands"] for tile in hand} - played


def check_in_play(make_player: Callable[..., User], table: Table) -> None:
    client = staff_client(make_player)
    key, hidden = secrets_of(table)
    assert hidden  # a hand in play: most tiles are still in the hands
    seen = pages(client, table)
    assert MatchRecord.objects.filter(table=table).exists()
    for url, body in seen.items():
        assert key not in body, url
        assert not set(TILE.findall(body)) & hidden, url
    # Read-only: no field to edit, and saving, adding or deleting is refused.
    event = LogRow.objects.filter(table=table).first()
    record = MatchRecord.objects.get(table=table)
    assert event is not None
    for url in (
        f"/admin/tables/logrow/{event.pk}/change/",
        f"/admin/tables/matchrecord/{record.pk}/change/",
        f"/admin/tables/table/{table.pk}/change/",
    ):
        assert not editable(seen[url]), url
        assert (
            client.post(
                url, {"kind": "played", "data": "{}", "record": "{}", "status": "finished"}
            ).status_code
            == 403
        )
    for url in (
        "/admin/tables/logrow/add/",
        "/admin/tables/matchrecord/add/",
        f"/admin/tables/logrow/{event.pk}/delete/",
        f"/admin/tables/matchrecord/{record.pk}/delete/",
        f"/admin/tables/table/{table.pk}/delete/",
    ):
        assert client.post(url, {"post": "yes"}).status_code == 403, url
    assert LogRow.objects.get(pk=event.pk).data == event.data
    assert Table.objects.get(pk=table.pk).status == Status.PLAYING


def check_after_the_end(make_player: Callable[..., User], table: Table) -> None:
    """Once the match is over, its log and record are history: the admin shows them whole."""
    Table.objects.filter(pk=table.pk).update(status=Status.FINISHED)
    MatchRecord.objects.filter(table=table).update(ended_at=timezone.now(), termination="abandonment")
    client = Client()
    client.force_login(User.objects.get(display_name="Admin"))
    key, hidden = secrets_of(table)
    seen = pages(client, table)
    event = LogRow.objects.get(table=table, kind="hand_started")
    record = MatchRecord.objects.get(table=table)
    for url in (
        f"/admin/tables/logrow/{event.pk}/change/",
        f"/admin/tables/matchrecord/{record.pk}/change/",
    ):
        assert key in seen[url] and hidden <= set(TILE.findall(seen[url])), url
    # Still read-only, but a finished table may be deleted with its log.
    assert client.post(f"/admin/tables/logrow/{event.pk}/change/", {}).status_code == 403
    response = client.post(f"/admin/tables/table/{table.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not LogRow.objects.filter(table_id=table.pk).exists()


async def test_a_match_in_play_keeps_its_secrets_and_its_log_in_the_admin(
    make_player: Callable[..., User],
) -> None:
    table = await dealt_match(make_player)
    await sync_to_async(check_in_play)(make_player, table)
    await sync_to_async(check_after_the_end)(make_player, table)
