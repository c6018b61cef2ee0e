"""What moderation keeps: every suspension imposed, reports, the decisions taken on them, mutes.

The cards themselves live in `tables.Card` (written by the table actor); a `Suspension` row marks
where the ladder's counters start again, so the standing of an account is always recomputed from
the stored cards given after its last suspension, never from a counter that could drift.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Cause(models.TextChoices):
    YELLOW = "yellow", _("yellow cards")
    BLUE = "blue", _("blue cards")
    RED = "red", _("red card")
    ADMIN = "admin", _("administrator")


class Suspension(models.Model):
    """One suspension of an account: why, from when to when, and whether it was lifted or shortened."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    cause = models.CharField(_("cause"), max_length=8, choices=Cause.choices)
    starts = models.DateTimeField(_("starts"))
    ends = models.DateTimeField(_("ends"))
    # When the cards that caused it were counted: later cards count towards the next one.
    counted_at = models.DateTimeField(_("counted at"))
    # The id of the last card counted into it (0 for an administrator's block without a card).
    last_card = models.PositiveBigIntegerField(_("last card counted"), default=0)
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)

    class Meta:
        ordering = ("-counted_at",)
        verbose_name = _("suspension")
        verbose_name_plural = _("suspensions")

    def __str__(self) -> str:
        return f"{self.user} {self.starts:%Y-%m-%d} → {self.ends:%Y-%m-%d}"


class Place(models.TextChoices):
    TABLE = "table", _("table")
    TABLE_CHAT = "table_chat", _("table chat")
    LOBBY = "lobby", _("lobby chat")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("open")
    IGNORED = "ignored", _("ignored")
    WARNED = "warned", _("warned")
    BLOCKED = "blocked", _("blocked")


class Report(models.Model):
    """A player reports another, from a table, its chat or the lobby, with a comment."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("reporter")
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("reported player"),
    )
    place = models.CharField(_("place"), max_length=12, choices=Place.choices)
    table = models.ForeignKey(
        "tables.Table",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("table"),
    )
    match = models.PositiveIntegerField(_("match"), null=True, blank=True)
    table_line = models.ForeignKey(
        "tables.TableChatLine",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("table chat line"),
    )
    lobby_line = models.ForeignKey(
        "lobby.ChatMessage",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("lobby chat line"),
    )
    comment = models.CharField(_("comment"), max_length=500)
    status = models.CharField(
        _("status"), max_length=8, choices=ReportStatus.choices, default=ReportStatus.OPEN
    )
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return f"{self.reporter} → {self.reported}"


class Action(models.TextChoices):
    IGNORE = "ignore", _("ignore")
    WARN = "warn", _("warn")
    BLOCK = "block", _("block")
    LIFT = "lift", _("lift suspension")
    SHORTEN = "shorten", _("shorten suspension")


class Decision(models.Model):
    """What an administrator decided, on a report or a suspension: kept for good, with who and when."""

    action = models.CharField(_("action"), max_length=8, choices=Action.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("decided by")
    )
    decided_at = models.DateTimeField(_("decided at"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    report = models.ForeignKey(
        Report,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="decisions",
        verbose_name=_("report"),
    )
    suspension = models.ForeignKey(
        Suspension,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="decisions",
        verbose_name=_("suspension"),
    )
    reason = models.CharField(_("reason"), max_length=500, blank=True, default="")

    class Meta:
        ordering = ("-decided_at",)
        verbose_name = _("decision")
        verbose_name_plural = _("decisions")

    def __str__(self) -> str:
        return f"{self.get_action_display()} · {self.player}"


class Mute(models.Model):
    """``owner`` no longer sees ``muted``'s chat lines (a private choice; the muted player is not told)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("owner")
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("muted player")
    )
    created_at = models.DateTimeField(verbose_name=_("created at"))

    class Meta:
        constraints = (models.UniqueConstraint(fields=["owner", "muted"], name="one_mute_per_pair"),)
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
