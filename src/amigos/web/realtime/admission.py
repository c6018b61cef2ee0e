"""Sockets open a few at a time.

When a server restarts, or a room of players reconnects together, thousands of sockets open at
once. Each opening checks the session, loads the player's mutes, records the presence and runs the
features' hooks: work that waits its turn on the one database thread anyway. Started all together,
every one of them sits half-built meanwhile, its queries' rows and buffers alive; the process grows
by that peak and, its memory fragmented by it, never gives it back (bench/load.py measures it).

So at most `AT_ONCE` sockets of a process go through that work at the same time; the others wait
just after the handshake (which is answered at once, so no client's opening times out), holding
little. The database does the same work in the same order, so no socket is let in later than it
would have been; they are just not all half-open together.
"""

from __future__ import annotations

import asyncio
import weakref

#: How many sockets of one process may be opening at the same time.
AT_ONCE = 32

# One semaphore per event loop: a semaphore belongs to the loop it first waited on, and tests run
# servers on several loops in one process.
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def opening() -> asyncio.Semaphore:
    """The running loop's gate: `async with opening():` around a socket's opening work."""
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(AT_ONCE)
    return gate
