from __future__ import annotations

from django.urls import path

from amigos.web.moderation import views

app_name = "moderation"

urlpatterns = [
    path("cards/", views.my_cards, name="my_cards"),
]
