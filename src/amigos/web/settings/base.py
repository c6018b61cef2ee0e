"""Settings shared by every environment.

Everything that differs between a laptop, the test suite and a public server is read from the
environment here (database, Redis, e-mail, timeouts) so that the same code runs everywhere and the
environment-specific modules (`dev`, `test`, `production`) only change policy, never wiring.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.utils.translation import gettext_lazy as _

from amigos.web.operations.logs import logging_config

# Lets `ModelAdmin[Model]` and friends be written at runtime the way the type checker reads them.
django_stubs_ext.monkeypatch()

WEB_DIR = Path(__file__).resolve().parent.parent


def _data_dir() -> Path:
    """Where the SQLite file lives: `var/` of the source checkout when run from one, else of the cwd."""
    explicit = os.environ.get("AMIGOS_DATA_DIR")
    if explicit:
        return Path(explicit)
    checkout = WEB_DIR.parents[2]
    if (checkout / "pyproject.toml").is_file():
        return checkout / "var"
    return Path.cwd() / "var"


def env_int(name: str, default: int) -> int:
    """An integer setting from the environment; a malformed value is an error, not a silent default."""
    raw = os.environ.get(name)
    return default if raw is None or raw == "" else int(raw)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DATA_DIR = _data_dir()

SECRET_KEY = os.environ.get("AMIGOS_SECRET_KEY", "dev-only-not-secret")
DEBUG = False
ALLOWED_HOSTS: list[str] = env_list("AMIGOS_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])

INSTALLED_APPS = [
    "amigos.web.accounts",
    "amigos.web.lobby",
    "amigos.web.events",
    "amigos.web.archive",
    "amigos.web.tables",
    "amigos.web.moderation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
]

MIDDLEWARE = [
    "amigos.web.operations.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "amigos.web.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "amigos.web.language.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before the session guard: its notice of a suspension gives the end in the player's zone.
    "amigos.web.accounts.clock.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "amigos.web.accounts.middleware.SessionGuardMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "amigos.web.urls"
ASGI_APPLICATION = "amigos.web.asgi.application"

TEMPLATES: list[dict[str, Any]] = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [WEB_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "amigos.web.context.site",
            ],
        },
    },
]

# The database: SQLite under var/ unless AMIGOS_DATABASE_URL names another (PostgreSQL in production).
DATABASE_URL = os.environ.get("AMIGOS_DATABASE_URL", "")
if not DATABASE_URL:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASE_URL = f"sqlite:///{DATA_DIR / 'amigos.sqlite3'}"
# AMIGOS_DB_CONN_MAX_AGE: how long (seconds) a thread keeps its database connection between the
# socket commands and pages it serves; 0 opens one for each. PostgreSQL keeps them 60 s unless told
# otherwise: a connection each is a new server process and a TCP handshake behind every command
# (a socket command's database call measured 7.4-7.8 ms against 0.66-0.75 ms kept, 2.4-2.6 ms of
# the process's CPU against 0.6, machine_loop_ns 66-71; bench/README.md). The health check Django
# runs before reusing a connection drops one that a database restart broke. SQLite opens a file:
# 0, as always.
_CONN_MAX_AGE_DEFAULT = 0 if DATABASE_URL.startswith("sqlite") else 60
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=env_int("AMIGOS_DB_CONN_MAX_AGE", _CONN_MAX_AGE_DEFAULT),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Pages, sockets and heartbeats write concurrently from several threads: let readers and the
    # writer overlap (WAL), take the write lock up front (no failing lock upgrades) and wait for it.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }

# The message bus: Redis pub/sub when AMIGOS_REDIS_URL is set (several processes), else in memory.
REDIS_URL = os.environ.get("AMIGOS_REDIS_URL", "")
# One pooled connection is held by each process's subscriber; publishers share the rest. Sized
# deliberately: redis-py's asyncio pool raises instead of waiting when it runs dry.
REDIS_MAX_CONNECTIONS = env_int("AMIGOS_REDIS_MAX_CONNECTIONS", 32)
# Prefix of the Redis channels, so that several sites (or test runs) can share one Redis.
AMIGOS_BUS_NAMESPACE = os.environ.get("AMIGOS_BUS_NAMESPACE", "amigos")

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["amigos.web.accounts.backends.EmailOrNameBackend"]
LOGIN_URL = "accounts:sign_in"
LOGIN_REDIRECT_URL = "lobby:home"
LOGOUT_REDIRECT_URL = "accounts:sign_in"

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {
        # Our account has no username or first/last name: compare the password with what it does have.
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        "OPTIONS": {"user_attributes": ("display_name", "email")},
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# Sign-out after this many seconds without activity, on pages and on sockets (the spec says 10 min).
AMIGOS_IDLE_TIMEOUT_SECONDS = env_int("AMIGOS_IDLE_TIMEOUT_SECONDS", 600)
# How often a socket re-reads its session to enforce the idle timeout and suspensions.
AMIGOS_IDLE_CHECK_SECONDS = env_int("AMIGOS_IDLE_CHECK_SECONDS", 15)
# How long lobby and table chat lines are kept for moderation (`amigos manage purge_chat`).
AMIGOS_CHAT_RETENTION_DAYS = env_int("AMIGOS_CHAT_RETENTION_DAYS", 90)
# The browser's heartbeat period; a player whose heartbeat is missing for 3 periods is absent.
AMIGOS_HEARTBEAT_SECONDS = env_int("AMIGOS_HEARTBEAT_SECONDS", 20)
# Sign-in throttle (amigos.web.accounts.throttle): failures allowed within the window per address
# (IPv6: per /64), per account from one address, per account from anywhere (then only browsers the
# account never signed in from are refused; known ones may try once per pace), and per known device.
AMIGOS_SIGN_IN_WINDOW_SECONDS = env_int("AMIGOS_SIGN_IN_WINDOW_SECONDS", 900)
AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS = env_int("AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS", 20)
AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = env_int(
    "AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS", 5
)
AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT = env_int("AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT", 20)
AMIGOS_SIGN_IN_MAX_FAILURES_PER_DEVICE = env_int("AMIGOS_SIGN_IN_MAX_FAILURES_PER_DEVICE", 5)
AMIGOS_SIGN_IN_KNOWN_DEVICE_PACE_SECONDS = env_int("AMIGOS_SIGN_IN_KNOWN_DEVICE_PACE_SECONDS", 5)
# How long a browser stays known to the accounts that signed in on it (renewed at each sign-in).
AMIGOS_KNOWN_DEVICE_MAX_AGE_SECONDS = env_int("AMIGOS_KNOWN_DEVICE_MAX_AGE_SECONDS", 180 * 24 * 3600)
# Limits on what costs mail or accounts, within one window: sign-ups per client address, and account
# e-mails (verification and password reset) per client address and per recipient address.
AMIGOS_RATE_WINDOW_SECONDS = env_int("AMIGOS_RATE_WINDOW_SECONDS", 3600)
AMIGOS_SIGN_UPS_PER_CLIENT = env_int("AMIGOS_SIGN_UPS_PER_CLIENT", 5)
AMIGOS_MAILS_PER_CLIENT = env_int("AMIGOS_MAILS_PER_CLIENT", 10)
AMIGOS_MAILS_PER_RECIPIENT = env_int("AMIGOS_MAILS_PER_RECIPIENT", 3)
# How long the link that verifies an e-mail address stays valid.
AMIGOS_VERIFICATION_MAX_AGE_SECONDS = env_int("AMIGOS_VERIFICATION_MAX_AGE_SECONDS", 3 * 24 * 3600)
# Public chat: longest message, and at most N messages per window per player.
AMIGOS_CHAT_MAX_LENGTH = env_int("AMIGOS_CHAT_MAX_LENGTH", 300)
AMIGOS_CHAT_FLOOD_COUNT = env_int("AMIGOS_CHAT_FLOOD_COUNT", 5)
AMIGOS_CHAT_FLOOD_WINDOW_SECONDS = env_int("AMIGOS_CHAT_FLOOD_WINDOW_SECONDS", 10)
AMIGOS_CHAT_HISTORY = env_int("AMIGOS_CHAT_HISTORY", 50)
# Socket limits: commands per second a socket may send (with a burst), sockets per player per process.
AMIGOS_SOCKET_COMMANDS_PER_SECOND = env_int("AMIGOS_SOCKET_COMMANDS_PER_SECOND", 10)
AMIGOS_SOCKET_COMMAND_BURST = env_int("AMIGOS_SOCKET_COMMAND_BURST", 30)
AMIGOS_SOCKETS_PER_PLAYER = env_int("AMIGOS_SOCKETS_PER_PLAYER", 8)
# What a socket's frames may cost before they are parsed: characters a second (with a burst, at least
# one frame's 8192), and milliseconds of parsing a second (with a burst). A browser spends far less
# of either; a socket over them is refused, then closed like a flood.
AMIGOS_SOCKET_CHARS_PER_SECOND = env_int("AMIGOS_SOCKET_CHARS_PER_SECOND", 16384)
AMIGOS_SOCKET_CHARS_BURST = env_int("AMIGOS_SOCKET_CHARS_BURST", 65536)
AMIGOS_SOCKET_PARSE_MS_PER_SECOND = env_int("AMIGOS_SOCKET_PARSE_MS_PER_SECOND", 20)
AMIGOS_SOCKET_PARSE_MS_BURST = env_int("AMIGOS_SOCKET_PARSE_MS_BURST", 200)
# Sockets one client address may open per server process: a second (with a burst); refused with HTTP
# 429 before the socket reads its session. Generous: a club's players may share one address.
AMIGOS_SOCKET_OPENINGS_PER_SECOND = env_int("AMIGOS_SOCKET_OPENINGS_PER_SECOND", 2)
AMIGOS_SOCKET_OPENING_BURST = env_int("AMIGOS_SOCKET_OPENING_BURST", 40)
# Whether the CSP lets pages open sockets over TLS only (wss:); production says yes.
AMIGOS_SECURE_SOCKETS_ONLY = False

LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [WEB_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("AMIGOS_TIME_ZONE", "America/Mexico_City")
USE_TZ = True
# One format per language for dates with times (amigos.web.formats).
FORMAT_MODULE_PATH = ["amigos.web.formats"]

STATIC_URL = "/static/"
STATICFILES_DIRS = [WEB_DIR / "static"]
# Only `collectstatic` (production) fills STATIC_ROOT; elsewhere files come from the app directories.
STATIC_ROOT: Path | None = (
    Path(os.environ["AMIGOS_STATIC_ROOT"]) if os.environ.get("AMIGOS_STATIC_ROOT") else None
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve straight from the app directories when collectstatic has not run (make run, tests).
WHITENOISE_USE_FINDERS = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# E-mail (password reset): printed on the console unless an SMTP host is configured.
EMAIL_HOST = os.environ.get("AMIGOS_EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("AMIGOS_EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("AMIGOS_EMAIL_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("AMIGOS_EMAIL_PASSWORD", "")
    EMAIL_USE_TLS = os.environ.get("AMIGOS_EMAIL_TLS", "1") == "1"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("AMIGOS_EMAIL_FROM", "Amigos por el Dominó <no-reply@localhost>")

# Headers every response carries (see amigos.web.security for the Content-Security-Policy).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Logs: plain text on a laptop, one JSON object per line (with the request's and the table's ids)
# where AMIGOS_LOG_FORMAT=json, the production default (amigos/web/operations/logs.py).
AMIGOS_LOG_FORMAT = os.environ.get("AMIGOS_LOG_FORMAT", "text")
LOGGING: dict[str, Any] = logging_config(AMIGOS_LOG_FORMAT, os.environ.get("AMIGOS_LOG_LEVEL", "INFO"))

# Live tables (docs/protocol.md, "Tables"). Pauses are for people to see what happened; tests set 0.
AMIGOS_TABLE_HAND_PAUSE_SECONDS = env_int("AMIGOS_TABLE_HAND_PAUSE_SECONDS", 5)
AMIGOS_TABLE_BOT_DELAY_MS = env_int("AMIGOS_TABLE_BOT_DELAY_MS", 800)
# Computer players think in this many worker processes (0: in a thread of the server, for tests).
AMIGOS_BOT_PROCESSES = env_int("AMIGOS_BOT_PROCESSES", 2)
# ...at this much lower a scheduling priority than the server (nice, 0 to 19): a computer player may
# take a moment longer, a person's play may not.
AMIGOS_BOT_NICENESS = env_int("AMIGOS_BOT_NICENESS", 10)
# With 1 (and a Redis bus) the searches go instead to a worker service of their own through Redis
# (`python -m amigos.web.bot_queue`, amigos/web/bot_queue.py), so the table servers' cores serve
# only tables; a search not answered within the timeout is played as the easy bot would, at once.
AMIGOS_BOT_SERVICE = env_int("AMIGOS_BOT_SERVICE", 0)
AMIGOS_BOT_SERVICE_TIMEOUT_SECONDS = env_int("AMIGOS_BOT_SERVICE_TIMEOUT_SECONDS", 20)
# Every search worker (computer players, the Academy, the hand reviews) may use at most this much
# address space, in MB (0: no limit); the searches' node budgets keep them far below it.
AMIGOS_SEARCH_MEMORY_MB = env_int("AMIGOS_SEARCH_MEMORY_MB", 1024)
# The Academy's searches, the hand reviews and the "what if" replays run in this many worker
# processes (0: at once in the asking thread, for tests), ...
AMIGOS_ACADEMY_PROCESSES = env_int("AMIGOS_ACADEMY_PROCESSES", 1)
# ...with at most this many jobs waiting or running in all (a player: one at a time).
AMIGOS_ACADEMY_QUEUE = env_int("AMIGOS_ACADEMY_QUEUE", 20)
# On PostgreSQL, finished matches go to the archive from a worker process of their own (1), or from
# a thread of the server (0; always so on SQLite): see amigos/web/tables/handover.py.
AMIGOS_ARCHIVE_PROCESS = env_int("AMIGOS_ARCHIVE_PROCESS", 1)
# ...at this much lower a scheduling priority than the server (nice, 0 to 19): a finished match may
# reach the archive a moment later; the live tables' plays may not wait for it.
AMIGOS_ARCHIVE_NICENESS = env_int("AMIGOS_ARCHIVE_NICENESS", 5)
# Several processes (a Redis bus): each table is run by the process holding its lease (docs/deploy.md,
# "Several processes"). The lease lasts this long, is renewed this often (unheld tables are adopted
# on the same beat), and a command forwarded to the owning process waits this long for its answer.
AMIGOS_TABLE_LEASE_SECONDS = env_int("AMIGOS_TABLE_LEASE_SECONDS", 15)
AMIGOS_TABLE_LEASE_RENEW_SECONDS = env_int("AMIGOS_TABLE_LEASE_RENEW_SECONDS", 5)
AMIGOS_TABLE_FORWARD_TIMEOUT_SECONDS = env_int("AMIGOS_TABLE_FORWARD_TIMEOUT_SECONDS", 5)

# The operator's side (docs/deploy.md, "Watching it run"): /metrics answers only requests that carry
# this bearer token (none: refused), and a process asked to stop (SIGTERM) answers /readyz with 503
# for this many seconds before it stops listening, so the proxy sends nobody new to it.
AMIGOS_METRICS_TOKEN = os.environ.get("AMIGOS_METRICS_TOKEN", "")
AMIGOS_DRAIN_SECONDS = env_int("AMIGOS_DRAIN_SECONDS", 0)
# A served process logs a warning, with the stack it is in, when its event loop runs nothing for
# this long (0: no watch). See amigos.web.operations.loop_watch.
AMIGOS_LOOP_STALL_SECONDS = env_int("AMIGOS_LOOP_STALL_SECONDS", 5)

# What one player may hold at once (docs/rules.md, "A player's tables"): open live tables (inviting,
# playing or voting, whether organized or invited to) and open correspondence games; and how many
# tables one account may create within a window (rematches and rotations count too).
AMIGOS_LIVE_TABLES_PER_PLAYER = env_int("AMIGOS_LIVE_TABLES_PER_PLAYER", 1)
AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER = env_int("AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER", 5)
AMIGOS_TABLES_CREATED_PER_WINDOW = env_int("AMIGOS_TABLES_CREATED_PER_WINDOW", 10)
AMIGOS_TABLE_CREATION_WINDOW_SECONDS = env_int("AMIGOS_TABLE_CREATION_WINDOW_SECONDS", 600)
