"""Views: a seat sees its own tiles and the public story only; replays see everything at the end."""

import json
import random
import unittest

from amigos.engine import (
    DrawEvent,
    HandState,
    PassEvent,
    deal_from_key,
    find_variant,
    replay_view,
    seat_view,
    spectator_view,
)
from amigos.engine.codec import view_json
from amigos.engine.simulate import seeded_key


def played(name: str, players: int | None, seed: int, steps: int) -> HandState:
    rng = random.Random(seed)
    variant = find_variant(name, players)
    deal = deal_from_key(seeded_key(rng), variant)
    state = HandState.start(variant, deal.hands, 0, deal.boneyard, tie_winner=0)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()), state.to_move)
    return state


class SeatViewTests(unittest.TestCase):
    def test_own_tiles_only(self) -> None:
        state = played("amigos-100", None, 1, 6)
        view = seat_view(state, 1)
        self.assertEqual(view.hand, state.hands[1])
        self.assertEqual(view.hand_sizes, tuple(len(hand) for hand in state.hands))
        hidden = state.hands[0] | state.hands[2] | state.hands[3]
        self.assertEqual(view.unseen_tiles(), hidden)
        text = json.dumps(view_json(view))
        for tile in hidden:
            self.assertNotIn(f'"{tile}"', text)

    def test_draws_of_others_are_hidden(self) -> None:
        for seed in range(40):
            state = played("draw-100", 2, seed, 30)
            draws = [event for event in state.history if isinstance(event, DrawEvent)]
            if draws:
                break
        else:
            self.fail("no draw happened in 40 hands")
        seat = draws[0].seat
        mine = [e for e in seat_view(state, seat).history if isinstance(e, DrawEvent)]
        theirs = [e for e in seat_view(state, 1 - seat).history if isinstance(e, DrawEvent)]
        self.assertTrue(all(event.tile is not None for event in mine if event.seat == seat))
        self.assertTrue(all(event.tile is None for event in theirs if event.seat == seat))
        self.assertTrue(
            all(e.tile is None for e in spectator_view(state).history if isinstance(e, DrawEvent))
        )

    def test_legal_actions_match_the_state(self) -> None:
        state = played("cuban-2v2", None, 3, 5)
        view = seat_view(state, state.to_move)
        self.assertEqual(view.legal_actions(), state.legal_actions())
        self.assertEqual(seat_view(state, (state.to_move + 1) % 4).legal_actions(), ())
        self.assertTrue(view_json(view)["legal_actions"])

    def test_spectator_holds_nothing(self) -> None:
        state = played("amigos-200", None, 4, 3)
        view = spectator_view(state)
        self.assertEqual(view.hand, frozenset())
        self.assertIsNone(view.revealed)
        self.assertEqual(view.legal_actions(), ())

    def test_replay_view_only_after_the_end(self) -> None:
        state = played("amigos-200", None, 5, 3)
        with self.assertRaises(ValueError):
            replay_view(state)
        state = played("amigos-200", None, 5, 200)
        view = replay_view(state)
        self.assertEqual(view.revealed, state.hands)
        self.assertIsNotNone(view_json(view)["outcome"])

    def test_void_suits_from_passes(self) -> None:
        for seed in range(60):
            state = played("amigos-100", None, seed, 200)
            passes = [e for e in state.history if isinstance(e, PassEvent)]
            if passes:
                break
        view = seat_view(state, 0)
        first = passes[0]
        self.assertTrue(set(first.ends) <= view.void_suits()[first.seat])


class DeterminizeTests(unittest.TestCase):
    def test_rebuilds_an_equivalent_state(self) -> None:
        for name, players in (("amigos-100", None), ("draw-100", 3), ("cuban-2v2", None)):
            state = played(name, players, 7, 5)
            view = seat_view(state, state.to_move)
            others = {seat: state.hands[seat] for seat in range(state.variant.players) if seat != view.seat}
            world = view.determinize(others, state.boneyard)
            self.assertEqual(world.hands, state.hands)
            self.assertEqual(world.line, state.line)
            self.assertEqual(world.to_move, state.to_move)
            self.assertEqual(world.legal_actions(), state.legal_actions())
            action = state.legal_actions()[0]
            self.assertEqual(world.apply(action, world.to_move).line, state.apply(action, state.to_move).line)

    def test_other_consistent_worlds(self) -> None:
        state = played("amigos-100", None, 8, 4)
        view = seat_view(state, state.to_move)
        unseen = sorted(view.unseen_tiles())
        random.Random(0).shuffle(unseen)
        others, start = {}, 0
        for seat in range(4):
            if seat == view.seat:
                continue
            others[seat] = unseen[start : start + view.hand_sizes[seat]]
            start += view.hand_sizes[seat]
        world = view.determinize(others, [])
        self.assertEqual(world.hands[state.to_move], state.hands[state.to_move])
        self.assertEqual(world.history, view.history)

    def test_refuses_wrong_sizes_or_tiles(self) -> None:
        state = played("amigos-100", None, 9, 4)
        view = seat_view(state, state.to_move)
        others = {seat: list(state.hands[seat]) for seat in range(4) if seat != view.seat}
        seat = next(iter(others))
        with self.assertRaises(ValueError):
            view.determinize({**others, seat: others[seat][1:]}, [])
        with self.assertRaises(ValueError):
            view.determinize({**others, seat: [*others[seat][1:], next(iter(view.hand))]}, [])
        with self.assertRaises(ValueError):
            view.determinize({s: others[s] for s in list(others)[1:]}, [])


if __name__ == "__main__":
    unittest.main()
