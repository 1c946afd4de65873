"""Declared entry (RULES §6) under the competition presets ``tfmj2024`` and ``sbr``: only their
own patterns are accepted, a declared hand is worth what the same hand shown by its tiles is
worth (its twin's payments, exactly), and declared waits at the draw follow ``chajiao_kongs``.

Every expected value is worked out by hand from RULES.md (the presets: ``competition.py``).
A declaration names the pattern as the engine would report it from the tiles (§6): under
tfmj2024 a 清对 is ``qingyise`` (清一色 2 is its best row) and a one-suit seven pairs ``qidui``;
seven pairs with a four are ``qidui`` with roots in both presets (neither has a 龙七对 row).
"""

from __future__ import annotations

import copy

import pytest

from scoring.engine.settle import settle

from ..builders import meld, record, win, winner
from .competition import (
    DUIDUI_5P,
    FOUR_PUNGS,
    GOLDEN_6P,
    GOLDEN_DRAW,
    HUAZHU_DRAW,
    KONG_9P,
    NO_KONG_ROOTS_DRAW,
    PINGHU,
    QIDUI_3ROOTS,
    QIDUI_ROOT,
    QINGDUI_9M,
    QINGLONGQIDUI,
    QINGQIDUI,
    QINGYISE_ROOT,
    flows,
    refusal,
)

PUNGS = [meld("pung", t) for t in FOUR_PUNGS]
W = "events[0].winners[0]"


def declared(seat: int, pattern: str, roots: int = 0, extras=(), melds=()) -> dict:
    w = {"seat": seat, "declared": {"pattern": pattern, "roots": roots, "extras": list(extras)}}
    if melds:
        w["melds"] = list(melds)
    return w


# --- only the preset's own patterns ----------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "winner_", "how", "expected"),
    [
        # tfmj2024 has no rows for these (RULES §3.6)
        ("tfmj2024", declared(1, "qingdui"), {}, (f"{W}.declared.pattern",
                                                   "pattern_not_in_ruleset")),
        ("tfmj2024", declared(1, "qingqidui"), {}, (f"{W}.declared.pattern",
                                                     "pattern_not_in_ruleset")),
        ("tfmj2024", declared(1, "longqidui", 1), {}, (f"{W}.declared.pattern",
                                                        "pattern_not_in_ruleset")),
        ("tfmj2024", declared(1, "qinglongqidui", 1), {}, (f"{W}.declared.pattern",
                                                            "pattern_not_in_ruleset")),
        ("tfmj2024", declared(1, "jiangdui"), {}, (f"{W}.declared.pattern",
                                                    "pattern_not_in_ruleset")),
        ("tfmj2024", declared(1, "daiyaojiu"), {}, (f"{W}.declared.pattern",
                                                     "pattern_not_in_ruleset")),
        # 金钩钓 is an extra there, not a pattern
        ("tfmj2024", declared(1, "jingoudiao", melds=PUNGS), {},
         (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
        # 天胡 / 地胡: no rows (tianhu_dihu off), even with the flag the events allow
        ("tfmj2024", declared(0, "tianhu"), {"situation": ["heavenly"]},
         (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
        ("tfmj2024", declared(1, "dihu"), {"situation": ["earthly"]},
         (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
        # the 七对 family holds at most three fours (fourteen concealed tiles)
        ("tfmj2024", declared(1, "qidui", 4), {}, (f"{W}.declared.roots", "roots_out_of_range")),
        # sbr has no 龙七对 rows either, nor 将对 or 金钩钓 (jingoudiao off)
        ("sbr", declared(1, "longqidui", 1), {}, (f"{W}.declared.pattern",
                                                   "pattern_not_in_ruleset")),
        ("sbr", declared(1, "qinglongqidui", 1), {}, (f"{W}.declared.pattern",
                                                       "pattern_not_in_ruleset")),
        ("sbr", declared(1, "jiangdui"), {}, (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
        ("sbr", declared(1, "jingoudiao", melds=PUNGS), {},
         (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
    ],
)  # fmt: skip
def test_a_pattern_the_preset_has_no_row_for_is_refused(preset, winner_, how, expected):
    """RULES §6: "refuses a declaration the preset cannot produce"; "七对-family and 天胡/地胡
    declarations are refused where the preset has no such row". The win is on S2's discard,
    or the declared player's self-draw where a flag says so (天胡 by the dealer S0 as the first
    event, 地胡 by S1 as the first event)."""
    frm = None if how else 2
    rec = record(preset, [win("9m", winner_, frm=frm, **how)], mode="single")
    path, code = expected
    assert (code, path) in refusal(lambda: settle(rec))


@pytest.mark.parametrize(
    ("preset", "winner_"),
    [
        # golden_wait is off in tfmj2024
        ("tfmj2024", declared(1, "duiduihu", extras=["golden_wait"])),
        # jingoudiao is off in sbr (Golden Wait takes its place)
        ("sbr", declared(1, "duiduihu", extras=["jingoudiao"], melds=PUNGS)),
    ],
    ids=["tfmj2024-golden-wait", "sbr-jingoudiao"],
)
def test_an_extra_the_preset_does_not_count_is_refused(preset, winner_):
    """RULES §6: ``extras`` lists the hand-shape extras the preset counts; one it does not count
    is refused at the declaration's extras (its code is the engine's ``extra_not_in_ruleset``
    for an extra that is off; only the place is asserted here)."""
    rec = record(preset, [win("5p", winner_, frm=2)], mode="single")
    found = refusal(lambda: settle(rec))
    assert any(path.startswith(f"{W}.declared.extras") for _, path in found), found


# --- a declaration is worth what its tiles are worth -------------------------------------------

TWINS = [
    # tfmj2024 -----------------------------------------------------------------------------------
    # 七对 with a four, declared qidui + 1 root: 2 + 1 = 3 fan → 8 from the discarder S2
    pytest.param("tfmj2024", declared(1, "qidui", 1), winner(1, QIDUI_ROOT), "7p", 2, (),
                 [0, 8, -8, 0], id="tfmj-qidui-root"),
    # 七对 with three fours: 2 + 3 = 5 fan, capped → 8
    pytest.param("tfmj2024", declared(1, "qidui", 3), winner(1, QIDUI_3ROOTS), "7p", 2, (),
                 [0, 8, -8, 0], id="tfmj-qidui-3roots"),
    # a 清对 is declared qingyise: 2 fan → 4
    pytest.param("tfmj2024", declared(1, "qingyise"), winner(1, QINGDUI_9M), "9m", 2, (),
                 [0, 4, -4, 0], id="tfmj-qingdui-as-qingyise"),
    # a one-suit seven pairs is declared qidui: 2 fan → 4
    pytest.param("tfmj2024", declared(1, "qidui"), winner(1, QINGQIDUI), "4m", 2, (),
                 [0, 4, -4, 0], id="tfmj-qingqidui-as-qidui"),
    # 清龙七对 declared qidui + 1 root: 3 fan → 8
    pytest.param("tfmj2024", declared(1, "qidui", 1), winner(1, QINGLONGQIDUI), "2m", 2, (),
                 [0, 8, -8, 0], id="tfmj-qinglongqidui-as-qidui"),
    # 对对胡 + 金钩钓 with the four melds listed: 1 + 1 = 2 fan → 4
    pytest.param("tfmj2024", declared(1, "duiduihu", extras=["jingoudiao"], melds=PUNGS),
                 winner(1, "5p", PUNGS), "5p", 2, (), [0, 4, -4, 0], id="tfmj-jingoudiao"),
    # 清一色 + 1 root self-drawn: 3 fan → 8, +1 after the cap → 9 from each of three
    pytest.param("tfmj2024", declared(1, "qingyise", 1), winner(1, QINGYISE_ROOT), "9m", None,
                 (), [-9, 27, -9, -9], id="tfmj-qingyise-root-self"),
    # the dealer's 天胡 flag adds nothing: 平胡 0 fan → 1, +1 → 2 from each
    pytest.param("tfmj2024", declared(0, "pinghu"), winner(0, PINGHU), "4p", None,
                 ("heavenly",), [6, -2, -2, -2], id="tfmj-heavenly-pinghu"),
    # sbr ------------------------------------------------------------------------------------------
    # 清对 has its row: 3 fan → 8
    pytest.param("sbr", declared(1, "qingdui"), winner(1, QINGDUI_9M), "9m", 2, (),
                 [0, 8, -8, 0], id="sbr-qingdui"),
    # 清七对: 4 fan, capped at 3 → 8
    pytest.param("sbr", declared(1, "qingqidui"), winner(1, QINGQIDUI), "4m", 2, (),
                 [0, 8, -8, 0], id="sbr-qingqidui"),
    # 七对 with a four, qidui + 1 root: 3 fan → 8
    pytest.param("sbr", declared(1, "qidui", 1), winner(1, QIDUI_ROOT), "7p", 2, (),
                 [0, 8, -8, 0], id="sbr-qidui-root"),
    # 清七对 with a four, qingqidui + 1 root: 5 fan, capped → 8
    pytest.param("sbr", declared(1, "qingqidui", 1), winner(1, QINGLONGQIDUI), "2m", 2, (),
                 [0, 8, -8, 0], id="sbr-qingqidui-root"),
    # 对对胡 won on a pung: 1 fan → 2
    pytest.param("sbr", declared(1, "duiduihu"), winner(1, DUIDUI_5P), "5p", 2, (),
                 [0, 2, -2, 0], id="sbr-duiduihu"),
    # 对对胡 + Golden Wait (单钓, no melds): 2 fan → 4
    pytest.param("sbr", declared(1, "duiduihu", extras=["golden_wait"]), winner(1, GOLDEN_6P),
                 "6p", 2, (), [0, 4, -4, 0], id="sbr-golden-wait"),
    # the same with four melds listed: 2 fan → 4
    pytest.param("sbr", declared(1, "duiduihu", extras=["golden_wait"], melds=PUNGS),
                 winner(1, "5p", PUNGS), "5p", 2, (), [0, 4, -4, 0], id="sbr-golden-wait-melds"),
    # 天胡 = the cap: 3 fan → 8, +1 → 9 from each
    pytest.param("sbr", declared(0, "tianhu"), winner(0, PINGHU), "4p", None, ("heavenly",),
                 [27, -9, -9, -9], id="sbr-tianhu"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "decl", "shown", "tile", "frm", "situation", "totals"), TWINS)
def test_a_declared_win_pays_what_its_shown_twin_pays(
    preset, decl, shown, tile, frm, situation, totals
):
    """RULES §6: "The engine values a declaration with the preset's own tables exactly as it
    would value tiles with those facts". Each row: the declared winner and the same hand shown
    by its tiles, in a one-win record (普通 mode); their payments are the same, and the
    totals are the row's (working beside each row)."""
    d = settle(record(preset, [win(tile, decl, frm=frm, situation=situation)], mode="single"))
    s = settle(record(preset, [win(tile, shown, frm=frm, situation=situation)], mode="single"))
    d, s = d.as_dict(), s.as_dict()
    assert d["totals"]["seats"] == s["totals"]["seats"] == totals
    assert d["payments"] == s["payments"]
    assert (d["verified"], s["verified"]) == (False, True)


# --- declared players at the draw -------------------------------------------------------------


def _declared_draw(shown: dict, declarations: dict) -> dict:
    out = copy.deepcopy(shown)
    out["hands"] = declarations
    return out


@pytest.mark.parametrize(
    ("preset", "events", "shown", "declarations", "totals"),
    [
        # sbr, chajiao_kongs off (NO_KONG_ROOTS_DRAW, test_sbr.py): S1 holds a 暗杠 and is
        # declared ready on 平胡 with 1 root — his kong, counted as tiles would count it — which
        # 查叫 leaves out: 0 fan → 1; S2's root is a four held in hand: 1 fan → 2. S0 (not ready)
        # and S3 (花猪, not_ready) each pay S1 1 and S2 2.
        # S0 −2 −3 = −5; S1 +6 +2 = 8; S2 −2 +4 = 2; S3 −5
        pytest.param(
            "sbr", KONG_9P, NO_KONG_ROOTS_DRAW,
            {"0": {"declared": "not_ready"},
             "1": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 1}},
             "2": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 1}},
             "3": {"declared": "huazhu"}},
            [-5, 8, 2, -5], id="sbr-chajiao-without-kong-roots",
        ),
        # sbr, a declared Golden Wait (GOLDEN_DRAW): S1's best wait 对对胡 + 单钓 = 2 fan → 4 from
        # each of S0, S2, S3, declared not ready. S1 +12, the others −4
        pytest.param(
            "sbr", [], GOLDEN_DRAW,
            {"0": {"declared": "not_ready"},
             "1": {"declared": "ready",
                   "wait": {"pattern": "duiduihu", "extras": ["golden_wait"]}},
             "2": {"declared": "not_ready"}, "3": {"declared": "not_ready"}},
            [-4, 12, -4, -4], id="sbr-golden-wait",
        ),
        # tfmj2024, a declared 花猪 under huazhu not_ready (HUAZHU_DRAW, test_tfmj2024.py): E0 S0
        # 暗杠 5s (2 from each). S0 花猪 and S3 not ready pay 查叫: S1 平胡 → 1, S2 平胡 + 1 root
        # → 2; S0 returns his kong income. S0 +6 −3 −6 = −3; S1 2; S2 4; S3 −3
        pytest.param(
            "tfmj2024", [{"type": "kong", "seat": 0, "kind": "concealed", "tile": "5s"}],
            HUAZHU_DRAW,
            {"0": {"declared": "huazhu"},
             "1": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 0}},
             "2": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 1}},
             "3": {"declared": "not_ready"}},
            [-3, 2, 4, -3], id="tfmj2024-huazhu-not-ready",
        ),
    ],
)  # fmt: skip
def test_a_declared_draw_pays_what_its_shown_twin_pays(preset, events, shown, declarations, totals):
    """RULES §6: a declared player at the draw — ``{"declared": "ready", "wait": …}`` with the
    wait 查叫 uses (the best under 赔大), ``not_ready``, ``huazhu`` — settles as the same hands
    shown. ``roots`` counts every four of the whole hand as tiles would, the player's own kongs
    included; the preset's rule (here ``chajiao_kongs: false``) is then applied as for tiles."""
    d = settle(record(preset, events, draw=_declared_draw(shown, declarations))).as_dict()
    s = settle(record(preset, events, draw=shown)).as_dict()
    assert d["totals"]["seats"] == s["totals"]["seats"] == totals
    assert flows(d) == flows(s)
    assert d["payments"] == s["payments"]
    assert d["verified"] is False


def test_a_declared_wait_must_count_the_players_own_kong():
    """RULES §6: ``roots`` includes the player's own kongs, under ``chajiao_kongs: false`` too:
    S1 made a 暗杠 (E0) and is declared ready on 平胡 with 0 roots: refused (the engine's
    ``roots_below_kongs``), at the wait's roots."""
    draw = {
        "hands": {
            "0": {"declared": "not_ready"},
            "1": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 0}},
            "2": {"declared": "not_ready"},
            "3": {"declared": "not_ready"},
        }
    }
    rec = record("sbr", KONG_9P, draw=draw)
    assert ("roots_below_kongs", "draw.hands.1.wait.roots") in refusal(lambda: settle(rec))
