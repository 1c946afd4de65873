"""The club ranking's selector (``ratings.ranking.club_ranking``) over the club of
``tests/ratings/ranking_club.py``, its numbers worked out by hand there and below."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club
from clubs.services.clubs import player_create
from core.errors import Invalid
from ratings.models import Rating, RatingChange
from ratings.periods import Period
from ratings.ranking import RANKING, RankingRow, club_ranking, ranked
from tests.clubs.factories import ClubFactory
from tests.clubs.records import PINGHU
from tests.ratings.ranking_club import ALL_TIME, MARCH, local, play, ranking_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def rc(django_capture_on_commit_callbacks):
    return ranking_club(django_capture_on_commit_callbacks)


def by_name(ranking) -> dict:
    return {row.name: row for row in ranking.rows}


def test_march_figures_worked_out_by_hand(rc):
    """March holds S_a, S_b and S_d (S_c is 1 April in Chengdu; the open table counts for
    nothing):

    * Annie: S_a −3 (3rd), S_d +10 (1st): 2 sessions, 4 hands, total 7, average 3.5, no win,
      so 胡牌率 0/4 = 0, 点炮率 0/4 = 0, 自摸率 and average win without a denominator.
    * Bob: +7 (1st), −2 (4th), −5 (3rd, tied): 3 sessions, 4 + 2 = 6 hands, total 0; 4 wins
      worth 1 + 4 + 1 + 1 = 7 (average 1.75, biggest 4), 1 自摸 (1/4 = 0.25), 1 点炮 in S_b
      (1/6 = 0.1667), 胡牌率 4/6 = 0.6667.
    * Cai: −9 (4th), +4 (1st), −5 (3rd, tied): total −10, 6 hands, 2 wins of 1, 1 自摸
      (0.5), 3 点炮 in S_a (3/6 = 0.5), 胡牌率 2/6.
    * Dan: +5 (2nd), −1 (2nd, tied with Eve): total 4, 6 hands, no win.
    * Eve: −1 (2nd, tied), 0 (2nd): total −1, 2 hands (S_d has none), average −0.5.
    """
    rows = by_name(club_ranking(rc.club, MARCH, sort="total"))
    assert set(rows) == {"Annie", "Bob", "Cai", "Dan", "Eve"}
    ann, bob, cai, dan, eve = (rows[n] for n in ("Annie", "Bob", "Cai", "Dan", "Eve"))

    assert (ann.sessions, ann.hands, ann.total, ann.average) == (2, 4, 7, 3.5)
    assert ann.places == (1, 0, 1, 0)
    assert (ann.win_rate, ann.self_draw_rate, ann.deal_in_rate) == (0.0, None, 0.0)
    assert (ann.average_win, ann.biggest_hand) == (None, 0)

    assert (bob.sessions, bob.hands, bob.total, bob.average) == (3, 6, 0, 0.0)
    assert bob.places == (1, 0, 1, 1)
    assert (bob.wins, bob.self_draws, bob.deal_ins) == (4, 1, 1)
    assert bob.win_rate == 4 / 6 and bob.self_draw_rate == 0.25 and bob.deal_in_rate == 1 / 6
    assert (bob.average_win, bob.biggest_hand) == (1.75, 4)

    assert (cai.sessions, cai.hands, cai.total) == (3, 6, -10)
    assert cai.average == -10 / 3 and cai.places == (1, 0, 1, 1)
    assert (cai.wins, cai.self_draws, cai.deal_ins) == (2, 1, 3)
    assert (cai.win_rate, cai.self_draw_rate, cai.deal_in_rate) == (2 / 6, 0.5, 0.5)
    assert (cai.average_win, cai.biggest_hand) == (1.0, 1)

    assert (dan.sessions, dan.hands, dan.total, dan.places) == (2, 6, 4, (0, 2, 0, 0))
    assert (eve.sessions, eve.hands, eve.total, eve.places) == (2, 2, -1, (0, 2, 0, 0))
    assert eve.average == -0.5

    # the scores of finished sessions sum to zero, whatever the period
    assert sum(r.total for r in rows.values()) == 0


def test_all_time_adds_the_april_session(rc):
    """S_c adds Bob's 自摸 (+3) and −1 to Annie, Cai and Dan; Eve did not play it."""
    rows = by_name(club_ranking(rc.club, ALL_TIME))
    assert {n: r.total for n, r in rows.items()} == {
        "Annie": 6, "Bob": 3, "Cai": -11, "Dan": 3, "Eve": -1,
    }  # fmt: skip
    assert (rows["Bob"].sessions, rows["Bob"].hands, rows["Bob"].self_draws) == (4, 7, 2)


def test_the_period_is_in_the_clubs_time_zone(rc):
    """S_a began 2024-03-01 00:30 in Chengdu (29 February in UTC): in March. S_c began
    2024-04-01 00:30 (31 March in UTC): not in March. 29 February alone holds nothing."""
    assert by_name(club_ranking(rc.club, MARCH))["Dan"].sessions == 2  # S_a and S_b
    leap_day = Period(MARCH.first_day.replace(month=2, day=29), None, "Asia/Shanghai")
    assert by_name(club_ranking(rc.club, leap_day))["Dan"].sessions == 3  # S_a, S_b, S_c
    assert club_ranking(rc.club, Period(leap_day.first_day, leap_day.first_day)).rows == ()
    april = Period(MARCH.last_day.replace(month=4, day=1), None, "Asia/Shanghai")
    assert {r.name: r.sessions for r in club_ranking(rc.club, april).rows} == {
        "Annie": 1, "Bob": 1, "Cai": 1, "Dan": 1,
    }  # fmt: skip


def test_rating_provisional_and_delta(rc):
    """The rating is the club pool's now (after S_c too); Δ adds the rating changes of the
    period's rated sessions. Eve played only in March and started at 1500, so her Δ is her
    rating − 1500; everyone has under 10 rated sessions: provisional."""
    rows = by_name(club_ranking(rc.club, MARCH))
    ratings = {r.player_id: r for r in Rating.objects.filter(pool__club=rc.club)}
    for row in rows.values():
        rating = ratings[row.player_id]
        assert row.rating == rating.rating and row.rated_sessions == rating.sessions
        assert row.provisional
        changes = RatingChange.objects.filter(
            player_id=row.player_id, played_at__in=[rc.s_a.started_at, rc.s_b.started_at,
                                                    rc.s_d.started_at]
        )  # fmt: skip
        assert row.delta == pytest.approx(sum(c.delta for c in changes))
    assert RatingChange.objects.filter(player=rc.eve).order_by("number")[0].rating_before == 1500
    assert rows["Eve"].delta == pytest.approx(rows["Eve"].rating - 1500)
    assert rows["Bob"].rated_sessions == 4  # S_a, S_b, S_d and S_c


def test_a_player_not_rated_yet(rc):
    """Lines without a rating (a pool being recomputed): rating None, provisional, Δ 0, and
    last when sorted by rating either way."""
    Rating.objects.filter(player=rc.eve).delete()
    RatingChange.objects.filter(player=rc.eve).delete()
    for descending in (True, False):
        rows = club_ranking(rc.club, MARCH, descending=descending).rows
        eve = rows[-1]
        assert (eve.name, eve.rating, eve.provisional, eve.delta) == ("Eve", None, True, 0.0)
        assert eve.rated_sessions == 0 and eve.rank == 5
        rated = [r.rating for r in rows[:-1]]
        assert rated == sorted(rated, reverse=descending)


def test_min_sessions(rc):
    """Bob and Cai played 3 sessions in March, the others 2."""
    assert {r.name for r in club_ranking(rc.club, MARCH, min_sessions=3).rows} == {"Bob", "Cai"}
    assert len(club_ranking(rc.club, MARCH, min_sessions=2).rows) == 5
    assert club_ranking(rc.club, MARCH, min_sessions=4).rows == ()


def test_sort_ties_share_a_rank_and_fall_back_to_the_name(rc):
    """Hands in March: Bob, Cai and Dan 6, Annie 4, Eve 2: the three tied share rank 1, in
    name order, and Annie is 4th."""
    rows = club_ranking(rc.club, MARCH, sort="hands").rows
    assert [(r.rank, r.name, r.hands) for r in rows] == [
        (1, "Bob", 6), (1, "Cai", 6), (1, "Dan", 6), (4, "Annie", 4), (5, "Eve", 2),
    ]  # fmt: skip
    # ascending: the ties keep the name order
    rows = club_ranking(rc.club, MARCH, sort="hands", descending=False).rows
    assert [(r.rank, r.name) for r in rows] == [
        (1, "Eve"), (2, "Annie"), (3, "Bob"), (3, "Cai"), (3, "Dan"),
    ]  # fmt: skip


def test_sort_by_total_name_and_a_rate(rc):
    assert [r.name for r in club_ranking(rc.club, MARCH, sort="total").rows] == [
        "Annie", "Dan", "Bob", "Eve", "Cai",
    ]  # fmt: skip
    assert [r.name for r in club_ranking(rc.club, MARCH, sort="name", descending=False).rows] == [
        "Annie", "Bob", "Cai", "Dan", "Eve",
    ]  # fmt: skip
    # 自摸率: Cai 0.5, Bob 0.25; the others have no win (None): last, by name
    rows = club_ranking(rc.club, MARCH, sort="self_draw_rate").rows
    assert [(r.rank, r.name) for r in rows] == [
        (1, "Cai"), (2, "Bob"), (3, "Annie"), (3, "Dan"), (3, "Eve"),
    ]  # fmt: skip
    # 点炮率 ascending (the careful first): Annie, Dan, Eve 0; Bob 1/6; Cai 1/2
    rows = club_ranking(rc.club, MARCH, sort="deal_in_rate", descending=False).rows
    assert [(r.rank, r.name) for r in rows] == [
        (1, "Annie"), (1, "Dan"), (1, "Eve"), (4, "Bob"), (5, "Cai"),
    ]  # fmt: skip


def test_every_sort_key_works(rc):
    for key in RANKING.sort_keys:
        for descending in (True, False):
            ranking = club_ranking(rc.club, MARCH, sort=key, descending=descending)
            assert len(ranking.rows) == 5 and ranking.sort == key
            assert ranking.rows[0].rank == 1


def test_the_name_sort_reads_pinyin():
    """Names sort by their pinyin, as the club's player list does: 陈 chen before 王 wang
    before 张 zhang (in code points 张 U+5F20 comes before 王 U+738B and 陈 U+9648)."""

    def row(pid: int, name: str) -> RankingRow:
        return RankingRow(0, pid, name, None, True, 0, 0.0, 1, 0, 0, (0, 0, 0, 0), 0, 0, 0, 0, 0)

    rows = ranked([row(1, "张伟"), row(2, "王芳"), row(3, "陈静")], "name", False)
    assert [r.name for r in rows] == ["陈静", "王芳", "张伟"]


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"sort": "luck"}, "sort"),
        ({"min_sessions": -1}, "min_sessions"),
        ({"min_sessions": "3"}, "min_sessions"),
        ({"min_sessions": True}, "min_sessions"),
        ({"min_sessions": 2.5}, "min_sessions"),
    ],
)
def test_bad_arguments_are_refused(kwargs, path):
    club = Club(pk=1, slug="x")
    with pytest.raises(Invalid) as refused:
        club_ranking(club, ALL_TIME, **kwargs)
    assert [p["path"] for p in refused.value.problems] == [path]


def _queries(club) -> int:
    with CaptureQueriesContext(connection) as queries:
        ranking = club_ranking(club, ALL_TIME)
    return len(queries), len(ranking.rows)


def test_the_query_count_does_not_grow_with_the_players(django_capture_on_commit_callbacks):
    """Four queries (lines, ratings, Δ, display names) for a table of 4 players as for three
    tables of 12 with twice the hands: nothing is read player by player."""
    with django_capture_on_commit_callbacks(execute=True):
        small, large = ClubFactory(), ClubFactory()
        four = [player_create(club=small, name=f"s{i}").player for i in range(4)]
        twelve = [player_create(club=large, name=f"l{i}", display_name=f"L{i}").player
                  for i in range(12)]  # fmt: skip
        play(small, four, local(2024, 3, 2, 20), [PINGHU])
        for t in range(3):
            play(large, twelve[4 * t : 4 * t + 4], local(2024, 3, 2, 20), [PINGHU, PINGHU])
    assert _queries(small) == (4, 4)
    assert _queries(large) == (4, 12)
