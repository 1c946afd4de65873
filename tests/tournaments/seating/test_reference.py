"""The greedy swiss reference every method must match or beat (tournaments/seating/reference.py)."""

from __future__ import annotations

from tournaments.seating import RoundSeating, greedy_swiss


def test_greedy_swiss_reference() -> None:
    r1 = RoundSeating.from_groups([[1, 2, 3, 4], [5, 6, 7, 8]])
    rnd = greedy_swiss([1, 2, 5, 6, 3, 4, 7, 8, 9], [r1])
    assert rnd.byes == (9,)
    # 1 takes 5, nobody else is new to both; then simply the next in order
    assert [t.players for t in rnd.tables] == [(1, 5, 2, 6), (3, 7, 4, 8)]
    round2 = RoundSeating.from_groups([[1, 5, 9, 13], [2, 6, 10, 14]])
    rnd = greedy_swiss(list(range(1, 17)), [round2])
    assert [t.players for t in rnd.tables] == [
        (1, 2, 3, 4),
        (5, 6, 7, 8),
        (9, 10, 11, 12),
        (13, 14, 15, 16),
    ]
