"""One clock for every page: times are shown in the player's own time zone.

The zone is an IANA name ("America/Havana") kept on the account. The browser tells it when the
player signs up or signs in (a hidden field the page's script fills from `Intl`), and the player can
change it on the settings page. Until the account has one, the site's default zone (settings.
TIME_ZONE) is used. The middleware activates the zone for each request, so Django's `date` and
`time` filters convert every stored (UTC) moment; the page also carries the zone's name in
``<meta name="time-zone">`` so the script that draws the live chat converts with the same zone.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from amigos.web.accounts.models import User

#: The longest IANA name is about 32 characters; the column leaves room.
TIME_ZONE_MAX_LENGTH = 64


@lru_cache(maxsize=1)
def time_zones() -> frozenset[str]:
    """Every zone name this machine's time zone database knows (read once: it does not change
    while the site runs)."""
    return frozenset(zoneinfo.available_timezones())


def is_time_zone(name: object) -> bool:
    """True for a zone name the database knows; anything else (empty, too long, made up, a path)
    is not a zone."""
    return isinstance(name, str) and 0 < len(name) <= TIME_ZONE_MAX_LENGTH and name in time_zones()


def zone_choices() -> list[tuple[str, str]]:
    """The zones for the settings form, sorted by name (the names are the same in every language)."""
    return [(name, name.replace("_", " ")) for name in sorted(time_zones())]


def player_zone(user: object) -> zoneinfo.ZoneInfo | None:
    """The zone of a signed-in player who has one, else None (the site's default applies)."""
    if isinstance(user, User) and is_time_zone(user.time_zone):
        return zoneinfo.ZoneInfo(user.time_zone)
    return None


def moment(value: object) -> datetime | None:
    """An aware moment from a stored ISO text ("2026-11-29T15:51:00.000Z") or a datetime; None
    for anything else. Events and socket payloads keep moments as text; pages show them through
    this, never by cutting the text (which showed UTC digits run together)."""
    if isinstance(value, datetime):
        found: datetime | None = value
    elif isinstance(value, str):
        try:
            found = parse_datetime(value)
        except ValueError:
            return None
    else:
        return None
    if found is None:
        return None
    return found if timezone.is_aware(found) else timezone.make_aware(found, zoneinfo.ZoneInfo("UTC"))


def _hours_minutes(span: timedelta) -> tuple[int, int]:
    return divmod(max(0, int(span.total_seconds()) // 60), 60)


def duration_words(span: timedelta) -> str:
    """A span in words for a player: minutes under an hour, otherwise hours and minutes (never a
    count of seconds): "23 h 5 min", "40 min", "less than a minute"."""
    hours, minutes = _hours_minutes(span)
    if hours == 0 and minutes == 0:
        return _("less than a minute")
    if hours == 0:
        return ngettext("%(minutes)d min", "%(minutes)d min", minutes) % {"minutes": minutes}
    if minutes == 0:
        return ngettext("%(hours)d h", "%(hours)d h", hours) % {"hours": hours}
    return _("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": minutes}


def time_left(deadline: datetime, now: datetime) -> str:
    """What is left until ``deadline`` in words ("23 h 5 min left"), or that it has passed. The
    verb agrees with the leading number (Spanish "queda 1 h", "quedan 23 h")."""
    if deadline <= now:
        return _("time is up")
    span = deadline - now
    hours, minutes = _hours_minutes(span)
    lead = hours or minutes or 1
    return ngettext("%(span)s left", "%(span)s left", lead) % {"span": duration_words(span)}


#: How long ago a moment may be for :func:`time_ago` to say it; past that the date says more.
RECENT = timedelta(days=1)


def time_ago(moment: datetime, now: datetime) -> str:
    """How long ago ``moment`` was, in words ("hace 5 min", "5 min ago"), for moments within the
    last day; "" otherwise (a date reads better than "hace 49 h"), and for a moment not yet come."""
    if moment > now or now - moment >= RECENT:
        return ""
    span = now - moment
    if span < timedelta(minutes=1):
        return _("just now")
    return _("%(span)s ago") % {"span": duration_words(span)}


class TimeZoneMiddleware:
    """Activates the player's zone for the request (after the authentication middleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = player_zone(getattr(request, "user", None))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
