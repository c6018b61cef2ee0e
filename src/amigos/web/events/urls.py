from __future__ import annotations

from django.urls import path

from amigos.web.events.views import board, invitation, organizer, results, sheet

app_name = "events"

urlpatterns = [
    path("", organizer.home, name="home"),
    path("new/", organizer.create, name="create"),
    path("import/", organizer.import_file, name="import"),
    path("<int:pk>/", board.detail, name="detail"),
    path("<int:pk>/players/", organizer.players, name="players"),
    path("<int:pk>/accept/", invitation.accept, name="accept"),
    path("<int:pk>/leave/", invitation.leave, name="leave"),
    path("<int:pk>/start/", organizer.start, name="start"),
    path("<int:pk>/discard/", organizer.discard, name="discard"),
    path("<int:pk>/next-round/", organizer.next_round, name="next_round"),
    path("<int:pk>/end/", organizer.end_now, name="end_now"),
    path("<int:pk>/penalties/", organizer.penalty, name="penalty"),
    path("<int:pk>/round/<int:round_number>/table/<int:table>/", sheet.table, name="table"),
    path("<int:pk>/round/<int:round_number>/table/<int:table>/act/", sheet.table_action, name="table_action"),
    path("<int:pk>/round/<int:round_number>/paper/", board.paper_sheets, name="paper"),
    path("<int:pk>/standings/", results.standings_page, name="standings"),
    path("<int:pk>/standings.csv", results.standings_csv_file, name="standings_csv"),
    path("<int:pk>/report/", results.report, name="report"),
    path("<int:pk>/export.json", results.export, name="export"),
]
