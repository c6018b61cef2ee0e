"""Moderation's writes: apply the ladder to stored cards, file reports, carry out decisions.

Every function takes keyword arguments and the moment ``now`` from its caller, so tests drive time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import mail_admins
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from amigos.table import sanctions
from amigos.web.accounts import services as accounts
from amigos.web.accounts.models import User
from amigos.web.lobby import notices
from amigos.web.lobby.models import ChatMessage
from amigos.web.lobby.models import ReportStatus as LobbyReportStatus
from amigos.web.moderation import flood, ladder
from amigos.web.moderation.models import (
    Action,
    Cause,
    Decision,
    Mute,
    Place,
    Report,
    ReportStatus,
    Suspension,
)
from amigos.web.tables import suspension_news
from amigos.web.tables.models import Card, CardColour, Kind, Table, TableChatLine


class ModerationError(Exception):
    """A refusal with a stable code (the site translates the code, never this text)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def cards_given(*, cards: Iterable[Card], now: datetime) -> list[Suspension]:
    """Apply the ladder to freshly stored cards, in the order given; suspend where a threshold falls.

    Called inside the transaction that writes the cards (the table's store reaches it through
    `suspended_by_cards`), so a card and the suspension it causes are stored together or not at all.
    """
    imposed: list[Suspension] = []
    for card in sorted(cards, key=lambda c: c.pk):
        before = ladder.standing(card.user_id, before_card=card.pk)
        _after, suspension = sanctions.give(before, ladder.COLOURS[card.colour], ladder.epoch(card.given_at))
        if suspension is None:
            continue
        row = Suspension.objects.create(
            user_id=card.user_id,
            cause=suspension.colour.value if hasattr(suspension.colour, "value") else str(suspension.colour),
            starts=ladder.moment(suspension.starts),
            ends=ladder.moment(suspension.ends),
            counted_at=now,
            last_card=card.pk,
        )
        user = User.objects.get(pk=card.user_id)
        accounts.suspend(user, row.ends, _reason(row.cause))
        imposed.append(row)
    return imposed


def suspended_by_cards(cards: Sequence[Card], now: datetime) -> list[int]:
    """The ladder as the table's store asks for it (`tables.card_hooks`, registered at start):
    the ids of the players the freshly stored ``cards`` suspended."""
    return [row.user_id for row in cards_given(cards=cards, now=now)]


def _reason(cause: str) -> str:
    with translation.override(settings.LANGUAGE_CODE):
        return {
            Cause.YELLOW: _("Suspended: 28 yellow cards."),
            Cause.BLUE: _("Suspended: 2 blue cards."),
            Cause.RED: _("Suspended: a red card."),
        }.get(Cause(cause), _("Suspended by the administration."))


def report(
    *,
    reporter: User,
    reported_id: int,
    comment: str,
    now: datetime,
    table_id: int | None = None,
    table_line_id: int | None = None,
    lobby_line_id: int | None = None,
) -> Report:
    """File a report and tell the administrators (the admin list, and e-mail where configured).

    A report reveals nothing the reporter could not see: a table they may not watch (a
    correspondence game they hold no seat at) answers as a table that does not exist
    (``unknown_table``), and a line of its chat as a line that does not exist (``unknown_line``),
    so the answers say neither who sits there nor who wrote what. Reports are limited like the
    lobby chat (`moderation.flood`), counted here on the stored reports of every process.
    """
    comment = comment.strip()
    if not comment or len(comment) > 500:
        raise ModerationError("bad_comment")
    if reported_id == reporter.pk:
        raise ModerationError("report_self")
    if not flood.stored_within(flood.Budget.REPORT, reporter.pk, now):
        raise ModerationError(flood.CODE)
    reported = User.objects.filter(pk=reported_id, is_active=True).first()
    if reported is None:
        raise ModerationError("unknown_player")
    table_line = lobby_line = None
    table: Table | None = None
    if lobby_line_id is not None:
        lobby_line = ChatMessage.objects.filter(pk=lobby_line_id, author_id=reported_id).first()
        if lobby_line is None:
            raise ModerationError("unknown_line")
        place = Place.LOBBY
    elif table_line_id is not None:
        table = _visible_table(table_id, reporter.pk)
        table_line = (
            None
            if table is None
            else TableChatLine.objects.filter(pk=table_line_id, table=table, author_id=reported_id).first()
        )
        if table_line is None:
            raise ModerationError("unknown_line")
        place = Place.TABLE_CHAT
    elif table_id is not None:
        table = _visible_table(table_id, reporter.pk)
        if table is None:
            raise ModerationError("unknown_table")
        if not table.seats.filter(user_id=reported_id).exists():
            raise ModerationError("not_at_table")
        place = Place.TABLE
    else:
        place = Place.LOBBY
    with transaction.atomic():
        row = Report.objects.create(
            reporter=reporter,
            reported=reported,
            place=place,
            table=table,
            match=table.match_number if table is not None else None,
            table_line=table_line,
            lobby_line=lobby_line,
            comment=comment,
            created_at=now,
        )
    _notify(row)
    return row


def _visible_table(table_id: int | None, user_id: int) -> Table | None:
    """The table if ``user_id`` may see it: any live table (anyone may watch one), a
    correspondence game only for a player who holds a seat there (the rule of the table's actor
    for a spectator); None otherwise, as for a table that does not exist."""
    if table_id is None:
        return None
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    if table.kind == Kind.CORRESPONDENCE and not table.seats.filter(user_id=user_id).exists():
        return None
    return table


def times_reported(user_id: int) -> int:
    return Report.objects.filter(reported_id=user_id).count()


def _notify(row: Report) -> None:
    link = reverse("admin:moderation_report_change", args=[row.pk])
    with translation.override(settings.LANGUAGE_CODE):
        lines = [
            _("Reporter: %(name)s") % {"name": row.reporter.display_name},
            _("Reported player: %(name)s") % {"name": row.reported.display_name},
            _("Times reported: %(count)d") % {"count": times_reported(row.reported_id)},
            _("Comment: %(text)s") % {"text": row.comment},
            _("Decide at: %(link)s") % {"link": link},
        ]
        if row.table_id is not None:
            lines.append(
                _("Table: %(link)s") % {"link": reverse("admin:tables_table_change", args=[row.table_id])}
            )
        subject = _("Report on %(name)s") % {"name": row.reported.display_name}
    mail_admins(subject, "\n".join(lines), fail_silently=True)


def decide(*, report: Report, action: str, by: User, now: datetime, reason: str = "") -> Decision:
    """Ignore, warn or block on a report; every decision is kept with who took it and when."""
    if action not in (Action.IGNORE, Action.WARN, Action.BLOCK):
        raise ModerationError("bad_action")
    if report.status != ReportStatus.OPEN:
        raise ModerationError("already_decided")
    with transaction.atomic():
        suspension = None
        if action == Action.WARN:
            with translation.override(settings.LANGUAGE_CODE):
                notices.send(
                    _("A warning from the administrators"),
                    reason or _("Please keep to the rules of fair play and respect the other players."),
                    recipient=report.reported,
                )
            report.status = ReportStatus.WARNED
        elif action == Action.BLOCK:
            table_id = report.table_id if report.table_id is not None else _any_table(report)
            if table_id is None:
                # A player who never sat at a table has no match to hang a red card on: the block
                # is the red card's month, as an administrator's suspension (outside the ladder).
                suspension = _impose(report.reported, now, RED_CARD_DAYS, reason)
            else:
                card = Card.objects.create(
                    user=report.reported,
                    table_id=table_id,
                    match=report.match or 0,
                    hand=None,
                    colour=CardColour.RED,
                    reason="admin",
                    given_at=now,
                )
                imposed = cards_given(cards=[card], now=now)
                suspension = imposed[0] if imposed else None
                if suspension is not None:
                    # Given at the desk, not by the table: the player's tables are told.
                    suspension_news.suspension_imposed(suspension.user_id)
            report.status = ReportStatus.BLOCKED
        else:
            report.status = ReportStatus.IGNORED
        report.save(update_fields=["status"])
        return Decision.objects.create(
            action=action,
            decided_by=by,
            decided_at=now,
            player=report.reported,
            report=report,
            suspension=suspension,
            reason=reason,
        )


def _any_table(report: Report) -> int | None:
    """A red card needs a table; for a lobby report, the reported player's latest table."""
    table = Table.objects.filter(seats__user_id=report.reported_id).order_by("-pk").first()
    return None if table is None else int(table.pk)


#: How long a red card suspends (the ladder's month), for a block that has no table to card at.
RED_CARD_DAYS = 30


def _impose(user: User, now: datetime, days: int, reason: str) -> Suspension:
    """An administrator's suspension (outside the ladder), stored; once the caller's transaction
    commits, the tables where the player is in a match are told (`tables.suspension_news`), and
    end it, a correspondence game too."""
    row = Suspension.objects.create(
        user=user, cause=Cause.ADMIN, starts=now, ends=now + timedelta(days=days), counted_at=now
    )
    accounts.suspend(user, row.ends, reason or _reason(Cause.ADMIN))
    suspension_news.suspension_imposed(user.pk)
    return row


def suspend_by_administrator(*, user: User, days: int, by: User, now: datetime, reason: str) -> Decision:
    """Suspend an account for ``days`` from the players' list, kept like every desk decision (who,
    when, why). Outside the card ladder: it neither counts cards nor resets their counters."""
    if not reason.strip():
        raise ModerationError("reason_required")
    if days <= 0:
        raise ModerationError("bad_days")
    with transaction.atomic():
        suspension = _impose(user, now, days, reason)
        return Decision.objects.create(
            action=Action.BLOCK,
            decided_by=by,
            decided_at=now,
            player=user,
            suspension=suspension,
            reason=reason,
        )


def lift_by_administrator(*, user: User, by: User, now: datetime, reason: str) -> list[Decision]:
    """Lift every running suspension of the account, each decision kept; an account suspended with
    no suspension row (set by hand before the desk existed) is lifted and the decision kept too."""
    running = Suspension.objects.filter(user=user, lifted_at__isnull=True, ends__gt=now)
    decisions = [
        change_suspension(suspension=row, by=by, now=now, reason=reason) for row in running.order_by("pk")
    ]
    if not decisions and user.suspended_until is not None and user.suspended_until > now:
        if not reason.strip():
            raise ModerationError("reason_required")
        accounts.lift_suspension(user)
        decisions.append(
            Decision.objects.create(
                action=Action.LIFT, decided_by=by, decided_at=now, player=user, reason=reason
            )
        )
    return decisions


def change_suspension(
    *, suspension: Suspension, by: User, now: datetime, reason: str, until: datetime | None = None
) -> Decision:
    """Lift (``until`` None) or shorten a suspension, with a reason; never lengthens one."""
    if not reason.strip():
        raise ModerationError("reason_required")
    if suspension.lifted_at is not None or suspension.ends <= now:
        raise ModerationError("not_running")
    if until is not None and until >= suspension.ends:
        raise ModerationError("not_shorter")
    with transaction.atomic():
        user = User.objects.get(pk=suspension.user_id)
        if until is None or until <= now:
            suspension.lifted_at = now
            suspension.ends = max(now, suspension.starts)
            action = Action.LIFT
            accounts.lift_suspension(user)
        else:
            suspension.ends = until
            action = Action.SHORTEN
            accounts.suspend(user, until, user.suspension_reason)
        suspension.save(update_fields=["lifted_at", "ends"])
        return Decision.objects.create(
            action=action, decided_by=by, decided_at=now, player=user, suspension=suspension, reason=reason
        )


def mute(*, owner: User, muted_id: int, now: datetime) -> None:
    if muted_id == owner.pk:
        raise ModerationError("mute_self")
    if not User.objects.filter(pk=muted_id).exists():
        raise ModerationError("unknown_player")
    Mute.objects.get_or_create(owner=owner, muted_id=muted_id, defaults={"created_at": now})


def unmute(*, owner: User, muted_id: int) -> None:
    Mute.objects.filter(owner=owner, muted_id=muted_id).delete()


def purge_chat(*, now: datetime, days: int) -> tuple[int, int]:
    """Delete lobby and table chat lines older than ``days``; returns (lobby, table) counts.

    A line an undecided report points to is kept past the retention: the administrators must still
    be able to read what they are asked to judge. It goes in a later purge, once decided.
    """
    if days < 1:
        raise ModerationError("bad_retention")
    cutoff = now - timedelta(days=days)
    open_reports = Report.objects.filter(status=ReportStatus.OPEN)
    lobby, _ = (
        ChatMessage.objects.filter(created_at__lt=cutoff)
        .exclude(pk__in=open_reports.filter(lobby_line__isnull=False).values("lobby_line"))
        .exclude(reports__status=LobbyReportStatus.OPEN)  # the lobby's former reports, still undecided
        .delete()
    )
    table, _ = (
        TableChatLine.objects.filter(sent_at__lt=cutoff)
        .exclude(pk__in=open_reports.filter(table_line__isnull=False).values("table_line"))
        .delete()
    )
    return lobby, table
