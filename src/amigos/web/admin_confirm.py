"""Admin actions that ask before they act: blocking, suspending and lifting change a player's
account at once, so the first click only shows what will happen and to whom.

`confirmed` wraps an action: without ``confirmed=yes`` in the request it answers with a page that
names the players and posts the same action again with that field; with it, the action runs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.functional import Promise

Action = Callable[[Any, HttpRequest, QuerySet[Any]], Any]


def confirmed(question: str | Promise) -> Callable[[Action], Action]:
    """The action runs only once the administrator said yes to ``question`` on its own page."""

    def wrap(action: Action) -> Action:
        @functools.wraps(action)
        def ask_first(
            model_admin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Any]
        ) -> Any:
            if request.POST.get("confirmed") == "yes":
                return action(model_admin, request, queryset)
            options = model_admin.model._meta
            return TemplateResponse(
                request,
                "admin/confirm_action.html",
                {
                    **model_admin.admin_site.each_context(request),
                    "title": str(question),
                    "question": question,
                    "objects": list(queryset),
                    "action": action.__name__,
                    "checkbox_name": ACTION_CHECKBOX_NAME,
                    "opts": options,
                    "back": request.get_full_path(),
                },
            )

        return ask_first

    return wrap
