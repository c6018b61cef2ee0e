"""The queue of an actor's jobs: first in, first out, one reader (the actor's task), any number of
writers, in one event loop.

Why not `asyncio.Queue`: every read of an empty one asks Python for the running loop, and on
Python 3.11 that is a system call (getpid) each time; an actor's queue is empty whenever it waits
for the next command, so every play paid for one, besides the queue's bookkeeping for bounds and
`join`, which an actor never uses. This queue knows its loop from the start and keeps a deque and
at most one waiter.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class JobQueue(Generic[T]):
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put(self, item: T) -> None:
        """Add ``item`` at the end and wake the reader if it waits. Never blocks (no bound)."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The first item, waiting for one if there is none. Only one reader may wait at a time.
        Cancelled while waiting, it takes nothing: the items stay for the next read."""
        while not self._items:
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.popleft()

    def get_nowait(self) -> T:
        """The first item; raises `IndexError` when there is none."""
        return self._items.popleft()

    def empty(self) -> bool:
        return not self._items

    def __len__(self) -> int:
        return len(self._items)
