from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "amigos.web.events"
    label = "events"
    verbose_name = _("Recreational events")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from amigos.web.events import socket  # noqa: F401  (registers the board's socket command)
