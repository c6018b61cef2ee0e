"""The log a live table writes (the pure table's steps, `effect_entries.entries_of`, through the
writers of `entry_writing`), read back by the record's game: whole matches played through
`advance`, with a draw game's tiles drawn, a Cuban deal voided by a computer player and dealt
again under its next identity, and the draw for the first lead. Every move is laid again by the
engine as the game replays the log, and the record it builds is one `amigos replay` accepts.
"""

from __future__ import annotations

import random
import uuid

import pytest

from amigos.engine import parse_record, replay_record
from amigos.table import Phase, needs_first_leader
from amigos.web.tables import log_codec
from amigos.web.tables.game import Game
from amigos.web.tables.log_entries import (
    Drew,
    HandEnded,
    HandStarted,
    HandVoided,
    MatchEnded,
    MatchStarted,
    Passed,
    Played,
)
from tests.web.tables.written import Written

#: A cuban-1v1 deal that offers a new deal to seat 1 alone (tests/web/tables/test_reshuffle_game.py).
SEAT_1 = "0000006b-0000-4000-8000-000000000000"


def play(
    variant: str, players: tuple[str | None, ...], seed: int, first_key: str | None = None
) -> list[type]:
    """One match written as the server writes it (moves chosen by ``seed``), read back by the
    record's game through its stored rows; the kinds of entries written."""
    rng = random.Random(seed)
    table = Written(variant, players)
    while table.state.phase in (Phase.DEALING, Phase.PLAYING):
        if table.in_hand:
            hand = table.state.hand
            assert hand is not None
            table.move(rng.choice(hand.state.legal_actions()))
            continue
        key = first_key or str(uuid.UUID(int=rng.getrandbits(128), version=4))
        first_key = None
        first = table.state.match is None
        leader = rng.randrange(len(players)) if first and needs_first_leader(table.state.variant) else None
        table.deal(key, leader)
    game = Game(table.table_id, table.state.variant, table.names)
    game.replay(log_codec.decode(*log_codec.encode(entry)) for entry in table.log)
    replay_record(parse_record(game.record()))
    return [type(entry) for entry in table.log]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_draw_game_writes_its_tiles_drawn(seed: int) -> None:
    kinds = play("draw-100", ("ana", "beto", "caro", "dani"), seed)
    assert {Drew, Played, HandEnded, MatchEnded} <= set(kinds)


def test_a_cuban_deal_voided_by_a_computer_is_dealt_again() -> None:
    kinds = play("cuban-1v1", ("ana", None), 3, first_key=SEAT_1)
    dealing = [kind for kind in kinds if kind in (MatchStarted, HandStarted, HandVoided)]
    assert dealing[:4] == [MatchStarted, HandStarted, HandVoided, HandStarted]
    assert {Played, HandEnded, MatchEnded} <= set(kinds)


def test_an_amigos_match_with_a_computer_partner() -> None:
    kinds = play("amigos-100", ("ana", "beto", None, "dani"), 4)
    assert {Played, Passed, HandEnded, MatchEnded} <= set(kinds)
