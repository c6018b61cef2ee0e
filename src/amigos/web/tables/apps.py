from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    """Live and correspondence tables: the models, the table actors and their socket commands."""

    name = "amigos.web.tables"
    label = "tables"
    verbose_name = _("Tables")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registering the socket commands is a side effect of importing the module.
        from amigos.web.tables import socket  # noqa: F401
