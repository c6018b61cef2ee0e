"""Who may send a table a command, before what the command asks is judged.

A command comes from a player's page. Before the table looks at what it asks (a move, a new deal,
a choice after the match), it checks who sent it and what they saw, in one order, for every such
command: the server's actor (`table.play`, `table.reshuffle`, `table.vote`, and a seated join or
presence) and the pure table (which knows no versions: its inputs carry the seat the server
authenticated, so only the seat is checked there).
"""

from __future__ import annotations


def sender_refusal(*, seated: bool, saw: int | None = None, version: int | None = None) -> str | None:
    """Why a command is refused by who sent it (a protocol code), or None: the sender must hold a
    seat at this table (``not_seated``: spectators and strangers cannot act), and the table must
    not have moved on since the version they saw (``stale_version``: nothing changes, the page
    catches up and sends it again; ``saw`` None: the command carries no version). Asked in that
    order, before the command's own refusals (`play_refusal`, `vote_refusal`)."""
    if not seated:
        return "not_seated"
    if saw is not None and saw != version:
        return "stale_version"
    return None
