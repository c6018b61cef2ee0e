"""Administration of players: search, staff rights, and the suspension shown with its end date."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db import models
from django.utils.translation import gettext_lazy as _

from amigos.web.accounts.models import LimitedAction, SignInAttempt, User

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
        "time_zone",
    )
    fieldsets = (
        (None, {"fields": ("email", "email_verified_at", "display_name", "password")}),
        (_("Suspension"), {"fields": ("suspended_until", "suspension_reason")}),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        # The player's zone is theirs to choose (the settings page): shown, not set.
        (_("Dates"), {"fields": ("last_login", "date_joined", "time_zone")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "display_name", "password1", "password2")}),
    )
    # Plain multiple selects: the admin's two-box filter widget adds ARIA attributes its elements may
    # not carry (an axe "serious" finding) and inline styles the site's CSP refuses.
    filter_horizontal = ()
    # Suspending and lifting are moderation's actions, added to this list by its admin
    # (`moderation.admin.ModeratedPlayerAdmin`): moderation builds on accounts, never the reverse.


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
