"""The next dealer (RULES §3.1–§3.4) and xuezhan9's session doubling (§3.4 黄庄加倍, 连庄):
``settle/dealer.py``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

import pytest

from scoring.engine import resolve_ruleset, ruleset_from_description
from scoring.engine.settle import settle

from ..builders import by_reason, hand, record, win, winner
from .hands import (
    FOUR_HANDS,
    LATEST_KONG,
    LATEST_KONG_DRAW,
    PINGHU,
    PINGHU_5P,
    PINGHU_6S,
    SESSION_EVENTS,
    TANKI_5P,
)


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
    ("preset", "doubling", "totals"),
    [
        ("qq", True, [-6, 12, -2, -4]),
        ("xuezhan9", False, [-3, 6, -1, -2]),
    ],
)
def test_session_doubling_is_a_rule_of_the_ruleset_not_of_its_name(preset, doubling, totals):
    """Session doubling is the preset's ``session_doubling`` property, carried by the ruleset
    and its description (``session_multipliers``), never a test of the preset's name. A qq
    description with it switched on doubles after one drawn hand: SESSION_EVENTS under qq
    (暗杠 2 each, 平胡 1) give [−3, 6, −1, −2], ×2 = [−6, 12, −2, −4]. A xuezhan9 description
    with it off does not double (xuezhan9 暗杠 2 each, 平胡 0 fan → 1): [−3, 6, −1, −2]."""
    description = resolve_ruleset(preset).as_dict()
    assert description["session_multipliers"] is (preset == "xuezhan9")
    description["session_multipliers"] = doubling
    rules = ruleset_from_description(description)
    d = settle(record(rules, SESSION_EVENTS, session={"draws_before": 1})).as_dict()
    assert d["multiplier"] == (2 if doubling else 1)
    assert d["totals"]["seats"] == totals
