"""The pure ladder (amigos.table.sanctions) fed from the stored cards of an account.

The standing is recomputed from the database each time: the cards given since the account's last
suspension was counted, and the end of the suspension that runs (if any). Nothing is cached, so a
card written twice or a restart can never make the counters drift.
"""

from __future__ import annotations

from datetime import UTC, datetime

from amigos.table import sanctions
from amigos.table.model import Colour
from amigos.web.moderation.models import Suspension
from amigos.web.tables.models import Card

COLOURS = {"yellow": Colour.YELLOW, "blue": Colour.BLUE, "red": Colour.RED}


def epoch(moment: datetime) -> float:
    return moment.timestamp()


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def last_suspension(user_id: int) -> Suspension | None:
    return Suspension.objects.filter(user_id=user_id).exclude(cause="admin").order_by("-pk").first()


def standing(user_id: int, *, before_card: int | None = None) -> sanctions.Standing:
    """Cards counted since the last suspension (up to, not including, card ``before_card``)."""
    last = last_suspension(user_id)
    cards = Card.objects.filter(user_id=user_id)
    until: float | None = None
    if last is not None:
        cards = cards.filter(pk__gt=last.last_card)
        if last.lifted_at is None:
            until = epoch(last.ends)
    if before_card is not None:
        cards = cards.filter(pk__lt=before_card)
    yellow = cards.filter(colour="yellow").count()
    blue = cards.filter(colour="blue").count()
    return sanctions.Standing(yellow, blue, until)
