"""Item 8: addresses are verified by a mailed link before they count for anything."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from amigos.web.accounts.models import User
from amigos.web.accounts.verification import make_token
from tests.web.conftest import PASSWORD, SignedIn

pytestmark = pytest.mark.django_db


def sign_up(
    client: Client, name: str = "Carla", email: str = "carla@ex.com", address: str = "10.2.0.1"
) -> Any:
    return client.post(
        "/accounts/sign-up/",
        {"display_name": name, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )


def mailed_link() -> str:
    assert mail.outbox, "no e-mail was sent"
    found = re.search(r"http://testserver(/accounts/email/verify/\S+/)", mail.outbox[-1].body)
    assert found is not None, mail.outbox[-1].body
    return found.group(1)


def test_sign_up_mails_a_link_and_following_it_verifies() -> None:
    client = Client()
    assert sign_up(client).status_code == 302
    user = User.objects.get(email="carla@ex.com")
    assert user.email_verified_at is None
    assert mail.outbox[0].to == ["carla@ex.com"]
    link = mailed_link()
    # Opening the link (as a mail scanner would) changes nothing; the button does.
    page = client.get(link)
    assert page.status_code == 200 and "Verificar mi dirección" in page.content.decode()
    user.refresh_from_db()
    assert user.email_verified_at is None
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == "/accounts/email/"
    user.refresh_from_db()
    assert user.email_verified_at is not None
    status = client.get("/accounts/email/").content.decode()
    assert 'data-email-state="verified"' in status
    # Following it again is harmless.
    assert client.post(link).status_code == 302


def test_a_link_works_without_being_signed_in() -> None:
    sign_up(Client())
    link = mailed_link()
    response = Client().post(link)
    assert response["Location"] == "/accounts/sign-in/"
    assert User.objects.get(email="carla@ex.com").email_verified_at is not None


@pytest.mark.parametrize("mangle", [lambda t: t[:-2] + "xx", lambda t: "garbage", lambda t: t + "0"])
def test_a_forged_link_verifies_nothing(mangle: Callable[[str], str]) -> None:
    sign_up(Client())
    user = User.objects.get(email="carla@ex.com")
    response = Client().post(f"/accounts/email/verify/{mangle(make_token(user))}/")
    assert response.status_code == 400
    assert 'data-error="invalid"' in response.content.decode()
    user.refresh_from_db()
    assert user.email_verified_at is None


def test_an_expired_link_is_refused(settings: Any) -> None:
    sign_up(Client())
    user = User.objects.get(email="carla@ex.com")
    settings.AMIGOS_VERIFICATION_MAX_AGE_SECONDS = -1  # every link is older than that
    response = Client().post(f"/accounts/email/verify/{make_token(user)}/")
    assert response.status_code == 400 and 'data-error="expired"' in response.content.decode()
    user.refresh_from_db()
    assert user.email_verified_at is None


def test_a_link_for_an_old_address_is_worthless() -> None:
    sign_up(Client())
    user = User.objects.get(email="carla@ex.com")
    token = make_token(user)
    user.email = "nueva@ex.com"
    user.save()
    assert Client().post(f"/accounts/email/verify/{token}/").status_code == 400
    user.refresh_from_db()
    assert user.email_verified_at is None


def test_the_link_can_be_mailed_again_within_limits(sign_in: Callable[..., SignedIn], settings: Any) -> None:
    settings.AMIGOS_MAILS_PER_RECIPIENT = 2
    player = sign_in("Dora", email_verified_at=None)
    page = player.client.get("/accounts/email/").content.decode()
    assert 'data-email-state="unverified"' in page
    for _ in range(3):
        player.client.post("/accounts/email/", REMOTE_ADDR="10.2.1.1")
    assert len(mail.outbox) == 2
    player.client.post(mailed_link())
    player.user.refresh_from_db()
    assert player.user.email_verified_at is not None


def test_a_completed_password_reset_verifies_the_address() -> None:
    user = User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    client = Client()
    client.post("/accounts/password/reset/", {"email": "ana@example.org"})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    new = "otra-clave-segura-77"
    client.post(form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    user.refresh_from_db()
    assert user.email_verified_at is not None


def test_changing_the_address_needs_a_new_proof(make_player: Callable[..., User]) -> None:
    player = make_player("Eva")
    assert player.email_verified_at is not None
    player.display_name = "Eva María"
    player.save()
    assert User.objects.get(pk=player.pk).email_verified_at is not None
    fresh = User.objects.get(pk=player.pk)
    fresh.email = "EVA-nueva@example.org"
    fresh.save(update_fields=["email"])
    assert User.objects.get(pk=player.pk).email_verified_at is None
