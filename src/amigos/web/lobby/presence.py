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
    """The rating quintile (1 best .. 5) of each rated player. Nobody is rated until ratings exist."""
    return {}


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


def set_status(user_id: int, status: Status) -> None:
    """For the tables feature: invitations, play and reconnection change a player's status."""
    Presence.objects.filter(user_id=user_id).update(status=status)


def online_players(now: datetime) -> list[OnlinePlayer]:
    """Everyone signed in and not absent (a reconnecting player is listed while the table waits)."""
    rows = (
        Presence.objects.filter(Q(last_seen__gte=now - absence_after()) | Q(status=Status.RECONNECTING))
        .filter(user__is_active=True)
        .select_related("user")
    )
    found = list(rows)
    quintiles = quintiles_of([row.user_id for row in found])
    return ordered(
        OnlinePlayer(
            user_id=row.user_id,
            name=row.user.display_name,
            status=row.status,
            signed_in_at=row.signed_in_at,
            quintile=quintiles.get(row.user_id),
        )
        for row in found
    )
