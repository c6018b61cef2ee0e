"""Administration of players: search, staff rights, and suspensions with an end date."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from amigos.web.accounts.models import LimitedAction, SignInAttempt, User
from amigos.web.admin_confirm import confirmed

admin.site.site_header = _("Amigos por el Dominó: administration")
admin.site.site_title = _("Amigos por el Dominó")
admin.site.index_title = _("Players, the meeting room and events")


class PlayerCreationForm(AdminUserCreationForm):
    class Meta:
        model = User
        fields = ("email", "display_name")


class PlayerChangeForm(UserChangeForm):  # type: ignore[type-arg]
    class Meta:
        model = User
        fields = "__all__"


def _suspend_for(request: HttpRequest, days: int, queryset: QuerySet[User]) -> None:
    # Through moderation's service (imported here: moderation builds on accounts, not the other
    # way round), so the suspension and the decision are kept like the desk's and the player's
    # live match ends at once.
    from amigos.web.moderation import services as moderation

    by = request.user
    assert isinstance(by, User)
    done = 0
    for user in queryset:
        moderation.suspend_by_administrator(
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


@admin.register(User)
class PlayerAdmin(UserAdmin):  # type: ignore[type-arg]
    # Every date and time of a player (the suspension, the verified address, ...) is one labelled
    # input with the browser's own picker, instead of the admin's split date/time pair, whose two
    # boxes have no label a screen reader can announce (an axe "critical" finding).
    formfield_overrides: ClassVar[dict[type[models.Field[Any, Any]], dict[str, Any]]] = {
        models.DateTimeField: {
            "form_class": forms.DateTimeField,
            "widget": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        },
    }
    form = PlayerChangeForm
    add_form = PlayerCreationForm
    list_display = (
        "display_name",
        "email",
        "email_verified_at",
        "is_staff",
        "suspended_until",
        "last_login",
        "date_joined",
    )
    list_filter = ("is_staff", "is_superuser", "is_active", ("email_verified_at", admin.EmptyFieldListFilter))
    search_fields = ("display_name", "email")
    ordering = ("display_name",)
    # Only the player can prove an address (by the mailed link or a completed reset): shown, not set.
    # A suspension is given and lifted by the actions below or at the desk, never typed in: each
    # one is then kept with who decided it, and a live match of the player ends at once.
    readonly_fields = (
        "email_verified_at",
        "last_login",
        "date_joined",
        "suspended_until",
        "suspension_reason",
    )
    fieldsets = (
        (None, {"fields": ("email", "email_verified_at", "display_name", "password")}),
        (_("Suspension"), {"fields": ("suspended_until", "suspension_reason")}),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "display_name", "password1", "password2")}),
    )
    # Plain multiple selects: the admin's two-box filter widget adds ARIA attributes its elements may
    # not carry (an axe "serious" finding) and inline styles the site's CSP refuses.
    filter_horizontal = ()
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
        from amigos.web.moderation import services as moderation

        by = request.user
        assert isinstance(by, User)
        done = 0
        for user in queryset:
            moderation.lift_by_administrator(
                user=user, by=by, now=timezone.now(), reason=str(_("Lifted from the players' list."))
            )
            done += 1
        _tell(
            request,
            ngettext("%(count)d suspension lifted.", "%(count)d suspensions lifted.", done) % {"count": done},
        )


@admin.register(SignInAttempt)
class SignInAttemptAdmin(admin.ModelAdmin[SignInAttempt]):
    list_display = ("identifier", "account", "address", "network", "at", "succeeded")
    list_filter = ("succeeded",)
    search_fields = ("identifier", "address", "network", "account__display_name", "account__email")
    readonly_fields = ("identifier", "account", "address", "network", "device", "at", "succeeded")


@admin.register(LimitedAction)
class LimitedActionAdmin(admin.ModelAdmin[LimitedAction]):
    list_display = ("kind", "key", "at")
    list_filter = ("kind",)
    search_fields = ("key",)
    readonly_fields = ("kind", "key", "at")
