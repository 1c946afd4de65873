"""The engine's bounds (``scoring/engine/bounds.py``): RULES §5 "amounts out of range" — base
1–10,000; at most 8 bettors and 64 events — and the engine's own where RULES is silent (tile
strings of at most 512 characters …). Each is refused with a stable code and a path; at the
bounds themselves, everything settles.
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, parse_tiles
from scoring.engine.settle import settle

from .builders import hand, kong, win, winner
from .settle.hands import FOUR_HANDS, PINGHU

OK_WIN = win("4p", winner(1, PINGHU), frm=2)  # S1 平胡 on S2's 4p


def record(events=(OK_WIN,), ruleset="qq", **kw):
    rec = {"ruleset": ruleset, "base": 1, "dealer": 0, "events": list(events)}
    rec.update(kw)
    return rec


def problems_of(fn, *args):
    with pytest.raises(EngineError) as info:
        fn(*args)
    return [(p.code, p.path) for p in info.value.problems]


# --- base 1–10,000 -----------------------------------------------------------------------------


def test_base_10000_is_the_highest():
    """qq 平胡 on a discard, 1 fan → value 1; at base 10,000 S2 pays S1 10,000."""
    d = settle(record(base=10_000)).as_dict()
    assert d["totals"]["seats"] == [0, 10_000, -10_000, 0]


@pytest.mark.parametrize("base", [10_001, 2_000_000_000, 10**5000], ids=["10001", "2e9", "1e5000"])
def test_base_above_10000_is_refused(base):
    assert problems_of(settle, record(base=base)) == [("base_out_of_range", "base")]


# --- bettors, events, winners, melds, situation flags, tile strings, names -------------------


def _bettors(n):
    # tiles 1s–9s and 1p–9p: no tile more than twice among the bettors, none in S1's hand
    return [{"name": f"bettor {i}", "tile": f"{i % 9 + 1}{'sp'[i // 9]}"} for i in range(n)]


def test_eight_bettors_are_the_most():
    d = settle(record(bettors=_bettors(8))).as_dict()
    assert len(d["bettors"]) == 8
    assert problems_of(settle, record(bettors=_bettors(9))) == [("too_many_bettors", "bettors")]


def test_more_than_64_events_are_refused_unread():
    """65 events: refused as a whole (``too_many_events``), none of them read (their own
    problems, such as 65 kongs of one tile, are not reported)."""
    events = [kong(1, "concealed", "9s")] * 65
    assert problems_of(settle, record(events)) == [("too_many_events", "events")]
    codes = {code for code, _ in problems_of(settle, record(events[:64]))}
    assert "too_many_events" not in codes


def test_a_win_lists_at_most_three_winners():
    four = win("4p", *[winner(s, PINGHU) for s in range(4)], frm=2)
    assert ("invalid_winners", "events[0].winners") in problems_of(settle, record([four]))


def test_a_situation_lists_at_most_every_flag_once():
    flags = ["last_tile"] * 8
    rec = record([win("4p", winner(1, PINGHU), frm=2, situation=flags)])
    assert problems_of(settle, rec) == [("invalid_situation", "events[0].situation")]


def test_a_tile_string_is_at_most_512_characters():
    """512 characters are read (one tile padded with spaces); 513 are refused unread, as is the
    2.6 MB string of issue 11."""
    assert parse_tiles("1m" + " " * 510) == (0,)
    for text in ("1m" + " " * 511, "1m" * 1_300_000):
        assert problems_of(parse_tiles, text, "concealed") == [("notation_too_long", "concealed")]
    rec = record([win("4p", winner(1, PINGHU + " " * 500), frm=2)])
    assert problems_of(settle, rec) == [("notation_too_long", "events[0].winners[0].concealed")]


def test_a_bettor_name_is_at_most_80_characters():
    d = settle(record(bettors=[{"name": "老" * 80, "tile": "6s"}])).as_dict()
    assert d["bettors"][0]["name"] == "老" * 80
    rec = record(bettors=[{"name": "老" * 81, "tile": "6s"}])
    assert problems_of(settle, rec) == [("invalid_bettor_name", "bettors[0].name")]


def test_a_draw_reads_only_the_four_seats():
    """Keys other than the seats are each refused (however many: only the four seats are read),
    the seats' hands are still read."""
    hands = {**FOUR_HANDS, "4": hand("123m"), "seat 5": hand("123m")}
    found = problems_of(settle, record([], draw={"hands": hands}))
    assert found == [("invalid_seat", "draw.hands.4"), ("invalid_seat", "draw.hands.seat 5")]
