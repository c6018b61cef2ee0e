"""What the tile notation accepts, exactly (`Tile.parse` reads it from a table of its spellings)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.engine import Tile

_DIGITS = "0123456789"


@given(
    text=st.text(alphabet=st.sampled_from([*_DIGITS, "-", " ", "٣", "a"]), max_size=5)
    | st.builds(lambda a, b: f"{a}-{b}", st.integers(0, 12), st.integers(0, 12))
    | st.text(max_size=6)
)
def test_parse_reads_exactly_the_notation(text: str) -> None:
    """A tile is read from one ASCII digit, a dash and one ASCII digit, in either order, and from
    nothing else (another script's digits, spaces, two-digit halves are refused)."""
    valid = len(text) == 3 and text[1] == "-" and text[0] in _DIGITS and text[2] in _DIGITS
    if valid:
        assert Tile.parse(text) == Tile(int(text[0]), int(text[2]))
        assert str(Tile.parse(text)) in (text, text[::-1])
    else:
        with pytest.raises(ValueError):
            Tile.parse(text)
