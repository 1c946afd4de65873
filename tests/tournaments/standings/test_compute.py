"""``compute_standings`` (tournaments/standings/compute.py): totals, places, byes, withdrawn
players, validation.

Every expected value is worked out by hand beside it (the defaults: see helpers.py).
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.standings.helpers import H2H_RESULTS, by_player, exact_points, order, table
from tournaments.standings import (
    DEFAULT_PLACEMENT_POINTS,
    DEFAULT_TIEBREAKS,
    RoundEntry,
    StandingsError,
    StandingsRules,
    TableResult,
    compute_standings,
    placement_points,
)

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


# -- penalties ------------------------------------------------------------------------------------


def test_a_penalty_comes_off_the_placement_points_and_moves_the_rank():
    """Two tables, 4/2/1/0. Round 1: 1 +30 (4), 2 +10 (2), 3 −10 (1), 4 −30 (0). Round 2: 2 +20
    (4), 1 +5 (2), 4 −5 (1), 3 −20 (0). Totals 1: 6, 2: 6, 3: 1, 4: 1. Without penalty 1 and 2
    tie on points, 1 is first on table score (35 > 30). The referee takes 1 point off player 1
    for a 诈胡 and 2 more for being late (3 in all): 1 has 6 − 3 = 3 and falls to 2nd behind
    2's 6, still above 3 and 4 (1 point each; 3 before 4 on table score, −30 > −35)."""
    results = [
        table(1, 1, p1=30, p2=10, p3=-10, p4=-30),
        table(2, 1, p2=20, p1=5, p4=-5, p3=-20),
    ]
    plain = by_player(compute_standings(players=[1, 2, 3, 4], results=results))
    assert (plain[1].rank, plain[2].rank) == (1, 2)
    assert plain[1].penalty == 0

    s = compute_standings(players=[1, 2, 3, 4], results=results, penalties=[(1, 1), (1, 2)])
    assert order(s) == [(1, 2), (2, 1), (3, 3), (4, 4)]  # (rank, player)
    mine = by_player(s)
    assert mine[1].placement_points == 3 and mine[1].penalty == 3
    assert mine[2].placement_points == 6 and mine[2].penalty == 0
    # his tables say what they said: a penalty is its own column, not a table's
    assert [e.placement_points for e in mine[1].rounds] == [4, 2]


@pytest.mark.parametrize(
    ("penalty", "code"),
    [((9, 1), "unknown_player"), ((1, 0), "invalid_penalty"), ((1, F(1, 2)), "invalid_penalty"),
     ((1, True), "invalid_penalty"), ((1,), "invalid_penalty")],
)  # fmt: skip
def test_a_penalty_that_makes_no_sense_is_refused(penalty, code):
    with pytest.raises(StandingsError) as refused:
        compute_standings(players=[1, 2, 3, 4], results=[], penalties=[penalty])
    assert refused.value.code == code
