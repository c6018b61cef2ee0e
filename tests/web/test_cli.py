"""`amigos createadmin`, `amigos manage` and the guard rails of `amigos serve`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from amigos.cli import main
from amigos.web.accounts.models import User
from tests.web.conftest import free_port


@pytest.mark.django_db
def test_createadmin_non_interactive(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ADMIN_PW", "una-clave-larga-y-rara")
    assert (
        main(
            [
                "createadmin",
                "--email",
                "jefe@example.org",
                "--name",
                "Jefe",
                "--password-from-env",
                "ADMIN_PW",
            ]
        )
        == 0
    )
    admin = User.objects.get(email="jefe@example.org")
    assert admin.is_staff and admin.is_superuser and admin.check_password("una-clave-larga-y-rara")
    assert "Jefe" in capsys.readouterr().out
    # A second one with the same name is refused, not crashed.
    assert (
        main(["createadmin", "--email", "x@example.org", "--name", "jefe", "--password-from-env", "ADMIN_PW"])
        == 1
    )


@pytest.mark.django_db
def test_createadmin_refuses_a_weak_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADMIN_PW", "123")
    assert (
        main(["createadmin", "--email", "a@example.org", "--name", "A", "--password-from-env", "ADMIN_PW"])
        == 1
    )
    assert not User.objects.exists()


@pytest.mark.django_db
def test_createadmin_interactive(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["jefa@example.org", "Jefa"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt: "una-clave-larga-y-rara")
    assert main(["createadmin"]) == 0
    assert User.objects.get(display_name="Jefa").is_superuser


def test_manage_passes_through(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["manage", "check"]) == 0
    assert "no issues" in capsys.readouterr().out


def test_serve_refuses_several_workers_without_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMIGOS_REDIS_URL", raising=False)
    assert main(["serve", "--workers", "2"]) == 2
    assert main(["serve", "--workers", "0"]) == 2


def test_manage_migrate_and_serve_answer_like_make_run(tmp_path: Path) -> None:
    """What `make run` does, in a scratch directory: migrate SQLite, serve, answer a page; then stop."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    env["AMIGOS_DATA_DIR"] = str(tmp_path)
    amigos = [sys.executable, "-m", "amigos.cli"]
    migrated = subprocess.run(
        [*amigos, "manage", "migrate", "--noinput"], env=env, capture_output=True, timeout=120
    )
    assert migrated.returncode == 0, migrated.stderr
    assert (tmp_path / "amigos.sqlite3").is_file()
    port = free_port()
    server = subprocess.Popen(
        [*amigos, "serve", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        page = ""
        for _ in range(300):  # up to a minute for a loaded machine; returns as soon as it answers
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/accounts/sign-in/", timeout=2
                ) as response:
                    page = response.read().decode()
                break
            except OSError:
                time.sleep(0.2)
        assert "Ingresar" in page
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_serve_with_a_misconfigured_site_stops_before_serving(tmp_path: Path) -> None:
    """Production settings without a secret key: `amigos serve` says why and stops at once, before
    it announces an address or starts the server."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    env.update(
        AMIGOS_DATA_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="amigos.web.settings.production",
        AMIGOS_ALLOWED_HOSTS="example.org",
    )
    port = free_port()
    served = subprocess.run(
        [sys.executable, "-m", "amigos.cli", "serve", "--port", str(port)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert served.returncode != 0
    assert "AMIGOS_SECRET_KEY" in served.stderr
    assert "http://" not in served.stdout
