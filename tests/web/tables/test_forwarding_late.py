"""A table's owner that is late to answer a forwarded command (issue 40: at start-up, three hosts
building 300 tables while 1,200 sockets joined them answered those joins `busy` thousands of times
and joining took minutes): the owner does not run a request its asker stopped waiting for, and
the asker does not ask the database again after each `busy`."""

from __future__ import annotations

from typing import Any

import pytest

from amigos.web.realtime.commands import CommandError
from amigos.web.tables import forwarding, lease, registry
from tests.web.tables.support import PublishedHub

OWNER = "host:1:boot:owner"


def request(answer_by: float) -> dict[str, Any]:
    return {
        "id": "r1",
        "reply_to": "host:2:boot:asker",
        "answer_by": answer_by,
        "op": "table.presence",
        "table_id": 5,
        "user_id": 7,
        "payload": {},
    }


async def test_a_request_is_sent_with_the_moment_its_asker_stops_waiting(
    hub: PublishedHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(forwarding.time, "time", lambda: 1000.0)
    with pytest.raises(CommandError) as refused:
        # nobody answers: the asker waits no more than the forward timeout
        monkeypatch.setattr(lease, "forward_timeout", lambda: 0.01)
        await forwarding._ask(OWNER, "table.presence", 5, 7, {})
    assert refused.value.code == "busy"
    ((_, _, sent),) = hub.published
    assert sent["answer_by"] == 1000.01


async def test_the_owner_runs_no_request_its_asker_stopped_waiting_for(
    hub: PublishedHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(forwarding.time, "time", lambda: now[0])
    located: list[int] = []

    async def slow_owner(table_id: int, loop: Any = None, *, ended: bool = True) -> None:
        located.append(table_id)
        now[0] += 10  # finding the table (its log read on a queued database thread) took 10 s

    monkeypatch.setattr(registry, "locate", slow_owner)
    # It arrived after its asker had given up: not even looked up.
    await forwarding._serve(request(answer_by=now[0] - forwarding.CLOCK_DRIFT_SECONDS - 0.1))
    assert located == [] and hub.published == []
    # It became too late while the table was found: not run, not answered (before, it was run and
    # answered, to nobody, while the socket's next try waited behind it).
    await forwarding._serve(request(answer_by=now[0] + 5))
    assert located == [5] and hub.published == []
    # In time (a clock a little behind the asker's included): run and answered.
    monkeypatch.setattr(registry, "locate", _nothing)
    await forwarding._serve(request(answer_by=now[0] - forwarding.CLOCK_DRIFT_SECONDS / 2))
    ((_, kind, reply),) = hub.published
    assert kind == forwarding.REPLY and reply["error"]["code"] == "table_not_found"


async def _nothing(table_id: int, loop: Any = None, *, ended: bool = True) -> None:
    return None


async def test_an_owner_that_did_not_answer_is_still_believed(
    hub: PublishedHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    leases = registry.sharing().leases
    leases.confirm(5, OWNER)
    asked: list[int] = []

    async def known(table_id: int, loop: Any = None, *, ended: bool = True) -> registry.Elsewhere | None:
        asked.append(table_id)
        holder = leases.holder_known(table_id)
        return None if holder is None else registry.Elsewhere(holder)

    async def late(*args: Any) -> dict[str, Any]:
        raise CommandError("busy", "the table's process did not answer; try again")

    monkeypatch.setattr(registry, "locate", known)
    monkeypatch.setattr(forwarding, "_ask", late)
    with pytest.raises(CommandError, match="did not answer"):
        await forwarding.run("table.presence", 5, forwarding.Remote(7), {})
    # Before, the belief was dropped and the socket's next try asked the database who holds the
    # table (a statement on the database thread for each `busy`).
    assert leases.holder_known(5) == OWNER


@pytest.mark.parametrize("op", ["table.join", "table.presence"])
async def test_a_join_waits_a_lease_for_its_owner_other_commands_the_forward_timeout(
    hub: PublishedHub, monkeypatch: pytest.MonkeyPatch, op: str
) -> None:
    """A join answered `busy` is asked again with all its work done once more, so it waits longer:
    at start-up (1,000 tables across three hosts) the owners, more than the forward timeout
    behind, answered no join in time and the joins asked again kept them behind."""
    monkeypatch.setattr(forwarding.time, "time", lambda: 1000.0)
    monkeypatch.setattr(lease, "forward_timeout", lambda: 0.01)
    monkeypatch.setattr(lease, "lease_seconds", lambda: 0.02)

    async def elsewhere(table_id: int, loop: Any = None, *, ended: bool = True) -> registry.Elsewhere:
        return registry.Elsewhere(OWNER)

    class NothingHeard:  # the join's buffers on the socket's topics (the test hub has no topics)
        @classmethod
        async def start(cls, table_id: int) -> NothingHeard:
            return cls()

        async def stop(self) -> None:
            return None

    monkeypatch.setattr(registry, "locate", elsewhere)
    monkeypatch.setattr(forwarding, "_Heard", NothingHeard)
    with pytest.raises(CommandError) as refused:
        await forwarding.run(op, 5, forwarding.Remote(7), {"table_id": 5})
    assert refused.value.code == "busy"
    sent = [message for _, kind, message in hub.published if kind == forwarding.REQUEST]
    assert [message["answer_by"] for message in sent] == [1000.02 if op == "table.join" else 1000.01]


class _QueuedActor:
    """An actor whose queue holds a request for ``waits`` seconds of the owner's clock."""

    def __init__(self, now: list[float], waits: float) -> None:
        self.now, self.waits = now, waits

    async def call(self, job: Any) -> Any:
        self.now[0] += self.waits
        return await job()


async def test_the_owner_runs_no_request_its_asker_gave_up_on_while_it_waited_in_the_actors_queue(
    hub: PublishedHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(forwarding.time, "time", lambda: now[0])
    ran: list[int] = []

    async def presence(actor: Any, connection: Any, payload: dict[str, Any]) -> dict[str, Any]:
        ran.append(connection.user_id)
        return {}

    monkeypatch.setitem(forwarding._operations, "table.presence", presence)
    for waits, answered in ((10.0, False), (1.0, True)):
        actor = _QueuedActor(now, waits)
        monkeypatch.setattr(forwarding, "TableActor", _QueuedActor)

        async def here(table_id: int, loop: Any = None, *, ended: bool = True, found: Any = actor) -> Any:
            return found

        monkeypatch.setattr(registry, "locate", here)
        hub.published.clear()
        await forwarding._serve(request(answer_by=now[0] + 5))
        # Too late once its turn came: neither run nor answered; in time: run and answered.
        assert (ran == [7], len(hub.published) == 1) == (answered, answered)
