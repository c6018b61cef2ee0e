"""Server-side session guard: sign out after inactivity and when the account gets suspended.

Every page request of a signed-in player passes here. The last-activity time sits in the session, the
same place the socket tier reads and refreshes it, so pages and sockets share one idle clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from amigos.web.accounts.forms import suspension_message
from amigos.web.accounts.models import User
from amigos.web.accounts.services import LAST_ACTIVITY_KEY, current_suspension, is_idle

#: Sent by a page's script when it fetches itself again on its own; such a request is checked like
#: any other (an idle or suspended player is signed out) but does not count as an action.
BACKGROUND_HEADER = "X-Amigos-Background"


class SessionGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if isinstance(user, User):
            now = time.time()
            until = current_suspension(user)
            if until is not None:
                logout(request)
                messages.error(request, suspension_message(until, user))
                return redirect("accounts:sign_in")
            last = request.session.get(LAST_ACTIVITY_KEY)
            if is_idle(float(last) if last is not None else None, now):
                logout(request)
                messages.info(request, _("You were signed out after a period without activity."))
                return redirect("accounts:sign_in")
            if request.headers.get(BACKGROUND_HEADER) != "1":
                # A page refreshing itself in the background (the event board after a change) is
                # not the player's action: it must not keep an idle player signed in.
                request.session[LAST_ACTIVITY_KEY] = now
        return self.get_response(request)
