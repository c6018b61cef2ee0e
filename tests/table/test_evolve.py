"""`amigos.engine.evolve` copies the pure table's values as `dataclasses.replace` does, only faster."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.engine.evolve import evolve
from amigos.table import Conduct, Invitation, Mode, SeatState, TableState, VoteChoice, next_deadline
from amigos.table.model import UNKNOWN
from tests.table.helpers import config
from tests.table.test_lifecycle import ready

SEAT_CHANGES = st.fixed_dictionaries(
    {},
    optional={
        "player": st.one_of(st.none(), st.text(max_size=5)),
        "invitation": st.sampled_from(Invitation),
        "last_seen": st.floats(0, 1e6),
        "away_since": st.one_of(st.none(), st.floats(0, 1e6)),
        "abandon": st.booleans(),
        "held_by_computer": st.booleans(),
        "yellow": st.integers(0, 30),
        "vote": st.one_of(st.none(), st.sampled_from(VoteChoice)),
        "page_open": st.booleans(),
    },
)


@given(SEAT_CHANGES)
def test_a_seat_copied_with_changes_equals_replace(changes: dict[str, object]) -> None:
    seat = SeatState("ana", Invitation.ACCEPTED, 1.0, yellow=2)
    copied = evolve(seat, **changes)
    assert copied == replace(seat, **changes)  # type: ignore[arg-type]
    assert type(copied) is SeatState
    assert seat == SeatState("ana", Invitation.ACCEPTED, 1.0, yellow=2)  # the original is untouched


@given(st.floats(0, 1e6), st.one_of(st.none(), st.floats(0, 1e6)))
def test_a_table_copied_with_changes_equals_replace_and_forgets_its_deadline(
    now: float, until: float | None
) -> None:
    state = ready().state
    next_deadline(state)  # kept on the state from now on
    assert state.due is not UNKNOWN
    copied = evolve(state, now=now, vote_until=until)
    assert copied == replace(state, now=now, vote_until=until)
    assert copied.due is UNKNOWN  # a copy looks its own deadline up
    assert all(
        getattr(copied, f.name) is getattr(state, f.name)
        for f in dataclasses.fields(TableState)
        if f.init and f.name not in ("now", "vote_until")
    )


def test_only_known_fields_and_suitable_classes() -> None:
    seat = SeatState("ana", Invitation.ACCEPTED, 1.0)
    with pytest.raises(TypeError):
        evolve(seat, colour="red")

    @dataclass(frozen=True, slots=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            assert self.value >= 0

    with pytest.raises(TypeError, match="__post_init__"):
        evolve(Checked(1), value=-1)

    @dataclass(frozen=True)
    class Unslotted:
        value: int

    with pytest.raises(TypeError, match="slots"):
        evolve(Unslotted(1), value=2)

    @dataclass(frozen=True, slots=True)
    class Unset:
        value: int
        later: int = field(init=False)

    with pytest.raises(TypeError, match="neither"):
        evolve(Unset(1), value=2)


def test_any_field_name_can_be_changed() -> None:
    """Fields named like a copier's parameter or local (``value``, ``new``, ``copy``) are fields
    like any other."""

    @dataclass(frozen=True, slots=True)
    class Named:
        value: int
        new: int = 0
        copy: int = 0

    assert evolve(Named(1), value=2, new=3, copy=4) == Named(2, 3, 4)


def test_a_configuration_is_copied_by_replace_for_it_derives_its_conduct() -> None:
    cfg = config()
    with pytest.raises(TypeError, match="__post_init__"):
        evolve(cfg, mode=Mode.CORRESPONDENCE)
    assert replace(cfg, mode=Mode.CORRESPONDENCE).conduct is Conduct.CORRESPONDENCE
