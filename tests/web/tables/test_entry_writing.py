"""One writer per log entry (`entry_writing`), shared by the actor's `Game` and the pure table's
`effect_entries.entries_of`: whole matches played through `advance`, and a `Game` kept beside
them given the same moves and deals, write the same play entries step by step.

Why here and not only in test_effect_entries_agree.py: that lockstep with the actor plays Amigos
alone, while `entries_of` follows a hand by itself (the state before each move, and after it) and
names each deal itself: a draw game's tiles drawn, a Cuban deal voided by a computer player and
dealt again under its next identity, and the draw for the first lead are checked here, with no
database.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from amigos.engine import deal_from_key
from amigos.table import Accept, Deal, Move, Phase, Start, TableState, advance, needs_first_leader, open_table
from amigos.table import effects as fx
from amigos.table.flow import first_lead_draw
from amigos.web.tables import log_codec
from amigos.web.tables.effect_entries import EntryContext, entries_of
from amigos.web.tables.game import Game
from amigos.web.tables.log_entries import (
    Drew,
    HandEnded,
    HandStarted,
    HandVoided,
    LogEntry,
    MatchEnded,
    MatchStarted,
    Passed,
    Played,
)
from tests.table.helpers import PATIENT, config

#: The entries `Game` writes (the others are the actor's own: clocks, cards, presence, votes).
GAME_KINDS = (MatchStarted, HandStarted, HandVoided, Played, Passed, Drew, HandEnded, MatchEnded)

#: A cuban-1v1 deal that offers a new deal to seat 1 alone (tests/web/tables/test_reshuffle_game.py).
SEAT_1 = "0000006b-0000-4000-8000-000000000000"


def game_entries(
    game: Game,
    before: TableState,
    after: TableState,
    effects: list[fx.Effect],
    key: str | None,
    context: EntryContext,
) -> list[LogEntry]:
    """What the actor's `Game` writes for the step, told the step's moves and deal as the actor is."""
    entries: list[LogEntry] = []
    for effect in effects:
        if isinstance(effect, fx.Moved):
            reason = "computer" if before.seats[effect.seat].plays_itself else None
            entries += game.act(effect.seat, effect.action, at=context.at(effect.at), reason=reason)
        elif isinstance(effect, fx.SystemPlay):
            entries += game.act(
                effect.seat, effect.action, at=context.at(effect.at), system=True, reason=effect.reason.value
            )
        elif isinstance(effect, fx.HandStarted):
            assert key is not None and after.match is not None
            if game.match is None:
                entries += game.start_match(after.match.first_leader, at=context.at(after.now))
            drawn = None
            if effect.number == 1 and not game.voided and before.variant.draws_for_first_lead:
                drawn = first_lead_draw(before.variant, deal_from_key(key, before.variant))
            entries += game.deal(key, drawn, context.at(after.now))
        elif isinstance(effect, fx.HandVoided):
            entries += game.reshuffle(effect.seat)
    return entries


def play(
    variant: str, players: tuple[str | None, ...], seed: int, first_key: str | None = None
) -> list[type]:
    """One match through `advance` (moves chosen by ``seed``), each step's `entries_of` checked
    against a `Game` given the same moves; the kinds of entries written."""
    rng = random.Random(seed)
    cfg = config(variant, players, timing=PATIENT)
    context = EntryContext(
        origin=datetime(2026, 1, 1, tzinfo=UTC),
        table_id=7,
        match_number=1,
        names=tuple(name or f"Computer {seat}" for seat, name in enumerate(players)),
        user_ids=tuple(None if name is None else seat + 1 for seat, name in enumerate(players)),
    )
    game = Game(context.table_id, cfg.variant, context.names)
    state, _ = open_table(cfg, 0.0)
    for seat, name in enumerate(players):
        if seat != cfg.organizer and name is not None:
            state, _ = advance(state, Accept(seat), 0.0)
    if state.awaits_start:
        state, _ = advance(state, Start(cfg.organizer), 0.0)
    kinds: list[type] = []
    now = 0.0
    while state.phase in (Phase.DEALING, Phase.PLAYING):
        now += 1.0
        key: str | None = None
        if state.phase is Phase.DEALING:
            now = max(now, state.deal_at or now)
            key = first_key or str(uuid.UUID(int=rng.getrandbits(128), version=4))
            first_key = None
            leader = rng.randrange(len(players)) if needs_first_leader(cfg.variant) else None
            given: Deal | Move = Deal(key, leader)
        else:
            assert state.hand is not None
            seat = state.hand.state.to_move
            action = rng.choice(state.hand.state.legal_actions())
            given = Move(seat, action, by_computer=state.seats[seat].plays_itself)
        after, effects = advance(state, given, now)
        written = [
            entry for entry in entries_of(state, after, effects, context) if isinstance(entry, GAME_KINDS)
        ]
        # The vote's deadline is the actor's to add (`VotesMixin._after_match`), not `Game`'s.
        written = [
            replace(entry, votes_deadline=None) if isinstance(entry, MatchEnded) else entry
            for entry in written
        ]
        expected = game_entries(game, state, after, effects, key, context)
        assert [log_codec.encode(entry) for entry in written] == [
            log_codec.encode(entry) for entry in expected
        ]
        kinds += [type(entry) for entry in written]
        state = after
    return kinds


@pytest.mark.parametrize("seed", [1, 2])
def test_a_draw_game_writes_its_tiles_drawn_as_the_actor_does(seed: int) -> None:
    kinds = play("draw-100", ("ana", "beto", "caro", "dani"), seed)
    assert {Drew, Played, HandEnded, MatchEnded} <= set(kinds)


def test_a_cuban_deal_voided_by_a_computer_is_dealt_again_as_the_actor_deals_it() -> None:
    kinds = play("cuban-1v1", ("ana", None), 3, first_key=SEAT_1)
    assert kinds[:4] == [MatchStarted, HandStarted, HandVoided, HandStarted]
    assert {Played, HandEnded, MatchEnded} <= set(kinds)


def test_an_amigos_match_with_a_computer_partner_writes_as_the_actor_does() -> None:
    kinds = play("amigos-100", ("ana", "beto", None, "dani"), 4)
    assert {Played, Passed, HandEnded, MatchEnded} <= set(kinds)
