"""One hand, move by move: drawing, laying, passing, and how the hand ends.

The referee checks every written move against the rule texts and raises MoveRefused with a reason
when the move is not allowed. Draws are never written: they happen here as soon as a seat is to
move and holds nothing that fits while the boneyard still has tiles.
"""

from __future__ import annotations

import re
from typing import Any

from .lines import ChainLine, SpinnerLine
from .rules import AWARD_ROUNDING, PLAY_SCORE_MULTIPLES, Rules, Tile, norm, parse_tile, pip_sum

_TWO_ENDED_MOVE = re.compile(r"([^@]+)(?:@([0-9]))?")
_SPINNER_MOVE = re.compile(r"([^@]+)(?:@(left|right|up|down))?")


class MoveRefused(ValueError):
    """The move breaks a rule; the message says which."""


class HandPlay:
    """A hand being replayed. Attributes are plain data so tests and the generator can look inside."""

    def __init__(
        self,
        rules: Rules,
        deal: list[list[Tile]],
        pile: list[Tile],
        leader: int,
        tie_side: int | None = None,
    ) -> None:
        self.rules = rules
        self.holdings: list[set[Tile]] = [set(tiles) for tiles in deal]
        self.pile = list(pile)  # draw order; in Cuban the set-aside tiles, never drawn
        self.turn = leader
        self.tie_side = tie_side
        self.line: ChainLine | SpinnerLine = SpinnerLine() if rules.spinner else ChainLine()
        self.play_points = [0] * rules.sides
        self.laid = 0
        # None while the hand runs; then {"end", "winner", "points", "closer", "raw_award"}.
        self.result: dict[str, Any] | None = None
        self.facts: set[str] = set()

    # ----- what the seat to move may do -------------------------------------------------------
    def fits(self, tile: Tile) -> bool:
        if self.laid == 0:
            return True
        return bool(self.line.targets(tile))

    def can_lay(self, seat: int) -> bool:
        return any(self.fits(tile) for tile in self.holdings[seat])

    def options(self) -> list[tuple[tuple[int, int], str | int | None]]:
        """Every distinct legal lay for the seat to move: (tile as laid, end value or arm or None)."""
        result: list[tuple[tuple[int, int], str | int | None]] = []
        for tile in sorted(self.holdings[self.turn]):
            if self.laid == 0:
                result.append((tile, None))
                if self.rules.spinner and tile[0] != tile[1]:
                    result.append(((tile[1], tile[0]), None))
                continue
            for target in self.line.targets(tile):
                result.append((tile, target))
        return result

    # ----- applying a written move ------------------------------------------------------------
    def play_text(self, text: str) -> None:
        if self.result is not None:
            raise MoveRefused("the hand is already over")
        if text == "pass":
            self._pass()
        else:
            self._lay_text(text)

    def _pass(self) -> None:
        if self.laid == 0:
            raise MoveRefused("the leader cannot pass: any tile may lead")
        if self.can_lay(self.turn):
            raise MoveRefused("pass refused: the player holds a tile that fits")
        self._next_turn()

    def _lay_text(self, text: str) -> None:
        pattern = _SPINNER_MOVE if self.rules.spinner else _TWO_ENDED_MOVE
        match = pattern.fullmatch(text)
        if match is None:
            raise MoveRefused(f"cannot read the move {text!r}")
        halves = parse_tile(match.group(1), self.rules.max_pip)
        if halves is None:
            raise MoveRefused(f"{match.group(1)!r} is not a tile of this set")
        tile = norm(*halves)
        if tile not in self.holdings[self.turn]:
            raise MoveRefused(f"{text}: the tile is not in the player's hand")
        where = match.group(2)
        if self.laid == 0:
            if where is not None:
                raise MoveRefused("the lead is not laid on an end")
            if isinstance(self.line, SpinnerLine):
                self.line.lay_lead(*halves)
                if halves[0] == halves[1]:
                    self.facts.add("spinner-lead")
            else:
                self.line.lay(tile, None)
        elif isinstance(self.line, ChainLine):
            self._lay_on_chain(self.line, tile, where)
        else:
            self._lay_on_arm(self.line, tile, where)
        self.holdings[self.turn].discard(tile)
        self.laid += 1
        self._score_during_play()
        if not self.holdings[self.turn]:
            self._finish("domino", self.turn)
            return
        self._next_turn()

    def _lay_on_chain(self, line: ChainLine, tile: Tile, where: str | None) -> None:
        targets = line.targets(tile)
        if not targets:
            raise MoveRefused(f"{tile} fits neither open end {line.ends()}")
        if where is None:
            if len(targets) > 1:
                raise MoveRefused(f"{tile} fits both ends {targets}: the end (@v) is required")
            line.lay(tile, targets[0])
            return
        value = int(where)
        if value not in targets:
            raise MoveRefused(f"{tile} cannot be laid on an open end showing {value}")
        line.lay(tile, value)

    def _lay_on_arm(self, line: SpinnerLine, tile: Tile, where: str | None) -> None:
        targets = line.targets(tile)
        if not targets:
            raise MoveRefused(f"{tile} fits no open arm {line.open_arms()}")
        if where is None:
            if len(targets) > 1:
                raise MoveRefused(f"{tile} fits the arms {targets}: the arm is required")
            where = targets[0]
        if where not in targets:
            raise MoveRefused(f"{tile} cannot be laid on the {where} arm")
        if where in ("up", "down"):
            self.facts.add("cross-arm-play")
        if tile[0] == tile[1] and line.spinner is None:
            self.facts.add("spinner-laid-later")
        line.lay(tile, where)

    def _score_during_play(self) -> None:
        multiples = PLAY_SCORE_MULTIPLES.get(self.rules.scoring, ())
        if not multiples or not isinstance(self.line, SpinnerLine):
            return
        count = self.line.count()
        if count > 0 and any(count % m == 0 for m in multiples):
            self.play_points[self.rules.side_of(self.turn)] += count
            self.facts.add("play-points")

    # ----- turn order, drawing, the end -------------------------------------------------------
    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.rules.players
        drew = False
        if self.rules.draws:
            while self.pile and not self.can_lay(self.turn):
                self.holdings[self.turn].add(self.pile.pop(0))
                drew = True
                self.facts.add("drew")
        if drew and not self.pile:
            self.facts.add("draw-emptied-boneyard")
        if self.rules.draws and self.pile:
            return
        if not any(self.can_lay(seat) for seat in range(self.rules.players)):
            if drew:
                self.facts.add("block-mid-turn")
            self._finish("block", None)

    def _finish(self, how: str, closer: int | None) -> None:
        rules = self.rules
        remaining = [pip_sum(tiles) for tiles in self.holdings]
        side_pips = [0] * rules.sides
        for seat, pips in enumerate(remaining):
            side_pips[rules.side_of(seat)] += pips
        if how == "domino":
            assert closer is not None
            winner: int | None = rules.side_of(closer)
            end = "domino"
        else:
            low = min(side_pips)
            lowest = [side for side, pips in enumerate(side_pips) if pips == low]
            if len(lowest) == 1:
                winner, end = lowest[0], "block"
            elif rules.family == "cuban":
                # Ties are settled: first hand by the highest draw (the first leader's side),
                # later by the previous hand's winner.
                winner, end = self.tie_side, "block"
                self.facts.add("cuban-tie")
            else:
                winner, end = None, "tied-block"
        points, raw = self._award(winner, side_pips, remaining)
        if rules.scoring == "amigos-hands" and end != "domino":
            winner, points = None, 0
        self.result = {"end": end, "winner": winner, "points": points, "raw_award": raw}
        self.facts.add(end)

    def _award(self, winner: int | None, side_pips: list[int], remaining: list[int]) -> tuple[int, int]:
        rules = self.rules
        if winner is None:
            return 0, 0
        if rules.scoring == "amigos-hands":
            return 1, 1
        if rules.scoring == "amigos-200":
            total = sum(remaining)
            if total > side_pips[1 - winner]:
                self.facts.add("counted-winners-pips")
            return total, total
        if rules.family in ("amigos", "cuban"):
            losers = sum(pips for side, pips in enumerate(side_pips) if side != winner)
            return losers, losers
        raw = sum(remaining) - 2 * remaining[winner]  # the others' pips minus the winner's own
        unit = AWARD_ROUNDING[rules.scoring]
        rounded = (raw + unit // 2) // unit * unit
        if rounded != raw:
            self.facts.add("rounded")
        return rounded, raw
