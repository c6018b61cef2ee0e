from __future__ import annotations

from django.contrib import admin

from amigos.web.tables.models import Card, MatchRecord, Seat, Table, TableEvent


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    readonly_fields = ("number", "user", "level", "invitation", "invited_until")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("id", "name", "variant", "kind", "status", "version", "created_at")
    list_filter = ("kind", "status", "variant")
    search_fields = ("name",)
    inlines = (SeatInline,)
    readonly_fields = ("version", "owner", "lease_until", "deadline_at", "deadline_kind")


@admin.register(Card)
class CardAdmin(admin.ModelAdmin[Card]):
    list_display = ("user", "colour", "reason", "table", "match", "hand", "given_at")
    list_filter = ("colour", "reason")


@admin.register(TableEvent)
class TableEventAdmin(admin.ModelAdmin[TableEvent]):
    list_display = ("table", "version", "kind", "at")
    list_filter = ("kind",)


@admin.register(MatchRecord)
class MatchRecordAdmin(admin.ModelAdmin[MatchRecord]):
    list_display = ("table", "number", "started_at", "ended_at", "termination", "archived")
