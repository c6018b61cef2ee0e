"""Content-Security-Policy for every response.

The site faces the internet and shows text typed by strangers (the chat), so the browser is told to
run only scripts and styles served by this site: no inline code, no third-party origins. Sockets are
allowed back to the same host only.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


def policy_for(host: str) -> str:
    """The policy text for a request to `host` (host[:port] as the browser sent it)."""
    directives = [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        f"connect-src 'self' ws://{host} wss://{host}",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
    return "; ".join(directives)


class ContentSecurityPolicyMiddleware:
    """Adds Content-Security-Policy and Permissions-Policy headers unless a view set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy_for(request.get_host())
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response
