"""The paced cycle collector of a served process (`amigos.web.collector`)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from amigos.cli import serve
from amigos.web import collector


@pytest.fixture
def restored_collector(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever a test does to the collector, the test session gets Python's own back."""
    monkeypatch.setenv(collector.ENVIRONMENT_KEY, "0")  # restored (unset) after the test
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:  # pragma: no cover - the session runs with the collector on
        gc.disable()


class _Node:
    """A cyclic pair of these is garbage only the cycle collector frees."""

    def __init__(self) -> None:
        self.other: _Node | None = None


def _garbage_cycle() -> weakref.ref[_Node]:
    first, second = _Node(), _Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def test_everything_every_ten_minutes() -> None:
    assert collector.Pace().full_seconds == 600


def test_not_asked_for_leaves_python_collecting(restored_collector: None) -> None:
    async def scenario() -> None:
        collector.pace()
        assert gc.isenabled()
        assert not [task for task in asyncio.all_tasks() if task.get_name() == "amigos-collector"]

    asyncio.run(scenario())


def test_a_served_process_collects_cycles_on_its_beat(
    restored_collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(collector.ENVIRONMENT_KEY, "1")

    async def scenario() -> None:
        collector.pace(collector.Pace(full_seconds=0.05))
        collector.pace()  # once per loop
        tasks = [task for task in asyncio.all_tasks() if task.get_name() == "amigos-collector"]
        assert len(tasks) == 1
        assert not gc.isenabled()
        cycle = _garbage_cycle()
        for _ in range(50):
            await asyncio.sleep(0.05)
            if cycle() is None:
                break
        assert cycle() is None, "the beat freed no cycle"
        tasks[0].cancel()
        with pytest.raises(asyncio.CancelledError):
            await tasks[0]
        assert gc.isenabled(), "a stopped beat gives collection back to Python"

    asyncio.run(scenario())


def test_the_beat_frees_cycles_of_every_generation(restored_collector: None) -> None:
    async def scenario() -> None:
        gc.disable()
        cycle = _garbage_cycle()
        alive = cycle()
        gc.collect(1)  # the cycle reaches the oldest generation while it is still reachable
        del alive
        assert cycle() is not None
        task = asyncio.get_running_loop().create_task(collector.run(collector.Pace(0.01)))
        for _ in range(100):
            await asyncio.sleep(0.01)
            if cycle() is None:
                break
        assert cycle() is None, "the beat freed nothing"
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())


def test_serve_asks_its_processes_for_the_paced_collector(
    restored_collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve._quiet_collector()
    assert collector.wanted()
