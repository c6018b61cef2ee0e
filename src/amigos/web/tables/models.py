"""What a table keeps in the database: enough to rebuild every unfinished table after a restart.

The log (one `LogRow` per entry) is the source of truth of a table's play: the actor appends to it, in
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
    EXPERT = "expert", _("expert")


class Invitation(models.TextChoices):
    PENDING = "pending", _("pending")
    ACCEPTED = "accepted", _("accepted")
    REFUSED = "refused", _("refused")
    EXPIRED = "expired", _("expired")


class Table(models.Model):
    name = models.CharField(max_length=60, verbose_name=_("name"))
    variant = models.CharField(max_length=40, verbose_name=_("variant"))
    players = models.PositiveSmallIntegerField(verbose_name=_("players"))
    target = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("target"))
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.LIVE, verbose_name=_("kind"))
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("organizer")
    )
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.INVITING, verbose_name=_("status")
    )
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    match_number = models.PositiveIntegerField(default=0, verbose_name=_("match number"))
    created_at = models.DateTimeField(verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    # The next deadline the actor must act on (turn clock, invitation, vote), and what it is for.
    deadline_at = models.DateTimeField(null=True, blank=True, verbose_name=_("deadline"))
    deadline_kind = models.CharField(max_length=24, blank=True, default="", verbose_name=_("deadline kind"))
    # Item 5 of issue 9: which process owns the actor, until when (renewed while it lives).
    owner = models.CharField(max_length=80, blank=True, default="", verbose_name=_("owner"))
    lease_until = models.DateTimeField(null=True, blank=True, verbose_name=_("held until"))
    next_table = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("next table"),
    )

    class Meta:
        indexes = (
            models.Index(fields=["status"]),
            # An account's recent creations are counted at each new table (`limits`).
            models.Index(fields=["organizer", "created_at"], name="tables_organizer_created"),
        )
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        # Its number, not its game's code: the admin shows this wherever a table is linked.
        return f"{self.name} (#{self.pk})"


class Seat(models.Model):
    """One place at a table: an online player (user) or a computer player (level)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player"),
    )
    level = models.CharField(
        max_length=8, choices=Level.choices, blank=True, default="", verbose_name=_("level")
    )
    invitation = models.CharField(
        max_length=10, choices=Invitation.choices, default=Invitation.PENDING, verbose_name=_("invitation")
    )
    invited_until = models.DateTimeField(null=True, blank=True, verbose_name=_("invited until"))

    class Meta:
        constraints = (models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number"),)
        ordering = (
            "table",
            "number",
        )
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


class LogRow(models.Model):
    """One numbered entry of a table's log, as stored (version = the table's version after it;
    `log_codec` turns the kind and data into a `log_entries.LogEntry` and back)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="log_rows", verbose_name=_("table")
    )
    version = models.PositiveIntegerField(verbose_name=_("version"))
    kind = models.CharField(max_length=24, verbose_name=_("kind"))
    data = models.JSONField(verbose_name=_("data"))
    at = models.DateTimeField(verbose_name=_("at"))

    class Meta:
        constraints = (models.UniqueConstraint(fields=["table", "version"], name="one_event_per_version"),)
        ordering = (
            "table",
            "version",
        )
        verbose_name = _("log row")
        verbose_name_plural = _("log rows")


class MatchRecord(models.Model):
    """The record (RECORD-FORMAT) of each match of a table, kept up to date hand by hand."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="records", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(verbose_name=_("number"))
    record = models.JSONField(verbose_name=_("record"))
    started_at = models.DateTimeField(verbose_name=_("started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    termination = models.CharField(max_length=16, blank=True, default="", verbose_name=_("termination"))
    archived = models.BooleanField(default=False, verbose_name=_("archived"))

    class Meta:
        constraints = (models.UniqueConstraint(fields=["table", "number"], name="one_record_per_match"),)
        verbose_name = _("match record")
        verbose_name_plural = _("match records")


class CardColour(models.TextChoices):
    YELLOW = "yellow", _("yellow")
    BLUE = "blue", _("blue")
    RED = "red", _("red")


#: Why a card was given, in words (docs/protocol.md, the `card` event's ``reason``): the stored code
#: never reaches a page. A code missing here is shown as "other reason", never raw.
CARD_REASONS = {
    "slow_single": _("the single tile's 5 seconds ran out"),
    "timeout": _("the time of a turn ran out"),
    "every_5s": _("5 more seconds passed without a move"),
    "no_reconnection": _("did not come back to the table within 5 minutes"),
    "staff": _("given by an administrator"),
}


class Card(models.Model):
    """A penalty card given at a table (moderation reads these to suspend accounts).

    A card outlives its table: deleting a table in the admin must not wipe the player's standing on
    the ladder, so the link is cleared instead (the card keeps its match, hand and moment)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="cards", verbose_name=_("table")
    )
    match = models.PositiveIntegerField(verbose_name=_("match"))
    hand = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("hand"))
    colour = models.CharField(max_length=8, choices=CardColour.choices, verbose_name=_("colour"))
    reason = models.CharField(max_length=24, verbose_name=_("reason"))
    given_at = models.DateTimeField(verbose_name=_("given at"))

    class Meta:
        indexes = (models.Index(fields=["user", "colour"]),)
        verbose_name = _("card")
        verbose_name_plural = _("cards")

    @property
    def reason_label(self) -> str:
        """The reason in the reader's language (the code itself is for the ladder and the logs)."""
        return str(CARD_REASONS.get(self.reason, _("other reason")))


class TableChatLine(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat", verbose_name=_("table"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("author")
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("seat"))
    text = models.CharField(max_length=500, verbose_name=_("text"))
    sent_at = models.DateTimeField(verbose_name=_("sent at"))

    class Meta:
        verbose_name = _("table chat line")
        verbose_name_plural = _("table chat lines")


class LiveHandReview(ReviewOfHand):
    """A seated player's review of their own plays in a hand that ended at a live table.

    Beyond the spec: the match is not archived until it ends, so the review reads the table's
    live record (:class:`MatchRecord`, rewritten at every hand's end) instead of the archive's."""

    record = models.ForeignKey(
        MatchRecord, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("record")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["record", "hand", "seat"], name="tables_one_review_per_hand_seat"
            ),
        )
        verbose_name = _("live hand review")
        verbose_name_plural = _("live hand reviews")

    def source_record(self) -> dict[str, Any]:
        record: dict[str, Any] = self.record.record
        return record

    def __str__(self) -> str:
        return f"live review {self.record_id}/{self.hand}/{self.seat}: {self.status}"
