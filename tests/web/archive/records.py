"""Match records for the archive's tests, played by the engine's simulator (fixed seeds: these are
examples, not property tests)."""

from __future__ import annotations

import random
from typing import Any

from amigos.engine import find_variant
from amigos.engine.record import Record
from amigos.engine.simulate import simulate_match


def record_obj(
    variant: str = "amigos-100", seed: int | random.Random = 1, hands: int | None = None, players: int = 4
) -> dict[str, Any]:
    """A simulated match; property tests pass hypothesis' generator (``st.randoms()``) as ``seed``
    so a failure shrinks to a simpler match instead of an opaque number."""
    record: Record = simulate_match(find_variant(variant, players), seed, max_hands=hands)
    return record.to_obj()


def live_record_obj(variant: str = "amigos-100") -> dict[str, Any]:
    """A whole match played at a live table (``amigos.table``), with every live-table field of
    docs/record-format.md: deal keys and commitments, move times, system moves, termination."""
    from amigos.table import Accept, Deal, Move, Phase, Start, TableConfig, Timing, advance, open_table
    from amigos.table.record import new_draft, to_record, update

    config = TableConfig(
        "table:7:match:1",
        find_variant(variant),
        ("a", "b", "c", "d"),
        # No pause between hands: each hand is dealt as soon as the last ends.
        timing=Timing(heartbeat_timeout=1e9, hand_pause=0.0),
    )
    state, _ = open_table(config, 1_000.0)
    draft = new_draft(config, 1_000.0)
    now = 1_000.0
    events: list[Any] = [Accept(1), Accept(2), Accept(3), Start(0)]
    keys = (f"{index:08x}-0000-4000-8000-000000000000" for index in range(1, 1_000))
    while state.phase is not Phase.VOTING:
        if events:
            event = events.pop(0)
        elif state.phase is Phase.DEALING:
            event = Deal(next(keys), 0)
        else:
            assert state.hand is not None
            event = Move(state.hand.state.to_move, state.hand.state.legal_actions()[0])
        now += 1.0
        state, effects = advance(state, event, now)
        draft = update(draft, state, effects)
    return to_record(draft).to_obj()
