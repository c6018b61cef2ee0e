"""The legal plays a seat in turn is sent: exactly what its own view of the hand allows."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import HandState, Play, seat_view
from amigos.web.tables.game import legal_plays
from tests.properties.strategies import playout, variants


def _from_the_seat_view(state: HandState, seat: int) -> list[dict[str, Any]]:
    """The grouping worked out from the seat's view alone, the way a client could."""
    grouped: dict[str, dict[str, Any]] = {}
    for action in seat_view(state, seat).legal_actions():
        if not isinstance(action, Play):
            continue
        entry = grouped.setdefault(
            str(action.tile), {"tile": str(action.tile), "arms": [], "lead_left": None}
        )
        if action.arm is not None and action.arm.value not in entry["arms"]:
            entry["arms"].append(action.arm.value)
        if action.lead_left is not None:
            entry["lead_left"] = [*(entry["lead_left"] or []), action.lead_left]
    return list(grouped.values())


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms(use_true_random=False))
def test_every_seat_gets_what_its_own_view_allows(variant: Any, rng: Any) -> None:
    """Through whole hands of every family, for every seat (in turn or not, the hand over or not):
    the plays sent equal those the seat's view allows, so nothing of another seat's hand leaks."""
    for state in playout(variant, rng):
        for seat in range(variant.players):
            assert legal_plays(state, seat) == _from_the_seat_view(state, seat)
