"""What the site stores about a Recreo event: its set-up, the players, each table's sheet, castigos.

Only facts that people entered are stored (the hands, who keeps the sheet, who confirmed what); the
standings, bets and the extra payment are always recomputed by :mod:`amigos.recreo` from them, so a
correction anywhere is reflected everywhere at once.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

TARGET_CHOICES = [("100", _("100 points")), ("200", _("200 points")), ("hands", _("Hands won"))]
EVENT_NAME_MAX_LENGTH = 100
ORIGIN_MAX_LENGTH = 150
PLAYER_NAME_MAX_LENGTH = 60
PLAYER_COUNT_CHOICES = [(n, str(n)) for n in (4, 5, 6, 7, 8, 12, 16)]


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Being set up")
        RUNNING = "running", _("Under way")
        FINISHED = "finished", _("Finished")

    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organizer"),
        on_delete=models.CASCADE,
        related_name="organized_events",
    )
    name = models.CharField(_("name of the event"), max_length=EVENT_NAME_MAX_LENGTH)
    origin = models.CharField(_("origin"), max_length=ORIGIN_MAX_LENGTH, blank=True)
    date = models.DateField(_("date"))
    player_count = models.PositiveSmallIntegerField(_("number of players"), choices=PLAYER_COUNT_CHOICES)
    target = models.CharField(_("target"), max_length=5, choices=TARGET_CHOICES, default="100")
    time_limit_minutes = models.PositiveSmallIntegerField(_("time limit (minutes)"), null=True, blank=True)
    stake = models.DecimalField(_("stake"), max_digits=9, decimal_places=2, default=0)
    extra_payment = models.BooleanField(_("extra payment"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Bumped on every change (services.live.changed) so that a page can tell it is behind.
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.status != Event.Status.FINISHED


class EventPlayer(models.Model):
    """Player ``number`` of an event; number 1 is the organizer."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="players"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=PLAYER_NAME_MAX_LENGTH)
    email = models.EmailField(_("e-mail address"), blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="event_seats",
    )
    # The lower-cased e-mail while the event is active, empty otherwise: the unique constraint below
    # is what keeps a person in at most one active event, even under concurrent set-ups.
    active_email = models.CharField(
        max_length=254, null=True, blank=True, verbose_name=_("e-mail for the event")
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["number"]
        verbose_name = _("player of an event")
        verbose_name_plural = _("players of events")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["event", "number"], name="events_player_number_unique"),
            models.UniqueConstraint(
                fields=["active_email"],
                condition=Q(active_email__isnull=False),
                name="events_one_active_event",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"


class TableMatch(models.Model):
    """One match at one table in one round: its sheet, who keeps it, and how it ended."""

    class State(models.TextChoices):
        PLAYING = "playing", _("Playing")
        AWAITING = "awaiting", _("Waiting for the organizer")
        CLOSED = "closed", _("Closed")

    class End(models.TextChoices):
        TARGET = "target", _("Target reached")
        SUSPENDED = "suspended", _("Suspended for time")
        DEFAULT = "default", _("Default")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="matches"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    table = models.PositiveSmallIntegerField(_("table"))
    scorekeeper = models.ForeignKey(
        EventPlayer,
        verbose_name=_("scorekeeper"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The scorekeeper writes on behalf of their partner (a player with a disability).
    keeps_for_partner = models.BooleanField(default=False, verbose_name=_("keeps score for the partner"))
    attendance_confirmed = models.BooleanField(default=False, verbose_name=_("attendance confirmed"))
    first_leader = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("first leader"))
    right_of_leader = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("seated right of the leader")
    )
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.PLAYING)
    end = models.CharField(_("how it ended"), max_length=10, choices=End.choices, blank=True)
    offender = models.CharField(_("offending pair"), max_length=1, blank=True)
    score_a = models.PositiveIntegerField(_("score of pair A"), default=0)
    score_b = models.PositiveIntegerField(_("score of pair B"), default=0)
    organizer_requested = models.BooleanField(default=False, verbose_name=_("organizer asked for"))
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))

    class Meta:
        ordering: ClassVar[list[str]] = ["round", "table"]
        verbose_name = _("match at a table")
        verbose_name_plural = _("matches at tables")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["event", "round", "table"], name="events_one_match_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.event} R{self.round} M{self.table}"


class HandRecord(models.Model):
    """One hand on a sheet: the winning pair and tantos, or a tied block (0 for the closing pair)."""

    match = models.ForeignKey(
        TableMatch, verbose_name=_("match"), on_delete=models.CASCADE, related_name="hands"
    )
    index = models.PositiveSmallIntegerField(_("index"))
    end = models.CharField(_("how it ended"), max_length=12)
    side = models.CharField(_("pair"), max_length=1)
    points = models.PositiveIntegerField(_("points"), default=0)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["index"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["match", "index"], name="events_hand_index_unique"),
        ]


class Penalty(models.Model):
    """A castigo: tantos against one player in one round, entered by the organizer."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="penalties"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    player = models.ForeignKey(
        EventPlayer, verbose_name=_("player"), on_delete=models.CASCADE, related_name="penalties"
    )
    points = models.PositiveIntegerField(_("points"))
    reason = models.CharField(_("reason"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["round", "created_at"]
        verbose_name = _("castigo")
        verbose_name_plural = _("castigos")


class TableNote(models.Model):
    """Something that happened at a table besides the hands: the organizer called, a default claim."""

    class Kind(models.TextChoices):
        CALLED = "called", _("The organizer was called")
        DEFAULT_REJECTED = "default_rejected", _("A default claim was rejected")
        DEFAULT_ACCEPTED = "default_accepted", _("A default claim was accepted; waiting for the organizer")

    match = models.ForeignKey(
        TableMatch, verbose_name=_("match"), on_delete=models.CASCADE, related_name="notes"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["created_at"]
        verbose_name = _("note of a table")
        verbose_name_plural = _("notes of tables")
