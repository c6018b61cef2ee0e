"""A reference opponent: the `dominoes` package's sampling player, on our Amigos rules.

The PyPI package ``dominoes`` (pinned in the ``bench`` extra, installed only for
benchmarks) ships ``players.probabilistic_alphabeta``: it deals the unseen
tiles at random in ways consistent with the passes, runs a plain alpha-beta on
each such deal and prefers the move that was most often optimal.

The package plays its own game: four players, double-six, partners opposite,
no boneyard, a domino scoring every pip left in the other three hands and a
block scoring both teams' pips to the lighter team.  That is exactly our
amigos-200 counting; for amigos-100 and juegos ganados its search still
maximizes its own counting (our arena scores the hand by our rules).  Its
line has a left and a right end; we map our UP arm to its left and our DOWN
arm to its right (our lead shows its higher half on UP, as its first domino
shows ``first`` on the left).

This adapter rebuilds a ``dominoes.Game`` from nothing but the seat's view:
the board from the public plays, the passes (``None`` moves) that the package
turns into missing suits, the bot's own hand, and placeholder hands for the
other seats made of the unseen tiles (the sampling player only uses their
union and sizes).  The package draws its samples from Python's global random
generator; the adapter seeds it from the bot's own generator and restores it.

Its alpha-beta has no transposition table and copies the whole game at every
node, so it is far too slow from the first tiles: before ``start_move`` moves
the adapter uses the package's ``bota_gorda`` player (heaviest tile first),
and from then on the sampling player with ``sample_size`` deals.  The defaults
give thinking times of the same order as our hard level (see docs/bots.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import dominoes

from amigos.bots.base import Bot, options
from amigos.engine import Action, Arm, PassEvent, Play, PlayEvent, Tile, Variant
from amigos.engine.view import SeatView


class DominoesPabBot:
    """The `dominoes` package's ``probabilistic_alphabeta`` player behind our bot interface."""

    def __init__(self, sample_size: int = 4, start_move: int = 7, name: str = "dominoes-pab") -> None:
        self.name = name
        self.sample_size = sample_size
        self.start_move = start_move
        self._player = dominoes.players.probabilistic_alphabeta(
            start_move=start_move, sample_size=sample_size, player=dominoes.players.bota_gorda
        )

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        actions = options(view)
        if len(actions) == 1:
            return actions[0]
        if not plays_as_package(view.variant):
            raise ValueError("the dominoes package only plays the four-player double-six game (Amigos)")
        game = to_game(view)
        saved = random.getstate()
        random.seed(rng.getrandbits(64))
        try:
            dominoes.players.bota_gorda(game)
            self._player(game)
        finally:
            random.setstate(saved)
        domino, left = game.valid_moves[0]
        return from_move(actions, Tile(domino.first, domino.second), left)


def plays_as_package(variant: Variant) -> bool:
    """Whether the `dominoes` package's ``Game`` can play ``variant``: it knows one game, double-six
    for two teams of two with seven tiles each and nothing to draw (our Amigos family)."""
    shape = (variant.max_pip, variant.players, variant.hand_size)
    return shape == (6, 4, 7) and variant.partnership and not variant.draws


def to_game(view: SeatView) -> Any:
    """A ``dominoes.Game`` equal to the view in everything public, for the seat to move."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view holds no hand")
    board = dominoes.Board()
    moves: list[Any] = []
    for event in view.history:
        if isinstance(event, PlayEvent):
            tile = event.play.tile
            left = event.play.arm in (None, Arm.UP)
            domino = dominoes.Domino(tile.high, tile.low)
            board.add(domino, left)
            moves.append((domino, left))
        elif isinstance(event, PassEvent):
            moves.append(None)
    unseen = sorted(view.unseen_tiles())
    hands = []
    for other in range(view.variant.players):
        if other == seat:
            tiles = sorted(view.hand)
        else:
            size = view.hand_sizes[other]
            tiles, unseen = unseen[:size], unseen[size:]
        hands.append(dominoes.Hand([dominoes.Domino(t.high, t.low) for t in tiles]))
    game = dominoes.Game(board, hands, moves, seat, (), view.leader, None)
    if len(board):
        game._update_valid_moves()
    else:
        game.valid_moves = tuple((d, True) for d in hands[seat])
    return game


def from_move(actions: list[Action], tile: Tile, left: bool) -> Action:
    """Our legal action for the package's move (its left end is our UP arm)."""
    wanted = Arm.UP if left else Arm.DOWN
    same_tile = [a for a in actions if isinstance(a, Play) and a.tile == tile]
    for action in same_tile:
        if isinstance(action, Play) and action.arm in (None, wanted):
            return action
    if same_tile:  # both ends show the same value: the rules choose the arm
        return same_tile[0]
    raise ValueError(f"the dominoes package chose {tile}, which is not legal here")


def register(register_bot: Callable[[str, Callable[[], Bot]], None]) -> None:
    """Add the reference bot through the registry's ``register_bot`` (called by ``find_bot`` on demand).

    The registry hands its own function in, so this module never imports the registry back.
    """
    register_bot("dominoes-pab", DominoesPabBot)
