"""One clock (issue 39, item 3): every time a player reads is in the player's own time zone.

The zone is kept on the account: the browser tells it at sign-up or sign-in (only when the account
has none), and the settings page changes it. A zone the database does not know is refused with a
translated message and changes nothing.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape

from amigos.web.accounts import clock, services
from amigos.web.accounts.models import User
from amigos.web.lobby import notices
from amigos.web.lobby.models import ChatMessage
from tests.web.conftest import PASSWORD, SignedIn

pytestmark = pytest.mark.django_db

#: 14:20 UTC on a November day: 09:20 in Havana (UTC-5, no summer time then), 15:20 in Madrid (UTC+1).
MOMENT = datetime(2026, 11, 28, 14, 20, tzinfo=UTC)


def in_language(client: Client, language: str) -> Client:
    client.cookies["django_language"] = language
    return client


def chat_times(html: str) -> list[str]:
    return re.findall(r'class="chat__time" datetime="[^"]*">([^<]*)</time>', html)


def test_the_same_chat_line_reads_in_each_players_own_zone(sign_in: Callable[..., SignedIn]) -> None:
    havana = sign_in("Ana", time_zone="America/Havana")
    madrid = sign_in("Beto", time_zone="Europe/Madrid")
    ChatMessage.objects.create(author=havana.user, text="¿Jugamos?", created_at=MOMENT)
    assert chat_times(havana.client.get(reverse("lobby:home")).content.decode()) == ["09:20"]
    assert chat_times(madrid.client.get(reverse("lobby:home")).content.decode()) == ["15:20"]
    # The page names the zone, so that the chat's script draws new lines with the same clock.
    for player, zone in ((havana, "America/Havana"), (madrid, "Europe/Madrid")):
        page = player.client.get(reverse("lobby:home")).content.decode()
        assert f'<meta name="time-zone" content="{zone}">' in page


def test_a_message_from_the_administrators_reads_in_the_players_zone(
    sign_in: Callable[..., SignedIn],
) -> None:
    havana = sign_in("Ana", time_zone="America/Havana")
    madrid = sign_in("Beto", time_zone="Europe/Madrid")
    for player in (havana, madrid):
        notices.send("Aviso", "Hola.", recipient=player.user)
    from amigos.web.lobby.models import AdminMessage

    AdminMessage.objects.update(created_at=MOMENT)
    havana_page = in_language(havana.client, "es").get(reverse("lobby:messages")).content.decode()
    madrid_page = in_language(madrid.client, "es").get(reverse("lobby:messages")).content.decode()
    assert "28/11/2026 09:20" in havana_page and "15:20" not in havana_page
    assert "28/11/2026 15:20" in madrid_page and "09:20" not in madrid_page


def test_a_player_without_a_zone_reads_the_sites_zone(
    sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.TIME_ZONE = "America/Mexico_City"  # UTC-6 in November
    nobody = sign_in("Ana")
    assert nobody.user.time_zone == ""
    ChatMessage.objects.create(author=nobody.user, text="Hola", created_at=MOMENT)
    assert chat_times(nobody.client.get(reverse("lobby:home")).content.decode()) == ["08:20"]


def test_the_zone_is_not_left_active_after_the_request(sign_in: Callable[..., SignedIn]) -> None:
    havana = sign_in("Ana", time_zone="America/Havana")
    havana.client.get(reverse("lobby:home"))
    assert timezone.get_current_timezone_name() != "America/Havana"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("es", "Esa no es una zona horaria que conozcamos. Elige una de la lista."),
        ("en", "That is not a time zone we know. Choose one from the list."),
    ],
)
@pytest.mark.parametrize("bad", ["Mars/Olympus_Mons", "../../etc/passwd", "", "Europe/" + "x" * 80, "utc "])
def test_a_bad_zone_is_refused_with_a_translated_message_and_changes_nothing(
    sign_in: Callable[..., SignedIn], language: str, message: str, bad: str
) -> None:
    ana = sign_in("Ana", time_zone="Europe/Madrid")
    client = in_language(ana.client, language)
    response = client.post(reverse("accounts:settings"), {"time_zone": bad})
    assert response.status_code == 400
    if bad:  # an empty field gets Django's own "this field is required", in the same language
        assert escape(message) in response.content.decode()
    ana.user.refresh_from_db()
    assert ana.user.time_zone == "Europe/Madrid"


def test_the_service_refuses_a_bad_zone_too(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana", time_zone="Europe/Madrid")
    with pytest.raises(services.BadTimeZone):
        services.set_time_zone(user=ana, name="Atlantis/Capital")
    ana.refresh_from_db()
    assert ana.time_zone == "Europe/Madrid"


def test_the_settings_page_changes_the_zone_and_every_time_follows(sign_in: Callable[..., SignedIn]) -> None:
    ana = sign_in("Ana", time_zone="Europe/Madrid")
    ChatMessage.objects.create(author=ana.user, text="Hola", created_at=MOMENT)
    client = in_language(ana.client, "es")
    page = client.get(reverse("accounts:settings")).content.decode()
    assert '<option value="America/Havana">America/Havana</option>' in page
    assert '<option value="Europe/Madrid" selected>' in page
    response = client.post(reverse("accounts:settings"), {"time_zone": "America/Havana"})
    assert response.status_code == 302
    ana.user.refresh_from_db()
    assert ana.user.time_zone == "America/Havana"
    follow = client.get(response["Location"]).content.decode()
    assert "Tu zona horaria está guardada" in follow
    assert chat_times(client.get(reverse("lobby:home")).content.decode()) == ["09:20"]


def browser_sign_in(client: Client, identifier: str, zone: str) -> Any:
    return client.post(
        reverse("accounts:sign_in"),
        {"username": identifier, "password": PASSWORD, "browser_time_zone": zone},
    )


def test_sign_in_keeps_the_browsers_zone_when_the_account_has_none(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    assert browser_sign_in(Client(), "Ana", "America/Havana").status_code == 302
    ana.refresh_from_db()
    assert ana.time_zone == "America/Havana"


def test_sign_in_never_replaces_a_chosen_zone_nor_keeps_a_bad_one(make_player: Callable[..., User]) -> None:
    chosen = make_player("Ana", time_zone="Europe/Madrid")
    assert browser_sign_in(Client(), "Ana", "America/Havana").status_code == 302
    chosen.refresh_from_db()
    assert chosen.time_zone == "Europe/Madrid"
    empty = make_player("Beto")
    assert browser_sign_in(Client(), "Beto", "Nowhere/Town").status_code == 302
    empty.refresh_from_db()
    assert empty.time_zone == ""


def test_sign_up_keeps_the_browsers_zone(client: Client) -> None:
    response = client.post(
        reverse("accounts:sign_up"),
        {
            "display_name": "Rosa",
            "email": "rosa@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "browser_time_zone": "America/Havana",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(display_name="Rosa").time_zone == "America/Havana"


def test_the_sign_in_and_sign_up_pages_carry_the_browser_zone_field(client: Client) -> None:
    for name in ("accounts:sign_in", "accounts:sign_up"):
        page = client.get(reverse(name)).content.decode()
        assert 'name="browser_time_zone"' in page and "data-browser-time-zone" in page


def test_summer_time_is_followed(sign_in: Callable[..., SignedIn]) -> None:
    """Madrid is UTC+2 in summer and UTC+1 in winter: the same 14:20 UTC reads 16:20 in July."""
    madrid = sign_in("Beto", time_zone="Europe/Madrid")
    ChatMessage.objects.create(
        author=madrid.user, text="Verano", created_at=datetime(2026, 7, 1, 14, 20, tzinfo=UTC)
    )
    ChatMessage.objects.create(author=madrid.user, text="Invierno", created_at=MOMENT)
    assert chat_times(madrid.client.get(reverse("lobby:home")).content.decode()) == ["16:20", "15:20"]


@pytest.mark.parametrize(
    ("seconds", "es", "en"),
    [
        (20, "menos de un minuto", "less than a minute"),
        (60, "1 min", "1 min"),
        (40 * 60 + 59, "40 min", "40 min"),
        (3600, "1 h", "1 h"),
        (86399, "23 h 59 min", "23 h 59 min"),
        (2 * 86400 + 5 * 60, "48 h 5 min", "48 h 5 min"),
    ],
)
def test_durations_read_as_hours_and_minutes(seconds: int, es: str, en: str) -> None:
    for language, expected in (("es", es), ("en", en)):
        with translation.override(language):
            assert clock.duration_words(timedelta(seconds=seconds)) == expected


def test_time_left_in_both_languages() -> None:
    now = MOMENT
    with translation.override("es"):
        assert clock.time_left(now + timedelta(hours=23, minutes=5), now) == "quedan 23 h 5 min"
        assert clock.time_left(now - timedelta(seconds=1), now) == "se acabó el tiempo"
    with translation.override("en"):
        assert clock.time_left(now + timedelta(hours=23, minutes=5), now) == "23 h 5 min left"
        assert clock.time_left(now, now) == "time is up"


def test_a_stored_moment_text_becomes_an_aware_moment() -> None:
    assert clock.moment("2026-11-29T15:51:00.000Z") == datetime(2026, 11, 29, 15, 51, tzinfo=UTC)
    assert clock.moment("2026-11-29T15:51:00") == datetime(2026, 11, 29, 15, 51, tzinfo=UTC)
    assert clock.moment("not a time") is None
    assert clock.moment(None) is None
    assert clock.moment(MOMENT) == MOMENT


def test_only_known_zones_are_zones() -> None:
    assert clock.is_time_zone("America/Havana") and clock.is_time_zone("Europe/Madrid")
    for bad in ("", "Havana", "america/havana ", None, 5, "x" * 65, "/etc/localtime"):
        assert not clock.is_time_zone(bad)


def test_a_match_reads_the_same_moment_on_statistics_and_recordings_in_the_players_zone(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    """The statistics page showed when a match began and the recordings when it ended (9:46 and
    9:50 for one match); both show when it ended now, in the reader's own zone."""
    from amigos.web.archive.services import archive_match
    from tests.web.archive.test_statistics import suits_record

    havana = sign_in("Beto", time_zone="America/Havana")
    others = [make_player(name) for name in ("Ana", "Caro", "Dani")]
    archive_match(
        source="table:5:match:1",
        record=suits_record(),
        seat_user_ids=[others[0].pk, havana.user.pk, others[1].pk, others[2].pk],
        table_name="Mesa",
        started_at=MOMENT - timedelta(minutes=4),
        ended_at=MOMENT,
    )
    client = in_language(havana.client, "es")
    statistics = client.get("/stats/", follow=True).content.decode()
    recordings = client.get(reverse("archive:replays"), follow=True).content.decode()
    for page in (statistics, recordings):
        assert "28/11/2026 09:20" in page
        assert "09:16" not in page and "14:20" not in page


def test_my_cards_read_in_the_players_zone(sign_in: Callable[..., SignedIn]) -> None:
    from amigos.web.tables.models import Card

    for name, zone, shown in (("Ana", "America/Havana", "09:20"), ("Beto", "Europe/Madrid", "15:20")):
        player = sign_in(name, time_zone=zone)
        Card.objects.create(user=player.user, match=1, colour="yellow", reason="timeout", given_at=MOMENT)
        page = in_language(player.client, "es").get(reverse("moderation:my_cards")).content.decode()
        assert f"28/11/2026 {shown}" in page


def test_a_recreo_event_reads_its_start_in_each_readers_zone(sign_in: Callable[..., SignedIn]) -> None:
    from amigos.web.events.models import Event
    from tests.web.events.test_flow import fill_players, new_event

    ana = sign_in("Ana", time_zone="America/Havana")
    event = new_event(in_language(ana.client, "es"))
    fill_players(ana.client, event)
    ana.client.post(reverse("events:start", args=[event.pk]))
    Event.objects.filter(pk=event.pk).update(started_at=MOMENT)
    page = ana.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "28/11/2026 09:20" in page
    services.set_time_zone(user=ana.user, name="Europe/Madrid")
    page = ana.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "28/11/2026 15:20" in page and "09:20" not in page


def test_a_suspended_player_reads_the_end_of_the_suspension_in_their_zone(
    make_player: Callable[..., User],
) -> None:
    until = datetime(2030, 11, 28, 14, 20, tzinfo=UTC)
    make_player("Ana", time_zone="America/Havana", suspended_until=until)
    client = in_language(Client(), "es")
    response = client.post(reverse("accounts:sign_in"), {"username": "Ana", "password": PASSWORD})
    assert "suspendida hasta el 28/11/2030 09:20" in response.content.decode()


@pytest.mark.parametrize(("language", "expected"), [("es", "28/11/2026 09:20"), ("en", "28 Nov 2026, 09:20")])
def test_one_format_per_language_for_every_moment(language: str, expected: str) -> None:
    """The long and short forms are one, on the chat's 24-hour clock."""
    from django.utils import formats

    moment = MOMENT.astimezone(zoneinfo.ZoneInfo("America/Havana"))
    with translation.override(language):
        assert formats.date_format(moment, "DATETIME_FORMAT") == expected
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == expected
        assert formats.time_format(moment, "TIME_FORMAT") == "09:20"


def test_the_administration_shows_the_players_zone_without_changing_it(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    staff = sign_in("Admin", is_staff=True, is_superuser=True)
    ana = make_player("Ana", time_zone="America/Havana")
    page = staff.client.get(reverse("admin:accounts_user_change", args=[ana.pk])).content.decode()
    assert "America/Havana" in page and 'name="time_zone"' not in page


@pytest.mark.parametrize(
    ("lang", "span", "words"),
    [
        ("es", timedelta(seconds=20), "hace un momento"),
        ("es", timedelta(minutes=5), "hace 5 min"),
        ("es", timedelta(hours=3, minutes=2), "hace 3 h 2 min"),
        ("en", timedelta(minutes=5), "5 min ago"),
        ("en", timedelta(hours=3), "3 h ago"),
    ],
)
def test_a_recent_moment_reads_as_how_long_ago(lang: str, span: timedelta, words: str) -> None:
    with translation.override(lang):
        assert clock.time_ago(MOMENT - span, MOMENT) == words


def test_a_moment_a_day_old_or_still_to_come_is_left_to_its_date() -> None:
    assert clock.time_ago(MOMENT - timedelta(days=1), MOMENT) == ""
    assert clock.time_ago(MOMENT + timedelta(minutes=1), MOMENT) == ""


def test_a_new_message_says_how_long_ago_it_came(sign_in: Callable[..., SignedIn]) -> None:
    ana = sign_in("Ana", time_zone="America/Havana")
    notices.send("Aviso", "Hola.", recipient=ana.user)
    from amigos.web.lobby.models import AdminMessage

    AdminMessage.objects.update(created_at=timezone.now() - timedelta(minutes=5, seconds=10))
    page = in_language(ana.client, "es").get(reverse("lobby:messages")).content.decode()
    assert "(hace 5 min)" in page
    AdminMessage.objects.update(created_at=timezone.now() - timedelta(days=3))
    page = in_language(ana.client, "en").get(reverse("lobby:messages")).content.decode()
    assert " ago)" not in page
