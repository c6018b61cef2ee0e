"""The hand-by-hand score sheet: running score, end of match, leader rotation, closing a match."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.recreo.errors import Refusal
from amigos.recreo.scoring import MatchEnd, Target, score_match
from amigos.recreo.sheet import (
    HandEnd,
    HandEntry,
    SheetError,
    add_hand,
    close_normally,
    forfeit,
    hands_display,
    leader_of_hand,
    sheet_state,
    suspend,
    turn_order,
)

T100, T200, HANDS = Target.POINTS_100, Target.POINTS_200, Target.HANDS_WON


def domino(side: str, points: int = 0) -> HandEntry:
    return HandEntry(HandEnd.DOMINO, side, points)


def test_points_accumulate_until_the_target() -> None:
    hands = [domino("a", 40), HandEntry(HandEnd.BLOCK, "b", 30), HandEntry(HandEnd.TIED_BLOCK, "a")]
    state = sheet_state(T100, hands)
    assert (state.score, state.over, state.winner) == ((40, 30), False, None)
    state = add_hand(T100, hands, domino("a", 65))
    assert (state.score, state.over, state.winner) == ((105, 30), True, "a")
    with pytest.raises(SheetError, match="already over"):
        add_hand(T100, [*hands, domino("a", 65)], domino("b", 10))
    assert close_normally(T100, [*hands, domino("a", 65)]).score == (105, 30)


def test_two_hundred_needs_two_hundred() -> None:
    assert not sheet_state(T200, [domino("b", 150)]).over
    assert sheet_state(T200, [domino("b", 150), domino("b", 50)]).winner == "b"


def test_hands_target_counts_only_dominoes() -> None:
    hands = [domino("a"), domino("a"), HandEntry(HandEnd.BLOCK, "a", 12), domino("b"), domino("a")]
    assert sheet_state(HANDS, hands).score == (3, 1)
    assert sheet_state(HANDS, [*hands, domino("a")]).winner == "a"  # 4-1
    level = [domino("a"), domino("b")] * 4
    assert not sheet_state(HANDS, level).over  # 4-4
    assert not sheet_state(HANDS, [*level, domino("a")]).over  # 5-4: a lead of one is not enough
    assert sheet_state(HANDS, [*level, domino("a"), domino("a")]).winner == "a"


def test_hands_are_called_twenty_forty_sixty_then_advantage() -> None:
    assert [hands_display((n, 0))[0] for n in range(4)] == ["0", "20", "40", "60"]
    assert hands_display((4, 3)) == ("Ventaja", "60")
    assert hands_display((3, 4)) == ("60", "Ventaja")
    assert hands_display((4, 4)) == ("60", "60")


def test_a_finished_juegos_ganados_match_reads_juego_for_the_winners() -> None:
    """Regression: a 4-2 win was shown "ventaja-60"; the winners' count is "Juego" and the losers
    keep what they had (2 hands: 40), exactly as the engine's own sheet writes it."""
    assert hands_display((4, 2)) == ("Juego", "40")
    assert hands_display((1, 4)) == ("20", "Juego")
    assert hands_display((6, 4)) == ("Juego", "60")


def test_recreo_and_the_engine_share_one_hand_end_vocabulary() -> None:
    from amigos.engine import outcome

    assert HandEnd is outcome.HandEnd
    assert HandEnd.TIED_BLOCK.value == "tied-block"


def test_a_tied_block_is_zero_and_never_points() -> None:
    with pytest.raises(SheetError, match="written as 0"):
        HandEntry(HandEnd.TIED_BLOCK, "a", 5)
    with pytest.raises(SheetError, match="worth 1 to 168") as refused:
        domino("a", -1)
    assert refused.value.code is Refusal.HAND_POINTS
    with pytest.raises(SheetError, match="side must be"):
        domino("c", 1)


def test_turn_order_and_the_rotating_lead() -> None:
    order = turn_order((1, 2), (3, 4), leader=3, right_of_leader=2)
    assert order == (3, 2, 4, 1)
    # Every hand, a tied block included, passes the lead one seat to the right.
    assert [leader_of_hand(order, i) for i in range(6)] == [3, 2, 4, 1, 3, 2]
    with pytest.raises(SheetError, match="never the partner"):
        turn_order((1, 2), (3, 4), leader=1, right_of_leader=2)
    with pytest.raises(SheetError, match="sit at this table"):
        turn_order((1, 2), (3, 4), leader=5, right_of_leader=2)


def test_the_leader_at_his_own_right_is_told_so() -> None:
    """Regression: choosing the leader as his own right-hand player said "never the partner"."""
    with pytest.raises(SheetError) as refused:
        turn_order((1, 2), (3, 4), leader=3, right_of_leader=3)
    assert refused.value.code is Refusal.RIGHT_IS_LEADER
    with pytest.raises(SheetError) as refused:
        turn_order((1, 2), (3, 4), leader=3, right_of_leader=4)
    assert refused.value.code is Refusal.RIGHT_IS_PARTNER


@pytest.mark.parametrize("target", [T100, T200])
def test_a_hand_is_worth_one_to_168_tantos(target: Target) -> None:
    """Regression: a dominada of 999 tantos was accepted and ended the match 999-0. No hand can
    be worth more than the whole double-six set (168 pips), and a domino or a block always leaves
    the losers holding at least one pip."""
    assert sheet_state(target, [domino("a", 168)]).score == (168, 0)
    for points in (0, 169, 999, 2**31):
        with pytest.raises(SheetError) as refused:
            add_hand(target, [], domino("a", points)) if points <= 168 else domino("a", points)
        assert refused.value.code is Refusal.HAND_POINTS


def test_suspension_and_default() -> None:
    hands = [domino("a", 40), domino("b", 25)]
    closing = suspend(T100, hands)
    assert (closing.score, closing.end) == ((40, 25), MatchEnd.SUSPENDED)
    with pytest.raises(SheetError, match="tied"):
        suspend(T100, [domino("a", 20), domino("b", 20)])
    with pytest.raises(SheetError, match="not reached"):
        close_normally(T100, hands)
    closing = forfeit(T100, hands, "a")
    assert (closing.score, closing.end, closing.offender) == ((40, 25), MatchEnd.DEFAULT, "a")
    finished = [*hands, domino("a", 70)]
    with pytest.raises(SheetError, match="already over"):
        suspend(T100, finished)
    with pytest.raises(SheetError, match="nothing to forfeit"):
        forfeit(T100, finished, "b")
    with pytest.raises(SheetError, match="offender"):
        forfeit(T100, hands, "x")


hand_entries = st.one_of(
    st.builds(
        HandEntry, st.sampled_from([HandEnd.DOMINO, HandEnd.BLOCK]), st.sampled_from("ab"), st.integers(1, 60)
    ),
    st.builds(HandEntry, st.just(HandEnd.TIED_BLOCK), st.sampled_from("ab")),
)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([T100, T200, HANDS]), st.lists(hand_entries, max_size=40))
def test_every_sheet_closes_into_a_result_the_event_file_accepts(
    target: Target, entries: list[HandEntry]
) -> None:
    """Feed hands until the match ends; whatever way the sheet closes, scoring accepts the result."""
    played: list[HandEntry] = []
    for hand in entries:
        if sheet_state(target, played).over:
            break
        add_hand(target, played, hand)
        played.append(hand)
    state = sheet_state(target, played)
    if state.over:
        closing = close_normally(target, played)
        assert score_match(target, closing.score, closing.end).winner == state.winner
    else:
        outcome = score_match(target, *_as_args(forfeit(target, played, "b")))
        assert outcome.winner == "a"
        if state.score[0] != state.score[1]:
            closing = suspend(target, played)
            assert score_match(target, closing.score, closing.end).winner == (
                "a" if state.score[0] > state.score[1] else "b"
            )


def _as_args(closing: object) -> tuple[tuple[int, int], MatchEnd, str | None]:
    score, end, offender = closing.score, closing.end, closing.offender  # type: ignore[attr-defined]
    return score, end, offender
