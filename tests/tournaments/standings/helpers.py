"""Helpers of the standings tests (tournaments/standings/): plain Python, no database.

Every expected value in the tests is worked out by hand in the comment beside it; the default
placement points are 4/2/1/0 for 1st-4th, and the default bye scores 7/4 placement points and
0 table score.
"""

from __future__ import annotations

from hypothesis import strategies as st

from tournaments.standings import TableResult


def table(rnd: int, number: int, **scores: int) -> TableResult:
    """A table result from keyword seats: ``table(1, 1, p1=10, p2=-10, ...)`` -> player 1 ..."""
    return TableResult(rnd, number, tuple((int(k[1:]), v) for k, v in scores.items()))


def by_player(standings):
    return {s.player: s for s in standings}


def order(standings):
    return [(s.rank, s.player) for s in standings]


# Eight players, two tables a round. Players 1 and 2 meet once (round 1, 1 above 2) and end equal
# on everything before head-to-head.
#   round 1 table 1: 3 30 (4), 1 10 (2), 2 -10 (1), 4 -30 (0)
#   round 1 table 2: 5 20 (4), 6 5 (2), 7 -5 (1), 8 -20 (0)
#   round 2 table 1: 3 40 (4), 5 20 (2), 1 -10 (1), 7 -50 (0)
#   round 2 table 2: 4 30 (4), 2 10 (2), 6 -15 (1), 8 -25 (0)
# Totals (points, table score, firsts, best):
#   1: 2 + 1 = 3, 10 - 10 = 0, 0, 10        2: 1 + 2 = 3, -10 + 10 = 0, 0, 10
#   3: 4 + 4 = 8, 70                        4: 0 + 4 = 4, 0
#   5: 4 + 2 = 6, 40                        6: 2 + 1 = 3, 5 - 15 = -10
#   7: 1 + 0 = 1, -55                       8: 0 + 0 = 0, -45
H2H_RESULTS = [
    table(1, 1, p3=30, p1=10, p2=-10, p4=-30),
    table(1, 2, p5=20, p6=5, p7=-5, p8=-20),
    table(2, 1, p3=40, p5=20, p1=-10, p7=-50),
    table(2, 2, p4=30, p2=10, p6=-15, p8=-25),
]


exact_points = st.one_of(
    st.integers(-10, 10),
    st.fractions(min_value=-10, max_value=10, max_denominator=12),
)
