"""杠上炮 / 呼叫转移 in each ``kong_transfer`` mode (RULES §4.4, §3.8): ``copy``, ``chain_split``,
``refund``; the ``on_replacement`` flag (杠上杠); income moved or returned is never returned again
at 退税; a robbed kong never transfers. Each mode is also applied to presets whose default it is
not.

Every expected value is worked out by hand from RULES.md. Values used (base 1):

- qq: 平胡 1 fan → 1, 平胡 + 杠上炮 2 fan → 2, 对对胡 + 杠上炮 3 fan → 4; 暗杠 2 from each, 弯杠 1;
- tfmj2024, sbr, xuezhan9: 平胡 + 杠上炮 1 fan → 2, 对对胡 + 杠上炮 2 fan → 4; 暗杠 2 from
  each, 弯杠 1 (a late one 0 in tfmj2024 and sbr);
- chengdu: 平胡 1 × 杠上炮 2 = 2; 暗杠 2 from each.

The 杠上炮 win's discarder is S2 throughout.
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import by_reason, kong, record, win, winner
from .competition import DUIDUI_5P, PINGHU, PINGHU_5P, flows, paid_by, pays, refusal, spec
from .hands import LATEST_KONG_DRAW

KONG_DISCARD = ["kong_discard"]
# 9s and 8s 暗杠 of S2, each paid 2 by S0, S1, S3 (when all four are in)
CONCEALED_BY_S2 = paid_by(2, (0, 1, 3), 2)


def s1_wins_on_4p():
    return win("4p", winner(1, PINGHU), frm=2, situation=KONG_DISCARD)


# --- copy (existing behaviour) ----------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset", ["qq", spec("qq", kong_transfer="copy"), spec("tfmj2024", kong_transfer="copy")]
)
def test_copy_two_winners_each_get_a_full_copy(ruleset):
    """``copy`` (RULES §4.4): the discarder hands the income of the kong right before the
    discard to each winner, a full copy each.
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (6). E1 S2 discards 5p; S1 (123m 456m 789m 11p 345p,
    平胡) and S3 (111s 222s 444s 555p 66p, 对对胡) win 杠上炮.
    qq: S1 2 fan → 2, S3 3 fan → 4; tfmj2024: S1 1 fan → 2, S3 2 fan → 4 — the same amounts.
    S2 → S1 2 + 6, S2 → S3 4 + 6.
    S0 −2; S1 −2 +8 = 6; S2 +6 −8 −10 = −12; S3 −2 +10 = 8.
    """
    rec = record(
        ruleset,
        [
            kong(2, "concealed", "9s"),
            win("5p", winner(1, PINGHU_5P), winner(3, DUIDUI_5P), frm=2, situation=KONG_DISCARD),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [*CONCEALED_BY_S2, ("S2", "S1", 2), ("S2", "S1", 6), ("S2", "S3", 4), ("S2", "S3", 6)]
    )
    assert d["totals"]["seats"] == [-2, 6, -12, 8]


# --- chain_split ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["tfmj2024", spec("sbr", kong_transfer="chain_split")])
def test_chain_of_three_flagged_kongs_split_between_two_winners(ruleset):
    """``chain_split`` (RULES §4.4): the chain is the kong just before the discard and, walking
    back, each kong a flagged kong was declared on; several winners each receive
    ceil(total / winners), the discarder pays winners × share.
    E0 S2 暗杠 9s: S0, S1, S3 → S2 2 each (6).
    E1 S2 弯杠 7s on its replacement (flagged): 1 each (3).
    E2 S2 暗杠 8s on that one's replacement (flagged): 2 each (6).
    E3 S2 discards 5p: S1 (平胡 + 杠上炮 1 fan → 2) and S3 (对对胡 + 杠上炮 2 fan → 4) win.
    (sbr: the same fans — neither hand is 单钓: S3's 5p completes a pung.)
    Chain: E2, E1 (E2 is flagged), E0 (E1 is flagged) = 6 + 3 + 6 = 15; two winners: each
    ceil(15 / 2) = 8, S2 pays 16.
    S0 −2 −1 −2 = −5; S1 −5 +2 +8 = 5; S2 +15 −2 −4 −16 = −7; S3 −5 +4 +8 = 7.
    """
    rec = record(
        ruleset,
        [
            kong(2, "concealed", "9s"),
            kong(2, "added", "7s", on_replacement=True),
            kong(2, "concealed", "8s", on_replacement=True),
            win("5p", winner(1, PINGHU_5P), winner(3, DUIDUI_5P), frm=2, situation=KONG_DISCARD),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [
            *CONCEALED_BY_S2,
            *paid_by(2, (0, 1, 3), 1),
            *CONCEALED_BY_S2,
            ("S2", "S1", 2), ("S2", "S3", 4),
            ("S2", "S1", 8), ("S2", "S3", 8),
        ]
    )  # fmt: skip
    assert d["totals"]["seats"] == [-5, 5, -7, 7]


# qq's LATEST_KONG record (hands.py) under tfmj2024, with or without the flag on the 7s kong:
# E0 S2 暗杠 9s (2 from each of S0, S1, S3), E1 S2 弯杠 7s (1 from each), E2 S1 wins 杠上炮 on
# 4p (平胡 0 + 1 = 1 fan → 2). 流局: S0 and S3 ready (平胡 → 查叫 1 each), S2 not ready.


@pytest.mark.parametrize(
    ("flagged", "moved", "refunded", "totals"),
    [
        # not flagged: the chain is the 7s kong alone (3); 退税 returns the 9s kong's 6.
        # S0 −2 −1 +1 +2 = 0; S1 −3 +2 +3 +2 = 4; S2 +9 −2 −3 −2 −6 = −4; S3 0
        (False, 3, pays(2, (0, 1, 3), 2), [0, 4, -4, 0]),
        # flagged: the chain is the 7s kong and the 9s kong it was declared on (9); nothing is
        # left to return at 退税. S0 −3 +1 = −2; S1 −3 +2 +9 = 8; S2 +9 −2 −9 −2 = −4; S3 −2
        (True, 9, [], [-2, 8, -4, -2]),
    ],
    ids=["not-flagged", "flagged"],
)
def test_a_kong_not_flagged_is_not_part_of_the_chain(flagged, moved, refunded, totals):
    """``chain_split`` (RULES §4.4, §4.6c): an earlier kong of the discarder that the next one
    was not declared on stays his, and is returned at 退税 if he is not ready; income moved by
    呼叫转移 is never returned again."""
    events = [
        kong(2, "concealed", "9s"),
        kong(2, "added", "7s", on_replacement=True) if flagged else kong(2, "added", "7s"),
        s1_wins_on_4p(),
    ]
    d = settle(record("tfmj2024", events, draw=LATEST_KONG_DRAW)).as_dict()
    assert flows(d) == sorted(
        [
            *CONCEALED_BY_S2,
            *paid_by(2, (0, 1, 3), 1),
            ("S2", "S1", 2),
            ("S2", "S1", moved),
            ("S2", "S0", 1), ("S2", "S3", 1),  # 查叫
            *refunded,
        ]
    )  # fmt: skip
    assert d["totals"]["seats"] == totals


def test_the_chain_stops_at_the_first_kong_not_declared_on_a_replacement():
    """``chain_split`` (RULES §4.4). E0 S2 暗杠 9s (6), E1 S2 暗杠 8s not flagged (6), E2 S2 弯杠
    7s flagged, on the 8s kong's replacement (3), E3 S1 wins 杠上炮 on 4p (1 fan → 2).
    Walking back from E2: E2 is flagged → E1 is in; E1 is not flagged → the walk stops. The
    chain is 3 + 6 = 9, one winner: S2 → S1 9; the 9s kong's 6 stays with S2.
    S0 −2 −2 −1 = −5; S1 −5 +2 +9 = 6; S2 +15 −2 −9 = 4; S3 −5.
    """
    rec = record(
        "tfmj2024",
        [
            kong(2, "concealed", "9s"),
            kong(2, "concealed", "8s"),
            kong(2, "added", "7s", on_replacement=True),
            s1_wins_on_4p(),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [
            *CONCEALED_BY_S2,
            *CONCEALED_BY_S2,
            *paid_by(2, (0, 1, 3), 1),
            ("S2", "S1", 2),
            ("S2", "S1", 9),
        ]
    )
    assert d["totals"]["seats"] == [-5, 6, 4, -5]


def test_chain_split_in_qq_with_two_winners_divides_exactly():
    """``kong_transfer: chain_split`` applied to qq (RULES §3.8). E0 S2 暗杠 9s: 2 from each (6).
    E1 S2 discards 5p: S1 平胡 + 杠上炮 2 fan → 2; S3 对对胡 + 杠上炮 3 fan → 4.
    Chain: the 9s kong, 6; two winners: ceil(6 / 2) = 3 each, S2 pays 6 (qq's copy would pay 12).
    S0 −2; S1 −2 +2 +3 = 3; S2 +6 −2 −4 −6 = −6; S3 −2 +4 +3 = 5.
    """
    rec = record(
        spec("qq", kong_transfer="chain_split"),
        [
            kong(2, "concealed", "9s"),
            win("5p", winner(1, PINGHU_5P), winner(3, DUIDUI_5P), frm=2, situation=KONG_DISCARD),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [*CONCEALED_BY_S2, ("S2", "S1", 2), ("S2", "S3", 4), ("S2", "S1", 3), ("S2", "S3", 3)]
    )
    assert d["totals"]["seats"] == [-2, 3, -6, 5]


def test_chain_split_in_xuezhan9():
    """``kong_transfer: chain_split`` applied to xuezhan9. E0 S2 暗杠 9s (2 from each, 6), E1 S2
    暗杠 8s on its replacement (flagged, 6), E2 S1 wins 杠上炮 on 4p: 平胡 0 + 杠上炮 1 = 1 fan → 2.
    Chain 12, one winner: S2 → S1 12.
    S0 −4; S1 −4 +2 +12 = 10; S2 +12 −14 = −2; S3 −4.
    """
    rec = record(
        spec("xuezhan9", kong_transfer="chain_split"),
        [
            kong(2, "concealed", "9s"),
            kong(2, "concealed", "8s", on_replacement=True),
            s1_wins_on_4p(),
        ],
    )
    d = settle(rec).as_dict()
    kongs = [*CONCEALED_BY_S2, *CONCEALED_BY_S2]
    assert flows(d) == sorted([*kongs, ("S2", "S1", 2), ("S2", "S1", 12)])
    assert d["totals"]["seats"] == [-4, 10, -2, -4]


# --- refund -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "amount"), [("sbr", 2), (spec("chengdu", kong_transfer="refund"), 2)]
)
def test_refund_returns_the_kong_income_to_its_payers(ruleset, amount):
    """``refund`` (RULES §4.4): no transfer; the discarder returns to its payers the income of
    his most recent kong. E0 S2 暗杠 9s: 2 from each of S0, S1, S3. E1 S1 wins 杠上炮 on 4p:
    sbr 平胡 0 + 1 = 1 fan → 2; chengdu 平胡 1 × 杠上炮 2 = 2. S2 → S1 2; S2 → S0, S1, S3 2 each.
    S0 0; S1 −2 +2 +2 = 2; S2 +6 −6 −2 = −2; S3 0.
    """
    d = settle(record(ruleset, [kong(2, "concealed", "9s"), s1_wins_on_4p()])).as_dict()
    assert flows(d) == sorted([*CONCEALED_BY_S2, *pays(2, (0, 1, 3), 2), ("S2", "S1", amount)])
    assert d["totals"]["seats"] == [0, 2, -2, 0]


@pytest.mark.parametrize("ruleset", ["sbr", spec("qq", kong_transfer="refund")])
def test_refund_happens_once_however_many_win_on_the_discard(ruleset):
    """``refund`` (RULES §4.4: "once per discard, however many win on it"). E0 S2 暗杠 9s: 2 from
    each (6). E1 S2 discards 5p; S1 and S3 win: sbr S1 平胡 + 杠上炮 1 fan → 2, S3 对对胡 + 杠上炮
    2 fan → 4 (won on a pung: no 单钓); qq 2 fan → 2 and 3 fan → 4 — the same amounts.
    The 9s kong is returned once: S2 → S0, S1, S3 2 each.
    S0 −2 +2 = 0; S1 −2 +2 +2 = 2; S2 +6 −6 −2 −4 = −6; S3 −2 +2 +4 = 4.
    """
    rec = record(
        ruleset,
        [
            kong(2, "concealed", "9s"),
            win("5p", winner(1, PINGHU_5P), winner(3, DUIDUI_5P), frm=2, situation=KONG_DISCARD),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [*CONCEALED_BY_S2, *pays(2, (0, 1, 3), 2), ("S2", "S1", 2), ("S2", "S3", 4)]
    )
    assert d["totals"]["seats"] == [0, 2, -6, 4]


def test_refund_returns_the_latest_kong_and_the_other_at_the_draw_only():
    """``refund`` (RULES §4.4, §4.6c) on qq's LATEST_KONG record under sbr.
    E0 S2 暗杠 9s: 2 from each of S0, S1, S3. E1 S2 弯杠 7s: 1 from each.
    E2 S1 wins 杠上炮 on 4p: 平胡 + 杠上炮 1 fan → 2: S2 → S1 2; the most recent kong, 7s, is
    returned: S2 → S0, S1, S3 1 each.
    流局: S0 234m 567m 22p 345p 78p and S3 123s 456s 888s 99p 78p are ready, each 平胡 0 fan → 1
    (neither 单钓: not all triplets); S2 (1358m 135s + kongs) is not ready: 查叫 S2 → S0 1,
    S2 → S3 1; 退税 returns the 9s kong only (the 7s kong was returned already): 2 to each.
    S0 −2 −1 +1 +1 +2 = 1; S1 −2 −1 +1 +2 +2 = 2; S2 +9 −3 −2 −2 −6 = −4; S3 1.
    """
    rec = record(
        "sbr",
        [kong(2, "concealed", "9s"), kong(2, "added", "7s"), s1_wins_on_4p()],
        draw=LATEST_KONG_DRAW,
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [
            *CONCEALED_BY_S2,
            *paid_by(2, (0, 1, 3), 1),
            ("S2", "S1", 2),
            *pays(2, (0, 1, 3), 1),  # the refund of the 7s kong
            ("S2", "S0", 1), ("S2", "S3", 1),  # 查叫
            *pays(2, (0, 1, 3), 2),  # 退税 of the 9s kong
        ]
    )  # fmt: skip
    assert d["totals"]["seats"] == [1, 2, -4, 1]


def test_refund_skips_a_kong_with_no_income():
    """``refund`` (RULES §4.4: "his most recent kong that still has income to return").
    E0 S2 暗杠 9s: 2 from each of S0, S1, S3. E1 S2 弯杠 7s declared after its turn: a late
    弯杠 pays nothing (sbr). E2 S1 wins 杠上炮 on 4p: 1 fan → 2. The 7s kong has no income; the
    most recent one that has is the 9s kong: S2 → S0, S1, S3 2 each.
    S0 0; S1 −2 +2 +2 = 2; S2 +6 −6 −2 = −2; S3 0.
    """
    rec = record(
        "sbr",
        [kong(2, "concealed", "9s"), kong(2, "added", "7s", same_turn=False), s1_wins_on_4p()],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([*CONCEALED_BY_S2, *pays(2, (0, 1, 3), 2), ("S2", "S1", 2)])
    assert d["totals"]["seats"] == [0, 2, -2, 0]


def test_refund_returns_nothing_when_nothing_is_left_to_return():
    """``refund`` (RULES §4.4). E0 S2 暗杠 9s: 2 from each of S0, S1, S3.
    E1 S1 wins 杠上炮 on 4p (1 fan → 2): the 9s kong is returned, 2 to each.
    E2 S2 弯杠 7s after its turn: pays nothing. E3 S3 wins 杠上炮 on S2's 6p: 111s 222s 444s 666p
    55p (won on a pung: no 单钓), 对对胡 1 + 1 = 2 fan → 4. No kong of S2 has income left
    (the 7s kong had none, the 9s kong was returned): nothing more is returned.
    S0 −2 +2 = 0; S1 −2 +2 +2 = 2; S2 +6 −2 −6 −4 = −6; S3 −2 +2 +4 = 4.
    """
    rec = record(
        "sbr",
        [
            kong(2, "concealed", "9s"),
            s1_wins_on_4p(),
            kong(2, "added", "7s", same_turn=False),
            win("6p", winner(3, DUIDUI_5P), frm=2, situation=KONG_DISCARD),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [*CONCEALED_BY_S2, ("S2", "S1", 2), *pays(2, (0, 1, 3), 2), ("S2", "S3", 4)]
    )
    assert d["totals"]["seats"] == [0, 2, -6, 4]


# --- a robbed kong never transfers (RULES §4.4, §4.5) ----------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "flag", "value", "totals"),
    [
        # qq (copy, existing behaviour): 平胡 1 fan → 1, no 抢杠 bonus.
        # S0 −2; S1 −2 +1 = −1; S2 +6 −1 = 5; S3 −2
        ("qq", False, 1, [-2, -1, 5, -2]),
        (spec("qq", kong_transfer="chain_split"), True, 1, [-2, -1, 5, -2]),
        # tfmj2024 / sbr: 平胡 0 + 抢杠 1 = 1 fan → 2. S0 −2; S1 −2 +2 = 0; S2 +6 −2 = 4; S3 −2
        ("tfmj2024", True, 2, [-2, 0, 4, -2]),
        ("sbr", True, 2, [-2, 0, 4, -2]),
    ],
    ids=["qq", "qq-chain-split", "tfmj2024", "sbr"],
)
def test_a_robbed_kong_never_transfers(ruleset, flag, value, totals):
    """RULES §4.4 ("A robbed kong (抢杠) never transfers"), §4.5. E0 S2 暗杠 9s: 2 from each of
    S0, S1, S3. E1 S2 adds 4p to his pung on its replacement (flagged where it says so); E2 S1
    robs it (抢杠). The robbed kong is cancelled and pays nothing; the win is not a 杠上炮, so
    nothing of the 9s kong moves, in any mode: S2 → S1 the win alone.
    (Reading: tfmj2024 and sbr have no 杠钱归胡家 — RULES names it for xuezhan9 only.)
    """
    rec = record(
        ruleset,
        [
            kong(2, "concealed", "9s"),
            kong(2, "added", "4p", on_replacement=True) if flag else kong(2, "added", "4p"),
            win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"]),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([*CONCEALED_BY_S2, ("S2", "S1", value)])
    assert d["totals"]["seats"] == totals
    assert by_reason(d, "kong_added") == []


# --- the on_replacement flag ------------------------------------------------------------------

# E0 S2 暗杠 9s, E1 S2 暗杠 8s on its replacement (flagged), E2 S1 wins 杠上炮 on 4p: each ruleset
# below values the win 2 (qq 2 fan → 2; the others 1 fan → 2); kongs 2 from each (12 in all).
TWO_KONGS = [
    kong(2, "concealed", "9s"),
    kong(2, "concealed", "8s", on_replacement=True),
    win("4p", winner(1, PINGHU), frm=2, situation=KONG_DISCARD),
]
COPY = [("S2", "S1", 6)]  # the 8s kong's income, right before the discard
CHAIN = [("S2", "S1", 12)]  # both kongs: the flag joins them
REFUND = pays(2, (0, 1, 3), 2)  # the 8s kong returned to S0, S1, S3


@pytest.mark.parametrize(
    ("ruleset", "moves", "totals"),
    [
        # copy: S0 −4; S1 −4 +2 +6 = 4; S2 +12 −8 = 4; S3 −4
        ("qq", COPY, [-4, 4, 4, -4]),
        (spec("tfmj2024", kong_transfer="copy"), COPY, [-4, 4, 4, -4]),
        # chain_split: S0 −4; S1 −4 +2 +12 = 10; S2 +12 −14 = −2; S3 −4
        (spec("qq", kong_transfer="chain_split"), CHAIN, [-4, 10, -2, -4]),
        ("tfmj2024", CHAIN, [-4, 10, -2, -4]),
        (spec("sbr", kong_transfer="chain_split"), CHAIN, [-4, 10, -2, -4]),
        # refund: S0 −4 +2 = −2; S1 −4 +2 +2 = 0; S2 +12 −6 −2 = 4; S3 −2
        (spec("qq", kong_transfer="refund"), REFUND, [-2, 0, 4, -2]),
        ("sbr", REFUND, [-2, 0, 4, -2]),
    ],
    ids=["qq", "tfmj2024-copy", "qq-chain-split", "tfmj2024", "sbr-chain-split",
         "qq-refund", "sbr"],
)  # fmt: skip
def test_on_replacement_is_accepted_under_every_mode(ruleset, moves, totals):
    """RULES §4.4: the ``on_replacement`` flag is accepted under every mode and changes nothing
    outside ``chain_split``. The record: TWO_KONGS; S2 → S1 the win 2 and, by mode, ``moves``."""
    d = settle(record(ruleset, TWO_KONGS)).as_dict()
    assert flows(d) == sorted([*CONCEALED_BY_S2, *CONCEALED_BY_S2, ("S2", "S1", 2), *moves])
    assert d["totals"]["seats"] == totals


@pytest.mark.parametrize("ruleset", ["qq", "tfmj2024", "sbr"])
@pytest.mark.parametrize(
    ("events", "at"),
    [
        # the first event of the hand: no kong before it
        ([kong(2, "concealed", "9s", on_replacement=True)], 0),
        # right after another player's kong
        ([kong(1, "concealed", "9m"), kong(2, "concealed", "9s", on_replacement=True)], 1),
        # right after a win
        ([win("4p", winner(1, PINGHU), frm=3), kong(2, "concealed", "9s", on_replacement=True)],
         1),
        # his own kong earlier, but a win in between
        ([kong(2, "concealed", "8s"), win("4p", winner(1, PINGHU), frm=3),
          kong(2, "concealed", "9s", on_replacement=True)], 2),
    ],
    ids=["first-event", "after-another-players-kong", "after-a-win", "not-right-before"],
)  # fmt: skip
def test_on_replacement_without_the_players_kong_right_before_is_refused(ruleset, events, at):
    """RULES §4.4: a flagged kong whose previous event is not the same player's kong is refused
    (``on_replacement_without_kong``), at that event, under every mode."""
    found = refusal(lambda: settle(record(ruleset, events)))
    assert any(
        code == "on_replacement_without_kong" and path.startswith(f"events[{at}]")
        for code, path in found
    ), found


def test_chain_split_in_qq_income_moved_is_not_returned_at_the_draw():
    """``kong_transfer: chain_split`` applied to qq, on qq's LATEST_KONG record with the 7s kong
    flagged (RULES §4.4: income moved is never returned again at 退税).
    E0 S2 暗杠 9s: 2 from each of S0, S1, S3 (6). E1 S2 弯杠 7s on its replacement: 1 from
    each (3). E2 S1 wins 杠上炮 on 4p: qq 平胡 1 + 1 = 2 fan → 2; the chain 6 + 3 = 9 → S2 → S1 9.
    流局: 查叫 S2 → S0 1, S2 → S3 1 (each 平胡 1 fan → 1); 退税: nothing left, both kongs'
    income has moved.
    S0 −3 +1 = −2; S1 −3 +2 +9 = 8; S2 +9 −2 −9 −2 = −4; S3 −2.
    """
    rec = record(
        spec("qq", kong_transfer="chain_split"),
        [kong(2, "concealed", "9s"), kong(2, "added", "7s", on_replacement=True), s1_wins_on_4p()],
        draw=LATEST_KONG_DRAW,
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(
        [
            *CONCEALED_BY_S2,
            *paid_by(2, (0, 1, 3), 1),
            ("S2", "S1", 2),
            ("S2", "S1", 9),
            ("S2", "S0", 1),
            ("S2", "S3", 1),
        ]
    )
    assert d["totals"]["seats"] == [-2, 8, -4, -2]
    assert by_reason(d, "kong_refund") == []


# --- what a kong record cannot say (issue 22, item 12) ----------------------------------------


@pytest.mark.parametrize("ruleset", ["sbr", "tfmj2024", "chengdu"])
def test_a_direct_kong_is_never_on_a_replacement(ruleset):
    """RULES §4.4, §5: 杠上杠 is a kong made from the replacement tile of one's own kong; a
    direct kong (直杠) claims another player's discard, so it cannot be one. S2 暗杠 9s, then
    S2 直杠 7s on S0's discard flagged on_replacement: refused at the flag (it was accepted and
    the 杠上杠 chain walked through it)."""
    events = [
        kong(2, "concealed", "9s"),
        kong(2, "direct", "7s", frm=0, on_replacement=True),
    ]
    found = refusal(lambda: settle(record(ruleset, events)))
    assert ("on_replacement_direct_kong", "events[1].on_replacement") in found


@pytest.mark.parametrize("kind", ["concealed", "direct"])
@pytest.mark.parametrize("same_turn", [True, False])
def test_same_turn_belongs_to_an_added_kong_only(kind, same_turn):
    """``same_turn`` says when a 弯杠 was declared (``added_kong_same_turn``); on a concealed
    or direct kong it was accepted and ignored: refused, so a scorer learns it means nothing."""
    event = kong(1, kind, "5p", frm=0 if kind == "direct" else None, same_turn=same_turn)
    found = refusal(lambda: settle(record("sbr", [event])))
    assert ("same_turn_not_added", "events[0].same_turn") in found
    # on an added kong it is what it says
    assert settle(record("sbr", [kong(1, "added", "5p", same_turn=same_turn)]))


def test_a_false_win_that_costs_nothing_is_refused():
    """RULES §4.9: a 诈胡 costs its offender; ``false_win: 0`` was accepted (a free false win)."""
    found = refusal(lambda: settle(record(spec("sbr", false_win=0), [])))
    assert any(code == "invalid_option" or "false_win" in path for code, path in found), found
    assert settle(record(spec("sbr", false_win=1), []))
