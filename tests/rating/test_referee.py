"""`amigos rating` agrees with the independent referee on generated match sequences."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings

from tests.rating.cli import run_rating
from tests.rating.referee import referee_rating
from tests.rating.strategies import rating_input


@settings(max_examples=300)
@given(rating_input())
def test_the_command_agrees_with_the_referee(data: dict[str, Any]) -> None:
    status, out, err = run_rating(data)
    assert status == 0, err
    assert json.loads(out) == referee_rating(data)


@settings(max_examples=50)
@given(rating_input(max_players=40, max_matches=150))
def test_long_sequences_among_many_players(data: dict[str, Any]) -> None:
    status, out, err = run_rating(data)
    assert status == 0, err
    assert json.loads(out) == referee_rating(data)
