"""Settings for the test suite: the same wiring as production-like runs, with short clocks."""

import os
import tempfile

from amigos.web.settings.base import *  # noqa: F403
from amigos.web.settings.base import ALLOWED_HOSTS, DATABASE_URL, DATABASES, env_int

# Without AMIGOS_DATABASE_URL the tests use SQLite (pytest-django creates a fresh test database);
# with it (make test-pg) every database test runs against PostgreSQL instead.
# The process id keeps concurrent runs apart (pytest-xdist adds its own worker suffix). SQLite uses a
# file, not shared-cache memory, so the live server's threads wait on locks instead of failing.
if DATABASE_URL.startswith("sqlite"):
    _test_db = os.path.join(tempfile.gettempdir(), f"amigos-test-{os.getpid()}.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": _test_db}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_amigos_{os.getpid()}"}

# The suite opens a connection per command, as it always has, rather than PostgreSQL's default of
# keeping them (base.py): threads of tests long finished must not hold connections to the test
# database that pytest-django drops at the end.
DATABASES["default"]["CONN_MAX_AGE"] = env_int("AMIGOS_DB_CONN_MAX_AGE", 0)

ALLOWED_HOSTS = [*ALLOWED_HOSTS, "testserver"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Short clocks so that presence and idle sign-out can be exercised in seconds; a test that needs a
# particular value overrides it with pytest-django's `settings` fixture (read at use time).
AMIGOS_HEARTBEAT_SECONDS = env_int("AMIGOS_HEARTBEAT_SECONDS", 1)
AMIGOS_IDLE_TIMEOUT_SECONDS = env_int("AMIGOS_IDLE_TIMEOUT_SECONDS", 600)
AMIGOS_IDLE_CHECK_SECONDS = 0
# Look static files up on each request: a long test run must not serve a stale size of a file that
# changed after the first request (WhiteNoise otherwise indexes them once per process).
WHITENOISE_AUTOREFRESH = True
# Tables: no pauses for people to look, computer players answer at once and think in a thread
# (tests/web/tables/test_thinking.py exercises the process pool itself).
AMIGOS_TABLE_HAND_PAUSE_SECONDS = 0
AMIGOS_TABLE_BOT_DELAY_MS = 0
AMIGOS_BOT_PROCESSES = 0
AMIGOS_ACADEMY_PROCESSES = 0
# The archive's hand-overs on a thread: a worker process would not see a test's open transaction
# (tests/web/tables/test_archive_worker.py starts one on committed data).
AMIGOS_ARCHIVE_PROCESS = 0
# Every test's sockets open from 127.0.0.1, many in a few seconds: the openings a client address may
# make are not what most tests are about (tests/web/realtime/test_entry.py lowers them).
AMIGOS_SOCKET_OPENINGS_PER_SECOND = 1000
AMIGOS_SOCKET_OPENING_BURST = 1000
# A player's table limits (tables/limits.py) are tested at their documented values by
# tests/web/tables/test_limits.py, which sets them. Elsewhere a test makes the tables its story
# needs; and an actor of an earlier test that writes after its database was flushed (SQLite reuses
# the players' ids) must not count against a later test's players.
AMIGOS_LIVE_TABLES_PER_PLAYER = 1000
AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER = 1000
AMIGOS_TABLES_CREATED_PER_WINDOW = 1000

# Passwords: still Argon2 (a stored hash starts "argon2", as in production), but at the smallest
# cost. Production's cost takes about 0.2 s a hash here, by design; the suite makes a few thousand
# players, which spent minutes of every run hashing. tests/web/test_accounts.py checks that the
# site's own settings keep Django's full-cost hasher first.
PASSWORD_HASHERS = ["amigos.web.settings.quick_hasher.QuickArgon2PasswordHasher"]
