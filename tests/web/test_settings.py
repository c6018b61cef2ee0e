"""The production settings refuse to start unsafely; the base ones pick the database from the URL."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='amigos.web.settings.production'; "
    "from django.conf import settings; "
    "print(settings.SECURE_HSTS_SECONDS, settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, "
    "settings.ALLOWED_HOSTS, settings.DEBUG, settings.DATABASES['default']['ENGINE'])"
)


def probe(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    return subprocess.run(
        [sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True, timeout=60
    )


def test_production_refuses_to_start_without_a_secret() -> None:
    result = probe(AMIGOS_ALLOWED_HOSTS="domino.example")
    assert result.returncode != 0 and "AMIGOS_SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_hosts() -> None:
    result = probe(AMIGOS_SECRET_KEY="s" * 50)
    assert result.returncode != 0 and "AMIGOS_ALLOWED_HOSTS" in result.stderr


@pytest.mark.parametrize(
    ("url", "engine"),
    [
        ("postgresql://postgres@127.0.0.1:5432/amigos", "django.db.backends.postgresql"),
        ("sqlite:////tmp/amigos-probe.sqlite3", "django.db.backends.sqlite3"),
    ],
)
def test_production_is_secure_and_reads_the_database_url(url: str, engine: str) -> None:
    result = probe(
        AMIGOS_SECRET_KEY="s" * 50,
        AMIGOS_ALLOWED_HOSTS="domino.example, www.domino.example",
        AMIGOS_DATABASE_URL=url,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "31536000",
        "True",
        "True",
        "['domino.example',",
        "'www.domino.example']",
        "False",
        engine,
    ]


CONNECTIONS_PROBE = (
    "import os; os.environ['DJANGO_SETTINGS_MODULE']='amigos.web.settings.dev'; "
    "from django.conf import settings; database = settings.DATABASES['default']; "
    "print(database['CONN_MAX_AGE'], database['CONN_HEALTH_CHECKS'])"
)


@pytest.mark.parametrize(
    ("url", "age", "kept"),
    [
        # PostgreSQL: a thread keeps its connection (a new one for each command costs ten times more).
        ("postgresql://postgres@127.0.0.1:5432/amigos", None, "60"),
        ("postgresql://postgres@127.0.0.1:5432/amigos", "0", "0"),  # the operator's choice wins
        ("postgresql://postgres@127.0.0.1:5432/amigos", "300", "300"),
        ("sqlite:////tmp/amigos-probe.sqlite3", None, "0"),
    ],
)
def test_postgresql_connections_are_kept_between_commands_and_checked_before_reuse(
    url: str, age: str | None, kept: str
) -> None:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    env = {**clean, "AMIGOS_DATABASE_URL": url, **({"AMIGOS_DB_CONN_MAX_AGE": age} if age else {})}
    result = subprocess.run(
        [sys.executable, "-c", CONNECTIONS_PROBE], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [kept, "True"]
