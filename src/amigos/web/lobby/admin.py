"""Administration of the lobby: messages to players, the chat, and players' reports to judge."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from amigos.web.lobby import notices
from amigos.web.lobby.models import AdminMessage, ChatMessage, ChatReport, Presence, ReportStatus


@admin.register(AdminMessage)
class AdminMessageAdmin(admin.ModelAdmin[AdminMessage]):
    list_display = ("subject", "recipient", "created_at")
    list_filter = ("created_at",)
    search_fields = ("subject", "body", "recipient__display_name")
    # A plain, labelled select: the admin's autocomplete box (select2) has no accessible name and
    # sets inline styles the site's CSP refuses.
    fields = ("recipient", "subject", "body")


class ReportInline(admin.TabularInline[ChatReport, ChatMessage]):
    model = ChatReport
    extra = 0
    fields = ("reporter", "comment", "created_at", "status")
    readonly_fields = ("reporter", "comment", "created_at")


class ReportedFilter(admin.SimpleListFilter):
    """Narrow the chat to the lines players have reported."""

    title = _("reports")
    parameter_name = "reported"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", str(_("reported"))), ("no", str(_("not reported")))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(reports__isnull=False).distinct()
        if self.value() == "no":
            return queryset.filter(reports__isnull=True)
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin[ChatMessage]):
    list_display = ("created_at", "author", "text", "hidden", "report_count")
    list_filter = (ReportedFilter, "hidden", "created_at")
    search_fields = ("text", "author__display_name")
    readonly_fields = ("author", "text", "created_at")
    inlines = (ReportInline,)
    actions = ("hide", "unhide")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        return super().get_queryset(request).select_related("author").annotate(num_reports=Count("reports"))

    @admin.display(description=_("reports"), ordering="num_reports")
    def report_count(self, message: ChatMessage) -> int:
        return int(getattr(message, "num_reports", 0))

    @admin.action(description=_("Hide from the chat"))
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        queryset.update(hidden=True)

    @admin.action(description=_("Show in the chat again"))
    def unhide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        queryset.update(hidden=False)


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin[ChatReport]):
    """Each report shows who reported, who is reported, the comment and how often that player was reported."""

    list_display = (
        "created_at",
        "reporter",
        "reported_player",
        "times_reported",
        "message_text",
        "comment",
        "status",
    )
    list_filter = ("status",)
    search_fields = ("message__text", "reporter__display_name", "message__author__display_name")
    readonly_fields = ("message", "reporter", "comment", "created_at")
    # Blocking (a month's suspension) is moderation's: its admin adds the action (`block`), which
    # stores the suspension and tells the player's tables; the lobby sits below moderation.
    actions: tuple[str, ...] = ("ignore", "warn")

    def get_model_perms(self, request: HttpRequest) -> dict[str, bool]:
        # Reports now reach the moderation desk ("Reports"); this old list only keeps the history of
        # earlier ones, so the index shows it only while it holds any (never a second, empty list).
        if not ChatReport.objects.exists():
            return {}
        return super().get_model_perms(request)

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatReport]:
        return super().get_queryset(request).select_related("message__author", "reporter")

    @admin.display(description=_("reported player"))
    def reported_player(self, report: ChatReport) -> str:
        return report.message.author.display_name

    @admin.display(description=_("times reported"))
    def times_reported(self, report: ChatReport) -> int:
        return ChatReport.objects.filter(message__author_id=report.message.author_id).count()

    @admin.display(description=_("message"))
    def message_text(self, report: ChatReport) -> str:
        return report.message.text

    @admin.action(description=_("Ignore the report"))
    def ignore(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        queryset.update(status=ReportStatus.IGNORED)

    @admin.action(description=_("Send a warning to the reported player"))
    def warn(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        for report in queryset.select_related("message__author"):
            notices.send(
                str(_("Warning about your behaviour in the chat")),
                str(_("A message of yours was reported and reviewed: %(text)s"))
                % {"text": report.message.text},
                recipient=report.message.author,
            )
        queryset.update(status=ReportStatus.WARNED)


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin[Presence]):
    list_display = ("user", "status", "signed_in_at", "last_seen", "open_sockets")
    list_filter = ("status",)
    readonly_fields = ("user", "signed_in_at", "last_seen", "open_sockets")
