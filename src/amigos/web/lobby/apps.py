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
        from amigos.web.lobby.feed import register_presence

        # Every socket counts in its player's presence, which is the lobby's: the socket layer
        # reaches it through these hooks, never by importing the lobby.
        register_presence()
