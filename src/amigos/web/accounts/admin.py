"""Administration of players: search, staff rights, and suspensions with an end date."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from amigos.web.accounts import services
from amigos.web.accounts.models import SignInAttempt, User

admin.site.site_header = _("Amigos por el Dominó: administration")
admin.site.site_title = _("Amigos por el Dominó")
admin.site.index_title = _("Players, messages and the chat")


class PlayerCreationForm(AdminUserCreationForm):
    class Meta:
        model = User
        fields = ("email", "display_name")


class PlayerChangeForm(UserChangeForm):  # type: ignore[type-arg]
    class Meta:
        model = User
        fields = "__all__"


def _suspend_for(days: int, queryset: QuerySet[User], reason: str) -> None:
    until = timezone.now() + timedelta(days=days)
    for user in queryset:
        services.suspend(user, until, reason)


@admin.register(User)
class PlayerAdmin(UserAdmin):  # type: ignore[type-arg]
    form = PlayerChangeForm
    add_form = PlayerCreationForm
    list_display = ("display_name", "email", "is_staff", "suspended_until", "last_login", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active")
    search_fields = ("display_name", "email")
    ordering = ("display_name",)
    readonly_fields = ("last_login", "date_joined")
    fieldsets = (
        (None, {"fields": ("email", "display_name", "password")}),
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
    filter_horizontal = ("groups", "user_permissions")
    actions = ("suspend_one_week", "suspend_one_month", "lift_suspension")

    @admin.action(description=_("Suspend for one week"))
    def suspend_one_week(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        _suspend_for(7, queryset, str(_("Suspended by the administration.")))

    @admin.action(description=_("Suspend for one month"))
    def suspend_one_month(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        _suspend_for(30, queryset, str(_("Suspended by the administration.")))

    @admin.action(description=_("Lift the suspension"))
    def lift_suspension(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            services.lift_suspension(user)


@admin.register(SignInAttempt)
class SignInAttemptAdmin(admin.ModelAdmin[SignInAttempt]):
    list_display = ("identifier", "address", "at", "succeeded")
    list_filter = ("succeeded",)
    search_fields = ("identifier", "address")
    readonly_fields = ("identifier", "address", "at", "succeeded")
