"""CSV import for clubs moving from spreadsheets (``exchange.csv_import``, ``manage.py
import_csv``): players, then final results; every bad row listed by line, column and why, and
then nothing stored; ``--dry-run`` stores nothing whatever."""

from __future__ import annotations

from datetime import datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Role, TableSession
from clubs.selectors import session_totals
from exchange.csv_import import MAX_BYTES, MAX_ROWS, csv_import
from tests.clubs.factories import ClubFactory
from tests.helpers import db_state, member_login

pytestmark = pytest.mark.django_db

PLAYERS = "name,pinyin\n张三,zhang san\n李四,Lǐ Sì\n王五,\n赵六,zhao liu\n曾七,zeng qi\n"
RESULTS = (
    "date,table,player1,total1,player2,total2,player3,total3,player4,total4,bettor1,bettor1_total\n"
    "2025-03-01,1,张三,12,李四,-4,王五,-6,赵六,-2,,\n"
    "2025-03-01,2,曾七,5,李四,3,王五,-10,赵六,+4,老王,-2\n"
    "2025/03/08,1,张三,-8,李四,8,王五,0,曾七,0,赵六,0\n"
)


@pytest.fixture
def club():
    return ClubFactory(slug="teahouse", time_zone="Asia/Shanghai")


@pytest.fixture
def organiser(club):
    return member_login(club, Role.ORGANISER, "organiser")


def names(club) -> list[str]:
    return sorted(club.memberships.values_list("player__name", flat=True))


def problems(result) -> list[tuple[int, str, str]]:
    return [(p.line, p.column, p.code) for p in result.problems]


def test_players_then_results(club, organiser):
    result = csv_import(club=club, data=PLAYERS.encode(), user=organiser)
    assert result.stored and result.kind == "players" and result.rows == 5
    assert names(club) == sorted(["organiser", "张三", "李四", "王五", "赵六", "曾七"])

    result = csv_import(club=club, data=RESULTS.encode(), user=organiser)
    assert result.stored and result.ok and len(result.tables) == 3
    sessions = list(club.sessions.order_by("started_at", "pk"))
    assert [s.notes for s in sessions] == ["#1", "#2", "#1"]
    assert all(s.status == TableSession.Status.CLOSED for s in sessions)
    evening = datetime(2025, 3, 1, 19, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    assert sessions[0].started_at == evening
    second = sessions[1]
    totals = session_totals(session_id=second.pk)
    by_name = {p.name: totals.of_player(p.pk) for p in (s.player for s in second.seats.all())}
    assert by_name == {"曾七": 5, "李四": 3, "王五": -10, "赵六": 4}
    guest = second.bettors.get()
    assert guest.guest_name == "老王" and totals.of_bettor(guest.pk) == -2
    # a player of the club who bets is the player, not a guest
    third = sessions[2].bettors.get()
    assert third.player.name == "赵六"


def test_every_bad_row_is_listed_and_nothing_is_stored(club, organiser):
    csv_import(club=club, data=PLAYERS.encode(), user=organiser)
    bad = (
        "日期,桌号,玩家1,得分1,玩家2,得分2,玩家3,得分3,玩家4,得分4\n"
        "2025-03-01,1,张三,12,李四,-4,王五,-6,赵六,-2\n"  # good
        "2025-02-30,x,张三,1.5,李四,-4,王五,-6,赵六,-2\n"
        "2025-03-01,3,张三,10,张三,-4,王五,-6,无名,0\n"
        "2025-03-01,4,张三,10,李四,-4,王五,-6,赵六,-1\n"
        "2025-03-01,1,张三,12,李四,-4,王五,-6,赵六,-2\n"
        "2199-01-01,1,张三,12,李四,-4,王五,-6,赵六,-2\n"
    )
    before = db_state()
    result = csv_import(club=club, data=bad.encode(), user=organiser)
    assert not result.stored and db_state() == before
    assert problems(result) == [
        (3, "日期", "invalid_date"),
        (3, "桌号", "invalid_table"),
        (3, "得分1", "invalid_total"),
        (4, "玩家2", "same_player_twice"),
        (4, "玩家4", "unknown_player"),
        (5, "", "not_zero_sum"),
        (6, "桌号", "duplicate_table"),
        (7, "日期", "date_in_future"),
    ]
    assert result.problems[5].value == "-1"  # the sum, for the page's words


def test_players_file_problems(club):
    text = "名字,拼音\n张三,zhang shan\n李四,\n李四,\n,\n" + "x" * 81 + ",\n"
    result = csv_import(club=club, data=text.encode(), user=None)
    assert problems(result) == [
        (2, "拼音", "pinyin_mismatch"),
        (4, "名字", "duplicate_name"),
        (6, "名字", "invalid_name"),
    ]
    assert result.problems[0].value == "zhangsan"
    assert not result.stored and names(club) == []


def test_a_dry_run_stores_nothing_and_says_what_it_would(club, organiser):
    before = db_state()
    result = csv_import(club=club, data=PLAYERS.encode(), user=organiser, dry_run=True)
    assert result.ok and not result.stored and db_state() == before
    assert result.new_players == ["张三", "李四", "王五", "赵六", "曾七"]
    csv_import(club=club, data=PLAYERS.encode(), user=organiser)
    again = csv_import(club=club, data=PLAYERS.encode(), user=organiser, dry_run=True)
    assert again.ok and again.new_players == [] and len(again.known_players) == 5


def test_the_same_table_is_not_imported_twice(club, organiser):
    csv_import(club=club, data=PLAYERS.encode(), user=organiser)
    assert csv_import(club=club, data=RESULTS.encode(), user=organiser).stored
    again = csv_import(club=club, data=RESULTS.encode(), user=organiser)
    assert [p.code for p in again.problems] == ["already_imported"] * 3
    assert club.sessions.count() == 3


def test_spreadsheet_encodings_and_tabs(club, organiser):
    # a Chinese Excel's CSV (GB 18030), and rows pasted from a spreadsheet (tabs)
    result = csv_import(club=club, data=PLAYERS.encode("gb18030"), user=organiser, dry_run=True)
    assert result.ok and result.new_players[0] == "张三"
    result = csv_import(
        club=club, data=("\ufeff" + PLAYERS.replace(",", "\t")).encode(), user=None, dry_run=True
    )
    assert result.ok and len(result.new_players) == 5


def test_files_are_bounded(club):
    big = ("name\n" + "张三\n" * (MAX_BYTES // 7 + 1)).encode()
    assert [p.code for p in csv_import(club=club, data=big, user=None).problems] == [
        "file_too_large"
    ]
    many = "name\n" + "".join(f"p{i}\n" for i in range(MAX_ROWS + 1))
    assert [p.code for p in csv_import(club=club, data=many.encode(), user=None).problems] == [
        "too_many_rows"
    ]
    odd = csv_import(club=club, data=b"colour,size\nred,1\n", user=None)
    assert [p.code for p in odd.problems] == ["unknown_file"]
    assert [p.code for p in csv_import(club=club, data=b"\xff\xfe\x00", user=None).problems] == [
        "not_text"
    ]


def test_the_command(club, organiser, tmp_path):
    players, results = tmp_path / "players.csv", tmp_path / "results.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    results.write_text(RESULTS.replace("赵六,+4", "赵六,+5"), encoding="utf-8")
    out = StringIO()
    call_command("import_csv", club.slug, str(players), "--dry-run", stdout=out)
    assert "would store 5 new player(s)" in out.getvalue() and names(club) == ["organiser"]
    call_command("import_csv", club.slug, str(players), stdout=out)
    assert len(names(club)) == 6
    err = StringIO()
    with pytest.raises(CommandError, match="1 bad row"):
        call_command("import_csv", club.slug, str(results), stderr=err)
    assert "line 3: the totals sum to 1, not 0 (not_zero_sum)" in err.getvalue()
    assert not club.sessions.exists()


def test_a_name_a_spreadsheet_would_run_is_refused(club):
    """A name beginning with = + - @ would be a formula in every CSV the club exports later."""
    text = '名字\n=HYPERLINK("http://x")\n@SUM(1)\n+1\n-x\n王=五\n'
    result = csv_import(club=club, data=text.encode(), user=None)
    assert problems(result) == [(n, "名字", "formula_name") for n in (2, 3, 4, 5)]
    assert not result.stored
