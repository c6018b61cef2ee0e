"""The online list's deltas (pure) and the batched heartbeats (database)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.accounts.models import User
from amigos.web.lobby import presence
from amigos.web.lobby.models import Presence

entry = st.fixed_dictionaries(
    {"name": st.text(max_size=4), "status": st.sampled_from(["available", "playing"]), "quintile": st.none()}
)
lists = st.dictionaries(st.integers(1, 40), entry, max_size=25).map(
    lambda players: {key: {"id": key, **value} for key, value in players.items()}
)


@given(lists, lists)
def test_a_delta_turns_the_old_list_into_the_new(
    before: dict[int, dict[str, object]], after: dict[int, dict[str, object]]
) -> None:
    delta = presence.changes(before, after)
    assert presence.apply(before, delta) == after
    # Only what changed travels: nothing unchanged is sent again.
    sent = [*delta.added, *delta.changed]
    assert all(before.get(p["id"]) != p for p in sent)  # type: ignore[call-overload]
    assert bool(delta) == (before != after)


def test_a_delta_names_each_kind_of_change() -> None:
    before = {1: {"id": 1, "status": "available"}, 2: {"id": 2, "status": "available"}}
    after = {1: {"id": 1, "status": "playing"}, 3: {"id": 3, "status": "available"}}
    delta = presence.changes(before, after)
    assert delta.as_payload() == {
        "added": [{"id": 3, "status": "available"}],
        "changed": [{"id": 1, "status": "playing"}],
        "removed": [2],
    }


@pytest.mark.django_db
def test_heartbeats_are_written_together_and_bring_back_a_lost_presence(
    make_player: Callable[..., User],
) -> None:
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    ana, beto, carla = make_player("Ana"), make_player("Beto"), make_player("Carla")
    for user in (ana, beto, carla):
        presence.sign_in(user, now - timedelta(minutes=5))
    Presence.objects.filter(user=beto).delete()  # signed out on another device, socket still here
    presence.heartbeats([ana.pk, beto.pk], now)
    seen = dict(Presence.objects.values_list("user_id", "last_seen"))
    assert seen[ana.pk] == now and seen[beto.pk] == now
    assert seen[carla.pk] == now - timedelta(minutes=5)  # no heartbeat, untouched
    presence.heartbeats([], now)  # nothing to write is no error


@pytest.mark.django_db
def test_stale_counters_are_reset_but_live_ones_kept(
    make_player: Callable[..., User], settings: object
) -> None:
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    live, dead = make_player("Viva"), make_player("Muerta")
    Presence.objects.create(user=live, signed_in_at=now, last_seen=now, open_sockets=2)
    Presence.objects.create(
        user=dead, signed_in_at=now, last_seen=now - presence.absence_after() - timedelta(1), open_sockets=3
    )
    assert presence.forget_dead_sockets(now) == 1
    counts = dict(Presence.objects.values_list("user_id", "open_sockets"))
    assert counts == {live.pk: 2, dead.pk: 0}
