from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    name = "amigos.web.archive"
    label = "archive"
    verbose_name = _("Match archive")
    default_auto_field = "django.db.models.BigAutoField"
