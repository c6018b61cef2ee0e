"""Errors of the archive carry a stable code; pages and commands translate the code, never the text."""

from __future__ import annotations


class ArchiveError(ValueError):
    """A hand-over or import the archive refuses; nothing was written.

    Codes: ``record-invalid`` (the record breaks the rules), ``seats-mismatch`` (one account per
    seat of the record is needed), ``unknown-player`` (an account that does not exist),
    ``player-twice`` (one account in two seats), ``naive-time`` (times without a time zone),
    ``time-order`` (the match ended before it started), ``time-invalid`` (an imported time that is
    not ISO 8601), ``source-invalid`` (an empty or too long source key), ``unreadable`` (a line of
    a JSON Lines file that is not strict JSON).
    """

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}")

    def __reduce__(self) -> tuple[type[ArchiveError], tuple[str, str]]:
        # Rebuilt from both fields when it travels back from an import's worker process.
        return (ArchiveError, (self.code, self.detail))
