"""The awards' read model (``AwardHolder``): the holders of each season of a club are the
awards ``club_awards`` computes live for that season, kept so by the ``ratings.refresh_awards``
task that a refresh of a club table's lines queues (``tests/ratings/test_follow_writes.py``
checks every kind of write); ``held_awards`` reads a player's in one query.

The club is ``tests/ratings/ranking_club.py``'s, played through the services: every session in
2024 (Asia/Shanghai), so the season 2024 and all time agree until another year is played.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.services.clubs import club_update
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create, session_reopen
from core.models import OutboxMessage
from ratings.awards import AWARDS_BY_CODE, HandRef
from ratings.awards_selectors import club_awards, club_seasons, held_awards, season_period
from ratings.models import ALL_TIME, AwardHolder
from ratings.receivers import AWARDS_TASK
from ratings.services import club_awards_refresh, session_refresh
from ratings.tasks import refresh_awards
from tests.clubs.records import PINGHU
from tests.ratings.ranking_club import local, play, ranking_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def rc(django_capture_on_commit_callbacks):
    return ranking_club(django_capture_on_commit_callbacks)


def holders(club, season: int) -> set[tuple]:
    """(award, player, value, session, hand number) of each holder of the season."""
    rows = AwardHolder.objects.filter(club=club, season=season)
    return set(rows.values_list("code", "player_id", "value", "session_id", "hand_number"))


def live(club, season: int) -> set[tuple]:
    """The same of the awards computed now from the lines."""
    return {
        (r.code, w.player_id, w.value, *(w.hand or (None, None)))
        for r in club_awards(club, season_period(club, season))
        for w in r.winners
    }


def seasons(club) -> set[int]:
    return set(AwardHolder.objects.filter(club=club).values_list("season", flat=True))


def test_the_holders_are_each_seasons_awards(rc):
    club = rc.club
    assert seasons(club) == {2024, ALL_TIME}
    assert holders(club, 2024) == live(club, 2024) and holders(club, ALL_TIME) == live(club, 0)
    held = holders(club, 2024)
    # worked out in ranking_club.py: Bob's 清一色 of S_a hand 2 (4) is the biggest win; his
    # 自摸 in S_a and S_c (2, Cai's 1); Bob and Cai each sat at four finished tables
    assert ("grand_slam", rc.bob.pk, 4, rc.s_a.pk, 2) in held
    assert {h for h in held if h[0] == "self_draw_king"} == {
        ("self_draw_king", rc.bob.pk, 2, None, None)
    }
    assert {h[1] for h in held if h[0] == "regular"} == {rc.bob.pk, rc.cai.pk}
    assert not {h for h in held if h[0] in ("seven_pairs", "iron_wall")}  # nobody earned them
    assert held == holders(club, ALL_TIME)  # every session is of 2024


def test_a_session_of_another_year_is_its_own_season(rc, django_capture_on_commit_callbacks):
    """A table of 2023, one hand (PINGHU: S1 Cai wins on S2 Eve's discard): 2023's awards are
    that hand's (its four players the regulars), all time moves with it, 2024 stays."""
    before = holders(rc.club, 2024)
    with django_capture_on_commit_callbacks(execute=True):
        old = play(rc.club, [rc.dan, rc.cai, rc.eve, rc.ann], local(2023, 6, 1, 20), [PINGHU])
    assert seasons(rc.club) == {2023, 2024, ALL_TIME}
    assert holders(rc.club, 2024) == before
    for season in (2023, ALL_TIME):
        assert holders(rc.club, season) == live(rc.club, season)
    # PINGHU: S1 (Cai) wins on S2's (Eve's) discard
    assert ("most_wins", rc.cai.pk, 1, None, None) in holders(rc.club, 2023)
    assert ("big_spender", rc.eve.pk, 1, None, None) in holders(rc.club, 2023)
    assert ("grand_slam", rc.cai.pk, 1, old.pk, 1) in holders(rc.club, 2023)


def test_held_awards_reads_his_in_one_query(rc):
    with CaptureQueriesContext(connection) as queries:
        held = held_awards(rc.bob.pk, {rc.club.pk: 2024})
    assert len(queries) == 1
    assert {h.season for h in held} == {2024, ALL_TIME}
    # the year first, then all time, each in AWARDS' order
    assert [h.season for h in held] == sorted((h.season for h in held), reverse=True)
    mine = [h for h in held if h.season == 2024]
    assert [h.award.code for h in mine] == [
        code for code in AWARDS_BY_CODE if any(h.award.code == code for h in mine)
    ]
    slam = next(h for h in mine if h.award.code == "grand_slam")
    assert (slam.value, slam.hand, slam.unit_name.en) == (4, HandRef(rc.s_a.pk, 2), "points")
    assert isinstance(slam.value, int)  # a count stays a count
    assert held_awards(rc.bob.pk, {rc.club.pk: 2025}) == [h for h in held if h.season == 0]
    assert held_awards(rc.bob.pk, {}) == []


def test_a_new_time_zone_moves_a_table_into_another_season(rc, django_capture_on_commit_callbacks):
    """A table at 00:30 on 1 January 2025 in Chengdu is still 31 December 2024 in UTC."""
    commit = django_capture_on_commit_callbacks
    with commit(execute=True):
        play(rc.club, [rc.eve, rc.dan, rc.ann, rc.bob], local(2025, 1, 1, 0, 30), [PINGHU])
    assert club_seasons(rc.club) == [2024, 2025] and seasons(rc.club) == {2024, 2025, ALL_TIME}
    with commit(execute=True):
        club_update(club=rc.club, time_zone="UTC")
    rc.club.refresh_from_db()
    assert club_seasons(rc.club) == [2024] and seasons(rc.club) == {2024, ALL_TIME}
    assert holders(rc.club, 2024) == live(rc.club, 2024) == holders(rc.club, ALL_TIME)
    # a change of anything else leaves the awards be: nothing is queued
    with commit(execute=False):
        club_update(club=rc.club, name="Renamed")
    assert not OutboxMessage.objects.filter(task=AWARDS_TASK).exists()


def test_a_refresh_queues_them_only_when_a_club_tables_lines_moved(rc):
    """Outside a commit (nothing runs): the messages a refresh leaves are what it asked for."""

    def queued() -> list[list]:
        return list(OutboxMessage.objects.filter(task=AWARDS_TASK).values_list("args", flat=True))

    OutboxMessage.objects.all().delete()
    s = session_create(club=rc.club, players=[rc.ann, rc.bob, rc.cai, rc.eve], user=None,
                       started_at=local(2025, 2, 1, 20), mode="single")  # fmt: skip
    hand_record(session=s, data=PINGHU, user=None)
    session_refresh(session_id=s.pk)
    assert queued() == []  # still being played: no lines, no awards
    session_close(session=s)
    session_refresh(session_id=s.pk)
    assert queued() == [[rc.club.pk, 2025]]  # finished: lines written
    session_reopen(session=s)
    session_refresh(session_id=s.pk)
    assert queued() == [[rc.club.pk, 2025]] * 2  # reopened: its lines deleted
    session_refresh(session_id=s.pk)
    assert len(queued()) == 2  # open, no lines before or after: nothing


def test_ratings_recompute_rebuilds_them(rc):
    expected = {s: holders(rc.club, s) for s in (2024, ALL_TIME)}
    AwardHolder.objects.filter(club=rc.club, season=2024).delete()
    AwardHolder.objects.create(club=rc.club, season=1999, code="regular", order=10,
                               player=rc.eve, value=1)  # fmt: skip
    call_command("ratings_recompute", stdout=io.StringIO())
    assert seasons(rc.club) == {2024, ALL_TIME}
    assert {s: holders(rc.club, s) for s in (2024, ALL_TIME)} == expected


def test_the_task_and_the_service_are_safe_to_repeat(rc):
    expected = {s: holders(rc.club, s) for s in (2024, ALL_TIME)}
    refresh_awards.apply(args=[rc.club.pk, 2024], throw=True)
    refresh_awards.apply(args=[rc.club.pk, None], throw=True)
    assert club_awards_refresh(club_id=rc.club.pk, seasons=[2024, 0])["holders"] == len(
        expected[2024]
    ) + len(expected[ALL_TIME])
    assert {s: holders(rc.club, s) for s in (2024, ALL_TIME)} == expected
    assert club_awards_refresh(club_id=10**9) == {"club": 10**9, "seasons": [], "holders": 0}


def test_the_api_of_a_whole_season_answers_its_holders(rc, api_client):
    """The API computes any period live; a whole season's answer is what its holders say."""
    for query, season in (("?from=2024-01-01&to=2024-12-31", 2024), ("", ALL_TIME)):
        body = api_client.get(f"/api/v1/clubs/{rc.club.slug}/awards/{query}").json()
        answered = {
            (a["code"], w["player"], w["value"],
             *((w["hand"]["session"], w["hand"]["hand_number"]) if w["hand"] else (None, None)))
            for a in body["awards"]
            for w in a["winners"]
        }  # fmt: skip
        assert answered == holders(rc.club, season)
