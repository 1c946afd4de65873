"""查花猪 at the draw (RULES §4.6a, §3.5 huazhu): ``settle/payments.py: huazhu_payments``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import by_reason, hand, kong, meld, record
from .hands import PINGHU

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
