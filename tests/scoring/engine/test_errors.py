"""One problem collector for every parser: each reports every problem of its input at once,
with a path and a code (RULES §5: where, what, why)."""

from __future__ import annotations

import json

import pytest

from scoring.engine import EngineError, parse_waiting_hand, parse_winning_hand, resolve_ruleset
from scoring.engine.errors import Collector
from scoring.engine.settle import settle


def codes_and_paths(fn, *args):
    with pytest.raises(EngineError) as info:
        fn(*args)
    return [(p.code, p.path) for p in info.value.problems]


def test_collector_attempt_keeps_the_problems_and_returns_the_default():
    c = Collector()
    assert c.attempt(resolve_ruleset, "riichi", "ruleset", default="qq") == "qq"
    assert len(c) == 1 and c.problems[0].code == "unknown_preset"
    c.add("invalid_base", "base is a whole number ≥ 1", "base")
    with pytest.raises(EngineError) as info:
        c.raise_if_any()
    assert [p.path for p in info.value.problems] == ["ruleset", "base"]
    Collector().raise_if_any()  # nothing found: nothing raised


def test_a_winning_hand_reports_every_field_at_once():
    found = codes_and_paths(
        parse_winning_hand,
        {
            "concealed": "123x",
            "winning_tile": "0m",
            "melds": [{"kind": "chow", "tile": "1m"}],
            "self_draw": "yes",
            "situation": ["kong_flower", "moonlight"],
            "declared_void": "z",
        },
        "events[0]",
    )
    assert found == [
        ("notation_character", "events[0].concealed"),
        ("notation_rank", "events[0].winning_tile"),
        ("invalid_meld_kind", "events[0].melds[0].kind"),
        ("invalid_type", "events[0].self_draw"),
        ("unknown_situation", "events[0].situation[1]"),
        ("invalid_suit", "events[0].declared_void"),
    ]


def test_a_waiting_hand_reports_every_field_at_once():
    found = codes_and_paths(
        parse_waiting_hand,
        {"concealed": "12", "melds": "pung", "declared_void": "x", "visible": "9"},
    )
    assert found == [
        ("notation_missing_suit", "concealed"),
        ("invalid_melds", "melds"),
        ("invalid_suit", "declared_void"),
        ("notation_missing_suit", "visible"),
    ]


def test_a_ruleset_reports_every_option_at_once():
    found = codes_and_paths(
        resolve_ruleset, {"preset": "qq", "options": {"cap": 0, "colour": 1, "haidi": "yes"}}
    )
    assert found == [
        ("invalid_option", "ruleset.options.cap"),
        ("unknown_option", "ruleset.options.colour"),
        ("invalid_option", "ruleset.options.haidi"),
    ]


# --- an answer lists at most 100 problems (RULES §5) ------------------------------------------


def test_an_answer_lists_at_most_100_problems_the_last_saying_how_many_more():
    """250 problems found: the first 99 are listed, and the 100th says the other
    250 − 99 = 151 were not shown (``too_many_errors``, at the input itself)."""
    c = Collector()
    for i in range(250):
        c.add("invalid_seat", "a seat is 0, 1, 2 or 3", f"events[{i}].seat")
    assert len(c) == 250
    assert len(c.problems) == 100  # the collector keeps no more than an answer lists
    with pytest.raises(EngineError) as info:
        c.raise_if_any()
    problems = info.value.problems
    assert len(problems) == 100
    assert [p.path for p in problems[:99]] == [f"events[{i}].seat" for i in range(99)]
    assert (problems[99].code, problems[99].path) == ("too_many_errors", "")
    assert problems[99].message == "151 more problems not shown"
    assert info.value.omitted == 151


def test_exactly_100_problems_are_all_listed():
    c = Collector()
    for i in range(100):
        c.add("invalid_seat", "a seat is 0, 1, 2 or 3", f"events[{i}].seat")
    with pytest.raises(EngineError) as info:
        c.raise_if_any()
    assert len(info.value.problems) == 100
    assert "too_many_errors" not in {p.code for p in info.value.problems}


def test_problems_left_out_by_an_inner_refusal_are_still_counted():
    """A refusal that listed 99 of its 130 problems (and said 31 more) is taken whole into the
    collector of the input around it: with 5 problems of its own that collector found 135, so
    its answer lists 99 and says 135 − 99 = 36 more."""
    inner = Collector()
    for i in range(130):
        inner.add("unknown_option", "unknown option", f"ruleset.options.x{i}")
    outer = Collector()
    for i in range(5):
        outer.add("invalid_seat", "a seat is 0, 1, 2 or 3", f"events[{i}].seat")
    outer.attempt(inner.raise_if_any)
    assert len(outer) == 135
    problems = outer.listed()
    assert len(problems) == 100
    assert problems[99].message == "36 more problems not shown"
    assert "too_many_errors" not in {p.code for p in problems[:99]}


def test_a_record_with_150_misspelt_keys_lists_100_problems():
    """One win event with 150 unknown keys (x000 … x149): 150 ``unknown_field`` problems, of
    which the answer lists the first 99 (x000 … x098, in key order) and says 51 more."""
    event = {
        "type": "win",
        "from": 2,
        "tile": "4p",
        "winners": [{"seat": 1, "concealed": "123m456m789m11p23p"}],
        **{f"x{i:03d}": 1 for i in range(150)},
    }
    with pytest.raises(EngineError) as info:
        settle({"ruleset": "qq", "events": [event]})
    problems = info.value.problems
    assert len(problems) == 100
    assert problems[98].path == "events[0].x098"
    assert (problems[99].code, problems[99].message) == (
        "too_many_errors",
        "51 more problems not shown",
    )


def test_a_huge_body_of_mistakes_gets_a_small_answer():
    """Issue 11: a 2.6 MB body to /waits made a 177 MB error answer. 100,000 wrong melds, each
    with a bad kind and a bad tile, answer at most 100 problems, each message short."""
    data = {"concealed": "1m", "melds": [{"kind": "chow", "tile": "0m" * 1000}] * 100_000}
    with pytest.raises(EngineError) as info:
        parse_waiting_hand(data)
    problems = info.value.problems
    assert len(problems) <= 100
    assert len(json.dumps(info.value.as_dicts(), ensure_ascii=False)) < 30_000
