"""The round page, ``/tournaments/<slug>/rounds/<n>/``: a round's tables on a phone, 100 a page
(``?page=N``, ``?page=all``, any other ``?page=`` a page there is, as the standings), each with
its seats' winds and players and the first dealer, the byes on the last page; "where do I sit"
(``?q=``, a name by 汉字 or pinyin) answers the player's table linked to the page that shows
it. Kept drawn under the version of the seats it shows (the printed seating's, a page's tables
alone): a reseat, a substitute or a rename shows at once, a hand played draws nothing again.
Its queries do not grow with the round (40 or 400 tables)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Player, Role, Seat
from clubs.services.hands import hand_record
from tests.clubs.factories import ClubFactory
from tests.helpers import login, member_login, two_reads
from tests.pages.tournaments.test_standings_pages import without_tokens
from tests.scoring.engine.records import PINGHU
from tournaments import selectors, services
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db

NAMES = ["张三", "李四", "王五", "赵六", "陈七", "刘八", "Tom", "安九", "曾十"]


def seated_field(
    players: int, slug: str = "big-open", *, public: bool = True, seated: bool = True
) -> Tournament:
    """``players`` registered (written in bulk), round 1 seated by a random draw (or only
    asked for: ``seated`` False). Not public: its club is members-only too."""
    club = ClubFactory(slug=f"club-{slug}", visibility="public" if public else "members")
    t = services.tournament_create(
        name=slug, slug=slug, user=member_login(club, Role.ORGANISER, f"d-{slug}"), club=club,
        rounds=2, seating="random", seed=7, is_public=public,
    )  # fmt: skip
    made = Player.objects.bulk_create(Player(name=f"{slug}-{i:05d}") for i in range(players))
    Registration.objects.bulk_create(
        Registration(tournament=t, player=p, seed_rating=3000 - i) for i, p in enumerate(made)
    )
    round_ = services.round_start(tournament=t)  # its task waits for the commit: never here
    if seated:
        services.round_seat(round_id=round_.pk)
    return t


def named_field(names: list[str], seat, *, hands: int = 1) -> Tournament:
    """A tournament of these players (made through the services), round 1 seated."""
    club = ClubFactory(slug="host")
    t = services.tournament_create(
        name="Spring Cup", slug="spring-cup", user=member_login(club, Role.ORGANISER), club=club,
        rounds=2, hands_per_table=hands, mode="single",  # (PINGHU is a whole hand of 普通)
    )  # fmt: skip
    for name in names:
        services.registration_create(tournament=t, name=name, new_player=True)
    seat(t)
    return t


def get(path: str, language: str = "en") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200, (path, response.status_code)
    return without_tokens(response.content.decode())


def tables_on(body: str) -> list[int]:
    return [int(n) for n in re.findall(r'<article class="seat-block" id="table-(\d+)">', body)]


def seats_on(body: str, table: int) -> list[str]:
    """The names at a table as the page lists them, in seat order."""
    block = re.search(rf'id="table-{table}">(.*?)</article>', body, re.S)
    assert block, table
    return re.findall(r'<span class="name">([^<]+)</span>', block.group(1))


def found_on(body: str) -> list[tuple[str, str, str]]:
    """The search's answers: (name, link, where)."""
    _, _, listed = body.partition('class="name-list found-list"')
    listed = listed.split("</ul>")[0]
    return re.findall(
        r'<span class="name">([^<]+)</span> <a class="where" href="([^"]+)">([^<]+)</a>', listed
    )


@pytest.fixture
def open1002() -> Tournament:
    return seated_field(1002, slug="open1002")  # 250 tables and 2 byes


def path_of(t: Tournament, number: int = 1) -> str:
    return f"/tournaments/{t.slug}/rounds/{number}/"


# --- pages ----------------------------------------------------------------------------------------


def test_a_page_of_tables_at_a_time_and_all_on_one(open1002):
    path = path_of(open1002)
    first = get(path)
    assert tables_on(first) == list(range(1, 101))
    assert "Page 1 of 3: tables 1–100 of 250" in first
    assert 'href="?page=2" rel="next"' in first and 'rel="prev"' not in first
    assert 'href="?page=all"' in first and "250 tables" in first
    assert 'id="byes"' not in first  # the byes are on the last page
    second = get(path + "?page=2")
    assert tables_on(second) == list(range(101, 201))
    assert "tables 101–200 of 250" in second and 'href="?page=1" rel="prev"' in second
    last = get(path + "?page=3")
    assert tables_on(last) == list(range(201, 251)) and "tables 201–250 of 250" in last
    assert 'rel="next"' not in last and 'id="byes"' in last
    every = get(path + "?page=all")
    assert tables_on(every) == list(range(1, 251)) and "All 250 tables" in every
    assert 'id="byes"' in every


def test_each_table_shows_its_seats_in_order_with_the_winds_and_the_first_dealer(open1002):
    round_ = open1002.round_set.get(number=1)
    body = get(path_of(open1002) + "?page=2")
    rows = [r for r in selectors.seat_rows(round_) if r.table is not None and 101 <= r.table <= 200]
    for table in (101, 150, 200):
        assert seats_on(body, table) == [r.name for r in rows if r.table == table]
    block = re.search(r'id="table-150">(.*?)</article>', body, re.S).group(1)
    assert re.findall(r'<span class="wind-name">([^<]+)</span>', block) == [
        "东 (East)", "南 (South)", "西 (West)", "北 (North)"
    ]  # fmt: skip
    assert block.count("deals first") == 1
    assert re.search(r'class="first-dealer"><span class="wind-name">东 \(East\)', block)
    byes = re.search(r'id="byes">(.*?)</article>', get(path_of(open1002) + "?page=3"), re.S)
    names = dict(Player.objects.filter(pk__in=round_.byes).values_list("pk", "name"))
    assert re.findall(r'<span class="name">([^<]+)</span>', byes.group(1)) == [
        names[p] for p in round_.byes
    ]


@pytest.mark.parametrize(
    "asked, page",
    [("0", 1), ("-3", 1), ("x", 1), ("", 1), ("2.5", 1), ("99999", 3), ("9" * 60, 3),
     ("３", 3), ("1e3", 1), ("%00", 1), ("all ", 1)],
)  # fmt: skip
def test_any_other_page_asked_is_a_page_there_is(open1002, asked, page):
    body = get(f"{path_of(open1002)}?page={asked}")
    assert f"Page {page} of 3:" in body
    assert tables_on(body)[0] == (page - 1) * 100 + 1


def test_a_small_round_has_no_pages_and_speaks_chinese(seat):
    t = named_field(NAMES, seat)  # nine players: two tables, one bye
    body = get(path_of(t), "zh-Hans")
    assert "standings-pager" not in body and tables_on(body) == [1, 2]
    assert "第 1 轮座位表" in body and "第 1 桌" in body and "本轮轮空" in body
    assert "我坐哪儿？" in body and "打印座位表" in body
    assert '<span class="wind-name">东</span>' in body
    assert "deals first" not in body and "Table" not in body


def test_the_pages_in_chinese(open1002):
    body = get(f"{path_of(open1002)}?page=2", "zh-Hans")
    assert "第 2 页，共 3 页：第 101–200 桌，共 250 桌" in body and "显示全部" in body
    assert "共 250 桌，全部显示" in get(f"{path_of(open1002)}?page=all", "zh-Hans")


# --- "where do I sit" -----------------------------------------------------------------------------


def test_a_name_finds_its_table_and_the_page_that_holds_it(open1002):
    round_ = open1002.round_set.get(number=1)
    seat = Seat.objects.get(session=round_.tables.get(number=173).session, number=2)
    Player.objects.filter(pk=seat.player_id).update(name="张三丰")
    path = path_of(open1002)
    for query in ("张三丰", "三丰", "zhangsanfeng", "ZhangSanFeng", "zsf", "sanfeng"):
        body = get(f"{path}?q={query}")
        assert found_on(body) == [("张三丰", "?page=2#table-173", "Table 173 · 西 (West)")], query
        assert "1 player matches" in body
    # the link leads to the table
    assert seats_on(get(f"{path}?page=2"), 173)[2] == "张三丰"
    zh = get(f"{path}?q=zsf", "zh-Hans")
    assert found_on(zh) == [("张三丰", "?page=2#table-173", "第 173 桌 · 西")]
    assert "1 位选手符合“zsf”" in zh  # a tournament's players, not a club's 牌友


def test_a_bye_is_found_as_a_bye_on_the_last_page(open1002):
    bye = open1002.round_set.get(number=1).byes[0]
    Player.objects.filter(pk=bye).update(name="Bye Person")
    body = get(f"{path_of(open1002)}?q=bye+person")
    assert found_on(body) == [("Bye Person", "?page=3#byes", "bye")]


def test_many_matches_show_the_first_in_pinyin_order_and_say_how_many(open1002):
    body = get(f"{path_of(open1002)}?q=open1002-00")
    found = found_on(body)
    assert len(found) == 20 and "1000 players match" in body
    assert "The first 20 of 1000: search to find the others." in body
    assert [f[0] for f in found] == sorted(f[0] for f in found)


def test_names_in_pinyin_order(seat):
    t = named_field([*NAMES, "张三丰"], seat)
    body = get(f"{path_of(t)}?q=z")  # 张三 zhangsan, 赵六 zhaoliu, 曾十 zengshi, 张三丰 …
    assert [f[0] for f in found_on(body)] == ["曾十", "张三", "张三丰", "赵六"]


def test_no_match_says_so(open1002):
    body = get(f"{path_of(open1002)}?q=nobody-by-this-name")
    assert "Nobody matches." in body and found_on(body) == []
    assert tables_on(body) == list(range(1, 101))  # the tables are there still
    assert "没有符合的牌友。" in get(f"{path_of(open1002)}?q=无此人", "zh-Hans")


# --- never stale ----------------------------------------------------------------------------------


def test_a_rename_shows_at_once_on_the_page_and_in_the_search(open1002):
    path = path_of(open1002) + "?page=2"
    before = get(path)
    assert get(path) == before  # kept: the same page
    round_ = open1002.round_set.get(number=1)
    seat = Seat.objects.get(session=round_.tables.get(number=120).session, number=0)
    Player.objects.filter(pk=seat.player_id).update(name="Zz Renamed")
    assert seats_on(get(path), 120)[0] == "Zz Renamed"
    assert found_on(get(path_of(open1002) + "?q=zzrenamed"))[0][1] == "?page=2#table-120"
    # a bye's name on the last page too
    Player.objects.filter(pk=round_.byes[0]).update(name="Bye Renamed")
    assert "Bye Renamed" in get(path_of(open1002) + "?page=3")


def test_a_substitute_shows_at_once(open1002):
    path = path_of(open1002)
    get(path)
    get(path + "?q=reserve")
    round_ = open1002.round_set.get(number=1)
    table = round_.tables.get(number=7)
    absent = table.session.seats.get(number=1).player_id
    services.substitute_seat(
        table=table, absent_id=absent, user=login(), name="Reserve Player", new_player=True
    )
    assert seats_on(get(path), 7)[1] == "Reserve Player"
    assert found_on(get(path + "?q=reserve"))[0][1:] == ("?page=1#table-7", "Table 7 · 南 (South)")


def test_a_reseat_shows_at_once(open1002):
    path = path_of(open1002)
    before = get(path)
    round_ = open1002.round_set.get(number=1)
    Tournament.objects.filter(pk=open1002.pk).update(seed=8)  # another draw
    services.round_seat(round_id=round_.pk, reseat=True)
    after = get(path)
    round_.refresh_from_db()
    rows = selectors.seat_rows(round_)
    assert [seats_on(after, n) for n in (1, 2)] != [seats_on(before, n) for n in (1, 2)]
    for n in (1, 2, 100):
        assert seats_on(after, n) == [r.name for r in rows if r.table == n]
    moved = rows[0]
    assert found_on(get(f"{path}?q={moved.name}"))[0][2] == "Table 1 · 东 (East)"


def test_a_hand_played_draws_nothing_again(seat):
    t = named_field([f"P{i}" for i in range(8)], seat, hands=4)
    path = path_of(t)
    before = get(path)
    session = t.round_set.get(number=1).tables.get(number=1).session
    hand_record(session=session, data=PINGHU, user=member_login(t.club, Role.SCORER))
    with CaptureQueriesContext(connection) as read:
        assert get(path) == before
    # the seats are read for their version alone (a sum of hashes), never to draw them again
    seat_reads = [q["sql"] for q in read.captured_queries if "clubs_seat" in q["sql"]]
    assert seat_reads and all("hashtext" in sql for sql in seat_reads), seat_reads


# --- what it reads --------------------------------------------------------------------------------


def _queries(path: str) -> tuple[int, int]:
    return two_reads(path)[:2]


def test_the_queries_are_the_same_with_40_or_400_tables():
    small, big = seated_field(160, slug="forty"), seated_field(1600, slug="four-hundred")
    for asked in ("", "?page=all", "?q=zz", "?q=-00001"):
        assert _queries(path_of(small) + asked) == _queries(path_of(big) + asked), asked
    first, again = _queries(path_of(big) + "?page=3")
    # the tournament (with its club), the round, the version of the page's seats; a page
    # not drawn before reads the round's tables and the page's seats too
    assert again == 3 and first <= 6, (first, again)


# --- who, and what is not there -------------------------------------------------------------------


def test_no_such_round_or_tournament_is_not_found(open1002):
    assert Client().get(path_of(open1002, 2)).status_code == 404  # not started
    assert Client().get(path_of(open1002, 99)).status_code == 404
    assert Client().get("/tournaments/nothing/rounds/1/").status_code == 404


def test_a_round_not_seated_yet_says_so():
    t = seated_field(8, slug="waiting", seated=False)
    assert t.round_set.get(number=1).status == Round.Status.SEATING
    body = get(path_of(t))
    assert "This round is not seated: Being seated." in body
    assert "Where do I sit?" not in body and tables_on(body) == []


def test_a_private_tournament_is_its_clubs_alone():
    t = seated_field(8, slug="private", public=False)
    outsider = Client()
    outsider.force_login(login())
    member = Client()
    member.force_login(member_login(t.club))
    for client, status in ((Client(), 404), (outsider, 404), (member, 200)):
        assert client.get(path_of(t)).status_code == status
        assert client.get(f"/tournaments/{t.slug}/rounds/1/print/").status_code == status


@pytest.mark.parametrize(
    "query",
    ["x" * 10_000, "\x00", "<script>alert(1)</script>", "%", "   ", "血战到底" * 500, "'; --",
     "\u202e", "z" * 41],
)  # fmt: skip
def test_any_search_is_answered(open1002, query):
    response = Client().get(path_of(open1002), {"q": query, "page": "2"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "<script>alert(1)</script>" not in body
    assert tables_on(body) == list(range(101, 201))


def test_the_tournament_and_the_print_page_link_to_it_and_it_to_them(open1002):
    path = path_of(open1002)
    assert f'href="{path}"' in get(f"/tournaments/{open1002.slug}/")
    assert f'href="{path}#where"' in get(f"/tournaments/{open1002.slug}/rounds/1/print/")
    assert f'href="{path}print/"' in get(path)


def test_a_pages_version_is_the_printed_seatings_hash_of_its_seats(open1002):
    # written out for a page (read on every request), hashed as the printed seating hashes
    round_ = open1002.round_set.get(number=1)
    sessions = [session for _, session, _ in selectors.round_tables(round_)[100:200]]
    seats = Seat.objects.filter(session_id__in=sessions)
    hashed = selectors._hashed(seats, "session_id", "number", "player_id", "player__name")
    assert selectors.round_seating_version(round_, sessions, byes=False) == hashed
    assert hashed[0] == 400
    Player.objects.filter(pk=seats.first().player_id).update(name="Renamed")
    assert selectors.round_seating_version(round_, sessions, byes=False) != hashed
