"""Reads about accounts: who an identifier or an address belongs to, and whether a name is free.

Every lookup compares the stored comparison keys (see :mod:`amigos.web.accounts.identity`), so the
rules are the same on SQLite and PostgreSQL whatever their collations fold.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from amigos.web.accounts.identity import identifier_key, skeleton
from amigos.web.accounts.models import User


@dataclass(frozen=True)
class Resolution:
    """Whose account a typed identifier points at.

    `exact` is False when only the skeleton matched (``vıctım`` for ``victim``): the attempt is
    counted against that account, but it can never sign in.
    """

    account: User | None
    exact: bool


def account_for_identifier(identifier: str) -> User | None:
    """The account whose address or name has exactly this key (the only one that may sign in)."""
    key = identifier_key(identifier)
    if not key:
        return None
    # Names cannot contain "@", so an identifier with one can only be an address, and vice versa.
    if "@" in key:
        return User.objects.filter(email_key=key).first()
    return User.objects.filter(name_key=key).first()


def resolve_identifier(identifier: str) -> Resolution:
    """The account an identifier aims at, exactly or by looking like its address or name."""
    exact = account_for_identifier(identifier)
    if exact is not None:
        return Resolution(exact, exact=True)
    shape = skeleton(identifier)
    if not shape:
        return Resolution(None, exact=False)
    field = "email_skeleton" if "@" in shape else "name_skeleton"
    lookalike = User.objects.filter(**{field: shape}).order_by("pk").first()
    return Resolution(lookalike, exact=False)


def user_for_verified_email(*, email: str) -> User | None:
    """The account that proved it owns this address, or None (unknown, or not verified yet).

    Anything that links a person to a listing by e-mail (an event's seat) must go through here:
    an account that merely typed the address at sign-up proves nothing.
    """
    key = identifier_key(email)
    if not key:
        return None
    return User.objects.filter(email_key=key, email_verified_at__isnull=False).first()


def email_is_taken(email: str, *, exclude: User | None = None) -> bool:
    """True when an account has this address or one that looks the same."""
    found = User.objects.filter(Q(email_key=identifier_key(email)) | Q(email_skeleton=skeleton(email)))
    if exclude is not None:
        found = found.exclude(pk=exclude.pk)
    return found.exists()


def name_is_taken(name: str, *, exclude: User | None = None) -> bool:
    """True when an account has this name or one that would pass for it in the lobby."""
    found = User.objects.filter(Q(name_key=identifier_key(name)) | Q(name_skeleton=skeleton(name)))
    if exclude is not None:
        found = found.exclude(pk=exclude.pk)
    return found.exists()


#: The most players one search for a name lists (the page is a chooser, not a directory).
NAME_SEARCH_LIMIT = 20


def players_named(query: str, *, exclude: int, limit: int = NAME_SEARCH_LIMIT) -> list[tuple[int, str]]:
    """Registered players whose name contains ``query`` (compared by skeleton: case and accents do
    not matter, "jose" finds "José"), as (id, name) sorted by name, accents aside; never by
    address, which other players must not be able to probe. Inactive accounts and ``exclude`` (the
    searcher) are left out; a query of fewer than two characters finds nobody."""
    key = skeleton(query)
    if len(key) < 2:
        return []
    rows = (
        User.objects.filter(is_active=True, name_skeleton__contains=key)
        .exclude(pk=exclude)
        .order_by("name_skeleton", "name_key")
        .values_list("pk", "display_name")[:limit]
    )
    return [(int(pk), str(name)) for pk, name in rows]
