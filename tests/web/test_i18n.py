"""The Spanish and English catalogs: complete, compiled, and covering every marked template string."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest

import amigos.web

WEB = Path(amigos.web.__file__).parent
LOCALE = WEB / "locale"
ENTRY = re.compile(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) ((?:".*"\n?)+)', re.M)


def read_po(path: Path) -> dict[str, list[str]]:
    """msgid -> its msgstr forms (a tiny reader: enough for the catalogs we write)."""
    catalog: dict[str, list[str]] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        assert "#, fuzzy" not in block, f"fuzzy entry in {path}: {block}"
        fields: dict[str, str] = {}
        for name, value in ENTRY.findall(block + "\n"):
            fields[name] = "".join(ast.literal_eval(part) for part in value.strip().split("\n"))
        if fields.get("msgid"):
            catalog[fields["msgid"]] = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
    return catalog


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_message_is_translated(lang: str) -> None:
    catalog = read_po(LOCALE / lang / "LC_MESSAGES" / "django.po")
    assert len(catalog) > 100
    untranslated = [msgid for msgid, forms in catalog.items() if not all(forms)]
    assert untranslated == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_compiled_catalog_matches_the_source(lang: str) -> None:
    folder = LOCALE / lang / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, forms in read_po(folder / "django.po").items():
        assert compiled.gettext(msgid) == forms[0], msgid


def test_every_marked_template_string_is_in_the_spanish_catalog() -> None:
    catalog = read_po(LOCALE / "es" / "LC_MESSAGES" / "django.po")
    marked = re.compile(r"""\{% translate (["'])(.+?)\1""")
    missing = []
    for template in (WEB / "templates").rglob("*.html"):
        for _, text in marked.findall(template.read_text(encoding="utf-8")):
            if text not in catalog:
                missing.append((template.name, text))
    assert missing == []


def test_spanish_translations_differ_from_the_english_source() -> None:
    """A guard against copying the source into the Spanish column by mistake."""
    catalog = read_po(LOCALE / "es" / "LC_MESSAGES" / "django.po")
    # The units of a duration ("23 h 5 min") are written the same way in both languages.
    units = {"%(minutes)d min", "%(hours)d h", "%(hours)d h %(minutes)d min"}
    same_in_both_languages = {"Chat", "Amigos por el Dominó", *units}
    same = [
        msgid for msgid, forms in catalog.items() if forms[0] == msgid and msgid not in same_in_both_languages
    ]
    assert same == []


def test_both_catalogs_hold_the_same_messages() -> None:
    spanish = read_po(LOCALE / "es" / "LC_MESSAGES" / "django.po")
    english = read_po(LOCALE / "en" / "LC_MESSAGES" / "django.po")
    assert set(spanish) == set(english)
