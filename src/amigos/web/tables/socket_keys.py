"""Each socket's name for the tables, unique across processes (the process's part, then the socket).

Its own module: the actor and the socket tier's presence hooks (`attendance`) both need it, and
the actor must not import `attendance`, which reaches the registry that builds actors.
"""

from __future__ import annotations

import secrets

from amigos.web.realtime.commands import Connection

#: This process's part of every socket key.
PROCESS = secrets.token_hex(6)


def key_of(connection: Connection) -> str:
    """The socket's name for the tables, unique across processes."""
    return f"{PROCESS}:{id(connection)}"
