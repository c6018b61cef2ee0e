"""`own_fields`: what the archive stores of a record taken from outside (issue 36, item 7)."""

from __future__ import annotations

from typing import Any

from amigos.engine import find_variant
from amigos.engine.simulate import simulate_match
from amigos.engine.trail import CARD_FIELDS, HAND_FIELDS, MATCH_FIELDS, VOIDED_FIELDS, own_fields


def test_every_field_of_the_format_and_of_live_tables_is_kept_and_nothing_else() -> None:
    plain = simulate_match(find_variant("amigos-100"), 3, max_hands=2).to_obj()
    card = {name: 0 for name in CARD_FIELDS}
    voided = {name: "v" for name in VOIDED_FIELDS}
    live: dict[str, Any] = {**plain, **{name: "m" for name in MATCH_FIELDS}, "cards": [card]}
    live["hands"] = [
        {**hand, **{name: "h" for name in HAND_FIELDS}, "voided": [voided]} for hand in plain["hands"]
    ]
    assert own_fields(live) == live
    junk: dict[str, Any] = {**live, "junk": 1, "cards": [{**card, "junk": 2}, "not a card"]}
    junk["hands"] = [{**hand, "junk": 3, "voided": [{**voided, "junk": 4}]} for hand in live["hands"]] + [7]
    expected = {**live, "cards": [card, "not a card"], "hands": [*live["hands"], 7]}
    assert own_fields(junk) == expected


def test_a_plain_record_is_unchanged() -> None:
    plain = simulate_match(find_variant("draw-100", 3), 5, max_hands=1).to_obj()
    assert own_fields(plain) == plain
