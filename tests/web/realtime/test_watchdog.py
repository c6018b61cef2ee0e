"""The process's session watchdog judges all its sockets in one go, exactly as one by one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from amigos.web.accounts import sessions
from amigos.web.accounts.services import LAST_ACTIVITY_KEY
from amigos.web.realtime import watchdog
from tests.web.conftest import SignedIn


@pytest.mark.django_db
def test_verdicts_in_bulk_match_verdicts_one_by_one(
    sign_in: Callable[..., SignedIn], settings: object
) -> None:
    active, idle, suspended, gone, inactive = (sign_in() for _ in range(5))
    suspended.user.suspended_until = timezone.now() + timedelta(days=2)
    suspended.user.save()
    inactive.user.is_active = False
    inactive.user.save()
    gone_key = gone.session_key
    gone.client.logout()
    now = time.time()
    watched: list[tuple[str | None, int]] = [
        (active.session_key, active.user.pk),
        (idle.session_key, idle.user.pk),
        (suspended.session_key, suspended.user.pk),
        (gone_key, gone.user.pk),
        (inactive.session_key, inactive.user.pk),
        (active.session_key, idle.user.pk),  # someone else's session
        (None, active.user.pk),
    ]
    later = now + settings.AMIGOS_IDLE_TIMEOUT_SECONDS + 1
    sessions.touch(active.session_key, active.user.pk, later)
    one_by_one = [sessions.verdict(key, user_id, later) for key, user_id in watched]
    assert sessions.verdicts(watched, later) == one_by_one
    assert [v.state for v in one_by_one] == [
        sessions.State.ACTIVE,
        sessions.State.IDLE,
        sessions.State.SUSPENDED,
        sessions.State.SIGNED_OUT,
        sessions.State.SIGNED_OUT,
        sessions.State.SIGNED_OUT,
        sessions.State.SIGNED_OUT,
    ]


@pytest.mark.django_db
def test_bulk_verdicts_take_two_queries_whatever_the_number(
    sign_in: Callable[..., SignedIn], django_assert_max_num_queries: Any
) -> None:
    players = [sign_in() for _ in range(12)]
    with django_assert_max_num_queries(2):
        found = sessions.verdicts([(p.session_key, p.user.pk) for p in players], time.time())
    assert {v.state for v in found} == {sessions.State.ACTIVE}


@pytest.mark.django_db
def test_a_session_unchanged_since_the_last_check_is_not_decoded_again(
    sign_in: Callable[..., SignedIn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Decoding every socket's session at every check was most of the check's time: a session's
    stored text decodes once, and a session that changed (a new text) is read anew."""
    sessions._decoded.cache_clear()
    decoded: list[str] = []
    real = SessionStore.decode

    def counted(store: SessionStore, session_data: str) -> dict[str, Any]:
        decoded.append(session_data)
        return real(store, session_data)

    monkeypatch.setattr(SessionStore, "decode", counted)
    players = [sign_in() for _ in range(3)]
    watched = [(p.session_key, p.user.pk) for p in players]
    now = time.time()
    decoded.clear()  # signing in decodes too
    assert {v.state for v in sessions.verdicts(watched, now)} == {sessions.State.ACTIVE}
    assert len(decoded) == 3
    assert {v.state for v in sessions.verdicts(watched, now)} == {sessions.State.ACTIVE}
    assert len(decoded) == 3  # nothing changed: nothing decoded
    timeout = float(settings.AMIGOS_IDLE_TIMEOUT_SECONDS)
    set_last_action(players[1], now - timeout - 10)  # the session's text changes
    decoded.clear()
    assert [v.state for v in sessions.verdicts(watched, now)] == [
        sessions.State.ACTIVE,
        sessions.State.IDLE,
        sessions.State.ACTIVE,
    ]
    assert len(decoded) == 1


def last_action(player: SignedIn) -> float:
    """The last action on the player's idle clock, as stored in the session."""
    return float(SessionStore(player.session_key)[LAST_ACTIVITY_KEY])


def set_last_action(player: SignedIn, at: float) -> None:
    store = SessionStore(player.session_key)
    store[LAST_ACTIVITY_KEY] = at
    store.save()


@pytest.mark.django_db
def test_the_check_writes_the_actions_sockets_noted_and_counts_them(
    sign_in: Callable[..., SignedIn], settings: Any, django_assert_max_num_queries: Any
) -> None:
    """A socket only notes when its player acted; the check judges the session with that action and
    writes it, for every session at once, unless the stored one is less than a window older."""
    now = time.time()
    timeout = settings.AMIGOS_IDLE_TIMEOUT_SECONDS
    stale, recent, quiet = sign_in(), sign_in(), sign_in()
    set_last_action(stale, now - timeout - 10)  # idle by the stored clock alone
    set_last_action(recent, now - 10)
    set_last_action(quiet, now - 100)
    watched = [(p.session_key, p.user.pk) for p in (stale, recent, quiet, stale)]
    acted = [now - 5, now - 2, None, now - 7]  # two sockets of the same player: the later counts
    with django_assert_max_num_queries(2 + 2 + 2):  # two reads, one transaction, one write each
        found = sessions.verdicts(watched, now, acted, window=30.0)
    assert [v.state for v in found] == [sessions.State.ACTIVE] * 4
    assert last_action(stale) == now - 5
    assert last_action(recent) == now - 10  # 8 s newer: within the window, not written
    assert last_action(quiet) == now - 100
    assert sessions.verdicts(watched[:1], now)[0].state is sessions.State.ACTIVE


@pytest.mark.django_db
def test_a_session_saved_meanwhile_by_a_page_is_not_overwritten(sign_in: Callable[..., SignedIn]) -> None:
    """The write is conditional on the session being as it was read: what a page stored between the
    read and the write (here a new key) stays, and the action waits for the next check."""
    player = sign_in()
    now = time.time()
    set_last_action(player, now - 100)
    read = Session.objects.get(session_key=player.session_key)
    data = SessionStore().decode(read.session_data)
    store = SessionStore(player.session_key)
    store["page"] = "saved meanwhile"
    store.save()
    key = player.session_key
    sessions._record({key: now}, {key: data}, {key: read.session_data})
    after = SessionStore(player.session_key)
    assert after["page"] == "saved meanwhile"
    assert after[LAST_ACTIVITY_KEY] == now - 100


class _Socket:
    """A watched socket that only says whose session it speaks for."""

    def __init__(self, number: int) -> None:
        self.number = number

    def watched_session(self) -> tuple[str | None, int] | None:
        return (f"key-{self.number}", self.number)

    def action_time(self) -> float | None:
        return None

    def action_recorded(self, at: float) -> None:
        raise AssertionError("nothing was noted")

    async def session_lapsed(self, verdict: sessions.Verdict) -> None:
        raise AssertionError("every session here is active")


async def test_many_sockets_are_checked_in_slices_each_once_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three slices' worth of sockets: three checks in a round, each judging a third, every socket
    once (one check of all of them held the interpreter for 200 ms at 4,000 sockets)."""
    checked: list[list[int]] = []
    rounds = asyncio.Event()

    async def verdicts(
        watched: list[tuple[str | None, int]], now: float, acted: list[float | None], window: float
    ) -> list[sessions.Verdict]:
        checked.append([user_id for _, user_id in watched])
        if len(checked) == 3:
            rounds.set()
        return [sessions.Verdict(sessions.State.ACTIVE)] * len(watched)

    monkeypatch.setattr(watchdog, "db_verdicts", verdicts)
    monkeypatch.setattr(watchdog, "idle_check_interval", lambda: 0.3)
    watch = watchdog.SessionWatch()
    sockets = [_Socket(number) for number in range(3 * watchdog.SLICE_SOCKETS)]
    for socket in sockets:
        watch.add(socket)
    await asyncio.wait_for(rounds.wait(), 10)
    assert [len(part) for part in checked[:3]] == [watchdog.SLICE_SOCKETS] * 3
    assert sorted(user for part in checked[:3] for user in part) == list(range(len(sockets)))
    for socket in sockets:
        watch.discard(socket)
