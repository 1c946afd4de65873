"""One problem collector for every parser: each reports every problem of its input at once,
with a path and a code (RULES §5: where, what, why)."""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, parse_waiting_hand, parse_winning_hand, resolve_ruleset
from scoring.engine.errors import Collector


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
