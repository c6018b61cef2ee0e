"""`amigos.table.apply_move`: a seat's move in the hand in play, the one rule both the pure table
(`flow.move`) and the server's `Game.act` ask. Its refusals come in one order, it agrees with the
engine on every action (a property), and it decides the hand's end, the match after it, the match's
end by its target and the tiles drawn in the draw games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import (
    Action,
    Arm,
    DrawEvent,
    HandState,
    IllegalAction,
    Match,
    Pass,
    Play,
    Variant,
    deal_from_key,
    find_variant,
    tile_set,
    verify_commitment,
)
from amigos.table import Move, TableError
from amigos.table.hand import HAND_REFUSALS, AppliedMove, apply_move, deal_hand

from .helpers import Table, playing

#: Deal keys written out (the tests play the same deals every run).
KEYS = tuple(f"6f1c2a3b-4d5e-4f60-8a7b-{number:012x}" for number in range(1, 400))


def first_hand(name: str, players: int | None = None, key: str = KEYS[0]) -> tuple[Match, HandState]:
    variant = find_variant(name, players)
    match = Match.new(variant, [f"p{seat}" for seat in range(variant.players)], 0)
    return match, match.start_hand(deal_from_key(key, variant))


def refusal(hand: HandState | None, match: Match | None, seat: int, action: Action) -> str:
    with pytest.raises(TableError) as caught:
        apply_move(hand, match, seat, action)
    return caught.value.code


def play_out(match: Match, hand: HandState) -> list[AppliedMove]:
    """The hand played to its end, every seat laying its first legal action."""
    moves = []
    while True:
        moved = apply_move(hand, match, hand.to_move, hand.legal_actions()[0])
        moves.append(moved)
        if moved.hand_over:
            return moves
        hand = moved.after


def test_the_refusals_come_in_one_order() -> None:
    """No hand in play before anything else, then the turn, then the rules; the engine's reason
    is kept with ``illegal_play``."""
    match, hand = first_hand("amigos-100")
    seat = hand.to_move
    other = (seat + 1) % 4
    foreign = next(tile for tile in tile_set(6) if tile not in hand.hands[seat])
    wrong = Play(foreign, None)
    assert refusal(None, None, other, wrong) == "not_playing"
    assert refusal(None, match, seat, hand.legal_actions()[0]) == "not_playing"
    assert refusal(hand, match, other, wrong) == "not_your_turn"
    assert refusal(hand, match, other, hand.legal_actions()[0]) == "not_your_turn"
    with pytest.raises(TableError) as caught:
        apply_move(hand, match, seat, wrong)
    assert caught.value.code == "illegal_play"
    assert caught.value.detail == f"{foreign} is not in your hand"
    assert refusal(hand, match, seat, Pass()) == "illegal_play"  # a tile fits: no pass
    ended = play_out(match, hand)[-1]
    assert refusal(ended.after, ended.match, ended.after.to_move, Pass()) == "not_playing"
    assert refusal(ended.after, ended.match, (ended.after.to_move + 1) % 4, wrong) == "not_playing"
    assert HAND_REFUSALS == ("not_playing", "not_your_turn", "illegal_play")


def test_a_move_that_ends_the_hand_gives_the_match_with_the_hand_added() -> None:
    match, hand = first_hand("amigos-100")
    moves = play_out(match, hand)
    for moved in moves[:-1]:
        assert not moved.hand_over and not moved.match_over and moved.winner is None
        assert moved.match is match  # the same match while the hand goes on: nothing is copied
    last = moves[-1]
    assert last.hand_over and last.after.outcome is not None
    assert last.match == match.finish_hand(last.after)
    assert len(last.match.hands) == 1 and not last.match_over and last.winner is None
    assert last.notation == last.before.move_notation(last.action)


@pytest.mark.parametrize(("name", "players"), [("amigos-100", None), ("amigos-hands", None), ("draw-100", 3)])
def test_the_hand_that_reaches_the_target_ends_the_match_with_its_winner(
    name: str, players: int | None
) -> None:
    variant = find_variant(name, players)
    match = Match.new(variant, [f"p{seat}" for seat in range(variant.players)], 0)
    ends = []
    for key in KEYS:
        moved = play_out(match, match.start_hand(deal_from_key(key, variant)))[-1]
        match = moved.match
        ends.append((moved.match_over, moved.winner))
        if moved.match_over:
            break
    assert match.is_over and match.winner is not None
    assert ends[-1] == (True, match.winner)
    assert all(end == (False, None) for end in ends[:-1])
    # And the match, over, takes no hand after it: nobody asks a finished match for one.
    with pytest.raises(ValueError):
        match.start_hand(deal_from_key(KEYS[-1], variant))


def test_the_tiles_drawn_for_the_next_seat_come_with_the_move() -> None:
    """In a draw game the seat the turn passes to draws until a tile fits: those draws are the
    move's, in order, and the boneyard is smaller by as many."""
    seen = 0
    for key in KEYS[:40]:
        match, hand = first_hand("draw-100", 4, key)
        for moved in play_out(match, hand):
            drawn = moved.drawn
            after_move = moved.after.history[len(moved.before.history) + 1 :]
            assert drawn == tuple(event for event in after_move if isinstance(event, DrawEvent))
            assert len(moved.before.boneyard) - len(moved.after.boneyard) == len(drawn)
            if drawn:
                seen += 1
                assert {event.seat for event in drawn} == {(moved.seat + 1) % 4}
                assert all(event.tile in moved.after.hands[event.seat] for event in drawn)
    assert seen > 0
    match, hand = first_hand("amigos-100")
    assert all(not moved.drawn for moved in play_out(match, hand))


def test_the_pure_table_refuses_a_move_as_the_hand_does() -> None:
    """`flow.move` asks `apply_move`: the same codes as the server's `Game.act` (web tests)."""
    _, hand = first_hand("amigos-100")
    table = Table(playing(hand))
    seat = hand.to_move
    foreign = next(tile for tile in tile_set(6) if tile not in hand.hands[seat])
    for sent, code in (
        (Move((seat + 1) % 4, Play(foreign, None)), "not_your_turn"),
        (Move(seat, Play(foreign, None)), "illegal_play"),
        (Move(seat, Pass()), "illegal_play"),
    ):
        before = table.state
        with pytest.raises(TableError) as caught:
            table.at(1.0, sent)
        assert caught.value.code == code and table.state is before


FAMILIES = [
    ("amigos-100", None),
    ("cuban-1v1", None),
    ("draw-100", 2),
    ("all-fives-100", 3),
    ("amigos-hands", None),
]


def any_action(data: st.DataObject, variant: Variant, hand: HandState) -> tuple[int, Action]:
    """Mostly a legal action of the seat to move, else anything a client might send: any seat,
    any tile of the set, any arm, a pass."""
    if hand.outcome is None and data.draw(st.booleans(), label="legal"):
        return hand.to_move, data.draw(st.sampled_from(hand.legal_actions()), label="action")
    seat = data.draw(st.integers(0, variant.players - 1), label="seat")
    if data.draw(st.booleans(), label="pass"):
        return seat, Pass()
    tile = data.draw(st.sampled_from(tile_set(variant.max_pip)), label="tile")
    arm = data.draw(st.none() | st.sampled_from(list(Arm)), label="arm")
    lead_left = data.draw(st.none() | st.sampled_from((tile.high, tile.low)), label="lead_left")
    return seat, Play(tile, arm, lead_left)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), family=st.sampled_from(FAMILIES), key=st.uuids(version=4))
def test_apply_move_agrees_with_the_engine_on_any_action(
    data: st.DataObject, family: tuple[str, int | None], key: object
) -> None:
    """Refused exactly when the engine refuses (with the first code that applies), else the
    engine's own next state; the match gains the hand exactly when the hand ends."""
    variant = find_variant(*family)
    match = Match.new(variant, [f"p{seat}" for seat in range(variant.players)], 0)
    hand = match.start_hand(deal_from_key(str(key), variant))
    for _ in range(data.draw(st.integers(1, 80), label="steps")):
        seat, action = any_action(data, variant, hand)
        try:
            expected: HandState | None = hand.apply(action, seat)
            reason = ""
        except IllegalAction as error:
            expected, reason = None, error.reason
        try:
            moved = apply_move(hand, match, seat, action)
        except TableError as error:
            assert expected is None, f"{action} by {seat} refused ({error.code}), the engine takes it"
            if hand.outcome is not None:
                assert error.code == "not_playing"
            elif seat != hand.to_move:
                assert error.code == "not_your_turn"
            else:
                assert (error.code, error.detail) == ("illegal_play", reason)
            continue
        assert expected is not None, f"{action} by {seat}: the engine refuses it ({reason})"
        assert moved.after == expected and moved.before is hand
        assert moved.hand_over is (expected.outcome is not None)
        if moved.hand_over:
            assert moved.match == match.finish_hand(expected)
            assert moved.match_over is moved.match.is_over
            assert moved.winner == moved.match.winner
        else:
            assert moved.match is match and moved.winner is None
        hand, match = moved.after, moved.match
        if moved.hand_over:
            if match.is_over:
                return
            hand = match.start_hand(deal_from_key(str(key), variant))


def test_a_hand_is_dealt_from_its_key_under_the_tables_name_for_it() -> None:
    """`deal_hand`: the next number, the deal the key gives (whatever its case), the leader by the
    match's rules, the key committed under the name the table gives that number."""
    match, _ = first_hand("amigos-100")
    moved = play_out(match, match.start_hand(deal_from_key(KEYS[1], match.variant)))[-1]
    match = moved.match
    names: list[int] = []

    def identity(number: int) -> str:
        names.append(number)
        return f"t9:hand:{number}:deal:3"

    dealt = deal_hand(match, KEYS[2].upper(), identity)
    assert names == [2] and dealt.number == 2 and dealt.hand_id == "t9:hand:2:deal:3"
    assert dealt.key == KEYS[2] and dealt.deal == deal_from_key(KEYS[2], match.variant)
    assert dealt.state == match.start_hand(dealt.deal)
    assert dealt.state.leader == match.next_leader  # the seat after the last hand's leader
    assert verify_commitment(KEYS[2], dealt.hand_id, dealt.commitment)
    assert dealt.offer == ()
    with pytest.raises(TableError) as caught:
        deal_hand(match, "not-a-key", identity)
    assert caught.value.code == "bad_key"


def test_a_cuban_deal_offers_a_new_deal_to_the_seats_dealt_five_doubles() -> None:
    variant = find_variant("cuban-2v2")
    match = Match.new(variant, ["a", "b", "c", "d"], 0)
    offers = [deal_hand(match, key, str).offer for key in KEYS[:200]]
    assert any(offers)  # the keys deal some
    for key, offer in zip(KEYS, offers, strict=False):
        hands = deal_from_key(key, variant).hands
        assert offer == tuple(seat for seat, hand in enumerate(hands) if sum(t.is_double for t in hand) >= 5)
