"""Creating tables: the lobby's form and "play against the computer" call these.

A table is created with its seats and invitations in one transaction; its actor (in the server's
event loop) then sends the invitations, or starts the match at once when nobody has to answer.
Bad input raises `TableRefused` with a stable code and creates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from amigos.engine.variants import VARIANT_NAMES, UnknownVariant, Variant, find_variant
from amigos.table import Timing, VoteChoice, reseat
from amigos.web.accounts.identity import clean_display_name, display_name_problem
from amigos.web.accounts.models import User
from amigos.web.lobby import presence
from amigos.web.tables import forwarding, limits, store
from amigos.web.tables.models import Invitation, Kind, Level, Seat, Table

#: How long an invitation stays open (a live table's, or a correspondence table's day): the
#: pure table's durations.
_TIMING = Timing()

MAX_NAME = 60
#: How long an invitation to a correspondence game waits for its answer: a day unless the
#: organizer chooses longer, up to a week (the invited friend may not sign in every day).
ANSWER_WITHIN_MIN = timedelta(days=1)
ANSWER_WITHIN_MAX = timedelta(days=7)
LEVELS = tuple(level.value for level in Level)


class TableRefused(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SeatChoice:
    """Who sits in a seat other than the organizer's: an online player, or a computer player."""

    user_id: int | None = None
    level: str | None = None


#: Why `limits` refuses a new table (the site translates the codes; this text is for logs).
LIMIT_MESSAGES = {
    "creating_too_fast": "too many tables created in a short time; wait a few minutes",
    "live_table_open": "you already hold a live table; finish it first",
    "correspondence_full": "you already hold as many correspondence games as a player may",
    "player_busy": "an invited player already holds as many tables of this kind as a player may",
}


def clean_name(name: str) -> str:
    """The table's name as stored, or `TableRefused`: the display names' own cleaning and
    character rules (no invisible or direction-changing characters, no stray marks, no mix of
    Latin with Cyrillic or Greek letters, no @), since a name is shown to everyone in the lobby."""
    cleaned = clean_display_name(str(name))
    if not cleaned:
        raise TableRefused("bad_name", "the table needs a name")
    if len(cleaned) > MAX_NAME:
        raise TableRefused("bad_name", f"a table name has at most {MAX_NAME} characters")
    problem = display_name_problem(cleaned)
    if problem is not None:
        raise TableRefused(f"name_{problem}", f"the name is refused ({problem})")
    return cleaned


def _variant(name: str, players: int | None) -> Variant:
    if name not in VARIANT_NAMES:
        raise TableRefused("bad_variant", f"unknown variant {name[:40]!r}")
    try:
        return find_variant(name, players)
    except UnknownVariant as error:
        raise TableRefused("bad_players", str(error)) from None


def _online_ids(now: datetime) -> set[int]:
    return {player.user_id for player in presence.online_players(now)}


def create_table(
    *,
    organizer: User,
    name: str,
    variant: str,
    players: int | None = None,
    kind: str = Kind.LIVE,
    seats: dict[int, SeatChoice],
    now: datetime | None = None,
    answer_within: timedelta | None = None,
) -> Table:
    """A new table with the organizer in seat 0 and ``seats`` (1 .. players-1) filled.

    Partners sit opposite: in four-player games seat 2 is the organizer's partner, seat 1 their
    right and seat 3 their left (docs/protocol.md). Online players are invited (30 s to answer on a
    live table); computer players are seated at once. A correspondence game may invite any
    registered player who is not suspended, online or not; its invitations wait ``answer_within``
    (a day by default, at most a week).
    """
    return _create_table(
        organizer=organizer,
        name=clean_name(name),
        variant=variant,
        players=players,
        kind=kind,
        seats=seats,
        now=now or timezone.now(),
        answer_within=answer_within,
    )


def _create_table(
    *,
    organizer: User,
    name: str,
    variant: str,
    players: int | None,
    kind: str,
    seats: dict[int, SeatChoice],
    now: datetime,
    answer_within: timedelta | None = None,
) -> Table:
    """`create_table` with a ``name`` already cleaned (or made by the site itself)."""
    if kind not in (Kind.LIVE, Kind.CORRESPONDENCE):
        raise TableRefused("bad_kind", "a table is live or correspondence")
    invitation_time = _invitation_time(kind, answer_within)
    chosen = _variant(variant, players)
    expected = set(range(1, chosen.players))
    if set(seats) != expected:
        raise TableRefused("bad_seats", f"seats {sorted(expected)} must each be filled")
    users = [choice.user_id for choice in seats.values() if choice.user_id is not None]
    if len(set(users)) != len(users) or organizer.pk in users:
        raise TableRefused("bad_seats", "a player can sit in one seat only")
    for choice in seats.values():
        if (choice.user_id is None) == (choice.level is None):
            raise TableRefused("bad_seats", "each seat holds a player or a computer level")
        if choice.level is not None and choice.level not in LEVELS:
            raise TableRefused("bad_level", f"computer levels are {', '.join(LEVELS)}")
    if users:
        found = set(User.objects.filter(pk__in=users, is_active=True).values_list("pk", flat=True))
        if found != set(users):
            raise TableRefused("unknown_player", "a seated player does not exist")
        if User.objects.filter(pk__in=users, suspended_until__gt=now).exists():
            raise TableRefused("player_suspended", "a suspended player cannot be invited")
        if kind == Kind.LIVE and not set(users) <= _online_ids(now):
            raise TableRefused("not_online", "only players who are online can be invited to a live table")
    with transaction.atomic():
        # The players' rows are locked first (in one order), so that two requests at once cannot
        # both take a player's last place (`limits`).
        list(User.objects.select_for_update().filter(pk__in=sorted({organizer.pk, *users})).values_list("pk"))
        refused = limits.refusal(organizer_id=organizer.pk, invited=users, kind=kind, now=now)
        if refused is not None:
            raise TableRefused(refused, LIMIT_MESSAGES[refused])
        table = Table.objects.create(
            name=name,
            variant=chosen.name,
            players=chosen.players,
            target=chosen.target,
            kind=kind,
            organizer=organizer,
            created_at=now,
        )
        rows = [Seat(table=table, number=0, user=organizer, invitation=Invitation.ACCEPTED)]
        for number, choice in sorted(seats.items()):
            if choice.user_id is not None:
                rows.append(
                    Seat(
                        table=table,
                        number=number,
                        user_id=choice.user_id,
                        invitation=Invitation.PENDING,
                        invited_until=now + invitation_time,
                    )
                )
            else:
                rows.append(
                    Seat(table=table, number=number, level=choice.level or "", invitation=Invitation.ACCEPTED)
                )
        Seat.objects.bulk_create(rows)
        pending = [row.invited_until for row in rows if row.invited_until is not None]
        if pending:
            table.deadline_at = min(pending)
            table.deadline_kind = "invitation"
            table.save(update_fields=["deadline_at", "deadline_kind"])
        transaction.on_commit(lambda: forwarding.wake_soon(table.pk))
    return table


def _invitation_time(kind: str, answer_within: timedelta | None) -> timedelta:
    """How long the table's invitations wait: the live clock's seconds, or for a correspondence
    game ``answer_within`` (a day when not given) if it lies between a day and a week."""
    if kind == Kind.LIVE:
        if answer_within is not None:
            raise TableRefused("bad_answer_time", "a live table's invitations wait the live clock only")
        return timedelta(seconds=_TIMING.invitation)
    if answer_within is None:
        return timedelta(seconds=_TIMING.correspondence)
    if not ANSWER_WITHIN_MIN <= answer_within <= ANSWER_WITHIN_MAX:
        raise TableRefused("bad_answer_time", "an invitation waits between a day and a week")
    return answer_within


def play_against_computer(
    *,
    user: User,
    variant: str,
    players: int | None = None,
    level: str = "normal",
    now: datetime | None = None,
) -> Table:
    """A live table against computer players that starts at once (its name is the player's)."""
    chosen = _variant(variant, players)
    if level not in LEVELS:
        raise TableRefused("bad_level", f"computer levels are {', '.join(LEVELS)}")
    seats = {number: SeatChoice(level=level) for number in range(1, chosen.players)}
    # The name is the site's own (a display name may be in Cyrillic, say, beside the Latin words),
    # in the language of the player who opens the table: that player is the one who reads it.
    return _create_table(
        organizer=user,
        name=(_("%(name)s vs. the computer") % {"name": user.display_name})[:MAX_NAME],
        variant=chosen.name,
        players=chosen.players,
        kind=Kind.LIVE,
        seats=seats,
        now=now or timezone.now(),
    )


def make_next_table(
    table_id: int, choice: str, now: datetime | None = None
) -> tuple[int, store.Loaded | None]:
    """The table after ``table_id``'s match, everyone having voted ``choice`` ("rematch" or
    "rotate"): its id, and what its actor is built from (`store.made`) when this call made it
    (None when it was made before).

    Same name, variant, seat count, target and kind; the seats are moved by `amigos.table.reseat`
    (computer seats move with their level), every seat is already accepted (the players agreed by
    voting), and the organizer is the player now at the organizer's seat. The old table's
    `next_table` points at it. All in one transaction; asking again for the same finished table
    gives the table already made instead of a second one.
    """
    vote = VoteChoice(choice)
    if vote is VoteChoice.LOBBY:
        raise TableRefused("bad_choice", "only a rematch or a rotation makes a next table")
    now = now or timezone.now()
    with transaction.atomic():
        old = Table.objects.select_for_update().get(pk=table_id)
        if old.next_table_id is not None:
            return old.next_table_id, None
        rows = list(Seat.objects.filter(table_id=table_id).select_related("user").order_by("number"))
        if [row.number for row in rows] != list(range(old.players)):
            raise TableRefused("bad_seats", "the finished table does not have every seat")
        organizer_seat = next(
            (row.number for row in rows if row.user_id == old.organizer_id and row.user_id is not None), 0
        )
        # reseat moves seat numbers; each new seat takes the whole row (player or computer level)
        by_key = {str(row.number): row for row in rows}
        moved, new_organizer_seat = reseat(tuple(by_key), organizer_seat, vote)
        seated = [by_key[key] for key in moved if key is not None]
        organizer_id = seated[new_organizer_seat].user_id
        if organizer_id is None:
            raise TableRefused("bad_seats", "the organizer's seat holds no player")
        table = Table.objects.create(
            name=old.name,
            variant=old.variant,
            players=old.players,
            target=old.target,
            kind=old.kind,
            organizer_id=organizer_id,
            created_at=now,
        )
        made = [
            Seat(
                table=table,
                number=number,
                user_id=row.user_id,
                level="" if row.user_id is not None else row.level,
                invitation=Invitation.ACCEPTED,
            )
            for number, row in enumerate(seated)
        ]
        Seat.objects.bulk_create(made)
        old.next_table = table
        old.save(update_fields=["next_table"])
    seats = [store.seat_row(seat, row.user) for seat, row in zip(made, seated, strict=True)]
    return table.pk, store.made(table, seats)
