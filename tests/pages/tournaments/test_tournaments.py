"""The tournament pages with Django's test client: home, standings, projector, printed seating,
live tables — what each shows, worked out by hand, who may open them, and query counts that do
not grow with the field (16 or 64 players).

The cup: four players P01–P04 at one table, two rounds, totals entered, placement points
4/2/1/0, the default chain (placement points, table score, first places, best table score,
head-to-head).

- Round 1: P01 +30, P02 +10, P03 −10, P04 −30 → 4, 2, 1, 0 points. After it: P01 1st, P02 2nd,
  P03 3rd, P04 4th.
- Round 2: P04 +40, P03 +20, P02 −30, P01 −30: P02 and P01 share 3rd and 4th, (1 + 0) / 2 = 0.5
  each; P04 4, P03 2.
- Totals: P01 4.5 points (table score 0), P04 4 (+10), P03 3 (+10), P02 2.5 (−20). Standings:
  P01 1st (=, as after round 1), P04 2nd (▲2), P03 3rd (=), P02 4th (▼2). First places: P01 1,
  P04 1; best table: P01 +30, P04 +40, P03 +20, P02 +10; no one is tied: head-to-head "—".
- Two rounds of two complete: the tournament is finished.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Role
from clubs.services.hands import hand_record
from tests.clubs.factories import ClubFactory
from tests.helpers import ascii_colons, login, member_login
from tests.scoring.engine.records import PINGHU
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

R1 = {"P01": 30, "P02": 10, "P03": -10, "P04": -30}
R2 = {"P04": 40, "P03": 20, "P02": -30, "P01": -30}


# --- building a tournament through the services --------------------------------------------------


@pytest.fixture
def host(db):
    return ClubFactory(slug="host", name="Host club", time_zone="Asia/Shanghai")


@pytest.fixture
def director(host):
    return member_login(host, Role.ORGANISER, "director")


@pytest.fixture
def make_tournament(host, director):
    def make(players: int = 4, names=(), **fields) -> Tournament:
        fields.setdefault("rounds", 2)
        fields.setdefault("hands_per_table", 1)
        t = services.tournament_create(
            name=fields.pop("name", "Spring Cup"), slug=fields.pop("slug", "spring-cup"),
            user=director, club=fields.pop("club", host), **fields,
        )  # fmt: skip
        for name in names or [f"P{i + 1:02d}" for i in range(players)]:
            services.registration_create(tournament=t, name=name, new_player=True)
        return t

    return make


@pytest.fixture
def enter(django_capture_on_commit_callbacks, in_process_tasks, director):
    """Enter a table's totals by player name (``{"P01": 30, …}``), running what it queues."""

    def run(table, by_name: dict[str, int]) -> None:
        seats = table.session.seats.select_related("player").order_by("number")
        scores = [{"player": s.player_id, "score": by_name[s.player.name]} for s in seats]
        with django_capture_on_commit_callbacks(execute=True):
            services.table_result_enter(table=table, scores=scores, user=director)

    return run


@pytest.fixture
def cup(make_tournament, seat, enter):
    t = make_tournament(players=4)
    enter(seat(t).tables.get(), R1)
    enter(seat(t).tables.get(), R2)
    t.refresh_from_db()
    return t


def by_score(table, amounts: list[int]) -> dict[str, int]:
    """Totals for a table whatever its seating: its four players by id, the lowest first,
    score the given amounts (their sum is 0)."""
    seats = sorted(table.session.seats.select_related("player"), key=lambda s: s.player_id)
    return {s.player.name: a for s, a in zip(seats, amounts, strict=True)}


def en() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


def zh() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="zh-hans")


# --- reading a page ------------------------------------------------------------------------------


class Rows(HTMLParser):
    """The body rows of the first ``<table class="{css}">``: each a list of its cells' text,
    with ``data-player`` of the row first."""

    def __init__(self, css: str) -> None:
        super().__init__()
        self.css, self.depth, self.rows, self.cell = css, 0, [], None
        self.in_body = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and self.css in (a.get("class") or "").split() and self.depth == 0:
            self.depth = 1
        elif self.depth and tag == "tbody":
            self.in_body = True
        elif self.depth and self.in_body and tag == "tr":
            self.rows.append([a.get("data-player")])
        elif self.depth and self.in_body and tag in ("td", "th"):
            self.cell = []
        elif self.cell is not None and "sr-only" in (a.get("class") or ""):
            self.cell.append(" [")

    def handle_endtag(self, tag):
        if self.depth and tag == "table":
            self.depth = 0
        elif self.depth and tag == "tbody":
            self.in_body = False
        elif self.cell is not None and tag in ("td", "th"):
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def table_rows(body: bytes, css: str) -> list[list[str]]:
    parser = Rows(css)
    parser.feed(body.decode())
    return parser.rows


def text_of(body: bytes) -> str:
    """The page's text, tags dropped, spaces squeezed."""
    return " ".join(re.sub(r"<[^>]+>", " ", body.decode()).split())


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


# --- the standings -------------------------------------------------------------------------------


def test_the_standings_are_the_hand_worked_ones_with_their_trend(cup):
    body = en().get("/tournaments/spring-cup/standings/").content
    rows = table_rows(body, "standings")
    ids = dict(cup.registrations.values_list("player__name", "player_id"))
    assert [r[0] for r in rows] == [str(ids[n]) for n in ("P01", "P04", "P03", "P02")]
    # rank, trend [its words], player, placement points, table score, first places, best
    # table, head-to-head, round 1 and round 2: table score (placement points)
    assert [r[1:] for r in rows] == [
        ["1", "= [same place", "P01", "4.5", "0", "1", "+30", "—", "+30 (4)", "−30 (0.5)"],
        ["2", "▲2 [up 2", "P04", "4", "+10", "1", "+40", "—", "−30 (0)", "+40 (4)"],
        ["3", "= [same place", "P03", "3", "+10", "0", "+20", "—", "−10 (1)", "+20 (2)"],
        ["4", "▼2 [down 2", "P02", "2.5", "−20", "0", "+10", "—", "+10 (2)", "−30 (0.5)"],
    ]
    text = text_of(body)
    # the chain named from the registry's Name(zh, en), in the page's language
    assert (
        "Ranked by: 名次分 (Placement points) → 桌分 (Table score) → 第一名次数 (First places) → "
        "单桌最高分 (Best table score) → 相互胜负 (Head-to-head)" in text
    )
    assert "After 2 complete rounds · 2 tables counted" in text
    assert "same place as after round 1" in text
    assert "Finished" in text


def test_the_standings_in_chinese_name_the_chain_alone_and_use_full_width_colons(cup):
    body = zh().get("/tournaments/spring-cup/standings/").content
    text = text_of(body)
    assert "名次分 → 桌分 → 第一名次数 → 单桌最高分 → 相互胜负" in text
    rows = table_rows(body, "standings")
    assert rows[1][2] == "▲2 [上升 2 名"  # the words in Chinese after the sign
    assert not ascii_colons(body.decode())


def test_a_shared_rank_says_so_and_the_first_round_has_no_trend(make_tournament, seat, enter):
    t = make_tournament(players=4, rounds=1)
    # P01 and P02 tie for first: (4 + 2) / 2 = 3 each, equal on every tiebreak (they met:
    # head-to-head 0 each) → both 1st, shared; P03 1 point, P04 0
    enter(seat(t).tables.get(), {"P01": 20, "P02": 20, "P03": -10, "P04": -30})
    rows = table_rows(en().get("/tournaments/spring-cup/standings/").content, "standings")
    assert [r[1:6] for r in rows] == [
        ["1 tied", "", "P01", "3", "+20"],  # no trend after the first round
        ["1 tied", "", "P02", "3", "+20"],
        ["3", "", "P03", "1", "−10"],
        ["4", "", "P04", "0", "−30"],
    ]
    assert [r[8] for r in rows] == ["0", "0", "—", "—"]  # head-to-head of the tied


def test_standings_before_any_result_say_so(make_tournament, seat):
    t = make_tournament(players=4)
    seat(t)
    body = en().get("/tournaments/spring-cup/standings/").content
    assert b"No standings yet" in body


def test_rank_changes_compare_with_the_round_before_the_latest(cup):
    table = selectors.latest_standings(cup)
    changes = selectors.rank_changes(cup, table)
    names = {r.player: r.name for r in table.rows}
    assert changes.since == 1
    assert {names[p]: r for p, r in changes.previous.items()} == {
        "P01": 1, "P02": 2, "P03": 3, "P04": 4
    }  # fmt: skip


# --- the tournament home -------------------------------------------------------------------------


def test_the_home_page_shows_the_tournament_and_its_rounds(cup):
    body = en().get("/tournaments/spring-cup/").content
    text = text_of(body)
    assert "Spring Cup" in text and "Host club" in text and "Finished" in text
    assert "4 players" in text and "2 of 2 seated" in text
    assert "Round 1 Seated 1 of 1 tables done" in text
    assert "4 / 2 / 1 / 0" in text
    assert b'href="/clubs/host/"' in body  # a public club: linked
    assert b'href="/tournaments/spring-cup/rounds/2/print/"' in body
    assert b'href="/tournaments/spring-cup/projector/?show=seating"' in body


def test_the_dates_are_in_the_club_time_zone(cup):
    seated = cup.round_set.get(number=1).seated_at
    Club.objects.filter(pk=cup.club_id).update(time_zone="America/New_York")
    from zoneinfo import ZoneInfo

    there = seated.astimezone(ZoneInfo("America/New_York")).strftime("%Y-%m-%d %H:%M")
    shanghai = seated.astimezone(ZoneInfo("Asia/Shanghai")).strftime("%Y-%m-%d %H:%M")
    assert there != shanghai
    text = text_of(en().get("/tournaments/spring-cup/").content)
    assert there in text and shanghai not in text


def test_a_public_tournament_of_a_members_only_club_hides_the_club(make_tournament, host):
    Club.objects.filter(pk=host.pk).update(visibility=Club.Visibility.MEMBERS)
    make_tournament(players=4)
    outsider = Client(HTTP_ACCEPT_LANGUAGE="en")
    outsider.force_login(login())
    for client in (en(), outsider):
        answer = client.get("/tournaments/spring-cup/")
        assert answer.status_code == 200
        assert b'href="/clubs/host/"' not in answer.content  # no link to a page he may not read
        assert "Host club" in text_of(answer.content)
        assert client.get("/clubs/host/").status_code == 404
    member = Client(HTTP_ACCEPT_LANGUAGE="en")
    member.force_login(member_login(host))
    assert b'href="/clubs/host/"' in member.get("/tournaments/spring-cup/").content


def test_a_private_tournament_is_not_found_for_outsiders(make_tournament, host, seat):
    t = make_tournament(players=4, is_public=False)
    seat(t)
    Club.objects.filter(pk=host.pk).update(visibility=Club.Visibility.MEMBERS)
    outsider = Client()
    outsider.force_login(login())
    member = Client()
    member.force_login(member_login(host))
    for path in ("", "standings/", "projector/", "live/", "rounds/1/print/"):
        url = f"/tournaments/spring-cup/{path}"
        assert Client().get(url).status_code == 404
        assert outsider.get(url).status_code == 404
        assert member.get(url).status_code == 200
    assert Client().get("/tournaments/nothing/").status_code == 404


# --- the printed seating -------------------------------------------------------------------------

NAMES = ["张三", "李四", "王五", "赵六", "陈七", "刘八", "Tom", "安九", "曾十"]


def test_the_printed_seating_has_a_block_per_table_and_names_in_pinyin_order(make_tournament, seat):
    t = make_tournament(names=NAMES)  # nine players: two tables, one bye
    round_ = seat(t)
    body = en().get("/tournaments/spring-cup/rounds/1/print/").content
    text = text_of(body)
    # "where do I sit": 安 an, 陈 chen, 李 li, 刘 liu, Tom, 王 wang, 曾 zeng, 张 zhang, 赵 zhao
    names = body.decode().split('class="name-list"')[1]
    listed = re.findall(r'<li><span class="name">([^<]+)</span>', names)
    assert listed == ["安九", "陈七", "李四", "刘八", "Tom", "王五", "曾十", "张三", "赵六"]
    # each table's block: its seats in order, seat 0 East and first dealer
    winds = ["东 (East)", "南 (South)", "西 (West)", "北 (North)"]
    for row in selectors.seat_rows(round_):
        if row.table is None:
            assert f"{row.name} bye" in text
            continue
        where = f"{row.name} Table {row.table} · {winds[row.seat]}"
        assert where in text
    blocks = re.findall(r'<article class="seat-block">(.*?)</article>', body.decode(), re.S)
    assert len(blocks) == 2
    for block in blocks:
        assert block.count("<li") == 4 and block.count("deals first") == 1
        assert re.search(r'class="first-dealer"><span class="wind-name">东 \(East\)', block)
    assert "Byes this round" in text
    assert b"@media print" not in body  # the print stylesheet is in site.css


def test_a_round_not_seated_or_missing(make_tournament, seat):
    t = make_tournament(players=4)
    seat(t)
    assert en().get("/tournaments/spring-cup/rounds/2/print/").status_code == 404
    cards = en().get("/tournaments/spring-cup/rounds/1/print/?cards=1")
    assert b"print-cards" in cards.content


# --- the live tables -----------------------------------------------------------------------------


def test_the_live_tables_tell_done_from_playing(make_tournament, seat, enter, host):
    # eight players, two tables of four hands (普通: PINGHU is a whole hand)
    t = make_tournament(players=8, hands_per_table=4, mode="single")
    round_ = seat(t)
    one, two = round_.tables.order_by("number")
    scorer = member_login(host, Role.SCORER)
    hand_record(session=one.session, data=PINGHU, user=scorer)
    hand_record(session=one.session, data=PINGHU, user=scorer)
    enter(two, by_score(two, [5, 1, -2, -4]))
    body = en().get("/tournaments/spring-cup/live/").content
    text = text_of(body)
    assert "Round 1: the tables" in text
    assert "✓ 1 done ▶ 1 playing" in text
    assert "Table 1 ▶ playing 2 / 4 hands" in text
    assert "Table 2 ✓ done: totals entered" in text
    assert b'<meta http-equiv="refresh" content="30">' in body
    assert b'href="/sessions/' in body  # a public club: its tables are linked
    # two more hands: table 1 is done too
    hand_record(session=one.session, data=PINGHU, user=scorer)
    hand_record(session=one.session, data=PINGHU, user=scorer)
    text = text_of(en().get("/tournaments/spring-cup/live/").content)
    assert "✓ 2 done ▶ 0 playing" in text and "Table 1 ✓ done 4 / 4 hands" in text


def test_the_live_tables_before_the_first_round(make_tournament):
    make_tournament(players=4)
    assert b"No round is seated yet." in en().get("/tournaments/spring-cup/live/").content


# --- the projector -------------------------------------------------------------------------------


def test_the_projector_shows_standings_or_seating_without_navigation(cup):
    body = en().get("/tournaments/spring-cup/projector/").content
    assert b'class="site-header"' not in body and b'class="tabs"' not in body
    assert b"<svg" in body and b"qr-code" in body  # the QR code, inline
    assert b"http://testserver/tournaments/spring-cup/" in body
    rows = table_rows(body, "proj-standings")
    assert [r[1:5] for r in rows] == [
        ["1", "= [same place", "P01", "4.5"],
        ["2", "▲2 [up 2", "P04", "4"],
        ["3", "= [same place", "P03", "3"],
        ["4", "▼2 [down 2", "P02", "2.5"],
    ]
    seating = en().get("/tournaments/spring-cup/projector/?show=seating").content
    text = text_of(seating)
    assert "Round 2: seating" in text and "Table 1" in text
    assert seating.count(b'class="wind-name"') == 4
    assert en().get("/tournaments/spring-cup/projector/?show=bogus").status_code == 200


def test_the_projector_before_any_seating(make_tournament):
    make_tournament(players=4)
    body = en().get("/tournaments/spring-cup/projector/?show=seating").content
    assert b"No round is seated yet." in body


# --- query counts --------------------------------------------------------------------------------

PAGES = [
    "/tournaments/cup/",
    "/tournaments/cup/standings/",
    "/tournaments/cup/projector/",
    "/tournaments/cup/projector/?show=seating",
    "/tournaments/cup/rounds/2/print/",
    "/tournaments/cup/live/",
]


def _played(make_tournament, seat, enter, players: int) -> Tournament:
    """Two rounds of ``players`` (16 or 64), every table of both entered; a third seated."""
    t = make_tournament(players=players, rounds=3, slug="cup", seating="random")
    for _ in range(2):
        round_ = seat(t)
        for table in round_.tables.all():
            enter(table, by_score(table, [30, 10, -10, -30]))
    seat(t)
    return t


@pytest.mark.parametrize("url", PAGES)
def test_query_counts_do_not_grow_with_the_field(
    make_tournament, seat, enter, host, url, django_assert_max_num_queries
):
    member = Client()
    member.force_login(member_login(host))
    counts = []
    for players in (16, 64):
        Tournament.objects.filter(slug="cup").update(slug=f"cup-before-{players}")
        _played(make_tournament, seat, enter, players)
        with django_assert_max_num_queries(14):  # the first read of a snapshot: one more
            assert member.get(url).status_code == 200
        counts.append([count_queries(Client(), url), count_queries(member, url)])
    assert counts[0] == counts[1]


DIRECTOR_PAGES = [
    "/tournaments/cup/desk/",
    "/tournaments/cup/entries/",
    "/tournaments/cup/check-in/",
    "/tournaments/cup/report/",
    "/tournaments/cup/rounds/3/cards/",
    "/tournaments/cup/penalties/",
]


@pytest.mark.parametrize("url", DIRECTOR_PAGES)
def test_the_scorekeepers_pages_read_as_many_times_at_64_players_as_at_16(
    make_tournament, seat, enter, host, url
):
    director = Client()
    director.force_login(member_login(host, Role.ORGANISER))
    counts = []
    for players in (16, 64):
        Tournament.objects.filter(slug="cup").update(slug=f"cup-before-{players}")
        _played(make_tournament, seat, enter, players)
        director.get(url)  # the first read of a snapshot and the cards' keys: once
        counts.append(count_queries(director, url))
    assert counts[0] == counts[1]


# --- the report ----------------------------------------------------------------------------------


def test_the_report_lists_the_standings_every_round_and_who_entered_it(
    make_tournament, seat, enter, host, director
):
    """Round 1 of the cup (P01 +30, P02 +10, P03 −10, P04 −30: 4, 2, 1, 0), entered by the
    director; P02 given a penalty of 1 for being late, then revoked; round 1 unlocked to check
    a total. The report shows the standings as the standings page does, the table with its
    seats, table scores and placement points, the penalty struck through with both reasons,
    the unlock's reason, and — to the club's members only — who entered the table."""
    t = make_tournament(players=4)
    round_ = seat(t)
    enter(round_.tables.get(), R1)
    penalty = services.penalty_give(
        tournament=t, player_id=t.registrations.get(player__name="P02").player_id,
        points=1, reason="late", words="ten minutes", round_number=1, user=director,
    )  # fmt: skip
    services.penalty_revoke(penalty=penalty, reason="his bus was late", user=director)
    services.round_unlock(round_=round_, reason="check the West total", user=director)
    member = Client(HTTP_ACCEPT_LANGUAGE="en")
    member.force_login(member_login(host))
    body = member.get("/tournaments/spring-cup/report/").content
    rows = table_rows(body, "standings")
    assert [r[3] for r in rows] == ["P01", "P02", "P03", "P04"]
    seats = table_rows(body, "report-tables")
    # table number (first row), seat, player, table score, placement points
    assert sorted((r[-3], r[-2], r[-1]) for r in seats) == [
        ("P01", "30", "4"),
        ("P02", "10", "2"),
        ("P03", "-10", "1"),
        ("P04", "-30", "0"),
    ]
    text = text_of(body)
    assert "entered by director" in text
    assert "ten minutes" in text and "his bus was late" in text
    assert "Round 1 unlocked by director" in text and "check the West total" in text
    # an anonymous reader of the public cup sees no usernames
    assert "entered by" not in text_of(en().get("/tournaments/spring-cup/report/").content)


def test_the_report_as_csv_has_a_row_per_player_and_round(cup):
    """Eight rows: two rounds of one table of four. Round 1: P01 +30 (4), P02 +10 (2), P03 −10
    (1), P04 −30 (0); round 2: P04 +40 (4), P03 +20 (2), P02 and P01 −30 sharing 3rd and 4th,
    (1 + 0) / 2 = 0.5 each."""
    answer = en().get("/tournaments/spring-cup/report/?format=csv")
    assert answer["Content-Type"].startswith("text/csv")
    lines = answer.content.decode().splitlines()
    assert (
        lines[0] == "round,table,seat,player,name,table_score,placement_points,bye,substitute_for"
    )
    got = sorted(tuple(line.split(",")[i] for i in (0, 4, 5, 6)) for line in lines[1:])
    assert got == sorted([
        ("1", "P01", "30", "4"), ("1", "P02", "10", "2"), ("1", "P03", "-10", "1"),
        ("1", "P04", "-30", "0"), ("2", "P04", "40", "4"), ("2", "P03", "20", "2"),
        ("2", "P02", "-30", "0.5"), ("2", "P01", "-30", "0.5"),
    ])  # fmt: skip


def test_the_report_speaks_chinese(cup):
    text = text_of(zh().get("/tournaments/spring-cup/report/").content)
    assert "报告" in text and "第 1 轮" in text and "桌分" in text


@pytest.fixture
def cup_with_a_bye_and_a_substitute(
    make_tournament, seat, enter, director, django_capture_on_commit_callbacks
):
    """Five entries — P01–P04 and ``+P05`` (a name a spreadsheet would take for a formula) —
    two rounds: one table and a bye each. Round 1: ``=SUB`` plays for the entry at the East
    seat's right (South), then the table's totals +30, +10, −10, −30 in seat order; round 2
    seated, nothing entered yet. Returns the tournament and its players' ids by name
    (``P05``: ``+P05``, ``SUB``: ``=SUB``)."""
    t = make_tournament(names=["P01", "P02", "P03", "P04", "+P05"])
    table = seat(t).tables.get()
    seats = list(table.session.seats.select_related("player").order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        services.substitute_seat(
            table=table, absent_id=seats[1].player_id, name="=SUB", new_player=True, user=director
        )
    seats = list(table.session.seats.select_related("player").order_by("number"))
    totals = (30, 10, -10, -30)
    enter(table, {s.player.name: total for s, total in zip(seats, totals, strict=True)})
    seat(t)
    t.refresh_from_db()
    ids = dict(t.registrations.values_list("player__name", "player_id"))
    ids["SUB"] = next(s.player_id for s in seats if s.player.name == "=SUB")
    ids["P05"] = ids.pop("+P05")
    return t, ids


def test_the_report_csv_with_a_bye_and_a_substitute_is_the_same_byte_for_byte(
    cup_with_a_bye_and_a_substitute,
):
    """The whole file: a seat's wind letter, the bye's empty table and seat with the bye's
    score (0) and points (the mean 1.75), the substitute's seat with the absent entry's cell
    (the tournament credits the registered player) and his name, round 2 without results;
    ``+P05`` and ``=SUB`` written with an apostrophe (never a formula)."""
    t, ids = cup_with_a_bye_and_a_substitute
    answer = en().get("/tournaments/spring-cup/report/?format=csv")
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="spring-cup-report.csv"'
    assert answer.content.decode() == REPORT_CSV.format(**ids)


#: the report's CSV of ``cup_with_a_bye_and_a_substitute`` (players' ids by name)
REPORT_CSV = (
    "round,table,seat,player,name,table_score,placement_points,bye,substitute_for\r\n"
    "1,1,E,{P01},P01,30,4,,\r\n"
    "1,1,S,{SUB},'=SUB,10,2,,P03\r\n"
    "1,1,W,{P05},'+P05,-10,1,,\r\n"
    "1,1,N,{P04},P04,-30,0,,\r\n"
    "1,,,{P02},P02,0,1.75,yes,\r\n"
    "2,1,E,{P03},P03,,,,\r\n"
    "2,1,S,{P02},P02,,,,\r\n"
    "2,1,W,{P04},P04,,,,\r\n"
    "2,1,N,{P01},P01,,,,\r\n"
    "2,,,{P05},'+P05,0,1.75,yes,\r\n"
)


def test_the_report_page_with_a_bye_and_a_substitute_is_the_same(
    cup_with_a_bye_and_a_substitute, host
):
    """Each round's table as the page draws it: the table number heading its four rows (with
    who entered it, for a member), the seat's wind, the player, the table score and the
    placement points (— while the table does not count yet); the byes listed under it."""
    member = Client(HTTP_ACCEPT_LANGUAGE="en")
    member.force_login(member_login(host))
    body = member.get("/tournaments/spring-cup/report/").content.decode()
    tables = re.findall(r'<table class="report-tables">.*?</table>\s*<p>.*?</p>', body, re.S)
    head = (
        '<table class="report-tables">\n    <thead><tr><th>Table</th><th>Seat</th><th>Player</th>'
        '<th class="num">Table score</th><th class="num">Placement points</th></tr></thead>\n'
        '    <tbody><tr class="table-start"><th rowspan="4" scope="rowgroup">1'
    )
    assert tables == [
        head + '<small class="muted entered-by">entered by director</small></th>'
        '<td>东 (East)</td><td>P01</td><td class="num">30</td><td class="num">4</td></tr>'
        '<tr><td>南 (South)</td><td>=SUB</td><td class="num">10</td><td class="num">2</td></tr>'
        '<tr><td>西 (West)</td><td>+P05</td><td class="num">-10</td><td class="num">1</td></tr>'
        '<tr><td>北 (North)</td><td>P04</td><td class="num">-30</td><td class="num">0</td></tr>'
        "</tbody>\n  </table>\n  <p>Byes: P02</p>",
        head + "</th>"
        '<td>东 (East)</td><td>P03</td><td class="num">—</td><td class="num">—</td></tr>'
        '<tr><td>南 (South)</td><td>P02</td><td class="num">—</td><td class="num">—</td></tr>'
        '<tr><td>西 (West)</td><td>P04</td><td class="num">—</td><td class="num">—</td></tr>'
        '<tr><td>北 (North)</td><td>P01</td><td class="num">—</td><td class="num">—</td></tr>'
        "</tbody>\n  </table>\n  <p>Byes: +P05</p>",
    ]
