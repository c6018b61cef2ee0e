"""Items 8 and 9: a listed e-mail links only a verified account, and only once its owner accepts.

An organizer's list used to enrol whoever had the address: an account that merely typed it at sign-up
took the seat (and the sheet), and listing someone in a draft that never started locked them out of
every other event. These tests fail on that behaviour.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.accounts.selectors import user_for_verified_email
from amigos.web.events.models import Event
from amigos.web.events.services import EventError
from amigos.web.events.services.setup import (
    EventSetup,
    accept_invitation,
    active_event_for,
    create_event,
    leave_event,
    set_players,
)
from tests.web.conftest import PASSWORD, SignedIn

pytestmark = pytest.mark.django_db

SETUP = EventSetup("Recreo", "", dt.date(2026, 11, 21), 4, "100", None, Decimal(0), False)


def listing(*emails: str) -> list[tuple[str, str]]:
    padded = [*emails, "", "", ""][:3]
    return [(f"Jugador {n}", email) for n, email in enumerate(padded, start=2)]


def start(organizer: SignedIn, event: Event) -> None:
    """Through the page (the service that starts an event is moving between modules)."""
    organizer.client.post(reverse("events:start", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def detail(player: SignedIn, event: Event) -> Any:
    return player.client.get(reverse("events:detail", args=[event.pk]))


def test_the_selector_needs_a_verified_address(make_player: Callable[..., User]) -> None:
    verified = make_player("Carla")
    unverified = make_player("Dora", email_verified_at=None)
    assert user_for_verified_email(email=verified.email) == verified
    assert user_for_verified_email(email=verified.email.upper()) == verified
    assert user_for_verified_email(email=unverified.email) is None
    assert user_for_verified_email(email="nobody@example.org") is None
    assert user_for_verified_email(email="") is None


def test_the_selector_ignores_lookalike_addresses() -> None:
    victim = User.objects.create_user(
        email="victim@example.com",
        display_name="Victim",
        password=PASSWORD,
        email_verified_at=timezone.now(),
    )
    assert user_for_verified_email(email="victim@example.com") == victim
    assert user_for_verified_email(email="vıctım@example.com") is None
    assert user_for_verified_email(email="victim@exаmple.com") is None  # Cyrillic а


def test_an_unverified_account_with_the_listed_address_takes_nothing(
    sign_in: Callable[..., SignedIn],
) -> None:
    org = sign_in("Ana")
    squatter = sign_in("Carla", email_verified_at=None)
    event = create_event(org.user, SETUP)
    set_players(event, listing(squatter.user.email))
    assert detail(squatter, event).status_code == 404
    assert squatter.client.post(reverse("events:accept", args=[event.pk])).status_code == 404
    assert not event.players.filter(user=squatter.user).exists()
    start(org, event)
    # Nor once the event runs: no board, no sheet, no seat.
    assert detail(squatter, event).status_code == 404
    table = squatter.client.get(reverse("events:table", args=[event.pk, 1, 1]))
    assert table.status_code == 404
    assert not event.players.filter(user=squatter.user).exists()


def test_a_verified_player_is_invited_then_enrolled_on_accepting(sign_in: Callable[..., SignedIn]) -> None:
    org, carla = sign_in("Ana"), sign_in("Carla")
    event = create_event(org.user, SETUP)
    set_players(event, listing(carla.user.email.upper()))
    seat = event.players.get(number=2)
    assert seat.user is None and seat.active_email is None
    page = detail(carla, event)
    assert page.status_code == 200 and 'data-invitation="2"' in page.content.decode()
    assert active_event_for(carla.user) is None
    home = carla.client.get(reverse("events:home")).content.decode()
    assert "data-invitations" in home
    response = carla.client.post(reverse("events:accept", args=[event.pk]))
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.user == carla.user
    assert active_event_for(carla.user) == event
    assert 'data-invitation="2"' not in detail(carla, event).content.decode()


def test_a_draft_that_never_starts_locks_nobody_out(sign_in: Callable[..., SignedIn]) -> None:
    mallory, victim = sign_in("Mallory"), sign_in("Victima")
    draft = create_event(mallory.user, SETUP)
    set_players(draft, listing(victim.user.email))
    # The victim is free to organize (or accept) another event...
    own = create_event(victim.user, SETUP)
    assert active_event_for(victim.user) == own
    # ...and cannot be pulled into the draft while in it.
    with pytest.raises(EventError):
        accept_invitation(draft, victim.user)


def test_a_player_can_always_leave_a_draft(sign_in: Callable[..., SignedIn]) -> None:
    org, carla = sign_in("Ana"), sign_in("Carla")
    event = create_event(org.user, SETUP)
    set_players(event, listing(carla.user.email))
    accept_invitation(event, carla.user)
    assert active_event_for(carla.user) == event
    response = carla.client.post(reverse("events:leave", args=[event.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("events:home")
    seat = event.players.get(number=2)
    assert seat.user is None and seat.email == "" and seat.active_email is None
    assert active_event_for(carla.user) is None
    assert detail(carla, event).status_code == 404
    create_event(carla.user, SETUP)  # free for another event


def test_declining_an_invitation_removes_it(sign_in: Callable[..., SignedIn]) -> None:
    org, carla = sign_in("Ana"), sign_in("Carla")
    event = create_event(org.user, SETUP)
    set_players(event, listing(carla.user.email))
    assert carla.client.post(reverse("events:leave", args=[event.pk])).status_code == 302
    assert detail(carla, event).status_code == 404


def test_leaving_is_for_drafts_and_not_for_the_organizer(sign_in: Callable[..., SignedIn]) -> None:
    org, carla, dani = sign_in("Ana"), sign_in("Carla"), sign_in("Dani")
    event = create_event(org.user, SETUP)
    set_players(event, listing(carla.user.email, dani.user.email))
    accept_invitation(event, carla.user)
    with pytest.raises(EventError):
        leave_event(event, org.user)
    start(org, event)
    with pytest.raises(EventError):
        leave_event(event, carla.user)
    # An invitation can still be accepted once the event runs.
    accept_invitation(event, dani.user)
    assert event.players.get(number=3).user == dani.user


def test_saving_the_list_again_keeps_accepted_seats(sign_in: Callable[..., SignedIn]) -> None:
    org, carla = sign_in("Ana"), sign_in("Carla")
    event = create_event(org.user, SETUP)
    set_players(event, listing(carla.user.email))
    accept_invitation(event, carla.user)
    set_players(event, listing("otra@example.org", carla.user.email))
    moved = event.players.get(number=3)
    assert moved.user == carla.user and moved.active_email == carla.user.email.lower()
    assert event.players.get(number=2).user is None
    # Taking the address off the list frees the player.
    set_players(event, listing("otra@example.org"))
    assert active_event_for(carla.user) is None


def test_only_the_invited_may_accept(sign_in: Callable[..., SignedIn]) -> None:
    org, carla, zoe = sign_in("Ana"), sign_in("Carla"), sign_in("Zoe")
    event = create_event(org.user, SETUP)
    set_players(event, listing(carla.user.email))
    assert zoe.client.post(reverse("events:accept", args=[event.pk])).status_code == 404
    assert zoe.client.get(reverse("events:accept", args=[event.pk])).status_code == 405
    with pytest.raises(EventError):
        accept_invitation(event, zoe.user)
