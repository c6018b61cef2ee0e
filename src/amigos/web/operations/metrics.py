"""The process's metrics, defined once, in the Prometheus client's default registry.

Every server process keeps its own figures and serves them at `/metrics` (`amigos.web.probes`); Prometheus
scrapes each process on its own address (docs/deploy.md, "Watching it run"). The hot paths touch
these with one call each: a play is a counter's `inc` on a child bound at import (no label lookup,
no allocation), a command a histogram's `observe`. The gauges that describe a state (live tables,
sockets, leases held, the bus) are read at scrape time instead, so they cost nothing between
scrapes.

This module imports the Prometheus client and the command registry only: the actor, the socket,
the computer players' pool and the lease keeper import it, so it must import none of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# The client adds a `_created` series beside every counter and histogram (when it was made):
# nothing here reads it, and it doubled what each scrape carries. (The function is untyped.)
disable_created_metrics()  # type: ignore[no-untyped-call]

PLAYS = Counter(
    "amigos_plays",
    "Actions the engine accepted at this process's tables, by who made them "
    "(a person, a computer player, the system when a clock ran out).",
    ["by"],
)
PLAYS_BY_PERSON = PLAYS.labels(by="person")
PLAYS_BY_COMPUTER = PLAYS.labels(by="computer")
PLAYS_BY_SYSTEM = PLAYS.labels(by="system")

COMMAND_SECONDS = Histogram(
    "amigos_command_seconds",
    "Time from a socket command's turn to run until its answer was queued, by command type.",
    ["command"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
#: The label of every command type nobody registered: a client names the type, so its text must
#: never become a label (each would be a new series).
UNKNOWN_COMMAND = "unknown"
_command_children: dict[str, Histogram] = {}

LIVE_TABLES = Gauge("amigos_live_tables", "Tables whose actor runs in this process and that have not ended.")
ACTORS = Gauge("amigos_table_actors", "Table actors in this process, ended tables not yet let go included.")
SOCKETS = Gauge("amigos_sockets", "Signed-in sockets open on this process.")
LEASES_HELD = Gauge(
    "amigos_leases_held", "Table leases this process holds (several processes sharing the tables)."
)
LEASES_TAKEN_OVER = Counter(
    "amigos_leases_taken_over",
    "Tables this process adopted after their lease expired or their process died.",
)
BOT_SEARCHES = Gauge(
    "amigos_bot_searches",
    "Computer players' searches handed to the pool and not answered yet (waiting or thinking).",
)
BUS_LAG = Gauge(
    "amigos_bus_lag_seconds",
    "How long a probe published on the bus took to come back to this process, measured at the "
    "scrape (+Inf: it did not come back in time).",
)
BUS_PENDING = Gauge(
    "amigos_bus_pending_publications", "Publications waiting for the bus to come back (Redis down)."
)
DRAINING = Gauge("amigos_draining", "1 once the process was asked to stop and is winding down.")
LOOP_LAG = Histogram(
    "amigos_event_loop_lag_seconds",
    "How late the event loop ran a callback handed to it from another thread, once a period "
    "(`operations.loop_watch`); a stall's whole length is one observation.",
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0),
)


def count_play(system: bool, reason: str | None) -> None:
    """One action accepted at a table (`DecideMixin._carried_out`)."""
    if reason == "computer":
        PLAYS_BY_COMPUTER.inc()
    elif system:
        PLAYS_BY_SYSTEM.inc()
    else:
        PLAYS_BY_PERSON.inc()


# Whether a command type is registered: the socket layer's registry tells (`realtime.commands`
# registers it when imported), since the operations below the apps import none of them.
_known: list[Callable[[str], bool]] = []


def know_commands_by(known: Callable[[str], bool]) -> None:
    """Register how a command type is found registered (the socket layer's registry does)."""
    _known[:] = [known]


def know_command(kind: str) -> bool:
    """Whether ``kind`` is a registered command type (its own label; otherwise "unknown")."""
    return bool(_known) and _known[0](kind)


def command_done(kind: str, started: float) -> None:
    """A socket command of type ``kind`` answered; ``started``: `time.perf_counter()` when it began."""
    child = _command_children.get(kind)
    if child is None:
        label = kind if know_command(kind) else UNKNOWN_COMMAND
        child = _command_children.get(label)
        if child is None:
            # Keyed by the label, never by the client's text: the dict stays as small as the registry.
            child = _command_children[label] = COMMAND_SECONDS.labels(command=label)
    child.observe(time.perf_counter() - started)
