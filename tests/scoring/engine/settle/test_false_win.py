"""诈胡 false win (RULES §4.9, §3.8 ``false_win``): the offender pays each other player still in
the preset's amount × base and returns the kong income he has collected in this hand; he stays
in. The amount is a number, ``huazhu`` (what a 花猪 pays each player, where ``huazhu`` is a
number or ``cap``) or ``cap`` (what a win at the cap pays).

Every expected value is worked out by hand from RULES.md. Base 1 unless said, dealer S0.
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import by_reason, hand, kong, meld, record, win, winner
from .competition import (
    PINGHU,
    PINGHU_6S,
    bettor_flows,
    false_win,
    flows,
    paid_by,
    pays,
    refusal,
    spec,
)


@pytest.mark.parametrize(
    ("ruleset", "base", "each"),
    [
        # sbr: a number, 8
        ("sbr", 1, 8),
        # sbr at cap 4: still the number 8 (it is not the cap)
        (spec("sbr", cap=4), 1, 8),
        # qq: "huazhu", and qq's 花猪 pays 16
        ("qq", 1, 16),
        # × base: 16 × 3 = 48
        ("qq", 3, 48),
        # qq with a number of its own
        (spec("qq", false_win=5), 1, 5),
        # qq with 花猪 = 满格 and no cap: 32 (RULES §3.5 huazhu "cap": 32 when there is no cap)
        (spec("qq", huazhu="cap"), 1, 32),
        # qq with 花猪 20
        (spec("qq", huazhu=20), 1, 20),
        # qq with "cap" and cap 5 fan: a win at the cap pays 2^(5 − 1) = 16
        (spec("qq", false_win="cap", cap=5), 1, 16),
        # chengdu: "huazhu", and chengdu's 花猪 is 满格, the cap 8
        ("chengdu", 1, 8),
        # additive: "huazhu", 16
        ("additive", 1, 16),
        # xuezhan9: "cap", 9 fan → 2^9 = 512
        ("xuezhan9", 1, 512),
        # tfmj2024: "cap", 3 fan → 2^3 = 8
        ("tfmj2024", 1, 8),
        # tfmj2024 at cap 4: 2^4 = 16
        (spec("tfmj2024", cap=4), 1, 16),
    ],
    ids=["sbr", "sbr-cap4", "qq", "qq-base3", "qq-number", "qq-huazhu-cap", "qq-huazhu-20",
         "qq-cap5", "chengdu", "additive", "xuezhan9", "tfmj2024", "tfmj2024-cap4"],
)  # fmt: skip
def test_false_win_amount_per_preset(ruleset, base, each):
    """RULES §4.9: E0 S1 declares a false win: he pays each other player still in (S0, S2,
    S3) the ruleset's ``false_win`` amount × base; he has no kong income to return.
    S1 −3 × each, the others +each."""
    d = settle(record(ruleset, [false_win(1)], base=base)).as_dict()
    assert flows(d) == sorted(pays(1, (0, 2, 3), each))
    assert d["totals"]["seats"] == [each, -3 * each, each, each]


def test_false_win_pays_only_the_players_still_in_at_that_point():
    """RULES §4.9: "He pays the players still in at that point of the record". sbr.
    E0 S1 wins on S3's 4p: 123m 456m 789m 11p 234p, 平胡 0 fan → 1: S3 → S1 1. S1 leaves.
    E1 S3 declares a false win: 8 to S0 and S2 (still in), nothing to S1.
    E2 S0 wins on S2's 6s (234m 567m 22s 345s 678s, 平胡 → 1): S2 → S0 1 — he was in at E1, and
    was paid at E1 as anybody else still in.
    S0 +8 +1 = 9; S1 +1; S2 +8 −1 = 7; S3 −1 −16 = −17.
    """
    rec = record(
        "sbr",
        [
            win("4p", winner(1, PINGHU), frm=3),
            false_win(3),
            win("6s", winner(0, PINGHU_6S), frm=2),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([("S3", "S1", 1), *pays(3, (0, 2), 8), ("S2", "S0", 1)])
    assert d["totals"]["seats"] == [9, 1, 7, -17]


# 流局 with all four in: S0 234m 567m 22p 345p 78p (ready on 6p/9p, 平胡 0 fan → 1), S1 123m 456m
# 789m 55p 67p (ready on 5p/8p, 平胡 → 1), S3 123s 456s 888s 99p 78p (ready on 6p/9p, 平胡 → 1);
# S2 13579m 1357s 8s + 暗杠 9999s: not ready.
DRAW_AFTER_FALSE_WIN = {
    "hands": {
        "0": hand("234m567m22p345p78p"),
        "1": hand("123m456m789m55p67p"),
        "2": hand("13579m1357s8s", [meld("kong", "9s", True)]),
        "3": hand("123s456s888s99p78p"),
    }
}


def test_kong_income_returned_at_a_false_win_is_not_returned_again_at_the_draw():
    """RULES §4.9 (the offender returns the kong income he has collected) and §4.4/§4.6c (income
    returned is not returned again). tfmj2024 (``false_win: cap`` = 8).
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each.
    E1 S2 declares a false win: 8 to each of S0, S1, S3, and his kong income back: 2 to each.
    流局 (DRAW_AFTER_FALSE_WIN): 查叫 S2 → S0, S1, S3 1 each; 退税: the 9s kong's income was
    returned at E1, nothing is returned again.
    S0, S1, S3: −2 +8 +2 +1 = 9 each; S2 +6 −24 −6 −3 = −27.
    """
    rec = record("tfmj2024", [kong(2, "concealed", "9s"), false_win(2)], draw=DRAW_AFTER_FALSE_WIN)
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [
            *paid_by(2, (0, 1, 3), 2),
            *pays(2, (0, 1, 3), 8),
            *pays(2, (0, 1, 3), 2),
            *pays(2, (0, 1, 3), 1),
        ]
    )
    assert d["totals"]["seats"] == [9, 9, -27, 9]
    assert by_reason(d, "kong_refund") == []


def test_a_kong_made_after_the_false_win_is_returned_at_the_draw_as_usual():
    """The same hand with the events the other way round (tfmj2024). E0 S2's false win: 8 to
    each of S0, S1, S3; no kong income yet. E1 S2 暗杠 9s: 2 from each.
    流局: 查叫 S2 → S0, S1, S3 1 each; 退税: S2 is not ready and returns the 9s kong's 2 to each.
    S0, S1, S3: +8 −2 +1 +2 = 9 each; S2 −24 +6 −3 −6 = −27 — the same totals, by 退税 this time.
    """
    rec = record("tfmj2024", [false_win(2), kong(2, "concealed", "9s")], draw=DRAW_AFTER_FALSE_WIN)
    d = settle(rec).as_dict()
    assert by_reason(d, "kong_refund") == [("S2", f"S{s}", 2, None) for s in (0, 1, 3)]
    assert d["totals"]["seats"] == [9, 9, -27, 9]


def test_bettors_follow_a_false_win():
    """RULES §4.9, §4.7: bettors follow these payments like any other. qq (``false_win:
    huazhu`` = 16). Bettors: 甲 drew 3s → the 3rd seat from the dealer S0, S2 (the offender);
    乙 drew 2s → S1.
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each.
    E1 S2's false win: S2 → S0, S1, S3 16 each, and his kong income back, 2 each.
    甲 (B0) mirrors S2: receives what S2 receives (S0, S1, S3 → B0 2 each) and pays what S2 pays
    (B0 → S0, S1, S3 16 + 2 each). 乙 (B1) mirrors S1: B1 → S2 2 (S1's kong payment), S2 → B1
    16 + 2.
    S0 −2 +18 −2 +18 = 32; S1 −2 +18 −2 +18 = 32; S2 +6 −54 +2 −18 = −64; S3 32;
    B0 +6 −54 = −48; B1 −2 +18 = 16.
    """
    rec = record(
        "qq",
        [kong(2, "concealed", "9s"), false_win(2)],
        bettors=[{"name": "甲", "tile": "3s"}, {"name": "乙", "tile": "2s"}],
    )
    d = settle(rec).as_dict()
    assert [b["seat"] for b in d["bettors"]] == [2, 1]
    assert flows(d) == sorted(
        [*paid_by(2, (0, 1, 3), 2), *pays(2, (0, 1, 3), 16), *pays(2, (0, 1, 3), 2)]
    )
    assert bettor_flows(d) == sorted(
        [
            ("S0", "B0", 2), ("S1", "B0", 2), ("S3", "B0", 2),
            ("B1", "S2", 2),
            *[("B0", f"S{s}", n) for s in (0, 1, 3) for n in (16, 2)],
            ("S2", "B1", 16), ("S2", "B1", 2),
        ]
    )  # fmt: skip
    assert d["totals"] == {"seats": [32, 32, -64, 32], "bettors": [-48, 16]}


@pytest.mark.parametrize(
    "ruleset",
    [
        # xuezhan9's 花猪 is chajiao_plus_fan: no fixed amount to take
        spec("xuezhan9", false_win="huazhu"),
        # the competition presets' 花猪 is not_ready: no fixed amount either
        spec("tfmj2024", false_win="huazhu"),
        spec("qq", huazhu="not_ready", false_win="huazhu"),
    ],
    ids=["xuezhan9", "tfmj2024", "qq-not-ready"],
)
def test_false_win_huazhu_needs_a_fixed_huazhu(ruleset):
    """RULES §3.8: ``false_win: huazhu`` is allowed "only where ``huazhu`` is a number or
    ``cap``": elsewhere the ruleset is refused (its path is in the record's ruleset)."""
    found = refusal(lambda: settle(record(ruleset, [false_win(1)])))
    assert any(path.startswith("ruleset") for _, path in found), found


@pytest.mark.parametrize("value", ["x", -1, True, 1.5, None])
def test_false_win_of_the_wrong_kind_is_refused(value):
    """RULES §3.5: values of the wrong type are errors (``invalid_option``, the engine's code
    for an option's value). A number is a whole number ≥ 0 of base units (reading)."""
    found = refusal(lambda: settle(record(spec("sbr", false_win=value), [false_win(1)])))
    assert ("invalid_option", "ruleset.options.false_win") in found
