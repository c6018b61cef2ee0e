"""Random legal match records for every variant, optionally steered towards rare situations.

The generator deals with a seeded `random.Random`, picks moves with a policy, and writes the moves
in record notation, sometimes adding an optional end or arm and writing tiles either way round, so
that the corpus exercises every legal spelling. The referee's own HandPlay checks each move as it
is written.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .hand import HandPlay
from .lines import ChainLine, SpinnerLine
from .replay import MatchTally
from .rules import PLAY_SCORE_MULTIPLES, RECORD_FORMAT, Rules, Tile, full_set, rules_for, tile_text

Option = tuple[tuple[int, int], "str | int | None"]
Policy = Callable[[HandPlay, list[Option], random.Random], Option]

NAMES = ("Ana", "Beto", "Caro", "Dani")


def random_policy(play: HandPlay, options: list[Option], rng: random.Random) -> Option:
    return rng.choice(options)


def heavy_policy(play: HandPlay, options: list[Option], rng: random.Random) -> Option:
    """Lay the heaviest tile first (fewer pips left, small hand scores)."""
    best = max(sum(tile) for tile, _ in options)
    return rng.choice([o for o in options if sum(o[0]) == best])


def light_policy(play: HandPlay, options: list[Option], rng: random.Random) -> Option:
    """Keep the heavy tiles (big hand scores, 200 counting with many pips left)."""
    best = min(sum(tile) for tile, _ in options)
    return rng.choice([o for o in options if sum(o[0]) == best])


def blocking_policy(play: HandPlay, options: list[Option], rng: random.Random) -> Option:
    """Choose the lay after which the fewest tiles in anyone's hand fit: blocks come early and often."""
    if len(options) == 1 or play.laid == 0:
        return rng.choice(options)
    scored = [(_fitting_after(play, option), rng.random(), option) for option in options]
    return min(scored)[2]


def scoring_policy(play: HandPlay, options: list[Option], rng: random.Random) -> Option:
    """In the fives games, take the lay that scores most during play; otherwise play at random."""
    if play.laid == 0 or not isinstance(play.line, SpinnerLine):
        return rng.choice(options)
    scored = [(_count_after(play, option), rng.random(), option) for option in options]
    return max(scored)[2]


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "heavy": heavy_policy,
    "light": light_policy,
    "blocking": blocking_policy,
    "scoring": scoring_policy,
}


def _after(play: HandPlay, option: Option) -> tuple[ChainLine | SpinnerLine, list[set[Tile]]]:
    """The line and the hands as they would be after `option`, leaving `play` untouched."""
    line = play.line.copy()
    holdings = [set(tiles) for tiles in play.holdings]
    tile, target = option
    key: Tile = (min(tile), max(tile))
    holdings[play.turn].discard(key)
    if isinstance(line, SpinnerLine):
        assert isinstance(target, str)
        line.lay(key, target)
    else:
        assert isinstance(target, int)
        line.lay(key, target)
    return line, holdings


def _fitting_after(play: HandPlay, option: Option) -> int:
    line, holdings = _after(play, option)
    return sum(1 for tiles in holdings for tile in tiles if line.targets(tile))


def _count_after(play: HandPlay, option: Option) -> int:
    line, _holdings = _after(play, option)
    assert isinstance(line, SpinnerLine)
    count = line.count()
    multiples = PLAY_SCORE_MULTIPLES[play.rules.scoring]
    return count if count and any(count % m == 0 for m in multiples) else 0


def write_move(play: HandPlay, option: Option, rng: random.Random) -> str:
    """The option in record notation: the end or arm only where needed, plus sometimes anyway."""
    tile, target = option
    if play.laid == 0:
        if play.rules.spinner:
            return f"{tile[0]}-{tile[1]}"  # the lead's first half faces left
        return tile_text((min(tile), max(tile)), flipped=rng.random() < 0.5)
    text = tile_text((min(tile), max(tile)), flipped=rng.random() < 0.5)
    targets = play.line.targets((min(tile), max(tile)))
    # Spinner games need the arm whenever several arms fit; two-ended lines only list distinct
    # end values, so more than one target there means two different results.
    if len(targets) > 1 or rng.random() < 0.2:
        text += f"@{target}"
    return text


def first_leader(rules: Rules, deal: list[list[Tile]], rng: random.Random) -> int:
    if rules.family == "draw":  # highest double, else the heaviest tile
        doubles = [(t[0], seat) for seat, tiles in enumerate(deal) for t in tiles if t[0] == t[1]]
        if doubles:
            return max(doubles)[1]
        return max((sum(t), t, seat) for seat, tiles in enumerate(deal) for t in tiles)[2]
    return rng.randrange(rules.players)


def generate_record(
    variant: str,
    players: int,
    rng: random.Random,
    policy: str = "random",
    max_hands: int = 200,
) -> dict[str, Any]:
    """A complete random legal match (or the first `max_hands` hands of it)."""
    rules = rules_for(variant, players)
    choose = POLICIES[policy]
    tally = MatchTally(rules)
    hands: list[dict[str, Any]] = []
    leader = -1
    last: HandPlay | None = None
    while not tally.complete and len(hands) < max_hands:
        tiles = full_set(rules.max_pip)
        rng.shuffle(tiles)
        size = rules.hand_size
        deal = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
        pile = tiles[players * size :]
        leader = _next_leader(rules, deal, rng, leader, last)
        play = HandPlay(rules, deal, pile, leader, tally.tie_side(leader))
        tally.start(leader)
        moves: list[str] = []
        while play.result is None:
            options = play.options()
            if not options:
                moves.append("pass")
                play.play_text("pass")
                continue
            option = choose(play, options, rng)
            text = write_move(play, option, rng)
            moves.append(text)
            play.play_text(text)
        tally.add_hand(play)
        hands.append(
            {
                "deal": [[tile_text(t, rng.random() < 0.3) for t in seat] for seat in deal],
                "boneyard": [tile_text(t) for t in pile],
                "leader": leader,
                "moves": moves,
            }
        )
        last = play
    return {"format": RECORD_FORMAT, "variant": variant, "players": list(NAMES[:players]), "hands": hands}


def _next_leader(
    rules: Rules, deal: list[list[Tile]], rng: random.Random, leader: int, last: HandPlay | None
) -> int:
    if last is None:
        return first_leader(rules, deal, rng)
    if rules.family == "cuban":
        assert last.result is not None
        winner = last.result["winner"]
        # the winning side leads: its player who went out, else its first seat
        seats = [seat for seat in range(rules.players) if rules.side_of(seat) == winner]
        out = [seat for seat in seats if not last.holdings[seat]]
        return (out or seats)[0]
    return (leader + 1) % rules.players


def truncate(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A prefix of the record: stops inside a hand, or between two hands (an unfinished match)."""
    hands = record["hands"]
    keep = rng.randrange(len(hands)) + 1
    cut = [dict(hand) for hand in hands[:keep]]
    # A one-hand record can only be cut inside its hand: keeping that whole hand keeps the whole match.
    if rng.random() < 0.7 or len(hands) == 1:
        moves = cut[-1]["moves"]
        cut[-1]["moves"] = moves[: rng.randrange(len(moves))]
    elif keep == len(hands):
        cut = cut[:-1]
    return {**record, "hands": cut}
