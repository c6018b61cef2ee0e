"""What reading one client frame costs: `python bench/frames.py [--quick]`, prints JSON.

Every frame a socket receives is parsed on the event loop (`amigos.web.realtime.envelope.parse`)
before anything else happens to it, so no frame the server accepts may cost much more than another
of its size: issue 36's probe found an 8 KB frame that took 0.58 s, and ten of them held a process.
The socket's budget (`limits.FrameBudget`) charges characters and parsing time, which bounds a
socket's cost only if the worst frame is cheap. This measures:

* `crafted_worst_ms`, `crafted_worst_frame`, `crafted_median_ms`: hand-made 8 KB frames aimed at
  each step of the parse (the probe's unterminated string of escaped quotes, brackets, escapes,
  numbers, keys, lone surrogates...), each the best of five;
* `generated_worst_ms`, `generated_median_ms`, `generated_frames`: frames up to 8 KB drawn by
  hypothesis (repeated pieces of strings, escapes and brackets, and JSON documents), which is
  told to look for slow ones (`hypothesis.target`); the slowest found are timed again, best of
  five, and the worst of those is reported;
* `play_parse_ns`, `heartbeat_parse_ns`: the parse of a play and of a heartbeat, the hot path
  (best of several rounds), and `budget_ns`, what the socket's budget adds to each frame;
* `machine_loop_ns`: one turn of a plain loop (the machine's speed, to compare days).

Goal: no frame of at most 8 KB costs more than `GOAL_MS`. `--quick` draws fewer frames.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import json
import statistics
import sys
import time
import timeit
from pathlib import Path

try:
    import amigos  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import strategies as st

from amigos.bench.machine import machine_loop_ns
from amigos.web.realtime import envelope
from amigos.web.realtime.limits import FrameBudget

GOAL_MS = 5.0
SIZE = envelope.MAX_FRAME_BYTES


def size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def filled(head: str, unit: str, tail: str = "") -> str:
    """`unit` repeated between `head` and `tail`, as many times as fit in one frame."""
    return head + unit * ((SIZE - size(head) - size(tail)) // size(unit)) + tail


def crafted() -> dict[str, str]:
    payload = '{"type":"x","id":1,"payload":{"t":'
    return {
        "probe": filled("[" * 33, '"\\'),
        "quotes": filled("[" * 33, '"'),
        "escaped_quotes": filled("[" * 33, '\\"'),
        "backslashes": filled("[" * 33, "\\"),
        "open_brackets": "[" * SIZE,
        "bracket_pairs": filled("", "[]"),
        "deep_objects": filled("", '{"k":'),
        "nested_at_limit": filled(payload + "[" * 30, "1,", "1" + "]" * 30 + "}}"),
        "empty_objects": filled(payload + "[", "{},", "{}]}}"),
        "empty_strings": filled(payload + "[", '"",', '""]}}'),
        "numbers": filled(payload + "[", "1,", "1]}}"),
        "floats": filled(payload + "[", "1e308,", "1]}}"),
        "big_integers": payload + "[" + ",".join(["9" * 4000] * 2) + "]}}",
        "keys": filled('{"type":"x","payload":{', '"a":1,', '"b":1}}'),
        "same_key": filled('{"type":"x","payload":{', '"aaaaaaaa":1,', '"b":1}}'),
        "escapes": filled(payload + '"', "\\ud83d\\ude00", '"}}'),
        "lone_surrogates": filled(payload + '"', "\\ud800", '"}}'),
        "raw_surrogates": filled(payload + '"', "\ud800", '"}}'),
        "emoji": filled(payload + '"', "😀", '"}}'),
    }


def parse_seconds(text: str) -> float:
    started = time.perf_counter()
    with contextlib.suppress(envelope.ProtocolError):
        envelope.parse(text)
    return time.perf_counter() - started


def best_of(text: str, rounds: int = 5) -> float:
    return min(parse_seconds(text) for _ in range(rounds))


# What strings, escapes and brackets are made of (the last is a lone surrogate, raw).
PIECES = [
    '"',
    "\\",
    "[",
    "]",
    "{",
    "}",
    "a",
    " ",
    "é",
    '\\"',
    '"\\',
    "\\u",
    "\\ud800",
    ":",
    ",",
    "1",
    "\ud800",
]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=8), children, max_size=8)
    ),
    max_leaves=200,
)


@st.composite
def hostile(draw: st.DrawFn) -> str:
    """A few pieces, one short pattern repeated as often as the frame allows, a few pieces."""
    piece = st.sampled_from(PIECES)
    head = "".join(draw(st.lists(piece, max_size=40)))
    unit = "".join(draw(st.lists(piece, min_size=1, max_size=6)))
    tail = "".join(draw(st.lists(piece, max_size=10)))
    room = max(0, (SIZE - size(head) - size(tail)) // size(unit))
    return head + unit * draw(st.integers(room // 2, room)) + tail


@st.composite
def documents(draw: st.DrawFn) -> str:
    """A command whose payload is a JSON document, cut to the frame's size."""
    text = json.dumps(
        {"type": "x", "id": 1, "payload": {"v": draw(JSON_VALUES)}}, ensure_ascii=draw(st.booleans())
    )
    while size(text) > SIZE:
        text = text[: len(text) * 3 // 4]
    return text


def generated(examples: int) -> tuple[list[float], list[tuple[float, str]]]:
    """Parse `examples` hypothesis frames, steered towards slow ones: every time, and the slowest."""
    times: list[float] = []
    slowest: list[tuple[float, str]] = []

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate, Phase.target],
        suppress_health_check=list(HealthCheck),
    )
    @given(hostile() | documents())
    def parse_one(text: str) -> None:
        seconds = min(parse_seconds(text), parse_seconds(text))
        times.append(seconds)
        target(seconds * 1e6, label="parse microseconds")
        heapq.heappush(slowest, (seconds, text))
        if len(slowest) > 10:
            heapq.heappop(slowest)

    parse_one()
    return times, slowest


def per_call_ns(work: object, number: int = 20_000, rounds: int = 7) -> float:
    return round(min(timeit.repeat(work, number=number, repeat=rounds)) / number * 1e9, 1)  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer generated frames (CI)")
    args = parser.parse_args(argv)
    loop_ns = machine_loop_ns()
    frames = crafted()
    crafted_ms = {name: best_of(text) * 1000 for name, text in frames.items()}
    worst_crafted = max(crafted_ms, key=crafted_ms.__getitem__)
    times, slowest = generated(300 if args.quick else 1000)
    generated_worst = max(best_of(text) for _, text in slowest)
    play = json.dumps(
        {"type": "table.play", "id": 1234, "payload": {"table": 12345, "tile": [3, 5], "end": "left"}}
    )
    heartbeat = json.dumps({"type": "heartbeat", "id": 99, "payload": {}})
    budget = FrameBudget(1e12, 1e12, 1.0, 1e9, time.monotonic, time.thread_time)  # as the server times it

    def budgeted() -> None:
        started = budget.admit(100)
        assert started is not None
        budget.charge(started)

    worst_ms = max(crafted_ms[worst_crafted], generated_worst * 1000)
    print(
        json.dumps(
            {
                "machine_loop_ns": loop_ns,
                "frame_bytes": SIZE,
                "crafted_worst_ms": round(crafted_ms[worst_crafted], 3),
                "crafted_worst_frame": worst_crafted,
                "crafted_median_ms": round(statistics.median(crafted_ms.values()), 3),
                "generated_frames": len(times),
                "generated_worst_ms": round(generated_worst * 1000, 3),
                "generated_median_ms": round(statistics.median(times) * 1000, 3),
                "play_parse_ns": per_call_ns(lambda: envelope.parse(play)),
                "heartbeat_parse_ns": per_call_ns(lambda: envelope.parse(heartbeat)),
                "budget_ns": per_call_ns(budgeted),
                "goal_ms": GOAL_MS,
                "goal_met": worst_ms <= GOAL_MS,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
