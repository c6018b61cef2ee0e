"""Break valid records in the ways a bad file, a bug or a cheat would.

Every mutation returns the new record text and a label. Many mutations still leave a valid record
(swapping two moves that both fit, changing who led, writing an optional end); the corpus tests
only require that the engine and the referee agree: both refuse at the same hand and move, or both
accept with the same report.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

Record = dict[str, Any]
Mutation = Callable[[Record, random.Random], "str | None"]

_ARMS = ("left", "right", "up", "down")


def _hand_with_moves(record: Record, rng: random.Random, at_least: int = 1) -> dict[str, Any] | None:
    hands = [hand for hand in record["hands"] if len(hand["moves"]) >= at_least]
    return rng.choice(hands) if hands else None


def swap_moves(record: Record, rng: random.Random) -> str | None:
    hand = _hand_with_moves(record, rng, 2)
    if hand is None:
        return None
    moves = hand["moves"]
    index = rng.randrange(len(moves) - 1)
    moves[index], moves[index + 1] = moves[index + 1], moves[index]
    return json.dumps(record)


def drop_move(record: Record, rng: random.Random) -> str | None:
    hand = _hand_with_moves(record, rng)
    if hand is None:
        return None
    del hand["moves"][rng.randrange(len(hand["moves"]))]
    return json.dumps(record)


def wrong_end(record: Record, rng: random.Random) -> str | None:
    """Add, change or remove the `@` part of a laid tile."""
    hand = _hand_with_moves(record, rng, 2)
    if hand is None:
        return None
    moves = hand["moves"]
    index = rng.randrange(1, len(moves))
    if moves[index] == "pass":
        return None
    tile, _, where = moves[index].partition("@")
    if where and rng.random() < 0.4:
        moves[index] = tile
    elif record["variant"].startswith(("amigos", "cuban")):
        top = 9 if record["variant"].startswith("cuban") else 6
        moves[index] = f"{tile}@{rng.randint(0, top)}"
    else:
        moves[index] = f"{tile}@{rng.choice(_ARMS)}"
    return json.dumps(record)


def duplicate_tile(record: Record, rng: random.Random) -> str | None:
    hand = rng.choice(record["hands"])
    seats = hand["deal"]
    giver, taker = rng.sample(range(len(seats)), 2)
    seats[taker][rng.randrange(len(seats[taker]))] = rng.choice(seats[giver])
    return json.dumps(record)


def wrong_tile_count(record: Record, rng: random.Random) -> str | None:
    hand = rng.choice(record["hands"])
    seats = hand["deal"]
    giver, taker = rng.sample(range(len(seats)), 2)
    tile = seats[giver].pop(rng.randrange(len(seats[giver])))
    if rng.random() < 0.5:
        seats[taker].append(tile)
    else:
        hand["boneyard"].append(tile)
    return json.dumps(record)


def extra_move(record: Record, rng: random.Random) -> str | None:
    """A move written after a hand ended (in the last hand, or in any earlier finished hand)."""
    hands = record["hands"]
    if not hands:
        return None
    hand = rng.choice(hands[:-1]) if len(hands) > 1 and rng.random() < 0.5 else hands[-1]
    every_tile = [tile for seat in hand["deal"] for tile in seat]
    hand["moves"].append("pass" if rng.random() < 0.5 else rng.choice(every_tile))
    return json.dumps(record)


def extra_hand(record: Record, rng: random.Random) -> str | None:
    """One more hand after the last one (refused when the match or that hand had ended... or not)."""
    if not record["hands"]:
        return None
    record["hands"].append(copy.deepcopy(rng.choice(record["hands"])))
    return json.dumps(record)


def other_leader(record: Record, rng: random.Random) -> str | None:
    hand = rng.choice(record["hands"])
    hand["leader"] = (hand["leader"] + rng.randrange(1, len(record["players"]))) % len(record["players"])
    return json.dumps(record)


def flip_lead(record: Record, rng: random.Random) -> str | None:
    """Write the lead tile the other way round (changes the arms in spinner games)."""
    hand = _hand_with_moves(record, rng)
    if hand is None or "@" in hand["moves"][0]:
        return None
    first, _, second = hand["moves"][0].partition("-")
    hand["moves"][0] = f"{second}-{first}"
    return json.dumps(record)


def junk_json(record: Record, rng: random.Random) -> str | None:
    text = json.dumps(record)
    choice = rng.randrange(6)
    if choice == 0:
        return text[: rng.randrange(len(text))]
    if choice == 1:
        return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 80)))
    if choice == 2:
        return rng.choice(["[]", "3", '"record"', "null", "true", "{}", ""])
    if choice == 3:
        return text.replace('"moves"', '"moves"', 1).replace("]", "", 1)
    if choice == 4:
        return text + "}"
    return "\ufeff" + text if rng.random() < 0.5 else text.replace(":", "=", 1)


def wrong_types(record: Record, rng: random.Random) -> str | None:
    hand = rng.choice(record["hands"]) if record["hands"] else None
    choice = rng.randrange(12)
    if choice == 0 and hand:
        hand["leader"] = rng.choice(["0", 1.5, None, [0], True])
    elif choice == 1 and hand:
        hand["moves"] = " ".join(hand["moves"])
    elif choice == 2 and hand:
        hand["deal"][0][0] = rng.choice([66, None, ["6", "6"], "66", "6-"])
    elif choice == 3:
        record["players"] = ",".join(record["players"])
    elif choice == 4:
        record["variant"] = rng.choice([100, None, "amigos", "draw-300", "AMIGOS-100", "cuban"])
    elif choice == 5:
        record["hands"] = {"0": record["hands"]}
    elif choice == 6:
        record.pop(rng.choice(["format", "variant", "players", "hands"]))
    elif choice == 7 and hand:
        hand.pop(rng.choice(["deal", "boneyard", "leader", "moves"]))
    elif choice == 8 and hand and hand["moves"]:
        hand["moves"][rng.randrange(len(hand["moves"]))] = rng.choice([None, 7, ["6-6"], {"tile": "6-6"}])
    elif choice == 9:
        record["players"] = record["players"] + ["Eva"] if rng.random() < 0.5 else record["players"][:-1]
    elif choice == 10:
        record["format"] = rng.choice(["amigos-record/2", "pgn", 1])
    elif choice == 11 and hand:
        hand["boneyard"] = "none"
    else:
        return None
    return json.dumps(record)


def bad_notation(record: Record, rng: random.Random) -> str | None:
    hand = _hand_with_moves(record, rng)
    if hand is None:
        return None
    moves = hand["moves"]
    index = rng.randrange(len(moves))
    moves[index] = rng.choice(["PASS", "6-7", "10-1", "6_6", "6-6@", "@left", "", " pass", "6-6 ", "x"])
    return json.dumps(record)


def tile_not_held(record: Record, rng: random.Random) -> str | None:
    """Replace a laid tile by another seat's tile (or one still unplayed by nobody)."""
    hand = _hand_with_moves(record, rng)
    if hand is None:
        return None
    moves = hand["moves"]
    index = rng.randrange(len(moves))
    every_tile = [tile for seat in hand["deal"] for tile in seat] + list(hand["boneyard"])
    moves[index] = rng.choice(every_tile)
    return json.dumps(record)


MUTATIONS: dict[str, Mutation] = {
    "swap-moves": swap_moves,
    "drop-move": drop_move,
    "wrong-end": wrong_end,
    "duplicate-tile": duplicate_tile,
    "wrong-tile-count": wrong_tile_count,
    "extra-move": extra_move,
    "extra-hand": extra_hand,
    "other-leader": other_leader,
    "flip-lead": flip_lead,
    "junk-json": junk_json,
    "wrong-types": wrong_types,
    "bad-notation": bad_notation,
    "tile-not-held": tile_not_held,
}


def mutate(record: Record, name: str, rng: random.Random) -> str | None:
    """The mutated record text, or None when this mutation does not apply to the record."""
    return MUTATIONS[name](copy.deepcopy(record), rng)
