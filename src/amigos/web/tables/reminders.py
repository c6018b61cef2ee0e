"""E-mail a player whose correspondence game waits for their move: at most one mail a day per game.

A correspondence game moves when its players come by; one who has not signed in for a while would
not know that the turn reached them. `send_turn_reminders` (run hourly by `amigos manage
remind_turns`, from cron or a systemd timer) finds every correspondence game whose last turn clock
names a seat and has not been closed by the end of a hand or match, and mails that seat's player,
unless that player was mailed about the same game within the last day. Only verified addresses of
active, unsuspended accounts are written to. The mail is in Spanish and English (the site does not
know which one the player reads), with the deadline in the player's own time zone.

The turn is read from the table's log (its `TurnClockShown` rows), so this needs nothing from the table's
actor, and a reminder sent late or twice by two processes at once changes no game.
"""

from __future__ import annotations

import logging
import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import JSONField, OuterRef, Subquery
from django.utils import formats, translation
from django.utils.translation import gettext as _

from amigos.web.accounts import clock
from amigos.web.accounts.models import User
from amigos.web.lobby.models import TurnReminder
from amigos.web.tables import log_codec
from amigos.web.tables.log_entries import HandEnded, MatchEnded, TurnClockShown
from amigos.web.tables.models import Kind, LogRow, Seat, Status, Table

logger = logging.getLogger(__name__)

#: At most one mail per game and player within this span.
REMINDER_INTERVAL = timedelta(days=1)
LANGUAGES = ("es", "en")


@dataclass(frozen=True)
class Waiting:
    """A correspondence game waiting for one player's move, and until when."""

    table_id: int
    table_name: str
    user_id: int
    deadline: datetime | None


def waiting_moves() -> list[Waiting]:
    """Every correspondence game being played whose last clock is still running, with its mover.

    One query for the games (their last clock and last end of a hand or match come as subqueries),
    one for the seats."""
    clock_kind = log_codec.KIND[TurnClockShown]
    clocks = LogRow.objects.filter(table=OuterRef("pk"), kind=clock_kind).order_by("-version")
    ends = LogRow.objects.filter(
        table=OuterRef("pk"), kind__in=(log_codec.KIND[HandEnded], log_codec.KIND[MatchEnded])
    ).order_by("-version")
    tables = list(
        Table.objects.filter(kind=Kind.CORRESPONDENCE, status=Status.PLAYING)
        .annotate(
            clock_version=Subquery(clocks.values("version")[:1]),
            clock_data=Subquery(clocks.values("data")[:1], output_field=JSONField()),
            end_version=Subquery(ends.values("version")[:1]),
        )
        .filter(clock_version__isnull=False)
        .values_list("pk", "name", "clock_version", "clock_data", "end_version")
    )
    movers: dict[int, tuple[str, int, datetime | None]] = {}
    for table_id, name, clock_version, data, end_version in tables:
        if end_version is not None and end_version > clock_version:
            continue  # the hand or the match ended after that clock: nobody is to move
        entry = log_codec.read(clock_kind, data)
        if isinstance(entry, TurnClockShown):
            movers[int(table_id)] = (str(name), entry.seat, clock.moment(entry.deadline))
    if not movers:
        return []
    users = {
        (int(table_id), int(number)): int(user_id)
        for table_id, number, user_id in Seat.objects.filter(
            table_id__in=list(movers), user__isnull=False
        ).values_list("table_id", "number", "user_id")
    }
    found = []
    for table_id, (name, seat, deadline) in sorted(movers.items()):
        user_id = users.get((table_id, seat))
        if user_id is not None:  # a computer's turn reminds nobody
            found.append(Waiting(table_id, name, user_id, deadline))
    return found


def _message(waiting: Waiting, user: User, link: str, now: datetime) -> tuple[str, str]:
    zone = zoneinfo.ZoneInfo(
        user.time_zone if clock.is_time_zone(user.time_zone) else str(settings.TIME_ZONE)
    )
    subjects, bodies = [], []
    for language in LANGUAGES:
        with translation.override(language):
            values = {"name": waiting.table_name}
            subjects.append(_("Your move in «%(name)s»") % values)
            lines = [_("The correspondence game «%(name)s» waits for your move.") % values]
            if waiting.deadline is not None:
                when = formats.date_format(waiting.deadline.astimezone(zone), "SHORT_DATETIME_FORMAT")
                lines.append(
                    _("Play by %(when)s (%(left)s).")
                    % {"when": when, "left": clock.time_left(waiting.deadline, now)}
                )
            lines.append(_("Your games: %(link)s") % {"link": link})
            bodies.append("\n\n".join(lines))
    return " / ".join(subjects), "\n\n— — —\n\n".join(bodies)


def send_turn_reminders(*, now: datetime, link: str) -> int:
    """Mail each player a game waits for (see the module); how many mails were sent. ``link`` is
    the absolute address of the "my games" page."""
    waiting = waiting_moves()
    if not waiting:
        return 0
    users = {
        user.pk: user
        for user in User.objects.filter(
            pk__in={entry.user_id for entry in waiting}, is_active=True, email_verified_at__isnull=False
        )
    }
    recent = set(
        TurnReminder.objects.filter(
            table_id__in={entry.table_id for entry in waiting}, sent_at__gt=now - REMINDER_INTERVAL
        ).values_list("user_id", "table_id")
    )
    sent = 0
    for entry in waiting:
        user = users.get(entry.user_id)
        if user is None or user.is_suspended(now) or (entry.user_id, entry.table_id) in recent:
            continue
        subject, body = _message(entry, user, link, now)
        try:
            send_mail(subject, body, None, [user.email])
        except OSError:  # smtplib's errors are OSErrors: try again at the next run
            logger.warning("turn reminder for table %s not sent", entry.table_id, exc_info=True)
            continue
        TurnReminder.objects.update_or_create(
            user_id=entry.user_id, table_id=entry.table_id, defaults={"sent_at": now}
        )
        sent += 1
    return sent
