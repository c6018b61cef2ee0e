from __future__ import annotations

from django.urls import path

from amigos.web.archive import replay_views, views

app_name = "archive"

urlpatterns = [
    path("", views.mine, name="mine"),
    path("<int:user_id>/", views.player, name="player"),
    path("match/<int:match_id>/hand/<int:hand>/", views.review, name="review"),
]

urlpatterns += [
    path("replay/", replay_views.matches, name="replays"),
    path("replay/<int:match_id>/", replay_views.first_position, name="replay_match"),
    path("replay/<int:match_id>/record.json", replay_views.record_download, name="replay_record"),
    path("replay/<int:match_id>/<int:hand>/<int:move>/", replay_views.replay, name="replay"),
    path("replay/<int:match_id>/<int:hand>/verify/", replay_views.verify, name="replay_verify"),
    path("replay/<int:match_id>/<int:hand>/try/", replay_views.academy_try, name="academy_try"),
    path("replay/<int:match_id>/<int:hand>/rest/", replay_views.academy_match, name="academy_match"),
    path(
        "replay/<int:match_id>/<int:hand>/<int:move>/values/",
        replay_views.academy_values,
        name="academy_values",
    ),
    path("academy/job/<str:job_id>/", replay_views.academy_job, name="academy_job"),
]
