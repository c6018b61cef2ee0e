"""The ownership lease of a table (amigos.web.tables.lease), on the database of the run, with fake time."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.tables import lease, services, store
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
    assert store.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE) == "a:1:x"
    assert holder(table) == ("a:1:x", T0 + LEASE)
    # taking it again while holding it renews it
    assert store.acquire_lease(table.pk, "a:1:x", later(5), later(5) + LEASE) == "a:1:x"
    assert holder(table) == ("a:1:x", later(5) + LEASE)


def test_a_held_lease_cannot_be_stolen_until_it_expires(table: Table) -> None:
    store.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE)
    for moment in (later(0), later(10), later(14.9)):
        assert store.acquire_lease(table.pk, "b:2:y", moment, moment + LEASE) == "a:1:x"
    assert holder(table) == ("a:1:x", T0 + LEASE)
    # the owner stopped renewing (it died): from the end of the lease anyone may take it
    assert store.acquire_lease(table.pk, "b:2:y", later(15), later(15) + LEASE) == "b:2:y"
    assert holder(table) == ("b:2:y", later(15) + LEASE)
    # and the old owner gets it back only once the new one's lease expires in turn
    assert store.acquire_lease(table.pk, "a:1:x", later(16), later(16) + LEASE) == "b:2:y"


def test_renewing_keeps_a_lease_and_reports_the_lost_ones(
    table: Table, make_player: Callable[..., User]
) -> None:
    other = services.play_against_computer(user=make_player("Beto"), variant="amigos-100", level="easy")
    store.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE)
    store.acquire_lease(other.pk, "a:1:x", T0, T0 + LEASE)
    assert store.renew_leases([table.pk, other.pk], "a:1:x", later(5) + LEASE) == {table.pk, other.pk}
    assert holder(table) == ("a:1:x", later(5) + LEASE)
    # a late renewal: the lease expired and another process took one table meanwhile
    assert store.acquire_lease(other.pk, "b:2:y", later(21), later(21) + LEASE) == "b:2:y"
    assert store.renew_leases([table.pk, other.pk], "a:1:x", later(22) + LEASE) == {table.pk}
    assert holder(other) == ("b:2:y", later(21) + LEASE)
    assert store.renew_leases([], "a:1:x", later(22)) == set()


def test_a_released_table_is_free_at_once_and_only_its_owner_releases(table: Table) -> None:
    store.acquire_lease(table.pk, "a:1:x", T0, T0 + LEASE)
    store.release_leases([table.pk], "b:2:y")
    assert holder(table) == ("a:1:x", T0 + LEASE)
    store.release_leases([table.pk], "a:1:x")
    assert holder(table) == ("", None)
    assert store.acquire_lease(table.pk, "b:2:y", later(1), later(1) + LEASE) == "b:2:y"


def test_adoptable_tables_are_the_unfinished_ones_nobody_holds(
    table: Table, make_player: Callable[..., User]
) -> None:
    held = services.play_against_computer(user=make_player("Beto"), variant="amigos-100", level="easy")
    done = services.play_against_computer(user=make_player("Cata"), variant="amigos-100", level="easy")
    Table.objects.filter(pk=done.pk).update(status=Status.FINISHED)
    store.acquire_lease(held.pk, "b:2:y", T0, T0 + LEASE)
    assert store.adoptable_table_ids("a:1:x", later(1)) == [table.pk]
    assert store.adoptable_table_ids("a:1:x", later(15)) == [table.pk, held.pk]
    assert store.adoptable_table_ids("b:2:y", later(1)) == [table.pk, held.pk]


def test_no_such_table_has_no_holder() -> None:
    assert store.acquire_lease(999_999, "a:1:x", T0, T0 + LEASE) is None


async def test_a_process_trusts_its_lease_only_while_it_is_sure_to_hold_it(
    table: Table, settings: object
) -> None:
    first, second = lease.Leases(), lease.Leases()
    assert first.identity != second.identity and first.identity.count(":") == 2
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
