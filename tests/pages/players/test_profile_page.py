"""A player's page /players/<id>/ over the evening of ``tests/ratings/stats_scenario`` (qq, base
1; the figures worked out by hand there and in ``tests/ratings/test_stats.py``): his rank and
rating per club, the charts drawn on the server, places, the Sichuan figures with their basis,
patterns, roots, head-to-head, his sessions and awards; who may see it; its queries."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club
from clubs.services.sessions import session_close, session_reopen
from pages.players import profile
from ratings.models import Rating
from ratings.periods import Period
from ratings.ranking import club_ranking
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.helpers import ascii_colons, login, member_login
from tests.pages.html_read import table_text, tables, text_of
from tests.ratings.stats_scenario import HAND_KONG_MULTI, START, evening, members, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def ev(monkeypatch):
    # "this year" of the awards is the club's year: 2025, the evening's
    monkeypatch.setattr(profile, "club_today", lambda club: date(2025, 6, 1))
    return evening()


def get(player, query: str = "", *, lang: str = "en", user=None):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    return client.get(f"/players/{player.pk}/{query}")


def body(player, query: str = "", **kw) -> str:
    response = get(player, query, **kw)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def svg(html: str, chart_id: str) -> str:
    match = re.search(rf'<svg [^>]*id="{chart_id}".*?</svg>', html, flags=re.S)
    assert match, chart_id
    return match.group(0)


def test_the_header_has_his_rating_and_rank_in_each_club(ev):
    html = body(ev.a)
    text = text_of(html)
    assert "A’s record (战绩)" in text
    rating = Rating.objects.get(player=ev.a, pool__tournament__isnull=True)
    ranking = club_ranking(ev.club, Period(zone=ev.club.time_zone)).rows
    rank = next(r.rank for r in ranking if r.player_id == ev.a.pk)
    assert f"Teahouse Rating {round(rating.rating)} ? No. {rank} of 5 3 rated sessions" in text
    assert 'href="/clubs/teahouse/ranking/"' in html


def test_scores_and_places(ev):
    html = body(ev.a)
    text = text_of(html)
    # +5, +20 (entered), −1: 3 sessions, one of entered totals; 2nd, 1st, 4th
    assert "On 3 sessions (1 of them with totals entered)" in text
    assert "Total +24 Average per session 8.0" in text
    assert table_text(html, "places") == [
        ["Sessions", "1", "1", "0", "1"],
        ["%", "33.3%", "33.3%", "0.0%", "33.3%"],
    ]


def test_the_sichuan_figures_with_their_basis(ev):
    html = body(ev.a)
    assert "On 4 hands in 2 sessions played hand by hand: 3 shown by tiles, 1 declared" in text_of(
        html
    )
    assert table_text(html, "stat-table") == [
        ["Win rate (胡牌率) 1 win in 4 hands", "25.0%"],
        ["Self-draw rate (自摸率) 0 of 1 win", "0.0%"],
        ["Deal-in rate (点炮率) 3 discards won on in 4 hands", "75.0%"],
        ["Self-drawn against (被自摸) paid 2 self-drawn wins", "50.0%"],
        ["Order of wins 1st / 2nd / 3rd to win a hand", "0 / 1 / 0"],
        ["Kongs (杠) concealed (暗杠) 1, direct (直杠) 0, added (弯杠) 1", "2"],
        ["Kong income, net kong payments and 退税; 呼叫转移 apart", "+7"],
        ["Kong transfer (呼叫转移) received / paid", "0 / 6"],
        ["Not ready at the draw (查叫) received / paid", "2 / 0"],
        ["Three suits at the draw (花猪) hands", "0"],
    ]


def test_wins_patterns_and_roots(ev):
    # C: 平胡 1 and 2 (shown), 清一色 4 (declared): 7 in 3 wins, the biggest hand 3 of session 1
    html = body(ev.c)
    text = text_of(html)
    assert "On 3 wins (2 shown by tiles, 1 declared)" in text
    assert "Average win 2.3 Biggest win 4 清一色 (Pure one suit) · hand 3" in text
    assert f'href="/sessions/{ev.sessions[0].pk}/hands/3/"' in html
    patterns = svg(html, "pattern-chart")
    assert re.findall(r"<text[^>]*>([^<]+)</text>", patterns) == [
        "平胡 (Basic win)", "2", "清一色 (Pure one suit)", "1",
    ]  # fmt: skip
    # B's roots: 平胡, 对对胡 + 1 根, 平胡: two wins without a root, one with one
    roots = svg(body(ev.b), "roots-chart")
    assert re.findall(r"<text[^>]*>([^<]+)</text>", roots) == ["0 roots", "2", "1 root", "1"]
    for chart in (patterns, roots):
        assert 'role="img"' in chart and "<title" in chart and "<desc" in chart


def test_the_score_chart_is_drawn_where_worked_out(ev):
    # A's running score: 0, +5, +25, +24 after sessions 0 … 3. The y scale is 0 … 30 (25 / 4
    # → a step of 10) on the plot's 22 … 162, x 0 … 3 on 44 … 326: y(5) = 162 − 5/30 · 140 =
    # 138.67, y(25) = 45.33, y(24) = 50; x 44, 138, 232, 326
    chart = svg(body(ev.a), "score-chart")
    assert 'points="44,162 138,138.67 232,45.33 326,50"' in chart
    assert '<line class="zero" x1="44" y1="162"' in chart
    assert ">Sessions played</text>" in chart and ">Score</text>" in chart
    assert ">Teahouse +24</text>" in chart  # the legend names the line with its total
    assert "Teahouse: 3 sessions, +24 in all (lowest 0, highest +25)" in chart


def test_the_rating_chart_starts_at_1500(ev):
    chart = svg(body(ev.a), "rating-chart")
    steps = [round(r) for r in Rating.objects.get(player=ev.a).pool.changes.filter(
        player=ev.a).order_by("played_at").values_list("rating_after", flat=True)]  # fmt: skip
    assert len(steps) == 3
    assert f"Teahouse: 1500 at first, {steps[-1]} now" in chart
    assert 'class="zero"' in chart  # the line every player starts on
    assert re.search(r'<polyline points="(\S+ ){3}\S+"', chart)  # 1500, then three steps


def test_dates_along_the_bottom(ev):
    # sessions at 20:00 in Chengdu on 1, 2 and 3 March 2025: two days across, two ticks
    html = body(ev.a, "?x=dates")
    chart = svg(html, "score-chart")
    assert ">Date (2025)</text>" in chart
    assert re.findall(r">(\d\d-\d\d)</text>", chart) == ["03-01", "03-03"]
    assert 'points="44,' in chart and ',50"' in chart  # first left, last (+24) at 50
    assert 'href="?x=sessions"' in html and 'aria-current="page">By date' in html


def test_head_to_head(ev):
    html = body(ev.a)
    assert table_text(html, "h2h") == [
        ["B", "3", "2–1–0", "+13"],
        ["C", "3", "2–1–0", "−6"],
        ["D", "2", "1–1–0", "−3"],
        ["E", "1", "0–1–0", "0"],
    ]
    [t] = tables(html, "h2h")
    assert [row[0]["href"] for row in t["rows"]] == [
        f"/players/{p.pk}/" for p in (ev.b, ev.c, ev.d, ev.e)
    ]


def test_his_last_sessions_link_to_their_tables(ev):
    html = body(ev.a)
    one, two, three = (s.pk for s in ev.sessions)
    found = re.findall(r'href="/sessions/(\d+)/"', html)
    assert found == [str(three), str(two), str(one)]  # the latest first
    assert "Table 3 2025-03-03 · Teahouse −1" in text_of(html).replace(f"Table {three}", "Table 3")


def test_the_awards_he_holds_this_year_and_of_all_time(ev):
    # A: 2 kongs (暗杠 5m, 弯杠 7s; B 1, D 1): 杠神; 3 点炮, the most: 散财童子; 3 sessions,
    # level with B and C: 常客 (ties share an award)
    text = text_of(body(ev.a))
    awards = text[text.index("Awards") :]
    held = "杠神 (God of kongs) 2 kongs Most kongs (concealed, direct and added)"
    assert held in awards and "散财童子 (Generous donor) 3 deal-ins" in awards
    assert "常客 (Regular) 3 sessions" in awards
    assert awards.index("This year (2025)") < awards.index(held) < awards.index("All time")
    # D's 清一色 自摸 for 8: 大满贯, with its hand
    html = body(ev.d)
    assert "大满贯 (Grand slam) 8 points · hand 1" in text_of(html)


def test_the_awards_follow_a_reopened_table(ev, django_capture_on_commit_callbacks,
                                             in_process_tasks):  # fmt: skip
    """The page reads the awards' read model; the outbox keeps it: session 1 reopened, D's
    大满贯 (its hand 1) is gone from his page, B's 平胡 of session 3 (1) the biggest win left;
    closed again, it is back."""
    slam = "大满贯 (Grand slam) 8 points · hand 1"
    with django_capture_on_commit_callbacks(execute=True):
        session_reopen(session=ev.sessions[0])
    assert slam not in text_of(body(ev.d))
    assert "大满贯 (Grand slam) 1 points · hand 1" in text_of(body(ev.b))
    with django_capture_on_commit_callbacks(execute=True):
        session_close(session=ev.sessions[0])
    assert slam in text_of(body(ev.d))


def test_only_readable_clubs_count(ev):
    annex = ClubFactory(name="Annex", slug="annex", visibility=Club.Visibility.MEMBERS)
    MembershipFactory(club=annex, player=ev.a)
    f, g, h = members(annex, "F", "G", "H")
    play(annex, [ev.a, f, g, h], START + timedelta(days=5), totals=[10, -10, 0, 0])
    # a visitor sees the public club alone
    text = text_of(body(ev.a))
    assert "Annex" not in text and "Total +24" in text
    # a member of the annex sees both clubs' figures, each club its own line and series
    member = member_login(annex)
    html = body(ev.a, user=member)
    assert "Total +34" in text_of(html) and "On 4 sessions" in text_of(html)
    assert [c for c in ("Annex", "Teahouse") if f">{c} " in svg(html, "score-chart")] == [
        "Annex", "Teahouse",
    ]  # fmt: skip
    # ?club= narrows the page to one club
    narrowed = body(ev.a, "?club=annex", user=member)
    assert "Total +10" in text_of(narrowed) and "Teahouse +24" not in narrowed
    assert "Total +24" in text_of(body(ev.a, "?club=teahouse", user=member))


def test_who_may_see_a_player(ev):
    private = ClubFactory(slug="backroom", visibility=Club.Visibility.MEMBERS)
    (hidden,) = members(private, "Z")
    assert get(hidden).status_code == 404
    assert get(hidden, user=login()).status_code == 404
    assert get(hidden, user=member_login(private)).status_code == 200
    assert Client().get("/players/999999/").status_code == 404
    # a members-only club asked for by an outsider does not exist
    assert get(ev.a, "?club=backroom").status_code == 404
    assert get(ev.a, "?club=nowhere").status_code == 404


def test_a_player_without_a_finished_table(ev):
    (newcomer,) = members(ev.club, "N")
    text = text_of(body(newcomer))
    assert "No finished club table yet." in text and "No finished session yet." in text
    assert "No win yet." in text and "Nobody yet." in text


def test_the_page_in_chinese(ev):
    html = body(ev.a, lang="zh-hans")
    text = text_of(html)
    assert "A的战绩" in text and "胡牌率" in text and "被自摸" in text and "花猪" in text
    assert "平胡" in svg(body(ev.c, lang="zh-hans"), "pattern-chart")
    assert "(Basic win)" not in html
    assert ascii_colons(html) == []


def count(player, query: str = "", user=None) -> int:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/players/{player.pk}/{query}").status_code == 200
    return len(ctx.captured_queries)


def test_the_queries_do_not_grow_with_his_history(ev):
    user = member_login(ev.club)
    few = [count(ev.a, q, user) for q in ("", "?x=dates", "?club=teahouse")]
    others = members(ev.club, "P", "Q", "R", "S")
    for day in range(3, 9):
        play(ev.club, [ev.a, *others[:3]], START + timedelta(days=day), [HAND_KONG_MULTI])
        play(ev.club, [ev.a, ev.b, *others[2:]], START + timedelta(days=day, hours=2),
             totals=[4, -2, -1, -1])  # fmt: skip
    assert [count(ev.a, q, user) for q in ("", "?x=dates", "?club=teahouse")] == few
    # the awards are read from their read model (one query), the last sessions alone
    assert few[0] <= 20


def test_the_awards_are_read_for_a_bounded_number_of_clubs(ev):
    def join(n: int) -> None:
        for i in range(n):
            club = ClubFactory(name=f"Club {i}")
            MembershipFactory(club=club, player=ev.a)
            rest = members(club, "X", "Y", "W")
            play(club, [ev.a, *rest], START + timedelta(days=10 + i), totals=[1, -1, 0, 0])

    join(profile.AWARD_CLUBS - 1)  # he plays in AWARD_CLUBS clubs
    at_the_bound = count(ev.a)
    join(2)  # and in two more
    assert count(ev.a) == at_the_bound <= 50
    assert "pick a club above" in body(ev.a)


def test_his_season_card_is_linked(ev):
    html = body(ev.a)
    assert f'href="/players/{ev.a.pk}/card.svg"' in html
    assert f'href="/players/{ev.a.pk}/card.svg?club={ev.club.slug}"' in body(
        ev.a, f"?club={ev.club.slug}"
    )
