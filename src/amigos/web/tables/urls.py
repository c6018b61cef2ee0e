from __future__ import annotations

from django.urls import path

from amigos.web.tables import views

app_name = "tables"

urlpatterns = [
    path("nueva/", views.new_table, name="new"),
    path("computadora/", views.computer_game, name="computer"),
    path("mis-partidas/", views.my_games, name="my_games"),
    path("con-amigos/", views.friends_game, name="friends"),
    path("<int:table_id>/", views.table_page, name="table"),
    path(
        "<int:table_id>/partida/<int:match>/mano/<int:hand>/repaso/",
        views.review_hand,
        name="review_hand",
    ),
]
