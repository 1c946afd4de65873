"""Audit of hand evaluation and waits against RULES.md (§2, §3, §5).

Each expectation is worked out by hand from RULES.md; the docstrings and comments give the
split, the pattern, the roots, the extras and the curve arithmetic. The ``_hand`` helper takes
the concealed tiles *including* the winning tile (meld tiles apart).
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, Meld, evaluate, parse_tiles, readiness, tile_name

from .builders import check_win as _check
from .builders import kong_meld as _kong
from .builders import pung as _pung
from .builders import ruleset_spec as _rs
from .builders import winning_hand as _hand


def _waits(tiles, ruleset="qq", melds=(), void=None, visible=""):
    r = readiness(parse_tiles(tiles), ruleset, tuple(melds), void, parse_tiles(visible))
    return r, {tile_name(w.tile): w for w in r.waits}


# --- §5: a tile kind more than four times, counted across several melds ----------------------
# Found by this audit: the per-meld check compared each meld with the concealed tiles only, so
# two melds of one tile (6 or 8 copies) were valued as a win; readiness packed the counts into
# 3-bit fields, where eight copies (two kongs) carried into the next tile and passed.


@pytest.mark.parametrize(
    ("melds", "copies"),
    [
        # pung 5m + pung 5m = 6 copies of 5m (before the fix: 对对胡 2 fan -> 2 in qq)
        pytest.param([_pung("5m"), _pung("5m"), _pung("3m"), _pung("9p")], 6, id="two-pungs"),
        # kong 5m + kong 5m = 8 copies (before the fix: 对对胡 + 2 根 -> 4 fan -> 8 in qq)
        pytest.param([_kong("5m"), _kong("5m"), _pung("3m"), _pung("9p")], 8, id="two-kongs"),
        # pung 5m + kong 5m = 7 copies
        pytest.param([_pung("5m"), _kong("5m"), _pung("3m"), _pung("9p")], 7, id="pung-kong"),
    ],
)
def test_two_melds_of_one_tile_are_refused(melds, copies):
    """RULES §5: "a tile kind appearing more than four times anywhere in one hand record" is
    refused. Four melds + 5p, won on 5p: the melds alone hold more than four 5m."""
    with pytest.raises(EngineError) as info:
        evaluate(_hand("55p", "5p", melds=melds), "qq")
    assert info.value.code == "too_many_copies"
    assert f"5m appears {copies} times" in info.value.problems[0].message


@pytest.mark.parametrize(
    "melds",
    [
        pytest.param((Meld("pung", 4), Meld("pung", 4)), id="two-pungs"),
        # before the fix: ready on 6m, "对对胡 + 2 根" -> 8 (the eight 5m read as one 6m)
        pytest.param((Meld("kong", 4), Meld("kong", 4)), id="two-kongs"),
    ],
)
def test_waiting_hand_with_two_melds_of_one_tile_is_refused(melds):
    """Melds 5m 5m 3p 4p + a single 6m (13 effective tiles): more than four 5m -> refused."""
    with pytest.raises(EngineError) as info:
        readiness(parse_tiles("6m"), "qq", melds + (Meld("pung", 11), Meld("pung", 12)))
    assert (info.value.code, info.value.path) == ("too_many_copies", "concealed")


# --- ties between patterns: the one listed later in the preset's table ------------------------
# 123 123 789 789m + 99m (= 11 22 33 77 88 99 99m): 清幺九 on the runs split, and seven pairs
# of one suit holding four 9m -> also 清龙七对; one root (9m x4).
TIE = {"tiles": "11223377889999m", "winning": "9m"}


@pytest.mark.parametrize(
    ("ruleset", "pattern", "total", "value", "capped"),
    [
        # qq: 清幺九 5 + 1 根 = 6; 清龙七对 6 (its root included) = 6; tie -> 清龙七对 is listed
        # later (row 6 vs row 5) -> 2^5 = 32
        pytest.param("qq", "qinglongqidui", 6, 32, False, id="qq"),
        # chengdu, 带幺 on, no cap: 清带幺 16 x2 (root) = 32; 清龙七对 32 (root included) = 32;
        # tie -> 清带幺 is listed after 清龙七对 in §3.2's table -> 32
        pytest.param(
            _rs("chengdu", daiyaojiu=True, cap=None), "qingyaojiu", 32, 32, False, id="chengdu"
        ),
        # the same with the default cap 8: reported pattern chosen before the cap, paid 8
        pytest.param(
            _rs("chengdu", daiyaojiu=True), "qingyaojiu", 32, 8, True, id="chengdu-capped"
        ),
        # xuezhan9, 带幺九 on (+1 fan, no row): 清一色 3 + 1 + 1 根 = 5 < 清龙七对 7 + 1 = 8
        # -> 2^8 = 256
        pytest.param(
            _rs("xuezhan9", daiyaojiu=True), "qinglongqidui", 8, 256, False, id="xuezhan9"
        ),
    ],
)
def test_tie_goes_to_the_pattern_listed_later(ruleset, pattern, total, value, capped):
    _check(_hand(**TIE), ruleset, pattern, 1, total, value, capped)


# --- 天胡 counts every root, 清龙七对 one fewer ---------------------------------------------
QINGLONG2 = {"tiles": "11112222334455m", "winning": "5m"}


@pytest.mark.parametrize(
    ("ruleset", "total", "value"),
    [
        # qq: 天胡 6 + 2 根 = 8 beats 清龙七对 6 + 1 = 7 -> 2^7 = 128 (no self-draw bonus)
        pytest.param("qq", 8, 128, id="qq"),
        # chengdu uncapped: 天胡 = 32 (满格 without a cap) x2 x2 = 128 beats 清龙七对 32 x2 = 64;
        # 自摸加底 +1 after the (absent) cap -> 129
        pytest.param(_rs("chengdu", cap=None), 128, 129, id="chengdu-uncapped"),
    ],
)
def test_tianhu_on_a_qinglongqidui_hand(ruleset, total, value):
    """1111 2222 33 44 55m self-drawn as the dealer's first 14 tiles: two roots (1m, 2m)."""
    hand = _hand(**QINGLONG2, self_draw=True, situation=["heavenly"])
    _check(hand, ruleset, "tianhu", 2, total, value)


# --- 金钩钓 with a kong -----------------------------------------------------------------------
GOLDEN_KONG = [_kong("3m", concealed=True), _pung("6m"), _pung("4p"), _pung("7p")]


@pytest.mark.parametrize(
    ("ruleset", "self_draw", "pattern", "total", "value"),
    [
        # chengdu 金钩钓 on, uncapped: 金钩钓 x4 (beats 大对子 x2), 1 根 (the kong) x2 = 8
        pytest.param(_rs("chengdu", jingoudiao=True, cap=None), False, "jingoudiao", 8, 8,
                     id="chengdu-uncapped"),
        # chengdu default cap 8: 8 equals the cap (not capped); self-draw +1 after it -> 9
        pytest.param(_rs("chengdu", jingoudiao=True), True, "jingoudiao", 8, 9,
                     id="chengdu-self-draw"),
        # xuezhan9: 大对子 2 + 根 1 + 全求人 1 + 自摸 1 = 5 fan -> 32
        pytest.param("xuezhan9", True, "duiduihu", 5, 32, id="xuezhan9-self-draw"),
        # qq, 金钩钓 on (no row in qq: +1 fan): 对对胡 2 + 根 1 + 1 = 4 -> 8
        pytest.param(_rs("qq", jingoudiao=True), False, "duiduihu", 4, 8, id="qq"),
    ],
)  # fmt: skip
def test_golden_hook_with_a_kong(ruleset, self_draw, pattern, total, value):
    """Kong 3m (concealed), pungs 6m 4p 7p, one 5p in hand, won on 5p: four melds, single
    wait on the pair -> 金钩钓 (§2; seed 000: 其余牌均已碰（或杠）); the kong is one 根."""
    hand = _hand("55p", "5p", melds=GOLDEN_KONG, self_draw=self_draw)
    _check(hand, ruleset, pattern, 1, total, value)


# --- 将对 with a kong ---------------------------------------------------------------------------
JIANGDUI_KONG = {"tiles": "22288855p", "winning": "5p", "melds": [_kong("2m"), _pung("5m")]}


@pytest.mark.parametrize(
    ("ruleset", "pattern", "total", "value"),
    [
        pytest.param("qq", "jiangdui", 5, 16, id="qq"),  # 将对 4 + 根 1 = 5 fan -> 16
        # additive: 将对 4 + 1 (a kong is a 根, counted once) = 5
        pytest.param("additive", "jiangdui", 5, 5, id="additive"),
        # chengdu 将对 on, uncapped: 16 x2 = 32
        pytest.param(_rs("chengdu", jiangdui=True, cap=None), "jiangdui", 32, 32, id="chengdu"),
        # xuezhan9 将对 on (no row: +1 fan): 大对子 2 + 根 1 + 1 = 4 -> 16
        pytest.param(_rs("xuezhan9", jiangdui=True), "duiduihu", 4, 16, id="xuezhan9"),
    ],
)
def test_jiangdui_with_a_kong(ruleset, pattern, total, value):
    """Kong 2m, pung 5m, 222p 888p 55p: all triplets, every tile 2/5/8 -> 将对; 1 根."""
    _check(_hand(**JIANGDUI_KONG), ruleset, pattern, 1, total, value)


def test_qq_cap_toggle_with_add_one_self_draw():
    """qq with cap 3 fan and 自摸加底: 11 22 33 44 55 66 77m self-drawn = 清七对 5 fan > 3 ->
    paid 2^(3-1) = 4, then +1 after the cap -> 5 (§3.5 ``add_one``)."""
    hand = _hand("11223344556677m", "7m", self_draw=True)
    _check(hand, _rs("qq", cap=3, self_draw_bonus="add_one"), "qingqidui", 0, 5, 5, True)


# --- 死叫 (dead_wait_counts) -------------------------------------------------------------------
# 23m 789m 99m 111p 999p waits on 1m (123m 789m 99m 111p 999p: every set and the pair hold a
# 1 or 9 -> 带幺九, qq 3 fan -> 4; additive 幺九 3) and 4m (234m -> 平胡: qq 1, additive 1).
DEAD = "23m789m99m111p999p"


def test_dead_wait_still_counts_by_default():
    """All four 1m seen elsewhere: 1m is 死叫 but 死叫算叫 (default true) -> ready, 赔大 = 4."""
    r, waits = _waits(DEAD, visible="1111m")
    assert waits["1m"].dead and waits["1m"].remaining == 0
    assert not waits["4m"].dead and waits["4m"].remaining == 4
    assert (r.ready, r.chajiao_value) == (True, 4)


def test_dead_wait_does_not_count_when_toggled_off():
    """dead_wait_counts false: only the live 4m wait counts -> ready, 查叫 value 1 (平胡)."""
    r, _ = _waits(DEAD, _rs("qq", dead_wait_counts=False), visible="1111m")
    assert (r.ready, r.chajiao_value) == (True, 1)


def test_all_waits_dead_and_toggled_off_is_not_ready():
    """dead_wait_counts false and every 1m and 4m seen: no live wait -> not ready, no value;
    with the default (死叫算叫) the same hand is ready at 赔大 4."""
    r, _ = _waits(DEAD, _rs("qq", dead_wait_counts=False), visible="1111m4444m")
    assert (r.ready, r.huazhu, r.chajiao_value) == (False, False, None)
    r, _ = _waits(DEAD, "qq", visible="1111m4444m")
    assert (r.ready, r.chajiao_value) == (True, 4)


def test_additive_chajiao_pays_the_smallest_wait():
    """additive 查叫 is 赔小 (§3.3): waits 1m (幺九 3) and 4m (平胡 1) -> 1."""
    r, waits = _waits(DEAD, "additive")
    assert (waits["1m"].valuation.value, waits["4m"].valuation.value) == (3, 1)
    assert r.chajiao_value == 1


def test_golden_hook_on_the_fourth_copy_of_ones_own_pung_is_no_wait():
    """Pungs 5m 2p 3p 4p + a single 5m: the pair would need a fifth 5m -> not ready (§3.5:
    a tile of which the player himself holds all four is never a wait)."""
    melds = (Meld("pung", 4), Meld("pung", 10), Meld("pung", 11), Meld("pung", 12))
    r = readiness(parse_tiles("5m"), "qq", melds)
    assert (r.ready, r.waits, r.chajiao_value) == (False, (), None)
