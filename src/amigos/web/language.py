"""Spanish first: the language is the one the player chose with the switcher, else Spanish.

Django's own LocaleMiddleware would follow the browser's Accept-Language header, which would greet
most visitors of a Spanish-speaking community in English just because their phone was set up that
way. The switcher stores the choice in the language cookie; nothing else changes the language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers


def chosen_language(request: HttpRequest) -> str:
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    supported = {code for code, _ in settings.LANGUAGES}
    return cookie if cookie in supported else str(settings.LANGUAGE_CODE)


class LanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = chosen_language(request)
        request.LANGUAGE_CODE = language
        # Only for this request: an `activate` stayed on the thread, and the next request it served
        # (or the next test) spoke the previous player's language until something chose again.
        with translation.override(language):
            response = self.get_response(request)
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", language)
        return response
