"""杠上炮 / 呼叫转移 (RULES §4.4): ``settle/payments.py: kong_transfer``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

from scoring.engine.settle import settle

from ..builders import by_reason, kong, record, win, winner
from .hands import (
    CHENGDU_DRIZZLE,
    DUIDUI_5P,
    LATEST_KONG,
    LATEST_KONG_DRAW,
    PINGHU,
    PINGHU_5P,
    PINGHU_6S,
)


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
