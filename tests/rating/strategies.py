"""Hypothesis strategies for amigos-rating/1 inputs: registered players and finished matches."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

TARGETS = {"amigos-100": 100, "amigos-200": 200}


@st.composite
def finished_score(draw: st.DrawFn, variant: str) -> list[int]:
    if variant == "amigos-hands":
        loser = draw(st.integers(0, 12))
        winner = 4 if loser <= 2 else loser + 2
    else:
        target = TARGETS[variant]
        winner = draw(st.integers(target, target + 70))
        loser = draw(st.integers(0, target - 1))
    return [winner, loser] if draw(st.booleans()) else [loser, winner]


@st.composite
def rated_match(draw: st.DrawFn, players: list[str]) -> dict[str, Any]:
    four = draw(st.permutations(players))[:4]
    variant = draw(st.sampled_from(["amigos-100", "amigos-200", "amigos-hands"]))
    match: dict[str, Any] = {"variant": variant, "teams": [four[:2], four[2:]]}
    if draw(st.integers(0, 9)) == 0:
        match["score"] = [draw(st.integers(0, 250)), draw(st.integers(0, 250))]
        match["complete"] = False
    else:
        match["score"] = draw(finished_score(variant))
        if draw(st.booleans()):
            match["complete"] = True
    return match


@st.composite
def rating_input(draw: st.DrawFn, max_players: int = 14, max_matches: int = 40) -> dict[str, Any]:
    count = draw(st.integers(4, max_players))
    players = [f"p{index}" for index in range(count)]
    order = draw(st.permutations(players))
    matches = draw(st.lists(rated_match(players), max_size=max_matches))
    return {"format": "amigos-rating/1", "players": list(order), "matches": matches}
