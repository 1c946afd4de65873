"""查叫 赔大/赔小 (RULES §4.6b, §3.5 ``chajiao`` and ``dead_wait_counts``), decided in one place:
``waits.chajiao_pick`` says which wait values a ready hand, ``waits.chajiao_owed`` what it is
owed. readiness, ``chajiao_value``, the settlement's draw and xuezhan9's 花猪 all use them.

Hands (values worked out from RULES §3.1, qq: value = 2^(fan−1)):

- NINE_GATES 1112345678999m waits on every 万: 1m and 9m make a fourth copy (清一色 3 fan + 1
  根 = 4 fan → 8), 2m–8m are 清一色 3 fan → 4.
- DEAD 23m 789m 99m 111p 999p waits on 1m (123m 789m 99m 111p 999p: a 1 or 9 in every set and
  the pair → 带幺九 3 fan → 4) and 4m (234m → 平胡 1 fan → 1).
"""

from __future__ import annotations

import pytest

from scoring.engine import chajiao_value, parse_tiles, readiness, resolve_ruleset
from scoring.engine.settle import settle
from scoring.engine.shapes import hand_key
from scoring.engine.waits import chajiao_owed, chajiao_pick, wait_valuations

from .builders import hand, record, ruleset_spec

NINE_GATES = "1112345678999m"
DEAD = "23m789m99m111p999p"


def pick(tiles, spec, dead=""):
    r = resolve_ruleset(spec)
    key = hand_key(parse_tiles(tiles))
    v = chajiao_pick(r, wait_valuations(key, 13, r), set(parse_tiles(dead)))
    return r, v


@pytest.mark.parametrize(
    ("chajiao", "value", "owed"),
    [("max", 8, 8), ("min", 4, 4), ("off", 8, None)],
)
def test_max_takes_the_best_wait_min_the_smallest_off_owes_nothing(chajiao, value, owed):
    """NINE_GATES: 赔大 picks a four-making wait (8), 赔小 a plain 清一色 wait (4). Under off
    the pick is still the best wait (what xuezhan9's 花猪 penalty measures), but nothing is
    owed: no 查叫 value at all."""
    r, v = pick(NINE_GATES, ruleset_spec("qq", chajiao=chajiao))
    assert v.value == value
    assert chajiao_owed(r, v) == owed


@pytest.mark.parametrize(
    ("dead_wait_counts", "dead", "value"),
    [
        (True, "1m", 4),  # 死叫算叫: the dead 1m still counts, 赔大 → 带幺九 4
        (False, "1m", 1),  # only the live 4m counts → 平胡 1
        (True, "1m4m", 4),  # every wait dead, still ready
        (False, "1m4m", None),  # no live wait: not ready, no pick
    ],
)
def test_dead_waits_count_only_under_dead_wait_counts(dead_wait_counts, dead, value):
    r, v = pick(DEAD, ruleset_spec("qq", dead_wait_counts=dead_wait_counts), dead)
    assert (v.value if v else None) == value
    assert chajiao_owed(r, v) == value


def test_equal_values_pick_the_first_wait():
    """DEAD under additive (赔小, points): 1m is 幺九 3 and 4m 平胡 1 → 赔小 picks 4m. With 赔大
    on NINE_GATES (qq) 1m and 9m are both 8: the first in tile order, 1m, is the pick — its
    valuation is the one xuezhan9's 花猪 adds a fan to."""
    r, v = pick(DEAD, "additive")
    assert (v.pattern, v.value) == ("pinghu", 1)
    r = resolve_ruleset("qq")
    waits = wait_valuations(hand_key(parse_tiles(NINE_GATES)), 13, r)
    assert chajiao_pick(r, waits) is waits[0][1]


def test_not_ready_is_no_pick_and_owes_nothing():
    r, v = pick("1357m2468m1357p9p", "qq")
    assert v is None and chajiao_owed(r, v) is None


# S0 shows NINE_GATES; S1 shows 23p 789p 99p 111s 999s (the DEAD hand in 筒/条: waits 1p 带幺九 →
# 4 and 4p 平胡 → 1). S2 11357p 2468s 1357s and S3 2468m 113456788p are not ready (two suits
# each); between them they hold all four 1p, so S1's 1p wait is dead (死叫). Nobody has won.
DRAW = {
    "0": hand(NINE_GATES),
    "1": hand("23p789p99p111s999s"),
    "2": hand("11357p2468s1357s"),
    "3": hand("2468m113456788p"),
}


@pytest.mark.parametrize(
    ("chajiao", "dead_wait_counts", "expected"),
    [
        ("max", True, {0: 8, 1: 4}),  # 赔大; the dead 1p still counts for S1
        ("max", False, {0: 8, 1: 1}),  # S1: only the live 4p
        ("min", True, {0: 4, 1: 1}),  # 赔小
        ("min", False, {0: 4, 1: 1}),
        ("off", True, {0: None, 1: None}),  # no 查叫 value anywhere
        ("off", False, {0: None, 1: None}),
    ],
)
def test_every_caller_agrees(chajiao, dead_wait_counts, expected):
    """readiness (shown the other seats' tiles as visible), chajiao_value (no tile visible: only
    for S0, who has no dead wait) and the settlement's draw give each ready hand the same 查叫
    value (before, chajiao_value and the draw still reported the 赔大 value under off). 查叫:
    S2 and S3 each pay S0 and S1 that value; under off nobody pays anything."""
    spec = ruleset_spec("qq", chajiao=chajiao, dead_wait_counts=dead_wait_counts)
    d = settle(record(spec, draw={"hands": DRAW})).as_dict()
    at_draw = {x["seat"]: x["chajiao_value"] for x in d["draw"]}
    shown = {int(s): parse_tiles(h["concealed"]) for s, h in DRAW.items()}
    for seat in (0, 1):
        visible = [t for other, tiles in shown.items() if other != seat for t in tiles]
        assert readiness(shown[seat], spec, visible=visible).chajiao_value == expected[seat]
        assert at_draw[seat] == expected[seat]
    assert chajiao_value(hand_key(shown[0]), 13, resolve_ruleset(spec)) == expected[0]
    assert at_draw[2] is None and at_draw[3] is None
    paid = sorted((p["payer"], p["payee"], p["amount"]) for p in d["payments"])
    if chajiao == "off":
        assert paid == []
    else:
        assert paid == sorted(
            (f"S{payer}", f"S{payee}", expected[payee]) for payer in (2, 3) for payee in (0, 1)
        )
