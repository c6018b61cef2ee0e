"""The lease keeper counts the tables it adopts (`amigos_leases_taken_over_total`) and the scrape
counts the leases held (`amigos_leases_held`), with processes sharing the tables through Redis."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone
from prometheus_client import REGISTRY

from amigos.web import probes as endpoints
from amigos.web.accounts.models import User
from amigos.web.realtime import hub as hub_module
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import registry, services
from amigos.web.tables.models import Table
from tests.web.tables.test_actor import until
from tests.web.test_processes import REDIS_URL, require_redis

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def taken_over() -> float:
    return REGISTRY.get_sample_value("amigos_leases_taken_over_total") or 0.0


async def test_a_table_whose_process_died_counts_as_taken_over(
    make_player: Callable[..., User], settings: Any
) -> None:
    require_redis()
    settings.REDIS_URL = REDIS_URL  # this test's loop gets a hub on Redis: the tables are shared
    settings.AMIGOS_TABLE_LEASE_RENEW_SECONDS = 0.05
    user = await sync_to_async(make_player)("Ana")
    ours, orphan = [
        await sync_to_async(services.play_against_computer)(user=user, variant="amigos-100", level="easy")
        for _ in range(2)
    ]
    # The second table's process is gone: its lease names another machine and ran out.
    await sync_to_async(Table.objects.filter(pk=orphan.pk).update)(
        owner="elsewhere:1:-:gone", lease_until=timezone.now() - timedelta(minutes=1)
    )
    before = taken_over()
    try:
        assert await registry.get_actor(ours.pk) is not None  # starts the lease keeper
        await until(lambda: taken_over() > before)
        assert taken_over() == before + 1
        assert registry.local_actor(orphan.pk) is not None
        await endpoints.refresh(get_hub())
        assert REGISTRY.get_sample_value("amigos_leases_held") == 2
    finally:
        await registry.stop_all()
        await get_hub().close()
        hub_module._hubs.pop(asyncio.get_running_loop(), None)
