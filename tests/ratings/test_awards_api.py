"""The awards of a club's period (``ratings.awards_selectors.club_awards``) over the club of
``tests/ratings/ranking_club.py``, and ``GET /api/v1/clubs/{slug}/awards/``."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club
from ratings.api.awards import ClubAwardsOutSerializer
from ratings.awards import AWARDS, HandRef
from ratings.awards_selectors import club_awards, player_figures
from tests.helpers import assert_error_shape, assert_shape, client_for, login, member_login
from tests.ratings.ranking_club import ALL_TIME, MARCH, club_of_tables, ranking_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def rc(django_capture_on_commit_callbacks):
    return ranking_club(django_capture_on_commit_callbacks)


def won(results) -> dict[str, list[tuple[str, int | float]]]:
    return {r.code: [(w.name, w.value) for w in r.winners] for r in results}


def test_the_figures_of_march(rc):
    """Bob's March: 4 wins (S_a), all first to win (普通 mode: one win a hand), one 清一色,
    his biggest the 清一色 worth 4 (S_a hand 2). Dan's 暗杠 is the one kong."""
    figures = {f.name: f for f in player_figures(rc.club, MARCH)}
    bob = figures["Bob"]
    assert (bob.wins, bob.first_wins, bob.self_draws, bob.deal_ins) == (4, 4, 1, 1)
    assert bob.pattern_counts == {"pinghu": 3, "qingyise": 1}
    assert (bob.biggest_hand, bob.biggest_hand_at) == (4, HandRef(rc.s_a.pk, 2))
    assert figures["Dan"].kongs == 1 and figures["Bob"].kongs == 0
    # Cai's two wins are both worth 1: the first played is his biggest (S_b hand 1)
    assert figures["Cai"].biggest_hand_at == HandRef(rc.s_b.pk, 1)
    assert figures["Annie"].biggest_hand_at is None and figures["Annie"].total == 7


def test_the_awards_of_march(rc):
    """大满贯 Bob's 清一色 (4); 清一色之王 Bob; 杠神 Dan; 抢跑王 and 胡牌王 Bob (4); 自摸王 Bob
    and Cai tied on 1; 大赢家 Annie (+7); 散财童子 Cai (3 点炮 in S_a); 常客 Bob and Cai (3
    sessions); nobody played 50 hands (no 铁壁) or won a 七对."""
    results = club_awards(rc.club, MARCH)
    assert [r.code for r in results] == [a.code for a in AWARDS]
    assert won(results) == {
        "grand_slam": [("Bob", 4)],
        "qingyise_king": [("Bob", 1)],
        "seven_pairs": [],
        "kong_god": [("Dan", 1)],
        "quick_draw": [("Bob", 4)],
        "self_draw_king": [("Bob", 1), ("Cai", 1)],
        "most_wins": [("Bob", 4)],
        "top_scorer": [("Annie", 7)],
        "iron_wall": [],
        "big_spender": [("Cai", 3)],
        "regular": [("Bob", 3), ("Cai", 3)],
    }
    assert results[0].winners[0].hand == HandRef(rc.s_a.pk, 2)


def test_all_time_breaks_the_self_draw_tie(rc):
    """S_c (1 April) is another 自摸 of Bob's."""
    assert won(club_awards(rc.club, ALL_TIME))["self_draw_king"] == [("Bob", 2)]


def test_api_json(rc, api_client):
    response = api_client.get(f"/api/v1/clubs/{rc.club.slug}/awards/?from=2024-03-01&to=2024-03-31")
    assert response.status_code == 200
    body = response.json()
    assert_shape(body, ClubAwardsOutSerializer())
    assert body["period"] == {"from": "2024-03-01", "to": "2024-03-31",
                              "time_zone": "Asia/Shanghai"}  # fmt: skip
    slam = body["awards"][0]
    assert slam == {
        "code": "grand_slam",
        "name": {"zh": "大满贯", "en": "Grand slam"},
        "description": {"zh": "单局最大的一次胡牌", "en": "The biggest single win"},
        "unit": "points",
        "unit_name": {"zh": "分", "en": "points"},
        "winners": [{"player": rc.bob.pk, "name": "Bob", "value": 4,
                     "hand": {"session": rc.s_a.pk, "hand_number": 2}}],
    }  # fmt: skip
    regular = next(a for a in body["awards"] if a["code"] == "regular")
    assert [(w["name"], w["value"], w["hand"]) for w in regular["winners"]] == [
        ("Bob", 3, None), ("Cai", 3, None),
    ]  # fmt: skip
    assert next(a for a in body["awards"] if a["code"] == "iron_wall")["winners"] == []


def test_api_csv(rc, api_client):
    response = api_client.get(f"/api/v1/clubs/{rc.club.slug}/awards/?to=2024-03-31&format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    reader = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
    assert reader.fieldnames == ["award", "award_zh", "award_en", "unit", "player", "name",
                                 "value", "session", "hand_number"]  # fmt: skip
    rows = list(reader)
    assert rows[0]["award"] == "grand_slam" and rows[0]["hand_number"] == "2"
    assert rows[0]["session"] == str(rc.s_a.pk)
    # every award is listed: one with no winner in a row without a player
    assert {r["award"] for r in rows} == {a.code for a in AWARDS}
    assert [r["player"] for r in rows if r["award"] == "iron_wall"] == [""]
    assert [r["name"] for r in rows if r["award"] == "regular"] == ["Bob", "Cai"]


def test_api_members_only_and_bad_dates(rc, api_client):
    awards = f"/api/v1/clubs/{rc.club.slug}/awards/"
    Club.objects.filter(pk=rc.club.pk).update(visibility=Club.Visibility.MEMBERS)
    for client in (api_client, client_for(login())):
        assert client.get(awards).status_code == 404
    member = client_for(member_login(rc.club))
    assert member.get(awards).status_code == 200
    response = member.get(awards + "?from=2024-02-30")
    assert response.status_code == 400
    assert [e["path"] for e in assert_error_shape(response.json())] == ["from"]


def test_a_constant_number_of_queries(django_capture_on_commit_callbacks, api_client):
    """Four queries (lines, patterns, biggest wins, names) for 4 players as for 12; the API
    adds the club's."""
    for tables in (1, 3):
        club = club_of_tables(tables, django_capture_on_commit_callbacks)
        with CaptureQueriesContext(connection) as queries:
            results = club_awards(club, ALL_TIME)
        assert len(queries) == 4
        # one session each: every player is a 常客
        assert len(next(r for r in results if r.code == "regular").winners) == 4 * tables
        with CaptureQueriesContext(connection) as queries:
            assert api_client.get(f"/api/v1/clubs/{club.slug}/awards/").status_code == 200
        assert len(queries) == 5
