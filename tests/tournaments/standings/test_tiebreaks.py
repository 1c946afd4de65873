"""The tiebreak chain and its registry (tournaments/standings/tiebreaks.py).

Every expected value is worked out by hand beside it (the defaults: see helpers.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from core.names import Name
from tests.tournaments.standings.helpers import H2H_RESULTS, by_player, order, table
from tournaments.standings import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    StandingsRules,
    Tiebreak,
    compute_standings,
    tiebreaks,
)

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


def test_no_table_ranks_below_any_best_table_score():
    # Only best_table_score in the chain: 4's best is -30, 9 has no table at all, so 9 is last.
    rules = StandingsRules(tiebreaks=("best_table_score",))
    results = [table(1, 1, p1=30, p2=10, p3=-10, p4=-30)]
    standings = compute_standings(players=[9, 1, 2, 3, 4], results=results, rules=rules)
    assert [s.player for s in standings] == [1, 2, 3, 4, 9]


# H2H_RESULTS (helpers.py): eight players, two rounds, its totals worked out beside it.


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


# -- the registry ----------------------------------------------------------------------------------


def test_every_tiebreak_has_a_name_and_a_key():
    assert list(TIEBREAKS) == list(DEFAULT_TIEBREAKS)  # shown to people in the default order
    for code, tiebreak in TIEBREAKS.items():
        assert tiebreak.code == code
        assert isinstance(tiebreak.name, Name)
        assert tiebreak.name.zh and tiebreak.name.en
        assert callable(tiebreak.key)
    # what the API shows beside a code
    assert TIEBREAKS["placement_points"].name.as_dict() == {
        "zh": "名次分",
        "en": "Placement points",
    }
    assert TIEBREAKS["head_to_head"].name == Name("相互胜负", "Head-to-head")
    # only head-to-head depends on who is still tied
    assert [code for code, t in TIEBREAKS.items() if t.prepare] == ["head_to_head"]


def test_codes_are_checked_against_the_registry():
    # the services check a tournament's codes this way
    assert "table_score" in TIEBREAKS
    assert "coin_flip" not in TIEBREAKS
    with pytest.raises(TypeError):
        TIEBREAKS["coin_flip"] = TIEBREAKS["table_score"]  # type: ignore[index]


def test_adding_a_tiebreak_is_adding_one_entry(monkeypatch):
    # A new criterion, fewest byes, read from the player's rounds: one registry entry.
    fewest_byes = Tiebreak(
        "fewest_byes", Name("轮空次数少", "Fewest byes"), lambda t: -sum(e.bye for e in t.entries)
    )
    monkeypatch.setitem(tiebreaks._ENTRIES, "fewest_byes", fewest_byes)
    assert "fewest_byes" in TIEBREAKS
    # One round: 1 (4), 2 (2), 3 (1), 4 (0); 5 has the bye, worth 2 here, as much as 2nd place.
    results = [table(1, 1, p1=30, p2=10, p3=-10, p4=-30)]
    byes = [(1, 5)]
    alone = StandingsRules(tiebreaks=("placement_points",), bye_points=F(2))
    # placement points alone: 2 and 5 share rank 2 (2 points each)
    standings = compute_standings(players=range(1, 6), results=results, byes=byes, rules=alone)
    assert order(standings) == [(1, 1), (2, 2), (2, 5), (4, 3), (5, 4)]
    # then fewest byes: 2 (no bye) above 5 (one bye)
    rules = StandingsRules(tiebreaks=("placement_points", "fewest_byes"), bye_points=F(2))
    standings = compute_standings(players=range(1, 6), results=results, byes=byes, rules=rules)
    assert order(standings) == [(1, 1), (2, 2), (3, 5), (4, 3), (5, 4)]
