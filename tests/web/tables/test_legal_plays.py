"""The legal plays a seat in turn is sent: exactly what its own view of the hand allows."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import HandState, Play, seat_view
from amigos.web.tables.entry_writing import legal_plays
from tests.properties.strategies import playout, variants


def _options_sent(plays: list[dict[str, Any]]) -> list[tuple[str, str | None, int | None]]:
    """Every distinct placement the grouped plays offer, as (tile, arm, lead's left half)."""
    options: list[tuple[str, str | None, int | None]] = []
    for entry in plays:
        options += [(entry["tile"], arm, None) for arm in entry["arms"]]
        options += [(entry["tile"], None, left) for left in entry["lead_left"] or []]
        if not entry["arms"] and not entry["lead_left"]:
            options.append((entry["tile"], None, None))
    return options


def _options_of_the_seat_view(state: HandState, seat: int) -> list[tuple[str, str | None, int | None]]:
    """The same, read off the seat's own view, the way a client could."""
    return [
        (str(action.tile), action.arm.value if action.arm is not None else None, action.lead_left)
        for action in seat_view(state, seat).legal_actions()
        if isinstance(action, Play)
    ]


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms(use_true_random=False))
def test_every_seat_gets_what_its_own_view_allows(variant: Any, rng: Any) -> None:
    """Through whole hands of every family, for every seat (in turn or not, the hand over or not):
    the plays sent equal those the seat's view allows, so nothing of another seat's hand leaks."""
    for state in playout(variant, rng):
        for seat in range(variant.players):
            sent = _options_sent(legal_plays(state, seat))
            assert sorted(sent, key=str) == sorted(_options_of_the_seat_view(state, seat), key=str)
            assert len(sent) == len(set(sent))
