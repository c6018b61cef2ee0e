"""A notice told to the table's owner (`forwarding.tell`) goes without an address to answer to,
and the owner answers only requests that carry one (a heartbeat forwarded between hosts costs one
publication, not two)."""

from __future__ import annotations

from typing import Any

import pytest

from amigos.web.tables import forwarding, registry
from tests.web.tables.support import PublishedHub


async def test_a_notice_for_a_table_run_elsewhere_is_sent_with_nobody_to_answer(
    hub: PublishedHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[bool] = []

    async def elsewhere(table_id: int, loop: Any = None, *, ended: bool = True) -> registry.Elsewhere:
        asked.append(ended)
        return registry.Elsewhere("host:1:boot:owner")

    monkeypatch.setattr(registry, "locate", elsewhere)
    payload = {"table_id": 5, "seat": 2, "socket_key": "k", "closed": False}
    await forwarding.tell("table.presence", 5, forwarding.Remote(7), payload)
    ((topic, kind, request),) = hub.published
    assert topic == registry.process_topic("host:1:boot:owner") and kind == forwarding.REQUEST
    assert request["reply_to"] is None and request["user_id"] == 7 and request["payload"] == payload
    assert asked == [False]  # a heartbeat never brings back a table that ended


async def test_the_owner_answers_only_a_request_with_an_address(
    hub: PublishedHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[bool] = []

    async def nothing(table_id: int, loop: Any = None, *, ended: bool = True) -> None:
        asked.append(ended)
        return None

    monkeypatch.setattr(registry, "locate", nothing)
    request = {
        "id": None,
        "reply_to": None,
        "op": "table.presence",
        "table_id": 5,
        "user_id": 7,
        "payload": {},
    }
    await forwarding._serve(request)
    assert hub.published == []
    await forwarding._serve({**request, "id": "r1", "reply_to": "host:2:boot:asker"})
    ((topic, kind, reply),) = hub.published
    assert topic == registry.process_topic("host:2:boot:asker") and kind == forwarding.REPLY
    assert reply["id"] == "r1" and reply["error"]["code"] == "table_not_found"
    assert asked == [False, False]  # nor on the owner's side
