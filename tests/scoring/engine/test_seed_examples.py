"""The worked hand examples of the seed documents, valued by their tiles (RULES.md §1–§3).

Each example is evaluated under the preset of the seed it comes from (RULES §3): seed 001 and
seed 000 §二–§五 -> ``qq``; seeds 002, 003 and the 牌型术语 part of seed 000 -> ``chengdu``;
seed 004 (and seed 000 篇一, which is the same text) -> ``additive``; seed 000 篇四 -> ``xuezhan9``.

The seeds write hands as groups separated by spaces in Chinese notation; RULES §1 accepts that
notation (whitespace ignored), so the examples below are copied from the seeds as written. The
helper takes the whole concealed hand *with* the winning tile and removes one copy of the winning
tile (always one tile of the example, named in each case) to form the concealed part.

Several examples are mislabelled in the seeds. The engine classifies by the tiles (RULES §2
"Pattern facts (computed on the whole hand incl. melds and the winning tile)"), and the tests for
those say so in their names.

Not repeated here: seed 001's eleven examples with the winning tiles used by
``/work/shared/cases/evaluate.json`` (covered there). Here they are self-drawn on another of their
tiles, which in ``qq`` changes nothing (§3.1: "No self-draw bonus"). Seed 000 §五 gives the same
examples truncated to their last few tiles ("如5789条", "如万33399筒", …); those fragments are not
hands and are the tails of seed 001's examples, so they are covered by the seed 001 cases.
"""

from __future__ import annotations

import pytest

from scoring.engine import (
    EngineError,
    evaluate,
    parse_tiles,
    readiness,
    tile_name,
)

from .builders import meld
from .builders import pung as _pung
from .builders import winning_hand as _hand


def _kong(tile, concealed=False):
    return meld("kong", tile, concealed)


def _win(result, pattern, roots, total, value, capped=False):
    d = result.as_dict()
    got = {k: d.get(k) for k in ("win", "pattern", "roots", "total", "value", "capped")}
    want = {
        "win": True,
        "pattern": pattern,
        "roots": roots,
        "total": total,
        "value": value,
        "capped": capped,
    }
    assert got == want


def _no_win(result, reason, roots):
    assert result.as_dict() == {"win": False, "reason": reason, "roots": roots}


# --- seed 001 (qq) ------------------------------------------------------------------------
# qq (§3.1): value = 2^(fan - 1); 龙七对 5 and 清龙七对 6 already count one root; no cap; no
# self-draw bonus. Each case: (tiles incl. winning tile, winning tile, pattern, roots, fan,
# value); the "why" comment works it out.

SEED001 = [
    pytest.param(
        "23445677筒345789条", "3条", "pinghu", 0, 1, 1,
        # 234p 456p 77p 345s 789s, two suits, no other pattern: 平胡 1 fan -> 2^0 = 1
        id="pinghu-selfdrawn-3s",
    ),
    pytest.param(
        "111222444万33399筒", "3筒", "duiduihu", 0, 2, 2,
        # 111m 222m 444m 333p 99p all triplets: 对对胡 2 fan -> 2^1 = 2 (1m: not 将对)
        id="duiduihu-selfdrawn-3p",
    ),
    pytest.param(
        "11333222456999条", "1条", "qingyise", 0, 3, 4,
        # 11s 222s 333s 456s 999s, one suit: 清一色 3 fan -> 4 (456s has no 1/9: not 幺九)
        id="qingyise-selfdrawn-1s",
    ),
    pytest.param(
        "111222333万78999筒", "7筒", "daiyaojiu", 0, 3, 4,
        # best split 123m 123m 123m 789p 99p: every set/pair has a 1 or 9 -> 带幺九 3 fan -> 4
        # (the triplet split 111 222 333m 789p 99p is only 平胡)
        id="daiyaojiu-selfdrawn-7p",
    ),
    pytest.param(
        "2244552299万1199筒", "1筒", "longqidui", 1, 5, 16,
        # labelled 七对, but 2m x4: seven pairs with a four = 龙七对 5 fan, its one root
        # included (roots 1 - 1 = 0 more) -> 2^4 = 16
        id="qidui-example-is-longqidui-selfdrawn-1p",
    ),
    pytest.param(
        "99887755221166筒", "9筒", "qingqidui", 0, 5, 16,
        # labelled 清对, but it is seven pairs of one suit (no standard split: 11 22 55 99 are
        # pairs) -> 清七对 5 fan -> 16
        id="qingdui-example-is-qingqidui-selfdrawn-9p",
    ),
    pytest.param(
        "222555888条88855万", "2条", "jiangdui", 0, 4, 8,
        # 222s 555s 888s 888m 55m: all triplets of 2/5/8 -> 将对 4 fan -> 8
        id="jiangdui-selfdrawn-2s",
    ),
    pytest.param(
        "11222244筒557799万", "4筒", "longqidui", 1, 5, 16,
        # 11p 2222p 44p 55m 77m 99m: 龙七对 5 fan incl. its root -> 16
        id="longqidui-selfdrawn-4p",
    ),
    pytest.param(
        "11334466778899条", "1条", "qingqidui", 0, 5, 16,
        # seven pairs of bamboo -> 清七对 5 fan -> 16
        id="qingqidui-selfdrawn-1s",
    ),
    pytest.param(
        "11123777888999铜", "1铜", "qingyaojiu", 0, 5, 16,
        # split 11p 123p 789p 789p 789p: one suit, 1/9 everywhere -> 清幺九 5 fan -> 16
        id="qingyaojiu-selfdrawn-1p",
    ),
    pytest.param(
        "11224444557799万", "1万", "qinglongqidui", 1, 6, 32,
        # one suit, seven pairs, 4m x4 -> 清龙七对 6 fan incl. its root -> 2^5 = 32
        id="qinglongqidui-selfdrawn-1m",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("tiles", "winning", "pattern", "roots", "fan", "value"), SEED001)
def test_seed001_examples_selfdrawn_in_qq(tiles, winning, pattern, roots, fan, value):
    """Seed 001's examples, self-drawn on another of their tiles: qq adds nothing for 自摸."""
    res = evaluate(_hand(tiles, winning, self_draw=True), "qq")
    _win(res, pattern, roots, fan, value)
    assert res.as_dict()["fan"] == fan


# --- seed 003 番数 section, valued by seed 003's own system (chengdu) ---------------------
# chengdu (§3.2): multiples 平胡 1, 大对子 2, 清一色 4, 暗七对 4, 清大对 8, 龙七对 8 (one root
# included), 清七对 16; cap 8; 带幺 and 将对 are optional and off by default (§3.5).

SEED003 = [
    pytest.param(
        "23445677筒345789条", "7筒", "pinghu", 0, 1, 1, False,
        # 234p 456p 77p 345s 789s -> 平胡 x1
        id="pinghu",
    ),
    pytest.param(
        "111222444万33399筒", "9筒", "duiduihu", 0, 2, 2, False,
        # four triplets + pair -> 大对子 x2
        id="duiduihu",
    ),
    pytest.param(
        "11333222456999条", "6条", "qingyise", 0, 4, 4, False,
        # 11s 222s 333s 456s 999s -> 清一色 x4
        id="qingyise",
    ),
    pytest.param(
        "111222333万78999筒", "9筒", "pinghu", 0, 1, 1, False,
        # labelled 带幺九, an optional pattern chengdu does not score by default: runs split
        # 123m x3 789p 99p and triplet split 111 222 333m 789p 99p are both plain 平胡 x1
        id="daiyaojiu-example-is-pinghu-without-the-option",
    ),
    pytest.param(
        "2244552299万1199筒", "9筒", "longqidui", 1, 8, 8, False,
        # labelled 七对; 2m x4 -> 龙七对 x8 with its one root included; 8 = cap, not above it
        id="qidui-example-is-longqidui",
    ),
    pytest.param(
        "99887755221166筒", "6筒", "qingqidui", 0, 16, 8, True,
        # labelled 清大对; seven pairs of dots -> 清七对 x16, over the cap 8 -> 8
        id="qingdadui-example-is-qingqidui-capped",
    ),
    pytest.param(
        "222555888条88855万", "5万", "duiduihu", 0, 2, 2, False,
        # 将对 is off in chengdu by default: 222s 555s 888s 888m 55m is 大对子 x2
        id="jiangdui-example-is-duiduihu-without-the-option",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tiles", "winning", "pattern", "roots", "total", "value", "capped"), SEED003
)
def test_seed003_fanshu_examples_in_chengdu(tiles, winning, pattern, roots, total, value, capped):
    """Seed 003's 番数 examples (discard wins) valued in chengdu multiples."""
    _win(evaluate(_hand(tiles, winning), "chengdu"), pattern, roots, total, value, capped)


def test_seed003_daiyaojiu_example_with_daiyaojiu_option():
    """111222333万78999筒 on 9筒, chengdu with 带幺 on.

    Best split (RULES §2): 123m 123m 123m 789p 99p -> every set and the pair hold a 1 or 9 ->
    带幺 x4 (§3.5: chengdu 带幺 4), better than the triplet split's 平胡 x1. Value 4.
    """
    res = evaluate(
        _hand("111222333万78999筒", "9筒"), {"preset": "chengdu", "options": {"daiyaojiu": True}}
    )
    _win(res, "daiyaojiu", 0, 4, 4)


def test_seed003_jiangdui_example_with_jiangdui_option_is_capped():
    """222555888条88855万 on 5万, chengdu with 将对 on: 将对 x16 over the cap 8 -> value 8."""
    res = evaluate(
        _hand("222555888条88855万", "5万"), {"preset": "chengdu", "options": {"jiangdui": True}}
    )
    _win(res, "jiangdui", 0, 16, 8, capped=True)


# --- seed 002 / seed 000 牌型术语 (chengdu) -----------------------------------------------

SEED002 = [
    pytest.param(
        "123 345 789万 234 66筒", "6筒", "pinghu", 0, 1, 1,
        # 123m 345m 789m 234p 66p -> 平胡 (1倍)
        id="pinghu",
    ),
    pytest.param(
        "111 333 444万 222 66筒", "2筒", "duiduihu", 0, 2, 2,
        # all triplets -> 大对子 (2倍)
        id="dadui",
    ),
    pytest.param(
        "111 234 345 666 88万", "8万", "qingyise", 0, 4, 4,
        # one suit; 1m, 6m x3 only, no four -> 清一色 (4倍)
        id="qingyise",
    ),
    pytest.param(
        "1133446677万5588筒", "5筒", "qidui", 0, 4, 4,
        # seven pairs, no four; 5588p cannot be sets + pair -> 暗七对 (4倍)
        id="anqidui",
    ),
    pytest.param(
        "1133446666万5588筒", "8筒", "longqidui", 1, 8, 8,
        # seven pairs with 6m x4 -> 龙七对 (8倍), the root included; 8 = cap, not above
        id="longqidui",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("tiles", "winning", "pattern", "roots", "total", "value"), SEED002)
def test_seed002_paixing_examples_in_chengdu(tiles, winning, pattern, roots, total, value):
    """Seed 002's (and seed 000 牌型术语's) base-pattern examples as discard wins in chengdu."""
    _win(evaluate(_hand(tiles, winning), "chengdu"), pattern, roots, total, value)


JINGOUDIAO_MELDS = [_pung("1万"), _pung("3万"), _pung("4万"), _pung("2筒")]


def test_seed002_jingoudiao_example_is_dadui_without_the_option():
    """111 333 444万 222 6筒, won on the second 6筒 (four pungs laid down).

    金钩钓 is optional and off in chengdu (§3.5 ``jingoudiao`` false), so the hand counts as what
    else it is: four triplets + pair = 大对子 x2. Value 2.
    """
    res = evaluate(_hand("66筒", "6筒", melds=JINGOUDIAO_MELDS), "chengdu")
    _win(res, "duiduihu", 0, 2, 2)


def test_seed002_jingoudiao_example_with_the_option():
    """Same hand with 金钩钓 on: chengdu table 金钩钓 4 (§3.2) beats 大对子 2 -> value 4."""
    res = evaluate(
        _hand("66筒", "6筒", melds=JINGOUDIAO_MELDS),
        {"preset": "chengdu", "options": {"jingoudiao": True}},
    )
    _win(res, "jingoudiao", 0, 4, 4)


def test_seed002_daiyao_example_is_pinghu_without_the_option():
    """123 123 99万 123 789条 on 9万: 带幺 off by default in chengdu -> 平胡 x1."""
    _win(evaluate(_hand("123 123 99万 123 789条", "9万"), "chengdu"), "pinghu", 0, 1, 1)


def test_seed002_daiyao_example_with_the_option():
    """123 123 99万 123 789条 on 9万, 带幺 on: every set and the pair hold 1 or 9 -> x4."""
    res = evaluate(
        _hand("123 123 99万 123 789条", "9万"),
        {"preset": "chengdu", "options": {"daiyaojiu": True}},
    )
    _win(res, "daiyaojiu", 0, 4, 4)


def test_seed002_jiangdui_example_is_dadui_without_the_option():
    """222 555 88万 222 888筒 on 8万: 将对 off by default -> 大对子 x2."""
    _win(evaluate(_hand("222 555 88万 222 888筒", "8万"), "chengdu"), "duiduihu", 0, 2, 2)


def test_seed002_jiangdui_example_with_the_option_uncapped():
    """222 555 88万 222 888筒 on 8万, 将对 on and no cap: 将对 x16 (§3.2) -> 16."""
    res = evaluate(
        _hand("222 555 88万 222 888筒", "8万"),
        {"preset": "chengdu", "options": {"jiangdui": True, "cap": None}},
    )
    _win(res, "jiangdui", 0, 16, 16)


@pytest.mark.parametrize(
    ("winning", "roots", "total"),
    [
        # 111 234 55 678 999m: one suit, no four -> 清一色 x4
        pytest.param("5万", 0, 4, id="on-5m-qingyise"),
        # four 1m: 111 123 456 789 99m with one 根 -> 清一色 x4 x2 = 8 (= cap)
        pytest.param("1万", 1, 8, id="on-1m-qingyise-yigen"),
        # four 9m: 11 123 456 789 999m with one 根 -> 清一色 x4 x2 = 8
        pytest.param("9万", 1, 8, id="on-9m-qingyise-yigen"),
    ],
)
def test_seed002_jiulian_counts_only_as_qingyise_or_qingyise_with_root(winning, roots, total):
    """Seed 002: 1112345678999万 "在四川麻将中只算清一色或清一色带根" (chengdu, discard win)."""
    res = evaluate(_hand("1112345678999万" + winning, winning), "chengdu")
    _win(res, "qingyise", roots, total, total)


def test_seed000_zimo_jiadi_example_four_plus_one():
    """Seed 000 牌型术语: "自摸胡了一个两番 … 每人给4（基础倍数）+1（自摸加底）共5倍".

    The seed's own 清一色 example 111 234 345 666 88万, self-drawn on 8万, in chengdu:
    清一色 x4 (two doublings), under the cap 8; 自摸加底 adds +1 after the cap (§3.2) -> 5.
    """
    _win(evaluate(_hand("111 234 345 666 88万", "8万", self_draw=True), "chengdu"),
         "qingyise", 0, 4, 5)  # fmt: skip


def test_seed000_juezhang_bian_3m_completed_hand():
    """Seed 000 牌型术语: "3万已被碰，胡边三万就为绝张" (绝张 optional, ×2).

    The seed gives only the wait (12万 边张 on 3万); completed here as 12 456 789万 234 55筒 + 3万
    (checked by hand: the only wait is 3m). 123m 456m 789m 234p 55p = 平胡 x1; with the
    ``juezhang`` option on, 绝张 x2 -> 2 (§3.2 "Optional ×2: 海底, 绝张").
    """
    hand = _hand("123 456 789万 234 55筒", "3万", situation=["last_copy"])
    _win(evaluate(hand, {"preset": "chengdu", "options": {"juezhang": True}}), "pinghu", 0, 2, 2)
    _win(evaluate(hand, "chengdu"), "pinghu", 0, 1, 1)  # option off by default: plain x1


# --- seed 000 篇四 (xuezhan9) -------------------------------------------------------------
# xuezhan9 (§3.4): value = 2^fan, 平胡 0 fan, 大对子 2, 清一色 3, 七对 4, 清大对 5, +1 per 根,
# +1 for 自摸; cap 9 fan.

XUEZHAN = [
    pytest.param(
        "123 345 789万 234 66筒", "6筒", False, "pinghu", 0, 0, 1,
        # 平胡 0 fan -> 2^0 = 1 ("无番1块")
        id="pinghu",
    ),
    pytest.param(
        "123 345 789万 234 66筒", "6筒", True, "pinghu", 0, 1, 2,
        # the seed's 自摸 row ("1番2块"): 平胡 0 + 自摸 1 = 1 fan -> 2
        id="zimo",
    ),
    pytest.param(
        "111 333 444万222 66筒", "2筒", False, "duiduihu", 0, 2, 4,
        # 大对子 2 fan -> 4 ("2番4块")
        id="dadui",
    ),
    pytest.param(
        "111 234 345 666 88万", "8万", False, "qingyise", 0, 3, 8,
        # 清一色 3 fan -> 8 ("3番8块")
        id="qingyise",
    ),
    pytest.param(
        "111 222 555 666 88万", "8万", False, "qingdui", 0, 5, 32,
        # 清大对 = 大对子 2 + 清一色 3 = 5 fan -> 32 ("5番32块")
        id="qingdadui",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tiles", "winning", "self_draw", "pattern", "roots", "fan", "value"), XUEZHAN
)
def test_seed000_xuezhan_examples(tiles, winning, self_draw, pattern, roots, fan, value):
    """Seed 000 篇四's examples in xuezhan9 (discard wins unless the row is 自摸)."""
    res = evaluate(_hand(tiles, winning, self_draw=self_draw), "xuezhan9")
    _win(res, pattern, roots, fan, value)


def test_seed000_xuezhan_daigen_example_is_also_qingyise():
    """Seed 000 篇四 带根: "123 345 555 678 99万（1根加1番）".

    5m: one in 345 + 555 = four -> 1 根 (+1 fan), but every tile is 万, so the hand is also
    清一色 3 fan: 3 + 1 = 4 fan -> 2^4 = 16 (won on 9万, discard).
    """
    _win(evaluate(_hand("123 345 555 678 99万", "9万"), "xuezhan9"), "qingyise", 1, 4, 16)


@pytest.mark.parametrize(
    ("tiles", "winning"),
    [
        pytest.param("11 22 55万 66 88筒", "8筒", id="qidui-example-has-ten-tiles"),
        pytest.param("11 33 44 筒", "4筒", id="longqidui-example-has-six-tiles"),
    ],
)
def test_seed000_xuezhan_seven_pairs_examples_are_not_fourteen_tiles(tiles, winning):
    """篇四's 七对 example (5 pairs) and 龙七对 example (3 pairs) are fragments: RULES §5 refuses
    a winning hand that is not 14 effective tiles."""
    with pytest.raises(EngineError) as exc:
        evaluate(_hand(tiles, winning), "xuezhan9")
    assert exc.value.code == "wrong_tile_count"


# --- seed 004 (additive) ------------------------------------------------------------------
# additive (§3.3): 平胡 1, 对对胡 2, 清一色/幺九/七对 3, 清对/将对 4; +1 per 根 (a kong is one
# 根, counted once); 龙七对 = 七对 3 + its roots.

SEED004 = [
    pytest.param(
        "111万 444万 222筒 999筒 66筒", "6筒", "duiduihu", 0, 2,
        # all triplets -> 对对胡 2
        id="duiduihu",
    ),
    pytest.param(
        "123条 567条 234 条 888条 99条", "9条", "qingyise", 0, 3,
        # one suit; 8s x3, 2s/3s x2: no four -> 清一色 3
        id="qingyise",
    ),
    pytest.param(
        "123条 123万 789条 789万 99万", "9万", "daiyaojiu", 0, 3,
        # every set and the pair hold 1 or 9 -> 幺九 3 (option on in additive)
        id="yaojiu",
    ),
    pytest.param(
        "11万 22万 99万 44筒 66筒 88筒 99筒", "2万", "qidui", 0, 3,
        # seven distinct pairs -> 七对 3
        id="qidui",
    ),
    pytest.param(
        "111万 444万 222万 999万 66万", "6万", "qingdui", 0, 4,
        # one-suit all triplets -> 清对 4
        id="qingdui",
    ),
    pytest.param(
        "2222筒 123万 345万 999筒 66筒", "6筒", "pinghu", 1, 2,
        # 2222筒 entered as an exposed kong (see test); 平胡 1 + 1 根 (the kong) = 2
        id="pinghu-yigang",
    ),
    pytest.param(
        "8888条 123条 567条 234 条 77条", "7条", "qingyise", 1, 4,
        # 8888s as an exposed kong: 清一色 3 + 1 根 = 4
        id="qingyise-yigang",
    ),
    pytest.param(
        "2222筒 111万 444万 999筒 66筒", "9筒", "duiduihu", 1, 3,
        # 2222筒 kong: 对对胡 2 + 1 根 = 3 (evaluate.json has it on 6筒; here on 9筒)
        id="dadui-yigang-on-9p",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("tiles", "winning", "pattern", "roots", "points"), SEED004)
def test_seed004_examples_in_additive(tiles, winning, pattern, roots, points):
    """Seed 004's correctly labelled examples; a leading 2222筒/8888条 is an exposed kong."""
    melds = []
    for kong_tiles, tile in (("2222筒", "2筒"), ("8888条", "8条")):
        if tiles.startswith(kong_tiles):
            tiles = tiles.removeprefix(kong_tiles)
            melds.append(_kong(tile))
    _win(evaluate(_hand(tiles, winning, melds=melds), "additive"), pattern, roots, points, points)


def test_seed004_qingqidui_example_is_two_suited_longqidui():
    """Seed 004 labels "11万 11万 99万 44筒 66筒 88筒 99筒" 清七对 (4分).

    It holds 万 and 筒, so it is not 清; 1m x4 makes it 龙七对 = 七对 3 + 1 根 = 4 (§3.3).
    The points match the label by coincidence; the pattern is longqidui. Won on 4筒.
    """
    res = evaluate(_hand("11万 11万 99万 44筒 66筒 88筒 99筒", "4筒"), "additive")
    _win(res, "longqidui", 1, 4, 4)


def test_seed004_jiangdui_example_is_three_suited():
    """Seed 004's 将对 "222万 555万 888万 222条 55筒" holds 万, 条 and 筒: 缺一门 is broken
    (RULES §2), so it is no win at all: three_suits. No tile is held four times: roots 0."""
    _no_win(evaluate(_hand("222万 555万 888万 222条 55筒", "5筒"), "additive"), "three_suits", 0)


def test_seed004_pinghu_daiyigen_example_holds_no_root():
    """Seed 004: 平胡(1) + 带一根(1) = 2 for "123万 345万 222筒 999筒 66筒".

    No tile appears four times (3m twice, 2p/9p three times), so there is no 根: 平胡 1 -> 1.
    Won on 6筒.
    """
    _win(evaluate(_hand("123万 345万 222筒 999筒 66筒", "6筒"), "additive"), "pinghu", 0, 1, 1)


def test_seed004_shuanglongqidui_example_holds_no_root():
    """Seed 004: 七对(3) + 2根(2) = 双龙七对 5 for "11万 22万 99万 44筒 66筒 11筒 99筒".

    The seven pairs are all different tiles (1m 2m 9m 4p 6p 1p 9p): no four, no 根 -> 七对 3.
    Won on 1筒.
    """
    res = evaluate(_hand("11万 22万 99万 44筒 66筒 11筒 99筒", "1筒"), "additive")
    _win(res, "qidui", 0, 3, 3)


def test_seed004_qingyise_yigen_example_holds_two_roots():
    """Seed 004: 清一色(3) + 一根(1) = 4 for "123条 567条 678 条 888条 77条".

    7s: one in 567 + one in 678 + 77 = four; 8s: one in 678 + 888 = four -> two 根.
    清一色 3 + 2 = 5 (§3.3). Won on 3条.
    """
    res = evaluate(_hand("123条 567条 678 条 888条 77条", "3条"), "additive")
    _win(res, "qingyise", 2, 5, 5)


def test_seed004_qingyise_ergen_example_is_not_a_winning_shape():
    """Seed 004: 清一色(3) + 二根(2) = 5 for "124条 567条 789 条 888条 77条".

    "124" is not a set: the tiles 1 2 4 5 6 7777 8888 9 (s) have a 1s and 2s with no 3s, so
    neither a standard split nor seven pairs exists: not_a_winning_shape. The hand does hold
    7s x4 and 8s x4: roots 2. Won on 7条.
    """
    res = evaluate(_hand("124条 567条 789 条 888条 77条", "7条"), "additive")
    _no_win(res, "not_a_winning_shape", 2)


# --- waits (下叫类型, seeds 002 and 003) ----------------------------------------------------
# Worked by hand: a 13-tile hand waits on every tile that gives four sets + a pair (or seven
# pairs), never on a fifth copy of a tile it holds four times (§3.5 ``dead_wait_counts``).

WAITS = [
    # 111m 46m + 123s 66s 789s complete: only 5m fills 46m (4m/6m would leave 1114x6 unsplit)
    pytest.param("111 46 万123 66 789条", {"5m"}, id="kazhang"),
    # 123 567m 123s 99s complete; 56s needs 4s or 7s
    pytest.param("123 567 万123 56 99条", {"4s", "7s"}, id="liangbiansuo"),
    # 234 66 789m complete; 123s + 89s needs 7s (no 10s)
    pytest.param("234 66 789万123 89条", {"7s"}, id="bianzhang"),
    # four sets, 7p alone: only 7p (3457p is four tiles, never sets + pair with a m tile)
    pytest.param("123 456 789万 345 7筒", {"7p"}, id="dandiao"),
    # 123 567m 123s + 55s 99s: either pair becomes a triplet
    pytest.param("123 567 万123 55 99条", {"5s", "9s"}, id="duichujiao"),
    # 34567m + x must be two sets (99p is the pair): 2 (234 567), 5 (345 567), 8 (345 678)
    pytest.param("34567万123 678 99筒", {"2m", "5m", "8m"}, id="ganchang-five"),
    # 1234567m + x = two sets + pair: 1 (11 234 567), 4 (123 44 567), 7 (123 456 77)
    pytest.param("1234567万123 789筒", {"1m", "4m", "7m"}, id="ganchang-seven"),
    # 2344567m + x: 1 (123 44 567), 4 (234 44 567), 7 (234 456 77)
    pytest.param("2344567万123 789筒", {"1m", "4m", "7m"}, id="ganchang-seven-b"),
    # seed gives only "12345678万"; completed with 123筒 55筒: 8 m tiles + x = three sets:
    # 3 (123 345 678), 6 (123 456 678), 9 (123 456 789)
    pytest.param("12345678万 123 55筒", {"3m", "6m", "9m"}, id="ganchang-eight-completed"),
    # 22234 77m + 123 456p: 2 (222 234 77), 5 (222 345 77), 7 (22 234 777)
    pytest.param("22234 77万123 456筒", {"2m", "5m", "7m"}, id="kandaoban-two-adjacent"),
    # 11123456m + 123 55p: 1 (111 123 456), 4 (111 234 456), 7 (111 234 567) and, with 11m as
    # the pair (11 123 456), 5p (123 555p)
    pytest.param("11123456万123 55筒", {"1m", "4m", "7m", "5p"}, id="kandaoban-ganchang"),
    # 1112345678m + 123p: 258 (111 22 345 678 / 111 234 55 678 / 111 234 567 88) and
    # 369 (11 123 345 678 / 11 123 456 678 / 11 123 456 789)
    pytest.param(
        "1112345678万123筒", {"2m", "3m", "5m", "6m", "8m", "9m"}, id="kandaoban-ganchang-ten"
    ),
    # 九莲宝灯: every m tile; 1m and 9m are held three times, so a fourth copy exists
    pytest.param("1112345678999万", {f"{r}m" for r in range(1, 10)}, id="jiulianbaodeng"),
]


@pytest.mark.parametrize(("tiles", "expected"), WAITS)
def test_seed_wait_examples(tiles, expected):
    """The seeds' 下叫类型 examples: the exact set of winning tiles, worked out by hand.

    Every seed list turned out complete for these tiles; the 8-tile 赶场叫 example had to be
    completed into a 13-tile hand first.
    """
    res = readiness(parse_tiles(tiles), "chengdu")
    assert res.ready is True
    assert {tile_name(w.tile) for w in res.waits} == expected


@pytest.mark.parametrize(
    ("seed_tiles", "thirteen", "expected"),
    [
        # "2223 678 789万 123 456筒" is 4+3+3+3+3 = 16 tiles; dropping 678万: 2223 789m + 123
        # 456p. 1 (123 22 789), 4 (22 234 789), 3 (222 33 789): 胡14万带3万 as the seed says
        pytest.param(
            "2223 678 789万 123 456筒", "2223 789万 123 456筒", {"1m", "3m", "4m"},
            id="adjacent-one",
        ),
        # "2224 678 789万 123 456筒" is 16 tiles; without 678万: 3 (22 234 789), 4 (222 44 789)
        pytest.param(
            "2224 678 789万 123 456筒", "2224 789万 123 456筒", {"3m", "4m"}, id="gap-one"
        ),
    ],
)  # fmt: skip
def test_seed_kandaoban_examples_have_sixteen_tiles(seed_tiles, thirteen, expected):
    """The seeds' first two 坎倒板 examples hold one set too many (16 tiles): RULES §2 shape
    count is 13 while waiting, so readiness refuses them; with one set dropped the waits are
    the ones the seed names."""
    with pytest.raises(EngineError) as exc:
        readiness(parse_tiles(seed_tiles), "chengdu")
    assert exc.value.code == "wrong_tile_count"
    waits = readiness(parse_tiles(thirteen), "chengdu").waits
    assert {tile_name(w.tile) for w in waits} == expected


def test_wait_never_on_a_fifth_copy():
    """11112233万 45677筒 (not from a seed; the brief's "four of a tile" rule).

    m as three sets needs one more m: 4m gives 111 123 234; 1m would give 111 123 123 but
    would be a fifth 1m. With 11m as the pair (11 123 123), 45677p + x must be two sets:
    only 7p (456 777). Waits {4m, 7p}, not 1m (§3.5: "no fifth copy").
    """
    waits = readiness(parse_tiles("11112233万45677筒"), "chengdu").waits
    assert {tile_name(w.tile) for w in waits} == {"4m", "7p"}
