"""The archive in the administration site: matches read-only (they are history), ratings visible."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from amigos.web.archive.models import ArchivedMatch, MatchSeat, PlayerRating
from amigos.web.archive.templatetags.archive_tags import variant_label


class SeatInline(admin.TabularInline[MatchSeat, ArchivedMatch]):
    model = MatchSeat
    extra = 0
    fields = ("seat", "name", "user", "is_computer", "result", "points_for", "points_against")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ArchivedMatch)
class ArchivedMatchAdmin(admin.ModelAdmin[ArchivedMatch]):
    list_display = ("ended_at", "game", "table_name", "complete", "rating_sequence")
    list_filter = ("family", "complete")
    search_fields = ("source", "table_name", "seats__name")
    date_hierarchy = "ended_at"

    @admin.display(description=_("variant"), ordering="variant")
    def game(self, match: ArchivedMatch) -> str:
        return variant_label(match.variant)

    inlines: ClassVar[list[type[admin.options.InlineModelAdmin[Any, Any]]]] = [SeatInline]
    readonly_fields = (
        "source",
        "variant",
        "family",
        "table_name",
        "started_at",
        "ended_at",
        "complete",
        "winner",
        "score",
        "official_score",
        "hand_count",
        "rating_sequence",
        "record",
    )
    exclude = ("hands",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ArchivedMatch | None = None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin[PlayerRating]):
    list_display = ("user", "pr", "matches")
    ordering = ("-pr",)
    readonly_fields = ("user", "pr", "matches")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PlayerRating | None = None) -> bool:
        return False
