"""Rendering a stored action for several audiences at once gives each the copy it would get alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from amigos.web.realtime import envelope
from amigos.web.tables import rendering

_KINDS = ["hand_started", "hand_ended", "drew", "clock", "played", "passed", "card", "notice", "match_ended"]
_SEATS = st.integers(0, 3)


@st.composite
def _event(draw: st.DrawFn, version: int) -> tuple[int, str, dict[str, Any]]:
    kind = draw(st.sampled_from(_KINDS) | st.text(max_size=8))
    data: dict[str, Any] = {
        "seat": draw(_SEATS),
        "hands": [[f"{seat}-{seat}"] for seat in range(4)],
        "key": draw(st.text(max_size=6)),
        "at": "2026-11-26T12:00:00.000Z",
        "tile": draw(st.sampled_from(["6-4", "0-0", None])),
        "legal": [{"tile": "6-4", "arms": ["left"], "lead_left": None}],
        "situation": draw(st.sampled_from(["single", "blocking", "normal", "timed", "computer"])),
        "deadline": "2026-11-26T12:00:20.000Z",
        "seconds": 20,
    }
    return version, kind, data


@given(st.data())
def test_each_audience_gets_the_copy_it_would_get_alone(data: st.DataObject) -> None:
    """Whatever the events (kinds the renderer knows or not), sharing the copies that read the same
    for everyone changes no audience's payload; and the secret fields leave for nobody."""
    count = data.draw(st.integers(0, 5))
    events = [data.draw(_event(version)) for version in range(1, count + 1)]
    audiences: list[int | None] = [0, 1, 2, 3, None]
    together = rendering.batches(7, events, audiences, "now")
    for audience, payload in zip(audiences, together, strict=True):
        alone = {
            "table_id": 7,
            "now": "now",
            "events": [
                {"version": version, "kind": kind, "data": rendering.render(kind, event, audience)}
                for version, kind, event in events
            ],
        }
        assert payload == alone
        for entry in payload["events"]:
            assert "hands" not in entry["data"] and "at" not in entry["data"]
            if entry["kind"] != "hand_ended":
                assert "key" not in entry["data"]
            if entry["kind"] == "hand_started":
                assert entry["data"]["hand"] == ([] if audience is None else [f"{audience}-{audience}"])


_ZONES = st.sampled_from(
    [
        UTC,
        timezone(timedelta(hours=-4)),
        timezone(timedelta(hours=5, minutes=30)),
        ZoneInfo("UTC"),
        ZoneInfo("America/Havana"),
    ]
)


@given(
    moment=st.datetimes(
        min_value=datetime(1971, 1, 2),
        max_value=datetime(9998, 12, 30),
        timezones=_ZONES,
        allow_imaginary=False,  # a time a zone skips (a spring-forward) names no instant
    )
)
def test_a_moment_is_written_in_utc_with_milliseconds_and_a_z(moment: datetime) -> None:
    """Whatever the moment's zone (the clock's UTC, a zone a database gives, an offset), its text
    names the same instant in UTC, to the millisecond, ending in Z."""
    text = rendering.iso(moment)
    assert text is not None and text.endswith("Z") and "+" not in text
    expected = moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert text == expected
    truncated = moment.replace(microsecond=moment.microsecond // 1000 * 1000)
    # by timestamps: an hour a zone repeats (fold) compares unequal to any other zone's time
    assert datetime.fromisoformat(text).timestamp() == truncated.timestamp()


def test_no_moment_is_none() -> None:
    assert rendering.iso(None) is None


@given(st.data())
def test_the_encoded_payloads_are_the_payloads_encoded(data: st.DataObject) -> None:
    """Joining each event's text gives, for every audience, the very text its whole payload
    encodes to: the hub sends the same bytes as before, whatever the events and the moment."""
    count = data.draw(st.integers(0, 5))
    events = [data.draw(_event(version)) for version in range(1, count + 1)]
    audiences: list[int | None] = data.draw(
        st.lists(st.sampled_from([0, 1, 2, 3, None]), min_size=1, max_size=6)
    )
    now = data.draw(st.sampled_from(["2026-11-27T20:00:00.000Z", "", 'a "quoted" \\ moment ñ']))
    table_id = data.draw(st.integers(1, 2**40))
    texts = rendering.batch_texts(table_id, events, audiences, now)
    payloads = rendering.batches(table_id, events, audiences, now)
    assert texts == [envelope.encode_payload(payload) for payload in payloads]
