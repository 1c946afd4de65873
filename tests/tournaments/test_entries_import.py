"""The entry list from a CSV (报名表): a preview that flags possible duplicates, and entries
made only once every flagged row is decided.

The host club has 王伟 and Zhang Wei as players; 李娜 is already entered. The file:

    line 2  王伟, 成都麻协, 1800   same name as the club's 王伟
    line 3  王维, , 1700           same pinyin (wangwei) as 王伟 — and as line 2
    line 4  Zhang Wie, 重庆, x     a bad seed rating; near match of Zhang Wei
    line 5  陈小明, ,              nobody like him
    line 6  陈小敏, ,              one character (and one pinyin letter) from line 5: near
    line 7  李娜, ,                already entered: skipped unless decided otherwise
"""

from __future__ import annotations

import pytest

from clubs.models import Membership, Player
from exchange.entries_import import entries_import, preview
from tournaments import services

pytestmark = pytest.mark.django_db

FILE = """姓名,俱乐部,种子分
王伟,成都麻协,1800
王维,,1700
Zhang Wie,重庆,x
陈小明,,
陈小敏,,
李娜,,
"""


@pytest.fixture
def cup(host, make_tournament):
    for name in ("王伟", "Zhang Wei"):
        Membership.objects.create(club=host, player=Player.objects.create(name=name))
    t = make_tournament(players=0, rounds=3)
    services.registration_create(tournament=t, name="李娜")
    return t


def flags(found) -> dict[int, list[tuple[str, str]]]:
    return {r.line: sorted((m.kind, m.name) for m in r.matches) for r in found.rows}


def test_the_preview_flags_same_name_same_pinyin_and_near_matches(cup):
    found = preview(cup, FILE.encode())
    assert flags(found) == {
        2: [("same_name", "王伟")],
        3: [("same_pinyin", "王伟"), ("same_pinyin", "王伟")],  # the club's, and line 2
        4: [],  # not compared: its row is bad
        5: [],
        6: [("near", "陈小明")],
        7: [("same_name", "李娜")],
    }
    assert [p["code"] for p in found.rows[2].problems] == ["invalid_rating"]
    assert found.rows[5].decision == "skip"  # 李娜 is entered already
    assert [r.line for r in found.undecided] == [2, 3, 6]


def test_nothing_is_entered_while_a_row_is_bad_or_undecided(cup, director_client, json_errors):
    url = f"/api/v1/tournaments/{cup.slug}/players/import/"
    r = director_client.post(url, {"csv": FILE}, format="json")
    assert r.status_code == 400
    codes = sorted((e["path"], e["code"]) for e in json_errors(r))
    assert codes == [
        ("decisions.2", "duplicate_undecided"), ("decisions.3", "duplicate_undecided"),
        ("decisions.6", "duplicate_undecided"), ("rows[4].seed_rating", "invalid_rating"),
    ]  # fmt: skip
    assert cup.registrations.count() == 1  # a refusal changes nothing


def test_decided_rows_are_entered_once(cup, director_client):
    club_wang = Player.objects.get(name="王伟").pk
    fixed = FILE.replace("Zhang Wie,重庆,x", "Zhang Wie,重庆,1500")
    decisions = {"2": str(club_wang), "3": "new", "4": "new", "6": "skip"}
    url = f"/api/v1/tournaments/{cup.slug}/players/import/"
    dry = director_client.post(url, {"csv": fixed, "decisions": decisions, "dry_run": True},
                               format="json")  # fmt: skip
    assert dry.status_code == 200 and cup.registrations.count() == 1
    assert [r["line"] for r in dry.json()["rows"] if r["matches"] and not r["decision"]] == []
    r = director_client.post(url, {"csv": fixed, "decisions": decisions}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["skipped"] == [6, 7]
    entries = {e.player.name: (e.seed_rating, e.club_name)
               for e in cup.registrations.select_related("player")}  # fmt: skip
    assert entries == {
        "李娜": (None, ""), "王伟": (1800, "成都麻协"), "王维": (1700, ""),
        "Zhang Wie": (1500, "重庆"), "陈小明": (None, ""),
    }  # fmt: skip
    # line 2 is the club's own 王伟, not a new player of that name
    assert cup.registrations.get(player__name="王伟").player_id == club_wang
    assert Player.objects.filter(name="王伟").count() == 1


def test_a_decision_must_name_one_of_the_rows_matches(cup):
    other = Player.objects.create(name="someone").pk
    with pytest.raises(Exception) as refused:
        entries_import(tournament=cup, data=FILE.encode(), decisions={"2": str(other)})
    assert "invalid_decision" in str(refused.value.problems)
