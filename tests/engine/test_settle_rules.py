"""Hand settlement (RULES §3 payments, §4 settling one hand): one worked scenario per rule.

Every expected amount below is worked out by hand from RULES.md; each docstring lists every
payment (payer → payee amount, why). Values used throughout (RULES §3):

- qq: value = 2^(fan−1); 平胡 1 fan, 对对胡 2, 清对 4; +1 fan per 根, 杠上花, 杠上炮; no 抢杠
  bonus; kongs 暗 2 each / 直 1 from the discarder / 弯 1 each; 花猪 16; 查叫 赔大.
- chengdu: multiples 平胡 1, 大对子 2, 清大对 8; ×2 per 根, 杠上花, 杠上炮, 抢杠; cap 8; 自摸 +1
  after the cap; kongs 暗 2 each / 直 2 from the discarder / 弯 1 each; 花猪 = 满格 8.
- additive: 平胡 1, 对对胡 2, 清对 4; +1 per 根, 杠上花 +2, 抢杠 +1; kongs and 花猪 as qq; 赔小.
- xuezhan9: value = 2^fan, 平胡 0 fan; 大对子 2, 清一色 3; +1 per 根, 自摸, 杠上花, 杠上炮, 抢杠;
  kongs 暗 2 each / 直 2 / 弯 1 each; 花猪 pays each ready player his 查叫 value with one more fan.

Seats are 0–3 in play order; the dealer is seat 0 unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from .builders import by_reason, hand, kong, meld, record, seat_payments, win, winner

# Hands used again and again (13 tiles before the winning tile, two suits, no four of a kind).
PINGHU = "123m456m789m11p23p"  # + 4p (or 1p): 123m 456m 789m 11p 234p — 平胡
PINGHU_5P = "123m456m789m11p34p"  # + 5p: 123m 456m 789m 11p 345p — 平胡
DUIDUI_5P = "111s222s444s55p66p"  # + 5p or 6p: 111s 222s 444s 555p 66p — 对对胡
PINGHU_6S = "234m567m22s345s78s"  # + 6s (or 9s): 234m 567m 22s 345s 678s — 平胡


# --- kongs (RULES §4.1, §3 kong tables, §3.5 kong options) -------------------------------

KONG_EVENTS = [
    kong(1, "concealed", "9s"),
    kong(2, "direct", "5p", frm=0),
    kong(3, "added", "7p"),
]


@pytest.mark.parametrize(
    ("preset", "concealed", "direct", "added", "totals"),
    [
        # S0: -c -d -a ; S1: +3c -a ; S2: -c +d -a ; S3: -c +3a
        ("qq", 2, 1, 1, [-4, 5, -2, 1]),
        ("additive", 2, 1, 1, [-4, 5, -2, 1]),
        ("chengdu", 2, 2, 1, [-5, 5, -1, 1]),
        ("xuezhan9", 2, 2, 1, [-5, 5, -1, 1]),
    ],
)
def test_kong_payments_per_preset(preset, concealed, direct, added, totals):
    """Three kongs, nobody has won, the record stops there (accepted, not finished).

    E0 S1 暗杠 9s: S0, S2, S3 each pay S1 the preset's 暗杠 amount (2 in every preset).
    E1 S2 直杠 5p on S0's discard: S0 alone pays S2 (qq/additive 1, chengdu/xuezhan9 2).
    E2 S3 弯杠 7p: S0, S1, S2 each pay S3 1.
    qq/additive: S0 -2-1-1 = -4, S1 +6-1 = 5, S2 -2+1-1 = -2, S3 -2+3 = 1.
    chengdu/xuezhan9: S0 -2-2-1 = -5, S1 5, S2 -2+2-1 = -1, S3 1.
    """
    d = settle(record(preset, KONG_EVENTS)).as_dict()
    assert d["totals"] == {"seats": totals, "bettors": []}
    assert seat_payments(d) == sorted(
        [
            ("S0", "S1", concealed, "kong_concealed", 0),
            ("S2", "S1", concealed, "kong_concealed", 0),
            ("S3", "S1", concealed, "kong_concealed", 0),
            ("S0", "S2", direct, "kong_direct", 1),
            ("S0", "S3", added, "kong_added", 2),
            ("S1", "S3", added, "kong_added", 2),
            ("S2", "S3", added, "kong_added", 2),
        ]
    )
    assert d["finished"] is False
    assert d["wins"] == []


def test_kongs_are_paid_only_by_players_still_in_the_hand():
    """qq 血战. A player who has won pays no later kong.

    E0 S1 wins 平胡 (1 fan → 1) on S0's discard 4p: S0 → S1 1.
    E1 S2 暗杠 9s: S0 → S2 2, S3 → S2 2 (S1 has left the hand).
    E2 S3 弯杠 7s: S0 → S3 1, S2 → S3 1 (not S1).
    E3 S2 直杠 8s on S3's discard: S3 → S2 1.
    S0 -1-2-1 = -4; S1 +1; S2 +4-1+1 = 4; S3 -2+2-1 = -1.
    """
    rec = record(
        "qq",
        [
            win("4p", winner(1, PINGHU), frm=0),
            kong(2, "concealed", "9s"),
            kong(3, "added", "7s"),
            kong(2, "direct", "8s", frm=3),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-4, 1, 4, -1]
    assert seat_payments(d) == sorted(
        [
            ("S0", "S1", 1, "win", 0),
            ("S0", "S2", 2, "kong_concealed", 1),
            ("S3", "S2", 2, "kong_concealed", 1),
            ("S0", "S3", 1, "kong_added", 2),
            ("S2", "S3", 1, "kong_added", 2),
            ("S3", "S2", 1, "kong_direct", 3),
        ]
    )


@pytest.mark.parametrize(
    ("drizzle", "totals", "drizzle_payments"),
    [
        (True, [-3, 1, 3, -1], [("S3", "S2", 1, 1)]),
        (False, [-3, 1, 2, 0], []),
    ],
)
def test_drizzle_direct_kong_also_takes_one_from_the_others_still_in(
    drizzle, totals, drizzle_payments
):
    """chengdu, 下毛毛雨 toggle (RULES §3.2: a 直杠 also takes 1 from each other player still in).

    E0 S1 wins 平胡 (multiple 1) on S0's discard 4p: S0 → S1 1; S1 leaves.
    E1 S2 直杠 5p on S0's discard: S0 → S2 2 (chengdu 直杠). With drizzle the others still in
    besides the discarder pay 1 each: only S3 (S1 has won) → S3 → S2 1.
    drizzle on: S0 -3, S1 +1, S2 +3, S3 -1. off: S0 -3, S1 +1, S2 +2, S3 0.
    """
    rec = record(
        {"preset": "chengdu", "options": {"drizzle": drizzle}},
        [win("4p", winner(1, PINGHU), frm=0), kong(2, "direct", "5p", frm=0)],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == totals
    assert sorted(
        (p["payer"], p["payee"], p["amount"], p["event"])
        for p in d["payments"]
        if p["reason"] == "kong_direct" and p["payer"] != "S0"
    ) == sorted(drizzle_payments)
    assert ("S0", "S2", 2, 1) in by_reason(d, "kong_direct")


@pytest.mark.parametrize(
    ("toggle", "totals"),
    [
        (True, [-1, -1, 3, -1]),
        (False, [-2, 2, 2, -2]),
    ],
)
def test_added_kong_same_turn_toggle(toggle, totals):
    """qq with added_kong_same_turn (RULES §3.5: a 弯杠 declared later than the turn its tile was
    drawn pays nothing).

    E0 S1 弯杠 7s declared late (same_turn false); E1 S2 弯杠 8s on the turn (same_turn true).
    Toggle on: E0 pays nothing; E1: S0, S1, S3 → S2 1 each → [-1, -1, 3, -1].
    Toggle off (default): both pay: S1 gets 1 from S0, S2, S3; S2 gets 1 from S0, S1, S3 →
    S0 -2, S1 +3-1 = 2, S2 +3-1 = 2, S3 -2.
    """
    rec = record(
        {"preset": "qq", "options": {"added_kong_same_turn": toggle}},
        [kong(1, "added", "7s", same_turn=False), kong(2, "added", "8s", same_turn=True)],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == totals
    late = [p for p in d["payments"] if p["event"] == 0]
    assert (late == []) is toggle


# --- wins (RULES §4.2, §4.3) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "value"),
    [("qq", 2), ("chengdu", 2), ("additive", 2), ("xuezhan9", 4)],
)
def test_discard_win_is_paid_by_the_discarder_alone(preset, value):
    """S1 wins on S2's discard 5p with 111m 222m 333p 555p 77p (对对胡, no root).

    qq 对对胡 2 fan → 2^(2−1) = 2; chengdu 大对子 2; additive 对对胡 2; xuezhan9 大对子 2 fan →
    2^2 = 4. Only the discarder pays: S2 → S1 value. Totals [0, v, −v, 0].
    """
    rec = record(preset, [win("5p", winner(1, "111m222m333p55p77p"), frm=2)])
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [0, value, -value, 0]
    assert seat_payments(d) == [("S2", "S1", value, "win", 0)]
    assert d["wins"][0]["value"] == value
    assert d["wins"][0]["self_draw"] is False


@pytest.mark.parametrize(
    ("preset", "concealed", "tile", "each"),
    [
        # 平胡 123m 456m 789m 11p 234p
        ("qq", PINGHU, "4p", 1),  # 1 fan → 1, no self-draw bonus
        ("chengdu", PINGHU, "4p", 2),  # 1, +1 自摸加底 after the cap
        ("additive", PINGHU, "4p", 1),  # 1 point, no bonus
        ("xuezhan9", PINGHU, "4p", 2),  # 0 fan +1 自摸 = 1 fan → 2
        # 清大对 111m 222m 333m 555m 77m (triplets beat 123m×3: the best split counts)
        ("qq", "111m222m333m55m77m", "5m", 8),  # 清对 4 fan → 8
        ("chengdu", "111m222m333m55m77m", "5m", 9),  # 清大对 8 (= cap), +1 → 9
        ("additive", "111m222m333m55m77m", "5m", 4),  # 清对 4 points
        ("xuezhan9", "111m222m333m55m77m", "5m", 64),  # 2 + 3 + 自摸 1 = 6 fan → 64
    ],
)
def test_self_draw_every_other_player_pays_with_the_preset_bonus(preset, concealed, tile, each):
    """S1 self-draws; S0, S2 and S3 (all still in) each pay S1 the value, with the preset's
    self-draw bonus (RULES §3.5 self_draw_bonus: qq/additive none, chengdu add_one, xuezhan9
    add_fan). Totals [−e, 3e, −e, −e]."""
    d = settle(record(preset, [win(tile, winner(1, concealed))])).as_dict()
    assert d["totals"]["seats"] == [-each, 3 * each, -each, -each]
    assert seat_payments(d) == [
        ("S0", "S1", each, "self_draw", 0),
        ("S2", "S1", each, "self_draw", 0),
        ("S3", "S1", each, "self_draw", 0),
    ]
    assert d["wins"][0]["self_draw"] is True


def test_chengdu_self_draw_bonus_after_the_cap_and_kongs_never_capped():
    """chengdu (cap 8). E0 S1 暗杠 9m: S0, S2, S3 → S1 2 each (kongs are never capped).
    E1 S1 self-draws 5m: 111m 222m 555m 77m + 9999m kong = 清大对 8 × 2 (one 根) = 16 → capped to
    8, then 自摸加底 +1 after the cap = 9 from each of S0, S2, S3.
    S1 +6 +27 = 33; the others −2 −9 = −11 each.
    """
    rec = record(
        "chengdu",
        [
            kong(1, "concealed", "9m"),
            win("5m", winner(1, "111m222m55m77m", [meld("kong", "9m", True)])),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-11, 33, -11, -11]
    assert by_reason(d, "self_draw") == [("S0", "S1", 9, 1), ("S2", "S1", 9, 1), ("S3", "S1", 9, 1)]
    assert by_reason(d, "kong_concealed") == [
        ("S0", "S1", 2, 0),
        ("S2", "S1", 2, 0),
        ("S3", "S1", 2, 0),
    ]


@pytest.mark.parametrize(
    ("preset", "mode", "next_dealer", "finished"),
    [
        ("qq", "xuezhan", None, False),
        ("qq", "single", 0, True),
        ("chengdu", "xuezhan", 0, False),
        ("chengdu", "single", 0, True),
    ],
)
def test_one_discard_several_winners_each_paid_separately(preset, mode, next_dealer, finished):
    """一炮多响, dealer S2. S0 discards 5p; S1 (123m 456m 789m 11p 345p, 平胡) and S3 (111s 222s
    444s 555p 66p, 对对胡) both win on it.

    qq: S1 1 fan → 1, S3 2 fan → 2; chengdu: 平胡 1, 大对子 2. S0 pays each winner separately:
    S0 → S1 1, S0 → S3 2. Totals [−3, 1, 0, 2].
    The 5p is one tile: S3 holds 55p, S1 none, plus the discard = 3 copies.
    Next dealer: qq 血战 → null (dice); qq 普通 → the discarder S0; chengdu: the first win was
    一炮多响 → its discarder S0 (not the dealer S2). In 普通 mode the hand ends here.
    """
    rec = record(
        preset,
        [win("5p", winner(1, PINGHU_5P), winner(3, DUIDUI_5P), frm=0)],
        mode=mode,
        dealer=2,
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-3, 1, 0, 2]
    assert seat_payments(d) == [("S0", "S1", 1, "win", 0), ("S0", "S3", 2, "win", 0)]
    assert [(w["seat"], w["value"]) for w in d["wins"]] == [(1, 1), (3, 2)]
    assert d["next_dealer"] == next_dealer
    assert d["finished"] is finished


@pytest.mark.parametrize(
    ("preset", "totals", "amounts", "next_dealer"),
    [
        # qq: S1 平胡 1; S2 平胡 1; S0 对对胡 2 fan → 2; no self-draw bonus
        ("qq", [1, 3, 0, -4], (1, 1, 2), None),
        # chengdu: S1 1+1 = 2 each; S2 1; S0 大对子 2+1 = 3
        ("chengdu", [1, 6, -1, -6], (2, 1, 3), 1),
    ],
)
def test_winners_leave_and_the_hand_ends_at_three_winners(preset, totals, amounts, next_dealer):
    """血战到底: a winner leaves and pays nothing afterwards; the third win ends the hand.

    E0 S1 self-draws 4p (平胡): S0, S2, S3 → S1 a each.
    E1 S2 wins 6s (234m 567m 22s 345s 678s 平胡) on S3's discard: S3 → S2 b.
    E2 S0 self-draws 9s (666p 777p 888p 999s 11s 对对胡): only S3 is still in → S3 → S0 c.
    qq (a, b, c) = (1, 1, 2): S0 −1+2 = 1, S1 +3, S2 −1+1 = 0, S3 −1−1−2 = −4.
    chengdu (2, 1, 3): S0 −2+3 = 1, S1 +6, S2 −2+1 = −1, S3 −2−1−3 = −6.
    Three winners: finished. Next dealer qq 血战 null; chengdu the first winner S1.
    """
    a, b, c = amounts
    rec = record(
        preset,
        [
            win("4p", winner(1, PINGHU)),
            win("6s", winner(2, PINGHU_6S), frm=3),
            win("9s", winner(0, "666p777p888p99s11s")),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == totals
    assert seat_payments(d) == sorted(
        [
            ("S0", "S1", a, "self_draw", 0),
            ("S2", "S1", a, "self_draw", 0),
            ("S3", "S1", a, "self_draw", 0),
            ("S3", "S2", b, "win", 1),
            ("S3", "S0", c, "self_draw", 2),
        ]
    )
    assert d["finished"] is True
    assert d["next_dealer"] == next_dealer


# --- 杠上炮 / 呼叫转移 (RULES §4.4) ----------------------------------------------------------


def test_kong_discard_hands_the_kong_income_to_the_winner():
    """qq 血战. E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (income 6).
    E1 S2 discards 4p right after; S1 wins 杠上炮 (平胡 1 + 杠上炮 1 = 2 fan → 2):
    S2 → S1 2 (win) and S2 → S1 6 (kong_transfer: the whole income of that kong).
    S0 −2; S1 −2+2+6 = 6; S2 +6−2−6 = −2; S3 −2.
    """
    rec = record(
        "qq",
        [
            kong(2, "concealed", "9s"),
            win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-2, 6, -2, -2]
    assert by_reason(d, "win") == [("S2", "S1", 2, 1)]
    assert by_reason(d, "kong_transfer") == [("S2", "S1", 6, 1)]


def test_kong_discard_with_two_winners_each_gets_a_full_copy():
    """qq 血战. E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (income 6).
    E1 S2 discards 5p; S1 (平胡 + 杠上炮 = 2 fan → 2) and S3 (对对胡 2 + 杠上炮 1 = 3 fan → 4) win.
    S2 → S1 2 + 6 (a full copy of the income), S2 → S3 4 + 6 (another full copy).
    S0 −2; S1 −2+8 = 6; S2 +6−8−10 = −12; S3 −2+10 = 8.
    """
    rec = record(
        "qq",
        [
            kong(2, "concealed", "9s"),
            win(
                "5p",
                winner(1, PINGHU_5P),
                winner(3, DUIDUI_5P),
                frm=2,
                situation=["kong_discard"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-2, 6, -12, 8]
    assert by_reason(d, "kong_transfer") == [("S2", "S1", 6, 1), ("S2", "S3", 6, 1)]
    assert by_reason(d, "win") == [("S2", "S1", 2, 1), ("S2", "S3", 4, 1)]


# --- 抢杠 (RULES §4.5, §3.4) -------------------------------------------------------------


def test_robbing_kong_qq_robbed_player_pays_and_the_kong_pays_nothing():
    """qq 血战. E0 S2 adds 4p to his exposed pung (弯杠); E1 S1 robs it (抢杠, from = S2):
    123m 456m 789m 11p 234p 平胡 1 fan → 1; qq gives no 抢杠 bonus. The kong is cancelled: no
    kong_added payment at all. S2 → S1 1.
    The wall then runs out with S0, S2, S3 in; S2 shows his pung of 4p (not a kong):
    - S0 234m 567m 22s 345s 78s: ready on 6s/9s, both 平胡 → 查叫 value 1.
    - S2 13579m 13579p + pung 4p: two suits (not 花猪), not ready.
    - S3 678p 678p 123s 45s 99s: ready on 3s/6s, 平胡 → 1.
    查叫: S2 → S0 1, S2 → S3 1. 退税: S2 has no kong income (the robbed kong paid nothing).
    Totals: S0 +1, S1 +1, S2 −1−2 = −3, S3 +1.
    """
    rec = record(
        "qq",
        [
            kong(2, "added", "4p"),
            win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"]),
        ],
        draw={
            "hands": {
                "0": hand(PINGHU_6S),
                "2": hand("13579m13579p", [meld("pung", "4p")]),
                "3": hand("678p678p123s45s99s"),
            }
        },
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [1, 1, -3, 1]
    assert seat_payments(d) == sorted(
        [
            ("S2", "S1", 1, "win", 1),
            ("S2", "S0", 1, "chajiao", None),
            ("S2", "S3", 1, "chajiao", None),
        ]
    )
    assert d["wins"][0]["value"] == 1
    assert d["finished"] is True
    assert d["next_dealer"] is None


def test_robbing_kong_xuezhan9_the_kong_money_goes_to_the_winner():
    """xuezhan9 (杠钱归胡家). E0 S2 弯杠 4p; E1 S1 robs it: 平胡 0 fan + 抢杠胡 1 = 1 fan → 2.
    S2 → S1 2 (win). Besides, S2 pays what the added kong would have collected from each other
    player still in the hand, the winner included: S0, S1, S3 → 3 × 1 = 3 (kong_transfer).
    The cancelled kong itself pays nothing. Totals [0, 5, −5, 0]. Next dealer: S1, first winner.
    """
    rec = record(
        "xuezhan9",
        [kong(2, "added", "4p"), win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [0, 5, -5, 0]
    assert seat_payments(d) == [("S2", "S1", 2, "win", 1), ("S2", "S1", 3, "kong_transfer", 1)]
    assert d["next_dealer"] == 1


def test_robbing_kong_xuezhan9_counts_only_players_still_in():
    """xuezhan9. E0 S3 wins 6p on S0's discard: 111s 222s 444s 55p 666p 对对胡 2 fan → 4:
    S0 → S3 4; S3 leaves.
    E1 S2 弯杠 4p (cancelled); E2 S1 robs it: 平胡 + 抢杠 = 1 fan → 2: S2 → S1 2, and the kong
    money: players other than S2 still in, winner included = S0 and S1 → 2 × 1 = 2.
    Totals: S0 −4, S1 +4, S2 −4, S3 +4. Next dealer: S3, the first winner.
    """
    rec = record(
        "xuezhan9",
        [
            win("6p", winner(3, DUIDUI_5P), frm=0),
            kong(2, "added", "4p"),
            win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"]),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-4, 4, -4, 4]
    assert seat_payments(d) == sorted(
        [
            ("S0", "S3", 4, "win", 0),
            ("S2", "S1", 2, "win", 2),
            ("S2", "S1", 2, "kong_transfer", 2),
        ]
    )
    assert d["next_dealer"] == 3


# --- 杠上花 after a direct kong (RULES §3.3, §3.5 kong_flower_after_direct) ----------------


@pytest.mark.parametrize(
    ("ruleset", "totals", "win_payments"),
    [
        # qq: 直杠 1 from S0; 平胡 1 + 根 1 + 杠上花 1 = 3 fan → 4 from each of S0, S2, S3
        ("qq", [-5, 13, -4, -4], [("S0", 4, "self_draw"), ("S2", 4, "self_draw"),
                                  ("S3", 4, "self_draw")]),
        # additive (discard): 直杠 1; 平胡 1 + 根 1 + 杠上花 2 = 4, paid by S0 alone as a win
        ("additive", [-5, 5, 0, 0], [("S0", 4, "win")]),
        # chengdu default (self_draw): 直杠 2; 1 ×2 根 ×2 杠上花 = 4, +1 自摸 = 5 from each
        ("chengdu", [-7, 17, -5, -5], [("S0", 5, "self_draw"), ("S2", 5, "self_draw"),
                                       ("S3", 5, "self_draw")]),
        # chengdu with the discard toggle: 4, no self-draw bonus, S0 alone
        ({"preset": "chengdu", "options": {"kong_flower_after_direct": "discard"}},
         [-6, 6, 0, 0], [("S0", 4, "win")]),
        # xuezhan9: 直杠 2; 0 + 根 1 + 杠上花 1 + 自摸 1 = 3 fan → 8 from each
        ("xuezhan9", [-10, 26, -8, -8], [("S0", 8, "self_draw"), ("S2", 8, "self_draw"),
                                         ("S3", 8, "self_draw")]),
    ],
)  # fmt: skip
def test_kong_flower_after_a_direct_kong(ruleset, totals, win_payments):
    """E0 S1 直杠 9m on S0's discard (S0 pays the preset's 直杠 amount).
    E1 S1 self-draws 4p on the replacement tile (杠上花): 123m 456m 11p 234p + 9999m kong.
    With kong_flower_after_direct = self_draw every other player still in pays; with "discard"
    (additive's default) the win is valued without the self-draw bonus and paid by S0 alone
    (the player whose discard was konged) as reason "win". Amounts per row in the table.
    """
    rec = record(
        ruleset,
        [
            kong(1, "direct", "9m", frm=0),
            win(
                "4p",
                winner(1, "123m456m11p23p", [meld("kong", "9m")]),
                situation=["kong_flower"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == totals
    got = sorted(
        (p["payer"], p["amount"], p["reason"])
        for p in d["payments"]
        if p["event"] == 1 and p["payee"] == "S1"
    )
    assert got == sorted(win_payments)


def test_kong_flower_after_a_concealed_kong_is_a_self_draw_in_additive():
    """additive: the discard rule is for 引杠 (after a 直杠) only.
    E0 S1 暗杠 9m: S0, S2, S3 → S1 2 each. E1 S1 杠上花 on 4p: 平胡 1 + 根 1 + 杠上花 2 = 4 points
    from each of S0, S2, S3 (self_draw). S1 +6+12 = 18; others −2−4 = −6.
    """
    rec = record(
        "additive",
        [
            kong(1, "concealed", "9m"),
            win(
                "4p",
                winner(1, "123m456m11p23p", [meld("kong", "9m", True)]),
                situation=["kong_flower"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-6, 18, -6, -6]
    assert by_reason(d, "self_draw") == [("S0", "S1", 4, 1), ("S2", "S1", 4, 1), ("S3", "S1", 4, 1)]


# --- the draw (流局): 查花猪, 查叫, 退税 (RULES §4.6) -----------------------------------------

# Nobody has won; all four show their tiles.
#  S0 99m 3m 1p 6p 88p 99p 55s 66s: m, p and s → 花猪.
#  S1 123m 456m 789m 55p 67p: ready on 5p (55+567) and 8p (55+678), both 平胡.
#  S2 111s 222s 333p 45p 77p: ready on 3p (333p 345p 77p — four 3p: one 根), 6p (333p 456p 77p)
#     and 7p (33p 345p 777p); 6p and 7p are plain 平胡 without a 根.
#  S3 124578m 3467899s: two suits, not ready (12, 45, 78 m all need a tile).
FOUR_HANDS = {
    "0": hand("99m88p99p55s66s3m6p1p"),
    "1": hand("123m456m789m55p67p"),
    "2": hand("111s222s333p45p77p"),
    "3": hand("124578m3467899s"),
}


@pytest.mark.parametrize(
    ("ruleset", "base", "huazhu", "chajiao", "totals"),
    [
        # qq: 花猪 16 to S1, S2, S3; 查叫 赔大: S1 1, S2 max(2 (平胡+根), 1, 1) = 2
        ("qq", 1, [16, 16, 16], [1, 2], [-48, 17, 18, 13]),
        ("qq", 3, [48, 48, 48], [3, 6], [-144, 51, 54, 39]),
        # 赔小: S2 min(2, 1, 1) = 1
        ({"preset": "qq", "options": {"chajiao": "min"}}, 1, [16, 16, 16], [1, 1],
         [-48, 17, 17, 14]),
        ({"preset": "qq", "options": {"chajiao": "off"}}, 1, [16, 16, 16], None,
         [-48, 16, 16, 16]),
        # chengdu: 花猪 = 满格 8; 查叫 赔大: S1 1, S2 1×2 (根) = 2
        ("chengdu", 1, [8, 8, 8], [1, 2], [-24, 9, 10, 5]),
        ({"preset": "chengdu", "options": {"cap": 16}}, 1, [16, 16, 16], [1, 2],
         [-48, 17, 18, 13]),
        ({"preset": "chengdu", "options": {"cap": None}}, 1, [32, 32, 32], [1, 2],
         [-96, 33, 34, 29]),
        # additive: 花猪 16; 查叫 赔小: S1 1, S2 min(1+1, 1, 1) = 1
        ("additive", 1, [16, 16, 16], [1, 1], [-48, 17, 17, 14]),
        # xuezhan9: 查叫 S1 0 fan → 1, S2 max(1 fan → 2, 0 fan → 1, 0 fan → 1) = 2;
        # 花猪 pays the ready ones their 查叫 with one more fan: S1 2, S2 4; nothing to S3
        ("xuezhan9", 1, [2, 4, 0], [1, 2], [-6, 3, 6, -3]),
    ],
)  # fmt: skip
def test_draw_huazhu_then_chajiao(ruleset, base, huazhu, chajiao, totals):
    """流局 with all four in (RULES §4.6 a–b):
    a. 查花猪: S0 (three suits) pays S1, S2, S3 the row's amounts (qq/additive 16×base; chengdu
       满格 = the cap's value, 32 uncapped; xuezhan9 the ready player's 查叫 + 1 fan, 0 to S3).
    b. 查叫: S3, neither ready nor 花猪, pays S1 and S2 their 查叫 values (the row's [S1, S2]);
       the 花猪 S0 pays no 查叫. Nobody has kongs, so 退税 moves nothing.
    Totals: S0 −sum(huazhu); S1 h1 + c1; S2 h2 + c2; S3 h3 − c1 − c2.
    """
    d = settle(record(ruleset, draw={"hands": FOUR_HANDS}, base=base)).as_dict()
    assert d["totals"]["seats"] == totals
    assert by_reason(d, "huazhu") == sorted(
        ("S0", f"S{seat}", amount, None)
        for seat, amount in zip((1, 2, 3), huazhu, strict=True)
        if amount
    )
    expected_chajiao = (
        [] if chajiao is None else [("S3", "S1", chajiao[0], None), ("S3", "S2", chajiao[1], None)]
    )
    assert by_reason(d, "chajiao") == expected_chajiao
    draw = {x["seat"]: x for x in d["draw"]}
    assert draw[0]["huazhu"] is True
    assert draw[0]["ready"] is False
    assert [draw[s]["ready"] for s in (1, 2, 3)] == [True, True, False]
    assert [draw[s]["huazhu"] for s in (1, 2, 3)] == [False, False, False]
    assert sorted(w["tile"] for w in draw[1]["waits"]) == ["5p", "8p"]
    assert sorted(w["tile"] for w in draw[2]["waits"]) == ["3p", "6p", "7p"]
    assert d["finished"] is True


def test_draw_xuezhan9_session_doubling_applies_to_huazhu_and_chajiao():
    """xuezhan9 after one drawn hand (draws_before 1): every amount ×2 (RULES §3.4).
    The table above gives 花猪 S0 → S1 2, S0 → S2 4; 查叫 S3 → S1 1, S3 → S2 2; doubled:
    4, 8, 2, 4. Totals [−12, 6, 12, −6]."""
    rec = record("xuezhan9", draw={"hands": FOUR_HANDS}, session={"draws_before": 1})
    d = settle(rec).as_dict()
    assert d["multiplier"] == 2
    assert d["totals"]["seats"] == [-12, 6, 12, -6]
    assert by_reason(d, "huazhu") == [("S0", "S1", 4, None), ("S0", "S2", 8, None)]
    assert by_reason(d, "chajiao") == [("S3", "S1", 2, None), ("S3", "S2", 4, None)]


def _dead_wait_record(dead_wait_counts):
    """chengdu 血战 (see the test below)."""
    return record(
        {"preset": "chengdu", "options": {"dead_wait_counts": dead_wait_counts}},
        [
            win("6s", winner(3, PINGHU_6S), frm=0),
            win("8p", winner(0, "888m77m444p666p88p")),
            kong(1, "concealed", "9m"),
        ],
        draw={
            "hands": {
                "1": hand("123m456m123p5p", [meld("kong", "9m", True)]),
                "2": hand("1355579p124689s"),
            }
        },
    )


@pytest.mark.parametrize(
    ("dead_wait_counts", "totals", "chajiao", "refund"),
    [
        (True, [5, 1, -7, 1], [("S2", "S1", 2, None)], []),
        (False, [5, -3, -3, 1], [], [("S1", "S2", 2, None)]),
    ],
)
def test_dead_wait_toggle(dead_wait_counts, totals, chajiao, refund):
    """chengdu, 死叫算叫 toggle (RULES §3.5 dead_wait_counts).
    E0 S3 wins 6s on S0's discard (234m 567m 22s 345s 678s, 平胡 1): S0 → S3 1.
    E1 S0 self-draws 8p (888m 77m 444p 666p 888p, 大对子 2, +1 自摸 = 3): S1 → S0 3, S2 → S0 3.
    E2 S1 暗杠 9m: only S2 is still in besides him → S2 → S1 2.
    流局 with S1 and S2:
    - S1 123m 456m 123p 5p + 9999m: waits on 5p alone (单钓), 平胡 ×2 (one 根) = 2. The other
      three 5p are all in S2's hand: a dead wait (死叫).
    - S2 1p 3p 555p 7p 9p 1s 2s 4s 6s 8s 9s: two suits, not ready.
    Dead waits count (default): S1 is ready → 查叫 S2 → S1 2; S1 keeps his kong income.
      S0 −1+6 = 5; S1 −3+2+2 = 1; S2 −3−2−2 = −7; S3 +1.
    Dead waits do not count: S1 is not ready, neither is S2 → no 查叫; 退税: S1 returns his kong
      income S1 → S2 2. S0 5; S1 −3+2−2 = −3; S2 −3−2+2 = −3; S3 +1.
    Next dealer (chengdu): the first winner S3, even though the hand ended in a draw.
    """
    d = settle(_dead_wait_record(dead_wait_counts)).as_dict()
    assert d["totals"]["seats"] == totals
    assert by_reason(d, "chajiao") == chajiao
    assert by_reason(d, "kong_refund") == refund
    draw = {x["seat"]: x for x in d["draw"]}
    assert [(w["tile"], w["dead"]) for w in draw[1]["waits"]] == [("5p", True)]
    assert draw[1]["ready"] is dead_wait_counts
    assert draw[2]["ready"] is False
    assert d["next_dealer"] == 3


def test_refund_skips_income_moved_by_kong_discard_and_reaches_players_who_won():
    """qq 血战 (RULES §4.6c: 退税 returns all kong income to those who paid it, whether or not
    they have since won, minus what 呼叫转移 already moved on).
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (income A = 6).
    E1 S2 弯杠 7s: S0, S1, S3 → S2 1 each (income B = 3).
    E2 S2 discards 4p right after; S1 wins 杠上炮 (平胡 1 + 1 = 2 fan → 2): S2 → S1 2 (win),
       S2 → S1 3 (kong_transfer of income B, which is now moved on).
    E3 S0 wins 9p on S3's discard (234m 567m 55p 678p 999p, 平胡 → 1): S3 → S0 1.
    流局 with S2 (1358m 135s + 9999s concealed kong + 7777s kong: not ready, two suits) and S3
    (14699m 22446688s: not ready): nobody ready → no 查叫.
    退税: S2 returns income A: S2 → S0 2 and S2 → S1 2 (both have won since — still refunded),
    S2 → S3 2. Income B went to S1 by 呼叫转移 and is not returned again.
    S0 −2−1+1+2 = 0; S1 −2−1+2+3+2 = 4; S2 +6+3−2−3−6 = −2; S3 −2−1−1+2 = −2.
    """
    rec = record(
        "qq",
        [
            kong(2, "concealed", "9s"),
            kong(2, "added", "7s"),
            win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
            win("9p", winner(0, "234m567m55p678p99p"), frm=3),
        ],
        draw={
            "hands": {
                "2": hand("1358m135s", [meld("kong", "9s", True), meld("kong", "7s")]),
                "3": hand("14699m22446688s"),
            }
        },
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [0, 4, -2, -2]
    assert by_reason(d, "kong_transfer") == [("S2", "S1", 3, 2)]
    assert by_reason(d, "kong_refund") == [
        ("S2", "S0", 2, None),
        ("S2", "S1", 2, None),
        ("S2", "S3", 2, None),
    ]
    assert by_reason(d, "chajiao") == []
    assert by_reason(d, "huazhu") == []


# --- 叫马 bettors (RULES §4.7) --------------------------------------------------------------

# qq kongs (see test_kong_payments_per_preset): seat totals without bettors [-4, 5, -2, 1].
BETTOR_KONGS = [
    kong(1, "concealed", "9s"),
    kong(2, "direct", "5p", frm=0),
    kong(3, "added", "7p"),
]
NO_BETTOR_TOTALS = [-4, 5, -2, 1]


@pytest.mark.parametrize(
    ("dealer", "seats"),
    [
        # rank 1 → dealer, 2 → next, 3 → opposite, 4 → previous, 5 → dealer again …
        (0, [0, 1, 2, 3, 0, 1, 2, 3, 0]),
        (2, [2, 3, 0, 1, 2, 3, 0, 1, 2]),
        (3, [3, 0, 1, 2, 3, 0, 1, 2, 3]),
    ],
)
@pytest.mark.parametrize("rank", range(1, 10))
def test_bettor_seat_counted_from_the_dealer_by_rank(dealer, seats, rank):
    """A bettor drawing rank r is bound to the seat r−1 steps after the dealer in play order.
    With one bettor and 马吃马 off he wins or loses exactly what his seat does in the hand
    without bettors: qq kongs give [−4, 5, −2, 1]."""
    rec = record("qq", BETTOR_KONGS, dealer=dealer, bettors=[{"name": "老王", "tile": f"{rank}m"}])
    d = settle(rec).as_dict()
    seat = seats[rank - 1]
    assert d["bettors"][0]["seat"] == seat
    assert d["totals"]["bettors"] == [NO_BETTOR_TOTALS[seat]]


@pytest.mark.parametrize(
    ("horse_eats_horse", "bettor_totals"),
    [(False, [5, -4]), (True, [7, -6])],
)
def test_bettors_mirror_their_seats_and_horse_eats_horse(horse_eats_horse, bettor_totals):
    """qq, dealer S0. Bettor B0 drew 2m → S1; B1 drew 1m → S0 (the dealer).
    Seat payments (qq kongs): E0 S0→S1 2, S2→S1 2, S3→S1 2; E1 S0→S2 1; E2 S0→S3 1,
    S1→S3 1, S2→S3 1.
    Mirrors: a payment to S1 is paid again to B0 by the same payer: S0→B0 2, S2→B0 2, S3→B0 2;
    a payment by S1 is paid again by B0: B0→S3 1. A payment by S0 is paid again by B1:
    B1→S1 2, B1→S2 1, B1→S3 1.
    马吃马 on: for S0→S1 2, B1 (on the payer) also pays B0 (on the payee) 2.
    Seats: S0 −4−2 = −6; S1 5+2 = 7; S2 −2−2+1 = −3; S3 1−2+1+1 = 1.
    Bettors off: B0 +6−1 = 5, B1 −4; on: B0 7, B1 −6. Sum 0 either way.
    """
    rec = record(
        {"preset": "qq", "options": {"horse_eats_horse": horse_eats_horse}},
        BETTOR_KONGS,
        bettors=[{"name": "老王", "tile": "2m"}, {"name": "小李", "tile": "1m"}],
    )
    d = settle(rec).as_dict()
    assert [b["seat"] for b in d["bettors"]] == [1, 0]
    assert d["totals"] == {"seats": [-6, 7, -3, 1], "bettors": bettor_totals}
    payments = d["payments"]
    mirrored = sorted(
        (
            p["payer"],
            p["payee"],
            p["amount"],
            (payments[p["mirrors"]]["payer"], payments[p["mirrors"]]["payee"]),
        )
        for p in payments
        if p["reason"] == "bettor"
    )
    expected = [
        ("S0", "B0", 2, ("S0", "S1")),
        ("S2", "B0", 2, ("S2", "S1")),
        ("S3", "B0", 2, ("S3", "S1")),
        ("B0", "S3", 1, ("S1", "S3")),
        ("B1", "S1", 2, ("S0", "S1")),
        ("B1", "S2", 1, ("S0", "S2")),
        ("B1", "S3", 1, ("S0", "S3")),
    ]
    if horse_eats_horse:
        expected.append(("B1", "B0", 2, ("S0", "S1")))
    assert mirrored == sorted(expected)
    for p in payments:
        if p["reason"] == "bettor":
            assert p["event"] == payments[p["mirrors"]]["event"]
            assert payments[p["mirrors"]]["reason"] != "bettor"


def test_bettor_follows_huazhu_and_chajiao_at_a_draw():
    """qq draw of FOUR_HANDS with a bettor on 4m (dealer S0: rank 4 → S3, the not-ready seat).
    Seat payments: 花猪 S0 → S1, S2, S3 16 each; 查叫 S3 → S1 1, S3 → S2 2.
    Mirrors: S0 → B0 16 (payment to S3); B0 → S1 1 and B0 → S2 2 (payments by S3).
    Seats: S0 −48−16 = −64; S1 17+1 = 18; S2 18+2 = 20; S3 13. B0 16−3 = 13 (= S3's total).
    4m copies: S1 one, S3 one, the bettor's tile one = 3.
    """
    rec = record("qq", draw={"hands": FOUR_HANDS}, bettors=[{"name": "老王", "tile": "4m"}])
    d = settle(rec).as_dict()
    assert d["totals"] == {"seats": [-64, 18, 20, 13], "bettors": [13]}


# --- next dealer (RULES §3.1–§3.4) -------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "mode", "expected"),
    [
        ("qq", "single", 2),  # 普通: the discarder of the win
        ("qq", "xuezhan", None),  # 血战: dice decide
        ("chengdu", "single", 1),  # the first winner
        ("chengdu", "xuezhan", 1),
        ("additive", "xuezhan", 1),
        ("xuezhan9", "xuezhan", 1),
    ],
)
def test_next_dealer_after_a_discard_win(preset, mode, expected):
    """Dealer S3. S1 wins 平胡 on S2's discard."""
    rec = record(preset, [win("4p", winner(1, PINGHU), frm=2)], mode=mode, dealer=3)
    assert settle(rec).as_dict()["next_dealer"] == expected


@pytest.mark.parametrize(
    ("preset", "mode", "expected"),
    [
        ("qq", "single", 1),  # 普通: the winner on self-draw
        ("qq", "xuezhan", None),
        ("chengdu", "single", 1),
        ("additive", "xuezhan", 1),
        ("xuezhan9", "xuezhan", 1),
    ],
)
def test_next_dealer_after_a_self_draw(preset, mode, expected):
    """Dealer S3. S1 self-draws 平胡."""
    rec = record(preset, [win("4p", winner(1, PINGHU))], mode=mode, dealer=3)
    assert settle(rec).as_dict()["next_dealer"] == expected


@pytest.mark.parametrize(
    ("preset", "mode", "expected"),
    [
        ("qq", "single", 2),  # 普通 draw: the same dealer
        ("qq", "xuezhan", None),
        ("chengdu", "single", 2),  # nobody won: the same dealer
        ("chengdu", "xuezhan", 2),
        ("additive", "xuezhan", 2),
        ("xuezhan9", "xuezhan", 2),
    ],
)
def test_next_dealer_after_a_draw_without_winner(preset, mode, expected):
    """Dealer S2; the wall runs out with nobody having won (FOUR_HANDS)."""
    rec = record(preset, draw={"hands": FOUR_HANDS}, mode=mode, dealer=2)
    assert settle(rec).as_dict()["next_dealer"] == expected


# --- xuezhan9 session and base (RULES §3.4, §3) ------------------------------------------

SESSION_EVENTS = [
    kong(1, "concealed", "9s"),
    win("6s", winner(2, PINGHU_6S), frm=0),
]


@pytest.mark.parametrize(
    ("draws_before", "dealer_streak", "multiplier"),
    [
        (0, 0, 1),
        (1, 0, 2),  # 黄庄加倍
        (3, 0, 8),  # 再黄再加: doubled three times
        (0, 1, 1),  # second consecutive hand: no doubling yet
        (0, 2, 2),  # third consecutive hand ×2
        (0, 3, 4),  # fourth ×4
        (0, 4, 8),
        (2, 2, 8),  # both: 4 × 2
        (1, 3, 8),  # 2 × 4
    ],
)
def test_xuezhan9_session_multipliers(draws_before, dealer_streak, multiplier):
    """xuezhan9. E0 S1 暗杠 9s: S0, S2, S3 → S1 2 each. E1 S2 wins 平胡 (0 fan → 1) on S0's
    discard: S0 → S2 1. Plain totals [−3, 6, −1, −2]; every amount (kongs and wins) is
    multiplied by 2^draws_before × 2^(dealer_streak − 1) when dealer_streak ≥ 2."""
    rec = record(
        "xuezhan9",
        SESSION_EVENTS,
        session={"draws_before": draws_before, "dealer_streak": dealer_streak},
    )
    d = settle(rec).as_dict()
    assert d["multiplier"] == multiplier
    assert d["totals"]["seats"] == [-3 * multiplier, 6 * multiplier, -multiplier, -2 * multiplier]
    assert by_reason(d, "win") == [("S0", "S2", multiplier, 1)]
    assert {p["amount"] for p in d["payments"] if p["reason"] == "kong_concealed"} == {
        2 * multiplier
    }


def test_xuezhan9_session_multiplier_and_base_combine():
    """xuezhan9, base 3, draws_before 1 and dealer_streak 2: ×2 ×2 = ×4, and × base 3 → ×12.
    Totals [−3, 6, −1, −2] × 12 = [−36, 72, −12, −24]."""
    rec = record(
        "xuezhan9",
        SESSION_EVENTS,
        base=3,
        session={"draws_before": 1, "dealer_streak": 2},
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-36, 72, -12, -24]


def test_session_does_not_multiply_other_presets():
    """qq has no session rules: the same events (qq 暗杠 2 each, 平胡 1) give [−3, 6, −1, −2]
    whatever the session says, and the multiplier stays 1."""
    rec = record("qq", SESSION_EVENTS, session={"draws_before": 2, "dealer_streak": 3})
    d = settle(rec).as_dict()
    assert d["multiplier"] == 1
    assert d["totals"]["seats"] == [-3, 6, -1, -2]


@pytest.mark.parametrize(
    ("preset", "base", "totals"),
    [
        # qq: 暗杠 2×5 = 10 from S0, S2, S3; 平胡 1×5 = 5 S0 → S2
        ("qq", 5, [-15, 30, -5, -10]),
        # chengdu base 2: 暗杠 2×2 = 4 each; 平胡 1×2 = 2
        ("chengdu", 2, [-6, 12, -2, -4]),
    ],
)
def test_base_multiplies_every_amount(preset, base, totals):
    """Payment = base × value for wins, and kong amounts are in base units too (RULES §3,
    §3.5 "Amounts are in base units")."""
    d = settle(record(preset, SESSION_EVENTS, base=base)).as_dict()
    assert d["totals"]["seats"] == totals
    assert by_reason(d, "win") == [("S0", "S2", base, 1)]


def test_base_applies_to_the_chengdu_self_draw_bonus():
    """chengdu base 2: S1 self-draws 平胡: (1 + 1 自摸加底) × 2 = 4 from each of S0, S2, S3."""
    d = settle(record("chengdu", [win("4p", winner(1, PINGHU))], base=2)).as_dict()
    assert d["totals"]["seats"] == [-4, 12, -4, -4]
