"""How the site compares names and e-mail addresses, and which display names it refuses.

Identity comparisons happen in Python, never through the database's case folding: PostgreSQL's
``UPPER`` turns the dotless ``ı`` into ``I``, so ``vıctım@example.com`` used to find the account
of ``victim@example.com``. Every comparison goes through :func:`identifier_key` (one
normalisation: NFKC, then case folding, then NFKC again, with runs of white space made one space)
and the key is stored next to the value, so lookups are plain equality on a column.

:func:`skeleton` goes further: it folds characters that look alike (the dotless ``ı``, Cyrillic and
Greek letters drawn like Latin ones, accents). Two identities with the same skeleton would pass for
one another, so a new name whose skeleton is taken is refused, and a sign-in attempt whose key
matches no account but whose skeleton does counts as a failure against that account (it is the same
person being guessed at) without ever signing in.
"""

from __future__ import annotations

import unicodedata

# Letters of other scripts drawn like Latin ones, and Latin letters drawn like others. Only letters
# that survive NFKC and case folding need to be here (full-width forms, ligatures and the long s
# are already folded by then).
_LOOKALIKES = {
    "ı": "i",  # dotless i
    "ȷ": "j",  # dotless j
    "ɩ": "i",
    "ɡ": "g",
    "ɑ": "a",
    "ʋ": "u",
    # Cyrillic
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "һ": "h",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "ѕ": "s",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "ӏ": "l",
    # Greek
    "α": "a",
    "β": "b",
    "ε": "e",
    "η": "n",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ω": "w",
    # Latin letters commonly misread for others
    "ł": "l",
    "ø": "o",
    "đ": "d",
    "ħ": "h",
}

# Characters that draw nothing yet are letters or symbols to Unicode, so the category test misses them.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")

# Unicode categories refused in a display name: controls, format characters (zero-width joiners,
# bidi overrides and isolates, soft hyphens, tags), private use, surrogates, unassigned, and line
# or paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})

# What a skeleton leaves out: accents, and characters that draw nothing (``victim`` with a zero-width
# space inside is still ``victim`` to the eye).
_DROPPED_FROM_SKELETON = frozenset({"Mn", "Me", "Cf", "Cc"})

# Scripts whose letters are confused with Latin ones: a name may use one of them, not a mixture.
_CONFUSABLE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})


def _collapse_spaces(text: str) -> str:
    return " ".join(text.split())


def identifier_key(text: str) -> str:
    """The one form in which names and e-mail addresses are compared (and stored for lookup)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return _collapse_spaces(folded)


def skeleton(text: str) -> str:
    """What the text looks like: the key with lookalike letters mapped and accents dropped."""
    # Accents go first, so that an accented lookalike (Greek ἀ, Cyrillic ё) maps like the bare one.
    decomposed = unicodedata.normalize("NFD", identifier_key(text))
    bare = "".join(
        char
        for char in decomposed
        if unicodedata.category(char) not in _DROPPED_FROM_SKELETON and char not in _BLANK_LETTERS
    )
    mapped = "".join(_LOOKALIKES.get(char, char) for char in bare)
    return identifier_key(mapped)


def clean_display_name(text: str) -> str:
    """The name in the form it is stored (NFKC, single spaces); see :func:`display_name_problem`."""
    return _collapse_spaces(unicodedata.normalize("NFKC", text))


def _script(char: str) -> str | None:
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0]
    return first if first in _CONFUSABLE_SCRIPTS else "OTHER"


def display_name_problem(name: str) -> str | None:
    """A stable code saying why this (already cleaned) name is refused, or None when it is fine.

    ``invisible``: a character that shows nothing or reorders the text around it (a bidi override
    could make ``Ana`` display as someone else's name). ``marks``: combining marks not attached to a
    letter, or piled up. ``mixed_scripts``: Latin mixed with Cyrillic or Greek, the classic way to
    draw a name that looks like another one. ``at_sign``: an ``@``, which would make the name
    read as an e-mail address when typed at sign-in.
    """
    if "@" in name or "＠" in name or "﹫" in name:
        return "at_sign"  # a name must never read as someone's e-mail address at sign-in
    previous_mark = True  # a mark at the very start has nothing to sit on
    scripts: set[str] = set()
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES or char in _BLANK_LETTERS:
            return "invisible"
        if category.startswith("Z") and char != " ":
            return "invisible"
        is_mark = category in {"Mn", "Me"}
        if is_mark and previous_mark:
            return "marks"
        previous_mark = is_mark or char == " "
        script = _script(char)
        if script is not None and script != "OTHER":
            scripts.add(script)
    if len(scripts) > 1:
        return "mixed_scripts"
    return None
