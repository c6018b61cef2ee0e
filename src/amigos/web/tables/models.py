"""What a table keeps in the database: enough to rebuild every unfinished table after a restart.

The event log (TableEvent) is the source of truth of a table's play: the actor appends to it, in
the same transaction as the table's new version, deadline and cards, before anybody is told. The
log's data is audience-neutral (it holds each seat's private part under its seat number); what a
seat or a spectator receives is rendered from it by `rendering.render`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from amigos.web.archive.models import ReviewOfHand


class Kind(models.TextChoices):
    LIVE = "live", _("live")
    CORRESPONDENCE = "correspondence", _("correspondence")


class Status(models.TextChoices):
    INVITING = "inviting", _("inviting")
    PLAYING = "playing", _("playing")
    VOTING = "voting", _("voting")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


#: Tables an actor keeps alive (rebuilt at process start).
OPEN_STATUSES = (Status.INVITING, Status.PLAYING, Status.VOTING)


class Level(models.TextChoices):
    EASY = "easy", _("easy")
    NORMAL = "normal", _("normal")
    HARD = "hard", _("hard")


class Invitation(models.TextChoices):
    PENDING = "pending", _("pending")
    ACCEPTED = "accepted", _("accepted")
    REFUSED = "refused", _("refused")
    EXPIRED = "expired", _("expired")


class Table(models.Model):
    name = models.CharField(max_length=60)
    variant = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.LIVE)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.INVITING)
    version = models.PositiveIntegerField(default=0)
    match_number = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # The next deadline the actor must act on (turn clock, invitation, vote), and what it is for.
    deadline_at = models.DateTimeField(null=True, blank=True)
    deadline_kind = models.CharField(max_length=24, blank=True, default="")
    # Item 5 of issue 9: which process owns the actor, until when (renewed while it lives).
    owner = models.CharField(max_length=80, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)
    next_table = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        indexes = (
            models.Index(fields=["status"]),
            # An account's recent creations are counted at each new table (`limits`).
            models.Index(fields=["organizer", "created_at"], name="tables_organizer_created"),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.variant})"


class Seat(models.Model):
    """One place at a table: an online player (user) or a computer player (level)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    level = models.CharField(max_length=8, choices=Level.choices, blank=True, default="")
    invitation = models.CharField(max_length=10, choices=Invitation.choices, default=Invitation.PENDING)
    invited_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number"),)
        ordering = (
            "table",
            "number",
        )

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


class TableEvent(models.Model):
    """One numbered event of a table's log (version = the table's version after it)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=24)
    data = models.JSONField()
    at = models.DateTimeField()

    class Meta:
        constraints = (models.UniqueConstraint(fields=["table", "version"], name="one_event_per_version"),)
        ordering = (
            "table",
            "version",
        )


class MatchRecord(models.Model):
    """The record (RECORD-FORMAT) of each match of a table, kept up to date hand by hand."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="records")
    number = models.PositiveIntegerField()
    record = models.JSONField()
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    termination = models.CharField(max_length=16, blank=True, default="")
    archived = models.BooleanField(default=False)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["table", "number"], name="one_record_per_match"),)


class CardColour(models.TextChoices):
    YELLOW = "yellow", _("yellow")
    BLUE = "blue", _("blue")
    RED = "red", _("red")


class Card(models.Model):
    """A penalty card given at a table (moderation reads these to suspend accounts).

    A card outlives its table: deleting a table in the admin must not wipe the player's standing on
    the ladder, so the link is cleared instead (the card keeps its match, hand and moment)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="cards")
    match = models.PositiveIntegerField()
    hand = models.PositiveIntegerField(null=True, blank=True)
    colour = models.CharField(max_length=8, choices=CardColour.choices)
    reason = models.CharField(max_length=24)
    given_at = models.DateTimeField()

    class Meta:
        indexes = (models.Index(fields=["user", "colour"]),)


class TableChatLine(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=500)
    sent_at = models.DateTimeField()


class LiveHandReview(ReviewOfHand):
    """A seated player's review of their own plays in a hand that ended at a live table.

    Beyond the spec: the match is not archived until it ends, so the review reads the table's
    live record (:class:`MatchRecord`, rewritten at every hand's end) instead of the archive's."""

    record = models.ForeignKey(MatchRecord, on_delete=models.CASCADE, related_name="reviews")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["record", "hand", "seat"], name="tables_one_review_per_hand_seat"
            ),
        )

    def source_record(self) -> dict[str, Any]:
        record: dict[str, Any] = self.record.record
        return record

    def __str__(self) -> str:
        return f"live review {self.record_id}/{self.hand}/{self.seat}: {self.status}"
