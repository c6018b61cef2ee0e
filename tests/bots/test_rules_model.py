"""The hard level's model of its opponents scores their past plays exactly as the normal level
scored them, and draws its worlds in proportion to their weights."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.academy.compact import tile_set_for
from amigos.bots.hard import HardBot, HardSettings
from amigos.bots.knowledge import infer, sample_world, shown_suits
from amigos.bots.likelihood import FollowModel, past_choices, systematic_resample
from amigos.bots.normal import NormalBot
from amigos.bots.weights import Weights, suit_bonus
from amigos.engine import Action, Arm, HandState, Line, Play, Tile, find_variant, seat_view
from tests.bots.helpers import deal

#: The normal level without its blocking term, which the model leaves out.
NO_BLOCK = Weights(block=0.0)


class Moment:
    """A play by a seat other than seat 0: what it held, the line it faced, the normal level's
    score of every play it could make there, and the play it made."""

    def __init__(self, state: HandState, scores: dict[Action, float], play: Play) -> None:
        self.hand = state.hands[state.to_move]
        self.line = state.line
        self.scores = scores
        self.play = play


def play_normal_hand(state: HandState, rng: random.Random) -> tuple[HandState, list[Moment]]:
    """The hand played to its end by the normal level (without its blocking term), with every play
    of seats 1 and up as it was made."""
    bot = NormalBot(NO_BLOCK)
    moments: list[Moment] = []
    while not state.is_over:
        seat = state.to_move
        view = seat_view(state, seat)
        action = bot.choose(view, rng)
        if isinstance(action, Play) and seat != 0:
            moments.append(Moment(state, bot.scores(view), action))
        state = state.apply(action, seat)
    return state, moments


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["amigos-100", "cuban-2v2", "cuban-1v1"]), st.randoms(use_true_random=False))
def test_the_model_scores_every_play_a_seat_could_make_as_the_normal_level_did(
    name: str, rng: random.Random
) -> None:
    """For every past play of another seat, and every play that seat could have made instead, the
    model's score (from the tiles the seat held then, the ends that play leaves and the public
    `suit_bonus`) equals the normal level's score at that moment: the partner's suits and voids
    and the opponents' voids are read as they stood then, not as they stand at the end."""
    variant = find_variant(name, None)
    final, moments = play_normal_hand(deal(variant, rng), rng)
    model = FollowModel(past_choices(seat_view(final, 0), NO_BLOCK), variant.max_pip, weights=NO_BLOCK)
    tiles = tile_set_for(variant.max_pip)
    assert len(model.choices) == len(moments)
    for choice, moment in zip(model.choices, moments, strict=True):
        assert choice.laid == tiles.tile_index(moment.play.tile.high, moment.play.tile.low)
        held = tiles.mask_of(moment.hand)
        for play, score in moment.scores.items():
            assert isinstance(play, Play)
            index = tiles.tile_index(play.tile.high, play.tile.low)
            showing = 0
            for end in moment.line.lay(play).open_ends():
                showing |= 1 << end
            ours = model._score(index, held ^ (1 << index), showing, choice.bonus)
            assert math.isclose(ours, score), (play, ours, score)


@given(
    st.lists(st.floats(min_value=-30.0, max_value=0.0), min_size=1, max_size=60),
    st.integers(min_value=1, max_value=80),
    st.randoms(use_true_random=False),
)
def test_resampling_draws_each_world_its_share_of_times(
    log_weights: list[float], count: int, rng: random.Random
) -> None:
    """Systematic resampling: ``count`` draws, each index drawn the floor or the ceiling of its
    expected number (``count`` times its share of the weight), in order."""
    drawn = systematic_resample(log_weights, count, rng)
    assert len(drawn) == count and drawn == sorted(drawn)
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    total = sum(weights)
    times = Counter(drawn)
    for index, weight in enumerate(weights):
        expected = count * weight / total
        assert math.floor(expected - 1e-9) <= times[index] <= math.ceil(expected + 1e-9), (index, expected)


def test_a_hard_decision_solves_worlds_drawn_from_its_pool() -> None:
    """With plays seen, the hard level samples ``world_pool`` worlds and solves ``max_worlds``
    drawn from them by their weights; a world drawn twice is solved once."""
    variant = find_variant("amigos-100", None)
    state = deal(variant, random.Random(3))
    while len(state.line.placements) < 6 or len(state.legal_actions()) < 2:
        state = state.apply(state.legal_actions()[0], state.to_move)
    view = seat_view(state, state.to_move)
    knowledge = infer(view)
    quick = HardSettings(max_worlds=6, world_pool=50)
    weigh = HardBot._weigher(past_choices(view), variant, view.seat or 0, quick)
    drawn = list(HardBot._drawn_worlds(knowledge, random.Random(1), quick, weigh))
    assert len(drawn) == 6 and all(weight == 0.0 for weight, _ in drawn)
    again = random.Random(1)
    pool = [sample_world(knowledge, again) for _ in range(50)]
    assert all(world in pool for _, world in drawn)
    # without a pool each sampled world is weighed and solved
    plain = list(
        HardBot._drawn_worlds(knowledge, random.Random(1), HardSettings(max_worlds=6, world_pool=0), weigh)
    )
    assert [world for _, world in plain] == pool[:6]
    assert [weight for weight, _ in plain] == [weigh(world) for world in pool[:6]]


def test_an_ends_worth_by_the_table_follows_the_normal_levels_rules() -> None:
    """`suit_bonus` (the normal level's and the model's one source): for seat 1 of four, a suit its
    partner (seat 3) showed and does not lack is worth +2, one the partner lacks -3 (even if shown),
    one the next seat (seat 2, an opponent) lacks +3, one the other opponent (seat 0) lacks +1.5."""
    variant = find_variant("amigos-100", None)
    voids = {3: {6}, 2: {5}, 0: {2}}
    shown = {3: {4, 6}, 2: {1}, 0: {0}}
    bonus = suit_bonus(variant, 1, voids, shown, Weights())
    assert bonus == (0.0, 0.0, 1.5, 0.0, 2.0, 3.0, -3.0)
    # between two, the other seat is the next one: only its voids count
    duo = find_variant("cuban-1v1", None)
    assert suit_bonus(duo, 0, {1: {3}}, {1: {4}}, Weights()) == tuple(
        3.0 if s == 3 else 0.0 for s in range(10)
    )


def test_a_lead_shows_both_halves_and_a_later_play_its_outer_half() -> None:
    line = Line.empty(False).lay(Play(Tile.of(6, 4)))
    assert set(shown_suits(Play(Tile.of(6, 4)), line)) == {6, 4}
    laid = line.lay(Play(Tile.of(4, 1), Arm.DOWN))
    assert shown_suits(Play(Tile.of(4, 1), Arm.DOWN), laid) == (1,)
