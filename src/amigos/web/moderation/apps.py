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
        from amigos.web.moderation.selectors import muted_by
        from amigos.web.moderation.services import suspended_by_cards
        from amigos.web.realtime import muting
        from amigos.web.tables import card_hooks

        # The table's store asks this, inside the play's transaction, which players its new cards
        # suspended: moderation reaches down to the tables, the store never up to moderation.
        card_hooks.register(suspended_by_cards)
        # The lobby's page leaves out the lines of players its reader muted, read through this.
        muting.read_mutes_with(muted_by)
