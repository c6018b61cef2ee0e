"""The meeting room: presence order and lapse, the chat's rules, the administrator's messages, pages."""

from __future__ import annotations

import gc
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.accounts.models import User
from amigos.web.lobby import chat, notices, presence
from amigos.web.lobby.models import ChatMessage, Presence, Status
from tests.web.conftest import SignedIn

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
STATUS_RANK = {"available": 0, "invited": 1, "playing": 2, "reconnecting": 3}


# --- the order of the online list (pure) --------------------------------------------------------

players_strategy = st.lists(
    st.builds(
        presence.OnlinePlayer,
        user_id=st.integers(1, 10_000),
        name=st.text(min_size=1, max_size=5),
        status=st.sampled_from(list(STATUS_RANK)),
        # Whole seconds and fractions: an ISO date written without microseconds must still sort.
        signed_in_at=st.integers(0, 10_000).map(lambda s: T0 + timedelta(seconds=s))
        | st.integers(0, 10**9).map(lambda us: T0 + timedelta(microseconds=us)),
        quintile=st.none() | st.integers(1, 5),
    ),
    max_size=30,
    unique_by=lambda p: p.user_id,
)


def test_online_list_is_ordered_by_status_then_earliest_sign_in() -> None:
    """A hand-made case: the expected order is written out, not recomputed by the code under test."""

    def at(hour: int, minute: int = 0) -> datetime:
        return T0.replace(hour=hour, minute=minute)

    players = [
        presence.OnlinePlayer(1, "Carla", "reconnecting", at(9), None),
        presence.OnlinePlayer(2, "Ana", "available", at(10), None),
        presence.OnlinePlayer(3, "Beto", "available", at(9, 30), 2),
        presence.OnlinePlayer(4, "Dora", "playing", at(8), None),
        presence.OnlinePlayer(5, "Eli", "invited", at(11), 1),
        presence.OnlinePlayer(6, "Fabio", "available", at(10), None),  # same time as Ana: by id
        presence.OnlinePlayer(7, "Gala", "playing", at(7, 59), None),
    ]
    expected = ["Beto", "Ana", "Fabio", "Eli", "Gala", "Dora", "Carla"]
    assert [p.name for p in presence.ordered(players)] == expected
    assert [p.name for p in presence.ordered(reversed(players))] == expected


@given(players_strategy)
def test_the_feed_orders_payloads_like_the_page(players: list[presence.OnlinePlayer]) -> None:
    """The socket's full list (ordered from payloads, dates as text) and the page (ordered from
    rows) must agree, whatever the times, statuses and ids."""
    from amigos.web.lobby.feed import ordered as feed_ordered

    from_rows = [p.user_id for p in presence.ordered(players)]
    from_payloads = [p["id"] for p in feed_ordered(presence.by_id(players))]
    assert from_payloads == from_rows
    assert sorted(from_rows) == sorted(p.user_id for p in players)


def test_status_declaration_is_the_list_order() -> None:
    assert [s.value for s in Status] == ["available", "invited", "playing", "reconnecting"]


# --- presence in the database -------------------------------------------------------------------


@pytest.mark.django_db
def test_reading_the_online_list_leaves_no_reference_cycle(make_player: Callable[..., User]) -> None:
    """Regression: each presence read with its player was a reference cycle (a one-to-one field
    caches both ways), and a served process, which collects cycles every ten minutes, grew by
    about 12 MB a minute from the list read once a second (bench/soak.py)."""
    now = timezone.now()
    for name in ("Ana", "Beto", "Carla"):
        presence.sign_in(make_player(name), now)
    assert len(presence.online_players(now)) == 3  # the first read warms Django's caches
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()  # only the cycles made below are counted
    try:
        assert len(presence.online_players(now)) == 3
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_online_players_come_from_presence_rows(make_player: Callable[..., User], settings: Any) -> None:
    settings.AMIGOS_HEARTBEAT_SECONDS = 20  # absent after 60 s without heartbeat
    now = timezone.now()
    early, late, playing, gone, back = (make_player(n) for n in ("Early", "Late", "Playing", "Gone", "Back"))
    presence.sign_in(late, now - timedelta(minutes=1))
    presence.sign_in(early, now - timedelta(minutes=5))
    presence.sign_in(playing, now - timedelta(minutes=9))
    presence.set_statuses([playing.pk], Status.PLAYING)
    presence.sign_in(gone, now - timedelta(minutes=2))
    Presence.objects.filter(user=gone).update(last_seen=now - timedelta(seconds=61))
    presence.sign_in(back, now - timedelta(minutes=3))
    Presence.objects.filter(user=back).update(
        last_seen=now - timedelta(minutes=3), status=Status.RECONNECTING
    )
    for user in (early, late, playing):
        presence.heartbeat(user.pk, now)
    names = [(p.name, p.status) for p in presence.online_players(now)]
    assert names == [
        ("Early", "available"),
        ("Late", "available"),
        ("Playing", "playing"),
        ("Back", "reconnecting"),
    ]
    assert all(p.quintile is None for p in presence.online_players(now))


@pytest.mark.django_db
def test_closing_the_last_socket_lapses_after_the_grace(
    make_player: Callable[..., User], settings: Any
) -> None:
    settings.AMIGOS_HEARTBEAT_SECONDS = 20
    now = timezone.now()
    user = make_player("Ana")
    presence.sign_in(user, now)
    presence.socket_opened(user, now)
    presence.socket_opened(user, now)  # two tabs
    presence.socket_closed(user.pk, now)
    later = now + timedelta(seconds=presence.DISCONNECT_GRACE_SECONDS + 1)
    assert [p.name for p in presence.online_players(later)] == ["Ana"]  # one tab still open
    presence.socket_closed(user.pk, now)
    assert [p.name for p in presence.online_players(now)] == ["Ana"]
    assert presence.online_players(later) == []


@pytest.mark.django_db
def test_a_socket_without_presence_row_creates_one(make_player: Callable[..., User]) -> None:
    user = make_player("Ana")
    presence.socket_opened(user, timezone.now())
    assert Presence.objects.get(user=user).open_sockets == 1


# --- chat -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_chat_length_empty_and_control_characters(make_player: Callable[..., User], settings: Any) -> None:
    author = make_player("Ana")
    now = timezone.now()
    with pytest.raises(chat.ChatRefused) as empty:
        chat.post(author, " \n\t ", now)
    assert empty.value.code == "empty"
    with pytest.raises(chat.ChatRefused) as long:
        chat.post(author, "x" * (settings.AMIGOS_CHAT_MAX_LENGTH + 1), now)
    assert long.value.code == "too_long"
    line = chat.post(author, "  hola\x00\x1b[31m\ttodos\n ", now)
    assert line.text == "hola[31m todos"
    assert (
        chat.post(author, "x" * settings.AMIGOS_CHAT_MAX_LENGTH, now).text
        == "x" * settings.AMIGOS_CHAT_MAX_LENGTH
    )


@pytest.mark.django_db
def test_chat_flood_limit_is_per_player_and_window(make_player: Callable[..., User], settings: Any) -> None:
    settings.AMIGOS_CHAT_FLOOD_COUNT = 3
    settings.AMIGOS_CHAT_FLOOD_WINDOW_SECONDS = 10
    ana, beto = make_player("Ana"), make_player("Beto")
    now = timezone.now()
    for n in range(3):
        chat.post(ana, f"m{n}", now + timedelta(seconds=n))
    with pytest.raises(chat.ChatRefused) as flood:
        chat.post(ana, "again", now + timedelta(seconds=3))
    assert flood.value.code == "flood"
    chat.post(beto, "me too", now + timedelta(seconds=3))
    chat.post(ana, "later", now + timedelta(seconds=10.5))  # the first one left the window
    assert ChatMessage.objects.filter(author=ana).count() == 4


@pytest.mark.django_db
def test_recent_is_oldest_first_limited_and_hides_moderated(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    now = timezone.now()
    for n in range(6):
        ChatMessage.objects.create(author=ana, text=f"m{n}", created_at=now + timedelta(seconds=n))
    ChatMessage.objects.filter(text="m5").update(hidden=True)
    assert [line.text for line in chat.recent(3)] == ["m2", "m3", "m4"]


# --- the administrator's messages ---------------------------------------------------------------


@pytest.mark.django_db
def test_notices_to_one_or_all_and_read_state(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    beto = make_player("Beto")
    to_ana = notices.send("Hola Ana", "Solo para ti", recipient=ana)
    to_all = notices.send("Aviso", "Para todos")
    assert {m.pk for m in notices.unread(ana)} == {to_ana.pk, to_all.pk}
    assert {m.pk for m in notices.unread(beto)} == {to_all.pk}
    assert notices.mark_read(beto, [to_ana.pk, to_all.pk]) == 1  # Ana's message is not Beto's to mark
    assert notices.unread(beto) == []
    assert {m.pk for m in notices.unread(ana)} == {to_ana.pk, to_all.pk}
    assert notices.mark_read(beto, [to_all.pk]) == 0
    later = make_player("Later")
    assert notices.unread(later) == []  # broadcasts reach those who had an account when sent
    assert [(n.message.pk, n.read) for n in notices.all_for(beto)] == [(to_all.pk, True)]


# --- pages --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_lobby_needs_a_signed_in_player() -> None:
    response = Client().get("/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/sign-in/")


@pytest.mark.django_db
def test_lobby_page_in_spanish_with_notices_players_and_escaped_chat(
    sign_in: Callable[..., SignedIn],
) -> None:
    player = sign_in("Ana")
    other = sign_in("Beto")
    notices.send("Torneo el sábado", "Inscríbanse <b>ya</b>", recipient=player.user)
    chat.post(other.user, "<script>alert('x')</script>", timezone.now())
    page = player.client.get("/").content.decode()
    assert "¡Hola, Ana!" in page and "Bienvenid" not in page
    assert "Mensajes del administrador" in page and "Torneo el sábado" in page
    assert "Inscríbanse &lt;b&gt;ya&lt;/b&gt;" in page
    assert page.index("Torneo el sábado") < page.index("Jugadores en línea")
    assert "Jugadores en línea" in page and "sin clasificar" in page and "en línea" in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "<script>alert" not in page
    assert 'aria-live="polite"' in page


@pytest.mark.django_db
def test_marking_notices_read_removes_them_from_the_lobby(sign_in: Callable[..., SignedIn]) -> None:
    player = sign_in("Ana")
    message = notices.send("Aviso", "Texto", recipient=player.user)
    response = player.client.post("/messages/read/", {"message": [str(message.pk)]})
    assert response["Location"] == "/"
    assert "Aviso" not in player.client.get("/").content.decode()
    listing = player.client.get("/messages/").content.decode()
    assert "Aviso" in listing and "para ti" in listing


@pytest.mark.django_db
def test_the_page_speaks_english_after_switching(sign_in: Callable[..., SignedIn]) -> None:
    player = sign_in("Ana")
    response = player.client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = player.client.get("/").content.decode()
    assert '<html lang="en">' in page
    assert "Hello, Ana!" in page and "Players online" in page and "not yet rated" in page


@pytest.mark.django_db
def test_security_headers_on_every_page() -> None:
    response = Client().get("/accounts/sign-in/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "connect-src 'self' ws://testserver wss://testserver" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_pages_carry_no_inline_script_or_style(sign_in: Callable[..., SignedIn]) -> None:
    player = sign_in("Ana")
    for url in ("/", "/messages/", "/accounts/password/"):
        page = player.client.get(url).content.decode()
        assert " style=" not in page and "<style" not in page
        for tag in page.split("<script")[1:]:
            head = tag.split(">", 1)[0]
            assert ' src="' in head or 'type="application/json"' in head, head


@pytest.mark.django_db
def test_forms_require_csrf(make_player: Callable[..., User]) -> None:
    make_player("Ana")
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/sign-in/", {"username": "Ana", "password": "x"})
    assert response.status_code == 403


@pytest.mark.django_db
def test_spanish_is_the_default_whatever_the_browser_prefers() -> None:
    page = Client().get("/accounts/sign-in/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="es">' in page and "Ingresar" in page


@pytest.mark.parametrize(
    "path", ["/static/amigos/site.css", "/static/amigos/app.js", "/static/amigos/favicon.svg"]
)
@pytest.mark.django_db
def test_static_files_are_served(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 200


@pytest.mark.django_db
def test_the_favicon_is_found_for_pages_that_do_not_name_one() -> None:
    response = Client().get("/favicon.ico", follow=True)
    assert response.status_code == 200 and response.redirect_chain[-1][0] == "/static/amigos/favicon.svg"


def test_the_script_never_parses_text_as_markup() -> None:
    from pathlib import Path

    import amigos.web

    script = (Path(amigos.web.__file__).parent / "static" / "amigos" / "app.js").read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in script
    assert "textContent" in script


@pytest.mark.django_db
def test_a_second_device_keeps_the_sign_in_time(make_player: Callable[..., User], settings: Any) -> None:
    settings.AMIGOS_HEARTBEAT_SECONDS = 20
    now = timezone.now()
    ana = make_player("Ana")
    presence.sign_in(ana, now - timedelta(seconds=30))
    presence.sign_in(ana, now)  # the phone, while the laptop is still online
    assert Presence.objects.get(user=ana).signed_in_at == now - timedelta(seconds=30)
    Presence.objects.filter(user=ana).update(last_seen=now - timedelta(minutes=5))
    presence.sign_in(ana, now)  # the old presence had lapsed: a fresh start
    assert Presence.objects.get(user=ana).signed_in_at == now


@pytest.mark.django_db
def test_a_heartbeat_brings_back_a_presence_ended_elsewhere(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    now = timezone.now()
    presence.sign_in(ana, now)
    presence.sign_out(ana.pk)  # signed out on the phone
    presence.heartbeat(ana.pk, now)  # the laptop's socket is still open
    assert [p.name for p in presence.online_players(now)] == ["Ana"]


@given(st.text(max_size=200))
def test_clean_text_leaves_only_printable_single_line_text(text: str) -> None:
    cleaned = chat.clean_text(text)
    assert all(ch.isprintable() for ch in cleaned)
    assert cleaned == cleaned.strip()
    assert len(cleaned) <= len(text)
    assert chat.clean_text(cleaned) == cleaned


@pytest.mark.django_db
def test_a_tables_status_changes_go_together_and_the_latest_wins(make_player: Callable[..., User]) -> None:
    """The table feature's status changes are written one update per status; a player changed twice
    in the same batch ends with the later status, as if each change had been written in turn."""
    from amigos.web.tables.lobby import _set_statuses

    now = timezone.now()
    ana, beto, caro = (make_player(n) for n in ("Ana", "Beto", "Caro"))
    for player in (ana, beto, caro):
        presence.sign_in(player, now)
    _set_statuses(
        [
            (ana.pk, Status.INVITED),
            (beto.pk, Status.PLAYING),
            (ana.pk, Status.PLAYING),
            (caro.pk, Status.INVITED),
        ]
    )
    statuses = dict(Presence.objects.values_list("user_id", "status"))
    assert statuses == {ana.pk: Status.PLAYING, beto.pk: Status.PLAYING, caro.pk: Status.INVITED}
