"""A match (partida): hands until a side reaches the target.

The match keeps the hands and asks its variant every rule question: who leads the next hand and
who wins a tied block in it, when the match is won and how its score is written. Each family's
answers, and why, are in its module of ``amigos.engine.variants`` (``amigos``, ``cuban``,
``draw_fives``).

Turn order is always "seat i+1 plays after seat i". Amigos and Cuban call that counter-clockwise
("to the right") and the draw games clockwise; which way the table turns is only a matter of how
the seats are drawn on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .deal import Deal
from .outcome import HandResult, Termination
from .scoresheet import ScoreSheet, build_sheet
from .state import HandState
from .variants import Variant


@dataclass(frozen=True, slots=True)
class Match:
    """An immutable match. ``Match.new`` starts one; ``finish_hand`` returns the next Match.

    ``stopped`` is set by :meth:`stop` when the match ends unfinished (abandonment, suspension),
    with the ``offender`` seat; a match that reaches its target needs neither.
    """

    variant: Variant
    players: tuple[str, ...]
    first_leader: int | None
    hands: tuple[HandResult, ...] = ()
    stopped: Termination | None = None
    offender: int | None = None

    @classmethod
    def new(cls, variant: Variant, players: Sequence[str], first_leader: int | None = None) -> Match:
        """A match with no hand played. ``first_leader`` may be None in the draw games, where the
        first deal decides it (elsewhere it must then be given to :meth:`start_hand`)."""
        if len(players) != variant.players:
            raise ValueError(f"{variant.name} needs {variant.players} players, not {len(players)}")
        if first_leader is not None and not 0 <= first_leader < variant.players:
            raise ValueError(f"the first leader must be a seat from 0 to {variant.players - 1}")
        return cls(variant=variant, players=tuple(players), first_leader=first_leader)

    # -- scores ----------------------------------------------------------------------------------

    @property
    def score(self) -> tuple[int, ...]:
        """Running totals per side as counted (not capped at the target). In juegos ganados:
        hands won."""
        totals = [0] * self.variant.sides
        for result in self.hands:
            for side, points in enumerate(result.points):
                totals[side] += points
        return tuple(totals)

    @property
    def winner(self) -> int | None:
        """The side that won the match, or None while it goes on (and when it stopped unfinished)."""
        if self.stopped is not None:
            return None
        return self.variant.match_winner(self.score)

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.stopped is not None

    @property
    def termination(self) -> Termination | None:
        """How the match ended (None while it goes on): its target, or why it stopped."""
        if self.stopped is not None:
            return self.stopped
        return Termination.TARGET if self.winner is not None else None

    def stop(self, termination: Termination, offender: int | None = None) -> Match:
        """The match ended unfinished (``ABANDONMENT`` or ``SUSPENSION``) by ``offender``'s doing.

        The hands played so far stay as they were; a stopped match has no winner.
        """
        if self.is_over:
            raise ValueError("the match is over")
        if termination is Termination.TARGET:
            raise ValueError("a match reaches its target by playing hands, not by being stopped")
        if offender is not None and not 0 <= offender < self.variant.players:
            raise ValueError(f"the offender must be a seat from 0 to {self.variant.players - 1}")
        return replace(self, stopped=termination, offender=offender)

    @property
    def official_score(self) -> tuple[int, ...]:
        """The score written on the sheet and in statistics (:meth:`Variant.official_score`: in
        Amigos to 100 or 200 the winners at exactly the target)."""
        return self.variant.official_score(self.score, self.winner)

    @property
    def shutout(self) -> bool:
        """Zapato / pollona: the match was won while every other side still had 0."""
        winner = self.winner
        return winner is not None and all(
            total == 0 for side, total in enumerate(self.score) if side != winner
        )

    # -- leads -----------------------------------------------------------------------------------

    @property
    def next_leader(self) -> int | None:
        """Who leads the next hand (None before the first hand of a draw game: the deal decides)."""
        if not self.hands:
            return self.first_leader
        return self.variant.next_leader(self.hands[-1])

    def leader_for(self, deal: Deal) -> int:
        """The leader of the hand dealt as ``deal``."""
        leader = self.next_leader
        if leader is not None:
            return leader
        return self.variant.first_leader_of(deal.hands)

    def tie_winner_for(self, leader: int) -> int | None:
        """The side that wins a tied block in the next hand, led by ``leader`` (Cuban; None
        where a tied block has no winner)."""
        return self.variant.tie_winner_for(leader, self.hands[-1] if self.hands else None)

    def reshuffle_offer(self, deal: Deal) -> tuple[int, ...]:
        """Seats that may ask for a new deal (Cuban: 5 or more doubles). Empty elsewhere."""
        return self.variant.reshuffle_seats(deal.hands)

    # -- playing ---------------------------------------------------------------------------------

    def start_hand(self, deal: Deal, leader: int | None = None) -> HandState:
        """The first state of the next hand. ``leader`` overrides the lead rules (a record's
        leader is the source of truth when replaying)."""
        if self.is_over:
            raise ValueError("the match is over")
        chosen = self.leader_for(deal) if leader is None else leader
        return HandState.start(
            self.variant, deal.hands, chosen, deal.boneyard, tie_winner=self.tie_winner_for(chosen)
        )

    def finish_hand(self, final_state: HandState) -> Match:
        """The match after ``final_state``'s hand (which must be over)."""
        if self.is_over:
            raise ValueError("the match is over")
        if final_state.variant != self.variant:
            raise ValueError(f"a hand of {final_state.variant.name} in a match of {self.variant.name}")
        outcome = final_state.outcome
        if outcome is None:
            raise ValueError("the hand is not over")
        result = HandResult(leader=final_state.leader, outcome=outcome, play_points=final_state.play_points)
        return Match(
            variant=self.variant,
            players=self.players,
            first_leader=self.first_leader if self.first_leader is not None else final_state.leader,
            hands=(*self.hands, result),
        )

    def sheet(self) -> ScoreSheet:
        """The score sheet (plantilla de anotación) of the match so far."""
        return build_sheet(self.variant, self.players, self.hands, self.official_score, self.winner)
