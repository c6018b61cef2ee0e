"""An actor's job queue (`amigos.web.tables.jobs.JobQueue`): first in, first out whatever the
interleaving of writers and the reader, a waiting reader wakes for the next job, and a read
cancelled while it waits takes nothing."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.tables.jobs import JobQueue


@given(st.data())
def test_jobs_come_out_in_the_order_they_went_in_whatever_the_interleaving(data: st.DataObject) -> None:
    """Writers put batches of jobs, at moments the reader is busy or waiting; the reader sometimes
    yields to the loop between reads. Every job comes out once, in order."""
    batches = data.draw(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=12))
    pauses = data.draw(st.lists(st.booleans(), min_size=sum(batches), max_size=sum(batches)))

    async def scenario() -> list[int]:
        queue: JobQueue[int] = JobQueue(asyncio.get_running_loop())
        expected = sum(batches)

        async def write() -> None:
            number = 0
            for size in batches:
                for _ in range(size):
                    queue.put(number)
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
        assert queue.empty() and len(queue) == 0
        return seen

    assert asyncio.run(scenario()) == list(range(sum(batches)))


def test_a_waiting_reader_wakes_for_the_next_job() -> None:
    async def scenario() -> str:
        queue: JobQueue[str] = JobQueue(asyncio.get_running_loop())
        reader = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        assert not reader.done()
        queue.put("play")
        return await asyncio.wait_for(reader, 5)

    assert asyncio.run(scenario()) == "play"


def test_a_read_cancelled_while_it_waits_takes_nothing() -> None:
    async def scenario() -> list[str]:
        queue: JobQueue[str] = JobQueue(asyncio.get_running_loop())
        reader = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        # The job arrives and the reader is cancelled before it runs again: the job stays.
        queue.put("play")
        reader.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reader
        assert len(queue) == 1
        queue.put("pass")
        return [await queue.get(), await queue.get()]

    assert asyncio.run(scenario()) == ["play", "pass"]


def test_reading_an_empty_queue_without_waiting_raises() -> None:
    async def scenario() -> None:
        queue: JobQueue[int] = JobQueue(asyncio.get_running_loop())
        with pytest.raises(IndexError):
            queue.get_nowait()
        queue.put(1)
        assert queue.get_nowait() == 1

    asyncio.run(scenario())
