"""The player's own moderation page ("my cards"): thin, the selector does the work."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from amigos.web.moderation import selectors


@login_required
def my_cards(request: HttpRequest) -> HttpResponse:
    # Always the signed-in player's own cards: no identifier is read from the request.
    return render(
        request, "moderation/my_cards.html", {"mine": selectors.my_cards(int(request.user.pk or 0))}
    )
