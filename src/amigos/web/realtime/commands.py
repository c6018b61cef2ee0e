"""Socket commands, registered by feature: the contract between the socket and the apps behind it.

The socket (`consumer.SiteSocket`) knows the transport only: frames, envelopes, `seq`, limits and
the session. Each feature (the lobby's chat, the live tables, the Recreo board, ...) registers the
commands it answers here, in its own module, imported from its AppConfig.ready(). A handler gets a
`Connection` (the player and the socket's subscriptions) and the command's payload; it returns the
`ack`'s extra fields (or None), or raises `CommandError` with a code from docs/protocol.md, which
the socket turns into an `error` envelope: an error never closes the socket and changes nothing.

A handler runs only for a signed-in socket, one command at a time per socket (in arrival order), and
only after the socket's rate limit let the command through. Any other exception from a handler is a
bug: the socket is closed (1011) and cleaned up, never left half alive.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from amigos.web.operations import metrics


class CommandError(Exception):
    """A refusal with a stable code; `message` is for developers, the site translates the code."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code


#: The largest id a command may name: the databases' keys are 64-bit signed integers, and a larger
#: number reached the driver (SQLite's raised OverflowError) and closed the socket (the fuzz found it).
LARGEST_ID = 2**63 - 1


def int_field(payload: dict[str, Any], name: str, *, lowest: int = 0) -> int:
    """The integer field ``name`` of a command, from ``lowest`` to `LARGEST_ID`; anything else
    (absent included) is refused with ``bad_payload`` before it reaches a query."""
    value = payload.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= LARGEST_ID:
        raise CommandError("bad_payload", f'"{name}" must be an integer from {lowest} to {LARGEST_ID}')
    return value


def optional_int_field(payload: dict[str, Any], name: str, *, lowest: int = 0) -> int | None:
    """`int_field`, or None when the field is absent or null."""
    return None if payload.get(name) is None else int_field(payload, name, lowest=lowest)


class Connection(Protocol):
    """What a command handler may see of, and do with, the socket that sent it."""

    @property
    def user_id(self) -> int: ...

    @property
    def display_name(self) -> str: ...

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the socket runs in, kept: Python 3.11 asks the system for the process's
        id at every `asyncio.get_running_loop()`, and every command would ask."""

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        """Queue an envelope for this socket only (never blocks)."""

    def hold_frames(self) -> None:
        """Keep what is sent to this socket from now until it answers the command it is running,
        then write it all with the answer at once (nothing is dropped or reordered). Outside a
        command, or where there is no socket to write to, it does nothing."""

    async def join(self, topic: str) -> None:
        """Subscribe this socket to a topic of the hub; left automatically when the socket closes."""

    async def leave(self, topic: str) -> None: ...

    @property
    def wants_lobby(self) -> bool:
        """Whether the page shows the meeting room (the online list and the public chat): False
        when it connected with ``?lobby=0`` (docs/protocol.md)."""

    async def activity(self) -> bool:
        """Count a player's action on the idle clock; False when the session has lapsed (the socket
        is then signing out and the handler must stop). Call it after validating the payload and
        before the effect, so a refused command costs no session write; for a command registered
        with activity=True whose handler does not call it, the socket calls it after the handler."""


Handler = Callable[[Connection, dict[str, Any]], Awaitable[dict[str, Any] | None]]
OpenHook = Callable[[Connection], Awaitable[None]]
#: Run when a socket closes (for any reason) or sends a heartbeat; same shape as an open hook.
SocketHook = OpenHook


@dataclass(frozen=True)
class Command:
    type: str
    handler: Handler
    # Whether the command is a player's action (counts on the idle clock; a heartbeat is not).
    activity: bool = True


_registry: dict[str, Command] = {}
_open_hooks: list[OpenHook] = []
_welcome_hooks: list[OpenHook] = []
_close_hooks: list[SocketHook] = []
_heartbeat_hooks: list[SocketHook] = []


def command(type_: str, *, activity: bool = True) -> Callable[[Handler], Handler]:
    """Register `handler` as the answer to the client command `type_` (once per type)."""

    def register(handler: Handler) -> Handler:
        existing = _registry.get(type_)
        if existing is not None and existing.handler is not handler:
            raise RuntimeError(f"socket command {type_!r} is registered twice")
        _registry[type_] = Command(type_, handler, activity)
        return handler

    return register


def on_open(hook: OpenHook) -> OpenHook:
    """Register `hook(connection)`, run for every socket once its player is signed in and welcomed
    (the lobby joins its topic and sends the online list and the chat's history this way)."""
    if hook not in _open_hooks:
        _open_hooks.append(hook)
    return hook


def before_welcome(hook: OpenHook) -> OpenHook:
    """Register `hook(connection)`, run for every signed-in socket before it is welcomed, for what
    the open hooks' pushes depend on (the player's mutes filter the chat history the lobby sends).
    It must push nothing: a client's first envelope is the welcome."""
    if hook not in _welcome_hooks:
        _welcome_hooks.append(hook)
    return hook


def welcome_hooks() -> list[OpenHook]:
    return list(_welcome_hooks)


def open_hooks() -> list[OpenHook]:
    return list(_open_hooks)


def on_close(hook: SocketHook) -> SocketHook:
    """Register `hook(connection)`, run once when a signed-in socket closes, whatever the cause
    (a live table learns this way that a seated player's page went away). A failing hook is
    logged by the socket and never stops the clean-up."""
    if hook not in _close_hooks:
        _close_hooks.append(hook)
    return hook


def close_hooks() -> list[SocketHook]:
    return list(_close_hooks)


def on_heartbeat(hook: SocketHook) -> SocketHook:
    """Register `hook(connection)`, run on every heartbeat of a signed-in socket (a live table
    counts a seat present while its page beats)."""
    if hook not in _heartbeat_hooks:
        _heartbeat_hooks.append(hook)
    return hook


async def heard(connection: Connection) -> None:
    """Run the heartbeat hooks for ``connection`` (called by the `heartbeat` command)."""
    for hook in list(_heartbeat_hooks):
        await hook(connection)


def find(type_: str) -> Command | None:
    return _registry.get(type_)


def registered() -> list[str]:
    return sorted(_registry)


# The command-time histogram labels a type nobody registered as one "unknown" (its label set stays
# as small as this registry): the metrics, below the socket layer, ask it through this.
metrics.know_commands_by(_registry.__contains__)
