from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "amigos.web.lobby"
    label = "lobby"
    verbose_name = _("Meeting room")

    def ready(self) -> None:
        from amigos.web.lobby import (
            signals,  # noqa: F401  (connects the receivers)
            socket,  # noqa: F401  (registers the lobby's socket commands)
        )
