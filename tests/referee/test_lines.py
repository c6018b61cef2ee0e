"""The referee's lines of play, checked against situations worked out from the rule texts."""

from __future__ import annotations

from tests.referee.lines import ChainLine, SpinnerLine


def test_chain_ends_and_targets() -> None:
    line = ChainLine()
    line.lay((4, 6), None)
    assert sorted(line.ends()) == [4, 6]
    assert line.targets((4, 6)) == [4, 6]  # fits both ends, different results
    line.lay((3, 4), 4)
    assert sorted(line.ends()) == [3, 6]
    line.lay((3, 6), 6)
    assert line.ends() == [3, 3]
    assert line.targets((3, 5)) == [3]  # both ends show 3: one target only
    line.lay((3, 3), 3)
    assert line.ends() == [3, 3]


def test_spinner_lead_counts_once_until_both_sides_covered() -> None:
    line = SpinnerLine()
    line.lay_lead(5, 5)
    assert line.count() == 10
    assert line.open_arms() == {"left": 5, "right": 5}
    line.lay((0, 5), "left")
    assert line.count() == 0 + 10
    assert not line.cross_open()
    line.lay((3, 5), "right")
    assert line.cross_open()
    assert line.open_arms() == {"left": 0, "right": 3, "up": 5, "down": 5}
    assert line.count() == 3  # the covered spinner and the empty up/down arms add nothing
    line.lay((2, 5), "up")
    line.lay((5, 6), "down")
    assert line.count() == 0 + 3 + 2 + 6


def test_spinner_laid_on_an_arm_opens_after_the_next_tile_beyond_it() -> None:
    line = SpinnerLine()
    line.lay_lead(4, 1)
    assert line.count() == 5
    line.lay((1, 1), "right")
    assert line.spinner == ("right", 0)
    assert line.count() == 4 + 2
    assert "up" not in line.open_arms()
    line.lay((1, 6), "right")
    assert line.open_arms() == {"left": 4, "right": 6, "up": 1, "down": 1}
    line.lay((1, 5), "up")
    line.lay((5, 5), "up")  # a later double is not a spinner but counts both halves at an end
    assert line.spinner == ("right", 0)
    assert line.count() == 4 + 6 + 10


def test_non_double_lead_faces_as_written() -> None:
    line = SpinnerLine()
    line.lay_lead(6, 2)
    assert line.open_arms() == {"left": 6, "right": 2}
    assert line.spinner is None
    assert line.targets((2, 6)) == ["left", "right"]
