"""The events app's rules of use: who may do what, when, and what it changes.

Views only parse input and call these; the domino rules themselves come from :mod:`amigos.recreo`.
"""

from __future__ import annotations


class EventError(Exception):
    """An action refused for a reason the person can understand (the message is translated)."""
