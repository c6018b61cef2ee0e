"""A first-in, first-out queue with one reader, bound to one event loop: what the site uses where
`asyncio.Queue` holds and asks more than the job needs.

Two places read such a queue: uvicorn's `receive` (a socket's incoming ASGI events, one per open
socket, so its size is most of a table's memory) and a table's actor (its jobs, one read per
command). `asyncio.Queue` keeps four deques of 64 slots each (one inside its `Event`) for bounds and
`join`, which neither uses, and every read of an empty one asks Python for the running loop, which
Python 3.11 answers with a system call (getpid). This queue keeps a list and at most one waiter,
and knows its loop from the start.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class OneReaderQueue(Generic[T]):
    """Items in arrival order for their one reader; any number of writers, none ever waits (no
    bound). The methods are those of `asyncio.Queue` that its users call."""

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._items: list[T] = []
        self._loop = loop
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        """Add ``item`` at the end and wake the reader if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The first item, waiting for one if there is none. Cancelled while it waits, it takes
        nothing: the items stay for the next read."""
        while not self._items:
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def get_nowait(self) -> T:
        """The first item; raises `IndexError` when there is none."""
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)
