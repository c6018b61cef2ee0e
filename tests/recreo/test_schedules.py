"""The packaged schedules keep the properties the rule book's tables have."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from amigos.recreo.formats import PLAYER_COUNTS, FormatKind, all_formats, format_for

ROUND_COUNTS = {4: 3, 5: 5, 6: 8, 7: 11, 8: 7, 12: 11, 16: 15}
TABLE_COUNTS = {4: 1, 5: 1, 6: 1, 7: 1, 8: 2, 12: 3, 16: 4}
NON_COUNTING = {(6, 8): {1, 4}, (7, 11): {3, 6}}


def test_seven_formats_and_their_families() -> None:
    assert [f.players for f in all_formats()] == list(PLAYER_COUNTS)
    for f in all_formats():
        assert f.kind is (FormatKind.RONDAS if f.players <= 7 else FormatKind.TODOS_CON_TODOS)
        assert len(f.rounds) == ROUND_COUNTS[f.players]
        assert all(len(r.tables) == TABLE_COUNTS[f.players] for r in f.rounds)
        assert [r.number for r in f.rounds] == list(range(1, len(f.rounds) + 1))
        assert all([t.table for t in r.tables] == list(range(1, len(r.tables) + 1)) for r in f.rounds)


def test_unknown_player_counts_have_no_format() -> None:
    for n in (0, 3, 9, 10, 11, 13, 17):
        with pytest.raises(KeyError):
            format_for(n)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_player_exactly_once_per_round(n: int) -> None:
    for rnd in format_for(n).rounds:
        seated = [p for t in rnd.tables for p in t.players]
        assert Counter(seated + list(rnd.resting)) == Counter(range(1, n + 1))
        assert sorted(rnd.resting) == sorted(set(range(1, n + 1)) - set(seated))
        assert len(rnd.resting) == n - 4 * len(rnd.tables)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_pair_partners_exactly_once_in_counting_games(n: int) -> None:
    partnerships: Counter[frozenset[int]] = Counter()
    for rnd in format_for(n).rounds:
        for table in rnd.tables:
            for pair in (table.pair_a, table.pair_b):
                if all(table.counts(p) for p in pair):
                    partnerships[frozenset(pair)] += 1
    assert partnerships == Counter(frozenset(c) for c in combinations(range(1, n + 1), 2))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_only_repeats_are_the_two_non_counting_games(n: int) -> None:
    seen: set[frozenset[int]] = set()
    repeats = []
    for rnd in format_for(n).rounds:
        for table in rnd.tables:
            for pair in (table.pair_a, table.pair_b):
                key = frozenset(pair)
                if key in seen:
                    repeats.append((rnd.number, set(pair)))
                seen.add(key)
            not_counting = {p for p in table.players if not table.counts(p)}
            assert not_counting == NON_COUNTING.get((n, rnd.number), set())
    expected = [(r, players) for (m, r), players in NON_COUNTING.items() if m == n]
    assert repeats == expected


def test_diagram_seats_agree_with_the_pairs() -> None:
    """In the drawn Rondas diagrams partners sit top/bottom and left/right."""
    for n in (4, 5, 6):
        for rnd in format_for(n).rounds:
            assert rnd.seats is not None
            table = rnd.tables[0]
            assert table.pair_a == (rnd.seats["top"], rnd.seats["bottom"])
            assert table.pair_b == (rnd.seats["left"], rnd.seats["right"])


def test_scorekeepers_of_todos_con_todos_sit_at_every_table() -> None:
    expected = {8: (1, 7, 8), 12: (1, 2, 3, 7, 11), 16: (1, 2, 3, 4, 5, 9, 13)}
    for n, keepers in expected.items():
        fmt = format_for(n)
        assert fmt.scorekeepers == keepers
        for rnd in fmt.rounds:
            for table in rnd.tables:
                assert set(keepers) & set(table.players), (n, rnd.number, table.table)
    assert all(format_for(n).scorekeepers == () for n in (4, 5, 6, 7))


def test_assignment_lookup() -> None:
    fmt = format_for(12)
    table = fmt.assignment(2, 2)
    assert table is not None
    assert (table.pair_a, table.pair_b) == ((1, 3), (10, 12))
    assert table.side_of(10) == "b"
    with pytest.raises(ValueError, match="does not play"):
        table.side_of(2)
    assert fmt.assignment(12, 1) is None
    assert fmt.assignment(1, 4) is None
