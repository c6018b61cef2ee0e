"""What the apps above register with the apps below when the site starts (issue 37, item 4).

The apps import only those below them (`test_layers.py`); what a lower app needs of a higher one
is registered with it by the higher one's `AppConfig.ready`. These check each registration is in
place once Django is set up, so a feature is never silently cut off (a card that suspends nobody).
"""

from __future__ import annotations

from amigos.web.moderation import services
from amigos.web.tables import card_hooks


def test_the_store_asks_moderation_s_ladder_what_cards_lead_to() -> None:
    assert card_hooks.registered() is services.suspended_by_cards
