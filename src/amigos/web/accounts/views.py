"""Account pages. Django's own auth views do the work; these wire our forms, templates and URLs."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from amigos.web.accounts import devices, limits
from amigos.web.accounts.forms import (
    BROWSER_TIME_ZONE_FIELD,
    ResetPasswordForm,
    SignInForm,
    SignUpForm,
    TimeZoneForm,
)
from amigos.web.accounts.models import User
from amigos.web.accounts.services import (
    BadTimeZone,
    MailOutcome,
    adopt_browser_time_zone,
    mark_email_verified,
    register_player,
    request_verification_mail,
    set_time_zone,
)
from amigos.web.accounts.verification import VerificationError, verify


@sensitive_post_parameters("password1", "password2")
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby:home")
    form = SignUpForm(request.POST or None, address=limits.client_address(request))
    if request.method == "POST" and form.is_valid():
        try:
            user = register_player(
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                request=request,
            )
        except IntegrityError:
            # Someone took the name or the address between the form's check and the insert.
            form.add_error(None, ValidationError(_("That name or address was just taken."), code="taken"))
            return render(request, "accounts/sign_up.html", {"form": form})
        adopt_browser_time_zone(user=user, name=request.POST.get(BROWSER_TIME_ZONE_FIELD))
        login(request, user, backend="amigos.web.accounts.backends.EmailOrNameBackend")
        outcome = request_verification_mail(user=user, request=request)
        messages.success(request, _("Your account is ready. Welcome!"))
        if outcome is MailOutcome.SENT:
            messages.info(
                request,
                _("We sent a link to %(email)s to verify your address.") % {"email": user.email},
            )
        else:
            messages.info(request, str(MAIL_OUTCOME_MESSAGES[outcome]))
        return redirect("lobby:home")
    return render(request, "accounts/sign_up.html", {"form": form})


MAIL_OUTCOME_MESSAGES = {
    MailOutcome.SENT: gettext_lazy("We sent a new link to your address. It is valid for three days."),
    MailOutcome.ALREADY_VERIFIED: gettext_lazy("Your address is already verified."),
    MailOutcome.TOO_MANY_FROM_CLIENT: gettext_lazy(
        "Too many e-mails were requested from your connection. Please try again later."
    ),
    MailOutcome.TOO_MANY_TO_ADDRESS: gettext_lazy(
        "We already sent several links to this address; please look for them or try again later."
    ),
}


@login_required
@require_http_methods(["GET", "POST"])
def email_status(request: HttpRequest) -> HttpResponse:
    """Whether the player's address is verified, with a button to mail the link again."""
    user = request.user
    assert isinstance(user, User)  # login_required
    if request.method == "POST":
        outcome = request_verification_mail(user=user, request=request)
        level = messages.SUCCESS if outcome is MailOutcome.SENT else messages.INFO
        messages.add_message(request, level, str(MAIL_OUTCOME_MESSAGES[outcome]))
        return redirect("accounts:email")
    return render(request, "accounts/email.html", {"account": user})


VERIFICATION_ERRORS = {
    "expired": gettext_lazy("This link has expired. Sign in and ask for a new one."),
    "invalid": gettext_lazy("This link is not valid (it may be for an address the account no longer uses)."),
}


@require_http_methods(["GET", "POST"])
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link from the mail. Opening it only shows a button: mail scanners that fetch links must
    not verify anything; the player's click (a POST, with CSRF) does."""
    if request.method == "GET":
        return render(request, "accounts/verify_email.html", {"token": token, "form": Form()})
    try:
        result = verify(token)
    except VerificationError as error:
        return render(
            request,
            "accounts/verify_email.html",
            {"error": VERIFICATION_ERRORS[error.code], "error_code": error.code},
            status=400,
        )
    if result.already:
        messages.info(request, _("Your address was already verified."))
    else:
        messages.success(request, _("Thank you: your e-mail address is verified."))
    return redirect("accounts:email" if request.user.is_authenticated else "accounts:sign_in")


def ended_message(reason: str | None) -> str | None:
    """Why the live page sent the player here (the socket ended the session)."""
    if reason == "idle":
        return _("You were signed out after a period without activity.")
    if reason == "suspended":
        return _("Your account has been suspended.")
    if reason == "signed_out":
        return _("Your session ended. Please sign in again.")
    return None


class SignInView(auth_views.LoginView):
    form_class = SignInForm
    template_name = "accounts/sign_in.html"
    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        # The right password from this browser: it becomes a known device of the account, which
        # strangers' failures elsewhere only slow down (see amigos.web.accounts.throttle).
        user = form.get_user()
        # The browser's zone, if the account has none yet (amigos.web.accounts.clock).
        adopt_browser_time_zone(user=user, name=self.request.POST.get(BROWSER_TIME_ZONE_FIELD))
        response = super().form_valid(form)
        devices.remember(response, self.request, user.pk)
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["ended_message"] = ended_message(self.request.GET.get("ended"))
        return context


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's settings: the time zone every page shows times in."""
    user = request.user
    assert isinstance(user, User)  # login_required
    form = TimeZoneForm(request.POST or None, initial={"time_zone": user.time_zone or settings.TIME_ZONE})
    if request.method == "POST" and form.is_valid():
        try:
            set_time_zone(user=user, name=form.cleaned_data["time_zone"])
        except BadTimeZone:
            form.add_error("time_zone", _("That is not a time zone we know. Choose one from the list."))
        else:
            messages.success(request, _("Your time zone is saved: every time is now shown in it."))
            return redirect("accounts:settings")
    return render(
        request, "accounts/settings.html", {"form": form, "account": user}, status=400 if form.errors else 200
    )


class SignOutView(auth_views.LogoutView):
    next_page = "accounts:sign_in"


class ChangePasswordView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password_change_done")


class ChangePasswordDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class ResetPasswordView(auth_views.PasswordResetView):
    form_class = ResetPasswordForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs = super().get_form_kwargs()
        kwargs["address"] = limits.client_address(self.request)
        return kwargs


class ResetPasswordDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class ResetPasswordConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form: Any) -> HttpResponse:
        # The reset link reached this inbox and was used: that proves the address as well.
        response = super().form_valid(form)
        mark_email_verified(user=form.user)
        return response


class ResetPasswordCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
