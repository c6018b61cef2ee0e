"""The core's refusals on the site: chosen by code, in Spanish and English, never the core's text."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.recreo.errors import RecreoError, Refusal
from amigos.recreo.event import event_from_dict
from amigos.recreo.scoring import MatchEnd, Target, score_match
from amigos.web.events.refusals import MESSAGES, explain
from tests.recreo.helpers import event_dict


def test_every_code_has_a_sentence() -> None:
    assert set(MESSAGES) == set(Refusal)


def _explained(exc: RecreoError) -> dict[str, str]:
    found = {}
    for lang in ("es", "en"):
        with translation.override(lang):
            found[lang] = explain(exc)
    return found


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([Target.POINTS_100, Target.POINTS_200, Target.HANDS_WON]),
    st.tuples(st.integers(-5, 400), st.integers(-5, 400)),
    st.sampled_from(list(MatchEnd)),
    st.sampled_from([None, "a", "b", "x"]),
)
def test_any_impossible_result_reads_well_in_both_languages(
    target: Target, score: tuple[int, int], end: MatchEnd, offender: str | None
) -> None:
    try:
        score_match(target, score, end, offender)
    except RecreoError as exc:
        said = _explained(exc)
        assert said["es"] != said["en"] and str(exc) not in said.values()


def _mutated(data: st.DataObject) -> dict[str, Any]:
    castigo = {"round": 1, "player": 2, "points": 5}
    raw = event_dict(5, [(1, 1, 112, 37), (2, 1, 100, 64)], penalties=[castigo])
    garbage = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.text(max_size=5), st.just([]), st.just({})
    )
    key = data.draw(st.sampled_from(["format", "players", "target", "stake", "date", "results", "penalties"]))
    if key in ("results", "penalties") and data.draw(st.booleans()):
        items = raw[key]
        field = data.draw(st.sampled_from(sorted(items[0])))
        items[0] = {**items[0], field: data.draw(garbage)}
    else:
        raw[key] = data.draw(garbage)
    return raw


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_refused_event_file_reads_well_in_both_languages(data: st.DataObject) -> None:
    raw = _mutated(data)
    try:
        event_from_dict(raw)
    except RecreoError as exc:
        said = _explained(exc)
        assert said["es"] != said["en"] and str(exc) not in said.values()
