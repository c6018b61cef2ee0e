"""A forwarded address that is not an address, and a 500 in production: both must be handled."""

from __future__ import annotations

import io
import logging
import logging.config
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import reverse

from amigos.web.accounts.limits import client_address
from amigos.web.accounts.models import SignInAttempt


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8::1", "2001:db8::1"),
        ("not-an-address", None),
        ("1.2.3.4, 5.6.7.8", None),
        ("<script>", None),
        ("9" * 5000, None),
        ("", None),
    ],
)
def test_only_an_ip_address_is_taken(raw: str, expected: str | None) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR=raw)
    assert client_address(request) == expected


@pytest.mark.django_db
def test_a_bad_forwarded_address_does_not_break_sign_in(make_player: Callable[..., Any]) -> None:
    """Regression: behind the proxy, X-Forwarded-For: not-an-address became REMOTE_ADDR and the
    failed sign-in's record (an IP address column) answered 500."""
    user = make_player("Ana")
    client = Client(REMOTE_ADDR="not-an-address")
    wrong = {"username": user.email, "password": "wrong-password"}
    response = client.post(reverse("accounts:sign_in"), wrong)
    assert response.status_code == 200
    attempt = SignInAttempt.objects.get()
    assert attempt.address is None and not attempt.succeeded


def test_every_500_is_logged_with_its_traceback_without_debug() -> None:
    """Regression: with DEBUG off (production) Django's default logging dropped the traceback."""
    logging.config.dictConfig(settings.LOGGING)
    logger = logging.getLogger("django.request")
    stream = io.StringIO()
    handlers = [h for h in logger.handlers if isinstance(h, logging.StreamHandler)]
    previous = [h.setStream(stream) for h in handlers]
    try:
        raise RuntimeError("boom in a view")
    except RuntimeError:
        logger.error("Internal Server Error: /events/1/", exc_info=True)
    finally:
        for handler, old in zip(handlers, previous, strict=True):
            if old is not None:
                handler.setStream(old)
    text = stream.getvalue()
    assert "Internal Server Error: /events/1/" in text and "Traceback" in text and "boom in a view" in text
