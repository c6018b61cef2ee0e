"""The ASGI application: Django for HTTP, our socket tier for WebSockets (one endpoint, /ws/)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amigos.web.settings.dev")
# Django must be set up before the socket tier imports models.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from amigos.web.probes import Operations  # noqa: E402
from amigos.web.realtime.consumer import SiteSocket  # noqa: E402
from amigos.web.realtime.entry import SocketEntry  # noqa: E402
from amigos.web.tables.startup import ResumeTables  # noqa: E402

# ResumeTables rebuilds every unfinished table when the process starts (see tables/startup.py).
# SocketEntry admits an upgrade to /ws/ from this site's pages only (see realtime/entry.py).
# Operations answers /healthz, /readyz and /metrics before Django (see probes.py).
application = Operations(
    ResumeTables(
        ProtocolTypeRouter(
            {
                "http": django_application,
                "websocket": SocketEntry(SiteSocket.as_asgi()),
            }
        )
    )
)
