"""The soak bench's verdict on each sampled series and its plot (amigos.bench.soak)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from amigos.bench.soak import growth, svg_plot

values = st.floats(min_value=0, max_value=1e6, allow_nan=False)


@given(st.data())
def test_a_series_that_keeps_rising_grows(data: st.DataObject) -> None:
    start = data.draw(values)
    steps = data.draw(st.lists(st.floats(min_value=1, max_value=1000), min_size=6, max_size=60))
    series, level = [], start
    for step in steps:  # rising at every sample, by at least 1
        level += step
        series.append(level)
    # the last third's median is above the middle third's by more than a few steps: growth, as
    # long as that rise is larger than the tolerance allows
    third = len(series) // 3
    middle, last = sorted(series[third : 2 * third]), sorted(series[2 * third :])
    rise = last[len(last) // 2] - middle[len(middle) // 2]
    if rise > 0.1 * middle[len(middle) // 2] + 1e-9:
        assert growth(series) == "grows"


@given(st.data())
def test_a_step_then_a_plateau_and_noise_within_the_floor_are_flat(data: st.DataObject) -> None:
    base = data.draw(values)
    warm_up = data.draw(st.lists(values, min_size=2, max_size=20))
    plateau = data.draw(st.lists(st.floats(min_value=0, max_value=5), min_size=8, max_size=60))
    series = [*warm_up[: len(plateau) // 3], *(base + noise for noise in plateau)]
    assert growth(series, floor=5.0) in {"flat", "too_short"}


def test_too_few_samples_say_so() -> None:
    assert growth([1, 2, 3, 4, 5]) == "too_short"
    assert growth([10, 10, 10, 10, 10, 10]) == "flat"
    assert growth([10, 10, 10, 10, 20, 20]) == "grows"


@given(st.data())
def test_the_plot_is_well_formed_svg_with_one_line_per_series(data: st.DataObject) -> None:
    names = data.draw(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=5, unique=True))
    length = data.draw(st.integers(min_value=1, max_value=30))
    series = {name: data.draw(st.lists(values, min_size=length, max_size=length)) for name in names}
    seconds = [10.0 * moment for moment in range(length)]
    root = ET.fromstring(svg_plot(series, seconds, "soak <2 hosts>"))  # noqa: S314 - our own output
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == len(names)
