"""Whatever a stranger sends, the engine answers an ``EngineError`` with a path and a code
(RULES §5: where, what, why), never another exception: a tile or a preset given as a list or
an object, a lone Unicode surrogate, an integer too long for Python to print, input nested far
deeper than Python recurses. Every message and path can be written as UTF-8 JSON, and stays
short whatever it repeats.
"""

from __future__ import annotations

import json

import pytest

from scoring.engine import (
    EngineError,
    parse_tile,
    parse_tiles,
    parse_waiting_hand,
    parse_winning_hand,
    resolve_ruleset,
    ruleset_from_description,
)
from scoring.engine.settle import settle

from .builders import kong, meld, win, winner

PINGHU = "123m456m789m11p23p"  # + 4p: 123m 456m 789m 11p 234p — 平胡
OK_WIN = win("4p", winner(1, PINGHU), frm=2)

#: far beyond Python's 4,300-digit limit for printing an int
HUGE = 10**5000


def nested(depth: int = 100_000, *, obj: bool = False):
    """A list (or an object) nested ``depth`` deep: far beyond Python's recursion limit."""
    inner: list | dict = {} if obj else []
    for _ in range(depth):
        inner = {"a": inner} if obj else [inner]
    return inner


def record(events=(OK_WIN,), **kw):
    rec = {"ruleset": "qq", "base": 1, "dealer": 0, "events": list(events)}
    rec.update(kw)
    return rec


def refusal(fn, *args) -> list[tuple[str, str]]:
    """The (code, path) of each problem of the EngineError ``fn(*args)`` raises, after checking
    the answer can be sent: UTF-8 JSON, and short."""
    with pytest.raises(EngineError) as info:
        fn(*args)
    answer = json.dumps(info.value.as_dicts(), ensure_ascii=False).encode("utf-8")
    assert len(answer) < 600 * len(info.value.problems)
    for p in info.value.problems:
        assert p.code and p.message and isinstance(p.path, str)
    return [(p.code, p.path) for p in info.value.problems]


# --- a tile given as a list or an object (tiles.py) ------------------------------------------


@pytest.mark.parametrize("value", [["4p"], {"rank": 4, "suit": "p"}, nested(), nested(obj=True)])
def test_a_tile_given_as_a_list_or_an_object(value):
    """``parse_tile`` looked the value up in a dict first: a list or an object is not hashable
    (a TypeError, a 500). It is a notation error like any other."""
    assert refusal(parse_tile, value, "tile") == [("notation_type", "tile")]
    assert refusal(parse_tiles, value, "concealed") == [("notation_type", "concealed")]


@pytest.mark.parametrize(
    ("rec", "path"),
    [
        (record([{**OK_WIN, "tile": ["4p"]}]), "events[0].tile"),
        (record([kong(1, "concealed", {"tile": "9s"})]), "events[0].tile"),
        (record(bettors=[{"name": "老王", "tile": ["6s"]}]), "bettors[0].tile"),
        (record([win("4p", winner(1, "123m456m11p23p", [meld("pung", ["9m"])]), frm=2)]),
         "events[0].winners[0].melds[0].tile"),
    ],
    ids=["win", "kong", "bettor", "meld"],
)  # fmt: skip
def test_a_tile_given_as_a_list_or_an_object_in_a_record(rec, path):
    assert ("notation_type", path) in refusal(settle, rec)


@pytest.mark.parametrize("value", [["ready"], {"declared": "huazhu"}])
def test_a_draw_declaration_given_as_a_list_or_an_object(value):
    """The declaration of a player at the draw was looked up in a dict: a list is not hashable
    (a TypeError, found by tests/scoring/engine/settle/test_fuzz.py)."""
    rec = record(draw={"hands": {"0": {"declared": value}}})
    assert ("invalid_draw_declaration", "draw.hands.0.declared") in refusal(settle, rec)


def test_a_winning_tile_given_as_a_list():
    hand = {"concealed": PINGHU, "winning_tile": ["4p"]}
    assert refusal(parse_winning_hand, hand) == [("notation_type", "winning_tile")]


# --- a preset given as a list or an object (rulesets.py) -------------------------------------


@pytest.mark.parametrize(
    "name", [nested(), nested(obj=True), ["qq"] * 1_000_000], ids=["list", "object", "long"]
)
def test_a_preset_given_as_a_list_or_an_object(name):
    """The message repeated the value: a deep one could not be printed at all (RecursionError),
    a long one made a megabyte answer. The preset is named by a string: ``unknown_preset``."""
    assert refusal(resolve_ruleset, {"preset": name}) == [("unknown_preset", "ruleset.preset")]
    assert refusal(settle, record(ruleset={"preset": name})) == [
        ("unknown_preset", "ruleset.preset")
    ]


@pytest.mark.parametrize("value", [nested(), nested(obj=True)], ids=["list", "object"])
def test_an_option_given_as_a_deep_list_or_object(value):
    found = refusal(resolve_ruleset, {"preset": "chengdu", "options": {"cap": value}})
    assert found == [("invalid_option", "ruleset.options.cap")]


# --- a lone surrogate in what is echoed back ---------------------------------------------------


@pytest.mark.parametrize(
    ("rec", "code", "path"),
    [
        (record(**{"\ud800": 1}), "unknown_field", "\\ud800"),
        (record(ruleset={"preset": "qq", "\udfff": 1}), "unknown_field", "ruleset.\\udfff"),
        (record(ruleset={"preset": "qq", "options": {"cap\ud800": 3}}), "unknown_option",
         "ruleset.options.cap\\ud800"),
        (record([{**OK_WIN, "\ud83d": True}]), "unknown_field", "events[0].\\ud83d"),
        (record([win("4p", winner(1, "123m456m11p23p", [{**meld("pung", "9m"), "\udc00": 1}]),
                     frm=2)]),
         "unknown_field", "events[0].winners[0].melds[0].\\udc00"),
        (record(draw={"hands": {"\ud800": {"concealed": PINGHU}}}), "invalid_seat",
         "draw.hands.\\ud800"),
        (record(session={"draws_\ud800": 1}), "unknown_field", "session.draws_\\ud800"),
    ],
    ids=["record", "ruleset", "option", "event", "meld", "draw-hand", "session"],
)  # fmt: skip
def test_a_lone_surrogate_in_a_path_is_escaped(rec, code, path):
    """A misspelt key is echoed in the path; JSON can carry a lone surrogate (``"\\ud800"``),
    UTF-8 cannot, so the answer failed as it was sent (a 500). The path writes it as its
    escape."""
    assert (code, path) in refusal(settle, rec)


def test_a_bettor_name_with_a_lone_surrogate_is_refused():
    """The settlement repeats every bettor's name: one that UTF-8 cannot carry would make the
    answer fail as it is sent. Refused as ``invalid_bettor_name``."""
    rec = record(bettors=[{"name": "老\ud800王", "tile": "6s"}])
    assert refusal(settle, rec) == [("invalid_bettor_name", "bettors[0].name")]


def test_a_description_with_a_lone_surrogate_is_refused():
    """The fingerprint hashes the description's UTF-8: a lone surrogate made that fail outside
    the check that reports a description as not plain JSON."""
    description = resolve_ruleset("qq").as_dict() | {"source": "seed \ud800"}
    assert refusal(ruleset_from_description, description) == [("invalid_description", "")]


# --- integers too long to print ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rec", "code", "path"),
    [
        (record(dealer=HUGE), "invalid_seat", "dealer"),
        (record([win("4p", winner(HUGE, PINGHU), frm=2)]), "invalid_seat",
         "events[0].winners[0].seat"),
        (record(mode=HUGE), "invalid_mode", "mode"),
        (record([{"type": HUGE}]), "invalid_event_type", "events[0].type"),
        (record([kong(1, HUGE, "9s")]), "invalid_kong_kind", "events[0].kind"),
        (record([win("4p", winner(1, "123m456m11p23p", [meld(HUGE, "9m")]), frm=2)]),
         "invalid_meld_kind", "events[0].winners[0].melds[0].kind"),
        (record(declared_void=[HUGE, None, None, None]), "invalid_suit", "declared_void[0]"),
        (record(ruleset={"preset": HUGE}), "unknown_preset", "ruleset.preset"),
        (record(ruleset={"preset": "qq", "options": {"huazhu": -HUGE}}), "invalid_option",
         "ruleset.options.huazhu"),
        (record(draw={"hands": {"0": {"concealed": PINGHU, "melds": [meld(-HUGE, "9m")]}}}),
         "invalid_meld_kind", "draw.hands.0.melds[0].kind"),
    ],
    ids=["dealer", "seat", "mode", "event-type", "kong-kind", "meld-kind", "void", "preset",
         "option", "draw-meld"],
)  # fmt: skip
def test_an_integer_too_long_to_print(rec, code, path):
    """Messages repeated the value with ``repr``, which Python refuses for an int of more than
    4,300 digits (``ValueError: Exceeds the limit``, a 500). It is described by its size."""
    assert (code, path) in refusal(settle, rec)


def test_an_integer_too_long_to_print_is_described_by_its_size():
    with pytest.raises(EngineError) as info:
        settle(record(dealer=HUGE))
    assert "an integer of about 5001 digits" in info.value.problems[0].message


# --- input nested far deeper than Python recurses ----------------------------------------------


@pytest.mark.parametrize(
    ("rec", "code", "path"),
    [
        (record(mode=nested()), "invalid_mode", "mode"),
        (record(mode=nested(obj=True)), "invalid_mode", "mode"),
        (record([kong(1, nested(), "9s")]), "invalid_kong_kind", "events[0].kind"),
        (record([{"type": nested(obj=True)}]), "invalid_event_type", "events[0].type"),
        (record(declared_void=[nested(), None, None, None]), "invalid_suit",
         "declared_void[0]"),
        (record(dealer=nested(obj=True)), "invalid_seat", "dealer"),
    ],
    ids=["mode-list", "mode-object", "kong-kind", "event-type", "void", "dealer"],
)  # fmt: skip
def test_deeply_nested_input_in_a_record(rec, code, path):
    """Messages repeated the value with ``repr``, which recursed into it (RecursionError, a
    500). A list or an object is named, never printed."""
    assert (code, path) in refusal(settle, rec)


def test_deeply_nested_input_in_a_hand():
    hand = {"concealed": "1m", "winning_tile": "1m", "declared_void": nested()}
    assert refusal(parse_winning_hand, hand) == [("invalid_suit", "declared_void")]
    found = refusal(parse_waiting_hand, {"concealed": nested(), "visible": nested(obj=True)})
    assert found == [("notation_type", "concealed"), ("notation_type", "visible")]


@pytest.mark.parametrize("where", ["title", "patterns", "options"])
def test_a_deeply_nested_description(where):
    """The fingerprint's canonical JSON recursed into the description (RecursionError outside
    the check that reports a description as not plain JSON)."""
    description = resolve_ruleset("qq").as_dict() | {where: nested(obj=True)}
    assert refusal(ruleset_from_description, description) == [("invalid_description", "")]
    assert refusal(ruleset_from_description, nested(obj=True)) == [("invalid_description", "")]


def test_a_description_whose_pattern_code_is_a_list():
    """The table's codes were gathered into a set: a list as a code is not hashable."""
    row = {"code": ["pinghu"], "zh": "平胡", "en": "All sequences", "value": 1,
           "roots_included": 0, "option": None}  # fmt: skip
    description = resolve_ruleset("qq").as_dict() | {"patterns": [row]}
    found = refusal(ruleset_from_description, description)
    assert ("invalid_description", "patterns[0].code") in found
