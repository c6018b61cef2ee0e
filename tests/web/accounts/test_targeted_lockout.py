"""Issue 36, item 5: nobody can aim the sign-in throttle at someone else.

Failures count per (account, network), per network and per account from anywhere; the last closes
the account only to browsers it never signed in from, and a known browser (the signed device
cookie) is slowed instead. The policy itself is :func:`throttle.decide`, checked here against a
reference model; the rest drives the sign-in page as a browser would.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.accounts import devices, throttle
from amigos.web.accounts.forms import throttle_message
from amigos.web.accounts.models import SignInAttempt, User
from tests.web.conftest import PASSWORD

VICTIM_ADDRESS = "10.20.0.1"


def attempt(client: Client, password: str, address: str, identifier: str = "victim") -> Any:
    return client.post(
        "/accounts/sign-in/", {"username": identifier, "password": password}, REMOTE_ADDR=address
    )


def codes(response: Any) -> list[str]:
    return [error.code for error in response.context["form"].errors.as_data()["__all__"]]


@pytest.fixture
def victim(db: None) -> User:
    return User.objects.create_user(email="victim@example.com", display_name="Victim", password=PASSWORD)


def known_browser() -> Client:
    """A browser where the victim signed in once (it keeps the device cookie), then signed out."""
    client = Client()
    assert attempt(client, PASSWORD, VICTIM_ADDRESS).status_code == 302
    assert devices.COOKIE in client.cookies
    client.post("/accounts/sign-out/")
    return client


def test_an_attackers_failures_from_elsewhere_do_not_lock_the_victim_out(victim: User) -> None:
    """The probe's targeted lockout: five (or ten) wrong passwords from one other address used to
    lock the right one out everywhere for fifteen minutes. Now they close only the attacker's pair."""
    for _ in range(10):
        attempt(Client(), "guess", "203.0.113.66")
    refused = attempt(Client(), PASSWORD, "203.0.113.66")
    assert refused.status_code == 200 and codes(refused) == ["throttled"]
    assert attempt(Client(), PASSWORD, VICTIM_ADDRESS).status_code == 302


def test_a_known_device_gets_in_while_many_addresses_attack(victim: User, settings: Any) -> None:
    settings.AMIGOS_SIGN_IN_KNOWN_DEVICE_PACE_SECONDS = 0
    browser = known_browser()
    for n in range(settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT):
        attempt(Client(), "guess", f"198.51.100.{n}")
    # A browser the account never used is refused, even from the victim's own address...
    stranger = attempt(Client(), PASSWORD, VICTIM_ADDRESS)
    assert stranger.status_code == 200 and codes(stranger) == ["throttled_account"]
    # ...and the victim's own browser is not, from anywhere.
    assert attempt(browser, PASSWORD, "192.0.2.7").status_code == 302


def test_a_known_device_is_slowed_not_refused(victim: User, settings: Any) -> None:
    """Under a distributed attack a known browser may try once per pace, counted from its last try."""
    settings.AMIGOS_SIGN_IN_KNOWN_DEVICE_PACE_SECONDS = 30
    browser = known_browser()
    device = devices.read(_request_with(browser))
    assert device is not None
    now = timezone.now()
    for n in range(settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT):
        throttle.record(
            identifier="victim", account=victim, address=f"198.51.100.{n}", now=now, succeeded=False
        )
    throttle.record(
        identifier="victim",
        account=victim,
        address=VICTIM_ADDRESS,
        device=device.device,
        now=now,
        succeeded=False,
    )
    refusal = throttle.check(account=victim, address=VICTIM_ADDRESS, device=device.device, now=now)
    assert refusal == throttle.Refusal(code=throttle.SLOWED, seconds=30)
    later = now + timedelta(seconds=30)
    assert throttle.check(account=victim, address=VICTIM_ADDRESS, device=device.device, now=later) is None


def _request_with(client: Client) -> Any:
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.COOKIES[devices.COOKIE] = client.cookies[devices.COOKIE].value
    return request


def test_a_known_devices_own_failures_are_limited(victim: User, settings: Any) -> None:
    """A stolen device cookie buys a handful of guesses, not an open door."""
    settings.AMIGOS_SIGN_IN_KNOWN_DEVICE_PACE_SECONDS = 0
    browser = known_browser()
    for n in range(settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_DEVICE):
        assert codes(attempt(browser, "guess", f"192.0.2.{n}")) == ["invalid_login"]
    assert codes(attempt(browser, PASSWORD, "192.0.2.99")) == ["throttled_device"]
    # The victim's other browsers are untouched by it.
    assert attempt(Client(), PASSWORD, VICTIM_ADDRESS).status_code == 302


def test_a_forged_or_foreign_device_cookie_counts_as_unknown(victim: User, settings: Any) -> None:
    settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 2
    other = User.objects.create_user(email="other@example.com", display_name="Other", password=PASSWORD)
    elsewhere = Client()
    assert attempt(elsewhere, PASSWORD, VICTIM_ADDRESS, identifier="other").status_code == 302
    elsewhere.post("/accounts/sign-out/")
    for n in range(2):
        attempt(Client(), "guess", f"198.51.100.{n}")
    assert codes(attempt(elsewhere, PASSWORD, VICTIM_ADDRESS)) == ["throttled_account"]
    forged = Client()
    payload = {"d": "x", "a": [victim.pk]}
    forged.cookies[devices.COOKIE] = signing.dumps(payload, key="not-the-site-key", salt=devices.SALT)
    assert codes(attempt(forged, PASSWORD, VICTIM_ADDRESS)) == ["throttled_account"]
    assert other.pk != victim.pk


def test_failures_from_one_ipv6_block_count_together(victim: User, settings: Any) -> None:
    """Per-address failures are limited per /64 for IPv6: a host holds a whole block of addresses."""
    settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS = 4
    for n in range(4):
        attempt(Client(), "guess", f"2001:db8:1:2::{n + 1:x}", identifier=f"nobody{n}")
    refused = attempt(Client(), PASSWORD, "2001:db8:1:2:ffff::1")
    assert refused.status_code == 200 and codes(refused) == ["throttled_address"]
    assert attempt(Client(), PASSWORD, "2001:db8:1:3::1").status_code == 302
    assert SignInAttempt.objects.filter(network="2001:db8:1:2::/64").count() == 4


def test_one_address_may_not_guess_at_one_account_for_long(victim: User) -> None:
    for _ in range(5):
        assert codes(attempt(Client(), "guess", "203.0.113.5")) == ["invalid_login"]
    assert codes(attempt(Client(), PASSWORD, "203.0.113.5")) == ["throttled"]


@pytest.mark.parametrize(
    ("code", "spanish", "english"),
    [
        (throttle.SLOWED, "Espera 7 segundos", "Please wait 7 seconds"),
        (throttle.ADDRESS_LIMITED, "desde tu conexión", "from your connection"),
        (throttle.ACCOUNT_LIMITED, "desde otros lugares", "from other places"),
        (throttle.PAIR_LIMITED, "Vuelve a intentarlo en 1 minuto", "try again in 1 minute"),
        (throttle.DEVICE_LIMITED, "Vuelve a intentarlo en 1 minuto", "try again in 1 minute"),
    ],
)
def test_every_refusal_has_its_message_in_both_languages(code: str, spanish: str, english: str) -> None:
    refusal = throttle.Refusal(code=code, seconds=7)
    with translation.override("es"):
        assert spanish in throttle_message(refusal)
    with translation.override("en"):
        assert english in throttle_message(refusal)


def test_networks() -> None:
    assert throttle.network_of("10.0.0.1") == "10.0.0.1"
    assert throttle.network_of("2001:db8::1") == "2001:db8::/64"
    assert throttle.network_of("::ffff:10.0.0.1") == "10.0.0.1"
    assert throttle.network_of(None) == throttle.network_of("nonsense") == ""


LIMITS = throttle.Limits(
    window=timedelta(seconds=900),
    per_network=6,
    per_pair=3,
    per_account=4,
    per_device=2,
    pace=timedelta(seconds=5),
)
NOW = timezone.now()


def tallies() -> st.SearchStrategy[throttle.Tally]:
    return st.builds(
        throttle.Tally,
        failures=st.integers(0, 8),
        oldest=st.integers(0, 899).map(lambda ago: NOW - timedelta(seconds=ago)),
    )


@given(data=st.data())
def test_the_policy_matches_a_reference_model(data: st.DataObject) -> None:
    counts = throttle.Counts(
        network=data.draw(tallies()),
        pair=data.draw(tallies()),
        account=data.draw(tallies()),
        device=data.draw(tallies()),
        device_last_try=data.draw(
            st.none() | st.integers(0, 20).map(lambda ago: NOW - timedelta(seconds=ago))
        ),
    )
    known = data.draw(st.booleans())
    refusal = throttle.decide(counts, known_device=known, limits=LIMITS, now=NOW)
    if known:
        # The stranger's tallies (network, pair) never touch a known device; the account's only slows it.
        if counts.device.failures >= LIMITS.per_device:
            assert refusal is not None and refusal.code == throttle.DEVICE_LIMITED
        elif (
            counts.account.failures >= LIMITS.per_account
            and counts.device_last_try is not None
            and NOW - counts.device_last_try < LIMITS.pace
        ):
            assert refusal is not None and refusal.code == throttle.SLOWED
            assert refusal.seconds <= LIMITS.pace.total_seconds()
        else:
            assert refusal is None
    else:
        reached = [
            code
            for code, tally, limit in (
                (throttle.ADDRESS_LIMITED, counts.network, LIMITS.per_network),
                (throttle.PAIR_LIMITED, counts.pair, LIMITS.per_pair),
                (throttle.ACCOUNT_LIMITED, counts.account, LIMITS.per_account),
            )
            if tally.failures >= limit
        ]
        assert (refusal.code if refusal else None) == (reached[0] if reached else None)
        if refusal is not None:
            assert 1 <= refusal.seconds <= LIMITS.window.total_seconds()
