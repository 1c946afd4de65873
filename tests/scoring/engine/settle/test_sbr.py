"""``sbr`` — Sichuan Bloody Rules (RULES §3.7, §3.8): every figure §3.7 lists, then 清七对, 天胡/
地胡, 单钓 Golden Wait, 海底 over 杠上炮, 查叫 without kong roots, 诈胡, and the cap 4 variant.

Every expected value is worked out by hand from RULES.md; the working is in each test. The
preset in short: ``competition.py``. Base 1, dealer S0, seats S0–S3 in play order.
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import check_win, kong, meld, record, win, winner
from .competition import (
    DUIDUI_5P,
    FOUR_PUNGS,
    GOLDEN_6P,
    GOLDEN_DRAW,
    KONG_9P,
    NO_KONG_ROOTS_DRAW,
    PINGHU,
    QIDUI,
    QIDUI_3ROOTS,
    QIDUI_ROOT,
    QINGDUI_9M,
    QINGDUI_GOLDEN,
    QINGLONGQIDUI,
    QINGQIDUI,
    false_win,
    flows,
    paid_by,
    pays,
    spec,
    wh,
)

S = "sbr"
S4 = spec("sbr", cap=4)
PUNGS = [meld("pung", t) for t in FOUR_PUNGS]

# --- the figures of §3.7 ----------------------------------------------------------------------

FIGURES = [
    # 对对胡 2: 111s 222s 444s 555p 66p won on 5p (a pung: the hand held two 5p, so no 单钓):
    # 1 fan → 2
    pytest.param(S, wh(DUIDUI_5P, "5p"), "duiduihu", 0, 1, 2, False, id="duiduihu-2"),
    # 对对胡 + Golden Wait 4: the same sets won on 6p, the hand holding one 6p (单钓):
    # 1 + 1 = 2 fan → 4
    pytest.param(S, wh(GOLDEN_6P, "6p"), "duiduihu", 0, 2, 4, False, id="duiduihu-golden-4"),
    # 清对 8: 111m 333m 555m 999m 77m won on 9m (a pung): 3 fan → 8
    pytest.param(S, wh(QINGDUI_9M, "9m"), "qingdui", 0, 3, 8, False, id="qingdui-8"),
    # 清对 self-drawn 9: 3 fan → 8, +1 after the cap → 9 each
    pytest.param(S, wh(QINGDUI_9M, "9m", self_draw=True), "qingdui", 0, 3, 9, False,
                 id="qingdui-self-9"),
    # a 平胡 self-draw 2 each: 0 fan → 1, +1 → 2
    pytest.param(S, wh(PINGHU, "4p", self_draw=True), "pinghu", 0, 0, 2, False,
                 id="pinghu-self-2"),
    # 清对 + Golden Wait: 111m 333m 555m 777m 99m won on 9m, one 9m held: 3 + 1 = 4 fan;
    # cap 3 → 8 (capped); cap 4 → 16 (at the cap, not over it)
    pytest.param(S, wh(QINGDUI_GOLDEN, "9m"), "qingdui", 0, 4, 8, True, id="qingdui-golden-cap3"),
    pytest.param(S4, wh(QINGDUI_GOLDEN, "9m"), "qingdui", 0, 4, 16, False,
                 id="qingdui-golden-cap4"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("ruleset", "hand_", "pattern", "roots", "total", "value", "capped"), FIGURES
)
def test_the_figures_of_the_rulebook(ruleset, hand_, pattern, roots, total, value, capped):
    """RULES §3.7 "Figures" (working beside each row): ``total`` is the fan before the cap,
    ``value`` what each payer pays at base 1."""
    check_win(hand_, ruleset, pattern, roots, total, value, capped)


def test_self_drawn_qingdui_is_9_each_27_in_all():
    """§3.7 figure "清对 8 (self-drawn 9 each, 27 in all)", settled. E0 S1 self-draws 9m:
    111m 333m 555m 999m 77m: 清对 3 fan → 8, +1 after the cap → 9 from each of S0, S2, S3."""
    d = settle(record(S, [win("9m", winner(1, QINGDUI_9M))])).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), 9))
    assert d["totals"]["seats"] == [-9, 27, -9, -9]


def test_pinghu_self_draw_is_2_each():
    """§3.7 figure "a 平胡 self-draw 2 each", settled. E0 S1 self-draws 4p: 123m 456m 789m 11p
    234p, 0 fan → 1, +1 → 2 from each of S0, S2, S3. S1 +6."""
    d = settle(record(S, [win("4p", winner(1, PINGHU))])).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), 2))
    assert d["totals"]["seats"] == [-2, 6, -2, -2]


def test_kong_discard_after_the_discarders_concealed_kong_refunds_it():
    """§3.7 figure "杠上炮 after the discarder's 暗杠 (income 6, paid 2 by each): the discarder
    returns 2 to each payer and pays the win" (``kong_transfer: refund``, §4.4).
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each.
    E1 S2 discards 4p right after; S1 wins 杠上炮: 平胡 0 + 杠上炮 1 = 1 fan → 2: S2 → S1 2.
    Refund of that kong's income: S2 → S0, S1, S3 2 each (S1, the winner, paid it too).
    S0 −2 +2 = 0; S1 −2 +2 +2 = 2; S2 +6 −6 −2 = −2; S3 0.
    """
    rec = record(
        S,
        [
            kong(2, "concealed", "9s"),
            win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([*paid_by(2, (0, 1, 3), 2), *pays(2, (0, 1, 3), 2), ("S2", "S1", 2)])
    assert d["totals"]["seats"] == [0, 2, -2, 0]


# --- the table beyond the figures ------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "hand_", "pattern", "roots", "total", "value", "capped"),
    [
        # 清七对 4 fan: 11 22 33 44 55 77 99m: 4 fan; cap 3 → 8 (capped); cap 4 → 16
        pytest.param(S, wh(QINGQIDUI, "4m"), "qingqidui", 0, 4, 8, True, id="qingqidui-cap3"),
        pytest.param(S4, wh(QINGQIDUI, "4m"), "qingqidui", 0, 4, 16, False, id="qingqidui-cap4"),
        # 七对 2 (won on its pair, but not all triplets: no 单钓): 2 fan → 4
        pytest.param(S, wh(QIDUI, "7p"), "qidui", 0, 2, 4, False, id="qidui"),
        # 七对 with a four: no 龙七对 row, so 七对 2 + 1 根 = 3 fan → 8
        pytest.param(S, wh(QIDUI_ROOT, "7p"), "qidui", 1, 3, 8, False, id="qidui-root"),
        # 清七对 with a four: 4 + 1 根 = 5 fan; cap 3 → 8
        pytest.param(S, wh(QINGLONGQIDUI, "2m"), "qingqidui", 1, 5, 8, True,
                     id="qingqidui-root"),
        # 清一色: 123m 456m 789m 234m 11m: 2 fan → 4
        pytest.param(S, wh("123m456m789m11m23m", "4m"), "qingyise", 0, 2, 4, False,
                     id="qingyise"),
        # a kong is a 根, counted once: 清对 111m 333m 555m 77m + kong 9999m on 5m (a pung):
        # 3 + 1 = 4 fan; cap 3 → 8
        pytest.param(S, wh("111m333m55m77m", "5m", [meld("kong", "9m", True)]),
                     "qingdui", 1, 4, 8, True, id="qingdui-kong"),
        # a concealed four is a 根: 111m 123m 456m 11p 234p: 0 + 1 = 1 fan → 2
        pytest.param(S, wh("111123m456m11p23p", "4p"), "pinghu", 1, 1, 2, False, id="root"),
        # 杠上花: 123m 456m 11p 234p + 暗杠 9999m: 0 + 根 1 + 杠上花 1 = 2 fan → 4, +1 → 5
        pytest.param(S, wh("123m456m11p23p", "4p", [meld("kong", "9m", True)], True,
                           ["kong_flower"]), "pinghu", 1, 2, 5, False, id="gangshanghua"),
        # 杠上炮, 抢杠, 海底: 平胡 0 + 1 = 1 fan → 2 each
        pytest.param(S, wh(PINGHU, "4p", situation=["kong_discard"]), "pinghu", 0, 1, 2, False,
                     id="gangshangpao"),
        pytest.param(S, wh(PINGHU, "4p", situation=["robbing_kong"]), "pinghu", 0, 1, 2, False,
                     id="qiangganghu"),
        pytest.param(S, wh(PINGHU, "4p", situation=["last_tile"]), "pinghu", 0, 1, 2, False,
                     id="haidi"),
        # cap 4: 七对 + 3 根 = 5 fan → capped at 4 → 16
        pytest.param(S4, wh(QIDUI_3ROOTS, "7p"), "qidui", 3, 5, 16, True, id="qidui-3roots-cap4"),
        # cap 4: 清对 self-drawn 3 fan → 8, +1 → 9 (the cap does not matter)
        pytest.param(S4, wh(QINGDUI_9M, "9m", self_draw=True), "qingdui", 0, 3, 9, False,
                     id="qingdui-self-cap4"),
    ],
)  # fmt: skip
def test_patterns_and_extras(ruleset, hand_, pattern, roots, total, value, capped):
    """RULES §3.7: fans add; extras +1 each; cap 3 (option 4). Working beside each row."""
    check_win(hand_, ruleset, pattern, roots, total, value, capped)


@pytest.mark.parametrize(
    ("ruleset", "each", "pattern"),
    [
        # 天胡 = the cap: 3 fan → 8, self-drawn +1 after the cap → 9 from each; S0 +27
        (S, 9, "tianhu"),
        # cap 4: 2^4 = 16, +1 → 17 from each; S0 +51
        (S4, 17, "tianhu"),
        # tianhu_dihu off: the hand's structure, 平胡 0 fan → 1, +1 → 2 from each
        (spec("sbr", tianhu_dihu=False), 2, "pinghu"),
    ],
    ids=["cap3", "cap4", "off"],
)
def test_heavenly_hand_is_worth_the_cap(ruleset, each, pattern):
    """RULES §3.7 (天胡, 地胡: the cap; ``tianhu_dihu`` default on). E0 the dealer S0 self-draws
    4p on his first 14 tiles (123m 456m 789m 11p 234p) with the ``heavenly`` flag."""
    d = settle(record(ruleset, [win("4p", winner(0, PINGHU), situation=["heavenly"])])).as_dict()
    assert flows(d) == sorted(paid_by(0, (1, 2, 3), each))
    assert d["totals"]["seats"] == [3 * each, -each, -each, -each]
    assert d["wins"][0]["pattern"] == pattern


def test_earthly_hand_on_a_discard_is_worth_the_cap():
    """RULES §3.7: 地胡 = the cap. E0 S1, a non-dealer in the first go-round before any claim,
    wins on the dealer S0's discard 4p (123m 456m 789m 11p 234p) with the ``earthly`` flag:
    the cap 3 fan → 8, a discard win (no self-draw bonus): S0 → S1 8."""
    d = settle(record(S, [win("4p", winner(1, PINGHU), frm=0, situation=["earthly"])])).as_dict()
    assert flows(d) == [("S0", "S1", 8)]
    assert d["totals"]["seats"] == [-8, 8, 0, 0]
    assert d["wins"][0]["pattern"] == "dihu"


# --- 单钓 Golden Wait (golden_wait, RULES §3.8) ------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "hand_", "pattern", "roots", "total", "value"),
    [
        # no melds: 111s 222s 444s 555p + 66p won on 6p with one 6p held: 对对胡 1 + 1 = 2 → 4
        pytest.param(S, wh(GOLDEN_6P, "6p"), "duiduihu", 0, 2, 4, id="no-melds"),
        # one meld (pung 1s): the same, whatever the number of melds: 2 fan → 4
        pytest.param(S, wh("222s444s555p6p", "6p", [meld("pung", "1s")]), "duiduihu", 0, 2, 4,
                     id="one-meld"),
        # two melds (pungs 1s 2s)
        pytest.param(S, wh("444s555p6p", "6p", [meld("pung", "1s"), meld("pung", "2s")]),
                     "duiduihu", 0, 2, 4, id="two-melds"),
        # four melds, one concealed tile (the 金钩钓 shape; sbr has jingoudiao off): 1 + 1 = 2 → 4
        pytest.param(S, wh("5p", "5p", PUNGS), "duiduihu", 0, 2, 4, id="four-melds"),
        # a kong among the melds is a 根 besides: 对对胡 1 + 根 1 + 单钓 1 = 3 fan → 8
        pytest.param(S, wh("222s444s555p6p", "6p", [meld("kong", "1s")]), "duiduihu", 1, 3, 8,
                     id="with-kong"),
        # both options on (sbr + jingoudiao): a hand that is both counts one step: 2 → 4
        pytest.param(spec("sbr", jingoudiao=True), wh("5p", "5p", PUNGS), "duiduihu", 0, 2, 4,
                     id="sbr-with-jingoudiao"),
        # tfmj2024 + golden_wait: its 金钩钓 hand still counts one step: 2 → 4 (not 3 → 8)
        pytest.param(spec("tfmj2024", golden_wait=True), wh("5p", "5p", PUNGS), "duiduihu",
                     0, 2, 4, id="tfmj2024-with-golden-wait-jingoudiao"),
        # tfmj2024 + golden_wait on a 单钓 without melds: 对对胡 1 + 1 = 2 → 4
        pytest.param(spec("tfmj2024", golden_wait=True), wh(GOLDEN_6P, "6p"), "duiduihu",
                     0, 2, 4, id="tfmj2024-with-golden-wait"),
        # tfmj2024 as it is (golden_wait off): 对对胡 1 → 2
        pytest.param("tfmj2024", wh(GOLDEN_6P, "6p"), "duiduihu", 0, 1, 2, id="tfmj2024"),
        # qq + golden_wait: qq has no value for it, one step of its curve = +1 fan:
        # 对对胡 2 + 1 = 3 fan → 2^(3−1) = 4; qq as it is: 2 fan → 2
        pytest.param(spec("qq", golden_wait=True), wh(GOLDEN_6P, "6p"), "duiduihu", 0, 3, 4,
                     id="qq-with-golden-wait"),
        pytest.param("qq", wh(GOLDEN_6P, "6p"), "duiduihu", 0, 2, 2, id="qq"),
        # not 单钓: won on a pung (two 5p held): 对对胡 1 → 2
        pytest.param(S, wh(DUIDUI_5P, "5p"), "duiduihu", 0, 1, 2, id="pung-wait"),
        # not 单钓: a single wait, but not all triplets (111s 222s 444s 678p 55p): 平胡 → 1
        pytest.param(S, wh("111s222s444s678p5p", "5p"), "pinghu", 0, 0, 1, id="not-triplets"),
    ],
)  # fmt: skip
def test_golden_wait(ruleset, hand_, pattern, roots, total, value):
    """RULES §3.8 ``golden_wait``: +1 step for an all-triplets hand won on its pair tile (the
    concealed tiles before the win hold exactly one copy of the winning tile), whatever the
    number of melds; it does not stack with 金钩钓. Working beside each row."""
    check_win(hand_, ruleset, pattern, roots, total, value)


@pytest.mark.parametrize(("ruleset", "value"), [(S, 4), ("tfmj2024", 2)])
def test_golden_wait_counts_at_chajiao(ruleset, value):
    """RULES §3.8: ``golden_wait`` "counts at 查叫 like any hand-shape extra".
    S1's waits as discard wins without situational extras: 4p and 7p 平胡 0 fan → 1; 6p
    111s 222s 444s 555p 66p: sbr 对对胡 1 + 单钓 1 = 2 fan → 4, tfmj2024 (no 单钓) 1 fan → 2.
    赔大: the best, 6p. S0, S2, S3 are not ready and each pays S1 that value.
    """
    d = settle(record(ruleset, draw=GOLDEN_DRAW)).as_dict()
    draw = {x["seat"]: x for x in d["draw"]}
    assert sorted(w["tile"] for w in draw[1]["waits"]) == ["4p", "6p", "7p"]
    assert draw[1]["chajiao_value"] == value
    assert [draw[s]["ready"] for s in (0, 2, 3)] == [False, False, False]
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), value))
    assert d["totals"]["seats"] == [-value, 3 * value, -value, -value]


# --- 海底 over 杠上炮 (haidi_over_kong_discard, RULES §3.7, §3.8) ------------------------------

# E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (income 6). E1 S2 discards the last tile of the wall
# (drawn as his replacement) and S1 wins on it: 杠上炮 and 海底 both.
LAST_TILE_KONG_DISCARD = [
    kong(2, "concealed", "9s"),
    win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard", "last_tile"]),
]
KONG_9S = paid_by(2, (0, 1, 3), 2)


@pytest.mark.parametrize(
    ("ruleset", "more", "totals"),
    [
        # sbr: 海底 replaces 杠上炮: 平胡 0 + 海底 1 = 1 fan → 2, and no refund of the kong.
        # S0 −2; S1 −2 +2 = 0; S2 +6 −2 = 4; S3 −2
        (S, [("S2", "S1", 2)], [-2, 0, 4, -2]),
        # sbr with the option off: 0 + 海底 1 + 杠上炮 1 = 2 fan → 4, and the refund (2 to each
        # payer). S0 0; S1 −2 +4 +2 = 4; S2 +6 −4 −6 = −4; S3 0
        (spec("sbr", haidi_over_kong_discard=False),
         [("S2", "S1", 4), *pays(2, (0, 1, 3), 2)], [0, 4, -4, 0]),
        # tfmj2024: both stack, 0 + 1 + 1 = 2 fan → 4, and the chain's income moves (6).
        # S0 −2; S1 −2 +4 +6 = 8; S2 +6 −10 = −4; S3 −2
        ("tfmj2024", [("S2", "S1", 4), ("S2", "S1", 6)], [-2, 8, -4, -2]),
        # xuezhan9 with the option on (海底 +1 fan there by default): 平胡 0 + 海底 1 = 1 fan → 2,
        # no copy of the kong's income
        (spec("xuezhan9", haidi_over_kong_discard=True), [("S2", "S1", 2)], [-2, 0, 4, -2]),
        # xuezhan9 as it is (existing behaviour): 0 + 1 + 1 = 2 fan → 4, the copy of 6
        ("xuezhan9", [("S2", "S1", 4), ("S2", "S1", 6)], [-2, 8, -4, -2]),
    ],
    ids=["sbr", "sbr-option-off", "tfmj2024", "xuezhan9-option-on", "xuezhan9"],
)  # fmt: skip
def test_haidi_replaces_kong_discard_on_a_discard_off_the_last_tile(ruleset, more, totals):
    """RULES §3.7: on a discard win off the last tile, 海底 replaces 杠上炮 — no 杠上炮 fan and no
    kong refund for that win; under tfmj2024 both extras stack and the kong income still moves
    (``haidi_over_kong_discard``, §3.8). The record: LAST_TILE_KONG_DISCARD."""
    d = settle(record(ruleset, LAST_TILE_KONG_DISCARD)).as_dict()
    assert flows(d) == sorted([*KONG_9S, *more])
    assert d["totals"]["seats"] == totals


# --- 查叫 without kong roots (chajiao_kongs, RULES §3.7, §3.8) ---------------------------------


@pytest.mark.parametrize(
    ("ruleset", "s1", "s2", "more", "totals"),
    [
        # sbr: S1 平胡 without his kong's 根 → 0 fan → 1; S2 平胡 + 根 (four in hand) 1 fan → 2.
        # The 花猪 S3 counts as not ready (huazhu not_ready): S0 and S3 each pay S1 1, S2 2.
        # S0 −2 −3 = −5; S1 +6 +2 = 8; S2 −2 +4 = 2; S3 −2 −3 = −5
        (S, 1, 2, [("S0", "S1", 1), ("S0", "S2", 2), ("S3", "S1", 1), ("S3", "S2", 2)],
         [-5, 8, 2, -5]),
        # sbr with chajiao_kongs on: S1 1 fan → 2. S0 −2 −4 = −6; S1 6 + 4 = 10; S2 2; S3 −6
        (spec("sbr", chajiao_kongs=True), 2, 2,
         [("S0", "S1", 2), ("S0", "S2", 2), ("S3", "S1", 2), ("S3", "S2", 2)], [-6, 10, 2, -6]),
        # tfmj2024 with chajiao_kongs off: the same curve and draw rules as sbr here
        (spec("tfmj2024", chajiao_kongs=False), 1, 2,
         [("S0", "S1", 1), ("S0", "S2", 2), ("S3", "S1", 1), ("S3", "S2", 2)], [-5, 8, 2, -5]),
        # tfmj2024 as it is: the kong is a 根 → S1 2
        ("tfmj2024", 2, 2,
         [("S0", "S1", 2), ("S0", "S2", 2), ("S3", "S1", 2), ("S3", "S2", 2)], [-6, 10, 2, -6]),
        # qq with chajiao_kongs off: S1 平胡 1 fan → 1; S2 平胡 + 根 2 fan → 2. qq's 花猪 pays 16 to
        # S0, S1, S2 and no 查叫; S0 pays S1 1, S2 2.
        # S0 −2 +16 −3 = 11; S1 +6 +16 +1 = 23; S2 −2 +16 +2 = 16; S3 −2 −48 = −50
        (spec("qq", chajiao_kongs=False), 1, 2,
         [*pays(3, (0, 1, 2), 16), ("S0", "S1", 1), ("S0", "S2", 2)], [11, 23, 16, -50]),
        # qq as it is (existing behaviour): S1 平胡 + 根 2 fan → 2.
        # S0 −2 +16 −4 = 10; S1 +6 +16 +2 = 24; S2 16; S3 −50
        ("qq", 2, 2, [*pays(3, (0, 1, 2), 16), ("S0", "S1", 2), ("S0", "S2", 2)],
         [10, 24, 16, -50]),
    ],
    ids=["sbr", "sbr-kongs-on", "tfmj2024-kongs-off", "tfmj2024", "qq-kongs-off", "qq"],
)  # fmt: skip
def test_chajiao_without_kong_roots(ruleset, s1, s2, more, totals):
    """RULES §3.7, §3.8 ``chajiao_kongs``: off, a ready player's kongs (concealed ones too) do
    not count as roots when his 查叫 value is computed, while four identical tiles held in hand
    still count. The draw: NO_KONG_ROOTS_DRAW (S1 holds a kong, S2 a four in hand); nobody who
    is not ready holds a kong, so 退税 moves nothing."""
    d = settle(record(ruleset, KONG_9P, draw=NO_KONG_ROOTS_DRAW)).as_dict()
    assert {x["seat"]: x["chajiao_value"] for x in d["draw"] if x["ready"]} == {1: s1, 2: s2}
    assert flows(d) == sorted([*paid_by(1, (0, 2, 3), 2), *more])
    assert d["totals"]["seats"] == totals


# --- 诈胡 (false_win: 8, RULES §3.7, §4.9) -----------------------------------------------------


def test_false_win_pays_8_to_each_returns_kong_income_and_the_offender_stays_in():
    """RULES §3.7, §4.9. E0 S2 暗杠 9m: S0, S1, S3 → S2 2 each.
    E1 S2 declares a win his tiles do not make (诈胡): flat 8 to each other player still in
    (S0, S1, S3), and his kong income back to those who paid it (2 each).
    E2 S2 is still in and self-draws 4p: 123m 456m 11p 234p + 暗杠 9999m: 平胡 0 + 根 1 = 1 fan
    → 2, +1 → 3 from each of S0, S1, S3.
    S0, S1, S3: −2 +8 +2 −3 = 5 each; S2 +6 −24 −6 +9 = −15.
    """
    rec = record(
        S,
        [
            kong(2, "concealed", "9m"),
            false_win(2),
            win("4p", winner(2, "123m456m11p23p", [meld("kong", "9m", True)])),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [
            *paid_by(2, (0, 1, 3), 2),
            *pays(2, (0, 1, 3), 8),
            *pays(2, (0, 1, 3), 2),
            *paid_by(2, (0, 1, 3), 3),
        ]
    )
    assert d["totals"]["seats"] == [5, 5, -15, 5]
    assert [(w["seat"], w["value"]) for w in d["wins"]] == [(2, 3)]
