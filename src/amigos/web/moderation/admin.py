"""The administrators' desk: reports to decide on, suspensions to lift or shorten, the decisions kept."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from amigos.web.accounts.admin import PlayerAdmin
from amigos.web.accounts.models import User
from amigos.web.admin_confirm import confirmed
from amigos.web.lobby.admin import ChatReportAdmin
from amigos.web.lobby.models import ChatMessage, ChatReport
from amigos.web.lobby.models import ReportStatus as ChatReportStatus
from amigos.web.moderation import services
from amigos.web.moderation.models import Action, Decision, Report, Suspension


class DecisionInline(admin.TabularInline[Decision, Any]):
    model = Decision
    fk_name = "report"
    extra = 0
    can_delete = False
    fields = ("action", "decided_by", "decided_at", "reason")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin[Report]):
    list_display = ("created_at", "reporter", "reported", "times_reported", "place", "status", "comment")
    list_filter = ("status", "place")
    readonly_fields = (
        "reporter",
        "reported",
        "times_reported",
        "place",
        "table_link",
        "match",
        "line_text",
        "comment",
        "status",
        "created_at",
    )
    fields = readonly_fields
    inlines = (DecisionInline,)
    actions = ("ignore", "warn", "block")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("times reported"))
    def times_reported(self, report: Report) -> int:
        return services.times_reported(report.reported_id)

    @admin.display(description=_("table"))
    def table_link(self, report: Report) -> str:
        if report.table_id is None:
            return "—"
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:tables_table_change", args=[report.table_id]), report.table
        )

    @admin.display(description=_("chat line"))
    def line_text(self, report: Report) -> str:
        line = report.table_line or report.lobby_line
        return "—" if line is None else str(line.text)

    def _decide(self, request: HttpRequest, queryset: QuerySet[Report], action: str) -> None:
        # Refusals are shown by code, translated here (never the service's English text).
        done = 0
        for row in queryset:
            try:
                services.decide(report=row, action=action, by=_staff(request), now=timezone.now())
                done += 1
            except services.ModerationError as error:
                self.message_user(request, f"{row}: {refusal_text(error.code)}", messages.WARNING)
        if done:
            self.message_user(
                request,
                ngettext("%(count)d report decided.", "%(count)d reports decided.", done) % {"count": done},
                messages.SUCCESS,
            )

    @admin.action(description=_("Ignore the selected reports"))
    def ignore(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._decide(request, queryset, Action.IGNORE)

    @admin.action(description=_("Warn the reported players"))
    def warn(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._decide(request, queryset, Action.WARN)

    @admin.action(description=_("Block: a red card and its suspension"))
    @confirmed(_("Block these players? Each gets a red card and a month's suspension at once."))
    def block(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._decide(request, queryset, Action.BLOCK)


def refusal_text(code: str) -> str:
    """What an administrator reads when a decision is refused, looked up by the error's code."""
    texts = {
        "already_decided": _("This report was already decided."),
        "bad_action": _("That is not a decision the desk can take."),
        "reason_required": _("Give a reason for the change."),
        "not_running": _("That suspension is not running any more."),
        "not_shorter": _("The new end must come before the current one; leave it empty to lift."),
    }
    return str(texts.get(code, _("The decision could not be carried out.")))


def _staff(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


class ChangeForm(forms.ModelForm[Suspension]):
    """Lift (no new end) or shorten (an earlier end) a running suspension; a reason is required."""

    new_end = forms.DateTimeField(label=_("new end (empty: lift)"), required=False)
    change_reason = forms.CharField(label=_("reason for the change"), max_length=500)
    # Lifting or shortening takes effect at once: the administrator says so explicitly.
    sure = forms.BooleanField(
        label=_("I am sure: change this suspension now"),
        required=True,
        error_messages={"required": _("Tick the box to confirm the change.")},
    )

    class Meta:
        model = Suspension
        fields: tuple[str, ...] = ()


@admin.register(Suspension)
class SuspensionAdmin(admin.ModelAdmin[Suspension]):
    form = ChangeForm
    list_display = ("user", "cause", "starts", "ends", "lifted_at")
    list_filter = ("cause",)
    readonly_fields = ("user", "cause", "starts", "ends", "counted_at", "lifted_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Suspension, form: Any, change: bool) -> None:
        try:
            services.change_suspension(
                suspension=obj,
                by=_staff(request),
                now=timezone.now(),
                reason=form.cleaned_data["change_reason"],
                until=form.cleaned_data.get("new_end"),
            )
        except services.ModerationError as error:
            self.message_user(request, refusal_text(error.code), messages.ERROR)
        else:
            self.message_user(request, _("The suspension was changed."), messages.SUCCESS)


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin[Decision]):
    list_display = ("decided_at", "action", "player", "decided_by", "reason")
    list_filter = ("action",)
    readonly_fields = ("action", "decided_by", "decided_at", "player", "report", "suspension", "reason")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _suspend_for(request: HttpRequest, days: int, queryset: QuerySet[User]) -> None:
    # Through moderation's service, so the suspension and the decision are kept like the desk's
    # and the player's live match ends at once.
    by = request.user
    assert isinstance(by, User)
    done = 0
    for user in queryset:
        services.suspend_by_administrator(
            user=user, days=days, by=by, now=timezone.now(), reason=str(_("Suspended by the administration."))
        )
        done += 1
    _tell(
        request,
        ngettext("%(count)d player suspended.", "%(count)d players suspended.", done) % {"count": done},
    )


def _tell(request: HttpRequest, text: str) -> None:
    """A decision carried out reads as a success (green), never as a plain notice or an error."""
    messages.success(request, text)


class ModeratedPlayerAdmin(PlayerAdmin):
    """The players' list (accounts' `PlayerAdmin`) with moderation's actions: suspend for a week or
    a month, lift. They are registered here, over accounts' own registration, because they go
    through moderation's services and moderation builds on accounts, never the other way round."""

    actions = ("suspend_one_week", "suspend_one_month", "lift_suspension")

    @admin.action(description=_("Suspend for one week"))
    @confirmed(_("Suspend these players for one week? They are signed out at once."))
    def suspend_one_week(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        _suspend_for(request, 7, queryset)

    @admin.action(description=_("Suspend for one month"))
    @confirmed(_("Suspend these players for one month? They are signed out at once."))
    def suspend_one_month(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        _suspend_for(request, 30, queryset)

    @admin.action(description=_("Lift the suspension"))
    @confirmed(_("Lift these players' suspensions? They can play again at once."))
    def lift_suspension(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        by = request.user
        assert isinstance(by, User)
        done = 0
        for user in queryset:
            services.lift_by_administrator(
                user=user, by=by, now=timezone.now(), reason=str(_("Lifted from the players' list."))
            )
            done += 1
        _tell(
            request,
            ngettext("%(count)d suspension lifted.", "%(count)d suspensions lifted.", done) % {"count": done},
        )


admin.site.unregister(User)
admin.site.register(User, ModeratedPlayerAdmin)


class ModeratedChatReportAdmin(ChatReportAdmin):
    """The lobby's old chat reports (`lobby.ChatReportAdmin`) with the block action, registered
    here over the lobby's own registration (as `ModeratedPlayerAdmin` is) because a block goes
    through moderation's service: the suspension is stored as a row and decision, and the player's
    tables are told (`tables.suspension_news`), none of which the lobby, below moderation, may do."""

    actions = ("ignore", "warn", "block")

    @admin.action(description=_("Block access for one month (red card) and hide the message"))
    @confirmed(_("Block these players? Each gets a red card and a month's suspension at once."))
    def block(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        by = request.user
        assert isinstance(by, User)
        for report in queryset.select_related("message__author"):
            services.suspend_by_administrator(
                user=report.message.author,
                days=services.RED_CARD_DAYS,
                by=by,
                now=timezone.now(),
                reason=str(_("Harmful player (red card).")),
            )
            ChatMessage.objects.filter(pk=report.message_id).update(hidden=True)
        queryset.update(status=ChatReportStatus.BLOCKED)
        self.message_user(request, _("The reported players were blocked."), messages.SUCCESS)


admin.site.unregister(ChatReport)
admin.site.register(ChatReport, ModeratedChatReportAdmin)
