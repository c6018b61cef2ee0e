"""`amigos bench table [--quick] [--json]`: what the live-table model costs per input.

The server's table actor is to run `amigos.table.advance` for every play, so the price of one
``advance`` decides whether one process can keep many tables going. This plays whole matches
through ``advance`` with a fake clock, four people at the table, driven by a seeded generator:
a random legal move every second of fake time, and a `Heartbeat` from every seat every ten
seconds (as the table's pages send them), so nobody is ever away. For each scenario (amigos-100,
cuban-2v2, draw-100 for four) it prints:

- ``move_us``, ``heartbeat_us``, ``deal_us``: the mean cost of one ``advance`` of that input;
- ``engine_apply_us``: the same hands replayed by `HandState.apply` alone, from the same deals
  with the same actions (the passes the table makes by itself included, for a move's ``advance``
  makes them too), per move sent; ``move_us - engine_apply_us`` is the table's own overhead;
- ``moves``, ``heartbeats``, ``deals``, ``engine_applies`` (the moves and the table's own
  passes), ``matches`` and ``reached_target`` (matches that ended at their target and opened the
  vote, as every one should), counted in one round.

``rebuild_us_per_input`` is `amigos.table.rebuild` of one recorded amigos-100 match (its whole
input log) divided by the number of inputs: what a takeover pays per stored input.

Each figure is the best of three rounds; a round runs every scenario once, so a busy neighbour on
the machine skews them all alike. Every round does the same work (same seeds). Each input is timed
on its own, with the two clock reads inside the figure (well under a microsecond).
``machine_loop_ns`` is one turn of a plain Python loop, taken before the measure. Counts are
fixed (not durations); --quick keeps the whole run under about 15 seconds. Tests check the shape
of the output and that real play happened, never times.
"""

from __future__ import annotations

import json
import platform
import random
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from amigos.bench.machine import machine_loop_ns
from amigos.bench.options import quick_and_json
from amigos.engine import Action, HandState, find_variant
from amigos.table import (
    Accept,
    Deal,
    Heartbeat,
    Move,
    Phase,
    Start,
    TableConfig,
    TableInput,
    TableState,
    advance,
    needs_first_leader,
    open_table,
    rebuild,
)

#: The scenarios: (name, variant, players). Every seat is a person.
SCENARIOS: tuple[tuple[str, str, int], ...] = (
    ("amigos-100", "amigos-100", 4),
    ("cuban-2v2", "cuban-2v2", 4),
    ("draw-100x4", "draw-100", 4),
)
#: (matches per scenario, rebuilds of the recorded match) in one round, per mode.
COUNTS: dict[str, tuple[int, int]] = {
    "full": (150, 30),
    "quick": (30, 9),
}
ROUNDS = 3
#: Fake seconds between two moves, and between two heartbeats of each seat.
MOVE_EVERY = 1.0
HEARTBEAT_EVERY = 10.0
PLAYERS = ("ana", "beto", "caro", "dani")


@dataclass
class Played:
    """What one scenario's matches cost, input by input, and what they did."""

    move_s: float = 0.0
    heartbeat_s: float = 0.0
    deal_s: float = 0.0
    moves: int = 0
    heartbeats: int = 0
    deals: int = 0
    matches: int = 0
    reached_target: int = 0
    #: Each hand as dealt (its first state, passes the table made at the deal included) and every
    #: action the table applied to it afterwards, for the engine's replay.
    hands: list[tuple[HandState, list[tuple[Action, int]]]] = field(default_factory=list)
    #: The inputs of the first match, with their times, and how its table was opened.
    log: list[tuple[TableInput, float]] = field(default_factory=list)
    opened: tuple[TableConfig, float] | None = None


def _key(rng: random.Random) -> str:
    """A deal key shaped like the server's (a UUID4), drawn from the seeded generator."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _config(variant: str, players: int) -> TableConfig:
    return TableConfig(table_id="bench", variant=find_variant(variant, players), players=PLAYERS[:players])


def play_match(config: TableConfig, rng: random.Random, played: Played, record: bool = False) -> None:
    """One match from the opening to the vote, each input through ``advance`` and timed alone."""
    clock = time.perf_counter
    state, _ = open_table(config, 0.0)
    log: list[tuple[TableInput, float]] = []

    def send(state: TableState, given: TableInput, now: float) -> tuple[TableState, float]:
        if record:
            log.append((given, now))
        started = clock()
        state, _ = advance(state, given, now)
        return state, clock() - started

    for seat in range(1, len(config.players)):
        state, _ = send(state, Accept(seat), 0.0)
    if state.awaits_start:
        state, _ = send(state, Start(0), 0.0)
    seats = range(len(config.players))
    leader_needed = needs_first_leader(config.variant)
    now = 0.0
    beat_at = HEARTBEAT_EVERY
    skip = 0
    while state.phase in (Phase.DEALING, Phase.PLAYING):
        # A deal comes once the pause between hands is over (`deal_at`), as the server's does.
        at = now + MOVE_EVERY
        if state.phase is Phase.DEALING:
            at = max(at, state.deal_at or at)
        while beat_at <= at:
            for seat in seats:
                state, spent = send(state, Heartbeat(seat), beat_at)
                played.heartbeat_s += spent
                played.heartbeats += 1
            beat_at += HEARTBEAT_EVERY
        now = at
        if state.phase is Phase.DEALING:
            leader = rng.randrange(len(seats)) if leader_needed else None
            state, spent = send(state, Deal(_key(rng), leader), now)
            played.deal_s += spent
            played.deals += 1
            hand = state.hand
            if state.phase is Phase.PLAYING and hand is not None:
                skip = len(hand.moves)
                played.hands.append((hand.state, []))
            continue
        hand = state.hand
        assert hand is not None
        seat = hand.state.to_move
        state, spent = send(state, Move(seat, rng.choice(hand.state.legal_actions())), now)
        played.move_s += spent
        played.moves += 1
        hand = state.hand
        assert hand is not None
        if state.phase is not Phase.PLAYING or hand.state.is_over:
            played.hands[-1][1].extend((stamp.action, stamp.seat) for stamp in hand.moves[skip:])
    played.matches += 1
    played.reached_target += state.phase is Phase.VOTING
    if record:
        played.log = log
        played.opened = (config, 0.0)


def play(variant: str, players: int, matches: int, seed: int, record: bool = False) -> Played:
    """``matches`` matches of ``variant`` (the first one's inputs kept when ``record``)."""
    rng = random.Random(seed)
    config = _config(variant, players)
    played = Played()
    for number in range(matches):
        play_match(config, rng, played, record=record and number == 0)
    return played


def engine_replay(hands: list[tuple[HandState, list[tuple[Action, int]]]]) -> float:
    """Seconds `HandState.apply` takes to replay ``hands``, each apply timed alone as a move is."""
    clock = time.perf_counter
    total = 0.0
    for state, actions in hands:
        for action, seat in actions:
            started = clock()
            state = state.apply(action, seat)
            total += clock() - started
        assert state.is_over
    return total


def rebuild_seconds(played: Played, times: int) -> float:
    """The best of ``times`` rebuilds of the recorded match from its log, in seconds."""
    assert played.opened is not None
    config, opened = played.opened
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        state = rebuild(config, opened, played.log)
        best = min(best, time.perf_counter() - started)
        assert state.phase is Phase.VOTING
    return best


def _us(seconds: float, count: int) -> float | None:
    return round(seconds / count * 1e6, 2) if count else None


def measure(quick: bool) -> dict[str, Any]:
    n_matches, n_rebuilds = COUNTS["quick" if quick else "full"]
    loop_ns = machine_loop_ns()
    best: dict[str, dict[str, Any]] = {}
    rebuild_best = float("inf")
    recorded: Played | None = None
    for _ in range(ROUNDS):
        for seed, (name, variant, players) in enumerate(SCENARIOS, start=1):
            played = play(variant, players, n_matches, seed, record=name == "amigos-100")
            engine_s = engine_replay(played.hands)
            figures = {
                "move_us": _us(played.move_s, played.moves),
                "heartbeat_us": _us(played.heartbeat_s, played.heartbeats),
                "deal_us": _us(played.deal_s, played.deals),
                "engine_apply_us": _us(engine_s, played.moves),
            }
            counted = {
                "moves": played.moves,
                "heartbeats": played.heartbeats,
                "deals": played.deals,
                "engine_applies": sum(len(actions) for _, actions in played.hands),
                "matches": played.matches,
                "reached_target": played.reached_target,
            }
            kept = best.setdefault(name, {**figures, **counted})
            for key, value in figures.items():
                if value is not None and (kept[key] is None or value < kept[key]):
                    kept[key] = value
            if name == "amigos-100":
                recorded = played
        assert recorded is not None
        rebuild_best = min(rebuild_best, rebuild_seconds(recorded, max(1, n_rebuilds // ROUNDS)))
    for figures in best.values():
        move, engine = figures["move_us"], figures["engine_apply_us"]
        figures["table_overhead_us"] = (
            round(move - engine, 2) if move is not None and engine is not None else None
        )
    assert recorded is not None
    inputs = len(recorded.log)
    return {
        "scenarios": best,
        "rebuild_us_per_input": _us(rebuild_best, inputs),
        "rebuild_inputs": inputs,
        "quick": quick,
        "counts": {"matches_per_scenario": n_matches, "rebuilds": n_rebuilds, "rounds": ROUNDS},
        "python": platform.python_version(),
        "machine_loop_ns": loop_ns,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = quick_and_json("amigos bench table", __doc__, argv)
    figures = measure(args.quick)
    if args.json:
        print(json.dumps(figures))
        return 0
    print("µs per advance:  move  engine apply  table's own  heartbeat     deal     moves")
    for name, row in figures["scenarios"].items():
        cells = [
            row[key] for key in ("move_us", "engine_apply_us", "table_overhead_us", "heartbeat_us", "deal_us")
        ]
        shown = " ".join(f"{cell:>11.1f}" if cell is not None else f"{'-':>11}" for cell in cells)
        print(f"{name:<12}{shown} {row['moves']:>9,}")
    print(
        f"rebuild of one amigos-100 match ({figures['rebuild_inputs']} inputs): "
        f"{figures['rebuild_us_per_input']:.1f} µs per input"
    )
    print(f"machine_loop_ns (the machine's speed): {figures['machine_loop_ns']:.1f}")
    print(json.dumps(figures))
    return 0
