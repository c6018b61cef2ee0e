"""The command registry over a real socket: a feature's handler is reached by its type, its ack
carries the handler's fields, refusals carry the handler's code, and topics joined through the
`Connection` are delivered to and left when the socket closes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.realtime import commands
from amigos.web.realtime.hub import get_hub
from tests.web.conftest import ServerThread, SignedIn
from tests.web.test_socket import connect, of_type

pytestmark = pytest.mark.django_db(transaction=True)


@commands.command("test.echo")
async def echo(connection: commands.Connection, payload: dict[str, Any]) -> dict[str, Any]:
    if "refuse" in payload:
        raise commands.CommandError("test_refused", "refused on request")
    return {"echo": payload.get("x"), "who": connection.display_name}


@commands.command("test.join", activity=False)
async def join(connection: commands.Connection, payload: dict[str, Any]) -> None:
    await connection.join(str(payload["topic"]))


@commands.command("test.leave", activity=False)
async def leave(connection: commands.Connection, payload: dict[str, Any]) -> None:
    await connection.leave(str(payload["topic"]))


@commands.command("test.publish", activity=False)
async def publish(connection: commands.Connection, payload: dict[str, Any]) -> None:
    await get_hub().publish(str(payload["topic"]), "test.news", {"from": connection.user_id})


@commands.command("test.members", activity=False)
async def members(connection: commands.Connection, payload: dict[str, Any]) -> dict[str, Any]:
    return {"count": len(get_hub().local(str(payload["topic"])))}


def test_a_type_is_registered_once() -> None:
    async def other(connection: commands.Connection, payload: dict[str, Any]) -> None:
        return None

    with pytest.raises(RuntimeError, match="twice"):
        commands.command("test.echo")(other)
    assert commands.find("test.echo") is not None and commands.find("no.such") is None
    assert {"heartbeat", "chat.send", "moderation.report"} <= set(commands.registered())
    assert "chat.report" not in commands.registered()  # reports go to the moderation desk


async def test_commands_reach_their_handler_and_topics_their_members(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ana, beto = await sync_to_async(sign_in)("Ana"), await sync_to_async(sign_in)("Beto")
    first, second = await connect(site_server, ana), await connect(site_server, beto)
    for peer in (first, second):
        await peer.expect(of_type("welcome"))

    ack = await first.reply(await first.send("test.echo", {"x": [1, "dos"]}))
    assert ack["type"] == "ack"
    assert ack["payload"] == {"reply_to": ack["payload"]["reply_to"], "echo": [1, "dos"], "who": "Ana"}
    refused = await first.reply(await first.send("test.echo", {"refuse": True}))
    assert refused["type"] == "error" and refused["payload"]["code"] == "test_refused"

    # Only the member of table:1 hears it; the publisher (not a member) does not.
    assert (await second.reply(await second.send("test.join", {"topic": "table:1:watch"})))["type"] == "ack"
    await first.reply(await first.send("test.publish", {"topic": "table:1:watch"}))
    news = await second.expect(of_type("test.news"))
    assert news["payload"] == {"from": ana.user.pk}
    await first.reply(await first.send("test.echo", {"x": 0}))  # a round trip after the publication
    assert not [e for e in first.received if e["type"] == "test.news"]

    # Leaving stops delivery; closing the socket leaves every topic it joined.
    await second.reply(await second.send("test.leave", {"topic": "table:1:watch"}))
    counted = await first.reply(await first.send("test.members", {"topic": "table:1:watch"}))
    assert counted["payload"]["count"] == 0
    await second.reply(await second.send("test.join", {"topic": "table:2:seat:1"}))
    counted = await first.reply(await first.send("test.members", {"topic": "table:2:seat:1"}))
    assert counted["payload"]["count"] == 1
    await second.connection.close()

    async def emptied() -> None:
        while True:
            reply = await first.reply(await first.send("test.members", {"topic": "table:2:seat:1"}))
            if reply["payload"]["count"] == 0:
                return
            await asyncio.sleep(0.05)

    await asyncio.wait_for(emptied(), 15)
    await first.connection.close()
