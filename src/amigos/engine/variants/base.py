"""What a variant is, and the questions every variant answers.

A variant is a frozen value (its name, set, seating and target) whose class knows its rules. The
base class answers each question the way most games do; each rule family subclasses it in its own
module and overrides only what differs (python-chess does the same with its board variants). The
match, the hand's scoring, the score sheet, the archive and the live table ask the variant and
never test which family it belongs to, so a new family is written in one module.

Answers that never change within a class are class attributes rather than properties: the hand
reads some of them on every play, and a class attribute costs no call.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..deal import Deal
from ..outcome import HandEnd, HandOutcome, HandResult
from ..tiles import Tile, pips


class Family(enum.Enum):
    """The three rule families played online (Recreo keeps score for the Amigos family).

    A label for records, statistics and menus; rules are asked of the variant, not of this.
    """

    AMIGOS = "amigos"
    CUBAN = "cuban"
    DRAW = "draw"


class Scoring(enum.Enum):
    """How points are counted, at the end of a hand and (fives games) during play."""

    AMIGOS_100 = "amigos-100"
    AMIGOS_200 = "amigos-200"
    HANDS_WON = "hands-won"
    CUBAN = "cuban"
    DRAW = "draw"
    ALL_FIVES = "all-fives"
    ALL_THREES = "all-threes"
    FIVES_AND_THREES = "fives-and-threes"


class UnknownVariant(ValueError):
    """A variant name (or player count) that no rule family knows."""


@dataclass(frozen=True, slots=True)
class LeadDraw:
    """A draw of tiles for the first lead: who leads, and every ``(seat, tile)`` drawn in order
    (ties drawing again after the first round), so the players can be shown it."""

    leader: int
    draws: tuple[tuple[int, Tile], ...]


@dataclass(frozen=True, slots=True)
class Variant:
    """A playable variant, named as in match records (``"amigos-200"``, ``"all-fives-250"``).

    ``target`` is None for juegos ganados, whose end is decided by hands won (at least 4, lead 2).
    Subclasses add no fields (they declare empty ``__slots__``), so every variant compares, hashes
    and pickles as the value it is.
    """

    name: str
    family: Family
    scoring: Scoring
    max_pip: int
    players: int
    hand_size: int
    partnership: bool
    spinner: bool
    draws: bool
    target: int | None

    # -- answers that hold for the whole class ---------------------------------------------------

    #: Whether laying a tile can score (the fives and threes games): the hand asks on every play,
    #: and only then calls :meth:`play_score`.
    scores_during_play: ClassVar[bool] = False
    #: End-of-hand awards are rounded to the nearest multiple of this (1: not rounded), because the
    #: fives and threes games only ever score multiples of their number.
    rounding: ClassVar[int] = 1
    #: Whether the first hand's deal names its leader (the highest double in the draw games), so
    #: that nobody has to draw one before the match starts.
    deal_decides_first_leader: ClassVar[bool] = False
    #: Whether a block with tied pips still has a winner (Cuban gives it to a side chosen before
    #: the hand, see :meth:`tie_winner_for`); elsewhere nobody wins a tied block.
    breaks_tied_blocks: ClassVar[bool] = False
    #: Whether a player dealt enough doubles may ask for a new deal, so that a record may carry a
    #: voided deal (see :meth:`reshuffle_seats`).
    allows_reshuffle: ClassVar[bool] = False
    #: Whether the first leader of a match is drawn from the first deal's set-aside tiles (Cuban):
    #: then :meth:`first_lead_draw` has the draw.
    draws_for_first_lead: ClassVar[bool] = False
    #: Whether a block scores at all: in juegos ganados only a domino wins a hand.
    blocks_score: ClassVar[bool] = True
    #: Whether a match won while the losers had nothing counts as a shutout (zapato, pollona) in
    #: statistics: a points notion, which a count of hands won does not have.
    counts_shutouts: ClassVar[bool] = True
    #: Whether a live table follows the Amigos platform's conduct (its turn clock, yellow and blue
    #: cards, the reconnection window) rather than the plain timed rules of the other games.
    amigos_conduct: ClassVar[bool] = False
    #: Whether the computer's expert level is offered (issue 41): where its deeper search can see
    #: to the end of a hand in time. Cuban's ten-tile hands cannot, so it would only think longer.
    offers_expert: ClassVar[bool] = True

    # -- seating and the set ---------------------------------------------------------------------

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 teams in partnership games, one per player otherwise."""
        return 2 if self.partnership else self.players

    def team_of(self, seat: int) -> int:
        """The scoring side of ``seat``: partners sit opposite (seats 0+2 and 1+3)."""
        return seat % 2 if self.partnership else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that score for ``side``."""
        return tuple(seat for seat in range(self.players) if self.team_of(seat) == side)

    @property
    def set_size(self) -> int:
        """Tiles in the set (28 for double-six, 55 for double-nine)."""
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def boneyard_size(self) -> int:
        """Tiles left after the deal: the draw pile, or Cuban's set-aside tiles."""
        return self.set_size - self.players * self.hand_size

    # -- scoring a hand --------------------------------------------------------------------------

    def play_score(self, open_count: int) -> int:
        """Points for laying a tile that leaves ``open_count`` on the open ends (none here: only
        the games with :attr:`scores_during_play` count during play)."""
        return 0

    def award(self, side_remaining: Sequence[int], winner: int) -> int:
        """What the ``winner`` side scores at the end of a hand, from the pips each side still
        holds: here the pips of every other side, as in Amigos to 100 and Cuban."""
        return sum(side_remaining) - side_remaining[winner]

    def score_hand(
        self,
        hands: Sequence[frozenset[Tile]],
        domino: bool,
        closer: int,
        tie_winner: int | None = None,
        capicua: bool = False,
    ) -> HandOutcome:
        """The outcome of a hand that ended with a domino by ``closer`` (``domino=True``) or a
        block made by ``closer``'s play. One method for every game: the steps of counting are the
        same, and each step that differs (the award, whether a block has a winner) is itself a
        question this variant answers."""
        remaining = tuple(pips(hand) for hand in hands)
        side_remaining = tuple(
            sum(remaining[seat] for seat in self.seats_of(side)) for side in range(self.sides)
        )
        if domino:
            end = HandEnd.DOMINO
            winner: int | None = self.team_of(closer)
        else:
            end, winner = self._block_winner(side_remaining, tie_winner)
        points = 0 if winner is None else self.award(side_remaining, winner)
        if end is not HandEnd.DOMINO and not self.blocks_score:
            winner, points = None, 0
        return HandOutcome(
            end=end,
            winner=winner,
            points=points,
            closer=closer,
            remaining=remaining,
            side_remaining=side_remaining,
            capicua=capicua and domino,
        )

    def _block_winner(
        self, side_remaining: tuple[int, ...], tie_winner: int | None
    ) -> tuple[HandEnd, int | None]:
        """Who wins a block: the side with fewest pips; a tie goes to ``tie_winner`` only where the
        rules break tied blocks, else nobody wins."""
        lowest = min(side_remaining)
        best = [side for side, count in enumerate(side_remaining) if count == lowest]
        if len(best) == 1:
            return HandEnd.BLOCK, best[0]
        if self.breaks_tied_blocks and tie_winner is not None:
            return HandEnd.BLOCK, tie_winner
        return HandEnd.TIED_BLOCK, None

    # -- leads -----------------------------------------------------------------------------------

    def first_lead_draw(self, deal: Deal, rng: random.Random) -> LeadDraw | None:
        """The draw of tiles that picks the first leader, where the rules have one (Cuban); None
        here: Amigos picks a seat at random and the draw games find the leader in the deal."""
        return None

    def pick_first_leader(self, deal: Deal, rng: random.Random) -> int | None:
        """How a simulated match chooses the first leader: a seat drawn at random, as the Amigos
        server does (None when :attr:`deal_decides_first_leader`)."""
        return rng.randrange(self.players)

    def first_leader_of(self, hands: Sequence[Iterable[Tile]]) -> int:
        """The first leader the deal ``hands`` names, in a game where
        :attr:`deal_decides_first_leader`; elsewhere the caller must have chosen one."""
        raise ValueError(f"{self.name}: the first leader was not chosen")

    def next_leader(self, last: HandResult) -> int:
        """Who leads the hand after ``last``: here the lead passes to the next seat, whatever
        happened (a tied block too)."""
        return (last.leader + 1) % self.players

    def tie_winner_for(self, leader: int, last: HandResult | None) -> int | None:
        """The side that wins a tied block in a hand led by ``leader`` after ``last`` (None for
        the first hand); None where nobody does (see :attr:`breaks_tied_blocks`)."""
        return None

    def reshuffle_seats(self, hands: Sequence[Iterable[Tile]]) -> tuple[int, ...]:
        """Seats of the deal ``hands`` that may ask for a new deal (none where
        :attr:`allows_reshuffle` is false)."""
        return ()

    # -- the match -------------------------------------------------------------------------------

    def match_winner(self, score: Sequence[int]) -> int | None:
        """The side that has won a match standing at ``score``, or None while it goes on.

        The one side at or past the target wins; a tie for first (only possible in the draw
        games, where several sides score in one hand) means another hand is played.
        """
        target = self.target
        assert target is not None, f"{self.name} has no points target"
        best = max(score)
        if best < target:
            return None
        leaders = [side for side, total in enumerate(score) if total == best]
        return leaders[0] if len(leaders) == 1 else None

    def official_score(self, score: Sequence[int], winner: int | None) -> tuple[int, ...]:
        """The score written on the sheet and in statistics: here as counted."""
        return tuple(score)

    # -- the score sheet -------------------------------------------------------------------------

    def sheet_cells(self, result: HandResult, hands_won: Sequence[int]) -> tuple[str, ...]:
        """What ``result`` writes on the score sheet, a cell per side ("" for nothing).

        ``hands_won`` counts each side's hands won up to and including this one. Here the award
        is written on the winners' side, and a tied block writes a 0 on the side whose player made
        the blocking play, so the sheet shows that a hand was played.
        """
        cells = [""] * self.sides
        outcome = result.outcome
        if outcome.winner is not None:
            cells[outcome.winner] = str(outcome.points)
        elif outcome.end is HandEnd.TIED_BLOCK and outcome.closer is not None:
            cells[self.team_of(outcome.closer)] = "0"
        return tuple(cells)

    def sheet_mark(self, result: HandResult) -> str:
        """The mark ``result`` writes in the sheet's "Sin tanto" row ("" for none)."""
        return ""

    def shown_totals(self, official_score: Sequence[int], hands_won: Sequence[int]) -> tuple[str, ...]:
        """The totals as the sheet shows them: here the official score."""
        return tuple(str(total) for total in official_score)

    def __str__(self) -> str:
        return self.name
