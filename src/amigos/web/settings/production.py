"""Settings for a public server: refuses to start without a secret; secure cookies and HSTS.

Set AMIGOS_SECRET_KEY, AMIGOS_ALLOWED_HOSTS (comma-separated), AMIGOS_DATABASE_URL (PostgreSQL) and,
for more than one process, AMIGOS_REDIS_URL. See docs/deploy.md.
"""

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from amigos.web.operations.logs import logging_config
from amigos.web.settings.base import *  # noqa: F403
from amigos.web.settings.base import DATA_DIR, env_int, env_list

SECRET_KEY = os.environ.get("AMIGOS_SECRET_KEY", "")
if len(SECRET_KEY) < 32:
    raise ImproperlyConfigured("AMIGOS_SECRET_KEY must be set to a random string of at least 32 characters")

DEBUG = False
ALLOWED_HOSTS = env_list("AMIGOS_ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("AMIGOS_ALLOWED_HOSTS must list the host names this site answers to")
CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS]

SESSION_COOKIE_SECURE = True
AMIGOS_SECURE_SOCKETS_ONLY = True  # the CSP's connect-src allows wss: only
CSRF_COOKIE_SECURE = True
SECURE_SSL_REDIRECT = os.environ.get("AMIGOS_SSL_REDIRECT", "1") == "1"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("AMIGOS_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = False

STATIC_ROOT = Path(os.environ.get("AMIGOS_STATIC_ROOT", str(DATA_DIR / "static")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = False

AMIGOS_LOG_FORMAT = os.environ.get("AMIGOS_LOG_FORMAT", "json")
LOGGING = logging_config(AMIGOS_LOG_FORMAT, os.environ.get("AMIGOS_LOG_LEVEL", "INFO"))
AMIGOS_DRAIN_SECONDS = env_int("AMIGOS_DRAIN_SECONDS", 5)
AMIGOS_METRICS_TOKEN = os.environ.get("AMIGOS_METRICS_TOKEN", "")
if AMIGOS_METRICS_TOKEN and len(AMIGOS_METRICS_TOKEN) < 24:
    raise ImproperlyConfigured("AMIGOS_METRICS_TOKEN must be a random string of at least 24 characters")
