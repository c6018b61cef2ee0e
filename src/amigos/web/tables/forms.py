"""The lobby's forms for tables: create a table (seats from the online list or computer levels),
and play against the computer.

A seat choice is text: ``user:<id>`` for an online player or ``computer:<level>``. The forms only
shape the input; the table service decides (and refuses with a code) what is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from amigos.web.tables.services import MAX_NAME, SeatChoice

#: The games a table can play, Spanish-speaking players' names first (the record-format names).
GAMES: tuple[tuple[str, Any], ...] = (
    ("amigos-100", _("Amigos — 100 points")),
    ("amigos-200", _("Amigos — 200 points")),
    ("amigos-hands", _("Amigos — hands won (20, 40, 60, Ventaja)")),
    ("cuban-2v2", _("Cuban — pairs, 150 points")),
    ("cuban-1v1", _("Cuban — one against one, 150 points")),
    ("draw-100", _("Draw — 100 points")),
    ("all-fives-100", _("All Fives — 100 points")),
    ("all-fives-250", _("All Fives — 250 points")),
    ("all-threes-100", _("All Threes — 100 points")),
    ("fives-and-threes-100", _("Fives and Threes — 100 points")),
)
#: Seats per game; the draw and fives games take 2 to 4 players (the form's "players" field).
FIXED_PLAYERS = {"amigos-100": 4, "amigos-200": 4, "amigos-hands": 4, "cuban-2v2": 4, "cuban-1v1": 2}
LEVEL_CHOICES = (("easy", _("easy")), ("normal", _("normal")), ("hard", _("hard")), ("expert", _("expert")))


def computer_seats() -> list[tuple[str, str]]:
    """The computer seats a table can be given, named in the reader's language (built per form:
    filled in at import, the names stayed in whichever language was active then)."""
    return [
        (f"computer:{value}", _("Computer (%(level)s)") % {"level": label}) for value, label in LEVEL_CHOICES
    ]


#: Seats other than the organizer's, in the order the spec names them (partner, left, right).
SEAT_FIELDS = (
    ("seat_2", 2, _("Partner (across the table)")),
    ("seat_3", 3, _("Left")),
    ("seat_1", 1, _("Right")),
)


def variant_names() -> dict[str, str]:
    """Each game's name in the page's language."""
    return {value: str(label) for value, label in GAMES}


def players_for(variant: str, players: int | None) -> int:
    return FIXED_PLAYERS.get(variant, players or 4)


class CreateTableForm(forms.Form):
    name = forms.CharField(label=_("Name of the table"), max_length=MAX_NAME)
    variant = forms.ChoiceField(label=_("Game and target"), choices=GAMES)
    players = forms.TypedChoiceField(
        label=_("Players (draw and fives games)"),
        choices=((4, "4"), (3, "3"), (2, "2")),
        coerce=int,
        initial=4,
        required=False,
    )
    kind = forms.ChoiceField(
        label=_("Kind of game"),
        choices=(
            ("live", _("Live (clock of 5, 20 or 60 seconds)")),
            ("correspondence", _("Correspondence (a day per move)")),
        ),
        initial="live",
    )

    def __init__(self, *args: Any, online: Iterable[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        people = [(f"user:{user_id}", name) for user_id, name in online]
        choices: list[tuple[Any, Any]] = [("", _("— empty —"))]
        if people:
            choices.append((_("Players online"), people))
        choices.append((_("Computer players"), computer_seats()))
        for field, _number, label in SEAT_FIELDS:
            self.fields[field] = forms.ChoiceField(label=label, choices=choices, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        variant = cleaned.get("variant")
        if not variant:
            return cleaned
        players = players_for(variant, cleaned.get("players"))
        cleaned["players"] = players
        seats: dict[int, SeatChoice] = {}
        for field, number, _label in SEAT_FIELDS:
            if number >= players:
                continue
            value = cleaned.get(field) or ""
            if not value:
                self.add_error(field, _("Choose who sits here."))
                continue
            seats[number] = parse_seat(value)
        cleaned["seats"] = seats
        return cleaned


def parse_seat(value: str) -> SeatChoice:
    kind, _colon, rest = value.partition(":")
    if kind == "user" and rest.isdigit():
        return SeatChoice(user_id=int(rest))
    if kind == "computer" and rest:
        return SeatChoice(level=rest)
    raise forms.ValidationError(_("Choose who sits here."), code="bad_seats")


class ComputerGameForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), choices=GAMES, initial="amigos-100")
    level = forms.ChoiceField(label=_("Computer players"), choices=LEVEL_CHOICES, initial="normal")
    players = forms.TypedChoiceField(
        label=_("Players (draw and fives games)"),
        choices=((4, "4"), (3, "3"), (2, "2")),
        coerce=int,
        initial=4,
        required=False,
    )


#: How long an invitation to a correspondence game waits for its answer, in days.
ANSWER_DAYS = (1, 2, 3, 5, 7)


class FriendsTableForm(forms.Form):
    """A correspondence game with friends: any registered player may sit, online or not.

    The seats are text (``user:<id>`` or ``computer:<level>``), not a fixed choice: the list on the
    page is only what the player searched for, and the table service checks every id (that the
    player exists, is not suspended, has room for another game)."""

    name = forms.CharField(label=_("Name of the game"), max_length=MAX_NAME)
    variant = forms.ChoiceField(label=_("Game and target"), choices=GAMES)
    players = forms.TypedChoiceField(
        label=_("Players (draw and fives games)"),
        choices=((2, "2"), (3, "3"), (4, "4")),
        coerce=int,
        initial=2,
        required=False,
    )
    answer_days = forms.TypedChoiceField(
        label=_("Time to accept the invitation"),
        choices=(),
        coerce=int,
        initial=1,
    )

    def __init__(
        self,
        *args: Any,
        recent: Iterable[tuple[int, str]] = (),
        people: Iterable[tuple[int, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        answer = self.fields["answer_days"]
        assert isinstance(answer, forms.TypedChoiceField)
        answer.choices = [(days, days_label(days)) for days in ANSWER_DAYS]
        choices: list[tuple[Any, Any]] = [("", _("— empty —"))]
        lately = list(dict.fromkeys(recent))
        others = [person for person in dict.fromkeys(people) if person not in lately]
        if lately:
            choices.append((_("Played with you lately"), [(f"user:{pk}", name) for pk, name in lately]))
        if others:
            choices.append((_("Players"), [(f"user:{pk}", name) for pk, name in others]))
        choices.append((_("Computer players"), computer_seats()))
        for field, _number, label in SEAT_FIELDS:
            self.fields[field] = forms.CharField(
                label=label, required=False, max_length=40, widget=forms.Select(choices=choices)
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        variant = cleaned.get("variant")
        if not variant:
            return cleaned
        players = players_for(variant, cleaned.get("players"))
        cleaned["players"] = players
        seats: dict[int, SeatChoice] = {}
        for field, number, _label in SEAT_FIELDS:
            if number >= players:
                continue
            try:
                seats[number] = parse_seat(cleaned.get(field) or "")
            except forms.ValidationError as error:
                self.add_error(field, error)
        cleaned["seats"] = seats
        return cleaned


def days_label(days: int) -> str:
    return ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
