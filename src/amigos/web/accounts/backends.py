"""Sign in with either the e-mail address or the display name, compared by their keys."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest

from amigos.web.accounts.models import User
from amigos.web.accounts.selectors import account_for_identifier


class EmailOrNameBackend(ModelBackend):
    """Only an exact key match signs in: a lookalike spelling of a name never does."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None or password is None:
            return None
        user = account_for_identifier(username)
        if user is None:
            # Spend the time of a real check so a stranger cannot tell which accounts exist.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
