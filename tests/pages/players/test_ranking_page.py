"""The club ranking page /clubs/<slug>/ranking/ over the club of ``tests/ratings/ranking_club``
(its figures worked out by hand there): a real table, sortable by its headings' links,
filtered by period (in the club's time zone) and by fewest sessions, provisional marks, the CSV
link, and a bad query in words."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs import selectors
from clubs.models import Club
from clubs.services.clubs import player_create
from ratings.ranking import club_ranking
from tests.clubs.factories import ClubFactory
from tests.clubs.records import PINGHU
from tests.helpers import ascii_colons, login, member_login
from tests.pages.html_read import table_text, tables, text_of
from tests.ratings.ranking_club import ALL_TIME, MARCH, local, play, ranking_club

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tasks_in_process(in_process_tasks):
    """The lines and ratings are written by the task each committed write queues."""


@pytest.fixture
def rc(django_capture_on_commit_callbacks):
    return ranking_club(django_capture_on_commit_callbacks, slug="ranked")


def page(query: str = "", *, lang: str = "en", user=None, slug: str = "ranked"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    return client.get(f"/clubs/{slug}/ranking/{query}")


def rows(response) -> list[list[str]]:
    assert response.status_code == 200, response.content[:500]
    return table_text(response.content.decode(), "ranking-table")


MARCH_QUERY = "?from=2024-03-01&to=2024-03-31&sort=total"
# rank, player, …, sessions, hands, total, average, 1st–4th, 胡牌率, 自摸率, 点炮率, average
# win, biggest win (ranking_club's docstring: the March figures by hand)
MARCH_BY_TOTAL = [
    ["1", "Annie", "2", "4", "+7", "3.5", "1", "0", "1", "0", "0.0%", "—", "0.0%", "—", "0"],
    ["2", "Dan", "2", "6", "+4", "2.0", "0", "2", "0", "0", "0.0%", "—", "0.0%", "—", "0"],
    ["3", "Bob", "3", "6", "0", "0.0", "1", "0", "1", "1", "66.7%", "25.0%", "16.7%", "1.8", "4"],
    ["4", "Eve", "2", "2", "-1", "-0.5", "0", "2", "0", "0", "0.0%", "—", "0.0%", "—", "0"],
    ["5", "Cai", "3", "6", "-10", "-3.3", "1", "0", "1", "1", "33.3%", "50.0%", "50.0%", "1.0",
     "1"],
]  # fmt: skip


def without_ratings(table: list[list[str]]) -> list[list[str]]:
    """The rows without the rating and its Δ (the model's numbers, checked apart)."""
    return [row[:2] + row[4:] for row in table]


def test_the_march_ranking_by_total_worked_out_by_hand(rc):
    response = page(MARCH_QUERY)
    table = rows(response)
    assert without_ratings(table) == MARCH_BY_TOTAL
    # the rating: the club rating now, a whole number, and its change over March, as the
    # selector has them; everyone here is provisional (fewer than 10 rated sessions)
    ranking = {r.name: r for r in club_ranking(rc.club, MARCH).rows}
    for row in table:
        r = ranking[row[1]]
        assert row[2] == f"{round(r.rating)}?"
        assert row[3] == (f"+{round(r.delta)}" if round(r.delta) > 0 else str(round(r.delta)))
    body = response.content.decode()
    assert "From 2024-03-01 to 2024-03-31" in text_of(body) and "5 players" in text_of(body)


def test_each_player_links_to_his_page(rc):
    [t] = tables(page(MARCH_QUERY).content.decode(), "ranking-table")
    links = {row[1]["text"]: row[1]["href"] for row in t["rows"]}
    assert links == {
        "Annie": f"/players/{rc.ann.pk}/", "Bob": f"/players/{rc.bob.pk}/",
        "Cai": f"/players/{rc.cai.pk}/", "Dan": f"/players/{rc.dan.pk}/",
        "Eve": f"/players/{rc.eve.pk}/",
    }  # fmt: skip


def headings(response) -> dict[str, dict]:
    [t] = tables(response.content.decode(), "ranking-table")
    return {c["text"].rstrip(" ▲▼"): c for c in t["head"][0]}


def test_the_headings_sort_on_the_server_and_mark_the_current_sort(rc):
    head = headings(page(MARCH_QUERY))
    total = head["Total"]
    assert total["attrs"]["aria-sort"] == "descending"
    # again on the current column: the other way round; another column: its own default
    assert total["href"] == "?period=custom&from=2024-03-01&to=2024-03-31&sort=total&order=asc"
    assert head["Player"]["href"].endswith("sort=name&order=asc")
    assert head["Sessions"]["href"].endswith("sort=sessions&order=desc")
    assert "aria-sort" not in head["Rating"]["attrs"] and head["2nd"]["href"] is None
    # following the link: the smallest total first
    ascending = rows(page(total["href"]))
    assert [r[1] for r in ascending] == ["Cai", "Eve", "Bob", "Dan", "Annie"]
    assert headings(page(total["href"]))["Total"]["attrs"]["aria-sort"] == "ascending"
    # by name, A → Z
    assert [r[1] for r in rows(page(head["Player"]["href"]))] == [
        "Annie", "Bob", "Cai", "Dan", "Eve",
    ]  # fmt: skip


def test_without_a_denominator_a_rate_sorts_last_either_way(rc):
    # 自摸率: Cai 1 of 2 wins, Bob 1 of 4; Annie, Dan and Eve won nothing (no rate, level)
    for order in ("desc", "asc"):
        got = [(r[0], r[1]) for r in rows(page(f"?period=all&sort=self_draw_rate&order={order}"))]
        first = [("1", "Cai"), ("2", "Bob")] if order == "desc" else [("1", "Bob"), ("2", "Cai")]
        assert got == first + [("3", "Annie"), ("3", "Dan"), ("3", "Eve")]


def test_the_default_is_all_time_by_rating(rc):
    response = page()
    table = rows(response)
    by_rating = club_ranking(rc.club, ALL_TIME).rows
    assert [r[1] for r in table] == [r.name for r in by_rating]
    assert headings(response)["Rating"]["attrs"]["aria-sort"] == "descending"
    assert "All time" in text_of(response.content.decode())


def test_this_month_and_this_year_are_the_clubs_own(rc, monkeypatch):
    monkeypatch.setattr(selectors, "club_today", lambda club: date(2024, 3, 20))
    month = page("?period=month&sort=total")
    assert without_ratings(rows(month)) == MARCH_BY_TOTAL
    assert "From 2024-03-01 to 2024-03-31" in text_of(month.content.decode())
    # the year holds S_c too (1 April in Chengdu): Annie's third session
    year = {r[1]: r for r in rows(page("?period=year&sort=total"))}
    assert (year["Annie"][4], year["Bob"][4]) == ("3", "4")
    assert "From 2024-01-01 to 2024-12-31" in text_of(page("?period=year").content.decode())
    # the period links keep the sort and drop the custom dates
    body = page("?from=2024-03-01&to=2024-03-05&sort=hands").content.decode()
    assert 'href="?period=month&amp;sort=hands"' in body
    assert 'href="?period=all&amp;sort=hands"' in body


def test_dates_are_read_in_the_clubs_time_zone(rc):
    # S_a began at 00:30 on 1 March in Chengdu (still 29 February in UTC): it is March's
    first_day = {r[1]: r[6] for r in rows(page("?from=2024-03-01&to=2024-03-01"))}
    assert first_day == {"Annie": "-3", "Bob": "+7", "Cai": "-9", "Dan": "+5"}
    assert "Nobody played a finished table" in page("?to=2024-02-29").content.decode()


def test_fewest_sessions(rc):
    assert [r[1] for r in rows(page(MARCH_QUERY + "&min_sessions=3"))] == ["Bob", "Cai"]
    body = page(MARCH_QUERY + "&min_sessions=3").content.decode()
    assert "at least 3 sessions" in text_of(body)


@pytest.mark.parametrize(
    "query, words",
    [
        ("?from=2024-13-01", "The first day is not a date: write it as YYYY-MM-DD."),
        ("?to=yesterday", "The last day is not a date"),
        ("?from=2024-03-10&to=2024-03-01", "The last day is before the first day."),
        # the day after 9999-12-31, where the period ends, is no date (a 500: test_page_fuzz)
        ("?to=9999-12-31", "The last day is a day between 1900 and 2200."),
        ("?from=0001-01-01", "The first day is a day between 1900 and 2200."),
        ("?sort=luck", "The ranking cannot be sorted that way"),
        ("?order=sideways", "The order is asc (smallest first) or desc (largest first)."),
        ("?min_sessions=-1", "The fewest sessions is a whole number from 0 to 100000."),
        ("?min_sessions=" + "9" * 50, "The fewest sessions is a whole number"),
        ("?period=week", "The period is this month, this year, all time or your own dates."),
    ],
)
def test_a_bad_query_is_a_message_on_the_page(rc, query, words):
    response = page(query)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert words in text_of(body) and "ranking-table" not in body
    assert "/clubs/ranked/ranking/" in body  # the way back to a ranking that shows


def test_every_problem_is_said_at_once(rc):
    text = text_of(page("?from=x&sort=luck&min_sessions=many").content.decode())
    assert "first day is not a date" in text and "cannot be sorted" in text
    assert "fewest sessions" in text


def test_the_csv_link_is_the_apis_for_the_same_ranking(rc):
    body = page(MARCH_QUERY + "&min_sessions=2").content.decode()
    url = (
        "/api/v1/clubs/ranked/ranking/?format=csv&amp;from=2024-03-01&amp;to=2024-03-31"
        "&amp;min_sessions=2&amp;sort=total&amp;order=desc"
    )
    assert f'href="{url}"' in body
    csv = Client().get(url.replace("&amp;", "&"))
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    names = [line.split(",")[2] for line in lines[1:]]
    assert names == ["Annie", "Dan", "Bob", "Eve", "Cai"]


def test_ten_rated_sessions_drop_the_provisional_mark(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        club = ClubFactory(slug="regulars")
        four = [player_create(club=club, name=n).player for n in ("Wu", "Xu", "Yu", "Zhu")]
        guest = player_create(club=club, name="Qin").player
        for day in range(1, 11):
            play(club, four, local(2024, 5, day, 20), totals=[3, -1, -1, -1])
        play(club, [guest, *four[1:]], local(2024, 5, 11, 20), totals=[1, -1, 0, 0])
    table = {r[1]: r[2] for r in rows(page(slug="regulars"))}
    assert table["Wu"].isdigit() and table["Zhu"].isdigit()  # 10 rated sessions: no mark
    assert table["Qin"].endswith("?") and table["Xu"].isdigit()  # Xu has 11
    body = page(slug="regulars").content.decode()
    assert "Provisional: fewer than 10 rated sessions" in body


def test_the_ranking_in_chinese(rc):
    response = page(MARCH_QUERY, lang="zh-hans")
    body = response.content.decode()
    head = list(headings(response))
    assert "排行榜" in body and "胡牌率" in head and "自摸率" in head and "点炮率" in head
    assert all(r[2].endswith("暂") for r in rows(response))
    assert "本月" in body and "今年" in body and "全部" in body
    assert ascii_colons(body) == []
    bad = page("?from=2024-13-01", lang="zh-hans").content.decode()
    assert "起始日期" in bad and ascii_colons(bad) == []


def test_a_members_only_ranking_is_not_found_by_outsiders(rc):
    Club.objects.filter(pk=rc.club.pk).update(visibility=Club.Visibility.MEMBERS)
    assert page().status_code == 404
    assert page(user=login()).status_code == 404
    assert page(user=member_login(rc.club)).status_code == 200


def count_queries(query: str, user) -> int:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/clubs/ranked/ranking/{query}").status_code == 200
    return len(ctx.captured_queries)


def test_the_queries_do_not_grow_with_the_club(rc, django_capture_on_commit_callbacks):
    Club.objects.filter(pk=rc.club.pk).update(visibility=Club.Visibility.MEMBERS)
    member = member_login(rc.club)
    few = [count_queries(q, member) for q in ("", MARCH_QUERY)]
    with django_capture_on_commit_callbacks(execute=True):
        more = [player_create(club=rc.club, name=f"p{i}").player for i in range(12)]
        for t in range(3):
            play(rc.club, more[4 * t : 4 * t + 4], local(2024, 3, 5 + t, 20), [PINGHU] * (t + 1))
    assert [count_queries(q, member) for q in ("", MARCH_QUERY)] == few
    assert few[0] <= 10


def test_the_club_page_links_to_its_ranking_and_the_players_to_their_pages(rc):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert 'href="/clubs/ranked/ranking/"' in client.get("/clubs/ranked/").content.decode()
    players = client.get("/clubs/ranked/players/").content.decode()
    assert f'href="/players/{rc.ann.pk}/">Annie</a>' in players
