from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    """Cards that add up to suspensions, reports and the administrators' decisions on them."""

    name = "amigos.web.moderation"
    label = "moderation"
    verbose_name = _("Moderation")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registering the socket commands is a side effect of importing the module.
        from amigos.web.moderation import socket  # noqa: F401
