"""查叫 at the draw (RULES §4.6b, §3.5 chajiao and dead_wait_counts):
``settle/payments.py: chajiao_payments``, the wait from ``waits.chajiao_pick``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import by_reason, hand, kong, meld, record, win, winner
from .hands import FOUR_HANDS, PINGHU, PINGHU_6S


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
