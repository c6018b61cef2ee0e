"""Forms of the account pages. Labels and errors are translated; the rules live in services."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from django import forms
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm, PasswordResetForm
from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from amigos.web.accounts import clock, devices, limits, selectors, throttle
from amigos.web.accounts.identity import clean_display_name, display_name_problem, identifier_key
from amigos.web.accounts.models import DISPLAY_NAME_MAX_LENGTH, LimitedAction, User
from amigos.web.accounts.services import current_suspension

NAME_PROBLEMS = {
    "invisible": _("The name contains an invisible or direction-changing character; please remove it."),
    "marks": _("The name contains accent marks that are not attached to a letter."),
    "mixed_scripts": _("The name mixes Latin letters with Cyrillic or Greek ones; please use one alphabet."),
    "at_sign": _("The name cannot contain @."),
}


def suspension_message(until: Any, user: object = None) -> str:
    """The notice of a suspension, its end in ``user``'s own zone (the sign-in page is read before
    the account is known, so the page's zone would be the site's)."""
    when = formats.date_format(timezone.localtime(until, clock.player_zone(user)), "DATETIME_FORMAT")
    return str(_("Your account is suspended until %(date)s.") % {"date": when})


def throttle_message(refusal: throttle.Refusal) -> str:
    """What the sign-in page says for each refusal code of the throttle."""
    minutes = {"minutes": refusal.minutes}
    if refusal.code == throttle.SLOWED:
        return ngettext(
            "Please wait %(seconds)d second before trying again.",
            "Please wait %(seconds)d seconds before trying again.",
            refusal.seconds,
        ) % {"seconds": refusal.seconds}
    if refusal.code == throttle.ADDRESS_LIMITED:
        return (
            ngettext(
                "Too many failed attempts from your connection. Please try again in %(minutes)d minute.",
                "Too many failed attempts from your connection. Please try again in %(minutes)d minutes.",
                refusal.minutes,
            )
            % minutes
        )
    if refusal.code == throttle.ACCOUNT_LIMITED:
        return (
            ngettext(
                "Too many failed attempts at this account from other places. Sign in from a device you"
                " have used before, reset your password, or try again in %(minutes)d minute.",
                "Too many failed attempts at this account from other places. Sign in from a device you"
                " have used before, reset your password, or try again in %(minutes)d minutes.",
                refusal.minutes,
            )
            % minutes
        )
    return (
        ngettext(
            "Too many failed attempts. Please try again in %(minutes)d minute.",
            "Too many failed attempts. Please try again in %(minutes)d minutes.",
            refusal.minutes,
        )
        % minutes
    )


class SignUpForm(BaseUserCreationForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "email")
        labels: ClassVar[dict[str, Any]] = {"display_name": _("Name"), "email": _("E-mail address")}
        help_texts: ClassVar[dict[str, Any]] = {
            "display_name": _("The name other players see (up to 24 characters).")
        }

    def __init__(self, *args: Any, address: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = address
        self.fields["display_name"].widget.attrs.update({"autocomplete": "nickname", "autofocus": True})
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})

    def clean_display_name(self) -> str:
        name = clean_display_name(str(self.cleaned_data["display_name"]))
        if not name:
            raise ValidationError(_("Please choose a name."), code="name_empty")
        if len(name) > DISPLAY_NAME_MAX_LENGTH:
            raise ValidationError(
                _("The name is too long (up to %(limit)d characters)."),
                code="name_too_long",
                params={"limit": DISPLAY_NAME_MAX_LENGTH},
            )
        problem = display_name_problem(name)
        if problem is not None:
            raise ValidationError(NAME_PROBLEMS[problem], code=f"name_{problem}")
        if selectors.name_is_taken(name):
            raise ValidationError(
                _("That name is taken (or looks too much like one that is); please choose another."),
                code="name_taken",
            )
        return name

    def clean_email(self) -> str:
        email = str(self.cleaned_data["email"]).strip()
        if selectors.email_is_taken(email):
            raise ValidationError(
                _("An account with that e-mail address already exists."), code="email_taken"
            )
        return email

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not limits.sign_up_allowed(self.address, timezone.now()):
            raise ValidationError(
                _("Too many accounts were created from your connection. Please try again later."),
                code="sign_up_limited",
            )
        return cleaned


class SignInForm(AuthenticationForm):
    """Django's sign-in form behind the throttle, refusing suspended accounts with the end date."""

    username = forms.CharField(
        label=_("E-mail or name"),
        max_length=254,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )
    error_messages = {  # noqa: RUF012  (Django reads it as a class attribute)
        "invalid_login": _("That name or e-mail and password do not match an account."),
        "inactive": _("This account is inactive."),
    }

    def clean(self) -> dict[str, Any]:
        identifier = str(self.cleaned_data.get("username") or "")
        now = timezone.now()
        address = limits.client_address(self.request)
        target = selectors.resolve_identifier(identifier).account if identifier else None
        device = devices.device_for(self.request, target.pk if target is not None else None)
        refusal = throttle.check(account=target, address=address, device=device, now=now)
        if refusal is not None:
            raise ValidationError(throttle_message(refusal), code=refusal.code)
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                throttle.record(
                    identifier=identifier,
                    account=target,
                    address=address,
                    device=device,
                    now=now,
                    succeeded=False,
                )
            raise
        throttle.record(
            identifier=identifier,
            account=self.get_user(),
            address=address,
            device=device,
            now=now,
            succeeded=True,
        )
        return cleaned

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        until = current_suspension(user)
        if until is not None:
            raise ValidationError(suspension_message(until, user), code="suspended")


class ResetPasswordForm(PasswordResetForm):
    """Django's reset form, finding the account by the address's key and under the mail limits.

    A client that asked for too much mail is told so. An inbox that already got its share is not:
    the page says the same as for any address, so it tells nobody whether an account exists.
    """

    def __init__(self, *args: Any, address: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = address

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not limits.mail_allowed_from(self.address, timezone.now()):
            raise ValidationError(
                _("Too many e-mails were requested from your connection. Please try again later."),
                code="mail_limited",
            )
        return cleaned

    def get_users(self, email: str) -> Iterator[Any]:
        now = timezone.now()
        if not limits.mail_allowed_to(email, now):
            return
        found = User.objects.filter(email_key=identifier_key(email), is_active=True)
        for user in found:
            if user.has_usable_password():
                limits.spend(LimitedAction.Kind.RESET_MAIL, [limits.recipient_key(user.email)], now)
                yield user

    def save(self, *args: Any, **kwargs: Any) -> None:
        limits.spend(LimitedAction.Kind.RESET_MAIL, [limits.client_key(self.address)], timezone.now())
        super().save(*args, **kwargs)


#: The hidden field of the sign-up and sign-in pages that the page's script fills with the
#: browser's time zone (amigos/clock.js); the account keeps it if it has none yet.
BROWSER_TIME_ZONE_FIELD = "browser_time_zone"


class TimeZoneForm(forms.Form):
    """The settings page's choice of time zone. The list offers every zone the database knows;
    anything else posted (an old or made-up name) is refused with a message, not stored."""

    time_zone = forms.CharField(
        label=_("Your time zone"),
        max_length=clock.TIME_ZONE_MAX_LENGTH,
        help_text=_("Every time on the site (chat, messages, games, deadlines) is shown in this zone."),
        error_messages={"max_length": _("That is not a time zone we know. Choose one from the list.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].widget = forms.Select(choices=clock.zone_choices())

    def clean_time_zone(self) -> str:
        name = str(self.cleaned_data["time_zone"]).strip()
        if not clock.is_time_zone(name):
            raise ValidationError(
                _("That is not a time zone we know. Choose one from the list."), code="bad_time_zone"
            )
        return name
