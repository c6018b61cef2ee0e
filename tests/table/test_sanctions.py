"""The card ladder (spec §3.3.3) with every edge the moderation issue names."""

from __future__ import annotations

from amigos.table import CardGiven, CardReason, Colour, Phase, RedCard, Tick
from amigos.table.sanctions import DAY, CardFate, Standing, Suspension, card_fate, give, lift

from .helpers import HUMANS, OPEN, Table, config, playing

T0 = 1_700_000_000.0


CLEAN = Standing()


def yellows(count: int, standing: Standing = CLEAN, at: float = T0) -> tuple[Standing, list[Suspension]]:
    found: list[Suspension] = []
    for index in range(count):
        standing, suspension = give(standing, Colour.YELLOW, at + index)
        if suspension is not None:
            found.append(suspension)
    return standing, found


def test_27_yellows_do_not_suspend_and_the_28th_does_for_a_week() -> None:
    standing, found = yellows(27)
    assert found == []
    assert standing.yellow == 27 and standing.yellow_left() == 1
    assert not standing.is_suspended(T0 + 27)
    standing, suspension = give(standing, Colour.YELLOW, T0 + 100)
    assert suspension == Suspension(Colour.YELLOW, T0 + 100, T0 + 100 + 7 * DAY)
    assert standing.is_suspended(T0 + 100) and standing.is_suspended(T0 + 100 + 7 * DAY - 1)
    assert not standing.is_suspended(T0 + 100 + 7 * DAY)


def test_counters_start_again_after_a_suspension_so_28_more_are_needed() -> None:
    standing, found = yellows(28)
    assert len(found) == 1 and standing.yellow == 0
    later = T0 + 8 * DAY
    standing, found = yellows(27, standing, later)
    assert found == [] and not standing.is_suspended(later + 30)
    standing, found = yellows(1, standing, later + 50)
    assert [suspension.colour for suspension in found] == [Colour.YELLOW]


def test_one_blue_does_not_suspend_two_do_for_two_weeks() -> None:
    standing, suspension = give(Standing(), Colour.BLUE, T0)
    assert suspension is None and standing.blue_left() == 1
    standing, suspension = give(standing, Colour.BLUE, T0 + DAY)
    assert suspension == Suspension(Colour.BLUE, T0 + DAY, T0 + 15 * DAY)


def test_a_blue_card_in_the_same_match_after_the_28th_yellow_counts_towards_the_next() -> None:
    standing = Standing(yellow=27, blue=1)
    standing, week = give(standing, Colour.YELLOW, T0)
    assert week == Suspension(Colour.YELLOW, T0, T0 + 7 * DAY)
    # The blue card that falls later in the same match does not suspend again (counters restarted).
    standing, again = give(standing, Colour.BLUE, T0 + 60)
    assert again is None
    assert standing == Standing(yellow=0, blue=1, suspended_until=T0 + 7 * DAY)


def test_a_second_blue_before_the_28th_yellow_in_one_match_suspends_for_the_blue_cards() -> None:
    standing = Standing(yellow=27, blue=1)
    standing, fortnight = give(standing, Colour.BLUE, T0)
    assert fortnight == Suspension(Colour.BLUE, T0, T0 + 14 * DAY)
    standing, none = give(standing, Colour.YELLOW, T0 + 1)
    assert none is None and standing.yellow == 1


def test_a_red_card_during_a_match_suspends_for_a_month_whatever_the_counters() -> None:
    standing, suspension = give(Standing(yellow=3), Colour.RED, T0)
    assert suspension == Suspension(Colour.RED, T0, T0 + 30 * DAY)
    assert standing == Standing(0, 0, T0 + 30 * DAY)


def test_a_suspension_imposed_during_another_is_served_after_it() -> None:
    standing, week = give(Standing(yellow=27), Colour.YELLOW, T0)
    assert week is not None
    standing, month = give(standing, Colour.RED, T0 + 10)
    assert month == Suspension(Colour.RED, week.ends, week.ends + 30 * DAY)
    assert standing.suspended_until == week.ends + 30 * DAY


def test_an_administrator_lifts_or_shortens_but_never_lengthens() -> None:
    standing, _ = give(Standing(), Colour.RED, T0)
    assert not lift(standing, T0 + 1).is_suspended(T0 + 1)
    shorter = lift(standing, T0 + 1, T0 + DAY)
    assert shorter.suspended_until == T0 + DAY
    assert lift(shorter, T0 + 2, T0 + 90 * DAY).suspended_until == T0 + DAY
    # A served suspension is left alone.
    assert lift(shorter, T0 + 2 * DAY) == shorter


def test_the_28th_yellow_at_a_table_ends_the_match_as_suspended() -> None:
    """How the server wires the ladder to a table: each card through ``give``, then ``Suspend``."""
    from amigos.table import BackToLobby, CardGiven, MatchEnded, Suspend, Termination, Tick

    from .helpers import OPEN, Table, playing

    table = Table(playing(OPEN))
    standing = Standing(yellow=27)
    effects = table.at(20.0, Tick())
    (card,) = [effect for effect in effects if isinstance(effect, CardGiven)]
    standing, suspension = give(standing, card.colour, T0 + card.at)
    assert suspension is not None and suspension.colour is Colour.YELLOW
    effects = table.at(20.0, Suspend(card.seat))
    assert MatchEnded(Termination.SUSPENSION, None, 1, (0, 0)) in effects
    assert BackToLobby((0, 2, 3)) in effects


# -- Which cards are given and which reach the ladder (one rule: `card_fate`) -----------------------

PRACTICE_PLAYERS = ("ana", "beto", None, "dani")


def test_card_fate_gives_a_computer_no_card_and_keeps_practice_off_the_ladder() -> None:
    assert card_fate(HUMANS, 1, CardReason.TIMEOUT) is CardFate.LADDER
    assert card_fate(PRACTICE_PLAYERS, 2, CardReason.TIMEOUT) is CardFate.NOT_GIVEN
    assert card_fate(PRACTICE_PLAYERS, 2, CardReason.ADMINISTRATOR) is CardFate.NOT_GIVEN
    for reason in (CardReason.TIMEOUT, CardReason.EVERY_5S, CardReason.SLOW_SINGLE, CardReason.NO_RETURN):
        assert card_fate(PRACTICE_PLAYERS, 1, reason) is CardFate.PRACTICE
    # An administrator's red card is a judgement on the person: it counts at a practice table too.
    assert card_fate(PRACTICE_PLAYERS, 1, CardReason.ADMINISTRATOR) is CardFate.LADDER


def test_the_pure_table_marks_a_practice_tables_clock_card_as_practice() -> None:
    """Regression: the pure table gave every card as one for the ladder; the server alone knew a
    table with a computer player is practice (issue 38, item 7)."""
    table = Table(playing(OPEN, config("amigos-100", PRACTICE_PLAYERS)))
    effects = table.at(20.0, Tick())
    assert CardGiven(1, Colour.YELLOW, CardReason.TIMEOUT, 20.0, practice=True) in effects
    assert table.state.seats[1].yellow == 1  # shown and counted at the table all the same


def test_a_computers_seat_gets_no_card_and_an_administrators_red_card_is_not_practice() -> None:
    """Regression: the pure table gave a computer player's seat a red card."""
    table = Table(playing(OPEN, config("amigos-100", PRACTICE_PLAYERS)))
    table.at(3.0, RedCard(2))
    assert table.effects(CardGiven) == []
    assert table.state.seats[2].red == 0 and table.state.phase is Phase.PLAYING
    effects = table.at(4.0, RedCard(0))
    assert CardGiven(0, Colour.RED, CardReason.ADMINISTRATOR, 4.0, practice=False) in effects
