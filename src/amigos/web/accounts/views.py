"""Account pages. Django's own auth views do the work; these wire our forms, templates and URLs."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from amigos.web.accounts.forms import SignInForm, SignUpForm
from amigos.web.accounts.services import register_player


@sensitive_post_parameters("password1", "password2")
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = register_player(
            form.cleaned_data["display_name"], form.cleaned_data["email"], form.cleaned_data["password1"]
        )
        login(request, user, backend="amigos.web.accounts.backends.EmailOrNameBackend")
        messages.success(request, _("Your account is ready. Welcome!"))
        return redirect("lobby:home")
    return render(request, "accounts/sign_up.html", {"form": form})


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

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["ended_message"] = ended_message(self.request.GET.get("ended"))
        return context


class SignOutView(auth_views.LogoutView):
    next_page = "accounts:sign_in"


class ChangePasswordView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password_change_done")


class ChangePasswordDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class ResetPasswordView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")


class ResetPasswordDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class ResetPasswordConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class ResetPasswordCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
