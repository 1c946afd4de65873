"""抢杠 (RULES §4.5) and 杠钱归胡家 (§3.4): the robbed player pays as a discarder, the
cancelled kong pays nothing; ``settle/payments.py: robbed_kong_to_robber``.

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError
from scoring.engine.settle import settle

from ..builders import by_reason, hand, kong, meld, record, seat_payments, win, winner
from .hands import DUIDUI_5P, PINGHU, PINGHU_5P, PINGHU_6S, TANKI_5P


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
    player still in the hand, the winner included: S0, S1, S3 → 3 × 1 = 3 (kong_to_winner).
    The cancelled kong itself pays nothing. Totals [0, 5, −5, 0]. Next dealer: S1, first winner.
    """
    rec = record(
        "xuezhan9",
        [kong(2, "added", "4p"), win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [0, 5, -5, 0]
    assert seat_payments(d) == [("S2", "S1", 2, "win", 1), ("S2", "S1", 3, "kong_to_winner", 1)]
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
            ("S2", "S1", 2, "kong_to_winner", 2),
        ]
    )
    assert d["next_dealer"] == 3


# S2 adds 5p to his pung and S1 and S3 both rob it (抢杠 in 一炮多响).
ROB_TWICE = [
    kong(2, "added", "5p"),
    win("5p", winner(1, PINGHU_5P), winner(3, TANKI_5P), frm=2, situation=["robbing_kong"]),
]


def test_xuezhan9_robbing_kong_two_winners_each_get_the_whole_kong_money():
    """xuezhan9 (RULES §3.4: the robbed player pays the winner what the added kong would have
    collected, `kong_added` from each other player still in the hand; §4.2 一炮多响: each
    winner is paid separately).

    E0 S2 弯杠 5p (cancelled: it pays nothing). E1 S1 and S3 both rob it:
    each 平胡 0 fan + 抢杠胡 1 = 1 fan → 2: S2 → S1 2, S2 → S3 2 (win).
    When the kong was declared S0, S1 and S3 were all still in the hand, so the kong would have
    collected 1 from each of them = 3: S2 → S1 3 and S2 → S3 3 (kong_to_winner).
    Totals: S0 0, S1 +5, S2 −10, S3 +5. Next dealer: the first win was 一炮多响 → its
    discarder, the robbed player S2.

    (Before the fix each robber got only 2: the other robber had already been marked as out
    of the hand when the kong money was counted.)
    """
    d = settle(record("xuezhan9", ROB_TWICE)).as_dict()
    assert seat_payments(d) == sorted(
        [
            ("S2", "S1", 2, "win", 1),
            ("S2", "S1", 3, "kong_to_winner", 1),
            ("S2", "S3", 2, "win", 1),
            ("S2", "S3", 3, "kong_to_winner", 1),
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
    assert by_reason(d, "kong_to_winner") == [("S2", "S1", 2, 2), ("S2", "S3", 2, 2)]
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
    discarder, the cancelled kong pays nothing (no kong payment at all), no kong_to_winner.
    S2 → S1 each, S2 → S3 each. The robbed player counts as the discarder for the next dealer.
    """
    d = settle(record(preset, ROB_TWICE, mode=mode)).as_dict()
    assert seat_payments(d) == [("S2", "S1", each, "win", 1), ("S2", "S3", each, "win", 1)]
    assert d["totals"]["seats"] == [0, each, -2 * each, each]
    assert d["next_dealer"] == next_dealer
    assert d["finished"] is finished


# --- 抢杠 after the robbed player's own earlier kong (RULES §4.5) ---------------------------
# The record leaves the robbed 弯杠 of 4p out: the event right before the win is S2's kong of
# another tile, made earlier (S2 added 4p to his pung on that kong's replacement tile). That
# kong stands and is paid as usual; the robbed kong, not in the record, pays nothing.

# E0 S2 暗杠 9s, paid 2 by each other player still in (qq and xuezhan9 alike)
CONCEALED_9S_PAID = [(payer, "S2", 2, "kong_concealed", 0) for payer in ("S0", "S1", "S3")]


@pytest.mark.parametrize(
    ("earlier", "kong_payments", "totals"),
    [
        # 暗杠 9s: S0, S1, S3 → S2 2 each (+6). Win: S2 → S1 1.
        # S0 −2; S1 −2 + 1 = −1; S2 +6 − 1 = +5; S3 −2.
        (kong(2, "concealed", "9s"), CONCEALED_9S_PAID, [-2, -1, 5, -2]),
        # 弯杠 9s (of another tile, so not the robbed one): 1 from each (+3). Win: S2 → S1 1.
        # S0 −1; S1 −1 + 1 = 0; S2 +3 − 1 = +2; S3 −1.
        (kong(2, "added", "9s"),
         [("S0", "S2", 1, "kong_added", 0), ("S1", "S2", 1, "kong_added", 0),
          ("S3", "S2", 1, "kong_added", 0)],
         [-1, 0, 2, -1]),
        # 直杠 9s on S0's discard: S0 → S2 1. Win: S2 → S1 1.
        # S0 −1; S1 +1; S2 +1 − 1 = 0; S3 0.
        (kong(2, "direct", "9s", frm=0), [("S0", "S2", 1, "kong_direct", 0)], [-1, 1, 0, 0]),
    ],
    ids=["concealed", "added", "direct"],
)  # fmt: skip
def test_robbing_kong_right_after_the_robbed_players_kong_of_another_tile(
    earlier, kong_payments, totals
):
    """qq 血战. E0 S2 makes a kong of 9s; E1 S1 robs S2's 弯杠 of 4p (抢杠, from = S2), which the
    record leaves out: 123m 456m 789m 11p 234p 平胡 1 fan → 1, qq has no 抢杠 bonus: S2 → S1 1.
    The 9s kong stands and is paid as usual (qq: 暗杠 2 from each player still in, 弯杠 1 from
    each, 直杠 1 from the discarder); nothing is paid for the robbed 4p kong.

    (Refused as ``robbing_kong_mismatch`` before: the kong right before the win was taken for
    the robbed one.)
    """
    rec = record("qq", [earlier, win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])])
    d = settle(rec).as_dict()
    assert seat_payments(d) == sorted([*kong_payments, ("S2", "S1", 1, "win", 1)])
    assert d["totals"]["seats"] == totals
    assert d["wins"][0]["value"] == 1
    assert (d["finished"], d["next_dealer"]) == (False, None)


def test_robbing_kong_with_the_robbed_kong_recorded_after_an_earlier_kong():
    """The same hand as the ``concealed`` case above, with the robbed kong written down: E0 S2
    暗杠 9s, E1 S2 弯杠 4p, E2 S1 robs it. The 4p kong right before the win is cancelled and pays
    nothing; the 9s kong pays as usual: S0, S1, S3 → S2 2 each; S2 → S1 1 for the win.
    Totals as when the record leaves the robbed kong out: [−2, −1, 5, −2]."""
    rec = record(
        "qq",
        [
            kong(2, "concealed", "9s"),
            kong(2, "added", "4p"),
            win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"]),
        ],
    )
    d = settle(rec).as_dict()
    assert seat_payments(d) == sorted([*CONCEALED_9S_PAID, ("S2", "S1", 1, "win", 2)])
    assert d["totals"]["seats"] == [-2, -1, 5, -2]


def test_xuezhan9_robbing_kong_after_an_earlier_concealed_kong_of_the_robbed_player():
    """xuezhan9 (杠钱归胡家). E0 S2 暗杠 9s: 2 from each of S0, S1, S3 (+6). E1 S1 robs S2's
    弯杠 of 4p, left out of the record: 平胡 0 fan + 抢杠胡 1 = 1 fan → 2: S2 → S1 2 (win);
    and what the robbed kong would have collected, ``kong_added`` 1 from each other player still
    in when it was declared (S0, S1, S3) = 3: S2 → S1 3 (kong_to_winner). The 9s kong stands.
    Totals: S0 −2; S1 −2 + 2 + 3 = +3; S2 +6 − 2 − 3 = +1; S3 −2. Next dealer: S1, the first
    winner.
    """
    rec = record(
        "xuezhan9",
        [
            kong(2, "concealed", "9s"),
            win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"]),
        ],
    )
    d = settle(rec).as_dict()
    assert seat_payments(d) == sorted(
        [*CONCEALED_9S_PAID, ("S2", "S1", 2, "win", 1), ("S2", "S1", 3, "kong_to_winner", 1)]
    )
    assert d["totals"]["seats"] == [-2, 3, 1, -2]
    assert d["next_dealer"] == 1


def test_the_robbed_players_earlier_kong_is_refunded_at_the_draw_like_any_other():
    """qq 血战. E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each. E1 S1 robs S2's 弯杠 of 4p (left out):
    平胡 → S2 → S1 1. The wall runs out with S0, S2, S3 in; S2 shows his kong of 9s and, the
    robbed kong being cancelled, his pung of 4p:
    - S0 234m 567m 22s 345s 78s: ready on 6s/9s, both 平胡 → 查叫 1 (the four 9s are all in
      S2's kong: a dead wait, which counts);
    - S2 1357p 135s + 暗杠 9s + 碰 4p: two suits, not ready;
    - S3 678p 678p 123s 45s 11s: ready on 3s/6s, 平胡 → 1.
    查叫: S2 → S0 1, S2 → S3 1. 退税: S2 is not ready, so he returns his 9s kong's income to
    those who paid it, S1 too although he has won: 2 each to S0, S1, S3.
    Totals: S0 −2 + 1 + 2 = +1; S1 −2 + 1 + 2 = +1; S2 +6 − 1 − 2 − 6 = −3; S3 −2 + 1 + 2 = +1.
    """
    rec = record(
        "qq",
        [
            kong(2, "concealed", "9s"),
            win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"]),
        ],
        draw={
            "hands": {
                "0": hand(PINGHU_6S),
                "2": hand("1357p135s", [meld("kong", "9s", True), meld("pung", "4p")]),
                "3": hand("678p678p123s45s11s"),
            }
        },
    )
    d = settle(rec).as_dict()
    assert by_reason(d, "kong_refund") == [
        ("S2", "S0", 2, None),
        ("S2", "S1", 2, None),
        ("S2", "S3", 2, None),
    ]
    assert by_reason(d, "chajiao") == [("S2", "S0", 1, None), ("S2", "S3", 1, None)]
    assert d["totals"]["seats"] == [1, 1, -3, 1]
    assert d["finished"] is True


@pytest.mark.parametrize(
    "events",
    [
        # a 暗杠 of the winning tile right before: four 4p in S2's kong, none left to add
        [kong(2, "concealed", "4p")],
        # a 直杠 of it on S0's discard: the same
        [kong(2, "direct", "4p", frm=0)],
        # S2's 弯杠 of 4p, then S3's kong: a 弯杠 is robbed when it is declared, so this one
        # stood, and S2 already holds all four 4p
        [kong(2, "added", "4p"), kong(3, "concealed", "9s")],
    ],
    ids=["concealed-right-before", "direct-right-before", "added-earlier"],
)
def test_a_kong_of_the_robbed_tile_that_is_not_the_robbed_kong_is_refused(events):
    """抢杠 is won on the tile the robbed player is adding to his pung (RULES §2, §4.5), so the
    only kong of that tile he can have made is the robbed one, right before the win. Any other
    kong of it (concealed or direct, or an added kong with another event in between) holds all
    four copies: ``robbing_kong_mismatch`` at the win's situation (and the fifth 4p, the
    winning tile, is refused as ``too_many_copies`` too)."""
    rec = record("qq", [*events, win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])])
    with pytest.raises(EngineError) as info:
        settle(rec)
    found = [(p.code, p.path) for p in info.value.problems]
    assert ("robbing_kong_mismatch", f"events[{len(events)}].situation") in found
