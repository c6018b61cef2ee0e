"""The language a request was answered in ends with the request."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db


def test_a_page_in_english_leaves_the_thread_in_the_language_it_had() -> None:
    """A request in English once left English active in its thread: a later test (or a later
    request answered by a view that forgot to choose) then spoke English to a Spanish player."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("es"):
        response = client.get("/accounts/sign-in/")
        assert response.headers["Content-Language"] == "en"
        assert b'lang="en"' in response.content
        assert translation.get_language() == "es"


def test_a_page_is_answered_in_the_chosen_language() -> None:
    client = Client()
    assert client.get("/accounts/sign-in/").headers["Content-Language"] == "es"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert client.get("/accounts/sign-in/").headers["Content-Language"] == "en"
