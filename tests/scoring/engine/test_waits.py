"""Waits and readiness (下叫/听牌), 查叫 values, 花猪 (RULES §2, §4.6)."""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, Meld, parse_tiles, readiness, tile_name


def waits_of(tiles: str, ruleset="qq", melds=(), void=None, visible=""):
    r = readiness(parse_tiles(tiles), ruleset, tuple(melds), void, parse_tiles(visible))
    return r, {tile_name(w.tile): w for w in r.waits}


def test_a_kong_blocks_its_fifth_copy():
    """23m waits on 1m or 4m (两边梭 at the edge); with a kong of 1m laid down there is no
    fifth 1m, so 4m alone remains. 456p 789p are sets, 55p the pair."""
    _, waits = waits_of("23m456p789p55p", melds=[Meld("kong", 0)])
    assert set(waits) == {"4m"}
    _, waits = waits_of("23m456p789p55p", melds=[Meld("pung", 0)])
    assert set(waits) == {"1m", "4m"}  # a pung leaves the fourth 1m to win on


def test_a_concealed_four_is_never_waited_on():
    """1111234m 456p 789p: with a fifth 1m it would be 11 + 111 + 234, but there is none.
    The only wait is 4m: 111 123 44m 456p 789p — 平胡 1番 + 1 根 (four 1m) = 2番 -> 2."""
    _, waits = waits_of("1111234m456p789p")
    assert set(waits) == {"4m"}
    assert waits["4m"].valuation.value == 2


def test_pung_plus_fourth_in_hand_blocks_that_tile():
    """Pung of 5p, 56p in hand: 56p waits on 4p or 7p, never a fifth 5p."""
    _, waits = waits_of("56p123m456m99m", melds=[Meld("pung", 13)])
    assert set(waits) == {"4p", "7p"}


def test_seven_pairs_wait_on_the_single():
    """11 33 44 66m 55 88p and a single 9p: waits on 9p for 七对 (qq 3番 -> 4). No standard
    shape is one tile away (1, 3, 4, 6m make no run)."""
    r, waits = waits_of("11334466m55889p")
    assert set(waits) == {"9p"}
    assert waits["9p"].valuation.pattern == "qidui"
    assert waits["9p"].valuation.value == 4


def test_seven_pairs_wait_can_complete_a_four():
    """111m 22 33 55 77 99m: 1m completes seven pairs holding four 1m — 清龙七对 6番, its one
    root already counted -> 2^5 = 32 in qq."""
    r, waits = waits_of("1112233557799m")
    assert waits["1m"].valuation.pattern == "qinglongqidui"
    assert waits["1m"].valuation.value == 32


def test_chajiao_max_and_min():
    """1112345678999m waits on 1m–9m; 1m or 9m makes a four (+1 根): qq 清一色 3 + 1 = 4番
    = 8, the other waits 3番 = 4. 赔大 -> 8, 赔小 -> 4, off -> no 查叫 value."""
    r, _ = waits_of("1112345678999m", "qq")
    assert r.chajiao_value == 8
    r, _ = waits_of("1112345678999m", {"preset": "qq", "options": {"chajiao": "min"}})
    assert r.chajiao_value == 4
    r, _ = waits_of("1112345678999m", {"preset": "qq", "options": {"chajiao": "off"}})
    assert r.ready and r.chajiao_value is None


def test_huazhu_three_suits_or_void():
    r, _ = waits_of("123m456p789s1122m")
    assert r.huazhu and not r.ready and r.chajiao_value is None
    r, _ = waits_of("111m46m123s66s789s", void=0)  # declared 万 void, still holds 万
    assert r.huazhu and not r.ready
    r, _ = waits_of("111m46m123s66s789s", void=1)
    assert not r.huazhu and r.ready


def test_dead_and_remaining_counts_with_visible_tiles():
    """Waiting on 5m alone (卡张); three 5m seen elsewhere -> one remaining (a win on it
    would be 绝张); four seen -> 死叫."""
    r, waits = waits_of("111m46m123s66s789s", visible="555m")
    assert waits["5m"].remaining == 1 and not waits["5m"].dead
    r, waits = waits_of("111m46m123s66s789s", visible="5555m")
    assert waits["5m"].dead and r.ready  # 死叫算叫 by default


def test_wrong_tile_count_and_too_many_copies_are_refused():
    with pytest.raises(EngineError) as info:
        waits_of("123m")
    assert info.value.code == "wrong_tile_count"
    with pytest.raises(EngineError) as info:
        waits_of("111m46m123s66s789s", visible="11m")
    assert (info.value.code, info.value.path) == ("too_many_copies", "visible")


def test_not_ready():
    r, waits = waits_of("1357m2468m1357p9p")
    assert (r.ready, r.huazhu, waits, r.chajiao_value) == (False, False, {}, None)
