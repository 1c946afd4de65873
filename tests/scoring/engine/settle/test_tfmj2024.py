"""``tfmj2024`` — 四川麻将竞赛规则 T/TFMJ 01—2024 (RULES §3.6, §3.8): every figure §3.6 lists, its
呼叫转移 figures, and the rows and rules of §3.6 beyond them.

Every expected value is worked out by hand from RULES.md; the working is in each test. The
preset in short: ``competition.py``. Base 1, dealer S0, seats S0–S3 in play order.
"""

from __future__ import annotations

import pytest

from scoring.engine import Meld, parse_tiles, readiness
from scoring.engine.settle import settle
from scoring.engine.tiles import parse_tile

from ..builders import check_win, kong, meld, record, win, winner
from .competition import (
    DUIDUI_5P,
    FOUR_PUNGS,
    HUAZHU_DRAW,
    PINGHU,
    PINGHU_5P,
    PINGHU_6S,
    QIDUI,
    QIDUI_3ROOTS,
    QIDUI_ROOT,
    QINGDUI_9M,
    QINGLONGQIDUI,
    QINGQIDUI,
    QINGYISE_ROOT,
    flows,
    paid_by,
    pays,
    refusal,
    spec,
    wh,
)
from .hands import FOUR_HANDS

T = "tfmj2024"
PUNGS = [meld("pung", t) for t in FOUR_PUNGS]

# --- the figures of §3.6 ("Figures it must reproduce", base 1, value per payer) -------------

FIGURES = [
    # 平胡 1: 123m 456m 789m 11p 234p, no fan → 2^0 = 1
    pytest.param(wh(PINGHU, "4p"), "pinghu", 0, 0, 1, False, id="pinghu-1"),
    # 平胡+根 2: 111m 123m 456m 11p 234p, the four 1m a 根: 0 + 1 = 1 fan → 2
    pytest.param(wh("111123m456m11p23p", "4p"), "pinghu", 1, 1, 2, False, id="pinghu-root-2"),
    # 对对胡 2: 111s 222s 444s 555p 66p: 1 fan → 2
    pytest.param(wh(DUIDUI_5P, "5p"), "duiduihu", 0, 1, 2, False, id="duiduihu-2"),
    # 清一色 4: 123m 456m 789m 234m 11m: 2 fan → 4
    pytest.param(wh("123m456m789m11m23m", "4m"), "qingyise", 0, 2, 4, False, id="qingyise-4"),
    # 七对 4: 11 33 55 99m 22 77 88p: 2 fan → 4
    pytest.param(wh(QIDUI, "7p"), "qidui", 0, 2, 4, False, id="qidui-4"),
    # 清对 4: 111m 333m 555m 999m 77m is 清一色 (2) and 对对胡 (1); 清一色 raises the base to 2,
    # it does not add: max(2, 1) = 2 fan → 4; reported as the higher one, 清一色
    pytest.param(wh(QINGDUI_9M, "9m"), "qingyise", 0, 2, 4, False, id="qingdui-4"),
    # 清对 self-drawn 5: 2 fan → 4, self-draw +1 after the cap → 5
    pytest.param(
        wh(QINGDUI_9M, "9m", self_draw=True), "qingyise", 0, 2, 5, False, id="qingdui-self-5"
    ),
    # 清七对 4: 清一色 2 and 七对 2 do not add: 2 fan → 4; a tie, so the one listed later, 七对
    pytest.param(wh(QINGQIDUI, "4m"), "qidui", 0, 2, 4, False, id="qingqidui-4"),
    # 对对胡+金钩钓 4: pungs 1m 2m 3p 4p and 55p won on 5p: 对对胡 1 + 金钩钓 1 = 2 fan → 4
    pytest.param(wh("5p", "5p", PUNGS), "duiduihu", 0, 2, 4, False, id="duiduihu-jingoudiao-4"),
    # 七对+根 8: 11 11 33 99m 22 77 88p: 七对 2 + 1 根 = 3 fan → 8 (the cap, not over it)
    pytest.param(wh(QIDUI_ROOT, "7p"), "qidui", 1, 3, 8, False, id="qidui-root-8"),
    # 清龙七对 8: 1111 22 33 55 77 99m: max(清一色 2, 七对 2) = 2 + 1 根 = 3 fan → 8; 七对 reported
    pytest.param(wh(QINGLONGQIDUI, "2m"), "qidui", 1, 3, 8, False, id="qinglongqidui-8"),
    # 清对+kong 8: 111m 333m 555m 77m + kong 9999m, won on 5m: 清一色 2 + 1 根 (the kong) = 3 → 8
    pytest.param(
        wh("111m333m55m77m", "5m", [meld("kong", "9m", True)]),
        "qingyise", 1, 3, 8, False, id="qingdui-kong-8",
    ),
    # 七对+3根 (5 fan) → 8: 1111m 3333p 5555p 77p: 七对 2 + 3 根 = 5 fan, capped at 3 → 8
    pytest.param(wh(QIDUI_3ROOTS, "7p"), "qidui", 3, 5, 8, True, id="qidui-3roots-8"),
    # 清一色+根 self-drawn 9: 111m 123m 456m 789m 99m: 2 + 1 = 3 fan → 8, +1 after the cap → 9
    pytest.param(
        wh(QINGYISE_ROOT, "9m", self_draw=True), "qingyise", 1, 3, 9, False,
        id="qingyise-root-self-9",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("hand_", "pattern", "roots", "total", "value", "capped"), FIGURES)
def test_the_figures_of_the_standard(hand_, pattern, roots, total, value, capped):
    """RULES §3.6 "Figures it must reproduce" (each row's working is beside it): ``total`` is
    the fan before the cap, ``value`` what each payer pays at base 1."""
    check_win(hand_, T, pattern, roots, total, value, capped)


def test_self_drawn_qingyise_with_a_root_is_9_from_each_of_three_payers():
    """§3.6 figure "清一色+根 self-drawn 9 from each of three payers", settled.
    E0 S1 self-draws 9m: 111m 123m 456m 789m 99m (the fourth 1m a 根): 清一色 2 + 根 1 = 3 fan
    → 2^3 = 8 (at the cap, not over it), self-draw +1 after the cap → 9 from each of S0, S2, S3.
    S1 +27; S0, S2, S3 −9 each.
    """
    d = settle(record(T, [win("9m", winner(1, QINGYISE_ROOT))])).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), 9))
    assert d["totals"]["seats"] == [-9, 27, -9, -9]
    assert (d["wins"][0]["pattern"], d["wins"][0]["value"]) == ("qingyise", 9)


def test_self_drawn_qingdui_is_5_from_each():
    """§3.6 figure "清对 4 (self-drawn 5)", settled. E0 S1 self-draws 9m: 111m 333m 555m 999m 77m:
    清一色 2 (对对胡 1 does not add) → 4, self-draw +1 → 5 from each of S0, S2, S3. S1 +15."""
    d = settle(record(T, [win("9m", winner(1, QINGDUI_9M))])).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), 5))
    assert d["totals"]["seats"] == [-5, 15, -5, -5]


def test_qingdui_with_its_kong_settled():
    """§3.6 figure "清对+kong 8", settled with the kong event.
    E0 S1 暗杠 9m: S0, S2, S3 → S1 2 each (暗杠 2 from each player still in).
    E1 S1 wins on S2's 5m: 111m 333m 555m 77m + 9999m: 清一色 2 + 根 1 = 3 fan → 8: S2 → S1 8.
    S0 −2; S1 +6 +8 = 14; S2 −2 −8 = −10; S3 −2.
    """
    rec = record(
        T,
        [
            kong(1, "concealed", "9m"),
            win("5m", winner(1, "111m333m55m77m", [meld("kong", "9m", True)]), frm=2),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([*paid_by(1, (0, 2, 3), 2), ("S2", "S1", 8)])
    assert d["totals"]["seats"] == [-2, 14, -10, -2]


# --- the 呼叫转移 figures of §3.6 (kong_transfer: chain_split, §4.4) -------------------------


def test_kong_discard_after_one_concealed_kong_moves_its_income_to_the_winner():
    """§3.6 figure "a 暗杠 (income 6) then 杠上炮 → winner +6 + the win".
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (income 6).
    E1 S2 discards 4p right after; S1 wins 杠上炮: 平胡 0 + 杠上炮 1 = 1 fan → 2: S2 → S1 2.
    呼叫转移 (chain_split): the chain is the 9s kong alone, income 6, one winner: S2 → S1 6.
    S0 −2; S1 −2 +2 +6 = 6; S2 +6 −2 −6 = −2; S3 −2.
    """
    rec = record(
        T,
        [
            kong(2, "concealed", "9s"),
            win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([*paid_by(2, (0, 1, 3), 2), ("S2", "S1", 2), ("S2", "S1", 6)])
    assert d["totals"]["seats"] == [-2, 6, -2, -2]


def test_kong_discard_after_two_chained_concealed_kongs_moves_12():
    """§3.6 figure "two chained 暗杠 (12) → +12".
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (6).
    E1 S2 暗杠 8s on the replacement tile of that kong (``on_replacement``): 2 each again (6).
    E2 S2 discards 4p; S1 wins 杠上炮: 平胡 0 + 1 = 1 fan → 2: S2 → S1 2.
    The chain: the 8s kong and, being flagged, the 9s kong it was declared on: 6 + 6 = 12,
    one winner → S2 → S1 12.
    S0 −4; S1 −4 +2 +12 = 10; S2 +12 −2 −12 = −2; S3 −4.
    """
    rec = record(
        T,
        [
            kong(2, "concealed", "9s"),
            kong(2, "concealed", "8s", on_replacement=True),
            win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    kongs = paid_by(2, (0, 1, 3), 2) * 2
    assert flows(d) == sorted([*kongs, ("S2", "S1", 2), ("S2", "S1", 12)])
    assert d["totals"]["seats"] == [-4, 10, -2, -4]


def test_direct_kong_won_by_three_players_on_one_discard():
    """§3.6 figure "a 直杠 (2) won by three players on one discard → each winner receives 1, the
    discarder pays 3".
    E0 S2 直杠 5p on S0's discard: S0 → S2 2 (income 2).
    E1 S2 discards 6s right after; S0, S1 and S3 all win 杠上炮 (一炮多响):
      S0 234m 567m 22s 345s 678s, S1 123m 456m 789m 11s 456s, S3 111p 234p 678p 999s 66s —
      each 平胡 0 + 杠上炮 1 = 1 fan → 2: S2 → S0, S1, S3 2 each.
    呼叫转移 (chain_split): total 2, three winners, each ceil(2 / 3) = 1; the discarder pays
    3 × 1 = 3: S2 → S0, S1, S3 1 each.
    S0 −2 +2 +1 = 1; S1 +3; S2 +2 −6 −3 = −7; S3 +3. Three winners: the hand is over; an
    opening 一炮多响: its discarder S2 deals next.
    """
    rec = record(
        T,
        [
            kong(2, "direct", "5p", frm=0),
            win(
                "6s",
                winner(0, PINGHU_6S),
                winner(1, "123m456m789m11s45s"),
                winner(3, "111p234p678p999s6s"),
                frm=2,
                situation=["kong_discard"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([("S0", "S2", 2), *pays(2, (0, 1, 3), 2), *pays(2, (0, 1, 3), 1)])
    assert d["totals"]["seats"] == [1, 3, -7, 3]
    assert d["finished"] is True
    assert d["next_dealer"] == 2


# --- the rows and rules of §3.6 beyond the listed figures --------------------------------------


@pytest.mark.parametrize(
    ("hand_", "pattern", "roots", "total", "value", "capped"),
    [
        # 将对 is just 对对胡 (no row, jiangdui off): 222m 555m 888m 555p 22p: 1 fan → 2
        pytest.param(wh("222m555m888m22p55p", "5p"), "duiduihu", 0, 1, 2, False, id="jiangdui"),
        # 清一色 对对胡 on 金钩钓: pungs 1m 2m 3m 4m, 55m: 清一色 2 + 金钩钓 1 = 3 fan → 8
        pytest.param(
            wh("5m", "5m", [meld("pung", t) for t in ("1m", "2m", "3m", "4m")]),
            "qingyise", 0, 3, 8, False, id="qing-jingoudiao",
        ),
        # 金钩钓 with a kong among the melds: 对对胡 1 + 金钩钓 1 + 根 1 = 3 fan → 8
        pytest.param(
            wh("5p", "5p", [meld("kong", "1m"), *PUNGS[1:]]),
            "duiduihu", 1, 3, 8, False, id="jingoudiao-kong",
        ),
        # a 根 from a pung plus its fourth tile: pung 5p, 123m 789m 456p 77p: 0 + 1 = 1 fan → 2
        pytest.param(
            wh("123m789m456p7p", "7p", [meld("pung", "5p")]),
            "pinghu", 1, 1, 2, False, id="pung-plus-fourth",
        ),
        # 海底 +1: 平胡 won on the last tile, on a discard: 0 + 1 = 1 fan → 2
        pytest.param(wh(PINGHU, "4p", situation=["last_tile"]), "pinghu", 0, 1, 2, False,
                     id="haidi"),
        # 海底 self-drawn (海底捞月): 1 fan → 2, +1 after the cap → 3
        pytest.param(wh(PINGHU, "4p", self_draw=True, situation=["last_tile"]),
                     "pinghu", 0, 1, 3, False, id="haidi-self-drawn"),
        # 杠上花 +1: 123m 456m 11p 234p + 暗杠 9999m: 0 + 根 1 + 杠上花 1 = 2 fan → 4, +1 → 5
        pytest.param(
            wh("123m456m11p23p", "4p", [meld("kong", "9m", True)], True, ["kong_flower"]),
            "pinghu", 1, 2, 5, False, id="gangshanghua",
        ),
        # 杠上炮 +1: 0 + 1 = 1 fan → 2
        pytest.param(wh(PINGHU, "4p", situation=["kong_discard"]), "pinghu", 0, 1, 2, False,
                     id="gangshangpao"),
        # 抢杠胡 +1: 0 + 1 = 1 fan → 2
        pytest.param(wh(PINGHU, "4p", situation=["robbing_kong"]), "pinghu", 0, 1, 2, False,
                     id="qiangganghu"),
        # cap 3: 清一色 2 + 根 1 + 杠上花 1 = 4 fan, capped → 8, self-draw +1 after the cap → 9
        # (123m 456m 678m 11m + 暗杠 9999m, self-drawn 8m on the replacement)
        pytest.param(
            wh("123m456m11m67m", "8m", [meld("kong", "9m", True)], True, ["kong_flower"]),
            "qingyise", 1, 4, 9, True, id="cap-then-self-draw",
        ),
        # 七对 2 + 根 1 + 海底 1 = 4 fan, self-drawn: capped 8, +1 → 9
        pytest.param(wh(QIDUI_ROOT, "7p", self_draw=True, situation=["last_tile"]),
                     "qidui", 1, 4, 9, True, id="qidui-root-haidi-self"),
        # 七对 + 3 根 self-drawn: 5 fan capped → 8, +1 → 9
        pytest.param(wh(QIDUI_3ROOTS, "7p", self_draw=True), "qidui", 3, 5, 9, True,
                     id="qidui-3roots-self"),
    ],
)  # fmt: skip
def test_extras_add_one_fan_each_and_the_cap(hand_, pattern, roots, total, value, capped):
    """RULES §3.6: extras +1 fan each, stacking freely (each 根, 金钩钓, 海底, 杠上花, 杠上炮,
    抢杠胡); cap 3 fan; self-draw +1 to the value after the cap. Working beside each row."""
    check_win(hand_, T, pattern, roots, total, value, capped)


def test_one_suit_seven_pairs_reports_qidui_and_qingyise_adds_nothing():
    """RULES §3.6: 清一色 raises the base to 2 and does not add; a one-suit seven pairs reports
    七对 (listed after 清一色). 11 22 33 44 55 77 99m: the reported pattern is ``qidui`` at 2 fan;
    no line for 清一色 stacks on it (the lines are the base pattern alone)."""
    d = check_win(wh(QINGQIDUI, "4m"), T, "qidui", 0, 2, 4)
    assert [line["code"] for line in d["lines"]] == ["qidui"]


def test_heavenly_and_earthly_flags_add_nothing():
    """RULES §3.6 (``tianhu_dihu: false``): the flags add nothing, the hand is valued by its
    structure.
    天胡: E0 dealer S0 self-draws 4p on his first 14 tiles, 123m 456m 789m 11p 234p: 平胡 0 fan
    → 1, self-draw +1 → 2 from each of S1, S2, S3. S0 +6.
    地胡: E0 S1 self-draws 4p in the first go-round: 平胡 → 1 + 1 = 2 from S0, S2, S3. S1 +6.
    """
    heavenly = record(T, [win("4p", winner(0, PINGHU), situation=["heavenly"])])
    d = settle(heavenly).as_dict()
    assert flows(d) == sorted(paid_by(0, (1, 2, 3), 2))
    assert d["totals"]["seats"] == [6, -2, -2, -2]
    assert d["wins"][0]["pattern"] == "pinghu"
    earthly = record(T, [win("4p", winner(1, PINGHU), situation=["earthly"])])
    d = settle(earthly).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), 2))
    assert d["totals"]["seats"] == [-2, 6, -2, -2]


def test_tianhu_dihu_off_in_another_preset():
    """``tianhu_dihu: false`` applied to qq (RULES §3.8): qq would make this 天胡 6 fan → 32;
    off, it is its structure, 平胡 1 fan → 2^0 = 1 from each (qq has no self-draw bonus).
    S0 +3, the others −1."""
    heavenly = [win("4p", winner(0, PINGHU), situation=["heavenly"])]
    rec = record(spec("qq", tianhu_dihu=False), heavenly)
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [3, -1, -1, -1]
    assert d["wins"][0]["pattern"] == "pinghu"


@pytest.mark.parametrize(("same_turn", "each"), [(True, 1), (False, 0)])
def test_a_late_added_kong_pays_nothing(same_turn, each):
    """RULES §3.6 (``added_kong_same_turn: true``): E0 S1 弯杠 7s. Declared on the turn its tile
    was drawn: 1 from each of S0, S2, S3 (+3); declared later (``same_turn: false``): nothing."""
    d = settle(record(T, [kong(1, "added", "7s", same_turn=same_turn)])).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), each) if each else [])
    assert d["totals"]["seats"] == [-each, 3 * each, -each, -each]


def test_kong_payments_two_two_one():
    """RULES §3.6: 暗杠 2 from each player still in, 直杠 2 from the discarder, 弯杠 1 from each.
    E0 S1 暗杠 9m: S0, S2, S3 → S1 2 each.
    E1 S2 直杠 5p on S3's discard: S3 → S2 2.
    E2 S3 弯杠 7s on the turn he drew it: S0, S1, S2 → S3 1 each.
    S0 −2 −1 = −3; S1 +6 −1 = 5; S2 −2 +2 −1 = −1; S3 −2 −2 +3 = −1.
    """
    rec = record(
        T,
        [kong(1, "concealed", "9m"), kong(2, "direct", "5p", frm=3), kong(3, "added", "7s")],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [*paid_by(1, (0, 2, 3), 2), ("S3", "S2", 2), *paid_by(3, (0, 1, 2), 1)]
    )
    assert d["totals"]["seats"] == [-3, 5, -1, -1]


@pytest.mark.parametrize("ruleset", [T, spec("qq", huazhu="not_ready")], ids=["tfmj2024", "qq"])
def test_huazhu_is_a_player_who_is_not_ready(ruleset):
    """RULES §3.6, §4.6 (``huazhu: not_ready``). E0 S0 暗杠 5s: S1, S2, S3 → S0 2 each.
    流局 (HUAZHU_DRAW): a. 查花猪: no fixed penalty. b. 查叫 (赔大): the 花猪 S0 and the not-ready
    S3 each pay S1 1 and S2 2. c. 退税: the 花猪 counts as not ready and returns his kong
    income: S0 → S1, S2, S3 2 each.
    S0 +6 −3 −6 = −3; S1 −2 +1 +1 +2 = 2; S2 −2 +2 +2 +2 = 4; S3 −2 −3 +2 = −3.
    (qq with ``huazhu: not_ready`` pays the same: its waits are 平胡 1 fan → 1 and 平胡 + 根 =
    2 fan → 2, its 暗杠 2 from each.) Nobody won: the same dealer S0 deals next (tfmj2024).
    """
    d = settle(record(ruleset, [kong(0, "concealed", "5s")], draw=HUAZHU_DRAW)).as_dict()
    assert flows(d) == sorted(
        [
            *paid_by(0, (1, 2, 3), 2),
            ("S0", "S1", 1), ("S0", "S2", 2), ("S3", "S1", 1), ("S3", "S2", 2),
            *pays(0, (1, 2, 3), 2),
        ]
    )  # fmt: skip
    assert d["totals"]["seats"] == [-3, 2, 4, -3]
    assert {x["seat"]: x["ready"] for x in d["draw"]} == {0: False, 1: True, 2: True, 3: False}
    assert {x["seat"]: x["chajiao_value"] for x in d["draw"] if x["ready"]} == {1: 1, 2: 2}
    if ruleset == T:
        assert d["next_dealer"] == 0


def test_huazhu_with_a_fixed_penalty_in_qq_for_contrast():
    """The same draw under qq's default ``huazhu: 16`` (existing behaviour, RULES §3.1):
    a. S0 → S1, S2, S3 16 each. b. 查叫: only S3 pays (the 花猪 pays none): S3 → S1 1, S2 2.
    c. 退税: S0 → S1, S2, S3 2 each.
    S0 +6 −48 −6 = −48; S1 −2 +16 +1 +2 = 17; S2 −2 +16 +2 +2 = 18; S3 −2 +16 −3 +2 = 13."""
    d = settle(record("qq", [kong(0, "concealed", "5s")], draw=HUAZHU_DRAW)).as_dict()
    assert d["totals"]["seats"] == [-48, 17, 18, 13]


@pytest.mark.parametrize(
    ("ruleset", "s2", "totals"),
    [
        # 赔大 (the preset's default): S2's best wait, 3p 平胡 + 根 = 1 fan → 2
        (T, 2, [-3, 2, 4, -3]),
        # 赔小 (overridden): his smallest, 6p or 7p 平胡 → 1
        # S0 +6 −2 −6 = −2; S1 −2 +1 +1 +2 = 2; S2 −2 +1 +1 +2 = 2; S3 −2 −2 +2 = −2
        (spec(T, chajiao="min"), 1, [-2, 2, 2, -2]),
    ],
    ids=["max", "min"],
)
def test_chajiao_pays_the_best_wait(ruleset, s2, totals):
    """RULES §3.6: 查叫 pays the best wait (赔大). The draw of the test above; S2 waits on 3p
    (2), 6p (1) and 7p (1): each of S0 and S3 pays S2 ``s2``."""
    d = settle(record(ruleset, [kong(0, "concealed", "5s")], draw=HUAZHU_DRAW)).as_dict()
    assert {x["seat"]: x["chajiao_value"] for x in d["draw"] if x["ready"]} == {1: 1, 2: s2}
    # (S0 also returns S2 his 暗杠 money at 退税: the 查叫 payments are the ones to S2 by reason)
    chajiao = [(p["payer"], p["payee"], p["amount"]) for p in d["payments"]
               if p["reason"] == "chajiao" and p["payee"] == "S2"]  # fmt: skip
    assert sorted(chajiao) == [("S0", "S2", s2), ("S3", "S2", s2)]
    assert d["totals"]["seats"] == totals


@pytest.mark.parametrize(
    ("events", "draw", "dealer", "expected"),
    [
        # the first winner: S1 wins on S2's 4p, then S3 on S0's 6s → S1
        ([win("4p", winner(1, PINGHU), frm=2), win("6s", winner(3, PINGHU_6S), frm=0)],
         None, 0, 1),
        # an opening 一炮多响: S1 and S3 win on S2's 5p → its discarder S2
        ([win("5p", winner(1, PINGHU_5P), winner(3, "111s222s444s678p5p"), frm=2)], None, 0, 2),
        # nobody won, dealer S2: the same dealer
        ([], {"hands": FOUR_HANDS}, 2, 2),
    ],
    ids=["first-winner", "opening-multiple-win", "draw"],
)  # fmt: skip
def test_next_dealer(events, draw, dealer, expected):
    """RULES §3.6: next dealer is the first winner (the discarder after an opening 一炮多响);
    nobody won: the same dealer."""
    rec = record(T, events, dealer=dealer)
    if draw is not None:
        rec["draw"] = draw
    assert settle(rec).as_dict()["next_dealer"] == expected


# --- 定缺: a pung or kong of one's declared void suit (RULES §5) ------------------------------


@pytest.mark.parametrize("ruleset", [T, "qq"])
@pytest.mark.parametrize(
    "event",
    [kong(2, "concealed", "9s"), kong(2, "direct", "9s", frm=0), kong(2, "added", "9s")],
    ids=["concealed", "direct", "added"],
)
def test_a_kong_of_the_declared_void_suit_is_refused(ruleset, event):
    """RULES §5: "a pung or kong of the player's own declared void suit (定缺: that suit cannot
    be claimed or konged)" is refused. S2 declared 条 (s) void and kongs 9s: an EngineError
    whose problem points at that event (its code is not fixed by the rules)."""
    rec = record(ruleset, [event], declared_void=[None, None, "s", None])
    found = refusal(lambda: settle(rec))
    assert any(path.startswith("events[0]") for _, path in found), found


@pytest.mark.parametrize("ruleset", [T, "qq"])
def test_a_pung_of_the_declared_void_suit_in_a_winning_hand_is_refused(ruleset):
    """RULES §5: S1 declared 条 (s) void and wins on S2's 5m with a pung of 1s laid down
    (123m 456m 789m 55m + 111s: two suits, but one is his void): ``declared_void_suit``."""
    rec = record(
        ruleset,
        [win("5m", winner(1, "123m456m789m5m", [meld("pung", "1s")]), frm=2)],
        declared_void=[None, "s", None, None],
    )
    assert ("declared_void_suit", "events[0].winners[0]") in refusal(lambda: settle(rec))


def test_jingoudiao_counts_at_chajiao():
    """RULES §3.6 and §4.6b: 查叫 values a ready hand as a discard win without situational
    extras; 金钩钓 is a hand-shape extra, so it counts. Four pungs laid down (1m 5m 3p 9p) and
    7m alone, waiting on 7m: 对对胡 1 fan + 金钩钓 1 fan = 2 fan → 2^2 = 4."""
    melds = tuple(Meld("pung", parse_tile(t)) for t in ("1m", "5m", "3p", "9p"))
    ready = readiness(parse_tiles("7m"), "tfmj2024", melds)
    assert [(w.tile, w.valuation.pattern, w.valuation.value) for w in ready.waits] == [
        (parse_tile("7m"), "duiduihu", 4)
    ]
    assert ready.chajiao_value == 4
