"""Tables in the administration site: the log of a table is read-only, and a match in progress keeps
its secrets there too.

A table's events and match records are its history and the source its actor rebuilds from: staff
may read them, never add, change or delete one (a whole finished table may still be deleted, its
log with it). While a match is being played its deal key and every seat's tiles are in that log;
the admin shows an event as the spectators received it (`rendering.render`) and hides the match's
record until the match is over, so a staff account (or whoever borrows one) cannot read the hands
of a live game. An open table itself is read-only as well: its actor owns the row.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from amigos.web.tables import log_codec, rendering
from amigos.web.tables.forms import variant_names
from amigos.web.tables.log_entries import MatchEnded
from amigos.web.tables.models import CARD_REASONS, OPEN_STATUSES, Card, LogRow, MatchRecord, Seat, Table

#: How a match ended, in words (the stored code is the engine's `Termination`).
TERMINATIONS = {
    "target": _("reached its target"),
    "abandonment": _("abandoned"),
    "suspension": _("a player was suspended"),
}


def _is_open(table: Table) -> bool:
    return table.status in OPEN_STATUSES


def row_in_play(row: LogRow) -> bool:
    """Whether ``row`` belongs to a match still being played: its table is open and no match has
    ended since (the log of an ended match, like that of a closed table, holds no secret)."""
    if not _is_open(row.table):
        return False
    return not LogRow.objects.filter(
        table_id=row.table_id, kind=log_codec.KIND[MatchEnded], version__gte=row.version
    ).exists()


def record_in_play(record: MatchRecord) -> bool:
    return record.ended_at is None and _is_open(record.table)


def _json(value: Any) -> SafeString:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


class ReadOnly:
    """Staff may look, never add, change or delete."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    readonly_fields = ("number", "user", "level", "invitation", "invited_until")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("id", "name", "game", "kind", "status", "version", "created_at")
    list_filter = ("kind", "status")
    search_fields = ("name",)
    inlines = (SeatInline,)
    readonly_fields = ("version", "owner", "lease_until", "deadline_at", "deadline_kind")

    @admin.display(description=_("variant"), ordering="variant")
    def game(self, table: Table) -> str:
        return variant_names().get(table.variant, table.variant)

    def has_change_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        if obj is not None and _is_open(obj):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        if obj is not None and _is_open(obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(
        self, objs: Sequence[Table] | QuerySet[Table], request: HttpRequest
    ) -> tuple[list[Any], dict[Any, int], set[Any], list[Any]]:
        """A closed table goes with its log: the log's own admins refuse every deletion, which would
        otherwise forbid deleting any table that was ever played."""
        deleted, counts, needed, protected = super().get_deleted_objects(objs, request)
        log = {str(LogRow._meta.verbose_name), str(MatchRecord._meta.verbose_name)}
        return deleted, counts, {name for name in needed if str(name) not in log}, protected


class ReasonFilter(admin.SimpleListFilter):
    """Cards by why they were given, each reason in words."""

    title = _("reason")
    parameter_name = "reason"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(code, str(words)) for code, words in CARD_REASONS.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(reason=self.value()) if self.value() else queryset


@admin.register(Card)
class CardAdmin(admin.ModelAdmin[Card]):
    list_display = ("user", "colour", "reason_words", "table", "match", "hand", "given_at")
    list_filter = ("colour", ReasonFilter)

    @admin.display(description=_("reason"), ordering="reason")
    def reason_words(self, card: Card) -> str:
        return card.reason_label


@admin.register(LogRow)
class LogRowAdmin(ReadOnly, admin.ModelAdmin[LogRow]):
    list_display = ("table", "version", "kind", "at")
    list_filter = ("kind",)
    fields = ("table", "version", "kind", "shown_data", "at")
    readonly_fields = fields

    @admin.display(description=_("data (as the spectators saw it while its match is played)"))
    def shown_data(self, row: LogRow) -> SafeString:
        if row_in_play(row):
            return _json(rendering.render(row.kind, row.data, None))
        return _json(row.data)


@admin.register(MatchRecord)
class MatchRecordAdmin(ReadOnly, admin.ModelAdmin[MatchRecord]):
    list_display = ("table", "number", "started_at", "ended_at", "ending", "archived")
    fields = ("table", "number", "started_at", "ended_at", "ending", "archived", "shown_record")
    readonly_fields = fields

    @admin.display(description=_("termination"), ordering="termination")
    def ending(self, record: MatchRecord) -> str:
        if not record.termination:
            return "—"
        return str(TERMINATIONS.get(record.termination, record.termination))

    @admin.display(description=_("record"))
    def shown_record(self, record: MatchRecord) -> SafeString | str:
        if record_in_play(record):
            return str(_("Hidden until the match ends: it holds the deal keys and every seat's tiles."))
        return _json(record.record)
