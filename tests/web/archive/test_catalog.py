"""The archive's own Spanish and English catalogs: complete, compiled, covering its templates."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

import amigos.web.archive
from tests.web.test_i18n import read_po

APP = Path(amigos.web.archive.__file__).parent
LOCALE = APP / "locale"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_message_is_translated_and_compiled(lang: str) -> None:
    folder = LOCALE / lang / "LC_MESSAGES"
    catalog = read_po(folder / "django.po")
    assert len(catalog) > 50
    assert [msgid for msgid, forms in catalog.items() if not all(forms)] == []
    with (folder / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    text = (folder / "django.po").read_text(encoding="utf-8")
    for msgid, forms in catalog.items():
        if f'msgid "{msgid}"\nmsgid_plural' in text or re.search(
            rf'msgctxt "[^"]+"\nmsgid "{re.escape(msgid)}"', text
        ):
            continue  # plural and contextual forms are looked up differently
        assert compiled.gettext(msgid) == forms[0], msgid


def test_both_catalogs_hold_the_same_messages() -> None:
    assert set(read_po(LOCALE / "es" / "LC_MESSAGES" / "django.po")) == set(
        read_po(LOCALE / "en" / "LC_MESSAGES" / "django.po")
    )


def test_every_marked_template_string_is_in_the_spanish_catalog() -> None:
    catalog = read_po(LOCALE / "es" / "LC_MESSAGES" / "django.po")
    marked = re.compile(r"""\{% translate (["'])(.+?)\1""")
    missing = [
        text
        for template in (APP / "templates").rglob("*.html")
        for _, text in marked.findall(template.read_text(encoding="utf-8"))
        if text not in catalog
    ]
    assert missing == []
