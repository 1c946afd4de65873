"""The quality figures of a seating (tournaments/seating/quality.py)."""

from __future__ import annotations

from tournaments.seating import RoundSeating, TableSeating, quality


def test_quality_figures() -> None:
    r1 = RoundSeating((TableSeating(1, (1, 2, 3, 4)), TableSeating(2, (5, 6, 7, 8))))
    r2 = RoundSeating((TableSeating(1, (1, 2, 5, 6)), TableSeating(2, (3, 4, 7, 8))))
    r3 = RoundSeating((TableSeating(1, (1, 2, 7, 8)), TableSeating(2, (3, 4, 5, 6))))
    q = quality([r1, r2], r3)
    # 1-2, 3-4, 5-6 and 7-8 meet in every round: two repeats each, one of them in round 3
    assert q.repeated_pairs == 8
    assert q.repeated_pairs_round == 4
    assert q.max_meetings == 3
    assert q.seat_spread == 3  # player 1 was first dealer three times, never in seats 1-3
    assert q.table_spread == 2  # player 1 sat at table 1 three times
    assert quality([r1, r2], r3, pinned={1, 2}).table_spread == 1
    assert set(q.as_dict()) == {
        "repeated_pairs", "repeated_pairs_round", "max_meetings", "seat_spread", "table_spread",
    }  # fmt: skip
