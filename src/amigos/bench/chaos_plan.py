"""The chaos bench's schedule of faults: which fault, when, to which host, for how long (issue 40).

Pure: the same seed, length and number of hosts always give the same schedule, so a run that
found a fault can be repeated exactly (``bench/chaos.py --seed S``). The runner carries it out.

The kinds of fault:

* ``kill`` — SIGKILL a host (a crash); it is started again after ``hold_s``;
* ``term`` — SIGTERM a host (a deploy: it drains and releases its leases); started again after;
* ``freeze`` — SIGSTOP a host for ``hold_s``, longer than a table's lease, so other hosts take its
  tables over while it still believes it owns them; then SIGCONT (its late writes must be refused);
* ``redis`` — every connection to Redis drops (its proxy killed), back after ``hold_s``;
* ``postgres`` — every connection to PostgreSQL drops, back after ``hold_s``;
* ``block`` — PostgreSQL hangs without closing anything (its proxy stopped) for ``hold_s``;
* ``cut`` — a host's network is down for ``hold_s`` (10 s; only where hosts have namespaces).

Faults never overlap: each starts ``recover_s`` after the previous one ended, the time the tables
are given to play again (the runner measures how long they took).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

#: Every kind, in the order the documentation lists them.
KINDS = ("kill", "term", "freeze", "redis", "postgres", "block", "cut")

#: The kinds aimed at one host (the others at a shared service).
HOST_KINDS = frozenset({"kill", "term", "freeze", "cut"})


@dataclass(frozen=True)
class Fault:
    kind: str
    at_s: float  # seconds from the start of the play
    host: int | None  # the host's index, for the host kinds; None for a service
    hold_s: float  # how long the fault lasts before it is undone

    @property
    def ends_s(self) -> float:
        return self.at_s + self.hold_s


def hold_for(kind: str, lease_s: float, rng: random.Random) -> float:
    """How long a fault of ``kind`` lasts: a freeze outlasts the lease (so the tables move), a cut
    is the issue's 10 s, the others a few seconds."""
    if kind == "freeze":
        return round(lease_s + rng.uniform(2.0, 5.0), 1)
    if kind == "cut":
        return 10.0
    return round(rng.uniform(1.0, 4.0), 1)


def schedule(
    seed: int | random.Random,
    seconds: float,
    hosts: int,
    *,
    kinds: tuple[str, ...] = KINDS,
    lease_s: float = 6.0,
    recover_s: float = 20.0,
    first_s: float = 5.0,
) -> list[Fault]:
    """The faults of a run of ``seconds`` over ``hosts`` hosts: as many as fit, one after another.

    Every kind comes once, in an order the seed shuffles, before any comes twice (a short run still
    sees each kind it has room for); after that each kind is drawn at random."""
    if hosts < 1:
        raise ValueError("a schedule needs at least one host")
    if not kinds:
        return []
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    faults: list[Fault] = []
    order = list(kinds)
    rng.shuffle(order)
    moment = first_s
    while True:
        kind = order.pop(0) if order else rng.choice(kinds)
        hold = hold_for(kind, lease_s, rng)
        if moment + hold + recover_s > seconds:
            return faults
        host = rng.randrange(hosts) if kind in HOST_KINDS else None
        faults.append(Fault(kind, round(moment, 1), host, hold))
        moment += hold + recover_s
