"""Root URL configuration: language switcher, admin, accounts, events, tables, statistics, the lobby."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    # Pages that name no icon (the admin's) make browsers ask for this one.
    path("favicon.ico", RedirectView.as_view(url=f"{settings.STATIC_URL}amigos/favicon.svg", permanent=True)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("amigos.web.accounts.urls")),
    path("events/", include("amigos.web.events.urls")),
    path("mesas/", include("amigos.web.tables.urls")),
    path("stats/", include("amigos.web.archive.urls")),
    path("moderation/", include("amigos.web.moderation.urls")),
    path("", include("amigos.web.lobby.urls")),
]
