"""Who sees which of a player's statistics, the errors of the stats endpoint, and its query
count (constant however many sessions he played)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.helpers import assert_error_shape, client_for, login, member_login
from tests.ratings.stats_scenario import (
    PINGHU,
    START,
    evening,
    members,
    play,
    tournament_table,
)

pytestmark = pytest.mark.django_db


def get(player_id: int, query: str = "", user=None):
    return client_for(user).get(f"/api/v1/players/{player_id}/stats/{query}")


@pytest.fixture
def private():
    return ClubFactory(slug="back-room", name="Back room", visibility=Club.Visibility.MEMBERS)


def test_a_player_seen_only_in_a_members_only_club_is_404_to_outsiders(private):
    p, q, r, s = members(private, "P", "Q", "R", "S")
    play(private, [p, q, r, s], START, totals=[8, 0, -4, -4])
    for outsider in (None, login()):
        response = get(p.pk, user=outsider)
        assert response.status_code == 404
        assert assert_error_shape(response.json())[0]["code"] == "not_found"
    member = member_login(private)
    response = get(p.pk, user=member)
    assert response.status_code == 200
    assert response.json()["scores"]["total_score"] == 8
    assert response.json()["scope"]["clubs"] == [{"slug": "back-room", "name": "Back room"}]


def test_an_outsider_sees_only_the_public_clubs_figures(private):
    ev = evening()  # A's three sessions in the public teahouse: +24
    MembershipFactory(club=private, player=ev.a)
    q, r, s = members(private, "Q", "R", "S")
    play(private, [ev.a, q, r, s], START + timedelta(days=5), totals=[50, -20, -20, -10])

    outside = get(ev.a.pk).json()
    assert (outside["scores"]["sessions"], outside["scores"]["total_score"]) == (3, 24)
    assert [c["slug"] for c in outside["scope"]["clubs"]] == ["teahouse"]
    assert [r["club"]["slug"] for r in outside["ratings"]] == ["teahouse"]
    assert {o["name"] for o in outside["head_to_head"]} == {"B", "C", "D", "E"}
    assert get(ev.a.pk, "?club=back-room").status_code == 404

    member = member_login(private)
    inside = get(ev.a.pk, user=member).json()
    assert (inside["scores"]["sessions"], inside["scores"]["total_score"]) == (4, 74)
    assert {c["slug"] for c in inside["scope"]["clubs"]} == {"teahouse", "back-room"}
    assert len(inside["ratings"]) == 2
    assert {o["name"] for o in inside["head_to_head"]} == {"B", "C", "D", "E", "Q", "R", "S"}
    only = get(ev.a.pk, "?club=back-room", user=member).json()
    assert (only["scores"]["total_score"], only["scope"]["club"]["slug"]) == (50, "back-room")


def test_a_public_tournament_of_a_members_only_club_is_readable(private):
    p, q, r, s = members(private, "P", "Q", "R", "S")
    play(private, [p, q, r, s], START, totals=[8, 0, -4, -4])
    tournament_table(private, {p: 9, q: 3, r: -6, s: -6})
    outside = get(p.pk).json()  # he is entered in a tournament an outsider may read
    assert outside["scores"]["sessions"] == 0  # the club's own table stays hidden
    assert [t["score"] for t in outside["tournaments"]] == [9]
    cup = get(p.pk, "?tournament=spring-cup").json()
    assert (cup["scores"]["total_score"], len(cup["ratings"])) == (9, 1)


def test_a_tournament_only_its_members_may_read_is_404_to_others(private):
    p, q, r, s = members(private, "P", "Q", "R", "S")
    tournament_table(private, {p: 9, q: 3, r: -6, s: -6}, is_public=False)
    assert get(p.pk).status_code == 404
    response = get(p.pk, "?tournament=spring-cup", user=login())
    assert response.status_code == 404
    assert assert_error_shape(response.json())[0]["path"] == "tournament"
    member = member_login(private)
    assert get(p.pk, "?tournament=spring-cup", user=member).json()["scores"]["sessions"] == 1


@pytest.mark.parametrize(
    "query, status, path, code",
    [
        ("?from=yesterday", 400, "from", "invalid_date"),
        ("?from=2025-03-05&to=2025-03-01", 400, "to", "period_reversed"),
        ("?to=9999-12-31", 400, "to", "out_of_range"),  # its end, the day after, is no date
        ("?from=1899-12-31", 400, "from", "out_of_range"),
        ("?club=nowhere", 404, "club", "not_found"),
        ("?tournament=nowhere", 404, "tournament", "not_found"),
        ("?club=teahouse&tournament=spring-cup", 400, "tournament", "club_and_tournament"),
    ],
)
def test_errors_of_the_query(query, status, path, code):
    ev = evening()
    response = get(ev.a.pk, query)
    assert response.status_code == status
    [error] = assert_error_shape(response.json())
    assert (error["path"], error["code"]) == (path, code)


def test_an_unknown_player_is_404(db):
    response = get(999999)
    assert response.status_code == 404
    assert_error_shape(response.json())


def test_the_query_count_does_not_grow_with_his_sessions(db):
    club = ClubFactory(slug="teahouse")
    few, many = members(club, "Few", "Many")
    others = members(club, *"OPQRSTUV")
    for i in range(2):
        play(club, [others[i], few, others[i + 1], others[i + 2]], START + timedelta(hours=i),
             [PINGHU], mode="single")  # fmt: skip
    for i in range(8):
        table = [others[i % 8], many, others[(i + 1) % 8], others[(i + 2) % 8]]
        if i % 2:
            play(club, table, START + timedelta(hours=i), totals=[3, -1, -1, -1])
        else:
            play(club, table, START + timedelta(hours=i), [PINGHU], mode="single")

    def queries(player, query="") -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert get(player.pk, query).status_code == 200
        return len(ctx.captured_queries)

    assert queries(few) == queries(many)
    assert queries(few, "?club=teahouse&from=2025-01-01") == queries(
        many, "?club=teahouse&from=2025-01-01"
    )
