"""Writes of the archive: the hand-over of a played match, imports, and the rating they feed."""

from __future__ import annotations

from .handover import archive_match

__all__ = ["archive_match"]
