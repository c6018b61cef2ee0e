"""Cuban: a computer player dealt 5 or more doubles asks for a new deal at once (docs/bots.md, "The
Cuban reshuffle"). The pure table applies the rule when it deals (`flow.deal`, asking
`computer_reshuffle_seat`), exactly as if the seat had sent the request itself; a seat a computer
player only holds for an absent person never asks."""

from __future__ import annotations

from amigos.engine import Deal as Dealt
from amigos.engine import Tile, deal_from_key, find_variant
from amigos.engine.trail import VoidedDeal
from amigos.engine.variants.cuban import reshuffle_seats
from amigos.table import (
    Accept,
    AskReshuffle,
    ComputerTurn,
    Deadline,
    Deal,
    DealNeeded,
    HandStarted,
    HandVoided,
    Phase,
    ReshuffleOffered,
    Start,
    TableState,
    TurnStarted,
    advance,
    computer_asks_reshuffle,
    computer_reshuffle_seat,
    hand_id,
    next_deadline,
    open_table,
)
from amigos.table.record import new_draft, to_record, update

from .helpers import PATIENT, config, find_key, with_seat

#: Seats 1 and 3 are computer players; 0 and 2 people.
PLAYERS = ("ana", None, "caro", None)
COMPUTERS = (1, 3)


def offered(deal: Dealt) -> tuple[int, ...]:
    return reshuffle_seats(deal.hands)


#: A cuban-2v2 deal that offers a new deal to computer seats alone (one or both).
ASKING = find_key("cuban-2v2", lambda deal: bool(offered(deal)) and set(offered(deal)) <= set(COMPUTERS))
#: One that offers nobody a new deal.
PLAIN = find_key("cuban-2v2", lambda deal: not offered(deal))
#: One that offers seat 3 alone a new deal.
SEAT_3 = find_key("cuban-2v2", lambda deal: offered(deal) == (3,))


def dealing(players: tuple[str | None, ...]) -> TableState:
    """A cuban-2v2 table whose match has started, waiting for its first deal."""
    state, _ = open_table(config("cuban-2v2", players, timing=PATIENT), 0.0)
    for seat, player in enumerate(players):
        if player is not None and seat != 0:
            state, _ = advance(state, Accept(seat), 0.0)
    if state.phase is Phase.INVITING:
        state, _ = advance(state, Start(0), 0.0)
    assert state.phase is Phase.DEALING
    return state


def test_the_keys_are_what_the_tests_say() -> None:
    variant = find_variant("cuban-2v2")
    assert set(offered(deal_from_key(ASKING, variant))) <= set(COMPUTERS)
    assert offered(deal_from_key(PLAIN, variant)) == ()
    assert offered(deal_from_key(SEAT_3, variant)) == (3,)


def test_a_computer_player_offered_a_new_deal_asks_for_it_when_the_hand_is_dealt() -> None:
    """The deal is voided (`HandVoided`, its key revealed) and the same hand is needed again
    (`DealNeeded`), before any turn starts; the record keeps the voided deal with the computer's
    seat, and the next deal is the same hand under its next identity."""
    state = dealing(PLAYERS)
    draft = new_draft(state.config, 0.0)
    state, effects = advance(state, Deal(ASKING, 0), 1.0)
    draft = update(draft, state, effects)
    started = next(effect for effect in effects if isinstance(effect, HandStarted))
    asking = min(effect.seat for effect in effects if isinstance(effect, ReshuffleOffered))
    voided = VoidedDeal(asking, ASKING, hand_id(state.config.table_id, 1), started.commitment)
    assert HandVoided(1, voided) in effects and effects[-1] == DealNeeded(1)
    assert not any(isinstance(effect, TurnStarted | ComputerTurn) for effect in effects)
    assert state.phase is Phase.DEALING and state.hand is None and state.redeal == 1
    state, effects = advance(state, Deal(PLAIN, None), 2.0)
    draft = update(draft, state, effects)
    again = next(effect for effect in effects if isinstance(effect, HandStarted))
    assert again.number == 1 and again.leader == started.leader and state.phase is Phase.PLAYING
    (kept,) = to_record(draft).to_obj()["hands"][0]["voided"]
    assert kept["seat"] == asking and kept["key"] == ASKING


def test_the_computers_request_is_the_one_its_seat_would_have_sent_at_once() -> None:
    """The same deal at a table where seat 3 is a person who asks at once: the same effects (but
    the first turn the person's table started before the request) and the same table after."""
    people = ("ana", "beto", "caro", "dani")
    dealt, dealt_effects = advance(dealing(people), Deal(SEAT_3, 0), 1.0)
    assert dealt.hand is not None and dealt.hand.reshuffle == (3,)
    by_person, asked = advance(dealt, AskReshuffle(3), 1.0)
    by_computer, effects = advance(dealing((*people[:3], None)), Deal(SEAT_3, 0), 1.0)
    before_turn = [effect for effect in dealt_effects if isinstance(effect, HandStarted | ReshuffleOffered)]
    # (`Deadline` tells a changed next deadline: the person's table changed it twice, the
    # computer's not at all; both end with the same)
    told = [effect for effect in asked if not isinstance(effect, Deadline)]
    assert [effect for effect in effects if not isinstance(effect, Deadline)] == [*before_turn, *told]
    assert next_deadline(by_computer) == next_deadline(by_person)
    assert by_computer.match is not None and by_person.match is not None
    assert (by_computer.phase, by_computer.hand, by_computer.clock, by_computer.redeal) == (
        by_person.phase,
        by_person.hand,
        by_person.clock,
        by_person.redeal,
    )
    assert by_computer.match.hands == by_person.match.hands == ()


def test_a_seat_a_computer_player_only_holds_never_asks() -> None:
    """Seat 3's player is absent and a computer player holds the seat when the hand is dealt: the
    offer is made (the player may come back and ask) but nobody asks for the player."""
    state = with_seat(dealing(("ana", "beto", "caro", "dani")), 3, away_since=0.5, held_by_computer=True)
    state, effects = advance(state, Deal(SEAT_3, 0), 1.0)
    assert ReshuffleOffered(3) in effects
    assert not any(isinstance(effect, HandVoided | DealNeeded) for effect in effects)
    assert state.phase is Phase.PLAYING and state.hand is not None and state.redeal == 0


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(word) for word in text.split())


def test_the_first_computer_in_seat_order_asks_and_only_before_the_first_move() -> None:
    """`computer_reshuffle_seat`, the one rule both tables ask: a seat offered a new deal, a
    computer player's own (not one it holds), before any move, the first in seat order."""
    doubles = tiles("0-0 1-1 2-2 3-3 4-4 9-8 9-7 9-6 9-5 9-4")
    plain = tiles("9-0 8-1 7-2 6-3 5-4 9-8 9-7 9-6 9-5 9-4")
    hands: list[tuple[Tile, ...]] = [doubles, doubles, plain, doubles]
    assert computer_asks_reshuffle(doubles) and not computer_asks_reshuffle(plain)
    assert computer_reshuffle_seat((0, 1, 3), (1, 3), hands) == 1
    assert computer_reshuffle_seat((3, 1), (1, 3), hands) == 1
    assert computer_reshuffle_seat((0, 3), (1, 3), hands) == 3
    assert computer_reshuffle_seat((0,), (1, 3), hands) is None  # a person's (or held) seat
    assert computer_reshuffle_seat((1, 3), (1, 3), hands, moves=1) is None
    assert computer_reshuffle_seat((2,), (2,), hands) is None  # offered, but not wanting it
    assert computer_reshuffle_seat((), (1, 3), hands) is None
