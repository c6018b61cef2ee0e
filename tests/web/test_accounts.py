"""Accounts: sign up, sign in (by e-mail or name), throttle, suspension, idle sign-out, passwords."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amigos.web.accounts import throttle
from amigos.web.accounts.models import SignInAttempt, User
from amigos.web.accounts.services import LAST_ACTIVITY_KEY, is_idle
from amigos.web.lobby.models import Presence
from tests.web.conftest import PASSWORD, SignedIn

pytestmark = pytest.mark.django_db


@pytest.fixture
def django_settings(settings: Any) -> Any:
    """pytest-django's `settings`, under a name that does not clash with hypothesis's decorator."""
    return settings


NEW_PASSWORD = "otra-clave-segura-77"


def production_settings_file() -> str:
    import amigos.web.settings as package

    return str(Path(package.__file__).with_name("production.py"))


def sign_in_post(client: Client, identifier: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post(
        "/accounts/sign-in/", {"username": identifier, "password": password}, REMOTE_ADDR=address
    )


def test_sign_up_creates_an_argon2_account_and_signs_in() -> None:
    client = Client()
    response = client.post(
        "/accounts/sign-up/",
        {
            "display_name": "  María   José ",
            "email": "mj@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302 and response["Location"] == "/"
    user = User.objects.get(email="mj@example.org")
    assert user.display_name == "María José"
    assert user.password.startswith("argon2")
    assert Presence.objects.filter(user=user).exists()
    assert client.get("/").status_code == 200


def test_the_site_hashes_with_full_cost_argon2_and_the_quick_one_is_compatible() -> None:
    """The suite hashes at the smallest Argon2 cost (settings/test.py); the site's own settings,
    which production and `make run` start from, keep Django's full-cost Argon2 first, and a hash
    made quickly still checks with it (only the stored parameters differ)."""
    from django.contrib.auth.hashers import Argon2PasswordHasher, check_password, make_password

    from amigos.web.settings import base, dev
    from amigos.web.settings.quick_hasher import QuickArgon2PasswordHasher

    for module in (base, dev):
        assert module.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    # production.py starts from base and (it refuses to import without a secret) must not replace it.
    assert "PASSWORD_HASHERS" not in Path(production_settings_file()).read_text(encoding="utf-8")
    full = Argon2PasswordHasher()
    assert (full.time_cost, full.memory_cost) > (QuickArgon2PasswordHasher.time_cost, 64)
    quick = make_password(PASSWORD)
    assert quick.startswith("argon2$argon2id$") and full.verify(PASSWORD, quick)
    assert not check_password("otra", quick)


@pytest.mark.parametrize(
    ("name", "email", "field"),
    [("ana", "other@example.org", "display_name"), ("Otra", "ANA@example.org", "email")],
)
def test_names_and_emails_are_unique_ignoring_case(
    make_player: Callable[..., User], name: str, email: str, field: str
) -> None:
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    response = Client().post(
        "/accounts/sign-up/",
        {"display_name": name, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert field in response.context["form"].errors


def test_sign_up_rejects_a_weak_password() -> None:
    response = Client().post(
        "/accounts/sign-up/",
        {"display_name": "Pepe", "email": "p@example.org", "password1": "1234", "password2": "1234"},
    )
    assert "password2" in response.context["form"].errors
    assert not User.objects.exists()


@pytest.mark.parametrize("identifier", ["ana@example.org", "ANA@EXAMPLE.ORG", "Ana", "ana"])
def test_sign_in_by_email_or_name(identifier: str) -> None:
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    client = Client()
    response = sign_in_post(client, identifier, PASSWORD)
    assert response.status_code == 302
    assert client.session.get(LAST_ACTIVITY_KEY) is not None


def test_wrong_password_is_refused_and_counted() -> None:
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    response = sign_in_post(Client(), "Ana", "wrong-password")
    assert response.status_code == 200
    assert response.context["form"].errors["__all__"]
    user = User.objects.get(display_name="Ana")
    assert SignInAttempt.objects.filter(account=user, identifier="ana", succeeded=False).count() == 1


def test_the_throttle_locks_an_account_after_repeated_failures(settings: Any) -> None:
    settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 3
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    for n in range(3):
        sign_in_post(Client(), "Ana", "wrong", address=f"10.0.0.{n}")
    response = sign_in_post(Client(), "Ana", PASSWORD, address="10.0.9.9")
    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["__all__"]] == ["throttled_account"]
    assert "15" in str(response.context["form"].errors["__all__"])  # minutes until it reopens


def test_the_throttle_locks_an_address_spraying_many_accounts(settings: Any) -> None:
    settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS = 4
    for n in range(4):
        sign_in_post(Client(), f"nobody{n}", "wrong", address="10.1.1.1")
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    assert sign_in_post(Client(), "Ana", PASSWORD, address="10.1.1.1").status_code == 200
    assert sign_in_post(Client(), "Ana", PASSWORD, address="10.1.1.2").status_code == 302


def test_throttle_window_and_forgiveness(settings: Any) -> None:
    """Failures older than the window do not count; a success forgives the account's earlier failures."""
    settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 2
    ana = User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    now = timezone.now()
    window = timedelta(seconds=settings.AMIGOS_SIGN_IN_WINDOW_SECONDS)

    def record(ago: timedelta, *, succeeded: bool) -> None:
        throttle.record(identifier="Ana", account=ana, address=None, now=now - ago, succeeded=succeeded)

    record(window + timedelta(seconds=1), succeeded=False)
    record(timedelta(seconds=30), succeeded=False)
    assert throttle.check(account=ana, address=None, now=now) is None
    record(timedelta(seconds=20), succeeded=False)
    refusal = throttle.check(account=ana, address=None, now=now)
    assert refusal is not None and refusal.minutes == 15
    record(timedelta(seconds=10), succeeded=True)
    assert throttle.check(account=ana, address=None, now=now) is None


def test_a_suspended_account_is_refused_with_the_end_date() -> None:
    until = timezone.now() + timedelta(days=7)
    User.objects.create_user(
        email="s@example.org", display_name="Susp", password=PASSWORD, suspended_until=until
    )
    response = sign_in_post(Client(), "Susp", PASSWORD)
    assert response.status_code == 200
    text = str(response.context["form"].errors["__all__"])
    assert "suspendida hasta" in text
    assert str(timezone.localtime(until).year) in text


def test_an_expired_suspension_lets_the_player_in() -> None:
    User.objects.create_user(
        email="s@example.org",
        display_name="Susp",
        password=PASSWORD,
        suspended_until=timezone.now() - timedelta(1),
    )
    assert sign_in_post(Client(), "Susp", PASSWORD).status_code == 302


def test_suspension_during_a_session_signs_out_on_the_next_page(sign_in: Callable[..., SignedIn]) -> None:
    player = sign_in()
    player.user.suspended_until = timezone.now() + timedelta(days=30)
    player.user.save()
    response = player.client.get("/")
    assert response.status_code == 302 and response["Location"] == "/accounts/sign-in/"
    page = player.client.get("/accounts/sign-in/")
    assert "suspendida hasta" in page.content.decode()
    assert not Presence.objects.filter(user=player.user).exists()


def test_idle_session_is_signed_out_on_the_next_page(sign_in: Callable[..., SignedIn], settings: Any) -> None:
    player = sign_in()
    session = player.client.session
    session[LAST_ACTIVITY_KEY] = time.time() - settings.AMIGOS_IDLE_TIMEOUT_SECONDS - 1
    session.save()
    response = player.client.get("/")
    assert response["Location"] == "/accounts/sign-in/"
    assert "inactividad" in player.client.get("/accounts/sign-in/").content.decode()
    assert player.client.get("/")["Location"].startswith("/accounts/sign-in/")


def test_activity_keeps_the_session_alive(sign_in: Callable[..., SignedIn], settings: Any) -> None:
    player = sign_in()
    session = player.client.session
    session[LAST_ACTIVITY_KEY] = time.time() - settings.AMIGOS_IDLE_TIMEOUT_SECONDS + 60
    session.save()
    assert player.client.get("/").status_code == 200
    assert player.client.session[LAST_ACTIVITY_KEY] > time.time() - 5


def test_is_idle_boundaries(settings: Any) -> None:
    settings.AMIGOS_IDLE_TIMEOUT_SECONDS = 600
    assert not is_idle(None, 10_000.0)
    assert not is_idle(1000.0, 1600.0)
    assert is_idle(1000.0, 1600.001)


def test_sign_out_needs_a_post_and_ends_presence(sign_in: Callable[..., SignedIn]) -> None:
    player = sign_in()
    assert player.client.get("/accounts/sign-out/").status_code == 405
    assert player.client.post("/accounts/sign-out/")["Location"] == "/accounts/sign-in/"
    assert not Presence.objects.filter(user=player.user).exists()
    assert player.client.get("/")["Location"].startswith("/accounts/sign-in/")


def test_change_password(sign_in: Callable[..., SignedIn]) -> None:
    player = sign_in()
    response = player.client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response["Location"] == "/accounts/password/done/"
    player.user.refresh_from_db()
    assert player.user.check_password(NEW_PASSWORD)


def test_password_reset_by_email() -> None:
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    client = Client()
    response = client.post("/accounts/password/reset/", {"email": "ANA@example.org"})
    assert response["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    assert form_page.context["validlink"]
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert done["Location"] == "/accounts/password/reset/done/"
    assert sign_in_post(Client(), "Ana", NEW_PASSWORD).status_code == 302


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same() -> None:
    response = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response["Location"] == "/accounts/password/reset/sent/"
    assert mail.outbox == []


def test_the_socket_ended_session_is_explained_on_the_sign_in_page() -> None:
    page = Client().get("/accounts/sign-in/?ended=idle").content.decode()
    assert "inactividad" in page


attempts_strategy = st.lists(st.tuples(st.integers(0, 1800), st.booleans()), max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(attempts=attempts_strategy, limit=st.integers(1, 4))
def test_throttle_matches_a_reference_model(
    django_settings: Any, attempts: list[tuple[int, bool]], limit: int
) -> None:
    """Refused exactly when `limit` failures fall in the window after the account's last success."""
    django_settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT = limit
    django_settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS = 10_000
    window = django_settings.AMIGOS_SIGN_IN_WINDOW_SECONDS
    SignInAttempt.objects.all().delete()
    ana = User.objects.filter(email="ana@example.org").first() or User.objects.create_user(
        email="ana@example.org", display_name="Ana", password=PASSWORD
    )
    now = timezone.now()
    for seconds_ago, succeeded in attempts:
        SignInAttempt.objects.create(
            identifier="ana",
            account=ana,
            address=None,
            at=now - timedelta(seconds=seconds_ago),
            succeeded=succeeded,
        )
    in_window = [(ago, ok) for ago, ok in attempts if ago < window]
    last_success = min((ago for ago, ok in in_window if ok), default=None)
    counted = [ago for ago, ok in in_window if not ok and (last_success is None or ago < last_success)]
    refusal = throttle.check(account=ana, address=None, now=now)
    if len(counted) >= limit:
        assert refusal is not None
        assert refusal.minutes == max(1, -(-(window - max(counted)) // 60))
    else:
        assert refusal is None
