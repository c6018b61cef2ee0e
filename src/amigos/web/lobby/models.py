"""Lobby data: presence rows, the public chat with its reports, and the administrator's messages."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Status(models.TextChoices):
    """A signed-in player's status. The declaration order is the order of the online list."""

    AVAILABLE = "available", _("available")
    INVITED = "invited", _("invited")
    PLAYING = "playing", _("playing")
    RECONNECTING = "reconnecting", _("reconnecting")


STATUS_ORDER: dict[str, int] = {status.value: rank for rank, status in enumerate(Status)}


class Presence(models.Model):
    """A signed-in player. Exists from sign-in to sign-out; `last_seen` is refreshed by heartbeats.

    Kept in the database (not in a process's memory) so that every process of the site computes the
    same online list.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="presence",
        verbose_name=_("player"),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.AVAILABLE)
    signed_in_at = models.DateTimeField(_("signed in at"), default=timezone.now)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now, db_index=True)
    open_sockets = models.IntegerField(_("open connections"), default=0)

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")

    def __str__(self) -> str:
        return f"{self.user} ({self.status})"


class ChatMessage(models.Model):
    """A message of the public chat. Stored as typed; always rendered as text, never as markup."""

    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    text = models.TextField(_("text"))
    created_at = models.DateTimeField(_("sent at"), default=timezone.now, db_index=True)
    hidden = models.BooleanField(_("hidden by moderation"), default=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class ReportStatus(models.TextChoices):
    OPEN = "open", _("open")
    IGNORED = "ignored", _("ignored")
    WARNED = "warned", _("warning sent")
    BLOCKED = "blocked", _("access blocked")


class ChatReport(models.Model):
    """A player's report of a chat message, from before reports went to the moderation desk.

    Nothing files these any more (`moderation.Report` does, for the lobby too); the rows and their
    admin stay for the decisions already taken and those still open."""

    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_reports_made",
        verbose_name=_("reported by"),
    )
    comment = models.CharField(_("comment"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)
    status = models.CharField(
        _("decision"), max_length=16, choices=ReportStatus.choices, default=ReportStatus.OPEN
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["message", "reporter"], name="lobby_one_report_per_reporter"),
        ]

    def __str__(self) -> str:
        return f"{self.reporter} → {self.message_id}"


class AdminMessage(models.Model):
    """A notice from the administration to one player, or to everyone when `recipient` is empty."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="admin_messages",
        verbose_name=_("recipient"),
        help_text=_("Leave empty to send the message to every player."),
    )
    subject = models.CharField(_("subject"), max_length=120)
    body = models.TextField(_("message"))
    created_at = models.DateTimeField(_("sent at"), default=timezone.now)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        verbose_name = _("message from the administrator")
        verbose_name_plural = _("messages from the administrator")

    def __str__(self) -> str:
        return self.subject


class AdminMessageRead(models.Model):
    """That a player has read an administrator's message (one row per player and message)."""

    message = models.ForeignKey(
        AdminMessage, on_delete=models.CASCADE, related_name="reads", verbose_name=_("message")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    read_at = models.DateTimeField(_("read at"), default=timezone.now)

    class Meta:
        verbose_name = _("message read")
        verbose_name_plural = _("messages read")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["message", "user"], name="lobby_read_once"),
        ]


class TurnReminder(models.Model):
    """When a player was last told by e-mail that a correspondence game waits for their move: at
    most one such mail a day per game (amigos.web.tables.reminders). The game is named by its id
    only, as the lobby sits below the tables and knows nothing of them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    table_id = models.PositiveBigIntegerField(_("table"))
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "table_id"], name="one_turn_reminder_per_game"),
        )
        verbose_name = _("turn reminder")
        verbose_name_plural = _("turn reminders")

    def __str__(self) -> str:
        return f"{self.user} · {self.table_id}"
