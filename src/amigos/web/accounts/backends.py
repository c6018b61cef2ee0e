"""Sign in with either the e-mail address or the display name, both case-insensitively."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.db.models import Q
from django.http import HttpRequest

from amigos.web.accounts.models import User


def find_account(identifier: str) -> User | None:
    key = identifier.strip()
    if not key:
        return None
    return User.objects.filter(Q(email__iexact=key) | Q(display_name__iexact=key)).first()


class EmailOrNameBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None or password is None:
            return None
        user = find_account(username)
        if user is None:
            # Spend the time of a real check so a stranger cannot tell which accounts exist.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
