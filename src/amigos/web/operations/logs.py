"""Logs an operator's tools can read: one JSON object per line, with the request and the table.

`JsonFormatter` writes each record as one line of JSON (time in UTC, level, logger, message, the
process, and the exception's traceback as text), plus what the code was doing when it logged:
the HTTP request's id (`RequestIdMiddleware`) and the table whose actor was running (the actor
sets `TABLE_ID` once, in its own task, and every job, timer and computer player it starts
inherits it). Both travel in context variables, so no call site passes them along.

`AMIGOS_LOG_FORMAT` chooses `json` or `text` (the production settings default to JSON, the
others to text); `amigos serve` hands uvicorn's own loggers the same formatter.

This module imports the standard library only: the settings load it while logging is set up.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("amigos_request_id", default=None)
TABLE_ID: contextvars.ContextVar[int | None] = contextvars.ContextVar("amigos_table_id", default=None)

FORMATS = ("json", "text")
#: What a request id from the proxy may look like; anything else is replaced by one of ours, since
#: it ends up in the logs and in a response header.
REQUEST_ID_SHAPE = re.compile(r"[A-Za-z0-9._:-]{1,64}")
HEADER = "X-Request-ID"
#: The fields of uvicorn's access-log line, in the order of its arguments.
ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        table_id = getattr(record, "table_id", None) or TABLE_ID.get()
        if table_id is not None:
            entry["table_id"] = table_id
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            entry.update(zip(ACCESS_FIELDS, record.args, strict=True))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """The settings' LOGGING for ``log_format`` ("json" or "text"); anything else is an error."""
    if log_format not in FORMATS:
        raise ValueError(f"AMIGOS_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {log_format!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "amigos.web.operations.logs.JsonFormatter"}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                **({"formatter": "json"} if log_format == "json" else {}),
            }
        },
        "loggers": {
            "amigos": {"handlers": ["console"], "level": level},
            # Every 500 with its traceback, in production too (Django's default prints it only with
            # DEBUG on, and otherwise only mails the admins, which we do not configure).
            "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
            "django.server": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        },
    }


def uvicorn_config(level: str) -> dict[str, Any]:
    """uvicorn's own loggers (start-up, errors, the access log) in JSON, for `amigos serve`."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "amigos.web.operations.logs.JsonFormatter"}},
        "handlers": {"default": handler, "access": {**handler, "stream": "ext://sys.stdout"}},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        },
    }


def request_id_of(given: str | None) -> str:
    """The proxy's id for the request when it has a sensible shape, else a new one."""
    if given and REQUEST_ID_SHAPE.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Gives every request an id (the proxy's `X-Request-ID`, or a new one), which every log line
    written while the request runs carries, and which the response returns in the same header so
    a player's report can be matched to the server's lines."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request.headers.get(HEADER))
        token = REQUEST_ID.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            REQUEST_ID.reset(token)
        response[HEADER] = request_id
        return response
