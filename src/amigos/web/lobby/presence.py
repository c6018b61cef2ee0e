"""Who is online, in which status, in which order.

A player is online from sign-in to sign-out while their browser keeps sending heartbeats. The list is
ordered by status (available, invited, playing, reconnecting) and then by sign-in time, earliest
first, as the project's reading of the spec settles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q

from amigos.web.accounts.models import User
from amigos.web.lobby.models import STATUS_ORDER, Presence, Status

# After its last socket closes a player stays listed this long, so that moving between pages does
# not make them blink out of everybody's list.
DISCONNECT_GRACE_SECONDS = 5.0


@dataclass(frozen=True)
class OnlinePlayer:
    user_id: int
    name: str
    status: str
    signed_in_at: datetime
    quintile: int | None

    def as_payload(self) -> dict[str, object]:
        return {
            "id": self.user_id,
            "name": self.name,
            "status": self.status,
            "quintile": self.quintile,
            "signed_in_at": self.signed_in_at.isoformat(),
        }


def absence_after() -> timedelta:
    """A player whose heartbeat has been missing for three periods is absent."""
    return timedelta(seconds=3 * settings.AMIGOS_HEARTBEAT_SECONDS)


def order_key(player: OnlinePlayer) -> tuple[int, datetime, int]:
    return (STATUS_ORDER[player.status], player.signed_in_at, player.user_id)


def ordered(players: Iterable[OnlinePlayer]) -> list[OnlinePlayer]:
    return sorted(players, key=order_key)


def quintiles_of(user_ids: list[int]) -> dict[int, int]:
    """The rating quintile (1 best .. 5) of each rated player (the archive keeps the ratings)."""
    from amigos.web.archive.selectors import quintiles_of as archived_quintiles

    return archived_quintiles(user_ids)


def sign_in(user: User, now: datetime) -> None:
    """Start (or, for a player already online on another device, keep) the player's presence.

    Signing in on a second device does not move a player to the end of the list: the sign-in time
    of a presence that has not lapsed is kept.
    """
    current = Presence.objects.filter(user=user, last_seen__gte=now - absence_after()).first()
    if current is not None:
        Presence.objects.filter(pk=current.pk).update(last_seen=now)
        return
    Presence.objects.update_or_create(
        user=user,
        defaults={"status": Status.AVAILABLE, "signed_in_at": now, "last_seen": now, "open_sockets": 0},
    )


def sign_out(user_id: int) -> None:
    Presence.objects.filter(user_id=user_id).delete()


def socket_opened(user: User, now: datetime) -> None:
    """A socket of the player opened. A session that outlived its presence row (a restart) gets one."""
    updated = Presence.objects.filter(user=user).update(open_sockets=F("open_sockets") + 1, last_seen=now)
    if not updated:
        Presence.objects.get_or_create(
            user=user, defaults={"signed_in_at": user.last_login or now, "last_seen": now, "open_sockets": 1}
        )


def socket_closed(user_id: int, now: datetime) -> None:
    Presence.objects.filter(user_id=user_id).update(open_sockets=F("open_sockets") - 1)
    # With no socket left, let the presence lapse after a short grace instead of three heartbeats.
    lapse = now - absence_after() + timedelta(seconds=DISCONNECT_GRACE_SECONDS)
    Presence.objects.filter(user_id=user_id, open_sockets__lte=0, last_seen__gt=lapse).update(last_seen=lapse)


def heartbeat(user_id: int, now: datetime) -> None:
    """Refresh the player's presence; recreate it if it went away while a socket stayed open (the
    player signed out on another device but is still here on this one)."""
    if not Presence.objects.filter(user_id=user_id).update(last_seen=now):
        Presence.objects.get_or_create(
            user_id=user_id, defaults={"signed_in_at": now, "last_seen": now, "open_sockets": 1}
        )


def forget_dead_sockets(now: datetime, *, every_process_restarted: bool = False) -> int:
    """Rebuild the open-socket counters that no live socket stands behind; returns rows changed.

    A process that dies cannot decrement the counters of its sockets. A live socket heartbeats, so a
    counter above zero on a presence that has not been seen for three periods is stale: it is reset
    and the presence lapses like any other. When the caller knows no other process is serving
    (`every_process_restarted`, a single process starting), every counter is reset and every
    presence lapses after the short grace, until its browser reconnects.
    """
    stale = Presence.objects.filter(open_sockets__gt=0)
    if not every_process_restarted:
        stale = stale.filter(last_seen__lt=now - absence_after())
        return stale.update(open_sockets=0)
    lapse = now - absence_after() + timedelta(seconds=DISCONNECT_GRACE_SECONDS)
    changed = Presence.objects.filter(last_seen__gt=lapse).update(open_sockets=0, last_seen=lapse)
    return changed + stale.update(open_sockets=0)


@dataclass(frozen=True)
class Delta:
    """What changed in the online list: whole entries added or changed, ids removed."""

    added: list[dict[str, object]]
    changed: list[dict[str, object]]
    removed: list[int]

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def as_payload(self) -> dict[str, object]:
        return {"added": self.added, "changed": self.changed, "removed": self.removed}


def by_id(players: Iterable[OnlinePlayer]) -> dict[int, dict[str, object]]:
    return {player.user_id: player.as_payload() for player in players}


def changes(before: dict[int, dict[str, object]], after: dict[int, dict[str, object]]) -> Delta:
    """The delta that turns the list `before` into `after` (both keyed by player id)."""
    return Delta(
        added=[after[key] for key in after if key not in before],
        changed=[after[key] for key in after if key in before and before[key] != after[key]],
        removed=sorted(key for key in before if key not in after),
    )


def apply(players: dict[int, dict[str, object]], delta: Delta) -> dict[int, dict[str, object]]:
    """What a client does with a delta (used by the tests and the benchmark to check the stream)."""
    result = {key: value for key, value in players.items() if key not in set(delta.removed)}
    for entry in [*delta.added, *delta.changed]:
        key = entry["id"]
        assert isinstance(key, int)
        result[key] = entry
    return result


def heartbeats(user_ids: Iterable[int], now: datetime) -> None:
    """The heartbeats of many players at once (a process writes its sockets' heartbeats together):
    one update for all, and a presence again for any that went away while a socket stayed open."""
    wanted = set(user_ids)
    if not wanted:
        return
    Presence.objects.filter(user_id__in=wanted).update(last_seen=now)
    present = set(Presence.objects.filter(user_id__in=wanted).values_list("user_id", flat=True))
    for user_id in wanted - present:
        Presence.objects.get_or_create(
            user_id=user_id, defaults={"signed_in_at": now, "last_seen": now, "open_sockets": 1}
        )


def set_statuses(user_ids: list[int], status: Status) -> None:
    """For the tables feature: invitations, play and reconnection change players' status (a
    table's players often together: one update for them all)."""
    Presence.objects.filter(user_id__in=user_ids).update(status=status)


def release_invited(user_ids: list[int]) -> None:
    """For the tables feature: these players' invitations or seats at tables that never started
    are gone; those still shown as invited are available again (one shown playing elsewhere is
    left so)."""
    Presence.objects.filter(user_id__in=user_ids, status=Status.INVITED).update(status=Status.AVAILABLE)


def online_players(now: datetime) -> list[OnlinePlayer]:
    """Everyone signed in and not absent (a reconnecting player is listed while the table waits).

    Read as plain values, not as presences with their players: a presence and its player point at
    each other (a one-to-one field caches both ways), so each row read was a reference cycle, and
    every process reads this list up to once a second. A served process collects cycles only every
    ten minutes (`amigos.web.collector`): with a hundred players online each host's memory grew
    by about 12 MB a minute between two collections (bench/soak.py)."""
    found = list(
        Presence.objects.filter(Q(last_seen__gte=now - absence_after()) | Q(status=Status.RECONNECTING))
        .filter(user__is_active=True)
        .values_list("user_id", "user__display_name", "status", "signed_in_at")
    )
    quintiles = quintiles_of([user_id for user_id, *_ in found])
    return ordered(
        OnlinePlayer(
            user_id=user_id,
            name=name,
            status=status,
            signed_in_at=signed_in_at,
            quintile=quintiles.get(user_id),
        )
        for user_id, name, status, signed_in_at in found
    )
