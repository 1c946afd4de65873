"""Helpers and hands shared by the competition-preset tests (issue 16: ``tfmj2024``, ``sbr`` and
the options of RULES §3.8, §4.4, §4.9).

The two presets in short (RULES §3.6–§3.8), which every test's working uses:

- ``tfmj2024``: value = 2^fan, 平胡 0 fan; 对对胡 1; 清一色 2 (raises the base to 2, never adds:
  清对 = 2, 清七对 = 2); 七对 2 (listed after 清一色: a one-suit seven pairs reports 七对); no other
  rows. +1 fan each, stacking: 根 (a kong, a pung plus its fourth, a concealed four, a four inside
  七对), 金钩钓, 海底, 杠上花, 杠上炮, 抢杠胡. Cap 3 fan (8); self-draw +1 after the cap (each payer
  2, 3, 5 or 9). Kongs 暗 2 from each / 直 2 from the discarder / 弯 1 from each, a late 弯杠 0.
  ``kong_transfer: chain_split``, ``huazhu: not_ready``, 查叫 赔大, ``false_win: cap`` (8),
  ``tianhu_dihu: false``.
- ``sbr``: value = 2^fan, 平胡 0; 对对胡 1; 清一色 2, 七对 2; 清对 3; 清七对 4; 天胡/地胡 = the cap.
  +1 fan each: 根 (a kong counts once), 杠上花, 杠上炮, 抢杠, 海底, 单钓 Golden Wait. Cap 3 (option
  4); self-draw +1 after the cap. Kongs as tfmj2024. ``kong_transfer: refund``, ``huazhu:
  not_ready``, ``chajiao_kongs: false``, ``haidi_over_kong_discard: true``, ``false_win: 8``.

Payments are compared as (payer, payee, amount) — the reason codes of the new payment kinds are
not fixed — and by the seat totals.
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, parse_winning_hand

from ..builders import hand, kong, meld
from .hands import FOUR_HANDS

# 13 tiles before the winning tile (two suits, no four of a kind unless said).
PINGHU = "123m456m789m11p23p"  # + 4p: 123m 456m 789m 11p 234p — 平胡 (also waits on 1p)
PINGHU_5P = "123m456m789m11p34p"  # + 5p: 123m 456m 789m 11p 345p — 平胡
PINGHU_6S = "234m567m22s345s78s"  # + 6s: 234m 567m 22s 345s 678s — 平胡
DUIDUI_5P = "111s222s444s55p66p"  # + 5p (or 6p): 111s 222s 444s 555p 66p — 对对胡, won on a pung
GOLDEN_6P = "111s222s444s555p6p"  # + 6p: 111s 222s 444s 555p 66p — 对对胡 won on its pair (单钓)
QINGDUI_9M = "111m333m555m77m99m"  # + 9m (or 7m): 111m 333m 555m 999m 77m — 清对, won on a pung
QINGDUI_GOLDEN = "111m333m555m777m9m"  # + 9m: 111m 333m 555m 777m 99m — 清对 won on its pair
QIDUI = "1155m3399m2288p7p"  # + 7p: 11 33 55 99m 22 77 88p — 七对, no four, no sequence reading
QIDUI_ROOT = "1111m3399m2288p7p"  # + 7p: 11 11 33 99m 22 77 88p — 七对 with one four (根)
QIDUI_3ROOTS = "1111m3333p5555p7p"  # + 7p: 1111m 3333p 5555p 77p — 七对 with three fours
QINGQIDUI = "1133557799m22m4m"  # + 4m: 11 22 33 44 55 77 99m — 清七对 (no standard reading)
QINGLONGQIDUI = "1111m3355m7799m2m"  # + 2m: 1111 22 33 55 77 99m — 清龙七对 (no standard reading)
QINGYISE_ROOT = "1111234567899m"  # + 9m: 111m 123m 456m 789m 99m — 清一色, the fourth 1m a 根
FOUR_PUNGS = ("1m", "2m", "3p", "4p")  # with "5p" concealed + 5p: 金钩钓 (four melds, one tile)


# 流局 with all four in (hands.FOUR_HANDS with S0's kong): S0 暗杠 5s and holds m, p and s:
# 花猪. S1 123m 456m 789m 55p 67p: ready on 5p and 8p, both 平胡 0 fan → 1.
# S2 111s 222s 333p 45p 77p: ready on 3p (333p 345p 77p, the four 3p a 根: 1 fan → 2),
# 6p (平胡 → 1) and 7p (33p 345p 777p, 平胡 → 1); 赔大: 2. S3 124578m 3467899s: not ready.
HUAZHU_DRAW = {
    "hands": {
        "0": hand("1m9m2m1p9p2p1s3s7s9s", [meld("kong", "5s", True)]),
        "1": FOUR_HANDS["1"],
        "2": FOUR_HANDS["2"],
        "3": FOUR_HANDS["3"],
    }
}

# 流局, nobody won. S1 111s 222s 444s 555p 6p waits on 4p (456p 55p, 平胡), 6p (555p 66p: 对对胡
# won on its pair, 单钓) and 7p (567p 55p, 平胡). S0 12345679m 13579p, S2 2467889p 135799s and
# S3 11246899m 24568s are not ready (two suits each: no 花猪).
GOLDEN_DRAW = {
    "hands": {
        "0": hand("13579m13579p246m"),
        "1": hand(GOLDEN_6P),
        "2": hand("2467889p135799s"),
        "3": hand("11246899m24568s"),
    }
}

# E0 S1 暗杠 9p: S0, S2, S3 → S1 2 each. 流局 with all four in:
#  S0 1357p 123456789s: two suits, not ready.
#  S1 345m 678m 11p 23p + 暗杠 9999p: ready on 1p (123p 11p) and 4p (234p 11p), 平胡; with his
#     kong as a 根 1 fan, without it 0.
#  S2 1111m 23m 567m 22p 34p: ready on 2p and 5p (111m 123m 567m 22p 234p/345p), 平胡 with the
#     four 1m held in hand: a 根 that counts either way.
#  S3 2468m 468p 2468s 99s: three suits, 花猪.
KONG_9P = [kong(1, "concealed", "9p")]
NO_KONG_ROOTS_DRAW = {
    "hands": {
        "0": hand("1357p13579s2468s"),
        "1": hand("345m678m11p23p", [meld("kong", "9p", True)]),
        "2": hand("1111m23m567m22p34p"),
        "3": hand("2468m468p2468s99s"),
    }
}


def flows(d: dict) -> list[tuple[str, str, int]]:
    """The seat payments of a settlement as sorted (payer, payee, amount)."""
    return sorted(
        (p["payer"], p["payee"], p["amount"]) for p in d["payments"] if p["reason"] != "bettor"
    )


def bettor_flows(d: dict) -> list[tuple[str, str, int]]:
    """The 叫马 payments (those that mirror a seat payment) as sorted (payer, payee, amount)."""
    return sorted(
        (p["payer"], p["payee"], p["amount"]) for p in d["payments"] if p["reason"] == "bettor"
    )


def pays(payer: int, payees, amount: int) -> list[tuple[str, str, int]]:
    """``payer`` pays each of ``payees`` ``amount``."""
    return [(f"S{payer}", f"S{p}", amount) for p in payees]


def paid_by(payee: int, payers, amount: int) -> list[tuple[str, str, int]]:
    """Each of ``payers`` pays ``payee`` ``amount``."""
    return [(f"S{p}", f"S{payee}", amount) for p in payers]


def wh(concealed, tile, melds=(), self_draw=False, situation=(), void=None):
    """A parsed winning hand: the concealed tiles *before* the winning tile, the winning tile."""
    return parse_winning_hand(
        {
            "concealed": concealed,
            "winning_tile": tile,
            "melds": list(melds),
            "self_draw": self_draw,
            "situation": list(situation),
            "declared_void": void,
        }
    )


def false_win(seat: int) -> dict:
    """诈胡 (RULES §4.9): a player declared a win his tiles did not make."""
    return {"type": "false_win", "seat": seat}


#: codes that say the engine does not know a part of the record or ruleset these tests use (the
#: competition presets, their options, the new record parts): a refusal for that is never the
#: refusal a test expects
NOT_KNOWN = frozenset(
    ("unknown_preset", "unknown_option", "unknown_field", "invalid_event_type", "unknown_extra")
)


def refusal(settle_call) -> list[tuple[str, str]]:
    """The (code, path) of every problem an EngineError lists; none of them may be one of
    NOT_KNOWN (the test is about another refusal)."""
    with pytest.raises(EngineError) as info:
        settle_call()
    found = [(p.code, p.path) for p in info.value.problems]
    assert not [f for f in found if f[0] in NOT_KNOWN], found
    return found


def spec(preset: str, **options) -> dict:
    return {"preset": preset, "options": options}
