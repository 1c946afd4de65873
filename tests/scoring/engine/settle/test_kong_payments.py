"""Kong payments (RULES §4.1, the kong tables of §3, the kong options of §3.5):
``settle/payments.py: kong_payments``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import by_reason, kong, record, seat_payments, win, winner
from .hands import PINGHU

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
