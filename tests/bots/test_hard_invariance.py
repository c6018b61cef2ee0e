"""A bot cannot tell apart two deals that its seat cannot tell apart.

Two worlds are built that differ only in hidden tiles: the tiles of the other seats and of the
boneyard are exchanged between hidden places wherever the seat's view allows it (a tile never
goes to a seat known to lack one of its suits, and every size stays), so the public history, the
seat's own tiles and every pass are the same. The bots then choose through the real runner
(``amigos.bots.runner.play_hand``), which holds each full state and builds the view itself.

Nothing here compares two views first: if the runner, ``seat_view`` or a bot let a hidden tile
through, the choice in the two worlds would follow the hidden tiles and differ. The last test shows
that this comparison does catch a bot that peeks at the hidden hands.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from amigos.bots.base import Bot
from amigos.bots.easy import EasyBot
from amigos.bots.hard import HardBot, HardSettings
from amigos.bots.normal import NormalBot
from amigos.bots.runner import play_hand
from amigos.engine import Action, HandState, Tile
from amigos.engine.view import SeatView, seat_view
from tests.bots.helpers import VARIANTS, random_position

QUICK_HARD = HardSettings(
    # every world exact or shallow, as before the horizon became the default (its path has its own
    # settings or tests)
    exact_tiles=34,
    horizon_depth=0,
    lead_nodes=8_000,
    early_nodes=6_000,
    late_nodes=4_000,
    max_worlds=5,
    min_worlds=1,
    shallow_worlds=3,
    shallow_nodes=2_000,
    exact_nodes=500,
    spinner_worlds=3,
    group_worlds=3,
    group_depth=4,
    group_nodes=12_000,
)
#: The same with the options that change which worlds count and which plays are searched.
QUICK_HARD_FOLLOW = dataclasses.replace(QUICK_HARD, play_model="follow", early_actions=2)
#: The pips model weighing the solved worlds (Cuban's default) instead of the rules and the pool.
QUICK_HARD_PIPS = dataclasses.replace(QUICK_HARD, play_model="pips", world_pool=0)
#: Worlds searched a few tiles deep to a horizon (Cuban's default path) instead of to the end.
QUICK_HARD_HORIZON = dataclasses.replace(QUICK_HARD, exact_tiles=12, horizon_depth=6, shallow_worlds=0)


def exchanged(state: HandState, view: SeatView, swaps: list[tuple[int, int]]) -> HandState:
    """Another world the seat cannot tell apart: hidden tiles swapped between hidden places."""
    seat = view.seat
    assert seat is not None
    voids = view.void_suits()
    places: dict[int, list[Tile]] = {s: sorted(state.hands[s]) for s in range(len(state.hands)) if s != seat}
    places[-1] = list(state.boneyard)
    keys = sorted(places)

    def fits(tile: Tile, place: int) -> bool:
        void = voids.get(place, frozenset())
        return tile.high not in void and tile.low not in void

    for first, second in swaps:
        p, q = keys[first % len(keys)], keys[second % len(keys)]
        if p == q or not places[p] or not places[q]:
            continue
        i, j = first % len(places[p]), second % len(places[q])
        x, y = places[p][i], places[q][j]
        if fits(x, q) and fits(y, p):
            places[p][i], places[q][j] = y, x
    others = {s: tiles for s, tiles in places.items() if s != -1}
    return view.determinize(others, places[-1])


class _Stop(Exception):
    """Raised by the recorder once the seat under test has chosen: the rest of the hand is moot."""


class FirstChoice:
    """Wraps a bot for one seat: records the first action it chooses, then stops the hand."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.choice: Action | None = None

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        self.choice = self.bot.choose(view, rng)
        raise _Stop


def first_choice_through_the_runner(state: HandState, bot: Bot, rng: random.Random) -> Action:
    """What ``bot`` plays for the seat to move, asked by the runner exactly as in a real hand."""
    recorder = FirstChoice(bot)
    seats: list[Bot] = [EasyBot() for _ in range(state.variant.players)]
    seats[state.to_move] = recorder
    rngs = [random.Random() for _ in seats]
    rngs[state.to_move] = rng
    with contextlib.suppress(_Stop):
        play_hand(state, seats, rngs)
    assert recorder.choice is not None, "the seat to move was never asked"
    return recorder.choice


worlds = st.tuples(
    st.sampled_from(VARIANTS),
    st.randoms(),
    st.integers(0, 14),  # 0: the hand's first lead, searched too
    st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), min_size=1, max_size=30),
)


def two_worlds(
    case: tuple[str, int | None], play: random.Random, steps: int, swaps: list[tuple[int, int]]
) -> tuple[HandState, HandState]:
    """A position with a real choice, and another world its seat cannot tell apart from it."""
    state = random_position(*case, play, steps=steps)
    assume(len(state.legal_actions()) >= 2)
    other = exchanged(state, seat_view(state, state.to_move), swaps)
    assume(other.hands != state.hands or other.boneyard != state.boneyard)
    return state, other


@settings(max_examples=30, deadline=None)
@given(worlds, st.randoms(use_true_random=True))
def test_the_bots_choose_the_same_in_worlds_their_seat_cannot_tell_apart(
    world: tuple[tuple[str, int | None], random.Random, int, list[tuple[int, int]]], rng: random.Random
) -> None:
    state, other = two_worlds(*world)
    bots = (QUICK_HARD, QUICK_HARD_FOLLOW, QUICK_HARD_PIPS, QUICK_HARD_HORIZON)
    for bot in (*(HardBot(quick) for quick in bots), NormalBot()):
        # Each world gets a generator in the same state: only the hidden tiles differ.
        here = first_choice_through_the_runner(state, bot, copy.copy(rng))
        there = first_choice_through_the_runner(other, bot, copy.copy(rng))
        assert here == there, f"{bot.name} follows hidden tiles: {here} vs {there}"


class Peeker:
    """A cheat: chooses by the hidden hand of the next seat, which it was handed behind the view."""

    name = "peeker"

    def __init__(self, hidden: frozenset[Tile]) -> None:
        self.hidden = hidden

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        actions = view.legal_actions()
        return actions[sum(t.high * 7 + t.low for t in self.hidden) % len(actions)]


def test_the_comparison_catches_a_bot_that_peeks() -> None:
    """Guard for the property above: the worlds differ enough that a peeking bot is caught."""
    caught = tried = 0
    for n in range(40):
        case = VARIANTS[n % len(VARIANTS)]
        state = random_position(*case, random.Random(n), steps=3)
        if len(state.legal_actions()) < 2:
            continue
        other = exchanged(state, seat_view(state, state.to_move), [(i, i * 7 + 3) for i in range(20)])
        if other.hands == state.hands and other.boneyard == state.boneyard:
            continue
        following = (state.to_move + 1) % state.variant.players
        tried += 1
        here = first_choice_through_the_runner(state, Peeker(state.hands[following]), random.Random())
        there = first_choice_through_the_runner(other, Peeker(other.hands[following]), random.Random())
        caught += here != there
    assert tried >= 20 and caught >= tried // 3, (caught, tried)
