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
        from amigos.web.tables import links, registry, socket  # noqa: F401

        # The actors reach the lobby, the archive and the next table through these links; the
        # registry cannot import them itself without an import cycle.
        registry.use_links(links)
