"""Settlement audit against RULES.md §3–§4: interactions the rule-by-rule tests do not reach.

Every amount below is worked out by hand from RULES.md; each docstring lists the payments
(payer → payee amount, why). Values (RULES §3): qq value = 2^(fan−1), 平胡 1 fan, 对对胡 2;
chengdu multiples, cap 8; xuezhan9 value = 2^fan, 平胡 0 fan, cap 9; additive points.
Seats are 0–3 in play order; the dealer is seat 0 unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError
from scoring.engine.settle import settle

from .builders import by_reason, hand, kong, meld, record, seat_payments, win, winner

PINGHU = "123m456m789m11p23p"  # + 4p: 123m 456m 789m 11p 234p — 平胡
PINGHU_5P = "123m456m789m11p34p"  # + 5p: 123m 456m 789m 11p 345p — 平胡
TANKI_5P = "111s222s444s678p5p"  # + 5p: 111s 222s 444s 678p 55p — 平胡 (单钓)
PINGHU_6S = "234m567m22s345s78s"  # + 6s: 234m 567m 22s 345s 678s — 平胡

# S2 adds 5p to his pung and S1 and S3 both rob it (抢杠 in 一炮多响).
ROB_TWICE = [
    kong(2, "added", "5p"),
    win("5p", winner(1, PINGHU_5P), winner(3, TANKI_5P), frm=2, situation=["robbing_kong"]),
]


# --- 抢杠 in 一炮多响 (RULES §4.5, §3.4 杠钱归胡家) ---------------------------------------------


def test_xuezhan9_robbing_kong_two_winners_each_get_the_whole_kong_money():
    """xuezhan9 (RULES §3.4: the robbed player pays the winner what the added kong would have
    collected, `kong_added` from each other player still in the hand; §4.2 一炮多响: each
    winner is paid separately).

    E0 S2 弯杠 5p (cancelled: it pays nothing). E1 S1 and S3 both rob it:
    each 平胡 0 fan + 抢杠胡 1 = 1 fan → 2: S2 → S1 2, S2 → S3 2 (win).
    When the kong was declared S0, S1 and S3 were all still in the hand, so the kong would have
    collected 1 from each of them = 3: S2 → S1 3 and S2 → S3 3 (kong_transfer).
    Totals: S0 0, S1 +5, S2 −10, S3 +5. Next dealer: the first win was 一炮多响 → its
    discarder, the robbed player S2.

    (Before the fix each robber got only 2: the other robber had already been marked as out
    of the hand when the kong money was counted.)
    """
    d = settle(record("xuezhan9", ROB_TWICE)).as_dict()
    assert seat_payments(d) == sorted(
        [
            ("S2", "S1", 2, "win", 1),
            ("S2", "S1", 3, "kong_transfer", 1),
            ("S2", "S3", 2, "win", 1),
            ("S2", "S3", 3, "kong_transfer", 1),
        ]
    )
    assert d["totals"]["seats"] == [0, 5, -10, 5]
    assert d["next_dealer"] == 2


def test_xuezhan9_robbing_kong_two_winners_after_an_earlier_winner():
    """xuezhan9. E0 S0 self-draws 6p (234m 567m 22p 345p 678p 平胡 0 + 自摸 1 = 1 fan → 2):
    S1, S2, S3 → S0 2 each; S0 leaves.
    E1 S2 弯杠 5p (cancelled); E2 S1 and S3 rob it: 1 fan → 2 each from S2, and the kong money
    from the players other than S2 still in when it was declared: S1 and S3 → 2 each.
    S0 +6; S1 −2+2+2 = 2; S2 −2−4−4 = −10; S3 −2+4 = 2.
    """
    rec = record("xuezhan9", [win("6p", winner(0, "234m567m22p345p78p")), *ROB_TWICE])
    d = settle(rec).as_dict()
    assert by_reason(d, "kong_transfer") == [("S2", "S1", 2, 2), ("S2", "S3", 2, 2)]
    assert d["totals"]["seats"] == [6, 2, -10, 2]
    assert d["next_dealer"] == 0


@pytest.mark.parametrize(
    ("preset", "mode", "each", "next_dealer", "finished"),
    [
        ("qq", "single", 1, 2, True),  # 平胡 1 fan → 1, no 抢杠 bonus; 普通: the discarder
        ("qq", "xuezhan", 1, None, False),  # 血战: dice
        ("chengdu", "xuezhan", 2, 2, False),  # 平胡 1 × 抢杠 2; first win 一炮多响 → discarder
        ("additive", "xuezhan", 2, 2, False),  # 平胡 1 + 抢杠 1
    ],
)
def test_robbing_kong_two_winners_other_presets(preset, mode, each, next_dealer, finished):
    """抢杠 in 一炮多响 without 杠钱归胡家 (RULES §4.5): the robbed S2 pays each robber as a
    discarder, the cancelled kong pays nothing (no kong payment at all), no kong_transfer.
    S2 → S1 each, S2 → S3 each. The robbed player counts as the discarder for the next dealer.
    """
    d = settle(record(preset, ROB_TWICE, mode=mode)).as_dict()
    assert seat_payments(d) == [("S2", "S1", each, "win", 1), ("S2", "S3", each, "win", 1)]
    assert d["totals"]["seats"] == [0, each, -2 * each, each]
    assert d["next_dealer"] == next_dealer
    assert d["finished"] is finished


# --- 杠上炮 / 呼叫转移 (RULES §4.4) and 退税 (§4.6c) ------------------------------------------

# S2 暗杠 9s, then 弯杠 7s on the replacement, then discards 4p: S1 wins 杠上炮.
# At the draw S2 (1358m 135s + kongs, two suits) is not ready; S0 (234m 567m 22p 345p 78p) and
# S3 (123s 456s 888s 99p 78p) are both ready on 6p/9p, 平胡 only.
LATEST_KONG = [
    kong(2, "concealed", "9s"),
    kong(2, "added", "7s"),
    win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
]
LATEST_KONG_DRAW = {
    "hands": {
        "0": hand("234m567m22p345p78p"),
        "2": hand("1358m135s", [meld("kong", "9s", True), meld("kong", "7s")]),
        "3": hand("123s456s888s99p78p"),
    }
}


def test_kong_discard_moves_only_the_latest_kong_and_the_other_is_refunded():
    """qq 血战 (RULES §4.1 "remember it as the konger's latest kong income"; §4.4; §4.6).
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (income A = 6).
    E1 S2 弯杠 7s: S0, S1, S3 → S2 1 each (income B = 3, his latest).
    E2 S1 wins 杠上炮 on S2's 4p: 平胡 1 + 杠上炮 1 = 2 fan → 2; 呼叫转移 hands over the latest
       kong's income only: S2 → S1 2 (win), S2 → S1 3 (kong_transfer).
    流局: S0 and S3 ready (查叫 value 1 each), S2 not ready:
    查叫 S2 → S0 1, S2 → S3 1; 退税 of income A only (B has moved on): S2 → S0, S1, S3 2 each
    (S1 has won since: still refunded).
    S0 −2−1+1+2 = 0; S1 −2−1+2+3+2 = 4; S2 +9−5−2−6 = −4; S3 0.
    """
    d = settle(record("qq", LATEST_KONG, draw=LATEST_KONG_DRAW)).as_dict()
    assert by_reason(d, "kong_transfer") == [("S2", "S1", 3, 2)]
    assert by_reason(d, "chajiao") == [("S2", "S0", 1, None), ("S2", "S3", 1, None)]
    assert by_reason(d, "kong_refund") == [
        ("S2", "S0", 2, None),
        ("S2", "S1", 2, None),
        ("S2", "S3", 2, None),
    ]
    assert d["totals"]["seats"] == [0, 4, -4, 0]


def test_xuezhan9_session_multiplier_reaches_transfer_chajiao_and_refund():
    """The same record in xuezhan9 after one drawn hand (draws_before 1: every amount ×2).
    Kongs 暗 2 / 弯 1 → 4 / 2 each; the 杠上炮 win 平胡 0 + 1 = 1 fan → 2 → 4; the transfer is
    the doubled 弯杠 income 6; 查叫 1 → 2 each; 退税 of the 暗杠 income 4 to each.
    S0 −4−2+2+4 = 0; S1 −4−2+4+6+4 = 8; S2 +18−10−4−12 = −8; S3 0.
    """
    rec = record("xuezhan9", LATEST_KONG, draw=LATEST_KONG_DRAW, session={"draws_before": 1})
    d = settle(rec).as_dict()
    assert by_reason(d, "kong_transfer") == [("S2", "S1", 6, 2)]
    assert by_reason(d, "kong_refund") == [
        ("S2", "S0", 4, None),
        ("S2", "S1", 4, None),
        ("S2", "S3", 4, None),
    ]
    assert d["totals"]["seats"] == [0, 8, -8, 0]
    assert d["next_dealer"] == 1


@pytest.mark.parametrize(
    ("horse_eats_horse", "bettor_totals"),
    [(False, [4, -4]), (True, [8, -8])],
)
def test_bettors_follow_transfer_and_refund_of_a_seat_that_left_early(
    horse_eats_horse, bettor_totals
):
    """qq, the LATEST_KONG record with two bettors (RULES §4.7): B0 drew 2s → S1 (who wins at
    E2 and leaves), B1 drew 3s → S2 (the konger).
    Seat payments as above: to S2 2+2+2 and 1+1+1; S2 → S1 2 (win) + 3 (transfer);
    S2 → S0 1, S2 → S3 1 (查叫); S2 → S0, S1, S3 2 each (退税).
    B0 mirrors S1: receives S2's 2 + 3 + 2 = 7, pays S2 2 + 1 = 3 → +4 (= S1's total).
    B1 mirrors S2: receives 2+2+2+1+1+1 = 9, pays 2+3+1+1+2+2+2 = 13 → −4.
    马吃马: S1 → S2 payments (2, 1) make B0 → B1 3; S2 → S1 payments (2, 3, 2) make B1 → B0 7:
    B0 4 − 3 + 7 = 8, B1 −8.
    Seats: each mirror by a bettor is paid to or from the other seat: S0 pays B1 3 and gets 3
    from B1 → 0; S1 pays B1 3, gets 7 from B1 → 4 + 4 = 8; S2 gets 3 from B0 and pays B0 7 →
    −4 − 4 = −8; S3 0.
    """
    rec = record(
        {"preset": "qq", "options": {"horse_eats_horse": horse_eats_horse}},
        LATEST_KONG,
        draw=LATEST_KONG_DRAW,
        bettors=[{"name": "老王", "tile": "2s"}, {"name": "小李", "tile": "3s"}],
    )
    d = settle(rec).as_dict()
    assert [b["seat"] for b in d["bettors"]] == [1, 2]
    assert d["totals"] == {"seats": [0, 8, -8, 0], "bettors": bettor_totals}


def test_kong_discard_when_only_two_players_are_left():
    """qq 血战. E0 S0 wins 平胡 on S3's 4p: S3 → S0 1. E1 S1 wins 平胡 on S3's 6s: S3 → S1 1.
    E2 S2 暗杠 9p: only S3 is still in besides him → S3 → S2 2 (income 2).
    E3 S2 discards 5p, S3 wins 杠上炮 (333s 999s 777p 55p 66p + 5p: 对对胡 2 + 杠上炮 1 = 3 fan
    → 4): S2 → S3 4 (win) and S2 → S3 2 (the whole income, S3's own money back).
    Third winner: the hand ends. S0 +1; S1 +1; S2 +2−6 = −4; S3 −1−1−2+6 = 2.
    """
    rec = record(
        "qq",
        [
            win("4p", winner(0, PINGHU), frm=3),
            win("6s", winner(1, PINGHU_6S), frm=3),
            kong(2, "concealed", "9p"),
            win("5p", winner(3, "333s999s777p55p66p"), frm=2, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert by_reason(d, "kong_concealed") == [("S3", "S2", 2, 2)]
    assert by_reason(d, "kong_transfer") == [("S2", "S3", 2, 3)]
    assert d["totals"]["seats"] == [1, 1, -4, 2]
    assert d["finished"] is True


CHENGDU_DRIZZLE = {"preset": "chengdu", "options": {"drizzle": True}}


def test_drizzle_money_is_part_of_the_kong_income_moved_by_kong_discard():
    """chengdu with 下毛毛雨. E0 S2 直杠 5p on S0's discard: S0 → S2 2, and 1 from each other
    player still in: S1 → S2 1, S3 → S2 1 (income 4).
    E1 S2 discards 4p, S1 wins 杠上炮: 平胡 1 × 杠上炮 2 = 2: S2 → S1 2, and the whole income
    S2 → S1 4. S0 −2; S1 −1+6 = 5; S2 +4−6 = −2; S3 −1.
    """
    rec = record(
        CHENGDU_DRIZZLE,
        [
            kong(2, "direct", "5p", frm=0),
            win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert by_reason(d, "kong_transfer") == [("S2", "S1", 4, 1)]
    assert d["totals"]["seats"] == [-2, 5, -2, -1]


def test_drizzle_money_is_refunded_at_the_draw():
    """chengdu with 下毛毛雨. E0 S2 直杠 5p on S0's discard: S0 → S2 2, S1 → S2 1, S3 → S2 1.
    E1 S1 wins 平胡 on S0's 4p: S0 → S1 1.
    流局: S0 234m 567m 22s 345s 78s ready (6s/9s, 平胡 1); S3 678p 678p 123s 45s 99s ready
    (3s/6s, 平胡 1); S2 13579m 12378p + 5555p not ready.
    查叫 S2 → S0 1, S2 → S3 1. 退税: S2 returns all his kong income, drizzle included:
    S2 → S0 2, S2 → S1 1, S2 → S3 1.
    S0 −2−1+1+2 = 0; S1 −1+1+1 = 1; S2 +4−2−4 = −2; S3 −1+1+1 = 1. Next dealer: S1.
    """
    rec = record(
        CHENGDU_DRIZZLE,
        [kong(2, "direct", "5p", frm=0), win("4p", winner(1, PINGHU), frm=0)],
        draw={
            "hands": {
                "0": hand(PINGHU_6S),
                "2": hand("13579m12378p", [meld("kong", "5p")]),
                "3": hand("678p678p123s45s99s"),
            }
        },
    )
    d = settle(rec).as_dict()
    assert by_reason(d, "kong_refund") == [
        ("S2", "S0", 2, None),
        ("S2", "S1", 1, None),
        ("S2", "S3", 1, None),
    ]
    assert by_reason(d, "chajiao") == [("S2", "S0", 1, None), ("S2", "S3", 1, None)]
    assert d["totals"]["seats"] == [0, 1, -2, 1]
    assert d["next_dealer"] == 1


# --- 查花猪 / 查叫 / 退税 (RULES §4.6) ---------------------------------------------------------

# Nobody has won. S0 暗杠 5s and holds m, p and s: 花猪. S1 holds m, p and s: 花猪.
# S2 123m 456m 789m 11p 23p: ready on 1p/4p, 平胡 (value 1). S3 245679m 3556789p: not ready.
TWO_HUAZHU = {
    "hands": {
        "0": hand("1m9m2m1p9p2p1s3s7s9s", [meld("kong", "5s", True)]),
        "1": hand("3m4m6m8m3p4p6p7p8p2s4s6s8s"),
        "2": hand(PINGHU),
        "3": hand("2m4m5m6m7m9m3p5p5p6p7p8p9p"),
    }
}


@pytest.mark.parametrize(
    ("chajiao", "totals"),
    [("max", [-32, -32, 33, 31]), ("off", [-32, -32, 32, 32])],
)
def test_two_huazhu_pay_each_other_nothing_pay_no_chajiao_and_refund_kongs(chajiao, totals):
    """qq (RULES §4.6). E0 S0 暗杠 5s: S1, S2, S3 → S0 2 each.
    a. 查花猪: S0 → S2 16, S0 → S3 16; S1 → S2 16, S1 → S3 16 (花猪 pay only non-花猪).
    b. 查叫: only S3 is neither ready nor 花猪: S3 → S2 1 (花猪 pay no 查叫); none with "off".
    c. 退税: S0 (花猪 counts as not ready) returns his kong income: S0 → S1, S2, S3 2 each.
    S0 +6−32−6 = −32; S1 −2−32+2 = −32; S2 −2+32+1+2 = 33; S3 −2+32−1+2 = 31.
    """
    rec = record({"preset": "qq", "options": {"chajiao": chajiao}}, [kong(0, "concealed", "5s")])
    rec["draw"] = TWO_HUAZHU
    d = settle(rec).as_dict()
    assert by_reason(d, "huazhu") == [
        ("S0", "S2", 16, None),
        ("S0", "S3", 16, None),
        ("S1", "S2", 16, None),
        ("S1", "S3", 16, None),
    ]
    assert by_reason(d, "chajiao") == ([("S3", "S2", 1, None)] if chajiao == "max" else [])
    assert by_reason(d, "kong_refund") == [
        ("S0", "S1", 2, None),
        ("S0", "S2", 2, None),
        ("S0", "S3", 2, None),
    ]
    assert d["totals"]["seats"] == totals
    assert [x["huazhu"] for x in d["draw"]] == [True, True, False, False]


# S0 花猪. S1 1111222233445m: ready on 3m, 4m, 6m (清一色 with two 根) and 5m (清龙七对,
# two 根). S2 111s 222s 333p 45p 77p: ready on 3p (平胡 + 根), 6p, 7p (平胡). S3 not ready.
BIG_WAIT = {
    "hands": {
        "0": hand("6789m6789p6789s9m"),
        "1": hand("1111222233445m"),
        "2": hand("111s222s333p45p77p"),
        "3": hand("1p2p5p5p8p9p1s3s5s7s9s4s4s"),
    }
}


@pytest.mark.parametrize(
    ("ruleset", "huazhu", "chajiao", "totals"),
    [
        # qq: 花猪 16 to each non-花猪; 查叫 赔大: S1 5m 清龙七对 6 fan + (2 − 1) 根 = 7 → 64;
        # S2 平胡 + 根 = 2 fan → 2
        ("qq", [16, 16, 16], [64, 2], [-48, 80, 18, -50]),
        # qq huazhu "cap" without a cap: 32; with cap 5 fan: 2^4 = 16 and S1's 查叫 capped 16
        ({"preset": "qq", "options": {"huazhu": "cap"}}, [32, 32, 32], [64, 2],
         [-96, 96, 34, -34]),
        ({"preset": "qq", "options": {"huazhu": "cap", "cap": 5}}, [16, 16, 16], [16, 2],
         [-48, 32, 18, -2]),
        # chengdu: 花猪 满格 8; S1's 清龙七对 32 × 2 (second 根) capped to 8; S2 1 × 2 (根) = 2
        ("chengdu", [8, 8, 8], [8, 2], [-24, 16, 10, -2]),
        # chengdu uncapped: 满格 32; S1 64
        ({"preset": "chengdu", "options": {"cap": None}}, [32, 32, 32], [64, 2],
         [-96, 96, 34, -34]),
        # xuezhan9: S1 清一色 3 + 七对 4 + 2 根 = 9 fan → 512, +1 fan for 花猪 capped at 9 → 512;
        # S2 1 fan → 2, 花猪 2 fan → 4; not-ready S3 gets nothing from the 花猪
        ("xuezhan9", [512, 4, 0], [512, 2], [-516, 1024, 6, -514]),
        # xuezhan9 赔小: S1's smallest wait 清一色 + 2 根 = 5 fan → 32, 花猪 6 fan → 64;
        # S2's smallest 平胡 0 fan → 1, 花猪 → 2
        ({"preset": "xuezhan9", "options": {"chajiao": "min"}}, [64, 2, 0], [32, 1],
         [-66, 96, 3, -33]),
        # additive (赔小): 花猪 16; S1 every wait 清 3 + 2 根 = 5; S2 smallest 平胡 1
        ("additive", [16, 16, 16], [5, 1], [-48, 21, 17, 10]),
    ],
)  # fmt: skip
def test_huazhu_and_chajiao_amounts_per_preset_with_caps(ruleset, huazhu, chajiao, totals):
    """流局 with nobody won (RULES §3, §4.6): 花猪 S0 pays S1, S2, S3 the row's amounts
    (xuezhan9: the ready player's 查叫 value with one more fan, cap 9; nothing to not-ready S3);
    S3 pays 查叫 to S1 and S2; 花猪 S0 pays no 查叫.
    Totals: S0 −Σhuazhu; S1 h1 + c1; S2 h2 + c2; S3 h3 − c1 − c2.
    """
    d = settle(record(ruleset, draw=BIG_WAIT)).as_dict()
    assert by_reason(d, "huazhu") == [
        ("S0", f"S{seat}", amount, None)
        for seat, amount in zip((1, 2, 3), huazhu, strict=True)
        if amount
    ]
    assert by_reason(d, "chajiao") == [
        ("S3", "S1", chajiao[0], None),
        ("S3", "S2", chajiao[1], None),
    ]
    assert d["totals"]["seats"] == totals


# --- next dealer (RULES §3.1–§3.4) -------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "mode", "expected"),
    [
        ("qq", "xuezhan", None),
        ("chengdu", "xuezhan", 0),
        ("additive", "xuezhan", 0),
        ("xuezhan9", "xuezhan", 0),
    ],
)
def test_next_dealer_first_win_one_discard_several_winners_dealer_among_them(
    preset, mode, expected
):
    """Dealer S3. E0 S0 discards 5p: S1 (平胡) and the dealer S3 (平胡 单钓) both win on it.
    E1 S2 wins 9s on S0's discard (333s 666s 555m 789s 99s, 平胡): the third winner.
    The first win was 一炮多响 → its discarder S0 deals next (not a winner, not the dealer);
    qq 血战: dice (null). Every win is 平胡 without extras: chengdu/additive 1, xuezhan9 1
    (0 fan), qq 1 → S0 pays 1 to each of S1, S3, S2: totals [−3, 1, 1, 1].
    """
    rec = record(
        preset,
        [
            win("5p", winner(1, PINGHU_5P), winner(3, TANKI_5P), frm=0),
            win("9s", winner(2, "333s666s555m99s78s"), frm=0),
        ],
        mode=mode,
        dealer=3,
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-3, 1, 1, 1]
    assert d["finished"] is True
    assert d["next_dealer"] == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [("qq", None), ("chengdu", 2), ("additive", 2), ("xuezhan9", 2)],
)
def test_next_dealer_first_winner_even_when_the_hand_ends_in_a_draw(preset, expected):
    """Dealer S0. E0 S2 self-draws 4p (平胡); then the wall runs out with S0, S1, S3 in.
    The first winner S2 deals next (qq 血战: dice)."""
    rec = record(
        preset,
        [win("4p", winner(2, PINGHU))],
        draw={
            "hands": {
                "0": hand(PINGHU_6S),
                "1": hand("1357s13579p99p88p"),
                "3": hand("678p678p123s45s99s"),
            }
        },
    )
    d = settle(rec).as_dict()
    assert d["finished"] is True
    assert d["next_dealer"] == expected


def test_konger_who_moved_his_income_and_then_won_is_out_of_the_draw():
    """qq 血战 (RULES §4.4, §4.6: only players still in the hand take part in the draw).
    E0 S2 暗杠 9p: S0, S1, S3 → S2 2 each (income 6).
    E1 S1 wins 杠上炮 on S2's 4p: 平胡 1 + 1 = 2 fan → 2: S2 → S1 2 (win) + 6 (kong_transfer).
    E2 S2 self-draws 5p: 234m 567m 22p 345p + 9999p = 平胡 1 + 1 根 = 2 fan → 2 from each
       player still in, S0 and S3 (S1 has left).
    流局 with S0 (234m 567m 22s 345s 78s: ready on 6s/9s, 平胡; 查叫 1) and
    S3 (13579m 134567p 88p: not ready). 查叫: S3 → S0 1 only — S1 and S2 have won and take
    no part. 退税: S3 has no kongs; S2 has left (and his income moved on anyway).
    S0 −2−2+1 = −3; S1 −2+8 = 6; S2 +6−8+4 = 2; S3 −2−2−1 = −5.
    """
    rec = record(
        "qq",
        [
            kong(2, "concealed", "9p"),
            win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
            win("5p", winner(2, "234m567m22p34p", [meld("kong", "9p", True)])),
        ],
        draw={"hands": {"0": hand(PINGHU_6S), "3": hand("13579m134567p88p")}},
    )
    d = settle(rec).as_dict()
    assert by_reason(d, "chajiao") == [("S3", "S0", 1, None)]
    assert by_reason(d, "kong_refund") == []
    assert by_reason(d, "self_draw") == [("S0", "S2", 2, 2), ("S3", "S2", 2, 2)]
    assert d["totals"]["seats"] == [-3, 6, 2, -5]
    assert d["finished"] is True


# --- refusals reached through a settled record (RULES §5) ----------------------------------


@pytest.mark.parametrize(
    ("code", "path", "events"),
    [
        # 杠上花 on a discard
        ("kong_flower_not_self_draw", "events[1].situation",
         [kong(1, "concealed", "9m"),
          win("4p", winner(1, "123m456m11p23p", [meld("kong", "9m", True)]), frm=2,
              situation=["kong_flower"])]),
        # 抢杠 and 杠上炮 are wins on another player's tile, never self-drawn
        ("robbing_kong_self_draw", "events[0].situation",
         [win("4p", winner(1, PINGHU), situation=["robbing_kong"])]),
        ("kong_discard_self_draw", "events[1].situation",
         [kong(1, "concealed", "9m"),
          win("4p", winner(1, "123m456m11p23p", [meld("kong", "9m", True)]),
              situation=["kong_discard"])]),
        # a direct kong on one's own discard
        ("discarder_is_konger", "events[0].from", [kong(1, "direct", "9s", frm=1)]),
        # a win on the discard of a player who has already won (抢杠: the robbed player)
        ("discarder_already_won", "events[2].from",
         [win("6s", winner(2, PINGHU_6S), frm=0), kong(1, "concealed", "9p"),
          win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])]),
    ],
)  # fmt: skip
def test_more_refusals_with_code_and_path(code, path, events):
    with pytest.raises(EngineError) as info:
        settle(record("qq", events))
    assert (code, path) in [(p.code, p.path) for p in info.value.problems]
