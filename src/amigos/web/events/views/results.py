"""Standings, the printable final report, CSV and the event file."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from amigos.web.events.services.results import export_json, final_report, standings, standings_csv
from amigos.web.events.views.access import visible_event


@login_required
def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Standings after any completed round (every column), defaulting to the latest."""
    event, _seat = visible_event(request, pk)
    latest = standings(event)
    try:
        after = int(request.GET.get("after", latest.rounds_complete))
    except ValueError:
        after = latest.rounds_complete
    after = max(0, min(after, latest.rounds_complete))
    table = latest if after == latest.rounds_complete else standings(event, after_round=after)
    context = {
        "event": event,
        "standings": table,
        "after": after,
        "rounds": range(1, latest.rounds_complete + 1),
    }
    return render(request, "events/standings.html", context)


@login_required
def standings_csv_file(request: HttpRequest, pk: int) -> HttpResponse:
    event, _seat = visible_event(request, pk)
    response = HttpResponse(standings_csv(event), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(event.name) or "event"}-standings.csv"'
    return response


@login_required
def report(request: HttpRequest, pk: int) -> HttpResponse:
    event, _seat = visible_event(request, pk)
    return render(request, "events/report.html", {"event": event, "report": final_report(event)})


@login_required
def export(request: HttpRequest, pk: int) -> HttpResponse:
    event, _seat = visible_event(request, pk)
    response = HttpResponse(export_json(event), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(event.name) or "event"}.json"'
    return response
