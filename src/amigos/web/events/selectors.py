"""Reads for the events pages: what a board, a round or a table's sheet shows.

Views call these and render; nothing here writes. The domino rules (who leads, when a match is
over, how a juegos ganados count is written) come from :mod:`amigos.recreo` and the engine, so the
pages cannot drift from the scoring.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from amigos.recreo.formats import TableAssignment, format_for
from amigos.recreo.scoring import Target
from amigos.recreo.sheet import (
    HandEnd,
    HandEntry,
    SheetState,
    hands_display,
    leader_of_hand,
    sheet_state,
    turn_order,
)
from amigos.web.accounts.models import User
from amigos.web.events.models import Event, EventPlayer, HandRecord, TableMatch

END_LABELS: dict[HandEnd, Promise] = {
    HandEnd.DOMINO: _("Domino"),
    HandEnd.BLOCK: _("Block"),
    HandEnd.TIED_BLOCK: _("Tied block"),
}

# The engine writes a juegos ganados count as the table calls it; these two words are the only
# ones that are not numbers.
COUNT_LABELS: dict[str, Promise] = {"Ventaja": _("Advantage"), "Juego": _("Game")}


def target_of(event: Event) -> Target:
    return Target.HANDS_WON if event.target == "hands" else Target(int(event.target))


def entries(match: TableMatch) -> list[HandEntry]:
    return [HandEntry(HandEnd(h.end), h.side, h.points) for h in HandRecord.objects.filter(match=match)]


def written(target: Target, score: tuple[int, int]) -> tuple[str, str]:
    """A score as the sheet writes it: tantos as numbers, juegos ganados as 20, 40, 60, ..."""
    if target.is_points:
        return str(score[0]), str(score[1])
    a, b = hands_display(score)
    return str(COUNT_LABELS.get(a, a)), str(COUNT_LABELS.get(b, b))


@dataclass(frozen=True)
class SheetLine:
    """One hand as the sheet shows it: ``written`` is what the hand itself added ("+30", "0" for
    the pair that closed a tied block, "" for nothing), ``totals`` the running score as written."""

    number: int
    leader: int | None
    end: HandEnd
    end_label: str
    side: str
    points: int
    written: str
    totals: tuple[str, str]
    score: tuple[int, int]


def _hand_written(target: Target, hand: HandEntry) -> str:
    if hand.end is HandEnd.TIED_BLOCK:
        return "0" if target.is_points else "C"
    if not target.is_points:
        return "C" if hand.end is HandEnd.BLOCK else "+1"
    return f"+{hand.points}"


def sheet_lines(match: TableMatch) -> tuple[list[SheetLine], int | None, SheetState]:
    """The running sheet, the leader of the next hand (None before the first leader), and the state."""
    target = target_of(match.event)
    hands = entries(match)
    order = None
    if match.first_leader is not None and match.right_of_leader is not None:
        table = format_for(match.event.player_count).assignment(match.round, match.table)
        assert table is not None  # matches are only created from the schedule
        order = turn_order(table.pair_a, table.pair_b, match.first_leader, match.right_of_leader)
    lines = []
    for index, hand in enumerate(hands):
        state = sheet_state(target, hands[: index + 1])
        lines.append(
            SheetLine(
                number=index + 1,
                leader=leader_of_hand(order, index) if order else None,
                end=hand.end,
                end_label=str(END_LABELS[hand.end]),
                side=hand.side,
                points=hand.points,
                written=_hand_written(target, hand),
                totals=written(target, state.score),
                score=state.score,
            )
        )
    state = sheet_state(target, hands)
    next_leader = leader_of_hand(order, len(hands)) if order and not state.over else None
    return lines, next_leader, state


def match_score(match: TableMatch) -> tuple[str, str]:
    """The score a table's page and the board show: what is stored for the match, which is the
    sheet's running score while it is played and the organizer's result once entered by hand."""
    return written(target_of(match.event), (match.score_a, match.score_b))


@dataclass(frozen=True)
class TableView:
    match: TableMatch | None
    table: int
    pair_a: list[EventPlayer]
    pair_b: list[EventPlayer]
    mine: bool
    score: tuple[str, str]


def round_tables(
    event: Event, number: int, seat: EventPlayer | None
) -> tuple[list[TableView], list[EventPlayer]]:
    """The tables of a round with their players' names, and who rests."""
    rnd = format_for(event.player_count).round(number)
    if rnd is None:
        return [], []
    by_number = {p.number: p for p in event.players.all()}
    matches = {m.table: m for m in event.matches.filter(round=number).select_related("scorekeeper", "event")}
    target = target_of(event)
    views = []
    for t in rnd.tables:
        match = matches.get(t.table)
        views.append(
            TableView(
                match=match,
                table=t.table,
                pair_a=[by_number[n] for n in t.pair_a if n in by_number],
                pair_b=[by_number[n] for n in t.pair_b if n in by_number],
                mine=seat is not None and seat.number in t.players,
                score=written(target, (match.score_a, match.score_b)) if match else ("", ""),
            )
        )
    return views, [by_number[n] for n in rnd.resting if n in by_number]


def missing_tables(event: Event) -> list[TableMatch]:
    """The current round's tables that are not closed yet."""
    return list(event.matches.filter(round=event.current_round).exclude(state=TableMatch.State.CLOSED))


def rounds_of(event: Event) -> int:
    return len(format_for(event.player_count).rounds)


def penalty_choices(event: Event) -> list[tuple[int, str]]:
    return [(p.number, f"{p.number}. {p.name}") for p in event.players.all()]


def seat_of(event: Event, user: User) -> EventPlayer | None:
    """The user's seat in the event, if they hold one (linked to their account)."""
    return event.players.filter(user=user).first()


def may_see(user: User, event: Event) -> bool:
    """The organizer, the event's players, staff, and whoever its list invites may follow it."""
    from amigos.web.events.services.setup import invitation_for

    if user.pk == event.organizer_id or user.is_staff or seat_of(event, user) is not None:
        return True
    return invitation_for(event, user) is not None


def table_page(user: User, match: TableMatch) -> dict[str, object]:
    """Everything a table's page shows, and which of its controls this user gets."""
    event = match.event
    table = format_for(event.player_count).assignment(match.round, match.table)
    assert table is not None  # matches are only created from the schedule
    names = {p.number: p for p in event.players.all()}
    lines, next_leader, state = sheet_lines(match)
    score_a, score_b = match_score(match)
    organizer = is_organizer(user, event)
    return {
        "event": event,
        "live_event": event,
        "match": match,
        "pair_a": [names[n] for n in table.pair_a],
        "pair_b": [names[n] for n in table.pair_b],
        "defaults": [([names[n] for n in table.pair_a], "a"), ([names[n] for n in table.pair_b], "b")],
        "seated": [names[n] for n in table.players],
        "lines": lines,
        "names": names,
        "next_leader": names.get(next_leader) if next_leader else None,
        "state": state,
        "is_organizer": organizer,
        "may_write": may_write(user, match),
        "may_choose": organizer or seated_player(user, match) is not None,
        "hands_target": event.target == "hands",
        "display_a": score_a,
        "display_b": score_b,
        "is_open": match.state != TableMatch.State.CLOSED and event.status == Event.Status.RUNNING,
        "notes": match.notes.select_related("by"),
        "started": match.hands.order_by("index").values_list("created_at", flat=True).first(),
    }


def assignment_of(match: TableMatch) -> TableAssignment:
    found = format_for(match.event.player_count).assignment(match.round, match.table)
    assert found is not None  # matches are only created from the schedule
    return found


def is_organizer(user: User, event: Event) -> bool:
    return bool(user.is_authenticated and user.pk == event.organizer_id)


def seated_player(user: User, match: TableMatch) -> EventPlayer | None:
    """The event player this user is, if they sit at this table this round."""
    seat = EventPlayer.objects.filter(event=match.event, user=user).first()
    if seat is None or seat.number not in assignment_of(match).players:
        return None
    return seat


def may_write(user: User, match: TableMatch) -> bool:
    if is_organizer(user, match.event):
        return True
    keeper = match.scorekeeper
    return keeper is not None and keeper.user_id is not None and keeper.user_id == user.pk
