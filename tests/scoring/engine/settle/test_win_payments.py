"""Win payments (RULES §4.2, §4.3, §3.5 self_draw_bonus and kong_flower_after_direct; the
base of §3): ``settle/payments.py: win_payments``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import by_reason, kong, meld, record, seat_payments, win, winner
from .hands import DUIDUI_5P, PINGHU, PINGHU_5P, PINGHU_6S, SESSION_EVENTS


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
