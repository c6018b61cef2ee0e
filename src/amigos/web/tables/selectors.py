"""Reads about tables for pages and the lobby: the live list, open invitations, "my games"."""

from __future__ import annotations

from typing import Any

from django.db.models import JSONField, OuterRef, Q, Subquery

from amigos.web.accounts.models import User
from amigos.web.tables import log_codec
from amigos.web.tables.log_entries import HandEnded, MatchEnded, TurnClockShown
from amigos.web.tables.models import Invitation, Kind, LogRow, Seat, Status, Table
from amigos.web.tables.seat_names import computer_label


def _positions(players: int) -> tuple[str, ...]:
    return ("organizer", "right", "partner", "left") if players == 4 else ("organizer", "right", "left")


def _seat_entries(table: Table) -> list[dict[str, Any]]:
    names = _positions(table.players)
    seats = list(table.seats.all())
    # After a rematch or rotation the organizer may sit elsewhere than seat 0.
    organizer = next((seat.number for seat in seats if seat.user_id == table.organizer_id), 0)
    entries = []
    for seat in seats:
        if seat.user is not None:
            name, kind = seat.user.display_name, "human"
        elif seat.level:
            name, kind = computer_label(seat.number, table.players, seat.level), "computer"
        else:
            name, kind = "", "empty"
        place = names[(seat.number - organizer) % table.players]
        entries.append({"seat": seat.number, "position": place, "name": name, "kind": kind})
    return entries


def seated_live_table(user_id: int) -> Table | None:
    """The live table whose match the player is seated at (accepted, not yet ended), or None: the
    "back to your table" banner of every page, since a player who closed the table's page had no
    way back to it but the list of tables to watch. A practice table the player walked away from
    counts too: they may still go back to it until it ends."""
    return (
        Table.objects.filter(
            kind=Kind.LIVE,
            status__in=(Status.INVITING, Status.PLAYING),
            seats__user_id=user_id,
            seats__invitation=Invitation.ACCEPTED,
        )
        .order_by("-created_at", "-pk")
        .only("pk", "name")
        .first()
    )


def _last_sheet(data: object) -> dict[str, Any] | None:
    """The score sheet a `HandEnded` row's data holds (None before the first hand ends)."""
    entry = log_codec.read(log_codec.KIND[HandEnded], data)
    sheet = entry.sheet if isinstance(entry, HandEnded) else None
    return sheet if isinstance(sheet, dict) else None


def live_tables() -> list[dict[str, Any]]:
    """Live tables a spectator may open: inviting or playing, newest first."""
    # The score comes with each table in the same query (its last `HandEnded` row), not one
    # query per table: the list is rebuilt every second while hands end.
    last_hand = LogRow.objects.filter(table=OuterRef("pk"), kind=log_codec.KIND[HandEnded]).order_by(
        "-version"
    )
    tables = (
        Table.objects.filter(kind=Kind.LIVE, status__in=[Status.INVITING, Status.PLAYING])
        .annotate(last_hand=Subquery(last_hand.values("data")[:1], output_field=JSONField()))
        .prefetch_related("seats__user")
        .order_by("-created_at")[:100]
    )
    listed = []
    for table in tables:
        sheet = _last_sheet(table.last_hand) if table.status == Status.PLAYING else None
        listed.append(
            {
                "table_id": table.pk,
                "name": table.name,
                "variant": table.variant,
                "players": table.players,
                "target": table.target,
                "kind": table.kind,
                "status": table.status,
                "seats": _seat_entries(table),
                "spectators_welcome": True,
                "score": None if sheet is None else sheet.get("shown_totals"),
            }
        )
    return listed


def invitation_payload(seat: Seat) -> dict[str, Any]:
    table = seat.table
    return {
        "table_id": table.pk,
        "name": table.name,
        "variant": table.variant,
        "players": table.players,
        "target": table.target,
        "kind": table.kind,
        "organizer": {"id": table.organizer_id, "name": table.organizer.display_name},
        "seat": seat.number,
        "position": _positions(table.players)[seat.number],
        "deadline": None if seat.invited_until is None else _iso(seat.invited_until),
    }


#: How many of a player's latest tables count for "who played with you" in the lobby.
COMPANION_TABLES = 50


def companions(user_id: int, tables: int = COMPANION_TABLES) -> list[int]:
    """The players who sat (accepted) at one of ``user_id``'s latest ``tables`` tables, most recent
    first: with thousands online, the lobby lists them right after the player, as the platform
    has no friends list of its own."""
    latest = (
        Seat.objects.filter(user_id=user_id, invitation=Invitation.ACCEPTED)
        .order_by("-table_id")
        .values_list("table_id", flat=True)[:tables]
    )
    rows = (
        Seat.objects.filter(table_id__in=list(latest), invitation=Invitation.ACCEPTED, user__isnull=False)
        .exclude(user_id=user_id)
        .order_by("-table_id", "number")
        .values_list("user_id", flat=True)
    )
    return list(dict.fromkeys(int(row) for row in rows if row is not None))


def open_invitations(user_id: int) -> list[dict[str, Any]]:
    seats = Seat.objects.filter(
        user_id=user_id, invitation=Invitation.PENDING, table__status=Status.INVITING
    ).select_related("table", "table__organizer")
    return [invitation_payload(seat) for seat in seats]


def my_games(user_id: int) -> list[dict[str, Any]]:
    """A player's unfinished correspondence games, those waiting for their move first."""
    tables = (
        Table.objects.filter(kind=Kind.CORRESPONDENCE, seats__user_id=user_id)
        .filter(Q(status=Status.INVITING) | Q(status=Status.PLAYING) | Q(status=Status.VOTING))
        .prefetch_related("seats__user")
        .distinct()
    )
    games = []
    for table in tables:
        mine = next(seat for seat in table.seats.all() if seat.user_id == user_id)
        my_seat = mine.number
        clock_kind = log_codec.KIND[TurnClockShown]
        clock = LogRow.objects.filter(table=table, kind=clock_kind).order_by("-version").first()
        to_move = None
        deadline = None
        if clock is not None and table.status == Status.PLAYING:
            later_end = LogRow.objects.filter(
                table=table,
                kind__in=[log_codec.KIND[HandEnded], log_codec.KIND[MatchEnded]],
                version__gt=clock.version,
            ).exists()
            shown = log_codec.read(clock_kind, clock.data)
            if not later_end and isinstance(shown, TurnClockShown):
                to_move = shown.seat
                deadline = shown.deadline
        sheet = _last_sheet(table)
        games.append(
            {
                "table_id": table.pk,
                "name": table.name,
                "variant": table.variant,
                "status": table.status,
                "seat": my_seat,
                "seats": _seat_entries(table),
                "to_move": to_move,
                "deadline": deadline,
                "waiting_for_me": to_move == my_seat,
                # An invitation this player has not answered yet, and until when it waits.
                "invited": mine.invitation == Invitation.PENDING and table.status == Status.INVITING,
                "invited_until": mine.invited_until,
                # Until when the table waits for its invitations to be answered (inviting only).
                "answers_until": table.deadline_at if table.status == Status.INVITING else None,
                "organizer": table.organizer_id,
                "score": None if sheet is None else sheet.get("shown_totals"),
            }
        )
    games.sort(
        key=lambda game: (
            not (game["waiting_for_me"] or game["invited"]),
            game["deadline"] or "",
            game["table_id"],
        )
    )
    return games


def _iso(moment: Any) -> str:
    return str(moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"))


def recent_opponents(user_id: int, limit: int = 20) -> list[tuple[int, str]]:
    """The players ``user_id`` played with lately (`companions`), most recent first, as (id, name):
    the friends page offers them before any search. Inactive accounts are left out."""
    ids = companions(user_id)[:limit]
    names = dict(User.objects.filter(pk__in=ids, is_active=True).values_list("pk", "display_name"))
    return [(pk, str(names[pk])) for pk in ids if pk in names]


def games_waiting(user_id: int) -> int:
    """How many of the player's correspondence games wait for them: their move, or their answer to
    an invitation (the meeting room's notice; a player holds a handful of such games)."""
    return sum(1 for game in my_games(user_id) if game["waiting_for_me"] or game["invited"])
