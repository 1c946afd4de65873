"""Finding a club's players by 汉字 and by pinyin (clubs.selectors.club_players)."""

from __future__ import annotations

import pytest

from clubs.pinyin import PINYIN_CACHE_SIZE, name_sort_key, pinyin_keys
from clubs.selectors import club_players, name_matches
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import run_python


@pytest.mark.parametrize(
    "query",
    ["张三", "张", "三", "zhangsan", "ZhangSan", "zhang san", "zhangs", "san", "zs", "ZS", "z"],
)
def test_zhang_san_is_found_by_hanzi_full_pinyin_and_initials(query):
    assert name_matches("张三", query)


@pytest.mark.parametrize("query", ["李", "lisi", "ls", "zhangsi", "sz", "zhangsanfeng"])
def test_other_names_do_not_match_zhang_san(query):
    assert not name_matches("张三", query)


def test_pinyin_keys_are_toneless_lower_case_and_keep_latin_names():
    assert pinyin_keys("张三") == (("zhangsan",), ("zs",))
    assert pinyin_keys("Tom 王") == (("tomwang",), ("tomw",))
    assert name_matches("Tom 王", "tom") and name_matches("Tom 王", "TOMW")


def test_a_surname_with_two_readings_matches_both():
    # 曾 is read zeng as a surname (曾小明) and ceng elsewhere: both find him
    assert name_matches("曾小明", "zengxiaoming") and name_matches("曾小明", "cengxiaoming")
    assert name_matches("曾小明", "zxm") and name_matches("曾小明", "cxm")


def test_a_list_of_names_reads_a_surname_as_a_surname():
    # 曾 zeng (not ceng), 单 shan (not dan), 解 xie (not jie); a Latin name by its letters
    names = ["张三", "曾小明", "单田芳", "陈七", "解放", "Tom", "安九", "尉迟恭"]
    assert sorted(names, key=name_sort_key) == [
        "安九", "陈七", "单田芳", "Tom", "解放", "尉迟恭", "曾小明", "张三"
    ]  # fmt: skip
    assert name_sort_key("曾小明") == ("zengxiaoming", "曾小明")


def test_the_pinyin_cache_is_bounded():
    assert pinyin_keys.cache_info().maxsize == PINYIN_CACHE_SIZE
    pinyin_keys.cache_clear()
    for i in range(PINYIN_CACHE_SIZE + 10):
        pinyin_keys(f"张{i}")
    assert pinyin_keys.cache_info().currsize == PINYIN_CACHE_SIZE


@pytest.mark.django_db
def test_club_players_filters_sorts_by_pinyin_and_is_bounded():
    club = ClubFactory()
    for name in ("王五", "张三", "李四", "Anna", "张三丰"):
        MembershipFactory(club=club, player=PlayerFactory(name=name))
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(name="张三三"))  # another club's
    everyone = club_players(club)
    # by pinyin: anna, lisi, wangwu, zhangsan, zhangsanfeng
    assert [m.name for m in everyone.members] == ["Anna", "李四", "王五", "张三", "张三丰"]
    assert [m.name for m in club_players(club, "zs").members] == ["张三", "张三丰"]
    assert [m.name for m in club_players(club, "zsf").members] == ["张三丰"]
    first_two = club_players(club, limit=2)
    assert len(first_two.members) == 2 and first_two.matched == 5


@pytest.mark.django_db
def test_a_club_nickname_and_the_players_own_name_both_match():
    club = ClubFactory()
    MembershipFactory(club=club, player=PlayerFactory(name="张三"), display_name="老张")
    assert [m.name for m in club_players(club, "laozhang").members] == ["老张"]
    assert [m.name for m in club_players(club, "zhangsan").members] == ["老张"]


def test_the_pinyin_dictionaries_load_on_first_use_only():
    """A process that never searches a name (a worker, the API) does not load pypinyin."""
    code = (
        "import django, sys; django.setup(); import clubs.selectors, pages.urls; "
        "print('pypinyin' in sys.modules)"
    )
    assert run_python(["-c", code]).stdout.strip() == "False"
