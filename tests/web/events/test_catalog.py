"""The events catalog must not be overridden by the site's: the site's catalog (LOCALE_PATHS) wins
for a msgid both define, so a shared msgid has to mean the same thing in both."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import amigos.web
import amigos.web.events

ENTRY = re.compile(r'^(msgid|msgstr) ((?:".*"\n?)+)', re.M)


def read_po(path: Path) -> dict[str, str]:
    catalog: dict[str, str] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields = {
            name: "".join(ast.literal_eval(part) for part in value.strip().split("\n"))
            for name, value in ENTRY.findall(block + "\n")
        }
        if fields.get("msgid"):
            catalog[fields["msgid"]] = fields.get("msgstr", "")
    return catalog


def test_no_msgid_is_translated_differently_by_the_site() -> None:
    site_po = Path(amigos.web.__file__).parent / "locale" / "es" / "LC_MESSAGES" / "django.po"
    mine_po = Path(amigos.web.events.__file__).parent / "locale" / "es" / "LC_MESSAGES" / "django.po"
    site, mine = read_po(site_po), read_po(mine_po)
    clashes = {k: (site[k], v) for k, v in mine.items() if k in site and site[k] and site[k] != v}
    assert clashes == {}
