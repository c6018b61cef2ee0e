"""Proof that a player owns their e-mail address: a signed link mailed to it.

The link carries the account and the address it was sent to, signed with the site's secret, and
expires. Changing the address makes older links worthless (the address in the link no longer
matches), and following a link twice is harmless.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from amigos.web.accounts.identity import identifier_key
from amigos.web.accounts.models import User

_SALT = "amigos.web.accounts.verification"


class VerificationError(Exception):
    """A link that cannot verify anything; `code` is `expired` or `invalid`."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Verified:
    user: User
    already: bool


def make_token(user: User) -> str:
    return signing.dumps({"u": user.pk, "e": identifier_key(user.email)}, salt=_SALT, compress=True)


def verify(token: str) -> Verified:
    """Mark the address of the link's account verified; VerificationError when the link is no good."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=settings.AMIGOS_VERIFICATION_MAX_AGE_SECONDS)
    except signing.SignatureExpired:
        raise VerificationError("expired") from None
    except signing.BadSignature:
        raise VerificationError("invalid") from None
    account = data.get("u") if isinstance(data, dict) else None
    if not isinstance(account, int):
        raise VerificationError("invalid")
    user = User.objects.filter(pk=account).first()
    if user is None or identifier_key(user.email) != data.get("e"):
        raise VerificationError("invalid")
    if user.email_verified_at is not None:
        return Verified(user, already=True)
    user.email_verified_at = timezone.now()
    user.save(update_fields=["email_verified_at"])
    return Verified(user, already=False)


def send_verification(user: User, request: HttpRequest) -> None:
    """Mail the link (the console backend prints it in development)."""
    link = request.build_absolute_uri(reverse("accounts:verify_email", args=[make_token(user)]))
    context = {"user": user, "link": link}
    subject = render_to_string("accounts/verify_email_subject.txt", context).strip()
    body = render_to_string("accounts/verify_email.txt", context)
    send_mail(subject, body, None, [user.email])
