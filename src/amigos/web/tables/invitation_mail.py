"""The e-mail that tells a friend they are invited to a correspondence game.

A correspondence invitation waits a day or more, and the friend may not sign in within it: a line in
their inbox says who invites them, to what, and until when. Only a verified address is written to
(an address typed at sign-up may be someone else's). The site does not know which language the
friend reads, so the message is in Spanish and then in English, each with the deadline in the
friend's own time zone.
"""

from __future__ import annotations

import logging
import zoneinfo

from django.conf import settings
from django.core.mail import send_mail
from django.utils import formats, translation
from django.utils.translation import gettext as _

from amigos.web.accounts.clock import is_time_zone
from amigos.web.tables.models import Invitation, Seat, Table

logger = logging.getLogger(__name__)

#: The languages of the message, in order (the site's own first).
LANGUAGES = ("es", "en")


def _part(table: Table, seat: Seat, link: str, language: str) -> tuple[str, str]:
    """The subject and the body in ``language``."""
    zone_name = seat.user.time_zone if seat.user is not None and is_time_zone(seat.user.time_zone) else ""
    zone = zoneinfo.ZoneInfo(zone_name or str(settings.TIME_ZONE))
    with translation.override(language):
        until = seat.invited_until
        when = formats.date_format(until.astimezone(zone), "SHORT_DATETIME_FORMAT") if until else ""
        values = {"organizer": table.organizer.display_name, "name": table.name, "when": when}
        subject = _("%(organizer)s invites you to a correspondence game") % values
        body = "\n\n".join(
            (
                _("%(organizer)s invites you to the correspondence game «%(name)s».") % values,
                _("The invitation waits for your answer until %(when)s.") % values,
                _("Sign in to accept or refuse it: %(link)s") % {"link": link},
            )
        )
    return subject, body


def announce(table_id: int, *, link: str) -> int:
    """Mail every invited player of the table who has a verified address; how many were mailed."""
    table = Table.objects.select_related("organizer").get(pk=table_id)
    seats = Seat.objects.filter(
        table=table, invitation=Invitation.PENDING, user__isnull=False, user__email_verified_at__isnull=False
    ).select_related("user")
    sent = 0
    for seat in seats:
        assert seat.user is not None  # filtered above
        parts = [_part(table, seat, link, language) for language in LANGUAGES]
        subject = " / ".join(dict.fromkeys(part[0] for part in parts))
        body = "\n\n— — —\n\n".join(part[1] for part in parts)
        try:
            send_mail(subject, body, None, [seat.user.email])
        except OSError:  # smtplib's errors are OSErrors: the game stands, the mail is only a notice
            logger.warning("invitation mail for table %s not sent", table.pk, exc_info=True)
            continue
        sent += 1
    return sent
