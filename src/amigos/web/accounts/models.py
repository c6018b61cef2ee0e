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

from amigos.web.accounts.identity import identifier_key, skeleton

DISPLAY_NAME_MAX_LENGTH = 24
KEY_MAX_LENGTH = 254


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
    # When the player proved the address by following the link we mailed; None until then. Only a
    # verified address links the account to anything listed under that address (an event's seat).
    email_verified_at = models.DateTimeField(_("e-mail address verified"), null=True, blank=True)
    # The player's IANA time zone ("America/Havana"), told by the browser at sign-in or chosen on
    # the settings page; empty until then (the site's zone applies). See amigos.web.accounts.clock.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    # Comparison forms of the address and the name (see amigos.web.accounts.identity), kept by
    # save(): lookups are exact matches on these, never the database's own case folding.
    email_key = models.CharField(_("email key"), max_length=KEY_MAX_LENGTH, unique=True, editable=False)
    name_key = models.CharField(_("name key"), max_length=KEY_MAX_LENGTH, unique=True, editable=False)
    email_skeleton = models.CharField(
        _("email skeleton"), max_length=KEY_MAX_LENGTH, db_index=True, editable=False
    )
    name_skeleton = models.CharField(
        _("name skeleton"), max_length=KEY_MAX_LENGTH, db_index=True, editable=False
    )

    objects: ClassVar[UserManager] = UserManager()
    _stored_email_key: str | None = None  # the key as last read from or written to the database

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

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> User:
        user = super().from_db(db, field_names, values)
        user._stored_email_key = user.__dict__.get("email_key")
        return user

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Keep the comparison keys in step with the address and the name they are derived from.

        A new address is not verified, whoever changes it: the proof was for the old one.
        """
        stored = getattr(self, "_stored_email_key", None)
        if stored and stored != identifier_key(self.email):
            self.email_verified_at = None
        # Case folding can lengthen text (ß -> ss); the sign-up form keeps names far below the
        # limit, and cutting only affects absurd input typed in the administration.
        self.email_key = identifier_key(self.email)[:KEY_MAX_LENGTH]
        self.name_key = identifier_key(self.display_name)[:KEY_MAX_LENGTH]
        self.email_skeleton = skeleton(self.email)[:KEY_MAX_LENGTH]
        self.name_skeleton = skeleton(self.display_name)[:KEY_MAX_LENGTH]
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"email", "display_name"} & set(update_fields):
            kwargs["update_fields"] = {
                *update_fields,
                "email_verified_at",
                "email_key",
                "name_key",
                "email_skeleton",
                "name_skeleton",
            }
        super().save(*args, **kwargs)
        self._stored_email_key = self.email_key

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None

    def get_full_name(self) -> str:
        return self.display_name

    def get_short_name(self) -> str:
        return self.display_name

    def is_suspended(self, now: datetime | None = None) -> bool:
        """True while a suspension runs; it ends by itself at `suspended_until`."""
        moment = now or timezone.now()
        return self.suspended_until is not None and self.suspended_until > moment


class SignInAttempt(models.Model):
    """One sign-in attempt, kept for the throttle (shared by every process through the database).

    Failures count against the account the identifier resolved to (whatever spelling was typed),
    against the client's network (`network`: the address itself, or its /64 for IPv6, where one
    household holds a whole block), against the pair of the two, and against the known device
    (`device`, empty for a browser the account never signed in from). `identifier` is the normalised
    key, kept for the administrators.
    """

    identifier = models.CharField(_("identifier (normalised)"), max_length=254, db_index=True)
    account = models.ForeignKey(
        "User",
        verbose_name=_("account"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="sign_in_attempts",
    )
    address = models.GenericIPAddressField(_("IP address"), null=True, blank=True, db_index=True)
    network = models.CharField(_("network"), max_length=64, blank=True, db_index=True)
    device = models.CharField(_("known device"), max_length=64, blank=True, db_index=True)
    at = models.DateTimeField(_("tried at"), default=timezone.now, db_index=True)
    succeeded = models.BooleanField(_("succeeded"), default=False)

    class Meta:
        verbose_name = _("sign-in attempt")
        verbose_name_plural = _("sign-in attempts")

    def __str__(self) -> str:
        return f"{self.identifier} {self.address} {self.at:%Y-%m-%d %H:%M:%S}"


class LimitedAction(models.Model):
    """One use of an action that sends mail or creates accounts, counted by the rate limits.

    `key` is who is counted: a client address, or the comparison key of an e-mail address. Rows older
    than the longest window are dropped as new ones arrive.
    """

    class Kind(models.TextChoices):
        SIGN_UP = "sign_up", _("Sign-up")
        VERIFICATION_MAIL = "verify_mail", _("Verification e-mail")
        RESET_MAIL = "reset_mail", _("Password reset e-mail")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("counted for"), max_length=254)
    at = models.DateTimeField(_("at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("limited action")
        verbose_name_plural = _("limited actions")
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["kind", "key", "at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} {self.at:%Y-%m-%d %H:%M:%S}"
