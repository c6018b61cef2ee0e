"""Structured logs (amigos.web.operations.logs): one JSON object a line, with the request's id and
the table's, and the setting that turns them on."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from amigos.web.accounts.models import User
from amigos.web.operations import logs
from amigos.web.tables import registry
from tests.web.tables.test_actor import against_computers


def record(message: str, *args: Any, name: str = "amigos.test", **extra: Any) -> logging.LogRecord:
    made = logging.LogRecord(name, logging.WARNING, __file__, 1, message, args, None)
    for key, value in extra.items():
        setattr(made, key, value)
    return made


def test_a_record_is_one_line_of_json() -> None:
    line = logs.JsonFormatter().format(record("table %s: «%s»", 7, "señal\nrota"))
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "table 7: «señal\nrota»"
    assert (entry["level"], entry["logger"], entry["process"]) == ("WARNING", "amigos.test", os.getpid())
    assert entry["time"].endswith("+00:00")
    assert "request_id" not in entry and "table_id" not in entry


def test_the_request_and_the_table_come_from_the_context() -> None:
    request_token = logs.REQUEST_ID.set("abc-123")
    table_token = logs.TABLE_ID.set(42)
    try:
        entry = json.loads(logs.JsonFormatter().format(record("hello")))
    finally:
        logs.REQUEST_ID.reset(request_token)
        logs.TABLE_ID.reset(table_token)
    assert (entry["request_id"], entry["table_id"]) == ("abc-123", 42)


def test_an_exception_travels_as_text() -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        made = logging.LogRecord("amigos", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    entry = json.loads(logs.JsonFormatter().format(made))
    assert "RuntimeError: boom" in entry["exception"]


def test_an_access_line_names_its_fields() -> None:
    made = record('%s - "%s %s HTTP/%s" %d', "1.2.3.4:5", "GET", "/mesas/", "1.1", 200, name="uvicorn.access")
    entry = json.loads(logs.JsonFormatter().format(made))
    assert (entry["client"], entry["method"], entry["path"], entry["status"]) == (
        "1.2.3.4:5",
        "GET",
        "/mesas/",
        200,
    )


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="AMIGOS_LOG_FORMAT"):
        logs.logging_config("xml", "INFO")


@pytest.mark.parametrize(
    ("given", "kept"), [("proxy-id.42:7", True), ("", False), ("with space", False), ("x" * 65, False)]
)
def test_the_proxys_request_id_is_kept_only_when_it_looks_like_one(given: str, kept: bool) -> None:
    found = logs.request_id_of(given)
    assert (found == given) is kept
    assert logs.REQUEST_ID_SHAPE.fullmatch(found)


@pytest.mark.django_db
def test_every_response_carries_its_request_id(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    answer = client.get("/accounts/sign-in/", HTTP_X_REQUEST_ID="from-the-proxy-1")
    assert answer["X-Request-ID"] == "from-the-proxy-1"
    first = client.get("/accounts/sign-in/")["X-Request-ID"]
    second = client.get("/accounts/sign-in/", HTTP_X_REQUEST_ID="bad id\r\n")["X-Request-ID"]
    assert (
        first != second and logs.REQUEST_ID_SHAPE.fullmatch(first) and logs.REQUEST_ID_SHAPE.fullmatch(second)
    )
    assert logs.REQUEST_ID.get() is None  # nothing of a request stays behind


@pytest.mark.django_db
def test_a_line_logged_during_a_request_names_it(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str | None] = []
    real = logs.RequestIdMiddleware.__init__

    def init(self: logs.RequestIdMiddleware, get_response: Any) -> None:
        def watched(request: Any) -> Any:
            seen.append(json.loads(logs.JsonFormatter().format(record("inside"))).get("request_id"))
            return get_response(request)

        real(self, watched)

    monkeypatch.setattr(logs.RequestIdMiddleware, "__init__", init)
    from django.test import Client as Fresh  # a new handler builds the middleware chain again

    Fresh().get("/accounts/sign-in/", HTTP_X_REQUEST_ID="req-7")
    assert seen == ["req-7"]


@pytest.mark.django_db(transaction=True)
async def test_the_actors_jobs_log_with_their_table(make_player: Callable[..., User]) -> None:
    _, actor = await against_computers(make_player, "amigos-100")
    try:

        async def job() -> dict[str, Any]:
            return dict(json.loads(logs.JsonFormatter().format(record("in a job"))))

        entry = await actor.call(job)
        assert entry["table_id"] == actor.id
        assert logs.TABLE_ID.get() is None  # the caller's own context is untouched
    finally:
        await registry.stop_all()


PROBE = (
    "import os, logging.config; os.environ['DJANGO_SETTINGS_MODULE']='amigos.web.settings.{module}'; "
    "from django.conf import settings; "
    "print(settings.AMIGOS_LOG_FORMAT, settings.LOGGING['handlers']['console'].get('formatter'))"
)


@pytest.mark.parametrize(
    ("module", "env", "expected"),
    [
        ("production", {}, "json json"),
        ("production", {"AMIGOS_LOG_FORMAT": "text"}, "text None"),
        ("dev", {}, "text None"),
        ("dev", {"AMIGOS_LOG_FORMAT": "json"}, "json json"),
    ],
)
def test_the_setting_chooses_the_format(module: str, env: dict[str, str], expected: str) -> None:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        env={**clean, "AMIGOS_SECRET_KEY": "s" * 50, "AMIGOS_ALLOWED_HOSTS": "domino.example", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected
