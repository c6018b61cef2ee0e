"""Cuban: a player dealt 5 or more doubles may ask for a new deal (cuban-rules, "Reshuffling")."""

from __future__ import annotations

import json

import pytest

from amigos.engine import (
    RecordError,
    deal_from_key,
    find_variant,
    parse_record,
    replay_record,
    verify_commitment,
)
from amigos.engine.trail import VoidedDeal
from amigos.engine.variants.cuban import reshuffle_seats
from amigos.table import (
    Accept,
    AskReshuffle,
    Deal,
    DealInPlay,
    DealNeeded,
    Disconnected,
    HandStarted,
    HandVoided,
    Move,
    Phase,
    ReshuffleOffered,
    Start,
    TableError,
    Tick,
    advance,
    flow,
    hand_id,
    must_pass,
    needs_first_leader,
    open_table,
    void_deal,
)
from amigos.table.record import new_draft, to_record, update

from .helpers import PATIENT, config

#: Seat 3 holds 5 or more doubles in this cuban-2v2 deal; nobody does in the second.
OFFERING = "00000048-0000-4000-8000-000000000000"
PLAIN = "00000001-0000-4000-8000-000000000000"


def test_the_keys_are_what_the_tests_say() -> None:
    variant = find_variant("cuban-2v2")
    assert reshuffle_seats(deal_from_key(OFFERING, variant).hands) == (3,)
    assert reshuffle_seats(deal_from_key(PLAIN, variant).hands) == ()


class Cuban:
    def __init__(self) -> None:
        self.state, _ = open_table(config("cuban-2v2", timing=PATIENT), 0.0)
        self.draft = new_draft(self.state.config, 0.0)
        self.effects: list[object] = []
        for seat in (1, 2, 3):
            self.at(0.0, Accept(seat))
        self.at(0.0, Start(0))

    def at(self, now: float, sent: object) -> list[object]:
        self.state, effects = advance(self.state, sent, now)  # type: ignore[arg-type]
        self.draft = update(self.draft, self.state, effects)
        self.effects.extend(effects)
        return list(effects)


def test_the_offer_goes_to_the_seat_and_a_request_voids_the_deal() -> None:
    table = Cuban()
    effects = table.at(2.0, Deal(OFFERING, 0))
    assert ReshuffleOffered(3) in effects
    started = next(effect for effect in effects if isinstance(effect, HandStarted))
    for seat in (0, 1, 2):
        with pytest.raises(TableError) as caught:
            table.at(3.0, AskReshuffle(seat))
        assert caught.value.code == "no_reshuffle"
    effects = table.at(3.0, AskReshuffle(3))
    voided = effects[0]
    assert isinstance(voided, HandVoided) and voided.key == OFFERING and voided.seat == 3
    assert verify_commitment(voided.key, voided.hand_id, started.commitment)
    assert DealNeeded(1) in effects and table.state.phase is Phase.DEALING
    # The same hand is dealt again under a new identity, so no identity ever has two keys.
    effects = table.at(4.0, Deal(PLAIN, None))
    again = next(effect for effect in effects if isinstance(effect, HandStarted))
    assert again.number == 1 and again.leader == started.leader
    assert verify_commitment(PLAIN, hand_id(table.state.config.table_id, 1, 1), again.commitment)
    assert voided.hand_id != hand_id(table.state.config.table_id, 1, 1)


def test_no_reshuffle_once_play_began() -> None:
    table = Cuban()
    table.at(2.0, Deal(OFFERING, 3))
    hand = table.state.hand
    assert hand is not None
    table.at(3.0, Move(3, hand.state.legal_actions()[0]))
    with pytest.raises(TableError) as caught:
        table.at(4.0, AskReshuffle(3))
    assert caught.value.code == "no_reshuffle"


def test_the_record_keeps_the_voided_deal_and_replay_checks_it() -> None:
    table = Cuban()
    table.at(2.0, Deal(OFFERING, 0))
    table.at(3.0, AskReshuffle(3))
    table.at(4.0, Deal(PLAIN, None))
    obj = json.loads(json.dumps(to_record(table.draft).to_obj()))
    (voided,) = obj["hands"][0]["voided"]
    assert voided["key"] == OFFERING and voided["seat"] == 3
    report = replay_record(parse_record(obj))
    assert report.deals_verified == 1
    voided["seat"] = 0  # seat 0 held too few doubles to ask
    with pytest.raises(RecordError) as caught:
        replay_record(parse_record(obj))
    assert "not dealt enough doubles" in caught.value.reason


def test_a_seat_a_computer_player_holds_does_not_ask() -> None:
    """docs/rules.md: an absent player (or one whose seat a computer player holds) does not ask."""
    table = Cuban()
    table.at(2.0, Deal(OFFERING, 0))
    table.at(2.0, Disconnected(3))
    with pytest.raises(TableError) as caught:
        table.at(3.0, AskReshuffle(3))
    assert caught.value.code == "table_paused"
    table.at(122.0, Tick())
    assert table.state.seats[3].held_by_computer
    hand = table.state.hand
    assert hand is not None and hand.moves == ()
    with pytest.raises(TableError) as caught:
        table.at(122.0, AskReshuffle(3))
    assert caught.value.code == "held_by_computer"


def test_which_matches_need_a_first_leader_and_which_turns_pass_at_once() -> None:
    assert needs_first_leader(find_variant("cuban-2v2")) and needs_first_leader(find_variant("amigos-100"))
    assert not needs_first_leader(find_variant("draw-100", 2))
    table = Cuban()
    table.at(2.0, Deal(OFFERING, 0))
    hand = table.state.hand
    assert hand is not None and not must_pass(hand.state)


def test_void_deal_judges_the_request_and_describes_the_voided_deal() -> None:
    """One rule voids a deal, for both tables (`hand.void_deal`): no hand in play, a seat not
    offered a new deal and a hand already begun are refused alike (``no_reshuffle``); otherwise
    the voided deal is the hand's own key, identity and commitment, with the seat that asked."""
    deal = DealInPlay(OFFERING, "t1:hand:1", "proof", offered=(3,), moves=0)
    assert void_deal(deal, 3) == VoidedDeal(3, OFFERING, "t1:hand:1", "proof")
    for refused, seat in ((None, 3), (deal, 0), (deal._replace(moves=1), 3)):
        with pytest.raises(TableError) as caught:
            void_deal(refused, seat)
        assert caught.value.code == "no_reshuffle"


def test_the_pure_table_voids_the_deal_through_void_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure table's reshuffle asks `void_deal` (the server's `Game.reshuffle` does too): what
    it returns is what the table tells and the record keeps."""
    told = VoidedDeal(3, OFFERING, "as:void_deal:said", "its-commitment")
    asked: list[tuple[object, int]] = []

    def deciding(deal: object, seat: int) -> VoidedDeal:
        asked.append((deal, seat))
        return told

    monkeypatch.setattr(flow, "void_deal", deciding)
    table = Cuban()
    table.at(2.0, Deal(OFFERING, 0))
    effects = table.at(3.0, AskReshuffle(3))
    hand_voided = next(effect for effect in effects if isinstance(effect, HandVoided))
    assert hand_voided.voided is told and asked[0][1] == 3
    assert table.draft.voided == (told,)
