"""The one-reader queue (`amigos.web.realtime.queues.OneReaderQueue`) of a socket's incoming events
and of an actor's jobs: first in, first out whatever the interleaving of writers and the reader, a
waiting reader wakes for the next item, and a read cancelled while it waits takes nothing."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.realtime.queues import OneReaderQueue


@given(st.data())
def test_items_come_out_in_the_order_they_went_in_whatever_the_interleaving(data: st.DataObject) -> None:
    """Writers put batches of items, at moments the reader is busy or waiting; the reader sometimes
    yields to the loop between reads. Every item comes out once, in order."""
    batches = data.draw(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=12))
    pauses = data.draw(st.lists(st.booleans(), min_size=sum(batches), max_size=sum(batches)))

    async def scenario() -> list[int]:
        queue: OneReaderQueue[int] = OneReaderQueue(asyncio.get_running_loop())
        expected = sum(batches)

        async def write() -> None:
            number = 0
            for size in batches:
                for _ in range(size):
                    queue.put_nowait(number)
                    number += 1
                await asyncio.sleep(0)

        async def read() -> list[int]:
            seen = []
            for pause in pauses[:expected]:
                seen.append(await queue.get())
                if pause:
                    await asyncio.sleep(0)
            return seen

        reader = asyncio.create_task(read())
        await write()
        seen = await asyncio.wait_for(reader, 5)
        assert queue.empty() and queue.qsize() == 0
        return seen

    assert asyncio.run(scenario()) == list(range(sum(batches)))


def test_a_waiting_reader_wakes_for_the_next_item() -> None:
    async def scenario() -> str:
        queue: OneReaderQueue[str] = OneReaderQueue(asyncio.get_running_loop())
        reader = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        assert not reader.done()
        queue.put_nowait("play")
        return await asyncio.wait_for(reader, 5)

    assert asyncio.run(scenario()) == "play"


def test_a_read_cancelled_while_it_waits_takes_nothing() -> None:
    async def scenario() -> list[str]:
        queue: OneReaderQueue[str] = OneReaderQueue(asyncio.get_running_loop())
        reader = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        # The item arrives and the reader is cancelled before it runs again: the item stays.
        queue.put_nowait("play")
        reader.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reader
        assert queue.qsize() == 1
        queue.put_nowait("pass")
        return [await queue.get(), await queue.get()]

    assert asyncio.run(scenario()) == ["play", "pass"]


def test_reading_an_empty_queue_without_waiting_raises() -> None:
    async def scenario() -> None:
        queue: OneReaderQueue[int] = OneReaderQueue(asyncio.get_running_loop())
        with pytest.raises(IndexError):
            queue.get_nowait()
        queue.put_nowait(1)
        assert queue.get_nowait() == 1

    asyncio.run(scenario())


async def test_events_come_out_in_order_and_a_waiting_reader_is_woken() -> None:
    events = OneReaderQueue(asyncio.get_running_loop())
    assert events.empty() and events.qsize() == 0
    events.put_nowait(1)
    events.put_nowait(2)
    assert await events.get() == 1
    reader = asyncio.ensure_future(events.get())
    assert await events.get() == 2  # what was there before the reader waits comes first
    await asyncio.sleep(0)
    assert not reader.done()
    events.put_nowait(3)
    assert await asyncio.wait_for(reader, 1) == 3
    assert events.empty()


async def test_a_cancelled_reader_leaves_the_list_usable() -> None:
    events = OneReaderQueue(asyncio.get_running_loop())
    reader = asyncio.ensure_future(events.get())
    await asyncio.sleep(0)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    events.put_nowait("after")
    assert await asyncio.wait_for(events.get(), 1) == "after"
