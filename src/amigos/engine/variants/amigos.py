"""The Amigos family: Latin partnership dominoes, double-six, 4 players with 7 tiles, no boneyard.

Three targets share the play: 100 points (the winners score the losers' pips), 200 points (the
winners score every pip left) and juegos ganados (hands won by domino, shown 20, 40, 60, Ventaja).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..outcome import HandResult
from .base import Family, Scoring, Variant

#: The mark written in the "Sin tanto" row for a block in juegos ganados.
NO_SCORE_MARK = "C"


class AmigosVariant(Variant):
    """What every Amigos game shares: the lead passes to the next seat every hand, whatever
    happened (a tied block too); the first leader is chosen by the caller (at random online, by
    the highest tile in Recreo); live tables follow the Amigos platform's conduct."""

    __slots__ = ()

    amigos_conduct = True


class AmigosPointsVariant(AmigosVariant):
    """Amigos to 100: the winners score the losers' pips, and the sheet writes the winners with
    exactly the target, however far past it the last hand took them."""

    __slots__ = ()

    def official_score(self, score: Sequence[int], winner: int | None) -> tuple[int, ...]:
        """The winners at exactly the target, the losers with what they had (the Amigos sheet)."""
        target = self.target
        if winner is None or target is None:
            return tuple(score)
        return tuple(target if side == winner else total for side, total in enumerate(score))


class Amigos200Variant(AmigosPointsVariant):
    """Amigos to 200: the winners of a hand also count the pips they still hold."""

    __slots__ = ()

    def award(self, side_remaining: Sequence[int], winner: int) -> int:
        """Every pip left on the table, the winners' own included."""
        return sum(side_remaining)


class HandsWonVariant(AmigosVariant):
    """Juegos ganados: a hand won by domino counts one; a block counts for nobody; the match goes
    to the first team with at least four hands and a lead of two (see :func:`hands_won_over`)."""

    __slots__ = ()

    blocks_score = False
    counts_shutouts = False

    def award(self, side_remaining: Sequence[int], winner: int) -> int:
        """One hand won, whatever the pips."""
        return 1

    def match_winner(self, score: Sequence[int]) -> int | None:
        """The team with four hands or more and two ahead (the score counts hands won)."""
        return hands_won_over(tuple(score))

    def sheet_cells(self, result: HandResult, hands_won: Sequence[int]) -> tuple[str, ...]:
        """The winners' new count as the sheet spells it (20, 40, 60, Ventaja, Juego)."""
        cells = [""] * self.sides
        winner = result.outcome.winner
        if winner is not None:
            cells[winner] = hands_won_labels((hands_won[0], hands_won[1]))[winner]
        return tuple(cells)

    def sheet_mark(self, result: HandResult) -> str:
        """A "C" for a hand that ended without a winner (a block)."""
        return NO_SCORE_MARK if result.outcome.winner is None else ""

    def shown_totals(self, official_score: Sequence[int], hands_won: Sequence[int]) -> tuple[str, ...]:
        """The hands won as the sheet spells them, not as numbers."""
        return hands_won_labels((hands_won[0], hands_won[1]))


def _amigos(cls: type[AmigosVariant], name: str, scoring: Scoring, target: int | None) -> Variant:
    return cls(
        name=name,
        family=Family.AMIGOS,
        scoring=scoring,
        max_pip=6,
        players=4,
        hand_size=7,
        partnership=True,
        spinner=False,
        draws=False,
        target=target,
    )


AMIGOS_100 = _amigos(AmigosPointsVariant, "amigos-100", Scoring.AMIGOS_100, 100)
AMIGOS_200 = _amigos(Amigos200Variant, "amigos-200", Scoring.AMIGOS_200, 200)
AMIGOS_HANDS = _amigos(HandsWonVariant, "amigos-hands", Scoring.HANDS_WON, None)

AMIGOS_VARIANTS: tuple[Variant, ...] = (AMIGOS_100, AMIGOS_200, AMIGOS_HANDS)

#: Juegos ganados: a team needs at least this many hands won...
HANDS_TO_WIN = 4
#: ...and this lead over the other team.
HANDS_LEAD = 2


def hands_won_over(won: tuple[int, ...]) -> int | None:
    """The team that has won a juegos-ganados match with these hands won, or None."""
    for team, count in enumerate(won):
        other = won[1 - team]
        if count >= HANDS_TO_WIN and count - other >= HANDS_LEAD:
            return team
    return None


def hands_won_labels(won: tuple[int, ...]) -> tuple[str, str]:
    """The score-sheet display of hands won: 0, 20, 40, 60, then Ventaja, like tennis.

    Up to three hands each, a team shows 20 per hand. From 60-60 a team one hand ahead shows
    "Ventaja"; back level shows 60-60 again; the winner of the match shows "Juego".
    """
    a, b = won
    winner = hands_won_over(won)
    labels: list[str] = []
    for team, (mine, theirs) in enumerate(((a, b), (b, a))):
        if winner is not None:
            labels.append("Juego" if winner == team else _vigesimal(min(mine, 3)))
        elif mine >= 3 and theirs >= 3:
            labels.append("Ventaja" if mine > theirs else "60")
        else:
            labels.append(_vigesimal(mine))
    return labels[0], labels[1]


def _vigesimal(count: int) -> str:
    return str(20 * count)
