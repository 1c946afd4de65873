"""``clubs.selectors.hand_tiles``: what a hand's page draws, read from the stored record and
settlement (no query, nothing re-settled).

The hand below (qq, 血战, base 1), worked by hand (RULES §3.1: value 2^(fan − 1)):

- S1 暗杠 9s: each of S0, S2, S3 pays S1 2.
- S1 wins on S2's discard 5s with 11s 234s 678s 55s + the kong 9999s: 11 + 234 + 678 + 555 +
  9999, one suit, 清一色 3 fan + 1 根 (the kong) = 4 fan → 8: S2 pays S1 8.
- S0 self-draws, declared 清一色 with 1 根 (RULES §6: no tiles): 8 from S2 and from S3.
- The wall runs out with S2 and S3 still in: S2 declared 花猪 pays S3 16 (qq's 花猪, RULES
  §3.5); S3 declared ready on 对对胡 with no root (2 fan → 2, his 查叫 value).
"""

from __future__ import annotations

import pytest

from clubs.models import Hand
from clubs.selectors import DeclaredHand, MeldTiles, WaitTile, hand_tiles
from core.names import Name
from scoring.engine.settle.replay import settle
from tests.scoring.engine.records import DRAWN

RECORD = {
    "dealer": 0,
    "events": [
        {"type": "kong", "seat": 1, "kind": "concealed", "tile": "9s"},
        {"type": "win", "from": 2, "tile": "5s", "situation": [],
         "winners": [{"seat": 1, "concealed": "11s234s678s55s",
                      "melds": [{"kind": "kong", "tile": "9s", "concealed": True}]}]},
        {"type": "win", "from": None, "situation": [],
         "winners": [{"seat": 0, "declared": {"pattern": "qingyise", "roots": 1,
                                              "extras": []}}]},
    ],
    "draw": {"hands": {"2": {"declared": "huazhu"},
                       "3": {"declared": "ready", "wait": {"pattern": "duiduihu", "roots": 0}}}},
}  # fmt: skip


def stored(record: dict, ruleset: str = "qq") -> Hand:
    """A hand as the table stores it: the record, and its settlement as JSON."""
    settlement = settle({**record, "ruleset": ruleset, "base": 1}).as_dict()
    return Hand(number=1, record=record, settlement=settlement)


@pytest.fixture
def tiles():
    return hand_tiles(stored(RECORD), "qq")


def test_the_settlement_is_the_one_worked_by_hand(tiles):
    hand = stored(RECORD)
    assert hand.settlement["totals"]["seats"] == [16 - 2, 6 + 8, -2 - 8 - 8 - 16, -2 - 8 + 16]


def test_a_shown_winner_has_his_tiles_his_kong_and_the_winning_tile_apart(tiles):
    s1 = tiles.winners[0]
    assert (s1.event, s1.seat, s1.from_) == (1, 1, 2)
    assert s1.concealed == ("1s", "1s", "2s", "3s", "4s", "5s", "5s", "6s", "7s", "8s")
    assert s1.melds == (MeldTiles("kong", "9s", True),)
    assert s1.melds[0].tiles == ("9s",) * 4 and s1.melds[0].size == 4
    assert s1.tile == "5s"
    assert s1.declared is None and s1.verified
    assert (s1.pattern, s1.pattern_name, s1.roots, s1.amount) == (
        "qingyise",
        Name("清一色", "Pure one suit"),
        1,
        8,
    )
    assert [line.code for line in s1.win.valuation.lines] == ["qingyise", "gen"]
    # 14 tiles in all: 10 in hand, the kong (4, counting 3 in the shape), the winning tile
    assert len(s1.concealed) + 3 * len(s1.melds) + 1 == 14


def test_a_declared_winner_has_no_tiles_and_says_what_was_declared(tiles):
    s0 = tiles.winners[1]
    assert (s0.seat, s0.from_, s0.tile) == (0, None, None)
    assert s0.concealed == () and s0.melds == ()
    assert s0.declared == DeclaredHand("qingyise", Name("清一色", "Pure one suit"), 1, ())
    assert s0.verified is False and s0.amount == 8


def test_the_draw_keeps_each_declaration(tiles):
    assert tiles.drawn and tiles.verified is False
    s2, s3 = tiles.draw
    assert (s2.seat, s2.declared, s2.huazhu, s2.ready) == (2, "huazhu", True, False)
    assert s2.declared_name.zh == "花猪" and s2.wait is None and s2.concealed == ()
    assert s2.chajiao_value is None and s2.verified is False
    assert (s3.seat, s3.declared, s3.huazhu, s3.ready) == (3, "ready", False, True)
    assert s3.wait == DeclaredHand("duiduihu", Name("对对胡", "All pungs"), 0, ())
    assert s3.chajiao_value == 2 and s3.waits == ()


def test_a_shown_hand_at_the_draw_has_its_tiles_and_its_waits():
    """DRAWN: S0 shows 234m 567m 22p 678p 34p, ready on 2p and 5p (the four 5p are out: S2's
    added kong); S2 shows 111s 234s 678s 9s with the kong 5p; S3 is not ready."""
    tiles = hand_tiles(stored(DRAWN), "qq")
    s0, s2, s3 = tiles.draw
    assert s0.concealed == ("2m", "3m", "4m", "5m", "6m", "7m", "2p", "2p", "3p", "4p",
                            "6p", "7p", "8p")  # fmt: skip
    assert s0.declared is None and s0.ready and not s0.huazhu
    assert s0.waits == (WaitTile("2p", False), WaitTile("5p", True))
    assert s2.melds == (MeldTiles("kong", "5p", False),) and len(s2.concealed) == 10
    assert s3.ready is False and s3.waits == () and s3.chajiao_value is None
    assert tiles.verified


def test_chinese_notation_and_the_presets_own_names():
    """A record typed in 汉字 draws the same tiles; chengdu calls 对对胡 大对子."""
    record = {
        "dealer": 0,
        "events": [{"type": "win", "from": 2, "tile": "4筒", "situation": [],
                    "winners": [{"seat": 1, "concealed": "123万456万789万11筒23筒"}]}],
    }  # fmt: skip
    tiles = hand_tiles(stored(record), "qq")
    assert tiles.winners[0].concealed[:3] == ("1m", "2m", "3m")
    assert tiles.winners[0].tile == "4p" and not tiles.drawn and tiles.draw == ()
    record = {**RECORD, "events": RECORD["events"][:2]}
    record["draw"] = {"hands": {
        "0": {"declared": "not_ready"}, "2": {"declared": "huazhu"},
        "3": {"declared": "ready", "wait": {"pattern": "duiduihu", "roots": 0}},
    }}  # fmt: skip
    tiles = hand_tiles(stored(record, "chengdu"), "chengdu")
    assert tiles.draw[-1].wait.name == Name("大对子", "All pungs")
