"""The process's session watchdog judges all its sockets in one go, exactly as one by one."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from amigos.web.accounts import sessions
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
