"""A declared win recorded without its winning tile (RULES §6; ``declared.py``, "The winning
tile"): a win event whose winners are all declared may leave ``tile`` out, and is valued and
paid exactly as with it; a shown winner still needs it; 抢杠 takes the robbed added kong's
tile, or asks for one; 绝张 and 海底 are flags and work without it; the tile-copy check counts
only the tiles that were recorded.

Worked by hand from the preset tables of RULES §3. Base 1, dealer S0, seats S0–S3.
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError
from scoring.engine.settle import settle

from ..builders import kong, winner
from .hands import PINGHU


def declared(seat: int, pattern: str, roots: int = 0, extras=()) -> dict:
    return {"seat": seat, "declared": {"pattern": pattern, "roots": roots, "extras": list(extras)}}


def win(*winners, frm=None, situation=(), **tile) -> dict:
    """A win event; ``tile="4p"`` to give the winning tile, nothing to leave it out."""
    return {"type": "win", "from": frm, "situation": list(situation), "winners": list(winners),
            **tile}  # fmt: skip


def record(preset, events, mode="single", **extra) -> dict:
    return {"ruleset": preset, "mode": mode, "dealer": 0, "events": events, **extra}


def refusals(rec) -> list[tuple[str, str]]:
    with pytest.raises(EngineError) as info:
        settle(rec)
    return [(p.code, p.path) for p in info.value.problems]


@pytest.mark.parametrize(
    ("preset", "each"),
    [
        # qq: 清一色 3 fan + 1 根 = 4 fan → 2^(4−1) = 8 from each of the three others
        ("qq", 8),
        # chengdu: 清一色 ×4, 根 ×2 = 8 (满格 8), 自摸加底 +1 after the cap = 9
        ("chengdu", 9),
        # additive: 清一色 3 points + 1 根 = 4 points; no self-draw bonus
        ("additive", 4),
        # xuezhan9: 清一色 3 fan + 根 1 + 自摸 1 = 5 fan → 2^5 = 32
        ("xuezhan9", 32),
    ],
)
def test_s1_self_draws_a_declared_qingyise_with_a_root_without_the_tile(preset, each):
    """The scorer's "S1 自摸 清一色 1根": no winning tile; the same as with one."""
    without = settle(record(preset, [win(declared(1, "qingyise", 1))])).as_dict()
    with_tile = settle(record(preset, [win(declared(1, "qingyise", 1), tile="9m")])).as_dict()
    assert without["totals"]["seats"] == [-each, 3 * each, -each, -each]
    assert without["payments"] == with_tile["payments"]
    assert without["wins"][0]["tile"] is None
    assert with_tile["wins"][0]["tile"] == "9m"
    assert (without["verified"], without["wins"][0]["verified"]) == (False, False)


def test_a_null_tile_is_the_same_as_none():
    rec = record("qq", [win(declared(1, "qingyise", 1), tile=None)])
    assert settle(rec).as_dict()["totals"]["seats"] == [-8, 24, -8, -8]


def test_two_declared_winners_on_one_discard_without_the_tile():
    """qq 血战, 一炮多响 on S0's discard: S1 清一色 3 fan → 2^2 = 4, S2 对对胡 2 fan → 2.
    S0 pays 4 + 2 = 6. The hand goes on (two winners): no draw, nothing else paid."""
    rec = record(
        "qq", [win(declared(1, "qingyise"), declared(2, "duiduihu"), frm=0)], mode="xuezhan"
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-6, 4, 2, 0]
    assert [w["tile"] for w in d["wins"]] == [None, None]


def test_a_shown_winner_still_needs_the_tile():
    rec = record("qq", [win({"seat": 1, "concealed": PINGHU}, frm=2)])
    assert refusals(rec) == [("winning_tile_missing", "events[0].tile")]


def test_a_shown_winner_beside_a_declared_one_needs_the_tile():
    """一炮多响: S1 declared, S2 shown on S0's discard; the shown hand is valued with the
    tile, so the event needs it."""
    rec = record(
        "qq",
        [win(declared(1, "qingyise"), {"seat": 2, "concealed": PINGHU}, frm=0)],
        mode="xuezhan",
    )
    assert refusals(rec) == [("winning_tile_missing", "events[0].tile")]
    rec["events"][0]["tile"] = "4p"  # 123m 456m 789m 11p 234p: 平胡 1; 清一色 4: S0 pays 5
    assert settle(rec).as_dict()["totals"]["seats"] == [-5, 4, 1, 0]


def test_robbing_kong_without_the_tile_robs_the_added_kong_right_before():
    """xuezhan9 (杠钱归胡家). E0 S2 弯杠 4p; E1 S1 robs it, declared 平胡, no tile: the robbed
    tile is the added kong's, 4p, and that kong is cancelled (pays nothing).
    平胡 0 fan + 抢杠胡 1 = 1 fan → 2: S2 → S1 2. The kong money: what the added kong would have
    collected from each other player still in (S0, S1, S3): 3 × 1 = 3, S2 → S1.
    Totals [0, 5, −5, 0], as the shown twin with the tile 4p."""
    events = [kong(2, "added", "4p"), win(declared(1, "pinghu"), frm=2, situation=["robbing_kong"])]
    d = settle(record("xuezhan9", events)).as_dict()
    assert d["totals"]["seats"] == [0, 5, -5, 0]
    assert sorted((p["payer"], p["payee"], p["amount"], p["reason"]) for p in d["payments"]) == [
        ("S2", "S1", 2, "win"),
        ("S2", "S1", 3, "kong_to_winner"),
    ]
    shown = [kong(2, "added", "4p"), winner(1, PINGHU)]
    twin = [shown[0], {**win(shown[1], frm=2, situation=["robbing_kong"]), "tile": "4p"}]
    assert settle(record("xuezhan9", twin)).as_dict()["payments"] == d["payments"]


def test_robbing_kong_without_the_tile_or_the_kong_asks_for_the_tile():
    """Without the tile and without the added kong right before, nothing says which kong was
    robbed (and so which one is cancelled, or impossible): refused, asking for either."""
    rec = record("xuezhan9", [win(declared(1, "pinghu"), frm=2, situation=["robbing_kong"])])
    assert refusals(rec) == [("robbing_kong_tile_missing", "events[0].tile")]
    rec["events"][0]["tile"] = "4p"  # with the tile, as before: 1 fan → 2, and the kong money
    assert settle(rec).as_dict()["totals"]["seats"] == [0, 5, -5, 0]


def test_robbing_kong_without_the_tile_still_refuses_a_concealed_kong_of_the_robbed_tile():
    """E0 S2 暗杠 4p, E1 S2 弯杠 4p, E2 S1 robs: the robbed tile is 4p (the added kong's), and
    S2's concealed kong of 4p already held all four copies."""
    events = [
        kong(2, "concealed", "4p"),
        kong(2, "added", "4p"),
        win(declared(1, "pinghu"), frm=2, situation=["robbing_kong"]),
    ]
    assert ("robbing_kong_mismatch", "events[2].situation") in refusals(record("qq", events))


def test_juezhang_is_a_flag_and_needs_no_tile():
    """chengdu with 绝张 on: S1 declared 平胡 on S0's discard, 绝张 (last_copy): 平胡 ×1, 绝张
    ×2 → 2. S0 pays 2."""
    rec = record(
        {"preset": "chengdu", "options": {"juezhang": True}},
        [win(declared(1, "pinghu"), frm=0, situation=["last_copy"])],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-2, 2, 0, 0]
    assert "juezhang" in [line["code"] for line in d["wins"][0]["lines"]]


def test_the_copy_check_counts_only_recorded_tiles():
    """qq 血战: S3 暗杠 9m (four copies, his hand unshown), then S1 declared 清一色 self-drawn.
    With the tile 9m that is a fifth 9m (refused); without it there is no tile to count.
    Without: S3's kong 2 from each of S0, S1, S2 (+6); S1 清一色 3 fan → 4 from each of S0, S2,
    S3 (+12). S0 −2 −4 = −6, S1 −2 + 12 = +10, S2 −6, S3 +6 − 4 = +2."""
    events = [kong(3, "concealed", "9m"), win(declared(1, "qingyise"))]
    assert settle(record("qq", events, mode="xuezhan")).as_dict()["totals"]["seats"] == [
        -6,
        10,
        -6,
        2,
    ]
    events[1]["tile"] = "9m"
    assert refusals(record("qq", events, mode="xuezhan")) == [("too_many_copies", "events[1].tile")]
