"""The Amigos family: Latin partnership dominoes, double-six, 4 players with 7 tiles, no boneyard."""

from __future__ import annotations

from .base import Family, Scoring, Variant


def _amigos(name: str, scoring: Scoring, target: int | None) -> Variant:
    return Variant(
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


AMIGOS_100 = _amigos("amigos-100", Scoring.AMIGOS_100, 100)
AMIGOS_200 = _amigos("amigos-200", Scoring.AMIGOS_200, 200)
AMIGOS_HANDS = _amigos("amigos-hands", Scoring.HANDS_WON, None)

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
