"""Start the idle clock at sign-in, so a session never begins already expired."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from amigos.web.accounts.services import LAST_ACTIVITY_KEY


@receiver(user_logged_in)
def start_idle_clock(sender: Any, request: HttpRequest | None, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        request.session[LAST_ACTIVITY_KEY] = time.time()
