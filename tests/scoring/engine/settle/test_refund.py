"""退税 at the draw (RULES §4.6c, §3.5 refund_kongs): ``settle/payments.py: kong_refunds``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

from scoring.engine.settle import settle

from ..builders import by_reason, hand, kong, meld, record, win, winner
from .hands import CHENGDU_DRIZZLE, PINGHU, PINGHU_6S


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
