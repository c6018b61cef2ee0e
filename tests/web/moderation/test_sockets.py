"""Real sockets: a card that suspends signs the player out on every device; nothing lets them back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from amigos.web.moderation.models import Suspension
from tests.web.conftest import PASSWORD, ServerThread, SignedIn
from tests.web.moderation.support import give, table_for
from tests.web.tables.support import event_in
from tests.web.test_socket import connect, of_type

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_red_card_signs_the_player_out_on_every_device_and_keeps_them_out(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    phone = await sync_to_async(sign_in)("Rita")
    laptop = SignedIn(phone.user, Client())
    await sync_to_async(laptop.client.force_login)(phone.user)
    bystander = await sync_to_async(sign_in)("Otro")
    peers = [await connect(site_server, player) for player in (phone, laptop, bystander)]
    for peer in peers:
        await peer.expect(of_type("welcome"))

    def red_card() -> Suspension:
        table = table_for(phone.user, bystander.user)
        give(table, phone.user, ["red"], timezone.now())
        return Suspension.objects.get(user=phone.user)

    suspension = await sync_to_async(red_card)()
    for peer in peers[:2]:
        signed_out = await peer.expect(of_type("signed_out"))
        assert signed_out["payload"]["reason"] == "suspended"
        assert signed_out["payload"]["suspended_until"] == suspension.ends.isoformat()
    # The bystander's socket goes on: it still answers a heartbeat with no sign-out.
    await peers[2].send("heartbeat")
    assert not any(envelope["type"] == "signed_out" for envelope in peers[2].received)
    assert suspension.ends - suspension.starts == timedelta(days=30)

    # An old session cannot open a new socket, and signing in again is refused with the end date.
    # (signing out for a suspension ended the session: the old cookie speaks for nobody any more)
    again = await connect(site_server, phone)
    refused = await again.expect(of_type("error"))
    assert refused["payload"]["code"] == "unauthenticated"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(again.connection.recv(), 15)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert not any(envelope["type"] == "welcome" for envelope in again.received)

    def sign_in_again() -> str:
        response = Client().post(
            "/accounts/sign-in/", {"username": phone.user.email, "password": PASSWORD}, REMOTE_ADDR="10.9.9.9"
        )
        assert response.status_code == 200  # the form again, not a redirect into the site
        return response.content.decode()

    page = await sync_to_async(sign_in_again)()
    assert "suspend" in page.lower()
    for peer in peers:
        await peer.connection.close()


async def test_a_block_from_the_desk_ends_the_players_live_match_at_once(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    """Regression: only a card given by the table itself used to end its match; a block decided at
    the desk left the match waiting five minutes for the signed-out player, then gave a blue card."""
    from amigos.web.moderation import services as moderation
    from amigos.web.moderation.models import Action
    from amigos.web.tables import services as tables
    from amigos.web.tables.models import Card, Table
    from tests.web.tables.test_socket_tables import command

    ana, carla = [await sync_to_async(sign_in)(name) for name in ("Ana", "Carla")]
    table = await sync_to_async(tables.play_against_computer)(
        user=ana.user, variant="amigos-100", level="easy"
    )
    watcher = await connect(site_server, carla)
    assert (await command(watcher, "table.join", {"table_id": table.pk, "since": None, "as": "spectator"}))[
        "type"
    ] == "ack"
    seated = await connect(site_server, ana)
    assert (await command(seated, "table.join", {"table_id": table.pk, "since": None, "as": "seat"}))[
        "type"
    ] == "ack"

    def block() -> Suspension:
        admin = type(ana.user).objects.create_superuser(
            email="admin@example.com", password=PASSWORD, display_name="Admin"
        )
        report = moderation.report(
            reporter=carla.user,
            reported_id=ana.user.pk,
            comment="insultos",
            now=timezone.now(),
            table_id=table.pk,
        )
        moderation.decide(report=report, action=Action.BLOCK, by=admin, now=timezone.now())
        return Suspension.objects.get(user=ana.user)

    suspension = await sync_to_async(block)()
    signed_out = await seated.expect(of_type("signed_out"))
    assert signed_out["payload"]["suspended_until"] == suspension.ends.isoformat()
    ended = event_in(await watcher.expect(lambda e: event_in(e, "match_ended") is not None), "match_ended")
    assert ended is not None
    assert ended["data"]["termination"] == "suspension"
    assert ended["data"]["completed"] is False
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).status == "finished"
    # The red card is the desk's; the table gave no blue card for the "absence".
    colours = await sync_to_async(
        lambda: sorted(Card.objects.filter(user=ana.user).values_list("colour", flat=True))
    )()
    assert colours == ["red"]
    for peer in (watcher, seated):
        await peer.connection.close()
