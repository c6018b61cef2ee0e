"""The player's account.

A custom user model from the first migration: players sign in with an e-mail address or a display
name (which may contain spaces and accents), and the account carries its suspension. Later features
hang their own rows off it (rating, cards, statistics) instead of widening this table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX_LENGTH = 24


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, display_name: str, password: str | None = None, **extra: Any) -> User:
        if not email:
            raise ValueError("an e-mail address is required")
        if not display_name:
            raise ValueError("a display name is required")
        user = self.model(email=self.normalize_email(email), display_name=display_name.strip(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(
        self, email: str, display_name: str, password: str | None = None, **extra: Any
    ) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(email, display_name, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(_("e-mail address"), max_length=254, unique=True)
    display_name = models.CharField(
        _("name"), max_length=DISPLAY_NAME_MAX_LENGTH, help_text=_("The name other players see.")
    )
    is_active = models.BooleanField(_("active"), default=True)
    is_staff = models.BooleanField(_("staff"), default=False, help_text=_("May use the administration site."))
    date_joined = models.DateTimeField(_("joined"), default=timezone.now)
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    suspension_reason = models.CharField(_("reason for the suspension"), max_length=200, blank=True)

    objects: ClassVar[UserManager] = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = ["display_name"]

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
            models.UniqueConstraint(Lower("display_name"), name="accounts_user_display_name_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.display_name

    def get_full_name(self) -> str:
        return self.display_name

    def get_short_name(self) -> str:
        return self.display_name

    def is_suspended(self, now: datetime | None = None) -> bool:
        """True while a suspension runs; it ends by itself at `suspended_until`."""
        moment = now or timezone.now()
        return self.suspended_until is not None and self.suspended_until > moment


class SignInAttempt(models.Model):
    """One sign-in attempt, kept for the throttle (shared by every process through the database)."""

    identifier = models.CharField(max_length=254, db_index=True)
    address = models.GenericIPAddressField(null=True, blank=True, db_index=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)
    succeeded = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("sign-in attempt")
        verbose_name_plural = _("sign-in attempts")

    def __str__(self) -> str:
        return f"{self.identifier} {self.address} {self.at:%Y-%m-%d %H:%M:%S}"
