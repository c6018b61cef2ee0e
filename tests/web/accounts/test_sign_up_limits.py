"""Item 12: limits on sign-ups and account mail, display names that cannot pass for others, and
passwords that may not repeat the display name."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.accounts.identity import clean_display_name, display_name_problem
from amigos.web.accounts.models import User
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def sign_up(name: str, email: str, password: str = PASSWORD, address: str = "10.3.0.1") -> Any:
    return Client().post(
        "/accounts/sign-up/",
        {"display_name": name, "email": email, "password1": password, "password2": password},
        REMOTE_ADDR=address,
    )


def error_codes(response: Any, field: str) -> list[str]:
    return [error.code for error in response.context["form"].errors.as_data().get(field, [])]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Ana\u200b", "name_invisible"),  # zero-width space
        ("\u202eanA", "name_invisible"),  # right-to-left override
        ("An\u200da", "name_invisible"),  # zero-width joiner
        ("Ana\u2066x\u2069", "name_invisible"),  # bidi isolate
        ("Ana\u00ad", "name_invisible"),  # soft hyphen
        ("Ana \u3164", "name_invisible"),  # Hangul filler: a "letter" that draws nothing
        ("\u2800Ana", "name_invisible"),  # braille blank
        ("Ana\U000e0041", "name_invisible"),  # tag character
        ("Ana\u0301\u0301\u0301", "name_marks"),  # piled-up accents
        ("Аna", "name_mixed_scripts"),  # Cyrillic А then Latin
        ("Pаblo", "name_mixed_scripts"),  # Cyrillic а inside a Latin name
        ("victim@example.com", "name_at_sign"),  # would read as someone's address at sign-in
        ("ana＠x", "name_at_sign"),
    ],
)
def test_names_that_hide_or_imitate_are_refused(name: str, code: str) -> None:
    response = sign_up(name, "x@example.org")
    assert response.status_code == 200
    assert error_codes(response, "display_name") == [code]
    assert not User.objects.exists()


@pytest.mark.parametrize("lookalike", ["ANA", "Ána", "ａｎａ", "Anа".replace("а", "a"), "Αnα"])
def test_a_name_that_looks_like_a_taken_one_is_refused(lookalike: str) -> None:
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    response = sign_up(lookalike, "otra@example.org")
    assert response.status_code == 200
    codes = error_codes(response, "display_name")
    assert codes in (["name_taken"], ["name_mixed_scripts"])


def test_an_all_cyrillic_imitation_of_a_taken_name_is_refused() -> None:
    User.objects.create_user(email="pepe@example.org", display_name="Pepe", password=PASSWORD)
    assert error_codes(sign_up("Рере", "otra@example.org"), "display_name") == ["name_taken"]  # Cyrillic


def test_names_are_stored_normalised() -> None:
    assert sign_up("  Ｍａｒíａ   José ", "mj@example.org").status_code == 302
    assert User.objects.get().display_name == "María José"


@pytest.mark.parametrize("name", ["María José", "Zoë", "Ñandú", "Δημήτρης", "Олег", "李小龙", "José Ángel"])
def test_ordinary_names_in_any_one_script_are_fine(name: str) -> None:
    assert display_name_problem(clean_display_name(name)) is None


@given(st.text(st.characters(categories=["Cf"]), min_size=1, max_size=3), st.data())
def test_any_format_character_anywhere_is_refused(hidden: str, data: st.DataObject) -> None:
    base = "Ana Luisa"
    at = data.draw(st.integers(0, len(base)))
    assert display_name_problem(clean_display_name(base[:at] + hidden + base[at:])) == "invisible"


@pytest.mark.parametrize(
    ("name", "password"),
    [
        ("Dominguero Feliz", "Dominguero Feliz"),
        ("Dominguero Feliz", "domingueroFeliz"),
        ("Tlacuache", "tlacuache1"),
    ],
)
def test_a_password_like_the_display_name_is_refused(name: str, password: str) -> None:
    response = sign_up(name, "df@example.org", password=password)
    assert response.status_code == 200
    assert "password_too_similar" in error_codes(response, "password2")
    assert not User.objects.exists()


def test_sign_ups_are_limited_per_client_address(settings: Any) -> None:
    settings.AMIGOS_SIGN_UPS_PER_CLIENT = 2
    assert sign_up("Uno", "1@example.org", address="10.3.1.1").status_code == 302
    assert sign_up("Dos", "2@example.org", address="10.3.1.1").status_code == 302
    refused = sign_up("Tres", "3@example.org", address="10.3.1.1")
    assert refused.status_code == 200 and error_codes(refused, "__all__") == ["sign_up_limited"]
    assert "Se crearon demasiadas cuentas" in refused.content.decode()
    assert not User.objects.filter(display_name="Tres").exists()
    assert sign_up("Tres", "3@example.org", address="10.3.1.2").status_code == 302


def reset(email: str, address: str) -> Any:
    return Client().post("/accounts/password/reset/", {"email": email}, REMOTE_ADDR=address)


def test_reset_mails_are_limited_per_recipient_without_telling(settings: Any) -> None:
    settings.AMIGOS_MAILS_PER_RECIPIENT = 2
    User.objects.create_user(email="ana@example.org", display_name="Ana", password=PASSWORD)
    for n, spelling in enumerate(
        ["ana@example.org", "ANA@example.org", "Ana@Example.org", "ana@example.org"]
    ):
        response = reset(spelling, f"10.3.2.{n}")
        assert response["Location"] == "/accounts/password/reset/sent/"  # the same answer every time
    assert len(mail.outbox) == 2


def test_reset_requests_are_limited_per_client(settings: Any) -> None:
    settings.AMIGOS_MAILS_PER_CLIENT = 3
    for n in range(3):
        assert reset(f"nobody{n}@example.org", "10.3.3.1").status_code == 302
    refused = reset("other@example.org", "10.3.3.1")
    assert refused.status_code == 200 and error_codes(refused, "__all__") == ["mail_limited"]
    assert reset("other@example.org", "10.3.3.2").status_code == 302


def test_sign_up_and_resend_share_the_mail_limit_per_recipient(settings: Any) -> None:
    settings.AMIGOS_MAILS_PER_RECIPIENT = 1
    client = Client()
    client.post(
        "/accounts/sign-up/",
        {"display_name": "Eva", "email": "eva@example.org", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="10.3.4.1",
    )
    client.post("/accounts/email/", REMOTE_ADDR="10.3.4.2")
    reset("eva@example.org", "10.3.4.3")
    assert len(mail.outbox) == 1


def test_a_sign_up_says_so_when_no_link_could_be_mailed(settings: Any) -> None:
    settings.AMIGOS_MAILS_PER_CLIENT = 0
    client = Client()
    response = client.post(
        "/accounts/sign-up/",
        {"display_name": "Fer", "email": "fer@example.org", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="10.3.5.1",
        follow=True,
    )
    page = response.content.decode()
    assert mail.outbox == []
    assert "Enviamos un enlace" not in page
    assert "Se pidieron demasiados correos" in page
    assert User.objects.filter(display_name="Fer").exists()


def test_a_name_taken_between_check_and_insert_is_refused_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sign-ups racing for one name: the loser's insert fails on the unique key, and the page
    says so instead of answering 500."""
    from django.db import IntegrityError

    from amigos.web.accounts import views

    def lose_the_race(**kwargs: Any) -> User:
        raise IntegrityError("UNIQUE constraint failed: accounts_user.name_key")

    monkeypatch.setattr(views, "register_player", lose_the_race)
    response = sign_up("Gil", "otro@example.org")
    assert response.status_code == 200
    assert error_codes(response, "__all__") == ["taken"]
    assert "Alguien acaba de tomar" in response.content.decode()
