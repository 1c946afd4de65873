"""The club ranking and a player's page read through the cache under their data's version
(issue 25): never stale — a hand written, its follow-up run, the page shows the new figure —
the ranking in pages of 100 rows (``?page=N``, ``?page=all``, a bad page said in words), and
their queries as many however big the club."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership
from clubs.services.clubs import membership_update
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close
from pages.players.ranking import PAGE_SIZE
from ratings.ranking import club_ranking
from ratings.services import club_recompute
from tests.clubs.records import SELFDRAW
from tests.pages.html_read import table_text, text_of
from tests.ratings.generate import generated_club
from tests.ratings.ranking_club import ALL_TIME, club_of_tables, local, play, ranking_club

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tasks_in_process(in_process_tasks):
    """The lines, ratings and awards are written by the tasks each committed write queues."""


@pytest.fixture
def rc(django_capture_on_commit_callbacks):
    return ranking_club(django_capture_on_commit_callbacks, slug="ranked")


def get(path: str, lang: str = "en"):
    return Client(HTTP_ACCEPT_LANGUAGE=lang).get(path)


def ranking_rows(query: str = "", slug: str = "ranked") -> list[list[str]]:
    response = get(f"/clubs/{slug}/ranking/{query}")
    assert response.status_code == 200, response.content[:500]
    return table_text(response.content.decode(), "ranking-table")


def by_name(rows: list[list[str]]) -> dict[str, list[str]]:
    return {row[1]: row for row in rows}


# --- never stale --------------------------------------------------------------------------------


def test_the_ranking_shows_a_finished_table_once_its_follow_up_ran(
    rc, django_capture_on_commit_callbacks
):
    """Read (and kept), then a table finished: its follow-up moves the club's read version,
    and the page, its JSON and its CSV show the new sessions and totals."""
    before = by_name(ranking_rows("?sort=total"))
    api = Client().get("/api/v1/clubs/ranked/ranking/").json()
    assert before["Bob"][4] == "4"  # sessions, all time
    with django_capture_on_commit_callbacks(execute=True):
        play(rc.club, [rc.ann, rc.bob, rc.cai, rc.dan], local(2024, 5, 1, 20), [SELFDRAW])
    after = by_name(ranking_rows("?sort=total"))
    assert after["Bob"][4] == "5"
    assert int(after["Bob"][6]) == int(before["Bob"][6]) + 3  # 自摸: three pay him 1
    fresh = Client().get("/api/v1/clubs/ranked/ranking/").json()
    bob = next(r for r in fresh["rows"] if r["name"] == "Bob")
    assert bob["sessions"] == 5
    assert bob["sessions"] == 1 + next(r for r in api["rows"] if r["name"] == "Bob")["sessions"]


def test_the_ranking_shows_a_new_display_name_at_once(rc):
    """A name is not derived data: the membership's save moves the club's read version."""
    assert "Annie" in by_name(ranking_rows())
    membership_update(
        membership=Membership.objects.get(club=rc.club, player=rc.ann), display_name="Anna"
    )
    names = by_name(ranking_rows())
    assert "Anna" in names and "Annie" not in names


def _recent_total(html: str, session_id: int) -> str | None:
    """His total at this table, as the page's last sessions list it."""
    found = re.search(
        rf'href="/sessions/{session_id}/".*?<span class="num[^"]*">([^<]+)</span>', html, re.S
    )
    return found.group(1) if found else None


def test_a_players_page_shows_a_hand_at_an_open_table_at_once_and_its_figures_once_finished(
    rc, django_capture_on_commit_callbacks
):
    """His last tables are live data (an open table's totals move with each hand, before any
    follow-up): the page's version holds his tables' data versions. His figures are derived:
    they move when the finished table's follow-up has written its lines."""
    path = f"/players/{rc.bob.pk}/"
    html = get(path).content.decode()
    assert "On 4 sessions" in text_of(html)
    with django_capture_on_commit_callbacks(execute=True):
        table = play(rc.club, [rc.ann, rc.bob, rc.cai, rc.dan], local(2024, 5, 1, 20), [],
                     close=False)  # fmt: skip
    html = get(path).content.decode()
    assert _recent_total(html, table.pk) == "0"
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(session=table, data=SELFDRAW, user=None)  # Bob 自摸: +3
    html = get(path).content.decode()
    assert _recent_total(html, table.pk) == "+3"
    assert "On 4 sessions" in text_of(html)  # an open table is in no figure
    with django_capture_on_commit_callbacks(execute=True):
        session_close(session=table)
    html = get(path).content.decode()
    assert "On 5 sessions" in text_of(html)
    assert _recent_total(html, table.pk) == "+3"


def test_a_players_page_follows_an_opponents_new_name(rc):
    """The head-to-head names his opponents: a player's rename moves his clubs' versions."""
    before = get(f"/players/{rc.bob.pk}/").content.decode()
    assert "Eve" in before
    rc.eve.name = "Evelyn"
    rc.eve.save()
    assert "Evelyn" in get(f"/players/{rc.bob.pk}/").content.decode()


def test_a_members_only_club_is_read_afresh_when_it_closes(rc):
    """Who may read a club is part of what a page shows: the club's save moves its version."""
    assert get(f"/players/{rc.bob.pk}/").status_code == 200
    assert "Bob" in by_name(ranking_rows())
    rc.club.visibility = type(rc.club).Visibility.MEMBERS
    rc.club.save()
    assert get("/clubs/ranked/ranking/").status_code == 404
    assert get(f"/players/{rc.bob.pk}/").status_code == 404


# --- pages --------------------------------------------------------------------------------------


@pytest.fixture
def big():
    """A club of 240 players, most of them with a session (totals entered), its lines and
    ratings built: more than two pages of ranking."""
    g = generated_club(players=240, sessions=260, slug="big")
    club_recompute(club_id=g.club.pk)
    return g


def test_the_ranking_shows_100_rows_a_page_then_the_next_and_all(big):
    total = len(club_ranking(big.club, ALL_TIME).rows)
    assert total > 2 * PAGE_SIZE
    everyone = ranking_rows("?page=all", slug="big")
    assert len(everyone) == total
    first, second = ranking_rows(slug="big"), ranking_rows("?page=2", slug="big")
    assert first == everyone[:PAGE_SIZE] and second == everyone[PAGE_SIZE : 2 * PAGE_SIZE]
    assert ranking_rows("?page=3", slug="big") == everyone[2 * PAGE_SIZE :]
    html = get("/clubs/big/ranking/?page=2").content.decode()
    text = text_of(html)
    assert f"Players 101–200 of {total}" in text and f"Show all {total}" in text
    assert 'href="?period=all&amp;page=3"' in html and 'href="?period=all&amp;page=all"' in html
    assert 'rel="prev" href="?period=all"' in html


def test_a_sort_is_kept_across_pages_and_starts_again_at_page_one(big):
    everyone = ranking_rows("?sort=name&page=all", slug="big")
    names = [row[1] for row in everyone]
    assert names == sorted(names)  # 玩家0000 … : their pinyin sorts as they are written
    assert ranking_rows("?sort=name&page=2", slug="big") == everyone[PAGE_SIZE : 2 * PAGE_SIZE]
    html = get("/clubs/big/ranking/?sort=name&page=2").content.decode()
    # the headings' links sort again from page 1; the pages' links keep the sort
    assert 'href="?period=all&amp;sort=total&amp;order=desc"' in html
    assert 'href="?period=all&amp;sort=name&amp;page=3"' in html
    # shown all, a new sort shows all still
    html = get("/clubs/big/ranking/?sort=name&page=all").content.decode()
    assert 'href="?period=all&amp;sort=total&amp;order=desc&amp;page=all"' in html


@pytest.mark.parametrize("bad", ["0", "-1", "x", "2.5", "１", "9" * 30, "4", "all2"])
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_a_bad_page_is_said_in_words(big, bad, lang):
    response = get(f"/clubs/big/ranking/?page={bad}", lang=lang)
    assert response.status_code == 400
    text = text_of(response.content.decode())
    if lang == "en":
        assert "The page is" in text
    else:
        assert "页" in text and "The page" not in text
    assert 'class="ranking-table"' not in response.content.decode()


def test_the_ranking_api_answers_a_page_of_rows_when_asked(rc):
    """Without ``page`` every row (as before); ``?page=2&page_size=2`` the third and fourth,
    ranked over the whole; ``count`` says how many there are. JSON and CSV alike."""
    client = Client()
    everyone = client.get("/api/v1/clubs/ranked/ranking/?sort=name").json()
    assert everyone["count"] == len(everyone["rows"]) == 5
    page = client.get("/api/v1/clubs/ranked/ranking/?sort=name&page=2&page_size=2").json()
    assert page["count"] == 5 and page["rows"] == everyone["rows"][2:4]
    last = client.get("/api/v1/clubs/ranked/ranking/?sort=name&page=3&page_size=2").json()
    assert last["rows"] == everyone["rows"][4:]
    csv = client.get("/api/v1/clubs/ranked/ranking/?sort=name&page=2&page_size=2&format=csv")
    assert csv.status_code == 200 and len(csv.content.decode().strip().splitlines()) == 3


@pytest.mark.parametrize(
    ("query", "status", "path"),
    [("page=0", 400, "page"), ("page=x", 400, "page"), ("page_size=501", 400, "page_size"),
     ("page=1&page_size=-2", 400, "page_size"), ("page=4&page_size=2", 404, "page")],
)  # fmt: skip
def test_a_bad_page_of_the_ranking_api_is_said_in_the_error_shape(rc, query, status, path):
    response = Client().get(f"/api/v1/clubs/ranked/ranking/?{query}")
    assert response.status_code == status
    assert [e["path"] for e in response.json()["errors"]] == [path]


# --- queries as many however big the club -------------------------------------------------------


def _queries(path: str) -> int:
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_ranking_pages_queries_are_as_many_for_4_and_12_players(
    django_capture_on_commit_callbacks,
):
    counts = []
    for tables in (1, 3):
        club = club_of_tables(tables, django_capture_on_commit_callbacks)
        path = f"/clubs/{club.slug}/ranking/"
        counts.append((_queries(path), _queries(path), _queries(path + "?page=all")))
    assert counts[0] == counts[1]
    computed, kept, _ = counts[0]
    assert kept <= 3 < computed  # the club (and its membership), the version: the rest kept


def test_a_players_pages_queries_are_as_many_however_long_his_history():
    counts = []
    for n, sessions in enumerate((20, 120)):
        g = generated_club(players=24, sessions=sessions, hands_per_session=2, slug=f"h{n}")
        club_recompute(club_id=g.club.pk)
        path = f"/players/{g.regular.pk}/"
        counts.append((_queries(path), _queries(path)))
    assert counts[0] == counts[1]
    computed, kept = counts[0]
    assert kept <= 3 < computed  # the player, whether he may be seen, the page's version
