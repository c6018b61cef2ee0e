"""What the archive stores: each match with its record, each seat's player and summary, the PRs.

A match's statistics are computed once, when it is archived, from the replay of its record, and
kept beside it (per seat in :class:`MatchSeat`, per hand in ``ArchivedMatch.hands``): a player's
page then reads a few indexed rows instead of replaying thousands of matches. The record itself is
kept whole (with whatever extensions the live table added) for the replay portal and the Academy.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

SOURCE_MAX_LENGTH = 200
NAME_MAX_LENGTH = 100


class Family(models.TextChoices):
    AMIGOS = "amigos", _("Amigos")
    CUBAN = "cuban", _("Cuban")
    DRAW = "draw", _("Draw and fives")


class Result(models.TextChoices):
    WON = "won", _("won")
    LOST = "lost", _("lost")
    UNFINISHED = "unfinished", _("unfinished")


class ArchivedMatch(models.Model):
    # Who handed the match over and which match it was ("table:<id>:match:<n>", "import:<hash>"):
    # unique, so a second hand-over of the same match is recognised and changes nothing.
    source = models.CharField(max_length=SOURCE_MAX_LENGTH, unique=True, verbose_name=_("source"))
    variant = models.CharField(_("variant"), max_length=40)
    family = models.CharField(_("game"), max_length=10, choices=Family.choices)
    table_name = models.CharField(_("table"), max_length=NAME_MAX_LENGTH, blank=True)
    started_at = models.DateTimeField(_("started at"))
    ended_at = models.DateTimeField(_("ended at"), db_index=True)
    complete = models.BooleanField(_("complete"))
    winner = models.PositiveSmallIntegerField(_("winning side"), null=True, blank=True)
    # Totals per side as counted, and as written on the sheet (winners at the target in 100/200).
    score = models.JSONField(default=list, verbose_name=_("score"))
    official_score = models.JSONField(default=list, verbose_name=_("official score"))
    hand_count = models.PositiveSmallIntegerField(default=0, verbose_name=_("hands"))
    record = models.JSONField(verbose_name=_("record"))
    # One summary per hand (see amigos.web.archive.summary.hand_summaries).
    hands = models.JSONField(default=list, verbose_name=_("hands"))
    # The place of this match in the rating's order (None: the match did not count for the rating).
    rating_sequence = models.PositiveIntegerField(
        null=True, blank=True, unique=True, verbose_name=_("rating sequence")
    )
    archived_at = models.DateTimeField(auto_now_add=True, verbose_name=_("archived at"))

    class Meta:
        verbose_name = _("archived match")
        verbose_name_plural = _("archived matches")
        ordering: ClassVar[list[str]] = ["-ended_at", "-id"]

    def __str__(self) -> str:
        return f"{self.variant} {self.table_name} {self.ended_at:%Y-%m-%d %H:%M}"


class MatchSeat(models.Model):
    """One seat of an archived match: who sat there (an account, a guest or a computer player) and
    the match seen from that seat's side. Carries copies of the match's date, game and status so
    that a player's matches are listed from one index."""

    match = models.ForeignKey(
        ArchivedMatch, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    side = models.PositiveSmallIntegerField(verbose_name=_("side"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="archived_seats",
        verbose_name=_("player"),
    )
    name = models.CharField(max_length=NAME_MAX_LENGTH, verbose_name=_("name"))
    is_computer = models.BooleanField(default=False, verbose_name=_("computer player"))
    ended_at = models.DateTimeField(verbose_name=_("ended at"))
    variant = models.CharField(max_length=40, verbose_name=_("variant"))
    family = models.CharField(max_length=10, choices=Family.choices, verbose_name=_("game"))
    result = models.CharField(max_length=10, choices=Result.choices, verbose_name=_("result"))
    hands_won = models.PositiveSmallIntegerField(default=0, verbose_name=_("hands won"))
    hands_lost = models.PositiveSmallIntegerField(default=0, verbose_name=_("hands lost"))
    points_for = models.IntegerField(default=0, verbose_name=_("points for"))
    points_against = models.IntegerField(default=0, verbose_name=_("points against"))
    # Zapato / pollona: the match won with the other side(s) still at 0 (or lost that way).
    shutout_for = models.BooleanField(default=False, verbose_name=_("zapato given"))
    shutout_against = models.BooleanField(default=False, verbose_name=_("zapato taken"))
    capicuas = models.PositiveSmallIntegerField(default=0, verbose_name=_("capicúas"))
    viajeras = models.PositiveSmallIntegerField(default=0, verbose_name=_("viajeras"))

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["match", "seat"], name="archive_one_player_per_seat"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "-ended_at", "-match"], name="archive_seat_user_recent"),
        ]
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")

    def __str__(self) -> str:
        return f"{self.name} @ {self.match_id}:{self.seat}"


class PlayerRating(models.Model):
    """A registered player's PR. A player without a row has PR 0 and no match counted."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating",
        verbose_name=_("player"),
    )
    pr = models.IntegerField(_("PR"), default=0, db_index=True)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.pr}"


class RatingChange(models.Model):
    """One player's PR before and after one rated match, with the quintiles then: the graph of the
    statistics page reads these rows."""

    match = models.ForeignKey(
        ArchivedMatch, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    ended_at = models.DateTimeField(verbose_name=_("ended at"))
    pr_before = models.IntegerField(verbose_name=_("PR before"))
    pr_after = models.IntegerField(verbose_name=_("PR after"))
    quintile_before = models.PositiveSmallIntegerField(verbose_name=_("quintile before"))
    quintile_after = models.PositiveSmallIntegerField(verbose_name=_("quintile after"))

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["match", "user"], name="archive_one_change_per_player"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "-ended_at", "-match"], name="archive_change_user_recent"),
        ]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self) -> str:
        return f"{self.user_id} {self.pr_before}->{self.pr_after}"


class RatingLedger(models.Model):
    """A single row, locked by every archiving transaction: rated matches are counted one after the
    other in a total order (the order `amigos rating` replays), and a match handed over twice at the
    same moment is stored once."""

    matches_rated = models.PositiveIntegerField(default=0, verbose_name=_("matches rated"))

    class Meta:
        verbose_name = _("rating ledger")
        verbose_name_plural = _("rating ledgers")

    def __str__(self) -> str:
        return f"{self.matches_rated} rated matches"


class ReviewOfHand(models.Model):
    """What a review of one seat's plays in one hand keeps, wherever the hand's record lives: an
    archived match (:class:`HandReview`) or a match still going on at a live table (the tables
    app's ``LiveHandReview``). One background runner (services/review.py) fills either."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        RUNNING = "running", _("computing")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    hand = models.PositiveSmallIntegerField(verbose_name=_("hand"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    done_turns = models.PositiveSmallIntegerField(default=0, verbose_name=_("turns reviewed"))
    total_turns = models.PositiveSmallIntegerField(default=0, verbose_name=_("turns to review"))
    turns = models.JSONField(default=list, verbose_name=_("turns"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        abstract = True

    def source_record(self) -> dict[str, Any]:
        """The record (RECORD-FORMAT) whose hand ``self.hand`` is reviewed."""
        raise NotImplementedError


class HandReview(ReviewOfHand):
    """A player's request to see what their plays in one hand of an archived match cost, and its
    result once computed (off the web process's event loop; see services/review.py)."""

    match = models.ForeignKey(
        ArchivedMatch, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="hand_reviews",
        verbose_name=_("player"),
    )

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["match", "hand", "seat"], name="archive_one_review_per_hand_seat"
            ),
        ]
        verbose_name = _("hand review")
        verbose_name_plural = _("hand reviews")

    def source_record(self) -> dict[str, Any]:
        record: dict[str, Any] = self.match.record
        return record

    def __str__(self) -> str:
        return f"review {self.match_id}/{self.hand}/{self.seat}: {self.status}"
