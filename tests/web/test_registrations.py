"""What the apps above register with the apps below when the site starts (issue 37, item 4).

The apps import only those below them (`test_layers.py`); what a lower app needs of a higher one
is registered with it by the higher one's `AppConfig.ready`. These check each registration is in
place once Django is set up, so a feature is never silently cut off (a card that suspends nobody).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from amigos.web.moderation import services
from amigos.web.tables import card_hooks


def test_the_store_asks_moderation_s_ladder_what_cards_lead_to() -> None:
    assert card_hooks.registered() is services.suspended_by_cards


def test_a_socket_counts_in_the_lobby_s_presence() -> None:
    from amigos.web.lobby import presence
    from amigos.web.realtime import presence_hooks

    hooks = presence_hooks.hooks()
    assert (hooks.opened, hooks.closed, hooks.signed_out) == (
        presence.socket_opened,
        presence.socket_closed,
        presence.sign_out,
    )


@pytest.mark.django_db
def test_the_lobby_page_reads_the_mutes_moderation_stores(django_user_model: Any) -> None:
    from amigos.web.moderation.models import Mute
    from amigos.web.realtime import muting

    ana = django_user_model.objects.create_user(email="ana@example.com", display_name="Ana", password="x")
    beto = django_user_model.objects.create_user(email="beto@example.com", display_name="Beto", password="x")
    Mute.objects.create(owner=ana, muted=beto, created_at=timezone.now())
    assert muting.stored_mutes(ana.pk) == {beto.pk}
    assert muting.stored_mutes(beto.pk) == set()


def test_suspending_from_the_players_list_is_moderation_s_action() -> None:
    from django.contrib import admin

    from amigos.web.accounts.models import User
    from amigos.web.moderation.admin import ModeratedPlayerAdmin

    registered = admin.site._registry[User]
    assert isinstance(registered, ModeratedPlayerAdmin)
    assert {"suspend_one_week", "suspend_one_month", "lift_suspension"} <= set(registered.actions or ())


def test_the_command_figures_know_the_registered_commands() -> None:
    from amigos.web.operations import metrics
    from amigos.web.realtime import commands

    assert commands.registered()
    assert all(metrics.know_command(kind) for kind in commands.registered())
    assert not metrics.know_command("no-such-command")
