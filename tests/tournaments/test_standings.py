"""Standings (``tournaments.standings``): placement points, byes, the tiebreak chain, validation.

Plain Python, no database. Every expected value is worked out by hand in the comment beside
it; the default placement points are 4/2/1/0 for 1st-4th, and the default bye scores 7/4
placement points and 0 table score.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    DEFAULT_PLACEMENT_POINTS,
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    RoundEntry,
    StandingsError,
    StandingsRules,
    TableResult,
    compute_standings,
    mean_placement_points,
    placement_points,
)


def table(rnd: int, number: int, **scores: int) -> TableResult:
    """A table result from keyword seats: ``table(1, 1, p1=10, p2=-10, ...)`` -> player 1 ..."""
    return TableResult(rnd, number, tuple((int(k[1:]), v) for k, v in scores.items()))


def by_player(standings):
    return {s.player: s for s in standings}


def order(standings):
    return [(s.rank, s.player) for s in standings]


# -- placement points at one table ---------------------------------------------------------------


def test_defaults():
    assert DEFAULT_PLACEMENT_POINTS == (4, 2, 1, 0)
    assert DEFAULT_TIEBREAKS == (
        "placement_points",
        "table_score",
        "first_places",
        "best_table_score",
        "head_to_head",
    )
    assert frozenset(DEFAULT_TIEBREAKS) == TIEBREAKS
    # (4 + 2 + 1 + 0) / 4 = 7/4, the default bye
    assert mean_placement_points() == F(7, 4)
    assert StandingsRules().bye_points == F(7, 4)


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


# -- standings: totals, places, byes --------------------------------------------------------------


def test_round_entries_places_and_exact_totals():
    points = (3, F(3, 2), F(1, 2), 0)
    rules = StandingsRules(placement_points=points, bye_points=F(1, 1))
    results = [
        # round 1: 1 and 2 share 1st-2nd: (3 + 3/2) / 2 = 9/4 each, place (1 + 2) / 2 = 3/2;
        # 3 is 3rd (1/2), 4 is 4th (0)
        table(1, 1, p1=10, p2=10, p3=-5, p4=-15),
        # round 2: 1 alone 1st (3, place 1); 2, 3, 4 share 2nd-4th: (3/2 + 1/2 + 0) / 3 = 2/3,
        # place (2 + 3 + 4) / 3 = 3
        table(2, 1, p2=-4, p3=-4, p1=12, p4=-4),
    ]
    s = by_player(compute_standings(players=[1, 2, 3, 4], results=results, rules=rules))
    # player 1: 9/4 + 3 = 21/4, table score 10 + 12 = 22, firsts 2 (a shared first counts)
    assert s[1].placement_points == F(21, 4)
    assert s[1].table_score == 22
    assert s[1].first_places == 2
    assert s[1].best_table_score == 12
    assert s[1].rounds == (
        RoundEntry(1, 1, 10, F(9, 4), F(3, 2), False),
        RoundEntry(2, 1, 12, F(3), F(1), False),
    )
    # player 2: 9/4 + 2/3 = 27/12 + 8/12 = 35/12, table score 10 - 4 = 6, one (shared) first
    assert s[2].placement_points == F(35, 12)
    assert s[2].first_places == 1
    assert s[2].rounds[1] == RoundEntry(2, 1, -4, F(2, 3), F(3), False)
    # player 3: 1/2 + 2/3 = 7/6; player 4: 0 + 2/3 = 2/3
    assert s[3].placement_points == F(7, 6)
    assert s[4].placement_points == F(2, 3)
    # four-way tie at a table: place (1 + 2 + 3 + 4) / 4 = 5/2, points 7/4 with 4/2/1/0
    (one,) = compute_standings(players=[1, 2, 3, 4], results=[table(1, 1, p1=0, p2=0, p3=0, p4=0)])[
        :1
    ]
    assert one.rounds == (RoundEntry(1, 1, 0, F(7, 4), F(5, 2), False),)


def test_points_in_quarters_and_thirds_stay_exact():
    # Shares can have a larger denominator than any point in the table: (1/4 + 0) / 2 = 1/8.
    rules = StandingsRules(placement_points=(1, F(1, 4), 0, 0), bye_points=F(1, 3))
    results = [
        # 1 first (1); 2 and 3 share 2nd-3rd: (1/4 + 0) / 2 = 1/8 each; 4 last (0)
        table(1, 1, p1=10, p2=0, p3=0, p4=-10),
        # 2 first (1); 1 second (1/4); 3 and 4 third and fourth (0)
        table(2, 1, p2=10, p1=5, p3=-7, p4=-8),
    ]
    standings = compute_standings(
        players=[1, 2, 3, 4, 5], results=results, byes=[(1, 5), (2, 5)], rules=rules
    )
    # 1: 1 + 1/4 = 5/4; 2: 1/8 + 1 = 9/8; 5: two byes, 1/3 + 1/3 = 2/3; 3: 1/8 + 0; 4: 0
    assert [(s.player, s.placement_points) for s in standings] == [
        (1, F(5, 4)),
        (2, F(9, 8)),
        (5, F(2, 3)),
        (3, F(1, 8)),
        (4, 0),
    ]


def test_byes():
    results = [
        # round 1: 1 (4), 2 (2), 3 (1), 4 (0); player 5 has the bye
        table(1, 1, p1=30, p2=10, p3=-10, p4=-30),
        # round 2: 2 (4), 5 (2), 3 (1), 4 (0); player 1 has the bye
        table(2, 1, p2=25, p5=5, p3=-10, p4=-20),
    ]
    standings = compute_standings(players=[1, 2, 3, 4, 5], results=results, byes=[(1, 5), (2, 1)])
    s = by_player(standings)
    # 2: 2 + 4 = 6; 1: 4 + 7/4 = 23/4; 5: 7/4 + 2 = 15/4; 3: 1 + 1 = 2; 4: 0 + 0 = 0
    assert order(standings) == [(1, 2), (2, 1), (3, 5), (4, 3), (5, 4)]
    assert s[1].placement_points == F(23, 4)
    assert s[5].placement_points == F(15, 4)
    # a bye scores table score 0 here: 30 + 0 and 5 + 0
    assert (s[1].table_score, s[5].table_score) == (30, 5)
    # byes are counted apart from the tables played
    assert (s[1].rounds_played, s[1].byes) == (1, 1)
    assert (s[2].rounds_played, s[2].byes) == (2, 0)
    assert s[1].rounds == (
        RoundEntry(1, 1, 30, F(4), F(1), False),
        RoundEntry(2, None, 0, F(7, 4), None, True),
    )
    assert s[5].rounds[0] == RoundEntry(1, None, 0, F(7, 4), None, True)


def test_a_bye_is_not_a_first_place_nor_a_table():
    # The bye here is worth as much as a first place (4) and more table score (50) than any
    # table, yet it adds no first place and is not the best single table score.
    rules = StandingsRules(bye_points=F(4), bye_table_score=50)
    results = [table(1, 1, p1=30, p2=10, p3=-10, p4=-30)]
    s = by_player(
        compute_standings(
            players=[1, 2, 3, 4, 5], results=results, byes=[(1, 5), (2, 1)], rules=rules
        )
    )
    # player 1: 4 + 4 = 8 points, 30 + 50 = 80 table score, one first place, best 30
    assert (s[1].placement_points, s[1].table_score) == (8, 80)
    assert (s[1].first_places, s[1].best_table_score) == (1, 30)
    # player 5 only had the bye: no first place, no table, so no best table score
    assert (s[5].placement_points, s[5].table_score) == (4, 50)
    assert (s[5].first_places, s[5].best_table_score, s[5].rounds_played) == (0, None, 0)


def test_player_without_results_ranks_on_zero_totals():
    results = [table(1, 1, p1=30, p2=10, p3=-10, p4=-30)]
    standings = compute_standings(players=[9, 1, 2, 3, 4], results=results)
    # 9 played nothing: 0 points like 4, but table score 0 against 4's -30 puts 9 ahead
    assert order(standings) == [(1, 1), (2, 2), (3, 3), (4, 9), (5, 4)]
    nine = by_player(standings)[9]
    assert (nine.placement_points, nine.rounds_played, nine.best_table_score) == (0, 0, None)
    assert nine.rounds == ()


def test_no_table_ranks_below_any_best_table_score():
    # Only best_table_score in the chain: 4's best is -30, 9 has no table at all, so 9 is last.
    rules = StandingsRules(tiebreaks=("best_table_score",))
    results = [table(1, 1, p1=30, p2=10, p3=-10, p4=-30)]
    standings = compute_standings(players=[9, 1, 2, 3, 4], results=results, rules=rules)
    assert [s.player for s in standings] == [1, 2, 3, 4, 9]


# -- the tiebreak chain ----------------------------------------------------------------------------


def test_placement_points_decide_first():
    results = [
        table(1, 1, p4=60, p1=10, p2=-30, p3=-40),  # 4: 4, 1: 2, 2: 1, 3: 0
        table(2, 1, p1=5, p2=4, p3=-4, p4=-5),  # 1: 4, 2: 2, 3: 1, 4: 0
    ]
    standings = compute_standings(players=[1, 2, 3, 4], results=results)
    # 1: 2 + 4 = 6 points (table score 15); 4: 4 + 0 = 4 points with the best table score
    # total, 60 - 5 = 55; 2: 1 + 2 = 3; 3: 0 + 1 = 1
    assert order(standings) == [(1, 1), (2, 4), (3, 2), (4, 3)]
    assert [s.placement_points for s in standings] == [6, 4, 3, 1]
    assert [s.table_score for s in standings] == [15, 55, -26, -44]
    assert not any(s.shared for s in standings)


def test_table_score_decides_equal_placement_points():
    results = [
        table(1, 1, p1=10, p2=5, p3=-5, p4=-10),  # 1: 4, 2: 2, 3: 1, 4: 0
        table(2, 1, p2=30, p1=20, p3=-20, p4=-30),  # 2: 4, 1: 2, 3: 1, 4: 0
    ]
    standings = compute_standings(players=[1, 2, 3, 4], results=results)
    s = by_player(standings)
    # 1 and 2 both have 4 + 2 = 6 points; table score 1: 10 + 20 = 30, 2: 5 + 30 = 35
    assert (s[1].placement_points, s[2].placement_points) == (6, 6)
    assert (s[1].table_score, s[2].table_score) == (30, 35)
    assert order(standings) == [(1, 2), (2, 1), (3, 3), (4, 4)]


def test_first_places_decide_equal_points_and_table_score():
    results = [
        table(1, 1, p1=60, p2=0, p3=-20, p4=-40),  # 1: 4, 2: 2, 3: 1, 4: 0
        table(2, 1, p3=80, p2=10, p4=-40, p1=-50),  # 3: 4, 2: 2, 4: 1, 1: 0
    ]
    standings = compute_standings(players=[1, 2, 3, 4], results=results)
    s = by_player(standings)
    # 1: 4 + 0 = 4 points, 60 - 50 = 10; 2: 2 + 2 = 4 points, 0 + 10 = 10; 1 has a first place
    assert (s[1].placement_points, s[1].table_score, s[1].first_places) == (4, 10, 1)
    assert (s[2].placement_points, s[2].table_score, s[2].first_places) == (4, 10, 0)
    # 3: 1 + 4 = 5 points leads; 4: 0 + 1 = 1 point is last
    assert order(standings) == [(1, 3), (2, 1), (3, 2), (4, 4)]


def test_best_table_score_decides_equal_points_score_and_firsts():
    results = [
        table(1, 1, p1=50, p3=0, p4=-10, p2=-40),  # 1: 4, 3: 2, 4: 1, 2: 0
        table(2, 1, p2=30, p3=20, p4=10, p1=-60),  # 2: 4, 3: 2, 4: 1, 1: 0
    ]
    standings = compute_standings(players=[1, 2, 3, 4], results=results)
    s = by_player(standings)
    # 1 and 2: 4 + 0 = 4 points, table score 50 - 60 = -10 and -40 + 30 = -10, one first each;
    # best single table 50 against 30
    for p in (1, 2):
        assert (s[p].placement_points, s[p].table_score, s[p].first_places) == (4, -10, 1)
    assert (s[1].best_table_score, s[2].best_table_score) == (50, 30)
    # 3: 2 + 2 = 4 points too, but table score 0 + 20 = 20 puts it first; 4: 1 + 1 = 2 last
    assert order(standings) == [(1, 3), (2, 1), (3, 2), (4, 4)]


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


def test_head_to_head_decides_among_the_tied_only():
    standings = compute_standings(players=range(1, 9), results=H2H_RESULTS)
    s = by_player(standings)
    for p in (1, 2):
        assert (s[p].placement_points, s[p].table_score) == (3, 0)
        assert (s[p].first_places, s[p].best_table_score) == (0, 10)
    # 6 also has 3 points but table score -10, so only 1 and 2 reach head-to-head. They met
    # once, 1 above 2: 1 gets +1, 2 gets -1. The other players at their tables are not tied
    # with them and do not count: counting everyone would give 1: (+2 - 1) - 1 = 0 and
    # 2: (+1 - 2) + 1 = 0, a tie.
    assert (s[1].head_to_head, s[2].head_to_head) == (1, -1)
    # head-to-head was never used for the others
    assert all(s[p].head_to_head == 0 for p in (3, 4, 5, 6, 7, 8))
    # 3 (8), 5 (6), 4 (4), 1 and 2 (3, table score 0), 6 (3, -10), 7 (1), 8 (0)
    assert order(standings) == [(1, 3), (2, 5), (3, 4), (4, 1), (5, 2), (6, 6), (7, 7), (8, 8)]
    assert not any(x.shared for x in standings)


def test_head_to_head_alone_over_the_whole_field():
    # With head-to-head as the only criterion everyone is tied when it is applied, so it counts
    # every meeting: no ties at these tables, so a table gives 1st +3, 2nd +1, 3rd -1, 4th -3.
    #   1: +1 - 1 = 0   2: -1 + 1 = 0   3: +3 + 3 = 6   4: -3 + 3 = 0
    #   5: +3 + 1 = 4   6: +1 - 1 = 0   7: -1 - 3 = -4  8: -3 - 3 = -6
    rules = StandingsRules(tiebreaks=("head_to_head",))
    standings = compute_standings(players=range(1, 9), results=H2H_RESULTS, rules=rules)
    assert [(s.player, s.head_to_head) for s in standings] == [
        (3, 6),
        (5, 4),
        (1, 0),
        (2, 0),
        (4, 0),
        (6, 0),
        (7, -4),
        (8, -6),
    ]
    # 1, 2, 4 and 6 stay tied on 0: they share rank 3, listed by id; 7 is then 7th
    assert order(standings) == [(1, 3), (2, 5), (3, 1), (3, 2), (3, 4), (3, 6), (7, 7), (8, 8)]
    assert [s.shared for s in standings] == [False, False, True, True, True, True, False, False]


def test_head_to_head_tie_at_the_table_counts_zero():
    # Four players tied on points: 1 and 2 met and tied at the table (0 each), so did 3 and 6;
    # 1 and 2 never met 3 or 6. Head-to-head is 0 for all four and they stay tied.
    results = [
        table(1, 1, p1=10, p2=10, p4=-5, p5=-15),  # 1, 2: 3 points each, best 10
        table(2, 1, p3=10, p6=10, p4=-5, p5=-15),  # 3, 6: 3 points each, best 10
    ]
    rules = StandingsRules(tiebreaks=("placement_points", "head_to_head"))
    standings = compute_standings(players=range(1, 7), results=results, rules=rules)
    s = by_player(standings)
    # 1, 2, 3, 6 have 3 points, 4 has 1 + 1 = 2, 5 has 0
    assert [s[p].head_to_head for p in (1, 2, 3, 6)] == [0, 0, 0, 0]
    assert order(standings) == [(1, 1), (1, 2), (1, 3), (1, 6), (5, 4), (6, 5)]


def test_full_tie_shares_the_rank_and_lists_by_id():
    # 7 and 3 tie for 1st: (4 + 2) / 2 = 3 each, same table score, each counted a first place,
    # same best, head-to-head 0 (tied at the table): they share rank 1, 3 listed before 7;
    # 5 is then 3rd and 1 is 4th.
    standings = compute_standings(
        players=[7, 5, 3, 1], results=[table(1, 1, p7=10, p3=10, p5=-5, p1=-15)]
    )
    assert order(standings) == [(1, 3), (1, 7), (3, 5), (4, 1)]
    assert [s.shared for s in standings] == [True, True, False, False]
    assert [s.first_places for s in standings] == [1, 1, 0, 0]
    assert [s.placement_points for s in standings] == [3, 3, 1, 0]


def test_ranks_1_2_2_4():
    # 2 and 3 tie for 2nd: (2 + 1) / 2 = 3/2 each, equal on everything after
    standings = compute_standings(
        players=[1, 2, 3, 4], results=[table(1, 1, p1=20, p3=0, p2=0, p4=-20)]
    )
    assert [s.rank for s in standings] == [1, 2, 2, 4]
    assert [s.player for s in standings] == [1, 2, 3, 4]
    assert [s.placement_points for s in standings] == [4, F(3, 2), F(3, 2), 0]


def test_custom_chain_order_and_subset():
    # Table score first, then placement points, nothing else (see H2H_RESULTS totals):
    # 3 (70), 5 (40), then table score 0: 4 (4 points), 1 and 2 (3 points, still tied, no
    # further criterion: shared rank 4), 6 (-10), 8 (-45), 7 (-55).
    rules = StandingsRules(tiebreaks=("table_score", "placement_points"))
    standings = compute_standings(players=range(1, 9), results=H2H_RESULTS, rules=rules)
    assert order(standings) == [(1, 3), (2, 5), (3, 4), (4, 1), (4, 2), (6, 6), (7, 8), (8, 7)]
    assert all(s.head_to_head == 0 for s in standings)


def test_first_places_before_placement_points():
    # The tables of test_best_table_score_...: 1 and 2 have one first place each, 4 points and
    # table score -10; 3 has 4 points, table score 20 and no first place; 4 has 2 points.
    # First places first: 1 and 2 lead and, equal on points and table score, share rank 1
    # (best table score is not in this chain); 3 is 3rd although it leads by default.
    results = [
        table(1, 1, p1=50, p3=0, p4=-10, p2=-40),
        table(2, 1, p2=30, p3=20, p4=10, p1=-60),
    ]
    rules = StandingsRules(tiebreaks=("first_places", "placement_points", "table_score"))
    standings = compute_standings(players=[1, 2, 3, 4], results=results, rules=rules)
    assert order(standings) == [(1, 1), (1, 2), (3, 3), (4, 4)]


def test_empty_chain_ties_everyone():
    standings = compute_standings(
        players=[2, 1, 3, 4],
        results=[table(1, 1, p1=20, p2=10, p3=-10, p4=-20)],
        rules=StandingsRules(tiebreaks=()),
    )
    assert order(standings) == [(1, 1), (1, 2), (1, 3), (1, 4)]


def test_unknown_and_duplicate_tiebreak():
    with pytest.raises(StandingsError) as err:
        StandingsRules(tiebreaks=("placement_points", "coin_flip"))
    assert err.value.code == "unknown_tiebreak"
    assert "coin_flip" in err.value.message
    with pytest.raises(StandingsError) as err:
        StandingsRules(tiebreaks="table_score_total")
    assert err.value.code == "unknown_tiebreak"
    with pytest.raises(StandingsError) as err:
        StandingsRules(tiebreaks=("table_score", "table_score"))
    assert err.value.code == "duplicate_tiebreak"


def test_rules_refuse_bad_points_and_bye():
    with pytest.raises(StandingsError) as err:
        StandingsRules(placement_points=(4, 2, 1))
    assert err.value.code == "invalid_placement_points"
    with pytest.raises(StandingsError) as err:
        StandingsRules(placement_points=(4, 2, 0.5, 0))
    assert err.value.code == "invalid_placement_points"
    with pytest.raises(StandingsError) as err:
        StandingsRules(bye_points=1.75)
    assert err.value.code == "invalid_bye_score"
    with pytest.raises(StandingsError) as err:
        StandingsRules(bye_table_score=F(1, 2))
    assert err.value.code == "invalid_bye_score"
    # lists are accepted and kept as tuples, so rules stay hashable
    rules = StandingsRules(placement_points=[3, 2, 1, 0], tiebreaks=["table_score"])
    assert rules.placement_points == (3, 2, 1, 0)
    assert rules.tiebreaks == ("table_score",)
    assert hash(rules)


# -- withdrawn players -----------------------------------------------------------------------------


def test_withdrawn_players_keep_results_and_rank():
    results = H2H_RESULTS
    plain = compute_standings(players=range(1, 9), results=results)
    flagged = compute_standings(players=range(1, 9), results=results, withdrawn=[5])
    assert order(flagged) == order(plain)
    s = by_player(flagged)
    # 5 still has 4 + 2 = 6 points and rank 2, only flagged
    assert (s[5].withdrawn, s[5].rank, s[5].placement_points) == (True, 2, 6)
    assert [p for p, x in s.items() if x.withdrawn] == [5]


# -- validation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "byes", "code"),
    [
        # 10 + 5 - 5 - 9 = 1
        ([table(1, 1, p1=10, p2=5, p3=-5, p4=-9)], [], "not_zero_sum"),
        ([table(1, 1, p1=10, p2=-5, p3=-5)], [], "table_size"),
        ([TableResult(1, 1, ((1, 5), (2, -5), (3, 0), (4, 0), (5, 0)))], [], "table_size"),
        ([TableResult(1, 1, ((1, 5), (1, -5), (3, 0), (4, 0)))], [], "player_twice_at_table"),
        ([TableResult(1, 1, ((1, 5), (2, -5.0), (3, 0), (4, 0)))], [], "score_not_integer"),
        ([TableResult(1, 1, ((1, 5), (2, -5), (3, 0), (99, 0)))], [], "unknown_player"),
        ([TableResult(1, 1, ((1, 5), (2, -5), (3, 0), (4,)))], [], "invalid_seat"),
        ([TableResult(0, 1, ((1, 5), (2, -5), (3, 0), (4, 0)))], [], "invalid_round"),
        ([TableResult(1, None, ((1, 5), (2, -5), (3, 0), (4, 0)))], [], "invalid_table"),
        # player 1 at tables 1 and 2 of round 1
        (
            [table(1, 1, p1=1, p2=-1, p3=0, p4=0), table(1, 2, p1=1, p5=-1, p6=0, p7=0)],
            [],
            "player_twice_in_round",
        ),
        # the same table number twice in a round
        (
            [table(1, 1, p1=1, p2=-1, p3=0, p4=0), table(1, 1, p5=1, p6=-1, p7=0, p8=0)],
            [],
            "duplicate_table",
        ),
        # seated and on a bye in the same round; a bye twice in a round
        ([table(1, 1, p1=1, p2=-1, p3=0, p4=0)], [(1, 1)], "player_twice_in_round"),
        ([], [(1, 5), (1, 5)], "player_twice_in_round"),
        ([], [(1, 99)], "unknown_player"),
        ([], [(0, 5)], "invalid_round"),
        ([], [(1,)], "invalid_bye"),
    ],
)
def test_validation(results, byes, code):
    with pytest.raises(StandingsError) as err:
        compute_standings(players=range(1, 9), results=results, byes=byes)
    assert err.value.code == code
    assert err.value.message == str(err.value)
    assert isinstance(err.value, ValueError)


def test_same_player_in_other_rounds_is_fine():
    results = [table(1, 1, p1=1, p2=-1, p3=0, p4=0), table(2, 1, p1=1, p2=-1, p3=0, p4=0)]
    assert len(compute_standings(players=[1, 2, 3, 4], results=results)) == 4


def test_registration_errors():
    with pytest.raises(StandingsError) as err:
        compute_standings(players=[1, 2, 2], results=[])
    assert err.value.code == "duplicate_player"
    with pytest.raises(StandingsError) as err:
        compute_standings(players=[1, 2], results=[], withdrawn=[3])
    assert err.value.code == "unknown_player"
    assert compute_standings(players=[], results=[]) == ()


def test_results_and_errors_pickle():
    # Both cross process boundaries in the Celery task.
    standings = compute_standings(players=range(1, 9), results=H2H_RESULTS, byes=[(3, 1)])
    assert pickle.loads(pickle.dumps(standings)) == standings
    err = pickle.loads(pickle.dumps(StandingsError("not_zero_sum", "round 1 table 1: ...")))
    assert (err.code, err.message) == ("not_zero_sum", "round 1 table 1: ...")


def test_messages_name_the_table():
    with pytest.raises(StandingsError) as err:
        compute_standings(players=range(1, 5), results=[table(3, 2, p1=9, p2=0, p3=0, p4=0)])
    assert err.value.message == "round 3 table 2: table scores sum to 9, not 0"


# -- properties ------------------------------------------------------------------------------------

exact_points = st.one_of(
    st.integers(-10, 10),
    st.fractions(min_value=-10, max_value=10, max_denominator=12),
)


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


@st.composite
def tournaments(draw):
    n_players = draw(st.integers(4, 14))
    players = list(range(1, n_players + 1))
    results, byes = [], []
    for rnd in range(1, draw(st.integers(1, 4)) + 1):
        seating = draw(st.permutations(players))
        n_tables = n_players // 4
        for t in range(n_tables):
            # a narrow score range makes ties, at tables and in the standings, common
            three = draw(st.lists(st.integers(-3, 3), min_size=3, max_size=3))
            seats = seating[4 * t : 4 * t + 4]
            results.append(
                TableResult(rnd, t + 1, tuple(zip(seats, [*three, -sum(three)], strict=True)))
            )
        byes.extend((rnd, p) for p in seating[4 * n_tables :])
    tiebreaks = draw(st.permutations(DEFAULT_TIEBREAKS))
    tiebreaks = tiebreaks[: draw(st.integers(0, len(tiebreaks)))]
    points = draw(
        st.one_of(
            st.just(DEFAULT_PLACEMENT_POINTS),
            st.tuples(exact_points, exact_points, exact_points, exact_points),
        )
    )
    rules = StandingsRules(
        placement_points=points,
        tiebreaks=tuple(tiebreaks),
        bye_points=draw(exact_points),
        bye_table_score=draw(st.integers(-3, 3)),
    )
    withdrawn = draw(st.lists(st.sampled_from(players), unique=True, max_size=2))
    return players, results, byes, rules, withdrawn


def _shuffled_tables(results, rng):
    out = []
    for r in results:
        seats = list(r.scores)
        rng.shuffle(seats)
        out.append(TableResult(r.round, r.table, tuple(seats)))
    rng.shuffle(out)
    return out


@settings(max_examples=150, deadline=None)
@given(tournament=tournaments(), seed=st.integers(0, 2**32))
def test_input_order_does_not_change_the_standings(tournament, seed):
    players, results, byes, rules, withdrawn = tournament
    before = compute_standings(
        players=players, results=results, byes=byes, rules=rules, withdrawn=withdrawn
    )
    rng = random.Random(seed)
    players2, byes2, withdrawn2 = players[:], byes[:], withdrawn[:]
    for seq in (players2, byes2, withdrawn2):
        rng.shuffle(seq)
    after = compute_standings(
        players=players2,
        results=_shuffled_tables(results, rng),
        byes=byes2,
        rules=rules,
        withdrawn=withdrawn2,
    )
    assert after == before

    # and the totals are consistent: the whole points table per table, the bye score per bye
    per_table = sum(rules.placement_points)
    assert sum(s.placement_points for s in before) == (
        per_table * len(results) + rules.bye_points * len(byes)
    )
    assert sum(s.table_score for s in before) == rules.bye_table_score * len(byes)
    # ranks: 1, 2, 2, 4 style; a shared rank is listed by player id
    for i, s in enumerate(before):
        if i == 0:
            assert s.rank == 1
        else:
            prev = before[i - 1]
            assert s.rank in (prev.rank, i + 1)
            if s.rank == prev.rank:
                assert prev.player < s.player
        assert s.shared == any(o.rank == s.rank and o is not s for o in before)


def _reference(players, results, byes, rules):
    """Totals and order from scratch, by the definitions, for chains without head-to-head."""
    totals = {p: [F(0), 0, 0, None] for p in players}  # points, table score, firsts, best
    for r in results:
        shares = placement_points(r.scores, rules.placement_points)
        top = max(score for _, score in r.scores)
        for p, score in r.scores:
            t = totals[p]
            t[0] += shares[p]
            t[1] += score
            t[2] += score == top
            t[3] = score if t[3] is None else max(t[3], score)
    for _, p in byes:
        totals[p][0] += rules.bye_points
        totals[p][1] += rules.bye_table_score
    index = {
        "placement_points": 0,
        "table_score": 1,
        "first_places": 2,
        "best_table_score": 3,
    }

    def key(p):
        t = totals[p]
        return tuple(
            (t[3] is not None, t[3] or 0) if c == "best_table_score" else t[index[c]]
            for c in rules.tiebreaks
        )

    ranked = sorted(sorted(players), key=key, reverse=True)  # stable: full ties stay by id
    ranks = {p: 1 + sum(key(q) > key(p) for q in players) for p in players}
    return totals, ranked, ranks


@settings(max_examples=150, deadline=None)
@given(tournament=tournaments())
def test_matches_a_from_scratch_reference(tournament):
    players, results, byes, rules, withdrawn = tournament
    if "head_to_head" in rules.tiebreaks:
        rules = replace(rules, tiebreaks=tuple(c for c in rules.tiebreaks if c != "head_to_head"))
    standings = compute_standings(players=players, results=results, byes=byes, rules=rules)
    totals, ranked, ranks = _reference(players, results, byes, rules)
    assert [s.player for s in standings] == ranked
    for s in standings:
        assert s.rank == ranks[s.player]
        assert [s.placement_points, s.table_score, s.first_places, s.best_table_score] == (
            totals[s.player]
        )
        assert s.head_to_head == 0
