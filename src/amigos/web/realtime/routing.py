"""WebSocket routes: a single endpoint carries every live feature."""

from __future__ import annotations

from django.urls import path

from amigos.web.realtime.consumer import SiteSocket

websocket_urlpatterns = [path("ws/", SiteSocket.as_asgi())]
