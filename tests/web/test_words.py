"""What a player reads is words, never codes (issue 39): every marked message of every app is in its
catalog in Spanish and English, the scripts' string tables are translated, and the pages that
showed codes (the cards page, the replay, the admin) show none in either language.

The rendered pages are searched for the codes players saw: card colours and reasons, computer
levels, table states, move notation (``4-3@4``), numbered sides ("Bando 1"), and any snake_case
token, which is how the server's codes are spelled.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils import translation

import amigos.web
from amigos.table.effects import Cancellation
from amigos.web.accounts.models import User
from amigos.web.archive import words
from amigos.web.archive.replay import replay_match
from amigos.web.lobby.chat_labels import chat_action_labels
from amigos.web.lobby.views import lobby_labels
from amigos.web.tables import labels as table_labels_module
from amigos.web.tables.models import Card, Seat, Table
from amigos.web.tables.selectors import live_tables
from tests.web.archive.test_replay import START, archived
from tests.web.test_i18n import read_po

WEB = Path(amigos.web.__file__).parent
#: The apps with a catalog of their own; every other folder's messages go to the site's catalog.
APPS_WITH_CATALOGS = ("tables", "archive", "events", "moderation")
LANGUAGES = ("es", "en")


def _catalog(app: str, lang: str) -> dict[str, list[str]]:
    folder = WEB / app if app else WEB
    return read_po(folder / "locale" / lang / "LC_MESSAGES" / "django.po")


# -- the catalogs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("app", APPS_WITH_CATALOGS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_app_catalog_is_translated_and_compiled(app: str, lang: str) -> None:
    import gettext

    folder = WEB / app / "locale" / lang / "LC_MESSAGES"
    entries = _entries(folder / "django.po")
    # English is the source language: an empty English msgstr means "the msgid as it is".
    if lang == "es":
        assert [msgid for _ctx, msgid, forms in entries if not all(forms)] == []
    with (folder / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for context, msgid, forms in entries:
        got = compiled.pgettext(context, msgid) if context else compiled.gettext(msgid)
        if got != (forms[0] or msgid):
            stale.append(msgid)
    assert stale == []


FIELD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) ((?:".*"\n?)+)', re.M)


def _entries(path: Path) -> list[tuple[str | None, str, list[str]]]:
    """(context, msgid, msgstr forms) of every entry of a catalog, contexts kept apart."""
    import ast

    found = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields = {
            name: "".join(ast.literal_eval(part) for part in value.strip().split("\n"))
            for name, value in FIELD.findall(block + "\n")
        }
        if fields.get("msgid"):
            forms = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
            found.append((fields.get("msgctxt"), fields["msgid"], forms))
    return found


def _extracted(app: str, into: Path) -> dict[str, list[str]]:
    """The message ids Django's own extractor finds in ``app`` (templates and Python, which holds
    every string table the scripts receive), from a copy so the real catalogs stay untouched."""
    source = WEB / app if app else WEB
    copy = into / (app or "site")
    skip = shutil.ignore_patterns("locale", "__pycache__", *([] if app else APPS_WITH_CATALOGS))
    shutil.copytree(source, copy, ignore=skip)
    (copy / "locale").mkdir()
    # The venv's django-admin, not ``python -m django``: that puts the copy first on the path, where
    # an app's own module (moderation's socket.py) would hide the standard library's.
    django_admin = Path(sys.executable).with_name("django-admin")
    command = [str(django_admin), "makemessages", "-l", "es", "--no-location", "--no-wrap"]
    subprocess.run(command, cwd=copy, check=True, capture_output=True)
    po = copy / "locale" / "es" / "LC_MESSAGES" / "django.po"
    po.write_text(po.read_text(encoding="utf-8").replace("#, fuzzy\n", "", 1), encoding="utf-8")
    return read_po(po)


@pytest.fixture(scope="module")
def django_admin_command() -> None:
    if shutil.which("xgettext") is None or not Path(sys.executable).with_name("django-admin").exists():
        pytest.skip("xgettext (GNU gettext) is needed to extract the messages")


@pytest.mark.parametrize("app", ["", *APPS_WITH_CATALOGS])
def test_every_marked_message_is_in_a_catalog(app: str, tmp_path: Path, django_admin_command: None) -> None:
    found = _extracted(app, tmp_path)
    assert len(found) > 5
    site = _catalog("", "es")
    own = _catalog(app, "es") if app else site
    english = _catalog(app, "en") if app else _catalog("", "en")
    missing = []
    for msgid in found:
        # Django's admin translates its own words ("Home", "Django administration").
        with translation.override("es"):
            django_knows = translation.gettext(msgid) != msgid
        if msgid not in own and msgid not in site and not django_knows:
            missing.append(msgid)
        elif msgid in own and msgid not in english:
            missing.append(f"{msgid} (English)")
    assert missing == []


def _leaves(table: object, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(table, dict):
        for key, value in table.items():
            yield from _leaves(value, f"{path}.{key}")
    elif isinstance(table, str):
        yield path, table


#: Leaves of the scripts' string tables that read the same in both languages.
SAME_IN_BOTH = {"normal", "Total"}


def test_every_string_table_of_the_scripts_is_in_both_languages() -> None:
    """The tables the scripts receive (the table, the lobby, the chat's actions): each leaf differs
    between Spanish and English, so none is a message id that no catalog translates."""
    tables: dict[str, Callable[[], object]] = {
        "table": table_labels_module.table_labels,
        "tables_lobby": table_labels_module.lobby_labels,
        "lobby": lobby_labels,
        "chat": chat_action_labels,
    }
    untranslated = []
    for name, make in tables.items():
        with translation.override("es"):
            spanish = dict(_leaves(make()))
        with translation.override("en"):
            english = dict(_leaves(make()))
        assert spanish.keys() == english.keys()
        for path, text in english.items():
            words_in_it = re.sub(r"%\(\w+\)s", "", text)
            if spanish[path] == text and text not in SAME_IN_BOTH and re.search(r"[a-z]{3}", words_in_it):
                untranslated.append(f"{name}{path}: {text!r}")
    assert untranslated == []


def test_every_reason_a_table_is_cancelled_reads_as_its_own_message() -> None:
    """Regression: a table cancelled because a player was suspended (reason ``suspension``) read as
    the generic "cancelled". Every reason but the organizer's own button (which the organizer
    pressed, so the plain words suffice) has its message in the table's strings, and the table's
    script shows it for that reason."""
    script = (Path(amigos.web.__file__).parent / "tables/static/tables/table.js").read_text()
    with translation.override("es"):
        strings = table_labels_module.table_labels()
    missing = []
    for reason in Cancellation:
        if reason is Cancellation.ORGANIZER:
            continue
        key = f"cancelled_{reason.value}"
        shown = f'data.reason === "{reason.value}"' in script and f"labels.{key}" in script
        if key not in strings or not shown:
            missing.append(reason.value)
    assert missing == []


# -- rendered pages --------------------------------------------------------------------------------

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
NOTATION = re.compile(r"\b\d-\d@\w+")
NUMBERED_SIDE = re.compile(r"\b(?:Side|Bando|side|bando) \d\b")
#: The codes players reported, by the language in which they are not words.
CODES = {
    "es": re.compile(
        r"\b(yellow|blue|easy|hard|inviting|playing|voting|finished|cancelled|pending|accepted|"
        r"refused|correspondence|timeout|every_5s|slow_single|no_reconnection|staff|computadora \(\w+\))\b"
    ),
    "en": re.compile(
        r"\b(computadora|amarilla|difícil|timeout|every_5s|slow_single|no_reconnection)\b", re.I
    ),
}


def readable(page: str) -> str:
    """What a reader gets: the text and the words of titles, labels and alternatives (never the
    data attributes, which carry codes for the scripts)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    said = re.findall(r'\s(?:title|aria-label|alt|placeholder|value)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *said]))


def codes_in(page: str, lang: str) -> list[str]:
    text = readable(page)
    hits = SNAKE.findall(text) + NOTATION.findall(text) + NUMBERED_SIDE.findall(text)
    hits += [m.group(0) for m in CODES[lang].finditer(text)]
    return hits


def in_language(client: Client, lang: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


@pytest.fixture
def staff(make_player: Callable[..., User]) -> Client:
    client = Client()
    client.force_login(make_player("Admin", is_staff=True, is_superuser=True))
    return client


def _cards_for(player: User, other: User) -> Table:
    table = Table.objects.create(
        name="Mesa", variant="amigos-100", players=4, organizer=player, status="playing", created_at=START
    )
    Seat.objects.create(table=table, number=0, user=player, invitation="accepted")
    Seat.objects.create(table=table, number=1, user=other, invitation="accepted")
    for number, level in ((2, "hard"), (3, "easy")):
        Seat.objects.create(table=table, number=number, level=level, invitation="accepted")
    reasons = ["slow_single", "timeout", "every_5s", "no_reconnection", "staff", "some_new_code"]
    for minute, (reason, colour) in enumerate(
        zip(reasons, ["yellow", "yellow", "yellow", "blue", "red", "blue"], strict=True)
    ):
        Card.objects.create(
            user=player,
            table=table,
            match=1,
            hand=1,
            colour=colour,
            reason=reason,
            given_at=START + timedelta(minutes=minute),
        )
    return table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_cards_page_names_colours_and_reasons_in_words(
    sign_in: Callable[..., Any], make_player: Callable[..., User], lang: str
) -> None:
    player = sign_in("Dani")
    _cards_for(player.user, make_player("Beto"))
    page = in_language(player.client, lang).get(reverse("moderation:my_cards")).content.decode()
    assert codes_in(page, lang) == []
    text = readable(page)
    if lang == "es":
        assert "amarilla" in text and "azul" in text and "roja" in text
        assert "se acabó el tiempo del turno" in text and "otro motivo" in text
    else:
        assert "yellow" in text and "you did not come back to the table within 5 minutes" in text


@pytest.mark.parametrize(
    ("lang", "computer", "level"), [("es", "Computadora ", "(difícil)"), ("en", "Computer ", "(hard)")]
)
def test_a_computer_seat_is_named_with_its_level_in_words(
    make_player: Callable[..., User], lang: str, computer: str, level: str
) -> None:
    _cards_for(make_player("Dani"), make_player("Beto"))
    with translation.override(lang):
        names = [seat["name"] for table in live_tables() for seat in table["seats"]]
    assert any(name.startswith(computer) and name.endswith(level) for name in names), names
    spanish = ("Norte", "Sur", "Este", "Oeste")
    assert not any(point in name for name in names for point in spanish if lang == "en")
    assert not any("(hard)" in name or "(easy)" in name for name in names if lang == "es")


def test_moves_are_said_as_players_say_them() -> None:
    with translation.override("es"):
        assert words.move_words("4-3@4") == "4-3 por el 4"
        assert words.move_words("pass") == "paso"
        assert words.move_words("6-5@up") == "6-5 hacia arriba"
        assert words.move_words("6-6") == "6-6"
    with translation.override("en"):
        assert words.move_words("4-3@4") == "4-3 on the 4"
        assert words.move_words("5-2@left") == "5-2 on the left"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_replay_names_sides_by_their_players_and_moves_in_words(
    sign_in: Callable[..., Any], make_player: Callable[..., User], lang: str
) -> None:
    ana = sign_in("Ana")
    match = archived([ana.user, make_player("Beto"), make_player("Caro"), make_player("Dani")])
    client = in_language(ana.client, lang)
    replayed = replay_match(match.record)
    # Every position of the first hands, so a move written with its end (4-3@4) is among them.
    for hand in range(1, min(3, replayed.hand_count) + 1):
        for move in range(replayed.moves_in(hand) + 1):
            page = client.get(reverse("archive:replay", args=[match.pk, hand, move])).content.decode()
            assert codes_in(page, lang) == [], (hand, move)
    text = readable(page)
    both = "Ana y Caro" if lang == "es" else "Ana and Caro"
    assert both in text


def _admin_urls() -> list[str]:
    urls = ["/admin/"]
    for model in admin.site._registry:
        meta = model._meta
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    return urls


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_admin_shows_no_code_and_no_english_model_name_in_spanish(
    staff: Client, make_player: Callable[..., User], lang: str
) -> None:
    table = _cards_for(make_player("Dani"), make_player("Beto"))
    assert table.pk
    client = in_language(staff, lang)
    for url in _admin_urls():
        page = client.get(url).content.decode()
        text = readable(page)
        found = [m.group(0) for m in CODES[lang].finditer(text) if m.group(0) not in ("staff",)]
        found += re.findall(r"\((?:amigos|cuban|draw|all-fives)-[\w-]+\)", text)
        assert found == [], url
        assert NOTATION.findall(text) == [], url
        if lang == "es":
            with translation.override("en"):
                english = {
                    str(model._meta.verbose_name_plural).capitalize() for model in admin.site._registry
                }
            with translation.override("es"):
                spanish = {
                    str(model._meta.verbose_name_plural).capitalize() for model in admin.site._registry
                }
            leaked = [name for name in english - spanish if re.search(rf">\s*{re.escape(name)}\s*<", page)]
            assert leaked == [], url


@pytest.mark.parametrize(
    ("left", "expected"), [(1, "1 more suspends the account"), (3, "3 more suspend the account")]
)
def test_the_cards_page_counts_in_the_singular_and_the_plural(
    sign_in: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, left: int, expected: str
) -> None:
    from amigos.web.moderation import selectors

    player = sign_in("Dani")
    standing = selectors.MyCards(cards=[], yellow=2, blue=0, yellow_left=left, blue_left=left, suspensions=[])
    monkeypatch.setattr(selectors, "my_cards", lambda user_id: standing)
    page = in_language(player.client, "en").get(reverse("moderation:my_cards")).content.decode()
    assert readable(page).count(expected) == 2
