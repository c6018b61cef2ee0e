"""Delete lobby and table chat lines older than AMIGOS_CHAT_RETENTION_DAYS (run it daily)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from amigos.web.moderation import services


class Command(BaseCommand):
    help = "Delete chat lines older than the retention period (AMIGOS_CHAT_RETENTION_DAYS)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None, help="override the configured retention")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"] if options["days"] is not None else int(settings.AMIGOS_CHAT_RETENTION_DAYS)
        try:
            lobby, table = services.purge_chat(now=timezone.now(), days=days)
        except services.ModerationError as error:
            raise CommandError(error.code) from None
        self.stdout.write(f"lobby={lobby} table={table}")
