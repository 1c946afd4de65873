"""The engine's bounds (``scoring/engine/bounds.py``): RULES §5 "amounts out of range" — base
1–10,000; cap at most 30 on fan curves and 1,000,000,000 on multiples and points; at most 8
bettors and 64 events — and the engine's own where RULES is silent (amounts within 2^53 − 1,
tile strings of at most 512 characters …). Each is refused with a stable code and a path; at the
bounds themselves, everything settles exactly and at once.
"""

from __future__ import annotations

import copy
import time

import pytest

from scoring.engine import (
    PRESETS,
    EngineError,
    option_schema,
    parse_tiles,
    resolve_ruleset,
    ruleset_from_description,
)
from scoring.engine.bounds import MAX_AMOUNT
from scoring.engine.described import largest_value
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


# --- the cap: 30 on fan curves, 1,000,000,000 on multiples and points --------------------------


@pytest.mark.parametrize(
    ("preset", "highest"),
    [("qq", 30), ("xuezhan9", 30), ("chengdu", 1_000_000_000), ("additive", 1_000_000_000)],
)
def test_the_cap_is_bounded_by_the_curve(preset, highest):
    """qq and xuezhan9 count fan (a cap of 30 fan is a value of 2^29 or 2^30); chengdu counts
    multiples, additive points."""
    assert resolve_ruleset({"preset": preset, "options": {"cap": highest}}).cap == highest
    spec = {"preset": preset, "options": {"cap": highest + 1}}
    assert problems_of(resolve_ruleset, spec) == [("cap_out_of_range", "ruleset.options.cap")]
    rec = record(ruleset=spec)
    assert problems_of(settle, rec) == [("cap_out_of_range", "ruleset.options.cap")]


def test_a_cap_of_a_billion_fan_with_a_huazhu_at_the_cap_is_refused_at_once():
    """Issue 11: ``cap: 10^9`` with ``huazhu: "cap"`` made the 花猪 penalty 2^(10^9 − 1) (1.4 s,
    1.2 GB). On a fan curve the cap is at most 30."""
    spec = {"preset": "qq", "options": {"cap": 10**9, "huazhu": "cap"}}
    assert problems_of(resolve_ruleset, spec) == [("cap_out_of_range", "ruleset.options.cap")]


def test_the_largest_huazhu_within_the_bounds_settles_exactly():
    """qq with cap 30 and 花猪 at the cap, base 10,000; nobody wins, all four show their hands
    (FOUR_HANDS): S0 is 花猪, S1 ready (平胡 → 1), S2 ready (best wait 3p: 平胡 + 根 = 2 fan
    → 2), S3 not ready.
    查花猪: the cap's value is 2^(30 − 1) = 536,870,912; × 10,000 = 5,368,709,120,000 from S0
    to each of S1, S2, S3. 查叫: S3 → S1 1 × 10,000, S3 → S2 2 × 10,000 (the 花猪 pays no 查叫).
    Totals: S0 −16,106,127,360,000; S1 5,368,709,130,000; S2 5,368,709,140,000;
    S3 5,368,709,120,000 − 30,000 = 5,368,709,090,000 — all below 2^53, so exact in any client.
    """
    spec = {"preset": "qq", "options": {"cap": 30, "huazhu": "cap"}}
    start = time.perf_counter()
    d = settle(record([], ruleset=spec, base=10_000, draw={"hands": FOUR_HANDS})).as_dict()
    assert time.perf_counter() - start < 1  # not a benchmark: the old 1.4 s would show here
    assert d["totals"]["seats"] == [
        -16_106_127_360_000,
        5_368_709_130_000,
        5_368_709_140_000,
        5_368_709_090_000,
    ]


@pytest.mark.parametrize("key", ["kong_concealed", "kong_added", "kong_direct", "huazhu"])
def test_amount_options_are_at_most_a_billion_base_units(key):
    assert resolve_ruleset({"preset": "qq", "options": {key: 10**9}}).as_dict()["options"][key]
    for too_many in (10**9 + 1, 10**5000):  # (the latter too long to print)
        spec = {"preset": "qq", "options": {key: too_many}}
        expected = [("option_out_of_range", f"ruleset.options.{key}")]
        assert problems_of(resolve_ruleset, spec) == expected


def test_a_cap_too_long_to_print_is_refused():
    spec = {"preset": "chengdu", "options": {"cap": 10**5000}}
    assert problems_of(resolve_ruleset, spec) == [("cap_out_of_range", "ruleset.options.cap")]


def test_the_options_schema_states_the_bounds():
    """GET /api/v1/rulesets/ shows option_schema(): each number's minimum, and its maximum per
    preset (the cap's by the preset's curve)."""
    schema = {o["key"]: o for o in option_schema()}
    assert schema["cap"]["minimum"] == 1
    assert schema["cap"]["maximum"] == {
        "qq": 30,
        "chengdu": 1_000_000_000,
        "additive": 1_000_000_000,
        "xuezhan9": 30,
        "tfmj2024": 30,
        "sbr": 30,
    }
    for key in ("kong_concealed", "kong_added", "kong_direct", "huazhu"):
        assert schema[key]["minimum"] == 0
        assert schema[key]["maximum"] == dict.fromkeys(PRESETS, 1_000_000_000)
    assert schema["mode"]["minimum"] is None and schema["mode"]["maximum"] is None


# --- every amount within 2^53 − 1 ------------------------------------------------------------

# 天胡: the dealer S0 self-draws 123m 456m 789m 11p 234p on his first 14 tiles. xuezhan9: 9 fan
# (+ 自摸 1 = 10, capped at 9) → 2^9 = 512 from each of S1, S2, S3.
HEAVENLY = win("4p", winner(0, PINGHU), situation=["heavenly"])


def test_an_amount_beyond_2_to_the_53_is_refused():
    """xuezhan9 at base 10,000 after 16 drawn hands in a row (×2^16), the dealer on his 17th
    hand (dealer_streak 16: ×2^15): the unit is 10,000 × 2^31 = 21,474,836,480,000, and each
    payment of the 天胡 512 × that = 10,995,116,277,760,000 > 2^53 − 1 =
    9,007,199,254,740,991: refused at the win (a JSON client would read it inexactly)."""
    session = {"draws_before": 16, "dealer_streak": 16}
    rec = record([HEAVENLY], ruleset="xuezhan9", base=10_000, session=session)
    assert problems_of(settle, rec) == [("amount_out_of_range", "events[0]")]


def test_a_total_beyond_2_to_the_53_is_refused():
    """The same with 15 drawn hands before: the unit 10,000 × 2^30 = 10,737,418,240,000, each
    payment 512 × that = 5,497,558,138,880,000 (within), but the dealer's total 3 × that =
    16,492,674,416,640,000 is not: refused for the hand as a whole."""
    session = {"draws_before": 15, "dealer_streak": 16}
    rec = record([HEAVENLY], ruleset="xuezhan9", base=10_000, session=session)
    assert problems_of(settle, rec) == [("amount_out_of_range", "")]


def test_the_largest_amounts_within_2_to_the_53_are_settled():
    """With 14 drawn hands before: the unit 10,000 × 2^29 = 5,368,709,120,000; each payment
    512 × that = 2,748,779,069,440,000; S0 +8,246,337,208,320,000 < 2^53 − 1."""
    session = {"draws_before": 14, "dealer_streak": 16}
    rec = record([HEAVENLY], ruleset="xuezhan9", base=10_000, session=session)
    d = settle(rec).as_dict()
    each = 2_748_779_069_440_000
    assert d["totals"]["seats"] == [3 * each, -each, -each, -each]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("cap", ["none", "highest"])
def test_no_preset_values_a_win_beyond_2_to_the_53(preset, cap):
    """Every preset with every optional pattern and extra switched on, uncapped or at the
    highest cap: the largest value it can give stays exact."""
    options = dict.fromkeys(("daiyaojiu", "jiangdui", "jingoudiao", "haidi", "juezhang"), True)
    options |= {"self_draw_bonus": "add_fan", "huazhu": "cap"}
    options["cap"] = None if cap == "none" else {"fan": 30}.get(PRESETS[preset].curve, 10**9)
    r = resolve_ruleset({"preset": preset, "options": options})
    assert largest_value(r) <= MAX_AMOUNT


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


# --- a stored description out of bounds --------------------------------------------------------


def _description(change):
    d = copy.deepcopy(resolve_ruleset("qq").as_dict())
    change(d)
    return d


def _row(d, code):
    return next(row for row in d["patterns"] if row["code"] == code)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        # its options are bounded as a spec's are (qq counts fan: a cap of at most 30)
        (lambda d: d["options"].update(cap=31), ("cap_out_of_range", "options.cap")),
        (lambda d: d["defaults"].update(kong_added=10**9 + 1),
         ("option_out_of_range", "defaults.kong_added")),
        # a table value is in the curve's unit, bounded as the cap is
        (lambda d: _row(d, "qingyise").update(value=31),
         ("invalid_description", "patterns[2].value")),
        (lambda d: _row(d, "qingyise").update(roots_included=5),
         ("invalid_description", "patterns[2].roots_included")),
        (lambda d: d["extras"][0].update(steps=31), ("invalid_description", "extras[0].steps")),
        (lambda d: d.update(fan_offset=31), ("invalid_description", "fan_offset")),
        # every part within its bound, and still too much: uncapped, 30 fan for 清一色 and 10 fan
        # per 根 (four of them 40) make 2^69 and more
        (lambda d: (_row(d, "qingyise").update(value=30), d["extras"][0].update(steps=10)),
         ("value_out_of_range", "")),
    ],
    ids=["cap", "kong", "value", "roots", "steps", "offset", "largest"],
)  # fmt: skip
def test_a_description_out_of_bounds_is_refused(change, problem):
    assert problem in problems_of(ruleset_from_description, _description(change))


def test_a_description_at_the_bounds_is_accepted():
    """qq with cap 30 and 清一色 worth 30 fan: capped, the largest value is 2^29 (+1)."""

    def change(d):
        d["options"]["cap"] = 30
        _row(d, "qingyise")["value"] = 30

    r = ruleset_from_description(_description(change))
    assert (r.cap, largest_value(r)) == (30, 2**29 + 1)
