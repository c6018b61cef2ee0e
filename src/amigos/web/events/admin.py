"""Staff can look at events and, in an emergency, fix a row; organizers use the event pages."""

from __future__ import annotations

from django.contrib import admin

from amigos.web.events.models import Event, EventPlayer, HandRecord, Penalty, TableMatch, TableNote


class EventPlayerInline(admin.TabularInline[EventPlayer, Event]):
    model = EventPlayer
    extra = 0
    fields = ("number", "name", "email", "user")
    raw_id_fields = ("user",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ("name", "date", "player_count", "target", "status", "current_round", "organizer")
    list_filter = ("status", "target", "player_count")
    search_fields = ("name", "origin", "organizer__display_name", "organizer__email")
    raw_id_fields = ("organizer",)
    inlines = (EventPlayerInline,)


class HandInline(admin.TabularInline[HandRecord, TableMatch]):
    model = HandRecord
    extra = 0
    fields = ("index", "end", "side", "points", "entered_by")
    raw_id_fields = ("entered_by",)


@admin.register(TableMatch)
class TableMatchAdmin(admin.ModelAdmin[TableMatch]):
    list_display = ("event", "round", "table", "state", "score_a", "score_b", "end")
    list_filter = ("state", "end")
    inlines = (HandInline,)


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin[Penalty]):
    list_display = ("event", "round", "player", "points", "reason")


@admin.register(TableNote)
class TableNoteAdmin(admin.ModelAdmin[TableNote]):
    list_display = ("match", "kind", "by", "created_at")
