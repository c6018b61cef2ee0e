from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "amigos.web.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from amigos.web.accounts import signals  # noqa: F401  (connects the receivers)
