"""Mail the players whose correspondence games wait for their move (run it hourly)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.urls import reverse
from django.utils import timezone

from amigos.web.tables.reminders import send_turn_reminders


class Command(BaseCommand):
    help = "E-mail each player a correspondence game waits for (at most once a day per game)."

    def add_arguments(self, parser: CommandParser) -> None:
        hosts = [host for host in settings.ALLOWED_HOSTS if host and host != "*" and not host.startswith(".")]
        default = f"https://{hosts[0]}" if hosts else "http://127.0.0.1:8000"
        parser.add_argument(
            "--site", default=default, help=f"the site's address for the link in the mail (default {default})"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        link = str(options["site"]).rstrip("/") + reverse("tables:my_games")
        sent = send_turn_reminders(now=timezone.now(), link=link)
        self.stdout.write(f"sent={sent}")
