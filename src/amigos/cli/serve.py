"""`amigos serve`, `amigos createadmin` and `amigos manage`: run and administer the site.

All three default to the development settings (SQLite under var/, the in-memory bus); set
DJANGO_SETTINGS_MODULE=amigos.web.settings.production on a public server (see docs/deploy.md).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

DEFAULT_SETTINGS = "amigos.web.settings.dev"


def register(sub: Any) -> None:
    serve = sub.add_parser("serve", help="serve the site over ASGI (uvicorn)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--workers", type=int, default=1, help="worker processes (more than one needs AMIGOS_REDIS_URL)"
    )
    serve.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )
    serve.set_defaults(func=run)

    admin = sub.add_parser("createadmin", help="create an administrator account")
    admin.add_argument("--email", help="e-mail address (asked for when missing)")
    admin.add_argument("--name", help="display name (asked for when missing)")
    admin.add_argument(
        "--password-from-env",
        metavar="VAR",
        help="read the password from this environment variable instead of asking (for scripts)",
    )
    admin.set_defaults(func=run_createadmin)

    manage = sub.add_parser("manage", help="run a Django management command (migrate, shell, ...)")
    manage.add_argument("rest", nargs=argparse.REMAINDER, help="the command and its options")
    manage.set_defaults(func=run_manage)


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
    import django

    django.setup()


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
    if args.workers < 1:
        print("amigos serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1 and not os.environ.get("AMIGOS_REDIS_URL"):
        print(
            "amigos serve: several workers share the lobby only through Redis; set AMIGOS_REDIS_URL",
            file=sys.stderr,
        )
        return 2
    import uvicorn

    from amigos.web.realtime.limits import uvicorn_websocket_options

    _setup()  # a misconfigured site (production settings without a secret key, say) fails here
    _quiet_collector()
    print(f"Amigos por el Dominó: http://{args.host}:{args.port}/  (Ctrl+C stops)", flush=True)
    uvicorn.run(
        "amigos.web.asgi:application",
        log_config=_uvicorn_logging(args.log_level),
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        proxy_headers=True,
        lifespan="on",  # the tables resume at start-up (amigos.web.tables.startup)
        **uvicorn_websocket_options(),
    )
    return 0


def _uvicorn_logging(level: str) -> dict[str, Any]:
    """uvicorn's own log lines in the site's format: JSON with AMIGOS_LOG_FORMAT=json (the
    production default), else uvicorn's usual text."""
    from django.conf import settings
    from uvicorn.config import LOGGING_CONFIG

    from amigos.web.operations import logs

    if settings.AMIGOS_LOG_FORMAT == "json":
        return logs.uvicorn_config(level)
    return LOGGING_CONFIG


def _ask(prompt: str, given: str | None) -> str:
    if given:
        return given.strip()
    return input(prompt).strip()


def run_createadmin(args: argparse.Namespace) -> int:
    _setup()
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError
    from django.db import IntegrityError

    from amigos.web.accounts.models import User

    email = _ask("E-mail: ", args.email)
    name = _ask("Name: ", args.name)
    if args.password_from_env:
        password = os.environ.get(args.password_from_env, "")
    else:
        password = getpass.getpass("Password: ")
        if getpass.getpass("Password (again): ") != password:
            print("amigos createadmin: the passwords differ", file=sys.stderr)
            return 1
    if not email or not name or not password:
        print("amigos createadmin: e-mail, name and password are all required", file=sys.stderr)
        return 1
    candidate = User(email=email, display_name=name)
    try:
        validate_password(password, candidate)
    except ValidationError as error:
        print("amigos createadmin: " + " ".join(error.messages), file=sys.stderr)
        return 1
    if (
        User.objects.filter(email__iexact=email).exists()
        or User.objects.filter(display_name__iexact=name).exists()
    ):
        print("amigos createadmin: an account with that e-mail or name already exists", file=sys.stderr)
        return 1
    try:
        User.objects.create_superuser(email=email, display_name=name, password=password)
    except IntegrityError:
        print("amigos createadmin: an account with that e-mail or name already exists", file=sys.stderr)
        return 1
    print(f"Administrator {name} <{email}> created; sign in at /admin/ or on the site.")
    return 0


def run_manage(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
    from django.core.management import execute_from_command_line

    rest = list(args.rest)
    if rest[:1] == ["--"]:
        rest = rest[1:]
    execute_from_command_line(["amigos manage", *rest])
    return 0


def _quiet_collector() -> None:
    """Keep Python's cycle collector from pausing live tables: this process and its workers collect
    on a beat of their own (`amigos.web.collector`, which says why), from the moment their event
    loop starts."""
    from amigos.web import collector

    os.environ[collector.ENVIRONMENT_KEY] = "1"
