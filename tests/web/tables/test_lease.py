"""The ownership lease of a table (amigos.web.tables.lease), on the database of the run, with fake time."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.tables import lease, lease_rows, services
from amigos.web.tables.models import Status, Table

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
LEASE = timedelta(seconds=15)


def later(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def table(make_player: Callable[..., User]) -> Table:
    user = make_player("Ana")
    return services.play_against_computer(user=user, variant="amigos-100", level="easy")


def holder(table: Table) -> tuple[str, datetime | None]:
    table.refresh_from_db()
    return table.owner, table.lease_until


def test_a_free_table_is_taken_and_kept_by_its_owner(table: Table) -> None:
    assert holder(table) == ("", None)
    assert lease_rows.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE) == "a:1:x"
    assert holder(table) == ("a:1:x", T0 + LEASE)
    # taking it again while holding it renews it
    assert lease_rows.acquire_lease(table.pk, "a:1:x", later(5), later(5) + LEASE) == "a:1:x"
    assert holder(table) == ("a:1:x", later(5) + LEASE)


def test_a_held_lease_cannot_be_stolen_until_it_expires(table: Table) -> None:
    lease_rows.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE)
    for moment in (later(0), later(10), later(14.9)):
        assert lease_rows.acquire_lease(table.pk, "b:2:y", moment, moment + LEASE) == "a:1:x"
    assert holder(table) == ("a:1:x", T0 + LEASE)
    # the owner stopped renewing (it died): from the end of the lease anyone may take it
    assert lease_rows.acquire_lease(table.pk, "b:2:y", later(15), later(15) + LEASE) == "b:2:y"
    assert holder(table) == ("b:2:y", later(15) + LEASE)
    # and the old owner gets it back only once the new one's lease expires in turn
    assert lease_rows.acquire_lease(table.pk, "a:1:x", later(16), later(16) + LEASE) == "b:2:y"


def test_renewing_keeps_a_lease_and_reports_the_lost_ones(
    table: Table, make_player: Callable[..., User]
) -> None:
    other = services.play_against_computer(user=make_player("Beto"), variant="amigos-100", level="easy")
    lease_rows.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE)
    lease_rows.acquire_lease(other.pk, "a:1:x", T0, T0 + LEASE)
    assert lease_rows.renew_leases([table.pk, other.pk], "a:1:x", later(5) + LEASE) == {table.pk, other.pk}
    assert holder(table) == ("a:1:x", later(5) + LEASE)
    # a late renewal: the lease expired and another process took one table meanwhile
    assert lease_rows.acquire_lease(other.pk, "b:2:y", later(21), later(21) + LEASE) == "b:2:y"
    assert lease_rows.renew_leases([table.pk, other.pk], "a:1:x", later(22) + LEASE) == {table.pk}
    assert holder(other) == ("b:2:y", later(21) + LEASE)
    assert lease_rows.renew_leases([], "a:1:x", later(22)) == set()


def test_a_released_table_is_free_at_once_and_only_its_owner_releases(table: Table) -> None:
    lease_rows.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE)
    lease_rows.release_leases([table.pk], "b:2:y")
    assert holder(table) == ("a:1:x", T0 + LEASE)
    lease_rows.release_leases([table.pk], "a:1:x")
    assert holder(table) == ("", None)
    assert lease_rows.acquire_lease(table.pk, "b:2:y", later(1), later(1) + LEASE) == "b:2:y"


def test_adoptable_tables_are_the_unfinished_ones_nobody_holds(
    table: Table, make_player: Callable[..., User]
) -> None:
    held = services.play_against_computer(user=make_player("Beto"), variant="amigos-100", level="easy")
    done = services.play_against_computer(user=make_player("Cata"), variant="amigos-100", level="easy")
    Table.objects.filter(pk=done.pk).update(status=Status.FINISHED)
    lease_rows.acquire_lease(held.pk, "b:2:y", T0, T0 + LEASE)
    assert lease_rows.adoptable_table_ids("a:1:x", later(1)) == [table.pk]
    assert lease_rows.adoptable_table_ids("a:1:x", later(15)) == [table.pk, held.pk]
    assert lease_rows.adoptable_table_ids("b:2:y", later(1)) == [table.pk, held.pk]


def test_no_such_table_has_no_holder() -> None:
    assert lease_rows.acquire_lease(999_999, "a:1:x", T0, T0 + LEASE) is None


async def test_a_process_trusts_its_lease_only_while_it_is_sure_to_hold_it(
    table: Table, settings: object
) -> None:
    first, second = lease.Leases(), lease.Leases()
    assert first.identity != second.identity and first.identity.count(":") == 3
    assert await first.acquire(table.pk, T0) == first.identity
    assert first.holds(table.pk) and not second.holds(table.pk)
    assert await second.acquire(table.pk, later(5)) == first.identity
    assert not second.holds(table.pk)
    assert await first.renew([table.pk], later(5)) == set()
    # the first process hangs past its lease; the second takes the table; the first finds out
    assert await second.acquire(table.pk, later(25)) == second.identity
    assert await first.renew([table.pk], later(26)) == {table.pk}
    assert not first.holds(table.pk)
    assert await first.adoptable(later(26)) == []
    await second.release([table.pk])
    assert not second.holds(table.pk)
    assert await first.adoptable(later(26)) == [table.pk]
    owner = await sync_to_async(holder)(table)
    assert owner == ("", None)


def a_dead_process_of_this_machine() -> str:
    """The identity a server process of this machine had before it died (it ran and ended)."""
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    pid = int(ended.stdout)
    return f"{socket.gethostname()[:40]}:{pid}:{lease.BOOT}:0badc0de"


def test_who_died_here_is_told_from_who_may_still_run() -> None:
    mine = lease.new_identity()
    assert not lease.died_here(mine)  # this very process
    dead = a_dead_process_of_this_machine()
    assert lease.died_here(dead)
    host, pid, boot, rand = dead.split(":")
    assert not lease.died_here(f"{host}:{os.getppid()}:{boot}:{rand}")  # a process that runs
    assert not lease.died_here(f"another-machine:{pid}:{boot}:{rand}")
    assert not lease.died_here(f"{host}:{pid}:00000000:{rand}")  # before the machine restarted
    assert not lease.died_here(f"{host}:{pid}:{rand}")  # the older form of a name: waited out
    assert not lease.died_here("")


def test_a_lease_of_a_process_that_died_here_is_taken_back_at_once(table: Table) -> None:
    """Regression: a server restarted right after a crash answered `busy` until the dead
    process's lease expired (15 s)."""
    dead = a_dead_process_of_this_machine()
    assert lease_rows.acquire_lease(table.pk, dead, T0, T0 + LEASE) == dead
    assert lease_rows.acquire_lease(table.pk, "b", later(1), later(1) + LEASE) == dead  # still valid
    assert lease_rows.lease_holders(later(1)) == [dead]
    assert lease_rows.adoptable_table_ids("b", later(1), dead=[dead]) == [table.pk]
    assert lease_rows.acquire_lease(table.pk, "b", later(1), later(1) + LEASE, dead=[dead]) == "b"


async def test_a_restarted_process_takes_its_dead_predecessors_tables_without_waiting(table: Table) -> None:
    dead = a_dead_process_of_this_machine()
    now = timezone.now()
    await sync_to_async(lease_rows.acquire_lease)(table.pk, dead, now, now + LEASE)
    restarted = lease.Leases()
    assert await restarted.adoptable(now) == [table.pk]
    assert await restarted.acquire(table.pk, now) == restarted.identity
    # A live holder (this test's own process under another name) is waited out as before.
    other = lease.Leases()
    assert await other.acquire(table.pk, now) == restarted.identity


async def test_a_holder_found_elsewhere_is_believed_for_a_renewal_period_unless_seen_wrong(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that forwards a table's commands asks the database who runs it once per renewal
    period, not once per command, and asks again at once when the answer is seen to be wrong."""
    owner, forwarder = lease.Leases(), lease.Leases()
    assert forwarder.holder_known(table.pk) is None
    assert await owner.acquire(table.pk) == owner.identity
    assert await forwarder.acquire(table.pk) == owner.identity
    assert forwarder.holder_known(table.pk) == owner.identity
    assert owner.holder_known(table.pk) is None  # one's own tables are trusted by `holds`
    forwarder.forget(table.pk)  # the owner did not answer, or said it moved
    assert forwarder.holder_known(table.pk) is None
    assert await forwarder.acquire(table.pk) == owner.identity
    real = lease.time.monotonic
    monkeypatch.setattr(lease.time, "monotonic", lambda: real() + lease.renew_seconds())
    assert forwarder.holder_known(table.pk) is None  # a renewal period later: ask again
    monkeypatch.undo()
    forwarder.confirm(table.pk, owner.identity)  # the owner answered a command: believed again
    assert forwarder.holder_known(table.pk) == owner.identity
    await owner.release([table.pk])
    assert await forwarder.acquire(table.pk) == forwarder.identity  # a free table is taken
    assert forwarder.holder_known(table.pk) is None


async def test_a_holder_that_died_here_or_left_its_table_adoptable_is_not_believed(table: Table) -> None:
    dead = a_dead_process_of_this_machine()
    forwarder = lease.Leases()
    forwarder.elsewhere[table.pk] = (dead, float("inf"))
    assert forwarder.holder_known(table.pk) is None  # its pid is gone: no need to wait
    other = lease.Leases()
    forwarder.elsewhere[table.pk] = (other.identity, float("inf"))
    assert forwarder.holder_known(table.pk) == other.identity
    assert await forwarder.adoptable() == [table.pk]  # nobody holds it in the database
    assert forwarder.holder_known(table.pk) is None


async def test_a_holder_found_after_a_slow_answer_is_believed_from_the_answer(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (issue 40): behind a queued database thread the answer came after the belief had
    run out, so every command for the table asked the database again (and queued it further)."""
    owner, forwarder = lease.Leases(), lease.Leases()
    assert await owner.acquire(table.pk) == owner.identity
    clock = [100.0]
    monkeypatch.setattr(lease.time, "monotonic", lambda: clock[0])
    real = lease_rows.acquire_lease

    def slow(*args: object, **kwargs: object) -> str | None:
        clock[0] += 2 * lease.renew_seconds()  # the statement waited behind the sockets' openings
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lease_rows, "acquire_lease", slow)
    assert await forwarder.acquire(table.pk) == owner.identity
    assert forwarder.holder_known(table.pk) == owner.identity
    clock[0] += lease.renew_seconds()
    assert forwarder.holder_known(table.pk) is None  # a renewal period after the answer: ask again
