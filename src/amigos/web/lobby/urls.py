from __future__ import annotations

from django.urls import path

from amigos.web.lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("messages/", views.messages_page, name="messages"),
    path("messages/read/", views.mark_read, name="mark_read"),
]
