"""The README's instructions for a first run are true of the code (they went stale once already)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from django.urls import resolve

from amigos.cli import build_parser

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")

DEV_EMAIL = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='amigos.web.settings.dev'; "
    "from django.conf import settings; print(settings.EMAIL_BACKEND)"
)


def test_every_amigos_command_the_readme_names_exists() -> None:
    named = set(re.findall(r"\bamigos (\w+)", README))
    assert "createadmin" in named
    choices = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert choices is not None
    assert named <= set(choices), named - set(choices)


def test_the_readme_says_where_the_admin_is_and_it_is_there() -> None:
    assert "http://127.0.0.1:8000/admin/" in README
    assert resolve("/admin/").app_name == "admin"


def test_reset_emails_go_to_the_console_in_development_as_the_readme_says() -> None:
    assert "printed in the terminal" in README
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    result = subprocess.run(
        [sys.executable, "-c", DEV_EMAIL], env=clean, capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "django.core.mail.backends.console.EmailBackend"
