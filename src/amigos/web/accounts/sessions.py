"""The session as the socket tier sees it: still valid? idle? suspended? and refreshing the idle clock.

Pages and sockets share one idle clock (the last-activity time in the session), so a player who
chats for half an hour without loading a page is not signed out, and one who stares at a page with
no socket activity for ten minutes is.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.accounts.services import LAST_ACTIVITY_KEY, current_suspension, is_idle

#: How many decoded sessions the watchdog keeps (`_decoded`): a process's sockets', with room.
DECODED_KEPT = 16384


class State(enum.Enum):
    ACTIVE = "active"
    SIGNED_OUT = "signed_out"
    IDLE = "idle"
    SUSPENDED = "suspended"


@dataclass(frozen=True)
class Verdict:
    state: State
    suspended_until: datetime | None = None


def _store(session_key: str) -> SessionBase:
    engine: Any = import_module(settings.SESSION_ENGINE)
    store: SessionBase = engine.SessionStore(session_key)
    return store


def _data(session_key: str | None) -> dict[str, Any]:
    if not session_key:
        return {}
    data: dict[str, Any] = _store(session_key).load()
    return data


class _SessionHolder:
    """What Django's `get_user` reads of a request: its session."""

    def __init__(self, session: SessionBase) -> None:
        self.session = session


def signed_in(session_key: str | None) -> tuple[User, SessionBase] | None:
    """The player a session cookie's key signs in, with the session, or None: judged by Django's own
    `get_user`, as for a page (the backend, and the password hash the session was signed in with; a
    session whose hash no longer matches is ended). A socket's handshake is no request, so it is
    handed a stand-in that holds the session."""
    if not session_key:
        return None
    store = _store(session_key)
    user = get_user(_SessionHolder(store))  # type: ignore[arg-type]
    return (user, store) if isinstance(user, User) else None


def verdict(session_key: str | None, user_id: int, now: float) -> Verdict:
    """Whether the session of `user_id` may go on, judged from the stored session (not a cached copy)."""
    data = _data(session_key)
    if str(data.get(SESSION_KEY)) != str(user_id):
        return Verdict(State.SIGNED_OUT)
    return _judge(data, User.objects.filter(pk=user_id).first(), now)


def verdict_of(data: dict[str, Any], user: User, now: float) -> Verdict:
    """`verdict` on a session and a user read moments ago: a socket's opening, which has just read
    both with `signed_in` (reading them again cost each opening two more queries, on the one
    database thread every opening waits for)."""
    if str(data.get(SESSION_KEY)) != str(user.pk):
        return Verdict(State.SIGNED_OUT)
    return _judge(data, user, now)


def verdicts(
    watched: list[tuple[str | None, int]],
    now: float,
    acted: list[float | None] | None = None,
    window: float = 0.0,
) -> list[Verdict]:
    """`verdict` for many sockets at once, in two queries whatever their number: a process checks
    all its sockets together instead of each socket querying on its own clock.

    ``acted`` (one entry per socket, None when it did nothing) is each socket's latest action not yet
    on the idle clock: it counts in the verdict, and a session whose stored last action is older by
    ``window`` seconds or more gets it written, all in one transaction. Sockets used to write their
    own, two session reads and a write each (a sixth of the server's time at a thousand tables)."""
    keys = [key for key, _ in watched if key]
    stored: dict[str, dict[str, Any]] = {}
    raw: dict[str, str] = {}
    database = settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    if keys and database:
        from django.contrib.sessions.models import Session

        rows = Session.objects.filter(session_key__in=keys, expire_date__gt=timezone.now()).values_list(
            "session_key", "session_data"
        )
        for session_key, session_data in rows:
            stored[session_key] = dict(_decoded(session_data))
            raw[session_key] = session_data
    else:
        stored = {key: _data(key) for key in keys}
    users = User.objects.in_bulk({user_id for _, user_id in watched})
    result = []
    latest: dict[str, float] = {}
    for index, (key, user_id) in enumerate(watched):
        data = stored.get(key or "", {})
        if str(data.get(SESSION_KEY)) != str(user_id):
            result.append(Verdict(State.SIGNED_OUT))
            continue
        at = acted[index] if acted is not None else None
        if at is not None and key:
            latest[key] = max(at, latest.get(key, at))
        result.append(_judge(data, users.get(user_id), now, at))
    _record(
        {
            key: at
            for key, at in latest.items()
            if at - float(stored[key].get(LAST_ACTIVITY_KEY) or 0.0) >= window
        },
        stored,
        raw if database else None,
    )
    return result


@functools.lru_cache(maxsize=DECODED_KEPT)
def _decoded(session_data: str) -> dict[str, Any]:
    """A stored session's data, decoded (callers copy it: the cached dict is shared).

    Why cached: the watchdog reads every socket's session every check, and most have not changed
    since the last one; decoding each anew (its signature checked, then its JSON read) was about
    half of a check's time, a burst on the database thread that held up the event loop (a thousand
    tables: four thousand sessions every 15 s). The same text always decodes the same, so the text
    is the key; a session that changes is a new text."""
    decoded: dict[str, Any] = _store("").decode(session_data)
    return decoded


def _record(actions: dict[str, float], stored: dict[str, dict[str, Any]], raw: dict[str, str] | None) -> None:
    """Write each session's latest action (`verdicts`). With the database engine, one UPDATE per
    session in one transaction, and only if the session is still as it was read: a page that saved
    the session meanwhile (a sign-in elsewhere, a new CSRF token) is never overwritten. That action
    is then not written (the socket has forgotten it); the player's next one is."""
    if not actions:
        return
    if raw is None:
        for key, at in actions.items():
            store = _store(key)
            if store.get(SESSION_KEY) is not None:
                store[LAST_ACTIVITY_KEY] = at
                store.save()
        return
    from django.contrib.sessions.models import Session

    decoder = _store("")
    with transaction.atomic():
        for key, at in actions.items():
            data = {**stored[key], LAST_ACTIVITY_KEY: at}
            Session.objects.filter(session_key=key, session_data=raw[key]).update(
                session_data=decoder.encode(data),
                expire_date=decoder.get_expiry_date(expiry=data.get("_session_expiry")),
            )


def _judge(data: dict[str, Any], user: User | None, now: float, acted: float | None = None) -> Verdict:
    if user is None or not user.is_active:
        return Verdict(State.SIGNED_OUT)
    until = current_suspension(user, timezone.now())
    if until is not None:
        return Verdict(State.SUSPENDED, until)
    last = data.get(LAST_ACTIVITY_KEY)
    if acted is not None:
        last = acted if last is None else max(float(last), acted)
    if is_idle(float(last) if last is not None else None, now):
        return Verdict(State.IDLE)
    return Verdict(State.ACTIVE)


def touch(session_key: str | None, user_id: int, now: float) -> bool:
    """Record activity now; False (and nothing written) when the session is no longer this user's."""
    if not session_key:
        return False
    store = _store(session_key)
    if str(store.get(SESSION_KEY)) != str(user_id):
        return False
    store[LAST_ACTIVITY_KEY] = now
    store.save()
    return True


def end(session_key: str | None) -> None:
    """Delete the session: the player must sign in again, on every tab."""
    if session_key:
        _store(session_key).delete()
