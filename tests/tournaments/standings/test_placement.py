"""Placement points at one table (tournaments/standings/placement.py), ties sharing.

Every expected value is worked out by hand beside it (the defaults: see helpers.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.standings.helpers import exact_points
from tournaments.standings import StandingsError, placement_points


def test_no_ties_4_2_1_0():
    # Seat order is not finishing order: 30 > 10 > -15 > -25 gives players 1, 2, 3, 4 the
    # points of 1st (4), 2nd (2), 3rd (1), 4th (0).
    got = placement_points([(3, -15), (1, 30), (4, -25), (2, 10)])
    assert got == {1: 4, 2: 2, 3: 1, 4: 0}
    assert all(isinstance(v, F) for v in got.values())


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # two tied for 1st share (4 + 2) / 2 = 3; then 3rd = 1, 4th = 0
        ([(1, 20), (2, 20), (3, -10), (4, -30)], {1: 3, 2: 3, 3: 1, 4: 0}),
        # two tied for 2nd share (2 + 1) / 2 = 3/2
        ([(1, 20), (2, 0), (3, 0), (4, -20)], {1: 4, 2: F(3, 2), 3: F(3, 2), 4: 0}),
        # two tied for 3rd share (1 + 0) / 2 = 1/2
        ([(1, 20), (2, 10), (3, -15), (4, -15)], {1: 4, 2: 2, 3: F(1, 2), 4: F(1, 2)}),
        # two pairs: 1st-2nd share 3, 3rd-4th share 1/2
        ([(1, 5), (2, 5), (3, -5), (4, -5)], {1: 3, 2: 3, 3: F(1, 2), 4: F(1, 2)}),
        # three tied for 1st share (4 + 2 + 1) / 3 = 7/3; the last gets 0
        ([(1, 10), (2, 10), (3, 10), (4, -30)], {1: F(7, 3), 2: F(7, 3), 3: F(7, 3), 4: 0}),
        # three tied for 2nd share (2 + 1 + 0) / 3 = 1
        ([(1, 30), (2, -10), (3, -10), (4, -10)], {1: 4, 2: 1, 3: 1, 4: 1}),
        # four-way tie: (4 + 2 + 1 + 0) / 4 = 7/4 each
        ([(1, 0), (2, 0), (3, 0), (4, 0)], {1: F(7, 4), 2: F(7, 4), 3: F(7, 4), 4: F(7, 4)}),
    ],
)
def test_ties_share_the_places_they_span(scores, expected):
    assert placement_points(scores) == expected


def test_fractional_points_table():
    points = (3, F(3, 2), F(1, 2), 0)
    # 1st and 2nd tied: (3 + 3/2) / 2 = 9/4; 3rd and 4th tied: (1/2 + 0) / 2 = 1/4
    got = placement_points([(1, 8), (2, 8), (3, -8), (4, -8)], points)
    assert got == {1: F(9, 4), 2: F(9, 4), 3: F(1, 4), 4: F(1, 4)}
    # three tied for 2nd: (3/2 + 1/2 + 0) / 3 = 2/3
    got = placement_points([(1, 9), (2, -3), (3, -3), (4, -3)], points)
    assert got == {1: 3, 2: F(2, 3), 3: F(2, 3), 4: F(2, 3)}


def test_placement_points_refuses_bad_input():
    with pytest.raises(StandingsError) as err:
        placement_points([(1, 1), (2, 0), (3, -1)])
    assert err.value.code == "table_size"
    with pytest.raises(StandingsError) as err:
        placement_points([(1, 1), (1, 0), (3, -1), (4, 0)])
    assert err.value.code == "player_twice_at_table"
    with pytest.raises(StandingsError) as err:
        placement_points([(1, 1.5), (2, 0), (3, -1), (4, -0.5)])
    assert err.value.code == "score_not_integer"
    with pytest.raises(StandingsError) as err:
        placement_points([(1, 1), (2, 0), (3, -1), (4, 0)], (4.0, 2, 1, 0))
    assert err.value.code == "invalid_placement_points"


# -- properties ------------------------------------------------------------------------------------


@given(
    scores=st.lists(st.integers(-5, 5), min_size=4, max_size=4),
    points=st.tuples(exact_points, exact_points, exact_points, exact_points),
)
def test_table_points_add_up_to_the_points_table(scores, points):
    got = placement_points(list(enumerate(scores, start=1)), points)
    assert sum(got.values()) == sum(points)
    # equal scores, equal points
    for a, sa in enumerate(scores, start=1):
        for b, sb in enumerate(scores, start=1):
            if sa == sb:
                assert got[a] == got[b]
