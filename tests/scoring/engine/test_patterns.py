"""Hand-built cases for every pattern, extra, toggle and refusal of RULES.md §1–§3 and §5.

Every expectation below is worked out by hand from RULES.md; the comments give the split, the
pattern, the roots, the extras and the curve arithmetic:

* ``qq`` (§3.1): fan table 平胡 1, 对对胡 2, 清一色/带幺九/七对 3, 清对/将对 4, 龙七对/清七对/
  清幺九 5, 天胡/地胡/清龙七对 6 (龙七对 and 清龙七对 already count one root); +1 fan per 根,
  杠上花 +1, 杠上炮 +1, 抢杠 nothing; value = 2^(fan-1); no cap; no self-draw bonus.
* ``chengdu`` (§3.2): multiples 平胡 1, 大对子 2, 清一色/暗七对 4, 清大对 8, 龙七对 8 (one root
  included), 清七对 16, 清龙七对 32 (one root included), 天胡/地胡 = 满格; ×2 per 根, 杠上花,
  杠上炮, 抢杠; cap 8; self-draw +1 after the cap.
* ``additive`` (§3.3): points 平胡 1, 对对胡 2, 清一色/幺九/七对 3, 清对/将对 4, 天胡/地胡 8;
  清七对/清幺九/清龙七对 3; 龙七对 = 七对 3 + roots; +1 per 根, 杠上花 +2, 抢杠 +1, 杠上炮
  nothing; no cap; no self-draw bonus.
* ``xuezhan9`` (§3.4): fan 平胡 0, 大对子 2, 清一色 3, 七对 4, 清大对 5, 龙七对 4 + roots,
  清七对 7, 清龙七对 7 + roots, 天胡/地胡 9; +1 per 根 and for 自摸, 杠上花, 杠上炮, 抢杠, 海底,
  金钩钓; value = 2^fan; cap 9 fan.
* Options a preset has no value for score one more step of its curve (§3.5).

The ``_hand`` helper takes the concealed tiles *including* the winning tile (meld tiles apart)
and removes one copy of the winning tile to form the concealed part.
"""

from __future__ import annotations

import pytest

from scoring.engine import (
    EngineError,
    Meld,
    evaluate,
    format_tiles,
    parse_tiles,
    parse_winning_hand,
    readiness,
)

from .builders import check_win as _check
from .builders import kong_meld as _kong
from .builders import pung as _pung
from .builders import ruleset_spec as _rs
from .builders import winning_hand as _hand

# --- the hands -----------------------------------------------------------------------------

JINGOUDIAO_MELDS = (_pung("3m"), _pung("6m"), _pung("4p"), _pung("7p"))

HANDS = {
    # 234m 567m 789m 345p 11p: four runs + pair, two suits, no 1/9 in 234m -> 平胡
    "pinghu": {"tiles": "234567789m345p11p", "winning": "1p"},
    # 333m 666m 444p 777p 99p: all triplets, not all 2/5/8 -> 对对胡
    "duiduihu": {"tiles": "333666m444777p99p", "winning": "9p"},
    # 111 234 55 666 789s won on 8s (卡张; the hand holds no other 8s): one suit, no four
    "qingyise": {"tiles": "11123455666789s", "winning": "8s"},
    # 11 33 55 77m 22 44 66p: seven different pairs; no runs possible (gaps of two)
    "qidui": {"tiles": "11335577m224466p", "winning": "7m"},
    # 111 333 555 777 99m: one-suit all triplets (no runs possible) -> 清对
    "qingdui": {"tiles": "11133355577799m", "winning": "9m"},
    # 1111m 33m 55m 22p 88p 99p: seven pairs with 1m x4 -> 龙七对, 1 root
    "longqidui": {"tiles": "11113355m228899p", "winning": "9p"},
    # 1111m 3333m 55p 77p 99p: 龙七对 with two fours -> 2 roots
    "longqidui2": {"tiles": "11113333m557799p", "winning": "9p"},
    # 11 22 44 55 77 88 99m: seven pairs, one suit; 11 22 (no 3) and 44 55 (no 3/6) cannot be
    # in runs, so no standard split -> 清七对
    "qingqidui": {"tiles": "11224455778899m", "winning": "9m"},
    # 1111 22 44 55 77 99m: one suit, seven pairs, 1m x4 -> 清龙七对, 1 root
    "qinglongqidui": {"tiles": "11112244557799m", "winning": "9m"},
    # 1111 2222 55 77 99m: 清龙七对 with 2 roots
    "qinglongqidui2": {"tiles": "11112222557799m", "winning": "9m"},
    # 111m 789m 123s 789s 99s: every set and the pair hold a 1 or 9 -> 带幺九
    "daiyaojiu": {"tiles": "111789m12378999s", "winning": "1s"},
    # runs split 123 123 123 789 99s: one suit, 1/9 everywhere -> 清幺九 (the triplet split
    # 111 222 333 789 99s is only 清一色)
    "qingyaojiu": {"tiles": "11122233378999s", "winning": "7s"},
    # 222m 555m 222p 888p 55p: all triplets of 2/5/8 -> 将对
    "jiangdui": {"tiles": "222555m22255888p", "winning": "5p"},
    # pungs 3m 6m 4p 7p, one 9p in hand, won on the second 9p -> 金钩钓 (and 对对胡)
    "jingoudiao": {"tiles": "99p", "winning": "9p", "melds": JINGOUDIAO_MELDS},
    # the 平胡 tiles as 天胡 (dealer, self-drawn, no melds) and 地胡 (discard, no melds)
    "tianhu": {
        "tiles": "234567789m345p11p",
        "winning": "1p",
        "self_draw": True,
        "situation": ["heavenly"],
    },
    "dihu": {"tiles": "234567789m345p11p", "winning": "1p", "situation": ["earthly"]},
}


def _h(name, **changes):
    return _hand(**{**HANDS[name], **changes})


# --- base patterns in every preset ---------------------------------------------------------
# (hand, preset, pattern, roots, total in the preset's unit, value, capped)

BASE = [
    # 平胡: qq 1 fan -> 2^0 = 1; chengdu x1; additive 1; xuezhan9 0 fan -> 2^0 = 1
    ("pinghu", "qq", "pinghu", 0, 1, 1, False),
    ("pinghu", "chengdu", "pinghu", 0, 1, 1, False),
    ("pinghu", "additive", "pinghu", 0, 1, 1, False),
    ("pinghu", "xuezhan9", "pinghu", 0, 0, 1, False),
    # 对对胡: qq 2 -> 2; chengdu x2; additive 2; xuezhan9 2 fan -> 4
    ("duiduihu", "qq", "duiduihu", 0, 2, 2, False),
    ("duiduihu", "chengdu", "duiduihu", 0, 2, 2, False),
    ("duiduihu", "additive", "duiduihu", 0, 2, 2, False),
    ("duiduihu", "xuezhan9", "duiduihu", 0, 2, 4, False),
    # 清一色: qq 3 -> 4; chengdu x4; additive 3; xuezhan9 3 -> 8
    ("qingyise", "qq", "qingyise", 0, 3, 4, False),
    ("qingyise", "chengdu", "qingyise", 0, 4, 4, False),
    ("qingyise", "additive", "qingyise", 0, 3, 3, False),
    ("qingyise", "xuezhan9", "qingyise", 0, 3, 8, False),
    # 七对: qq 3 -> 4; chengdu 暗七对 x4; additive 3; xuezhan9 4 -> 16
    ("qidui", "qq", "qidui", 0, 3, 4, False),
    ("qidui", "chengdu", "qidui", 0, 4, 4, False),
    ("qidui", "additive", "qidui", 0, 3, 3, False),
    ("qidui", "xuezhan9", "qidui", 0, 4, 16, False),
    # 清对: qq 4 -> 8; chengdu 清大对 x8 (= cap 8, not above it); additive 4; xuezhan9 5 -> 32
    ("qingdui", "qq", "qingdui", 0, 4, 8, False),
    ("qingdui", "chengdu", "qingdui", 0, 8, 8, False),
    ("qingdui", "additive", "qingdui", 0, 4, 4, False),
    ("qingdui", "xuezhan9", "qingdui", 0, 5, 32, False),
    # 龙七对, 1 root: qq 5 (root included) -> 16; chengdu x8 (root included);
    # additive 七对 3 + 1 = 4; xuezhan9 4 + 1 = 5 -> 32
    ("longqidui", "qq", "longqidui", 1, 5, 16, False),
    ("longqidui", "chengdu", "longqidui", 1, 8, 8, False),
    ("longqidui", "additive", "longqidui", 1, 4, 4, False),
    ("longqidui", "xuezhan9", "longqidui", 1, 5, 32, False),
    # 龙七对, 2 roots: qq 5 + 1 = 6 -> 32; chengdu 8 x2 = 16 > cap 8 -> 8;
    # additive 3 + 2 = 5 (seed 004's 双龙七对); xuezhan9 4 + 2 = 6 -> 64
    ("longqidui2", "qq", "longqidui", 2, 6, 32, False),
    ("longqidui2", "chengdu", "longqidui", 2, 16, 8, True),
    ("longqidui2", "additive", "longqidui", 2, 5, 5, False),
    ("longqidui2", "xuezhan9", "longqidui", 2, 6, 64, False),
    # 清七对: qq 5 -> 16; chengdu x16 > 8 -> 8; additive 3 (清一色 and 七对 tie at 3, own code);
    # xuezhan9 3 + 4 = 7 -> 128
    ("qingqidui", "qq", "qingqidui", 0, 5, 16, False),
    ("qingqidui", "chengdu", "qingqidui", 0, 16, 8, True),
    ("qingqidui", "additive", "qingqidui", 0, 3, 3, False),
    ("qingqidui", "xuezhan9", "qingqidui", 0, 7, 128, False),
    # 清龙七对, 1 root: qq 6 (root included) -> 32; chengdu x32 > 8 -> 8;
    # additive 3 + 1 = 4; xuezhan9 7 + 1 = 8 -> 256
    ("qinglongqidui", "qq", "qinglongqidui", 1, 6, 32, False),
    ("qinglongqidui", "chengdu", "qinglongqidui", 1, 32, 8, True),
    ("qinglongqidui", "additive", "qinglongqidui", 1, 4, 4, False),
    ("qinglongqidui", "xuezhan9", "qinglongqidui", 1, 8, 256, False),
    # 清龙七对, 2 roots: qq 6 + 1 = 7 -> 64; chengdu 32 x2 = 64 -> 8; additive 3 + 2 = 5;
    # xuezhan9 7 + 2 = 9 -> 2^9 = 512, exactly the cap (not above it)
    ("qinglongqidui2", "qq", "qinglongqidui", 2, 7, 64, False),
    ("qinglongqidui2", "chengdu", "qinglongqidui", 2, 64, 8, True),
    ("qinglongqidui2", "additive", "qinglongqidui", 2, 5, 5, False),
    ("qinglongqidui2", "xuezhan9", "qinglongqidui", 2, 9, 512, False),
    # 带幺九 (default on in qq and additive, off in chengdu and xuezhan9 -> the hand is 平胡):
    # qq 3 -> 4; chengdu x1; additive 幺九 3; xuezhan9 0 -> 1
    ("daiyaojiu", "qq", "daiyaojiu", 0, 3, 4, False),
    ("daiyaojiu", "chengdu", "pinghu", 0, 1, 1, False),
    ("daiyaojiu", "additive", "daiyaojiu", 0, 3, 3, False),
    ("daiyaojiu", "xuezhan9", "pinghu", 0, 0, 1, False),
    # 清幺九: qq 5 -> 16; chengdu (带幺 off) 清一色 x4; additive 3 (own code);
    # xuezhan9 (带幺 off) 清一色 3 -> 8
    ("qingyaojiu", "qq", "qingyaojiu", 0, 5, 16, False),
    ("qingyaojiu", "chengdu", "qingyise", 0, 4, 4, False),
    ("qingyaojiu", "additive", "qingyaojiu", 0, 3, 3, False),
    ("qingyaojiu", "xuezhan9", "qingyise", 0, 3, 8, False),
    # 将对 (on in qq and additive, off in chengdu and xuezhan9 -> 对对胡):
    # qq 4 -> 8; chengdu x2; additive 4; xuezhan9 2 -> 4
    ("jiangdui", "qq", "jiangdui", 0, 4, 8, False),
    ("jiangdui", "chengdu", "duiduihu", 0, 2, 2, False),
    ("jiangdui", "additive", "jiangdui", 0, 4, 4, False),
    ("jiangdui", "xuezhan9", "duiduihu", 0, 2, 4, False),
    # 金钩钓 (on only in xuezhan9, where it is +1 fan, 全求人): qq 对对胡 2 -> 2; chengdu x2;
    # additive 2; xuezhan9 对对胡 2 + 金钩钓 1 = 3 -> 8
    ("jingoudiao", "qq", "duiduihu", 0, 2, 2, False),
    ("jingoudiao", "chengdu", "duiduihu", 0, 2, 2, False),
    ("jingoudiao", "additive", "duiduihu", 0, 2, 2, False),
    ("jingoudiao", "xuezhan9", "duiduihu", 0, 3, 8, False),
    # 天胡 (self-drawn): qq 6 -> 32 (no self-draw bonus); chengdu 满格 = cap 8, +1 自摸 after
    # the cap -> 9; additive 8; xuezhan9 9 + 自摸 1 = 10 > cap 9 -> 2^9 = 512
    ("tianhu", "qq", "tianhu", 0, 6, 32, False),
    ("tianhu", "chengdu", "tianhu", 0, 8, 9, False),
    ("tianhu", "additive", "tianhu", 0, 8, 8, False),
    ("tianhu", "xuezhan9", "tianhu", 0, 10, 512, True),
    # 地胡 (discard): qq 6 -> 32; chengdu 满格 8; additive 8; xuezhan9 9 -> 512
    ("dihu", "qq", "dihu", 0, 6, 32, False),
    ("dihu", "chengdu", "dihu", 0, 8, 8, False),
    ("dihu", "additive", "dihu", 0, 8, 8, False),
    ("dihu", "xuezhan9", "dihu", 0, 9, 512, False),
]


@pytest.mark.parametrize(
    ("name", "preset", "pattern", "roots", "total", "value", "capped"),
    [pytest.param(*row, id=f"{row[1]}-{row[0]}") for row in BASE],
)
def test_base_pattern(name, preset, pattern, roots, total, value, capped):
    """Each base pattern under each preset's defaults (arithmetic in the BASE comments)."""
    _check(_h(name), preset, pattern, roots, total, value, capped)


def test_fan_is_reported_only_for_fan_presets():
    """§3: qq and xuezhan9 count fan; chengdu (multiples) and additive (points) do not."""
    assert evaluate(_h("qingyise"), "qq").as_dict()["fan"] == 3
    assert evaluate(_h("qingyise"), "xuezhan9").as_dict()["fan"] == 3
    assert evaluate(_h("qingyise"), "chengdu").as_dict()["fan"] is None
    assert evaluate(_h("qingyise"), "additive").as_dict()["fan"] is None


# --- roots (根) ----------------------------------------------------------------------------

ROOT_HANDS = {
    # exposed kong 5m + 11 123 678 789m: 清一色 with 1 根 (the kong)
    "kong": {"tiles": "11123678789m", "winning": "1m", "melds": [_kong("5m")]},
    # the same with the kong concealed (暗杠): still exactly one 根
    "concealed-kong": {"tiles": "11123678789m", "winning": "1m", "melds": [_kong("5m", True)]},
    # 222 234 567 88 999m: 2m x4 held, not konged -> 1 根
    "concealed-four": {"tiles": "22223456788999m", "winning": "3m"},
    # pung 5m + 11 234 456 789m: the 5m of 456 is the fourth 5m -> 1 根
    "pung-plus-fourth": {"tiles": "11234456789m", "winning": "1m", "melds": [_pung("5m")]},
}

ROOT_VALUES = {
    # 清一色 + 1 根: qq 3 + 1 = 4 fan -> 8; chengdu 4 x2 = 8 (= cap); additive 3 + 1 = 4;
    # xuezhan9 3 + 1 = 4 fan -> 16
    "qq": (4, 8),
    "chengdu": (8, 8),
    "additive": (4, 4),
    "xuezhan9": (4, 16),
}


@pytest.mark.parametrize("preset", list(ROOT_VALUES))
@pytest.mark.parametrize("source", list(ROOT_HANDS))
def test_one_root_from_each_source(source, preset):
    """RULES §2: a 根 is a kong, a concealed four, or a pung plus the fourth tile in hand."""
    total, value = ROOT_VALUES[preset]
    _check(_hand(**ROOT_HANDS[source]), preset, "qingyise", 1, total, value)


THREE_ROOTS = {
    "tiles": "11345m",
    "winning": "1m",
    "melds": [_pung("3m"), _kong("5p"), _kong("7p", concealed=True)],
}


@pytest.mark.parametrize(
    ("preset", "total", "value"),
    [
        pytest.param("qq", 4, 8, id="qq"),  # 平胡 1 + 3 = 4 fan -> 8
        pytest.param("chengdu", 8, 8, id="chengdu"),  # 1 x2 x2 x2 = 8 (= cap)
        pytest.param("additive", 4, 4, id="additive"),  # 1 + 3 = 4
        pytest.param("xuezhan9", 3, 8, id="xuezhan9"),  # 0 + 3 = 3 fan -> 8
    ],
)
def test_three_roots_of_three_kinds(preset, total, value):
    """Pung 3m (+ the 3m of 345m), exposed kong 5p, concealed kong 7p, 345m 11m: 平胡, 3 根."""
    _check(_hand(**THREE_ROOTS), preset, "pinghu", 3, total, value)


# --- situational extras --------------------------------------------------------------------

KONG_FLOWER = {
    "tiles": "234567789m11p",
    "winning": "1p",
    "melds": [_kong("5p")],
    "self_draw": True,
    "situation": ["kong_flower"],
}


@pytest.mark.parametrize(
    ("preset", "total", "value"),
    [
        # 平胡 1 + 根 1 + 杠上花 1 = 3 fan -> 4 (self-draw adds nothing in qq)
        pytest.param("qq", 3, 4, id="qq"),
        # 1 x2 (根) x2 (杠上花) = 4, under the cap; +1 自摸加底 -> 5
        pytest.param("chengdu", 4, 5, id="chengdu"),
        # 1 + 1 (根) + 2 (杠上花) = 4
        pytest.param("additive", 4, 4, id="additive"),
        # 0 + 1 (根) + 1 (杠上花) + 1 (自摸) = 3 fan -> 8
        pytest.param("xuezhan9", 3, 8, id="xuezhan9"),
    ],
)
def test_gangshanghua(preset, total, value):
    """杠上花 on 234 567 789m 11p + kong 5p, self-drawn on 1p."""
    _check(_hand(**KONG_FLOWER), preset, "pinghu", 1, total, value)


@pytest.mark.parametrize(
    ("preset", "total", "value"),
    [
        pytest.param("qq", 4, 8, id="qq"),  # 清一色 3 + 杠上炮 1 = 4 fan -> 8
        pytest.param("chengdu", 8, 8, id="chengdu"),  # 4 x2 = 8
        pytest.param("additive", 3, 3, id="additive"),  # no 杠上炮 bonus: 3
        pytest.param("xuezhan9", 4, 16, id="xuezhan9"),  # 3 + 1 = 4 fan -> 16
    ],
)
def test_gangshangpao(preset, total, value):
    """杠上炮: the 清一色 hand won on the discard after the discarder's kong."""
    _check(_h("qingyise", situation=["kong_discard"]), preset, "qingyise", 0, total, value)


@pytest.mark.parametrize(
    ("preset", "total", "value"),
    [
        pytest.param("qq", 3, 4, id="qq"),  # no 抢杠 bonus in qq: 3 fan -> 4
        pytest.param("chengdu", 8, 8, id="chengdu"),  # 抢杠胡 x2: 4 x2 = 8
        pytest.param("additive", 4, 4, id="additive"),  # 抢杠 +1: 3 + 1 = 4
        pytest.param("xuezhan9", 4, 16, id="xuezhan9"),  # 3 + 1 = 4 fan -> 16
    ],
)
def test_qiangganghu(preset, total, value):
    """抢杠: the 清一色 hand won on 8s that another player was adding to his pung."""
    _check(_h("qingyise", situation=["robbing_kong"]), preset, "qingyise", 0, total, value)


def test_additive_pinghu_robbing_kong_is_two():
    """§3.3: "a 平胡 抢杠 is 2, which the seed also lists as 夺杠胡 2分": 1 + 1 = 2."""
    _check(_h("pinghu", situation=["robbing_kong"]), "additive", "pinghu", 0, 2, 2)


@pytest.mark.parametrize(
    ("ruleset", "total", "value"),
    [
        # 海底 defaults: off in qq/chengdu/additive (nothing added), on in xuezhan9 (+1 fan)
        pytest.param("qq", 3, 4, id="qq-default-off"),
        pytest.param("chengdu", 4, 4, id="chengdu-default-off"),
        pytest.param("additive", 3, 3, id="additive-default-off"),
        pytest.param("xuezhan9", 4, 16, id="xuezhan9-default-on"),  # 3 + 1 -> 16
        # toggled: qq has no value for 海底 -> +1 fan: 4 -> 8; chengdu x2 -> 8;
        # additive +1 point -> 4; xuezhan9 off -> 3 fan -> 8
        pytest.param(_rs("qq", haidi=True), 4, 8, id="qq-on"),
        pytest.param(_rs("chengdu", haidi=True), 8, 8, id="chengdu-on"),
        pytest.param(_rs("additive", haidi=True), 4, 4, id="additive-on"),
        pytest.param(_rs("xuezhan9", haidi=False), 3, 8, id="xuezhan9-off"),
    ],
)
def test_haidi(ruleset, total, value):
    """海底 (last_tile): the 清一色 hand won on the last tile of the wall (a discard)."""
    _check(_h("qingyise", situation=["last_tile"]), ruleset, "qingyise", 0, total, value)


@pytest.mark.parametrize(
    ("ruleset", "total", "value"),
    [
        # 绝张 is off by default in every preset (§3.5): nothing added
        pytest.param("qq", 3, 4, id="qq-default-off"),
        pytest.param("chengdu", 4, 4, id="chengdu-default-off"),
        pytest.param("additive", 3, 3, id="additive-default-off"),
        pytest.param("xuezhan9", 3, 8, id="xuezhan9-default-off"),
        # on: qq +1 fan -> 4 -> 8; chengdu x2 -> 8; additive +1 -> 4; xuezhan9 +1 -> 16
        pytest.param(_rs("qq", juezhang=True), 4, 8, id="qq-on"),
        pytest.param(_rs("chengdu", juezhang=True), 8, 8, id="chengdu-on"),
        pytest.param(_rs("additive", juezhang=True), 4, 4, id="additive-on"),
        pytest.param(_rs("xuezhan9", juezhang=True), 4, 16, id="xuezhan9-on"),
    ],
)
def test_juezhang(ruleset, total, value):
    """绝张 (last_copy): the 清一色 hand won on its 卡张 8s, the hand holding no other 8s."""
    _check(_h("qingyise", situation=["last_copy"]), ruleset, "qingyise", 0, total, value)


@pytest.mark.parametrize(
    ("ruleset", "total", "value"),
    [
        # defaults: qq none -> 3 fan -> 4; chengdu add_one -> 4 + 1 = 5;
        # additive none -> 3; xuezhan9 add_fan -> 3 + 1 = 4 fan -> 16
        pytest.param("qq", 3, 4, id="qq-default-none"),
        pytest.param("chengdu", 4, 5, id="chengdu-default-add_one"),
        pytest.param("additive", 3, 3, id="additive-default-none"),
        pytest.param("xuezhan9", 4, 16, id="xuezhan9-default-add_fan"),
        # toggles: add_one = +1 to the value after the cap; add_fan = one more curve step
        pytest.param(_rs("qq", self_draw_bonus="add_one"), 3, 5, id="qq-add_one"),  # 4 + 1
        pytest.param(_rs("qq", self_draw_bonus="add_fan"), 4, 8, id="qq-add_fan"),  # 4 fan
        pytest.param(_rs("chengdu", self_draw_bonus="none"), 4, 4, id="chengdu-none"),
        pytest.param(_rs("chengdu", self_draw_bonus="add_fan"), 8, 8, id="chengdu-add_fan"),
        pytest.param(_rs("additive", self_draw_bonus="add_one"), 3, 4, id="additive-add_one"),
        pytest.param(_rs("additive", self_draw_bonus="add_fan"), 4, 4, id="additive-add_fan"),
        pytest.param(_rs("xuezhan9", self_draw_bonus="none"), 3, 8, id="xuezhan9-none"),
        pytest.param(_rs("xuezhan9", self_draw_bonus="add_one"), 3, 9, id="xuezhan9-add_one"),
    ],
)
def test_self_draw(ruleset, total, value):
    """自摸: the 清一色 hand self-drawn, under each preset's default and each bonus toggle."""
    _check(_h("qingyise", self_draw=True), ruleset, "qingyise", 0, total, value)


# --- optional patterns toggled -------------------------------------------------------------

TOGGLES = [
    # 带幺九 off in qq/additive: the hand counts as what else it is (平胡 1 -> 1; 清一色 3)
    ("daiyaojiu", _rs("qq", daiyaojiu=False), "pinghu", 1, 1, False),
    ("qingyaojiu", _rs("qq", daiyaojiu=False), "qingyise", 3, 4, False),
    ("daiyaojiu", _rs("additive", daiyaojiu=False), "pinghu", 1, 1, False),
    ("qingyaojiu", _rs("additive", daiyaojiu=False), "qingyise", 3, 3, False),
    # 带幺 on in chengdu: 带幺 x4; 清带幺 x16 > cap 8 -> 8 (uncapped: 16)
    ("daiyaojiu", _rs("chengdu", daiyaojiu=True), "daiyaojiu", 4, 4, False),
    ("qingyaojiu", _rs("chengdu", daiyaojiu=True), "qingyaojiu", 16, 8, True),
    ("qingyaojiu", _rs("chengdu", daiyaojiu=True, cap=None), "qingyaojiu", 16, 16, False),
    # 带幺九 on in xuezhan9, which has no value for it: +1 fan (平胡 0 + 1 -> 2; 清一色 3 + 1 -> 16)
    ("daiyaojiu", _rs("xuezhan9", daiyaojiu=True), "pinghu", 1, 2, False),
    ("qingyaojiu", _rs("xuezhan9", daiyaojiu=True), "qingyise", 4, 16, False),
    # 将对 off in qq/additive -> 对对胡 (2 fan -> 2; 2 points)
    ("jiangdui", _rs("qq", jiangdui=False), "duiduihu", 2, 2, False),
    ("jiangdui", _rs("additive", jiangdui=False), "duiduihu", 2, 2, False),
    # 将对 on in chengdu: x16 > 8 -> 8; in xuezhan9 (no value): 对对胡 2 + 1 = 3 fan -> 8
    ("jiangdui", _rs("chengdu", jiangdui=True), "jiangdui", 16, 8, True),
    ("jiangdui", _rs("xuezhan9", jiangdui=True), "duiduihu", 3, 8, False),
    # 金钩钓 on: qq (no value) 对对胡 2 + 1 = 3 fan -> 4; chengdu table 金钩钓 x4;
    # additive (no value) 2 + 1 = 3; off in xuezhan9: 对对胡 2 fan -> 4
    ("jingoudiao", _rs("qq", jingoudiao=True), "duiduihu", 3, 4, False),
    ("jingoudiao", _rs("chengdu", jingoudiao=True), "jingoudiao", 4, 4, False),
    ("jingoudiao", _rs("additive", jingoudiao=True), "duiduihu", 3, 3, False),
    ("jingoudiao", _rs("xuezhan9", jingoudiao=False), "duiduihu", 2, 4, False),
]


@pytest.mark.parametrize(
    ("name", "ruleset", "pattern", "total", "value", "capped"),
    [
        pytest.param(*row, id="-".join([row[1]["preset"], row[0], *map(str, row[1]["options"])]))
        for row in TOGGLES
    ],
)  # fmt: skip
def test_optional_pattern_toggle(name, ruleset, pattern, total, value, capped):
    """带幺九 / 将对 / 金钩钓 switched against each preset's default (§3.5)."""
    _check(_h(name), ruleset, pattern, 0, total, value, capped)


# --- caps ----------------------------------------------------------------------------------

CAPS = [
    # chengdu 清龙七对 (1 root) x32: cap 8 -> 8; cap 16 -> 16; no cap -> 32
    ("qinglongqidui", {}, "chengdu", 32, 8, True),
    ("qinglongqidui", {"cap": 16}, "chengdu", 32, 16, True),
    ("qinglongqidui", {"cap": None}, "chengdu", 32, 32, False),
    # chengdu 清七对 x16 with cap 16: exactly the cap, not above
    ("qingqidui", {"cap": 16}, "chengdu", 16, 16, False),
    # chengdu 龙七对 with 2 roots, uncapped: 8 x2 = 16
    ("longqidui2", {"cap": None}, "chengdu", 16, 16, False),
    # qq with a cap of 4 fan: 清龙七对 6 fan -> capped at 4 fan -> 2^3 = 8
    ("qinglongqidui", {"cap": 4}, "qq", 6, 8, True),
    # additive with a cap of 3 points: 清对 4 -> 3
    ("qingdui", {"cap": 3}, "additive", 4, 3, True),
    # xuezhan9 without cap: 清龙七对 2 roots 9 fan -> 512 (same as capped: 9 is not above 9)
    ("qinglongqidui2", {"cap": None}, "xuezhan9", 9, 512, False),
]


@pytest.mark.parametrize(
    ("name", "options", "preset", "total", "value", "capped"),
    [pytest.param(*row, id=f"{row[2]}-{row[0]}-{row[1]}") for row in CAPS],
)
def test_cap_toggle(name, options, preset, total, value, capped):
    """The ``cap`` option in the curve's own unit (§3.5); value = the cap's value when above."""
    d = evaluate(_h(name), _rs(preset, **options)).as_dict()
    assert (d["total"], d["value"], d["capped"]) == (total, value, capped)


def test_chengdu_self_draw_bonus_comes_after_the_cap():
    """清七对 self-drawn in chengdu: x16 capped to 8, then 自摸加底 +1 -> 9 (§3.2)."""
    _check(_h("qingqidui", self_draw=True), "chengdu", "qingqidui", 0, 16, 9, True)


def test_chengdu_add_fan_self_draw_is_before_the_cap():
    """add_fan is a curve step before the cap: 清一色 + kong root self-drawn = 4 x2 x2 = 16,
    capped to 8; no +1 after the cap."""
    hand = _hand(**ROOT_HANDS["kong"], self_draw=True)
    _check(hand, _rs("chengdu", self_draw_bonus="add_fan"), "qingyise", 1, 16, 8, True)


@pytest.mark.parametrize(
    ("options", "total", "value"),
    [
        pytest.param({}, 8, 9, id="cap8"),  # 满格 8, + 1 自摸 -> 9
        pytest.param({"cap": 16}, 16, 17, id="cap16"),  # 满格 16, + 1 -> 17
        pytest.param({"cap": None}, 32, 33, id="uncapped"),  # 32 when uncapped, + 1 -> 33
    ],
)
def test_chengdu_tianhu_is_the_cap(options, total, value):
    """§3.2: 天胡 and 地胡 are worth 满格 (the cap; 32 when uncapped); 天胡 is self-drawn."""
    d = evaluate(_h("tianhu"), _rs("chengdu", **options)).as_dict()
    assert (d["pattern"], d["total"], d["value"]) == ("tianhu", total, value)


def test_xuezhan9_nine_fan_cap_reached_by_self_draw():
    """清龙七对 with 2 roots self-drawn: 7 + 2 + 自摸 1 = 10 fan > 9 -> 2^9 = 512, capped."""
    _check(_h("qinglongqidui2", self_draw=True), "xuezhan9", "qinglongqidui", 2, 10, 512, True)


def test_xuezhan9_without_cap_goes_past_512():
    """The same hand with cap null: 10 fan -> 2^10 = 1024."""
    hand = _h("qinglongqidui2", self_draw=True)
    _check(hand, _rs("xuezhan9", cap=None), "qinglongqidui", 2, 10, 1024, False)


# --- combinations ---------------------------------------------------------------------------


def test_chengdu_kong_flower_on_one_suit_with_kong_is_capped_then_plus_one():
    """Kong 5m + 11 123 678 789m self-drawn on 1m after the kong (杠上花), chengdu.

    清一色 x4, 根 x2, 杠上花 x2 = 16 > cap 8 -> 8; 自摸加底 after the cap -> 9.
    """
    hand = _hand(**ROOT_HANDS["kong"], self_draw=True, situation=["kong_flower"])
    _check(hand, "chengdu", "qingyise", 1, 16, 9, True)


def test_xuezhan9_haidi_self_drawn():
    """海底捞月 self-drawn, xuezhan9: 清一色 3 + 海底 1 + 自摸 1 = 5 fan -> 32."""
    hand = _h("qingyise", self_draw=True, situation=["last_tile"])
    _check(hand, "xuezhan9", "qingyise", 0, 5, 32)


ONE_SUIT_GOLDEN_HOOK = {
    "tiles": "99m",
    "winning": "9m",
    "melds": [_pung("1m"), _pung("3m"), _pung("5m"), _pung("7m")],
}


@pytest.mark.parametrize(
    ("ruleset", "pattern", "total", "value"),
    [
        # qq 清对 4 + 金钩钓 (no value in qq: +1 fan) = 5 fan -> 16
        pytest.param(_rs("qq", jingoudiao=True), "qingdui", 5, 16, id="qq"),
        # chengdu: 清大对 x8 beats 金钩钓 x4 (max, no stacking) -> 8
        pytest.param(_rs("chengdu", jingoudiao=True), "qingdui", 8, 8, id="chengdu"),
        # additive: 清对 4 + 1 point = 5
        pytest.param(_rs("additive", jingoudiao=True), "qingdui", 5, 5, id="additive"),
        # xuezhan9 (on by default): 清大对 5 + 全求人 1 = 6 fan -> 64
        pytest.param("xuezhan9", "qingdui", 6, 64, id="xuezhan9"),
    ],
)
def test_golden_hook_of_one_suit(ruleset, pattern, total, value):
    """Pungs 1m 3m 5m 7m + 9m, won on 9m: 清对 and 金钩钓 at once."""
    _check(_hand(**ONE_SUIT_GOLDEN_HOOK), ruleset, pattern, 0, total, value)


@pytest.mark.parametrize(
    ("pung", "pattern", "fan", "value"),
    [
        # pung 1p: 1pppp + 123m 789m 789p 99p: every set and the pair hold 1/9 -> 带幺九 3 -> 4
        pytest.param("1p", "daiyaojiu", 3, 4, id="terminal-pung"),
        # pung 5p: that set has no 1/9 -> only 平胡 1 -> 1
        pytest.param("5p", "pinghu", 1, 1, id="middle-pung"),
    ],
)
def test_daiyaojiu_reads_the_melds(pung, pattern, fan, value):
    """§2 pattern facts are computed on the whole hand incl. melds (qq)."""
    hand = _hand("123789m78999p", "9p", melds=[_pung(pung)])
    _check(hand, "qq", pattern, 0, fan, value)


def test_root_from_a_pung_and_the_winning_tile():
    """Pung 5m + 46m 789m 11p 234p, won on 5m (456m): the winning tile is the fourth 5m -> 1 根.

    qq: 平胡 1 + 1 = 2 fan -> 2.
    """
    _check(_hand("456789m11234p", "5m", melds=[_pung("5m")]), "qq", "pinghu", 1, 2, 2)


@pytest.mark.parametrize(
    ("preset", "total", "value"),
    [
        # qq: 天胡 6 + 1 根 = 7 fan -> 64 (better than 清一色 3 + 1 = 4)
        pytest.param("qq", 7, 64, id="qq"),
        # additive: 天胡 8 + 1 根 = 9
        pytest.param("additive", 9, 9, id="additive"),
    ],
)
def test_tianhu_with_a_root(preset, total, value):
    """222 234 567 88 999m as 天胡 (self-drawn, no melds): 2m x4 is a 根 added to 天胡."""
    hand = _hand(**ROOT_HANDS["concealed-four"], self_draw=True, situation=["heavenly"])
    _check(hand, preset, "tianhu", 1, total, value)


def test_a_hand_whose_only_wait_is_a_fifth_copy_is_not_ready():
    """Kong 5m + 46m 789m 11p 234p: 46m needs 5m, but all four 5m are in the kong; 11p cannot
    become a set while 46m stays (a lone pair is needed). No wait: not ready (§3.5 "there is
    no fifth copy")."""
    res = readiness(parse_tiles("46789m11234p"), "chengdu", melds=(Meld("kong", 4),))
    assert (res.ready, res.waits) == (False, ())


# --- the best split --------------------------------------------------------------------------

SPLIT_DUIDUI = {"tiles": "111222333m777p55p", "winning": "5p"}
SPLIT_QINGDUI = {"tiles": "11122233377755m", "winning": "5m"}


@pytest.mark.parametrize(
    ("preset", "total", "value"),
    [
        pytest.param("qq", 2, 2, id="qq"),  # 对对胡 2 fan (runs: 平胡 1) -> 2
        pytest.param("chengdu", 2, 2, id="chengdu"),  # 大对子 x2 beats 平胡 x1
        pytest.param("additive", 2, 2, id="additive"),  # 2 beats 1
        pytest.param("xuezhan9", 2, 4, id="xuezhan9"),  # 2 fan beats 0 -> 4
    ],
)
def test_best_split_triplets_beat_runs(preset, total, value):
    """111222333m 777p 55p: as triplets 111 222 333m -> 对对胡; as runs 123m x3 -> 平胡."""
    _check(_hand(**SPLIT_DUIDUI), preset, "duiduihu", 0, total, value)


@pytest.mark.parametrize(
    ("preset", "total", "value"),
    [
        pytest.param("qq", 4, 8, id="qq"),  # 清对 4 fan (runs: 清一色 3) -> 8
        pytest.param("chengdu", 8, 8, id="chengdu"),  # 清大对 x8 beats 清一色 x4
        pytest.param("additive", 4, 4, id="additive"),  # 4 beats 3
        pytest.param("xuezhan9", 5, 32, id="xuezhan9"),  # 5 fan beats 3 -> 32
    ],
)
def test_best_split_one_suit(preset, total, value):
    """111222333 777 55m: triplets -> 清对; runs 123 123 123 777 55m -> only 清一色."""
    _check(_hand(**SPLIT_QINGDUI), preset, "qingdui", 0, total, value)


def test_best_split_follows_the_daiyao_toggle_in_chengdu():
    """111222333m 999p 11p in chengdu.

    Triplets 111 222 333m 999p 11p -> 大对子 x2; runs 123m x3 999p 11p -> 平胡 x1, or 带幺 x4
    when 带幺 is on (every set and the pair hold a 1 or 9). Default: 2; with 带幺: 4.
    """
    hand = _hand("111222333m11999p", "1p")
    _check(hand, "chengdu", "duiduihu", 0, 2, 2)
    _check(hand, _rs("chengdu", daiyaojiu=True), "daiyaojiu", 0, 4, 4)


# --- hands that do not win ---------------------------------------------------------------------


def test_pairs_with_melds_are_not_seven_pairs():
    """Pungs 1m and 9p + 22 55m 33 77p (won on 7p): 七对 needs 14 concealed tiles and no melds
    (RULES §2), and 22 55m 33 77p has no standard split -> not_a_winning_shape, roots 0."""
    hand = _hand("2255m3377p", "7p", melds=[_pung("1m"), _pung("9p")])
    for preset in ("qq", "chengdu"):
        assert evaluate(hand, preset).as_dict() == {
            "win": False,
            "reason": "not_a_winning_shape",
            "roots": 0,
        }


def test_three_suits_is_not_a_win():
    """111m 22 333 456p 789s: a complete shape but three suits: 缺一门 broken -> three_suits."""
    d = evaluate(_hand("111m22333456p789s", "2p"), "qq").as_dict()
    assert d == {"win": False, "reason": "three_suits", "roots": 0}


def test_three_suits_counts_the_melds():
    """234 567 789m 11p + pung 5s: the meld brings the third suit (§2 "the whole hand
    (concealed + melds)") -> three_suits."""
    d = evaluate(_hand("234567789m11p", "1p", melds=[_pung("5s")]), "chengdu").as_dict()
    assert d == {"win": False, "reason": "three_suits", "roots": 0}


def test_declared_void_suit_is_not_a_win():
    """The 平胡 hand (m + p) with p declared void: the winning hand contains it (§2 定缺)."""
    d = evaluate(_h("pinghu", void="p"), "xuezhan9").as_dict()
    assert d == {"win": False, "reason": "declared_void_suit", "roots": 0}


def test_declared_void_suit_absent_from_the_hand_is_fine():
    """The same hand with s declared void: no s tile, a normal 平胡 (xuezhan9: 0 fan -> 1)."""
    _check(_h("pinghu", void="s"), "xuezhan9", "pinghu", 0, 0, 1)


# --- refusals (§5) -----------------------------------------------------------------------------

PINGHU_PLAIN = {"tiles": "234567789m345p11p", "winning": "1p"}
PINGHU_DRAWN = {**PINGHU_PLAIN, "self_draw": True}
KONG_HAND = {"tiles": "234567789m11p", "winning": "1p", "melds": [_kong("5p")]}

REFUSALS = [
    # 12 concealed + winning tile = 13 effective tiles
    ("wrong_tile_count", {"tiles": "234567789m345p1p", "winning": "1p"}),
    # a seven-pairs hand with one four laid down as a concealed kong: 9 + 3 + 1 = 13
    (
        "wrong_tile_count",
        {"tiles": "2233m5566p88p", "winning": "8p", "melds": [_kong("1m", concealed=True)]},
    ),
    # 1111m in hand and 1m won: five 1m
    ("too_many_copies", {"tiles": "11111m234m567p789p", "winning": "1m"}),
    # kong 5p and two more 5p in hand: six 5p
    ("too_many_copies", {"tiles": "234567789m55p", "winning": "5p", "melds": [_kong("5p")]}),
    # 杠上花 with no kong of the winner's own
    ("kong_flower_without_kong", {**PINGHU_DRAWN, "situation": ["kong_flower"]}),
    # 杠上花 is a self-draw
    ("kong_flower_not_self_draw", {**KONG_HAND, "situation": ["kong_flower"]}),
    # 杠上炮 and 抢杠 are wins on another player's tile
    ("kong_discard_self_draw", {**PINGHU_DRAWN, "situation": ["kong_discard"]}),
    ("robbing_kong_self_draw", {**PINGHU_DRAWN, "situation": ["robbing_kong"]}),
    # 天胡 is self-drawn ...
    ("heavenly_impossible", {**PINGHU_PLAIN, "situation": ["heavenly"]}),
    # ... with no melds
    ("heavenly_impossible", {**KONG_HAND, "self_draw": True, "situation": ["heavenly"]}),
    # 地胡 comes before any claim
    ("earthly_with_melds", {**KONG_HAND, "situation": ["earthly"]}),
    # 天胡 (dealer) and 地胡 (non-dealer) exclude each other
    ("situation_conflict", {**PINGHU_DRAWN, "situation": ["heavenly", "earthly"]}),
    # 杠上炮 and 抢杠 exclude each other
    ("situation_conflict", {**PINGHU_PLAIN, "situation": ["kong_discard", "robbing_kong"]}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("code", "hand"), [pytest.param(c, h, id=f"{c}-{i}") for i, (c, h) in enumerate(REFUSALS)]
)
def test_refusal(code, hand):
    """RULES §5: impossible hands raise EngineError with a stable code (the only problem)."""
    with pytest.raises(EngineError) as exc:
        evaluate(_hand(**hand), "qq")
    assert [p.code for p in exc.value.problems] == [code]


# --- notation (§1) -----------------------------------------------------------------------------


def test_chinese_notation_equals_compact():
    """万/筒/条 and the seed spellings 饼/铜/索; whitespace ignored; output sorted m, p, s."""
    assert parse_tiles("123万456筒789条") == parse_tiles("123m456p789s")
    assert parse_tiles("5饼 5铜 5索") == parse_tiles("55p5s")
    assert format_tiles(parse_tiles("9s 5p 1m 4m")) == "14m5p9s"


@pytest.mark.parametrize(
    ("text", "position"),
    [
        pytest.param("123m04p", 4, id="rank-zero"),
        pytest.param("123m45x", 6, id="unknown-suit"),
        pytest.param("123m45", 4, id="digits-without-suit"),
    ],
)
def test_notation_error_names_the_position(text, position):
    """§1: rank 0, an unknown suit or digits with no suit are errors naming the position."""
    with pytest.raises(EngineError) as exc:
        parse_tiles(text)
    assert exc.value.code.startswith("notation_")
    assert f"position {position}" in str(exc.value)


def test_notation_error_in_a_hand_points_at_the_field():
    with pytest.raises(EngineError) as exc:
        parse_winning_hand({"concealed": "234567789m0p11p", "winning_tile": "1p"})
    assert exc.value.code.startswith("notation_")
    assert exc.value.path == "concealed"
