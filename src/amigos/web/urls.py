"""Root URL configuration: language switcher, admin, accounts, the lobby."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("amigos.web.accounts.urls")),
    path("events/", include("amigos.web.events.urls")),
    path("", include("amigos.web.lobby.urls")),
]
