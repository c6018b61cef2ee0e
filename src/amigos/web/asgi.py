"""The ASGI application: Django for HTTP, our socket tier for WebSockets (one endpoint, /ws/)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amigos.web.settings.dev")
# Django must be set up before the socket tier imports models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from amigos.web.realtime.routing import websocket_urlpatterns  # noqa: E402
from amigos.web.realtime.server_send import ServerSend  # noqa: E402
from amigos.web.security import SameOriginSocketValidator  # noqa: E402
from amigos.web.tables.startup import ResumeTables  # noqa: E402

# ResumeTables rebuilds every unfinished table when the process starts (see tables/startup.py).
application = ResumeTables(
    ProtocolTypeRouter(
        {
            "http": django_application,
            "websocket": SameOriginSocketValidator(
                ServerSend(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
)
