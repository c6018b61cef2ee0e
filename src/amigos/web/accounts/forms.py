"""Forms of the account pages. Labels and errors are translated; the rules live in services."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm
from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from amigos.web.accounts import throttle
from amigos.web.accounts.models import User
from amigos.web.accounts.services import current_suspension


def suspension_message(until: Any) -> str:
    when = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")
    return str(_("Your account is suspended until %(date)s.") % {"date": when})


class SignUpForm(BaseUserCreationForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "email")
        labels: ClassVar[dict[str, Any]] = {"display_name": _("Name"), "email": _("E-mail address")}
        help_texts: ClassVar[dict[str, Any]] = {
            "display_name": _("The name other players see (up to 24 characters).")
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].widget.attrs.update({"autocomplete": "nickname", "autofocus": True})
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})

    def clean_display_name(self) -> str:
        name = " ".join(str(self.cleaned_data["display_name"]).split())
        if User.objects.filter(display_name__iexact=name).exists():
            raise ValidationError(_("That name is taken; please choose another."), code="name_taken")
        return name

    def clean_email(self) -> str:
        email = str(self.cleaned_data["email"]).strip()
        if User.objects.filter(email__iexact=email).exists():
            raise ValidationError(
                _("An account with that e-mail address already exists."), code="email_taken"
            )
        return email


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

    def _address(self) -> str | None:
        if self.request is None:
            return None
        address = self.request.META.get("REMOTE_ADDR")
        return str(address) if address else None

    def clean(self) -> dict[str, Any]:
        identifier = str(self.cleaned_data.get("username") or "")
        now = timezone.now()
        refusal = throttle.check(identifier, self._address(), now)
        if refusal is not None:
            raise ValidationError(
                ngettext(
                    "Too many failed attempts. Please try again in %(minutes)d minute.",
                    "Too many failed attempts. Please try again in %(minutes)d minutes.",
                    refusal.minutes,
                )
                % {"minutes": refusal.minutes},
                code="throttled",
            )
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                throttle.record(identifier, self._address(), now, succeeded=False)
            raise
        throttle.record(identifier, self._address(), now, succeeded=True)
        return cleaned

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        until = current_suspension(user)
        if until is not None:
            raise ValidationError(suspension_message(until), code="suspended")
