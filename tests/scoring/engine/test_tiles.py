"""Notation in and out (RULES §1)."""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, format_tiles, parse_suit, parse_tile, parse_tiles


@pytest.mark.parametrize(
    ("text", "compact"),
    [
        ("123m456p789s", "123m456p789s"),
        ("789s456p123m", "123m456p789s"),  # output is sorted m, p, s then rank
        ("123万456筒789条", "123m456p789s"),
        ("12饼3铜", "123p"),
        ("99索", "99s"),
        ("1 2 3 m\t4p", "123m4p"),  # whitespace is ignored
        ("11223344556677m", "11223344556677m"),
        ("5p", "5p"),
        ("", ""),
    ],
)
def test_parse_and_format(text, compact):
    assert format_tiles(parse_tiles(text)) == compact


def test_tiles_are_ints_from_0_to_26():
    assert parse_tiles("1m9m1p9p1s9s") == (0, 8, 9, 17, 18, 26)


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("1203m", "notation_rank", 2),
        ("123x", "notation_character", 3),
        ("123", "notation_missing_suit", 0),
        ("12m34", "notation_missing_suit", 3),
        ("m123", "notation_suit_without_rank", 0),
        ("12m东", "notation_character", 3),
    ],
)
def test_bad_notation_names_code_and_position(text, code, position):
    with pytest.raises(EngineError) as info:
        parse_tiles(text, "concealed")
    assert info.value.code == code
    assert info.value.position == position
    assert info.value.path == "concealed"
    assert str(position) in info.value.problems[0].message


def test_parse_tile_wants_exactly_one():
    assert parse_tile("7s") == 24
    with pytest.raises(EngineError) as info:
        parse_tile("77s")
    assert info.value.code == "not_one_tile"


def test_parse_suit():
    assert [parse_suit(x) for x in ("m", "p", "s", "万", "筒", "条", None)] == [
        0,
        1,
        2,
        0,
        1,
        2,
        None,
    ]
    with pytest.raises(EngineError):
        parse_suit("z")


def test_non_string_is_refused():
    with pytest.raises(EngineError) as info:
        parse_tiles(123)  # type: ignore[arg-type]
    assert info.value.code == "notation_type"
