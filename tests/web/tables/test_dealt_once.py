"""A hand is dealt from its key once at a live table: the pure table's deal (`HandInPlay.dealt`) is
what the server's rows (`effect_entries.entries_of`) and the record's game (`Game.replay`) read,
and what they write from it is what they write when they derive the deal again from its key.

Whole matches are played through the pure table (`Written`), their keys and moves drawn by
hypothesis; at every step the rows are written twice, once from the states as the model made
them and once from the same states with the deal forgotten, and must be equal. Two record
games follow the rows, one given the model's deal and one dealing again; their records must be
equal too. A Cuban deal a computer player voids at once leaves no hand in play after its step,
so its rows deal it again from its key; that path is played as well, and is the only one that
deals again.
"""

from __future__ import annotations

from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amigos.engine import find_variant, parse_record, replay_record
from amigos.table import Phase, TableInput, TableState, needs_first_leader
from amigos.web.tables import effect_entries
from amigos.web.tables.effect_entries import entries_of
from amigos.web.tables.game import Game
from amigos.web.tables.log_entries import HandVoided, LogEntry
from tests.web.tables.test_entry_writing import SEAT_1
from tests.web.tables.written import Written


def _forgotten(state: TableState) -> TableState:
    """``state`` with its hand's deal forgotten, as a hand built without `deal_hand` has it."""
    if state.hand is None or state.hand.dealt is None:
        return state
    return replace(state, hand=replace(state.hand, dealt=None))


class Twice(Written):
    """A `Written` table that writes every step's rows a second time from the states with their
    deal forgotten, and feeds them to two record games: one given the model's deal, one not."""

    def __post_init__(self) -> None:
        variant = find_variant(self.variant, len(self.players))
        self.given = Game(self.table_id, variant, self.names)
        self.again = Game(self.table_id, variant, self.names)
        self.dealt_again = 0
        super().__post_init__()

    def send(self, given: TableInput, at: float | None = None) -> list[LogEntry]:
        before, context = self.state, self.context
        real = effect_entries.deal_hand
        calls = 0

        def counted(*args: object, **kwargs: object) -> object:
            nonlocal calls
            calls += 1
            return real(*args, **kwargs)  # type: ignore[arg-type]

        with mock.patch.object(effect_entries, "deal_hand", counted):
            entries = super().send(given, at)
        self.dealt_again += calls
        after = self.state
        assert entries == entries_of(_forgotten(before), _forgotten(after), self.effects, context)
        self.given.replay(entries, None if after.hand is None else after.hand.dealt)
        self.again.replay(entries)
        return entries


CASES = [
    ("amigos-100", ("ana", "beto", "caro", "dani")),
    ("draw-100", ("ana", "beto", "caro", "dani")),
    ("cuban-2v2", ("ana", "beto", "caro", "dani")),
    ("cuban-1v1", ("ana", None)),
]


@pytest.mark.parametrize(("variant", "players"), CASES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_rows_and_the_record_from_the_models_deal_are_those_dealt_again(
    variant: str, players: tuple[str | None, ...], data: st.DataObject
) -> None:
    table = Twice(variant, players)
    # Cuban between two: the first deal may offer the computer player a new deal, which it asks for.
    first_key = data.draw(st.sampled_from([None, SEAT_1])) if variant == "cuban-1v1" else None
    while table.state.phase in (Phase.DEALING, Phase.PLAYING):
        if table.in_hand:
            hand = table.state.hand
            assert hand is not None
            table.move(data.draw(st.sampled_from(hand.state.legal_actions())))
            continue
        key = first_key or str(data.draw(st.uuids(version=4)))
        first_key = None
        first = table.state.match is None
        leader = None
        if first and needs_first_leader(table.state.variant):
            leader = data.draw(st.integers(0, len(players) - 1))
        table.deal(key, leader)
    assert table.given.record() == table.again.record()
    replay_record(parse_record(table.given.record()))
    voided = sum(isinstance(entry, HandVoided) for entry in table.log)
    # Only a deal voided in the step that dealt it is dealt again (its key revealed by the void).
    assert table.dealt_again == voided
