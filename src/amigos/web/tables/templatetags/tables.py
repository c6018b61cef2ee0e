"""The lobby's tables panel, as an inclusion tag so the lobby's own view needs no change."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from amigos.web.tables import selectors
from amigos.web.tables.forms import ComputerGameForm, variant_names
from amigos.web.tables.labels import lobby_labels

register = template.Library()


@register.inclusion_tag("tables/lobby_panel.html", takes_context=True)
def tables_panel(context: dict[str, Any]) -> dict[str, Any]:
    tables = selectors.live_tables()
    names = variant_names()
    for entry in tables:
        entry["variant_label"] = names.get(entry["variant"], entry["variant"])
    labels = lobby_labels()
    labels["variants"] = names
    labels["table_url"] = reverse("tables:table", args=[0])
    request = context.get("request")
    user_id = getattr(getattr(request, "user", None), "pk", None)
    return {
        "companions": {
            "ids": selectors.companions(user_id) if user_id is not None else [],
            "label": str(_("played with you")),
        },
        "computer_form": ComputerGameForm(),
        "games_waiting": selectors.games_waiting(user_id) if user_id is not None else 0,
        "live_tables": tables,
        "tables_labels": labels,
        "csrf_token": context.get("csrf_token"),
        "request": context.get("request"),
    }
