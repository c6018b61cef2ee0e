"""Every bot plays only legal actions, in every variant, and sees only a seat's view."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.bots.base import Bot
from amigos.bots.easy import EasyBot
from amigos.bots.hard import HardBot, HardSettings
from amigos.bots.normal import NormalBot
from amigos.bots.registry import UnknownBot, bot_names, find_bot
from amigos.bots.runner import play_hand
from amigos.engine import Action, DrawEvent, Tile, find_variant
from amigos.engine.view import SeatView
from tests.bots.helpers import VARIANTS, deal

# A hard bot with small budgets: the same code paths as the default, a fraction of the time.
QUICK_HARD = HardSettings(
    # every world exact or shallow, as before the horizon became the default (its path has its own
    # settings or tests)
    exact_tiles=34,
    horizon_depth=0,
    lead_nodes=6_000,
    early_nodes=4_000,
    late_nodes=2_000,
    max_worlds=4,
    min_worlds=1,
    shallow_worlds=2,
    shallow_nodes=1_500,
    exact_nodes=300,
    spinner_worlds=2,
    group_worlds=2,
    group_depth=4,
)


class Checked:
    """Wraps a bot: checks that it is given a SeatView and answers with one of its legal actions."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        assert type(view) is SeatView
        action = self.inner.choose(view, rng)
        assert action in view.legal_actions()
        self.calls += 1
        return action


def _bots() -> list[Bot]:
    return [EasyBot(), NormalBot(), HardBot(QUICK_HARD)]


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.randoms(),
    st.permutations(range(3)),
    # The bots' own generators: a bot may draw thousands of numbers per decision (the hard bot's
    # sampled worlds), more than hypothesis's choice sequence holds, so these are true randoms
    # (hypothesis still seeds, records and replays them); the deal above is what shrinks.
    st.lists(st.randoms(use_true_random=True), min_size=4, max_size=4),
)
def test_every_bot_plays_only_legal_actions(
    variant_case: tuple[str, int | None], dealing: random.Random, order: list[int], rngs: list[random.Random]
) -> None:
    variant = find_variant(*variant_case)
    bots = _bots()
    seats = [Checked(bots[order[seat % 3]]) for seat in range(variant.players)]
    run = play_hand(deal(variant, dealing), seats, rngs[: variant.players])
    assert run.state.is_over
    assert sum(seat.calls for seat in seats) == len(run.decisions)


@pytest.mark.parametrize("case", VARIANTS)
def test_a_full_hand_of_default_hard_bots_finishes(case: tuple[str, int | None]) -> None:
    variant = find_variant(*case)
    seats = [Checked(HardBot()) for _ in range(variant.players)]
    run = play_hand(
        deal(variant, random.Random(7)), seats, [random.Random(s) for s in range(variant.players)]
    )
    assert run.state.is_over


def _tiles_in(value: object) -> set[Tile]:
    """Every Tile reachable from a value (dataclasses, tuples, sets, dicts)."""
    if isinstance(value, Tile):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found: set[Tile] = set()
        for f in dataclasses.fields(value):
            found |= _tiles_in(getattr(value, f.name))
        return found
    if isinstance(value, (tuple, list, set, frozenset)):
        found = set()
        for item in value:
            found |= _tiles_in(item)
        return found
    if isinstance(value, dict):
        return _tiles_in(list(value.keys())) | _tiles_in(list(value.values()))
    return set()


class Spy:
    """Records everything a bot is handed."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[tuple[type, tuple[object, ...]]] = []
        self.views: list[SeatView] = []

    def choose(self, view: SeatView, rng: random.Random, *extra: object) -> Action:
        self.seen.append((type(view), extra))
        self.views.append(view)
        return view.legal_actions()[rng.randrange(len(view.legal_actions()))]


@pytest.mark.parametrize("case", VARIANTS)
def test_bots_get_only_a_seat_view_without_hidden_tiles(case: tuple[str, int | None]) -> None:
    variant = find_variant(*case)
    state = deal(variant, random.Random(11))
    spies = [Spy() for _ in range(variant.players)]
    run = play_hand(state, spies, [random.Random(s) for s in range(variant.players)])
    for seat, spy in enumerate(spies):
        for kind, extra in spy.seen:
            assert kind is SeatView and extra == ()
        for view in spy.views:
            assert view.seat == seat
            own_draws = {e.tile for e in view.history if isinstance(e, DrawEvent) and e.tile is not None}
            visible = set(view.hand) | set(view.line.tiles) | own_draws
            # Whatever the view holds, no tile of another seat's hand or of the boneyard is in it
            # unless it is public (on the table) or this seat's own.
            assert _tiles_in(view) <= visible
            assert all(e.tile is None for e in view.history if isinstance(e, DrawEvent) and e.seat != seat)
    assert run.state.is_over


def test_the_registry_finds_every_level_and_refuses_unknown_names() -> None:
    assert {"easy", "normal", "hard", "expert"} <= set(bot_names())
    for name in ("easy", "normal", "hard", "expert"):
        assert find_bot(name).name == name
    with pytest.raises(UnknownBot):
        find_bot("grandmaster")


def test_bots_refuse_a_view_with_no_legal_action() -> None:
    variant = find_variant("amigos-100")
    state = deal(variant, random.Random(3))
    from amigos.engine.view import seat_view

    idle = seat_view(state, (state.to_move + 1) % 4)
    for bot in _bots():
        with pytest.raises(ValueError):
            bot.choose(idle, random.Random(0))
