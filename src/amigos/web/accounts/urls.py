from __future__ import annotations

from django.urls import path

from amigos.web.accounts import views

app_name = "accounts"

urlpatterns = [
    path("sign-up/", views.sign_up, name="sign_up"),
    path("sign-in/", views.SignInView.as_view(), name="sign_in"),
    path("sign-out/", views.SignOutView.as_view(), name="sign_out"),
    path("email/", views.email_status, name="email"),
    path("settings/", views.settings_page, name="settings"),
    path("email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("password/", views.ChangePasswordView.as_view(), name="password_change"),
    path("password/done/", views.ChangePasswordDoneView.as_view(), name="password_change_done"),
    path("password/reset/", views.ResetPasswordView.as_view(), name="password_reset"),
    path("password/reset/sent/", views.ResetPasswordDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.ResetPasswordConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("password/reset/done/", views.ResetPasswordCompleteView.as_view(), name="password_reset_complete"),
]
