"""Presence follows the session: a row at sign-in, gone at sign-out."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.lobby import presence


@receiver(user_logged_in)
def on_sign_in(sender: Any, user: Any, **kwargs: Any) -> None:
    if isinstance(user, User):
        presence.sign_in(user, timezone.now())


@receiver(user_logged_out)
def on_sign_out(sender: Any, user: Any, **kwargs: Any) -> None:
    if isinstance(user, User):
        presence.sign_out(user.pk)
