"""Template words for moments (amigos.web.accounts.clock): ``{{ moment|ago }}``."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone

from amigos.web.accounts.clock import time_ago

register = template.Library()


@register.filter
def ago(moment: datetime | None) -> str:
    """ "hace 5 min" for a moment of the last day, else "" (the page shows the date beside it)."""
    if moment is None:
        return ""
    return time_ago(moment, timezone.now())
