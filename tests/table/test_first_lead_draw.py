"""Cuban: the first leader of a match is the seat that draws the heaviest set-aside tile, ties
drawing again (cuban-rules, "Shuffling and Drawing"); the live server draws from the first deal's
set-aside tiles with randomness taken from the deal's key, so the revealed key checks it."""

from __future__ import annotations

import random
import uuid

from amigos.engine import Tile, deal_from_key, find_variant
from amigos.engine.variants.cuban import draw_for_lead, lead_draw
from amigos.table import first_lead_draw

KEYS = [str(uuid.UUID(int=(n << 64) | (0x4000 << 48) | (0x8 << 60), version=4)) for n in range(1, 120)]


def check_draw(variant_name: str, key: str) -> tuple[int, int]:
    """Check one draw against the rule; return (leader, number of tiles drawn)."""
    variant = find_variant(variant_name)
    deal = deal_from_key(key, variant)
    drawn = first_lead_draw(variant, deal)
    assert drawn is not None
    set_aside = set(deal.boneyard)
    assert all(tile in set_aside for _, tile in drawn.draws)
    # every seat draws in the first round, in seat order
    players = variant.players
    assert [seat for seat, _ in drawn.draws[:players]] == list(range(players))
    contenders = list(range(players))
    rest = list(drawn.draws)
    while True:
        round_ = rest[: len(contenders)]
        rest = rest[len(contenders) :]
        assert [seat for seat, _ in round_] == contenders
        best = max(tile.pips for _, tile in round_)
        heaviest = [seat for seat, tile in round_ if tile.pips == best]
        if len(heaviest) == 1:
            assert rest == [] and drawn.leader == heaviest[0]
            return drawn.leader, len(drawn.draws)
        contenders = heaviest


def test_the_heaviest_tile_of_the_set_aside_ones_leads_and_ties_draw_again() -> None:
    leaders = set()
    tied = 0
    for name in ("cuban-2v2", "cuban-1v1"):
        assert find_variant(name).draws_for_first_lead
        for key in KEYS:
            leader, count = check_draw(name, key)
            leaders.add((name, leader))
            tied += count > find_variant(name).players
    assert {leader for name, leader in leaders if name == "cuban-2v2"} == {0, 1, 2, 3}
    assert tied > 0  # some of these keys tie in the first round and draw again


def test_the_draw_comes_from_the_key_alone() -> None:
    variant = find_variant("cuban-2v2")
    deal = deal_from_key(KEYS[0], variant)
    again = deal_from_key(KEYS[0].upper(), variant)
    assert first_lead_draw(variant, deal) == first_lead_draw(variant, again)
    others = {first_lead_draw(variant, deal_from_key(key, variant)) for key in KEYS[:20]}
    assert len(others) == 20


class Scripted(random.Random):
    """A generator whose samples are given in advance (the tie case, made certain)."""

    def __init__(self, rounds: list[list[Tile]]) -> None:
        super().__init__(0)
        self.rounds = rounds

    def sample(self, population, k, *, counts=None):  # type: ignore[no-untyped-def, override]
        chosen = self.rounds.pop(0)
        assert len(chosen) == k and all(tile in population for tile in chosen)
        return chosen


def test_tied_seats_alone_draw_again_and_every_tile_is_kept() -> None:
    tiles = [Tile.parse(text) for text in ("6-5", "4-4", "9-2", "1-0", "5-3", "3-2")]
    # 6-5 and 9-2 tie at 11; seats 0 and 2 draw again: 5-3 against 3-2
    rng = Scripted([[tiles[0], tiles[1], tiles[2], tiles[3]], [tiles[4], tiles[5]]])
    drawn = lead_draw(tiles, 4, rng)
    assert drawn.leader == 0
    assert [(seat, str(tile)) for seat, tile in drawn.draws] == [
        (0, "6-5"),
        (1, "4-4"),
        (2, "9-2"),
        (3, "1-0"),
        (0, "5-3"),
        (2, "3-2"),
    ]
    rng = Scripted([[tiles[0], tiles[1], tiles[2], tiles[3]], [tiles[5], tiles[4]]])
    assert draw_for_lead(tiles, 4, rng) == 2


def test_amigos_and_the_draw_games_have_no_draw() -> None:
    for name, players in (("amigos-100", None), ("draw-100", 2), ("all-fives-100", 3)):
        variant = find_variant(name, players)
        assert not variant.draws_for_first_lead
        assert first_lead_draw(variant, deal_from_key(KEYS[0], variant)) is None
