"""Forms of the organizer's pages; the score sheet uses plain buttons (see views.table)."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from amigos.recreo.event import MAX_PENALTY
from amigos.web.events.models import PLAYER_NAME_MAX_LENGTH, Event


class EventForm(forms.ModelForm[Event]):
    class Meta:
        model = Event
        fields = (
            "name",
            "origin",
            "date",
            "player_count",
            "target",
            "time_limit_minutes",
            "stake",
            "extra_payment",
        )
        widgets: ClassVar[dict[str, Any]] = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        }
        help_texts: ClassVar[dict[str, Any]] = {
            "stake": _("Money per unit of the bet; 0 turns betting off. Only for 4 to 7 players."),
            "extra_payment": _("At the end the winner collects one stake from everyone but the runner-up."),
            "time_limit_minutes": _("Optional. The organizer may suspend a match that runs over."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()

    def clean_stake(self) -> Any:
        stake = self.cleaned_data["stake"]
        if stake is not None and stake < 0:
            raise forms.ValidationError(_("The stake cannot be negative."))
        return stake


class PlayersForm(forms.Form):
    """Names and e-mails for players 2..N (player 1 is the organizer)."""

    def __init__(self, count: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.count = count
        for number in range(2, count + 1):
            self.fields[f"name_{number}"] = forms.CharField(
                label=_("Player %(n)s") % {"n": number}, max_length=PLAYER_NAME_MAX_LENGTH
            )
            self.fields[f"email_{number}"] = forms.EmailField(
                label=_("E-mail of player %(n)s") % {"n": number}, required=False
            )

    def entries(self) -> list[tuple[str, str]]:
        return [
            (self.cleaned_data[f"name_{n}"], self.cleaned_data.get(f"email_{n}") or "")
            for n in range(2, self.count + 1)
        ]


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Event file (JSON)"))


class PenaltyForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=99)
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=MAX_PENALTY)
    reason = forms.CharField(label=_("Reason"), max_length=120, required=False)

    def __init__(self, choices: list[tuple[int, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = choices  # type: ignore[attr-defined]
