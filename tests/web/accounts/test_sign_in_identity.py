"""Item 10: the sign-in throttle counts per resolved account, identifiers compared after one folding."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.accounts.identity import identifier_key, skeleton
from amigos.web.accounts.models import SignInAttempt, User
from amigos.web.accounts.selectors import account_for_identifier, resolve_identifier
from tests.web.conftest import PASSWORD

LOOKALIKES = [
    "victim",
    "victim@example.com",
    "VICTIM",
    "vıctim",
    "victım",
    "vıctım@example.com",
    "VİCTİM",
    "vіctim",  # Cyrillic і
    "victim@exаmple.com",  # Cyrillic а
    "ｖｉｃｔｉｍ",  # full width
    "vic\u200btim",  # zero-width space
]


def attempt(identifier: str, password: str, address: str) -> Any:
    return Client().post(
        "/accounts/sign-in/", {"username": identifier, "password": password}, REMOTE_ADDR=address
    )


@pytest.fixture
def victim(db: None) -> User:
    return User.objects.create_user(email="victim@example.com", display_name="Victim", password=PASSWORD)


def test_every_spelling_counts_against_the_one_account(victim: User, settings: Any) -> None:
    """Ten spellings from ten addresses: five failures lock the account, whatever was typed."""
    settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 5
    for n, identifier in enumerate(LOOKALIKES[:5]):
        response = attempt(identifier, "not-the-password", f"10.9.0.{n}")
        assert response.status_code == 200
    assert SignInAttempt.objects.filter(account=victim, succeeded=False).count() == 5
    response = attempt("victim", PASSWORD, "10.9.1.1")
    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["__all__"]] == ["throttled_account"]


@pytest.mark.parametrize(
    "identifier",
    ["vıctım@example.com", "vıctim", "victım", "VİCTİM", "vіctim", "vic\u200btim", "\u202evictim"],
)
def test_a_lookalike_never_signs_in_even_with_the_password(victim: User, identifier: str) -> None:
    response = attempt(identifier, PASSWORD, "10.9.2.1")
    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["__all__"]] == ["invalid_login"]
    # ...and the try is counted against the account it imitates.
    assert SignInAttempt.objects.filter(account=victim, succeeded=False).count() == 1


@pytest.mark.parametrize("identifier", ["victim", "VICTIM", " Victim ", "victim@EXAMPLE.com", "ｖｉｃｔｉｍ"])
def test_the_same_identifier_after_folding_signs_in(victim: User, identifier: str) -> None:
    assert attempt(identifier, PASSWORD, "10.9.3.1").status_code == 302
    assert SignInAttempt.objects.get(succeeded=True).account == victim


def test_an_unknown_identifier_counts_only_against_the_address(victim: User, settings: Any) -> None:
    settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS = 3
    for n in range(3):
        attempt(f"nobody{n}", "x", "10.9.4.1")
    assert SignInAttempt.objects.filter(account__isnull=True).count() == 3
    assert attempt("victim", PASSWORD, "10.9.4.1").status_code == 200
    assert attempt("victim", PASSWORD, "10.9.4.2").status_code == 302


def test_a_malformed_client_address_is_not_an_error(victim: User) -> None:
    assert attempt("victim", PASSWORD, "not-an-address").status_code == 302


def test_lookup_ignores_the_database_collation(victim: User) -> None:
    assert account_for_identifier("vıctım@example.com") is None
    assert account_for_identifier("VICTIM@example.com") == victim
    resolution = resolve_identifier("vıctım@example.com")
    assert resolution.account == victim and not resolution.exact


identifiers = st.text(st.characters(codec="utf-8"), max_size=30)


@given(identifiers)
def test_the_key_is_one_normalisation(text: str) -> None:
    key = identifier_key(text)
    assert identifier_key(key) == key
    assert key == unicodedata.normalize("NFKC", key)
    assert skeleton(key) == skeleton(text)
    assert skeleton(skeleton(text)) == skeleton(text)


@given(st.data())
def test_swapping_a_letter_for_its_lookalike_keeps_the_skeleton(data: st.DataObject) -> None:
    pairs = {"i": "ı", "a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х"}
    word = data.draw(st.text(st.sampled_from("iaeopcxmnrt"), min_size=1, max_size=12))
    positions = data.draw(st.sets(st.integers(0, len(word) - 1)))
    swapped = "".join(pairs.get(ch, ch) if i in positions else ch for i, ch in enumerate(word))
    assert skeleton(swapped) == skeleton(word)
    if swapped != word:
        assert identifier_key(swapped) != identifier_key(word)


@pytest.mark.parametrize(
    ("accented", "plain"), [("ἀκο", "ako"), ("ёlka", "elka"), ("Ána", "ana"), ("İlse", "ilse")]
)
def test_accented_lookalikes_fold_like_the_bare_letters(accented: str, plain: str) -> None:
    assert skeleton(accented) == plain
