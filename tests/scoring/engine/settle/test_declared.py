"""Declared hands (RULES §6), worked by hand from the preset tables of RULES §3, one declared
win, one declared draw and one declared twin of a shown hand per preset; then every refusal.

Base 1 throughout; seats S0–S3, dealer S0.
"""

from __future__ import annotations

import copy

import pytest

from scoring.engine import EngineError
from scoring.engine.settle import settle


def win(winner: dict, *, frm: int | None = None, tile: str = "9m", situation=()) -> dict:
    return {
        "type": "win",
        "from": frm,
        "tile": tile,
        "situation": list(situation),
        "winners": [winner],
    }


def totals(record: dict) -> list[int]:
    return settle(record).as_dict()["totals"]["seats"]


# --- a declared win per preset: S1 自摸 清一色 with one root ------------------------------

SELF_DRAWN_QINGYISE = {"seat": 1, "declared": {"pattern": "qingyise", "roots": 1}}
#: the same hand shown: 111m 123m 456m 789m 99m, the fourth 1m a root, self-drawn on 9m
SHOWN_QINGYISE = {"seat": 1, "concealed": "1111234567899m"}


@pytest.mark.parametrize(
    ("preset", "each"),
    [
        # qq: 清一色 3 fan + 1 根 = 4 fan → 2^(4−1) = 8 from each of the three others
        ("qq", 8),
        # chengdu: 清一色 ×4, 根 ×2 = 8 (满格 8, not over it), 自摸加底 +1 after the cap = 9
        ("chengdu", 9),
        # additive: 清一色 3 points + 1 根 = 4 points; no self-draw bonus
        ("additive", 4),
        # xuezhan9: 清一色 3 fan + 根 1 + 自摸 1 = 5 fan → 2^5 = 32 (cap 9 fan not reached)
        ("xuezhan9", 32),
    ],
)
def test_a_declared_self_draw_and_its_shown_twin(preset, each):
    declared = {"ruleset": preset, "mode": "single", "events": [win(SELF_DRAWN_QINGYISE)]}
    shown = {"ruleset": preset, "mode": "single", "events": [win(SHOWN_QINGYISE)]}
    assert totals(declared) == [-each, 3 * each, -each, -each]
    d, s = settle(declared).as_dict(), settle(shown).as_dict()
    assert d["payments"] == s["payments"]
    assert (d["wins"][0]["pattern"], d["wins"][0]["roots"]) == ("qingyise", 1)
    assert (d["verified"], d["wins"][0]["verified"]) == (False, False)
    assert (s["verified"], s["wins"][0]["verified"]) == (True, True)


# --- a declared draw per preset -----------------------------------------------------------
# S1 对对胡 on S2's discard; the wall runs out: S0 declared ready waiting on 清一色 (no root),
# S2 declared not ready, S3 declared 花猪.

DRAW_RECORD = {
    "dealer": 0,
    "events": [win({"seat": 1, "declared": {"pattern": "duiduihu"}}, frm=2)],
    "draw": {
        "hands": {
            "0": {"declared": "ready", "wait": {"pattern": "qingyise", "roots": 0}},
            "2": {"declared": "not_ready"},
            "3": {"declared": "huazhu"},
        }
    },
}


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # qq: the win 对对胡 2 fan → 2 (S2 pays S1). 查花猪: S3 pays 16 to S0 and to S2.
        # 查叫: S2 (not ready, not 花猪) pays S0 his wait, 清一色 3 fan → 4.
        # S0 +16 +4 = 20; S1 +2; S2 −2 +16 −4 = 10; S3 −32
        ("qq", [20, 2, 10, -32]),
        # chengdu: 大对子 ×2 → 2. 花猪 pays 满格 8 to S0 and S2. 查叫 清一色 ×4 → 4.
        # S0 8 + 4 = 12; S1 2; S2 −2 + 8 − 4 = 2; S3 −16
        ("chengdu", [12, 2, 2, -16]),
        # additive: 对对胡 2 points. 花猪 16 to S0 and S2. 查叫 (赔小: the declared wait is the
        # one 查叫 uses) 清一色 3. S0 19; S1 2; S2 −2 + 16 − 3 = 11; S3 −32
        ("additive", [19, 2, 11, -32]),
        # xuezhan9: 大对子 2 fan → 4. 花猪 pays a ready player his 查叫 with one more fan:
        # S0 清一色 3 + 1 = 4 fan → 16; nothing to S2, not ready. 查叫: S2 pays S0 2^3 = 8.
        # S0 16 + 8 = 24; S1 4; S2 −4 − 8 = −12; S3 −16
        ("xuezhan9", [24, 4, -12, -16]),
    ],
)
def test_a_declared_draw(preset, expected):
    record = {"ruleset": preset, **DRAW_RECORD}
    assert totals(record) == expected
    d = settle(record).as_dict()
    assert [(s["seat"], s["huazhu"], s["ready"], s["verified"]) for s in d["draw"]] == [
        (0, False, True, False),
        (2, False, False, False),
        (3, True, False, False),
    ]
    assert d["verified"] is False


def test_a_declared_draw_equals_its_shown_twin():
    """qq: S0 shows 九莲 1112345678999m, S2 a hand that is not ready, S3 three suits; the
    same draw declared as what they show pays the same."""
    shown = {
        "ruleset": "qq",
        "dealer": 0,
        "events": [win({"seat": 1, "concealed": "111p222p333s444s5s"}, frm=2, tile="5s")],
        "draw": {
            "hands": {
                # 1112345678999m: 九莲 waits on every 1–9m; the best is 清一色 with a root
                # (1m or 9m makes a four): 3 + 1 = 4 fan → 8 (查大叫)
                "0": {"concealed": "1112345678999m"},
                "2": {"concealed": "1357m2468m13799p"},
                "3": {"concealed": "234m456p789s1122s"},
            }
        },
    }
    declared = copy.deepcopy(shown)
    declared["draw"]["hands"] = {
        "0": {"declared": "ready", "wait": {"pattern": "qingyise", "roots": 1}},
        "2": {"declared": "not_ready"},
        "3": {"declared": "huazhu"},
    }
    # S1 对对胡 (111p 222p 333s 444s 55s) 2 fan → 2 from S2; 花猪 S3 pays 16 to S0 and to S2;
    # 查叫 S2 pays S0 8. S0 16 + 8 = 24; S1 2; S2 −2 + 16 − 8 = 6; S3 −32
    assert totals(shown) == totals(declared) == [24, 2, 6, -32]
    assert settle(shown).as_dict()["payments"] == settle(declared).as_dict()["payments"]


def test_roots_count_the_winners_own_kong_and_kong_flower_is_checked_against_the_events():
    # qq: S1 暗杠 5s (2 from each), then 杠上花: 清一色 3 + 1 根 (the kong) + 杠上花 1 = 5 fan
    # → 16 from each. S1: 6 + 48 = 54
    record = {
        "ruleset": "qq",
        "events": [
            {"type": "kong", "seat": 1, "kind": "concealed", "tile": "5s"},
            win(
                {"seat": 1, "declared": {"pattern": "qingyise", "roots": 1}},
                tile="9s",
                situation=["kong_flower"],
            ),
        ],
        "mode": "single",
    }
    assert totals(record) == [-18, 54, -18, -18]
    # the tile-copy check counts the kong's four 5s, recorded as the event
    lines = settle(record).as_dict()["wins"][0]["lines"]
    assert [line["code"] for line in lines] == ["qingyise", "gen", "gangshanghua"]


def test_jingoudiao_in_xuezhan9_with_its_four_melds():
    # xuezhan9: S1 大对子 2 + 金钩钓 (全求人) 1 = 3 fan on S2's discard → 8
    melds = [{"kind": "pung", "tile": t} for t in ("1m", "2m", "3p", "4p")]
    winner = {"seat": 1, "declared": {"pattern": "duiduihu", "extras": ["jingoudiao"]}}
    record = {
        "ruleset": "xuezhan9",
        "mode": "single",
        "events": [win({**winner, "melds": melds}, frm=2, tile="5p")],
    }
    assert totals(record) == [0, 8, -8, 0]
    shown = copy.deepcopy(record)
    shown["events"][0]["winners"][0] = {"seat": 1, "concealed": "5p", "melds": melds}
    assert totals(shown) == [0, 8, -8, 0]


# --- refusals -------------------------------------------------------------------------------


def refused(record: dict) -> set[tuple[str, str]]:
    with pytest.raises(EngineError) as e:
        settle(record)
    return {(p.path, p.code) for p in e.value.problems}


def one_win(preset, winner, **kw) -> dict:
    return {"ruleset": preset, "mode": "single", "events": [win(winner, **kw)]}


W = "events[0].winners[0]"


@pytest.mark.parametrize(
    ("preset", "declared", "kw", "expected"),
    [
        ("qq", "qingyise", {}, (f"{W}.declared", "invalid_declaration")),
        ("qq", {"pattern": 3}, {}, (f"{W}.declared.pattern", "invalid_declaration")),
        ("qq", {"pattern": "shisanyao"}, {}, (f"{W}.declared.pattern", "unknown_pattern")),
        ("qq", {"pattern": "pinghu", "roots": 5}, {}, (f"{W}.declared.roots", "invalid_roots")),
        ("qq", {"pattern": "pinghu", "roots": True}, {}, (f"{W}.declared.roots", "invalid_roots")),
        ("qq", {"pattern": "pinghu", "extras": "x"}, {},
         (f"{W}.declared.extras", "invalid_extras")),
        ("qq", {"pattern": "pinghu", "extras": ["gen"]}, {},
         (f"{W}.declared.extras[0]", "unknown_extra")),
        ("xuezhan9", {"pattern": "pinghu", "extras": ["jingoudiao", "jingoudiao"]}, {},
         (f"{W}.declared.extras[1]", "duplicate_extra")),
        ("qq", {"pattern": "pinghu", "root": 1}, {}, (f"{W}.declared.root", "unknown_field")),
        # qq has no 金钩钓; chengdu's 带幺 is off by default; in xuezhan9 金钩钓 is an extra
        ("qq", {"pattern": "jingoudiao"}, {}, (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
        ("chengdu", {"pattern": "daiyaojiu"}, {},
         (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
        ("xuezhan9", {"pattern": "jingoudiao"}, {},
         (f"{W}.declared.pattern", "pattern_not_in_ruleset")),
        # where a 龙七对 row exists, 七对 with a four is declared longqidui
        ("qq", {"pattern": "qidui", "roots": 1}, {},
         (f"{W}.declared.roots", "seven_pairs_with_roots")),
        ("additive", {"pattern": "qingqidui", "roots": 2}, {},
         (f"{W}.declared.roots", "seven_pairs_with_roots")),
        ("chengdu", {"pattern": "longqidui", "roots": 0}, {},
         (f"{W}.declared.roots", "long_seven_pairs_without_root")),
        ("qq", {"pattern": "longqidui", "roots": 4}, {},
         (f"{W}.declared.roots", "roots_out_of_range")),
        ("qq", {"pattern": "pinghu", "extras": ["jingoudiao"]}, {},
         (f"{W}.declared.extras[0]", "extra_not_in_ruleset")),
        ("qq", {"pattern": "tianhu"}, {}, (f"{W}.declared.pattern", "pattern_needs_situation")),
        ("xuezhan9", {"pattern": "duiduihu", "extras": ["jingoudiao"]}, {},
         (f"{W}.declared.extras", "jingoudiao_without_melds")),
        # 七对 with a kong (of its own, from the events)
        ("xuezhan9", {"pattern": "qidui"}, {"kong": True},
         (f"{W}.declared.pattern", "seven_pairs_with_melds")),
        ("qq", {"pattern": "qingyise", "roots": 0}, {"kong": True},
         (f"{W}.declared.roots", "roots_below_kongs")),
        # xuezhan9 with 带幺九 on: an extra; 七对 is never 带幺九
        ({"preset": "xuezhan9", "options": {"daiyaojiu": True}},
         {"pattern": "qidui", "extras": ["daiyaojiu"]}, {},
         (f"{W}.declared.extras", "extra_impossible")),
    ],
)  # fmt: skip
def test_a_declaration_the_ruleset_cannot_produce_is_refused(preset, declared, kw, expected):
    events = []
    tile = "9m"
    if kw.get("kong"):
        events.append({"type": "kong", "seat": 1, "kind": "concealed", "tile": "5m"})
        tile = "9m"
    record = one_win(preset, {"seat": 1, "declared": declared}, tile=tile)
    if events:
        record["events"] = [*events, {**record["events"][0]}]
        expected = (expected[0].replace("events[0]", "events[1]"), expected[1])
    assert expected in refused(record)


PUNGS = [{"kind": "pung", "tile": t} for t in ("1m", "2m", "3p", "4p")]


@pytest.mark.parametrize(
    ("preset", "winner", "expected"),
    [
        # both the tiles and a declaration
        ("qq", {"concealed": "1112345678999m", "declared": {"pattern": "qingyise"}},
         (f"{W}.concealed", "declared_and_shown")),
        # four melds make it all triplets: tiles would be 对对胡, not 平胡
        ("qq", {"declared": {"pattern": "pinghu"}, "melds": PUNGS},
         (f"{W}.declared.pattern", "pattern_mismatch")),
        # four melds listed in xuezhan9 are 金钩钓: it must be declared
        ("xuezhan9", {"declared": {"pattern": "duiduihu"}, "melds": PUNGS},
         (f"{W}.declared.extras", "extra_missing")),
        ("qq", {"declared": {"pattern": "qingyise"}, "melds": PUNGS[1:3]},
         (f"{W}.declared.pattern", "declaration_conflict")),
        ("qq", {"declared": {"pattern": "pinghu"},
                "melds": [{"kind": "pung", "tile": t} for t in ("1m", "3p", "5s")]},
         (f"{W}.declared.pattern", "three_suits")),
        ("qq", {"declared": {"pattern": "qidui"}, "melds": PUNGS[:1]},
         (f"{W}.declared.pattern", "seven_pairs_with_melds")),
        ("chengdu", {"declared": {"pattern": "dihu"}, "melds": PUNGS[:1]},
         (f"{W}.declared.pattern", "pattern_with_melds")),
        # a kong in his melds without its event, as for a shown winner
        ("qq", {"declared": {"pattern": "duiduihu", "roots": 1},
                "melds": [{"kind": "kong", "tile": "1m"}]},
         (f"{W}.melds", "meld_kong_without_event")),
    ],
)  # fmt: skip
def test_what_the_melds_contradict_is_refused(preset, winner, expected):
    assert expected in refused(one_win(preset, {"seat": 1, **winner}, frm=2))


def test_a_declared_void_suit_in_the_melds_is_refused():
    record = one_win("qq", {"seat": 1, "declared": {"pattern": "pinghu"}, "melds": PUNGS[:1]})
    record["declared_void"] = [None, "m", None, None]
    assert (f"{W}.declared.pattern", "declared_void_suit") in refused(record)


def test_situation_flags_are_checked_against_the_events():
    # 杠上花 with no kong of the winner just before; 天胡 by a non-dealer; 杠上炮 self-drawn
    kong_flower = one_win(
        "qq", {"seat": 1, "declared": {"pattern": "pinghu"}}, situation=["kong_flower"]
    )
    assert ("events[0].situation", "kong_flower_without_kong") in refused(kong_flower)
    heavenly = one_win("qq", {"seat": 1, "declared": {"pattern": "tianhu"}}, situation=["heavenly"])
    assert ("events[0].situation", "heavenly_impossible") in refused(heavenly)
    discard = one_win(
        "qq", {"seat": 1, "declared": {"pattern": "pinghu"}}, situation=["kong_discard"]
    )
    assert ("events[0].situation", "kong_discard_self_draw") in refused(discard)
    # ordinary refusals still apply: the discarder is the winner
    own = one_win("qq", {"seat": 1, "declared": {"pattern": "pinghu"}}, frm=1)
    assert ("events[0].from", "discarder_is_winner") in refused(own)


def test_a_declared_tianhu_by_the_dealer_is_worth_its_row():
    # qq 天胡 6 fan → 32 from each of three
    record = one_win("qq", {"seat": 0, "declared": {"pattern": "tianhu"}}, situation=["heavenly"])
    assert totals(record) == [96, -32, -32, -32]


def test_the_copy_check_counts_what_was_recorded():
    # a declared winner listing a pung of 9m, winning on a fifth 9m? the pung (3) + the
    # winning tile (1) + the bettor's 9m (1) is five copies
    record = one_win(
        "qq",
        {"seat": 1, "declared": {"pattern": "duiduihu"}, "melds": [PUNGS[0] | {"tile": "9m"}]},
        frm=2,
    )
    record["bettors"] = [{"name": "老王", "tile": "9m"}]
    assert ("bettors[0].tile", "too_many_copies") in refused(record)
    del record["bettors"]
    assert totals(record) == [0, 2, -2, 0]  # qq 对对胡 2 fan → 2


D = "draw.hands"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ({"declared": "ready"}, (f"{D}.0", "wait_missing")),
        ({"declared": "tenpai"}, (f"{D}.0.declared", "invalid_draw_declaration")),
        ({"declared": "huazhu", "wait": {"pattern": "pinghu"}}, (f"{D}.0.wait", "unexpected_wait")),
        ({"concealed": "1112345678999m", "wait": {"pattern": "pinghu"}},
         (f"{D}.0.wait", "unexpected_wait")),
        ({"declared": "not_ready", "concealed": "1112345678999m"},
         (f"{D}.0.concealed", "declared_and_shown")),
        ({"declared": "ready", "wait": {"pattern": "tianhu"}},
         (f"{D}.0.wait.pattern", "invalid_wait_pattern")),
        ({"declared": "ready", "wait": {"pattern": "qidui", "roots": 1}},
         (f"{D}.0.wait.roots", "seven_pairs_with_roots")),
        ({"declared": "ready", "wait": {"pattern": "nope"}},
         (f"{D}.0.wait.pattern", "unknown_pattern")),
        ({"declared": "ready", "wait": {"pattern": "pinghu", "extra": []}},
         (f"{D}.0.wait.extra", "unknown_field")),
    ],
)  # fmt: skip
def test_a_draw_declaration_the_ruleset_cannot_produce_is_refused(hand, expected):
    record = {
        "ruleset": "qq",
        "events": [],
        "draw": {
            "hands": {
                "0": hand,
                "1": {"declared": "not_ready"},
                "2": {"declared": "not_ready"},
                "3": {"declared": "not_ready"},
            }
        },
    }
    assert expected in refused(record)


def test_a_ready_player_counts_his_own_kong_among_the_roots_of_his_wait():
    # S2 暗杠 5p (qq: 2 from each); at the draw S2 declared ready on 对对胡 with the kong's
    # root: 2 + 1 = 3 fan → 4 from each of S0, S1, S3, not ready (they keep their kongs' money:
    # none). Declaring his wait without the root is refused.
    record = {
        "ruleset": "qq",
        "events": [{"type": "kong", "seat": 2, "kind": "concealed", "tile": "5p"}],
        "draw": {
            "hands": {
                "0": {"declared": "not_ready"},
                "1": {"declared": "not_ready"},
                "2": {"declared": "ready", "wait": {"pattern": "duiduihu", "roots": 1}},
                "3": {"declared": "not_ready"},
            }
        },
    }
    # S2: +6 (kong) + 3 × 4 (查叫) = 18; the others −2 − 4 = −6
    assert totals(record) == [-6, -6, 18, -6]
    record["draw"]["hands"]["2"]["wait"]["roots"] = 0
    assert (f"{D}.2.wait.roots", "roots_below_kongs") in refused(record)
