"""Content-Security-Policy for every response.

The site faces the internet and shows text typed by strangers (the chat), so the browser is told to
run only scripts and styles served by this site: no inline code, no third-party origins. Sockets are
allowed back to the same host only, and only over TLS (wss:) in production. The socket route checks
the `Origin` of every upgrade itself (scheme, host and port), since browsers send cookies with it.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.request import validate_host


def policy_for(host: str, *, secure_sockets_only: bool | None = None) -> str:
    """The policy text for a request to `host` (host[:port] as the browser sent it)."""
    if secure_sockets_only is None:
        secure_sockets_only = settings.AMIGOS_SECURE_SOCKETS_ONLY
    sockets = f"wss://{host}" if secure_sockets_only else f"ws://{host} wss://{host}"
    directives = [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        f"connect-src 'self' {sockets}",
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


DEFAULT_PORTS = {"http": 80, "https": 443}
PAGE_SCHEME = {"ws": "http", "wss": "https"}


def _host_and_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    """`host[:port]` split, the port defaulting to the scheme's; None when it does not parse."""
    try:
        parsed = urlsplit(f"{scheme}://{netloc}")
        port = parsed.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if not parsed.hostname or port is None:
        return None
    return parsed.hostname.lower(), port


def same_origin(origin: str | None, host: str | None, socket_scheme: str) -> bool:
    """Whether a socket's `Origin` is this site as the browser reached it: the same scheme (https
    for wss), host and port as the upgrade request's Host, and that host one of ALLOWED_HOSTS.

    Comparing host names only would let a page served by another program on another port of the
    same machine (or an http page of an https site) open sockets with the player's cookie.
    """
    if not origin or not host:
        return False
    page_scheme = PAGE_SCHEME.get(socket_scheme)
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    if page_scheme is None or parsed.scheme != page_scheme or parsed.path not in ("", "/"):
        return False
    theirs = _host_and_port(parsed.netloc, parsed.scheme)
    ours = _host_and_port(host, page_scheme)
    if theirs is None or ours is None or theirs != ours:
        return False
    return validate_host(ours[0], settings.ALLOWED_HOSTS)
